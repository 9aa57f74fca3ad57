//! What a typed webhook is registered as: the [`Object`] types it admits, its
//! [`WebhookKind`], the path controller-runtime serves it at, and the
//! [`Registration`] the generated configurations are made from. A leaf: the
//! dispatcher, the typed adapters and the manifests all read it, and it reads none
//! of them.

use kube::Resource;
use kube::core::GroupVersionKind;
use kube::core::admission::Operation;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A resource type a typed webhook admits: known at compile time, read and written
/// with serde. Every `kube::CustomResource` and k8s-openapi type is one.
pub trait Object: Resource<DynamicType = ()> + DeserializeOwned + Serialize + Send + Sync + 'static {}

impl<K> Object for K where K: Resource<DynamicType = ()> + DeserializeOwned + Serialize + Send + Sync + 'static {}

/// Whether a webhook validates or mutates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WebhookKind {
    /// A validating webhook: allows or denies.
    Validating,
    /// A mutating webhook: may change the object.
    Mutating,
}

/// What the generated configuration says of one typed webhook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registration {
    /// Validating or mutating.
    pub kind: WebhookKind,
    /// Where it is served.
    pub path: String,
    /// The resource's group, version and kind.
    pub gvk: GroupVersionKind,
    /// The plural resource name, for `rules[].resources`.
    pub plural: String,
    /// The operations sent to it.
    pub operations: Vec<Operation>,
}

impl Registration {
    pub(crate) fn of<K: Object>(kind: WebhookKind, operations: &[Operation]) -> Self {
        let gvk = gvk::<K>();
        let path = match kind {
            WebhookKind::Validating => webhook_path("validate", &gvk),
            WebhookKind::Mutating => webhook_path("mutate", &gvk),
        };
        Self {
            kind,
            path,
            gvk,
            plural: K::plural(&()).into_owned(),
            operations: operations.to_vec(),
        }
    }
}

/// The path controller-runtime serves `K`'s validating webhook at:
/// `/validate-<group with dashes>-<version>-<kind in lower case>`.
///
/// ```
/// use k8s_openapi::api::apps::v1::Deployment;
/// assert_eq!(wheelhouse_webhook::validate_path::<Deployment>(), "/validate-apps-v1-deployment");
/// ```
pub fn validate_path<K: Object>() -> String {
    webhook_path("validate", &gvk::<K>())
}

/// The path of `K`'s mutating webhook: `/mutate-<group with dashes>-<version>-<kind>`.
///
/// ```
/// use k8s_openapi::api::core::v1::Pod;
/// assert_eq!(wheelhouse_webhook::mutate_path::<Pod>(), "/mutate--v1-pod");
/// ```
pub fn mutate_path<K: Object>() -> String {
    webhook_path("mutate", &gvk::<K>())
}

fn webhook_path(prefix: &str, gvk: &GroupVersionKind) -> String {
    format!(
        "/{prefix}-{}-{}-{}",
        gvk.group.replace('.', "-"),
        gvk.version,
        gvk.kind.to_lowercase()
    )
}

fn gvk<K: Object>() -> GroupVersionKind {
    GroupVersionKind::gvk(&K::group(&()), &K::version(&()), &K::kind(&()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::api::apps::v1::Deployment;
    use k8s_openapi::api::core::v1::ConfigMap;
    use k8s_openapi::api::networking::v1::Ingress;

    #[test]
    fn paths_follow_controller_runtime() {
        assert_eq!(validate_path::<Ingress>(), "/validate-networking-k8s-io-v1-ingress");
        assert_eq!(mutate_path::<Deployment>(), "/mutate-apps-v1-deployment");
        assert_eq!(validate_path::<ConfigMap>(), "/validate--v1-configmap");
    }
}
