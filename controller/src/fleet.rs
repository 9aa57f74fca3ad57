//! Fleet controllers: one controller reconciling across many clusters, clusters joining
//! and leaving while it runs.
//!
//! `Controller::for_::<K>(cache)...fleet(provider).build(reconciler)` makes a
//! [`FleetController`]: for each cluster the [`Provider`] announces, it engages the
//! cluster (the builder's informers, indexes and sources made in the cluster's own
//! cache, a work queue and workers of its own), and for each that leaves it disengages
//! it (its workers and reconciles in flight cancelled, its queued keys dropped, its
//! informers stopped once no other controller reads them, its series removed); nothing
//! else stops. Each reconcile's [`Context`](crate::Context) hands the reconciler that
//! cluster's client and stores, so a reconciler written for one cluster runs per cluster
//! unchanged; [`Context::cluster`](crate::Context::cluster) names the cluster and
//! [`Context::member`](crate::Context::member) reaches another one, for reconcilers that
//! read one cluster and write another.
//!
//! # Fair across clusters
//!
//! The fleet's [`concurrency`](crate::Builder::concurrency) is a pool of reconcile slots
//! shared by every cluster and handed out first come, first served (a FIFO semaphore);
//! each cluster has its own queue (deduplication, backoff) and
//! [`concurrency_per_cluster`](FleetBuilder::concurrency_per_cluster) workers (one by
//! default) that wait in that line. A cluster with a thousand keys queued gets one slot,
//! then queues behind every other cluster waiting: clusters are served in turn, and a
//! cluster whose reconciles hang holds at most its own workers' slots. A cluster whose
//! API server is unreachable fails its own reconciles and backs off on its own queue's
//! rate limiter; its informers retry on their own. It shows in
//! [`FleetView::clusters`], in `wheelhouse_fleet_cluster_ready{cluster}` and, under a
//! manager, on `/readyz?verbose` as `[+]fleet-<controller> degraded: ...`, without
//! making the replica unready.
//!
//! # Compared with multicluster-runtime
//!
//! multicluster-runtime's providers call every cluster-aware component back to engage a
//! cluster, each component keeping its own registry; here a provider is only a stream of
//! membership ([`Provider::watch`]), the [`Cluster`] it announces carries the one cache
//! every controller shares, and a controller added late is told every current member.
//! Its `mcreconcile.Request` makes the reconciler change signature; here the cluster
//! rides in the [`Context`](crate::Context) and the reconciler's signature is unchanged.
//! Its one queue is keyed by cluster and object, first in first out, so a cluster that
//! queues ten thousand keys delays all others; here clusters are served in turn.

mod engage;
mod metrics;

use std::collections::BTreeMap;
use std::fmt::{self, Debug};
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use futures::StreamExt;
use futures::future::BoxFuture;
use kube::Resource;
use parking_lot::Mutex;
use serde::de::DeserializeOwned;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;
use tokio_util::task::AbortOnDropHandle;
use wheelhouse_cache::ScopeKind;
use wheelhouse_manager::fleet::{Cluster, ClusterEvent, Provider};
use wheelhouse_manager::{BoxError, CancellationToken, Manager, Runnable, Stop};
use wheelhouse_workqueue::{WorkQueue, default_rate_limiter};

use self::engage::{Engaged, Plan, PlanOf, Probe, Shared};
pub use self::metrics::FleetMetrics;
use crate::cluster::Members;
use crate::controller::Builder;
use crate::key::ObjectKey;
use crate::metrics::{ControllerMetrics, Series};
use crate::reconciler::Reconciler;

impl<K> Builder<K>
where
    K: Resource + Clone + Debug + DeserializeOwned + Send + Sync + 'static,
    K::DynamicType: Default,
    K::Scope: ScopeKind,
{
    /// Reconciles `K` in every cluster `provider` announces, instead of in the builder's
    /// cache: what the builder declared so far (`owns`, `watches`, `index`, `predicate`,
    /// `namespace`, `concurrency`, `reconcile_timeout`, `metrics`) is made again in each
    /// cluster that joins. See [`fleet`](crate::fleet).
    ///
    /// ```no_run
    /// # async fn example(manager: wheelhouse_manager::Manager, eu: kube::Client, us: kube::Client) -> Result<(), wheelhouse_manager::Error> {
    /// use std::sync::Arc;
    /// use k8s_openapi::api::apps::v1::Deployment;
    /// use wheelhouse_controller::{Action, Context, Controller, Error, Reconciler};
    /// use wheelhouse_manager::fleet::InProcess;
    ///
    /// struct Rollouts;
    /// impl Reconciler<Deployment> for Rollouts {
    ///     async fn reconcile(&self, _: Arc<Deployment>, context: &Context) -> Result<Action, Error> {
    ///         tracing::info!(cluster = ?context.cluster(), "reconciling");
    ///         Ok(Action::done())
    ///     }
    /// }
    ///
    /// let fleet = InProcess::new();
    /// fleet.join("eu-1", eu);
    /// fleet.join("us-1", us);
    /// let controller = Controller::for_::<Deployment>(manager.cache())
    ///     .concurrency(8)
    ///     .fleet(fleet.clone())
    ///     .build(Rollouts);
    /// manager.add(controller)?;
    /// manager.run().await
    /// # }
    /// ```
    pub fn fleet(self, provider: impl Provider) -> FleetBuilder<K> {
        FleetBuilder {
            builder: self,
            provider: Arc::new(provider),
            per_cluster: 1,
            fleet_metrics: None,
        }
    }
}

/// Builds a [`FleetController`]; see [`Builder::fleet`].
pub struct FleetBuilder<K: Resource> {
    builder: Builder<K>,
    provider: Arc<dyn Provider>,
    per_cluster: usize,
    fleet_metrics: Option<FleetMetrics>,
}

impl<K> FleetBuilder<K>
where
    K: Resource + Clone + Debug + DeserializeOwned + Send + Sync + 'static,
    K::DynamicType: Default,
    K::Scope: ScopeKind,
{
    /// How many of a cluster's objects may be reconciled at once (default 1), within
    /// the fleet's [`concurrency`](Builder::concurrency).
    #[must_use]
    pub fn concurrency_per_cluster(mut self, workers: usize) -> Self {
        self.per_cluster = workers.max(1);
        self
    }

    /// Reports the fleet's metrics to `metrics` (added to a manager, a fleet controller
    /// reports to the manager's registry without this).
    #[must_use]
    pub fn fleet_metrics(mut self, metrics: &FleetMetrics) -> Self {
        self.fleet_metrics = Some(metrics.clone());
        self
    }

    /// The fleet controller, reconciling with `reconciler` in every member.
    pub fn build<R: Reconciler<K>>(self, reconciler: R) -> FleetController {
        let builder = self.builder;
        let name: Arc<str> = builder.name.clone().into();
        let series = OnceLock::new();
        if let Some(metrics) = &builder.metrics {
            let _ = series.set(metrics.for_controller(&name));
        }
        let plan = PlanOf {
            name: name.clone(),
            scope: builder.scope.clone(),
            predicate: builder.predicate.clone(),
            sources: builder.sources.clone(),
            indexes: builder.indexes.clone(),
            owned_full: builder.owned_full.clone(),
            timeout: builder.reconcile_timeout,
            reconciler: Arc::new(reconciler),
        };
        let state = Arc::new(State {
            name: name.clone(),
            members: Members::default(),
            engaged: Mutex::new(BTreeMap::new()),
            names: watch::channel(Vec::new()).0,
            fleet_metrics: OnceLock::new(),
        });
        let controller = FleetController {
            name,
            provider: self.provider,
            plan: Arc::new(plan),
            concurrency: builder.concurrency,
            per_cluster: self.per_cluster,
            series,
            state,
        };
        if let Some(metrics) = self.fleet_metrics {
            controller.follow(metrics);
        }
        controller
    }
}

/// A controller over a fleet of clusters, built with [`Builder::fleet`]; under a
/// [`Manager`] it is a leader-only [`Runnable`], as a [`Controller`](crate::Controller).
///
/// Clusters are engaged while it runs: each leadership term engages the members anew
/// (their caches list again), and a term's end disengages them all.
pub struct FleetController {
    name: Arc<str>,
    provider: Arc<dyn Provider>,
    plan: Arc<dyn Plan>,
    concurrency: usize,
    per_cluster: usize,
    series: OnceLock<Series>,
    state: Arc<State>,
}

impl Debug for FleetController {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FleetController")
            .field("name", &self.name)
            .field("concurrency", &self.concurrency)
            .field("per_cluster", &self.per_cluster)
            .finish_non_exhaustive()
    }
}

/// What a fleet controller shares with its views and metrics.
pub(crate) struct State {
    pub(crate) name: Arc<str>,
    members: Members,
    engaged: Mutex<BTreeMap<Arc<str>, Engagement>>,
    /// The engaged clusters' names, sorted, for whoever waits on a change.
    names: watch::Sender<Vec<Arc<str>>>,
    fleet_metrics: OnceLock<FleetMetrics>,
}

/// One engaged cluster. Dropping it stops its pumps and aborts its workers.
struct Engagement {
    cluster: Cluster,
    queue: WorkQueue<ObjectKey>,
    probe: Arc<dyn Probe>,
    waiting: Arc<AtomicUsize>,
    pumps: Vec<AbortOnDropHandle<()>>,
    workers: JoinSet<()>,
}

/// How one engaged cluster is doing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterStatus {
    /// The cluster's name.
    pub name: Arc<str>,
    /// Whether its primary objects have been listed once.
    pub synced: bool,
    /// Why its primary objects' watch fails, while it does (until a relist succeeds).
    pub error: Option<String>,
    /// Primary objects cached.
    pub objects: usize,
    /// Keys waiting on its queue.
    pub queued: usize,
    /// Its workers holding a key and waiting for one of the fleet's reconcile slots.
    pub waiting: usize,
}

impl ClusterStatus {
    /// Listed and watched: its API server answers.
    pub fn ready(&self) -> bool {
        self.synced && self.error.is_none()
    }
}

impl State {
    pub(crate) fn statuses(&self) -> Vec<ClusterStatus> {
        self.engaged
            .lock()
            .values()
            .map(|engagement| {
                let (synced, error, objects) = engagement.probe.probe();
                ClusterStatus {
                    name: engagement.cluster.name_arc(),
                    synced,
                    error,
                    objects,
                    queued: engagement.queue.len(),
                    waiting: engagement.waiting.load(Ordering::Acquire),
                }
            })
            .collect()
    }

    fn publish_names(&self) {
        let names: Vec<Arc<str>> = self.engaged.lock().keys().cloned().collect();
        self.names.send_replace(names);
    }

    /// The `/readyz` notice: which members are not reachable, and why.
    fn readiness(&self) -> Result<(), String> {
        let statuses = self.statuses();
        let failing: Vec<String> = statuses
            .iter()
            .filter(|status| !status.ready())
            .map(|status| match &status.error {
                Some(error) => format!("{} ({error})", status.name),
                None => format!("{} (not listed yet)", status.name),
            })
            .collect();
        if failing.is_empty() {
            return Ok(());
        }
        Err(format!(
            "{} of {} clusters unreachable: {}",
            failing.len(),
            statuses.len(),
            failing.join(", ")
        ))
    }
}

/// A handle on a fleet controller's engaged clusters, to look at while it runs (from
/// [`FleetController::view`], before the controller is handed to a manager).
#[derive(Clone)]
pub struct FleetView {
    state: Arc<State>,
}

impl Debug for FleetView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FleetView")
            .field("controller", &self.state.name)
            .finish_non_exhaustive()
    }
}

impl FleetView {
    /// Every engaged cluster's status, by name.
    pub fn clusters(&self) -> Vec<ClusterStatus> {
        self.state.statuses()
    }

    /// The engaged clusters' names, sorted.
    pub fn names(&self) -> Vec<Arc<str>> {
        self.state.names.borrow().clone()
    }

    /// Waits until the engaged clusters' names (sorted) satisfy `condition`.
    pub async fn wait_for(&self, mut condition: impl FnMut(&[Arc<str>]) -> bool) {
        let mut names = self.state.names.subscribe();
        let _ = names.wait_for(|names| condition(names)).await;
    }

    /// Waits for the next change of the engaged clusters and returns their names.
    pub async fn changed(&self, mut seen: Vec<Arc<str>>) -> Vec<Arc<str>> {
        let mut names = self.state.names.subscribe();
        let _ = names.wait_for(|names| *names != seen).await;
        seen.clone_from(&names.borrow());
        seen
    }
}

impl FleetController {
    /// The controller's name (its metrics label and log field).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A handle on the engaged clusters, that outlives handing the controller over.
    pub fn view(&self) -> FleetView {
        FleetView {
            state: self.state.clone(),
        }
    }

    fn follow(&self, metrics: FleetMetrics) {
        metrics.follow(&self.state);
        let _ = self.state.fleet_metrics.set(metrics);
    }

    /// Runs until `shutdown` completes, then lets in-flight reconciles finish and
    /// returns. (Under a [`Manager`], add it instead.)
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send) {
        let token = CancellationToken::new();
        let stop = Stop::new(token.clone());
        let request = async move {
            shutdown.await;
            token.cancel();
        };
        futures::join!(request, self.run_until(stop));
    }

    async fn run_until(&self, stop: Stop) {
        let gate = Arc::new(Semaphore::new(self.concurrency));
        if let Some(series) = self.series.get() {
            series
                .max_concurrent
                .set(i64::try_from(self.concurrency).unwrap_or(i64::MAX));
        }
        let mut events = self.provider.watch();
        tracing::info!(controller = %self.name, "fleet controller started");
        let graceful = loop {
            tokio::select! {
                () = stop.requested() => break true,
                () = stop.term_over() => break false,
                event = events.next() => match event {
                    Some(ClusterEvent::Joined(cluster)) => self.engage(cluster, &gate, &stop),
                    Some(ClusterEvent::Left(name)) => self.disengage(&name),
                    // The provider is done: the members stay as they are.
                    None => {
                        tokio::select! {
                            () = stop.requested() => break true,
                            () = stop.term_over() => break false,
                        }
                    }
                },
            }
        };
        let engaged = std::mem::take(&mut *self.state.engaged.lock());
        self.state.members.write().clear();
        self.state.publish_names();
        if graceful {
            tracing::info!(controller = %self.name, "fleet controller stopping; waiting for reconciles in flight");
            let drains = engaged.into_values().map(|mut engagement| async move {
                engagement.pumps.clear();
                engagement.queue.shutdown_with_drain().await;
                while engagement.workers.join_next().await.is_some() {}
            });
            tokio::select! {
                _ = futures::future::join_all(drains) => {}
                () = stop.term_over() => {
                    tracing::warn!(controller = %self.name, "leadership term over; cancelling reconciles in flight");
                }
            }
        } else {
            tracing::warn!(controller = %self.name, "leadership term over; cancelling reconciles in flight");
            for (_, mut engagement) in engaged {
                engagement.queue.shutdown();
                engagement.workers.abort_all();
                while engagement.workers.join_next().await.is_some() {}
            }
        }
        tracing::info!(controller = %self.name, "fleet controller stopped");
    }

    fn engage(&self, cluster: Cluster, gate: &Arc<Semaphore>, stop: &Stop) {
        let name = cluster.name_arc();
        if self.state.engaged.lock().contains_key(&name) {
            self.disengage(&name);
        }
        let metrics = self.state.fleet_metrics.get();
        let waiting = Arc::new(AtomicUsize::new(0));
        let Engaged { sources, work, probe } = self.plan.engage(
            &cluster,
            Shared {
                members: self.state.members.clone(),
                gate: gate.clone(),
                waiting: waiting.clone(),
                series: self.series.get().cloned(),
                cluster_series: metrics.map(|m| m.for_cluster(&self.name, &name)),
            },
        );
        // Each cluster's own queue and backoff: one failing cluster's keys back off on
        // their own, and a name in two clusters is two keys.
        let queue = WorkQueue::builder()
            .name(format!("{}/{name}", self.name))
            .rate_limiter(default_rate_limiter())
            .build();
        let pumps = sources
            .iter()
            .map(|source| AbortOnDropHandle::new(source(queue.clone())))
            .collect();
        let mut workers = JoinSet::new();
        for _ in 0..self.per_cluster {
            workers.spawn(work.clone().run(queue.clone(), stop.clone()));
        }
        self.state.members.write().insert(name.clone(), cluster.clone());
        self.state.engaged.lock().insert(
            name.clone(),
            Engagement {
                cluster,
                queue,
                probe,
                waiting,
                pumps,
                workers,
            },
        );
        self.state.publish_names();
        if let Some(metrics) = metrics {
            metrics.changed(&self.name, &name, true);
        }
        tracing::info!(controller = %self.name, cluster = %name, "cluster joined: engaged");
    }

    fn disengage(&self, name: &str) {
        let Some(engagement) = self.state.engaged.lock().remove(name) else {
            return;
        };
        self.state.members.write().remove(name);
        // Queued keys are dropped, pumps and workers (with their reconciles in flight)
        // aborted; the cache goes with the last handle.
        engagement.queue.shutdown();
        drop(engagement);
        self.state.publish_names();
        if let Some(metrics) = self.state.fleet_metrics.get() {
            metrics.changed(&self.name, name, false);
        }
        tracing::info!(controller = %self.name, cluster = %name, "cluster left: disengaged");
    }
}

impl Runnable for FleetController {
    fn name(&self) -> &str {
        &self.name
    }

    /// Fleet controllers run only on the leader.
    fn needs_leader_election(&self) -> bool {
        true
    }

    /// Reports to the manager's registry, unless the builder was given metrics, and
    /// adds the `/readyz` notice `fleet-<controller>` naming unreachable members.
    fn register(&mut self, manager: &Manager) -> Result<(), BoxError> {
        if self.series.get().is_none() {
            let metrics = manager.shared_metrics(ControllerMetrics::register)?;
            let _ = self.series.set(metrics.for_controller(&self.name));
        }
        if self.state.fleet_metrics.get().is_none() {
            let metrics = manager.shared_metrics(FleetMetrics::register)?;
            self.follow(metrics);
        }
        let state = Arc::downgrade(&self.state);
        manager.add_readyz_notice(format!("fleet-{}", self.name), move || {
            state.upgrade().map_or(Ok(()), |state| state.readiness())
        });
        Ok(())
    }

    fn start(&self, stop: Stop) -> BoxFuture<'_, Result<(), BoxError>> {
        Box::pin(async move {
            self.run_until(stop).await;
            Ok(())
        })
    }
}
