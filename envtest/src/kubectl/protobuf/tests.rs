//! The transcoder against what kubectl 1.32 really sends: `fixtures/*.pb` are the bodies
//! of `kubectl create ...` captured on the wire (`kubectl run` sends JSON), `fixtures/*.json` the
//! same objects as kubectl prints them with `--dry-run=client -o json` (Go's JSON of the
//! same Go struct, which is what kube-apiserver decodes and stores).

use prost_reflect::DynamicMessage;
use serde_json::{Value, json};

use super::from_json::parse_go_duration;
use super::schema::Schema;
use super::to_json::{MAGIC, decode_object, go_duration};
use super::wire::{encode_object, encode_watch_event};
use super::{ProtobufError, accepts_only_protobuf};

/// (name, protobuf body, kubectl's JSON of it).
const FIXTURES: &[(&str, &[u8], &str)] = &[
    fixture!("configmap"),
    fixture!("cronjob"),
    fixture!("deployment"),
    fixture!("deployment-zero-replicas"),
    fixture!("job"),
    fixture!("namespace"),
    fixture!("poddisruptionbudget"),
    fixture!("priorityclass"),
    fixture!("resourcequota"),
    fixture!("role"),
    fixture!("secret"),
    fixture!("service"),
    fixture!("serviceaccount"),
];

macro_rules! fixture {
    ($name:literal) => {
        (
            $name,
            include_bytes!(concat!("fixtures/", $name, ".pb")),
            include_str!(concat!("fixtures/", $name, ".json")),
        )
    };
}
use fixture;

fn schema() -> &'static Schema {
    Schema::get().expect("the embedded descriptors load")
}

#[test]
fn kubectl_bodies_decode_to_the_json_of_the_same_objects() {
    for (name, body, expected) in FIXTURES {
        let decoded = decode_object(schema(), body).unwrap_or_else(|e| panic!("{name}: {e}"));
        let expected: Value = serde_json::from_str(expected).expect("fixture JSON");
        assert_eq!(decoded, expected, "{name}");
    }
}

#[test]
fn the_zero_values_go_keeps_survive_and_the_ones_it_drops_do_not() {
    let zero = FIXTURES
        .iter()
        .find(|f| f.0 == "deployment-zero-replicas")
        .expect("fixture");
    let decoded = decode_object(schema(), zero.1).expect("decodes");
    // `replicas` is a pointer in Go: an explicit 0 is kept (else it would default to 1).
    assert_eq!(decoded["spec"]["replicas"], 0, "{decoded}");
    // `minReadySeconds` and `paused` are plain omitempty fields: kubectl sent 0 and false.
    assert!(decoded["spec"].get("minReadySeconds").is_none(), "{decoded}");
    assert!(decoded["spec"].get("paused").is_none(), "{decoded}");
    // A zero `Time` is null, as metav1.Time marshals it.
    assert_eq!(decoded["metadata"]["creationTimestamp"], Value::Null);
}

/// The object without its null fields: to Go, null and absent are the same.
fn without_nulls(value: Value) -> Value {
    match value {
        Value::Object(fields) => Value::Object(
            fields
                .into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k, without_nulls(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_nulls).collect()),
        other => other,
    }
}

#[test]
fn fixtures_survive_a_round_trip_through_protobuf() {
    for (name, _, expected) in FIXTURES {
        let expected = without_nulls(serde_json::from_str(expected).expect("fixture JSON"));
        let encoded = encode_object(schema(), &expected).unwrap_or_else(|e| panic!("{name}: {e}"));
        let decoded = decode_object(schema(), &encoded).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(decoded, expected, "{name}");
    }
}

#[test]
fn special_encodings_survive_a_round_trip() {
    let objects = [
        // MicroTime, a core Event's int32 count and ObjectReference.
        json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e", "namespace": "ns",
            "creationTimestamp": "2024-05-06T07:08:09Z"},
            "eventTime": "2024-05-06T07:08:09.123456Z", "count": 3,
            "involvedObject": {"kind": "Pod", "name": "p", "uid": "u-1"}, "reason": "Started"}),
        // RawExtension and managedFields' FieldsV1: JSON carried as bytes.
        json!({"apiVersion": "apps/v1", "kind": "ControllerRevision", "revision": 2,
            "metadata": {"name": "r", "managedFields": [{"manager": "m", "operation": "Apply",
                "apiVersion": "apps/v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {}},
                "time": "2024-01-02T03:04:05Z"}]},
            "data": {"spec": {"replicas": 2, "nested": [1, "two", null]}}}),
        // Quantities, IntOrString both ways, bytes as base64, maps.
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "labels": {"a": "b", "c": ""}},
            "spec": {"volumes": [{"name": "v", "configMap": {"name": "cm", "defaultMode": 420}}],
                "containers": [{"name": "c", "image": "i",
                "env": [{"name": "E", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}}],
                "resources": {"limits": {"cpu": "500m", "memory": "1Gi"}},
                "readinessProbe": {"httpGet": {"port": "http", "path": "/"}},
                "livenessProbe": {"tcpSocket": {"port": 8080}}}]}}),
        json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}, "type": "Opaque",
            "data": {"password": "aHVudGVyMg==", "empty": ""}, "immutable": false}),
        // Lease's MicroTime renewTime and a pointer int32 set to zero.
        json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": "l"},
            "spec": {"holderIdentity": "me", "leaseDurationSeconds": 0, "renewTime": "2024-05-06T07:08:09.000001Z"}}),
        // apiextensions' JSON, JSONSchemaPropsOrBool and renamed fields ($ref, x-kubernetes-*).
        json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "ws.example.com"},
            "spec": {"group": "example.com", "scope": "Namespaced",
                "names": {"plural": "ws", "kind": "W"},
                "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
                    "type": "object", "x-kubernetes-preserve-unknown-fields": true,
                    "properties": {"size": {"type": "integer", "default": 3, "minimum": 1.0},
                        "extra": {"type": "object", "additionalProperties": false},
                        "labels": {"type": "object", "additionalProperties": {"type": "string"}}}}}}]}}),
    ];
    for object in objects {
        let encoded = encode_object(schema(), &object).unwrap_or_else(|e| panic!("{object}: {e}"));
        let decoded = decode_object(schema(), &encoded).unwrap_or_else(|e| panic!("{object}: {e}"));
        assert_eq!(decoded, object);
    }
}

#[test]
fn go_durations() {
    for (nanos, text) in [
        (0, "0s"),
        (1, "1ns"),
        (1_500, "1.5µs"),
        (300_000_000, "300ms"),
        (1_500_000_000, "1.5s"),
        (90_000_000_000, "1m30s"),
        (3_600_000_000_000, "1h0m0s"),
        (-5_000_000_000, "-5s"),
    ] {
        assert_eq!(go_duration(nanos), text);
        assert_eq!(parse_go_duration(text), Some(nanos), "{text}");
    }
    assert_eq!(parse_go_duration("1h30m"), Some(5_400_000_000_000));
    assert_eq!(parse_go_duration("5 parsecs"), None);
}

#[test]
fn garbage_is_an_error_never_a_panic() {
    let configmap = FIXTURES[0].1;
    let mut bodies: Vec<Vec<u8>> = vec![
        b"garbage".to_vec(),
        MAGIC.to_vec(),
        [MAGIC, b"\xff\xff\xff\xff\xff"].concat(),
        [MAGIC, b"\x0a\xff\xff\xff\xff\x0f"].concat(),
    ];
    // Every truncation of a real body, and the body with a length claiming far more.
    for end in 4..configmap.len() {
        bodies.push(configmap[..end].to_vec());
    }
    let mut oversized = configmap.to_vec();
    oversized[5] = 0xff;
    bodies.push(oversized);
    let mut decoded = 0;
    for body in &bodies {
        if decode_object(schema(), body).is_ok() {
            decoded += 1;
        }
    }
    // A few truncations end on a field boundary and are valid, smaller messages.
    assert!(decoded < bodies.len() / 4, "{decoded} of {} decoded", bodies.len());
    assert!(matches!(
        decode_object(schema(), b"garbage"),
        Err(ProtobufError::NotMarked)
    ));
}

#[test]
fn kinds_without_protobuf_are_refused() {
    let object = json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}});
    assert!(matches!(
        encode_object(schema(), &object),
        Err(ProtobufError::UnknownKind { .. })
    ));
    assert!(!schema().serves_path("/apis/example.com/v1/namespaces/a/widgets"));
    assert!(schema().serves_path("/apis/apps/v1/namespaces/a/deployments"));
    // metav1 kinds are served in every group version, as Go registers them.
    let status = json!({"apiVersion": "v1", "kind": "Status", "status": "Failure", "code": 404, "reason": "NotFound"});
    let encoded = encode_object(schema(), &status).expect("a Status encodes");
    assert_eq!(decode_object(schema(), &encoded).expect("decodes"), status);
}

#[test]
fn watch_events_are_length_prefixed_frames() {
    let event =
        json!({"type": "ADDED", "object": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}}});
    let frame = encode_watch_event(schema(), &event).expect("encodes");
    let length = u32::from_be_bytes(frame[..4].try_into().expect("four bytes")) as usize;
    assert_eq!(length, frame.len() - 4);
    // The embedded object is a whole envelope, magic included.
    let at = frame
        .windows(MAGIC.len())
        .position(|w| w == MAGIC)
        .expect("an embedded envelope");
    assert!(at > 4);
}

#[test]
fn only_protobuf_clients_get_protobuf() {
    let accept = |value: &str| {
        let mut headers = http::HeaderMap::new();
        headers.insert(http::header::ACCEPT, value.parse().expect("a header value"));
        accepts_only_protobuf(&headers)
    };
    assert!(accept("application/vnd.kubernetes.protobuf"));
    assert!(accept("application/vnd.kubernetes.protobuf;stream=watch"));
    // kubectl create's Accept: JSON is fine too, so JSON it gets.
    assert!(!accept("application/vnd.kubernetes.protobuf,application/json"));
    assert!(!accept("application/json"));
    assert!(!accept("*/*"));
    assert!(!accept(""));
}

/// Through the server: one request with a protobuf body and an `Accept` header.
async fn send(
    server: &crate::ApiServer,
    method: &str,
    path: &str,
    accept: &str,
    body: &[u8],
) -> (u16, String, bytes::Bytes) {
    use http_body_util::BodyExt;
    use tower_service::Service;
    let request = http::Request::builder()
        .method(method)
        .uri(path)
        .header(http::header::CONTENT_TYPE, super::MEDIA_TYPE)
        .header(http::header::ACCEPT, accept)
        .body(http_body_util::Full::new(bytes::Bytes::copy_from_slice(body)))
        .expect("a request");
    let response = server.clone().call(request).await.expect("infallible");
    let code = response.status().as_u16();
    let content_type = response
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let body = response.into_body().collect().await.expect("a body").to_bytes();
    (code, content_type, body)
}

const CONFIGMAPS: &str = "/api/v1/namespaces/default/configmaps";

#[tokio::test]
async fn a_protobuf_create_stores_the_object_and_protobuf_clients_read_it_back() {
    let server = crate::ApiServer::new(crate::ServerOptions::default());
    let (name, body, _) = FIXTURES.iter().find(|f| f.0 == "configmap").expect("fixture");
    let (code, content_type, created) = send(&server, "POST", CONFIGMAPS, "application/json", body).await;
    assert_eq!((code, content_type.as_str()), (201, "application/json"), "{name}");
    let created: Value = serde_json::from_slice(&created).expect("JSON");
    assert_eq!(created["data"], json!({"a": "b", "c": "d"}));
    assert!(created["metadata"]["uid"].is_string(), "{created}");
    // A client that accepts only protobuf reads the object, and errors, as protobuf.
    let (code, content_type, read) = send(&server, "GET", &format!("{CONFIGMAPS}/c1"), super::MEDIA_TYPE, b"").await;
    assert_eq!((code, content_type.as_str()), (200, super::MEDIA_TYPE));
    let read = decode_object(schema(), &read).expect("a protobuf object");
    assert_eq!(read["metadata"]["uid"], created["metadata"]["uid"]);
    assert_eq!(read["data"], created["data"]);
    let (code, _, missing) = send(&server, "GET", &format!("{CONFIGMAPS}/nope"), super::MEDIA_TYPE, b"").await;
    assert_eq!(code, 404);
    assert_eq!(
        decode_object(schema(), &missing).expect("a protobuf Status")["reason"],
        "NotFound"
    );
    // kubectl accepts protobuf and JSON: it gets JSON.
    let (_, content_type, _) = send(
        &server,
        "GET",
        &format!("{CONFIGMAPS}/c1"),
        "application/vnd.kubernetes.protobuf,application/json",
        b"",
    )
    .await;
    assert_eq!(content_type, "application/json");
}

#[tokio::test]
async fn protobuf_watches_stream_frames() {
    use http_body_util::BodyExt;
    use tower_service::Service;
    let server = crate::ApiServer::new(crate::ServerOptions::default());
    let body = FIXTURES.iter().find(|f| f.0 == "configmap").expect("fixture").1;
    send(&server, "POST", CONFIGMAPS, "application/json", body).await;
    let request = http::Request::builder()
        .uri(format!("{CONFIGMAPS}?watch=true"))
        .header(http::header::ACCEPT, super::MEDIA_TYPE)
        .body(http_body_util::Full::new(bytes::Bytes::new()))
        .expect("a request");
    let response = server.clone().call(request).await.expect("infallible");
    assert_eq!(
        response.headers()[http::header::CONTENT_TYPE],
        "application/vnd.kubernetes.protobuf;stream=watch"
    );
    let mut body = response.into_body();
    let frame = body.frame().await.expect("a frame").expect("data");
    let frame = frame.into_data().expect("data");
    let length = u32::from_be_bytes(frame[..4].try_into().expect("four bytes")) as usize;
    assert_eq!(length, frame.len() - 4);
    let event = DynamicMessage::decode(
        schema()
            .message(super::schema::special::WATCH_EVENT)
            .expect("WatchEvent"),
        &frame[4..],
    )
    .expect("a WatchEvent");
    assert_eq!(event.get_field_by_name("type").expect("type").as_str(), Some("ADDED"));
}

#[tokio::test]
async fn custom_resources_refuse_protobuf_as_kube_apiserver_does() {
    let server = crate::ApiServer::new(crate::ServerOptions::default());
    // A group the server does not serve is a plain-text 404 whatever the encoding.
    let crd = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced", "names": {"plural": "widgets", "kind": "Widget"},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}]}});
    let encoded = encode_object(schema(), &crd).expect("a CRD encodes");
    let crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    let (code, _, _) = send(&server, "POST", crds, super::MEDIA_TYPE, &encoded).await;
    assert_eq!(code, 201);
    let path = "/apis/example.com/v1/namespaces/default/widgets";
    let (code, _, _) = send(&server, "POST", path, "application/json", FIXTURES[0].1).await;
    assert_eq!(code, 415);
    let (code, content_type, refusal) = send(&server, "GET", path, super::MEDIA_TYPE, b"").await;
    assert_eq!((code, content_type.as_str()), (406, super::MEDIA_TYPE));
    assert_eq!(
        decode_object(schema(), &refusal).expect("a Status")["reason"],
        "NotAcceptable"
    );
}
