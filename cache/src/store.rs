//! [`Store`]: the objects an informer has seen, shared by `Arc` and indexed.
//!
//! The table holds only the `Arc<K>`s: an object's namespace and name are read from
//! the object itself when hashing and comparing, so the store adds no copy of them and
//! costs one pointer per object per index. Invariants, kept under one lock so that a
//! reader never sees an index that disagrees with the table:
//! - `objects` holds at most one object per (namespace, name);
//! - for every index, the entries under a value are exactly the stored objects whose
//!   index function returns that value (`check_indexes` recomputes them in tests).

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::Arc;

use hashbrown::HashTable;
use kube::Resource;
use parking_lot::RwLock;

/// A function from an object to the values it is indexed under.
pub type IndexFn<K> = Arc<dyn Fn(&K) -> Vec<String> + Send + Sync>;

/// The name of the built-in index by namespace.
pub const BY_NAMESPACE: &str = "namespace";

/// What [`Store::list`] returns; every field narrows the result.
///
/// ```
/// use wheelhouse_cache::ListOptions;
///
/// let web_pods_on_node_a = ListOptions {
///     namespace: Some("default".into()),
///     label_selector: Some("app=web".into()),
///     index: Some(("node".into(), "node-a".into())),
/// };
/// # let _ = web_pods_on_node_a;
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListOptions {
    /// Only objects of this namespace (served by the namespace index).
    pub namespace: Option<String>,
    /// A label selector in the query syntax (`app=web,tier in (a,b)`).
    pub label_selector: Option<String>,
    /// Only objects under this (index name, value).
    pub index: Option<(String, String)>,
}

/// A list option the store cannot serve.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The label selector does not parse.
    #[error("invalid label selector {selector:?}: {reason}")]
    InvalidSelector {
        /// The selector as given.
        selector: String,
        /// Why it does not parse.
        reason: String,
    },
    /// No index of that name was added.
    #[error("no index named {0:?}; add it with Store::add_index first")]
    UnknownIndex(String),
}

type Table<K> = HashTable<Arc<K>>;

struct Index<K> {
    function: IndexFn<K>,
    /// Value → the objects indexed under it.
    entries: HashMap<String, Table<K>>,
}

impl<K> Index<K> {
    /// Takes the object that `same` finds out of the entries under `value`, and the
    /// value itself once nothing is left under it.
    fn unindex(&mut self, value: &str, hash: u64, same: impl Fn(&Arc<K>) -> bool) {
        if let Some(table) = self.entries.get_mut(value) {
            if let Ok(entry) = table.find_entry(hash, same) {
                entry.remove();
            }
            if table.is_empty() {
                self.entries.remove(value);
            }
        }
    }
}

struct Inner<K> {
    objects: Table<K>,
    indexes: HashMap<String, Index<K>>,
}

/// The objects of one informer, read without copying: every read hands out `Arc<K>`.
/// Cheap to clone (a handle). A `Store` only reads: the informer that fills it holds
/// its [`Writer`], so no reader can change what every controller sees.
///
/// ```compile_fail
/// # use k8s_openapi::api::core::v1::ConfigMap;
/// fn edit(store: &wheelhouse_cache::Store<ConfigMap>) {
///     store.insert(ConfigMap::default()); // a reader has no way to write
/// }
/// ```
///
/// ```
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use wheelhouse_cache::{ListOptions, Writer};
///
/// let writer: Writer<ConfigMap> = Writer::default();
/// let store = writer.reader().clone();
/// store.add_index("has-data", |cm: &ConfigMap| vec![cm.data.is_some().to_string()]);
/// let mut config = ConfigMap::default();
/// config.metadata.namespace = Some("default".into());
/// config.metadata.name = Some("settings".into());
/// writer.insert(config);
/// assert!(store.get(Some("default"), "settings").is_some());
/// let without_data = store.list(&ListOptions { index: Some(("has-data".into(), "false".into())), ..Default::default() });
/// assert_eq!(without_data.unwrap().len(), 1);
/// ```
pub struct Store<K> {
    inner: Arc<RwLock<Inner<K>>>,
    hasher: foldhash::fast::FixedState,
}

impl<K> Clone for Store<K> {
    fn clone(&self) -> Self {
        Self {
            inner: self.inner.clone(),
            hasher: self.hasher.clone(),
        }
    }
}

/// The writing half of a [`Store`]: what an informer (or a test's fixture) holds to
/// fill the store its readers see.
pub struct Writer<K> {
    store: Store<K>,
}

impl<K: Resource> Default for Writer<K> {
    fn default() -> Self {
        Self { store: Store::empty() }
    }
}

/// A writer reads what it wrote.
impl<K> std::ops::Deref for Writer<K> {
    type Target = Store<K>;

    fn deref(&self) -> &Store<K> {
        &self.store
    }
}

impl<K> std::fmt::Debug for Writer<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer").field("store", &self.store).finish()
    }
}

impl<K: Resource> Writer<K> {
    /// The store this writer fills, for readers.
    pub fn reader(&self) -> &Store<K> {
        &self.store
    }

    /// Stores `object`, replacing the stored one of the same namespace and name;
    /// returns the replaced one.
    pub fn insert(&self, object: K) -> Option<Arc<K>> {
        self.insert_arc(Arc::new(object))
    }

    /// Stores a shared object; see [`insert`](Self::insert).
    pub fn insert_arc(&self, object: Arc<K>) -> Option<Arc<K>> {
        // Never `Err`: nothing counts as unchanged.
        self.store.insert_unless(object, |_, _| false).ok().flatten()
    }

    /// Stores `object` unless `unchanged(stored, &object)`; see [`Store::insert_unless`].
    pub(crate) fn insert_unless(
        &self,
        object: Arc<K>,
        unchanged: impl Fn(&K, &K) -> bool,
    ) -> Result<Option<Arc<K>>, Arc<K>> {
        self.store.insert_unless(object, unchanged)
    }

    /// Removes the object `name` in `namespace`; returns it.
    pub fn remove(&self, namespace: Option<&str>, name: &str) -> Option<Arc<K>> {
        self.store.remove(namespace, name)
    }
}

impl<K: Resource> Store<K> {
    fn empty() -> Self {
        let mut indexes = HashMap::new();
        let by_namespace: IndexFn<K> = Arc::new(|object: &K| vec![object.meta().namespace.clone().unwrap_or_default()]);
        indexes.insert(
            BY_NAMESPACE.to_owned(),
            Index {
                function: by_namespace,
                entries: HashMap::new(),
            },
        );
        Self {
            inner: Arc::new(RwLock::new(Inner {
                objects: HashTable::new(),
                indexes,
            })),
            hasher: foldhash::fast::FixedState::default(),
        }
    }
}

fn namespace_of<K: Resource>(object: &K) -> &str {
    object.meta().namespace.as_deref().unwrap_or_default()
}

fn name_of<K: Resource>(object: &K) -> &str {
    object.meta().name.as_deref().unwrap_or_default()
}

impl<K: Resource> Store<K> {
    fn hash(&self, namespace: &str, name: &str) -> u64 {
        self.hasher.hash_one((namespace, name))
    }

    fn hash_of(&self, object: &K) -> u64 {
        self.hash(namespace_of(object), name_of(object))
    }

    /// The object `name` in `namespace` (None for cluster-scoped objects).
    pub fn get(&self, namespace: Option<&str>, name: &str) -> Option<Arc<K>> {
        let namespace = namespace.unwrap_or_default();
        let hash = self.hash(namespace, name);
        let inner = self.inner.read();
        inner
            .objects
            .find(hash, |o| {
                name_of(o.as_ref()) == name && namespace_of(o.as_ref()) == namespace
            })
            .cloned()
    }

    /// How many objects are stored.
    pub fn len(&self) -> usize {
        self.inner.read().objects.len()
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every stored object.
    pub fn all(&self) -> Vec<Arc<K>> {
        self.inner.read().objects.iter().cloned().collect()
    }

    /// The stored objects that match `options`.
    pub fn list(&self, options: &ListOptions) -> Result<Vec<Arc<K>>, StoreError> {
        let selector =
            match &options.label_selector {
                Some(text) => Some(wheelhouse_selector::LabelSelector::parse(text).map_err(|error| {
                    StoreError::InvalidSelector {
                        selector: text.clone(),
                        reason: error.to_string(),
                    }
                })?),
                None => None,
            };
        let inner = self.inner.read();
        let keep = |object: &Arc<K>| {
            options
                .namespace
                .as_deref()
                .is_none_or(|ns| namespace_of(object.as_ref()) == ns)
                && selector
                    .as_ref()
                    .is_none_or(|s| s.matches_labels(object.meta().labels.as_ref()))
        };
        let candidates: Box<dyn Iterator<Item = &Arc<K>>> = match (&options.index, &options.namespace) {
            (Some((index, value)), _) => {
                let index = inner
                    .indexes
                    .get(index)
                    .ok_or_else(|| StoreError::UnknownIndex(index.clone()))?;
                Box::new(index.entries.get(value).into_iter().flat_map(|t| t.iter()))
            }
            (None, Some(namespace)) => {
                let index = &inner.indexes[BY_NAMESPACE];
                Box::new(index.entries.get(namespace).into_iter().flat_map(|t| t.iter()))
            }
            (None, None) => Box::new(inner.objects.iter()),
        };
        Ok(candidates.filter(|o| keep(o)).cloned().collect())
    }

    /// The values of index `index`, each with how many objects it holds.
    pub fn index_values(&self, index: &str) -> Result<Vec<(String, usize)>, StoreError> {
        let inner = self.inner.read();
        let index = inner
            .indexes
            .get(index)
            .ok_or_else(|| StoreError::UnknownIndex(index.to_owned()))?;
        Ok(index
            .entries
            .iter()
            .map(|(value, table)| (value.clone(), table.len()))
            .collect())
    }

    /// Adds an index (replacing one of the same name) and fills it from what is stored.
    /// A value the function returns more than once for an object counts once.
    pub fn add_index(&self, name: impl Into<String>, function: impl Fn(&K) -> Vec<String> + Send + Sync + 'static) {
        // Each table holds an object at most once (`insert_unique`), so values are unique.
        let function: IndexFn<K> = Arc::new(move |object: &K| {
            let mut values = function(object);
            values.sort_unstable();
            values.dedup();
            values
        });
        let mut inner = self.inner.write();
        let mut index = Index {
            function,
            entries: HashMap::new(),
        };
        for object in &inner.objects {
            let hash = self.hash_of(object);
            for value in (index.function)(object) {
                index
                    .entries
                    .entry(value)
                    .or_default()
                    .insert_unique(hash, object.clone(), |o| self.hash_of(o));
            }
        }
        inner.indexes.insert(name.into(), index);
    }

    /// Stores `object` unless `unchanged(stored, &object)` holds for the stored object
    /// of the same namespace and name (then returns `object` back); otherwise returns the
    /// replaced one. One lookup under one lock: what an informer does for every object.
    fn insert_unless(&self, object: Arc<K>, unchanged: impl Fn(&K, &K) -> bool) -> Result<Option<Arc<K>>, Arc<K>> {
        let hash = self.hash_of(&object);
        let mut guard = self.inner.write();
        let inner = &mut *guard;
        let (namespace, name) = (namespace_of(object.as_ref()), name_of(object.as_ref()));
        let same = |o: &Arc<K>| name_of(o.as_ref()) == name && namespace_of(o.as_ref()) == namespace;
        let old = match inner.objects.find_mut(hash, same) {
            Some(slot) if unchanged(slot, &object) => return Err(object),
            Some(slot) => Some(std::mem::replace(slot, object.clone())),
            None => {
                inner.objects.insert_unique(hash, object.clone(), |o| self.hash_of(o));
                None
            }
        };
        for index in inner.indexes.values_mut() {
            let before = old.as_deref().map(|o| (index.function)(o)).unwrap_or_default();
            let after = (index.function)(&object);
            if before == after {
                // The usual update: same values, so only the object in each table changes.
                for value in &after {
                    if let Some(slot) = index
                        .entries
                        .get_mut(value)
                        .and_then(|table| table.find_mut(hash, same))
                    {
                        *slot = object.clone();
                    }
                }
                continue;
            }
            for value in &before {
                index.unindex(value, hash, same);
            }
            for value in after {
                index
                    .entries
                    .entry(value)
                    .or_default()
                    .insert_unique(hash, object.clone(), |o| self.hash_of(o));
            }
        }
        Ok(old)
    }

    fn remove(&self, namespace: Option<&str>, name: &str) -> Option<Arc<K>> {
        let namespace = namespace.unwrap_or_default();
        let hash = self.hash(namespace, name);
        let same = |o: &Arc<K>| name_of(o.as_ref()) == name && namespace_of(o.as_ref()) == namespace;
        let mut guard = self.inner.write();
        let inner = &mut *guard;
        let (old, _) = inner.objects.find_entry(hash, same).ok()?.remove();
        for index in inner.indexes.values_mut() {
            for value in (index.function)(&old) {
                index.unindex(&value, hash, same);
            }
        }
        Some(old)
    }

    /// Recomputes every index from scratch and compares it with the kept one; the
    /// differences, by index name, for tests and debugging.
    pub fn check_indexes(&self) -> Vec<String> {
        let inner = self.inner.read();
        let mut problems = Vec::new();
        // Objects by identity (the stored `Arc`), so a stale copy under the right value
        // is a difference too; shown by namespace/name.
        let entry = |object: &Arc<K>| {
            (
                Arc::as_ptr(object) as usize,
                format!("{}/{}", namespace_of(object.as_ref()), name_of(object.as_ref())),
            )
        };
        for (name, index) in &inner.indexes {
            let mut expected: HashMap<String, Vec<(usize, String)>> = HashMap::new();
            for object in &inner.objects {
                for value in (index.function)(object) {
                    expected.entry(value).or_default().push(entry(object));
                }
            }
            let mut kept: HashMap<String, Vec<(usize, String)>> = index
                .entries
                .iter()
                .map(|(value, table)| (value.clone(), table.iter().map(entry).collect()))
                .collect();
            for objects in expected.values_mut().chain(kept.values_mut()) {
                objects.sort_unstable();
            }
            if kept != expected {
                let names = |map: &HashMap<String, Vec<(usize, String)>>| {
                    let mut names: Vec<(String, Vec<String>)> = map
                        .iter()
                        .map(|(value, objects)| (value.clone(), objects.iter().map(|(_, n)| n.clone()).collect()))
                        .collect();
                    names.sort_unstable();
                    names
                };
                problems.push(format!(
                    "index {name:?}: kept {:?}, recomputed {:?}",
                    names(&kept),
                    names(&expected)
                ));
            }
        }
        problems
    }
}

impl<K> std::fmt::Debug for Store<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("objects", &self.inner.read().objects.len())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::sync::Arc;

    use k8s_openapi::api::core::v1::{ConfigMap, Namespace};

    use super::{BY_NAMESPACE, ListOptions, Store, StoreError, Writer};

    fn config(namespace: &str, name: &str, labels: &[(&str, &str)]) -> ConfigMap {
        let mut config = ConfigMap::default();
        config.metadata.namespace = Some(namespace.into());
        config.metadata.name = Some(name.into());
        config.metadata.labels = Some(labels.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect());
        config
    }

    fn by_tier(config: &ConfigMap) -> Vec<String> {
        config
            .metadata
            .labels
            .iter()
            .filter_map(|labels| labels.get("tier").cloned())
            .collect()
    }

    fn names(objects: &[Arc<ConfigMap>]) -> Vec<String> {
        let mut names: Vec<String> = objects
            .iter()
            .map(|o| {
                format!(
                    "{}/{}",
                    o.metadata.namespace.as_deref().unwrap(),
                    o.metadata.name.as_deref().unwrap()
                )
            })
            .collect();
        names.sort();
        names
    }

    fn values(store: &Store<ConfigMap>, index: &str) -> BTreeMap<String, usize> {
        store.index_values(index).unwrap().into_iter().collect()
    }

    fn by_index(store: &Store<ConfigMap>, index: &str, value: &str) -> Vec<String> {
        names(
            &store
                .list(&ListOptions {
                    index: Some((index.into(), value.into())),
                    ..Default::default()
                })
                .unwrap(),
        )
    }

    #[test]
    fn indexes_follow_every_insert_update_and_remove() {
        let store = Writer::default();
        store.add_index("tier", by_tier);
        store.insert(config("one", "a", &[("tier", "x")]));
        store.insert(config("one", "b", &[("tier", "x")]));
        store.insert(config("two", "a", &[]));
        assert_eq!(values(&store, "tier"), BTreeMap::from([("x".into(), 2)]));
        assert_eq!(
            values(&store, BY_NAMESPACE),
            BTreeMap::from([("one".into(), 2), ("two".into(), 1)])
        );

        let old = store.insert(config("one", "a", &[("tier", "y")])).expect("replaces");
        assert_eq!(by_tier(&old), ["x"]);
        assert_eq!(by_index(&store, "tier", "x"), ["one/b"]);
        assert_eq!(by_index(&store, "tier", "y"), ["one/a"]);
        // The index holds the new object, not the one it replaced.
        let listed = store.list(&ListOptions {
            index: Some(("tier".into(), "y".into())),
            ..Default::default()
        });
        assert!(Arc::ptr_eq(&listed.unwrap()[0], &store.get(Some("one"), "a").unwrap()));

        store.insert(config("two", "a", &[("tier", "x")]));
        assert_eq!(by_index(&store, "tier", "x"), ["one/b", "two/a"]);
        assert_eq!(
            names(&store.remove(Some("one"), "b").into_iter().collect::<Vec<_>>()),
            ["one/b"]
        );
        assert!(store.remove(Some("one"), "b").is_none());
        assert_eq!(by_index(&store, "tier", "x"), ["two/a"]);
        store.remove(Some("two"), "a");
        assert_eq!(
            values(&store, "tier"),
            BTreeMap::from([("y".into(), 1)]),
            "empty values are dropped"
        );
        assert_eq!(values(&store, BY_NAMESPACE), BTreeMap::from([("one".into(), 1)]));
        assert!(store.check_indexes().is_empty(), "{:?}", store.check_indexes());
        assert_eq!(store.len(), 1);
    }

    #[test]
    fn an_added_index_is_filled_from_the_store_and_can_be_replaced() {
        let store = Writer::default();
        store.insert(config("one", "a", &[("tier", "x")]));
        store.insert(config("one", "b", &[]));
        store.add_index("tier", by_tier);
        assert_eq!(by_index(&store, "tier", "x"), ["one/a"]);
        store.add_index("tier", |config: &ConfigMap| vec![config.metadata.name.clone().unwrap()]);
        assert_eq!(by_index(&store, "tier", "b"), ["one/b"]);
        assert!(by_index(&store, "tier", "x").is_empty());
        assert!(store.check_indexes().is_empty());
    }

    /// An object under the same value twice (two containers of one image, say) is
    /// listed once and removed cleanly.
    #[test]
    fn a_value_repeated_by_the_index_function_counts_once() {
        let store = Writer::default();
        store.add_index("twice", |_: &ConfigMap| vec!["v".to_owned(), "v".to_owned()]);
        store.insert(config("one", "a", &[]));
        assert_eq!(by_index(&store, "twice", "v"), ["one/a"]);
        assert_eq!(values(&store, "twice"), BTreeMap::from([("v".into(), 1)]));
        store.insert(config("one", "a", &[("changed", "yes")]));
        assert_eq!(by_index(&store, "twice", "v"), ["one/a"]);
        store.remove(Some("one"), "a");
        assert!(values(&store, "twice").is_empty());
        assert!(store.check_indexes().is_empty());
    }

    #[test]
    fn list_narrows_by_namespace_selector_and_index_together() {
        let store = Writer::default();
        store.add_index("tier", by_tier);
        store.insert(config("one", "web", &[("tier", "x"), ("app", "web")]));
        store.insert(config("one", "db", &[("tier", "x"), ("app", "db")]));
        store.insert(config("two", "web", &[("tier", "x"), ("app", "web")]));
        store.insert(config("two", "other", &[("app", "web")]));
        let list = |options: ListOptions| names(&store.list(&options).unwrap());
        assert_eq!(list(ListOptions::default()).len(), 4);
        assert_eq!(
            list(ListOptions {
                namespace: Some("two".into()),
                ..Default::default()
            }),
            ["two/other", "two/web"]
        );
        assert_eq!(
            list(ListOptions {
                label_selector: Some("app=web,tier".into()),
                ..Default::default()
            }),
            ["one/web", "two/web"]
        );
        assert_eq!(
            list(ListOptions {
                namespace: Some("one".into()),
                label_selector: Some("app!=db".into()),
                index: Some(("tier".into(), "x".into())),
            }),
            ["one/web"]
        );
        assert!(
            list(ListOptions {
                namespace: Some("three".into()),
                ..Default::default()
            })
            .is_empty()
        );
    }

    #[test]
    fn check_indexes_finds_a_stale_copy_under_the_right_value() {
        let store = Writer::default();
        store.add_index("tier", by_tier);
        store.insert(config("one", "a", &[("tier", "x")]));
        assert!(store.check_indexes().is_empty());
        {
            let mut inner = store.inner.write();
            let table = inner.indexes.get_mut("tier").unwrap().entries.get_mut("x").unwrap();
            for slot in table.iter_mut() {
                *slot = Arc::new(slot.as_ref().clone());
            }
        }
        let problems = store.check_indexes();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("one/a"), "{problems:?}");
    }

    #[test]
    fn list_refuses_an_unknown_index_and_a_bad_selector() {
        let store: Writer<ConfigMap> = Writer::default();
        let unknown = store.list(&ListOptions {
            index: Some(("nope".into(), "v".into())),
            ..Default::default()
        });
        assert_eq!(unknown.unwrap_err(), StoreError::UnknownIndex("nope".into()));
        assert!(matches!(store.index_values("nope"), Err(StoreError::UnknownIndex(_))));
        let bad = store.list(&ListOptions {
            label_selector: Some("a in (".into()),
            ..Default::default()
        });
        assert!(matches!(bad, Err(StoreError::InvalidSelector { selector, .. }) if selector == "a in ("));
    }

    #[test]
    fn cluster_scoped_objects_are_found_without_a_namespace() {
        let store: Writer<Namespace> = Writer::default();
        let mut namespace = Namespace::default();
        namespace.metadata.name = Some("team".into());
        store.insert(namespace);
        let found = store.get(None, "team").expect("found");
        assert!(
            Arc::ptr_eq(&found, &store.get(None, "team").unwrap()),
            "reads share one object"
        );
        assert!(store.get(Some("team"), "team").is_none());
        assert_eq!(store.index_values(BY_NAMESPACE).unwrap(), [(String::new(), 1)]);
        assert!(store.remove(None, "team").is_some());
        assert!(store.is_empty());
    }
}
