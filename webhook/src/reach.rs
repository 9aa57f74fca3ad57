//! How kube-apiserver reaches the webhook server ([`ClientConfig`]) and what the
//! generated registrations say beyond the webhooks themselves
//! ([`ConfigurationOptions`]): shared by the admission configurations and by the CRD
//! conversions, so a leaf that neither's module needs to import the other for.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;

/// How kube-apiserver reaches the webhook server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientConfig {
    /// Through a Service in the cluster: the usual deployment.
    Service {
        /// The Service's namespace.
        namespace: String,
        /// The Service's name.
        name: String,
        /// The Service's port (kube-apiserver's default: 443).
        port: Option<i32>,
    },
    /// At a URL such as `https://127.0.0.1:9443`, for a server outside the cluster's
    /// network (a test, or an operator run from a laptop); each webhook's path is
    /// appended.
    Url(String),
}

/// What the generated configurations say beyond the webhooks themselves.
///
/// Every webhook gets `sideEffects: None`, `admissionReviewVersions: [v1]`,
/// `failurePolicy: Fail` (a webhook that cannot be reached refuses, rather than lets
/// an unchecked object in) and `matchPolicy: Equivalent` (a request for another
/// version of the resource is sent too, converted to the webhook's version first), and
/// is named per version as kubebuilder's scaffold names it: `vwebapp-v1.kb.io`,
/// `mwebapp-v1.kb.io`.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigurationOptions {
    /// The name of both configuration objects.
    pub name: String,
    /// How kube-apiserver reaches the server.
    pub client: ClientConfig,
    /// The CA bundle (PEM) that verifies the serving certificate; None when something
    /// else fills it in (cert-manager's CA injector, from an annotation).
    pub ca_bundle: Option<String>,
    /// Only objects in namespaces matching this are sent.
    pub namespace_selector: Option<LabelSelector>,
    /// Only objects matching this are sent.
    pub object_selector: Option<LabelSelector>,
    /// Annotations of both configurations, such as
    /// `cert-manager.io/inject-ca-from: <namespace>/<certificate>`.
    pub annotations: BTreeMap<String, String>,
    /// How long kube-apiserver waits for an answer (its default: 10 s).
    pub timeout_seconds: Option<i32>,
}

impl ConfigurationOptions {
    /// Options with nothing but a name and a way to reach the server.
    pub fn new(name: impl Into<String>, client: ClientConfig) -> Self {
        Self {
            name: name.into(),
            client,
            ca_bundle: None,
            namespace_selector: None,
            object_selector: None,
            annotations: BTreeMap::new(),
            timeout_seconds: None,
        }
    }
}
