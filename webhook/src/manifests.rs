//! The `ValidatingWebhookConfiguration` and `MutatingWebhookConfiguration` that tell
//! kube-apiserver to call a server's typed webhooks, generated from what was
//! registered (kubebuilder generates them from `+kubebuilder:webhook` markers).

use k8s_openapi::ByteString;
use k8s_openapi::api::admissionregistration::v1::{
    MutatingWebhook, MutatingWebhookConfiguration, RuleWithOperations, ServiceReference, ValidatingWebhook,
    ValidatingWebhookConfiguration, WebhookClientConfig,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::api::{Api, DeleteParams, Patch, PatchParams};
use kube::core::admission::Operation;
use serde::Serialize;

use crate::Error;
use crate::reach::{ClientConfig, ConfigurationOptions};
use crate::registration::{Registration, WebhookKind};
use crate::server::WebhookServer;

/// The field manager of configurations applied by [`Configurations::apply`].
const FIELD_MANAGER: &str = "wheelhouse-webhook";

/// A server's webhook configurations; either is None when no webhook of its kind is
/// registered.
#[derive(Debug, Clone, PartialEq)]
pub struct Configurations {
    /// The mutating webhooks (defaulters).
    pub mutating: Option<MutatingWebhookConfiguration>,
    /// The validating webhooks (validators).
    pub validating: Option<ValidatingWebhookConfiguration>,
}

impl WebhookServer {
    /// The configurations of this server's typed webhooks (raw handlers are left out:
    /// their rules are their author's to write).
    ///
    /// ```
    /// use k8s_openapi::api::core::v1::ConfigMap;
    /// use wheelhouse_webhook::{ClientConfig, ConfigurationOptions, Denied, Request, Validator, Warnings, WebhookOptions, WebhookServer};
    ///
    /// struct Anything;
    /// impl Validator<ConfigMap> for Anything {
    ///     async fn validate_create(&self, _: &ConfigMap, _: &Request) -> Result<Warnings, Denied> { Ok(vec![]) }
    ///     async fn validate_update(&self, _: &ConfigMap, _: &ConfigMap, _: &Request) -> Result<Warnings, Denied> { Ok(vec![]) }
    /// }
    ///
    /// let server = WebhookServer::new(WebhookOptions::default()).validator::<ConfigMap>(Anything);
    /// let client = ClientConfig::Url("https://127.0.0.1:9443".into());
    /// let configurations = server.configurations(&ConfigurationOptions::new("configmaps", client));
    /// let hook = &configurations.validating.unwrap().webhooks.unwrap()[0];
    /// assert_eq!(hook.name, "vconfigmap-v1.kb.io");
    /// assert_eq!(hook.match_policy.as_deref(), Some("Equivalent"));
    /// assert_eq!(hook.client_config.url.as_deref(), Some("https://127.0.0.1:9443/validate--v1-configmap"));
    /// assert!(configurations.mutating.is_none());
    /// ```
    pub fn configurations(&self, options: &ConfigurationOptions) -> Configurations {
        let metadata = ObjectMeta {
            name: Some(options.name.clone()),
            annotations: (!options.annotations.is_empty()).then(|| options.annotations.clone()),
            ..ObjectMeta::default()
        };
        let (mut mutating, mut validating) = (Vec::new(), Vec::new());
        let registrations: Vec<&Registration> = self.registrations().collect();
        for registration in &registrations {
            let name = webhook_name(registration, &registrations);
            let client_config = client_config(options, &registration.path);
            let rules = Some(vec![rule(registration)]);
            // The two webhook types have the same fields but no common trait.
            macro_rules! webhook {
                ($type:ident) => {
                    $type {
                        name,
                        client_config,
                        rules,
                        admission_review_versions: vec!["v1".into()],
                        side_effects: "None".into(),
                        failure_policy: Some("Fail".into()),
                        match_policy: Some("Equivalent".into()),
                        namespace_selector: options.namespace_selector.clone(),
                        object_selector: options.object_selector.clone(),
                        timeout_seconds: options.timeout_seconds,
                        ..$type::default()
                    }
                };
            }
            match registration.kind {
                WebhookKind::Mutating => mutating.push(webhook!(MutatingWebhook)),
                WebhookKind::Validating => validating.push(webhook!(ValidatingWebhook)),
            }
        }
        Configurations {
            mutating: (!mutating.is_empty()).then(|| MutatingWebhookConfiguration {
                metadata: metadata.clone(),
                webhooks: Some(mutating),
            }),
            validating: (!validating.is_empty()).then_some(ValidatingWebhookConfiguration {
                metadata,
                webhooks: Some(validating),
            }),
        }
    }
}

/// kubebuilder's scaffold name, per version: `v<kind>-<version>.kb.io` for a
/// validating webhook, `m<kind>-<version>.kb.io` for a mutating one (three segments,
/// as kube-apiserver requires), so the webhooks of two versions of a resource never
/// share a name (kube-apiserver refuses a configuration with duplicate names). Should
/// two registered groups have a kind of that name at that version, the group is added
/// to both: `vevent-v1.events.k8s.io.kb.io`, `vevent-v1.core.kb.io`.
fn webhook_name(registration: &Registration, all: &[&Registration]) -> String {
    let verb = match registration.kind {
        WebhookKind::Validating => "v",
        WebhookKind::Mutating => "m",
    };
    let (kind, version) = (registration.gvk.kind.to_lowercase(), &registration.gvk.version);
    let ambiguous = all.iter().any(|other| {
        other.kind == registration.kind
            && other.gvk.group != registration.gvk.group
            && other.gvk.version == *version
            && other.gvk.kind.to_lowercase() == kind
    });
    if !ambiguous {
        return format!("{verb}{kind}-{version}.kb.io");
    }
    let group = if registration.gvk.group.is_empty() {
        "core"
    } else {
        &registration.gvk.group
    };
    format!("{verb}{kind}-{version}.{group}.kb.io")
}

fn client_config(options: &ConfigurationOptions, path: &str) -> WebhookClientConfig {
    let ca_bundle = options
        .ca_bundle
        .as_ref()
        .map(|pem| ByteString(pem.as_bytes().to_vec()));
    match &options.client {
        ClientConfig::Service { namespace, name, port } => WebhookClientConfig {
            ca_bundle,
            service: Some(ServiceReference {
                namespace: namespace.clone(),
                name: name.clone(),
                path: Some(path.to_owned()),
                port: *port,
            }),
            url: None,
        },
        ClientConfig::Url(base) => WebhookClientConfig {
            ca_bundle,
            service: None,
            url: Some(format!("{}{path}", base.trim_end_matches('/'))),
        },
    }
}

fn rule(registration: &Registration) -> RuleWithOperations {
    let operation = |operation: &Operation| {
        match operation {
            Operation::Create => "CREATE",
            Operation::Update => "UPDATE",
            Operation::Delete => "DELETE",
            Operation::Connect => "CONNECT",
        }
        .to_owned()
    };
    RuleWithOperations {
        api_groups: Some(vec![registration.gvk.group.clone()]),
        api_versions: Some(vec![registration.gvk.version.clone()]),
        resources: Some(vec![registration.plural.clone()]),
        operations: Some(registration.operations.iter().map(operation).collect()),
        scope: None,
    }
}

impl Configurations {
    /// Creates or updates both configurations (server-side apply, forced).
    pub async fn apply(&self, client: &kube::Client) -> Result<(), Error> {
        let params = PatchParams::apply(FIELD_MANAGER).force();
        if let Some(mutating) = &self.mutating {
            let api: Api<MutatingWebhookConfiguration> = Api::all(client.clone());
            let name = mutating.metadata.name.clone().unwrap_or_default();
            api.patch(&name, &params, &Patch::Apply(mutating)).await?;
        }
        if let Some(validating) = &self.validating {
            let api: Api<ValidatingWebhookConfiguration> = Api::all(client.clone());
            let name = validating.metadata.name.clone().unwrap_or_default();
            api.patch(&name, &params, &Patch::Apply(validating)).await?;
        }
        Ok(())
    }

    /// Deletes both configurations, if they exist.
    pub async fn delete(&self, client: &kube::Client) -> Result<(), Error> {
        let params = DeleteParams::default();
        if let Some(name) = self.mutating.as_ref().and_then(|c| c.metadata.name.clone()) {
            let api: Api<MutatingWebhookConfiguration> = Api::all(client.clone());
            ignore_not_found(api.delete(&name, &params).await.map(|_| ()))?;
        }
        if let Some(name) = self.validating.as_ref().and_then(|c| c.metadata.name.clone()) {
            let api: Api<ValidatingWebhookConfiguration> = Api::all(client.clone());
            ignore_not_found(api.delete(&name, &params).await.map(|_| ()))?;
        }
        Ok(())
    }

    /// Both configurations as YAML documents (mutating first), for `deploy/`.
    pub fn to_yaml(&self) -> Result<String, Error> {
        let mut documents = Vec::new();
        if let Some(mutating) = &self.mutating {
            documents.push(yaml(mutating)?);
        }
        if let Some(validating) = &self.validating {
            documents.push(yaml(validating)?);
        }
        Ok(documents.join("---\n"))
    }
}

/// One YAML document.
pub fn yaml(value: &impl Serialize) -> Result<String, Error> {
    serde_saphyr::to_string(value).map_err(|e| Error::Yaml(e.to_string()))
}

fn ignore_not_found(result: Result<(), kube::Error>) -> Result<(), Error> {
    match result {
        Err(kube::Error::Api(status)) if status.code == 404 => Ok(()),
        other => Ok(other?),
    }
}

#[cfg(test)]
mod tests {
    use k8s_openapi::api::apps::v1::Deployment;
    use k8s_openapi::api::core::v1::ConfigMap;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;

    use super::*;
    use crate::{Defaulter, Denied, Request, Validator, Warnings, WebhookOptions};

    struct GuardDeletes;

    impl Validator<ConfigMap> for GuardDeletes {
        const OPERATIONS: &'static [Operation] = &[Operation::Create, Operation::Update, Operation::Delete];

        async fn validate_create(&self, _: &ConfigMap, _: &Request) -> Result<Warnings, Denied> {
            Ok(Vec::new())
        }
        async fn validate_update(&self, _: &ConfigMap, _: &ConfigMap, _: &Request) -> Result<Warnings, Denied> {
            Ok(Vec::new())
        }
    }

    struct NoDefaults;

    impl Defaulter<Deployment> for NoDefaults {
        async fn apply_defaults(&self, _: &mut Deployment, _: &Request) -> Result<(), Denied> {
            Ok(())
        }
    }

    #[test]
    fn every_registered_webhook_gets_its_rule_and_the_options() {
        let server = WebhookServer::new(WebhookOptions::default())
            .validator::<ConfigMap>(GuardDeletes)
            .defaulter::<Deployment>(NoDefaults)
            .handler(
                "/raw",
                |request: crate::AdmissionRequest<kube::core::DynamicObject>| async move {
                    crate::AdmissionResponse::from(&request)
                },
            );
        let client = ClientConfig::Service {
            namespace: "ops".into(),
            name: "hooks".into(),
            port: None,
        };
        let mut options = ConfigurationOptions::new("hooks", client);
        options.ca_bundle = Some("-----BEGIN CERTIFICATE-----".into());
        options.object_selector = Some(LabelSelector {
            match_labels: Some([("checked".to_owned(), "yes".to_owned())].into()),
            ..LabelSelector::default()
        });
        let configurations = server.configurations(&options);

        let validating = configurations.validating.unwrap().webhooks.unwrap();
        assert_eq!(validating.len(), 1, "raw handlers are left out");
        let hook = &validating[0];
        assert_eq!(hook.name, "vconfigmap-v1.kb.io");
        assert_eq!(hook.match_policy.as_deref(), Some("Equivalent"));
        let rule = &hook.rules.as_ref().unwrap()[0];
        assert_eq!(rule.api_groups, Some(vec![String::new()]));
        assert_eq!(rule.resources, Some(vec!["configmaps".to_owned()]));
        assert_eq!(
            rule.operations,
            Some(vec!["CREATE".to_owned(), "UPDATE".to_owned(), "DELETE".to_owned()])
        );
        let service = hook.client_config.service.as_ref().unwrap();
        assert_eq!(
            (
                service.namespace.as_str(),
                service.name.as_str(),
                service.path.as_deref()
            ),
            ("ops", "hooks", Some("/validate--v1-configmap"))
        );
        assert_eq!(
            hook.client_config.ca_bundle.as_ref().unwrap().0,
            b"-----BEGIN CERTIFICATE-----"
        );
        assert_eq!(hook.object_selector, options.object_selector);
        assert_eq!(
            (hook.side_effects.as_str(), hook.failure_policy.as_deref()),
            ("None", Some("Fail"))
        );
        assert_eq!(hook.admission_review_versions, ["v1"]);

        let mutating = configurations.mutating.unwrap().webhooks.unwrap();
        assert_eq!(mutating[0].name, "mdeployment-v1.kb.io");
        assert_eq!(mutating[0].match_policy.as_deref(), Some("Equivalent"));
        assert_eq!(
            mutating[0].rules.as_ref().unwrap()[0].operations,
            Some(vec!["CREATE".to_owned(), "UPDATE".to_owned()])
        );
        let yaml = Configurations {
            mutating: None,
            validating: server.configurations(&options).validating,
        }
        .to_yaml()
        .unwrap();
        assert!(
            yaml.starts_with("apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\n"),
            "{yaml}"
        );
    }

    struct AllowAll;

    impl<K: crate::Object> Validator<K> for AllowAll {
        async fn validate_create(&self, _: &K, _: &Request) -> Result<Warnings, Denied> {
            Ok(Vec::new())
        }
        async fn validate_update(&self, _: &K, _: &K, _: &Request) -> Result<Warnings, Denied> {
            Ok(Vec::new())
        }
    }

    #[test]
    fn each_version_and_group_has_a_webhook_name_of_its_own() {
        use k8s_openapi::api::autoscaling::{v1 as autoscaling_v1, v2 as autoscaling_v2};
        use k8s_openapi::api::core::v1::Event as CoreEvent;
        use k8s_openapi::api::events::v1::Event;

        let server = WebhookServer::new(WebhookOptions::default())
            .validator::<autoscaling_v1::HorizontalPodAutoscaler>(AllowAll)
            .validator::<autoscaling_v2::HorizontalPodAutoscaler>(AllowAll)
            .validator::<Event>(AllowAll)
            .validator::<CoreEvent>(AllowAll)
            .validator::<ConfigMap>(AllowAll)
            .defaulter::<Deployment>(NoDefaults);
        let options = ConfigurationOptions::new("hooks", ClientConfig::Url("https://127.0.0.1:9443".into()));
        let configurations = server.configurations(&options);
        let names: Vec<String> = configurations
            .validating
            .unwrap()
            .webhooks
            .unwrap()
            .into_iter()
            .map(|hook| hook.name)
            .collect();
        assert_eq!(
            names,
            [
                "vhorizontalpodautoscaler-v1.kb.io",
                "vhorizontalpodautoscaler-v2.kb.io",
                "vevent-v1.events.k8s.io.kb.io",
                "vevent-v1.core.kb.io",
                "vconfigmap-v1.kb.io",
            ]
        );
        let mutating = configurations.mutating.unwrap().webhooks.unwrap();
        assert_eq!(mutating[0].name, "mdeployment-v1.kb.io");
    }
}
