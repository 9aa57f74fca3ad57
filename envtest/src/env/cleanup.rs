//! What helpers ask a [`TestEnv`](super::TestEnv) to undo when it stops: cluster-wide
//! objects a test registered (webhook configurations, a CRD's conversion), servers it
//! started. Run by `stop`, newest first, and, when the test ends without `stop` (a
//! panic, an early return), by the environment's drop on a thread and runtime of its
//! own, since the test's runtime may be ending.

use futures::future::BoxFuture;
use parking_lot::Mutex;

/// One thing to undo, given a client of the environment.
type Cleanup = Box<dyn FnOnce(kube::Client) -> BoxFuture<'static, ()> + Send>;

/// The cleanups registered so far, in registration order.
#[derive(Default)]
pub(crate) struct Cleanups(Mutex<Vec<Cleanup>>);

impl Cleanups {
    pub fn push(&self, cleanup: Cleanup) {
        self.0.lock().push(cleanup);
    }

    pub fn is_empty(&self) -> bool {
        self.0.lock().is_empty()
    }

    /// Runs every cleanup, newest first (what was registered last may depend on what
    /// came before, as a webhook configuration on its server), each to its end.
    pub async fn run(&self, client: &kube::Client) {
        let cleanups = std::mem::take(&mut *self.0.lock());
        for cleanup in cleanups.into_iter().rev() {
            cleanup(client.clone()).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use parking_lot::Mutex;

    use crate::TestEnv;

    /// Records what each cleanup saw: its name, and whether its client reached the API.
    type Log = Arc<Mutex<Vec<(&'static str, bool)>>>;

    fn record(env: &TestEnv, log: &Log, name: &'static str) {
        let log = log.clone();
        env.on_stop(move |client| async move {
            let reached = client.apiserver_version().await.is_ok();
            log.lock().push((name, reached));
        });
    }

    #[tokio::test]
    async fn cleanups_run_at_stop_newest_first_with_a_working_client() {
        let env = TestEnv::start().await.expect("an environment");
        let log = Log::default();
        record(&env, &log, "first");
        record(&env, &log, "second");
        env.stop().await;
        assert_eq!(*log.lock(), [("second", true), ("first", true)]);
    }

    #[test]
    fn a_test_that_panics_still_cleans_up() {
        let log = Log::default();
        let test = std::thread::spawn({
            let log = log.clone();
            move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime");
                runtime.block_on(async move {
                    let env = TestEnv::start().await.expect("an environment");
                    record(&env, &log, "registered");
                    panic!("the test fails before it stops its environment");
                });
            }
        });
        assert!(test.join().is_err(), "the test panicked");
        assert_eq!(
            *log.lock(),
            [("registered", true)],
            "the cleanup ran when the environment dropped"
        );
    }
}
