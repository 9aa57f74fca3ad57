//! What one request may take of the process besides its bytes (the manager's
//! `ByteBudget` counts those): a thread to decide on, the [`DecisionPool`].
//!
//! Decisions run off the I/O threads
//! because decoding and deciding on a large object is CPU work with no await point:
//! on the runtime's workers it would hold up every other connection, and the
//! manager's `/healthz`, until it ends.

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures::FutureExt as _;
use tokio::runtime::Handle;
use tokio::sync::{Semaphore, oneshot};
use tokio::time::Instant;
use wheelhouse_manager::serve::panic_message;

/// Bounded sets of threads for decisions: each runs a request's whole decision
/// (decode, webhook, patch, encode) as one job, so the runtime's I/O workers only
/// move bytes. Jobs beyond the bound wait for a thread within their deadline.
///
/// Bodies of [`LARGE_BODY`] or more decide on threads of their own, so that a queue
/// of maximal bodies (which only a client other than kube-apiserver sends: its
/// objects are smaller) cannot hold up the reviews of ordinary objects.
///
/// Bodies under `inline_below` decide on the I/O worker that read them: decoding a
/// few kilobytes costs less than the two thread handoffs a pool thread takes, which
/// halved the throughput of ordinary reviews when every decision went to the pool.
/// Their deadline still holds at every await; only the synchronous part of a small
/// decision (bounded by its size, plus the webhook's own code) runs on the worker.
pub(crate) struct DecisionPool {
    threads: Arc<Semaphore>,
    large_threads: Arc<Semaphore>,
    size: usize,
    inline_below: usize,
}

/// The body size from which a decision runs among the large ones.
pub(crate) const LARGE_BODY: usize = 1024 * 1024;

/// Why a decision has no answer.
#[derive(Debug)]
pub(crate) enum Undecided {
    /// The deadline passed, waiting for a thread or for the decision.
    Late,
    /// The decision panicked; the panic's message.
    Panicked(String),
    /// The job ended without answering.
    Lost,
}

impl DecisionPool {
    pub fn new(size: usize, inline_below: usize) -> Self {
        let size = size.max(1);
        Self {
            threads: Arc::new(Semaphore::new(size)),
            large_threads: Arc::new(Semaphore::new(size)),
            size,
            inline_below,
        }
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// Runs `decide` (on a body of `body_bytes`) on a pool thread and returns its
    /// answer, or `Late` at `deadline`. The future is driven on that thread with the runtime's timers and
    /// I/O, and dropped at the deadline at its next await; CPU work between awaits
    /// cannot be interrupted, but it holds one thread of the bound, not an I/O worker.
    pub async fn run<T, F>(&self, deadline: Instant, body_bytes: usize, decide: F) -> Result<T, Undecided>
    where
        T: Send + 'static,
        F: Future<Output = T> + Send + 'static,
    {
        if body_bytes < self.inline_below {
            return match tokio::time::timeout_at(deadline, AssertUnwindSafe(decide).catch_unwind()).await {
                Ok(Ok(decided)) => Ok(decided),
                Ok(Err(panic)) => Err(Undecided::Panicked(panic_message(&*panic))),
                Err(_) => Err(Undecided::Late),
            };
        }
        let threads = if body_bytes >= LARGE_BODY {
            &self.large_threads
        } else {
            &self.threads
        };
        let thread = tokio::time::timeout_at(deadline, threads.clone().acquire_owned())
            .await
            .map_err(|_| Undecided::Late)?
            .map_err(|_| Undecided::Lost)?;
        let (answer, answered) = oneshot::channel();
        let runtime = Handle::current();
        tokio::task::spawn_blocking(move || {
            let decided = runtime.block_on(tokio::time::timeout_at(
                deadline,
                AssertUnwindSafe(decide).catch_unwind(),
            ));
            drop(thread);
            if let Ok(decided) = decided {
                let _ = answer.send(decided.map_err(|panic| panic_message(&*panic)));
            }
        });
        match tokio::time::timeout_at(deadline, answered).await {
            Ok(Ok(Ok(decided))) => Ok(decided),
            Ok(Ok(Err(panic))) => Err(Undecided::Panicked(panic)),
            Ok(Err(_)) if Instant::now() >= deadline => Err(Undecided::Late),
            Ok(Err(_)) => Err(Undecided::Lost),
            Err(_) => Err(Undecided::Late),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_pool_answers_late_at_the_deadline_and_never_runs_more_than_its_size() {
        use std::sync::atomic::{AtomicBool, Ordering};

        let pool = DecisionPool::new(1, 0);
        let soon = Instant::now() + Duration::from_millis(200);
        let finished = Arc::new(AtomicBool::new(false));
        // A decision that burns its thread past the deadline, with no await.
        let spinning = pool.run(soon, 0, {
            let finished = finished.clone();
            async move {
                std::thread::sleep(Duration::from_secs(2));
                finished.store(true, Ordering::SeqCst);
                1
            }
        });
        let waiting = pool.run(soon, 0, async { 2 });
        let (spun, waited) = tokio::join!(spinning, waiting);
        assert!(matches!(spun, Err(Undecided::Late)));
        assert!(matches!(waited, Err(Undecided::Late)), "the only thread was taken");
        assert!(
            !finished.load(Ordering::SeqCst),
            "answered at the deadline, not after the work"
        );

        let later = Instant::now() + Duration::from_secs(10);
        assert_eq!(
            pool.run(later, LARGE_BODY, async { 3 }).await.unwrap(),
            3,
            "large bodies have threads of their own"
        );
        assert_eq!(pool.run(later, 0, async { 4 }).await.unwrap(), 4);
        let panicked = pool.run(later, 0, async { panic!("in a decision") }).await;
        assert!(matches!(panicked, Err(Undecided::Panicked(message)) if message == "in a decision"));

        // Small bodies decide where they are, with the same deadline and catch.
        let inline = DecisionPool::new(1, 1024);
        assert_eq!(inline.run(later, 10, async { 5 }).await.unwrap(), 5);
        let soon = Instant::now() + Duration::from_millis(100);
        let waiting = inline.run(soon, 10, std::future::pending::<()>()).await;
        assert!(matches!(waiting, Err(Undecided::Late)));
        let panicked = inline.run(later, 10, async { panic!("inline") }).await;
        assert!(matches!(panicked, Err(Undecided::Panicked(message)) if message == "inline"));
    }
}
