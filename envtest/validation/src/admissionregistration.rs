//! The validation of the `admissionregistration.k8s.io` API group's kinds
//! (`pkg/apis/admissionregistration/validation`): `webhooks` holds the webhook
//! configurations, `policies` the `ValidatingAdmissionPolicies` and their bindings (with
//! their CEL expressions compiled, as kube compiles them); the rules both match requests
//! with are here. v1's defaults (`pkg/apis/admissionregistration/v1/defaults.go`) are
//! read in for what an object leaves out.
//!
//! Not ported: `MutatingAdmissionPolicies` and their bindings (alpha in 1.32, off by
//! default there).

mod policies;
mod webhooks;

use std::collections::BTreeSet;

use serde_json::Value;

use crate::common::go_syntax::{raw, slice, string, string_slice};
use crate::common::read::{items, opt_text, text};
use crate::field::{ErrorList, Path};
use crate::{Kind, Write};

/// The errors in `object`, an `admissionregistration.k8s.io` kind written as `write`
/// says.
pub(crate) fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    match (kind.kind, write) {
        ("ValidatingWebhookConfiguration", _) => webhooks::validate(object, write.old(), false),
        ("MutatingWebhookConfiguration", _) => webhooks::validate(object, write.old(), true),
        ("ValidatingAdmissionPolicy", Write::Subresource { name: "status", .. }) => {
            policies::validate_policy_status(&object["status"], &Path::new("status"))
        }
        ("ValidatingAdmissionPolicy", _) => policies::validate_policy(object, write.old()),
        ("ValidatingAdmissionPolicyBinding", _) => policies::validate_binding(object),
        _ => ErrorList::new(),
    }
}

/// `failurePolicy` values (`supportedFailurePolicies`, sorted).
const FAILURE_POLICIES: [&str; 2] = ["Fail", "Ignore"];
/// `matchPolicy` values (`supportedMatchPolicies`, sorted).
const MATCH_POLICIES: [&str; 2] = ["Equivalent", "Exact"];
/// `supportedOperations`, sorted.
const OPERATIONS: [&str; 5] = ["*", "CONNECT", "CREATE", "DELETE", "UPDATE"];
/// `validScopes`, sorted.
const SCOPES: [&str; 3] = ["*", "Cluster", "Namespaced"];

/// `validateRuleWithOperations` (subresources allowed).
fn validate_rule_with_operations(rule: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let operations = items(&rule["operations"]);
    if operations.is_empty() {
        errors.push(path.child("operations").required(""));
    }
    if operations.len() > 1 && operations.iter().any(|o| text(o) == "*") {
        let shown = slice("admissionregistration.OperationType", &rule["operations"], string);
        errors.push(
            path.child("operations")
                .invalid(raw(shown), "if '*' is present, must not specify other operations"),
        );
    }
    for (index, operation) in operations.iter().enumerate() {
        let operation = text(operation);
        if !OPERATIONS.contains(&operation) {
            errors.push(
                path.child("operations")
                    .index(index)
                    .not_supported(operation, &OPERATIONS),
            );
        }
    }
    errors.extend(validate_rule(rule, path));
    errors
}

/// `validateRule`.
fn validate_rule(rule: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    for (field, what) in [("apiGroups", "API groups"), ("apiVersions", "API versions")] {
        let values = items(&rule[field]);
        if values.is_empty() {
            errors.push(path.child(field).required(""));
        }
        if values.len() > 1 && values.iter().any(|v| text(v) == "*") {
            errors.push(path.child(field).invalid(
                raw(string_slice(&rule[field])),
                &format!("if '*' is present, must not specify other {what}"),
            ));
        }
        if field == "apiVersions" {
            for (index, version) in values.iter().enumerate() {
                if text(version).is_empty() {
                    errors.push(path.child(field).index(index).required(""));
                }
            }
        }
    }
    errors.extend(validate_resources(&rule["resources"], &path.child("resources")));
    if let Some(scope) = opt_text(&rule["scope"])
        && !SCOPES.contains(&scope)
    {
        errors.push(path.child("scope").not_supported(scope, &SCOPES));
    }
    errors
}

/// `validateResources`: resources and `resource/subresource`s, with wildcards that
/// do not overlap what else is named.
fn validate_resources(resources: &Value, path: &Path) -> ErrorList {
    let list = items(resources);
    let mut errors = ErrorList::new();
    if list.is_empty() {
        errors.push(path.required(""));
    }
    let mut wildcard_subresources: BTreeSet<&str> = BTreeSet::new();
    let mut wildcard_resources: BTreeSet<&str> = BTreeSet::new();
    let (mut double_wildcard, mut single_wildcard, mut without_subresource) = (false, false, false);
    for (index, entry) in list.iter().enumerate() {
        let entry = text(entry);
        if entry.is_empty() {
            errors.push(path.index(index).required(""));
            continue;
        }
        double_wildcard |= entry == "*/*";
        single_wildcard |= entry == "*";
        let Some((resource, subresource)) = entry.split_once('/') else {
            without_subresource = entry != "*";
            continue;
        };
        if wildcard_subresources.contains(resource) {
            errors.push(path.index(index).invalid(
                entry,
                &format!("if '{resource}/*' is present, must not specify {entry}"),
            ));
        }
        if wildcard_resources.contains(subresource) {
            errors.push(path.index(index).invalid(
                entry,
                &format!("if '*/{subresource}' is present, must not specify {entry}"),
            ));
        }
        if subresource == "*" {
            wildcard_subresources.insert(resource);
        }
        if resource == "*" {
            wildcard_resources.insert(subresource);
        }
    }
    if list.len() > 1 && double_wildcard {
        errors.push(path.invalid(
            raw(string_slice(resources)),
            "if '*/*' is present, must not specify other resources",
        ));
    }
    if single_wildcard && without_subresource {
        errors.push(path.invalid(
            raw(string_slice(resources)),
            "if '*' is present, must not specify other resources without subresources",
        ));
    }
    errors
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::Write;
    use crate::testing::errors;

    #[test]
    fn webhooks_name_a_client_and_their_effects() {
        let configuration = json!({"metadata": {"name": "w"}, "webhooks": [
            {"name": "a.b.c", "clientConfig": {"service": {"namespace": "ns", "path": "x//y", "port": 0}}, "sideEffects": "None",
             "admissionReviewVersions": ["v9"], "rules": [{"operations": ["*", "CREATE"], "apiGroups": [""], "apiVersions": ["v1"], "resources": ["*", "pods"]}]},
        ]});
        assert_eq!(
            errors(
                "admissionregistration.k8s.io",
                "v1",
                "ValidatingWebhookConfiguration",
                &configuration,
                Write::Create
            ),
            [
                "webhooks[0].rules[0].operations: Invalid value: []admissionregistration.OperationType{\"*\", \"CREATE\"}: if '*' is present, must not specify other operations",
                "webhooks[0].rules[0].resources: Invalid value: []string{\"*\", \"pods\"}: if '*' is present, must not specify other resources without subresources",
                "webhooks[0].clientConfig.service.namespace: Required value: service namespace is required",
                "webhooks[0].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive",
                "webhooks[0].clientConfig.service.path: Invalid value: \"x//y\": must start with a '/'",
                "webhooks[0].clientConfig.service.path: Invalid value: \"x//y\": segment[0] may not be empty",
                "webhooks[0].clientConfig.service.path: Invalid value: \"x//y\": segment[1] may not be empty",
                "webhooks[0].admissionReviewVersions: Invalid value: []string{\"v9\"}: must include at least one of v1, v1beta1",
            ]
        );
    }

    #[test]
    fn policies_compile_their_expressions() {
        let policy = json!({"metadata": {"name": "p"}, "spec": {
            "matchConstraints": {"resourceRules": [{"operations": ["CREATE"], "apiGroups": ["apps"], "apiVersions": ["v1"], "resources": ["deployments"]}]},
            "validations": [{"expression": "object.spec.replicas <= 5", "messageExpression": "'too many: ' + string(object.spec.replicas)"}],
            "variables": [{"name": "1x", "expression": "1"}]}});
        assert_eq!(
            errors(
                "admissionregistration.k8s.io",
                "v1",
                "ValidatingAdmissionPolicy",
                &policy,
                Write::Create
            ),
            ["spec.variables[0].name: Invalid value: \"1x\": name is not a valid CEL identifier"]
        );
        let mut broken = policy.clone();
        broken["spec"]["variables"] = json!([]);
        broken["spec"]["validations"][0]["expression"] = json!("object.spec.replicas <");
        let found = errors(
            "admissionregistration.k8s.io",
            "v1",
            "ValidatingAdmissionPolicy",
            &broken,
            Write::Create,
        );
        assert_eq!(found.len(), 1);
        assert!(found[0].starts_with(
            "spec.validations[0].expression: Invalid value: \"object.spec.replicas <\": compilation failed"
        ));
    }

    #[test]
    fn bindings_need_actions_and_a_parameter_source() {
        let binding =
            json!({"metadata": {"name": "b"}, "spec": {"policyName": "p", "paramRef": {"name": "a", "selector": {}}}});
        assert_eq!(
            errors(
                "admissionregistration.k8s.io",
                "v1",
                "ValidatingAdmissionPolicyBinding",
                &binding,
                Write::Create
            ),
            [
                "spec.paramRef.name: Forbidden: name and selector are mutually exclusive",
                "spec.paramRef.selector: Forbidden: name and selector are mutually exclusive",
                "spec.paramRef.parameterNotFoundAction: Required value",
                "spec.validationActions: Required value: at least one validation action is required",
            ]
        );
    }
}
