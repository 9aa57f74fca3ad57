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

struct Inner<K> {
    objects: Table<K>,
    indexes: HashMap<String, Index<K>>,
}

/// The objects of one informer, read without copying: every read hands out `Arc<K>`.
/// Cheap to clone (a handle).
///
/// ```
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use wheelhouse_cache::{ListOptions, Store};
///
/// let store: Store<ConfigMap> = Store::default();
/// store.add_index("has-data", |cm: &ConfigMap| vec![cm.data.is_some().to_string()]);
/// let mut config = ConfigMap::default();
/// config.metadata.namespace = Some("default".into());
/// config.metadata.name = Some("settings".into());
/// store.insert(config);
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

impl<K: Resource> Default for Store<K> {
    fn default() -> Self {
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
            .find(hash, |o| name_of(o.as_ref()) == name && namespace_of(o.as_ref()) == namespace)
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
        let selector = match &options.label_selector {
            Some(text) => Some(
                wheelhouse_selector::LabelSelector::parse(text).map_err(|error| StoreError::InvalidSelector {
                    selector: text.clone(),
                    reason: error.to_string(),
                })?,
            ),
            None => None,
        };
        let inner = self.inner.read();
        let keep = |object: &Arc<K>| {
            options.namespace.as_deref().is_none_or(|ns| namespace_of(object.as_ref()) == ns)
                && selector.as_ref().is_none_or(|s| s.matches_labels(object.meta().labels.as_ref()))
        };
        let candidates: Box<dyn Iterator<Item = &Arc<K>>> = match (&options.index, &options.namespace) {
            (Some((index, value)), _) => {
                let index = inner.indexes.get(index).ok_or_else(|| StoreError::UnknownIndex(index.clone()))?;
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
        let index = inner.indexes.get(index).ok_or_else(|| StoreError::UnknownIndex(index.to_owned()))?;
        Ok(index.entries.iter().map(|(value, table)| (value.clone(), table.len())).collect())
    }

    /// Adds an index (replacing one of the same name) and fills it from what is stored.
    pub fn add_index(&self, name: impl Into<String>, function: impl Fn(&K) -> Vec<String> + Send + Sync + 'static) {
        let function: IndexFn<K> = Arc::new(function);
        let mut inner = self.inner.write();
        let mut index = Index {
            function,
            entries: HashMap::new(),
        };
        for object in &inner.objects {
            let hash = self.hash_of(object);
            for value in (index.function)(object) {
                index.entries.entry(value).or_default().insert_unique(hash, object.clone(), |o| self.hash_of(o));
            }
        }
        inner.indexes.insert(name.into(), index);
    }

    /// Stores `object`, replacing the stored one of the same namespace and name;
    /// returns the replaced one.
    pub fn insert(&self, object: K) -> Option<Arc<K>> {
        self.insert_arc(Arc::new(object))
    }

    /// Stores a shared object; see [`insert`](Self::insert).
    pub fn insert_arc(&self, object: Arc<K>) -> Option<Arc<K>> {
        let hash = self.hash_of(&object);
        let mut guard = self.inner.write();
        let inner = &mut *guard;
        let (namespace, name) = (namespace_of(object.as_ref()), name_of(object.as_ref()));
        let same = |o: &Arc<K>| name_of(o.as_ref()) == name && namespace_of(o.as_ref()) == namespace;
        let old = match inner.objects.find_mut(hash, same) {
            Some(slot) => Some(std::mem::replace(slot, object.clone())),
            None => {
                inner.objects.insert_unique(hash, object.clone(), |o| self.hash_of(o));
                None
            }
        };
        for index in inner.indexes.values_mut() {
            let before = old.as_deref().map(|o| (index.function)(o)).unwrap_or_default();
            let after = (index.function)(&object);
            for value in &before {
                if let Some(table) = index.entries.get_mut(value) {
                    if let Ok(entry) = table.find_entry(hash, same) {
                        entry.remove();
                    }
                    if table.is_empty() {
                        index.entries.remove(value);
                    }
                }
            }
            for value in after {
                index.entries.entry(value).or_default().insert_unique(hash, object.clone(), |o| self.hash_of(o));
            }
        }
        old
    }

    /// Removes the object `name` in `namespace`; returns it.
    pub fn remove(&self, namespace: Option<&str>, name: &str) -> Option<Arc<K>> {
        let namespace = namespace.unwrap_or_default();
        let hash = self.hash(namespace, name);
        let same = |o: &Arc<K>| name_of(o.as_ref()) == name && namespace_of(o.as_ref()) == namespace;
        let mut guard = self.inner.write();
        let inner = &mut *guard;
        let (old, _) = inner.objects.find_entry(hash, same).ok()?.remove();
        for index in inner.indexes.values_mut() {
            for value in (index.function)(&old) {
                if let Some(table) = index.entries.get_mut(&value) {
                    if let Ok(entry) = table.find_entry(hash, same) {
                        entry.remove();
                    }
                    if table.is_empty() {
                        index.entries.remove(&value);
                    }
                }
            }
        }
        Some(old)
    }

    /// Recomputes every index from scratch and compares it with the kept one; the
    /// differences, by index name, for tests and debugging.
    pub fn check_indexes(&self) -> Vec<String> {
        let inner = self.inner.read();
        let mut problems = Vec::new();
        for (name, index) in &inner.indexes {
            let mut expected: HashMap<String, usize> = HashMap::new();
            for object in &inner.objects {
                for value in (index.function)(object) {
                    *expected.entry(value).or_default() += 1;
                }
            }
            let kept: HashMap<String, usize> = index.entries.iter().map(|(v, t)| (v.clone(), t.len())).collect();
            if kept != expected {
                problems.push(format!("index {name:?}: kept {kept:?}, recomputed {expected:?}"));
            }
        }
        problems
    }
}

impl<K> std::fmt::Debug for Store<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("objects", &self.inner.read().objects.len()).finish()
    }
}
