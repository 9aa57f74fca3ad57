//! The validation of the `rbac.authorization.k8s.io` API group's kinds
//! (`pkg/apis/rbac/validation`): Roles, `ClusterRoles` and their bindings. Their names
//! are only path segments (`ValidateRBACName`), so `system:controller:x` is a valid
//! name; v1's defaults (`pkg/apis/rbac/v1/defaults.go`: a binding's `roleRef.apiGroup`
//! and a User's or Group's `apiGroup`) are read in when the object leaves them out.

use serde_json::Value;

use crate::common::go_syntax::{GoStruct, raw, string};
use crate::common::labels::label_selector_as_selector;
use crate::common::names::{name_is_dns_subdomain, path_segment_name};
use crate::common::read::{is_set, items, text};
use crate::core::{validate_object_meta, validate_object_meta_update};
use crate::field::{ErrorList, Path};
use crate::meta::validate_label_selector;
use crate::{Kind, Write};

/// The API group of RBAC (`rbac.GroupName`).
const GROUP: &str = "rbac.authorization.k8s.io";

/// `ValidateRBACName`: a path segment, generated or not.
pub(crate) fn validate_rbac_name(name: &str, _prefix: bool) -> Vec<String> {
    path_segment_name(name)
}

/// The errors in `object`, an RBAC kind written as `write` says.
pub(crate) fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    let mut errors = match kind.kind {
        "Role" => validate_role(object, true),
        "ClusterRole" => validate_role(object, false),
        "RoleBinding" => validate_role_binding(object, true),
        "ClusterRoleBinding" => validate_role_binding(object, false),
        _ => return ErrorList::new(),
    };
    if let Some(old) = write.old() {
        // The strategy validated the object; `Validate*Update` validates it again
        // before its own checks, so each error is listed twice, as 1.32 lists it.
        let again = errors.clone();
        errors.extend(again);
        errors.extend(validate_object_meta_update(
            &object["metadata"],
            &old["metadata"],
            &Path::new("metadata"),
        ));
        let binding = kind.kind.ends_with("Binding");
        let role_ref = role_ref(&object["roleRef"]);
        if binding && role_ref != self::role_ref(&old["roleRef"]) {
            let shown = GoStruct::new("rbac.RoleRef")
                .field("APIGroup", string(&Value::from(role_ref.0)))
                .field("Kind", string(&Value::from(role_ref.1)))
                .field("Name", string(&Value::from(role_ref.2)))
                .end();
            errors.push(Path::new("roleRef").invalid(raw(shown), "cannot change roleRef"));
        }
    }
    errors
}

/// A binding's role reference, its API group defaulted.
fn role_ref(reference: &Value) -> (&str, &str, &str) {
    let group = match text(&reference["apiGroup"]) {
        "" => GROUP,
        group => group,
    };
    (group, text(&reference["kind"]), text(&reference["name"]))
}

/// `ValidateRole` (`namespaced`) and `ValidateClusterRole`.
fn validate_role(object: &Value, namespaced: bool) -> ErrorList {
    let mut errors = validate_object_meta(
        &object["metadata"],
        namespaced,
        validate_rbac_name,
        &Path::new("metadata"),
    );
    for (index, rule) in items(&object["rules"]).iter().enumerate() {
        errors.extend(validate_policy_rule(rule, namespaced, &Path::new("rules").index(index)));
    }
    let aggregation = &object["aggregationRule"];
    if !namespaced && is_set(aggregation) {
        let path = Path::from_parts(&["aggregationRule", "clusterRoleSelectors"]);
        let selectors = items(&aggregation["clusterRoleSelectors"]);
        if selectors.is_empty() {
            errors.push(path.required("at least one clusterRoleSelector required if aggregationRule is non-nil"));
        }
        for (index, selector) in selectors.iter().enumerate() {
            errors.extend(validate_label_selector(selector, &path.index(index)));
            if label_selector_as_selector(selector).is_err() {
                // Go shows the failed conversion's nil selector.
                errors.push(
                    path.index(index)
                        .invalid(raw("\"null\"".to_owned()), "invalid label selector."),
                );
            }
        }
    }
    errors
}

/// `ValidatePolicyRule`.
fn validate_policy_rule(rule: &Value, namespaced: bool, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let has = |field: &str| !items(&rule[field]).is_empty();
    if !has("verbs") {
        errors.push(path.child("verbs").required("verbs must contain at least one value"));
    }
    if has("nonResourceURLs") {
        let urls = &rule["nonResourceURLs"];
        let shown = || raw(crate::common::go_syntax::string_slice(urls));
        if namespaced {
            errors.push(
                path.child("nonResourceURLs")
                    .invalid(shown(), "namespaced rules cannot apply to non-resource URLs"),
            );
        }
        if has("apiGroups") || has("resources") || has("resourceNames") {
            errors.push(path.child("nonResourceURLs").invalid(
                shown(),
                "rules cannot apply to both regular resources and non-resource URLs",
            ));
        }
        return errors;
    }
    if !has("apiGroups") {
        errors.push(
            path.child("apiGroups")
                .required("resource rules must supply at least one api group"),
        );
    }
    if !has("resources") {
        errors.push(
            path.child("resources")
                .required("resource rules must supply at least one resource"),
        );
    }
    errors
}

/// `ValidateRoleBinding` (`namespaced`) and `ValidateClusterRoleBinding`.
fn validate_role_binding(object: &Value, namespaced: bool) -> ErrorList {
    let mut errors = validate_object_meta(
        &object["metadata"],
        namespaced,
        validate_rbac_name,
        &Path::new("metadata"),
    );
    let (group, kind, name) = role_ref(&object["roleRef"]);
    let path = Path::new("roleRef");
    if group != GROUP {
        errors.push(path.child("apiGroup").not_supported(group, &[GROUP]));
    }
    let kinds: &[&str] = if namespaced {
        &["Role", "ClusterRole"]
    } else {
        &["ClusterRole"]
    };
    if !kinds.contains(&kind) {
        errors.push(path.child("kind").not_supported(kind, kinds));
    }
    if name.is_empty() {
        errors.push(path.child("name").required(""));
    } else {
        for message in validate_rbac_name(name, false) {
            errors.push(path.child("name").invalid(name, &message));
        }
    }
    for (index, subject) in items(&object["subjects"]).iter().enumerate() {
        errors.extend(validate_subject(
            subject,
            namespaced,
            &Path::new("subjects").index(index),
        ));
    }
    errors
}

/// `ValidateRoleBindingSubject`.
fn validate_subject(subject: &Value, namespaced: bool, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let name = text(&subject["name"]);
    if name.is_empty() {
        errors.push(path.child("name").required(""));
    }
    let kind = text(&subject["kind"]);
    let group = text(&subject["apiGroup"]);
    match kind {
        "ServiceAccount" => {
            if !name.is_empty() {
                for message in name_is_dns_subdomain(name, false) {
                    errors.push(path.child("name").invalid(name, &message));
                }
            }
            if !group.is_empty() {
                errors.push(path.child("apiGroup").not_supported(group, &[""]));
            }
            if !namespaced && text(&subject["namespace"]).is_empty() {
                errors.push(path.child("namespace").required(""));
            }
        }
        "User" | "Group" => {
            // v1 defaults an empty group to RBAC's.
            if !group.is_empty() && group != GROUP {
                errors.push(path.child("apiGroup").not_supported(group, &[GROUP]));
            }
        }
        other => errors.push(
            path.child("kind")
                .not_supported(other, &["ServiceAccount", "User", "Group"]),
        ),
    }
    errors
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::Write;
    use crate::testing::errors;

    #[test]
    fn names_are_path_segments() {
        assert!(super::validate_rbac_name("system:controller:x", false).is_empty());
        assert_eq!(super::validate_rbac_name("a%b", true), ["may not contain '%'"]);
    }

    #[test]
    fn bindings_name_a_role_and_subjects() {
        let binding = json!({"metadata": {"name": "b"}, "roleRef": {"kind": "ClusterRole", "name": "view"},
            "subjects": [{"kind": "User", "name": "u"}, {"kind": "ServiceAccount", "name": "Bad_SA", "apiGroup": "g"}]});
        assert_eq!(
            errors(
                "rbac.authorization.k8s.io",
                "v1",
                "RoleBinding",
                &binding,
                Write::Create
            ),
            [
                "subjects[1].name: Invalid value: \"Bad_SA\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                "subjects[1].apiGroup: Unsupported value: \"g\": supported values: \"\"",
            ]
        );
        let mut changed = binding.clone();
        changed["roleRef"]["name"] = json!("edit");
        changed["subjects"] = json!([]);
        let old = json!({"metadata": {"name": "b"}, "roleRef": {"kind": "ClusterRole", "name": "view"}});
        assert_eq!(
            errors(
                "rbac.authorization.k8s.io",
                "v1",
                "RoleBinding",
                &changed,
                Write::Update { old: &old }
            ),
            [
                "roleRef: Invalid value: rbac.RoleRef{APIGroup:\"rbac.authorization.k8s.io\", Kind:\"ClusterRole\", Name:\"edit\"}: cannot change roleRef"
            ]
        );
    }

    /// An update reports each error of the new object as often as 1.32 does: the
    /// common metadata checks twice, the strategy's validation, and the update
    /// validation's own pass (5 for a bad label, checked against a real server).
    #[test]
    fn an_update_lists_each_validation_kube_runs() {
        let role = |labels: Value| json!({"metadata": {"name": "r", "namespace": "ns", "uid": "u", "resourceVersion": "1", "labels": labels}});
        let found = errors(
            "rbac.authorization.k8s.io",
            "v1",
            "Role",
            &role(json!({"-a": "b"})),
            Write::Update { old: &role(json!({})) },
        );
        assert_eq!(
            found.iter().filter(|e| e.starts_with("metadata.labels")).count(),
            5,
            "{found:?}"
        );
    }

    #[test]
    fn cluster_roles_aggregate_by_selectors() {
        let role = json!({"metadata": {"name": "r"}, "aggregationRule": {"clusterRoleSelectors": [{"matchExpressions": [{"key": "a", "operator": "Bogus"}]}]}});
        assert_eq!(
            errors("rbac.authorization.k8s.io", "v1", "ClusterRole", &role, Write::Create),
            [
                "aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator: Invalid value: \"Bogus\": not a valid selector operator",
                "aggregationRule.clusterRoleSelectors[0]: Invalid value: \"null\": invalid label selector.",
            ]
        );
    }
}
