//! Messages users read, in kube-apiserver's words: a bad name with the rule's example
//! and regular expression, server-side apply conflicts counted and grouped as kube
//! counts them, and a custom resource's unknown field under strict validation named
//! by the decoder.

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams, PostParams};
use serde_json::json;

use crate::common::{api_error, configmap, start};
use crate::raw::send;
use crate::schema_common::{SchemaType, server_minor, skip_before};

#[tokio::test]
async fn a_bad_name_is_refused_with_the_rule_kube_states() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let status = api_error(
        api.create(&PostParams::default(), &configmap("Bad_Name", &[], &[]))
            .await,
    );
    assert_eq!((status.code, status.reason.as_str()), (422, "Invalid"));
    // 1.19 called the rule "a DNS-1123 subdomain"; 1.32 "a lowercase RFC 1123 subdomain".
    let rule = if server_minor(&env).await < 20 {
        "a DNS-1123 subdomain"
    } else {
        "a lowercase RFC 1123 subdomain"
    };
    let detail = format!(
        "Invalid value: \"Bad_Name\": {rule} must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
    );
    assert_eq!(
        status.message,
        format!("ConfigMap \"Bad_Name\" is invalid: metadata.name: {detail}")
    );
    let causes = status.details.expect("details").causes;
    assert_eq!(causes.len(), 1, "{causes:?}");
    assert_eq!(
        (causes[0].field.as_str(), causes[0].message.as_str()),
        ("metadata.name", detail.as_str())
    );
    env.stop().await;
}

#[tokio::test]
async fn apply_conflicts_are_counted_and_grouped_by_manager() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let object = |data: serde_json::Value| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "owned"}, "data": data});
    api.patch(
        "owned",
        &PatchParams::apply("alpha"),
        &Patch::Apply(object(json!({"a": "1", "b": "1"}))),
    )
    .await
    .expect("applied");
    api.patch(
        "owned",
        &PatchParams {
            field_manager: Some("editor".into()),
            ..PatchParams::default()
        },
        &Patch::Merge(json!({"data": {"c": "1"}})),
    )
    .await
    .expect("merged");
    let one = api_error(
        api.patch(
            "owned",
            &PatchParams::apply("beta"),
            &Patch::Apply(object(json!({"a": "2"}))),
        )
        .await,
    );
    assert_eq!((one.code, one.reason.as_str()), (409, "Conflict"));
    assert_eq!(
        one.message,
        "Apply failed with 1 conflict: conflict with \"alpha\": .data.a"
    );
    let path = format!(
        "/api/v1/namespaces/{}/configmaps/owned?fieldManager=beta",
        env.namespace()
    );
    let request = http::Request::builder()
        .method(http::Method::PATCH)
        .uri(path)
        .header(http::header::CONTENT_TYPE, "application/apply-patch+yaml")
        .body(kube::client::Body::from(
            serde_json::to_vec(&object(json!({"a": "2", "b": "2", "c": "2"}))).expect("JSON"),
        ))
        .expect("a request");
    let three = crate::raw::send_request(&env.client(), request).await;
    assert_eq!(three.code, 409);
    assert_eq!(
        three.body["message"],
        "Apply failed with 3 conflicts: conflicts with \"alpha\":\n- .data.a\n- .data.b\nconflicts with \"editor\" using v1:\n- .data.c"
    );
    let mut causes: Vec<(String, String, String)> = three.body["details"]["causes"]
        .as_array()
        .expect("causes")
        .iter()
        .map(|c| {
            let text = |key: &str| c[key].as_str().unwrap_or_default().to_owned();
            (text("reason"), text("message"), text("field"))
        })
        .collect();
    causes.sort();
    let cause = |message: &str, field: &str| ("FieldManagerConflict".to_owned(), message.to_owned(), field.to_owned());
    assert_eq!(
        causes,
        vec![
            cause("conflict with \"alpha\"", ".data.a"),
            cause("conflict with \"alpha\"", ".data.b"),
            cause("conflict with \"editor\" using v1", ".data.c"),
        ]
    );
    assert!(
        three.body["details"].get("name").is_none(),
        "kube names no object: {}",
        three.body
    );
    env.stop().await;
}

#[tokio::test]
async fn strict_validation_names_the_kind_of_an_unknown_custom_field() {
    let env = start().await;
    if skip_before(&env, 25, "server-side field validation").await {
        return;
    }
    let spec = json!({"type": "object", "properties": {"size": {"type": "integer"}}});
    let schema = SchemaType::with_spec(&env, "Strict", &spec);
    schema.install(&env).await;
    let path = format!(
        "/apis/{}/v1/namespaces/{}/stricts?fieldValidation=Strict",
        schema.resource.group,
        env.namespace()
    );
    let body = serde_json::to_value(schema.object("a", &json!({"spec": {"size": 1, "bogus": true}}))).expect("JSON");
    let answer = send(&env.client(), http::Method::POST, &path, Some(&body)).await;
    assert_eq!(answer.code, 400, "{}", answer.body);
    assert_eq!(
        answer.body["message"],
        "Strict in version \"v1\" cannot be handled as a Strict: strict decoding error: unknown field \"spec.bogus\""
    );
    // The metadata is decoded strictly as an ObjectMeta first, so its unknown fields come
    // before the ones the schema prunes; without Strict they are warnings, as the rest.
    let mut body = body;
    body["metadata"]["zeta"] = json!(1);
    body["metadata"]["alpha"] = json!({"x": 1});
    let answer = send(&env.client(), http::Method::POST, &path, Some(&body)).await;
    assert_eq!(answer.code, 400, "{}", answer.body);
    assert_eq!(
        answer.body["message"],
        "Strict in version \"v1\" cannot be handled as a Strict: strict decoding error: unknown field \"metadata.alpha\", unknown field \"metadata.zeta\", unknown field \"spec.bogus\""
    );
    let warned = path.replace("fieldValidation=Strict", "fieldValidation=Warn");
    let answer = send(&env.client(), http::Method::POST, &warned, Some(&body)).await;
    assert_eq!(answer.code, 201, "{}", answer.body);
    let warnings: Vec<&str> = answer
        .headers
        .get_all(http::header::WARNING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    assert_eq!(
        warnings,
        [
            "299 - \"unknown field \\\"metadata.alpha\\\"\"",
            "299 - \"unknown field \\\"metadata.zeta\\\"\"",
            "299 - \"unknown field \\\"spec.bogus\\\"\""
        ]
    );
    assert!(answer.body["metadata"].get("zeta").is_none(), "{}", answer.body);
    schema.remove(&env).await;
    env.stop().await;
}
