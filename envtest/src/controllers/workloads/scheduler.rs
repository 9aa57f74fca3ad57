//! The scheduler (`pkg/scheduler/`: `schedule_one.go`, and the filter plugins of
//! `framework/plugins/`: `NodeUnschedulable`, `NodeName`, `NodeAffinity`,
//! `TaintToleration`, `NodeResourcesFit`): a pod without a node is bound to a Ready,
//! schedulable simulated Node its node selector and required node affinity admit,
//! the one running fewest pods (a stand-in for the scoring plugins), through the same
//! write as `pods/binding`. A pod no Node admits gets `PodScheduled=False`
//! (`Unschedulable`) and is tried again when the Nodes change.
//!
//! Not imitated: resource requests (simulated Nodes have room for anything), taints
//! (simulated Nodes have none), inter-pod affinity, topology spread and preemption;
//! pods naming another `schedulerName` are left for that scheduler.

use serde_json::{Value, json};

use super::cluster::Cluster;
use super::fields::{condition, is_deleting, name_of, namespace_of};
use super::nodes::is_simulated;
use super::pods::is_finished;
use super::{Key, Kind};

const COMPONENT: &str = "default-scheduler";

/// Schedules every pod still waiting for a node (after the Nodes changed).
pub(super) fn schedule_all(cluster: &mut Cluster<'_>) {
    for pod in cluster.all(Kind::Pod) {
        if is_pending_binding(&pod) {
            schedule(cluster, &Key::of(Kind::Pod, &pod));
        }
    }
}

/// Whether a pod waits for this scheduler to bind it.
fn is_pending_binding(pod: &Value) -> bool {
    let unassigned = pod["spec"]["nodeName"].as_str().is_none_or(str::is_empty);
    let ours = pod["spec"]["schedulerName"]
        .as_str()
        .is_none_or(|name| name.is_empty() || name == COMPONENT);
    unassigned && ours && !is_deleting(pod) && !is_finished(pod)
}

/// Binds the pod of `key` to a Node, if it waits for one.
pub(super) fn schedule(cluster: &mut Cluster<'_>, key: &Key) {
    let Some(pod) = cluster.get_key(key) else {
        return;
    };
    if !is_pending_binding(&pod) {
        return;
    }
    let nodes = cluster.all(Kind::Node);
    let candidates: Vec<&Value> = nodes
        .iter()
        .map(AsRef::as_ref)
        .filter(|node| is_simulated(cluster, name_of(node)))
        .filter(|node| fits(&pod["spec"], node))
        .collect();
    let chosen = candidates
        .iter()
        .map(|node| (cluster.index.pods_on(name_of(node)), name_of(node).to_owned()))
        .min()
        .map(|(_, name)| name);
    let Some(node) = chosen else {
        unschedulable(cluster, &pod, nodes.len());
        return;
    };
    let (namespace, name) = (namespace_of(&pod).to_owned(), name_of(&pod).to_owned());
    match crate::api::actions::bind_pod(cluster.state, &namespace, &name, &node, None) {
        Ok(bound) => {
            cluster.index.observe(Kind::Pod, &bound, false);
            let message = format!("Successfully assigned {namespace}/{name} to {node}");
            cluster.event(&bound, false, "Scheduled", &message, COMPONENT);
        }
        Err(error) => tracing::debug!(?error, name, "the simulated scheduler's binding was refused"),
    }
}

/// `PodScheduled=False`, as the scheduler reports a pod no Node admits.
fn unschedulable(cluster: &mut Cluster<'_>, pod: &Value, nodes: usize) {
    let message = format!("0/{nodes} nodes are available: {nodes} node(s) didn't match Pod's node affinity/selector.");
    if condition(&pod["status"]["conditions"], "PodScheduled").is_some_and(|c| c["message"] == message.as_str()) {
        return;
    }
    let mut status = pod["status"].clone();
    if !status.is_object() {
        status = json!({});
    }
    let mut conditions: Vec<Value> = status["conditions"].as_array().cloned().unwrap_or_default();
    conditions.retain(|c| c["type"] != "PodScheduled");
    conditions.push(json!({
        "type": "PodScheduled", "status": "False", "lastProbeTime": null,
        "lastTransitionTime": super::fields::timestamp(), "reason": "Unschedulable", "message": message,
    }));
    status["conditions"] = Value::Array(conditions);
    status["phase"] = json!("Pending");
    cluster.write_status(Kind::Pod, pod, status, COMPONENT);
    cluster.event(pod, true, "FailedScheduling", &message, COMPONENT);
}

/// Whether a pod with `spec` may run on `node`: the Node is Ready and schedulable,
/// and admits the pod's `nodeName`, `nodeSelector` and required node affinity.
fn fits(spec: &Value, node: &Value) -> bool {
    let ready = condition(&node["status"]["conditions"], "Ready").is_some_and(|c| c["status"] == "True");
    ready && node["spec"]["unschedulable"] != true && admits(spec, node)
}

/// Whether the `nodeSelector` and required node affinity of a pod with `spec` admit
/// `node` (what a DaemonSet asks before it places a pod, `predicates` in
/// `pkg/controller/daemon/daemon_controller.go`).
pub(super) fn admits(spec: &Value, node: &Value) -> bool {
    let selector_admits = spec["nodeSelector"].as_object().is_none_or(|wanted| {
        wanted
            .iter()
            .all(|(key, value)| node["metadata"]["labels"][key] == *value)
    });
    selector_admits && affinity_admits(spec, node)
}

/// Whether the pod's required node affinity admits `node`: any one of its
/// `nodeSelectorTerms` matches, a term matching when all its expressions on labels
/// (`matchExpressions`) and on fields (`matchFields`, only `metadata.name`) do.
fn affinity_admits(spec: &Value, node: &Value) -> bool {
    let terms =
        &spec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"];
    let Some(terms) = terms.as_array() else {
        return true;
    };
    terms.iter().any(|term| {
        let labels = term["matchExpressions"]
            .as_array()
            .into_iter()
            .flatten()
            .all(|expression| expression_matches(expression, |key| node["metadata"]["labels"][key].as_str()));
        let fields =
            term["matchFields"].as_array().into_iter().flatten().all(|expression| {
                expression_matches(expression, |key| (key == "metadata.name").then(|| name_of(node)))
            });
        let empty = term["matchExpressions"].as_array().is_none_or(Vec::is_empty)
            && term["matchFields"].as_array().is_none_or(Vec::is_empty);
        !empty && labels && fields
    })
}

/// One `NodeSelectorRequirement` against a lookup of the Node's labels or fields.
fn expression_matches<'a>(expression: &Value, lookup: impl Fn(&str) -> Option<&'a str>) -> bool {
    let key = expression["key"].as_str().unwrap_or_default();
    let values: Vec<&str> = expression["values"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let actual = lookup(key);
    match expression["operator"].as_str().unwrap_or_default() {
        "In" => actual.is_some_and(|v| values.contains(&v)),
        "NotIn" => actual.is_none_or(|v| !values.contains(&v)),
        "Exists" => actual.is_some(),
        "DoesNotExist" => actual.is_none(),
        "Gt" | "Lt" => {
            let (Some(actual), Some(bound)) = (
                actual.and_then(|v| v.parse::<i64>().ok()),
                values.first().and_then(|v| v.parse::<i64>().ok()),
            ) else {
                return false;
            };
            if expression["operator"] == "Gt" {
                actual > bound
            } else {
                actual < bound
            }
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(name: &str) -> Value {
        json!({"metadata": {"name": name, "labels": {"zone": "a", "size": "4"}},
               "status": {"conditions": [{"type": "Ready", "status": "True"}]}})
    }

    #[test]
    fn node_affinity_and_selectors_admit_or_refuse() {
        let pinned = json!({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["worker-2"]}]}]}}}});
        assert!(fits(&pinned, &node("worker-2")));
        assert!(!fits(&pinned, &node("worker-1")));
        let labelled = json!({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
            "nodeSelectorTerms": [{"matchExpressions": [
                {"key": "zone", "operator": "In", "values": ["a"]},
                {"key": "size", "operator": "Gt", "values": ["2"]},
                {"key": "gpu", "operator": "DoesNotExist"}]}]}}}});
        assert!(fits(&labelled, &node("worker-1")));
        assert!(fits(&json!({"nodeSelector": {"zone": "a"}}), &node("worker-1")));
        assert!(!fits(&json!({"nodeSelector": {"zone": "b"}}), &node("worker-1")));
        let mut cordoned = node("worker-1");
        cordoned["spec"]["unschedulable"] = json!(true);
        assert!(!fits(&json!({}), &cordoned));
    }
}
