//! Server-side apply of the children a controller owns, and an [`Applier`] that skips
//! applies the cache shows would change nothing.

use std::fmt::Debug;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use kube::api::{Api, Patch, PatchParams};
use kube::{Resource, ResourceExt};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use wheelhouse_cache::shard::fnv1a64;
use wheelhouse_cache::{Informer, ScopeKind, Store};

use crate::controller::Builder;
use crate::reconciler::NotOwned;

/// Applies `desired` as `field_manager`, forcing ownership of the fields it sets, and
/// returns the object as stored. Fields this manager applied before and no longer
/// sets are removed by the server; fields others own are kept.
///
/// ```no_run
/// # async fn example(api: kube::Api<k8s_openapi::api::core::v1::ConfigMap>) -> Result<(), kube::Error> {
/// use k8s_openapi::api::core::v1::ConfigMap;
///
/// let mut desired = ConfigMap::default();
/// desired.metadata.name = Some("settings".into());
/// desired.data = Some([("mode".to_owned(), "fast".to_owned())].into());
/// let stored = wheelhouse_controller::apply(&api, &desired, "webapp-controller").await?;
/// # let _ = stored;
/// # Ok(())
/// # }
/// ```
pub async fn apply<K>(api: &Api<K>, desired: &K, field_manager: &str) -> Result<K, kube::Error>
where
    K: Resource + Clone + Debug + DeserializeOwned + Serialize,
    K::DynamicType: Default,
{
    let configuration = apply_configuration(desired)?;
    send(api, &desired.name_any(), &configuration, field_manager).await
}

/// `desired` as an apply configuration: with apiVersion and kind (typed objects may
/// omit them), without the fields an apply must not carry.
fn apply_configuration<K>(desired: &K) -> Result<Value, kube::Error>
where
    K: Resource + Serialize,
    K::DynamicType: Default,
{
    let dyntype = K::DynamicType::default();
    let mut value = serde_json::to_value(desired).map_err(kube::Error::SerdeError)?;
    value["apiVersion"] = Value::String(K::api_version(&dyntype).into_owned());
    value["kind"] = Value::String(K::kind(&dyntype).into_owned());
    if let Some(metadata) = value.get_mut("metadata").and_then(|m| m.as_object_mut()) {
        metadata.remove("managedFields");
        metadata.remove("resourceVersion");
    }
    Ok(value)
}

async fn send<K>(api: &Api<K>, name: &str, configuration: &Value, field_manager: &str) -> Result<K, kube::Error>
where
    K: Clone + Debug + DeserializeOwned,
{
    let params = PatchParams::apply(field_manager).force();
    api.patch(name, &params, &Patch::Apply(configuration)).await
}

/// The annotation an [`Applier`] writes with every apply: a hash (16 hex digits) of the
/// configuration it applied, so that any replica of the operator, or the operator after
/// a restart, can tell from the object itself which configuration its field manager last
/// applied there.
pub const APPLIED_ANNOTATION: &str = "wheelhouse.rs/applied";

/// Server-side apply that skips the request when it would change nothing: the
/// counterpart of controller-runtime's `CreateOrUpdate`, which compares with the cache
/// before it writes. A reconcile that runs again with nothing new to apply (a child's
/// status changed, a periodic requeue, a new leader's first pass over every object)
/// then costs the API server no write.
///
/// Every apply carries the annotation [`APPLIED_ANNOTATION`], the hash of the rest of
/// its configuration. [`apply`](Self::apply) skips the request, and returns the cached
/// object, only when the cached object
/// - carries the hash of the configuration about to be applied (so the last apply of
///   this field manager there, by this replica or any other, before a restart or after,
///   sent the same configuration: no field it used to set has been dropped, which only
///   the server can remove; an apply of another configuration, or by [`apply`], would
///   have replaced or removed the annotation), and
/// - still holds every field of `desired` with the same value (so nobody has changed or
///   removed them since: another manager's change to a field this one owns is applied
///   back). Fields the server defaults or others own do not matter; lists must match in
///   length.
///
/// Otherwise it applies, as [`apply`] does. The object's `managedFields` would say the
/// first thing too, but informers drop them by default (about half of what an object
/// costs in memory), while the annotation costs 16 digits per object.
///
/// The cache is only as new as its informer:
/// build the controller with [`owns_full::<K>()`](crate::Builder::owns_full) and make
/// the applier with [`Builder::applier`], which takes the controller's informer of `K`
/// (its scope stated once, on the builder), so a reconcile triggered by a child's
/// change finds that change here. [`Applier::new`] takes any informer, for an applier
/// outside a controller. The controller starts that informer; over an informer nobody started, the
/// applier finds nothing cached and sends every apply. A stale cache costs at most an
/// extra apply, or the skip of an apply that would have changed nothing when it was
/// cached; the child's next change triggers a reconcile that sees it.
///
/// ```no_run
/// # async fn example(cache: wheelhouse_cache::Cache) -> Result<(), kube::Error> {
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use wheelhouse_cache::Scope;
/// use wheelhouse_controller::Applier;
///
/// let configmaps = Applier::new(&cache.informer::<ConfigMap>(Scope::namespace("shop")), "shop-controller");
/// cache.start(); // a controller owning ConfigMaps with `owns_full` would start it
/// let mut desired = ConfigMap::default();
/// desired.metadata.name = Some("settings".into());
/// desired.data = Some([("mode".to_owned(), "fast".to_owned())].into());
/// let api = kube::Api::namespaced(cache.client(), "shop");
/// let stored = configmaps.apply(&api, &desired).await?; // a request
/// let again = configmaps.apply(&api, &desired).await?; // none, once the cache has it
/// # let _ = (stored, again);
/// # Ok(())
/// # }
/// ```
pub struct Applier<K: Resource> {
    store: Store<K>,
    field_manager: String,
    sent: AtomicU64,
    skipped: AtomicU64,
}

impl<K> Builder<K>
where
    K: Resource,
{
    /// An [`Applier`] of the children `D`, writing as `field_manager` and comparing with
    /// the informer this controller watches them through: the one
    /// [`owns_full::<D>()`](Builder::owns_full) made, in the controller's scope, so the
    /// scope is stated once and no second informer starts.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// # let env = wheelhouse_envtest::TestEnv::start().await.expect("the embedded server starts");
    /// use k8s_openapi::api::apps::v1::Deployment;
    /// use k8s_openapi::api::core::v1::{ConfigMap, Service};
    /// use wheelhouse_cache::Cache;
    /// use wheelhouse_controller::Controller;
    ///
    /// let cache = Cache::new(env.client());
    /// let builder = Controller::for_::<ConfigMap>(&cache).namespace("shop").owns_full::<Deployment>();
    /// let deployments = builder.applier::<Deployment>("shop-controller").expect("owned whole");
    /// let error = builder.applier::<Service>("shop-controller").unwrap_err();
    /// assert!(error.to_string().contains(".owns_full::<Service>()"));
    /// # let _ = deployments;
    /// # }
    /// ```
    pub fn applier<D>(&self, field_manager: impl Into<String>) -> Result<Applier<D>, NotOwned>
    where
        D: Resource + Clone + Debug + DeserializeOwned + Serialize + Send + Sync + 'static,
        D::DynamicType: Default,
        D::Scope: ScopeKind,
    {
        if !self.owns_full_of::<D>() {
            return Err(NotOwned {
                kind: D::kind(&D::DynamicType::default()).into_owned(),
            });
        }
        Ok(Applier::new(
            &self
                .cache()
                .informer::<D>(crate::controller::children_scope(self.cache(), self.scope())),
            field_manager,
        ))
    }
}

impl<K> Applier<K>
where
    K: Resource + Clone + Debug + DeserializeOwned + Serialize + Send + Sync + 'static,
    K::DynamicType: Default,
{
    /// An applier writing as `field_manager`, comparing with `informer`'s store.
    pub fn new(informer: &Informer<K>, field_manager: impl Into<String>) -> Self {
        Self {
            store: informer.store().clone(),
            field_manager: field_manager.into(),
            sent: AtomicU64::new(0),
            skipped: AtomicU64::new(0),
        }
    }

    /// Applies `desired` through `api` unless the cache shows it in place (see the
    /// type's docs), and returns the object as stored or cached.
    ///
    /// # Errors
    /// The server's, when an apply is sent and fails.
    pub async fn apply(&self, api: &Api<K>, desired: &K) -> Result<Arc<K>, kube::Error> {
        let configuration = stamped(apply_configuration(desired)?, &self.field_manager);
        let name = desired.name_any();
        let namespace = desired.namespace().or_else(|| api.namespace().map(str::to_owned));
        if let Some(cached) = self.store.get(namespace.as_deref(), &name)
            && contains(
                &serde_json::to_value(cached.as_ref()).map_err(kube::Error::SerdeError)?,
                &configuration,
            )
        {
            self.skipped.fetch_add(1, Ordering::Relaxed);
            return Ok(cached);
        }
        let stored = send(api, &name, &configuration, &self.field_manager).await?;
        self.sent.fetch_add(1, Ordering::Relaxed);
        Ok(Arc::new(stored))
    }

    /// How many applies were sent to the server.
    pub fn sent(&self) -> u64 {
        self.sent.load(Ordering::Relaxed)
    }

    /// How many applies were skipped because the cache showed them in place.
    pub fn skipped(&self) -> u64 {
        self.skipped.load(Ordering::Relaxed)
    }
}

impl<K: Resource> Debug for Applier<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Applier")
            .field("field_manager", &self.field_manager)
            .field("sent", &self.sent)
            .field("skipped", &self.skipped)
            .finish_non_exhaustive()
    }
}

/// `configuration` with [`APPLIED_ANNOTATION`] set to its hash and `field_manager`'s
/// (another manager's apply of the same configuration is not this one's): FNV-1a of
/// the manager's name and the JSON, which encodes alike every time for the same object
/// (maps are ordered by key, or by insertion where `serde_json`'s `preserve_order` is
/// on) and in every process and build, so replicas and restarts agree.
fn stamped(mut configuration: Value, field_manager: &str) -> Value {
    let hash = fnv1a64(format!("{field_manager}\n{configuration}").as_bytes());
    configuration["metadata"]["annotations"][APPLIED_ANNOTATION] = Value::String(format!("{hash:016x}"));
    configuration
}

/// Whether `actual` holds every field of `desired` with the same value: maps may have
/// more keys, lists must have the same length and hold the desired items in order. A
/// null in `desired` asks for the field to be absent.
fn contains(actual: &Value, desired: &Value) -> bool {
    match (actual, desired) {
        (Value::Object(actual), Value::Object(desired)) => desired.iter().all(|(key, want)| match actual.get(key) {
            Some(have) => contains(have, want),
            None => want.is_null(),
        }),
        (Value::Array(actual), Value::Array(desired)) => {
            actual.len() == desired.len() && actual.iter().zip(desired).all(|(have, want)| contains(have, want))
        }
        (actual, desired) => actual == desired,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::contains;

    #[test]
    fn contains_ignores_extra_fields_but_not_changed_or_missing_ones() {
        let actual = json!({
            "metadata": {"name": "web", "labels": {"app": "web", "team": "a"}, "uid": "1"},
            "spec": {"ports": [{"port": 80, "protocol": "TCP"}], "type": "ClusterIP"},
        });
        assert!(contains(&actual, &json!({"metadata": {"labels": {"app": "web"}}})));
        assert!(contains(&actual, &json!({"spec": {"ports": [{"port": 80}]}})));
        assert!(!contains(&actual, &json!({"spec": {"ports": [{"port": 81}]}})));
        assert!(!contains(
            &actual,
            &json!({"spec": {"ports": [{"port": 80}, {"port": 81}]}})
        ));
        assert!(!contains(&actual, &json!({"spec": {"ports": []}})));
        assert!(!contains(&actual, &json!({"metadata": {"annotations": {"a": "b"}}})));
        assert!(contains(&actual, &json!({"metadata": {"annotations": null}})));
        assert!(!contains(&actual, &json!({"metadata": {"uid": null}})));
        assert!(!contains(&actual, &json!({"spec": {"type": 1}})));
    }
}
