//! What registers a [`Conversion`] with kube-apiserver: the multi-version CRD (kube's
//! `merge_crds`, the hub stored) and its `spec.conversion`, calling the server's
//! `/convert` through the Service or URL the admission configurations use.

use k8s_openapi::ByteString;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::{
    CustomResourceConversion, CustomResourceDefinition, ServiceReference, WebhookClientConfig, WebhookConversion,
};
use kube::core::crd::merge_crds;

use super::{CONVERT_PATH, Conversion};
use crate::reach::{ClientConfig, ConfigurationOptions};
use crate::{Error, bound_integers};

/// A CRD's `spec.conversion` for a server's conversions: strategy `Webhook`,
/// `conversionReviewVersions: [v1]`, the server reached as `options.client` says at
/// [`CONVERT_PATH`], with `options.ca_bundle` when known (cert-manager's CA injector
/// fills it in from the CRD's `cert-manager.io/inject-ca-from` annotation otherwise).
///
/// ```
/// use wheelhouse_webhook::conversion::webhook_conversion;
/// use wheelhouse_webhook::{ClientConfig, ConfigurationOptions};
///
/// let options = ConfigurationOptions::new("webapp", ClientConfig::Url("https://127.0.0.1:9443".into()));
/// let conversion = webhook_conversion(&options);
/// assert_eq!(conversion.strategy, "Webhook");
/// let webhook = conversion.webhook.unwrap();
/// assert_eq!(webhook.conversion_review_versions, ["v1"]);
/// assert_eq!(webhook.client_config.unwrap().url.as_deref(), Some("https://127.0.0.1:9443/convert"));
/// ```
pub fn webhook_conversion(options: &ConfigurationOptions) -> CustomResourceConversion {
    let ca_bundle = options
        .ca_bundle
        .as_ref()
        .map(|pem| ByteString(pem.as_bytes().to_vec()));
    let client_config = match &options.client {
        ClientConfig::Service { namespace, name, port } => WebhookClientConfig {
            ca_bundle,
            service: Some(ServiceReference {
                namespace: namespace.clone(),
                name: name.clone(),
                path: Some(CONVERT_PATH.to_owned()),
                port: *port,
            }),
            url: None,
        },
        ClientConfig::Url(base) => WebhookClientConfig {
            ca_bundle,
            service: None,
            url: Some(format!("{}{CONVERT_PATH}", base.trim_end_matches('/'))),
        },
    };
    CustomResourceConversion {
        strategy: "Webhook".to_owned(),
        webhook: Some(WebhookConversion {
            client_config: Some(client_config),
            conversion_review_versions: vec!["v1".to_owned()],
        }),
    }
}

impl<H> Conversion<H> {
    /// The CRD serving every version, built from each version's own CRD with kube's
    /// `merge_crds`: the hub is the storage version (and the only one), the spokes
    /// follow in the order they were added. Its `spec.conversion` says strategy `None`
    /// (kube-apiserver converts by rewriting `apiVersion` alone: right only while the
    /// versions' schemas agree; see [`crd_with_webhook`](Self::crd_with_webhook)).
    ///
    /// The strategy is stated, not left to the server's default: server-side applied
    /// over a CRD whose conversion was `Webhook`, a CRD without `spec.conversion` is
    /// accepted by kube-apiserver 1.32 but refused by 1.19 (`spec.conversion.strategy:
    /// Required value`), so a suite would pass once on an older cluster and fail when
    /// run again. Every integer field carries its Rust type's range ([`bound_integers`]),
    /// so the API server refuses what a version could not hold, and so could not convert.
    pub fn crd(&self) -> Result<CustomResourceDefinition, Error> {
        // merge_crds appends the others from the back of the list.
        let crds = std::iter::once((self.hub_crd)())
            .chain(self.spokes.iter().rev().map(|spoke| (spoke.crd)()))
            .collect();
        let mut crd = merge_crds(crds, &self.hub_version)
            .map_err(|e| Error::Crd(format!("{}.{}: {e}", self.kind, self.group)))?;
        crd.spec.conversion = Some(CustomResourceConversion {
            strategy: "None".to_owned(),
            webhook: None,
        });
        bound_integers(&mut crd);
        Ok(crd)
    }

    /// [`crd`](Self::crd) with `spec.conversion` calling this server's `/convert`
    /// ([`webhook_conversion`]), and `options.annotations` (such as cert-manager's
    /// `cert-manager.io/inject-ca-from`) on the CRD.
    pub fn crd_with_webhook(&self, options: &ConfigurationOptions) -> Result<CustomResourceDefinition, Error> {
        let mut crd = self.crd()?;
        crd.spec.conversion = Some(webhook_conversion(options));
        if !options.annotations.is_empty() {
            crd.metadata
                .annotations
                .get_or_insert_with(Default::default)
                .extend(options.annotations.clone());
        }
        Ok(crd)
    }
}
