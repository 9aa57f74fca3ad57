//! The downward API (`validateObjectFieldSelector`, `validateContainerResourceFieldSelector`,
//! `validateDownwardAPIVolumeFile`): the fields and resources of its own pod a container
//! may read, through its environment or a volume.

use serde_json::Value;

use super::paths::validate_local_non_reserved_path;
use super::sources::{file_mode, required_text};
use super::validate_qualified_name;
use crate::field::{ErrorList, Path};
use crate::json::{is_set, text};

/// `validateObjectFieldSelector`: the downward API's `fieldRef`.
pub(crate) fn validate_object_field_selector(selector: &Value, expressions: &[&str], path: &Path) -> ErrorList {
    let api_version = text(&selector["apiVersion"]);
    if api_version.is_empty() {
        return vec![path.child("apiVersion").required("")];
    }
    let field_path = text(&selector["fieldPath"]);
    if field_path.is_empty() {
        return vec![path.child("fieldPath").required("")];
    }
    let internal = match convert_downward_api_field_label(api_version, field_path) {
        Ok(internal) => internal,
        Err(message) => {
            return vec![
                path.child("fieldPath")
                    .invalid(field_path, &format!("error converting fieldPath: {message}")),
            ];
        }
    };
    if let Some((field, subscript)) = split_maybe_subscripted_path(&internal) {
        return match field {
            "metadata.annotations" => validate_qualified_name(&subscript.to_lowercase(), path),
            "metadata.labels" => validate_qualified_name(subscript, path),
            other => vec![path.invalid(other, "does not support subscript")],
        };
    }
    if !expressions.contains(&internal.as_str()) {
        let mut supported = expressions.to_vec();
        supported.sort_unstable();
        return vec![path.child("fieldPath").not_supported(internal.as_str(), &supported)];
    }
    ErrorList::new()
}

/// `fieldpath.SplitMaybeSubscriptedPath`: `metadata.labels['key']`.
fn split_maybe_subscripted_path(field_path: &str) -> Option<(&str, &str)> {
    let trimmed = field_path.strip_suffix("']")?;
    let (field, subscript) = trimmed.split_once("['")?;
    (!field.is_empty()).then_some((field, subscript))
}

/// `pods.ConvertDownwardAPIFieldLabel` for v1.
fn convert_downward_api_field_label(version: &str, label: &str) -> Result<String, String> {
    if version != "v1" {
        return Err(format!("unsupported pod version: {version}"));
    }
    if let Some((field, _)) = split_maybe_subscripted_path(label) {
        return match field {
            "metadata.annotations" | "metadata.labels" => Ok(label.to_owned()),
            _ => Err(format!("field label does not support subscript: {label}")),
        };
    }
    match label {
        "metadata.annotations"
        | "metadata.labels"
        | "metadata.name"
        | "metadata.namespace"
        | "metadata.uid"
        | "spec.nodeName"
        | "spec.restartPolicy"
        | "spec.serviceAccountName"
        | "spec.schedulerName"
        | "status.phase"
        | "status.hostIP"
        | "status.hostIPs"
        | "status.podIP"
        | "status.podIPs" => Ok(label.to_owned()),
        "spec.host" => Ok("spec.nodeName".to_owned()),
        _ => Err(format!("field label not supported: {label}")),
    }
}

const RESOURCE_FIELD_PATHS: &[&str] = &[
    "limits.cpu",
    "limits.ephemeral-storage",
    "limits.memory",
    "requests.cpu",
    "requests.ephemeral-storage",
    "requests.memory",
];

/// `validateContainerResourceFieldSelector`.
pub(crate) fn validate_container_resource_field_selector(selector: &Value, path: &Path, volume: bool) -> ErrorList {
    let mut errors = ErrorList::new();
    let resource = text(&selector["resource"]);
    if volume && text(&selector["containerName"]).is_empty() {
        errors.push(path.child("containerName").required(""));
    } else if resource.is_empty() {
        errors.push(path.child("resource").required(""));
    } else if !RESOURCE_FIELD_PATHS.contains(&resource)
        && !resource.starts_with("limits.hugepages-")
        && !resource.starts_with("requests.hugepages-")
    {
        errors.push(path.child("resource").not_supported(resource, RESOURCE_FIELD_PATHS));
    }
    errors.extend(validate_container_resource_divisor(
        resource,
        &selector["divisor"],
        path,
    ));
    errors
}

/// `validateContainerResourceDivisor`.
fn validate_container_resource_divisor(resource: &str, divisor: &Value, path: &Path) -> ErrorList {
    const SIZES: &[&str] = &[
        "1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei",
    ];
    let quantity = super::quantity(divisor);
    if quantity.is_zero() {
        return ErrorList::new();
    }
    let shown = quantity.to_string();
    let sizes = "1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei";
    let mut errors = ErrorList::new();
    let divisor_path = path.child("divisor");
    match resource {
        "limits.cpu" | "requests.cpu" if !["1m", "1"].contains(&shown.as_str()) => errors.push(divisor_path.invalid(
            resource,
            "only divisor's values 1m and 1 are supported with the cpu resource",
        )),
        "limits.memory" | "requests.memory" if !SIZES.contains(&shown.as_str()) => errors.push(divisor_path.invalid(
            resource,
            &format!("only divisor's values {sizes} are supported with the memory resource"),
        )),
        "limits.ephemeral-storage" | "requests.ephemeral-storage" if !SIZES.contains(&shown.as_str()) => {
            errors.push(divisor_path.invalid(
                resource,
                &format!("only divisor's values {sizes} are supported with the local ephemeral storage resource"),
            ));
        }
        _ => {}
    }
    let huge = resource.starts_with("requests.hugepages-") || resource.starts_with("limits.hugepages-");
    if huge && !SIZES.contains(&shown.as_str()) {
        errors.push(divisor_path.invalid(
            resource,
            &format!("only divisor's values {sizes} are supported with the hugepages resource"),
        ));
    }
    errors
}

const VOLUME_FIELD_PATHS: &[&str] = &[
    "metadata.annotations",
    "metadata.labels",
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
];

/// `validateDownwardAPIVolumeFile`.
pub(super) fn downward_api_file(file: &Value, path: &Path) -> ErrorList {
    let mut errors = required_text(file, "path", path);
    errors.extend(validate_local_non_reserved_path(
        text(&file["path"]),
        &path.child("path"),
    ));
    if is_set(&file["fieldRef"]) {
        errors.extend(validate_object_field_selector(
            &file["fieldRef"],
            VOLUME_FIELD_PATHS,
            &path.child("fieldRef"),
        ));
        if is_set(&file["resourceFieldRef"]) {
            errors.push(path.invalid(
                "resource",
                "fieldRef and resourceFieldRef can not be specified simultaneously",
            ));
        }
    } else if is_set(&file["resourceFieldRef"]) {
        errors.extend(validate_container_resource_field_selector(
            &file["resourceFieldRef"],
            &path.child("resourceFieldRef"),
            true,
        ));
    } else {
        errors.push(path.required("one of fieldRef and resourceFieldRef is required"));
    }
    errors.extend(file_mode(file, "mode", path));
    errors
}
