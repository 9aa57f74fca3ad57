//! `StatefulSets`: `ValidateStatefulSet`, `ValidateStatefulSetUpdate`,
//! `ValidateStatefulSetStatusUpdate` and their pieces. kube does not validate a
//! `StatefulSet`'s pod spec (its template check leaves `ValidatePodTemplateSpec` out),
//! only the template's labels, annotations and restart policy.

use serde_json::Value;

use super::deployment::selector_size;
use super::{int_or_percent_value, is_not_more_than_100_percent, selector_rejects, validate_positive_int_or_percent};
use crate::Write;
use crate::common::fields::{is_decremented, nonnegative, nonnegative_if_set};
use crate::common::go_syntax::{GoStruct, int, int_or_string, label_selector, pointer, raw, string, string_map};
use crate::common::labels::{label_selector_as_selector, validate_annotations, validate_labels};
use crate::common::names::name_is_dns_label;
use crate::common::read::{int as read_int, is_set, opt_int, semantic_eq, text, without};
use crate::core::{validate_object_meta, validate_object_meta_update};
use crate::field::{ErrorList, Path};
use crate::meta::validate_label_selector;

/// The spec fields an update may change (`ValidateStatefulSetUpdate` copies them
/// from the old spec before comparing the rest).
const MUTABLE: [&str; 6] = [
    "replicas",
    "template",
    "updateStrategy",
    "minReadySeconds",
    "ordinals",
    "persistentVolumeClaimRetentionPolicy",
];

/// The `StatefulSet` strategy's `Validate`, `ValidateUpdate` and the status strategy's.
pub(super) fn validate(object: &Value, write: Write) -> ErrorList {
    match write {
        Write::Create => {
            let spec = effective_spec(&object["spec"], None);
            let mut errors = validate_object_meta(&object["metadata"], true, name_is_dns_label, &Path::new("metadata"));
            errors.extend(validate_stateful_set_spec(&spec, &Path::new("spec")));
            errors
        }
        Write::Update { old } => validate_stateful_set_update(object, old),
        Write::Subresource { name: "status", old } => validate_stateful_set_status_update(object, old),
        Write::Subresource { .. } => ErrorList::new(),
    }
}

/// The spec as the strategy leaves it: `maxUnavailable` dropped while the
/// `MaxUnavailableStatefulSet` gate is off (1.32's default) unless the old object
/// used it.
fn effective_spec(spec: &Value, old: Option<&Value>) -> Value {
    let mut spec = spec.clone();
    let in_use = old.is_some_and(|old| is_set(&old["updateStrategy"]["rollingUpdate"]["maxUnavailable"]));
    if !in_use
        && let Some(rolling) = spec
            .get_mut("updateStrategy")
            .and_then(|s| s.get_mut("rollingUpdate"))
            .and_then(Value::as_object_mut)
    {
        rolling.remove("maxUnavailable");
    }
    spec
}

/// `ValidateStatefulSetSpec`.
#[expect(clippy::too_many_lines, reason = "one Go function, ported whole in its order")]
fn validate_stateful_set_spec(spec: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let policy = &spec["podManagementPolicy"];
    match text(policy) {
        "" => errors.push(path.child("podManagementPolicy").required("")),
        "OrderedReady" | "Parallel" => {}
        _ => errors.push(
            path.child("podManagementPolicy")
                .invalid(policy, "must be 'OrderedReady' or 'Parallel'"),
        ),
    }
    let strategy = &spec["updateStrategy"];
    let rolling = &strategy["rollingUpdate"];
    let strategy_path = path.child("updateStrategy");
    match text(&strategy["type"]) {
        "" => errors.push(strategy_path.required("")),
        "OnDelete" => {
            if is_set(rolling) {
                errors.push(strategy_path.child("rollingUpdate").invalid(
                    raw(rolling_update(rolling)),
                    "only allowed for updateStrategy 'RollingUpdate'",
                ));
            }
        }
        "RollingUpdate" => {
            if is_set(rolling) {
                errors.extend(validate_rolling_update_stateful_set(
                    rolling,
                    &strategy_path.child("rollingUpdate"),
                ));
            }
        }
        _ => {
            let shown = GoStruct::new("apps.StatefulSetUpdateStrategy")
                .field("Type", string(&strategy["type"]))
                .field(
                    "RollingUpdate",
                    pointer("apps.RollingUpdateStatefulSetStrategy", rolling),
                )
                .end();
            errors.push(strategy_path.invalid(raw(shown), "must be 'RollingUpdate' or 'OnDelete'"));
        }
    }
    errors.extend(validate_claim_retention_policy(
        &spec["persistentVolumeClaimRetentionPolicy"],
        &path.child("persistentVolumeClaimRetentionPolicy"),
    ));
    errors.extend(nonnegative(read_int(&spec["replicas"]), &path.child("replicas")));
    errors.extend(nonnegative(
        read_int(&spec["minReadySeconds"]),
        &path.child("minReadySeconds"),
    ));
    if is_set(&spec["ordinals"]) {
        errors.extend(nonnegative(
            read_int(&spec["ordinals"]["start"]),
            &path.child("ordinals.start"),
        ));
    }
    let selector = &spec["selector"];
    let selector_path = path.child("selector");
    if selector.is_null() {
        errors.push(selector_path.required(""));
    } else {
        errors.extend(validate_label_selector(selector, &selector_path));
        if selector_size(selector) == 0 {
            errors.push(selector_path.invalid(
                raw(label_selector(selector)),
                "empty selector is invalid for statefulset",
            ));
        }
    }
    match label_selector_as_selector(selector) {
        Err(_) => errors.push(selector_path.invalid(raw(label_selector(selector)), "")),
        Ok(parsed) => {
            // `ValidatePodTemplateSpecForStatefulSet`.
            let template = &spec["template"];
            let template_path = path.child("template");
            let labels = &template["metadata"]["labels"];
            if selector_rejects(&parsed, labels) {
                errors.push(
                    template_path
                        .child("metadata")
                        .child("labels")
                        .invalid(raw(string_map(labels)), "`selector` does not match template `labels`"),
                );
            }
            errors.extend(validate_labels(labels, &template_path.child("labels")));
            let annotations = &template["metadata"]["annotations"];
            errors.extend(validate_annotations(annotations, &template_path.child("annotations")));
            errors.extend(crate::common::pods::validate_pod_specific_annotations(
                annotations,
                &template["spec"],
                &template_path.child("annotations"),
            ));
        }
    }
    let restart = &spec["template"]["spec"]["restartPolicy"];
    if text(restart) != "Always" {
        errors.push(
            path.child("template")
                .child("spec")
                .child("restartPolicy")
                .not_supported(raw(string(restart)), &["Always"]),
        );
    }
    if is_set(&spec["template"]["spec"]["activeDeadlineSeconds"]) {
        errors.push(
            path.child("template")
                .child("spec")
                .child("activeDeadlineSeconds")
                .forbidden("activeDeadlineSeconds in StatefulSet is not Supported"),
        );
    }
    errors
}

/// `apps.RollingUpdateStatefulSetStrategy` as Go prints it.
fn rolling_update(rolling: &Value) -> String {
    GoStruct::new("apps.RollingUpdateStatefulSetStrategy")
        .field("Partition", int(&rolling["partition"]))
        .field(
            "MaxUnavailable",
            pointer("intstr.IntOrString", &rolling["maxUnavailable"]),
        )
        .end()
}

/// `validateRollingUpdateStatefulSet`.
fn validate_rolling_update_stateful_set(rolling: &Value, path: &Path) -> ErrorList {
    let mut errors = nonnegative(read_int(&rolling["partition"]), &path.child("partition"));
    let unavailable = &rolling["maxUnavailable"];
    if is_set(unavailable) {
        let unavailable_path = path.child("maxUnavailable");
        errors.extend(validate_positive_int_or_percent(unavailable, &unavailable_path));
        if int_or_percent_value(unavailable) == 0 {
            errors.push(unavailable_path.invalid(raw(int_or_string(unavailable)), "cannot be 0"));
        }
        errors.extend(is_not_more_than_100_percent(unavailable, &unavailable_path));
    }
    errors
}

/// `ValidatePersistentVolumeClaimRetentionPolicy`.
fn validate_claim_retention_policy(policy: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if !is_set(policy) {
        return errors;
    }
    for field in ["whenDeleted", "whenScaled"] {
        let value = &policy[field];
        if !matches!(text(value), "Retain" | "Delete") {
            errors.push(
                path.child(field)
                    .not_supported(raw(string(value)), &["Retain", "Delete"]),
            );
        }
    }
    errors
}

/// `ValidateStatefulSetUpdate`: the new spec valid (its name is not checked again),
/// and only the mutable fields changed.
fn validate_stateful_set_update(object: &Value, old: &Value) -> ErrorList {
    let old_spec = &old["spec"];
    let spec = effective_spec(&object["spec"], Some(old_spec));
    let mut errors = validate_object_meta_update(&object["metadata"], &old["metadata"], &Path::new("metadata"));
    errors.extend(validate_stateful_set_spec(&spec, &Path::new("spec")));
    if !semantic_eq(&without(&spec, &MUTABLE), &without(old_spec, &MUTABLE)) {
        errors.push(Path::new("spec").forbidden(
            "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
        ));
    }
    errors
}

/// `ValidateStatefulSetStatusUpdate`.
fn validate_stateful_set_status_update(object: &Value, old: &Value) -> ErrorList {
    let path = Path::new("status");
    let status = &object["status"];
    let mut errors = validate_stateful_set_status(status, &path);
    errors.extend(validate_object_meta_update(
        &object["metadata"],
        &old["metadata"],
        &Path::new("metadata"),
    ));
    if is_decremented(&status["collisionCount"], &old["status"]["collisionCount"]) {
        let value = read_int(&status["collisionCount"]);
        errors.push(
            path.child("collisionCount")
                .invalid(&Value::from(value), "cannot be decremented"),
        );
    }
    errors
}

/// `ValidateStatefulSetStatus`.
fn validate_stateful_set_status(status: &Value, path: &Path) -> ErrorList {
    let count = |field: &str| read_int(&status[field]);
    let mut errors = ErrorList::new();
    for field in [
        "replicas",
        "readyReplicas",
        "currentReplicas",
        "updatedReplicas",
        "availableReplicas",
    ] {
        errors.extend(nonnegative(count(field), &path.child(field)));
    }
    if let Some(generation) = opt_int(&status["observedGeneration"]) {
        errors.extend(nonnegative(generation, &path.child("observedGeneration")));
    }
    errors.extend(nonnegative_if_set(
        &status["collisionCount"],
        &path.child("collisionCount"),
    ));
    let message = "cannot be greater than status.replicas";
    for field in [
        "readyReplicas",
        "currentReplicas",
        "updatedReplicas",
        "availableReplicas",
    ] {
        if count(field) > count("replicas") {
            errors.push(path.child(field).invalid(&Value::from(count(field)), message));
        }
    }
    if count("availableReplicas") > count("readyReplicas") {
        errors.push(path.child("availableReplicas").invalid(
            &Value::from(count("availableReplicas")),
            "cannot be greater than status.readyReplicas",
        ));
    }
    errors
}
