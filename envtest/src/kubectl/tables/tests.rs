//! Tables against a real kube-apiserver 1.19: `fixtures/columns-1.19.json` holds the
//! column definitions it answered for each kind (curl with the Table Accept header), and
//! the cells below are the ones it printed for the same objects.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::builtin::{self, Column};
use super::*;
use crate::request::requested;

/// A timestamp `minutes` ago, which prints as `<minutes>m` for 10 to 179 minutes.
fn ago(minutes: i64) -> String {
    let at = jiff::Timestamp::now() - jiff::SignedDuration::from_mins(minutes);
    at.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

fn cells(group: &str, kind: &str, object: &Value) -> Vec<Value> {
    let printer = builtin::printer(group, kind).unwrap_or_else(|| panic!("{group}/{kind} has a printer"));
    (printer.cells)(object)
}

#[test]
fn columns_are_the_ones_kube_apiserver_1_19_defines() {
    let fixtures: Vec<Value> = serde_json::from_str(include_str!("fixtures/columns-1.19.json")).expect("fixture JSON");
    for fixture in fixtures {
        let (group, kind) = (
            fixture["group"].as_str().unwrap_or_default(),
            fixture["kind"].as_str().unwrap_or_default(),
        );
        // Kinds without a printer get the default columns (Roles, CRDs).
        let ours: Vec<Value> = if let Some(printer) = builtin::printer(group, kind) {
            printer.columns().iter().map(Column::to_json).collect()
        } else {
            let table = Table {
                request: TableRequest {
                    api_version: "meta.k8s.io/v1",
                    include: Include::None,
                },
                printer: Printer::Default,
                columns_sent: AtomicBool::new(false),
            };
            table.columns().iter().map(Column::to_json).collect()
        };
        assert_eq!(Value::Array(ours), fixture["columnDefinitions"], "{group}/{kind}");
    }
}

#[test]
fn cells_of_workloads_and_services() {
    let twenty = ago(20);
    let meta = |name: &str| json!({"name": name, "creationTimestamp": twenty});
    let deployment = json!({"metadata": meta("web"), "spec": {"replicas": 2,
        "selector": {"matchLabels": {"app": "web"}},
        "template": {"spec": {"containers": [{"name": "nginx", "image": "nginx:1.27"}, {"name": "side", "image": "busybox"}]}}},
        "status": {"updatedReplicas": 2}});
    assert_eq!(
        cells("apps", "Deployment", &deployment),
        json!(["web", "0/2", 2, 0, "20m", "nginx,side", "nginx:1.27,busybox", "app=web"])
            .as_array()
            .cloned()
            .unwrap()
    );
    let service = json!({"metadata": meta("svc1"), "spec": {"type": "ClusterIP", "clusterIP": "10.0.0.45",
        "selector": {"app": "web"}, "ports": [{"port": 80, "protocol": "TCP", "targetPort": 8080}]}});
    assert_eq!(
        cells("", "Service", &service),
        json!(["svc1", "ClusterIP", "10.0.0.45", "<none>", "80/TCP", "20m", "app=web"])
            .as_array()
            .cloned()
            .unwrap()
    );
    let pod = json!({"metadata": meta("pod1"), "spec": {"containers": [{"name": "c"}], "readinessGates": [{"conditionType": "x"}]},
        "status": {"phase": "Pending"}});
    assert_eq!(
        cells("", "Pod", &pod),
        json!(["pod1", "0/1", "Pending", 0, "20m", "<none>", "<none>", "<none>", "0/1"])
            .as_array()
            .cloned()
            .unwrap()
    );
    let running = json!({"metadata": meta("p"), "spec": {"nodeName": "n1", "containers": [{"name": "a"}, {"name": "b"}]},
        "status": {"phase": "Running", "podIPs": [{"ip": "10.1.0.7"}], "containerStatuses": [
            {"name": "a", "ready": true, "restartCount": 1, "state": {"running": {}}},
            {"name": "b", "ready": false, "restartCount": 2, "state": {"waiting": {"reason": "CrashLoopBackOff"}}}]}});
    assert_eq!(
        cells("", "Pod", &running)[..6],
        json!(["p", "1/2", "CrashLoopBackOff", 3, "20m", "10.1.0.7"])
            .as_array()
            .cloned()
            .unwrap()[..]
    );
}

#[test]
fn cells_of_events_and_bindings() {
    let twenty = ago(20);
    let meta = |name: &str| json!({"name": name, "creationTimestamp": twenty});
    let event = json!({"metadata": meta("ev1"), "involvedObject": {"kind": "Pod", "name": "p1", "fieldPath": "spec.containers{c}"},
        "reason": "Started", "message": "Started container  ", "type": "Normal",
        "source": {"component": "kubelet", "host": "node1"}, "firstTimestamp": ago(30), "lastTimestamp": twenty, "count": 3});
    assert_eq!(
        cells("", "Event", &event),
        json!([
            "20m",
            "Normal",
            "Started",
            "pod/p1",
            "spec.containers{c}",
            "kubelet, node1",
            "Started container",
            "30m",
            3,
            "ev1"
        ])
        .as_array()
        .cloned()
        .unwrap()
    );
    // The events.k8s.io view of an Event prints the same.
    let new_event = json!({"metadata": meta("ev2"), "regarding": {"kind": "Deployment", "name": "web"},
        "reason": "Scaled", "note": "scaled up", "type": "Normal", "eventTime": format!("{}.000000Z", &twenty[..19]),
        "reportingController": "wheelhouse", "reportingInstance": "pod-1"});
    assert_eq!(
        cells("events.k8s.io", "Event", &new_event),
        json!([
            "20m",
            "Normal",
            "Scaled",
            "deployment/web",
            "",
            "wheelhouse, pod-1",
            "scaled up",
            "20m",
            1,
            "ev2"
        ])
        .as_array()
        .cloned()
        .unwrap()
    );
    let binding = json!({"metadata": meta("rb1"), "roleRef": {"kind": "Role", "name": "role1"}, "subjects": [
        {"kind": "User", "name": "alice"}, {"kind": "ServiceAccount", "name": "sa1", "namespace": "default"}, {"kind": "Group", "name": "devs"}]});
    assert_eq!(
        cells("rbac.authorization.k8s.io", "RoleBinding", &binding),
        json!(["rb1", "Role/role1", "20m", "alice", "devs", "default/sa1"])
            .as_array()
            .cloned()
            .unwrap()
    );
}

#[test]
fn cells_of_batch_networking_and_the_rest() {
    let twenty = ago(20);
    let meta = |name: &str| json!({"name": name, "creationTimestamp": twenty});
    let cron_job = json!({"metadata": meta("cj1"), "spec": {"schedule": "*/5 * * * *", "suspend": false,
        "jobTemplate": {"spec": {"template": {"spec": {"containers": [{"name": "c", "image": "busybox"}]}}}}}});
    assert_eq!(
        cells("batch", "CronJob", &cron_job),
        json!([
            "cj1",
            "*/5 * * * *",
            "False",
            0,
            "<none>",
            "20m",
            "c",
            "busybox",
            "<none>"
        ])
        .as_array()
        .cloned()
        .unwrap()
    );
    let job = json!({"metadata": meta("job1"), "spec": {"completions": 1, "parallelism": 1,
        "selector": {"matchLabels": {"controller-uid": "u"}},
        "template": {"spec": {"containers": [{"name": "c", "image": "busybox"}]}}},
        "status": {"startTime": ago(30), "completionTime": twenty, "succeeded": 1}});
    assert_eq!(
        cells("batch", "Job", &job),
        json!(["job1", "1/1", "10m", "20m", "c", "busybox", "controller-uid=u"])
            .as_array()
            .cloned()
            .unwrap()
    );
    let ingress = json!({"metadata": meta("ing1"), "spec": {"rules": [{"host": "a.example.com"}], "tls": [{"hosts": ["a.example.com"]}]}});
    assert_eq!(
        cells("networking.k8s.io", "Ingress", &ingress),
        json!(["ing1", "<none>", "a.example.com", "", "80, 443", "20m"])
            .as_array()
            .cloned()
            .unwrap()
    );
    let daemon_set = json!({"metadata": meta("ds1"), "spec": {"selector": {"matchLabels": {"app": "agent"}},
        "template": {"spec": {"nodeSelector": {"disk": "ssd"}, "containers": [{"name": "agent", "image": "agent"}]}}}});
    assert_eq!(
        cells("apps", "DaemonSet", &daemon_set),
        json!(["ds1", 0, 0, 0, 0, 0, "disk=ssd", "20m", "agent", "agent", "app=agent"])
            .as_array()
            .cloned()
            .unwrap()
    );
    let config_map = json!({"metadata": meta("cm1"), "data": {"a": "b", "c": "d"}, "binaryData": {"e": "Zg=="}});
    assert_eq!(
        cells("", "ConfigMap", &config_map),
        json!(["cm1", 3, "20m"]).as_array().cloned().unwrap()
    );
    let budget = json!({"metadata": meta("pdb1"), "spec": {"minAvailable": "50%"}});
    assert_eq!(
        cells("policy", "PodDisruptionBudget", &budget),
        json!(["pdb1", "50%", "N/A", 0, "20m"]).as_array().cloned().unwrap()
    );
}

#[test]
fn the_accept_header_and_include_object_choose_the_table() {
    let none = HashMap::new();
    let kubectl = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
    let table = requested(kubectl, &none).expect("valid").expect("a Table");
    assert_eq!(
        (table.api_version, table.include),
        ("meta.k8s.io/v1", Include::Metadata)
    );
    let beta = requested("application/json;as=Table;v=v1beta1;g=meta.k8s.io", &none).expect("valid");
    assert_eq!(beta.map(|t| t.api_version), Some("meta.k8s.io/v1beta1"));
    assert_eq!(requested("application/json", &none).expect("valid"), None);
    assert_eq!(
        requested("application/json, application/json;as=Table;v=v1;g=meta.k8s.io", &none).expect("valid"),
        None,
        "plain JSON comes first"
    );
    let object: HashMap<String, String> = [("includeObject".to_owned(), "Object".to_owned())].into();
    assert_eq!(
        requested(kubectl, &object).expect("valid").map(|t| t.include),
        Some(Include::Object)
    );
    let bogus: HashMap<String, String> = [("includeObject".to_owned(), "Bogus".to_owned())].into();
    assert_eq!(requested(kubectl, &bogus).expect_err("refused").code, 400);
}

#[test]
fn rows_carry_what_include_object_asks_and_watches_send_columns_once() {
    let object = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "resourceVersion": "7"}, "data": {"a": "b"}});
    let table = |include| Table {
        request: TableRequest {
            api_version: "meta.k8s.io/v1",
            include,
        },
        printer: Printer::Builtin(builtin::printer("", "ConfigMap").expect("a printer")),
        columns_sent: AtomicBool::new(false),
    };
    let encoded = || Bytes::from(serde_json::to_vec(&object).expect("JSON"));
    let row = |include| -> Value { serde_json::from_slice(&table(include).row(&object, encoded)).expect("JSON") };
    assert_eq!(row(Include::None)["object"], Value::Null);
    assert_eq!(row(Include::Object)["object"], object);
    assert_eq!(
        row(Include::Metadata)["object"],
        json!({"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": object["metadata"]})
    );
    let watched = table(Include::None);
    let first: Value = serde_json::from_slice(&watched.of_watched(&object, encoded)).expect("JSON");
    let second: Value = serde_json::from_slice(&watched.of_watched(&object, encoded)).expect("JSON");
    assert_eq!(first["kind"], "Table");
    assert_eq!(first["metadata"]["resourceVersion"], "7");
    assert_eq!(first["columnDefinitions"].as_array().map(Vec::len), Some(3));
    assert_eq!(second["columnDefinitions"], Value::Null);
    assert_eq!(second["rows"][0]["cells"][0], "c");
}
