//! Server-side apply of built-in types by the same engine as custom resources, with
//! their merge keys from the served `OpenAPI` schemas: containers by name, env by name,
//! ports by port and protocol, conditions by type; and `managedFields` written exactly
//! as kube writes them.

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use kube::api::{Api, Patch, PatchParams};
use serde_json::{Value, json};

use crate::apply_lists::owned;
use crate::common::{IMAGE, api_error, delete_quietly, start};
use crate::schema_common::server_minor;

fn container(name: &str, image: &str, extra: &Value) -> Value {
    let mut container = json!({"name": name, "image": image});
    if let (Some(container), Some(extra)) = (container.as_object_mut(), extra.as_object()) {
        container.extend(extra.clone());
    }
    container
}

fn deployment(name: &str, containers: &[Value]) -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name},
        "spec": {"selector": {"matchLabels": {"app": name}},
            "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": containers}}}})
}

fn containers_of(deployment: &Deployment) -> Value {
    let deployment = serde_json::to_value(deployment).expect("JSON");
    deployment["spec"]["template"]["spec"]["containers"].clone()
}

/// Containers merge by name, their env by name and their ports by port and protocol:
/// two managers keep their own containers and variables, a release drops only its own,
/// and a clash on one container's image conflicts on that field.
#[tokio::test]
async fn built_in_lists_merge_by_their_merge_keys() {
    let env = start().await;
    let api: Api<Deployment> = Api::namespaced(env.client(), env.namespace());
    let name = "merge-keys";
    let apply = |manager: &'static str, body: Value, force: bool| {
        let api = api.clone();
        async move {
            let mut params = PatchParams::apply(manager);
            params.force = force;
            api.patch(name, &params, &Patch::Apply(&body)).await
        }
    };
    let app = container(
        "app",
        IMAGE,
        &json!({"env": [{"name": "A", "value": "1"}], "ports": [{"containerPort": 80, "protocol": "TCP"}]}),
    );
    apply("m1", deployment(name, &[app]), false).await.unwrap();
    let sidecar = container("sidecar", IMAGE, &json!({}));
    let more = container(
        "app",
        IMAGE,
        &json!({"env": [{"name": "B", "value": "2"}], "ports": [{"containerPort": 53, "protocol": "UDP"}]}),
    );
    let both = apply("m2", deployment(name, &[sidecar, more]), false)
        .await
        .expect("no conflict");
    let containers = containers_of(&both);
    let names: Vec<&str> = containers
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    // New items go where the applied list puts them relative to the items both have
    // (1.19 appended them after the live ones).
    let expected = if server_minor(&env).await < 20 {
        ["app", "sidecar"]
    } else {
        ["sidecar", "app"]
    };
    assert_eq!(names, expected);
    let app = usize::from(names[1] == "app");
    assert_eq!(
        containers[app]["env"],
        json!([{"name": "A", "value": "1"}, {"name": "B", "value": "2"}])
    );
    assert_eq!(
        containers[app]["ports"],
        json!([{"containerPort": 80, "protocol": "TCP"}, {"containerPort": 53, "protocol": "UDP"}])
    );
    let m2 = owned(both.metadata.managed_fields.as_ref(), "m2", "Apply");
    assert_eq!(
        m2["f:spec"]["f:template"]["f:spec"]["f:containers"],
        json!({
            "k:{\"name\":\"app\"}": {".": {}, "f:env": {"k:{\"name\":\"B\"}": {".": {}, "f:name": {}, "f:value": {}}},
                "f:image": {}, "f:name": {},
                "f:ports": {"k:{\"containerPort\":53,\"protocol\":\"UDP\"}": {".": {}, "f:containerPort": {}, "f:protocol": {}}}},
            "k:{\"name\":\"sidecar\"}": {".": {}, "f:image": {}, "f:name": {}}
        })
    );

    let status = api_error(
        apply(
            "m2",
            deployment(name, &[container("app", "registry.k8s.io/pause:3.9", &json!({}))]),
            false,
        )
        .await,
    );
    assert_eq!(
        status.message,
        "Apply failed with 1 conflict: conflict with \"m1\": .spec.template.spec.containers[name=\"app\"].image"
    );

    // m1 stops applying its env variable and port: only those go.
    let released = apply("m1", deployment(name, &[container("app", IMAGE, &json!({}))]), false)
        .await
        .unwrap();
    let containers = containers_of(&released);
    assert_eq!(containers[app]["env"], json!([{"name": "B", "value": "2"}]));
    assert_eq!(
        containers[app]["ports"],
        json!([{"containerPort": 53, "protocol": "UDP"}])
    );
    delete_quietly(&api, name).await;
    env.stop().await;
}

/// Conditions applied through `/status` merge by type: two controllers keep their own.
#[tokio::test]
async fn status_conditions_merge_by_type() {
    let env = start().await;
    let api: Api<Pod> = Api::namespaced(env.client(), env.namespace());
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "conditions"},
        "spec": {"containers": [{"name": "app", "image": IMAGE}]}});
    api.patch("conditions", &PatchParams::apply("creator"), &Patch::Apply(&pod))
        .await
        .unwrap();
    let condition = |kind: &str| {
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "conditions"},
            "status": {"conditions": [{"type": kind, "status": "True"}]}})
    };
    api.patch_status(
        "conditions",
        &PatchParams::apply("one"),
        &Patch::Apply(&condition("example.com/One")),
    )
    .await
    .unwrap();
    let both = api
        .patch_status(
            "conditions",
            &PatchParams::apply("two"),
            &Patch::Apply(&condition("example.com/Two")),
        )
        .await
        .unwrap();
    let types: Vec<String> = both
        .status
        .and_then(|status| status.conditions)
        .unwrap_or_default()
        .into_iter()
        .map(|condition| condition.type_)
        .filter(|kind| kind.starts_with("example.com/"))
        .collect();
    assert_eq!(types, ["example.com/One", "example.com/Two"]);
    let entry = both
        .metadata
        .managed_fields
        .unwrap_or_default()
        .into_iter()
        .find(|e| e.manager.as_deref() == Some("two"))
        .expect("two's entry");
    // Entries name their subresource since 1.22.
    if server_minor(&env).await >= 22 {
        assert_eq!(entry.subresource.as_deref(), Some("status"));
    }
    assert_eq!(
        entry.fields_v1.map(|f| f.0),
        Some(
            json!({"f:status": {"f:conditions": {"k:{\"type\":\"example.com/Two\"}": {".": {}, "f:status": {}, "f:type": {}}}}})
        )
    );
    delete_quietly(&api, "conditions").await;
    env.stop().await;
}

/// The whole `managedFields` list after applies and an update, as kube writes it: one
/// entry per manager and operation, `Apply` entries before `Update` ones, each with its
/// API version, `fieldsType: FieldsV1` and the time it last changed the object.
#[tokio::test]
async fn managed_fields_are_written_as_kube_writes_them() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let body =
        |data: Value| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "written"}, "data": data});
    api.patch(
        "written",
        &PatchParams::apply("b-applier"),
        &Patch::Apply(&body(json!({"b": "1"}))),
    )
    .await
    .unwrap();
    api.patch(
        "written",
        &PatchParams::apply("a-applier"),
        &Patch::Apply(&body(json!({"a": "1"}))),
    )
    .await
    .unwrap();
    let updated = api
        .patch(
            "written",
            &PatchParams {
                field_manager: Some("editor".into()),
                ..PatchParams::default()
            },
            &Patch::Merge(json!({"data": {"c": "1"}})),
        )
        .await
        .unwrap();
    let mut entries = serde_json::to_value(updated.metadata.managed_fields.unwrap_or_default()).unwrap();
    for entry in entries.as_array_mut().unwrap() {
        let time = entry.as_object_mut().unwrap().remove("time");
        assert!(
            time.is_some_and(|t| t.is_string()),
            "every entry changed the object: {entry}"
        );
    }
    // Applies sort before updates; equal times (whole seconds) sort by manager.
    let managers: Vec<&str> = entries
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["manager"].as_str())
        .collect();
    let expected_order = if managers[0] == "a-applier" {
        ["a-applier", "b-applier", "editor"]
    } else {
        ["b-applier", "a-applier", "editor"]
    };
    assert_eq!(managers, expected_order);
    let by_manager = |manager: &str| {
        entries
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["manager"] == manager)
            .cloned()
            .unwrap()
    };
    assert_eq!(
        by_manager("a-applier"),
        json!({"manager": "a-applier", "operation": "Apply", "apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:a": {}}}})
    );
    assert_eq!(
        by_manager("editor"),
        json!({"manager": "editor", "operation": "Update", "apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:c": {}}}})
    );
    delete_quietly(&api, "written").await;
    env.stop().await;
}

/// An apply is refused in the order kube's patch handler meets the faults: the apply
/// configuration converted to the typed object first (a field of the wrong type is
/// the field manager's 500), then the merged object converted back (bytes that are not
/// base64), and only then the name the URL gives (a 400). The messages name the object
/// as the configuration does (it gives no namespace here). A strategic merge patch's
/// bytes are refused in the converter's words too.
#[tokio::test]
async fn apply_faults_come_in_the_patch_handler_s_order() {
    let env = start().await;
    if server_minor(&env).await < 22 {
        eprintln!("skipping: the field manager's messages name the object as 1.22 and later do");
        env.stop().await;
        return;
    }
    let client = env.client();
    let namespace = env.namespace();
    let path = format!("/api/v1/namespaces/{namespace}/configmaps/applied?fieldManager=conformance");
    let apply = |body: Value| {
        let client = client.clone();
        let path = path.clone();
        async move { crate::error_classes::patch(&client, &path, "application/apply-patch+yaml", &body.to_string()).await }
    };
    let config = |fields: Value| {
        let mut config = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "other"}});
        if let (Some(target), Value::Object(fields)) = (config.as_object_mut(), fields) {
            target.extend(fields);
        }
        config
    };
    let wrong_type = apply(config(json!({"data": {"a": 42}}))).await;
    assert_eq!(wrong_type.code, 500, "{}", wrong_type.body);
    assert_eq!(
        wrong_type.body["message"],
        "failed to create typed patch object (/other; /v1, Kind=ConfigMap): .data.a: expected string, got &value.valueUnstructured{Value:42}"
    );
    let bad_bytes = apply(config(json!({"binaryData": {"a": "!!"}}))).await;
    assert_eq!(bad_bytes.code, 500, "{}", bad_bytes.body);
    assert_eq!(
        bad_bytes.body["message"],
        "failed to convert new object (/other; /v1, Kind=ConfigMap) to proper version: unable to convert unstructured object to /v1, Kind=ConfigMap: error decoding from json: illegal base64 data at input byte 0"
    );
    let misnamed = apply(config(json!({"data": {"a": "1"}}))).await;
    assert_eq!(misnamed.code, 400, "{}", misnamed.body);
    assert_eq!(
        misnamed.body["message"],
        "the name of the object (other) does not match the name on the URL (applied)"
    );

    let mut named = config(json!({"data": {"a": "1"}}));
    named["metadata"]["name"] = json!("applied");
    assert_eq!(apply(named).await.code, 201);
    let smp = crate::error_classes::patch(
        &client,
        &format!("/api/v1/namespaces/{namespace}/configmaps/applied"),
        "application/strategic-merge-patch+json",
        r#"{"binaryData":{"a":"!!"}}"#,
    )
    .await;
    assert_eq!(smp.code, 422, "{}", smp.body);
    assert_eq!(
        smp.body["details"]["causes"][0]["message"],
        "Invalid value: \"map[binaryData:map[a:!!]]\": error decoding from json: illegal base64 data at input byte 0"
    );
    env.stop().await;
}
