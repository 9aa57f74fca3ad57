//! The defaults and rules of built-in objects, as the real server applies them.

use serde_json::{Value, json};

use super::defaults::apply;
use crate::core::ResourceType;
use crate::resources::registry::Registry;

fn resource(group: &str, plural: &str) -> std::sync::Arc<ResourceType> {
    Registry::default().get(group, "v1", plural).unwrap()
}

#[test]
fn daemon_sets_count_their_template_generations() {
    let daemon_sets = resource("apps", "daemonsets");
    let template = |image: &str| json!({"metadata": {"labels": {"a": "b"}}, "spec": {"containers": [{"name": "c", "image": image}]}});
    let mut created = json!({"metadata": {"name": "d"}, "spec": {"template": template("nginx:1")}});
    apply(&daemon_sets, &mut created, None);
    let generation =
        |object: &Value| object["metadata"]["annotations"]["deprecated.daemonset.template.generation"].clone();
    assert_eq!(generation(&created), "1");
    assert_eq!(
        created["spec"]["revisionHistoryLimit"], 10,
        "the other defaults still apply"
    );
    let mut relabelled = created.clone();
    relabelled["metadata"]["labels"] = json!({"x": "y"});
    apply(&daemon_sets, &mut relabelled, Some(&created));
    assert_eq!(generation(&relabelled), "1", "the template did not change");
    let mut updated = created.clone();
    updated["spec"]["template"] = template("nginx:2");
    apply(&daemon_sets, &mut updated, Some(&created));
    assert_eq!(generation(&updated), "2");
}

#[test]
fn pods_ask_for_their_limits_and_get_their_qos_class() {
    let pods = resource("", "pods");
    let pod = |resources: &Value| {
        let mut pod = json!({"spec": {"containers": [{"name": "a", "image": "nginx:1.27", "resources": resources}]}});
        apply(&pods, &mut pod, None);
        pod
    };
    let limited = pod(&json!({"limits": {"cpu": "1"}}));
    let container = &limited["spec"]["containers"][0];
    assert_eq!(container["resources"]["requests"], json!({"cpu": "1"}));
    assert_eq!(
        container["resizePolicy"],
        json!([{"resourceName": "cpu", "restartPolicy": "NotRequired"}])
    );
    assert!(container.get("ports").is_none(), "no null field appears");
    assert_eq!(limited["status"]["qosClass"], "Burstable");
    let both = json!({"limits": {"cpu": "1", "memory": "1Gi"}});
    assert_eq!(pod(&both)["status"]["qosClass"], "Guaranteed");
    let unequal = json!({"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "500m"}});
    assert_eq!(pod(&unequal)["status"]["qosClass"], "Burstable");
    let nothing = pod(&json!({}));
    assert_eq!(nothing["status"]["qosClass"], "BestEffort");
    assert!(nothing["spec"]["containers"][0].get("resizePolicy").is_none());
    assert_eq!(nothing["spec"]["enableServiceLinks"], true);
}

#[test]
fn deployments_get_strategy_history_and_pod_defaults_and_keep_what_is_set() {
    let mut deployment = json!({"spec": {"replicas": 3, "template": {"spec": {"containers": [
        {"name": "a", "image": "nginx:1.27", "ports": [{"containerPort": 80}]},
        {"name": "b", "image": "busybox", "imagePullPolicy": "Never"},
    ]}}}});
    apply(&resource("apps", "deployments"), &mut deployment, None);
    let spec = &deployment["spec"];
    assert_eq!(spec["replicas"], 3);
    assert_eq!(
        spec["strategy"],
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}})
    );
    assert_eq!(spec["revisionHistoryLimit"], 10);
    let pod = &spec["template"]["spec"];
    assert_eq!(
        (pod["restartPolicy"].as_str(), pod["dnsPolicy"].as_str()),
        (Some("Always"), Some("ClusterFirst"))
    );
    assert_eq!(pod["containers"][0]["imagePullPolicy"], "IfNotPresent");
    assert_eq!(pod["containers"][0]["ports"][0]["protocol"], "TCP");
    assert_eq!(pod["containers"][1]["imagePullPolicy"], "Never");
    assert!(pod.get("initContainers").is_none(), "{pod}");
    let again = deployment.clone();
    apply(&resource("apps", "deployments"), &mut deployment, None);
    assert_eq!(deployment, again, "defaulting is idempotent");
}

#[test]
fn an_empty_strategy_gets_its_type_as_kubectl_create_sends_it() {
    let mut deployment = json!({"spec": {"strategy": {}, "template": {"spec": {"containers": []}}}});
    apply(&resource("apps", "deployments"), &mut deployment, None);
    assert_eq!(
        deployment["spec"]["strategy"],
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}})
    );
}

#[test]
fn secrets_move_string_data_into_data() {
    let mut secret = json!({"data": {"a": "b2xk", "b": "Yg=="}, "stringData": {"a": "new", "c": "see"}});
    apply(&resource("", "secrets"), &mut secret, None);
    assert_eq!(
        secret,
        json!({"type": "Opaque", "data": {"a": "bmV3", "b": "Yg==", "c": "c2Vl"}})
    );
}

#[test]
fn service_updates_keep_the_cluster_ip_they_had() {
    let services = resource("", "services");
    let mut service = json!({"spec": {"ports": [{"port": 80}]}});
    apply(&services, &mut service, None);
    assert_eq!(
        service["spec"]["ports"][0],
        json!({"port": 80, "protocol": "TCP", "targetPort": 80})
    );
    assert!(service["spec"].get("clusterIP").is_none(), "allocated when stored");
    service["spec"]["clusterIP"] = json!("10.96.0.12");
    let mut update = json!({"spec": {"ports": [{"port": 81}]}});
    apply(&services, &mut update, Some(&service));
    assert_eq!(update["spec"]["clusterIP"], "10.96.0.12");
    assert_eq!(update["spec"]["clusterIPs"], json!(["10.96.0.12"]));
}
