//! [`Informer`]: one watch of one resource and scope, feeding a [`Store`] and fanning
//! its changes out to subscribers.

use std::collections::HashSet;
use std::fmt::Debug;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use kube::Resource;
use kube::runtime::watcher;
use parking_lot::Mutex;
use tokio::task::JoinHandle;
use tokio_util::task::AbortOnDropHandle;

use crate::metrics::{CacheMetrics, InformerMetrics};
use crate::report::error_chain;
use crate::shard::{Route, Shards, SlotSet};
use crate::sharded::{ShardEvent, ShardedWatch};
use crate::source::Source;
use crate::store::{Store, Writer};
use crate::subscription::{Event, Fanout, Origin, Subscription};

/// A function applied to every object before it is stored.
pub type Transform<K> = Arc<dyn Fn(&mut K) + Send + Sync>;

/// The default transform: drop `metadata.managedFields`, a quarter of a typical object
/// that controllers never read.
pub fn drop_managed_fields<K: Resource>(object: &mut K) {
    object.meta_mut().managed_fields = None;
}

/// How an informer treats its objects.
///
/// # Which options at which scale
///
/// What an informer holds grows linearly with the objects it stores (the figures, per
/// realistic Pod at each size from 1,000 up, are in the repository's
/// `benches/README.md`, section "Scale", from `cargo bench --bench scale`):
///
/// - **Keep the default transform** ([`drop_managed_fields`], with
///   `decode_managed_fields: false`) at every size, unless a controller reads
///   `metadata.managedFields`: they are about half of what a Pod costs in memory once
///   decoded (each field set is a tree of maps), and skipping them while decoding also
///   makes the list faster. This is controller-runtime's `TransformStripManagedFields`,
///   on by default. A transform that also drops the
///   `kubectl.kubernetes.io/last-applied-configuration` annotation (a copy of the object
///   as applied, on what `kubectl apply` made) saves its size again on such objects:
///   call [`drop_managed_fields`] first, then remove the annotation.
/// - **Use a metadata-only informer** ([`Cache::metadata_informer`](crate::Cache::metadata_informer))
///   for a type a controller only maps to owners or filters by labels (the Pods of a
///   workload operator, typically): a tenth of a full Pod's bytes, or less.
/// - **The list page size** ([`list_page_size`](Self::list_page_size)) matters only to
///   sync time, not to what is held: kube-runtime's default of 500 is right up to tens
///   of thousands of objects; above that, pages of a few thousand cut the list's round
///   trips (each a consistent read on the API server) at the price of larger responses
///   held at once while decoding.
pub struct InformerOptions<K> {
    /// Applied to every object before it is stored (default: [`drop_managed_fields`]).
    pub transform: Option<Transform<K>>,
    /// Re-deliver every stored object as `Updated` this often (default: never).
    pub resync: Option<Duration>,
    /// Events a subscriber may have queued before it lags (default 4096).
    pub subscriber_capacity: usize,
    /// Whether a [`Cache`](crate::Cache) informer decodes `metadata.managedFields` at
    /// all (default false: they are skipped while decoding, which makes a list sync
    /// faster than decoding and then dropping them). Set it, together with a transform
    /// that keeps them, for a controller that reads them.
    pub decode_managed_fields: bool,
    /// Objects per page of a [`Cache`](crate::Cache) informer's initial list and
    /// relists (default None: kube-runtime's 500, as client-go's).
    pub list_page_size: Option<u32>,
}

impl<K: Resource + 'static> Default for InformerOptions<K> {
    fn default() -> Self {
        Self {
            transform: Some(Arc::new(drop_managed_fields::<K>)),
            resync: None,
            subscriber_capacity: 4096,
            decode_managed_fields: false,
            list_page_size: None,
        }
    }
}

impl<K> Clone for InformerOptions<K> {
    fn clone(&self) -> Self {
        Self {
            transform: self.transform.clone(),
            resync: self.resync,
            subscriber_capacity: self.subscriber_capacity,
            decode_managed_fields: self.decode_managed_fields,
            list_page_size: self.list_page_size,
        }
    }
}

/// Where an informer's events come from.
enum Feed<K> {
    /// One watch of every object in scope.
    Watch(Source<K>),
    /// The objects of this replica's slots: see [`crate::sharded`].
    Sharded(ShardedWatch<K>),
}

struct Shared<K: Resource> {
    name: String,
    /// Only the informer writes; readers get [`Store`]s.
    store: Writer<K>,
    fanout: Arc<Fanout<K>>,
    synced: tokio::sync::watch::Sender<bool>,
    source: Mutex<Option<Feed<K>>>,
    /// For a sharded informer: whose slots, and how its objects are routed.
    shard: Option<(Shards, Route)>,
    /// The store's size last added to the shards' object count.
    counted: std::sync::atomic::AtomicI64,
    options: InformerOptions<K>,
    metrics: Option<InformerMetrics>,
    task: Mutex<Option<JoinHandle<()>>>,
    /// The last watch failure since the last full list, with its cause chain: what a
    /// sync that timed out reports.
    last_error: Mutex<Option<String>>,
    /// The watch's failures, logged once a run and summed up, not once a retry.
    outage: crate::outage::Outage,
}

/// One watch, one store, any number of subscribers. Cheap to clone (a handle); the
/// watch runs from [`start`](Self::start) until [`stop`](Self::stop).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use futures::StreamExt;
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use kube::runtime::watcher;
/// use wheelhouse_cache::{Event, Informer};
///
/// // Any source of watcher events will do; a real one is `watcher(api, config)`.
/// let mut config = ConfigMap::default();
/// config.metadata.name = Some("settings".into());
/// config.metadata.namespace = Some("default".into());
/// let events = futures::stream::iter([
///     Ok(watcher::Event::Init),
///     Ok(watcher::Event::InitApply(config)),
///     Ok(watcher::Event::InitDone),
/// ]);
/// let informer = Informer::new("configmaps", events.boxed(), Default::default(), None);
/// let mut subscription = informer.subscribe();
/// informer.start();
/// informer.wait_for_sync().await;
/// assert_eq!(informer.store().len(), 1);
/// assert!(matches!(subscription.recv().await, Some(Event::Added(_))));
/// # }
/// ```
pub struct Informer<K: Resource> {
    shared: Arc<Shared<K>>,
}

impl<K: Resource> Clone for Informer<K> {
    fn clone(&self) -> Self {
        Self {
            shared: self.shared.clone(),
        }
    }
}

impl<K: Resource> Debug for Informer<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Informer")
            .field("name", &self.shared.name)
            .field("synced", &*self.shared.synced.borrow())
            .finish_non_exhaustive()
    }
}

impl<K> Informer<K>
where
    K: Resource + Clone + Debug + Send + Sync + 'static,
{
    /// An informer named `name` (its metrics label and log field) over `source`.
    /// Metrics go to `metrics` when given.
    pub fn new(
        name: impl Into<String>,
        source: Source<K>,
        options: InformerOptions<K>,
        metrics: Option<&CacheMetrics>,
    ) -> Self {
        Self::with_feed(name.into(), Feed::Watch(source), None, options, metrics)
    }

    /// A sharded informer: it keeps only the objects of the slots `watch.shards`
    /// accepts. It counts as synced at once: its objects arrive as slots are handed
    /// to this replica.
    pub(crate) fn sharded(watch: ShardedWatch<K>, options: InformerOptions<K>, metrics: Option<&CacheMetrics>) -> Self {
        let shard = Some((watch.shards.clone(), watch.route));
        Self::with_feed(watch.name.clone(), Feed::Sharded(watch), shard, options, metrics)
    }

    fn with_feed(
        name: String,
        feed: Feed<K>,
        shard: Option<(Shards, Route)>,
        options: InformerOptions<K>,
        metrics: Option<&CacheMetrics>,
    ) -> Self {
        let fanout = Arc::new(Fanout::new(options.subscriber_capacity));
        let metrics = metrics.map(|m| m.for_informer(&name));
        Self {
            shared: Arc::new(Shared {
                store: Writer::default(),
                fanout,
                synced: tokio::sync::watch::channel(false).0,
                source: Mutex::new(Some(feed)),
                shard,
                counted: std::sync::atomic::AtomicI64::new(0),
                options,
                metrics,
                task: Mutex::new(None),
                last_error: Mutex::new(None),
                outage: crate::outage::Outage::new(format!("watch of {name}")),
                name,
            }),
        }
    }

    /// The informer's name, such as `configmaps.v1 namespace=default`.
    pub fn name(&self) -> &str {
        &self.shared.name
    }

    /// The objects seen so far.
    pub fn store(&self) -> &Store<K> {
        self.shared.store.reader()
    }

    /// A new subscriber: it first receives every stored object as `Added`, then every
    /// change. See [`Subscription`] for what happens to one that falls behind.
    pub fn subscribe(&self) -> Subscription<K> {
        Subscription::new(self.shared.fanout.clone(), self.shared.store.reader().clone())
    }

    /// Starts the watch on the current tokio runtime (once; later calls do nothing).
    pub fn start(&self) {
        let Some(feed) = self.shared.source.lock().take() else {
            return;
        };
        let shared = self.shared.clone();
        let task = match feed {
            Feed::Watch(source) => tokio::spawn(async move { run(shared, source).await }),
            Feed::Sharded(watch) => tokio::spawn(async move { run_sharded(shared, watch).await }),
        };
        *self.shared.task.lock() = Some(task);
    }

    /// Stops the watch; subscribers receive what is queued, then the end.
    pub fn stop(&self) {
        if let Some(task) = self.shared.task.lock().take() {
            task.abort();
        }
        self.shared.fanout.close();
    }

    /// True once the first full list has been stored.
    pub fn has_synced(&self) -> bool {
        *self.shared.synced.borrow()
    }

    /// The last failure of the watch since the last full list was stored (None once it
    /// is): the error with its whole cause chain, and the URL when the client names it
    /// ([`name_request_urls`](crate::name_request_urls)).
    pub fn last_error(&self) -> Option<String> {
        self.shared.last_error.lock().clone()
    }

    /// Waits until the first full list has been stored.
    pub async fn wait_for_sync(&self) {
        let mut synced = self.shared.synced.subscribe();
        let _ = synced.wait_for(|synced| *synced).await;
    }
}

fn same_version<K: Resource>(a: &K, b: &K) -> bool {
    let (a, b) = (a.meta(), b.meta());
    a.resource_version.is_some() && a.resource_version == b.resource_version && a.uid == b.uid
}

fn key_of<K: Resource>(object: &K) -> (String, String) {
    let meta = object.meta();
    (
        meta.namespace.clone().unwrap_or_default(),
        meta.name.clone().unwrap_or_default(),
    )
}

impl<K: Resource + Clone + Debug + Send + Sync + 'static> Shared<K> {
    fn count(&self, event: &Event<K>) {
        if let Some(metrics) = &self.metrics {
            match event {
                Event::Added(_) => metrics.added.inc(),
                Event::Updated { .. } => metrics.updated.inc(),
                Event::Deleted(_) => metrics.deleted.inc(),
                Event::Lagged => {}
            }
        }
    }

    fn publish(
        &self,
        subscribers: &mut Vec<Arc<crate::subscription::Subscriber<K>>>,
        event: &Event<K>,
        origin: Origin,
    ) {
        let lagged = Fanout::publish(subscribers, event, origin);
        if lagged > 0 {
            tracing::warn!(informer = %self.name, lagged, "subscribers fell behind and will re-sync from the store");
        }
        self.count(event);
    }

    /// Stores an object seen on the watch or in a list and tells subscribers, unless
    /// it is the version already stored.
    fn apply(&self, mut object: K, origin: Origin) {
        if let Some(transform) = &self.options.transform {
            transform(&mut object);
        }
        let new = Arc::new(object);
        let mut subscribers = self.fanout.lock();
        let event = match self.store.insert_unless(new.clone(), same_version) {
            Err(_unchanged) => return,
            Ok(Some(old)) => Event::Updated { old, new },
            Ok(None) => Event::Added(new),
        };
        self.publish(&mut subscribers, &event, origin);
    }

    fn delete(&self, object: &K) {
        let mut subscribers = self.fanout.lock();
        let meta = object.meta();
        let removed = self
            .store
            .remove(meta.namespace.as_deref(), meta.name.as_deref().unwrap_or_default());
        if let Some(last) = removed {
            self.publish(&mut subscribers, &Event::Deleted(last), Origin::Live);
        }
    }

    /// After a full list: whatever is stored but was not listed was deleted meanwhile.
    fn finish_list(&self, listed: &HashSet<(String, String)>) {
        self.finish_list_of(listed, |_| true);
    }

    /// After a list of the objects `covered` selects: those stored but not listed
    /// were deleted meanwhile.
    fn finish_list_of(&self, listed: &HashSet<(String, String)>, covered: impl Fn(&K) -> bool) {
        let mut subscribers = self.fanout.lock();
        for object in self.store.reader().all() {
            if covered(object.as_ref()) && !listed.contains(&key_of(object.as_ref())) {
                let meta = object.meta();
                if let Some(last) = self
                    .store
                    .remove(meta.namespace.as_deref(), meta.name.as_deref().unwrap_or_default())
                {
                    self.publish(&mut subscribers, &Event::Deleted(last), Origin::List);
                }
            }
        }
    }

    /// Whether `object` routes to one of `slots` (a sharded informer's).
    fn in_slots(&self, object: &K, slots: SlotSet) -> bool {
        self.shard.as_ref().is_some_and(|(shards, route)| {
            shards
                .slot_of(object.meta(), *route)
                .is_some_and(|slot| slots.contains(slot))
        })
    }

    /// Drops the objects of slots this replica no longer keeps, telling no one: they
    /// were not deleted, another replica has them now.
    fn forget(&self, slots: SlotSet) {
        let _subscribers = self.fanout.lock();
        for object in self.store.reader().all() {
            if self.in_slots(object.as_ref(), slots) {
                let meta = object.meta();
                self.store
                    .remove(meta.namespace.as_deref(), meta.name.as_deref().unwrap_or_default());
            }
        }
    }

    fn watch_failed(&self, error: &watcher::Error) {
        if let Some(metrics) = &self.metrics {
            metrics.watch_restarts.inc();
        }
        let error = error_chain(error).to_string();
        tracing::debug!(informer = %self.name, %error, "watch failed; retrying with backoff");
        self.outage.failed(&error);
        *self.last_error.lock() = Some(error);
    }

    fn resync(&self) {
        let mut subscribers = self.fanout.lock();
        for object in self.store.reader().all() {
            self.publish(
                &mut subscribers,
                &Event::Updated {
                    old: object.clone(),
                    new: object,
                },
                Origin::List,
            );
        }
    }

    fn record_size(&self) {
        let size = i64::try_from(self.store.reader().len()).unwrap_or(i64::MAX);
        if let Some(metrics) = &self.metrics {
            metrics.objects.set(size);
        }
        if let Some((shards, Route::Own)) = &self.shard {
            let before = self.counted.swap(size, std::sync::atomic::Ordering::Relaxed);
            shards.add_objects(size - before);
        }
    }
}

/// The resync timer: ticks every period, or never without one.
struct Resync(Option<tokio::time::Interval>);

impl Resync {
    fn new(period: Option<Duration>) -> Self {
        Self(period.map(|period| tokio::time::interval_at(tokio::time::Instant::now() + period, period)))
    }

    async fn tick(&mut self) {
        match self.0.as_mut() {
            Some(interval) => {
                interval.tick().await;
            }
            None => std::future::pending().await,
        }
    }
}

async fn run_sharded<K: Resource + Clone + Debug + Send + Sync + 'static>(
    shared: Arc<Shared<K>>,
    watch: ShardedWatch<K>,
) {
    let (sender, mut events) = tokio::sync::mpsc::channel(1024);
    // Dropping the informer's task stops the watch that feeds it.
    let _feeding = AbortOnDropHandle::new(tokio::spawn(watch.run(sender)));
    shared.synced.send_replace(true);
    let mut resync = Resync::new(shared.options.resync);
    loop {
        let event = tokio::select! {
            event = events.recv() => event,
            () = resync.tick() => {
                shared.resync();
                continue;
            }
        };
        let Some(event) = event else { break };
        match event {
            ShardEvent::Apply(object, origin) => shared.apply(object, origin),
            ShardEvent::Delete(object) => shared.delete(&object),
            ShardEvent::Forget(slots) => shared.forget(slots),
            ShardEvent::Listed { slots, listed } => {
                shared.outage.succeeded();
                shared.finish_list_of(&listed, |object| shared.in_slots(object, slots));
            }
            ShardEvent::Failed(error) => shared.watch_failed(&error),
        }
        shared.record_size();
    }
    tracing::debug!(informer = %shared.name, "watch ended");
    shared.fanout.close();
}

async fn run<K: Resource + Clone + Debug + Send + Sync + 'static>(shared: Arc<Shared<K>>, mut source: Source<K>) {
    let mut listing: Option<HashSet<(String, String)>> = None;
    let mut lists = 0_u64;
    let mut resync = Resync::new(shared.options.resync);
    loop {
        let item = tokio::select! {
            item = source.next() => item,
            () = resync.tick() => {
                shared.resync();
                continue;
            }
        };
        let Some(item) = item else { break };
        match item {
            Err(error) => shared.watch_failed(&error),
            Ok(watcher::Event::Init) => {
                lists += 1;
                if lists > 1 {
                    if let Some(metrics) = &shared.metrics {
                        metrics.relists.inc();
                    }
                    tracing::info!(informer = %shared.name, "relisting (the watch could not resume)");
                } else {
                    tracing::debug!(informer = %shared.name, "listing");
                }
                // Only objects stored before this list can be missing from it: an empty
                // store (the first list) needs no record of what was listed.
                listing = (!shared.store.reader().is_empty()).then(HashSet::new);
            }
            Ok(watcher::Event::InitApply(object)) => {
                if let Some(listed) = listing.as_mut() {
                    listed.insert(key_of(&object));
                }
                shared.apply(object, Origin::List);
            }
            Ok(watcher::Event::InitDone) => {
                shared.outage.succeeded();
                if let Some(listed) = listing.take() {
                    shared.finish_list(&listed);
                }
                shared.record_size();
                shared.last_error.lock().take();
                tracing::debug!(informer = %shared.name, objects = shared.store.reader().len(), "synced");
                shared.synced.send_replace(true);
            }
            Ok(watcher::Event::Apply(object)) => {
                shared.outage.succeeded();
                shared.apply(object, Origin::Live);
                shared.record_size();
            }
            Ok(watcher::Event::Delete(object)) => {
                shared.delete(&object);
                shared.record_size();
            }
        }
    }
    tracing::debug!(informer = %shared.name, "watch ended");
    shared.fanout.close();
}
