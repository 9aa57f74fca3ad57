//! Server-side apply of the children a controller owns.

use std::fmt::Debug;

use kube::api::{Api, Patch, PatchParams};
use kube::{Resource, ResourceExt};
use serde::Serialize;
use serde::de::DeserializeOwned;

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
    let mut desired = desired.clone();
    // apiVersion and kind must be in an apply configuration; typed objects may omit them.
    let dyntype = K::DynamicType::default();
    let mut value = serde_json::to_value(&desired).map_err(kube::Error::SerdeError)?;
    value["apiVersion"] = serde_json::Value::String(K::api_version(&dyntype).into_owned());
    value["kind"] = serde_json::Value::String(K::kind(&dyntype).into_owned());
    if let Some(metadata) = value.get_mut("metadata").and_then(|m| m.as_object_mut()) {
        metadata.remove("managedFields");
        metadata.remove("resourceVersion");
    }
    desired.meta_mut().managed_fields = None;
    let params = PatchParams::apply(field_manager).force();
    api.patch(&desired.name_any(), &params, &Patch::Apply(&value)).await
}
