//! Admission against a real HTTPS webhook server running in the test, with a
//! self-signed certificate for 127.0.0.1.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use parking_lot::Mutex;
use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;

use super::*;

/// Admission without policies.
#[expect(clippy::unnecessary_wraps, reason = "the signature `Webhooks::admit` calls")]
fn no_policies(_: Option<&Value>) -> Result<Vec<String>, AdmissionError> {
    Ok(Vec::new())
}

/// A mutated object taken as the webhooks left it (validation is the server's).
#[expect(clippy::unnecessary_wraps, reason = "the shape `admit` asks for")]
fn keep(_: Option<&mut Value>) -> Result<(), AdmissionError> {
    Ok(())
}

/// One request the webhook server received.
#[derive(Debug, Clone)]
struct Call {
    path: String,
    query: String,
    review: Value,
}

/// A webhook server whose behaviour is chosen by the request path (see `answer`).
struct Server {
    base: String,
    ca_bundle: String,
    calls: Arc<Mutex<Vec<Call>>>,
    connections: Arc<AtomicUsize>,
}

impl AdmissionError {
    /// The HTTP status code the server answers with.
    pub(super) fn code(&self) -> u16 {
        match self {
            Self::Denied { code, .. } | Self::Refused { code, .. } => *code,
            Self::CallFailed { .. } => 500,
            Self::Invalid(error) => error.code,
        }
    }
}

impl Server {
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
        let address = listener.local_addr().unwrap();
        let server = Self {
            base: format!("https://{address}"),
            ca_bundle: STANDARD.encode(certified.cert.pem()),
            calls: Arc::default(),
            connections: Arc::default(),
        };
        let (calls, connections) = (server.calls.clone(), server.connections.clone());
        tokio::spawn(async move {
            loop {
                let Ok((tcp, _)) = listener.accept().await else { return };
                connections.fetch_add(1, Ordering::SeqCst);
                let (acceptor, calls) = (acceptor.clone(), calls.clone());
                tokio::spawn(async move {
                    // A client that rejects our certificate ends the handshake: not an error here.
                    let Ok(tls) = acceptor.accept(tcp).await else { return };
                    let service = hyper::service::service_fn(move |request| handle(request, calls.clone()));
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(tls), service)
                        .await;
                });
            }
        });
        server
    }

    fn hook(&self, name: &str, path: &str) -> Value {
        json!({
            "name": name,
            "clientConfig": {"url": format!("{}{path}", self.base), "caBundle": self.ca_bundle},
            "rules": [{"operations": ["CREATE", "UPDATE"], "apiGroups": ["apps"], "apiVersions": ["v1"], "resources": ["deployments"]}],
            "failurePolicy": "Fail",
            "sideEffects": "None",
            "admissionReviewVersions": ["v1"],
        })
    }

    fn calls(&self) -> Vec<Call> {
        self.calls.lock().clone()
    }

    fn paths(&self) -> Vec<String> {
        self.calls().into_iter().map(|call| call.path).collect()
    }
}

async fn handle(
    request: http::Request<Incoming>,
    calls: Arc<Mutex<Vec<Call>>>,
) -> Result<http::Response<Full<Bytes>>, Infallible> {
    let path = request.uri().path().to_owned();
    let query = request.uri().query().unwrap_or_default().to_owned();
    let body = request
        .into_body()
        .collect()
        .await
        .map(http_body_util::Collected::to_bytes)
        .unwrap_or_default();
    let review: Value = serde_json::from_slice(&body).unwrap_or_default();
    calls.lock().push(Call {
        path: path.clone(),
        query,
        review: review.clone(),
    });
    let answer = answer(&path, &review).await;
    Ok(http::Response::new(Full::new(Bytes::from(answer.to_string()))))
}

async fn answer(path: &str, review: &Value) -> Value {
    let uid = review["request"]["uid"].clone();
    let response = if let Some(suffix) = path.strip_prefix("/append/") {
        // Appends to the `order` annotation of the object as this webhook received it.
        let object = &review["request"]["object"];
        let operations = match object.pointer("/metadata/annotations/order").and_then(Value::as_str) {
            Some(order) => {
                json!([{"op": "replace", "path": "/metadata/annotations/order", "value": format!("{order}{suffix}")}])
            }
            None => json!([{"op": "add", "path": "/metadata/annotations", "value": {"order": suffix}}]),
        };
        json!({"uid": uid, "allowed": true, "patchType": "JSONPatch", "patch": STANDARD.encode(operations.to_string())})
    } else {
        match path {
            "/allow" => json!({"uid": uid, "allowed": true}),
            "/warn" => json!({"uid": uid, "allowed": true, "warnings": ["spec.legacy is deprecated"]}),
            "/deny" => {
                json!({"uid": uid, "allowed": false, "status": {"code": 422, "reason": "Invalid", "message": "replicas must be odd"}})
            }
            "/deny-bare" => json!({"uid": uid, "allowed": false}),
            "/slow" => {
                tokio::time::sleep(Duration::from_secs(3)).await;
                json!({"uid": uid, "allowed": true})
            }
            "/wrong-uid" => json!({"uid": "not-the-request", "allowed": true}),
            _ => json!({"uid": uid, "allowed": false, "status": {"message": format!("no behaviour for {path}")}}),
        }
    };
    json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": response})
}

fn configuration(name: &str, webhooks: &[Value]) -> Arc<Value> {
    Arc::new(json!({"apiVersion": "admissionregistration.k8s.io/v1", "metadata": {"name": name}, "webhooks": webhooks}))
}

fn deployment(app: &str) -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default", "labels": {"app": app}},
        "spec": {"replicas": 2},
    })
}

fn create(object: &Value) -> AdmissionAttributes<'_> {
    AdmissionAttributes {
        operation: Operation::Create,
        group: "apps",
        version: "v1",
        kind: "Deployment",
        resource: "deployments",
        subresource: None,
        namespace: Some("default"),
        name: "web",
        object: Some(object),
        old_object: None,
        namespace_labels: None,
        dry_run: false,
        options: None,
        equivalent_versions: &[],
        converter: None,
    }
}

/// A URL on which nothing listens: the port was free a moment ago.
fn closed_port_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    format!("https://127.0.0.1:{port}/allow")
}

fn call_failure(result: Result<Admitted, AdmissionError>) -> (String, String) {
    match result {
        Err(AdmissionError::CallFailed { webhook, message }) => (webhook, message),
        other => panic!("expected a failed call, got {other:?}"),
    }
}

#[tokio::test]
async fn a_mutating_patch_is_applied_and_the_review_is_complete() {
    let server = Server::start().await;
    let object = deployment("web");
    let mutating = [configuration(
        "mutate",
        &[server.hook("append.example.com", "/append/a")],
    )];
    let admitted = Webhooks::default()
        .admit(&mutating, &[], keep, no_policies, &create(&object))
        .await
        .unwrap();

    assert_eq!(
        admitted.mutated.unwrap()["metadata"]["annotations"],
        json!({"order": "a"})
    );
    let calls = server.calls();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].query, "timeout=10s");
    let review = &calls[0].review;
    assert_eq!(
        (review["apiVersion"].as_str(), review["kind"].as_str()),
        (Some("admission.k8s.io/v1"), Some("AdmissionReview"))
    );
    let request = &review["request"];
    let uid = request["uid"].as_str().unwrap();
    assert_eq!((uid.len(), &uid[14..15]), (36, "4"), "a version-4 UUID: {uid}");
    assert_eq!(
        request["kind"],
        json!({"group": "apps", "version": "v1", "kind": "Deployment"})
    );
    assert_eq!(
        request["resource"],
        json!({"group": "apps", "version": "v1", "resource": "deployments"})
    );
    assert_eq!(request["requestKind"], request["kind"]);
    assert_eq!(request["requestResource"], request["resource"]);
    assert_eq!(
        (request["name"].as_str(), request["namespace"].as_str()),
        (Some("web"), Some("default"))
    );
    assert_eq!(request["operation"], "CREATE");
    assert_eq!(
        request["userInfo"],
        json!({"username": "wheelhouse-admin", "uid": "wheelhouse-admin", "groups": ["system:masters", "system:authenticated"]})
    );
    assert_eq!(
        (&request["object"], &request["oldObject"], &request["dryRun"]),
        (&object, &Value::Null, &json!(false))
    );
    assert!(request.get("subResource").is_none());
}

#[tokio::test]
async fn mutating_configurations_run_in_name_order_each_on_the_patched_object() {
    let server = Server::start().await;
    let object = deployment("web");
    let mutating = [
        configuration("b-last", &[server.hook("three.example.com", "/append/3")]),
        configuration(
            "a-first",
            &[
                server.hook("one.example.com", "/append/1"),
                server.hook("two.example.com", "/append/2"),
            ],
        ),
    ];
    let admitted = Webhooks::default()
        .admit(&mutating, &[], keep, no_policies, &create(&object))
        .await
        .unwrap();
    assert_eq!(admitted.mutated.unwrap()["metadata"]["annotations"]["order"], "123");
    assert_eq!(server.paths(), ["/append/1", "/append/2", "/append/3"]);
}

/// A webhook with `reinvocationPolicy: IfNeeded` is called again, once, when a later
/// webhook changed the object; one without it, or one called after the change, is not.
#[tokio::test]
async fn if_needed_webhooks_are_reinvoked_after_a_later_change() {
    let server = Server::start().await;
    let object = deployment("web");
    let mut again = server.hook("one.example.com", "/append/1");
    again["reinvocationPolicy"] = json!("IfNeeded");
    let mut after = server.hook("three.example.com", "/append/3");
    after["reinvocationPolicy"] = json!("IfNeeded");
    let mutating = [configuration(
        "m",
        &[again, server.hook("two.example.com", "/append/2"), after],
    )];
    let admitted = Webhooks::default()
        .admit(&mutating, &[], keep, no_policies, &create(&object))
        .await
        .unwrap();
    assert_eq!(admitted.mutated.unwrap()["metadata"]["annotations"]["order"], "1231");
    assert_eq!(server.paths(), ["/append/1", "/append/2", "/append/3", "/append/1"]);
}

#[tokio::test]
async fn a_validating_denial_carries_the_webhook_message_and_code() {
    let server = Server::start().await;
    let object = deployment("web");
    let mutating = [configuration(
        "mutate",
        &[server.hook("append.example.com", "/append/x")],
    )];
    let validating = [
        configuration("a", &[server.hook("deny.example.com", "/deny")]),
        configuration("b", &[server.hook("allow.example.com", "/allow")]),
    ];
    let error = Webhooks::default()
        .admit(&mutating, &validating, keep, no_policies, &create(&object))
        .await
        .unwrap_err();
    let expected = AdmissionError::Denied {
        webhook: "deny.example.com".to_owned(),
        code: 422,
        reason: "Invalid".to_owned(),
        message: "replicas must be odd".to_owned(),
        details: None,
    };
    assert_eq!(error, expected);
    assert_eq!(
        error.to_string(),
        "admission webhook \"deny.example.com\" denied the request: replicas must be odd"
    );
    // Every validating webhook is called, on the object as the mutating webhook left it.
    let validated: Vec<_> = server
        .calls()
        .into_iter()
        .filter(|call| !call.path.starts_with("/append"))
        .collect();
    assert_eq!(validated.len(), 2);
    assert!(
        validated
            .iter()
            .all(|call| call.review["request"]["object"]["metadata"]["annotations"]["order"] == "x")
    );
}

#[tokio::test]
async fn a_denial_without_status_is_a_400_without_explanation() {
    let server = Server::start().await;
    let object = deployment("web");
    let validating = [configuration("v", &[server.hook("bare.example.com", "/deny-bare")])];
    let error = Webhooks::default()
        .admit(&[], &validating, keep, no_policies, &create(&object))
        .await
        .unwrap_err();
    assert_eq!(error.code(), 400);
    assert_eq!(
        error.to_string(),
        "admission webhook \"bare.example.com\" denied the request without explanation"
    );
}

#[tokio::test]
async fn warnings_are_collected_and_connections_reused() {
    let server = Server::start().await;
    let object = deployment("web");
    let validating = [configuration("v", &[server.hook("warn.example.com", "/warn")])];
    let webhooks = Webhooks::default();
    for _ in 0..2 {
        let admitted = webhooks
            .admit(&[], &validating, keep, no_policies, &create(&object))
            .await
            .unwrap();
        assert_eq!(admitted.warnings, ["spec.legacy is deprecated"]);
        assert!(admitted.mutated.is_none());
    }
    assert_eq!(server.calls().len(), 2);
    assert_eq!(
        server.connections.load(Ordering::SeqCst),
        1,
        "the second call reuses the first connection"
    );
}

#[tokio::test]
async fn rules_that_do_not_match_leave_the_webhook_uncalled() {
    let server = Server::start().await;
    let object = deployment("web");
    let validating = [configuration("v", &[server.hook("allow.example.com", "/allow")])];
    let webhooks = Webhooks::default();

    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web", "namespace": "default"}});
    let mut other_resource = create(&pod);
    (other_resource.group, other_resource.kind, other_resource.resource) = ("", "Pod", "pods");
    let mut other_operation = create(&object);
    (
        other_operation.operation,
        other_operation.object,
        other_operation.old_object,
    ) = (Operation::Delete, None, Some(&object));
    let mut subresource = create(&object);
    (subresource.operation, subresource.subresource) = (Operation::Update, Some("status"));
    for attributes in [other_resource, other_operation, subresource] {
        webhooks
            .admit(&[], &validating, keep, no_policies, &attributes)
            .await
            .unwrap();
    }
    assert!(server.calls().is_empty());

    webhooks
        .admit(&[], &validating, keep, no_policies, &create(&object))
        .await
        .unwrap();
    assert_eq!(server.calls().len(), 1);
}

#[tokio::test]
async fn namespace_and_object_selectors_filter_calls() {
    let server = Server::start().await;
    let mut by_namespace = server.hook("namespace.example.com", "/allow");
    by_namespace["namespaceSelector"] = json!({"matchLabels": {"env": "test"}});
    let mut by_object = server.hook("object.example.com", "/warn");
    by_object["objectSelector"] = json!({"matchExpressions": [{"key": "app", "operator": "In", "values": ["web"]}]});
    let validating = [configuration("v", &[by_namespace, by_object])];
    let webhooks = Webhooks::default();

    let (test, prod) = (
        BTreeMap::from([("env".to_owned(), "test".to_owned())]),
        BTreeMap::from([("env".to_owned(), "prod".to_owned())]),
    );
    let database = deployment("db");
    let mut in_prod = create(&database);
    in_prod.namespace_labels = Some(&prod);
    webhooks
        .admit(&[], &validating, keep, no_policies, &in_prod)
        .await
        .unwrap();
    assert!(server.calls().is_empty(), "neither selector matches");

    let mut in_test = create(&database);
    in_test.namespace_labels = Some(&test);
    webhooks
        .admit(&[], &validating, keep, no_policies, &in_test)
        .await
        .unwrap();
    assert_eq!(server.paths(), ["/allow"]);

    // The old object's labels are enough for objectSelector.
    let web = deployment("web");
    let mut relabel = create(&database);
    (relabel.operation, relabel.old_object, relabel.namespace_labels) = (Operation::Update, Some(&web), Some(&prod));
    let admitted = webhooks
        .admit(&[], &validating, keep, no_policies, &relabel)
        .await
        .unwrap();
    assert_eq!(server.paths(), ["/allow", "/warn"]);
    assert_eq!(admitted.warnings.len(), 1);
}

#[tokio::test]
async fn failure_policy_decides_when_the_webhook_is_unreachable() {
    // The CA bundle is read before connecting, so the webhook needs a real one.
    let server = Server::start().await;
    let object = deployment("web");
    let mut down = json!({
        "name": "down.example.com",
        "clientConfig": {"url": closed_port_url(), "caBundle": server.ca_bundle},
        "rules": [{"operations": ["*"], "apiGroups": ["*"], "apiVersions": ["*"], "resources": ["*"]}],
        "failurePolicy": "Ignore",
        "sideEffects": "None",
    });
    let webhooks = Webhooks::default();
    let admitted = webhooks
        .admit(
            &[configuration("m", &[down.clone()])],
            &[],
            keep,
            no_policies,
            &create(&object),
        )
        .await
        .unwrap();
    assert!(admitted.mutated.is_none());

    down["failurePolicy"] = "Fail".into();
    let error = webhooks
        .admit(&[], &[configuration("v", &[down])], keep, no_policies, &create(&object))
        .await
        .unwrap_err();
    assert_eq!(error.code(), 500);
    let text = error.to_string();
    assert!(
        text.starts_with("Internal error occurred: failed calling webhook \"down.example.com\": failed to call webhook: Post \"https://127.0.0.1:"),
        "{text}"
    );
    assert!(text.contains("dial tcp 127.0.0.1:"), "{text}");
}

#[tokio::test]
async fn timeout_seconds_bounds_the_whole_call() {
    let server = Server::start().await;
    let object = deployment("web");
    let mut slow = server.hook("slow.example.com", "/slow");
    slow["timeoutSeconds"] = 1.into();
    let started = Instant::now();
    let result = Webhooks::default()
        .admit(&[], &[configuration("v", &[slow])], keep, no_policies, &create(&object))
        .await;
    let (webhook, message) = call_failure(result);
    assert!(
        started.elapsed() < Duration::from_millis(1900),
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(webhook, "slow.example.com");
    assert!(
        message.ends_with("/slow?timeout=1s\": context deadline exceeded"),
        "{message}"
    );
}

#[tokio::test]
async fn only_the_given_ca_bundle_is_trusted() {
    let server = Server::start().await;
    let object = deployment("web");
    let stranger = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_owned()]).unwrap();
    let mut untrusted = server.hook("untrusted.example.com", "/allow");
    untrusted["clientConfig"]["caBundle"] = STANDARD.encode(stranger.cert.pem()).into();
    let mut no_bundle = server.hook("no-bundle.example.com", "/allow");
    no_bundle["clientConfig"].as_object_mut().unwrap().remove("caBundle");
    let webhooks = Webhooks::default();

    let (_, message) = call_failure(
        webhooks
            .admit(
                &[],
                &[configuration("v", &[untrusted])],
                keep,
                no_policies,
                &create(&object),
            )
            .await,
    );
    assert!(message.contains("tls: invalid peer certificate"), "{message}");
    let (_, message) = call_failure(
        webhooks
            .admit(
                &[],
                &[configuration("v", &[no_bundle])],
                keep,
                no_policies,
                &create(&object),
            )
            .await,
    );
    assert!(
        message.starts_with("could not get REST client: clientConfig.caBundle is empty"),
        "{message}"
    );
    assert!(server.calls().is_empty());
}

#[tokio::test]
async fn a_service_reference_cannot_be_called() {
    let object = deployment("web");
    let hook = json!({
        "name": "in-cluster.example.com",
        "clientConfig": {"service": {"namespace": "webhooks", "name": "validator", "path": "/validate"}, "caBundle": ""},
        "rules": [{"operations": ["CREATE"], "apiGroups": ["apps"], "apiVersions": ["v1"], "resources": ["deployments"]}],
        "sideEffects": "None",
    });
    let (webhook, message) = call_failure(
        Webhooks::default()
            .admit(&[], &[configuration("v", &[hook])], keep, no_policies, &create(&object))
            .await,
    );
    assert_eq!(webhook, "in-cluster.example.com");
    assert!(
        message.contains("clientConfig.service webhooks/validator cannot be reached"),
        "{message}"
    );
}

#[tokio::test]
async fn a_reply_for_another_request_fails_the_call() {
    let server = Server::start().await;
    let object = deployment("web");
    let validating = [configuration("v", &[server.hook("confused.example.com", "/wrong-uid")])];
    let (_, message) = call_failure(
        Webhooks::default()
            .admit(&[], &validating, keep, no_policies, &create(&object))
            .await,
    );
    let uid = server.calls()[0].review["request"]["uid"].as_str().unwrap().to_owned();
    assert_eq!(
        message,
        format!("received invalid webhook response: expected response.uid=\"{uid}\", got \"not-the-request\"")
    );
}

#[tokio::test]
async fn dry_run_needs_webhooks_without_side_effects() {
    let server = Server::start().await;
    let object = deployment("web");
    let mut hook = server.hook("effects.example.com", "/allow");
    hook["sideEffects"] = "Some".into();
    let mut dry_run = create(&object);
    dry_run.dry_run = true;
    let error = Webhooks::default()
        .admit(&[], &[configuration("v", &[hook])], keep, no_policies, &dry_run)
        .await
        .unwrap_err();
    assert_eq!(error.code(), 400);
    assert_eq!(
        error.to_string(),
        "admission webhook \"effects.example.com\" does not support dry run"
    );
    assert!(server.calls().is_empty());
}

#[tokio::test]
async fn a_patch_on_delete_is_refused() {
    let server = Server::start().await;
    let object = deployment("web");
    let mut hook = server.hook("append.example.com", "/append/x");
    hook["rules"][0]["operations"] = json!(["DELETE"]);
    let mut delete = create(&object);
    (delete.operation, delete.object, delete.old_object) = (Operation::Delete, None, Some(&object));
    let error = Webhooks::default()
        .admit(&[configuration("m", &[hook])], &[], keep, no_policies, &delete)
        .await
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "Internal error occurred: admission webhook \"append.example.com\" attempted to modify the object, which is not supported for this operation"
    );
}
