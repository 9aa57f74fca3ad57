//! Multi-version CRDs as kube-apiserver serves them: objects stored in the storage
//! version and converted by the CRD's conversion webhook for the version a request
//! names (reads, lists, watches and writes), kube-apiserver's 500 when the webhook
//! fails, `matchPolicy: Equivalent` admission webhooks called with the object converted
//! to their version, `status.storedVersions`, deprecation warnings, and the CRD update
//! rules for versions and conversion.
//!
//! The webhooks are this test's own HTTPS server on 127.0.0.1 (hyper and rustls, with a
//! self-signed certificate given as `caBundle`), which a kube-apiserver on the same
//! machine reaches by `url` as the embedded server does, so every test runs on both.
//! Each test has a CRD group named after its namespace and removes what it made.

use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use futures::{StreamExt, TryStreamExt};
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use k8s_openapi::api::admissionregistration::v1::{MutatingWebhookConfiguration, ValidatingWebhookConfiguration};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{
    Api, ApiResource, DynamicObject, GroupVersionKind, ListParams, Patch, PatchParams, PostParams, WatchEvent,
    WatchParams,
};
use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;
use wheelhouse_envtest::TestEnv;

use crate::common::{api_error, delete_quietly, eventually, from_json, start};

/// An HTTPS server for conversion and admission webhooks. `/convert` converts
/// `Widget`s between v1 (`spec.size`) and v2 (`spec.replicas`); `/fail` answers every
/// review with a failure; `/rename` renames what it converts; `/validate` allows
/// everything and `/mutate` sets `spec.replicas: 5` and the label `mutated=true` by
/// `JSONPatch`. Every review it receives is recorded with its path.
struct Webhooks {
    base: String,
    ca_bundle: String,
    reviews: Arc<Mutex<Vec<(String, Value)>>>,
}

impl Webhooks {
    async fn start() -> Self {
        let certified =
            rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned(), "localhost".to_owned()]).unwrap();
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(certified.signing_key.serialize_der()));
        let config = rustls::ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(vec![certified.cert.der().clone()], key)
            .unwrap();
        let acceptor = TlsAcceptor::from(Arc::new(config));
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let webhooks = Self {
            base: format!("https://{}", listener.local_addr().unwrap()),
            ca_bundle: STANDARD.encode(certified.cert.pem()),
            reviews: Arc::default(),
        };
        let reviews = webhooks.reviews.clone();
        tokio::spawn(async move {
            loop {
                let Ok((tcp, _)) = listener.accept().await else { return };
                let (acceptor, reviews) = (acceptor.clone(), reviews.clone());
                tokio::spawn(async move {
                    let Ok(tls) = acceptor.accept(tcp).await else { return };
                    let service = hyper::service::service_fn(move |request| answer(request, reviews.clone()));
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(tls), service)
                        .await;
                });
            }
        });
        webhooks
    }

    fn client_config(&self, path: &str) -> Value {
        json!({"url": format!("{}{path}", self.base), "caBundle": self.ca_bundle})
    }

    fn reviews(&self, path: &str) -> Vec<Value> {
        let reviews = self.reviews.lock().unwrap();
        reviews
            .iter()
            .filter(|(p, _)| p == path)
            .map(|(_, r)| r.clone())
            .collect()
    }
}

/// A `Widget` converted to `desired`: v1 keeps the size as `spec.size`, v2 as
/// `spec.replicas`.
fn convert_widget(object: &Value, desired: &str) -> Value {
    let mut converted = object.clone();
    let spec = object["spec"].as_object().cloned().unwrap_or_default();
    let size = spec.get("size").or_else(|| spec.get("replicas")).cloned();
    let mut new_spec = serde_json::Map::new();
    if let Some(size) = size {
        let field = if desired.ends_with("/v2") { "replicas" } else { "size" };
        new_spec.insert(field.to_owned(), size);
    }
    converted["spec"] = Value::Object(new_spec);
    converted["apiVersion"] = json!(desired);
    converted
}

async fn answer(
    request: http::Request<Incoming>,
    reviews: Arc<Mutex<Vec<(String, Value)>>>,
) -> Result<http::Response<Full<Bytes>>, Infallible> {
    let path = request.uri().path().to_owned();
    let body = request
        .into_body()
        .collect()
        .await
        .map(http_body_util::Collected::to_bytes)
        .unwrap_or_default();
    let review: Value = serde_json::from_slice(&body).unwrap_or_default();
    reviews.lock().unwrap().push((path.clone(), review.clone()));
    let uid = review["request"]["uid"].clone();
    let desired = review["request"]["desiredAPIVersion"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let objects = review["request"]["objects"].as_array().cloned().unwrap_or_default();
    let answer = match path.as_str() {
        "/convert" | "/rename" => {
            let converted: Vec<Value> = objects
                .iter()
                .map(|object| {
                    let mut converted = convert_widget(object, &desired);
                    if path == "/rename" {
                        converted["metadata"]["name"] = json!("renamed");
                    }
                    converted
                })
                .collect();
            let response = json!({"uid": uid, "result": {"status": "Success"}, "convertedObjects": converted});
            json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview", "response": response})
        }
        "/fail" => {
            let response =
                json!({"uid": uid, "result": {"status": "Failure", "message": "widgets cannot convert today"}});
            json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview", "response": response})
        }
        "/mutate" => {
            let operations = json!([
                {"op": "add", "path": "/spec/replicas", "value": 5},
                {"op": "add", "path": "/metadata/labels", "value": {"mutated": "true"}},
            ]);
            let response = json!({"uid": uid, "allowed": true, "patchType": "JSONPatch", "patch": STANDARD.encode(operations.to_string())});
            json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": response})
        }
        _ => {
            json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": {"uid": uid, "allowed": true}})
        }
    };
    Ok(http::Response::new(Full::new(Bytes::from(answer.to_string()))))
}

/// The test's `Widget` CRD: v1 (`spec.size`) and v2 (`spec.replicas`), in a group of
/// the test's own.
struct Widgets {
    group: String,
}

impl Widgets {
    fn new(env: &TestEnv) -> Self {
        Self {
            group: format!("{}.conversion.wheelhouse.rs", env.namespace()),
        }
    }

    fn name(&self) -> String {
        format!("widgets.{}", self.group)
    }

    fn version(name: &str, storage: bool, field: &str) -> Value {
        let spec = json!({"type": "object", "properties": {field: {"type": "integer"}}});
        json!({"name": name, "served": true, "storage": storage,
            "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": spec}}}})
    }

    /// The CRD with `versions` and `conversion` (omitted when null).
    fn crd(&self, versions: &[Value], conversion: &Value) -> CustomResourceDefinition {
        let mut crd = json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": self.name()},
            "spec": {
                "group": self.group,
                "scope": "Namespaced",
                "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
                "versions": versions,
            },
        });
        if !conversion.is_null() {
            crd["spec"]["conversion"] = conversion.clone();
        }
        from_json(crd)
    }

    /// v1 stored, v2 served, converted by the webhook at `path`.
    fn with_webhook(&self, webhooks: &Webhooks, path: &str) -> CustomResourceDefinition {
        let conversion = json!({"strategy": "Webhook", "webhook": {
            "clientConfig": webhooks.client_config(path), "conversionReviewVersions": ["v1"]}});
        self.crd(
            &[
                Self::version("v1", true, "size"),
                Self::version("v2", false, "replicas"),
            ],
            &conversion,
        )
    }

    fn api(&self, env: &TestEnv, version: &str) -> Api<DynamicObject> {
        let resource =
            ApiResource::from_gvk_with_plural(&GroupVersionKind::gvk(&self.group, version, "Widget"), "widgets");
        Api::namespaced_with(env.client(), env.namespace(), &resource)
    }

    fn object(&self, version: &str, name: &str, spec: &Value) -> DynamicObject {
        from_json(
            json!({"apiVersion": format!("{}/{version}", self.group), "kind": "Widget",
            "metadata": {"name": name}, "spec": spec}),
        )
    }

    async fn remove(&self, env: &TestEnv) {
        let crds: Api<CustomResourceDefinition> = Api::all(env.client());
        delete_quietly(&crds, &self.name()).await;
    }
}

fn spec_of(object: &DynamicObject) -> Value {
    object.data["spec"].clone()
}

/// A v2 write goes through the webhook into the v1 storage version; each version reads
/// its own shape back (get, list and watch), and the webhook saw `ConversionReview`s.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conversion_webhook_converts_reads_lists_watches_and_writes() {
    let env = start().await;
    let webhooks = Webhooks::start().await;
    let widgets = Widgets::new(&env);
    env.install_crd(&widgets.with_webhook(&webhooks, "/convert"))
        .await
        .unwrap();
    let (v1, v2) = (widgets.api(&env, "v1"), widgets.api(&env, "v2"));

    let created = eventually("the conversion webhook to be reachable", || async {
        v2.create(
            &PostParams::default(),
            &widgets.object("v2", "a", &json!({"replicas": 3})),
        )
        .await
        .ok()
    })
    .await;
    assert_eq!(
        created.types.as_ref().unwrap().api_version,
        format!("{}/v2", widgets.group)
    );
    assert_eq!(
        spec_of(&created),
        json!({"replicas": 3}),
        "the answer is in the version written"
    );

    // Stored as v1: read at v1 it has v1's field, not v2's.
    let stored = v1.get("a").await.unwrap();
    assert_eq!(spec_of(&stored), json!({"size": 3}));
    assert_eq!(spec_of(&v2.get("a").await.unwrap()), json!({"replicas": 3}));

    v1.create(&PostParams::default(), &widgets.object("v1", "b", &json!({"size": 7})))
        .await
        .unwrap();
    let listed = v2.list(&ListParams::default()).await.unwrap();
    let specs: Vec<Value> = listed.items.iter().map(spec_of).collect();
    assert_eq!(specs, vec![json!({"replicas": 3}), json!({"replicas": 7})]);

    // An update at v2 of an object stored at v1.
    let patch = json!({"spec": {"replicas": 4}});
    let patched = v2
        .patch("b", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .unwrap();
    assert_eq!(spec_of(&patched), json!({"replicas": 4}));
    assert_eq!(spec_of(&v1.get("b").await.unwrap()), json!({"size": 4}));

    let mut events = v2
        .watch(
            &WatchParams::default(),
            &listed.metadata.resource_version.clone().unwrap(),
        )
        .await
        .unwrap()
        .boxed();
    v1.patch(
        "a",
        &PatchParams::default(),
        &Patch::Merge(&json!({"spec": {"size": 9}})),
    )
    .await
    .unwrap();
    let seen = loop {
        match events.try_next().await.unwrap() {
            Some(WatchEvent::Modified(object)) if object.metadata.name.as_deref() == Some("a") => break object,
            Some(_) => {}
            None => panic!("the watch ended before the change to a"),
        }
    };
    assert_eq!(spec_of(&seen), json!({"replicas": 9}), "a v2 watch sees v2 objects");

    let reviews = webhooks.reviews("/convert");
    assert!(!reviews.is_empty());
    for review in &reviews {
        assert_eq!(review["apiVersion"], "apiextensions.k8s.io/v1");
        assert_eq!(review["kind"], "ConversionReview");
    }
    assert!(
        reviews
            .iter()
            .any(|r| r["request"]["desiredAPIVersion"] == format!("{}/v1", widgets.group))
    );
    widgets.remove(&env).await;
    env.stop().await;
}

/// A webhook that cannot be reached, that fails, or that renames what it converts
/// fails the read with kube-apiserver's 500 and message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_conversion_webhook_is_a_500_naming_the_kind() {
    let env = start().await;
    let webhooks = Webhooks::start().await;
    let widgets = Widgets::new(&env);
    env.install_crd(&widgets.with_webhook(&webhooks, "/fail"))
        .await
        .unwrap();
    let (v1, v2) = (widgets.api(&env, "v1"), widgets.api(&env, "v2"));
    // A write in the storage version needs no conversion.
    eventually("the CRD to serve v1 writes", || async {
        v1.create(&PostParams::default(), &widgets.object("v1", "a", &json!({"size": 1})))
            .await
            .ok()
    })
    .await;
    let prefix = format!("conversion webhook for {}/v1, Kind=Widget ", widgets.group);

    let status = eventually("the failing webhook to be called", || async {
        let result = v2.get("a").await;
        result.is_err().then(|| api_error(result))
    })
    .await;
    assert_eq!(status.code, 500);
    assert_eq!(status.message, format!("{prefix}failed: widgets cannot convert today"));

    let crds: Api<CustomResourceDefinition> = Api::all(env.client());
    let rename = json!({"spec": {"conversion": {"webhook": {"clientConfig": webhooks.client_config("/rename")}}}});
    crds.patch(&widgets.name(), &PatchParams::default(), &Patch::Merge(&rename))
        .await
        .unwrap();
    let status = eventually("the renaming webhook to be called", || async {
        let result = v2.get("a").await;
        let status = api_error(result);
        status.message.contains("must have the same name").then_some(status)
    })
    .await;
    assert_eq!(status.code, 500);
    assert_eq!(
        status.message,
        format!("{prefix}returned invalid object: must have the same name: a != renamed")
    );

    // Nothing listens on a port that was free a moment ago.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("https://{}/convert", closed.local_addr().unwrap());
    drop(closed);
    let unreachable = json!({"spec": {"conversion": {"webhook": {"clientConfig": {"url": url}}}}});
    crds.patch(&widgets.name(), &PatchParams::default(), &Patch::Merge(&unreachable))
        .await
        .unwrap();
    let status = eventually("the unreachable webhook to be called", || async {
        let status = api_error(v2.get("a").await);
        status.message.contains(&url).then_some(status)
    })
    .await;
    assert_eq!(status.code, 500);
    assert!(
        status
            .message
            .starts_with(&format!("{prefix}failed: Post \"{url}?timeout=30s\": ")),
        "{}",
        status.message
    );
    widgets.remove(&env).await;
    env.stop().await;
}

/// An admission webhook registered for v2 sees a v1 write converted to v2, named as v2
/// with the request's version in `requestKind`; a mutating one's patch, made to the v2
/// object, reaches the stored v1 object converted back. `Exact` webhooks are not called.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn equivalent_admission_webhooks_see_the_object_in_their_version() {
    let env = start().await;
    let webhooks = Webhooks::start().await;
    let widgets = Widgets::new(&env);
    env.install_crd(&widgets.with_webhook(&webhooks, "/convert"))
        .await
        .unwrap();
    let rule = json!([{"operations": ["CREATE"], "apiGroups": [widgets.group], "apiVersions": ["v2"], "resources": ["widgets"]}]);
    let hook = |name: &str, path: &str, policy: &str| {
        json!({"name": format!("{name}.{}", widgets.group), "clientConfig": webhooks.client_config(path),
            "rules": rule, "matchPolicy": policy, "sideEffects": "None", "admissionReviewVersions": ["v1"],
            "failurePolicy": "Fail", "timeoutSeconds": 5})
    };
    let configuration = format!("{}-equivalent", env.namespace());
    let mutating: Api<MutatingWebhookConfiguration> = Api::all(env.client());
    let validating: Api<ValidatingWebhookConfiguration> = Api::all(env.client());
    mutating
        .create(
            &PostParams::default(),
            &from_json(
                json!({"metadata": {"name": configuration}, "webhooks": [hook("mutate", "/mutate", "Equivalent")]}),
            ),
        )
        .await
        .unwrap();
    validating
        .create(
            &PostParams::default(),
            &from_json(json!({"metadata": {"name": configuration}, "webhooks": [
                hook("validate", "/validate", "Equivalent"), hook("exact", "/exact", "Exact")]})),
        )
        .await
        .unwrap();
    let v1 = widgets.api(&env, "v1");
    // Configurations take effect asynchronously on a real server: probe until mutated.
    let created = eventually("the v2 webhooks to see v1 writes", || async {
        let probe = widgets.object("v1", "", &json!({"size": 1}));
        let mut probe = probe;
        probe.metadata.generate_name = Some("probe-".into());
        probe.metadata.name = None;
        let created = v1.create(&PostParams::default(), &probe).await.ok()?;
        let name = created.metadata.name.clone()?;
        let validated = webhooks
            .reviews("/validate")
            .iter()
            .any(|r| r["request"]["object"]["metadata"]["name"] == name.as_str());
        (created.metadata.labels.as_ref()?.get("mutated")? == "true" && validated).then_some(created)
    })
    .await;
    let name = created.metadata.name.clone().unwrap_or_default();
    assert_eq!(
        spec_of(&created),
        json!({"size": 5}),
        "the patch to spec.replicas, converted back to v1"
    );

    let review = webhooks
        .reviews("/validate")
        .into_iter()
        .find(|r| r["request"]["object"]["metadata"]["name"] == name.as_str())
        .expect("the validating webhook saw the object");
    let request = &review["request"];
    assert_eq!(
        request["kind"],
        json!({"group": widgets.group, "version": "v2", "kind": "Widget"})
    );
    assert_eq!(request["resource"]["version"], "v2");
    assert_eq!(
        request["requestKind"],
        json!({"group": widgets.group, "version": "v1", "kind": "Widget"})
    );
    assert_eq!(request["requestResource"]["version"], "v1");
    assert_eq!(request["object"]["apiVersion"], format!("{}/v2", widgets.group));
    assert_eq!(request["object"]["spec"], json!({"replicas": 5}));
    assert!(
        webhooks.reviews("/exact").is_empty(),
        "an Exact webhook for v2 never sees v1 writes"
    );

    delete_quietly(&mutating, &configuration).await;
    delete_quietly(&validating, &configuration).await;
    widgets.remove(&env).await;
    env.stop().await;
}

/// Switching the storage version appends it to `status.storedVersions`, after the
/// versions objects may still be stored in; such a version cannot leave
/// `spec.versions` (a 422 naming it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stored_versions_are_kept_and_appended() {
    let env = start().await;
    let widgets = Widgets::new(&env);
    let alpha = |storage: bool| Widgets::version("v1alpha1", storage, "size");
    let v1 = |storage: bool| Widgets::version("v1", storage, "size");
    env.install_crd(&widgets.crd(&[alpha(true), v1(false)], &Value::Null))
        .await
        .unwrap();
    let crds: Api<CustomResourceDefinition> = Api::all(env.client());
    let stored = |crd: CustomResourceDefinition| crd.status.and_then(|s| s.stored_versions).unwrap_or_default();
    assert_eq!(stored(crds.get(&widgets.name()).await.unwrap()), ["v1alpha1"]);

    env.install_crd(&widgets.crd(&[alpha(false), v1(true)], &Value::Null))
        .await
        .unwrap();
    assert_eq!(stored(crds.get(&widgets.name()).await.unwrap()), ["v1alpha1", "v1"]);

    let result = env.install_crd(&widgets.crd(&[v1(true)], &Value::Null)).await;
    let status = match result {
        Err(wheelhouse_envtest::Error::Kube(error)) => api_error::<()>(Err(error)),
        other => panic!("removing a stored version must be refused, got {other:?}"),
    };
    assert_eq!(status.code, 422);
    assert!(
        status.message.starts_with(&format!(
            "CustomResourceDefinition.apiextensions.k8s.io \"{}\" is invalid: status.storedVersions[0]: Invalid value: \"v1alpha1\": ",
            widgets.name()
        )),
        "{}",
        status.message
    );
    // 1.19 says "must appear in spec.versions"; newer servers explain the migration.
    assert!(
        status.message.ends_with("must appear in spec.versions")
            || status
                .message
                .contains("missing from spec.versions; v1alpha1 was previously a storage version"),
        "{}",
        status.message
    );
    widgets.remove(&env).await;
    env.stop().await;
}

/// A request of a deprecated version carries a `Warning: 299` header: the CRD's
/// `deprecationWarning`, else kube-apiserver's default naming the version to use.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deprecated_versions_warn() {
    let env = start().await;
    let widgets = Widgets::new(&env);
    let mut alpha = Widgets::version("v1alpha1", false, "size");
    alpha["deprecated"] = json!(true);
    let mut beta = Widgets::version("v1beta1", false, "size");
    beta["deprecated"] = json!(true);
    beta["deprecationWarning"] = json!("widgets/v1beta1 goes away in March");
    let versions = [alpha, beta, Widgets::version("v1", true, "size")];
    env.install_crd(&widgets.crd(&versions, &Value::Null)).await.unwrap();

    let warnings = |version: &'static str| {
        let path = format!(
            "/apis/{}/{version}/namespaces/{}/widgets",
            widgets.group,
            env.namespace()
        );
        let client = env.client();
        async move {
            let request = http::Request::get(path).body(kube::client::Body::empty()).unwrap();
            let response = client.send(request).await.unwrap();
            assert_eq!(response.status(), 200);
            response
                .headers()
                .get_all(http::header::WARNING)
                .iter()
                .map(|v| v.to_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(
        warnings("v1alpha1").await,
        [format!(
            "299 - \"{}/v1alpha1 Widget is deprecated; use {}/v1 Widget\"",
            widgets.group, widgets.group
        )]
    );
    assert_eq!(
        warnings("v1beta1").await,
        ["299 - \"widgets/v1beta1 goes away in March\""]
    );
    assert!(warnings("v1").await.is_empty());
    widgets.remove(&env).await;
    env.stop().await;
}

/// What kube-apiserver refuses of a CRD's versions and conversion, with its 422; and a
/// CRD that had a conversion webhook re-installed without `spec.conversion`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crd_version_and_conversion_rules() {
    let env = start().await;
    let webhooks = Webhooks::start().await;
    let widgets = Widgets::new(&env);
    let crds: Api<CustomResourceDefinition> = Api::all(env.client());
    let refused = |crd: CustomResourceDefinition| {
        let crds = crds.clone();
        async move { api_error(crds.create(&PostParams::default(), &crd).await) }
    };
    let prefix = format!(
        "CustomResourceDefinition.apiextensions.k8s.io \"{}\" is invalid: ",
        widgets.name()
    );
    let two = [
        Widgets::version("v1", true, "size"),
        Widgets::version("v2", false, "replicas"),
    ];

    let both_stored = [
        Widgets::version("v1", true, "size"),
        Widgets::version("v2", true, "replicas"),
    ];
    let status = refused(widgets.crd(&both_stored, &Value::Null)).await;
    assert_eq!(status.code, 422);
    assert!(
        status.message.contains("spec.versions: Invalid value: "),
        "{}",
        status.message
    );
    assert!(
        status
            .message
            .contains("must have exactly one version marked as storage version")
    );

    let none_stored = [
        Widgets::version("v1", false, "size"),
        Widgets::version("v2", false, "replicas"),
    ];
    let status = refused(widgets.crd(&none_stored, &Value::Null)).await;
    assert!(
        status
            .message
            .contains("must have exactly one version marked as storage version")
    );

    let no_client = json!({"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1"]}});
    let status = refused(widgets.crd(&two, &no_client)).await;
    assert_eq!(
        status.message,
        format!(
            "{prefix}spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook"
        )
    );

    let unknown_review = json!({"strategy": "Webhook", "webhook": {
        "clientConfig": webhooks.client_config("/convert"), "conversionReviewVersions": ["v3"]}});
    let status = refused(widgets.crd(&two, &unknown_review)).await;
    // Go prints the list as `[]string{"v3"}` (1.19) or as JSON (newer servers).
    let field = format!("{prefix}spec.conversion.conversionReviewVersions: Invalid value: ");
    assert!(status.message.starts_with(&field), "{}", status.message);
    assert!(
        status.message.ends_with(": must include at least one of v1, v1beta1"),
        "{}",
        status.message
    );

    // Installed with a webhook, then patched to strategy None: the webhook stays, and
    // kube-apiserver refuses it where the strategy is not Webhook.
    env.install_crd(&widgets.with_webhook(&webhooks, "/convert"))
        .await
        .unwrap();
    let none = json!({"spec": {"conversion": {"strategy": "None"}}});
    let status = api_error(
        crds.patch(&widgets.name(), &PatchParams::default(), &Patch::Merge(&none))
            .await,
    );
    assert_eq!(status.code, 422);
    assert_eq!(
        status.message,
        format!(
            "{prefix}[spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook, spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook]"
        )
    );

    // Re-installed (server-side apply, same field manager) without spec.conversion: the
    // webhook fields the manager owned go, and defaulting makes the strategy None.
    env.install_crd(&widgets.crd(&two, &Value::Null)).await.unwrap();
    let conversion = crds.get(&widgets.name()).await.unwrap().spec.conversion.unwrap();
    assert_eq!(conversion.strategy, "None");
    assert!(conversion.webhook.is_none());
    widgets.remove(&env).await;
    env.stop().await;
}
