//! The embedded server's own threads: a tokio runtime per server that runs every
//! request's handling, watch streams, the loopback listener and the controllers, so
//! nothing the test does with its own runtime (a current-thread `#[tokio::test]`, a
//! blocking call, a reconcile loop that never stops rewriting status) can starve the
//! server, as a kube-apiserver in its own process is never starved by its clients.
//!
//! A request's handling is a [`Task`] on those threads. Its client gives it up by
//! dropping the `Task`; a request given up before it *arrived* (the moment the
//! witnesses record it and the write begins) never arrives, and one that arrived did so
//! before the drop returned. Aborting the task alone cannot promise that: an abort only
//! takes effect at the task's next await, so a server thread in the middle of the
//! handling records the arrival after the client has already moved on (a fenced write
//! cancelled at its term's end then seemed to arrive after the term). The [`Claim`]
//! orders the two under one lock.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use parking_lot::Mutex;
use tokio::runtime::{Handle, Runtime};
use tokio::sync::Notify;
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
    /// as dropping the future would have. Inside `future`, [`arrive`] waits until the
    /// returned `Task` is first polled, and does nothing once it was dropped: a request
    /// the client gave up on never arrives.
    pub fn spawn<F>(&self, future: F) -> Task<F::Output>
    where
        F: Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let claim = Arc::new(Claim::default());
        let handle = self.handle.spawn(CLAIM.scope(claim.clone(), future));
        Task {
            handle,
            claim,
            polled: false,
        }
    }
}

/// How far the client of a request has got with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Interest {
    /// The request was handed over, the `Task` not yet polled: kube's `Buffer` calls
    /// the service on its own task and hands the `Task` to the caller, who may have
    /// given up meanwhile (then the `Task` is dropped unpolled).
    #[default]
    Sent,
    /// The caller polls the `Task`: it wants the answer.
    Awaited,
    /// The `Task` was dropped.
    Abandoned,
}

/// One request's [`Interest`], shared by its `Task` and its handling.
#[derive(Default)]
pub(crate) struct Claim {
    interest: Mutex<Interest>,
    changed: Notify,
}

impl Claim {
    fn set(&self, interest: Interest) {
        let mut current = self.interest.lock();
        if *current != Interest::Abandoned {
            *current = interest;
        }
        drop(current);
        self.changed.notify_one();
    }
}

tokio::task_local! {
    static CLAIM: Arc<Claim>;
}

/// Runs `arrival` (the witnesses' record of the request, the start of its handling)
/// once the client awaits the request, and returns what it returned; None, without
/// running it, when the client gave the request up first. It runs under the claim's
/// lock, so a client's drop of the `Task` returns either before it (and it never runs)
/// or after it returned. Outside a `Task` (a request on the server's HTTP listener
/// handled in place) it just runs.
pub(crate) async fn arrive<T>(arrival: impl FnOnce() -> T) -> Option<T> {
    let Ok(claim) = CLAIM.try_with(Arc::clone) else {
        return Some(arrival());
    };
    loop {
        // Registered before the check, so a change after it wakes the wait below.
        let changed = claim.changed.notified();
        tokio::pin!(changed);
        changed.as_mut().enable();
        {
            let interest = claim.interest.lock();
            match *interest {
                Interest::Awaited => return Some(arrival()),
                Interest::Abandoned => return None,
                Interest::Sent => {}
            }
        }
        changed.await;
    }
}

/// A task on the server's threads that is cancelled when this is dropped; an error
/// when the runtime shut down before it finished.
pub(crate) struct Task<T> {
    handle: JoinHandle<T>,
    claim: Arc<Claim>,
    polled: bool,
}

impl<T> Future for Task<T> {
    type Output = Result<T, JoinError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        if !self.polled {
            self.polled = true;
            self.claim.set(Interest::Awaited);
        }
        Pin::new(&mut self.handle).poll(cx)
    }
}

impl<T> Drop for Task<T> {
    fn drop(&mut self) {
        // Under the claim's lock: an arrival in progress finishes before this returns.
        self.claim.set(Interest::Abandoned);
        self.handle.abort();
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
