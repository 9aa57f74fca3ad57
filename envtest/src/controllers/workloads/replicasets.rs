//! The replicaset controller (`pkg/controller/replicaset/replica_set.go`:
//! `syncReplicaSet`, `manageReplicas`; `replica_set_utils.go`: `calculateStatus`):
//! a ReplicaSet keeps `spec.replicas` active pods from its template, deleting the
//! least established first, and reports how many are there, fully labelled, ready and
//! available.

use std::collections::HashMap;

use k8s_openapi::api::apps::v1::ReplicaSetSpec;
use serde_json::{Map, Value, json};

use super::cluster::{CONTROLLER_MANAGER, Cluster};
use super::fields::{generation, int, is_deleting, name_of, set_count, timestamp, typed};
use super::pods::{deletion_order, from_template, is_active, is_ready, seconds_until_available};
use super::{Key, Kind};

const COMPONENT: &str = "replicaset-controller";

/// How many pods one sync creates or deletes at most (`BurstReplicas`).
const BURST: usize = 500;

pub(super) fn sync(cluster: &mut Cluster<'_>, key: &Key) {
    let Some(replica_set) = cluster.get_key(key) else {
        return;
    };
    let mut failure = None;
    if !is_deleting(&replica_set) {
        failure = manage_replicas(cluster, &replica_set);
    }
    let pods: Vec<_> = cluster
        .children(&replica_set, Kind::Pod)
        .into_iter()
        .filter(|pod| is_active(pod))
        .collect();
    let pods: Vec<&Value> = pods.iter().map(AsRef::as_ref).collect();
    let spec = spec_of(&replica_set);
    let status = status(&replica_set, &spec, &pods, failure);
    let min_ready = i64::from(spec.min_ready_seconds.unwrap_or(0));
    cluster.write_status(Kind::ReplicaSet, &replica_set, status, CONTROLLER_MANAGER);
    // A pod ready but not yet for minReadySeconds becomes available later.
    if let Some(wait) = pods
        .iter()
        .filter_map(|pod| seconds_until_available(pod, min_ready))
        .filter(|wait| *wait > 0)
        .min()
    {
        let at = cluster.now + std::time::Duration::from_secs(wait.unsigned_abs());
        cluster.requeue_at(key.clone(), at);
    }
}

/// What the controller reads of a ReplicaSet's spec, typed; it writes the status as JSON.
fn spec_of(replica_set: &Value) -> ReplicaSetSpec {
    typed(&replica_set["spec"]).unwrap_or_default()
}

/// The desired replicas of a ReplicaSet (or Deployment): `spec.replicas`, default 1.
pub(super) fn replicas(object: &Value) -> i64 {
    int(&object["spec"]["replicas"], 1)
}

/// Creates or deletes pods until the ReplicaSet has as many active ones as it wants;
/// the error of a create that failed, for the `ReplicaFailure` condition.
fn manage_replicas(cluster: &mut Cluster<'_>, replica_set: &Value) -> Option<(String, String)> {
    let pods: Vec<_> = cluster
        .children(replica_set, Kind::Pod)
        .into_iter()
        .filter(|pod| is_active(pod))
        .collect();
    let wanted = usize::try_from(replicas(replica_set).max(0)).unwrap_or(0);
    let namespace = replica_set["metadata"]["namespace"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    if pods.len() < wanted {
        let missing = (wanted - pods.len()).min(BURST);
        for _ in 0..missing {
            let pod = from_template(&replica_set["spec"]["template"], replica_set);
            match cluster.create(Kind::Pod, &namespace, pod, CONTROLLER_MANAGER) {
                Ok(created) => {
                    let message = format!("Created pod: {}", name_of(&created));
                    cluster.event(replica_set, false, "SuccessfulCreate", &message, COMPONENT);
                }
                Err(error) => {
                    let message = format!("Error creating: {}", error.message);
                    cluster.event(replica_set, true, "FailedCreate", &message, COMPONENT);
                    return Some(("FailedCreate".to_owned(), error.message));
                }
            }
        }
    } else if pods.len() > wanted {
        let excess = (pods.len() - wanted).min(BURST);
        for name in pods_to_delete(&pods, excess) {
            if cluster.delete(Kind::Pod, &namespace, &name, None).is_some() {
                let message = format!("Deleted pod: {name}");
                cluster.event(replica_set, false, "SuccessfulDelete", &message, COMPONENT);
            }
        }
    }
    None
}

/// The names of the `count` pods to delete first (`getPodsToDelete`), ranking each by
/// how many of the others share its node.
pub(super) fn pods_to_delete(pods: &[std::sync::Arc<Value>], count: usize) -> Vec<String> {
    let mut on_node: HashMap<&str, usize> = HashMap::new();
    for pod in pods {
        *on_node
            .entry(pod["spec"]["nodeName"].as_str().unwrap_or_default())
            .or_default() += 1;
    }
    let mut ranked: Vec<(&Value, usize)> = pods
        .iter()
        .map(|pod| {
            let node = pod["spec"]["nodeName"].as_str().unwrap_or_default();
            (pod.as_ref(), on_node.get(node).copied().unwrap_or(0))
        })
        .collect();
    ranked.sort_by(deletion_order);
    ranked
        .into_iter()
        .take(count)
        .map(|(pod, _)| name_of(pod).to_owned())
        .collect()
}

/// The status `calculateStatus` writes: counts of the active pods, fully labelled
/// (matching the template's labels), ready and available; a `ReplicaFailure`
/// condition while creating pods fails.
fn status(replica_set: &Value, spec: &ReplicaSetSpec, pods: &[&Value], failure: Option<(String, String)>) -> Value {
    let template_labels = spec
        .template
        .as_ref()
        .and_then(|template| template.metadata.as_ref())
        .and_then(|metadata| metadata.labels.as_ref());
    let min_ready = i64::from(spec.min_ready_seconds.unwrap_or(0));
    // Every label of the template, with its value: the template's labels as a selector.
    let fully_labeled = pods
        .iter()
        .filter(|pod| {
            template_labels.is_none_or(|labels| {
                labels
                    .iter()
                    .all(|(key, value)| pod["metadata"]["labels"][key].as_str() == Some(value))
            })
        })
        .count();
    let ready = pods.iter().filter(|pod| is_ready(pod)).count();
    let available = pods
        .iter()
        .filter(|pod| seconds_until_available(pod, min_ready) == Some(0))
        .count();
    let mut status: Map<String, Value> = replica_set["status"].as_object().cloned().unwrap_or_default();
    let count = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
    status.insert("replicas".into(), json!(count(pods.len())));
    set_count(&mut status, "fullyLabeledReplicas", count(fully_labeled));
    set_count(&mut status, "readyReplicas", count(ready));
    set_count(&mut status, "availableReplicas", count(available));
    set_count(&mut status, "observedGeneration", generation(replica_set));
    let mut conditions: Vec<Value> = status
        .get("conditions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let had_failure = conditions.iter().any(|c| c["type"] == "ReplicaFailure");
    match failure {
        Some((reason, message)) if !had_failure => conditions.push(json!({
            "type": "ReplicaFailure", "status": "True", "lastTransitionTime": timestamp(),
            "reason": reason, "message": message,
        })),
        None if had_failure => conditions.retain(|c| c["type"] != "ReplicaFailure"),
        _ => {}
    }
    if conditions.is_empty() {
        status.remove("conditions");
    } else {
        status.insert("conditions".into(), Value::Array(conditions));
    }
    Value::Object(status)
}
