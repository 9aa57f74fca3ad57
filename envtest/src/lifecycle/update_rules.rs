//! What an update may change, as the types' `PrepareForUpdate` strategies and
//! `rest.BeforeUpdate` decide it: which half of the object each endpoint writes (the
//! status on `/status`, the rest on the main endpoint, with the metadata a few status
//! strategies also keep), the metadata no write changes, finalizers while deleting,
//! and when an update is a change at all (generation, no-op writes).

use serde_json::{Value, json};

use crate::core::{ApiError, ResourceType};

/// The object a write produces: status from `desired` and the rest from `current`
/// on `/status`; the reverse on the main endpoint of a type with a status subresource.
pub(super) fn split_by_subresource(
    resource: &ResourceType,
    current: &Value,
    desired: Value,
    subresource: Option<&str>,
    apply: bool,
) -> Value {
    if subresource == Some("ephemeralcontainers") {
        return drop_non_ephemeral_container_updates(current, &desired, apply);
    }
    if subresource == Some("status") && !resource.custom {
        return built_in_status_write(resource, current, desired);
    }
    if subresource == Some("status") {
        let mut new = current.clone();
        keep(&mut new, &desired, "status");
        if apply {
            new["metadata"]["managedFields"] = desired["metadata"]["managedFields"].clone();
        }
        new
    } else {
        let mut new = desired;
        // A CertificateSigningRequest is immutable but through its subresources: its
        // main endpoint keeps the stored spec as well as the status.
        if !resource.custom && resource.kind == "CertificateSigningRequest" {
            keep(&mut new, current, "spec");
        }
        if resource.status {
            keep(&mut new, current, "status");
        }
        // The node strategy's `dropDisabledFields`: the removed dynamic kubelet
        // configuration stays only on a node that already has it.
        if !resource.custom
            && resource.group.is_empty()
            && resource.kind == "Node"
            && current["spec"]["configSource"].is_null()
            && let Some(spec) = new.get_mut("spec").and_then(Value::as_object_mut)
        {
            spec.remove("configSource");
        }
        new
    }
}

/// `new`'s `field` as `current` has it (`current` being whichever object the field is
/// taken from): the same value, or absent.
fn keep(new: &mut Value, current: &Value, field: &str) {
    match current.get(field) {
        Some(value) => new[field] = value.clone(),
        None => {
            if let Some(map) = new.as_object_mut() {
                map.remove(field);
            }
        }
    }
}

/// A pod written through `/ephemeralcontainers` (`dropNonEphemeralContainerUpdates`):
/// the stored pod with the written name, namespace, resourceVersion and uid, and the
/// written ephemeral containers; nothing else of the write is kept.
fn drop_non_ephemeral_container_updates(current: &Value, desired: &Value, apply: bool) -> Value {
    let mut new = current.clone();
    for field in ["name", "namespace", "resourceVersion", "uid"] {
        match desired["metadata"].get(field) {
            Some(value) => new["metadata"][field] = value.clone(),
            None => {
                if let Some(metadata) = new["metadata"].as_object_mut() {
                    metadata.remove(field);
                }
            }
        }
    }
    match desired["spec"].get("ephemeralContainers") {
        Some(containers) => new["spec"]["ephemeralContainers"] = containers.clone(),
        None => {
            if let Some(spec) = new["spec"].as_object_mut() {
                spec.remove("ephemeralContainers");
            }
        }
    }
    if apply {
        new["metadata"]["managedFields"] = desired["metadata"]["managedFields"].clone();
    }
    new
}

/// A built-in type's `/status` write, as its status strategy's `PrepareForUpdate`
/// makes it: the spec as stored, metadata and status as sent (label changes through
/// `/status` are kept, as kube-apiserver keeps them), but for the metadata a few
/// strategies also keep: a Deployment's labels; an `APIService`'s labels,
/// annotations, finalizers and owners; all of a `FlowSchema`'s or priority level's
/// metadata; a Pod's owners and its quality-of-service class; a Node's status
/// drops `config`.
fn built_in_status_write(resource: &ResourceType, current: &Value, mut new: Value) -> Value {
    keep(&mut new, current, "spec");
    if !new["metadata"].is_object() {
        new["metadata"] = current["metadata"].clone();
    }
    let kept_metadata: &[&str] = match (resource.group.as_str(), resource.kind.as_str()) {
        ("apps", "Deployment") => &["labels"],
        ("apiregistration.k8s.io", "APIService") => &["labels", "annotations", "finalizers", "ownerReferences"],
        ("", "Pod") => &["ownerReferences"],
        ("flowcontrol.apiserver.k8s.io", "FlowSchema" | "PriorityLevelConfiguration") => {
            // All of the stored metadata but the managed fields the write recorded.
            let written = new["metadata"].clone();
            new["metadata"] = current["metadata"].clone();
            keep(&mut new["metadata"], &written, "managedFields");
            &[]
        }
        _ => &[],
    };
    for field in kept_metadata {
        keep(&mut new["metadata"], &current["metadata"], field);
    }
    match (resource.group.as_str(), resource.kind.as_str()) {
        // The status is a struct in Go: one left out is empty, and backfilled as well.
        ("", "Pod") if new["status"].is_null() || new["status"]["qosClass"].as_str().is_none_or(str::is_empty) => {
            if new["status"].is_null() {
                new["status"] = json!({});
            }
            keep(&mut new["status"], &current["status"], "qosClass");
        }
        ("", "Node") => {
            if let Some(status) = new.get_mut("status").and_then(Value::as_object_mut) {
                status.remove("config");
            }
        }
        _ => {}
    }
    new
}

/// What no write may change: identity, creation and deletion times, generation
/// (the server computes it). This is `rest.BeforeUpdate`'s, which custom resources go
/// through as built-in kinds do: the stored uid fills a missing one, the creation time
/// and a set deletion time and grace period stay, and what else differs is left for
/// validation to refuse (`ValidateObjectMetaUpdate`: "field is immutable"; a merge
/// patch setting a custom resource's `deletionTimestamp` is refused so).
pub(super) fn keep_immutable_metadata(current: &Value, new: &mut Value) {
    if !new["metadata"].is_object() {
        new["metadata"] = json!({});
    }
    let old = &current["metadata"];
    let keep = |field: &str, new: &mut Value| match old.get(field) {
        Some(value) => new["metadata"][field] = value.clone(),
        None => {
            if let Some(map) = new["metadata"].as_object_mut() {
                map.remove(field);
            }
        }
    };
    for field in ["generation", "namespace", "name"] {
        keep(field, new);
    }
    if new["metadata"]["uid"].as_str().is_none_or(str::is_empty) {
        keep("uid", new);
    }
    for field in ["creationTimestamp", "deletionTimestamp"] {
        if old[field].is_string() {
            keep(field, new);
        }
    }
    if !old["deletionGracePeriodSeconds"].is_null() && new["metadata"]["deletionGracePeriodSeconds"].is_null() {
        keep("deletionGracePeriodSeconds", new);
    }
}

/// A custom resource being deleted may lose finalizers but not gain them.
pub(super) fn check_no_finalizer_added_while_deleting(
    resource: &ResourceType,
    current: &Value,
    new: &Value,
) -> Result<(), ApiError> {
    // Built-in kinds get it from their ported validation (`ValidateObjectMetaUpdate`,
    // with the finalizers it found).
    if !resource.custom {
        return Ok(());
    }
    if current["metadata"]["deletionTimestamp"].is_string() {
        let old: Vec<&Value> = current["metadata"]["finalizers"]
            .as_array()
            .map(|a| a.iter().collect())
            .unwrap_or_default();
        let added = new["metadata"]["finalizers"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|f| !old.contains(&f));
        if added {
            let name = current["metadata"]["name"].as_str().unwrap_or_default();
            let detail = "Forbidden: no new finalizers can be added if the object is being deleted".to_owned();
            return Err(ApiError::invalid(
                resource,
                name,
                &[("metadata.finalizers", "FieldValueForbidden", detail)],
            ));
        }
    }
    Ok(())
}

/// Anything outside metadata (and status, unless `with_status`) changed: what bumps
/// `generation`.
pub(super) fn spec_changed(old: &Value, new: &Value, with_status: bool) -> bool {
    let strip = |v: &Value| {
        let mut map = v.as_object().cloned().unwrap_or_default();
        for key in ["metadata", "status", "apiVersion", "kind"] {
            if key != "status" || !with_status {
                map.remove(key);
            }
        }
        map
    };
    strip(old) != strip(new)
}

/// Equal but for the times in managed fields: such an update is a no-op and the real
/// server neither bumps the resourceVersion nor sends an event.
pub(super) fn same_object(old: &Value, new: &Value) -> bool {
    let strip = |v: &Value| {
        let mut v = v.clone();
        if let Some(entries) = v["metadata"]["managedFields"].as_array_mut() {
            for entry in entries {
                if let Some(map) = entry.as_object_mut() {
                    map.remove("time");
                }
            }
        }
        v
    };
    strip(old) == strip(new)
}
