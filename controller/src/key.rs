//! [`ObjectKey`]: which object a reconcile is for, the work queue's key. Its own
//! module because the controller, its sources and its workers all name it.

use std::fmt;

use kube::Resource;

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
