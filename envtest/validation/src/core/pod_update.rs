//! What may change in a stored Pod: `ValidatePodUpdate` (images, deadlines, added
//! tolerations, removed scheduling gates, and nothing else of the spec), the
//! `ephemeralcontainers` and `resize` subresources
//! (`ValidatePodEphemeralContainersUpdate`, `ValidatePodResize`) and bindings
//! (`ValidatePodBinding`). Status writes are in `pod_status`.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::options::PodOptions;
use super::pod::{validate_annotation_updates, validate_pod_create, validate_pod_metadata_and_spec};
use super::pod_status::validate_pod_status_update;
use super::scheduling::validate_tolerations;
use super::{number, validate_object_meta_update};
use crate::field::{BadValue, ErrorList, Path};
use crate::json::{entries, is_set, items, opt_int, same, text};
use crate::meta;
use crate::util;
use crate::{Write, godump};

/// The fields `ValidatePodUpdate`'s message lists as updatable.
const UPDATABLE: &str = "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)";

/// A Pod written as `write` says.
pub(super) fn validate(pod: &Value, write: Write) -> ErrorList {
    match write {
        Write::Create => validate_pod_create(pod, &PodOptions::for_pod(None)),
        Write::Subresource { name: "status", old } => validate_pod_status_update(pod, old),
        Write::Subresource {
            name: "ephemeralcontainers",
            old,
        } => validate_ephemeral_containers_update(pod, old, &PodOptions::for_pod(Some(old))),
        Write::Subresource { name: "resize", old } => validate_pod_resize(pod, old, &PodOptions::for_pod(Some(old))),
        Write::Update { old } | Write::Subresource { old, .. } => {
            validate_pod_update(pod, old, &PodOptions::for_pod(Some(old)))
        }
    }
}

/// `ValidatePodUpdate`.
pub(super) fn validate_pod_update(new: &Value, old: &Value, options: &PodOptions) -> ErrorList {
    let meta_path = Path::new("metadata");
    let mut errors = validate_object_meta_update(&new["metadata"], &old["metadata"], &meta_path);
    errors.extend(validate_pod_metadata_and_spec(new, options));
    errors.extend(validate_annotation_updates(
        new,
        old,
        &meta_path.child("annotations"),
        options,
    ));
    let spec_path = Path::new("spec");
    let (new_spec, old_spec) = (&new["spec"], &old["spec"]);
    for list in ["containers", "initContainers"] {
        let (found, stop) = validate_container_updates(&new_spec[list], &old_spec[list], &spec_path.child(list));
        errors.extend(found);
        if stop {
            return errors;
        }
    }
    let deadline_path = spec_path.child("activeDeadlineSeconds");
    match (
        opt_int(&new_spec["activeDeadlineSeconds"]),
        opt_int(&old_spec["activeDeadlineSeconds"]),
    ) {
        (Some(deadline), _) if !(0..=i64::from(i32::MAX)).contains(&deadline) => {
            errors.push(deadline_path.invalid(number(deadline), &util::inclusive_range_error(0, i64::from(i32::MAX))));
            return errors;
        }
        (Some(deadline), Some(before)) if before < deadline => {
            errors.push(deadline_path.invalid(number(deadline), "must be less than or equal to previous value"));
            return errors;
        }
        (None, Some(_)) => {
            errors.push(deadline_path.invalid(godump::nil(), "must not update from a positive integer to nil value"));
        }
        _ => {}
    }
    errors.extend(validate_only_added_tolerations(
        &new_spec["tolerations"],
        &old_spec["tolerations"],
        &spec_path.child("tolerations"),
    ));
    errors.extend(validate_only_deleted_scheduling_gates(
        &new_spec["schedulingGates"],
        &old_spec["schedulingGates"],
        &spec_path.child("schedulingGates"),
    ));
    if same(new_spec, old_spec) {
        return errors;
    }
    let mut munged = munge_updatable_fields(new_spec, old_spec);
    if !items(&old_spec["schedulingGates"]).is_empty() {
        errors.extend(munge_gated_scheduling(&mut munged, old_spec, &spec_path));
    }
    if !same(&munged, old_spec) {
        errors.push(spec_path.forbidden(&format!(
            "pod updates may not change fields other than {UPDATABLE}\n{}",
            crate::gocmp::diff("core.PodSpec", old_spec, &munged)
        )));
    }
    errors
}

/// The new spec with the updatable fields taken from the stored one.
fn munge_updatable_fields(new_spec: &Value, old_spec: &Value) -> Value {
    let mut munged = new_spec.clone();
    for list in ["containers", "initContainers"] {
        if let Some(containers) = munged.get_mut(list).and_then(Value::as_array_mut) {
            for (index, container) in containers.iter_mut().enumerate() {
                if container.is_object() {
                    container["image"] = old_spec[list][index]["image"].clone();
                }
            }
        }
        // Go rebuilds both lists by appending to a nil slice: an empty list is nil.
        if items(&munged[list]).is_empty()
            && let Some(map) = munged.as_object_mut()
        {
            map.remove(list);
        }
    }
    if let Some(map) = munged.as_object_mut() {
        for field in ["activeDeadlineSeconds", "schedulingGates", "tolerations"] {
            set_or_remove(map, field, &old_spec[field]);
        }
        let old_grace = opt_int(&old_spec["terminationGracePeriodSeconds"]);
        let new_grace = opt_int(&map.get("terminationGracePeriodSeconds").cloned().unwrap_or_default());
        if old_grace.is_some_and(|g| g < 0) && new_grace == Some(1) {
            set_or_remove(
                map,
                "terminationGracePeriodSeconds",
                &old_spec["terminationGracePeriodSeconds"],
            );
        }
    }
    munged
}

fn set_or_remove(map: &mut Map<String, Value>, field: &str, value: &Value) {
    if value.is_null() {
        map.remove(field);
    } else {
        map.insert(field.to_owned(), value.clone());
    }
}

/// A gated pod may gain node selector entries and node affinity requirements.
fn munge_gated_scheduling(munged: &mut Value, old_spec: &Value, spec_path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if !same(&munged["nodeSelector"], &old_spec["nodeSelector"]) {
        let lost =
            entries(&old_spec["nodeSelector"]).any(|(key, value)| munged["nodeSelector"].get(key) != Some(value));
        if lost {
            errors.push(spec_path.child("nodeSelector").invalid(
                godump::raw(godump::string_map(&munged["nodeSelector"])),
                "only additions to spec.nodeSelector are allowed (no mutations or deletions)",
            ));
        }
        if let Some(map) = munged.as_object_mut() {
            set_or_remove(map, "nodeSelector", &old_spec["nodeSelector"]);
        }
    }
    let old_affinity = &old_spec["affinity"]["nodeAffinity"];
    let new_affinity = munged["affinity"]["nodeAffinity"].clone();
    if !same(old_affinity, &new_affinity) {
        errors.extend(validate_node_affinity_mutation(
            &spec_path.child("affinity").child("nodeAffinity"),
            &new_affinity,
            old_affinity,
        ));
        let affinity_alone = munged["affinity"]
            .as_object()
            .is_some_and(|a| a.iter().all(|(k, v)| k == "nodeAffinity" || v.is_null()));
        if old_spec["affinity"].is_null() && affinity_alone {
            if let Some(map) = munged.as_object_mut() {
                map.remove("affinity");
            }
        } else if munged["affinity"].is_object() {
            if let Some(affinity) = munged["affinity"].as_object_mut() {
                set_or_remove(affinity, "nodeAffinity", old_affinity);
            }
        } else if let Some(map) = munged.as_object_mut() {
            map.insert("affinity".into(), serde_json::json!({"nodeAffinity": old_affinity}));
        }
    }
    errors
}

/// `validateNodeAffinityMutation`: required terms may only gain requirements.
fn validate_node_affinity_mutation(path: &Path, new: &Value, old: &Value) -> ErrorList {
    let required = "requiredDuringSchedulingIgnoredDuringExecution";
    if !is_set(&old[required]) {
        return ErrorList::new();
    }
    let old_terms = items(&old[required]["nodeSelectorTerms"]);
    let new_terms = items(&new[required]["nodeSelectorTerms"]);
    let terms_path = path.child(required).child("nodeSelectorTerms");
    if !old_terms.is_empty() && old_terms.len() != new_terms.len() {
        return vec![terms_path.invalid(
            BadValue::Json(Value::Array(new_terms.to_vec())),
            "no additions/deletions to non-empty NodeSelectorTerms list are allowed",
        )];
    }
    let mut errors = ErrorList::new();
    for (index, (old_term, new_term)) in old_terms.iter().zip(new_terms).enumerate() {
        if !term_has_only_additions(new_term, old_term) {
            errors.push(terms_path.index(index).invalid(
                BadValue::Json(new_term.clone()),
                "only additions are allowed (no mutations or deletions)",
            ));
        }
    }
    errors
}

fn term_has_only_additions(new: &Value, old: &Value) -> bool {
    let old_empty = items(&old["matchExpressions"]).is_empty() && items(&old["matchFields"]).is_empty();
    let new_empty = items(&new["matchExpressions"]).is_empty() && items(&new["matchFields"]).is_empty();
    if old_empty && !new_empty {
        return false;
    }
    ["matchExpressions", "matchFields"].iter().all(|field| {
        let (old_list, new_list) = (items(&old[*field]), items(&new[*field]));
        old_list.is_empty()
            || (new_list.len() >= old_list.len() && old_list.iter().zip(new_list).all(|(a, b)| same(a, b)))
    })
}

/// `ValidateContainerUpdates`: the same containers, each with an image.
fn validate_container_updates(new: &Value, old: &Value, path: &Path) -> (ErrorList, bool) {
    if items(new).len() != items(old).len() {
        return (
            vec![path.forbidden("pod updates may not add or remove containers")],
            true,
        );
    }
    let mut errors = ErrorList::new();
    for (index, container) in items(new).iter().enumerate() {
        let image = text(&container["image"]);
        if image.is_empty() {
            errors.push(path.index(index).child("image").required(""));
        }
        if image.trim().len() != image.len() {
            errors.push(
                path.index(index)
                    .child("image")
                    .invalid(image, "must not have leading or trailing whitespace"),
            );
        }
    }
    (errors, false)
}

/// `validateOnlyAddedTolerations`: each stored toleration kept (its
/// `tolerationSeconds` aside).
fn validate_only_added_tolerations(new: &Value, old: &Value, path: &Path) -> ErrorList {
    for old_toleration in items(old) {
        let kept = items(new).iter().any(|new_toleration| {
            let mut clone = old_toleration.clone();
            if let Some(map) = clone.as_object_mut() {
                set_or_remove(map, "tolerationSeconds", &new_toleration["tolerationSeconds"]);
            }
            same(&clone, new_toleration)
        });
        if !kept {
            return vec![path.forbidden("existing toleration can not be modified except its tolerationSeconds")];
        }
    }
    validate_tolerations(new, path)
}

/// `validateOnlyDeletedSchedulingGates`.
fn validate_only_deleted_scheduling_gates(new: &Value, old: &Value, path: &Path) -> ErrorList {
    let before: BTreeSet<&str> = items(old).iter().map(|g| text(&g["name"])).collect();
    let mut added: Vec<(usize, &str)> = Vec::new();
    for (index, gate) in items(new).iter().enumerate() {
        let name = text(&gate["name"]);
        added.retain(|(_, n)| *n != name);
        if !before.contains(name) {
            added.push((index, name));
        }
    }
    added
        .iter()
        .map(|(index, name)| {
            path.index(*index).child("name").forbidden(&format!(
                "only deletion is allowed, but found new scheduling gate '{name}'"
            ))
        })
        .collect()
}

/// `ValidatePodEphemeralContainersUpdate`: ephemeral containers may be added, never
/// removed or changed.
fn validate_ephemeral_containers_update(new: &Value, old: &Value, options: &PodOptions) -> ErrorList {
    let meta_path = Path::new("metadata");
    let mut errors = validate_object_meta_update(&new["metadata"], &old["metadata"], &meta_path);
    errors.extend(validate_pod_metadata_and_spec(new, options));
    errors.extend(validate_annotation_updates(
        new,
        old,
        &meta_path.child("annotations"),
        options,
    ));
    if is_set(&old["metadata"]["annotations"]["kubernetes.io/config.mirror"]) {
        return vec![super::empty_path().forbidden("static pods do not support ephemeral containers")];
    }
    let path = Path::new("spec").child("ephemeralContainers");
    for old_container in items(&old["spec"]["ephemeralContainers"]) {
        let name = text(&old_container["name"]);
        match items(&new["spec"]["ephemeralContainers"])
            .iter()
            .find(|c| text(&c["name"]) == name)
        {
            None => errors.push(path.forbidden(&format!(
                "existing ephemeral containers {} may not be removed\n",
                godump::quote(name)
            ))),
            Some(new_container) if !same(old_container, new_container) => errors.push(path.forbidden(&format!(
                "existing ephemeral containers {} may not be changed\n{}",
                godump::quote(name),
                crate::gocmp::diff("core.EphemeralContainer", old_container, new_container)
            ))),
            Some(_) => {}
        }
    }
    errors
}

/// `ValidatePodResize`: only the cpu and memory of regular containers change, none
/// removed, the quality-of-service class kept.
fn validate_pod_resize(new: &Value, old: &Value, options: &PodOptions) -> ErrorList {
    let meta_path = Path::new("metadata");
    let mut errors = meta::validate_immutable_field(
        &new["metadata"],
        &old["metadata"],
        BadValue::Json(new["metadata"].clone()),
        &meta_path,
    );
    errors.extend(validate_pod_metadata_and_spec(new, options));
    if is_set(&old["metadata"]["annotations"]["kubernetes.io/config.mirror"]) {
        return vec![super::empty_path().forbidden("static pods cannot be resized")];
    }
    if old["spec"]["os"]["name"] == "windows" {
        return vec![super::empty_path().forbidden("windows pods cannot be resized")];
    }
    let spec_path = Path::new("spec");
    if super::quality_of_service_of(old) != super::quality_of_service(&new["spec"]) {
        errors.push(spec_path.invalid(
            text(&new["status"]["qosClass"]),
            "Pod QOS Class may not change as a result of resizing",
        ));
    }
    let running_without_resources = items(&old["status"]["containerStatuses"])
        .iter()
        .find(|s| is_set(&s["state"]["running"]))
        .is_some_and(|s| !is_set(&s["resources"]));
    if running_without_resources {
        errors.push(spec_path.forbidden("Pod running on node without support for resize"));
    }
    for list in ["initContainers", "containers"] {
        for (index, container) in items(&old["spec"][list]).iter().enumerate() {
            if list == "initContainers" && is_set(&container["restartPolicy"]) && container["restartPolicy"] != "Always"
            {
                continue;
            }
            let new_resources = &new["spec"][list][index]["resources"];
            for (field, detail) in [
                ("requests", "resource requests cannot be removed"),
                ("limits", "resource limits cannot be removed"),
            ] {
                let kept =
                    entries(&container["resources"][field]).all(|(name, _)| new_resources[field].get(name).is_some());
                if !kept {
                    errors.push(
                        spec_path
                            .child(list)
                            .index(index)
                            .child("resources")
                            .child(field)
                            .forbidden(detail),
                    );
                }
            }
        }
    }
    let munged = munge_cpu_memory(&new["spec"], &old["spec"]);
    if !same(&munged, &old["spec"]) {
        errors.push(spec_path.forbidden(&format!(
            "only cpu and memory resources are mutable\n{}",
            crate::gocmp::diff("core.PodSpec", &old["spec"], &munged)
        )));
    }
    errors
}

/// The new spec with each container's cpu and memory (and resize policy) taken from
/// the stored one.
fn munge_cpu_memory(new_spec: &Value, old_spec: &Value) -> Value {
    let mut munged = new_spec.clone();
    let Some(containers) = munged.get_mut("containers").and_then(Value::as_array_mut) else {
        return munged;
    };
    for (index, container) in containers.iter_mut().enumerate() {
        let old_container = &old_spec["containers"][index];
        if !container.is_object() {
            continue;
        }
        let mut resources = Map::new();
        for field in ["limits", "requests"] {
            let old_list = &old_container["resources"][field];
            if old_list.is_null() {
                continue;
            }
            let mut list = container["resources"][field].as_object().cloned().unwrap_or_default();
            list.remove("cpu");
            list.remove("memory");
            for name in ["cpu", "memory"] {
                if let Some(value) = old_list.get(name) {
                    list.insert(name.to_owned(), value.clone());
                }
            }
            resources.insert(field.to_owned(), Value::Object(list));
        }
        container["resources"] = Value::Object(resources);
        container["resizePolicy"] = old_container["resizePolicy"].clone();
    }
    munged
}

/// `ValidatePodBinding`: a binding names a Node.
pub(super) fn validate_pod_binding(binding: &Value) -> ErrorList {
    let mut errors = ErrorList::new();
    let target = Path::new("target");
    let kind = text(&binding["target"]["kind"]);
    if !kind.is_empty() && kind != "Node" {
        errors.push(target.child("kind").not_supported(kind, &["Node", "<empty>"]));
    }
    if text(&binding["target"]["name"]).is_empty() {
        errors.push(target.child("name").required(""));
    }
    errors
}
