//! The daemon set controller (`pkg/controller/daemon/daemon_controller.go`:
//! `syncDaemonSet`, `manage`, `podsShouldBeOnNode`, `updateDaemonSetStatus`;
//! `update.go`: `rollingUpdate`, `constructHistory`; `util/daemonset_util.go`): one
//! pod per Node the template's node selector admits, pinned to its Node by node
//! affinity and tolerating the node conditions; a template change replaces the pods
//! at most `maxUnavailable` at a time.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::cluster::{CONTROLLER_MANAGER, Cluster};
use super::deployments::int_or_percent;
use super::fields::{generation, int, is_deleting, name_of, set_count};
use super::history::{Style, sync_revisions, truncate_history};
use super::pods::{from_template, is_available, is_ready, phase};
use super::{Key, Kind};

const COMPONENT: &str = "daemonset-controller";
const HASH_LABEL: &str = "controller-revision-hash";

pub(super) fn sync_all(cluster: &mut Cluster<'_>) {
    for daemon_set in cluster.all(Kind::DaemonSet) {
        sync(cluster, &Key::of(Kind::DaemonSet, &daemon_set));
    }
}

pub(super) fn sync(cluster: &mut Cluster<'_>, key: &Key) {
    let Some(daemon_set) = cluster.get_key(key) else {
        return;
    };
    let Some(revisions) = sync_revisions(cluster, &daemon_set, None, Style::DaemonSet) else {
        return;
    };
    let hash = revisions.update["metadata"]["labels"][HASH_LABEL]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let nodes = cluster.all(Kind::Node);
    if !is_deleting(&daemon_set) {
        manage(cluster, &daemon_set, &nodes, &hash, &revisions.update);
        if daemon_set["spec"]["updateStrategy"]["type"] != "OnDelete" {
            roll(cluster, &daemon_set, &nodes, &hash);
        }
    }
    let status = status(cluster, &daemon_set, &nodes, &hash, revisions.collision_count);
    let daemon_set = cluster
        .write_status(Kind::DaemonSet, &daemon_set, status, CONTROLLER_MANAGER)
        .unwrap_or(daemon_set);
    let live: Vec<String> = vec![name_of(&revisions.update).to_owned()];
    truncate_history(
        cluster,
        &daemon_set,
        &live,
        int(&daemon_set["spec"]["revisionHistoryLimit"], 10),
    );
}

/// Whether the template's node selector admits `node` (the simulated Nodes have no
/// taints for the daemon's pods to tolerate).
fn should_run(daemon_set: &Value, node: &Value) -> bool {
    super::scheduler::admits(&daemon_set["spec"]["template"]["spec"], node)
}

/// The daemon's pods by the Node they are on or pinned to.
fn pods_by_node(cluster: &Cluster<'_>, daemon_set: &Value) -> BTreeMap<String, Vec<Arc<Value>>> {
    let mut by_node: BTreeMap<String, Vec<Arc<Value>>> = BTreeMap::new();
    for pod in cluster.children(daemon_set, Kind::Pod) {
        if let Some(node) = target_node(&pod) {
            by_node.entry(node).or_default().push(pod);
        }
    }
    by_node
}

/// The Node a daemon pod runs on, or is pinned to by its affinity (`GetTargetNodeName`).
fn target_node(pod: &Value) -> Option<String> {
    if let Some(node) = pod["spec"]["nodeName"].as_str().filter(|n| !n.is_empty()) {
        return Some(node.to_owned());
    }
    pod["spec"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
        .as_array()?
        .iter()
        .flat_map(|term| term["matchFields"].as_array().into_iter().flatten())
        .find(|field| field["key"] == "metadata.name" && field["operator"] == "In")
        .and_then(|field| field["values"][0].as_str())
        .map(str::to_owned)
}

/// `manage`: a pod for each admitting Node without one, none on the others, failed
/// pods replaced, and only the oldest kept where there are several.
fn manage(cluster: &mut Cluster<'_>, daemon_set: &Arc<Value>, nodes: &[Arc<Value>], hash: &str, revision: &Value) {
    let mut by_node = pods_by_node(cluster, daemon_set);
    let mut to_create = Vec::new();
    let mut to_delete: Vec<Arc<Value>> = Vec::new();
    for node in nodes {
        let name = name_of(node).to_owned();
        let pods = by_node.remove(&name).unwrap_or_default();
        if should_run(daemon_set, node) {
            let (failed, alive): (Vec<_>, Vec<_>) = pods.into_iter().partition(|pod| phase(pod) == "Failed");
            to_delete.extend(failed.into_iter().filter(|pod| !is_deleting(pod)));
            let running: Vec<_> = alive.into_iter().filter(|pod| !is_deleting(pod)).collect();
            if running.is_empty() {
                to_create.push(name);
            } else {
                to_delete.extend(running.into_iter().skip(1));
            }
        } else {
            to_delete.extend(pods.into_iter().filter(|pod| !is_deleting(pod)));
        }
    }
    // Pods pinned to Nodes that no longer exist.
    to_delete.extend(by_node.into_values().flatten().filter(|pod| !is_deleting(pod)));
    for node in to_create {
        create_pod(cluster, daemon_set, &node, hash, revision);
    }
    for pod in to_delete {
        delete_pod(cluster, daemon_set, &pod);
    }
}

/// `rollingUpdate`: old pods that are unavailable go at once, available ones while
/// fewer than `maxUnavailable` Nodes lack an available pod.
fn roll(cluster: &mut Cluster<'_>, daemon_set: &Arc<Value>, nodes: &[Arc<Value>], hash: &str) {
    let by_node = pods_by_node(cluster, daemon_set);
    let min_ready = int(&daemon_set["spec"]["minReadySeconds"], 0);
    let admitting: Vec<&Arc<Value>> = nodes.iter().filter(|node| should_run(daemon_set, node)).collect();
    let desired = i64::try_from(admitting.len()).unwrap_or(0);
    let max_unavailable = int_or_percent(
        &daemon_set["spec"]["updateStrategy"]["rollingUpdate"]["maxUnavailable"],
        desired,
        true,
    )
    .max(1);
    let mut unavailable = 0;
    let mut old_available = Vec::new();
    let mut to_delete = Vec::new();
    for node in admitting {
        let pods = by_node.get(name_of(node)).cloned().unwrap_or_default();
        if !pods.iter().any(|pod| is_available(pod, min_ready)) {
            unavailable += 1;
        }
        for pod in pods {
            if pod["metadata"]["labels"][HASH_LABEL] == hash {
                continue;
            }
            if is_available(&pod, min_ready) {
                old_available.push(pod);
            } else if !is_deleting(&pod) {
                to_delete.push(pod);
            }
        }
    }
    for pod in old_available {
        if unavailable >= max_unavailable {
            break;
        }
        to_delete.push(pod);
        unavailable += 1;
    }
    for pod in to_delete {
        delete_pod(cluster, daemon_set, &pod);
    }
}

/// The pod for `node` (`CreatePodTemplate` and `syncNodes`): the template with the
/// revision's hash and the template generation as labels, the node conditions'
/// tolerations, and node affinity to that Node alone.
fn create_pod(cluster: &mut Cluster<'_>, daemon_set: &Arc<Value>, node: &str, hash: &str, revision: &Value) {
    let _ = revision;
    let mut pod = from_template(&daemon_set["spec"]["template"], daemon_set);
    if !pod["metadata"]["labels"].is_object() {
        pod["metadata"]["labels"] = json!({});
    }
    pod["metadata"]["labels"][HASH_LABEL] = json!(hash);
    pod["metadata"]["labels"]["pod-template-generation"] = json!(generation(daemon_set).to_string());
    let spec = &mut pod["spec"];
    let mut tolerations: Vec<Value> = spec["tolerations"].as_array().cloned().unwrap_or_default();
    let mut tolerate = |key: &str, effect: &str| {
        if !tolerations.iter().any(|t| t["key"] == key && t["effect"] == effect) {
            tolerations.push(json!({"key": key, "operator": "Exists", "effect": effect}));
        }
    };
    tolerate("node.kubernetes.io/not-ready", "NoExecute");
    tolerate("node.kubernetes.io/unreachable", "NoExecute");
    tolerate("node.kubernetes.io/disk-pressure", "NoSchedule");
    tolerate("node.kubernetes.io/memory-pressure", "NoSchedule");
    tolerate("node.kubernetes.io/pid-pressure", "NoSchedule");
    tolerate("node.kubernetes.io/unschedulable", "NoSchedule");
    if spec["hostNetwork"] == true {
        tolerate("node.kubernetes.io/network-unavailable", "NoSchedule");
    }
    spec["tolerations"] = Value::Array(tolerations);
    if !spec["affinity"].is_object() {
        spec["affinity"] = json!({});
    }
    spec["affinity"]["nodeAffinity"] = json!({
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchFields": [{"key": "metadata.name", "operator": "In", "values": [node]}]}
        ]}
    });
    let namespace = daemon_set["metadata"]["namespace"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    match cluster.create(Kind::Pod, &namespace, pod, CONTROLLER_MANAGER) {
        Ok(created) => {
            let message = format!("Created pod: {}", name_of(&created));
            cluster.event(daemon_set, false, "SuccessfulCreate", &message, COMPONENT);
        }
        Err(error) => {
            let message = format!("Error creating: {}", error.message);
            cluster.event(daemon_set, true, "FailedCreate", &message, COMPONENT);
        }
    }
}

fn delete_pod(cluster: &mut Cluster<'_>, daemon_set: &Arc<Value>, pod: &Value) {
    let namespace = pod["metadata"]["namespace"].as_str().unwrap_or_default().to_owned();
    let name = name_of(pod).to_owned();
    if cluster.delete(Kind::Pod, &namespace, &name, None).is_some() {
        let message = format!("Deleted pod: {name}");
        cluster.event(daemon_set, false, "SuccessfulDelete", &message, COMPONENT);
    }
}

/// `updateDaemonSetStatus`: per Node, whether a pod is scheduled where it should (or
/// should not) be, ready, available, and of the current revision.
fn status(cluster: &Cluster<'_>, daemon_set: &Value, nodes: &[Arc<Value>], hash: &str, collision_count: i64) -> Value {
    let by_node = pods_by_node(cluster, daemon_set);
    let min_ready = int(&daemon_set["spec"]["minReadySeconds"], 0);
    let (mut desired, mut scheduled, mut misscheduled, mut ready, mut available, mut updated) = (0, 0, 0, 0, 0, 0);
    for node in nodes {
        let pods: Vec<&Arc<Value>> = by_node
            .get(name_of(node))
            .into_iter()
            .flatten()
            .filter(|pod| !is_deleting(pod))
            .collect();
        if should_run(daemon_set, node) {
            desired += 1;
            if let Some(pod) = pods.first() {
                scheduled += 1;
                if is_ready(pod) {
                    ready += 1;
                    if is_available(pod, min_ready) {
                        available += 1;
                    }
                }
                if pod["metadata"]["labels"][HASH_LABEL] == hash {
                    updated += 1;
                }
            }
        } else if !pods.is_empty() {
            misscheduled += 1;
        }
    }
    let mut status: Map<String, Value> = daemon_set["status"].as_object().cloned().unwrap_or_default();
    status.insert("desiredNumberScheduled".into(), json!(desired));
    status.insert("currentNumberScheduled".into(), json!(scheduled));
    status.insert("numberMisscheduled".into(), json!(misscheduled));
    status.insert("numberReady".into(), json!(ready));
    set_count(&mut status, "observedGeneration", generation(daemon_set));
    set_count(&mut status, "updatedNumberScheduled", updated);
    set_count(&mut status, "numberAvailable", available);
    set_count(&mut status, "numberUnavailable", desired - available);
    if collision_count > 0 {
        status.insert("collisionCount".into(), json!(collision_count));
    }
    Value::Object(status)
}
