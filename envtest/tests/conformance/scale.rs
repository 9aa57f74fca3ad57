//! Writes through `/scale` as the registries check them: a built-in resource's Scale
//! with negative replicas is a 422 of `Scale.autoscaling` (`ValidateScale`), a custom
//! resource's is refused by its CRD's scale paths (`.spec.replicas: should be a
//! non-negative integer`), on `/scale` and on the main endpoint alike; replicas that
//! are not a number are a 400 in a PUT and a 422 of the `patch` in a patch; nothing
//! refused is stored.

use serde_json::json;

use crate::common::{CustomType, IMAGE, deployment, start};
use crate::raw::{Answer, send, send_request};
use crate::schema_common::server_minor;

async fn merge(client: &kube::Client, path: &str, body: &serde_json::Value) -> Answer {
    let request = http::Request::builder()
        .method(http::Method::PATCH)
        .uri(path)
        .header(http::header::CONTENT_TYPE, "application/merge-patch+json")
        .body(kube::client::Body::from(serde_json::to_vec(body).unwrap()))
        .unwrap();
    send_request(client, request).await
}

/// `replicas: -1` through a Deployment's `/scale` is refused, by PUT and by patch.
#[tokio::test]
async fn negative_replicas_through_a_built_in_scale_are_refused() {
    let env = start().await;
    let client = env.client();
    let deployments = format!("/apis/apps/v1/namespaces/{}/deployments", env.namespace());
    let web = serde_json::to_value(deployment("web", 2, &json!([{"name": "app", "image": IMAGE}]))).unwrap();
    let mut web = web;
    web["apiVersion"] = json!("apps/v1");
    web["kind"] = json!("Deployment");
    assert_eq!(
        send(&client, http::Method::POST, &deployments, Some(&web)).await.code,
        201
    );
    let scale = format!("{deployments}/web/scale");
    let refused = [
        merge(&client, &scale, &json!({"spec": {"replicas": -1}})).await,
        send(
            &client,
            http::Method::PUT,
            &scale,
            // With its namespace: 1.19 did not fill it in before checking.
            Some(&json!({"apiVersion": "autoscaling/v1", "kind": "Scale",
                "metadata": {"name": "web", "namespace": env.namespace()}, "spec": {"replicas": -1}})),
        )
        .await,
    ];
    for answer in refused {
        assert_eq!(answer.code, 422, "{}", answer.body);
        assert_eq!(
            answer.body["message"],
            "Scale.autoscaling \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0"
        );
        assert_eq!(
            answer.body["details"]["causes"],
            json!([{"reason": "FieldValueInvalid", "message": "Invalid value: -1: must be greater than or equal to 0", "field": "spec.replicas"}])
        );
    }
    let put = send(
        &client,
        http::Method::PUT,
        &scale,
        Some(&json!({"apiVersion": "autoscaling/v1", "kind": "Scale", "metadata": {"name": "web"}, "spec": {"replicas": "x"}})),
    )
    .await;
    assert_eq!(put.code, 400, "{}", put.body);
    // 1.19 decoded with json-iterator, whose complaint reads differently.
    let decoder_words = server_minor(&env).await > 19;
    if decoder_words {
        assert_eq!(
            put.body["message"],
            "Scale in version \"v1\" cannot be handled as a Scale: json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32"
        );
    }
    let patched = merge(&client, &scale, &json!({"spec": {"replicas": "x"}})).await;
    assert_eq!(patched.code, 422, "{}", patched.body);
    assert_eq!(patched.body["details"]["causes"][0]["field"], "patch");
    let message = patched.body["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with(" \"\" is invalid: patch: Invalid value: \"{"),
        "{message}"
    );
    if decoder_words {
        assert!(
            message
                .ends_with("json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32"),
            "{message}"
        );
    }
    let stored = send(&client, http::Method::GET, &format!("{deployments}/web"), None).await;
    assert_eq!(stored.body["spec"]["replicas"], 2, "nothing refused was stored");
    env.stop().await;
}

/// A custom resource's scale paths hold counts: a negative one is refused through
/// `/scale`, the main endpoint and `/status`, and a patch of `/scale` that leaves the
/// object without replicas is a 400.
#[tokio::test]
async fn a_custom_resource_s_scale_paths_hold_counts() {
    let env = start().await;
    let custom = CustomType::new(&env, "Scaled", "scaleds", true);
    custom.install(&env).await;
    let client = env.client();
    let kind = format!("Scaled.{}", custom.resource.group);
    let path = format!(
        "/apis/{}/namespaces/{}/scaleds",
        custom.resource.api_version,
        env.namespace()
    );
    let object = |name: &str, spec: serde_json::Value| json!({"apiVersion": custom.resource.api_version, "kind": "Scaled", "metadata": {"name": name}, "spec": spec});
    let created = send(
        &client,
        http::Method::POST,
        &path,
        Some(&object("bad", json!({"replicas": -1}))),
    )
    .await;
    assert_eq!(created.code, 422, "{}", created.body);
    assert_eq!(
        created.body["message"],
        format!("{kind} \"bad\" is invalid: .spec.replicas: Invalid value: -1: should be a non-negative integer")
    );
    let created = send(&client, http::Method::POST, &path, Some(&object("empty", json!({})))).await;
    assert_eq!(created.code, 201, "{}", created.body);
    let answer = merge(
        &client,
        &format!("{path}/empty/scale"),
        &json!({"metadata": {"labels": {"a": "b"}}}),
    )
    .await;
    assert_eq!(answer.code, 400, "{}", answer.body);
    assert_eq!(
        answer.body["message"],
        "the spec replicas field \".spec.replicas\" cannot be empty"
    );
    let answer = merge(
        &client,
        &format!("{path}/empty/scale"),
        &json!({"spec": {"replicas": -1}}),
    )
    .await;
    assert_eq!(answer.code, 422, "{}", answer.body);
    assert_eq!(
        answer.body["details"]["causes"],
        json!([{"reason": "FieldValueInvalid", "message": "Invalid value: -1: should be a non-negative integer", "field": ".spec.replicas"}])
    );
    let answer = merge(
        &client,
        &format!("{path}/empty/status"),
        &json!({"status": {"replicas": -2}}),
    )
    .await;
    assert_eq!(answer.code, 422, "{}", answer.body);
    assert_eq!(answer.body["details"]["causes"][0]["field"], ".status.replicas");
    let answer = merge(
        &client,
        &format!("{path}/empty/scale"),
        &json!({"spec": {"replicas": 3}}),
    )
    .await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    let stored = send(&client, http::Method::GET, &format!("{path}/empty"), None).await;
    assert_eq!(stored.body["spec"]["replicas"], 3);
    custom.remove(&env).await;
    env.stop().await;
}

/// A Scale's `status.selector` is the spec's selector as kube prints it: labels and
/// expressions as requirements, sorted by key, values sorted.
#[tokio::test]
async fn a_scale_prints_a_selector_with_expressions() {
    let env = start().await;
    let path = format!("/apis/apps/v1/namespaces/{}/replicasets", env.namespace());
    let replica_set = serde_json::json!({"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "selected"},
        "spec": {"replicas": 0, "selector": {"matchLabels": {"app": "web"}, "matchExpressions": [
            {"key": "tier", "operator": "In", "values": ["web", "api"]},
            {"key": "canary", "operator": "DoesNotExist"},
            {"key": "zone", "operator": "Exists"}
        ]},
        "template": {"metadata": {"labels": {"app": "web", "tier": "web", "zone": "a"}},
            "spec": {"containers": [{"name": "app", "image": crate::common::IMAGE}]}}}});
    let created = crate::raw::send(&env.client(), http::Method::POST, &path, Some(&replica_set)).await;
    assert_eq!(created.code, 201, "{}", created.body);
    let scale = crate::raw::send(
        &env.client(),
        http::Method::GET,
        &format!("{path}/selected/scale"),
        None,
    )
    .await;
    assert_eq!(
        scale.body["status"]["selector"],
        "app=web,!canary,tier in (api,web),zone"
    );
    env.stop().await;
}
