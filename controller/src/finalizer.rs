//! Finalizers: how a controller gets to clean up before its object is deleted.
//!
//! Both helpers patch with the object's resourceVersion as a precondition, so a
//! finalizer list changed meanwhile by someone else is never overwritten: the patch
//! fails with 409 Conflict and the reconcile is retried on the fresh object.

use std::fmt::Debug;

use kube::api::{Api, Patch, PatchParams};
use kube::{Resource, ResourceExt};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::json;

/// Whether `object` carries `finalizer`.
pub fn has<K: Resource>(object: &K, finalizer: &str) -> bool {
    object.meta().finalizers.iter().flatten().any(|f| f == finalizer)
}

/// True once the object is being deleted (its finalizers are all that keep it).
pub fn is_deleting<K: Resource>(object: &K) -> bool {
    object.meta().deletion_timestamp.is_some()
}

async fn set_finalizers<K>(api: &Api<K>, object: &K, finalizers: Vec<String>) -> Result<K, kube::Error>
where
    K: Resource + Clone + Debug + DeserializeOwned + Serialize,
{
    let patch = json!({"metadata": {"resourceVersion": object.resource_version(), "finalizers": finalizers}});
    api.patch(&object.name_any(), &PatchParams::default(), &Patch::Merge(&patch))
        .await
}

/// Adds `finalizer` to `object` unless it is there; returns the object as stored.
///
/// ```no_run
/// # async fn example(api: kube::Api<k8s_openapi::api::core::v1::ConfigMap>, cm: k8s_openapi::api::core::v1::ConfigMap) -> Result<(), kube::Error> {
/// use wheelhouse_controller::finalizer;
///
/// let cm = finalizer::ensure(&api, &cm, "example.com/cleanup").await?;
/// if finalizer::is_deleting(&cm) {
///     // ... clean up, then let it go:
///     finalizer::remove(&api, &cm, "example.com/cleanup").await?;
/// }
/// # Ok(())
/// # }
/// ```
pub async fn ensure<K>(api: &Api<K>, object: &K, finalizer: &str) -> Result<K, kube::Error>
where
    K: Resource + Clone + Debug + DeserializeOwned + Serialize,
{
    if has(object, finalizer) {
        return Ok(object.clone());
    }
    let mut finalizers = object.finalizers().to_vec();
    finalizers.push(finalizer.to_owned());
    set_finalizers(api, object, finalizers).await
}

/// Removes `finalizer` from `object` if it is there; returns the object as stored (a
/// deleted one, when it was the last finalizer of an object being deleted).
pub async fn remove<K>(api: &Api<K>, object: &K, finalizer: &str) -> Result<K, kube::Error>
where
    K: Resource + Clone + Debug + DeserializeOwned + Serialize,
{
    if !has(object, finalizer) {
        return Ok(object.clone());
    }
    let finalizers = object
        .finalizers()
        .iter()
        .filter(|f| *f != finalizer)
        .cloned()
        .collect();
    set_finalizers(api, object, finalizers).await
}
