//! `pods/ephemeralcontainers` as kube-apiserver serves it: listed in discovery with
//! kind Pod, read as the Pod, written to add ephemeral containers (defaulted as any
//! container), refusing the removal or change of existing ones and the fields an
//! ephemeral container may not have (ports, resources, probes, lifecycle); a Pod's own
//! endpoint takes none on create or update.

use serde_json::{Value, json};

use crate::common::{IMAGE, start};
use crate::raw::{Answer, send, send_request};

/// Whether the server lists `pods/ephemeralcontainers` (1.19 does not serve it: it was
/// alpha, behind a feature gate, until 1.23).
async fn served(env: &wheelhouse_envtest::TestEnv) -> Option<Value> {
    let list = send(&env.client(), http::Method::GET, "/api/v1", None).await;
    list.body["resources"].as_array().and_then(|resources| {
        resources
            .iter()
            .find(|r| r["name"] == "pods/ephemeralcontainers")
            .cloned()
    })
}

async fn patch(env: &wheelhouse_envtest::TestEnv, path: &str, operations: &Value) -> Answer {
    let request = http::Request::patch(path)
        .header(http::header::CONTENT_TYPE, "application/json-patch+json")
        .header(http::header::ACCEPT, "application/json")
        .body(kube::client::Body::from(serde_json::to_vec(operations).expect("JSON")))
        .expect("a request");
    send_request(&env.client(), request).await
}

fn add(container: &Value) -> Value {
    json!([{"op": "add", "path": "/spec/ephemeralContainers/-", "value": container}])
}

#[tokio::test]
async fn ephemeral_containers_are_added_through_their_subresource_only() {
    let env = start().await;
    let Some(listed) = served(&env).await else {
        eprintln!("skipped: the server does not serve pods/ephemeralcontainers (alpha before 1.23)");
        env.stop().await;
        return;
    };
    assert_eq!(listed["kind"], "Pod", "{listed}");
    assert_eq!(listed["verbs"], json!(["get", "patch", "update"]), "{listed}");
    let namespace = env.namespace().to_owned();
    let pods = format!("/api/v1/namespaces/{namespace}/pods");
    let with_ephemeral = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "debugged"},
        "spec": {"automountServiceAccountToken": false, "containers": [{"name": "app", "image": IMAGE}],
            "ephemeralContainers": [{"name": "early", "image": IMAGE}]}});
    let refused = send(&env.client(), http::Method::POST, &pods, Some(&with_ephemeral)).await;
    assert_eq!(refused.code, 422, "{}", refused.body);
    assert_eq!(
        refused.body["message"],
        "Pod \"debugged\" is invalid: spec.ephemeralContainers: Forbidden: cannot be set on create"
    );
    let mut plain = with_ephemeral.clone();
    if let Some(spec) = plain["spec"].as_object_mut() {
        spec.remove("ephemeralContainers");
    }
    let created = send(&env.client(), http::Method::POST, &pods, Some(&plain)).await;
    assert_eq!(created.code, 201, "{}", created.body);

    let path = format!("{pods}/debugged/ephemeralcontainers");
    let read = send(&env.client(), http::Method::GET, &path, None).await;
    assert_eq!(read.code, 200, "{}", read.body);
    assert_eq!(read.body["kind"], "Pod", "{}", read.body);
    assert_eq!(read.body["metadata"]["uid"], created.body["metadata"]["uid"]);

    let debugger = json!({"name": "debugger", "image": IMAGE, "targetContainerName": "app"});
    let first = json!([{"op": "add", "path": "/spec/ephemeralContainers", "value": [debugger]}]);
    let added = patch(&env, &path, &first).await;
    assert_eq!(added.code, 200, "{}", added.body);
    assert_eq!(added.body["kind"], "Pod");
    assert_eq!(
        added.body["spec"]["ephemeralContainers"],
        json!([{"name": "debugger", "image": IMAGE, "targetContainerName": "app", "imagePullPolicy": "IfNotPresent",
            "resources": {}, "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}]),
        "{}",
        added.body
    );

    // The main endpoint changes no ephemeral container.
    let through_pod = patch(
        &env,
        &format!("{pods}/debugged"),
        &add(&json!({"name": "sneaky", "image": IMAGE})),
    )
    .await;
    assert_eq!(through_pod.code, 422, "{}", through_pod.body);
    assert!(
        through_pod.body["message"].as_str().is_some_and(|m| m
            .starts_with("Pod \"debugged\" is invalid: spec: Forbidden: pod updates may not change fields other than")),
        "{}",
        through_pod.body
    );

    refuses_changes(&env, &path).await;

    // A write through the subresource keeps everything else of the stored pod.
    let mut replaced = added.body.clone();
    replaced["metadata"]["labels"] = json!({"ignored": "yes"});
    replaced["spec"]["ephemeralContainers"]
        .as_array_mut()
        .expect("a list")
        .push(json!({"name": "second", "image": IMAGE}));
    let put = send(&env.client(), http::Method::PUT, &path, Some(&replaced)).await;
    assert_eq!(put.code, 200, "{}", put.body);
    assert_eq!(put.body["metadata"]["labels"], Value::Null, "{}", put.body);
    assert_eq!(
        put.body["spec"]["ephemeralContainers"].as_array().map(Vec::len),
        Some(2)
    );
    env.stop().await;
}

/// What `ValidatePodEphemeralContainersUpdate` and `validateEphemeralContainers` refuse
/// of a write to `path` (the subresource of a pod holding one ephemeral container):
/// its removal or change, an added one's ports, resources, probes and lifecycle, and a
/// name another container has.
async fn refuses_changes(env: &wheelhouse_envtest::TestEnv, path: &str) {
    let removed = patch(
        env,
        path,
        &json!([{"op": "remove", "path": "/spec/ephemeralContainers/0"}]),
    )
    .await;
    assert_eq!(removed.code, 422, "{}", removed.body);
    assert_eq!(
        removed.body["message"],
        "Pod \"debugged\" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers \"debugger\" may not be removed\n"
    );
    let changed = patch(
        env,
        path,
        &json!([{"op": "replace", "path": "/spec/ephemeralContainers/0/image", "value": "busybox"}]),
    )
    .await;
    assert_eq!(changed.code, 422, "{}", changed.body);
    assert!(
        changed.body["message"].as_str().is_some_and(|m| m.starts_with(
            "Pod \"debugged\" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers \"debugger\" may not be changed\n"
        )),
        "{}",
        changed.body
    );
    let with_ports = json!({"name": "server", "image": IMAGE, "ports": [{"containerPort": 80}],
        "resources": {"limits": {"cpu": "1"}}, "readinessProbe": {"exec": {"command": ["true"]}},
        "lifecycle": {"preStop": {"exec": {"command": ["true"]}}}});
    let forbidden = patch(env, path, &add(&with_ports)).await;
    assert_eq!(forbidden.code, 422, "{}", forbidden.body);
    let causes: Vec<String> = forbidden.body["details"]["causes"]
        .as_array()
        .map(|causes| {
            causes
                .iter()
                .map(|c| {
                    format!(
                        "{}: {}",
                        c["field"].as_str().unwrap_or_default(),
                        c["message"].as_str().unwrap_or_default()
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    for field in ["ports", "resources", "lifecycle", "readinessProbe"] {
        let wanted =
            format!("spec.ephemeralContainers[1].{field}: Forbidden: cannot be set for an Ephemeral Container");
        assert!(causes.contains(&wanted), "{wanted} in {causes:#?}");
    }
    let duplicate = patch(env, path, &add(&json!({"name": "app", "image": IMAGE}))).await;
    assert_eq!(duplicate.code, 422, "{}", duplicate.body);
    assert_eq!(
        duplicate.body["message"],
        "Pod \"debugged\" is invalid: spec.ephemeralContainers[1].name: Duplicate value: \"app\""
    );
}
