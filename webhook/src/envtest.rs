//! Webhook tests in one line: [`serve`] serves a [`WebhookServer`] for a
//! [`TestEnv`]'s API server, registers its admission webhooks and its CRDs' conversions
//! there, and undoes it all when the environment stops.
//!
//! ```no_run
//! # async fn example(server: wheelhouse_webhook::WebhookServer) -> Result<(), Box<dyn std::error::Error>> {
//! let env = wheelhouse_envtest::TestEnv::start().await?;
//! wheelhouse_webhook::envtest::serve(&env, server).await?; // the server's webhooks now take effect
//! // ... create objects through env.client() and assert what the webhooks did ...
//! env.stop().await; // configurations deleted, conversions off, server stopped
//! # Ok(())
//! # }
//! ```
//!
//! What [`serve`] does, in order:
//! 1. serves the server on `127.0.0.1` at a free port, with a self-signed certificate,
//!    on threads of its own (so a current-thread test, or a reconciler spinning on the
//!    test's runtime, cannot keep it from answering the API server);
//! 2. labels the test's namespace and registers the admission configurations with a
//!    namespace selector on that label, so that on a shared cluster they see only this
//!    test's objects (named after the namespace, so tests do not overwrite each other's);
//! 3. installs each registered conversion's CRD with `spec.conversion` calling the
//!    server (strategy `Webhook`, the CA bundle) and waits until it is served;
//! 4. on a real API server, which loads webhook configurations asynchronously, waits
//!    until they take effect: it registers a probe webhook after them and sends dry-run
//!    creates until the probe is called (the API server reads configurations in the
//!    order they were written, so the test's are loaded by then);
//! 5. asks the environment ([`TestEnv::on_stop`]) to delete the configurations, turn
//!    the conversions it installed back to strategy `None` (a CRD another test has
//!    pointed elsewhere since is left alone; the CRD itself stays, since deleting it
//!    would delete every object of it in the cluster), and stop the server, when the
//!    environment stops, also after a panic.
//!
//! A CRD is cluster-wide, so on an existing cluster the tests of one process that
//! serve the same CRD's conversions take turns: each holds the CRD from [`serve`] until
//! its environment stops, and a test that serves it meanwhile waits (tests of other
//! CRDs, and every test on the embedded server, whose CRDs are its own, run at once).
//! So one environment must not serve the same CRD twice.
//!
//! **Why here, behind the `envtest` feature**: envtest is the API server, and depends
//! only on the selector crate and its own schema and validation crates, so that it
//! serves any operator framework's tests; the webhook crate (which uses the manager)
//! may depend on envtest without a cycle. The feature keeps the API server out of an
//! operator's binary: enable it in `[dev-dependencies]` only.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use k8s_openapi::api::admissionregistration::v1::{MutatingWebhookConfiguration, ValidatingWebhookConfiguration};
use k8s_openapi::api::core::v1::{ConfigMap, Namespace};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use kube::core::DynamicObject;
use kube::core::admission::{AdmissionRequest, AdmissionResponse};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use wheelhouse_envtest::TestEnv;
use wheelhouse_manager::{Certificates, Runnable, Stop};

use crate::{ClientConfig, ConfigurationOptions, Configurations, Error, WebhookServer};

/// The label on the test's namespace that its configurations select.
pub const NAMESPACE_LABEL: &str = "wheelhouse.rs/webhook-test";
/// The label of the dry-run objects that probe whether configurations took effect.
const PROBE_LABEL: &str = "wheelhouse.rs/webhook-probe";
const PROBE_MUTATE: &str = "/wheelhouse-envtest-probe-mutate";
const PROBE_VALIDATE: &str = "/wheelhouse-envtest-probe-validate";
/// How long a real API server may take to load the configurations.
const TAKE_EFFECT: Duration = Duration::from_secs(30);

/// Whether `env`'s API server can call a webhook served on this machine's `127.0.0.1`:
/// the embedded server always; a real one (an existing cluster, or the control plane of
/// `KUBEBUILDER_ASSETS`) when the environment's own configuration reaches it at a
/// loopback address (an API server in a container or elsewhere cannot call back). A
/// webhook test skips, saying why, when this is false.
#[allow(
    clippy::unused_async,
    reason = "public and awaited by its callers; it read the kubeconfig file asynchronously before"
)]
pub async fn calls_loopback(env: &TestEnv) -> bool {
    if env.is_embedded() {
        return true;
    }
    // The environment's configuration, not the ambient kubeconfig: the control plane of
    // KUBEBUILDER_ASSETS has a generated one of its own.
    let Ok(config) = env.config_for("wheelhouse-loopback-probe") else {
        return false;
    };
    let host = config.cluster_url.host().unwrap_or_default().to_owned();
    matches!(host.as_str(), "127.0.0.1" | "localhost" | "[::1]" | "::1")
}

/// What [`serve`] registered, for a test that asserts on it.
#[derive(Debug, Clone)]
pub struct Served {
    address: SocketAddr,
    ca_bundle: String,
    configurations: Configurations,
    crds: Vec<CustomResourceDefinition>,
}

impl Served {
    /// Where the server listens (`127.0.0.1`, a free port).
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The CA bundle (PEM) that verifies the server's self-signed certificate: for a
    /// configuration a test registers itself (a raw handler's, say).
    pub fn ca_bundle(&self) -> &str {
        &self.ca_bundle
    }

    /// The admission configurations registered.
    pub fn configurations(&self) -> &Configurations {
        &self.configurations
    }

    /// The CRDs installed, with their conversion webhook.
    pub fn crds(&self) -> &[CustomResourceDefinition] {
        &self.crds
    }
}

/// Serves `server` for `env`'s API server and registers its webhooks and conversions
/// there until `env` stops: see the [module](self). The server's host, port and
/// certificates are replaced (loopback, a free port, self-signed); the rest of its
/// options stay.
///
/// # Errors
/// When the server does not bind (a registration mistake, such as two webhooks at one
/// path), the API server refuses a configuration or a CRD, or, on a real cluster, the
/// configurations do not take effect within 30 s. What was registered before the
/// failure is still undone when `env` stops.
pub async fn serve(env: &TestEnv, mut server: WebhookServer) -> Result<Served, Error> {
    let certificates = Certificates::self_signed(["127.0.0.1"])?;
    {
        let options = server.options_mut();
        options.host = [127, 0, 0, 1].into();
        options.port = 0;
        options.certificates = Some(certificates.clone());
    }
    let admission = server.registrations().next().is_some();
    let probes = Probes::default();
    if admission {
        server = server
            .handler(PROBE_MUTATE, Probes::handler(&probes.mutated))
            .handler(PROBE_VALIDATE, Probes::handler(&probes.validated));
    }
    let address = server.bind()?;
    let namespace = env.namespace().to_owned();
    let mut options = ConfigurationOptions::new(
        format!("{namespace}-webhooks"),
        ClientConfig::Url(format!("https://{address}")),
    );
    options.ca_bundle = Some(certificates.ca_bundle().to_owned());
    options.namespace_selector = Some(LabelSelector {
        match_labels: Some(BTreeMap::from([(NAMESPACE_LABEL.to_owned(), namespace.clone())])),
        ..LabelSelector::default()
    });
    let configurations = server.configurations(&options);
    let crds = server
        .conversions()
        .iter()
        .map(|conversion| conversion.crd_with_webhook(&options))
        .collect::<Result<Vec<_>, _>>()?;

    // On a shared cluster, the CRDs are this test's until its environment stops.
    let mut names: Vec<String> = crds.iter().filter_map(|crd| crd.metadata.name.clone()).collect();
    names.sort();
    let mut held = Vec::new();
    if !env.is_embedded() {
        for name in &names {
            held.push(crd_lock(name).lock_owned().await);
        }
    }
    // Serving first, and its undoing registered before anything that calls it.
    let running = Running::start(server)?;
    let undo = Undo {
        configurations: configurations.clone(),
        probe: probe_name(&namespace),
        crds: names,
        url: format!("https://{address}"),
        running,
        held,
    };
    env.on_stop(move |client| undo.run(client));

    let client = env.client();
    let labels = json!({"metadata": {"labels": {NAMESPACE_LABEL: namespace}}});
    Api::<Namespace>::all(client.clone())
        .patch(&namespace, &PatchParams::default(), &Patch::Merge(&labels))
        .await?;
    configurations.apply(&client).await?;
    for crd in &crds {
        env.install_crd(crd).await.map_err(|e| Error::TestEnv(e.to_string()))?;
    }
    if admission && !env.is_embedded() {
        probes.wait(&client, &options).await?;
    }
    Ok(Served {
        address,
        ca_bundle: certificates.ca_bundle().to_owned(),
        configurations,
        crds,
    })
}

/// The probe webhooks' calls: one configuration of each kind, registered after the
/// test's, whose webhook counts what it is sent and allows it.
#[derive(Default)]
struct Probes {
    mutated: Arc<AtomicUsize>,
    validated: Arc<AtomicUsize>,
}

impl Probes {
    fn handler(
        calls: &Arc<AtomicUsize>,
    ) -> impl Fn(AdmissionRequest<DynamicObject>) -> std::future::Ready<AdmissionResponse> + Send + Sync + 'static {
        let calls = calls.clone();
        move |request| {
            calls.fetch_add(1, Ordering::AcqRel);
            std::future::ready(AdmissionResponse::from(&request))
        }
    }

    fn seen(&self) -> bool {
        self.mutated.load(Ordering::Acquire) > 0 && self.validated.load(Ordering::Acquire) > 0
    }

    /// Registers the probe configurations, sends dry-run creates of a labelled
    /// `ConfigMap` until both probes are called, then removes them.
    async fn wait(&self, client: &kube::Client, options: &ConfigurationOptions) -> Result<(), Error> {
        let name = probe_name(options.name.trim_end_matches("-webhooks"));
        let (mutating, validating) = probe_configurations(&name, options)?;
        let params = PatchParams::apply("wheelhouse-envtest").force();
        let mutatings: Api<MutatingWebhookConfiguration> = Api::all(client.clone());
        let validatings: Api<ValidatingWebhookConfiguration> = Api::all(client.clone());
        mutatings.patch(&name, &params, &Patch::Apply(&mutating)).await?;
        validatings.patch(&name, &params, &Patch::Apply(&validating)).await?;
        let namespace = options
            .namespace_selector
            .as_ref()
            .and_then(|s| s.match_labels.as_ref())
            .and_then(|labels| labels.get(NAMESPACE_LABEL))
            .cloned()
            .unwrap_or_default();
        let configmaps: Api<ConfigMap> = Api::namespaced(client.clone(), &namespace);
        let probe: ConfigMap =
            typed(json!({"metadata": {"generateName": "webhook-probe-", "labels": {PROBE_LABEL: "true"}}}))?;
        let dry_run = PostParams {
            dry_run: true,
            ..PostParams::default()
        };
        let deadline = tokio::time::Instant::now() + TAKE_EFFECT;
        while !self.seen() && tokio::time::Instant::now() < deadline {
            // Refused or not, what counts is whether the probes were called.
            let _ = configmaps.create(&dry_run, &probe).await;
            if !self.seen() {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        let _ = mutatings.delete(&name, &DeleteParams::default()).await;
        let _ = validatings.delete(&name, &DeleteParams::default()).await;
        if self.seen() {
            Ok(())
        } else {
            Err(Error::TestEnv(format!(
                "the API server did not call the webhooks within {} s of their registration",
                TAKE_EFFECT.as_secs()
            )))
        }
    }
}

fn probe_name(namespace: &str) -> String {
    format!("{namespace}-webhook-probe")
}

fn typed<T: DeserializeOwned>(value: Value) -> Result<T, Error> {
    serde_json::from_value(value).map_err(|e| Error::TestEnv(format!("a probe configuration: {e}")))
}

/// The probe configurations: `ConfigMap` creates in the test's namespace that carry
/// the probe label, sent to the probe paths.
fn probe_configurations(
    name: &str,
    options: &ConfigurationOptions,
) -> Result<(MutatingWebhookConfiguration, ValidatingWebhookConfiguration), Error> {
    let base = match &options.client {
        ClientConfig::Url(base) => base.trim_end_matches('/').to_owned(),
        ClientConfig::Service { .. } => return Err(Error::TestEnv("the probe needs a URL".into())),
    };
    let ca_bundle = options.ca_bundle.as_ref().map(|pem| {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.encode(pem)
    });
    let webhook = |path: &str| {
        json!({
            "name": "probe.envtest.wheelhouse.rs",
            "clientConfig": {"url": format!("{base}{path}"), "caBundle": ca_bundle},
            "rules": [{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["configmaps"]}],
            "namespaceSelector": options.namespace_selector,
            "objectSelector": {"matchLabels": {PROBE_LABEL: "true"}},
            "sideEffects": "None",
            "admissionReviewVersions": ["v1"],
            "failurePolicy": "Ignore",
            "timeoutSeconds": 5,
        })
    };
    let mutating = typed(json!({
        "apiVersion": "admissionregistration.k8s.io/v1", "kind": "MutatingWebhookConfiguration",
        "metadata": {"name": name}, "webhooks": [webhook(PROBE_MUTATE)],
    }))?;
    let validating = typed(json!({
        "apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingWebhookConfiguration",
        "metadata": {"name": name}, "webhooks": [webhook(PROBE_VALIDATE)],
    }))?;
    Ok((mutating, validating))
}

/// The server on threads of its own, until stopped.
struct Running {
    runtime: Option<tokio::runtime::Runtime>,
    stop: CancellationToken,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl Running {
    fn start(server: WebhookServer) -> Result<Self, Error> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("envtest-webhooks")
            .enable_all()
            .build()
            .map_err(|e| Error::TestEnv(format!("the webhook server's threads: {e}")))?;
        let stop = CancellationToken::new();
        let signal = Stop::new(stop.clone());
        let task = runtime.spawn(async move {
            if let Err(error) = server.start(signal).await {
                tracing::error!(%error, "the test's webhook server failed");
            }
        });
        Ok(Self {
            runtime: Some(runtime),
            stop,
            task: Some(task),
        })
    }

    /// Stops the server gracefully (bounded), then its threads.
    async fn stop(mut self) {
        self.stop.cancel();
        if let Some(task) = self.task.take() {
            let _ = tokio::time::timeout(Duration::from_secs(10), task).await;
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop.cancel();
        // Never blocks, so it is safe inside async code.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// What [`serve`] registered, undone when the environment stops.
struct Undo {
    configurations: Configurations,
    probe: String,
    crds: Vec<String>,
    url: String,
    running: Running,
    /// The CRDs' turns, given back once they no longer call this server.
    held: Vec<tokio::sync::OwnedMutexGuard<()>>,
}

impl Undo {
    async fn run(self, client: kube::Client) {
        if let Err(error) = self.configurations.delete(&client).await {
            tracing::warn!(%error, "could not delete the test's webhook configurations");
        }
        let _ = Api::<MutatingWebhookConfiguration>::all(client.clone())
            .delete(&self.probe, &DeleteParams::default())
            .await;
        let _ = Api::<ValidatingWebhookConfiguration>::all(client.clone())
            .delete(&self.probe, &DeleteParams::default())
            .await;
        let crds: Api<CustomResourceDefinition> = Api::all(client);
        for name in &self.crds {
            if let Err(error) = stop_converting(&crds, name, &self.url).await {
                tracing::warn!(crd = %name, %error, "could not take the test's conversion webhook out of the CRD");
            }
        }
        self.running.stop().await;
        drop(self.held);
    }
}

/// The turn of the tests of this process at serving the CRD `name` on a shared cluster.
fn crd_lock(name: &str) -> Arc<tokio::sync::Mutex<()>> {
    static TURNS: std::sync::OnceLock<parking_lot::Mutex<BTreeMap<String, Arc<tokio::sync::Mutex<()>>>>> =
        std::sync::OnceLock::new();
    TURNS
        .get_or_init(Default::default)
        .lock()
        .entry(name.to_owned())
        .or_default()
        .clone()
}

/// Turns the CRD's conversion back to strategy `None` if it still calls `url`, on the
/// revision read (a CRD another test re-pointed meanwhile is left to it).
async fn stop_converting(crds: &Api<CustomResourceDefinition>, name: &str, url: &str) -> Result<(), kube::Error> {
    let Some(crd) = crds.get_opt(name).await? else {
        return Ok(());
    };
    let calls_us = crd
        .spec
        .conversion
        .as_ref()
        .and_then(|c| c.webhook.as_ref())
        .and_then(|w| w.client_config.as_ref())
        .and_then(|c| c.url.as_deref())
        .is_some_and(|called| called.starts_with(url));
    if !calls_us {
        return Ok(());
    }
    let none = json!({
        "metadata": {"resourceVersion": crd.metadata.resource_version},
        "spec": {"conversion": {"strategy": "None", "webhook": null}},
    });
    crds.patch(name, &PatchParams::default(), &Patch::Merge(&none)).await?;
    Ok(())
}
