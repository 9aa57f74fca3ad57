//! The WebApp's webhooks: a defaulter (replicas 1, port 80, the
//! `app.kubernetes.io/managed-by` label) and a validator (an image reference pinned to
//! a tag or digest, 1 to 50 replicas, a TCP port that never changes once valid), and
//! the conversion between `v1` and `v1alpha1`, with the server that serves them and
//! the configurations and CRD that register them. Shared by the demo
//! (`demos/webapp.rs`), the tests, `deploy/webhook.yaml` and `deploy/crd.yaml`.

use std::collections::BTreeMap;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use serde_json::json;
use wheelhouse::webhook::{
    Certificates, ClientConfig, ConfigurationOptions, Configurations, Defaulter, Denied, Error, FieldError, Request,
    Validator, Warnings, WebhookOptions, WebhookServer, yaml,
};

use super::{DEFAULT_PORT, DEFAULT_REPLICAS, WebApp, WebAppSpec};

/// The label the defaulter puts on every WebApp.
pub const MANAGED_BY_LABEL: &str = "app.kubernetes.io/managed-by";
/// Its value.
pub const MANAGED_BY: &str = "wheelhouse";
/// The replica counts a WebApp may ask for.
pub const REPLICAS: std::ops::RangeInclusive<i32> = 1..=50;

/// Fills in what a WebApp leaves out.
pub struct WebAppDefaulter;

impl Defaulter<WebApp> for WebAppDefaulter {
    async fn apply_defaults(&self, webapp: &mut WebApp, _: &Request) -> Result<(), Denied> {
        webapp.spec.replicas.get_or_insert(DEFAULT_REPLICAS);
        webapp.spec.port.get_or_insert(DEFAULT_PORT);
        webapp
            .metadata
            .labels
            .get_or_insert_with(BTreeMap::new)
            .insert(MANAGED_BY_LABEL.to_owned(), MANAGED_BY.to_owned());
        Ok(())
    }
}

/// Refuses WebApps that would not run as their author expects.
pub struct WebAppValidator;

impl Validator<WebApp> for WebAppValidator {
    async fn validate_create(&self, webapp: &WebApp, _: &Request) -> Result<Warnings, Denied> {
        Denied::if_any(spec_errors(&webapp.spec))?;
        Ok(Vec::new())
    }

    async fn validate_update(&self, old: &WebApp, new: &WebApp, _: &Request) -> Result<Warnings, Denied> {
        let mut errors = spec_errors(&new.spec);
        let (was, is) = (old.spec.port(), new.spec.port());
        // A port that was never valid may be corrected; a valid one is fixed for life.
        if was != is && PORTS.contains(&was) {
            errors.push(FieldError::invalid(
                "spec.port",
                is,
                format!(
                    "the port cannot change once the WebApp exists (it is {was}); create a new WebApp on port {is} and delete this one"
                ),
            ));
        }
        Denied::if_any(errors)?;
        Ok(Vec::new())
    }
}

/// The ports a WebApp may listen on.
pub const PORTS: std::ops::RangeInclusive<i32> = 1..=65535;

/// Every problem of a spec, each saying what to do instead.
fn spec_errors(spec: &WebAppSpec) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if let Some(problem) = image_problem(&spec.image) {
        errors.push(problem);
    }
    let replicas = spec.replicas();
    if !REPLICAS.contains(&replicas) {
        errors.push(FieldError::invalid(
            "spec.replicas",
            replicas,
            format!(
                "must be between {} and {}; to stop serving, delete the WebApp, and for more, split the traffic over several WebApps",
                REPLICAS.start(),
                REPLICAS.end()
            ),
        ));
    }
    let port = spec.port();
    if !PORTS.contains(&port) {
        errors.push(FieldError::invalid(
            "spec.port",
            port,
            format!("must be a TCP port, between {} and {}", PORTS.start(), PORTS.end()),
        ));
    }
    errors
}

/// Why an image reference does not name one version of one image, if it does not:
/// it must parse by the distribution reference grammar ([`image::parse`](super::image::parse):
/// no whitespace, lower-case hex of the algorithm's length after `@sha256:`) and carry
/// a digest or a tag other than `latest`.
fn image_problem(image: &str) -> Option<FieldError> {
    if image.trim().is_empty() {
        return Some(FieldError::required(
            "spec.image",
            "name the container image to run, with a version tag, such as nginx:1.27",
        ));
    }
    let reference = match super::image::parse(image) {
        Ok(reference) => reference,
        Err(error) => {
            return Some(FieldError::invalid(
                "spec.image",
                image,
                format!(
                    "not an image reference ({error}): write [registry/]repository:tag or repository@sha256:<64 lower-case hex digits>, with no spaces, such as nginx:1.27"
                ),
            ));
        }
    };
    if reference.digest.is_some() {
        return None; // a digest pins the image exactly
    }
    let repository = image
        .rsplit_once(':')
        .filter(|(_, tag)| !tag.contains('/'))
        .map_or(image, |(repository, _)| repository);
    let why = if repository == image {
        "the image has no tag, so every node may pull a different version"
    } else if reference.tag == Some("latest") {
        "\"latest\" moves with every release, so every node may pull a different version"
    } else {
        return None;
    };
    Some(FieldError::invalid(
        "spec.image",
        image,
        format!("{why}; pin a version, such as {repository}:1.27, or a digest ({repository}@sha256:...)"),
    ))
}

/// The WebApp's webhook server: the defaulter at `/mutate-example-com-v1-webapp`, the
/// validator at `/validate-example-com-v1-webapp` (both for `v1`: with `matchPolicy:
/// Equivalent` kube-apiserver sends them `v1alpha1` requests converted to `v1`), and
/// the conversions at `/convert`.
pub fn webhook_server(options: WebhookOptions) -> WebhookServer {
    WebhookServer::new(options)
        .defaulter::<WebApp>(WebAppDefaulter)
        .validator::<WebApp>(WebAppValidator)
        .conversion(super::conversion())
}

/// The WebApp's webhooks served on 127.0.0.1 (a free port) with a self-signed
/// certificate, and their configurations registered with the API server of `client`,
/// calling them at that address with the certificate's CA: for the embedded API
/// server, or a real one on this machine. `name` names the configurations;
/// `namespace_selector` limits them to some namespaces (a shared cluster).
///
/// The server is bound but not started: add it to a `Manager` (or start it as a
/// `Runnable`); until then, calls wait in the listening socket's backlog. Delete the
/// returned configurations when done with a shared cluster.
pub async fn serve_locally(
    client: &kube::Client,
    name: &str,
    namespace_selector: Option<LabelSelector>,
) -> Result<(WebhookServer, Configurations), Error> {
    let (server, configurations, _) = serve_locally_converting(client, name, namespace_selector).await?;
    Ok((server, configurations))
}

/// [`serve_locally`], and the WebApp CRD of both versions whose conversions call this
/// server at its address with its CA (strategy `Webhook`), for the caller to install
/// (a test or demo that reads `v1alpha1`).
pub async fn serve_locally_converting(
    client: &kube::Client,
    name: &str,
    namespace_selector: Option<LabelSelector>,
) -> Result<(WebhookServer, Configurations, CustomResourceDefinition), Error> {
    let certificates = Certificates::self_signed(["127.0.0.1"])?;
    let options = WebhookOptions {
        host: [127, 0, 0, 1].into(),
        port: 0,
        certificates: Some(certificates.clone()),
        ..WebhookOptions::default()
    };
    let mut server = webhook_server(options);
    let address = server.bind()?;
    let mut configuration = ConfigurationOptions::new(name, ClientConfig::Url(format!("https://{address}")));
    configuration.ca_bundle = Some(certificates.ca_bundle().to_owned());
    configuration.namespace_selector = namespace_selector;
    let configurations = server.configurations(&configuration);
    configurations.apply(client).await?;
    let crd = super::conversion().crd_with_webhook(&configuration)?;
    Ok((server, configurations, crd))
}

/// Where the operator runs in a cluster, as `deploy/` lays it out.
pub const NAMESPACE: &str = "webapp-system";
/// The Service in front of the webhook server (port 443 to the pods' 9443).
pub const SERVICE: &str = "webapp-webhook-service";
/// The cert-manager Certificate of the serving certificate.
pub const CERTIFICATE: &str = "webapp-serving-cert";
/// The Secret cert-manager writes it to, mounted at `--cert-dir`.
pub const SECRET: &str = "webapp-webhook-server-cert";
/// The cert-manager Issuer that signs it.
pub const ISSUER: &str = "webapp-selfsigned-issuer";

/// How kube-apiserver reaches the webhooks in a cluster laid out as `deploy/` lays it
/// out: the Service, with the CA cert-manager's injector copies from the Certificate.
fn deploy_options(name: &str) -> ConfigurationOptions {
    let client = ClientConfig::Service {
        namespace: NAMESPACE.to_owned(),
        name: SERVICE.to_owned(),
        port: Some(443),
    };
    let mut options = ConfigurationOptions::new(name, client);
    options.annotations.insert(
        "cert-manager.io/inject-ca-from".to_owned(),
        format!("{NAMESPACE}/{CERTIFICATE}"),
    );
    options
}

/// `deploy/crd.yaml`: the WebApp CRD of both versions, `v1` stored, converted by the
/// webhook Service's `/convert` (its `caBundle` injected by cert-manager).
pub fn deploy_crd() -> Result<CustomResourceDefinition, Error> {
    super::conversion().crd_with_webhook(&deploy_options("webapp-webhook"))
}

/// `deploy/webhook.yaml`: a self-signing cert-manager Issuer, the serving Certificate
/// for the webhook Service, and the webhook configurations, whose `caBundle`
/// cert-manager's CA injector fills in from the Certificate.
pub fn deploy_manifests() -> Result<String, Error> {
    let issuer = json!({
        "apiVersion": "cert-manager.io/v1",
        "kind": "Issuer",
        "metadata": {"name": ISSUER, "namespace": NAMESPACE},
        "spec": {"selfSigned": {}},
    });
    let certificate = json!({
        "apiVersion": "cert-manager.io/v1",
        "kind": "Certificate",
        "metadata": {"name": CERTIFICATE, "namespace": NAMESPACE},
        "spec": {
            "dnsNames": [format!("{SERVICE}.{NAMESPACE}.svc"), format!("{SERVICE}.{NAMESPACE}.svc.cluster.local")],
            "issuerRef": {"kind": "Issuer", "name": ISSUER},
            "secretName": SECRET,
        },
    });
    let configurations = webhook_server(WebhookOptions::default()).configurations(&deploy_options("webapp-webhook"));
    let header = "# Generated by examples/src/webapp/webhooks.rs (deploy_manifests); `cargo test --test webapp_webhooks` checks it.\n# Needs cert-manager. The operator's Deployment mounts Secret webapp-webhook-server-cert at --cert-dir\n# and serves port 9443 behind Service webapp-webhook-service (port 443).\n";
    Ok(format!(
        "{header}---\n{}---\n{}---\n{}",
        yaml(&issuer)?,
        yaml(&certificate)?,
        configurations.to_yaml()?
    ))
}

/// The webhooks called directly, as Go's scaffold tests call `ValidateCreate` and
/// `Default`: no server, no API server.
#[cfg(test)]
mod tests {
    use futures::executor::block_on;
    use wheelhouse::webhook::{Defaulter as _, Request, Validator as _};

    use super::*;

    fn webapp(image: &str, replicas: Option<i32>, port: Option<i32>) -> WebApp {
        let mut webapp = WebApp::new(
            "web",
            WebAppSpec {
                image: image.into(),
                replicas,
                port,
            },
        );
        webapp.metadata.namespace = Some("shop".into());
        webapp
    }

    #[test]
    fn the_defaulter_fills_in_replicas_port_and_the_label() {
        let mut object = webapp("nginx:1.27", None, None);
        let request = Request::create(&object);
        block_on(WebAppDefaulter.apply_defaults(&mut object, &request)).unwrap();
        assert_eq!(
            (object.spec.replicas, object.spec.port),
            (Some(DEFAULT_REPLICAS), Some(DEFAULT_PORT))
        );
        assert_eq!(object.metadata.labels.unwrap()[MANAGED_BY_LABEL], MANAGED_BY);
    }

    #[test]
    fn a_create_is_refused_with_every_problem_as_a_422() {
        let object = webapp("nginx", Some(0), Some(70000));
        let denied = block_on(WebAppValidator.validate_create(&object, &Request::create(&object))).unwrap_err();
        assert_eq!((denied.code(), denied.reason()), (422, "Invalid"));
        let fields: Vec<&str> = denied.field_errors().iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["spec.image", "spec.replicas", "spec.port"]);
        let pinned = webapp("nginx:1.27", Some(2), None);
        let request = Request::create(&pinned).with_dry_run(true).with_user("alice", ["devs"]);
        assert_eq!(
            block_on(WebAppValidator.validate_create(&pinned, &request)),
            Ok(Vec::new())
        );
    }

    #[test]
    fn an_update_may_not_move_a_valid_port() {
        let old = webapp("nginx:1.27", Some(2), Some(8080));
        let new = webapp("nginx:1.28", Some(3), Some(9090));
        let denied = block_on(WebAppValidator.validate_update(&old, &new, &Request::update(&old, &new))).unwrap_err();
        assert_eq!(denied.field_errors()[0].field, "spec.port");
        let rescaled = webapp("nginx:1.28", Some(3), Some(8080));
        let request = Request::update(&old, &rescaled);
        assert!(block_on(WebAppValidator.validate_update(&old, &rescaled, &request)).is_ok());
        assert!(block_on(WebAppValidator.validate_delete(&old, &Request::delete(&old))).is_ok());
    }
}
