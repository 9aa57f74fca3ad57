//! apimachinery's object-metadata validation (`k8s.io/apimachinery/pkg/api/validation`:
//! `ValidateObjectMeta`, `ValidateObjectMetaUpdate`, owner references, finalizers,
//! annotations, and the name rules each kind picks), and metav1's label selector
//! validation (`pkg/apis/meta/v1/validation`).

// The shared pieces are used by the kinds as they are ported; until then some are not.
#![allow(dead_code)]

use serde_json::Value;

use crate::field::{ErrorList, Path};

/// A kind's name rule (`ValidateNameFunc`): the messages for a bad `name`, or for a bad
/// `generateName` prefix when `prefix` is true.
pub(crate) type NameRule = fn(name: &str, prefix: bool) -> Vec<String>;

/// `NameIsDNSSubdomain`: most kinds' names.
pub(crate) fn name_is_dns_subdomain(name: &str, prefix: bool) -> Vec<String> {
    let _ = prefix;
    wheelhouse_envtest_schema::names::dns1123_subdomain(name)
}

/// `ValidateObjectMeta`: `meta` at `path`, of a kind that lives in a namespace if
/// `requires_namespace`, its name checked with `name_rule`.
pub(crate) fn validate_object_meta(
    meta: &Value,
    requires_namespace: bool,
    name_rule: NameRule,
    path: &Path,
) -> ErrorList {
    let _ = (meta, requires_namespace, name_rule, path);
    ErrorList::new()
}

/// `ValidateObjectMetaUpdate`: what an update may not change in `new` from `old`.
pub(crate) fn validate_object_meta_update(new: &Value, old: &Value, path: &Path) -> ErrorList {
    let _ = (new, old, path);
    ErrorList::new()
}

/// metav1's `ValidateLabelSelector`: a structured label selector at `path`.
pub(crate) fn validate_label_selector(selector: &Value, path: &Path) -> ErrorList {
    let _ = (selector, path);
    ErrorList::new()
}
