//! The WebApp's older version, `example.com/v1alpha1`, served beside `v1` and converted
//! by the webhook server: the port was `containerPort`, and the status had no
//! conditions. `v1` ([`super::WebApp`]) is the hub and the storage version; the `From`
//! impls here are the whole of the conversion, registered by [`super::conversion`].

use k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition;
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

/// What `v1` has and `v1alpha1` lacks, kept in the annotation
/// [`conversion::CONVERSION_DATA_ANNOTATION`] of a `v1alpha1` object so that a
/// round trip through `v1alpha1` loses nothing.
#[derive(Deserialize, Serialize)]
struct Lacking {
    conditions: Vec<Condition>,
}

impl From<WebApp> for super::WebApp {
    fn from(old: WebApp) -> Self {
        let mut metadata = old.metadata;
        // An annotation a client garbled is dropped: the conditions are the
        // operator's to write again at its next reconcile.
        let lacking: Option<Lacking> = conversion::unstash(&mut metadata).ok().flatten();
        let spec = super::WebAppSpec {
            image: old.spec.image,
            replicas: old.spec.replicas,
            port: old.spec.container_port,
        };
        let status = old.status.map(|status| super::WebAppStatus {
            phase: status.phase,
            available_replicas: status.available_replicas,
            conditions: lacking.map(|l| l.conditions),
            observed_generation: status.observed_generation,
        });
        let mut hub = super::WebApp::new("", spec);
        hub.metadata = metadata;
        hub.status = status;
        hub
    }
}

impl TryFrom<super::WebApp> for WebApp {
    type Error = serde_json::Error;

    fn try_from(hub: super::WebApp) -> Result<Self, serde_json::Error> {
        let mut metadata = hub.metadata;
        let status = match hub.status {
            Some(status) => {
                if let Some(conditions) = status.conditions {
                    conversion::stash(&mut metadata, &Lacking { conditions })?;
                }
                Some(WebAppStatus {
                    phase: status.phase,
                    available_replicas: status.available_replicas,
                    observed_generation: status.observed_generation,
                })
            }
            None => None,
        };
        let spec = WebAppSpec {
            image: hub.spec.image,
            replicas: hub.spec.replicas,
            container_port: hub.spec.port,
        };
        let mut spoke = WebApp::new("", spec);
        spoke.metadata = metadata;
        spoke.status = status;
        Ok(spoke)
    }
}

#[cfg(test)]
mod tests;
