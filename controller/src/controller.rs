//! [`Controller`]: the builder that wires informers to a work queue and a
//! [`Reconciler`], and the loop that runs it.

use std::fmt;
use std::fmt::Debug;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::FutureExt;
use futures::future::BoxFuture;
use kube::Resource;
use serde::de::DeserializeOwned;
use tokio::task::JoinHandle;
use tracing::Instrument;
use wheelhouse_cache::{Cache, Event, Informer, Origin, Scope, ScopeKind};
use wheelhouse_workqueue::{AddOptions, Priority, PrometheusMetrics, RateLimiter, WorkQueue};

use crate::metrics::{ControllerMetrics, Series};
use crate::predicate::Predicate;
use crate::reconciler::{Context, Reconciler};

/// Which object a reconcile is for: the queue's key.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectKey {
    /// The namespace (None for cluster-scoped objects).
    pub namespace: Option<String>,
    /// The name.
    pub name: String,
}

impl ObjectKey {
    /// The key of `object`.
    pub fn of<K: Resource>(object: &K) -> Self {
        let meta = object.meta();
        Self {
            namespace: meta.namespace.clone(),
            name: meta.name.clone().unwrap_or_default(),
        }
    }

    /// The key of `name` in `namespace`.
    pub fn new(namespace: Option<&str>, name: &str) -> Self {
        Self {
            namespace: namespace.map(str::to_owned),
            name: name.to_owned(),
        }
    }
}

impl fmt::Display for ObjectKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.namespace {
            Some(namespace) => write!(f, "{namespace}/{}", self.name),
            None => f.write_str(&self.name),
        }
    }
}

/// Starts a task that turns an informer's events into queue keys.
type Pump = Box<dyn FnOnce(WorkQueue<ObjectKey>) -> JoinHandle<()> + Send>;

/// Makes the pump of a secondary source once the controller runs and its cache exists.
type MakePump = Box<dyn FnOnce(&Cache, &Scope) -> Pump + Send>;

/// Starts the pumps and the workers on the queue; returns their tasks, in that order.
type Start = Box<dyn FnOnce(WorkQueue<ObjectKey>) -> (Vec<JoinHandle<()>>, Vec<JoinHandle<()>>) + Send>;

/// A controller, built and ready to [`run`](Self::run).
///
/// ```no_run
/// # async fn example(client: kube::Client) {
/// use std::sync::Arc;
/// use std::time::Duration;
/// use k8s_openapi::api::apps::v1::{Deployment, ReplicaSet};
/// use wheelhouse_cache::Cache;
/// use wheelhouse_controller::{Action, Context, Controller, Error, Reconciler, predicate};
///
/// struct Rollouts;
/// impl Reconciler<Deployment> for Rollouts {
///     async fn reconcile(&self, _: Arc<Deployment>, _: &Context) -> Result<Action, Error> {
///         Ok(Action::requeue_after(Duration::from_secs(300)))
///     }
/// }
///
/// let cache = Cache::new(client);
/// let controller = Controller::for_::<Deployment>(&cache)
///     .owns::<ReplicaSet>()
///     .predicate(predicate::generation_changed())
///     .concurrency(4)
///     .build(Rollouts);
/// controller.run(async { let _ = tokio::signal::ctrl_c().await; }).await;
/// # }
/// ```
pub struct Controller {
    name: String,
    queue: WorkQueue<ObjectKey>,
    start: Start,
}

impl Debug for Controller {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Controller")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Controller {
    /// Starts building a controller of `K` objects read through `cache`.
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
            pumps: Vec::new(),
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

    /// The controller's work queue, to inspect (for example `num_requeues`).
    pub fn queue(&self) -> &WorkQueue<ObjectKey> {
        &self.queue
    }

    /// Runs until `shutdown` completes, then stops taking events, lets in-flight
    /// reconciles finish and returns.
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send) {
        let (pumps, workers) = (self.start)(self.queue.clone());
        tracing::info!(controller = %self.name, workers = workers.len(), "controller started");
        shutdown.await;
        tracing::info!(controller = %self.name, "controller stopping; waiting for reconciles in flight");
        for pump in &pumps {
            pump.abort();
        }
        self.queue.shutdown_with_drain().await;
        for worker in workers {
            let _ = worker.await;
        }
        tracing::info!(controller = %self.name, "controller stopped");
    }
}

/// Builds a [`Controller`]; see [`Controller::for_`].
pub struct Builder<K: Resource> {
    cache: Cache,
    name: String,
    scope: Scope,
    pumps: Vec<MakePump>,
    predicate: Option<Predicate<K>>,
    concurrency: usize,
    rate_limiter: Option<Box<dyn RateLimiter<ObjectKey>>>,
    reconcile_timeout: Option<Duration>,
    metrics: Option<ControllerMetrics>,
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
        let owner = OwnerKind::of::<K>();
        self.pumps.push(Box::new(move |cache: &Cache, scope: &Scope| {
            pump(&cache.metadata_informer::<D>(scope.clone()), move |child| {
                owner.keys(child)
            })
        }));
        self
    }

    /// Like [`owns`](Self::owns), but caches whole `D`s, so the reconciler can read its
    /// children from `cache.informer::<D>(scope)` (the same informer, with this
    /// controller's scope) instead of asking the server, and skip writes that would
    /// change nothing with an [`Applier`](crate::Applier). A reconcile triggered by a
    /// child's change then always finds that change in the cache.
    #[must_use]
    pub fn owns_full<D>(mut self) -> Self
    where
        D: Resource + Clone + Debug + DeserializeOwned + Send + Sync + 'static,
        D::DynamicType: Default,
        D::Scope: ScopeKind,
    {
        let owner = OwnerKind::of::<K>();
        self.pumps.push(Box::new(move |cache: &Cache, scope: &Scope| {
            pump(&cache.informer::<D>(scope.clone()), move |child| owner.keys(child))
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
        self.pumps.push(Box::new(move |cache: &Cache, scope: &Scope| {
            pump(&cache.informer::<X>(scope.clone()), map)
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

    /// Reports controller-runtime's controller metrics to `metrics`.
    #[must_use]
    pub fn metrics(mut self, metrics: &ControllerMetrics) -> Self {
        self.metrics = Some(metrics.clone());
        self
    }

    /// Reports the work queue's metrics (client-go's names) to `metrics`.
    #[must_use]
    pub fn queue_metrics(mut self, metrics: &PrometheusMetrics) -> Self {
        self.queue_metrics = Some(metrics.clone());
        self
    }

    /// The controller, reconciling with `reconciler`.
    pub fn build<R: Reconciler<K>>(self, reconciler: R) -> Controller {
        let mut queue = WorkQueue::builder().name(self.name.clone());
        if let Some(limiter) = self.rate_limiter {
            queue = queue.rate_limiter(BoxedLimiter(limiter));
        }
        if let Some(metrics) = &self.queue_metrics {
            queue = queue.metrics(metrics);
        }
        let queue = queue.build();
        let name: Arc<str> = self.name.clone().into();
        let series = self.metrics.as_ref().map(|m| m.for_controller(&name));
        let (cache, scope, predicate, concurrency, timeout) = (
            self.cache,
            self.scope,
            self.predicate,
            self.concurrency,
            self.reconcile_timeout,
        );
        let extra = self.pumps;
        let start = move |queue: WorkQueue<ObjectKey>| {
            let primary = cache.informer::<K>(scope.clone());
            let mut pumps = vec![primary_pump(&primary, predicate)(queue.clone())];
            for make in extra {
                pumps.push(make(&cache, &scope)(queue.clone()));
            }
            cache.start();
            if let Some(series) = &series {
                series
                    .max_concurrent
                    .set(i64::try_from(concurrency).unwrap_or(i64::MAX));
            }
            let worker = Arc::new(Worker {
                name,
                client: cache.client(),
                cache,
                reconciler,
                primary,
                timeout,
                series,
            });
            let workers = (0..concurrency)
                .map(|_| {
                    let worker = worker.clone();
                    let queue = queue.clone();
                    tokio::spawn(async move { worker.run(queue).await })
                })
                .collect();
            (pumps, workers)
        };
        Controller {
            name: self.name,
            queue,
            start: Box::new(start),
        }
    }
}

/// Lets a boxed limiter be given to the queue builder, which takes it by value.
struct BoxedLimiter(Box<dyn RateLimiter<ObjectKey>>);

impl RateLimiter<ObjectKey> for BoxedLimiter {
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

/// Events from lists (the initial one, relists, resyncs) go in at low priority, so
/// live changes are served first.
fn priority_of(origin: Origin) -> Priority {
    match origin {
        Origin::List => Priority::LOW,
        Origin::Live => Priority::NORMAL,
    }
}

fn add(queue: &WorkQueue<ObjectKey>, key: ObjectKey, priority: Priority) {
    queue.add_with(
        key,
        AddOptions {
            priority,
            ..AddOptions::default()
        },
    );
}

/// The primary objects' events: every create and delete, and the updates the
/// predicate lets through.
fn primary_pump<K>(informer: &Informer<K>, predicate: Option<Predicate<K>>) -> Pump
where
    K: Resource + Clone + Debug + Send + Sync + 'static,
{
    let mut subscription = informer.subscribe();
    Box::new(move |queue| {
        tokio::spawn(async move {
            while let Some((event, origin)) = subscription.recv_with_origin().await {
                let key = match &event {
                    Event::Updated { old, new } if !Arc::ptr_eq(old, new) => {
                        if predicate.as_ref().is_some_and(|p| !p.update(old, new)) {
                            continue;
                        }
                        ObjectKey::of(new.as_ref())
                    }
                    Event::Added(object) | Event::Updated { new: object, .. } | Event::Deleted(object) => {
                        ObjectKey::of(object.as_ref())
                    }
                    Event::Lagged => continue, // everything follows as Added
                };
                add(&queue, key, priority_of(origin));
            }
        })
    })
}

/// The kind and API group of a controller's primary type, to find it among a child's
/// ownerReferences.
struct OwnerKind {
    kind: String,
    group: String,
}

impl OwnerKind {
    fn of<K: Resource<DynamicType: Default>>() -> Self {
        let dyntype = K::DynamicType::default();
        Self {
            kind: K::kind(&dyntype).into_owned(),
            group: K::group(&dyntype).into_owned(),
        }
    }

    /// The controller owner of `child`, if it is one of ours.
    fn keys(&self, child: &impl Resource) -> Vec<ObjectKey> {
        let meta = child.meta();
        meta.owner_references
            .iter()
            .flatten()
            .filter(|owner| owner.controller == Some(true) && owner.kind == self.kind)
            .filter(|owner| owner.api_version.split_once('/').map_or("", |(g, _)| g) == self.group)
            .map(|owner| ObjectKey::new(meta.namespace.as_deref(), &owner.name))
            .collect()
    }
}

/// A secondary type's events, mapped to primary keys.
fn pump<T>(informer: &Informer<T>, map: impl Fn(&T) -> Vec<ObjectKey> + Send + Sync + 'static) -> Pump
where
    T: Resource + Clone + Debug + Send + Sync + 'static,
{
    let mut subscription = informer.subscribe();
    Box::new(move |queue| {
        tokio::spawn(async move {
            while let Some((event, origin)) = subscription.recv_with_origin().await {
                let priority = priority_of(origin);
                let keys = match &event {
                    Event::Updated { old, new } => {
                        let mut keys = map(old);
                        keys.extend(map(new));
                        keys
                    }
                    Event::Added(object) | Event::Deleted(object) => map(object),
                    Event::Lagged => Vec::new(),
                };
                for key in keys {
                    add(&queue, key, priority);
                }
            }
        })
    })
}

struct Worker<K: Resource, R> {
    name: Arc<str>,
    client: kube::Client,
    /// Keeps the informers running while the controller runs, even if the caller
    /// dropped its own handle of the cache (informers stop with the last handle).
    #[expect(dead_code, reason = "held for its lifetime, not read")]
    cache: Cache,
    reconciler: R,
    primary: Informer<K>,
    timeout: Option<Duration>,
    series: Option<Series>,
}

/// How one reconcile ended.
enum Outcome {
    Done,
    RequeueAfter(Duration),
    Failed { terminal: bool },
}

impl<K, R> Worker<K, R>
where
    K: Resource + Clone + Debug + Send + Sync + 'static,
    R: Reconciler<K>,
{
    async fn run(&self, queue: WorkQueue<ObjectKey>) {
        while let Some(key) = queue.get().await {
            // After shutdown the queue still hands out what was queued, so that it
            // drains; those keys are let go: shutdown waits only for reconciles in flight.
            if queue.is_shutting_down() {
                queue.done(&key);
                continue;
            }
            // A deleted object is gone from the cache: it reaches the reconciler only
            // while a finalizer holds it. Its failures go with it.
            let Some(object) = self.primary.store().get(key.namespace.as_deref(), &key.name) else {
                queue.forget(&key);
                queue.done(&key);
                continue;
            };
            if let Some(series) = &self.series {
                series.active_workers.inc();
            }
            let outcome = self.reconcile(&key, object).await;
            if let Some(series) = &self.series {
                series.active_workers.dec();
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
        let span =
            tracing::info_span!("reconcile", controller = %self.name, object = %key, reconcile_id = %reconcile_id);
        let context = Context {
            client: self.client.clone(),
            controller: self.name.clone(),
            reconcile_id,
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
        let outcome = match result {
            Ok(Ok(Ok(action))) => match action.requeue() {
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
                if let Some(series) = &self.series {
                    series.panics.inc();
                }
                Outcome::Failed { terminal: false }
            }
            Err(_) => {
                tracing::warn!(timeout = ?self.timeout, "reconcile timed out and was cancelled");
                Outcome::Failed { terminal: false }
            }
        };
        if let Some(series) = &self.series {
            series.time.observe(elapsed.as_secs_f64());
            match outcome {
                Outcome::Done => series.success.inc(),
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
}
