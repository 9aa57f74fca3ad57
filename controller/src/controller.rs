//! [`Controller`]: the builder that wires informers to a work queue and a
//! [`Reconciler`], and the loop that runs it.

use std::any::TypeId;
use std::fmt;
use std::fmt::Debug;
use std::future::Future;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use futures::future::BoxFuture;
use kube::Resource;
use parking_lot::Mutex;
use serde::de::DeserializeOwned;
use tokio::task::JoinSet;
use tokio_util::task::AbortOnDropHandle;
use wheelhouse_cache::{Cache, Route, Scope, ScopeKind};
use wheelhouse_manager::{BoxError, CancellationToken, Manager, Runnable, Stop};
use wheelhouse_workqueue::{PrometheusMetrics, RateLimiter, WorkQueue, default_rate_limiter};

use crate::key::ObjectKey;
use crate::metrics::ControllerMetrics;
use crate::predicate::Predicate;
use crate::reconciler::{OwnedStores, Reconciler};
use crate::settled::Settled;
use crate::source::{self, MapFn, OwnerKind, Source};
use crate::worker::{Work, Worker};

/// The scope of a controller's primary objects: in a sharded manager's cache, only
/// this replica's shard of them.
pub fn primary_scope(cache: &Cache, scope: &Scope) -> Scope {
    match cache.shards() {
        Some(_) => scope.clone().sharded(Route::Own),
        None => scope.clone(),
    }
}

/// The scope of a controller's owned children (`owns`, `owns_full`): in a sharded
/// manager's cache, only the children whose controller owner is in this replica's
/// shard. A reconciler reading its children from the cache asks for this scope.
pub fn children_scope(cache: &Cache, scope: &Scope) -> Scope {
    match cache.shards() {
        Some(_) => scope.clone().sharded(Route::ControllerOwner),
        None => scope.clone(),
    }
}

/// Makes a secondary source once the controller's scope is known, at build (and, in a
/// fleet, in each cluster's cache as it joins).
pub(crate) type MakeSource = Arc<dyn Fn(&Cache, &Scope) -> Source + Send + Sync>;

/// Declares an index once the controller's scope and whole-cached children are known,
/// at build (and, in a fleet, in each cluster's cache as it joins).
pub(crate) type MakeIndex = Arc<dyn Fn(&Cache, &Scope, &[TypeId]) + Send + Sync>;

/// A controller, built and ready to [`run`](Self::run), or to add to a
/// [`Manager`], whose [`Runnable`] it is (leader-only).
///
/// ```no_run
/// # async fn example(client: kube::Client) -> Result<(), wheelhouse_manager::Error> {
/// use std::sync::Arc;
/// use std::time::Duration;
/// use k8s_openapi::api::apps::v1::{Deployment, ReplicaSet};
/// use wheelhouse_controller::{Action, Context, Controller, Error, Reconciler, predicate};
/// use wheelhouse_manager::Manager;
///
/// struct Rollouts;
/// impl Reconciler<Deployment> for Rollouts {
///     async fn reconcile(&self, _: Arc<Deployment>, _: &Context) -> Result<Action, Error> {
///         Ok(Action::requeue_after(Duration::from_secs(300)))
///     }
/// }
///
/// let manager = Manager::builder(client).build()?;
/// let controller = Controller::for_::<Deployment>(manager.cache())
///     .owns::<ReplicaSet>()
///     .predicate(predicate::generation_changed())
///     .concurrency(4)
///     .build(Rollouts);
/// manager.add(controller)?; // registers its metrics in the manager's registry
/// manager.run().await
/// # }
/// ```
///
/// Each start (each leadership term, under a manager) uses a fresh work queue: a
/// term that ended at once may have left keys marked in progress. The informers are
/// made when the controller is built, so a standby's cache keeps them warm.
pub struct Controller {
    name: String,
    cache: Cache,
    work: Arc<dyn Work>,
    sources: Vec<Source>,
    /// In a sharded manager: queues the objects of slots as they start being served.
    served: Option<Source>,
    concurrency: usize,
    queue: Mutex<QueueSlot>,
    queue_options: QueueOptions,
}

/// The queue the next start uses, and whether a start used it already.
struct QueueSlot {
    queue: WorkQueue<ObjectKey>,
    used: bool,
}

/// How each of the controller's queues is built.
struct QueueOptions {
    name: String,
    limiter: Arc<dyn RateLimiter<ObjectKey>>,
    metrics: Option<PrometheusMetrics>,
}

impl QueueOptions {
    fn build(&self) -> WorkQueue<ObjectKey> {
        let mut queue = WorkQueue::builder()
            .name(self.name.clone())
            .rate_limiter(SharedLimiter(self.limiter.clone()));
        if let Some(metrics) = &self.metrics {
            queue = queue.metrics(metrics);
        }
        queue.build()
    }
}

impl Debug for Controller {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Controller")
            .field("name", &self.name)
            .field("concurrency", &self.concurrency)
            .finish_non_exhaustive()
    }
}

impl Controller {
    /// Starts building a controller of `K` objects read through `cache` (with a
    /// manager: `manager.cache()`).
    pub fn for_<K>(cache: &Cache) -> Builder<K>
    where
        K: Resource + Clone + Debug + DeserializeOwned + Send + Sync + 'static,
        K::DynamicType: Default,
        K::Scope: ScopeKind,
    {
        let dyntype = K::DynamicType::default();
        Builder {
            cache: cache.clone(),
            name: K::kind(&dyntype).to_lowercase(),
            scope: Scope::default(),
            sources: Vec::new(),
            indexes: Vec::new(),
            owned_full: Vec::new(),
            predicate: None,
            concurrency: 1,
            rate_limiter: None,
            reconcile_timeout: None,
            metrics: None,
            queue_metrics: None,
        }
    }

    /// The controller's name (its metrics label and log field).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The controller's current work queue, to inspect (for example `num_requeues`):
    /// the one the running start uses, or the next start will.
    pub fn queue(&self) -> WorkQueue<ObjectKey> {
        self.queue.lock().queue.clone()
    }

    /// Runs until `shutdown` completes, then stops taking events, lets in-flight
    /// reconciles finish and returns. (Under a [`Manager`], add it instead.)
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send) {
        let token = CancellationToken::new();
        let stop = Stop::new(token.clone());
        let request = async move {
            shutdown.await;
            token.cancel();
        };
        futures::join!(request, self.run_until(stop));
    }

    /// Runs on a fresh queue until `stop` is requested, then drains; once the
    /// leadership term is over (before or during the drain), cancels the reconciles in
    /// flight and returns only when they are gone. Dropping the future stops
    /// everything at once too, but cannot wait: its tasks are aborted with it.
    async fn run_until(&self, stop: Stop) {
        let queue = {
            let mut slot = self.queue.lock();
            if slot.used {
                slot.queue = self.queue_options.build();
            }
            slot.used = true;
            slot.queue.clone()
        };
        // Each pump is aborted when dropped: a controller's future dropped mid-run (its
        // leadership term ended) leaves no pump running.
        let mut pumps: Vec<_> = self
            .sources
            .iter()
            .map(|source| AbortOnDropHandle::new(source(queue.clone())))
            .collect();
        if let Some(served) = &self.served {
            pumps.push(AbortOnDropHandle::new(served(queue.clone())));
        }
        self.cache.start();
        if let Some(series) = self.work.series() {
            series
                .max_concurrent
                .set(i64::try_from(self.concurrency).unwrap_or(i64::MAX));
        }
        // A JoinSet aborts its tasks when dropped, so a future dropped mid-run leaves
        // no reconcile running (without waiting for it, which only returning can do).
        let mut workers = JoinSet::new();
        for _ in 0..self.concurrency {
            workers.spawn(self.work.clone().run(queue.clone(), stop.clone()));
        }
        tracing::info!(controller = %self.name, workers = workers.len(), "controller started");
        let graceful = tokio::select! {
            () = stop.requested() => true,
            () = stop.term_over() => false,
        };
        if graceful {
            tracing::info!(controller = %self.name, "controller stopping; waiting for reconciles in flight");
            pumps.iter().for_each(AbortOnDropHandle::abort);
            let drained = async {
                queue.shutdown_with_drain().await;
                while workers.join_next().await.is_some() {}
            };
            let drained = tokio::select! {
                () = drained => true,
                () = stop.term_over() => false,
            };
            if drained {
                tracing::info!(controller = %self.name, "controller stopped");
                return;
            }
        }
        tracing::warn!(controller = %self.name, "leadership term over; cancelling reconciles in flight");
        queue.shutdown();
        workers.abort_all();
        while workers.join_next().await.is_some() {}
        pumps.iter().for_each(AbortOnDropHandle::abort);
        for pump in &mut pumps {
            let _ = pump.await;
        }
        tracing::info!(controller = %self.name, "controller stopped; every reconcile in flight was cancelled");
    }
}

impl Runnable for Controller {
    fn name(&self) -> &str {
        &self.name
    }

    /// Controllers run only on the leader.
    fn needs_leader_election(&self) -> bool {
        true
    }

    /// Reports to the manager's registry, unless the builder was given metrics.
    fn register(&mut self, manager: &Manager) -> Result<(), BoxError> {
        if self.work.series().is_none() {
            let metrics = manager.shared_metrics(ControllerMetrics::register)?;
            self.work.report_to(metrics.for_controller(&self.name));
        }
        if self.queue_options.metrics.is_none() {
            self.queue_options.metrics = Some(manager.shared_metrics(PrometheusMetrics::register)?);
            let mut slot = self.queue.lock();
            if !slot.used {
                slot.queue = self.queue_options.build();
            }
        }
        Ok(())
    }

    fn start(&self, stop: Stop) -> BoxFuture<'_, Result<(), BoxError>> {
        Box::pin(async move {
            self.run_until(stop).await;
            Ok(())
        })
    }
}

/// Builds a [`Controller`]; see [`Controller::for_`].
pub struct Builder<K: Resource> {
    pub(crate) cache: Cache,
    pub(crate) name: String,
    pub(crate) scope: Scope,
    pub(crate) sources: Vec<MakeSource>,
    /// The indexes to declare on the informers the controller reads (`index`).
    pub(crate) indexes: Vec<MakeIndex>,
    /// The children cached whole (`owns_full`), whose appliers this builder can make.
    pub(crate) owned_full: Vec<TypeId>,
    pub(crate) predicate: Option<Predicate<K>>,
    pub(crate) concurrency: usize,
    rate_limiter: Option<Box<dyn RateLimiter<ObjectKey>>>,
    pub(crate) reconcile_timeout: Option<Duration>,
    pub(crate) metrics: Option<ControllerMetrics>,
    queue_metrics: Option<PrometheusMetrics>,
}

impl<K> Builder<K>
where
    K: Resource + Clone + Debug + DeserializeOwned + Send + Sync + 'static,
    K::DynamicType: Default,
    K::Scope: ScopeKind,
{
    /// Names the controller (default: the kind in lower case).
    #[must_use]
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Watches only `namespace` (default: every namespace), for the primary and every
    /// other type.
    #[must_use]
    pub fn namespace(mut self, namespace: impl Into<String>) -> Self {
        self.scope.namespace = Some(namespace.into());
        self
    }

    /// Reconciles the controller owner of every `D` that changes (its ownerReference
    /// with `controller: true` naming a `K`). Only `D`'s metadata is cached: use
    /// [`owns_full`](Self::owns_full) when the reconciler reads its children.
    #[must_use]
    pub fn owns<D>(mut self) -> Self
    where
        D: Resource + Clone + Debug + DeserializeOwned + Send + Sync + 'static,
        D::DynamicType: Default,
        D::Scope: ScopeKind,
    {
        let owner = Arc::new(OwnerKind::of::<K>());
        self.sources.push(Arc::new(move |cache: &Cache, scope: &Scope| {
            let owner = owner.clone();
            source::mapped(
                cache.metadata_informer::<D>(children_scope(cache, scope)),
                Arc::new(move |child| owner.keys(child)),
            )
        }));
        self
    }

    /// Like [`owns`](Self::owns), but caches whole `D`s, so the reconciler can read its
    /// children from `cache.informer::<D>(children_scope(cache, scope))` (the same
    /// informer, with this controller's scope) instead of asking the server, and skip writes that would
    /// change nothing with an [`Applier`](crate::Applier) made by
    /// [`applier`](Self::applier). A reconcile triggered by a child's change then
    /// always finds that change in the cache.
    #[must_use]
    pub fn owns_full<D>(mut self) -> Self
    where
        D: Resource + Clone + Debug + DeserializeOwned + Send + Sync + 'static,
        D::DynamicType: Default,
        D::Scope: ScopeKind,
    {
        self.owned_full.push(TypeId::of::<D>());
        let owner = Arc::new(OwnerKind::of::<K>());
        self.sources.push(Arc::new(move |cache: &Cache, scope: &Scope| {
            let owner = owner.clone();
            source::mapped(
                cache.informer::<D>(children_scope(cache, scope)),
                Arc::new(move |child| owner.keys(child)),
            )
        }));
        self
    }

    /// Reconciles the objects `map` returns for every `X` that changes.
    #[must_use]
    pub fn watches<X>(mut self, map: impl Fn(&X) -> Vec<ObjectKey> + Send + Sync + 'static) -> Self
    where
        X: Resource + Clone + Debug + DeserializeOwned + Send + Sync + 'static,
        X::DynamicType: Default,
        X::Scope: ScopeKind,
    {
        let map: MapFn<X> = Arc::new(map);
        self.sources.push(Arc::new(move |cache: &Cache, scope: &Scope| {
            source::mapped(cache.informer::<X>(scope.clone()), map.clone())
        }));
        self
    }

    /// Declares the index `name` on the cached `D`s this controller reads, before
    /// anything starts, as controller-runtime's `IndexField`: its primary objects when
    /// `D` is `K`, its children when it [`owns_full`](Self::owns_full) `D` (in the
    /// children's scope, the store [`Context::owned`](crate::Context::owned) hands
    /// out), else the `D`s in the controller's scope (those it
    /// [`watches`](Self::watches)). A reconcile then lists by it:
    ///
    /// ```no_run
    /// # async fn example(cache: &wheelhouse_cache::Cache) {
    /// use std::sync::Arc;
    /// use k8s_openapi::api::batch::v1::{CronJob, Job};
    /// use kube::ResourceExt;
    /// use wheelhouse_cache::ListOptions;
    /// use wheelhouse_controller::{Action, Context, Controller, Error, Reconciler};
    ///
    /// /// The Jobs of a CronJob, by the name of their controller owner.
    /// const JOB_OWNER: &str = "job-owner";
    ///
    /// struct CronJobs;
    /// impl Reconciler<CronJob> for CronJobs {
    ///     async fn reconcile(&self, cron: Arc<CronJob>, context: &Context) -> Result<Action, Error> {
    ///         let owner = (JOB_OWNER.to_owned(), cron.name_any());
    ///         let options = ListOptions { namespace: cron.namespace(), index: Some(owner), ..ListOptions::default() };
    ///         let jobs = context.owned::<Job>()?.list(&options)?;
    ///         # let _ = jobs;
    ///         Ok(Action::done())
    ///     }
    /// }
    ///
    /// let controller = Controller::for_::<CronJob>(cache)
    ///     .owns_full::<Job>()
    ///     .index(JOB_OWNER, |job: &Job| {
    ///         job.owner_references().iter().filter(|o| o.controller == Some(true) && o.kind == "CronJob").map(|o| o.name.clone()).collect()
    ///     })
    ///     .build(CronJobs);
    /// # let _ = controller;
    /// # }
    /// ```
    ///
    /// The informer's store keeps the index current on every event; declaring the
    /// same name twice on one type keeps the last.
    #[must_use]
    pub fn index<D>(
        mut self,
        name: impl Into<String>,
        function: impl Fn(&D) -> Vec<String> + Send + Sync + 'static,
    ) -> Self
    where
        D: Resource + Clone + Debug + DeserializeOwned + Send + Sync + 'static,
        D::DynamicType: Default,
        D::Scope: ScopeKind,
    {
        let name = name.into();
        let function = Arc::new(function);
        self.indexes
            .push(Arc::new(move |cache: &Cache, scope: &Scope, owned_full: &[TypeId]| {
                // The scope each kind of source reads `D` in (sharding routes them apart).
                let scope = if TypeId::of::<D>() == TypeId::of::<K>() {
                    primary_scope(cache, scope)
                } else if owned_full.contains(&TypeId::of::<D>()) {
                    children_scope(cache, scope)
                } else {
                    scope.clone()
                };
                let function = function.clone();
                cache
                    .informer::<D>(scope)
                    .store()
                    .add_index(name.clone(), move |object: &D| function(object));
            }));
        self
    }

    /// Filters updates of the primary objects (creates and deletes always pass).
    #[must_use]
    pub fn predicate(mut self, predicate: Predicate<K>) -> Self {
        self.predicate = Some(match self.predicate.take() {
            Some(existing) => existing.and(predicate),
            None => predicate,
        });
        self
    }

    /// How many objects are reconciled at once (default 1; never two for one object).
    #[must_use]
    pub fn concurrency(mut self, workers: usize) -> Self {
        self.concurrency = workers.max(1);
        self
    }

    /// The backoff of failed reconciles (default: client-go's).
    #[must_use]
    pub fn rate_limiter(mut self, limiter: impl RateLimiter<ObjectKey> + 'static) -> Self {
        self.rate_limiter = Some(Box::new(limiter));
        self
    }

    /// Cancels a reconcile that runs longer than `timeout`; it counts as an error.
    #[must_use]
    pub fn reconcile_timeout(mut self, timeout: Duration) -> Self {
        self.reconcile_timeout = Some(timeout);
        self
    }

    /// Reports controller-runtime's controller metrics to `metrics` (added to a
    /// manager, a controller reports to the manager's registry without this).
    #[must_use]
    pub fn metrics(mut self, metrics: &ControllerMetrics) -> Self {
        self.metrics = Some(metrics.clone());
        self
    }

    /// Reports the work queue's metrics (client-go's names) to `metrics` (added to a
    /// manager, a controller reports to the manager's registry without this).
    #[must_use]
    pub fn queue_metrics(mut self, metrics: &PrometheusMetrics) -> Self {
        self.queue_metrics = Some(metrics.clone());
        self
    }

    /// The controller, reconciling with `reconciler`. Makes its informers now, in the
    /// cache, so that they sync (and stay warm on standbys) before it starts.
    pub fn build<R: Reconciler<K>>(self, reconciler: R) -> Controller {
        let primary = self.cache.informer::<K>(primary_scope(&self.cache, &self.scope));
        // What this replica reconciled, at which version: kept across its terms.
        let settled = Settled::default();
        let mut sources = vec![source::primary(primary.clone(), self.predicate, settled.clone())];
        let primary_of_work = primary.clone();
        for make in &self.sources {
            sources.push(make(&self.cache, &self.scope));
        }
        for declare in &self.indexes {
            declare(&self.cache, &self.scope, &self.owned_full);
        }
        let name: Arc<str> = self.name.clone().into();
        let series = OnceLock::new();
        if let Some(metrics) = &self.metrics {
            let _ = series.set(metrics.for_controller(&name));
        }
        let work = Arc::new(Worker {
            recorder: crate::reconciler::recorder(&self.cache.client(), &name),
            name,
            client: self.cache.client(),
            cache: self.cache.clone(),
            reconciler,
            cluster: None,
            owned: Arc::new(OwnedStores {
                cache: self.cache.clone(),
                scope: children_scope(&self.cache, &self.scope),
                types: self.owned_full.clone(),
            }),
            shards: self.cache.shards().cloned(),
            primary,
            settled: settled.clone(),
            timeout: self.reconcile_timeout,
            series,
        });
        let queue_options = QueueOptions {
            name: self.name.clone(),
            limiter: self.rate_limiter.map_or_else(
                || Arc::new(default_rate_limiter()) as Arc<dyn RateLimiter<ObjectKey>>,
                Arc::from,
            ),
            metrics: self.queue_metrics,
        };
        let served = self
            .cache
            .shards()
            .map(|shards| source::served(primary_of_work.clone(), shards.clone(), settled.clone()));
        Controller {
            name: self.name,
            cache: self.cache,
            work,
            sources,
            served,
            concurrency: self.concurrency,
            queue: Mutex::new(QueueSlot {
                queue: queue_options.build(),
                used: false,
            }),
            queue_options,
        }
    }
}

/// Lets one limiter serve each of the controller's queues in turn, so failures
/// counted in one leadership term still back off in the next.
struct SharedLimiter(Arc<dyn RateLimiter<ObjectKey>>);

impl RateLimiter<ObjectKey> for SharedLimiter {
    fn when(&self, key: &ObjectKey) -> Duration {
        self.0.when(key)
    }
    fn forget(&self, key: &ObjectKey) {
        self.0.forget(key);
    }
    fn num_requeues(&self, key: &ObjectKey) -> u32 {
        self.0.num_requeues(key)
    }
}

/// What the phase scheduler reads from a builder to add its own watches: the cache and
/// the scope the controller will use, and its name.
impl<K: Resource> Builder<K> {
    pub(crate) fn cache(&self) -> &Cache {
        &self.cache
    }

    pub(crate) fn scope(&self) -> &Scope {
        &self.scope
    }

    pub(crate) fn controller_name(&self) -> &str {
        &self.name
    }

    /// Whether `D` was added with `owns_full`.
    pub(crate) fn owns_full_of<D: 'static>(&self) -> bool {
        self.owned_full.contains(&TypeId::of::<D>())
    }
}
