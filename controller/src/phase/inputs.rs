//! What a worker reads: the [`Inputs`] trait, the typed list [`Objects`] read from the
//! shared cache (in the resource's namespace, narrowed by a [`Selector`] taken from
//! the resource), and [`Watches`], through which every input says which changes
//! concern which resources, so a change re-runs exactly the resources whose inputs it
//! touched.
//!
//! The mapping from a changed object back to the resources that select it is served by
//! two cache indexes, both kept exact by the informers under their store locks:
//! - on each input type's store, [`LABELS_INDEX`]: every object under
//!   `<namespace>/<key>=<value>` for each of its labels (for reads);
//! - on the resources' store, one index per (input type, selector): each resource under
//!   `<namespace>/<key>=<value>` for one equality its selector requires (an object can
//!   only match if it has that label), or `<namespace>/*` when the selector requires
//!   none. A changed object looks up `<namespace>/*` and one value per label, and
//!   checks the full selector of the few resources found.

use std::any::{Any, TypeId, type_name};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::{self, Debug};
use std::future::Future;
use std::marker::PhantomData;
use std::ops::Deref;
use std::sync::Arc;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use kube::core::ClusterResourceScope;
use kube::{Resource, ResourceExt};
use wheelhouse_cache::{Cache, ListOptions, Scope, Store};

use crate::controller::Builder;
use crate::key::ObjectKey;
use crate::phase::object::{LABELS_INDEX, OWNER_UID_LABEL, Object, Phased, Registration};
use crate::reconciler::Error;

/// What a worker reads before it runs: [`Objects`] from the cache, something outside
/// Kubernetes (a Prometheus query), or a tuple of inputs (`(A, B)` reads both).
///
/// An input says in [`watch`](Self::watch) which changes concern which resources;
/// those resources are synced again when such a change happens. An input outside
/// Kubernetes watches nothing and is read afresh on every sync, so the worker polls it
/// with its requeue delay.
pub trait Inputs<K: Phased>: Sized + Send + 'static {
    /// Declares what to watch; called once, when the controller is built.
    fn watch(watches: &mut Watches<K>);

    /// Reads the input for `resource`. An error is retried with backoff, as a worker's;
    /// a terminal one (an invalid selector in the spec) is recorded in the status.
    fn read(resource: &K, source: &InputSource) -> impl Future<Output = Result<Self, Error>> + Send;
}

impl<K: Phased> Inputs<K> for () {
    fn watch(_: &mut Watches<K>) {}

    async fn read(_: &K, _: &InputSource) -> Result<Self, Error> {
        Ok(())
    }
}

macro_rules! tuple_inputs {
    ($($name:ident),+) => {
        impl<K: Phased, $($name: Inputs<K>),+> Inputs<K> for ($($name,)+) {
            fn watch(watches: &mut Watches<K>) {
                $($name::watch(watches);)+
            }

            async fn read(resource: &K, source: &InputSource) -> Result<Self, Error> {
                Ok(($($name::read(resource, source).await?,)+))
            }
        }
    };
}

tuple_inputs!(A);
tuple_inputs!(A, B);
tuple_inputs!(A, B, C);
tuple_inputs!(A, B, C, D);

/// Where inputs are read from: the controller's cache and scope, and the values given
/// to [`PhaseScheduler::provide`](crate::phase::PhaseScheduler::provide) (a default
/// Prometheus address from a flag, an HTTP client).
pub struct InputSource {
    cache: Cache,
    scope: Scope,
    stores: HashMap<TypeId, Box<dyn Any + Send + Sync>>,
    provided: Arc<Provided>,
}

/// Values provided to inputs, by type.
#[derive(Default)]
pub(crate) struct Provided(HashMap<TypeId, Box<dyn Any + Send + Sync>>);

impl Provided {
    pub(crate) fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        self.0.insert(TypeId::of::<T>(), Box::new(value));
    }
}

impl Debug for InputSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InputSource")
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}

impl InputSource {
    /// The controller's cache.
    pub fn cache(&self) -> &Cache {
        &self.cache
    }

    /// The store of `T` objects in the controller's scope: the one the scheduler
    /// watches when an input declared `T` in [`Inputs::watch`] (a type nobody
    /// watches has an informer started on first use, empty until it syncs).
    pub fn store<T: Object>(&self) -> Store<T> {
        match self
            .stores
            .get(&TypeId::of::<T>())
            .and_then(|s| s.downcast_ref::<Store<T>>())
        {
            Some(store) => store.clone(),
            None => self.cache.informer::<T>(self.scope.clone()).store().clone(),
        }
    }

    /// The value of type `T` given to `PhaseScheduler::provide`, if any.
    pub fn get<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.provided.0.get(&TypeId::of::<T>()).and_then(|v| v.downcast_ref())
    }
}

/// Which objects of an input type a resource reads: a label selector taken from the
/// resource (None: every object in the resource's namespace).
///
/// ```
/// use std::borrow::Cow;
/// use k8s_openapi::api::apps::v1::Deployment;
/// use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
/// use wheelhouse_controller::phase::Selector;
///
/// /// The Deployments a Deployment's own selector picks (as a stand-in for a CRD).
/// struct SameSelector;
///
/// impl Selector<Deployment> for SameSelector {
///     fn selector(resource: &Deployment) -> Option<Cow<'_, LabelSelector>> {
///         Some(Cow::Borrowed(&resource.spec.selector))
///     }
/// }
/// ```
pub trait Selector<K>: Send + Sync + 'static {
    /// The selector of `resource`'s inputs; None selects them all.
    fn selector(resource: &K) -> Option<Cow<'_, LabelSelector>>;
}

/// Selects every object of the type in the resource's namespace.
#[derive(Debug)]
pub struct All;

impl<K> Selector<K> for All {
    fn selector(_: &K) -> Option<Cow<'_, LabelSelector>> {
        None
    }
}

/// Selects the objects this controller applied for the resource (its outputs, by their
/// [`OWNER_UID_LABEL`]), so a worker can read what an earlier phase produced, status
/// included.
#[derive(Debug)]
pub struct Owned;

impl<K: Resource> Selector<K> for Owned {
    fn selector(resource: &K) -> Option<Cow<'_, LabelSelector>> {
        let uid = resource.meta().uid.clone().unwrap_or_default();
        Some(Cow::Owned(LabelSelector {
            match_labels: Some(BTreeMap::from([(OWNER_UID_LABEL.to_owned(), uid)])),
            match_expressions: None,
        }))
    }
}

/// The objects of type `T` a resource selects with `S`, read from the cache, sorted by
/// name. As an input, a change to any of them (or to an object that starts or stops
/// matching) syncs the resource again.
///
/// ```
/// use k8s_openapi::api::apps::v1::Deployment;
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use wheelhouse_controller::phase::{Objects, Owned};
///
/// type Inputs = (Objects<ConfigMap>, Objects<Deployment, Owned>);
/// ```
pub struct Objects<T, S = All> {
    objects: Vec<Arc<T>>,
    selector: PhantomData<fn() -> S>,
}

impl<T: Debug, S> Debug for Objects<T, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.objects).finish()
    }
}

impl<T, S> Objects<T, S> {
    /// Objects as if read (for testing workers).
    pub fn new(objects: Vec<Arc<T>>) -> Self {
        Self {
            objects,
            selector: PhantomData,
        }
    }

    /// The objects.
    pub fn into_vec(self) -> Vec<Arc<T>> {
        self.objects
    }
}

impl<T: Resource, S> Objects<T, S> {
    /// The object named `name`, if selected.
    pub fn named(&self, name: &str) -> Option<&Arc<T>> {
        self.objects.iter().find(|o| o.meta().name.as_deref() == Some(name))
    }
}

impl<T, S> Deref for Objects<T, S> {
    type Target = [Arc<T>];

    fn deref(&self) -> &[Arc<T>] {
        &self.objects
    }
}

impl<'a, T, S> IntoIterator for &'a Objects<T, S> {
    type Item = &'a Arc<T>;
    type IntoIter = std::slice::Iter<'a, Arc<T>>;

    fn into_iter(self) -> Self::IntoIter {
        self.objects.iter()
    }
}

impl<K: Phased, T: Object, S: Selector<K>> Inputs<K> for Objects<T, S> {
    fn watch(watches: &mut Watches<K>) {
        watches.selected::<T, S>();
    }

    async fn read(resource: &K, source: &InputSource) -> Result<Self, Error> {
        let namespace = input_namespace::<T>(resource);
        let selector = S::selector(resource);
        let objects = select(&source.store::<T>(), namespace, selector.as_deref()).map_err(|reason| {
            Error::terminal(format!(
                "the selector of {} {} is invalid: {reason}",
                K::kind(&()),
                resource.name_any()
            ))
        })?;
        Ok(Self::new(objects))
    }
}

/// Whether `T` objects live in namespaces.
fn namespaced<T: Object>() -> bool {
    TypeId::of::<T::Scope>() != TypeId::of::<ClusterResourceScope>()
}

/// The namespace `resource` reads `T` objects from: its own, or "" for cluster-scoped
/// types.
fn input_namespace<T: Object>(resource: &impl Resource) -> &str {
    if namespaced::<T>() {
        resource.meta().namespace.as_deref().unwrap_or_default()
    } else {
        ""
    }
}

/// `selector` as the selector crate parses it, to match labels.
fn matcher(selector: &LabelSelector) -> Result<wheelhouse_selector::LabelSelector, String> {
    let value = serde_json::to_value(selector).map_err(|e| e.to_string())?;
    wheelhouse_selector::LabelSelector::from_structured(Some(&value)).map_err(|e| e.to_string())
}

/// Whether `selector` (None: everything) selects an object with `labels`; an invalid
/// selector selects nothing.
fn selects(selector: Option<&LabelSelector>, labels: Option<&BTreeMap<String, String>>) -> bool {
    selector.is_none_or(|s| matcher(s).is_ok_and(|m| m.matches_labels(labels)))
}

/// The `key=value` labels one of which an object must carry to match `selector`: one
/// `matchLabels` pair, or the values of an `In` expression; None when the selector
/// requires no equality (then every object of the namespace is a candidate).
fn required_labels(selector: &LabelSelector) -> Option<Vec<String>> {
    if let Some((key, value)) = selector.match_labels.iter().flatten().next() {
        return Some(vec![format!("{key}={value}")]);
    }
    selector
        .match_expressions
        .iter()
        .flatten()
        .find(|e| e.operator == "In" && e.values.as_ref().is_some_and(|v| !v.is_empty()))
        .map(|e| {
            e.values
                .iter()
                .flatten()
                .map(|value| format!("{}={value}", e.key))
                .collect()
        })
}

/// The values a resource is indexed under in a "selects" index.
fn selects_values(namespace: &str, selector: Option<&LabelSelector>) -> Vec<String> {
    match selector.and_then(required_labels) {
        Some(labels) => labels.into_iter().map(|l| format!("{namespace}/{l}")).collect(),
        None => vec![format!("{namespace}/*")],
    }
}

/// The values an object is indexed under in [`LABELS_INDEX`].
fn label_values(object: &impl Resource) -> Vec<String> {
    let namespace = object.meta().namespace.as_deref().unwrap_or_default();
    object
        .meta()
        .labels
        .iter()
        .flatten()
        .map(|(key, value)| format!("{namespace}/{key}={value}"))
        .collect()
}

/// The objects of `store` in `namespace` ("" for cluster-scoped types) that
/// `selector` selects, sorted by name.
fn select<T: Object>(
    store: &Store<T>,
    namespace: &str,
    selector: Option<&LabelSelector>,
) -> Result<Vec<Arc<T>>, String> {
    let in_namespace = ListOptions {
        namespace: namespaced::<T>().then(|| namespace.to_owned()),
        ..ListOptions::default()
    };
    let mut objects = match selector {
        None => store.list(&in_namespace).map_err(|e| e.to_string())?,
        Some(selector) => {
            let matcher = matcher(selector)?;
            let candidates = match required_labels(selector) {
                Some(labels) => labels
                    .iter()
                    .map(|label| {
                        store.list(&ListOptions {
                            index: Some((LABELS_INDEX.to_owned(), format!("{namespace}/{label}"))),
                            ..ListOptions::default()
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| e.to_string())?
                    .concat(),
                None => store.list(&in_namespace).map_err(|e| e.to_string())?,
            };
            candidates
                .into_iter()
                .filter(|o| matcher.matches_labels(o.meta().labels.as_ref()))
                .collect()
        }
    };
    objects.sort_by(|a, b| a.meta().name.cmp(&b.meta().name));
    Ok(objects)
}

/// What the inputs of a controller's workers watch; [`Inputs::watch`] adds to it.
pub struct Watches<K: Phased> {
    cache: Cache,
    scope: Scope,
    resources: Store<K>,
    seen: HashSet<TypeId>,
    stores: HashMap<TypeId, Box<dyn Any + Send + Sync>>,
    registrations: Vec<Registration<K>>,
}

impl<K: Phased> Debug for Watches<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Watches")
            .field("scope", &self.scope)
            .field("watches", &self.registrations.len())
            .finish_non_exhaustive()
    }
}

impl<K: Phased> Watches<K> {
    pub(crate) fn new(cache: &Cache, scope: &Scope) -> Self {
        Self {
            cache: cache.clone(),
            scope: scope.clone(),
            resources: cache
                .informer::<K>(crate::controller::primary_scope(cache, scope))
                .store()
                .clone(),
            seen: HashSet::new(),
            stores: HashMap::new(),
            registrations: Vec::new(),
        }
    }

    /// Watches `T` objects for the resources that select them with `S` (what
    /// [`Objects<T, S>`] does): a change syncs each resource in the object's namespace
    /// whose selector matches the object's labels, before or after the change.
    pub fn selected<T: Object, S: Selector<K>>(&mut self) {
        if !self.seen.insert(TypeId::of::<(T, S)>()) {
            return;
        }
        let store = self.store::<T>();
        if self.seen.insert(TypeId::of::<Store<T>>()) {
            store.add_index(LABELS_INDEX, |object: &T| label_values(object));
        }
        let index = format!("wheelhouse.rs/selects {} {}", type_name::<T>(), type_name::<S>());
        self.resources.add_index(index.clone(), |resource: &K| {
            selects_values(input_namespace::<T>(resource), S::selector(resource).as_deref())
        });
        let resources = self.resources.clone();
        self.registrations.push(Box::new(move |builder| {
            builder.watches::<T>(move |object: &T| affected::<K, T, S>(&resources, &index, object))
        }));
    }

    /// Watches `T` objects for the resources `affects` says they concern, among those in
    /// the object's namespace (every resource, for a cluster-scoped `T`): for inputs
    /// that do not select by labels, such as a `ConfigMap` a resource names in its spec.
    pub fn related<T: Object, F>(&mut self, affects: F)
    where
        F: Fn(&K, &T) -> bool + Send + Sync + 'static,
    {
        if !self.seen.insert(TypeId::of::<F>()) {
            return;
        }
        self.store::<T>();
        let resources = self.resources.clone();
        self.registrations.push(Box::new(move |builder| {
            builder.watches::<T>(move |object: &T| {
                let namespace = ListOptions {
                    namespace: namespaced::<T>().then(|| object.namespace().unwrap_or_default()),
                    ..ListOptions::default()
                };
                resources
                    .list(&namespace)
                    .unwrap_or_default()
                    .iter()
                    .filter(|resource| affects(resource, object))
                    .map(|resource| ObjectKey::of(resource.as_ref()))
                    .collect()
            })
        }));
    }

    /// The store of `T` in the controller's scope, remembered for reads.
    fn store<T: Object>(&mut self) -> Store<T> {
        let store = self.cache.informer::<T>(self.scope.clone()).store().clone();
        self.stores.insert(TypeId::of::<T>(), Box::new(store.clone()));
        store
    }

    /// Adds the watches to `builder`, and returns where workers read inputs from.
    pub(crate) fn finish(self, mut builder: Builder<K>, provided: Arc<Provided>) -> (Builder<K>, InputSource) {
        for register in self.registrations {
            builder = register(builder);
        }
        let source = InputSource {
            cache: self.cache,
            scope: self.scope,
            stores: self.stores,
            provided,
        };
        (builder, source)
    }
}

/// The resources of `index` whose selector `S` selects `object`.
fn affected<K: Phased, T: Object, S: Selector<K>>(resources: &Store<K>, index: &str, object: &T) -> Vec<ObjectKey> {
    let namespace = object.meta().namespace.as_deref().unwrap_or_default();
    let labels = object.meta().labels.as_ref();
    let values = std::iter::once(format!("{namespace}/*")).chain(
        labels
            .into_iter()
            .flatten()
            .map(|(key, value)| format!("{namespace}/{key}={value}")),
    );
    let mut keys = Vec::new();
    for value in values {
        let options = ListOptions {
            index: Some((index.to_owned(), value)),
            ..ListOptions::default()
        };
        for resource in resources.list(&options).unwrap_or_default() {
            if selects(S::selector(&resource).as_deref(), labels) {
                keys.push(ObjectKey::of(resource.as_ref()));
            }
        }
    }
    keys.sort_unstable();
    keys.dedup();
    keys
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, LabelSelectorRequirement};

    use super::{required_labels, selects, selects_values};

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn a_selector_is_indexed_under_one_label_it_requires() {
        let by_labels = LabelSelector {
            match_labels: Some(labels(&[("app", "web"), ("tier", "front")])),
            match_expressions: None,
        };
        assert_eq!(selects_values("shop", Some(&by_labels)), ["shop/app=web"]);
        let by_in = LabelSelector {
            match_labels: None,
            match_expressions: Some(vec![
                LabelSelectorRequirement {
                    key: "env".into(),
                    operator: "Exists".into(),
                    values: None,
                },
                LabelSelectorRequirement {
                    key: "tier".into(),
                    operator: "In".into(),
                    values: Some(vec!["a".into(), "b".into()]),
                },
            ]),
        };
        assert_eq!(selects_values("shop", Some(&by_in)), ["shop/tier=a", "shop/tier=b"]);
        let only_exists = LabelSelector {
            match_labels: None,
            match_expressions: Some(vec![LabelSelectorRequirement {
                key: "env".into(),
                operator: "Exists".into(),
                values: None,
            }]),
        };
        assert_eq!(required_labels(&only_exists), None);
        assert_eq!(selects_values("shop", Some(&only_exists)), ["shop/*"]);
        assert_eq!(selects_values("shop", None), ["shop/*"]);
    }

    #[test]
    fn selection_follows_the_whole_selector() {
        let selector = LabelSelector {
            match_labels: Some(labels(&[("app", "web")])),
            match_expressions: Some(vec![LabelSelectorRequirement {
                key: "legacy".into(),
                operator: "DoesNotExist".into(),
                values: None,
            }]),
        };
        assert!(selects(Some(&selector), Some(&labels(&[("app", "web")]))));
        assert!(!selects(
            Some(&selector),
            Some(&labels(&[("app", "web"), ("legacy", "1")]))
        ));
        assert!(!selects(Some(&selector), None));
        assert!(selects(None, None), "no selector: everything");
        let invalid = LabelSelector {
            match_labels: None,
            match_expressions: Some(vec![LabelSelectorRequirement {
                key: "app".into(),
                operator: "Near".into(),
                values: None,
            }]),
        };
        assert!(!selects(Some(&invalid), Some(&labels(&[("app", "web")]))));
    }
}
