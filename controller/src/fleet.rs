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
//! A walkthrough that turns a single-cluster controller (a `CronJob` port) into a fleet
//! controller, with its example and test, is the `cronjob` module of the
//! `wheelhouse-examples` crate (`examples/src/cronjob.rs`).
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
//! # Spread across replicas
//!
//! Under a manager with leader election, the leader engages every member. Under a
//! sharded manager ([`ManagerBuilder::sharding`](wheelhouse_manager::ManagerBuilder::sharding)),
//! each cluster, with every object in it, belongs to one ring slot
//! ([`cluster_slot`], the hash of its name), and a replica engages only the clusters
//! whose slots it serves. A cluster changes hands with the ring's protocol: the old
//! owner disengages it (queue dropped, reconciles aborted and awaited, informers
//! stopped) before it publishes that the slot is free, and the new owner engages it
//! only after that. Writes a cluster's reconciles send through their context's client
//! are refused once the cluster is no longer served here or the term is over
//! ([`ClusterFenced`]). A replica's [`Context::member`](crate::Context::member) reaches
//! only the clusters it has engaged.
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
mod shard;
mod view;

use std::collections::BTreeMap;
use std::fmt::{self, Debug};
use std::future::Future;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, OnceLock};

use futures::StreamExt;
use futures::future::BoxFuture;
use kube::Resource;
use parking_lot::Mutex;
use serde::de::DeserializeOwned;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;
use tokio_util::task::AbortOnDropHandle;
use wheelhouse_cache::shard::InFlight;
use wheelhouse_cache::{ScopeKind, Shards};
use wheelhouse_manager::fleet::{Cluster, ClusterEvent, Provider};
use wheelhouse_manager::{BoxError, CancellationToken, Manager, Runnable, Stop};
use wheelhouse_workqueue::{WorkQueue, default_rate_limiter};

use self::engage::{Engaged, Plan, PlanOf, Probe, Shared};
pub use self::metrics::FleetMetrics;
use self::shard::Admission;
pub use self::shard::{ClusterFenced, cluster_slot};
pub use self::view::{ClusterStatus, FleetView};
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
            shards: builder.cache.shards().cloned(),
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
    /// The ring's shards, in a sharded manager: only the clusters they serve engage.
    shards: Option<Shards>,
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
    /// In a sharded manager, the cluster's slot held while it is engaged: the ring
    /// hands the slot over only once this is dropped (see [`shard`]).
    _served: Option<InFlight>,
}

/// Disengages every cluster when dropped, so a fleet controller whose future is
/// dropped (its replica killed, its manager's task aborted) leaves no workers behind.
struct DisengageAllOnDrop<'a>(&'a State);

impl Drop for DisengageAllOnDrop<'_> {
    fn drop(&mut self) {
        let engaged = std::mem::take(&mut *self.0.engaged.lock());
        if !engaged.is_empty() {
            self.0.members.write().clear();
            drop(engaged);
            self.0.publish_names();
        }
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
        let _disengage_all = DisengageAllOnDrop(&self.state);
        let mut events = self.provider.watch();
        // Every member the provider announced, engaged or not (sharded: not ours now).
        let mut known: BTreeMap<Arc<str>, Cluster> = BTreeMap::new();
        let mut serving = self.shards.as_ref().map(Shards::watch_serving);
        let mut events_open = true;
        tracing::info!(controller = %self.name, "fleet controller started");
        let graceful = loop {
            let serving_changed = async {
                match serving.as_mut() {
                    Some(serving) => serving.changed().await.is_ok(),
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                () = stop.requested() => break true,
                () = stop.term_over() => break false,
                event = events.next(), if events_open => match event {
                    Some(ClusterEvent::Joined(cluster)) => {
                        known.insert(cluster.name_arc(), cluster.clone());
                        self.disengage(cluster.name()).await;
                        self.engage(cluster, &gate, &stop);
                    }
                    Some(ClusterEvent::Left(name)) => {
                        known.remove(&name);
                        self.disengage(&name).await;
                    }
                    // The provider is done: the members stay as they are.
                    None => events_open = false,
                },
                open = serving_changed => {
                    if open {
                        self.follow_the_ring(&known, &gate, &stop).await;
                    } else {
                        serving = None;
                    }
                }
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

    /// Sharded: disengages the clusters whose slots this replica stopped serving, and
    /// engages those whose slots it serves now.
    async fn follow_the_ring(&self, known: &BTreeMap<Arc<str>, Cluster>, gate: &Arc<Semaphore>, stop: &Stop) {
        let Some(shards) = &self.shards else { return };
        let serving = shards.serving();
        let lost: Vec<Arc<str>> = self
            .state
            .engaged
            .lock()
            .keys()
            .filter(|name| !serving.contains(cluster_slot(name)))
            .cloned()
            .collect();
        for name in lost {
            self.disengage(&name).await;
            tracing::info!(controller = %self.name, cluster = %name, "cluster handed over to another replica");
        }
        for (name, cluster) in known {
            let engaged = self.state.engaged.lock().contains_key(name);
            if !engaged && serving.contains(cluster_slot(name)) {
                self.engage(cluster.clone(), gate, stop);
            }
        }
    }

    /// Engages `cluster`, which is not engaged; sharded, only if its slot is served here.
    fn engage(&self, cluster: Cluster, gate: &Arc<Semaphore>, stop: &Stop) {
        let name = cluster.name_arc();
        let served = match &self.shards {
            Some(shards) => {
                let Some(served) = shards.enter(cluster_slot(&name)) else {
                    tracing::debug!(controller = %self.name, cluster = %name, "cluster joined: served by another replica");
                    return;
                };
                Some(served)
            }
            None => None,
        };
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
                admission: Admission::new(name.clone(), stop.clone(), self.shards.as_ref()),
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
                _served: served,
            },
        );
        self.state.publish_names();
        if let Some(metrics) = metrics {
            metrics.changed(&self.name, &name, true);
        }
        tracing::info!(controller = %self.name, cluster = %name, "cluster joined: engaged");
    }

    /// Disengages the cluster `name`, if engaged, and returns once its workers are gone.
    async fn disengage(&self, name: &str) {
        let Some(mut engagement) = self.state.engaged.lock().remove(name) else {
            return;
        };
        self.state.members.write().remove(name);
        // Queued keys are dropped, pumps and workers (with their reconciles in flight)
        // aborted and awaited before the slot is let go; the cache goes with the last
        // handle.
        engagement.queue.shutdown();
        engagement.pumps.clear();
        engagement.workers.abort_all();
        while engagement.workers.join_next().await.is_some() {}
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
