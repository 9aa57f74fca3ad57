//! What the differential fuzzer (`envtest/differential`) found in the ground no other
//! area of this suite covers: how a write's body is read (its media type, a kind and
//! apiVersion left out, a body that is not an object of the right shape), and what is
//! stored of it (the fields its type lacks are not).

use serde_json::{Value, json};

use crate::common::{IMAGE, delete_quietly, start};
use crate::raw::{Answer, send, send_request};

/// POSTs `body` (text) with `content_type` to `path`.
async fn post_text(client: &kube::Client, path: &str, content_type: &str, body: &str) -> Answer {
    let request = http::Request::builder()
        .method(http::Method::POST)
        .uri(path)
        .header(http::header::CONTENT_TYPE, content_type)
        .header(http::header::ACCEPT, "application/json")
        .body(kube::client::Body::from(body.as_bytes().to_vec()))
        .expect("a valid request");
    send_request(client, request).await
}

/// The `reason` of a refusal.
fn reason(answer: &Answer) -> &str {
    answer.body["reason"].as_str().unwrap_or_default()
}

/// A field of the wrong JSON type anywhere in a built-in object (a spec, a template's
/// metadata, a list item) is a 400 from the decoder, naming the kind, before any
/// default or rule looks at the object; the server goes on serving.
#[tokio::test]
async fn a_field_of_the_wrong_type_is_a_bad_request() {
    let env = start().await;
    let ns = env.namespace().to_owned();
    let namespace_name = format!("{ns}-wrong");
    let pod = |spec: Value| json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "wrong"}, "spec": spec});
    let cases = [
        (
            "/api/v1/namespaces".to_owned(),
            "Namespace",
            json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace_name}, "spec": "text"}),
        ),
        (
            format!("/apis/batch/v1/namespaces/{ns}/jobs"),
            "Job",
            json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "wrong"}, "spec": {
                "template": {"metadata": "text", "spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": IMAGE}]}},
            }}),
        ),
        (
            format!("/api/v1/namespaces/{ns}/pods"),
            "Pod",
            pod(json!({"containers": ["text"]})),
        ),
        (
            format!("/api/v1/namespaces/{ns}/pods"),
            "Pod",
            pod(json!({"initContainers": ["text"], "containers": [{"name": "c", "image": IMAGE}]})),
        ),
    ];
    for (path, kind, body) in cases {
        let answer = send(&env.client(), http::Method::POST, &path, Some(&body)).await;
        if answer.code == 201 {
            delete_quietly(
                &kube::Api::<k8s_openapi::api::core::v1::Namespace>::all(env.client()),
                &namespace_name,
            )
            .await;
        }
        assert_eq!(
            (answer.code, reason(&answer)),
            (400, "BadRequest"),
            "{kind}: {}",
            answer.body
        );
        let message = answer.body["message"].as_str().unwrap_or_default();
        let prefix = format!("{kind} in version \"v1\" cannot be handled as a {kind}: ");
        assert!(message.starts_with(&prefix), "{kind}: {message}");
    }
    let still = send(
        &env.client(),
        http::Method::GET,
        &format!("/api/v1/namespaces/{ns}/configmaps"),
        None,
    )
    .await;
    assert_eq!(still.code, 200, "the server still answers");
    env.stop().await;
}

/// Fields a built-in type does not have are dropped as the body is decoded, whatever
/// `fieldValidation` said of them (Ignore here): neither the answer nor the stored
/// object has them.
#[tokio::test]
async fn fields_the_type_lacks_are_not_stored() {
    let env = start().await;
    let path = format!("/api/v1/namespaces/{}/configmaps", env.namespace());
    let body = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "stray", "stray": 1},
                      "data": {"a": "b"}, "stray": {"x": 1}});
    let created = send(
        &env.client(),
        http::Method::POST,
        &format!("{path}?fieldValidation=Ignore"),
        Some(&body),
    )
    .await;
    assert_eq!(created.code, 201, "{}", created.body);
    let read = send(&env.client(), http::Method::GET, &format!("{path}/stray"), None).await;
    for (what, object) in [("the answer", &created.body), ("the stored object", &read.body)] {
        assert!(object.get("stray").is_none(), "{what}: {object}");
        assert!(object["metadata"].get("stray").is_none(), "{what}: {object}");
        assert_eq!(object["data"], json!({"a": "b"}), "{what}");
    }
    env.stop().await;
}

/// A built-in object's body may leave out `kind` and `apiVersion` on create and on
/// update: the decoder takes them from the path, and the answer carries them.
#[tokio::test]
async fn a_built_in_body_may_leave_out_kind_and_api_version() {
    let env = start().await;
    let path = format!("/api/v1/namespaces/{}/configmaps", env.namespace());
    let created = send(
        &env.client(),
        http::Method::POST,
        &path,
        Some(&json!({"metadata": {"name": "bare"}, "data": {"a": "b"}})),
    )
    .await;
    assert_eq!(created.code, 201, "{}", created.body);
    assert_eq!(
        (&created.body["kind"], &created.body["apiVersion"]),
        (&json!("ConfigMap"), &json!("v1"))
    );
    let mut updated = created.body.clone();
    let fields = updated.as_object_mut().expect("an object");
    fields.remove("kind");
    fields.remove("apiVersion");
    updated["data"]["a"] = json!("c");
    let answer = send(
        &env.client(),
        http::Method::PUT,
        &format!("{path}/bare"),
        Some(&updated),
    )
    .await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    assert_eq!(
        (&answer.body["kind"], &answer.body["data"]["a"]),
        (&json!("ConfigMap"), &json!("c"))
    );
    env.stop().await;
}

/// A body of `null` or `{}` decodes to an object with no name, which is invalid (422,
/// the name required), not a malformed request.
#[tokio::test]
async fn an_empty_body_is_an_object_without_a_name() {
    let env = start().await;
    let path = format!("/api/v1/namespaces/{}/configmaps", env.namespace());
    for body in ["null", "{}"] {
        let answer = post_text(&env.client(), &path, "application/json", body).await;
        assert_eq!(
            (answer.code, reason(&answer)),
            (422, "Invalid"),
            "{body}: {}",
            answer.body
        );
        let cause = &answer.body["details"]["causes"][0];
        assert_eq!(
            (&cause["field"], &cause["reason"]),
            (&json!("metadata.name"), &json!("FieldValueRequired")),
            "{body}: {}",
            answer.body
        );
    }
    env.stop().await;
}

/// A create's body is read as its media type says: YAML is as good as JSON; a media
/// type the server has no serializer for is a 415 that lists the ones it has.
#[tokio::test]
async fn a_body_is_read_as_its_media_type_says() {
    let env = start().await;
    let path = format!("/api/v1/namespaces/{}/configmaps", env.namespace());
    let yaml = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: in-yaml\ndata:\n  a: b\n";
    let created = post_text(&env.client(), &path, "application/yaml", yaml).await;
    assert_eq!(created.code, 201, "{}", created.body);
    assert_eq!(created.body["data"], json!({"a": "b"}));
    let json = r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"as-text"}}"#;
    let refused = post_text(&env.client(), &path, "text/plain", json).await;
    assert_eq!(
        (refused.code, reason(&refused)),
        (415, "UnsupportedMediaType"),
        "{}",
        refused.body
    );
    assert_eq!(
        refused.body["message"],
        "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf"
    );
    let absent = send(&env.client(), http::Method::GET, &format!("{path}/as-text"), None).await;
    assert_eq!(absent.code, 404, "nothing was stored");
    env.stop().await;
}
