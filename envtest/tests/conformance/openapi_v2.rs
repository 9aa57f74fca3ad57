//! `/openapi/v2` as kube-apiserver serves it: one Swagger 2.0 document with every
//! built-in definition and path, and a CRD's definition (named by its reversed group,
//! version and kind) and paths once it is served, under a new `ETag`.

use serde_json::Value;
use wheelhouse_envtest::TestEnv;

use crate::common::{CustomType, eventually, start};
use crate::raw::{Answer, send_request};

async fn document(env: &TestEnv) -> Answer {
    let request = http::Request::get("/openapi/v2")
        .header(http::header::ACCEPT, "application/json")
        .body(kube::client::Body::empty())
        .expect("a request");
    send_request(&env.client(), request).await
}

fn etag(answer: &Answer) -> String {
    answer
        .headers
        .get(http::header::ETAG)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

#[tokio::test]
async fn openapi_v2_holds_the_built_in_and_custom_definitions_and_paths() {
    let env = start().await;
    let before = document(&env).await;
    assert_eq!(before.code, 200);
    let body = &before.body;
    assert_eq!(body["swagger"], "2.0");
    assert_eq!(body["info"]["title"], "Kubernetes");
    let pod = &body["definitions"]["io.k8s.api.core.v1.Pod"];
    assert_eq!(pod["x-kubernetes-group-version-kind"][0]["kind"], "Pod", "{pod}");
    assert_eq!(
        pod["properties"]["spec"]["$ref"], "#/definitions/io.k8s.api.core.v1.PodSpec",
        "{pod}"
    );
    assert!(body["definitions"]["io.k8s.api.apps.v1.Deployment"].is_object());
    let pods = &body["paths"]["/api/v1/namespaces/{namespace}/pods"];
    assert_eq!(pods["post"]["x-kubernetes-action"], "post", "{pods}");
    let body_parameter = pods["post"]["parameters"]
        .as_array()
        .and_then(|parameters| parameters.iter().find(|p| p["in"] == "body"))
        .cloned()
        .unwrap_or(Value::Null);
    assert_eq!(body_parameter["schema"]["$ref"], "#/definitions/io.k8s.api.core.v1.Pod");
    let text = serde_json::to_string(body).expect("JSON");
    assert!(
        !text.contains("#/components/schemas/"),
        "v2 refers to #/definitions/ only"
    );

    let custom = CustomType::new(&env, "Gadget", "gadgets", true);
    custom.install(&env).await;
    let group = format!("{}.conformance.wheelhouse.rs", env.namespace());
    let reversed: Vec<&str> = group.split('.').rev().collect();
    let definition = format!("{}.v1.Gadget", reversed.join("."));
    let path = format!("/apis/{group}/v1/namespaces/{{namespace}}/gadgets/{{name}}");
    // A real server publishes a CRD's document a moment after it is served.
    let after = eventually("the CRD in /openapi/v2", || async {
        let answer = document(&env).await;
        (answer.body["definitions"][&definition].is_object() && answer.body["paths"][&path].is_object())
            .then_some(answer)
    })
    .await;
    let gadget = &after.body["definitions"][&definition];
    assert_eq!(
        gadget["x-kubernetes-group-version-kind"][0]["group"],
        group.as_str(),
        "{gadget}"
    );
    // apiextensions' v2 form: a value keeping unknown fields is not typed an object
    // (1.19 still typed it).
    let spec = if crate::schema_common::server_minor(&env).await > 19 {
        serde_json::json!({"x-kubernetes-preserve-unknown-fields": true})
    } else {
        serde_json::json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
    };
    assert_eq!(gadget["properties"]["spec"], spec, "{gadget}");
    assert_eq!(
        gadget["properties"]["metadata"]["$ref"], "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
        "{gadget}"
    );
    assert!(after.body["paths"][&path]["get"].is_object());
    assert_ne!(etag(&before), etag(&after), "a new document has a new ETag");
    custom.remove(&env).await;
    env.stop().await;
}

/// The operation at `path` and `method`, with what its id, action and kind should be.
fn assert_operation(body: &Value, path: &str, method: &str, id: &str, action: &str, kind: &str) {
    let operation = &body["paths"][path][method];
    assert_eq!(operation["operationId"], id, "{path} {method}: {operation}");
    assert_eq!(operation["x-kubernetes-action"], action, "{path} {method}");
    assert_eq!(
        operation["x-kubernetes-group-version-kind"]["kind"], kind,
        "{path} {method}"
    );
}

/// A parameter as written, or the shared one it refers to (kube-openapi writes each
/// parameter many operations share once, under `parameters`, since 1.27).
fn resolve<'v>(body: &'v Value, parameter: &'v Value) -> &'v Value {
    match parameter["$ref"].as_str().and_then(|r| r.strip_prefix("#/parameters/")) {
        Some(name) => &body["parameters"][name],
        None => parameter,
    }
}

#[tokio::test]
async fn openapi_v2_paths_are_named_and_shaped_as_kube_writes_them() {
    let env = start().await;
    let answer = document(&env).await;
    assert_eq!(answer.code, 200);
    let body = &answer.body;
    let pods = "/api/v1/namespaces/{namespace}/pods";
    assert_operation(
        body,
        &format!("{pods}/{{name}}"),
        "get",
        "readCoreV1NamespacedPod",
        "get",
        "Pod",
    );
    assert_operation(
        body,
        pods,
        "delete",
        "deleteCoreV1CollectionNamespacedPod",
        "deletecollection",
        "Pod",
    );
    assert_operation(
        body,
        "/apis/apps/v1/deployments",
        "get",
        "listAppsV1DeploymentForAllNamespaces",
        "list",
        "Deployment",
    );
    assert_operation(
        body,
        "/apis/apps/v1/watch/deployments",
        "get",
        "watchAppsV1DeploymentListForAllNamespaces",
        "watchlist",
        "Deployment",
    );
    assert_operation(
        body,
        "/api/v1/watch/namespaces/{namespace}/pods/{name}",
        "get",
        "watchCoreV1NamespacedPod",
        "watch",
        "Pod",
    );
    assert_operation(
        body,
        &format!("{pods}/{{name}}/exec"),
        "post",
        "connectCoreV1PostNamespacedPodExec",
        "connect",
        "PodExecOptions",
    );
    assert_eq!(body["paths"][pods]["get"]["tags"], serde_json::json!(["core_v1"]));
    // A list answers its list kind, defined in the document.
    let list = &body["paths"][pods]["get"]["responses"]["200"]["schema"]["$ref"];
    assert_eq!(list, "#/definitions/io.k8s.api.core.v1.PodList");
    assert!(body["definitions"]["io.k8s.api.core.v1.PodList"]["properties"]["items"].is_object());
    // The namespace every operation of the collection takes is the path's; `limit`
    // is the list's own.
    let namespace = body["paths"][pods]["parameters"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| resolve(body, p))
        .find(|p| p["name"] == "namespace")
        .cloned()
        .unwrap_or(Value::Null);
    assert_eq!(namespace["in"], "path", "{}", body["paths"][pods]);
    let list_parameters = body["paths"][pods]["get"]["parameters"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let limit = list_parameters
        .iter()
        .find(|p| resolve(body, p)["name"] == "limit")
        .cloned()
        .unwrap_or(Value::Null);
    assert_eq!(resolve(body, &limit)["type"], "integer", "{list_parameters:?}");
    if crate::schema_common::server_minor(&env).await >= 27 {
        let reference = limit["$ref"].as_str().unwrap_or_default();
        assert!(
            reference.starts_with("#/parameters/limit-"),
            "a shared parameter: {limit}"
        );
    }
    // What old kubectl looks for on each operation stays on it.
    let post = body["paths"][pods]["post"]["parameters"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        post.iter().any(|p| p["name"] == "dryRun" && p["in"] == "query"),
        "{post:?}"
    );
    env.stop().await;
}

#[tokio::test]
async fn openapi_v2_names_a_custom_resource_s_operations_without_watch_paths() {
    let env = start().await;
    let custom = CustomType::new(&env, "Gadget", "gadgets", true);
    custom.install(&env).await;
    let group = format!("{}.conformance.wheelhouse.rs", env.namespace());
    let collection = format!("/apis/{group}/v1/namespaces/{{namespace}}/gadgets");
    let body = eventually("the CRD's paths in /openapi/v2", || async {
        let answer = document(&env).await;
        answer.body["paths"][&collection].is_object().then_some(answer.body)
    })
    .await;
    let list = &body["paths"][&collection]["get"];
    let id = list["operationId"].as_str().unwrap_or_default();
    assert!(id.starts_with("list") && id.ends_with("V1NamespacedGadget"), "{list}");
    assert_eq!(list["x-kubernetes-action"], "list");
    assert!(
        !body["paths"]
            .as_object()
            .is_some_and(|paths| paths.keys().any(|p| p.starts_with(&format!("/apis/{group}/v1/watch/")))),
        "apiextensions' builder writes no watch paths"
    );
    let reversed: Vec<&str> = group.split('.').rev().collect();
    let list_definition = format!("{}.v1.GadgetList", reversed.join("."));
    assert_eq!(
        body["definitions"][&list_definition]["description"], "GadgetList is a list of Gadget",
        "{}",
        body["definitions"][&list_definition]
    );
    custom.remove(&env).await;
    env.stop().await;
}

/// The protobuf's name every version serves (1.32 also has a current one).
const PROTOBUF: &str = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";

/// GETs `/openapi/v2` with `accept` and returns the code, the content type, the `ETag`
/// and the body's bytes.
async fn raw_document(env: &TestEnv, accept: &str) -> (u16, String, String, Vec<u8>) {
    use http_body_util::BodyExt as _;
    let request = http::Request::get("/openapi/v2")
        .header(http::header::ACCEPT, accept)
        .body(kube::client::Body::empty())
        .expect("a request");
    let response = env.client().send(request).await.expect("an answer");
    let header = |name: http::header::HeaderName| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let (code, content_type, etag) = (
        response.status().as_u16(),
        header(http::header::CONTENT_TYPE),
        header(http::header::ETAG),
    );
    let bytes = response.into_body().collect().await.expect("the body").to_bytes();
    (code, content_type, etag, bytes.to_vec())
}

#[tokio::test]
async fn openapi_v2_is_served_as_protobuf_when_asked_and_406_for_what_it_cannot_write() {
    let env = start().await;
    let (code, _, _, _) = raw_document(&env, "application/json").await;
    assert_eq!(code, 200);
    let (code, content_type, _, bytes) = raw_document(&env, PROTOBUF).await;
    assert_eq!(code, 200);
    // gnostic's Document: field 1 the swagger version, field 2 the info.
    assert!(
        bytes.starts_with(b"\x0a\x032.0\x12"),
        "{:?}",
        &bytes[..bytes.len().min(16)]
    );
    let (code, _, _, body) = raw_document(&env, "text/plain").await;
    assert_eq!((code, body.len()), (406, 0));
    if crate::schema_common::server_minor(&env).await > 19 {
        // 1.19 predates the protobuf's own content type and its second name, and gives
        // it an ETag of its own bytes.
        assert_eq!(
            content_type,
            "application/com.github.proto-openapi.spec.v2.v1.0+protobuf"
        );
        // Other tests' CRDs change a shared cluster's document meanwhile: compare the
        // protobuf's ETag taken between two equal ones of the JSON.
        let mut held = None;
        for _ in 0..20 {
            let (_, _, first, _) = raw_document(&env, "application/json").await;
            let (_, _, proto, _) = raw_document(&env, PROTOBUF).await;
            let (_, _, second, _) = raw_document(&env, "application/json").await;
            if first == second {
                held = Some((proto, first));
                break;
            }
        }
        let (proto_etag, json_etag) = held.expect("the document holds still between two requests");
        assert_eq!(proto_etag, json_etag, "the protobuf form carries the JSON's ETag");
        let (code, content_type, _, current) =
            raw_document(&env, "application/com.github.proto-openapi.spec.v2.v1.0+protobuf").await;
        assert_eq!(code, 200, "the current name is served too");
        assert_eq!(
            content_type,
            "application/com.github.proto-openapi.spec.v2.v1.0+protobuf"
        );
        assert!(current.starts_with(b"\x0a\x032.0\x12"));
    }
    env.stop().await;
}
