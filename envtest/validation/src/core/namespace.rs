//! Namespaces (`ValidateNamespace`, `ValidateNamespaceUpdate`,
//! `ValidateNamespaceStatusUpdate`, `ValidateNamespaceFinalizeUpdate`): DNS-label
//! names, finalizers that are qualified or standard, and a phase that follows the
//! deletion timestamp.

use serde_json::Value;

use super::{validate_finalizer_name, validate_object_meta, validate_object_meta_update};
use crate::Write;
use crate::field::{ErrorList, Path};
use crate::json::{items, text};
use crate::meta;

/// A Namespace written as `write` says.
pub(super) fn validate(namespace: &Value, write: Write) -> ErrorList {
    match write {
        Write::Create => validate_namespace(namespace),
        Write::Subresource { name: "status", old } => validate_status_update(namespace, old),
        Write::Subresource { name: "finalize", old } => validate_finalize_update(namespace, old),
        Write::Update { old } | Write::Subresource { old, .. } => {
            let mut errors = validate_namespace(namespace);
            errors.extend(validate_object_meta_update(
                &namespace["metadata"],
                &old["metadata"],
                &Path::new("metadata"),
            ));
            errors
        }
    }
}

/// `ValidateNamespace`.
fn validate_namespace(namespace: &Value) -> ErrorList {
    let mut errors = validate_object_meta(
        &namespace["metadata"],
        false,
        meta::name_is_dns_label,
        &Path::new("metadata"),
    );
    for finalizer in items(&namespace["spec"]["finalizers"]) {
        errors.extend(validate_finalizer_name(
            text(finalizer),
            &Path::from_parts(&["spec", "finalizers"]),
        ));
    }
    errors
}

/// `ValidateNamespaceStatusUpdate`.
fn validate_status_update(namespace: &Value, old: &Value) -> ErrorList {
    let mut errors = validate_object_meta_update(&namespace["metadata"], &old["metadata"], &Path::new("metadata"));
    let phase = text(&namespace["status"]["phase"]);
    let path = Path::from_parts(&["status", "Phase"]);
    if text(&namespace["metadata"]["deletionTimestamp"]).is_empty() {
        if phase != "Active" {
            errors.push(path.invalid(phase, "may only be 'Active' if `deletionTimestamp` is empty"));
        }
    } else if phase != "Terminating" {
        errors.push(path.invalid(phase, "may only be 'Terminating' if `deletionTimestamp` is not empty"));
    }
    errors
}

/// `ValidateNamespaceFinalizeUpdate`.
fn validate_finalize_update(namespace: &Value, old: &Value) -> ErrorList {
    let mut errors = validate_object_meta_update(&namespace["metadata"], &old["metadata"], &Path::new("metadata"));
    let path = Path::from_parts(&["spec", "finalizers"]);
    for (index, finalizer) in items(&namespace["spec"]["finalizers"]).iter().enumerate() {
        errors.extend(validate_finalizer_name(text(finalizer), &path.index(index)));
    }
    errors
}
