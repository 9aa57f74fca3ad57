//! The WebApp's older version, `example.com/v1alpha1`, served beside `v1` and converted
//! by the webhook server: the port was `containerPort`, and the status had no
//! conditions. `v1` ([`super::WebApp`]) is the hub and the storage version; the `From`
//! impls here are the whole of the conversion, registered by [`super::conversion`].
//!
//! **The conditions are not carried through `v1alpha1`.** They would have to travel in
//! an annotation ([`conversion::stash`]), and annotations are anyone's to write who
//! may update the WebApp: kube-apiserver handles a write in the version it was made
//! in, resets the status from the stored object *in that version* (which has no
//! conditions), and converts for storage, so conditions taken back from the
//! annotation would be whatever the client wrote there: `Ready=True` on a WebApp with
//! no pod. So a WebApp written through `v1alpha1` loses its conditions, and the
//! operator, which owns them, computes them again at once ([`super::worth_a_reconcile`]
//! reconciles a WebApp whose conditions went missing). An annotation
//! `wheelhouse.rs/conversion-data` sent through `v1alpha1` is dropped on the way to
//! `v1`, never stored.

use kube::CustomResource;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use wheelhouse::webhook::conversion;

use super::Phase;

/// A web application, as `v1alpha1` describes it.
#[derive(CustomResource, Deserialize, Serialize, Clone, Debug, PartialEq, JsonSchema)]
#[kube(
    group = "example.com",
    version = "v1alpha1",
    kind = "WebApp",
    namespaced,
    status = "WebAppStatus",
    shortname = "wa",
    printcolumn = r#"{"name":"Image","type":"string","jsonPath":".spec.image"}"#,
    printcolumn = r#"{"name":"Container Port","type":"integer","jsonPath":".spec.containerPort"}"#,
    printcolumn = r#"{"name":"Phase","type":"string","jsonPath":".status.phase"}"#
)]
#[serde(rename_all = "camelCase")]
pub struct WebAppSpec {
    /// The container image to run.
    pub image: String,
    /// How many pods (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replicas: Option<i32>,
    /// The port the container listens on: `v1` calls it `port`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container_port: Option<i32>,
}

/// What the operator reports, without `v1`'s conditions.
#[derive(Deserialize, Serialize, Clone, Debug, Default, PartialEq, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebAppStatus {
    /// Where the WebApp is.
    pub phase: Option<Phase>,
    /// Pods available, from the Deployment.
    pub available_replicas: Option<i32>,
    /// The generation the status describes.
    pub observed_generation: Option<i64>,
}

impl From<WebApp> for super::WebApp {
    fn from(old: WebApp) -> Self {
        let mut metadata = old.metadata;
        // Never restored from: the client wrote it (see the module).
        if let Some(annotations) = &mut metadata.annotations
            && annotations.remove(conversion::CONVERSION_DATA_ANNOTATION).is_some()
        {
            tracing::info!(
                name = metadata.name.as_deref().unwrap_or_default(),
                "dropped a conversion-data annotation sent through v1alpha1: the conditions are recomputed, never taken from it"
            );
            if annotations.is_empty() {
                metadata.annotations = None;
            }
        }
        let spec = super::WebAppSpec {
            image: old.spec.image,
            replicas: old.spec.replicas,
            port: old.spec.container_port,
        };
        let status = old.status.map(|status| super::WebAppStatus {
            phase: status.phase,
            available_replicas: status.available_replicas,
            conditions: None,
            observed_generation: status.observed_generation,
        });
        let mut hub = super::WebApp::new("", spec);
        hub.metadata = metadata;
        hub.status = status;
        hub
    }
}

impl From<super::WebApp> for WebApp {
    fn from(hub: super::WebApp) -> Self {
        let metadata = hub.metadata;
        let status = hub.status.map(|status| WebAppStatus {
            phase: status.phase,
            available_replicas: status.available_replicas,
            observed_generation: status.observed_generation,
        });
        let spec = WebAppSpec {
            image: hub.spec.image,
            replicas: hub.spec.replicas,
            container_port: hub.spec.port,
        };
        let mut spoke = WebApp::new("", spec);
        spoke.metadata = metadata;
        spoke.status = status;
        spoke
    }
}

#[cfg(test)]
mod tests;
