//! The validation of admissionregistration.k8s.io/v1 objects, as kube-apiserver's
//! `pkg/apis/admissionregistration/validation` words it: webhook configurations
//! (qualified, unique webhook names, `sideEffects` and `admissionReviewVersions` as v1
//! requires them, one of `url` (https only) or `service`, known policies and a
//! timeout within 1..=30 s), `ValidatingAdmissionPolicy`
//! (its CEL expressions must compile, its failure policy and reasons be known) and
//! its bindings (known, non-repeating `validationActions`, a `paramRef` that names a
//! name or a selector and what to do when nothing is found).

use serde_json::Value;
use wheelhouse_envtest_schema::{PolicyExpression, Returns};

use crate::core::ResourceType;

/// One violation: (field, reason, detail) as kube-apiserver words it.
type Violation = (String, &'static str, String);

fn required(field: impl Into<String>, detail: &str) -> Violation {
    let detail = if detail.is_empty() {
        "Required value".to_owned()
    } else {
        format!("Required value: {detail}")
    };
    (field.into(), "FieldValueRequired", detail)
}

fn invalid(field: impl Into<String>, value: &Value, detail: &str) -> Violation {
    (
        field.into(),
        "FieldValueInvalid",
        format!("Invalid value: {value}: {detail}"),
    )
}

fn not_supported(field: impl Into<String>, value: &Value, supported: &[&str]) -> Violation {
    let supported: Vec<String> = supported.iter().map(|s| format!("\"{s}\"")).collect();
    (
        field.into(),
        "FieldValueNotSupported",
        format!("Unsupported value: {value}: supported values: {}", supported.join(", ")),
    )
}

/// The names a policy's expressions may use (`params` only with a `paramKind`),
/// as the admission plugin declares them.
pub(crate) fn declared_names(has_params: bool) -> Vec<&'static str> {
    let mut names = vec![
        "object",
        "oldObject",
        "request",
        "namespaceObject",
        "variables",
        "authorizer",
    ];
    if has_params {
        names.push("params");
    }
    names
}

/// The rules an admissionregistration.k8s.io object breaks.
pub(crate) fn violations(resource: &ResourceType, object: &Value) -> Vec<Violation> {
    let mut found = Vec::new();
    if resource.group != "admissionregistration.k8s.io" || resource.version != "v1" {
        return found;
    }
    match resource.kind.as_str() {
        "ValidatingAdmissionPolicy" => policy(&object["spec"], &mut found),
        "ValidatingAdmissionPolicyBinding" => binding(&object["spec"], &mut found),
        "ValidatingWebhookConfiguration" => webhooks(object, false, &mut found),
        "MutatingWebhookConfiguration" => webhooks(object, true, &mut found),
        _ => {}
    }
    found
}

/// `validateValidatingAdmissionPolicySpec`.
fn policy(spec: &Value, found: &mut Vec<Violation>) {
    let failure = &spec["failurePolicy"];
    if !failure.is_null() && failure != "Fail" && failure != "Ignore" {
        found.push(not_supported("spec.failurePolicy", failure, &["Fail", "Ignore"]));
    }
    let kind = &spec["paramKind"];
    if kind.is_object() {
        for field in ["apiVersion", "kind"] {
            if kind[field].as_str().is_none_or(str::is_empty) {
                found.push(required(format!("spec.paramKind.{field}"), ""));
            }
        }
    }
    if !spec["matchConstraints"].is_object() {
        found.push(required("spec.matchConstraints", ""));
    } else if spec["matchConstraints"]["resourceRules"]
        .as_array()
        .is_none_or(Vec::is_empty)
    {
        found.push(required("spec.matchConstraints.resourceRules", ""));
    }
    let empty = |field: &str| spec[field].as_array().is_none_or(Vec::is_empty);
    if empty("validations") && empty("auditAnnotations") {
        found.push(required(
            "spec.validations",
            "validations or auditAnnotations must contain at least one item",
        ));
    }
    let names = declared_names(kind.is_object());
    let compile = |path: String, source: &Value, returns: Returns, found: &mut Vec<Violation>| match source.as_str() {
        None | Some("") => found.push(required(path, "")),
        Some(text) => {
            if let Err(error) = PolicyExpression::compile(text, &names, returns) {
                found.push(invalid(path, source, &error));
            }
        }
    };
    for (index, variable) in spec["variables"].as_array().into_iter().flatten().enumerate() {
        let path = format!("spec.variables[{index}]");
        if variable["name"].as_str().is_none_or(str::is_empty) {
            found.push(required(format!("{path}.name"), ""));
        }
        compile(
            format!("{path}.expression"),
            &variable["expression"],
            Returns::Any,
            found,
        );
    }
    for (index, condition) in spec["matchConditions"].as_array().into_iter().flatten().enumerate() {
        let path = format!("spec.matchConditions[{index}]");
        if condition["name"].as_str().is_none_or(str::is_empty) {
            found.push(required(format!("{path}.name"), ""));
        }
        compile(
            format!("{path}.expression"),
            &condition["expression"],
            Returns::Bool,
            found,
        );
    }
    for (index, validation) in spec["validations"].as_array().into_iter().flatten().enumerate() {
        let path = format!("spec.validations[{index}]");
        compile(
            format!("{path}.expression"),
            &validation["expression"],
            Returns::Bool,
            found,
        );
        let message = &validation["messageExpression"];
        if message.as_str().is_some_and(|m| !m.trim().is_empty()) {
            compile(format!("{path}.messageExpression"), message, Returns::String, found);
        }
        let reason = &validation["reason"];
        let reasons = ["Unauthorized", "Forbidden", "Invalid", "RequestEntityTooLarge"];
        if !reason.is_null() && !reasons.iter().any(|r| reason == r) {
            found.push(not_supported(format!("{path}.reason"), reason, &reasons));
        }
    }
}

/// `validateValidatingAdmissionPolicyBindingSpec`.
fn binding(spec: &Value, found: &mut Vec<Violation>) {
    if spec["policyName"].as_str().is_none_or(str::is_empty) {
        found.push(required("spec.policyName", ""));
    }
    let actions = spec["validationActions"].as_array().cloned().unwrap_or_default();
    if actions.is_empty() {
        found.push(required("spec.validationActions", ""));
    }
    let mut seen: Vec<&Value> = Vec::new();
    for (index, action) in actions.iter().enumerate() {
        let path = format!("spec.validationActions[{index}]");
        if seen.contains(&action) {
            found.push((path, "FieldValueDuplicate", format!("Duplicate value: {action}")));
            continue;
        }
        seen.push(action);
        if !["Deny", "Warn", "Audit"].iter().any(|known| action == known) {
            found.push(not_supported(path, action, &["Audit", "Deny", "Warn"]));
        }
    }
    let has = |name: &str| actions.iter().any(|a| a == name);
    if has("Deny") && has("Warn") {
        found.push(invalid(
            "spec.validationActions",
            &Value::Array(actions.clone()),
            "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
        ));
    }
    let reference = &spec["paramRef"];
    if reference.is_object() {
        let named = reference["name"].as_str().is_some_and(|n| !n.is_empty());
        let selected = reference["selector"].is_object();
        if named && selected {
            found.push((
                "spec.paramRef.name".to_owned(),
                "FieldValueForbidden",
                "Forbidden: name and selector are mutually exclusive".to_owned(),
            ));
        }
        if !named && !selected {
            found.push(required("spec.paramRef", "one of name or selector must be specified"));
        }
        let action = &reference["parameterNotFoundAction"];
        if action.is_null() {
            found.push(required("spec.paramRef.parameterNotFoundAction", ""));
        } else if action != "Deny" && action != "Allow" {
            found.push(not_supported(
                "spec.paramRef.parameterNotFoundAction",
                action,
                &["Allow", "Deny"],
            ));
        }
    }
}

/// `validateValidatingWebhookConfiguration` / `validateMutatingWebhookConfiguration`
/// with the v1 rules (`sideEffects` and `admissionReviewVersions` required).
fn webhooks(object: &Value, mutating: bool, found: &mut Vec<Violation>) {
    let mut names: Vec<&str> = Vec::new();
    for (index, hook) in object["webhooks"].as_array().into_iter().flatten().enumerate() {
        let path = format!("webhooks[{index}]");
        let name = hook["name"].as_str().unwrap_or_default();
        if name.is_empty() {
            found.push(required(format!("{path}.name"), ""));
        } else if names.contains(&name) {
            found.push((
                format!("{path}.name"),
                "FieldValueDuplicate",
                format!("Duplicate value: {}", Value::from(name)),
            ));
        } else if name.split('.').count() < 3 {
            found.push(invalid(
                format!("{path}.name"),
                &hook["name"],
                "should be a domain with at least three segments separated by dots",
            ));
        }
        names.push(name);
        let side_effects = &hook["sideEffects"];
        match side_effects.as_str() {
            None => found.push(required(
                format!("{path}.sideEffects"),
                "must specify one of None, NoneOnDryRun",
            )),
            Some("None" | "NoneOnDryRun") => {}
            Some(_) => found.push(not_supported(
                format!("{path}.sideEffects"),
                side_effects,
                &["None", "NoneOnDryRun"],
            )),
        }
        review_versions(hook, &path, found);
        client_config(&hook["clientConfig"], &format!("{path}.clientConfig"), found);
        let known = |field: &str, allowed: &[&str], found: &mut Vec<Violation>| {
            let value = &hook[field];
            if !value.is_null() && !allowed.iter().any(|a| value == a) {
                found.push(not_supported(format!("{path}.{field}"), value, allowed));
            }
        };
        known("failurePolicy", &["Fail", "Ignore"], found);
        known("matchPolicy", &["Equivalent", "Exact"], found);
        if mutating {
            known("reinvocationPolicy", &["IfNeeded", "Never"], found);
        }
        let timeout = &hook["timeoutSeconds"];
        if timeout.as_i64().is_some_and(|t| !(1..=30).contains(&t)) {
            found.push(invalid(
                format!("{path}.timeoutSeconds"),
                timeout,
                "the timeout value must be between 1 and 30 seconds",
            ));
        }
    }
}

/// `admissionReviewVersions`: required in v1, and one of them must be known.
fn review_versions(hook: &Value, path: &str, found: &mut Vec<Violation>) {
    let field = format!("{path}.admissionReviewVersions");
    let versions: Vec<&str> = hook["admissionReviewVersions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    if versions.is_empty() {
        found.push(required(field, "must specify one of v1, v1beta1"));
    } else if !versions.iter().any(|v| matches!(*v, "v1" | "v1beta1")) {
        // Go prints the list as `[]string{"v2"}`.
        let quoted: Vec<String> = versions.iter().map(|v| format!("\"{v}\"")).collect();
        found.push((
            field,
            "FieldValueInvalid",
            format!(
                "Invalid value: []string{{{}}}: must include at least one of v1, v1beta1",
                quoted.join(", ")
            ),
        ));
    }
}

/// `ValidateWebhookClientConfig`: exactly one of `url` and `service`; a URL is https,
/// with a host and no user, query or fragment; a service has a name, a namespace, a
/// path starting with `/` and a valid port.
fn client_config(config: &Value, path: &str, found: &mut Vec<Violation>) {
    let url = &config["url"];
    let service = &config["service"];
    match (url.as_str(), service.is_object()) {
        (Some(_), true) | (None, false) => {
            found.push(required(path.to_owned(), "exactly one of url or service is required"));
        }
        (Some(text), false) => {
            // `webhook.ValidateWebhookURL`, whose values are the offending parts.
            const FORM: &str = "; desired format: https://host[/path]";
            let field = format!("{path}.url");
            let (scheme, rest) = text.split_once("://").unwrap_or(("", ""));
            let (rest, fragment) = rest.split_once('#').unwrap_or((rest, ""));
            let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
            let authority = rest.split('/').next().unwrap_or_default();
            let (user, host) = authority
                .rsplit_once('@')
                .map_or((None, authority), |(u, h)| (Some(u), h));
            if scheme != "https" {
                let detail = format!("'https' is the only allowed URL scheme{FORM}");
                found.push(invalid(field.clone(), &Value::from(scheme), &detail));
            }
            if host.is_empty() {
                let detail = format!("host must be specified{FORM}");
                found.push(invalid(field.clone(), &Value::from(""), &detail));
            }
            if let Some(user) = user {
                let detail = "user information is not permitted in the URL";
                found.push(invalid(field.clone(), &Value::from(user), detail));
            }
            if !fragment.is_empty() {
                let detail = "fragments are not permitted in the URL";
                found.push(invalid(field.clone(), &Value::from(fragment), detail));
            }
            if !query.is_empty() {
                let detail = "query parameters are not permitted in the URL";
                found.push(invalid(field, &Value::from(query), detail));
            }
        }
        (None, true) => {
            let field = format!("{path}.service");
            for key in ["name", "namespace"] {
                if service[key].as_str().is_none_or(str::is_empty) {
                    found.push(required(
                        format!("{field}.{key}"),
                        &format!("service {key} is required"),
                    ));
                }
            }
            let service_path = &service["path"];
            if service_path
                .as_str()
                .is_some_and(|p| !p.is_empty() && !p.starts_with('/'))
            {
                found.push(invalid(format!("{field}.path"), service_path, "must start with a '/'"));
            }
            let port = &service["port"];
            if port.as_i64().is_some_and(|p| !(1..=65535).contains(&p)) {
                found.push(invalid(
                    format!("{field}.port"),
                    port,
                    "port is not valid: must be between 1 and 65535, inclusive",
                ));
            }
        }
    }
}
