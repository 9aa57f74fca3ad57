//! The storage protection controllers of kube-controller-manager (`pvc-protection`,
//! `pv-protection`): a claim or volume being deleted keeps its protection finalizer
//! while it is in use and loses it once it is not, so the deletion completes; one
//! that lost the finalizer while live gets it back. The `StorageObjectInUseProtection`
//! admission plugin adds the finalizers on create.
//!
//! | kube (`pkg/controller/volume/`) | here |
//! |---|---|
//! | `pvcprotection.(*Controller).processPVC` | [`protect_claim`] |
//! | `pvcprotection.(*Controller).podUsesPVC`, `podIsShutDown` | `pod_uses_claim` |
//! | `pvprotection.(*Controller).processPV`, `isBeingUsed` | [`protect_volume`] |
//! | `protectionutil.NeedToAddFinalizer`, `IsDeletionCandidate` | `protect` |
//!
//! A pod's change or deletion makes the claims of its namespace being deleted look
//! again, and a claim's the volumes being deleted, as the controllers' pod and claim
//! event handlers queue them.
//!
//! They run with the workload simulation (`ServerOptions::workloads`), as the fuller
//! kube-controller-manager it stands for: a cluster whose controller manager runs only
//! the garbage collector and namespace controller (the embedded server's default)
//! leaves a deleted claim terminating until its finalizer is removed by hand.

use serde_json::Value;

use super::{CONTROLLER_MANAGER, ObjectRef, has_finalizer, is_deleting, remove_finalizer, update};
use crate::admission::plugins::{CLAIM_PROTECTION, VOLUME_PROTECTION};
use crate::core::GroupResource;
use crate::state::State;

fn core(resource: &str) -> GroupResource {
    GroupResource {
        group: String::new(),
        resource: resource.to_owned(),
    }
}

/// The claims and volumes being deleted that `item`'s change may release: a pod's
/// namespace's claims, or, for a claim, every volume.
pub(super) fn released_by(state: &State, item: &ObjectRef) -> Vec<ObjectRef> {
    let (watched, namespace) = match (item.resource.group.as_str(), item.resource.resource.as_str()) {
        ("", "pods") => (core("persistentvolumeclaims"), Some(item.namespace.as_str())),
        ("", "persistentvolumeclaims") => (core("persistentvolumes"), None),
        _ => return Vec::new(),
    };
    state
        .store
        .objects(&watched)
        .iter()
        .filter(|((ns, _), _)| namespace.is_none_or(|namespace| ns == namespace))
        .filter(|(_, object)| is_deleting(&state.store.value(object)))
        .map(|((ns, name), _)| ObjectRef {
            resource: watched.clone(),
            namespace: ns.clone(),
            name: name.clone(),
        })
        .collect()
}

/// `processPVC`: a live claim without the finalizer gets it; a claim being deleted
/// that no scheduled pod uses loses it.
pub(super) fn protect_claim(state: &mut State, item: &ObjectRef) {
    if item.resource != core("persistentvolumeclaims") {
        return;
    }
    protect(state, item, CLAIM_PROTECTION, |state, claim| {
        let pods = state.store.objects(&core("pods"));
        let start = (item.namespace.clone(), String::new());
        pods.range(start..)
            .take_while(|((namespace, _), _)| *namespace == item.namespace)
            .any(|(_, pod)| pod_uses_claim(&state.store.value(pod), claim))
    });
}

/// `pv-protection`'s `processPV`: a volume being deleted loses its finalizer unless it
/// is bound (`status.phase: Bound`).
pub(super) fn protect_volume(state: &mut State, item: &ObjectRef) {
    if item.resource != core("persistentvolumes") {
        return;
    }
    protect(state, item, VOLUME_PROTECTION, |_, volume| {
        volume["status"]["phase"] == "Bound"
    });
}

/// `NeedToAddFinalizer` (live and without it: added) and `IsDeletionCandidate` (being
/// deleted with it: removed unless `in_use`).
fn protect(state: &mut State, item: &ObjectRef, finalizer: &str, in_use: impl Fn(&State, &Value) -> bool) {
    let (Some(current), Some(resource)) = (item.get(state), item.resource_type(state)) else {
        return;
    };
    let deleting = is_deleting(&current);
    let has = has_finalizer(&current, finalizer);
    if !deleting && !has {
        let mut desired = (*current).clone();
        let metadata = &mut desired["metadata"];
        match metadata.get_mut("finalizers").and_then(Value::as_array_mut) {
            Some(list) => list.push(finalizer.into()),
            None => metadata["finalizers"] = serde_json::json!([finalizer]),
        }
        update(state, &resource, &current, desired, None, CONTROLLER_MANAGER);
    } else if deleting && has && !in_use(state, &current) {
        remove_finalizer(state, &resource, &current, finalizer, CONTROLLER_MANAGER);
    }
}

/// `podUsesPVC`: a scheduled pod names the claim in a volume, or (unless it is shut
/// down) has the generic ephemeral volume the claim was made for
/// (`<pod>-<volume>`, controlled by the pod).
fn pod_uses_claim(pod: &Value, claim: &Value) -> bool {
    if pod["spec"]["nodeName"].as_str().is_none_or(str::is_empty) {
        return false;
    }
    let claim_name = claim["metadata"]["name"].as_str().unwrap_or_default();
    let pod_name = pod["metadata"]["name"].as_str().unwrap_or_default();
    let shut_down = is_deleting(pod) && pod["metadata"]["deletionGracePeriodSeconds"] == 0;
    let for_pod = claim["metadata"]["ownerReferences"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|owner| owner["controller"] == true && owner["uid"] == pod["metadata"]["uid"]);
    pod["spec"]["volumes"].as_array().into_iter().flatten().any(|volume| {
        volume["persistentVolumeClaim"]["claimName"] == claim_name
            || (!shut_down
                && volume["ephemeral"].is_object()
                && volume["name"]
                    .as_str()
                    .is_some_and(|name| format!("{pod_name}-{name}") == claim_name)
                && for_pod)
    })
}
