//! What every conformance area shares: starting an environment, waiting for a
//! condition without assuming the server's timing, reading API errors, and builders
//! for the objects the tests write.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::api::{Api, ApiResource, DeleteParams, DynamicObject, GroupVersionKind, ListParams};
use kube::core::Status;
use kube::runtime::{WatchStreamExt, watcher};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use wheelhouse_envtest::TestEnv;

/// How long any condition may take to become true; generous, so that a busy real
/// cluster passes the same assertions as the embedded server.
pub(crate) const TIMEOUT: Duration = Duration::from_secs(30);

/// How often a waiting test checks its condition again.
const POLL: Duration = Duration::from_millis(50);

/// A pause image: small, and never run on the embedded server.
pub(crate) const IMAGE: &str = "registry.k8s.io/pause:3.10";

/// The environment `USE_EXISTING_CLUSTER` asks for, with a fresh namespace.
pub(crate) async fn start() -> TestEnv {
    TestEnv::start().await.expect("the test environment starts")
}

pub(crate) use wheelhouse_envtest::{eventually, eventually_within};

/// The `Status` of a request the server refused; panics on success or on a transport
/// error, which are both failures of the test.
pub(crate) fn api_error<T: std::fmt::Debug>(result: Result<T, kube::Error>) -> Status {
    match result {
        Err(kube::Error::Api(status)) => *status,
        other => panic!("expected the server to refuse the request with a Status, got {other:?}"),
    }
}

/// True once `name` no longer exists.
pub(crate) async fn is_gone<K>(api: &Api<K>, name: &str) -> bool
where
    K: Clone + DeserializeOwned + std::fmt::Debug,
{
    api.get_opt(name).await.expect("get succeeds").is_none()
}

/// Waits until `name` no longer exists.
pub(crate) async fn wait_gone<K>(api: &Api<K>, name: &str)
where
    K: Clone + DeserializeOwned + std::fmt::Debug,
{
    eventually(&format!("{name} to be deleted"), || async {
        is_gone(api, name).await.then_some(())
    })
    .await;
}

/// The test's client, without the retries of 429 answers that kube adds for clusters.
pub(crate) async fn client_without_retries(env: &wheelhouse_envtest::TestEnv) -> kube::Client {
    if env.is_embedded() {
        return env.client();
    }
    // The environment's own configuration: the ambient kubeconfig of an existing
    // cluster, or the generated one of the KUBEBUILDER_ASSETS control plane.
    let mut config = env.config_for("conformance").expect("the configuration of the cluster");
    config.default_retry = false;
    kube::Client::try_from(config).expect("a client")
}

/// Tests of controller behaviour return early unless controllers run, with the reason.
pub(crate) fn skip_without_controllers(env: &TestEnv, what: &str) -> bool {
    if env.runs_controllers() {
        return false;
    }
    eprintln!(
        "skipped: {what} needs kube-controller-manager, which {} does not run (ENVTEST_CONTROLLERS=true says an existing cluster does)",
        env.backend().describe()
    );
    true
}

/// Tests of what only the embedded server offers return early on a real cluster.
pub(crate) fn skip_unless_embedded(env: &TestEnv, what: &str) -> bool {
    if env.is_embedded() {
        return false;
    }
    eprintln!(
        "skipped: {what} needs the embedded API server, not {}",
        env.backend().describe()
    );
    true
}

/// Tests that serve a webhook on 127.0.0.1 return early where the API server cannot
/// call it: it can from the embedded server and from a real one on this machine (its
/// URL a loopback address, as the control plane of `KUBEBUILDER_ASSETS`'s is).
pub(crate) fn skip_unless_loopback_reachable(env: &TestEnv, what: &str) -> bool {
    if env.is_embedded() {
        return false;
    }
    let host = env
        .config_for("loopback-probe")
        .ok()
        .and_then(|config| config.cluster_url.host().map(str::to_owned))
        .unwrap_or_default();
    if matches!(host.as_str(), "127.0.0.1" | "localhost" | "[::1]" | "::1") {
        return false;
    }
    eprintln!(
        "skipped: {what} needs an API server on this machine, which {} at {host} is not",
        env.backend().describe()
    );
    true
}

/// Deserializes a typed object from JSON written in the test.
pub(crate) fn from_json<T: DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).expect("the test's JSON matches the type")
}

/// A `ConfigMap` with labels and data.
pub(crate) fn configmap(name: &str, labels: &[(&str, &str)], data: &[(&str, &str)]) -> ConfigMap {
    let labels: BTreeMap<&str, &str> = labels.iter().copied().collect();
    let data: BTreeMap<&str, &str> = data.iter().copied().collect();
    from_json(json!({"metadata": {"name": name, "labels": labels}, "data": data}))
}

/// The resourceVersion of an object as a number: opaque to clients, but an etcd
/// revision on every real server, and what the tests compare.
/// The resourceVersion of a list of `api`: where a watch starts to see every later change.
pub(crate) async fn list_version(api: &Api<ConfigMap>) -> String {
    api.list(&ListParams::default())
        .await
        .expect("list")
        .metadata
        .resource_version
        .expect("a list carries a resourceVersion")
}

pub(crate) fn revision(metadata: &ObjectMeta) -> u64 {
    let version = metadata
        .resource_version
        .as_deref()
        .expect("the object has a resourceVersion");
    version
        .parse()
        .unwrap_or_else(|_| panic!("resourceVersion {version} is a number"))
}

/// A Deployment of `replicas` with the given containers (JSON array).
pub(crate) fn deployment(name: &str, replicas: i32, containers: &Value) -> Deployment {
    from_json(json!({
        "metadata": {"name": name},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": containers}},
        },
    }))
}

/// Deletes and ignores "not found": cleanup of cluster-scoped objects on a real cluster.
pub(crate) async fn delete_quietly<K>(api: &Api<K>, name: &str)
where
    K: Clone + DeserializeOwned + std::fmt::Debug,
{
    match api.delete(name, &DeleteParams::default()).await {
        Ok(_) => {}
        Err(kube::Error::Api(status)) if status.code == 404 => {}
        Err(error) => panic!("deleting {name} failed: {error}"),
    }
}

/// A custom resource type of the test's own, in a group named after the test's
/// namespace, so that tests running at once on one cluster never share a CRD.
pub(crate) struct CustomType {
    pub(crate) crd: CustomResourceDefinition,
    pub(crate) resource: ApiResource,
}

impl CustomType {
    /// A CRD `kind` (plural `plural`), namespaced or cluster-scoped, with a status and a
    /// scale subresource (`.spec.replicas`, `.status.replicas`).
    pub(crate) fn new(env: &TestEnv, kind: &str, plural: &str, namespaced: bool) -> Self {
        let group = format!("{}.conformance.wheelhouse.rs", env.namespace());
        let open = json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {"replicas": {"type": "integer"}}});
        let crd = from_json(json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": format!("{plural}.{group}")},
            "spec": {
                "group": group,
                "scope": if namespaced { "Namespaced" } else { "Cluster" },
                "names": {
                    "plural": plural,
                    "singular": kind.to_ascii_lowercase(),
                    "kind": kind,
                    "listKind": format!("{kind}List"),
                },
                "versions": [{
                    "name": "v1",
                    "served": true,
                    "storage": true,
                    "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": open, "status": open}}},
                    "subresources": {
                        "status": {},
                        "scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"},
                    },
                }],
            },
        }));
        let resource = ApiResource::from_gvk_with_plural(&GroupVersionKind::gvk(&group, "v1", kind), plural);
        Self { crd, resource }
    }

    /// The CRD's name, `<plural>.<group>`.
    pub(crate) fn name(&self) -> String {
        self.crd.metadata.name.clone().unwrap_or_default()
    }

    /// Installs the CRD and waits until its resource is served.
    pub(crate) async fn install(&self, env: &TestEnv) {
        env.install_crd(&self.crd)
            .await
            .expect("the CRD is installed and served");
    }

    /// Objects of the type in the test's namespace.
    pub(crate) fn namespaced(&self, env: &TestEnv) -> Api<DynamicObject> {
        Api::namespaced_with(env.client(), env.namespace(), &self.resource)
    }

    /// Objects of the type across the cluster (cluster-scoped types).
    pub(crate) fn all(&self, env: &TestEnv) -> Api<DynamicObject> {
        Api::all_with(env.client(), &self.resource)
    }

    /// An object of the type, from `spec` (and `status`, which the server must drop).
    pub(crate) fn object(&self, name: &str, body: &Value) -> DynamicObject {
        object_of(&self.resource, name, body)
    }

    /// Deletes the CRD (and with it its objects); a real cluster keeps no leftovers.
    pub(crate) async fn remove(&self, env: &TestEnv) {
        let crds: Api<CustomResourceDefinition> = Api::all(env.client());
        delete_quietly(&crds, &self.name()).await;
    }
}

/// An object of `resource` called `name`, with the fields of `body` (`spec`, `status`).
pub(crate) fn object_of(resource: &ApiResource, name: &str, body: &Value) -> DynamicObject {
    let mut object = json!({"apiVersion": resource.api_version, "kind": resource.kind, "metadata": {"name": name}});
    if let (Some(object), Some(body)) = (object.as_object_mut(), body.as_object()) {
        object.extend(body.clone());
    }
    from_json(object)
}

/// The name → resourceVersion of the `ConfigMaps` matching `selector` on the server.
pub(crate) async fn server_versions(api: &Api<ConfigMap>, selector: &str) -> BTreeMap<String, String> {
    let list = api
        .list(&ListParams::default().labels(selector))
        .await
        .expect("list succeeds");
    list.items
        .into_iter()
        .map(|cm| {
            (
                cm.metadata.name.unwrap_or_default(),
                cm.metadata.resource_version.unwrap_or_default(),
            )
        })
        .collect()
}

/// A local copy of the `ConfigMaps` a `kube::runtime::watcher` reports, as a reflector
/// keeps it: the state a controller would act on.
pub(crate) struct Mirror {
    objects: Arc<Mutex<BTreeMap<String, ConfigMap>>>,
    /// How many initial lists the watcher started (1, plus one per relist).
    lists: Arc<AtomicUsize>,
    /// Objects an initial list reported twice: a list must hold each object once.
    duplicates: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl Mirror {
    /// Starts a watcher with the default backoff over `api` with `config`.
    pub(crate) fn start(api: Api<ConfigMap>, config: watcher::Config) -> Self {
        let objects: Arc<Mutex<BTreeMap<String, ConfigMap>>> = Arc::default();
        let lists = Arc::new(AtomicUsize::new(0));
        let duplicates = Arc::new(AtomicUsize::new(0));
        let (shared, list_count, duplicate_count) = (objects.clone(), lists.clone(), duplicates.clone());
        let task = tokio::spawn(async move {
            let mut pending: BTreeMap<String, ConfigMap> = BTreeMap::new();
            let mut stream = watcher(api, config).default_backoff().boxed();
            while let Some(event) = stream.next().await {
                let Ok(event) = event else { continue };
                match event {
                    watcher::Event::Init => {
                        pending.clear();
                        list_count.fetch_add(1, Ordering::SeqCst);
                    }
                    watcher::Event::InitApply(object) => {
                        let name = object.metadata.name.clone().unwrap_or_default();
                        if pending.insert(name, object).is_some() {
                            duplicate_count.fetch_add(1, Ordering::SeqCst);
                        }
                    }
                    watcher::Event::InitDone => *shared.lock().unwrap() = std::mem::take(&mut pending),
                    watcher::Event::Apply(object) => {
                        let name = object.metadata.name.clone().unwrap_or_default();
                        shared.lock().unwrap().insert(name, object);
                    }
                    watcher::Event::Delete(object) => {
                        shared
                            .lock()
                            .unwrap()
                            .remove(object.metadata.name.as_deref().unwrap_or_default());
                    }
                }
            }
        });
        Self {
            objects,
            lists,
            duplicates,
            task,
        }
    }

    /// name → resourceVersion of the mirrored objects.
    pub(crate) fn versions(&self) -> BTreeMap<String, String> {
        self.objects
            .lock()
            .unwrap()
            .iter()
            .map(|(name, cm)| (name.clone(), cm.metadata.resource_version.clone().unwrap_or_default()))
            .collect()
    }

    /// The mirrored object called `name`.
    pub(crate) fn get(&self, name: &str) -> Option<ConfigMap> {
        self.objects.lock().unwrap().get(name).cloned()
    }

    /// How many initial lists the watcher has started.
    pub(crate) fn lists(&self) -> usize {
        self.lists.load(Ordering::SeqCst)
    }

    /// How many objects an initial list reported more than once.
    pub(crate) fn duplicates(&self) -> usize {
        self.duplicates.load(Ordering::SeqCst)
    }

    /// Waits until the mirror holds exactly the matching objects of the server, at
    /// their current resourceVersions.
    pub(crate) async fn wait_in_sync(&self, api: &Api<ConfigMap>, selector: &str) {
        let deadline = tokio::time::Instant::now() + TIMEOUT;
        loop {
            let expected = server_versions(api, selector).await;
            let seen = self.versions();
            if expected == seen {
                return;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "the watcher's state did not match the server within {TIMEOUT:?}: server {expected:?}, watcher {seen:?}"
            );
            tokio::time::sleep(POLL).await;
        }
    }
}

impl Drop for Mirror {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// What a test webhook server keeps: every review it received, with its path.
pub(crate) type Reviews = std::sync::Arc<std::sync::Mutex<Vec<(String, serde_json::Value)>>>;

/// An HTTPS server on 127.0.0.1 with a self-signed certificate, as the admission and
/// conversion tests' webhooks are: it records every review it receives with its path,
/// and answers with the JSON `answer` makes of them. Its base URL, its CA as a
/// `caBundle`, and the record. A kube-apiserver on this machine reaches it by `url` as
/// the embedded one does.
pub(crate) async fn serve_webhooks<F, Fut>(answer: F) -> (String, String, Reviews)
where
    F: Fn(String, serde_json::Value) -> Fut + Clone + Send + Sync + 'static,
    Fut: std::future::Future<Output = serde_json::Value> + Send + 'static,
{
    use base64::Engine as _;
    use http_body_util::BodyExt as _;
    use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};

    let certified = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned(), "localhost".to_owned()]).unwrap();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(certified.signing_key.serialize_der()));
    let config =
        rustls::ServerConfig::builder_with_provider(std::sync::Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(vec![certified.cert.der().clone()], key)
            .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(std::sync::Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("https://{}", listener.local_addr().unwrap());
    let ca_bundle = base64::engine::general_purpose::STANDARD.encode(certified.cert.pem());
    let reviews = Reviews::default();
    let record = reviews.clone();
    tokio::spawn(async move {
        loop {
            let Ok((tcp, _)) = listener.accept().await else { return };
            let (acceptor, reviews, answer) = (acceptor.clone(), record.clone(), answer.clone());
            tokio::spawn(async move {
                let Ok(tls) = acceptor.accept(tcp).await else { return };
                let service = hyper::service::service_fn(move |request: http::Request<hyper::body::Incoming>| {
                    let (reviews, answer) = (reviews.clone(), answer.clone());
                    async move {
                        let path = request.uri().path().to_owned();
                        let body = request
                            .into_body()
                            .collect()
                            .await
                            .map(http_body_util::Collected::to_bytes)
                            .unwrap_or_default();
                        let review: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
                        reviews.lock().unwrap().push((path.clone(), review.clone()));
                        let reply = answer(path, review).await;
                        Ok::<_, std::convert::Infallible>(http::Response::new(http_body_util::Full::new(
                            bytes::Bytes::from(reply.to_string()),
                        )))
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(tls), service)
                    .await;
            });
        }
    });
    (base, ca_bundle, reviews)
}
