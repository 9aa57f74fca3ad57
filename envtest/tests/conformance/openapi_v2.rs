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
