//! `ValidatingAdmissionPolicies` (`ValidateValidatingAdmissionPolicy`, its update and
//! status update) and their bindings (`ValidateValidatingAdmissionPolicyBinding`): the
//! policy's CEL expressions compile against the names the admission plugin declares
//! (`params` with a `paramKind`, `variables` when the policy has some, no `authorizer` in
//! a message expression); an update does not recompile unchanged match conditions.

use std::collections::BTreeSet;

use serde_json::Value;
use wheelhouse_envtest_schema::{PolicyExpression, PolicyType, Returns};

use super::webhooks::{compile, validate_match_conditions};
use super::{FAILURE_POLICIES, MATCH_POLICIES, validate_rule_with_operations};
use crate::common::conditions::validate_conditions;
use crate::common::fields::validate_qualified_name;
use crate::common::go_syntax::{raw, slice, string};
use crate::common::names::{dns1035_label, dns1123_subdomain, name_is_dns_subdomain, path_segment_name};
use crate::common::read::{is_set, items, opt_text, semantic_eq, text};
use crate::field::{ErrorList, Path};
use crate::meta::{validate_label_selector, validate_object_meta};

const MAX_AUDIT_ANNOTATIONS: usize = 20;
const MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION: usize = 5 * 1024;
/// `supportedValidationPolicyReason`, sorted.
const REASONS: [&str; 3] = ["Forbidden", "Invalid", "RequestEntityTooLarge"];
/// CEL's reserved words (`celReserved`).
const CEL_RESERVED: [&str; 22] = [
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
    "",
];

/// The names an expression of a policy sees (`variables` is declared with the
/// variables' types where the policy has some).
fn names(params: bool, authorizer: bool) -> Vec<&'static str> {
    let mut names = vec!["object", "oldObject", "request", "namespaceObject"];
    if authorizer {
        names.push("authorizer");
    }
    if params {
        names.push("params");
    }
    names
}

/// The `ValidatingAdmissionPolicy` strategy's `Validate` and `ValidateUpdate`.
pub(super) fn validate_policy(object: &Value, old: Option<&Value>) -> ErrorList {
    let spec = &object["spec"];
    // `ignoreValidatingAdmissionPolicyMatchConditions`.
    let ignore_match_conditions = old.is_some_and(|old| {
        semantic_eq(&spec["paramKind"], &old["spec"]["paramKind"])
            && semantic_eq(&spec["matchConditions"], &old["spec"]["matchConditions"])
    });
    let mut errors = validate_object_meta(
        &object["metadata"],
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    errors.extend(validate_policy_spec(
        object,
        spec,
        ignore_match_conditions,
        &Path::new("spec"),
    ));
    errors
}

/// `validateValidatingAdmissionPolicySpec` (`failurePolicy` is v1's default, `Fail`,
/// when unset).
#[expect(clippy::too_many_lines, reason = "one Go function, ported whole in its order")]
fn validate_policy_spec(object: &Value, spec: &Value, ignore_match_conditions: bool, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let failure = opt_text(&spec["failurePolicy"]).unwrap_or("Fail");
    if !FAILURE_POLICIES.contains(&failure) {
        errors.push(path.child("failurePolicy").not_supported(failure, &FAILURE_POLICIES));
    }
    let param_kind = &spec["paramKind"];
    let has_params = is_set(param_kind);
    if has_params {
        errors.extend(validate_param_kind(param_kind, &path.child("paramKind")));
    }
    let constraints = &spec["matchConstraints"];
    if is_set(constraints) {
        errors.extend(validate_match_resources(constraints, &path.child("matchConstraints")));
        if items(&constraints["resourceRules"]).is_empty() {
            errors.push(path.child("matchConstraints").child("resourceRules").required(""));
        }
    } else {
        errors.push(path.child("matchConstraints").required(""));
    }
    if !ignore_match_conditions {
        errors.extend(validate_match_conditions(
            &spec["matchConditions"],
            &names(has_params, true),
            &path.child("matchConditions"),
        ));
    }
    let variables = items(&spec["variables"]);
    // With variables, kube compiles in a composition environment: `variables` is an
    // object of the variables compiled so far, each of its expression's type (dynamic
    // where it did not compile), so a later expression can only name an earlier one.
    let mut compiled: Vec<(String, PolicyType)> = Vec::new();
    for (index, variable) in variables.iter().enumerate() {
        let entry = path.child("variables").index(index);
        let name = text(&variable["name"]);
        if name.trim().is_empty() {
            errors.push(entry.child("name").required("name is not specified"));
        } else if !is_cel_identifier(name) {
            errors.push(entry.child("name").invalid(name, "name is not a valid CEL identifier"));
        }
        let expression = text(&variable["expression"]);
        if expression.trim().is_empty() {
            errors.push(entry.child("expression").required("expression is not specified"));
        } else {
            let typed =
                PolicyExpression::compile_typed(expression, &names(has_params, true), Some(&compiled), Returns::Any);
            let ty = match typed {
                Ok((_, ty)) => ty,
                Err(error) => {
                    errors.push(entry.child("expression").invalid(expression, &error));
                    PolicyType::dynamic()
                }
            };
            compiled.push((name.to_owned(), ty));
        }
    }
    let composition = (!variables.is_empty()).then_some(compiled.as_slice());
    let validations = items(&spec["validations"]);
    let annotations = items(&spec["auditAnnotations"]);
    if validations.is_empty() && annotations.is_empty() {
        let message = "validations or auditAnnotations must contain at least one item";
        errors.push(path.child("validations").required(message));
        errors.push(path.child("auditAnnotations").required(message));
        return errors;
    }
    for (index, validation) in validations.iter().enumerate() {
        errors.extend(validate_validation(
            validation,
            has_params,
            composition,
            &path.child("validations").index(index),
        ));
    }
    if is_set(&spec["auditAnnotations"]) {
        if annotations.len() > MAX_AUDIT_ANNOTATIONS {
            let shown = slice(
                "admissionregistration.AuditAnnotation",
                &spec["auditAnnotations"],
                |a| {
                    crate::common::go_syntax::GoStruct::new("admissionregistration.AuditAnnotation")
                        .field("Key", string(&a["key"]))
                        .field("ValueExpression", string(&a["valueExpression"]))
                        .end()
                },
            );
            errors.push(path.child("auditAnnotations").invalid(
                raw(shown),
                &format!("must not have more than {MAX_AUDIT_ANNOTATIONS} auditAnnotations"),
            ));
        }
        let mut keys = BTreeSet::new();
        let name = text(&object["metadata"]["name"]);
        for (index, annotation) in annotations.iter().enumerate() {
            let entry = path.child("auditAnnotations").index(index);
            let key = text(&annotation["key"]);
            if name.is_empty() {
                errors.push(entry.child("key").invalid(key, "requires metadata.name be non-empty"));
            } else {
                errors.extend(validate_qualified_name(&format!("{name}/{key}"), &entry.child("key")));
            }
            let value = text(&annotation["valueExpression"]);
            let trimmed = value.trim();
            let value_path = entry.child("valueExpression");
            if trimmed.is_empty() {
                errors.push(value_path.required("valueExpression is not specified"));
            } else if trimmed.len() > MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION {
                errors.push(value_path.required(&format!(
                    "must not exceed {MAX_AUDIT_ANNOTATION_VALUE_EXPRESSION} bytes in length"
                )));
            } else if let Err(error) =
                PolicyExpression::compile_typed(trimmed, &names(has_params, true), composition, Returns::Any)
            {
                errors.push(value_path.invalid(value, &error));
            }
            if !keys.insert(key) {
                errors.push(entry.child("key").duplicate(key));
            }
        }
    }
    errors
}

/// `isCELIdentifier`.
fn is_cel_identifier(name: &str) -> bool {
    let bytes = name.as_bytes();
    bytes.first().is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
        && bytes.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_')
        && !CEL_RESERVED.contains(&name)
}

/// `validateValidation`.
fn validate_validation(
    validation: &Value,
    params: bool,
    variables: Option<&[(String, PolicyType)]>,
    path: &Path,
) -> ErrorList {
    let mut errors = ErrorList::new();
    let expression = text(&validation["expression"]);
    if expression.trim().is_empty() {
        errors.push(path.child("expression").required("expression is not specified"));
    } else {
        errors.extend(compile(
            expression,
            &names(params, true),
            variables,
            Returns::Bool,
            &path.child("expression"),
        ));
    }
    let message_expression = text(&validation["messageExpression"]);
    if !message_expression.is_empty() && message_expression.trim().is_empty() {
        errors.push(
            path.child("messageExpression")
                .invalid(message_expression, "must be non-empty if specified"),
        );
    } else if !message_expression.trim().is_empty() {
        // kube declares the policy's parameters to a message expression only through
        // its match-condition options, which a policy sets with a `paramKind`.
        errors.extend(compile(
            message_expression,
            &names(params, false),
            variables,
            Returns::String,
            &path.child("messageExpression"),
        ));
    }
    let message = text(&validation["message"]);
    let trimmed = message.trim();
    if !message.is_empty() && trimmed.is_empty() {
        errors.push(
            path.child("message")
                .invalid(message, "message must be non-empty if specified"),
        );
    } else if trimmed.contains(['\n', '\r']) {
        errors.push(
            path.child("message")
                .invalid(message, "message must not contain line breaks"),
        );
    }
    if let Some(reason) = opt_text(&validation["reason"])
        && !REASONS.contains(&reason)
    {
        errors.push(path.child("reason").not_supported(reason, &REASONS));
    }
    errors
}

/// `validateParamKind`.
fn validate_param_kind(kind: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let api_version = text(&kind["apiVersion"]);
    let version_path = path.child("apiVersion");
    if api_version.is_empty() {
        errors.push(version_path.required(""));
    } else {
        match parse_group_version(api_version) {
            Err(error) => errors.push(version_path.invalid(api_version, &error)),
            Ok((group, version)) => {
                if !group.is_empty() {
                    let problems = dns1123_subdomain(group);
                    if !problems.is_empty() {
                        errors.push(version_path.invalid(group, &problems.join(",")));
                    }
                }
                if version.is_empty() {
                    errors.push(version_path.invalid(api_version, "version must be specified"));
                } else {
                    let problems = dns1035_label(version);
                    if !problems.is_empty() {
                        errors.push(version_path.invalid(version, &problems.join(",")));
                    }
                }
            }
        }
    }
    let kind_name = text(&kind["kind"]);
    if kind_name.is_empty() {
        errors.push(path.child("kind").required(""));
    } else {
        let problems = dns1035_label(&kind_name.to_lowercase());
        if !problems.is_empty() {
            errors.push(path.child("kind").invalid(
                kind_name,
                &format!(
                    "may have mixed case, but should otherwise match: {}",
                    problems.join(",")
                ),
            ));
        }
    }
    errors
}

/// `parseGroupVersion`.
fn parse_group_version(text: &str) -> Result<(&str, &str), String> {
    if text.is_empty() || text == "/" {
        return Ok(("", ""));
    }
    match text.matches('/').count() {
        0 => Ok(("", text)),
        1 => Ok(text.split_once('/').unwrap_or(("", text))),
        _ => Err(format!("unexpected GroupVersion string: {text}")),
    }
}

/// `validateMatchResources` (the match policy and selectors take v1's defaults).
fn validate_match_resources(resources: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let policy = opt_text(&resources["matchPolicy"]).unwrap_or("Equivalent");
    if !MATCH_POLICIES.contains(&policy) {
        errors.push(path.child("matchPolicy").not_supported(policy, &MATCH_POLICIES));
    }
    for selector in ["namespaceSelector", "objectSelector"] {
        if is_set(&resources[selector]) {
            errors.extend(validate_label_selector(&resources[selector], &path.child(selector)));
        }
    }
    for list in ["resourceRules", "excludeResourceRules"] {
        for (index, rule) in items(&resources[list]).iter().enumerate() {
            let entry = path.child(list).index(index);
            let mut names = BTreeSet::new();
            for (name_index, name) in items(&rule["resourceNames"]).iter().enumerate() {
                let name = text(name);
                let name_path = entry.child("resourceNames").index(name_index);
                for message in path_segment_name(name) {
                    errors.push(name_path.invalid(name, &message));
                }
                if !names.insert(name) {
                    errors.push(name_path.duplicate(name));
                }
            }
            errors.extend(validate_rule_with_operations(rule, &entry));
        }
    }
    errors
}

/// `ValidateValidatingAdmissionPolicyStatusUpdate`.
pub(super) fn validate_policy_status(status: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let checking = &status["typeChecking"];
    if is_set(checking) {
        for (index, warning) in items(&checking["expressionWarnings"]).iter().enumerate() {
            let entry = path.child("typeChecking").child("expressionWarnings").index(index);
            if text(&warning["warning"]).is_empty() {
                errors.push(entry.child("warning").required(""));
            }
            let field_ref = text(&warning["fieldRef"]).trim();
            if field_ref.is_empty() {
                errors.push(entry.child("fieldRef").required(""));
            }
        }
    }
    errors.extend(validate_conditions(&status["conditions"], &path.child("conditions")));
    errors
}

/// `ValidateValidatingAdmissionPolicyBinding` (also its update, which checks the same).
pub(super) fn validate_binding(object: &Value) -> ErrorList {
    let mut errors = validate_object_meta(
        &object["metadata"],
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let spec = &object["spec"];
    let path = Path::new("spec");
    let policy = text(&spec["policyName"]);
    if policy.is_empty() {
        errors.push(path.child("policyName").required(""));
    } else {
        for message in name_is_dns_subdomain(policy, false) {
            errors.push(path.child("policyName").invalid(policy, &message));
        }
    }
    let reference = &spec["paramRef"];
    if is_set(reference) {
        errors.extend(validate_param_ref(reference, &path.child("paramRef")));
    }
    if is_set(&spec["matchResources"]) {
        errors.extend(validate_match_resources(
            &spec["matchResources"],
            &path.child("matchResources"),
        ));
    }
    errors.extend(validate_validation_actions(
        &spec["validationActions"],
        &path.child("validationActions"),
    ));
    errors
}

/// `validateParamRef`.
fn validate_param_ref(reference: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let name = text(&reference["name"]);
    let selector = &reference["selector"];
    if !name.is_empty() {
        for message in path_segment_name(name) {
            errors.push(path.child("name").invalid(name, &message));
        }
        if is_set(selector) {
            errors.push(path.child("name").forbidden("name and selector are mutually exclusive"));
        }
    }
    if is_set(selector) {
        errors.extend(validate_label_selector(selector, &path.child("selector")));
        if !name.is_empty() {
            errors.push(
                path.child("selector")
                    .forbidden("name and selector are mutually exclusive"),
            );
        }
    }
    if name.is_empty() && !is_set(selector) {
        errors.push(path.required("one of name or selector must be specified"));
    }
    match opt_text(&reference["parameterNotFoundAction"]) {
        None | Some("") => errors.push(path.child("parameterNotFoundAction").required("")),
        Some("Deny" | "Allow") => {}
        Some(action) => errors.push(
            path.child("parameterNotFoundAction")
                .not_supported(action, &["Deny", "Allow"]),
        ),
    }
    errors
}

/// `validateValidationActions`.
fn validate_validation_actions(actions: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut seen = BTreeSet::new();
    for (index, action) in items(actions).iter().enumerate() {
        let action = text(action);
        if !matches!(action, "Audit" | "Deny" | "Warn") {
            errors.push(path.index(index).not_supported(action, &["Audit", "Deny", "Warn"]));
        }
        if !seen.insert(action) {
            errors.push(path.index(index).duplicate(action));
        }
    }
    if seen.contains("Deny") && seen.contains("Warn") {
        let shown = slice("admissionregistration.ValidationAction", actions, string);
        errors.push(path.invalid(
            raw(shown),
            "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
        ));
    }
    if seen.is_empty() {
        errors.push(path.required("at least one validation action is required"));
    }
    errors
}
