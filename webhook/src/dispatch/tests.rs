//! The request pipeline fed raw bytes: routing, every kind of bad input, the typed
//! webhooks' answers, and the metrics they leave.

use std::convert::Infallible;
use std::time::Duration;

use bytes::Bytes;
use http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use http_body_util::{BodyExt as _, Full, StreamBody};
use hyper::body::Frame;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::core::DynamicObject;
use kube::core::admission::{AdmissionRequest, AdmissionResponse};
use prometheus::Registry;
use serde_json::{Value, json};

use super::*;
use crate::{
    Defaulter, Denied, FieldError, Request, Validator, Warnings, WebhookMetrics, WebhookOptions, WebhookServer,
};

const VALIDATE: &str = "/validate--v1-configmap";
const MUTATE: &str = "/mutate--v1-configmap";

/// How long a `spin=yes` decision holds its thread.
const SPIN: Duration = Duration::from_secs(2);

/// Denies `deny=true`, panics on `panic=true`, takes an hour on `slow=true`, blocks
/// its thread on `spin=yes`, and warns when the request is a dry run.
struct Labels;

fn label<'a>(map: &'a ConfigMap, key: &str) -> Option<&'a str> {
    map.metadata.labels.as_ref()?.get(key).map(String::as_str)
}

impl Validator<ConfigMap> for Labels {
    async fn validate_create(&self, map: &ConfigMap, request: &Request) -> Result<Warnings, Denied> {
        assert!(label(map, "panic").is_none(), "the validator fell over");
        if label(map, "slow").is_some() {
            tokio::time::sleep(Duration::from_hours(1)).await;
        }
        if label(map, "spin").is_some() {
            // CPU-bound work with no await point, as a large decode is.
            std::thread::sleep(SPIN);
        }
        if label(map, "deny") == Some("true") {
            return Err(Denied::invalid([FieldError::invalid(
                "metadata.labels.deny",
                "true",
                "remove the label",
            )]));
        }
        Ok(if request.dry_run {
            vec!["dry run".to_owned()]
        } else {
            Vec::new()
        })
    }

    async fn validate_update(&self, old: &ConfigMap, new: &ConfigMap, request: &Request) -> Result<Warnings, Denied> {
        if old.data != new.data {
            return Err(Denied::new("data is immutable; create a new ConfigMap instead"));
        }
        self.validate_create(new, request).await
    }
}

/// Labels every `ConfigMap` `defaulted=yes`.
struct Defaults;

impl Defaulter<ConfigMap> for Defaults {
    async fn apply_defaults(&self, map: &mut ConfigMap, _: &Request) -> Result<(), Denied> {
        map.metadata
            .labels
            .get_or_insert_with(Default::default)
            .insert("defaulted".into(), "yes".into());
        Ok(())
    }
}

struct Fixture {
    dispatcher: Dispatcher,
    registry: Registry,
}

fn fixture() -> Fixture {
    let registry = Registry::new();
    let options = WebhookOptions {
        max_body_bytes: 64 * 1024,
        request_timeout: Duration::from_secs(10),
        decision_threads: 1,
        // Every decision on the pool, so a blocking one is cut off at its deadline too.
        inline_decision_bytes: 0,
        ..WebhookOptions::default()
    };
    let server = WebhookServer::new(options)
        .validator::<ConfigMap>(Labels)
        .defaulter::<ConfigMap>(Defaults)
        .handler("/raw", |request: AdmissionRequest<DynamicObject>| async move {
            let name = request
                .object
                .as_ref()
                .and_then(|o| o.metadata.name.clone())
                .unwrap_or_default();
            AdmissionResponse::from(&request).deny(format!("raw handler saw {name}"))
        })
        .handler("/raw-patch", |request: AdmissionRequest<DynamicObject>| async move {
            let patch = serde_json::from_value(json!([{"op": "add", "path": "/metadata/labels/raw", "value": "yes"}]));
            AdmissionResponse::from(&request).with_patch(patch.unwrap()).unwrap()
        })
        .metrics(WebhookMetrics::register(&registry).unwrap());
    Fixture {
        dispatcher: server.dispatcher(),
        registry,
    }
}

impl Fixture {
    async fn send(&self, path: &str, body: impl Into<Bytes>) -> (StatusCode, Bytes) {
        let request = http::Request::post(path)
            .header(CONTENT_TYPE, "application/json")
            .body(Full::new(body.into()))
            .unwrap();
        answer_of(self.dispatcher.serve(request).await).await
    }

    /// The review's `response` of an answer that must be a 200.
    async fn decide(&self, path: &str, review: &Value) -> Value {
        let (status, body) = self.send(path, review.to_string()).await;
        assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
        let mut answer: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(answer["kind"], "AdmissionReview");
        assert_eq!(answer["response"]["uid"], review["request"]["uid"]);
        answer["response"].take()
    }

    fn counted(&self, path: &str, code: &str) -> u64 {
        self.metric(
            "controller_runtime_webhook_requests_total",
            &[("webhook", path), ("code", code)],
        )
    }

    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "the series are counts, small whole numbers"
    )]
    fn metric(&self, name: &str, labels: &[(&str, &str)]) -> u64 {
        let family = self.registry.gather().into_iter().find(|f| f.name() == name);
        let Some(family) = family else { return 0 };
        let gauge = family.get_field_type() == prometheus::proto::MetricType::GAUGE;
        family
            .get_metric()
            .iter()
            .find(|m| {
                labels
                    .iter()
                    .all(|(k, v)| m.get_label().iter().any(|l| l.name() == *k && l.value() == *v))
            })
            .map_or(0, |m| {
                let value = if gauge {
                    m.get_gauge().get_value()
                } else {
                    m.get_counter().get_value()
                };
                value.round() as u64
            })
    }
}

async fn answer_of<B: Body<Error = Infallible>>(answer: http::Response<B>) -> (StatusCode, Bytes) {
    let status = answer.status();
    let Ok(collected) = answer.into_body().collect().await;
    (status, collected.to_bytes())
}

fn configmap(name: &str, labels: &Value) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "namespace": "shop", "labels": labels}, "data": {"a": "1"}})
}

fn review(operation: &str, object: &Value, old_object: &Value) -> Value {
    json!({
        "apiVersion": "admission.k8s.io/v1",
        "kind": "AdmissionReview",
        "request": {
            "uid": "2b4c-uid",
            "kind": {"group": "", "version": "v1", "kind": "ConfigMap"},
            "resource": {"group": "", "version": "v1", "resource": "configmaps"},
            "name": object["metadata"]["name"].as_str().or(old_object["metadata"]["name"].as_str()).unwrap_or_default(),
            "namespace": "shop",
            "operation": operation,
            "userInfo": {"username": "alice"},
            "object": object,
            "oldObject": old_object,
            "dryRun": false,
        }
    })
}

fn create(object: &Value) -> Value {
    review("CREATE", object, &Value::Null)
}

#[tokio::test]
async fn requests_are_routed_by_path() {
    let f = fixture();
    let web = configmap("web", &json!({}));
    let allowed = f.decide(VALIDATE, &create(&web)).await;
    assert_eq!(allowed["allowed"], true);
    let mutated = f.decide(MUTATE, &create(&web)).await;
    assert_eq!(mutated["patchType"], "JSONPatch");
    let raw = f.decide("/raw", &create(&web)).await;
    assert_eq!(raw["allowed"], false);
    assert_eq!(raw["status"]["message"], "raw handler saw web");
    let patched = f.decide("/raw-patch", &create(&web)).await;
    assert_eq!(patched["allowed"], true);
    assert_eq!(patched["patchType"], "JSONPatch");
    let patch = base64::Engine::decode(
        &base64::engine::general_purpose::STANDARD,
        patched["patch"].as_str().expect("a raw handler's patch, as base64"),
    )
    .unwrap();
    assert_eq!(
        serde_json::from_slice::<Value>(&patch).unwrap(),
        json!([{"op": "add", "path": "/metadata/labels/raw", "value": "yes"}])
    );

    let (status, body) = f.send("/validate-apps-v1-deployment", create(&web).to_string()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body, "no webhook is served at /validate-apps-v1-deployment");
    assert_eq!(f.counted(VALIDATE, "200"), 1);
    assert_eq!(
        f.counted("/validate-apps-v1-deployment", "404"),
        0,
        "unknown paths are not counted"
    );
}

#[tokio::test]
async fn only_json_posts_are_read() {
    let f = fixture();
    let get = http::Request::get(VALIDATE).body(Full::new(Bytes::new())).unwrap();
    let (status, _) = answer_of(f.dispatcher.serve(get).await).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    for content_type in [None, Some("text/plain"), Some("application/yaml")] {
        let mut request = http::Request::post(VALIDATE);
        if let Some(content_type) = content_type {
            request = request.header(CONTENT_TYPE, content_type);
        }
        let request = request.body(Full::new(Bytes::from("{}"))).unwrap();
        let (status, body) = answer_of(f.dispatcher.serve(request).await).await;
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{content_type:?}");
        assert!(String::from_utf8_lossy(&body).contains("application/json"));
    }
    let request = http::Request::post(VALIDATE)
        .header(CONTENT_TYPE, "Application/JSON; charset=utf-8")
        .body(Full::new(Bytes::from(create(&configmap("a", &json!({}))).to_string())))
        .unwrap();
    assert_eq!(answer_of(f.dispatcher.serve(request).await).await.0, StatusCode::OK);
}

#[tokio::test]
async fn malformed_bodies_are_400_with_a_message() {
    let f = fixture();
    let bodies: Vec<(&[u8], &str)> = vec![
        (b"", "not an AdmissionReview"),
        (b"{", "not an AdmissionReview"),
        (b"\x00\xff\xfe garbage", "not an AdmissionReview"),
        (b"null", "not an AdmissionReview"),
        (b"[1, 2]", "not an AdmissionReview"),
        (b"[]", r#"got kind """#),
        (b"{\"kind\": 7}", "not an AdmissionReview"),
        (br#"{"apiVersion":"v1","kind":"Pod","request":{}}"#, r#"got kind "Pod""#),
        (
            br#"{"apiVersion":"admission.k8s.io/v2","kind":"AdmissionReview"}"#,
            "admission.k8s.io/v2",
        ),
        (
            br#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}"#,
            "no request",
        ),
        (
            br#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u"}}"#,
            "missing field",
        ),
        (
            br#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":"#,
            "not an AdmissionReview",
        ),
    ];
    let count = bodies.len() as u64;
    for (body, expected) in bodies {
        let (status, answer) = f.send(VALIDATE, Bytes::from_static(body)).await;
        let answer = String::from_utf8_lossy(&answer);
        assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
        assert!(answer.contains(expected), "{answer:?} should say {expected:?}");
    }
    assert_eq!(f.counted(VALIDATE, "400"), count as u64);
}

#[tokio::test]
async fn bodies_over_the_limit_are_413_whether_declared_or_streamed() {
    let f = fixture();
    let big = vec![b' '; 64 * 1024 + 1];
    let (status, body) = f.send(VALIDATE, big.clone()).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(body, "the request body is over the limit of 65536 bytes");

    // No Content-Length: chunks until the limit is crossed.
    let chunks = big
        .chunks(1000)
        .map(|c| Ok::<_, Infallible>(Frame::data(Bytes::copy_from_slice(c))));
    let streamed = http::Request::post(VALIDATE)
        .header(CONTENT_TYPE, "application/json")
        .body(StreamBody::new(futures::stream::iter(chunks.collect::<Vec<_>>())))
        .unwrap();
    assert_eq!(
        answer_of(f.dispatcher.serve(streamed).await).await.0,
        StatusCode::PAYLOAD_TOO_LARGE
    );

    // A declared length over the limit is refused before reading.
    let lying = http::Request::post(VALIDATE)
        .header(CONTENT_TYPE, "application/json")
        .header(CONTENT_LENGTH, "999999999")
        .body(Full::new(Bytes::from_static(b"{}")))
        .unwrap();
    assert_eq!(
        answer_of(f.dispatcher.serve(lying).await).await.0,
        StatusCode::PAYLOAD_TOO_LARGE
    );
    assert_eq!(f.counted(VALIDATE, "413"), 3);
}

#[tokio::test]
async fn an_object_that_is_not_the_type_is_denied_with_the_decode_error() {
    let f = fixture();
    let mut object = configmap("web", &json!({}));
    object["data"] = json!({"a": 5});
    for path in [VALIDATE, MUTATE] {
        let denied = f.decide(path, &create(&object)).await;
        assert_eq!(denied["allowed"], false);
        assert_eq!(denied["status"]["code"], 400);
        let message = denied["status"]["message"].as_str().unwrap();
        assert!(
            message.contains("request.object does not decode as /v1 ConfigMap"),
            "{message}"
        );
        assert!(denied.get("patch").is_none());
    }
    let raw = f.decide("/raw", &create(&json!({"metadata": "not a map"}))).await;
    assert_eq!(raw["allowed"], false);
    assert_eq!(raw["status"]["code"], 400);

    // A create without an object, an update without the old one.
    let denied = f.decide(VALIDATE, &create(&Value::Null)).await;
    assert_eq!(denied["status"]["message"], "the request has no object");
    let web = configmap("web", &json!({}));
    let denied = f.decide(VALIDATE, &review("UPDATE", &web, &Value::Null)).await;
    assert_eq!(denied["status"]["message"], "the request has no oldObject");
}

#[tokio::test]
async fn a_request_for_another_kind_is_denied() {
    let f = fixture();
    let mut secret = create(&json!({"metadata": {"name": "s"}, "data": {}}));
    secret["request"]["kind"] = json!({"group": "", "version": "v1", "kind": "Secret"});
    for path in [VALIDATE, MUTATE] {
        let denied = f.decide(path, &secret).await;
        assert_eq!(denied["allowed"], false, "{denied}");
        let message = denied["status"]["message"].as_str().unwrap();
        assert!(message.contains("but the request is for /v1 Secret"), "{message}");
    }
    // Whatever the operation: a defaulter has no opinion on deletes of its own kind,
    // but a request for another kind means the configuration is wrong.
    secret["request"]["operation"] = json!("DELETE");
    assert_eq!(f.decide(MUTATE, &secret).await["allowed"], false);
}

#[tokio::test]
async fn a_panicking_webhook_denies_and_is_counted_and_the_next_request_is_served() {
    let f = fixture();
    let denied = f
        .decide(VALIDATE, &create(&configmap("boom", &json!({"panic": "yes"}))))
        .await;
    assert_eq!(denied["allowed"], false);
    assert_eq!(denied["status"]["code"], 500);
    assert!(denied["status"]["message"].as_str().unwrap().contains("panicked"));
    assert_eq!(f.metric("controller_runtime_webhook_panics_total", &[]), 1);
    assert_eq!(
        f.metric(
            "controller_runtime_webhook_requests_in_flight",
            &[("webhook", VALIDATE)]
        ),
        0
    );
    let allowed = f.decide(VALIDATE, &create(&configmap("fine", &json!({})))).await;
    assert_eq!(allowed["allowed"], true);
}

#[tokio::test]
async fn a_decision_not_made_by_the_deadline_is_a_504_at_the_deadline_and_counted() {
    let f = fixture();
    // kube-apiserver's own, shorter deadline wins over the server's 10 s; an async
    // decision and one that blocks its thread without awaiting are cut off alike.
    for label in ["slow", "spin"] {
        let late = create(&configmap(label, &json!({label: "yes"})));
        let started = std::time::Instant::now();
        let (status, body) = f.send(&format!("{VALIDATE}?timeout=300ms"), late.to_string()).await;
        assert_eq!(status, StatusCode::GATEWAY_TIMEOUT, "{label}");
        assert_eq!(body, "the webhook did not decide within 300ms");
        assert!(
            started.elapsed() < SPIN,
            "{label}: answered at the deadline, not after the work"
        );
    }
    assert_eq!(f.counted(VALIDATE, "504"), 2);
    // The spinning decision still holds the one decision thread; once it is done,
    // the next request is decided.
    tokio::time::sleep(SPIN).await;
    let allowed = f.decide(VALIDATE, &create(&configmap("fine", &json!({})))).await;
    assert_eq!(allowed["allowed"], true);
}

#[tokio::test]
async fn a_small_body_decided_inline_is_a_504_at_its_deadline_too() {
    let server = WebhookServer::new(WebhookOptions::default()).validator::<ConfigMap>(Labels);
    let late = create(&configmap("slow", &json!({"slow": "yes"})));
    let request = http::Request::post(format!("{VALIDATE}?timeout=200ms"))
        .header(CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from(late.to_string())))
        .unwrap();
    let (status, body) = answer_of(server.handle(request).await).await;
    assert_eq!(status, StatusCode::GATEWAY_TIMEOUT);
    assert_eq!(body, "the webhook did not decide within 200ms");
}

#[tokio::test(start_paused = true)]
async fn a_body_that_never_arrives_is_408() {
    let f = fixture();
    let never = http::Request::post(VALIDATE)
        .header(CONTENT_TYPE, "application/json")
        .body(StreamBody::new(futures::stream::pending::<
            Result<Frame<Bytes>, Infallible>,
        >()))
        .unwrap();
    let (status, body) = answer_of(f.dispatcher.serve(never).await).await;
    assert_eq!(status, StatusCode::REQUEST_TIMEOUT);
    assert!(String::from_utf8_lossy(&body).contains("did not arrive"));
}

#[tokio::test]
async fn a_denial_is_a_422_worded_as_kube_apiserver_validation() {
    let f = fixture();
    let denied = f
        .decide(VALIDATE, &create(&configmap("web", &json!({"deny": "true"}))))
        .await;
    assert_eq!(denied["allowed"], false);
    assert_eq!(
        denied["status"],
        json!({
            "status": "Failure", "code": 422, "reason": "Invalid",
            "message": r#"ConfigMap "web" is invalid: metadata.labels.deny: Invalid value: "true": remove the label"#,
            "details": {"name": "web", "kind": "ConfigMap", "causes": [
                {"reason": "FieldValueInvalid", "message": r#"Invalid value: "true": remove the label"#, "field": "metadata.labels.deny"}
            ]},
        })
    );

    let old = configmap("web", &json!({}));
    let mut new = old.clone();
    new["data"]["a"] = json!("2");
    let denied = f.decide(VALIDATE, &review("UPDATE", &new, &old)).await;
    assert_eq!(
        denied["status"]["message"],
        "data is immutable; create a new ConfigMap instead"
    );
    let allowed = f.decide(VALIDATE, &review("UPDATE", &old, &old)).await;
    assert_eq!(allowed["allowed"], true);
    let deleted = f.decide(VALIDATE, &review("DELETE", &Value::Null, &old)).await;
    assert_eq!(deleted["allowed"], true, "validate_delete allows unless implemented");
}

#[tokio::test]
async fn dry_runs_are_told_and_warnings_returned() {
    let f = fixture();
    let mut dry = create(&configmap("web", &json!({})));
    dry["request"]["dryRun"] = json!(true);
    let allowed = f.decide(VALIDATE, &dry).await;
    assert_eq!(allowed["allowed"], true);
    assert_eq!(allowed["warnings"], json!(["dry run"]));
}

#[tokio::test]
async fn a_defaulter_patches_only_what_it_changed() {
    let f = fixture();
    let mut object = configmap("web", &json!({"team": "a"}));
    object["metadata"]["fromTheFuture"] = json!({"x": [1, 2]});
    object["immutable"] = json!(null);
    object["unknownTopLevel"] = json!("kept");
    let answer = f.decide(MUTATE, &create(&object)).await;
    assert_eq!(answer["allowed"], true);
    let patch = base64::Engine::decode(
        &base64::engine::general_purpose::STANDARD,
        answer["patch"].as_str().unwrap(),
    )
    .unwrap();
    let patch: json_patch::Patch = serde_json::from_slice(&patch).unwrap();
    let mut patched = object.clone();
    json_patch::patch(&mut patched, &patch).unwrap();
    let mut expected = object.clone();
    expected["metadata"]["labels"]["defaulted"] = json!("yes");
    assert_eq!(patched, expected, "patch {patch:?}");

    let already = f.decide(MUTATE, &create(&expected)).await;
    assert_eq!(already["allowed"], true);
    assert!(
        already.get("patch").is_none() && already.get("patchType").is_none(),
        "{already}"
    );
    let deleted = f.decide(MUTATE, &review("DELETE", &Value::Null, &object)).await;
    assert!(deleted["allowed"] == true && deleted.get("patch").is_none());
}

#[tokio::test]
async fn a_v1beta1_review_is_answered_in_v1beta1() {
    let f = fixture();
    let mut old_style = create(&configmap("web", &json!({})));
    old_style["apiVersion"] = json!("admission.k8s.io/v1beta1");
    let (_, body) = f.send(VALIDATE, old_style.to_string()).await;
    let answer: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(answer["apiVersion"], "admission.k8s.io/v1beta1");
    assert_eq!(answer["response"]["allowed"], true);
}

#[test]
fn go_durations_parse() {
    assert_eq!(parse_go_duration("10s"), Some(Duration::from_secs(10)));
    assert_eq!(parse_go_duration("1m30s"), Some(Duration::from_secs(90)));
    assert_eq!(parse_go_duration("1.5s"), Some(Duration::from_millis(1500)));
    assert_eq!(parse_go_duration("250ms"), Some(Duration::from_millis(250)));
    assert_eq!(parse_go_duration(""), None);
    assert_eq!(parse_go_duration("10"), None);
    assert_eq!(parse_go_duration("s"), None);
    assert_eq!(parse_go_duration("10parsecs"), None);
    assert_eq!(apiserver_timeout("a=b&timeout=3s"), Some(Duration::from_secs(3)));
    assert_eq!(apiserver_timeout("timeout"), None);
}

/// JSON nested within the limit (100 levels) in a field no type knows is read,
/// defaulted and diffed on a thread with the 2 MiB stack of a tokio worker; deeper
/// JSON is refused with a 400 before any parser recurses into it, however deep.
#[test]
fn deeply_nested_objects_are_refused_before_parsing_and_the_stack_holds() {
    // Built as text: a deep `Value` would itself need a deep stack to build and drop.
    let body = |depth: usize| {
        let mut object = configmap("deep", &json!({}));
        object["extra"] = json!("NESTED");
        let nested = format!("{}1{}", "{\"a\":[".repeat(depth), "]}".repeat(depth));
        create(&object).to_string().replace("\"NESTED\"", &nested)
    };
    let answers = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                let f = fixture();
                let mut answers = Vec::new();
                for depth in [45, 51, 5000] {
                    for path in [MUTATE, VALIDATE] {
                        answers.push(f.send(path, body(depth)).await);
                    }
                }
                answers
            })
        })
        .unwrap()
        .join()
        .expect("no stack overflow");
    // The review, request and object levels plus two per nested level.
    for (status, answer) in &answers[..2] {
        assert_eq!(*status, StatusCode::OK);
        let answer: Value = serde_json::from_slice(answer).unwrap();
        assert_eq!(answer["response"]["allowed"], true, "{answer}");
    }
    for (status, answer) in &answers[2..] {
        assert_eq!(*status, StatusCode::BAD_REQUEST);
        let message = String::from_utf8_lossy(answer);
        assert!(message.contains("more than 100 deep"), "{message}");
    }
}
