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

/// Which object of which cluster a fleet controller's reconcile is for: controller-
/// runtime's `mcreconcile.Request`. The reconciler itself sees its cluster through
/// [`Context::cluster`](crate::Context::cluster), so one written for a single cluster
/// runs in a fleet unchanged.
///
/// ```
/// use wheelhouse_controller::{ClusterKey, ObjectKey};
///
/// let key = ClusterKey::new("eu-1", ObjectKey::new(Some("shop"), "frontend"));
/// assert_eq!(key.to_string(), "eu-1:shop/frontend");
/// assert_eq!(key.object(), ObjectKey::new(Some("shop"), "frontend"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClusterKey {
    /// The cluster's name in its fleet.
    pub cluster: std::sync::Arc<str>,
    /// The namespace (None for cluster-scoped objects).
    pub namespace: Option<String>,
    /// The name.
    pub name: String,
}

impl ClusterKey {
    /// The key of `object` in `cluster`.
    pub fn new(cluster: impl Into<std::sync::Arc<str>>, object: ObjectKey) -> Self {
        Self {
            cluster: cluster.into(),
            namespace: object.namespace,
            name: object.name,
        }
    }

    /// The object's key within its cluster.
    pub fn object(&self) -> ObjectKey {
        ObjectKey {
            namespace: self.namespace.clone(),
            name: self.name.clone(),
        }
    }
}

impl fmt::Display for ClusterKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.cluster, self.object())
    }
}
