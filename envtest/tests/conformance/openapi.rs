//! `/openapi/v3` serves a document per group version with real
//! schemas (built-in types' and CRDs' own), each resource's schema found by its
//! `x-kubernetes-group-version-kind` as `kubectl explain` finds it; and the server
//! names the unknown fields of built-in objects, as strict field validation needs.

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::Api;
use serde_json::{Value, json};
use wheelhouse_envtest::TestEnv;

use crate::common::{CustomType, start};
use crate::raw::send;
use crate::served::at_least;

/// The document of a group version (`apis/apps/v1`), through the index. A real
/// server publishes a new CRD's group in the index a moment after the CRD is
/// established (its `OpenAPI` controller runs apart), so the index is read until it
/// lists the group version.
async fn document(env: &TestEnv, group_version: &str) -> Value {
    let client = env.client();
    let url = crate::common::eventually(&format!("/openapi/v3 to list {group_version}"), || {
        let client = client.clone();
        async move {
            let index = send(&client, http::Method::GET, "/openapi/v3", None).await;
            assert_eq!(index.code, 200, "{}", index.body);
            index.body["paths"][group_version]["serverRelativeURL"]
                .as_str()
                .map(str::to_owned)
        }
    })
    .await;
    let document = send(&env.client(), http::Method::GET, &url, None).await;
    assert_eq!(document.code, 200, "{url}");
    document.body
}

/// The schema of `group`/`version`/`kind` in `document`, by its GVK extension.
fn schema_of<'a>(document: &'a Value, group: &str, version: &str, kind: &str) -> &'a Value {
    let schemas = document["components"]["schemas"]
        .as_object()
        .expect("components.schemas");
    schemas
        .values()
        .find(|schema| {
            schema["x-kubernetes-group-version-kind"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|gvk| gvk["group"] == group && gvk["version"] == version && gvk["kind"] == kind)
        })
        .unwrap_or_else(|| panic!("a schema is tagged {group}/{version} {kind}"))
}

/// A property's schema, following a `$ref` (alone or in `allOf`) into the document.
fn property<'a>(document: &'a Value, schema: &'a Value, name: &str) -> &'a Value {
    let field = &schema["properties"][name];
    let reference = field["$ref"].as_str().or_else(|| field["allOf"][0]["$ref"].as_str());
    match reference.and_then(|r| r.strip_prefix("#/components/schemas/")) {
        Some(target) => &document["components"]["schemas"][target],
        None => field,
    }
}

#[tokio::test]
async fn openapi_v3_serves_the_schemas_of_built_in_types() {
    let env = start().await;
    if !at_least(&env, 24, "/openapi/v3").await {
        env.stop().await;
        return;
    }
    let apps = document(&env, "apis/apps/v1").await;
    let deployment = schema_of(&apps, "apps", "v1", "Deployment");
    let spec = property(&apps, deployment, "spec");
    assert_eq!(spec["properties"]["replicas"]["type"], "integer", "{spec}");
    let template = property(&apps, spec, "template");
    let pod = property(&apps, template, "spec");
    assert!(pod["properties"]["containers"].is_object(), "{pod}");
    let core = document(&env, "api/v1").await;
    let config_map = schema_of(&core, "", "v1", "ConfigMap");
    assert_eq!(config_map["properties"]["data"]["type"], "object");
    env.stop().await;
}

#[tokio::test]
async fn openapi_v3_serves_a_crds_own_schema() {
    let env = start().await;
    if !at_least(&env, 24, "/openapi/v3").await {
        env.stop().await;
        return;
    }
    let custom = CustomType::new(&env, "Explained", "explaineds", true);
    custom.install(&env).await;
    let group = custom.resource.group.clone();
    let document = document(&env, &format!("apis/{group}/v1")).await;
    let schema = schema_of(&document, &group, "v1", "Explained");
    assert_eq!(
        schema["properties"]["spec"]["properties"]["replicas"]["type"], "integer",
        "{schema}"
    );
    let metadata = property(&document, schema, "metadata");
    assert!(
        metadata["properties"]["name"].is_object(),
        "metadata is ObjectMeta: {metadata}"
    );
    custom.remove(&env).await;
    env.stop().await;
}

/// Strict field validation names a built-in object's unknown fields (400); the
/// default (Warn) stores the object without them and says so in a warning.
#[tokio::test]
async fn unknown_fields_of_built_in_objects_are_named() {
    let env = start().await;
    if !at_least(&env, 25, "server-side field validation").await {
        env.stop().await;
        return;
    }
    let path = format!("/api/v1/namespaces/{}/configmaps", env.namespace());
    let body = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "typo", "labelz": {"a": "b"}},
        "data": {"a": "b"}, "dta": {"c": "d"}});
    let strict = send(
        &env.client(),
        http::Method::POST,
        &format!("{path}?fieldValidation=Strict"),
        Some(&body),
    )
    .await;
    assert_eq!(strict.code, 400, "{}", strict.body);
    let message = strict.body["message"].as_str().unwrap_or_default();
    for field in ["unknown field \"dta\"", "unknown field \"metadata.labelz\""] {
        assert!(message.contains(field), "{message}");
    }
    let warned = send(
        &env.client(),
        http::Method::POST,
        &format!("{path}?fieldValidation=Warn"),
        Some(&body),
    )
    .await;
    assert_eq!(warned.code, 201, "{}", warned.body);
    let warnings: Vec<&str> = warned
        .headers
        .get_all(http::header::WARNING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("unknown field") && w.contains("dta")),
        "{warnings:?}"
    );
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let stored = api.get("typo").await.expect("stored");
    assert_eq!(stored.data.unwrap_or_default().get("a").map(String::as_str), Some("b"));
    env.stop().await;
}
