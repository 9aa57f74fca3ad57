//! The validation of the `authorization.k8s.io` reviews
//! (`pkg/apis/authorization/validation`): `SubjectAccessReviews`,
//! `SelfSubjectAccessReviews` and `LocalSubjectAccessReviews` ask about exactly one kind
//! of attributes, for someone, with empty metadata (a local review's namespace aside).
//!
//! Not ported: the syntax of each field- and label-selector requirement in resource
//! attributes (metav1's `ValidateFieldSelectorRequirement` and
//! `ValidateLabelSelectorRequirement`); the raw-or-requirements rule is.

use serde_json::Value;

use crate::common::go_syntax::{GoStruct, approximate, raw, string};
use crate::common::read::{entries, is_set, items, text};
use crate::field::{ErrorList, Path};
use crate::{Kind, Write};

/// The errors in `object`, an `authorization.k8s.io` review, created.
pub(crate) fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    if !matches!(write, Write::Create) {
        return ErrorList::new();
    }
    let spec = &object["spec"];
    match kind.kind {
        "SubjectAccessReview" => {
            let mut errors = validate_spec(spec, true, &Path::new("spec"));
            errors.extend(metadata_empty(object, false));
            errors
        }
        "SelfSubjectAccessReview" => {
            let mut errors = validate_spec(spec, false, &Path::new("spec"));
            errors.extend(metadata_empty(object, false));
            errors
        }
        "LocalSubjectAccessReview" => {
            let mut errors = validate_spec(spec, true, &Path::new("spec"));
            errors.extend(metadata_empty(object, true));
            let namespace = text(&object["metadata"]["namespace"]);
            let attributes = &spec["resourceAttributes"];
            if is_set(attributes) && text(&attributes["namespace"]) != namespace {
                errors.push(Path::new("spec.resourceAttributes.namespace").invalid(
                    &Value::from(text(&attributes["namespace"])),
                    "must match metadata.namespace",
                ));
            }
            let non_resource = &spec["nonResourceAttributes"];
            if is_set(non_resource) {
                errors.push(Path::new("spec.nonResourceAttributes").invalid(
                    raw(non_resource_attributes(non_resource)),
                    "disallowed on this kind of request",
                ));
            }
            errors
        }
        _ => ErrorList::new(),
    }
}

/// A `NonResourceAttributes` as Go prints it (a nil one as the string `"null"`, as
/// `ErrorBody` turns nil values).
fn non_resource_attributes(attributes: &Value) -> String {
    if attributes.is_null() {
        return "\"null\"".to_owned();
    }
    GoStruct::new("authorization.NonResourceAttributes")
        .field("Path", string(&attributes["path"]))
        .field("Verb", string(&attributes["verb"]))
        .end()
}

/// `ValidateSubjectAccessReviewSpec` (`with_subject`) and
/// `ValidateSelfSubjectAccessReviewSpec`.
fn validate_spec(spec: &Value, with_subject: bool, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let resource = &spec["resourceAttributes"];
    let non_resource = &spec["nonResourceAttributes"];
    if is_set(resource) && is_set(non_resource) {
        errors.push(path.child("nonResourceAttributes").invalid(
            raw(non_resource_attributes(non_resource)),
            "cannot be specified in combination with resourceAttributes",
        ));
    }
    if !is_set(resource) && !is_set(non_resource) {
        errors.push(path.child("resourceAttributes").invalid(
            raw(non_resource_attributes(non_resource)),
            "exactly one of nonResourceAttributes or resourceAttributes must be specified",
        ));
    }
    if with_subject && text(&spec["user"]).is_empty() && items(&spec["groups"]).is_empty() {
        errors.push(
            path.child("user")
                .invalid(text(&spec["user"]), "at least one of user or group must be specified"),
        );
    }
    if is_set(resource) {
        let attributes_path = Path::new("spec.resourceAttributes");
        for field in ["fieldSelector", "labelSelector"] {
            let selector = &resource[field];
            if !is_set(selector) {
                continue;
            }
            let selector_path = attributes_path.child(field);
            let raw_selector = text(&selector["rawSelector"]);
            let requirements = items(&selector["requirements"]);
            if !raw_selector.is_empty() && !requirements.is_empty() {
                errors.push(
                    selector_path
                        .child("rawSelector")
                        .invalid(raw_selector, "may not specified at the same time as requirements"),
                );
            }
            if raw_selector.is_empty() && requirements.is_empty() {
                errors.push(selector_path.child("requirements").required(&format!(
                    "when {selector_path} is specified, requirements or rawSelector is required"
                )));
            }
        }
    }
    errors
}

/// The review's metadata must be empty (managed fields aside; a local review's
/// namespace aside).
fn metadata_empty(object: &Value, local: bool) -> ErrorList {
    let metadata = &object["metadata"];
    let set = entries(metadata).is_some_and(|map| {
        map.iter()
            .filter(|(key, _)| key.as_str() != "managedFields" && !(local && key.as_str() == "namespace"))
            .any(|(_, value)| !crate::common::read::semantic_eq(value, &Value::Null))
    });
    if !set {
        return ErrorList::new();
    }
    let message = if local {
        "must be empty except for namespace"
    } else {
        "must be empty"
    };
    vec![Path::new("metadata").invalid(raw(approximate("v1.ObjectMeta", metadata)), message)]
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::Write;
    use crate::testing::errors;

    #[test]
    fn reviews_ask_one_thing_for_someone() {
        let review = json!({"spec": {}});
        assert_eq!(
            errors(
                "authorization.k8s.io",
                "v1",
                "SubjectAccessReview",
                &review,
                Write::Create
            ),
            [
                "spec.resourceAttributes: Invalid value: \"null\": exactly one of nonResourceAttributes or resourceAttributes must be specified",
                "spec.user: Invalid value: \"\": at least one of user or group must be specified",
            ]
        );
        let local =
            json!({"metadata": {"namespace": "a"}, "spec": {"user": "u", "resourceAttributes": {"namespace": "b"}}});
        assert_eq!(
            errors(
                "authorization.k8s.io",
                "v1",
                "LocalSubjectAccessReview",
                &local,
                Write::Create
            ),
            ["spec.resourceAttributes.namespace: Invalid value: \"b\": must match metadata.namespace"]
        );
        // A namespace left out is Go's empty string.
        let unnamed =
            json!({"metadata": {"namespace": "a"}, "spec": {"user": "u", "resourceAttributes": {"verb": "get"}}});
        assert_eq!(
            errors(
                "authorization.k8s.io",
                "v1",
                "LocalSubjectAccessReview",
                &unnamed,
                Write::Create
            ),
            ["spec.resourceAttributes.namespace: Invalid value: \"\": must match metadata.namespace"]
        );
    }
}
