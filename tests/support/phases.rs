//! What the phase-scheduler tests share: running a controller on its own task,
//! recording worker calls, and bounded waiting.

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use wheelhouse::cache::Cache;
use wheelhouse::controller::{Controller, ObjectKey};

/// How long anything may take to happen; generous for a busy real cluster.
pub const TIMEOUT: Duration = Duration::from_mins(1);

/// Waits until `check` holds, or fails the test naming `what`.
pub async fn eventually<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    wheelhouse_envtest::eventually_within(TIMEOUT, what, || {
        let done = check();
        async move { done.await.then_some(()) }
    })
    .await;
}

/// Every worker call, in order: (resource name, phase).
#[derive(Clone, Default)]
pub struct Calls(Arc<Mutex<Vec<(String, String)>>>);

impl Calls {
    /// Records a call; give it to `PhaseScheduler::on_sync`.
    pub fn hook(&self) -> impl Fn(&ObjectKey, &str) + Send + Sync + 'static {
        let calls = self.0.clone();
        move |key, phase| {
            let call = (key.name.clone(), phase.to_owned());
            calls.lock().expect("not poisoned").push(call);
        }
    }

    /// The phases `name`'s workers ran in, in order.
    pub fn of(&self, name: &str) -> Vec<String> {
        self.0
            .lock()
            .expect("not poisoned")
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, phase)| phase.clone())
            .collect()
    }

    /// How many calls `name` had.
    pub fn count(&self, name: &str) -> usize {
        self.of(name).len()
    }

    /// Waits until `name` had at least `count` calls.
    pub async fn wait_for(&self, name: &str, count: usize) {
        eventually(&format!("{count} worker call(s) for {name}"), || async {
            self.count(name) >= count
        })
        .await;
    }
}

/// A controller running on its own task until [`stop`](Self::stop).
pub struct Running {
    shutdown: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
}

impl Running {
    /// Runs `controller` and waits until the informers of `cache` have synced.
    pub async fn start(cache: &Cache, controller: Controller) -> Self {
        let (shutdown, requested) = oneshot::channel::<()>();
        let task = tokio::spawn(controller.run(async move {
            let _ = requested.await;
        }));
        cache.wait_for_sync(TIMEOUT).await.expect("the informers sync");
        Self {
            shutdown: Some(shutdown),
            task,
        }
    }

    /// Shuts the controller down and waits (bounded) for it to return.
    pub async fn stop(mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        tokio::time::timeout(TIMEOUT, self.task)
            .await
            .expect("the controller stops")
            .expect("the controller task does not panic");
    }
}
