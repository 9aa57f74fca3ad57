//! `DaemonSets` (`ValidateDaemonSet`, `ValidateDaemonSetUpdate`,
//! `ValidateDaemonSetStatusUpdate`) and `ControllerRevisions`
//! (`ValidateControllerRevisionCreate`, `ValidateControllerRevisionUpdate`), the
//! history `DaemonSets` and `StatefulSets` keep.

use serde_json::Value;

use super::deployment::selector_size;
use super::{int_or_percent_value, is_not_more_than_100_percent, validate_positive_int_or_percent};
use crate::common::fields::{IMMUTABLE, immutable, is_decremented, nonnegative, nonnegative_if_set};
use crate::common::go_syntax::{GoStruct, int_or_string, label_selector, pointer, raw, string, string_map};
use crate::common::labels::label_selector_as_selector;
use crate::common::names::name_is_dns_subdomain;
use crate::common::read::{int, is_set, semantic_eq, text};
use crate::core::{validate_object_meta, validate_object_meta_update};
use crate::field::{ErrorList, Path};
use crate::meta::validate_label_selector;
use crate::{Write, core};

/// The annotation apps/v1 shows a `DaemonSet`'s template generation in (the internal
/// type's `spec.templateGeneration`).
const TEMPLATE_GENERATION: &str = "deprecated.daemonset.template.generation";

/// The `DaemonSet` strategy's `Validate`, `ValidateUpdate` and the status strategy's.
pub(super) fn validate_daemon_set(object: &Value, write: Write) -> ErrorList {
    match write {
        Write::Create => validate_daemon_set_create(object),
        Write::Update { old } => {
            // The new object whole, then the update (spec errors twice, as kube lists
            // them), then the selector apps/v1 may not change.
            let mut errors = validate_daemon_set_create(object);
            errors.extend(validate_object_meta_update(
                &object["metadata"],
                &old["metadata"],
                &Path::new("metadata"),
            ));
            errors.extend(validate_daemon_set_spec_update(object, old, &Path::new("spec")));
            errors.extend(validate_daemon_set_spec(object, &Path::new("spec")));
            let selector = &object["spec"]["selector"];
            errors.extend(immutable(
                selector,
                &old["spec"]["selector"],
                &Path::from_parts(&["spec", "selector"]),
                || raw(label_selector(selector)),
            ));
            errors
        }
        Write::Subresource { name: "status", old } => validate_daemon_set_status_update(object, old),
        Write::Subresource { .. } => ErrorList::new(),
    }
}

/// `ValidateDaemonSet`.
fn validate_daemon_set_create(object: &Value) -> ErrorList {
    let mut errors = validate_object_meta(&object["metadata"], true, name_is_dns_subdomain, &Path::new("metadata"));
    errors.extend(validate_daemon_set_spec(object, &Path::new("spec")));
    errors
}

/// The internal `spec.templateGeneration`, from its apps/v1 annotation.
fn template_generation(object: &Value) -> i64 {
    text(&object["metadata"]["annotations"][TEMPLATE_GENERATION])
        .parse()
        .unwrap_or_default()
}

/// `ValidateDaemonSetSpecUpdate`: the template generation moves with the template.
fn validate_daemon_set_spec_update(object: &Value, old: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let (generation, old_generation) = (template_generation(object), template_generation(old));
    let generation_path = path.child("templateGeneration");
    let shown = Value::from(generation);
    if generation < old_generation {
        errors.push(generation_path.invalid(&shown, "must not be decremented"));
    }
    let template_updated = !semantic_eq(&object["spec"]["template"], &old["spec"]["template"]);
    if generation == old_generation && template_updated {
        errors.push(generation_path.invalid(&shown, "must be incremented upon template update"));
    } else if generation > old_generation && !template_updated {
        errors.push(generation_path.invalid(&shown, "must not be incremented without template update"));
    }
    errors
}

/// `ValidateDaemonSetSpec`.
fn validate_daemon_set_spec(object: &Value, path: &Path) -> ErrorList {
    let spec = &object["spec"];
    let selector = &spec["selector"];
    let mut errors = validate_label_selector(selector, &path.child("selector"));
    let labels = &spec["template"]["metadata"]["labels"];
    if let Ok(parsed) = label_selector_as_selector(selector)
        && !parsed.matches(labels)
    {
        errors.push(
            path.child("template")
                .child("metadata")
                .child("labels")
                .invalid(raw(string_map(labels)), "`selector` does not match template `labels`"),
        );
    }
    if is_set(selector) && selector_size(selector) == 0 {
        errors.push(
            path.child("selector")
                .invalid(raw(label_selector(selector)), "empty selector is invalid for daemonset"),
        );
    }
    errors.extend(core::validate_pod_template_spec(
        &spec["template"],
        &path.child("template"),
    ));
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
                .forbidden("activeDeadlineSeconds in DaemonSet is not Supported"),
        );
    }
    errors.extend(nonnegative(
        int(&spec["minReadySeconds"]),
        &path.child("minReadySeconds"),
    ));
    errors.extend(nonnegative(
        template_generation(object),
        &path.child("templateGeneration"),
    ));
    errors.extend(validate_daemon_set_update_strategy(
        &spec["updateStrategy"],
        &path.child("updateStrategy"),
    ));
    errors.extend(nonnegative_if_set(
        &spec["revisionHistoryLimit"],
        &path.child("revisionHistoryLimit"),
    ));
    errors
}

/// `ValidateDaemonSetUpdateStrategy`.
fn validate_daemon_set_update_strategy(strategy: &Value, path: &Path) -> ErrorList {
    let rolling = &strategy["rollingUpdate"];
    match text(&strategy["type"]) {
        "OnDelete" => ErrorList::new(),
        "RollingUpdate" => {
            if rolling.is_null() {
                return vec![path.child("rollingUpdate").required("")];
            }
            validate_rolling_update_daemon_set(rolling, &path.child("rollingUpdate"))
        }
        _ => {
            let shown = GoStruct::new("apps.DaemonSetUpdateStrategy")
                .field("Type", string(&strategy["type"]))
                .field("RollingUpdate", pointer("apps.RollingUpdateDaemonSet", rolling))
                .end();
            vec![path.not_supported(raw(shown), &["RollingUpdate", "OnDelete"])]
        }
    }
}

/// `ValidateRollingUpdateDaemonSet`.
fn validate_rolling_update_daemon_set(rolling: &Value, path: &Path) -> ErrorList {
    let unavailable = &rolling["maxUnavailable"];
    let surge = &rolling["maxSurge"];
    let mut errors = validate_positive_int_or_percent(unavailable, &path.child("maxUnavailable"));
    errors.extend(validate_positive_int_or_percent(surge, &path.child("maxSurge")));
    errors.extend(is_not_more_than_100_percent(unavailable, &path.child("maxUnavailable")));
    errors.extend(is_not_more_than_100_percent(surge, &path.child("maxSurge")));
    let has_unavailable = int_or_percent_value(unavailable) != 0;
    let has_surge = int_or_percent_value(surge) != 0;
    if has_unavailable && has_surge {
        errors.push(path.child("maxSurge").invalid(
            raw(int_or_string(surge)),
            "may not be set when maxUnavailable is non-zero",
        ));
    } else if !has_unavailable && !has_surge {
        errors.push(path.child("maxUnavailable").required("cannot be 0 when maxSurge is 0"));
    }
    errors
}

/// `ValidateDaemonSetStatusUpdate`.
fn validate_daemon_set_status_update(object: &Value, old: &Value) -> ErrorList {
    let mut errors = validate_object_meta_update(&object["metadata"], &old["metadata"], &Path::new("metadata"));
    let status = &object["status"];
    let path = Path::new("status");
    for field in [
        "currentNumberScheduled",
        "numberMisscheduled",
        "desiredNumberScheduled",
        "numberReady",
        "observedGeneration",
        "updatedNumberScheduled",
        "numberAvailable",
        "numberUnavailable",
    ] {
        errors.extend(nonnegative(int(&status[field]), &path.child(field)));
    }
    errors.extend(nonnegative_if_set(
        &status["collisionCount"],
        &path.child("collisionCount"),
    ));
    if is_decremented(&status["collisionCount"], &old["status"]["collisionCount"]) {
        let value = int(&status["collisionCount"]);
        errors.push(
            path.child("collisionCount")
                .invalid(&Value::from(value), "cannot be decremented"),
        );
    }
    errors
}

/// The `ControllerRevision` strategy's `Validate` and `ValidateUpdate`.
pub(super) fn validate_controller_revision(object: &Value, write: Write) -> ErrorList {
    match write {
        Write::Create => {
            let mut errors = validate_revision(object);
            let data = &object["data"];
            let path = Path::new("data");
            if data.is_null() {
                errors.push(path.required("data is mandatory"));
            } else if !data.is_object() {
                errors.push(path.required("data must be a valid JSON object"));
            }
            errors
        }
        Write::Update { old } | Write::Subresource { old, .. } => {
            let mut errors = validate_object_meta_update(&object["metadata"], &old["metadata"], &Path::new("metadata"));
            errors.extend(validate_revision(object));
            let data = &object["data"];
            if !semantic_eq(data, &old["data"]) {
                errors.push(Path::new("data").invalid(raw(raw_extension(data)), IMMUTABLE));
            }
            errors
        }
    }
}

/// `validateControllerRevision`.
fn validate_revision(object: &Value) -> ErrorList {
    let mut errors = validate_object_meta(&object["metadata"], true, name_is_dns_subdomain, &Path::new("metadata"));
    errors.extend(nonnegative(int(&object["revision"]), &Path::new("revision")));
    errors
}

/// A `runtime.RawExtension` holding `data` as Go prints it: its JSON bytes.
fn raw_extension(data: &Value) -> String {
    let bytes = if data.is_null() {
        "[]uint8(nil)".to_owned()
    } else {
        let json = serde_json::to_string(data).unwrap_or_default();
        let printed: Vec<String> = json.bytes().map(|b| format!("{b:#x}")).collect();
        format!("[]uint8{{{}}}", printed.join(", "))
    };
    GoStruct::new("runtime.RawExtension")
        .field("Raw", bytes)
        .field("Object", "runtime.Object(nil)")
        .end()
}
