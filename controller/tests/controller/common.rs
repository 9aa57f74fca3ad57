//! What the controller tests share: an environment, bounded waiting, a controller
//! running on its own task, call records, and metric reads.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;
use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::Resource;
use parking_lot::Mutex;
use prometheus::Registry;
use prometheus::proto::MetricType;
use serde::de::DeserializeOwned;
use serde_json::json;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use wheelhouse_cache::{Cache, Scope, ScopeKind};
use wheelhouse_controller::{Builder, Controller, ObjectKey};
use wheelhouse_envtest::TestEnv;
use wheelhouse_workqueue::{ExponentialBackoff, WorkQueue};

/// How long anything may take to happen; generous for a busy real cluster.
pub(crate) const TIMEOUT: Duration = Duration::from_secs(30);

/// The environment `USE_EXISTING_CLUSTER` asks for, with a fresh namespace.
pub(crate) async fn start() -> TestEnv {
    TestEnv::start().await.expect("the test environment starts")
}

pub(crate) use wheelhouse_envtest::eventually;

/// A `ConfigMap` named `name` holding `data`.
pub(crate) fn configmap(name: &str, data: &[(&str, &str)]) -> ConfigMap {
    let data: BTreeMap<&str, &str> = data.iter().copied().collect();
    serde_json::from_value(json!({"metadata": {"name": name}, "data": data})).expect("a valid ConfigMap")
}

/// The queue key of `name` in the test's namespace.
pub(crate) fn key(env: &TestEnv, name: &str) -> ObjectKey {
    ObjectKey::new(Some(env.namespace()), name)
}

/// A backoff fast enough that retries take milliseconds.
pub(crate) fn fast_backoff() -> ExponentialBackoff<ObjectKey> {
    ExponentialBackoff::new(Duration::from_millis(5), Duration::from_secs(1))
}

/// A controller of `K` scoped to the test's namespace. The primary informer is made
/// here, so that [`Running::start`] can wait until the controller's cache has synced.
pub(crate) fn controller<K>(env: &TestEnv, cache: &Cache) -> Builder<K>
where
    K: Resource + Clone + Debug + DeserializeOwned + Send + Sync + 'static,
    K::DynamicType: Default,
    K::Scope: ScopeKind,
{
    let _primary = cache.informer::<K>(Scope::namespace(env.namespace()));
    Controller::for_::<K>(cache).namespace(env.namespace())
}

/// A controller running on its own task until [`stop`](Self::stop).
pub(crate) struct Running {
    queue: WorkQueue<ObjectKey>,
    shutdown: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
}

impl Running {
    /// Runs `controller` and waits until every informer of `cache` has synced.
    pub(crate) async fn start(cache: &Cache, controller: Controller) -> Self {
        let queue = controller.queue().clone();
        let (shutdown, requested) = oneshot::channel::<()>();
        let task = tokio::spawn(controller.run(async move {
            let _ = requested.await;
        }));
        cache
            .wait_for_sync(TIMEOUT)
            .await
            .expect("the controller's informers sync");
        Self {
            queue,
            shutdown: Some(shutdown),
            task,
        }
    }

    /// The controller's work queue.
    pub(crate) fn queue(&self) -> &WorkQueue<ObjectKey> {
        &self.queue
    }

    /// Asks the controller to shut down, without waiting.
    pub(crate) fn request_shutdown(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
    }

    /// True once `run` has returned.
    pub(crate) fn has_returned(&self) -> bool {
        self.task.is_finished()
    }

    /// Shuts the controller down and waits (bounded) for `run` to return.
    pub(crate) async fn stop(mut self) {
        self.request_shutdown();
        tokio::time::timeout(TIMEOUT, self.task)
            .await
            .expect("run returns after shutdown")
            .expect("the controller task does not panic");
    }
}

/// Per-object call counts, shared by a test and its reconciler.
#[derive(Clone, Default)]
pub(crate) struct Calls(Arc<Mutex<HashMap<String, usize>>>);

impl Calls {
    /// Counts a call for `name`; returns its number, from 1.
    pub(crate) fn record(&self, name: &str) -> usize {
        let mut calls = self.0.lock();
        let count = calls.entry(name.to_owned()).or_default();
        *count += 1;
        *count
    }

    /// How many calls `name` has had.
    pub(crate) fn of(&self, name: &str) -> usize {
        self.0.lock().get(name).copied().unwrap_or_default()
    }

    /// Waits until `name` has had at least `count` calls; returns how many it had.
    pub(crate) async fn wait_for(&self, name: &str, count: usize) -> usize {
        eventually(&format!("{count} reconcile(s) of {name}"), || async {
            let calls = self.of(name);
            (calls >= count).then_some(calls)
        })
        .await
    }
}

/// The sum of the samples of counter or gauge `name` whose labels include `labels`.
pub(crate) fn metric(registry: &Registry, name: &str, labels: &[(&str, &str)]) -> f64 {
    registry
        .gather()
        .iter()
        .filter(|family| family.name() == name)
        .flat_map(|family| {
            let kind = family.get_field_type();
            family.get_metric().iter().map(move |sample| (kind, sample))
        })
        .filter(|(_, sample)| {
            labels.iter().all(|(label, value)| {
                sample
                    .get_label()
                    .iter()
                    .any(|pair| pair.name() == *label && pair.value() == *value)
            })
        })
        .map(|(kind, sample)| match kind {
            MetricType::COUNTER => sample.get_counter().get_value(),
            MetricType::GAUGE => sample.get_gauge().get_value(),
            other => panic!("{name} is a {other:?}, not a counter or gauge"),
        })
        .sum()
}
