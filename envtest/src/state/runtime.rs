//! The embedded server's own threads: a tokio runtime per server that runs every
//! request's handling, watch streams, the loopback listener and the controllers, so
//! nothing the test does with its own runtime (a current-thread `#[tokio::test]`, a
//! blocking call, a reconcile loop that never stops rewriting status) can starve the
//! server, as a kube-apiserver in its own process is never starved by its clients.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::runtime::{Handle, Runtime};
use tokio::task::{JoinError, JoinHandle};

/// Worker threads per server: two keep one slow request (a large list, a webhook
/// call) from holding up the rest; more than four would only multiply idle threads
/// across the many servers a test binary makes.
fn worker_threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 4))
}

/// The runtime, shut down (without waiting) when the server is dropped: its tasks end
/// with it, whichever thread drops the last handle, a server thread included.
pub(crate) struct ServerRuntime {
    runtime: Option<Runtime>,
    handle: Handle,
}

impl ServerRuntime {
    /// A new runtime of its own threads.
    ///
    /// # Panics
    /// When the operating system refuses the threads (out of memory or of its thread
    /// limit), where no test could run anyway.
    pub fn new() -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(worker_threads())
            .thread_name("envtest-apiserver")
            .enable_all()
            .build()
            .unwrap_or_else(|error| panic!("the embedded API server cannot start its threads: {error}"));
        let handle = runtime.handle().clone();
        Self {
            runtime: Some(runtime),
            handle,
        }
    }

    /// The runtime's handle, to spawn on or `enter`.
    pub fn handle(&self) -> &Handle {
        &self.handle
    }

    /// Runs `future` on the server's threads; dropping the returned handle cancels it,
    /// as dropping the future would have (a request the client gave up on never
    /// arrives).
    pub fn spawn<F>(&self, future: F) -> Task<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        Task(self.handle.spawn(future))
    }
}

/// A task on the server's threads that is cancelled when this is dropped; an error
/// when the runtime shut down before it finished.
pub(crate) struct Task<T>(JoinHandle<T>);

impl<T> Future for Task<T> {
    type Output = Result<T, JoinError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.0).poll(cx)
    }
}

impl<T> Drop for Task<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Drop for ServerRuntime {
    fn drop(&mut self) {
        // Never blocks, so it is safe inside async code and on the runtime's own threads.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}
