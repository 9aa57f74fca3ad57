//! The worker loop: take a key, read its object from the cache, reconcile it under a
//! span, with panics caught and an optional timeout, and act on the outcome.

use std::fmt::Debug;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use futures::FutureExt;
use futures::future::BoxFuture;
use kube::Resource;
use kube::runtime::events::Recorder;
use tracing::Instrument;
use wheelhouse_cache::{Cache, Informer, Route, Shards};
use wheelhouse_manager::Stop;
use wheelhouse_workqueue::WorkQueue;

use crate::cluster::InCluster;
use crate::key::ObjectKey;
use crate::metrics::Series;
use crate::reconciler::{Context, OwnedStores, Reconciler};
use crate::settled::Settled;

/// What the controller needs of its workers, whatever their object type.
pub(crate) trait Work: Send + Sync {
    /// Reports to `series` from now on (once; later calls are ignored).
    fn report_to(&self, series: Series);
    /// The series reported to, if any.
    fn series(&self) -> Option<&Series>;
    /// Runs one worker on `queue` until it shuts down.
    fn run(self: Arc<Self>, queue: WorkQueue<ObjectKey>, stop: Stop) -> BoxFuture<'static, ()>;
}

pub(crate) struct Worker<K: Resource, R> {
    pub name: Arc<str>,
    pub client: kube::Client,
    pub recorder: Recorder,
    /// Keeps the informers running while the controller exists, even if the caller
    /// dropped its own handle of the cache (informers stop with the last handle).
    #[expect(dead_code, reason = "held for its lifetime, not read")]
    pub cache: Cache,
    pub reconciler: R,
    /// In a fleet: the cluster this worker serves, and the gate shared by the fleet.
    pub cluster: Option<InCluster>,
    /// The children cached whole, handed to each reconcile's [`Context`].
    pub owned: Arc<OwnedStores>,
    /// In a sharded manager: the slots this replica may reconcile.
    pub shards: Option<Shards>,
    pub primary: Informer<K>,
    /// Written after each reconcile: what a later term queues first.
    pub settled: Settled,
    pub timeout: Option<Duration>,
    pub series: OnceLock<Series>,
}

/// How one reconcile ended.
enum Outcome {
    Done,
    RequeueAfter(Duration),
    Failed { terminal: bool },
}

impl<K, R> Work for Worker<K, R>
where
    K: Resource + Clone + Debug + Send + Sync + 'static,
    R: Reconciler<K>,
{
    fn report_to(&self, series: Series) {
        let _ = self.series.set(series);
    }

    fn series(&self) -> Option<&Series> {
        self.series.get()
    }

    fn run(self: Arc<Self>, queue: WorkQueue<ObjectKey>, stop: Stop) -> BoxFuture<'static, ()> {
        Box::pin(async move { self.work(&queue, &stop).await })
    }
}

impl<K, R> Worker<K, R>
where
    K: Resource + Clone + Debug + Send + Sync + 'static,
    R: Reconciler<K>,
{
    async fn work(&self, queue: &WorkQueue<ObjectKey>, stop: &Stop) {
        while let Some(key) = queue.get().await {
            // After shutdown the queue still hands out what was queued, so that it
            // drains; those keys are let go: shutdown waits only for reconciles in
            // flight. Once the leadership term is over, nothing new starts either.
            if queue.is_shutting_down() || stop.is_requested() {
                queue.done(&key);
                continue;
            }
            // In a fleet: wait for a slot, in line with the other clusters' workers.
            let _slot = match &self.cluster {
                Some(cluster) => {
                    let Some(slot) = cluster.slot().await else {
                        queue.done(&key);
                        continue;
                    };
                    Some(slot)
                }
                None => None,
            };
            // A deleted object is gone from the cache: it reaches the reconciler only
            // while a finalizer holds it. Its failures go with it.
            let Some(object) = self.primary.store().get(key.namespace.as_deref(), &key.name) else {
                self.settled.forget(&key);
                queue.forget(&key);
                queue.done(&key);
                continue;
            };
            // In a sharded manager, only objects of a served slot, each counted while it
            // runs so a slot handed away waits for it.
            let in_flight = match &self.shards {
                Some(shards) => {
                    let entered = shards
                        .slot_of(object.meta(), Route::Own)
                        .and_then(|slot| shards.enter(slot));
                    if entered.is_none() {
                        queue.forget(&key);
                        queue.done(&key);
                        continue;
                    }
                    entered
                }
                None => None,
            };
            let series = self.series.get();
            if let Some(series) = series {
                series.active_workers.inc();
            }
            let version = object.meta().resource_version.clone();
            let outcome = self.reconcile(&key, object).await;
            drop(in_flight);
            if let Some(series) = series {
                series.active_workers.dec();
            }
            match &outcome {
                Outcome::Done | Outcome::RequeueAfter(_) => self.settled.record(&key, version.as_deref()),
                Outcome::Failed { .. } => self.settled.forget(&key),
            }
            match outcome {
                Outcome::Done | Outcome::Failed { terminal: true } => queue.forget(&key),
                Outcome::RequeueAfter(delay) => {
                    queue.forget(&key);
                    queue.add_after(key.clone(), delay);
                }
                Outcome::Failed { terminal: false } => queue.add_rate_limited(key.clone()),
            }
            queue.done(&key);
        }
    }

    async fn reconcile(&self, key: &ObjectKey, object: Arc<K>) -> Outcome {
        let reconcile_id = format!("{:016x}", rand::random::<u64>());
        let span = tracing::info_span!("reconcile", controller = %self.name, object = %key, reconcile_id = %reconcile_id, cluster = tracing::field::Empty);
        if let Some(cluster) = &self.cluster {
            span.record("cluster", &*cluster.name);
        }
        let context = Context {
            client: self.client.clone(),
            controller: self.name.clone(),
            reconcile_id,
            recorder: self.recorder.clone(),
            owned: Some(self.owned.clone()),
            cluster: self.cluster.as_ref().map(|c| (c.name.clone(), c.members.clone())),
        };
        let started = Instant::now();
        let future: BoxFuture<'_, _> =
            Box::pin(AssertUnwindSafe(self.reconciler.reconcile(object, &context)).catch_unwind());
        let result = match self.timeout {
            Some(timeout) => tokio::time::timeout(timeout, future).instrument(span.clone()).await,
            None => Ok(future.instrument(span.clone()).await),
        };
        let elapsed = started.elapsed();
        let _entered = span.enter();
        let series = self.series.get();
        let outcome = match result {
            Ok(Ok(Ok(action))) => match action.requeue_delay() {
                Some(delay) => Outcome::RequeueAfter(delay),
                None => Outcome::Done,
            },
            Ok(Ok(Err(error))) => {
                let terminal = error.is_terminal();
                tracing::warn!(error = %error, terminal, "reconcile failed");
                Outcome::Failed { terminal }
            }
            Ok(Err(panic)) => {
                let message = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic without a message".to_owned());
                tracing::error!(panic = %message, "reconcile panicked; it will be retried with backoff");
                if let Some(series) = series {
                    series.panics.inc();
                }
                Outcome::Failed { terminal: false }
            }
            Err(_) => {
                tracing::warn!(timeout = ?self.timeout, "reconcile timed out and was cancelled");
                Outcome::Failed { terminal: false }
            }
        };
        if let Some(series) = self.cluster.as_ref().and_then(|c| c.series.as_ref()) {
            match outcome {
                Outcome::Done => series.success.inc(),
                Outcome::RequeueAfter(delay) if delay.is_zero() => series.requeue.inc(),
                Outcome::RequeueAfter(_) => series.requeue_after.inc(),
                Outcome::Failed { .. } => series.error.inc(),
            }
        }
        if let Some(series) = series {
            series.time.observe(elapsed.as_secs_f64());
            match outcome {
                Outcome::Done => series.success.inc(),
                Outcome::RequeueAfter(delay) if delay.is_zero() => series.requeue.inc(),
                Outcome::RequeueAfter(_) => series.requeue_after.inc(),
                Outcome::Failed { terminal } => {
                    series.error.inc();
                    series.errors.inc();
                    if terminal {
                        series.terminal_errors.inc();
                    }
                }
            }
        }
        outcome
    }
}
