//! replication controllers (`ValidateReplicationController` and its update and status
//! rules, `ValidatePodTemplateSpecForRC`) and pod templates (`ValidatePodTemplate`).

use serde_json::Value;

use super::options::PodOptions;
use super::pod::validate_pod_template_spec_with;
use super::{number, validate_object_meta, validate_object_meta_update};
use crate::Write;
use crate::field::{BadValue, ErrorList, Path};
use crate::godump;
use crate::json::{entries, int, is_set, len_map};
use crate::meta;

/// A replication controller written as `write` says: `ValidateReplicationController`,
/// then on update `ValidateReplicationControllerUpdate`, as the strategy calls them.
pub(super) fn validate(controller: &Value, write: Write) -> ErrorList {
    match write {
        Write::Create => validate_replication_controller(controller, &options(None)),
        Write::Subresource { name: "status", old } => validate_status_update(controller, old),
        Write::Update { old } | Write::Subresource { old, .. } => {
            let options = options(Some(old));
            let mut errors = validate_replication_controller(controller, &options);
            errors.extend(validate_object_meta_update(
                &controller["metadata"],
                &old["metadata"],
                &Path::new("metadata"),
            ));
            errors.extend(validate_spec(&controller["spec"], &Path::new("spec"), &options));
            errors
        }
    }
}

fn options(old: Option<&Value>) -> PodOptions {
    PodOptions::for_template(old.map(|rc| &rc["spec"]["template"]["spec"]))
}

/// `ValidateReplicationController`.
fn validate_replication_controller(controller: &Value, options: &PodOptions) -> ErrorList {
    let mut errors = validate_object_meta(
        &controller["metadata"],
        true,
        meta::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    errors.extend(validate_spec(&controller["spec"], &Path::new("spec"), options));
    errors
}

/// `ValidateReplicationControllerSpec`.
fn validate_spec(spec: &Value, path: &Path, options: &PodOptions) -> ErrorList {
    let mut errors = meta::validate_nonnegative_field(int(&spec["minReadySeconds"]), &path.child("minReadySeconds"));
    if len_map(&spec["selector"]) == 0 {
        errors.push(path.child("selector").required(""));
    }
    errors.extend(meta::validate_nonnegative_field(
        int(&spec["replicas"]),
        &path.child("replicas"),
    ));
    errors.extend(validate_template_for_rc(
        &spec["template"],
        &spec["selector"],
        &path.child("template"),
        options,
    ));
    errors
}

/// `ValidatePodTemplateSpecForRC`: the template matches the selector, restarts always
/// and has no deadline.
fn validate_template_for_rc(template: &Value, selector: &Value, path: &Path, options: &PodOptions) -> ErrorList {
    if !is_set(template) {
        return vec![path.required("")];
    }
    let mut errors = ErrorList::new();
    let labels = &template["metadata"]["labels"];
    if len_map(selector) > 0 && !entries(selector).all(|(key, value)| labels.get(key) == Some(value)) {
        errors.push(path.child("metadata").child("labels").invalid(
            godump::raw(godump::string_map(labels)),
            "`selector` does not match template `labels`",
        ));
    }
    errors.extend(validate_pod_template_spec_with(template, path, options));
    let restart = crate::json::text(&template["spec"]["restartPolicy"]);
    if restart != "Always" {
        errors.push(
            path.child("spec")
                .child("restartPolicy")
                .not_supported(restart, &["Always"]),
        );
    }
    if is_set(&template["spec"]["activeDeadlineSeconds"]) {
        errors.push(
            path.child("spec")
                .child("activeDeadlineSeconds")
                .forbidden("activeDeadlineSeconds in ReplicationController is not Supported"),
        );
    }
    errors
}

/// `ValidateReplicationControllerStatusUpdate`.
fn validate_status_update(controller: &Value, old: &Value) -> ErrorList {
    let mut errors = validate_object_meta_update(&controller["metadata"], &old["metadata"], &Path::new("metadata"));
    let status = &controller["status"];
    let path = Path::new("status");
    for field in [
        "replicas",
        "fullyLabeledReplicas",
        "readyReplicas",
        "availableReplicas",
        "observedGeneration",
    ] {
        errors.extend(meta::validate_nonnegative_field(
            int(&status[field]),
            &path.child(field),
        ));
    }
    let replicas = int(&status["replicas"]);
    for field in ["fullyLabeledReplicas", "readyReplicas", "availableReplicas"] {
        let value = int(&status[field]);
        if value > replicas {
            errors.push(
                path.child(field)
                    .invalid(number(value), "cannot be greater than status.replicas"),
            );
        }
    }
    let (available, ready) = (int(&status["availableReplicas"]), int(&status["readyReplicas"]));
    if available > ready {
        errors.push(path.child("availableReplicas").invalid(
            BadValue::from(&Value::from(available)),
            "cannot be greater than readyReplicas",
        ));
    }
    errors
}

/// `ValidatePodTemplate`.
pub(super) fn validate_pod_template(template: &Value) -> ErrorList {
    let mut errors = validate_object_meta(
        &template["metadata"],
        true,
        meta::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    errors.extend(validate_pod_template_spec_with(
        &template["template"],
        &Path::new("template"),
        &PodOptions::for_template(None),
    ));
    errors
}

/// `ValidatePodTemplateUpdate`.
pub(super) fn validate_pod_template_update(template: &Value, old: &Value) -> ErrorList {
    let mut errors = validate_object_meta_update(&template["metadata"], &old["metadata"], &Path::new("metadata"));
    errors.extend(validate_pod_template_spec_with(
        &template["template"],
        &Path::new("template"),
        &PodOptions::for_template(Some(&old["template"]["spec"])),
    ));
    errors
}
