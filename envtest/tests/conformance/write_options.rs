//! The options of a write (`dryRun`, `fieldManager`, `force`, `fieldValidation`) as
//! kube-apiserver checks them before it reads anything else of the request: a dry run
//! writes nothing on any verb, and `?dryRun=` with an empty or unknown value is a 422
//! of the request's options, never a real write. Subresources answer only their own
//! methods.

use serde_json::{Value, json};

use crate::common::{IMAGE, start};
use crate::raw::{Answer, send, send_request};
use crate::schema_common::skip_before;

/// Sends `body` with a content type of its own (patches).
pub(crate) async fn send_typed(
    client: &kube::Client,
    method: http::Method,
    path: &str,
    content_type: &str,
    body: &Value,
) -> Answer {
    let request = http::Request::builder()
        .method(method)
        .uri(path)
        .header(http::header::CONTENT_TYPE, content_type)
        .header(http::header::ACCEPT, "application/json")
        .body(kube::client::Body::from(serde_json::to_vec(body).unwrap()))
        .unwrap();
    send_request(client, request).await
}

/// The 422 kube-apiserver answers a bad `dryRun` with, for options of `kind`.
fn assert_refused_dry_run(answer: &Answer, kind: &str, values: &str, what: &str) {
    assert_eq!(answer.code, 422, "{what}: {}", answer.body);
    let detail = format!("Unsupported value: []string{{{values}}}: supported values: \"All\"");
    assert_eq!(
        answer.body["message"],
        format!("{kind}.meta.k8s.io \"\" is invalid: dryRun: {detail}"),
        "{what}"
    );
    assert_eq!(
        answer.body["details"],
        json!({"group": "meta.k8s.io", "kind": kind, "causes": [{"reason": "FieldValueNotSupported", "message": detail, "field": "dryRun"}]}),
        "{what}"
    );
}

/// Every verb refuses `?dryRun=` and `?dryRun=Bogus` (and a list holding one) with a
/// 422 of its options, and nothing is written: no object created, changed or deleted.
#[tokio::test]
async fn a_dry_run_kube_does_not_know_is_refused_and_writes_nothing() {
    let env = start().await;
    let client = env.client();
    let namespace = env.namespace().to_owned();
    let configmaps = format!("/api/v1/namespaces/{namespace}/configmaps");
    let pods = format!("/api/v1/namespaces/{namespace}/pods");
    let kept = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "kept"}, "data": {"a": "1"}});
    assert_eq!(
        send(&client, http::Method::POST, &configmaps, Some(&kept)).await.code,
        201
    );
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web"},
        "spec": {"containers": [{"name": "app", "image": IMAGE}]}});
    assert_eq!(send(&client, http::Method::POST, &pods, Some(&pod)).await.code, 201);
    let stored = send(&client, http::Method::GET, &format!("{configmaps}/kept"), None)
        .await
        .body;

    for (query, values) in [
        ("dryRun=", "\"\""),
        ("dryRun=Bogus", "\"Bogus\""),
        ("dryRun=All&dryRun=", "\"All\", \"\""),
    ] {
        let created = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "created"}});
        let answer = send(
            &client,
            http::Method::POST,
            &format!("{configmaps}?{query}"),
            Some(&created),
        )
        .await;
        assert_refused_dry_run(&answer, "CreateOptions", values, "create");
        let changed =
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "kept"}, "data": {"a": "2"}});
        let answer = send(
            &client,
            http::Method::PUT,
            &format!("{configmaps}/kept?{query}"),
            Some(&changed),
        )
        .await;
        assert_refused_dry_run(&answer, "UpdateOptions", values, "update");
        let change = json!({"data": {"a": "3"}});
        for content_type in ["application/merge-patch+json", "application/strategic-merge-patch+json"] {
            let path = format!("{configmaps}/kept?{query}");
            let answer = send_typed(&client, http::Method::PATCH, &path, content_type, &change).await;
            assert_refused_dry_run(&answer, "PatchOptions", values, content_type);
        }
        let answer = send(
            &client,
            http::Method::DELETE,
            &format!("{configmaps}/kept?{query}"),
            None,
        )
        .await;
        assert_refused_dry_run(&answer, "DeleteOptions", values, "delete");
        let answer = send(&client, http::Method::DELETE, &format!("{configmaps}?{query}"), None).await;
        assert_refused_dry_run(&answer, "DeleteOptions", values, "deletecollection");
        let status = json!({"status": {"phase": "Running"}});
        let path = format!("{pods}/web/status?{query}");
        let answer = send_typed(
            &client,
            http::Method::PATCH,
            &path,
            "application/merge-patch+json",
            &status,
        )
        .await;
        assert_refused_dry_run(&answer, "PatchOptions", values, "status");
        let eviction = json!({"apiVersion": "policy/v1beta1", "kind": "Eviction", "metadata": {"name": "web"}});
        let path = format!("{pods}/web/eviction?{query}");
        let answer = send(&client, http::Method::POST, &path, Some(&eviction)).await;
        assert_refused_dry_run(&answer, "CreateOptions", values, "eviction");
        let binding = json!({"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "web"},
            "target": {"apiVersion": "v1", "kind": "Node", "name": "node-a"}});
        let path = format!("{pods}/web/binding?{query}");
        let answer = send(&client, http::Method::POST, &path, Some(&binding)).await;
        assert_refused_dry_run(&answer, "CreateOptions", values, "binding");
    }
    let created = send(&client, http::Method::GET, &format!("{configmaps}/created"), None).await;
    assert_eq!(created.code, 404, "nothing was created: {}", created.body);
    let after = send(&client, http::Method::GET, &format!("{configmaps}/kept"), None)
        .await
        .body;
    assert_eq!(after, stored, "nothing was changed or deleted");
    let pod = send(&client, http::Method::GET, &format!("{pods}/web"), None)
        .await
        .body;
    assert!(
        pod["metadata"]["deletionTimestamp"].is_null(),
        "the pod was not evicted"
    );
    assert!(pod["spec"]["nodeName"].is_null(), "the pod was not bound");
    env.stop().await;
}

/// `dryRun=All` is answered as the write would be and stores nothing, on every verb
/// and on the subresources that act (binding, eviction).
#[tokio::test]
async fn a_dry_run_writes_nothing_on_any_verb() {
    let env = start().await;
    let client = env.client();
    let namespace = env.namespace().to_owned();
    let configmaps = format!("/api/v1/namespaces/{namespace}/configmaps");
    let pods = format!("/api/v1/namespaces/{namespace}/pods");
    let kept = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "kept"}, "data": {"a": "1"}});
    assert_eq!(
        send(&client, http::Method::POST, &configmaps, Some(&kept)).await.code,
        201
    );
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web"},
        "spec": {"containers": [{"name": "app", "image": IMAGE}]}});
    assert_eq!(send(&client, http::Method::POST, &pods, Some(&pod)).await.code, 201);
    let stored = send(&client, http::Method::GET, &format!("{configmaps}/kept"), None)
        .await
        .body;

    let created = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "created"}});
    let answer = send(
        &client,
        http::Method::POST,
        &format!("{configmaps}?dryRun=All"),
        Some(&created),
    )
    .await;
    assert_eq!(answer.code, 201, "{}", answer.body);
    let changed = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "kept"}, "data": {"a": "2"}});
    let answer = send(
        &client,
        http::Method::PUT,
        &format!("{configmaps}/kept?dryRun=All"),
        Some(&changed),
    )
    .await;
    assert_eq!(
        (answer.code, &answer.body["data"]["a"]),
        (200, &json!("2")),
        "{}",
        answer.body
    );
    let path = format!("{configmaps}/kept?dryRun=All");
    let change = json!({"data": {"a": "3"}});
    let answer = send_typed(
        &client,
        http::Method::PATCH,
        &path,
        "application/merge-patch+json",
        &change,
    )
    .await;
    assert_eq!(
        (answer.code, &answer.body["data"]["a"]),
        (200, &json!("3")),
        "{}",
        answer.body
    );
    let answer = send(&client, http::Method::DELETE, &path, None).await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    let answer = send(&client, http::Method::DELETE, &format!("{configmaps}?dryRun=All"), None).await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    let binding = json!({"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "web"},
        "target": {"apiVersion": "v1", "kind": "Node", "name": "node-a"}});
    let answer = send(
        &client,
        http::Method::POST,
        &format!("{pods}/web/binding?dryRun=All"),
        Some(&binding),
    )
    .await;
    assert_eq!(answer.code, 201, "{}", answer.body);
    let eviction = json!({"apiVersion": "policy/v1beta1", "kind": "Eviction", "metadata": {"name": "web"}});
    let answer = send(
        &client,
        http::Method::POST,
        &format!("{pods}/web/eviction?dryRun=All"),
        Some(&eviction),
    )
    .await;
    assert_eq!(answer.code, 201, "{}", answer.body);

    let answer = send(&client, http::Method::GET, &format!("{configmaps}/created"), None).await;
    assert_eq!(answer.code, 404, "a dry-run create stores nothing: {}", answer.body);
    let after = send(&client, http::Method::GET, &format!("{configmaps}/kept"), None)
        .await
        .body;
    assert_eq!(after, stored, "dry-run updates, patches and deletes change nothing");
    let pod = send(&client, http::Method::GET, &format!("{pods}/web"), None)
        .await
        .body;
    assert!(
        pod["metadata"]["deletionTimestamp"].is_null(),
        "a dry-run eviction deletes nothing"
    );
    assert!(pod["spec"]["nodeName"].is_null(), "a dry-run binding binds nothing");
    env.stop().await;
}

/// `ValidatePatchOptions` and friends: `force` only with apply (whatever its value),
/// a field manager of printable characters, apply with a field manager; every broken
/// rule listed, in kube's order; a patch type the resource does not take is a 415
/// before anything else.
#[tokio::test]
async fn write_options_are_checked_before_the_body() {
    let env = start().await;
    let client = env.client();
    let namespace = env.namespace().to_owned();
    let configmaps = format!("/api/v1/namespaces/{namespace}/configmaps");
    let kept = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "kept"}});
    assert_eq!(
        send(&client, http::Method::POST, &configmaps, Some(&kept)).await.code,
        201
    );
    let merge = "application/merge-patch+json";
    let change = json!({"data": {"a": "1"}});
    for query in ["force=true", "force=false", "force="] {
        let path = format!("{configmaps}/kept?{query}");
        let answer = send_typed(&client, http::Method::PATCH, &path, merge, &change).await;
        assert_eq!(answer.code, 422, "{query}: {}", answer.body);
        assert_eq!(
            answer.body["message"],
            "PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: may not be specified for non-apply patch"
        );
    }
    let path = format!("{configmaps}/kept?fieldManager=a%01b");
    let answer = send_typed(&client, http::Method::PATCH, &path, merge, &change).await;
    assert_eq!(answer.code, 422, "{}", answer.body);
    assert_eq!(
        answer.body["details"]["causes"],
        json!([{"reason": "FieldValueInvalid", "field": "fieldManager",
            "message": "Invalid value: \"a\\x01b\": invalid character U+0001 (at position 1)"}])
    );
    let path = format!("{configmaps}/kept?force=true&dryRun=x");
    let answer = send_typed(&client, http::Method::PATCH, &path, merge, &change).await;
    assert_eq!(
        answer.body["message"],
        "PatchOptions.meta.k8s.io \"\" is invalid: [force: Forbidden: may not be specified for non-apply patch, dryRun: Unsupported value: []string{\"x\"}: supported values: \"All\"]"
    );
    let path = format!("{configmaps}/kept");
    let answer = send_typed(
        &client,
        http::Method::PATCH,
        &path,
        "application/apply-patch+yaml",
        &kept,
    )
    .await;
    assert_eq!(
        (answer.code, &answer.body["message"]),
        (
            422,
            &json!(
                "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch"
            )
        )
    );
    let path = format!("{configmaps}/kept?dryRun=x");
    let answer = send_typed(&client, http::Method::PATCH, &path, "application/foo", &change).await;
    assert_eq!(
        (answer.code, &answer.body["reason"]),
        (415, &json!("UnsupportedMediaType"))
    );
    if !skip_before(&env, 25, "the fieldValidation option").await {
        let path = format!("{configmaps}/kept?fieldValidation=Bogus");
        let answer = send_typed(&client, http::Method::PATCH, &path, merge, &change).await;
        assert_eq!(
            answer.body["message"],
            "PatchOptions.meta.k8s.io \"\" is invalid: fieldValidation: Unsupported value: \"Bogus\": supported values: \"\", \"Ignore\", \"Strict\", \"Warn\""
        );
    }
    let unchanged = send(&client, http::Method::GET, &path, None).await.body;
    assert!(
        unchanged["data"].is_null(),
        "no refused change was applied: {unchanged}"
    );
    env.stop().await;
}

/// A subresource serves only its own methods: `pods/eviction` and `pods/binding` are
/// create-only, `namespaces/finalize` update-only, `status` neither created nor deleted.
#[tokio::test]
async fn subresources_answer_only_their_own_methods() {
    let env = start().await;
    let client = env.client();
    let namespace = env.namespace().to_owned();
    let pods = format!("/api/v1/namespaces/{namespace}/pods");
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web"},
        "spec": {"containers": [{"name": "app", "image": IMAGE}]}});
    assert_eq!(send(&client, http::Method::POST, &pods, Some(&pod)).await.code, 201);
    let refused = [
        (http::Method::GET, format!("{pods}/web/eviction")),
        (http::Method::PUT, format!("{pods}/web/eviction")),
        (http::Method::GET, format!("{pods}/web/binding")),
        (http::Method::DELETE, format!("{pods}/web/binding")),
        (http::Method::POST, format!("{pods}/web/status")),
        (http::Method::DELETE, format!("{pods}/web/status")),
        (http::Method::GET, format!("/api/v1/namespaces/{namespace}/finalize")),
        (http::Method::POST, format!("/api/v1/namespaces/{namespace}/finalize")),
        (http::Method::DELETE, format!("/api/v1/namespaces/{namespace}/finalize")),
    ];
    for (method, path) in refused {
        let answer = send(&client, method.clone(), &path, Some(&json!({}))).await;
        assert_eq!(answer.code, 405, "{method} {path}: {}", answer.body);
        assert_eq!(answer.body["reason"], "MethodNotAllowed");
        // The router's answer names nothing: its details are empty, not absent.
        assert_eq!(answer.body["details"], json!({}), "{method} {path}");
    }
    env.stop().await;
}

/// A custom resource's patch handler refuses a patch type it does not take itself,
/// naming the ones it does (a built-in resource's route answers with the bare 415).
#[tokio::test]
async fn a_custom_resource_names_the_patch_types_it_takes() {
    let env = start().await;
    let client = env.client();
    let custom = crate::common::CustomType::new(&env, "Gadget", "gadgets", true);
    custom.install(&env).await;
    let path = format!(
        "/apis/{}/namespaces/{}/gadgets",
        custom.resource.api_version,
        env.namespace()
    );
    let body = json!({"apiVersion": custom.resource.api_version, "kind": "Gadget", "metadata": {"name": "g"}});
    assert_eq!(send(&client, http::Method::POST, &path, Some(&body)).await.code, 201);
    for patch_type in ["application/apply-patch+json", "application/strategic-merge-patch+json"] {
        let answer = send_typed(&client, http::Method::PATCH, &format!("{path}/g"), patch_type, &body).await;
        assert_eq!(
            (answer.code, &answer.body["reason"]),
            (415, &json!("UnsupportedMediaType"))
        );
        assert_eq!(
            answer.body["message"],
            "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"
        );
    }
    custom.remove(&env).await;
}
