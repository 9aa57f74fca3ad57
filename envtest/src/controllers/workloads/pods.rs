//! What the controllers know about Pods: which are active, ready and available
//! (`pkg/api/v1/pod/util.go`: `IsPodReady`, `IsPodAvailable`;
//! `pkg/controller/controller_utils.go`: `FilterActivePods`), how a pod is made from a
//! template (`GetPodFromTemplate`), and which pods a controller deletes first when it
//! scales down (`ActivePodsWithRanks`).

use std::cmp::Ordering;

use serde_json::{Value, json};

use super::fields::{condition, controller_reference, int, is_deleting, name_of, seconds_since};

/// Not finished and not being deleted (`FilterActivePods`).
pub(super) fn is_active(pod: &Value) -> bool {
    !is_finished(pod) && !is_deleting(pod)
}

/// `Succeeded` or `Failed`.
pub(super) fn is_finished(pod: &Value) -> bool {
    matches!(phase(pod), "Succeeded" | "Failed")
}

pub(super) fn phase(pod: &Value) -> &str {
    pod["status"]["phase"].as_str().unwrap_or_default()
}

/// The `Ready` condition is `True`.
pub(super) fn is_ready(pod: &Value) -> bool {
    condition(&pod["status"]["conditions"], "Ready").is_some_and(|c| c["status"] == "True")
}

/// Ready for at least `min_ready_seconds`.
pub(super) fn is_available(pod: &Value, min_ready_seconds: i64) -> bool {
    seconds_until_available(pod, min_ready_seconds) == Some(0)
}

/// How long until a ready pod has been ready for `min_ready_seconds` (0: it has);
/// None when it is not ready.
pub(super) fn seconds_until_available(pod: &Value, min_ready_seconds: i64) -> Option<i64> {
    if !is_ready(pod) {
        return None;
    }
    if min_ready_seconds <= 0 {
        return Some(0);
    }
    let ready = condition(&pod["status"]["conditions"], "Ready")?;
    let since = seconds_since(&ready["lastTransitionTime"]).unwrap_or(0);
    Some((min_ready_seconds - since).max(0))
}

/// The pod a controller creates from `template` for `owner` (`GetPodFromTemplate`):
/// the template's labels, annotations and finalizers, a name generated from the
/// owner's, and the owner as controller.
pub(super) fn from_template(template: &Value, owner: &Value) -> Value {
    let metadata = &template["metadata"];
    let mut pod_metadata = json!({
        "generateName": generate_name_prefix(name_of(owner)),
        "ownerReferences": [controller_reference(owner)],
    });
    for field in ["labels", "annotations", "finalizers"] {
        if !metadata[field].is_null() {
            pod_metadata[field] = metadata[field].clone();
        }
    }
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": pod_metadata,
        "spec": template["spec"],
    })
}

/// `getPodsPrefix`: `<name>-`, unless that is no valid name prefix.
fn generate_name_prefix(owner: &str) -> String {
    // A generated name adds 5 characters and must stay within 253 (a DNS subdomain).
    if owner.len() + 1 + 5 <= 253 {
        format!("{owner}-")
    } else {
        owner.to_owned()
    }
}

/// The order in which a controller deletes pods when it has too many, first to
/// delete first (`ActivePodsWithRanks.Less`): unscheduled before scheduled, pending
/// before running, not ready before ready, pods on crowded nodes (`rank`, how many
/// related pods share the node) first, ready for less time first, more restarts first,
/// newer first.
pub(super) fn deletion_order(a: &(&Value, usize), b: &(&Value, usize)) -> Ordering {
    let ((a, a_rank), (b, b_rank)) = (a, b);
    let assigned = |p: &Value| p["spec"]["nodeName"].as_str().is_some_and(|n| !n.is_empty());
    let phase_rank = |p: &Value| match phase(p) {
        "Pending" | "" => 0,
        "Unknown" => 1,
        _ => 2,
    };
    let ready_since = |p: &Value| {
        condition(&p["status"]["conditions"], "Ready")
            .and_then(|c| c["lastTransitionTime"].as_str())
            .unwrap_or_default()
            .to_owned()
    };
    let restarts = |p: &Value| {
        p["status"]["containerStatuses"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| int(&s["restartCount"], 0))
            .max()
            .unwrap_or(0)
    };
    let created = |p: &Value| {
        p["metadata"]["creationTimestamp"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    assigned(a)
        .cmp(&assigned(b))
        .then_with(|| phase_rank(a).cmp(&phase_rank(b)))
        .then_with(|| is_ready(a).cmp(&is_ready(b)))
        .then_with(|| b_rank.cmp(a_rank))
        .then_with(|| {
            if is_ready(a) && is_ready(b) {
                ready_since(b).cmp(&ready_since(a))
            } else {
                Ordering::Equal
            }
        })
        .then_with(|| restarts(b).cmp(&restarts(a)))
        .then_with(|| created(b).cmp(&created(a)))
}
