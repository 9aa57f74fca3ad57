//! Webhook configurations: `ValidateValidatingWebhookConfiguration`,
//! `ValidateMutatingWebhookConfiguration` and their updates, which relax the rules a
//! stored configuration already broke (side effects, review versions, unique names)
//! and skip match conditions that did not change.

use std::collections::BTreeSet;

use serde_json::Value;
use wheelhouse_envtest_schema::{PolicyExpression, PolicyType, Returns};

use super::{FAILURE_POLICIES, MATCH_POLICIES, validate_rule_with_operations};
use crate::common::fields::validate_qualified_name;
use crate::common::go_syntax::{raw, string_slice};
use crate::common::names::{dns1035_label, dns1123_subdomain, name_is_dns_subdomain, port_number};
use crate::common::read::{is_set, items, opt_int, opt_text, text};
use crate::field::{ErrorList, Path};
use crate::meta::{validate_label_selector, validate_object_meta};

/// The `AdmissionReview` versions the server can send (`AcceptedAdmissionReviewVersions`).
const REVIEW_VERSIONS: [&str; 2] = ["v1", "v1beta1"];
/// `noSideEffectClasses`, sorted.
const NO_SIDE_EFFECTS: [&str; 2] = ["None", "NoneOnDryRun"];
/// `supportedSideEffectClasses`, sorted.
const SIDE_EFFECTS: [&str; 4] = ["None", "NoneOnDryRun", "Some", "Unknown"];
/// The names a webhook's match conditions may use (no parameters).
pub(super) const MATCH_CONDITION_NAMES: [&str; 5] = ["object", "oldObject", "request", "namespaceObject", "authorizer"];

/// `validationOptions` of a webhook configuration.
#[derive(Debug, Clone, Copy)]
#[expect(clippy::struct_excessive_bools, reason = "kube's options, one flag per rule")]
struct Options {
    ignore_match_conditions: bool,
    require_no_side_effects: bool,
    require_recognized_review_version: bool,
    require_unique_names: bool,
}

/// The webhook configuration strategies' `Validate` and `ValidateUpdate`.
pub(super) fn validate(object: &Value, old: Option<&Value>, mutating: bool) -> ErrorList {
    let hooks = items(&object["webhooks"]);
    let options = match old {
        None => Options {
            ignore_match_conditions: false,
            require_no_side_effects: true,
            require_recognized_review_version: true,
            require_unique_names: true,
        },
        Some(old) => {
            let old_hooks = items(&old["webhooks"]);
            Options {
                ignore_match_conditions: hooks.len() == old_hooks.len()
                    && hooks
                        .iter()
                        .zip(old_hooks)
                        .all(|(a, b)| a["matchConditions"] == b["matchConditions"]),
                require_no_side_effects: old_hooks
                    .iter()
                    .all(|h| opt_text(&h["sideEffects"]).is_some_and(|s| NO_SIDE_EFFECTS.contains(&s))),
                require_recognized_review_version: old_hooks.iter().all(|h| {
                    let versions = items(&h["admissionReviewVersions"]);
                    versions.is_empty() || versions.iter().any(|v| REVIEW_VERSIONS.contains(&text(v)))
                }),
                require_unique_names: {
                    let names: Vec<&str> = old_hooks.iter().map(|h| text(&h["name"])).collect();
                    names.iter().enumerate().all(|(i, n)| !names[..i].contains(n))
                },
            }
        }
    };
    let mut errors = validate_object_meta(
        &object["metadata"],
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let mut names = BTreeSet::new();
    for (index, hook) in hooks.iter().enumerate() {
        let path = Path::new("webhooks").index(index);
        errors.extend(validate_webhook(hook, options, mutating, &path));
        errors.extend(validate_review_versions(
            &hook["admissionReviewVersions"],
            options.require_recognized_review_version,
            &path.child("admissionReviewVersions"),
        ));
        let name = text(&hook["name"]);
        if options.require_unique_names && !name.is_empty() && !names.insert(name) {
            errors.push(path.child("name").duplicate(name));
        }
    }
    errors
}

/// `validateValidatingWebhook` and `validateMutatingWebhook`.
fn validate_webhook(hook: &Value, options: Options, mutating: bool, path: &Path) -> ErrorList {
    let mut errors = fully_qualified_name(&path.child("name"), text(&hook["name"]));
    for (index, rule) in items(&hook["rules"]).iter().enumerate() {
        errors.extend(validate_rule_with_operations(rule, &path.child("rules").index(index)));
    }
    if let Some(policy) = opt_text(&hook["failurePolicy"])
        && !FAILURE_POLICIES.contains(&policy)
    {
        errors.push(path.child("failurePolicy").not_supported(policy, &FAILURE_POLICIES));
    }
    if let Some(policy) = opt_text(&hook["matchPolicy"])
        && !MATCH_POLICIES.contains(&policy)
    {
        errors.push(path.child("matchPolicy").not_supported(policy, &MATCH_POLICIES));
    }
    let allowed: &[&str] = if options.require_no_side_effects {
        &NO_SIDE_EFFECTS
    } else {
        &SIDE_EFFECTS
    };
    match opt_text(&hook["sideEffects"]) {
        None => errors.push(
            path.child("sideEffects")
                .required(&format!("must specify one of {}", allowed.join(", "))),
        ),
        Some(effects) if !allowed.contains(&effects) => {
            errors.push(path.child("sideEffects").not_supported(effects, allowed));
        }
        Some(_) => {}
    }
    if let Some(timeout) = opt_int(&hook["timeoutSeconds"]).filter(|t| !(1..=30).contains(t)) {
        errors.push(path.child("timeoutSeconds").invalid(
            &Value::from(timeout),
            "the timeout value must be between 1 and 30 seconds",
        ));
    }
    for selector in ["namespaceSelector", "objectSelector"] {
        if is_set(&hook[selector]) {
            errors.extend(validate_label_selector(&hook[selector], &path.child(selector)));
        }
    }
    if mutating
        && let Some(policy) = opt_text(&hook["reinvocationPolicy"])
        && !matches!(policy, "IfNeeded" | "Never")
    {
        errors.push(
            path.child("reinvocationPolicy")
                .not_supported(policy, &["IfNeeded", "Never"]),
        );
    }
    let config = &hook["clientConfig"];
    let config_path = path.child("clientConfig");
    match (opt_text(&config["url"]), is_set(&config["service"])) {
        (Some(_), true) | (None, false) => {
            errors.push(config_path.required("exactly one of url or service is required"));
        }
        (Some(url), false) => errors.extend(validate_webhook_url(&config_path.child("url"), url)),
        (None, true) => {
            let service = &config["service"];
            // kube passes the name and namespace in each other's place
            // (`ValidateWebhookService(path, name, namespace, ...)` takes the namespace
            // first), so each is reported under the other's message.
            errors.extend(validate_webhook_service(
                &config_path.child("service"),
                text(&service["name"]),
                text(&service["namespace"]),
                opt_text(&service["path"]),
                opt_int(&service["port"]).unwrap_or(443),
            ));
        }
    }
    if !options.ignore_match_conditions {
        errors.extend(validate_match_conditions(
            &hook["matchConditions"],
            &MATCH_CONDITION_NAMES,
            &path.child("matchConditions"),
        ));
    }
    errors
}

/// `IsFullyQualifiedName`: a DNS subdomain of at least three labels.
fn fully_qualified_name(path: &Path, name: &str) -> ErrorList {
    if name.is_empty() {
        return vec![path.required("")];
    }
    let problems = dns1123_subdomain(name);
    if !problems.is_empty() {
        return vec![path.invalid(name, &problems.join(","))];
    }
    if name.split('.').count() < 3 {
        return vec![path.invalid(
            name,
            "should be a domain with at least three segments separated by dots",
        )];
    }
    ErrorList::new()
}

/// `validateAdmissionReviewVersions`.
fn validate_review_versions(versions: &Value, require_recognized: bool, path: &Path) -> ErrorList {
    let list = items(versions);
    if list.is_empty() {
        return vec![path.required(&format!("must specify one of {}", REVIEW_VERSIONS.join(", ")))];
    }
    let mut errors = ErrorList::new();
    let mut seen = BTreeSet::new();
    let mut recognized = false;
    for (index, version) in list.iter().enumerate() {
        let version = text(version);
        if !seen.insert(version) {
            errors.push(path.index(index).invalid(version, "duplicate version"));
            continue;
        }
        for message in dns1035_label(version) {
            errors.push(path.index(index).invalid(version, &message));
        }
        recognized |= REVIEW_VERSIONS.contains(&version);
    }
    if require_recognized && !recognized {
        errors.push(path.invalid(
            raw(string_slice(versions)),
            &format!("must include at least one of {}", REVIEW_VERSIONS.join(", ")),
        ));
    }
    errors
}

/// apiserver's `webhook.ValidateWebhookURL` (https required), reading the URL as Go's
/// `url.Parse` splits it.
fn validate_webhook_url(path: &Path, url: &str) -> ErrorList {
    const FORM: &str = "; desired format: https://host[/path]";
    let mut errors = ErrorList::new();
    let (rest, fragment) = url.split_once('#').unwrap_or((url, ""));
    let (scheme, rest) = match rest.split_once(':') {
        Some((scheme, rest))
            if scheme.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')) =>
        {
            (scheme.to_ascii_lowercase(), rest)
        }
        _ => (String::new(), rest),
    };
    let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
    let authority = rest
        .strip_prefix("//")
        .map(|after| after.split('/').next().unwrap_or_default());
    let (user, host) = match authority {
        Some(authority) => match authority.rsplit_once('@') {
            Some((user, host)) => (Some(user), host),
            None => (None, authority),
        },
        None => (None, ""),
    };
    if scheme != "https" {
        errors.push(path.invalid(
            scheme.as_str(),
            &format!("'https' is the only allowed URL scheme{FORM}"),
        ));
    }
    if host.is_empty() {
        errors.push(path.invalid(host, &format!("host must be specified{FORM}")));
    }
    if let Some(user) = user {
        errors.push(path.invalid(user, "user information is not permitted in the URL"));
    }
    if !fragment.is_empty() {
        errors.push(path.invalid(fragment, "fragments are not permitted in the URL"));
    }
    if !query.is_empty() {
        errors.push(path.invalid(query, "query parameters are not permitted in the URL"));
    }
    errors
}

/// apiserver's `webhook.ValidateWebhookService(path, namespace, name, path, port)`.
fn validate_webhook_service(path: &Path, namespace: &str, name: &str, url_path: Option<&str>, port: i64) -> ErrorList {
    let mut errors = ErrorList::new();
    if name.is_empty() {
        errors.push(path.child("name").required("service name is required"));
    }
    if namespace.is_empty() {
        errors.push(path.child("namespace").required("service namespace is required"));
    }
    let problems = port_number(port);
    if !problems.is_empty() {
        errors.push(path.child("port").invalid(
            &Value::from(port),
            &format!("port is not valid: {}", problems.join(", ")),
        ));
    }
    let Some(url_path) = url_path.filter(|p| !p.is_empty() && *p != "/") else {
        return errors;
    };
    let path_field = path.child("path");
    if url_path == "//" {
        errors.push(path_field.invalid(url_path, "segment[0] may not be empty"));
        return errors;
    }
    if !url_path.starts_with('/') {
        errors.push(path_field.invalid(url_path, "must start with a '/'"));
    }
    let mut check = url_path.get(1..).unwrap_or_default();
    check = check.strip_suffix('/').unwrap_or(check);
    for (index, step) in check.split('/').enumerate() {
        if step.is_empty() {
            errors.push(path_field.invalid(url_path, &format!("segment[{index}] may not be empty")));
            continue;
        }
        for failure in dns1123_subdomain(step) {
            errors.push(path_field.invalid(url_path, &format!("segment[{index}]: {failure}")));
        }
    }
    errors
}

/// `validateMatchConditions`: at most 64, each a named boolean expression, names unique.
pub(super) fn validate_match_conditions(conditions: &Value, names: &[&str], path: &Path) -> ErrorList {
    let list = items(conditions);
    let mut errors = ErrorList::new();
    if list.len() > 64 {
        errors.push(path.too_many(i64::try_from(list.len()).unwrap_or(i64::MAX), 64));
    }
    let mut seen = BTreeSet::new();
    for (index, condition) in list.iter().enumerate() {
        let entry = path.index(index);
        let expression = text(&condition["expression"]).trim();
        if expression.is_empty() {
            errors.push(entry.child("expression").required(""));
        } else {
            errors.extend(compile(
                expression,
                names,
                None,
                Returns::Bool,
                &entry.child("expression"),
            ));
        }
        let name = text(&condition["name"]);
        if name.is_empty() {
            errors.push(entry.child("name").required(""));
        } else {
            errors.extend(validate_qualified_name(name, &entry.child("name")));
        }
        if !name.is_empty() && !seen.insert(name) {
            errors.push(entry.child("name").duplicate(name));
        }
    }
    errors
}

/// A CEL expression compiled against the declared `names`: its compilation error as
/// an invalid value.
pub(super) fn compile(
    expression: &str,
    names: &[&str],
    variables: Option<&[(String, PolicyType)]>,
    returns: Returns,
    path: &Path,
) -> ErrorList {
    match PolicyExpression::compile_typed(expression, names, variables, returns) {
        Ok(_) => ErrorList::new(),
        Err(error) => vec![path.invalid(expression, &error)],
    }
}
