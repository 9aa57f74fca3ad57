//! [`Cache`]: the shared informer factory. One informer, and so one watch on the API
//! server, per resource type and scope, however many controllers read it.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::Arc;
use std::time::Duration;

use futures::{Stream, StreamExt, TryStreamExt};
use kube::api::{Api, DynamicObject};
use kube::core::PartialObjectMeta;
use kube::core::{ClusterResourceScope, DynamicResourceScope, NamespaceResourceScope};
use kube::discovery::ApiResource;
use kube::runtime::{WatchStreamExt, watcher};
use kube::{Client, Resource};
use parking_lot::Mutex;
use serde::de::DeserializeOwned;

use crate::backoff::WatchBackoff;
use crate::decode::WithoutManagedFields;
use crate::informer::{Informer, InformerOptions};
use crate::metrics::CacheMetrics;
use crate::relist::Relisting;
use crate::shard::{Route, Shards};
use crate::sharded::{self, ShardedWatch};
use crate::source::Source;

/// Which objects of a type an informer watches. The default is every namespace, no
/// selector.
///
/// ```
/// use wheelhouse_cache::Scope;
///
/// let scope = Scope::namespace("default").labels("app=web");
/// assert_eq!(scope.to_string(), "namespace=default labels=app=web");
/// assert_eq!(Scope::default().to_string(), "all namespaces");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Scope {
    /// Only this namespace (all namespaces when None).
    pub namespace: Option<String>,
    /// A label selector, in the query syntax.
    pub label_selector: Option<String>,
    /// A field selector, in the query syntax.
    pub field_selector: Option<String>,
    /// Only this replica's shard of the objects, routed so (in a cache made with
    /// [`Shards`]; elsewhere every object).
    pub shard: Option<Route>,
}

impl Scope {
    /// Every object of one namespace.
    pub fn namespace(namespace: impl Into<String>) -> Self {
        Self {
            namespace: Some(namespace.into()),
            ..Self::default()
        }
    }

    /// Narrows the scope to objects matching `selector`.
    #[must_use]
    pub fn labels(mut self, selector: impl Into<String>) -> Self {
        self.label_selector = Some(selector.into());
        self
    }

    /// Narrows the scope to objects matching the field `selector`.
    #[must_use]
    pub fn fields(mut self, selector: impl Into<String>) -> Self {
        self.field_selector = Some(selector.into());
        self
    }

    /// Narrows the scope to this replica's shard, each object routed by `route`.
    #[must_use]
    pub fn sharded(mut self, route: Route) -> Self {
        self.shard = Some(route);
        self
    }

    fn watcher_config(&self, list_page_size: Option<u32>) -> watcher::Config {
        let mut config = watcher::Config::default();
        if let Some(page_size) = list_page_size {
            config = config.page_size(page_size);
        }
        if let Some(labels) = &self.label_selector {
            config = config.labels(labels);
        }
        if let Some(fields) = &self.field_selector {
            config = config.fields(fields);
        }
        config
    }
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.namespace {
            Some(namespace) => write!(f, "namespace={namespace}")?,
            None => f.write_str("all namespaces")?,
        }
        if let Some(labels) = &self.label_selector {
            write!(f, " labels={labels}")?;
        }
        if let Some(fields) = &self.field_selector {
            write!(f, " fields={fields}")?;
        }
        match self.shard {
            Some(Route::Own) => f.write_str(" sharded")?,
            Some(Route::ControllerOwner) => f.write_str(" sharded by owner")?,
            None => {}
        }
        Ok(())
    }
}

/// How to reach the objects of a resource in a namespace, whatever the kind of scope
/// its type declares (kube builds namespaced `Api`s differently for each).
pub trait ScopeKind: Sized {
    /// An `Api` over `namespace`, or over every namespace when None.
    fn api<K>(client: Client, namespace: Option<&str>, dyntype: &K::DynamicType) -> Api<K>
    where
        K: Resource<Scope = Self>,
        K::DynamicType: Default;
}

impl ScopeKind for NamespaceResourceScope {
    fn api<K>(client: Client, namespace: Option<&str>, dyntype: &K::DynamicType) -> Api<K>
    where
        K: Resource<Scope = Self>,
        K::DynamicType: Default,
    {
        match namespace {
            Some(namespace) => Api::namespaced(client, namespace),
            None => Api::all_with(client, dyntype),
        }
    }
}

impl ScopeKind for ClusterResourceScope {
    /// Cluster-scoped objects have no namespace: the scope's namespace is ignored.
    fn api<K>(client: Client, _: Option<&str>, dyntype: &K::DynamicType) -> Api<K>
    where
        K: Resource<Scope = Self>,
        K::DynamicType: Default,
    {
        Api::all_with(client, dyntype)
    }
}

impl ScopeKind for DynamicResourceScope {
    fn api<K>(client: Client, namespace: Option<&str>, dyntype: &K::DynamicType) -> Api<K>
    where
        K: Resource<Scope = Self>,
        K::DynamicType: Default,
    {
        match namespace {
            Some(namespace) => Api::namespaced_with(client, namespace, dyntype),
            None => Api::all_with(client, dyntype),
        }
    }
}

/// The events of a watch decoded without managedFields, as events of `K`.
fn without_managed_fields<K: Send + 'static>(
    watch: impl Stream<Item = Result<watcher::Event<WithoutManagedFields<K>>, watcher::Error>> + Send + 'static,
) -> Source<K> {
    watch
        .backoff(WatchBackoff::new())
        .map_ok(|event| match event {
            watcher::Event::Apply(WithoutManagedFields(object)) => watcher::Event::Apply(object),
            watcher::Event::Delete(WithoutManagedFields(object)) => watcher::Event::Delete(object),
            watcher::Event::Init => watcher::Event::Init,
            watcher::Event::InitApply(WithoutManagedFields(object)) => watcher::Event::InitApply(object),
            watcher::Event::InitDone => watcher::Event::InitDone,
        })
        .boxed()
}

/// The informers that did not sync in time, and why: the last error of each whose
/// watch failed (an unreachable API server names its URL and every cause there).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} informer(s) did not sync within {waited:?}: {}; {}", .informers.len(), .informers.join(", "), why_not_synced(.failures))]
pub struct SyncError {
    /// How long `wait_for_sync` waited.
    pub waited: Duration,
    /// The names of the informers still not synced.
    pub informers: Vec<String>,
    /// `name: last error` of each of them whose watch failed, with the whole cause chain.
    pub failures: Vec<String>,
}

fn why_not_synced(failures: &[String]) -> String {
    if failures.is_empty() {
        "check that the resource is served and the client may list and watch it".to_owned()
    } else {
        format!("their watches failed: {}", failures.join("; "))
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    /// The Rust type of the objects (typed, metadata-only or dynamic).
    type_id: TypeId,
    /// group/version/plural, which tells dynamic informers apart.
    resource: String,
    scope: Scope,
}

/// What the cache needs of an informer whatever its type.
trait Control: Send + Sync {
    fn start(&self);
    fn stop(&self);
    fn has_synced(&self) -> bool;
    fn name(&self) -> &str;
    fn last_error(&self) -> Option<String>;
    fn as_any(&self) -> &dyn Any;
}

impl<K: Resource + Clone + Debug + Send + Sync + 'static> Control for Informer<K> {
    fn start(&self) {
        Informer::start(self);
    }
    fn stop(&self) {
        Informer::stop(self);
    }
    fn has_synced(&self) -> bool {
        Informer::has_synced(self)
    }
    fn name(&self) -> &str {
        Informer::name(self)
    }
    fn last_error(&self) -> Option<String> {
        Informer::last_error(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

struct Inner {
    client: Client,
    informers: Mutex<HashMap<Key, Box<dyn Control>>>,
    started: Mutex<bool>,
    metrics: Option<CacheMetrics>,
    shards: Option<Shards>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        for informer in self.informers.get_mut().values() {
            informer.stop();
        }
    }
}

/// The shared informer factory. Cheap to clone; informers stop when the last clone
/// is dropped.
///
/// ```no_run
/// # async fn run(client: kube::Client) -> Result<(), wheelhouse_cache::SyncError> {
/// use std::time::Duration;
/// use k8s_openapi::api::apps::v1::Deployment;
/// use wheelhouse_cache::{Cache, Scope};
///
/// let cache = Cache::new(client);
/// let deployments = cache.informer::<Deployment>(Scope::namespace("default"));
/// let same = cache.informer::<Deployment>(Scope::namespace("default")); // one watch for both
/// cache.start();
/// cache.wait_for_sync(Duration::from_secs(30)).await?;
/// let web = deployments.store().get(Some("default"), "web");
/// # let _ = (same, web);
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct Cache {
    inner: Arc<Inner>,
}

impl Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<String> = self
            .inner
            .informers
            .lock()
            .values()
            .map(|i| i.name().to_owned())
            .collect();
        f.debug_struct("Cache")
            .field("informers", &names)
            .finish_non_exhaustive()
    }
}

impl Cache {
    /// A cache reading through `client`, without metrics.
    pub fn new(client: Client) -> Self {
        Self::with_metrics(client, None)
    }

    /// A cache whose informers report to `metrics`.
    pub fn with_metrics(client: Client, metrics: Option<CacheMetrics>) -> Self {
        Self::with_shards(client, metrics, None)
    }

    /// A cache whose informers of [sharded](Scope::sharded) scopes keep only the
    /// objects of the slots `shards` accepts.
    pub fn with_shards(client: Client, metrics: Option<CacheMetrics>, shards: Option<Shards>) -> Self {
        Self {
            inner: Arc::new(Inner {
                client,
                informers: Mutex::new(HashMap::new()),
                started: Mutex::new(false),
                metrics,
                shards,
            }),
        }
    }

    /// This replica's shards, in a sharded manager's cache.
    pub fn shards(&self) -> Option<&Shards> {
        self.inner.shards.as_ref()
    }

    /// The client the cache reads through.
    pub fn client(&self) -> Client {
        self.inner.client.clone()
    }

    /// The informer of `K` objects in `scope`, with the default options.
    pub fn informer<K>(&self, scope: Scope) -> Informer<K>
    where
        K: Resource + Clone + Debug + DeserializeOwned + Send + Sync + 'static,
        K::DynamicType: Default,
        K::Scope: ScopeKind,
    {
        self.informer_with(scope, InformerOptions::default())
    }

    /// The informer of `K` objects in `scope`; `options` apply only if this call
    /// creates it.
    pub fn informer_with<K>(&self, scope: Scope, options: InformerOptions<K>) -> Informer<K>
    where
        K: Resource + Clone + Debug + DeserializeOwned + Send + Sync + 'static,
        K::DynamicType: Default,
        K::Scope: ScopeKind,
    {
        let dyntype = K::DynamicType::default();
        let resource = format!(
            "{}/{}/{}",
            K::group(&dyntype),
            K::version(&dyntype),
            K::plural(&dyntype)
        );
        // A metadata-only informer of a type is another informer than the full one:
        // its name (the metrics label) says so.
        let only = if K::metadata_api() { " metadata-only" } else { "" };
        let name = format!("{}.{} {scope}{only}", K::plural(&dyntype), K::api_version(&dyntype));
        self.get_or_create(
            Key {
                type_id: TypeId::of::<K>(),
                resource,
                scope,
            },
            |scope| {
                if let (Some(route), Some(shards)) = (scope.shard, &self.inner.shards) {
                    let make = self.make_watch::<K>(scope, &options);
                    let api: Api<K> = K::Scope::api(self.inner.client.clone(), scope.namespace.as_deref(), &dyntype);
                    let watch = ShardedWatch {
                        make,
                        probe: sharded::probe(self.inner.client.clone(), api.resource_url().to_owned()),
                        shards: shards.clone(),
                        route,
                        name,
                    };
                    return Informer::sharded(watch, options, self.inner.metrics.as_ref());
                }
                let (client, namespace) = (self.inner.client.clone(), scope.namespace.as_deref());
                let config = scope.watcher_config(options.list_page_size);
                let source = if options.decode_managed_fields {
                    let api: Api<K> = K::Scope::api(client, namespace, &dyntype);
                    Relisting::new(move || watcher(api.clone(), config.clone()).boxed())
                        .backoff(WatchBackoff::new())
                        .boxed()
                } else {
                    let api: Api<WithoutManagedFields<K>> = K::Scope::api(client, namespace, &dyntype);
                    without_managed_fields(Relisting::new(move || watcher(api.clone(), config.clone()).boxed()))
                };
                Informer::new(name, source, options, self.inner.metrics.as_ref())
            },
        )
    }

    /// Builds the watches of a sharded informer: each with the `shardSelector` given.
    fn make_watch<K>(&self, scope: &Scope, options: &InformerOptions<K>) -> sharded::MakeWatch<K>
    where
        K: Resource + Clone + Debug + DeserializeOwned + Send + Sync + 'static,
        K::DynamicType: Default,
        K::Scope: ScopeKind,
    {
        let client = self.inner.client.clone();
        let scope = scope.clone();
        let (decode_managed_fields, list_page_size) = (options.decode_managed_fields, options.list_page_size);
        Arc::new(move |selector: Option<String>| {
            let client = match &selector {
                Some(selector) => sharded::with_selector(&client, selector),
                None => client.clone(),
            };
            let dyntype = K::DynamicType::default();
            let namespace = scope.namespace.as_deref();
            if decode_managed_fields {
                let api: Api<K> = K::Scope::api(client, namespace, &dyntype);
                let config = scope.watcher_config(list_page_size);
                Relisting::new(move || watcher(api.clone(), config.clone()).boxed())
                    .backoff(WatchBackoff::new())
                    .boxed()
            } else {
                let api: Api<WithoutManagedFields<K>> = K::Scope::api(client, namespace, &dyntype);
                let config = scope.watcher_config(list_page_size);
                without_managed_fields(Relisting::new(move || watcher(api.clone(), config.clone()).boxed()))
            }
        })
    }

    /// An informer of only the metadata of `K` objects: for types a controller only maps
    /// back to their owners, at a fraction of the memory (for a realistic Pod, a tenth
    /// or less of what a full informer holds: see [`InformerOptions`] on choosing).
    pub fn metadata_informer<K>(&self, scope: Scope) -> Informer<PartialObjectMeta<K>>
    where
        K: Resource + Clone + Debug + DeserializeOwned + Send + Sync + 'static,
        K::DynamicType: Default,
        K::Scope: ScopeKind,
    {
        self.informer::<PartialObjectMeta<K>>(scope)
    }

    /// An informer of a type known only at run time.
    pub fn dynamic_informer(&self, resource: &ApiResource, scope: Scope) -> Informer<DynamicObject> {
        let name = format!("{}.{} {scope}", resource.plural, resource.api_version);
        let key = Key {
            type_id: TypeId::of::<DynamicObject>(),
            resource: format!("{}/{}/{}", resource.group, resource.version, resource.plural),
            scope,
        };
        self.get_or_create(key, |scope| {
            let api: Api<WithoutManagedFields<DynamicObject>> = match &scope.namespace {
                Some(namespace) => Api::namespaced_with(self.inner.client.clone(), namespace, resource),
                None => Api::all_with(self.inner.client.clone(), resource),
            };
            let config = scope.watcher_config(None);
            let source = without_managed_fields(Relisting::new(move || watcher(api.clone(), config.clone()).boxed()));
            Informer::new(name, source, InformerOptions::default(), self.inner.metrics.as_ref())
        })
    }

    /// The informer under `key`, or a new one from `create(&key.scope)`.
    fn get_or_create<K>(&self, key: Key, create: impl FnOnce(&Scope) -> Informer<K>) -> Informer<K>
    where
        K: Resource + Clone + Debug + Send + Sync + 'static,
    {
        let mut informers = self.inner.informers.lock();
        if let Some(existing) = informers.get(&key)
            && let Some(informer) = existing.as_any().downcast_ref::<Informer<K>>()
        {
            return informer.clone();
        }
        let informer = create(&key.scope);
        if *self.inner.started.lock() {
            informer.start();
        }
        informers.insert(key, Box::new(informer.clone()));
        informer
    }

    /// Starts every informer, and any asked for later, on the current tokio runtime.
    pub fn start(&self) {
        *self.inner.started.lock() = true;
        for informer in self.inner.informers.lock().values() {
            informer.start();
        }
    }

    /// True when every informer has stored its first full list.
    pub fn has_synced(&self) -> bool {
        self.inner.informers.lock().values().all(|i| i.has_synced())
    }

    /// Waits until every informer has synced, or `timeout`; the error names the
    /// informers that had not.
    pub async fn wait_for_sync(&self, timeout: Duration) -> Result<(), SyncError> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let pending: Vec<String> = self
                .inner
                .informers
                .lock()
                .values()
                .filter(|i| !i.has_synced())
                .map(|i| i.name().to_owned())
                .collect();
            if pending.is_empty() {
                return Ok(());
            }
            if tokio::time::Instant::now() >= deadline {
                let failures = self
                    .inner
                    .informers
                    .lock()
                    .values()
                    .filter(|i| !i.has_synced())
                    .filter_map(|i| Some(format!("{}: {}", i.name(), i.last_error()?)))
                    .collect();
                return Err(SyncError {
                    waited: timeout,
                    informers: pending,
                    failures,
                });
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}
