//! kube-apiserver's flow-control configuration controller, as clients see it: each
//! `FlowSchema` gets a `Dangling` condition saying whether the priority level it names
//! exists, server-side applied to its status by the controller's own field manager.

use serde_json::{Value, json};

use crate::common::{eventually, start};
use crate::raw::send;

const FLOW_SCHEMAS: &str = "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas";
const LEVELS: &str = "/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations";
const MANAGER: &str = "api-priority-and-fairness-config-consumer-v1";

/// The schema's `Dangling` condition, once it says `status`.
async fn dangling(client: &kube::Client, name: &str, status: &'static str) -> Value {
    let path = format!("{FLOW_SCHEMAS}/{name}");
    eventually(&format!("{name}'s Dangling condition to be {status}"), || {
        let path = path.clone();
        async move {
            let answer = send(client, http::Method::GET, &path, None).await;
            let body = answer.body;
            let condition = body["status"]["conditions"]
                .as_array()?
                .iter()
                .find(|c| c["type"] == "Dangling")?
                .clone();
            (condition["status"] == status).then_some(body)
        }
    })
    .await
}

#[tokio::test]
async fn flow_schemas_say_whether_their_priority_level_exists() {
    let env = start().await;
    let client = env.client();
    let probe = send(
        &client,
        http::Method::GET,
        "/apis/flowcontrol.apiserver.k8s.io/v1",
        None,
    )
    .await;
    if probe.code == 404 {
        eprintln!(
            "skipped: the server serves no flowcontrol.apiserver.k8s.io/v1 (its flow-control controller predates it)"
        );
        return;
    }
    let name = format!("{}-schema", env.namespace());
    let level = format!("{}-level", env.namespace());
    let schema = json!({
        "apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "FlowSchema",
        "metadata": {"name": name},
        "spec": {"priorityLevelConfiguration": {"name": level}, "matchingPrecedence": 9000,
                 "rules": [{"subjects": [{"kind": "User", "user": {"name": "conformance-nobody"}}],
                            "nonResourceRules": [{"nonResourceURLs": ["/conformance-nothing"], "verbs": ["get"]}]}]},
    });
    let created = send(&client, http::Method::POST, FLOW_SCHEMAS, Some(&schema)).await;
    assert_eq!(created.code, 201, "{}", created.body);

    let missing = dangling(&client, &name, "True").await;
    let condition = &missing["status"]["conditions"][0];
    assert_eq!(condition["reason"], "NotFound");
    assert_eq!(
        condition["message"],
        json!(format!(
            "This FlowSchema references the PriorityLevelConfiguration object named \"{level}\" but there is no such object"
        ))
    );
    assert!(condition["lastTransitionTime"].is_string());
    let entries = missing["metadata"]["managedFields"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let entry = entries
        .iter()
        .find(|e| e["manager"] == MANAGER)
        .expect("the controller's managed fields entry");
    assert_eq!(
        (entry["operation"].as_str(), entry["subresource"].as_str()),
        (Some("Apply"), Some("status"))
    );
    assert!(entry["fieldsV1"]["f:status"]["f:conditions"]["k:{\"type\":\"Dangling\"}"].is_object());

    let priority_level = json!({
        "apiVersion": "flowcontrol.apiserver.k8s.io/v1", "kind": "PriorityLevelConfiguration",
        "metadata": {"name": level},
        "spec": {"type": "Limited", "limited": {"nominalConcurrencyShares": 1,
                 "limitResponse": {"type": "Reject"}}},
    });
    let created = send(&client, http::Method::POST, LEVELS, Some(&priority_level)).await;
    assert_eq!(created.code, 201, "{}", created.body);
    let found = dangling(&client, &name, "False").await;
    assert_eq!(found["status"]["conditions"][0]["reason"], "Found");

    for path in [format!("{FLOW_SCHEMAS}/{name}"), format!("{LEVELS}/{level}")] {
        let deleted = send(&client, http::Method::DELETE, &path, None).await;
        assert_eq!(deleted.code, 200, "{}", deleted.body);
    }
}
