//! Deployments and `ReplicaSets`: `ValidateDeployment`, `ValidateDeploymentUpdate`,
//! `ValidateDeploymentStatusUpdate`, `ValidateReplicaSet`, `ValidateReplicaSetUpdate`,
//! `ValidateReplicaSetStatusUpdate` and the pieces they share.

use serde_json::Value;

use super::{int_or_percent_value, is_not_more_than_100_percent, selector_rejects, validate_positive_int_or_percent};
use crate::common::fields::{immutable, is_decremented, nonnegative, nonnegative_if_set};
use crate::common::go_syntax::{int_or_string, label_selector, raw, string_map};
use crate::common::labels::label_selector_as_selector;
use crate::common::names::name_is_dns_subdomain;
use crate::common::read::{entries, int, is_set, items, opt_int, text};
use crate::core::{validate_object_meta, validate_object_meta_update};
use crate::field::{ErrorList, Path};
use crate::meta::validate_label_selector;
use crate::{Write, core};

/// The Deployment strategy's `Validate`, `ValidateUpdate` and the status strategy's.
pub(super) fn validate_deployment(object: &Value, write: Write) -> ErrorList {
    match write {
        Write::Create => validate_deployment_create(object),
        Write::Update { old } => {
            let mut errors = validate_deployment_update(object, old);
            // apps/v1 may not change the selector (the strategy's check, outside
            // `ValidateDeploymentUpdate` for extensions/v1beta1's sake).
            let selector = &object["spec"]["selector"];
            errors.extend(immutable(
                selector,
                &old["spec"]["selector"],
                &Path::from_parts(&["spec", "selector"]),
                || raw(label_selector(selector)),
            ));
            errors
        }
        Write::Subresource { name: "status", old } => validate_deployment_status_update(object, old),
        Write::Subresource { .. } => ErrorList::new(),
    }
}

/// `ValidateDeployment`.
fn validate_deployment_create(object: &Value) -> ErrorList {
    let mut errors = validate_object_meta(&object["metadata"], true, name_is_dns_subdomain, &Path::new("metadata"));
    errors.extend(validate_deployment_spec(&object["spec"], &Path::new("spec")));
    errors
}

/// `ValidateDeploymentUpdate`.
fn validate_deployment_update(object: &Value, old: &Value) -> ErrorList {
    let mut errors = validate_object_meta_update(&object["metadata"], &old["metadata"], &Path::new("metadata"));
    errors.extend(validate_deployment_spec(&object["spec"], &Path::new("spec")));
    errors
}

/// The selector rules Deployments and `ReplicaSets` share: required, well formed, not
/// empty; then the template against it.
fn validate_selector_and_template(spec: &Value, path: &Path, empty_message: &str) -> ErrorList {
    let mut errors = ErrorList::new();
    let selector = &spec["selector"];
    let selector_path = path.child("selector");
    if selector.is_null() {
        errors.push(selector_path.required(""));
    } else {
        errors.extend(validate_label_selector(selector, &selector_path));
        if selector_size(selector) == 0 {
            errors.push(selector_path.invalid(raw(label_selector(selector)), empty_message));
        }
    }
    match label_selector_as_selector(selector) {
        Err(_) => errors.push(selector_path.invalid(raw(label_selector(selector)), "invalid label selector")),
        Ok(parsed) => errors.extend(validate_pod_template_spec_for_replica_set(
            &spec["template"],
            &parsed,
            &path.child("template"),
            "ReplicaSet",
        )),
    }
    errors
}

/// `len(MatchLabels) + len(MatchExpressions)`.
pub(super) fn selector_size(selector: &Value) -> usize {
    entries(&selector["matchLabels"]).map_or(0, serde_json::Map::len) + items(&selector["matchExpressions"]).len()
}

/// `ValidateDeploymentSpec`.
fn validate_deployment_spec(spec: &Value, path: &Path) -> ErrorList {
    let mut errors = nonnegative(int(&spec["replicas"]), &path.child("replicas"));
    errors.extend(validate_selector_and_template(
        spec,
        path,
        "empty selector is invalid for deployment",
    ));
    errors.extend(validate_deployment_strategy(&spec["strategy"], &path.child("strategy")));
    let min_ready = int(&spec["minReadySeconds"]);
    errors.extend(nonnegative(min_ready, &path.child("minReadySeconds")));
    errors.extend(nonnegative_if_set(
        &spec["revisionHistoryLimit"],
        &path.child("revisionHistoryLimit"),
    ));
    if is_set(&spec["rollbackTo"]) {
        // `ValidateRollback`; apps/v1 has no `rollbackTo`, older versions did.
        errors.extend(nonnegative(
            int(&spec["rollbackTo"]["revision"]),
            &path.child("rollback").child("version"),
        ));
    }
    if let Some(deadline) = opt_int(&spec["progressDeadlineSeconds"]) {
        let deadline_path = path.child("progressDeadlineSeconds");
        errors.extend(nonnegative(deadline, &deadline_path));
        if deadline <= min_ready {
            errors.push(deadline_path.invalid(&Value::from(deadline), "must be greater than minReadySeconds"));
        }
    }
    errors
}

/// `ValidateDeploymentStrategy`.
fn validate_deployment_strategy(strategy: &Value, path: &Path) -> ErrorList {
    let rolling = &strategy["rollingUpdate"];
    match text(&strategy["type"]) {
        "Recreate" => {
            if is_set(rolling) {
                return vec![
                    path.child("rollingUpdate")
                        .forbidden("may not be specified when strategy `type` is 'Recreate'"),
                ];
            }
            ErrorList::new()
        }
        "RollingUpdate" => {
            if rolling.is_null() {
                return vec![
                    path.child("rollingUpdate")
                        .required("this should be defaulted and never be nil"),
                ];
            }
            validate_rolling_update_deployment(rolling, &path.child("rollingUpdate"))
        }
        _ => {
            let shown = crate::common::go_syntax::GoStruct::new("apps.DeploymentStrategy")
                .field("Type", crate::common::go_syntax::string(&strategy["type"]))
                .field(
                    "RollingUpdate",
                    crate::common::go_syntax::pointer("apps.RollingUpdateDeployment", rolling),
                )
                .end();
            vec![path.not_supported(raw(shown), &["Recreate", "RollingUpdate"])]
        }
    }
}

/// `ValidateRollingUpdateDeployment`.
fn validate_rolling_update_deployment(rolling: &Value, path: &Path) -> ErrorList {
    let unavailable = &rolling["maxUnavailable"];
    let surge = &rolling["maxSurge"];
    let mut errors = validate_positive_int_or_percent(unavailable, &path.child("maxUnavailable"));
    errors.extend(validate_positive_int_or_percent(surge, &path.child("maxSurge")));
    if int_or_percent_value(unavailable) == 0 && int_or_percent_value(surge) == 0 {
        errors.push(
            path.child("maxUnavailable")
                .invalid(raw(int_or_string(unavailable)), "may not be 0 when `maxSurge` is 0"),
        );
    }
    errors.extend(is_not_more_than_100_percent(unavailable, &path.child("maxUnavailable")));
    errors
}

/// `ValidateDeploymentStatusUpdate`.
fn validate_deployment_status_update(object: &Value, old: &Value) -> ErrorList {
    let mut errors = validate_object_meta_update(&object["metadata"], &old["metadata"], &Path::new("metadata"));
    let path = Path::new("status");
    let status = &object["status"];
    errors.extend(validate_deployment_status(status, &path));
    if is_decremented(&status["collisionCount"], &old["status"]["collisionCount"]) {
        let value = int(&status["collisionCount"]);
        errors.push(
            path.child("collisionCount")
                .invalid(&Value::from(value), "cannot be decremented"),
        );
    }
    errors
}

/// `ValidateDeploymentStatus`.
fn validate_deployment_status(status: &Value, path: &Path) -> ErrorList {
    let count = |field: &str| int(&status[field]);
    let mut errors = ErrorList::new();
    for field in [
        "observedGeneration",
        "replicas",
        "updatedReplicas",
        "readyReplicas",
        "availableReplicas",
        "unavailableReplicas",
    ] {
        errors.extend(nonnegative(count(field), &path.child(field)));
    }
    errors.extend(nonnegative_if_set(
        &status["collisionCount"],
        &path.child("collisionCount"),
    ));
    let message = "cannot be greater than status.replicas";
    for field in ["updatedReplicas", "readyReplicas", "availableReplicas"] {
        if count(field) > count("replicas") {
            errors.push(path.child(field).invalid(&Value::from(count(field)), message));
        }
    }
    if count("availableReplicas") > count("readyReplicas") {
        errors.push(path.child("availableReplicas").invalid(
            &Value::from(count("availableReplicas")),
            "cannot be greater than readyReplicas",
        ));
    }
    errors
}

/// The `ReplicaSet` strategy's `Validate`, `ValidateUpdate` and the status strategy's.
pub(super) fn validate_replica_set(object: &Value, write: Write) -> ErrorList {
    match write {
        Write::Create => validate_replica_set_create(object),
        Write::Update { old } => {
            // The strategy validates the new object whole, then the update: spec errors
            // are listed twice, as kube-apiserver lists them.
            let mut errors = validate_replica_set_create(object);
            errors.extend(validate_object_meta_update(
                &object["metadata"],
                &old["metadata"],
                &Path::new("metadata"),
            ));
            errors.extend(validate_replica_set_spec(&object["spec"], &Path::new("spec")));
            let selector = &object["spec"]["selector"];
            errors.extend(immutable(
                selector,
                &old["spec"]["selector"],
                &Path::from_parts(&["spec", "selector"]),
                || raw(label_selector(selector)),
            ));
            errors
        }
        Write::Subresource { name: "status", old } => {
            let mut errors = validate_object_meta_update(&object["metadata"], &old["metadata"], &Path::new("metadata"));
            errors.extend(validate_replica_set_status(&object["status"], &Path::new("status")));
            errors
        }
        Write::Subresource { .. } => ErrorList::new(),
    }
}

/// `ValidateReplicaSet`.
fn validate_replica_set_create(object: &Value) -> ErrorList {
    let mut errors = validate_object_meta(&object["metadata"], true, name_is_dns_subdomain, &Path::new("metadata"));
    errors.extend(validate_replica_set_spec(&object["spec"], &Path::new("spec")));
    errors
}

/// `ValidateReplicaSetSpec`.
fn validate_replica_set_spec(spec: &Value, path: &Path) -> ErrorList {
    let mut errors = nonnegative(int(&spec["replicas"]), &path.child("replicas"));
    errors.extend(nonnegative(
        int(&spec["minReadySeconds"]),
        &path.child("minReadySeconds"),
    ));
    // kube's message names deployments here too.
    errors.extend(validate_selector_and_template(
        spec,
        path,
        "empty selector is invalid for deployment",
    ));
    errors
}

/// `ValidateReplicaSetStatus`.
fn validate_replica_set_status(status: &Value, path: &Path) -> ErrorList {
    let count = |field: &str| int(&status[field]);
    let mut errors = ErrorList::new();
    for field in [
        "replicas",
        "fullyLabeledReplicas",
        "readyReplicas",
        "availableReplicas",
        "observedGeneration",
    ] {
        errors.extend(nonnegative(count(field), &path.child(field)));
    }
    let message = "cannot be greater than status.replicas";
    for field in ["fullyLabeledReplicas", "readyReplicas", "availableReplicas"] {
        if count(field) > count("replicas") {
            errors.push(path.child(field).invalid(&Value::from(count(field)), message));
        }
    }
    if count("availableReplicas") > count("readyReplicas") {
        errors.push(path.child("availableReplicas").invalid(
            &Value::from(count("availableReplicas")),
            "cannot be greater than readyReplicas",
        ));
    }
    errors
}

/// `ValidatePodTemplateSpecForReplicaSet`: the template's labels satisfy the
/// selector, the template is a valid pod template, and the pod restarts `Always`
/// without a deadline. `owner` names the kind in the deadline's message.
pub(crate) fn validate_pod_template_spec_for_replica_set(
    template: &Value,
    selector: &crate::common::labels::Selector,
    path: &Path,
    owner: &str,
) -> ErrorList {
    let mut errors = ErrorList::new();
    let labels = &template["metadata"]["labels"];
    if selector_rejects(selector, labels) {
        errors.push(
            path.child("metadata")
                .child("labels")
                .invalid(raw(string_map(labels)), "`selector` does not match template `labels`"),
        );
    }
    errors.extend(core::validate_pod_template_spec(template, path));
    let policy = &template["spec"]["restartPolicy"];
    if text(policy) != "Always" {
        errors.push(path.child("spec").child("restartPolicy").not_supported(
            crate::common::go_syntax::raw(crate::common::go_syntax::string(policy)),
            &["Always"],
        ));
    }
    if is_set(&template["spec"]["activeDeadlineSeconds"]) {
        errors.push(
            path.child("spec")
                .child("activeDeadlineSeconds")
                .forbidden(&format!("activeDeadlineSeconds in {owner} is not Supported")),
        );
    }
    errors
}
