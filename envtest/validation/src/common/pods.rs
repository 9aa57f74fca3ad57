//! `ValidatePodSpecificAnnotations` (core's, `pkg/apis/core/validation`), which a
//! `StatefulSet`'s template check calls outside `ValidatePodTemplateSpec`: the mirror-pod
//! annotation needs a node, the deletion cost is a 32-bit integer, seccomp and `AppArmor`
//! annotations name valid profiles (and, for `AppArmor`, a container of the pod).
//!
//! Also core's `ValidateTolerations`, which a `RuntimeClass`'s scheduling and the
//! tolerations annotation are checked with.

use serde_json::Value;

use super::read::{entries, items, text};
use crate::field::{ErrorList, Path};

const MIRROR: &str = "kubernetes.io/config.mirror";
const TOLERATIONS: &str = "scheduler.alpha.kubernetes.io/tolerations";
const DELETION_COST: &str = "controller.kubernetes.io/pod-deletion-cost";
pub(crate) const SECCOMP_POD: &str = "seccomp.security.alpha.kubernetes.io/pod";
pub(crate) const SECCOMP_CONTAINER: &str = "container.seccomp.security.alpha.kubernetes.io/";
pub(crate) const APPARMOR_CONTAINER: &str = "container.apparmor.security.beta.kubernetes.io/";

/// `ValidatePodSpecificAnnotations` of a pod (template) whose spec is `spec`.
pub(crate) fn validate_pod_specific_annotations(annotations: &Value, spec: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let Some(map) = entries(annotations) else {
        return errors;
    };
    if let Some(value) = map.get(MIRROR)
        && text(&spec["nodeName"]).is_empty()
    {
        errors.push(
            path.key(MIRROR)
                .invalid(value, "must set spec.nodeName if mirror pod annotation is set"),
        );
    }
    let tolerations = map.get(TOLERATIONS).map(text).unwrap_or_default();
    if !tolerations.is_empty() {
        match serde_json::from_str::<Vec<Value>>(tolerations) {
            Err(error) => errors.push(path.invalid(TOLERATIONS, &error.to_string())),
            Ok(list) => errors.extend(validate_tolerations(&list, &path.child(TOLERATIONS))),
        }
    }
    if let Some(cost) = map.get(DELETION_COST)
        && !is_deletion_cost(text(cost))
    {
        errors.push(path.key(DELETION_COST).invalid(cost, "must be a 32bit integer"));
    }
    if let Some(profile) = map.get(SECCOMP_POD) {
        errors.extend(validate_seccomp_profile(text(profile), &path.child(SECCOMP_POD)));
    }
    for (key, profile) in map {
        if key.starts_with(SECCOMP_CONTAINER) {
            errors.extend(validate_seccomp_profile(text(profile), &path.child(key)));
        }
    }
    for (key, profile) in map {
        let Some(container) = key.strip_prefix(APPARMOR_CONTAINER) else {
            continue;
        };
        if !has_container(spec, container) {
            errors.push(path.key(key).invalid(container, "container not found"));
        }
        let profile = text(profile);
        let known = profile.is_empty() || profile == "runtime/default" || profile == "unconfined";
        if !known && !profile.starts_with("localhost/") {
            let message = format!("invalid AppArmor profile name: {profile:?}");
            errors.push(path.key(key).invalid(profile, &message));
        }
    }
    errors
}

/// `GetDeletionCostFromPodAnnotations` succeeds: no sign but `-`, no leading zero, and
/// within `int32`.
fn is_deletion_cost(value: &str) -> bool {
    let first_ok = match value.as_bytes().first() {
        Some(b'-') => true,
        Some(b'0') => value == "0",
        Some(digit) => digit.is_ascii_digit(),
        None => false,
    };
    first_ok && value.parse::<i32>().is_ok()
}

/// `ValidateSeccompProfile`.
fn validate_seccomp_profile(profile: &str, path: &Path) -> ErrorList {
    if matches!(profile, "runtime/default" | "docker/default" | "unconfined") {
        return ErrorList::new();
    }
    if let Some(local) = profile.strip_prefix("localhost/") {
        let mut errors = ErrorList::new();
        if local.starts_with('/') {
            errors.push(path.invalid(local, "must be a relative path"));
        }
        if local.split('/').any(|part| part == "..") {
            errors.push(path.invalid(local, "must not contain '..'"));
        }
        return errors;
    }
    vec![path.invalid(profile, "must be a valid seccomp profile")]
}

/// `podSpecHasContainer`: any container, init or ephemeral, of that name.
fn has_container(spec: &Value, name: &str) -> bool {
    ["containers", "initContainers", "ephemeralContainers"]
        .iter()
        .any(|list| items(&spec[*list]).iter().any(|c| text(&c["name"]) == name))
}

/// core's `ValidateTolerations`.
pub(crate) fn validate_tolerations(tolerations: &[Value], path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    for (index, toleration) in tolerations.iter().enumerate() {
        let entry = path.index(index);
        let key = text(&toleration["key"]);
        let operator = text(&toleration["operator"]);
        let effect = text(&toleration["effect"]);
        let value = text(&toleration["value"]);
        if !key.is_empty() {
            errors.extend(super::fields::validate_qualified_name(key, &entry.child("key")));
        }
        if key.is_empty() && operator != "Exists" {
            errors.push(entry.child("operator").invalid(
                operator,
                "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            ));
        }
        if !toleration["tolerationSeconds"].is_null() && effect != "NoExecute" {
            errors.push(
                entry
                    .child("effect")
                    .invalid(effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"),
            );
        }
        match operator {
            "Equal" | "" => {
                let problems = super::names::label_value(value);
                if !problems.is_empty() {
                    errors.push(entry.child("operator").invalid(value, &problems.join(";")));
                }
            }
            "Exists" => {
                if !value.is_empty() {
                    errors.push(
                        entry
                            .child("operator")
                            .invalid(value, "value must be empty when `operator` is 'Exists'"),
                    );
                }
            }
            other => errors.push(entry.child("operator").not_supported(other, &["Equal", "Exists"])),
        }
        if !effect.is_empty() && !matches!(effect, "NoSchedule" | "PreferNoSchedule" | "NoExecute") {
            errors.push(
                entry
                    .child("effect")
                    .not_supported(effect, &["NoSchedule", "PreferNoSchedule", "NoExecute"]),
            );
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn annotations_that_name_profiles_and_costs() {
        let spec = json!({"containers": [{"name": "web"}]});
        let path = Path::from_parts(&["spec", "template", "annotations"]);
        let annotations = json!({
            "kubernetes.io/config.mirror": "x",
            "controller.kubernetes.io/pod-deletion-cost": "+1",
            "seccomp.security.alpha.kubernetes.io/pod": "bogus",
            "container.apparmor.security.beta.kubernetes.io/db": "runtime/default",
        });
        let errors = validate_pod_specific_annotations(&annotations, &spec, &path);
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            vec![
                "spec.template.annotations[kubernetes.io/config.mirror]",
                "spec.template.annotations[controller.kubernetes.io/pod-deletion-cost]",
                "spec.template.annotations.seccomp.security.alpha.kubernetes.io/pod",
                "spec.template.annotations[container.apparmor.security.beta.kubernetes.io/db]",
            ]
        );
        assert!(is_deletion_cost("-5") && is_deletion_cost("0") && !is_deletion_cost("007"));
    }
}
