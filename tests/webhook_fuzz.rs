//! A time-bounded fuzz test of the webhook server's request decoder and the WebApp's
//! webhooks: arbitrary bytes, arbitrary JSON shaped like an `AdmissionReview`, and
//! valid reviews corrupted byte by byte, sent in process to both paths.
//!
//! It checks that nothing panics (the server's own code, or a handler: a caught panic
//! answers code 500) and that nothing is allowed by accident: every allowed answer is
//! checked against an oracle written apart from the server (the request must be a
//! review of a WebApp that the validator's rules, restated here, accept).
//!
//! `WEBHOOK_FUZZ_SECONDS` (default 3) bounds it; `WEBHOOK_FUZZ_SEED` replays a run.

use std::time::{Duration, Instant};

use base64::Engine as _;
use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use proptest::strategy::ValueTree as _;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Map, Value, json};
use webapp::WebApp;
use wheelhouse::webhook::{WebhookOptions, WebhookServer};
use wheelhouse_examples::webapp;
use wheelhouse_examples::webapp::webhooks;

const VALIDATE: &str = "/validate-example-com-v1-webapp";
const MUTATE: &str = "/mutate-example-com-v1-webapp";

fn leaf() -> BoxedStrategy<Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        ".{0,12}".prop_map(Value::from),
    ]
    .boxed()
}

fn any_json() -> BoxedStrategy<Value> {
    leaf()
        .prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                vec(inner.clone(), 0..4).prop_map(Value::Array),
                btree_map(".{0,8}", inner, 0..4).prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
        .boxed()
}

fn image() -> BoxedStrategy<Value> {
    prop_oneof![
        prop::sample::select(vec![
            "nginx",
            "nginx:latest",
            "nginx:1.27",
            "registry:5000/team/app",
            "registry:5000/team/app:2",
            "app@sha256:00",
            "",
            ":",
            "a:",
            "/",
            "a/b:latest",
            " ",
            "nginx@",
            "@",
            "nginx@latest",
            "nginx:latest ",
            "nginx:1.27 ",
            "nginx:1.27\n",
            "nginx:1.27\u{200b}",
            "app@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "app:1.2@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
            "app@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdeX",
            "Nginx:1.27",
        ])
        .prop_map(Value::from),
        "[a-z0-9:/@.]{0,16}".prop_map(Value::from),
        any_json(),
    ]
    .boxed()
}

fn number() -> BoxedStrategy<Value> {
    prop_oneof![
        (-5i64..60).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        Just(Value::Null),
        "[0-9]{1,3}".prop_map(Value::from),
        any_json(),
    ]
    .boxed()
}

/// Sets `key` when the strategy chose a value.
fn put(object: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    if let Some(value) = value {
        object.insert(key.to_owned(), value);
    }
}

fn webapp() -> BoxedStrategy<Value> {
    let spec = (
        image(),
        prop::option::of(number()),
        prop::option::of(number()),
        prop::option::of(any_json()),
    )
        .prop_map(|(image, replicas, port, extra)| {
            let mut spec = Map::new();
            spec.insert("image".into(), image);
            put(&mut spec, "replicas", replicas);
            put(&mut spec, "port", port);
            put(&mut spec, "extra", extra);
            Value::Object(spec)
        });
    let metadata = prop_oneof![
        "[a-z]{0,6}".prop_map(|name| json!({"name": name})),
        "[a-z]{1,6}".prop_map(|name| json!({"name": name, "labels": {"team": "x"}})),
        "[a-z]{1,6}".prop_map(|name| json!({"name": name, "deletionTimestamp": "2026-01-01T00:00:00Z", "finalizers": ["example.com/cleanup"]})),
        any_json(),
    ];
    (
        prop::option::of(metadata),
        prop_oneof![4 => spec, 1 => any_json()],
        prop::option::of(any_json()),
        prop_oneof![12 => Just("WebApp"), 1 => Just("Pod")],
    )
        .prop_map(|(metadata, spec, status, kind)| {
            let mut object = Map::new();
            object.insert("apiVersion".into(), json!("example.com/v1"));
            object.insert("kind".into(), json!(kind));
            put(&mut object, "metadata", metadata);
            object.insert("spec".into(), spec);
            put(&mut object, "status", status);
            Value::Object(object)
        })
        .boxed()
}

fn review() -> BoxedStrategy<Value> {
    let version = prop_oneof![
        12 => Just("admission.k8s.io/v1"),
        2 => Just("admission.k8s.io/v1beta1"),
        1 => prop::sample::select(vec!["v1", "", "admission.k8s.io/v2"]),
    ];
    let kind = prop_oneof![
        12 => Just(json!({"group": "example.com", "version": "v1", "kind": "WebApp"})),
        1 => Just(json!({"group": "", "version": "v1", "kind": "ConfigMap"})),
        1 => any_json(),
    ];
    let operation = prop_oneof![
        12 => prop::sample::select(vec!["CREATE", "UPDATE", "DELETE", "CONNECT"]).prop_map(Value::from),
        1 => any_json(),
    ];
    let uid = prop_oneof![12 => "[a-f0-9-]{1,12}".prop_map(Value::from), 1 => "[a-f0-9-]{36,40}".prop_map(Value::from), 1 => any_json()];
    let object = prop_oneof![8 => webapp(), 1 => Just(Value::Null), 1 => any_json()];
    let old_object = prop_oneof![6 => webapp(), 2 => Just(Value::Null), 1 => any_json()];
    let resource = prop_oneof![
        12 => Just(json!({"group": "example.com", "version": "v1", "resource": "webapps"})),
        1 => Just(json!({"group": "", "version": "v1", "resource": "pods"})),
    ];
    let request = (
        resource,
        prop::option::weighted(0.95, uid),
        prop::option::weighted(0.95, kind),
        prop::option::weighted(0.95, operation),
        prop::option::weighted(0.9, object),
        prop::option::weighted(0.8, old_object),
        prop::option::of(prop_oneof![4 => any::<bool>().prop_map(Value::from), 1 => any_json()]),
    )
        .prop_map(|(resource, uid, kind, operation, object, old_object, dry_run)| {
            let mut request = Map::new();
            put(&mut request, "uid", uid);
            put(&mut request, "kind", kind);
            request.insert("resource".into(), resource);
            request.insert("name".into(), json!("web"));
            request.insert("namespace".into(), json!("shop"));
            put(&mut request, "operation", operation);
            request.insert("userInfo".into(), json!({"username": "fuzz"}));
            put(&mut request, "object", object);
            put(&mut request, "oldObject", old_object);
            put(&mut request, "dryRun", dry_run);
            Value::Object(request)
        });
    (
        version,
        prop_oneof![16 => Just("AdmissionReview"), 1 => Just("Pod"), 1 => Just("")],
        prop_oneof![16 => request, 1 => any_json()],
    )
        .prop_map(|(api_version, kind, request)| json!({"apiVersion": api_version, "kind": kind, "request": request}))
        .boxed()
}

/// Bodies: raw bytes, reviews, and reviews with bytes changed or cut short.
fn body() -> BoxedStrategy<Vec<u8>> {
    let corrupted = (
        review(),
        vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
        any::<prop::sample::Index>(),
        any::<bool>(),
    )
        .prop_map(|(review, flips, cut, truncate)| {
            let mut bytes = review.to_string().into_bytes();
            for (at, byte) in flips {
                let at = at.index(bytes.len());
                bytes[at] = byte;
            }
            if truncate {
                bytes.truncate(cut.index(bytes.len() + 1));
            }
            bytes
        });
    prop_oneof![
        1 => vec(any::<u8>(), 0..512),
        6 => review().prop_map(|r| r.to_string().into_bytes()),
        2 => corrupted,
    ]
    .boxed()
}

/// The validator's rules, restated apart from it (looser where the grammar is long:
/// an allow it calls invalid is a bug, never the other way round).
fn valid(spec: &webapp::WebAppSpec) -> bool {
    let image = spec.image.as_str();
    let tag_ok = |tag: &str| {
        !tag.is_empty()
            && tag != "latest"
            && tag.len() <= 128
            && tag.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
    };
    let name_ok =
        |name: &str| !name.is_empty() && !name.starts_with('/') && !name.ends_with('/') && !name.contains("//");
    let pinned = if let Some((name, digest)) = image.split_once('@') {
        let hex = |length: usize, hex: &str| hex.len() == length && hex.chars().all(|c| c.is_ascii_hexdigit());
        let digest_ok = match digest.split_once(':') {
            Some(("sha256", h)) => hex(64, h),
            Some(("sha384", h)) => hex(96, h),
            Some(("sha512", h)) => hex(128, h),
            _ => false,
        };
        let last = name.rsplit('/').next().unwrap_or_default();
        let name_without_tag = match last.rsplit_once(':') {
            Some((_, tag)) if !tag.chars().all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c)) => return false,
            Some(_) => &name[..name.len() - last.len() + last.rfind(':').unwrap_or(last.len())],
            None => name,
        };
        digest_ok && name_ok(name_without_tag)
    } else {
        let last = image.rsplit('/').next().unwrap_or_default();
        last.rsplit_once(':')
            .is_some_and(|(repository, tag)| tag_ok(tag) && !repository.is_empty())
            && name_ok(&image[..image.rfind(':').unwrap_or(0)])
    };
    image.is_ascii()
        && !image.chars().any(char::is_whitespace)
        && pinned
        && (1..=50).contains(&spec.replicas.unwrap_or(1))
        && (1..=65535).contains(&spec.port())
}

/// The object as the API server sent it, less its metadata.
fn without_metadata(object: &Value) -> Value {
    let mut object = object.clone();
    if let Some(fields) = object.as_object_mut() {
        fields.remove("metadata");
    }
    object
}

fn decodes(value: &Value) -> Option<WebApp> {
    serde_json::from_value(value.clone()).ok()
}

/// Why an allowed answer should not have been, if it should not.
fn accidental_allow(path: &str, sent: &[u8], response: &Value) -> Option<String> {
    let Ok(review) = serde_json::from_slice::<Value>(sent) else {
        // JSON's grammar bounds no number: a body whose numbers overflow an f64 is still
        // JSON, and the webhook reads only the parts it needs (a CONNECT's object not at
        // all). This oracle cannot judge such a body further; it must only not panic.
        if serde_json::from_slice::<serde::de::IgnoredAny>(sent).is_ok() {
            return None;
        }
        return Some("allowed a body that is not JSON".into());
    };
    if review["kind"] != "AdmissionReview"
        || !matches!(
            review["apiVersion"].as_str(),
            Some("admission.k8s.io/v1" | "admission.k8s.io/v1beta1")
        )
    {
        return Some("allowed something that is not an AdmissionReview".into());
    }
    let request = &review["request"];
    if request["uid"].as_str().is_none_or(str::is_empty) || response["uid"] != request["uid"] {
        return Some("allowed without echoing a request uid".into());
    }
    if request["uid"].as_str().is_some_and(|uid| uid.len() > 36) {
        return Some("allowed a uid longer than a UUID's 36 characters".into());
    }
    if request["kind"] != json!({"group": "example.com", "version": "v1", "kind": "WebApp"}) {
        return Some("allowed a request for another kind".into());
    }
    if path == VALIDATE
        && request["resource"] != json!({"group": "example.com", "version": "v1", "resource": "webapps"})
        && !matches!(request["operation"].as_str(), Some("CONNECT"))
    {
        return Some("allowed a request for another resource".into());
    }
    // The objects the webhook reads must say they are WebApps.
    let ours = |object: &Value| object["kind"] == "WebApp" && object["apiVersion"] == "example.com/v1";
    let read = match (path, request["operation"].as_str().unwrap_or_default()) {
        (VALIDATE, "UPDATE") => vec![&request["object"], &request["oldObject"]],
        (VALIDATE, "DELETE") => vec![&request["oldObject"]],
        (_, "CREATE" | "UPDATE") => vec![&request["object"]],
        _ => Vec::new(),
    };
    if !read.into_iter().all(ours) {
        return Some("allowed an object whose own kind is another".into());
    }
    let (object, old) = (decodes(&request["object"]), decodes(&request["oldObject"]));
    let operation = request["operation"].as_str().unwrap_or_default();
    let fine = match (path, operation) {
        (VALIDATE, "CREATE") => object.is_some_and(|o| valid(&o.spec)),
        (VALIDATE, "UPDATE") => match (object, old) {
            // An object being deleted may lose its finalizers, whatever its spec.
            (Some(_), Some(old))
                if old.metadata.deletion_timestamp.is_some()
                    && without_metadata(&request["object"]) == without_metadata(&request["oldObject"]) =>
            {
                true
            }
            (Some(new), Some(old)) => {
                valid(&new.spec) && (new.spec.port() == old.spec.port() || !(1..=65535).contains(&old.spec.port()))
            }
            _ => false,
        },
        (VALIDATE, "DELETE") => old.is_some(),
        // An object being deleted is not defaulted: allowed as it is, with no patch,
        // so a finalizer can always be removed.
        (MUTATE, "CREATE" | "UPDATE") if object.as_ref().is_some_and(|o| o.metadata.deletion_timestamp.is_some()) => {
            response["patch"].is_null()
        }
        (MUTATE, "CREATE" | "UPDATE") => object.is_some() && defaulted(request, response),
        (_, "CONNECT") | (MUTATE, "DELETE") => true,
        _ => false,
    };
    (!fine).then(|| format!("allowed {operation} on {path}"))
}

/// The mutating answer's patch applies to the object and leaves it defaulted.
fn defaulted(request: &Value, response: &Value) -> bool {
    let mut object = request["object"].clone();
    if let Some(patch) = response["patch"].as_str() {
        let Ok(patch) = base64::engine::general_purpose::STANDARD.decode(patch) else {
            return false;
        };
        let Ok(patch) = serde_json::from_slice::<json_patch::Patch>(&patch) else {
            return false;
        };
        if json_patch::patch(&mut object, &patch).is_err() {
            return false;
        }
    }
    decodes(&object).is_some_and(|webapp| {
        webapp.spec.replicas.is_some()
            && webapp.spec.port.is_some()
            && webapp
                .metadata
                .labels
                .is_some_and(|l| l.get("app.kubernetes.io/managed-by").is_some_and(|v| v == "wheelhouse"))
    })
}

#[derive(Default, Debug)]
struct Tally {
    inputs: u64,
    refused: u64,
    denied: u64,
    allowed: u64,
}

async fn send(server: &WebhookServer, path: &str, body: &[u8], tally: &mut Tally) -> Result<(), String> {
    let request = http::Request::post(path)
        .header("content-type", "application/json")
        .body(Full::new(Bytes::copy_from_slice(body)))
        .map_err(|e| e.to_string())?;
    let answer = server.handle(request).await;
    let status = answer.status();
    let answer = answer
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    tally.inputs += 1;
    if status != 200 {
        if !status.is_client_error() {
            return Err(format!("HTTP {status}: {}", String::from_utf8_lossy(&answer)));
        }
        tally.refused += 1;
        return Ok(());
    }
    let answer: Value = serde_json::from_slice(&answer).map_err(|e| format!("a 200 that is not JSON: {e}"))?;
    let response = &answer["response"];
    if response["status"]["code"] == 500 {
        return Err(format!("internal error: {}", response["status"]["message"]));
    }
    if response["allowed"] == true {
        tally.allowed += 1;
        if let Some(why) = accidental_allow(path, body, response) {
            return Err(why);
        }
    } else {
        tally.denied += 1;
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_input_panics_or_is_allowed_by_accident() {
    let seconds: u64 = std::env::var("WEBHOOK_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let seed: u64 = std::env::var("WEBHOOK_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default();
            now.as_secs() ^ u64::from(now.subsec_nanos())
        });
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let config = Config {
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes));
    let server = webhooks::webhook_server(WebhookOptions {
        request_timeout: Duration::from_secs(10),
        ..WebhookOptions::default()
    });
    let inputs = (body(), prop::bool::ANY);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut tally = Tally::default();
    while Instant::now() < deadline {
        let (body, validate) = inputs.new_tree(&mut runner).expect("an input").current();
        let path = if validate { VALIDATE } else { MUTATE };
        if let Err(problem) = send(&server, path, &body, &mut tally).await {
            panic!(
                "{problem}\npath {path}, body {:?}\nreplay with WEBHOOK_FUZZ_SEED={seed}",
                String::from_utf8_lossy(&body)
            );
        }
    }
    println!(
        "fuzz: {} inputs in {seconds} s (seed {seed}) without a panic or an accidental allow: {} refused (HTTP 4xx), {} denied, {} allowed and checked",
        tally.inputs, tally.refused, tally.denied, tally.allowed
    );
    assert!(
        tally.allowed > 0 && tally.denied > 0 && tally.refused > 0,
        "the inputs reach every outcome: {tally:?}"
    );
}
