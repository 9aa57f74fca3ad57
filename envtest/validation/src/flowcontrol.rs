//! The validation of the `flowcontrol.apiserver.k8s.io` API group's kinds
//! (`pkg/apis/flowcontrol/validation`): `FlowSchemas` and `PriorityLevelConfigurations`,
//! with v1's defaults (`pkg/apis/flowcontrol/v1/defaults.go`) read in for what an
//! object leaves out.
//!
//! Not ported: the fixed specs of the mandatory objects (`exempt`, `catch-all`), which
//! the server creates itself and compares against its bootstrap configuration.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::common::go_syntax::{raw, string_slice};
use crate::common::names::{name_is_dns_label, name_is_dns_subdomain};
use crate::common::read::{flag, is_set, items, opt_int, text};
use crate::core::validate_object_meta;
use crate::field::{ErrorList, Path};
use crate::{Kind, Write};

/// `FlowSchemaMaxMatchingPrecedence`.
const MAX_MATCHING_PRECEDENCE: i64 = 10000;
/// `priorityLevelConfigurationQueuingMaxQueues`.
const MAX_QUEUES: i64 = 10_000_000;
/// `shufflesharding.MaxHashBits`.
const MAX_HASH_BITS: i64 = 60;
/// `supportedVerbs`, sorted.
const VERBS: [&str; 9] = [
    "create",
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "proxy",
    "update",
    "watch",
];
/// The v1beta3 annotation v1 forbids.
const PRESERVE_ZERO_SHARES: &str = "flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares";

/// The errors in `object`, a `flowcontrol.apiserver.k8s.io` kind written as `write`
/// says.
pub(crate) fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    let status = matches!(write, Write::Subresource { name: "status", .. });
    match kind.kind {
        "FlowSchema" | "PriorityLevelConfiguration" if status => {
            validate_conditions_list(&object["status"]["conditions"])
        }
        "FlowSchema" => validate_flow_schema(object),
        "PriorityLevelConfiguration" => validate_priority_level(object),
        _ => ErrorList::new(),
    }
}

/// `ValidateFlowSchemaStatus` and `ValidatePriorityLevelConfigurationStatus`: condition
/// types present and unique.
fn validate_conditions_list(conditions: &Value) -> ErrorList {
    let path = Path::from_parts(&["status", "conditions"]);
    let mut errors = ErrorList::new();
    let mut seen = BTreeSet::new();
    for (index, condition) in items(conditions).iter().enumerate() {
        let kind = text(&condition["type"]);
        if !seen.insert(kind) {
            errors.push(path.index(index).child("type").duplicate(kind));
        }
        if kind.is_empty() {
            errors.push(path.index(index).child("type").required("must not be empty"));
        }
    }
    errors
}

/// `ValidateFlowSchema` (also its update).
fn validate_flow_schema(object: &Value) -> ErrorList {
    let mut errors = validate_object_meta(
        &object["metadata"],
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let spec = &object["spec"];
    let path = Path::new("spec");
    let name = text(&object["metadata"]["name"]);
    let precedence = opt_int(&spec["matchingPrecedence"]).filter(|p| *p != 0).unwrap_or(1000);
    let precedence_path = path.child("matchingPrecedence");
    let shown = Value::from(precedence);
    if precedence <= 0 {
        errors.push(precedence_path.invalid(&shown, "must be a positive value"));
    }
    if precedence > MAX_MATCHING_PRECEDENCE {
        errors.push(precedence_path.invalid(&shown, &format!("must not be greater than {MAX_MATCHING_PRECEDENCE}")));
    }
    if precedence == 1 && name != "exempt" {
        errors.push(precedence_path.invalid(&shown, "only the schema named 'exempt' may have matchingPrecedence 1"));
    }
    let distinguisher = &spec["distinguisherMethod"];
    if is_set(distinguisher) && !matches!(text(&distinguisher["type"]), "ByNamespace" | "ByUser") {
        let shown = crate::common::go_syntax::GoStruct::new("flowcontrol.FlowDistinguisherMethod")
            .field("Type", crate::common::go_syntax::string(&distinguisher["type"]))
            .end();
        errors.push(
            path.child("distinguisherMethod")
                .child("type")
                .not_supported(raw(shown), &["ByNamespace", "ByUser"]),
        );
    }
    let level = text(&spec["priorityLevelConfiguration"]["name"]);
    let level_path = path.child("priorityLevelConfiguration").child("name");
    if level.is_empty() {
        errors.push(level_path.required("must reference a priority level"));
    } else {
        for message in name_is_dns_subdomain(level, false) {
            errors.push(level_path.invalid(level, &message));
        }
    }
    for (index, rule) in items(&spec["rules"]).iter().enumerate() {
        errors.extend(validate_policy_rules_with_subjects(
            rule,
            &path.child("rules").index(index),
        ));
    }
    errors.extend(validate_conditions_list(&object["status"]["conditions"]));
    errors
}

/// `ValidateFlowSchemaPolicyRulesWithSubjects`.
fn validate_policy_rules_with_subjects(rule: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let subjects = items(&rule["subjects"]);
    if subjects.is_empty() {
        errors.push(
            path.child("subjects")
                .required("subjects must contain at least one value"),
        );
    }
    for (index, subject) in subjects.iter().enumerate() {
        errors.extend(validate_subject(subject, &path.child("subjects").index(index)));
    }
    let resource_rules = items(&rule["resourceRules"]);
    let non_resource_rules = items(&rule["nonResourceRules"]);
    if resource_rules.is_empty() && non_resource_rules.is_empty() {
        errors.push(path.required("at least one of resourceRules and nonResourceRules has to be non-empty"));
    }
    for (index, resource_rule) in resource_rules.iter().enumerate() {
        errors.extend(validate_resource_rule(
            resource_rule,
            &path.child("resourceRules").index(index),
        ));
    }
    for (index, non_resource_rule) in non_resource_rules.iter().enumerate() {
        errors.extend(validate_non_resource_rule(
            non_resource_rule,
            &path.child("nonResourceRules").index(index),
        ));
    }
    errors
}

/// `ValidateFlowSchemaSubject`: the member its kind names, and no other.
fn validate_subject(subject: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let forbid = |field: &str, kind: &str| {
        path.child(field)
            .forbidden(&format!("{field} is forbidden when subject kind is not '{kind}'"))
    };
    let (account, user, group) = (&subject["serviceAccount"], &subject["user"], &subject["group"]);
    match text(&subject["kind"]) {
        "ServiceAccount" => {
            errors.extend(validate_service_account_subject(account, &path.child("serviceAccount")));
            if is_set(user) {
                errors.push(forbid("user", "User"));
            }
            if is_set(group) {
                errors.push(forbid("group", "Group"));
            }
        }
        "User" => {
            errors.extend(validate_named_subject(user, "user", "User", &path.child("user")));
            if is_set(account) {
                errors.push(forbid("serviceAccount", "ServiceAccount"));
            }
            if is_set(group) {
                errors.push(forbid("group", "Group"));
            }
        }
        "Group" => {
            errors.extend(validate_named_subject(group, "group", "Group", &path.child("group")));
            if is_set(account) {
                errors.push(forbid("serviceAccount", "ServiceAccount"));
            }
            if is_set(user) {
                errors.push(forbid("user", "User"));
            }
        }
        other => errors.push(
            path.child("kind")
                .not_supported(other, &["Group", "ServiceAccount", "User"]),
        ),
    }
    errors
}

/// `ValidateServiceAccountSubject`.
fn validate_service_account_subject(subject: &Value, path: &Path) -> ErrorList {
    if !is_set(subject) {
        return vec![path.required("serviceAccount is required when subject kind is 'ServiceAccount'")];
    }
    let mut errors = ErrorList::new();
    let name = text(&subject["name"]);
    if name.is_empty() {
        errors.push(path.child("name").required(""));
    } else if name != "*" {
        for message in name_is_dns_subdomain(name, false) {
            errors.push(path.child("name").invalid(name, &message));
        }
    }
    let namespace = text(&subject["namespace"]);
    if namespace.is_empty() {
        errors.push(
            path.child("namespace")
                .required("must specify namespace for service account"),
        );
    } else {
        for message in name_is_dns_label(namespace, false) {
            errors.push(path.child("namespace").invalid(namespace, &message));
        }
    }
    errors
}

/// `ValidateUserSubject` and `ValidateGroupSubject`.
fn validate_named_subject(subject: &Value, field: &str, kind: &str, path: &Path) -> ErrorList {
    if !is_set(subject) {
        return vec![path.required(&format!("{field} is required when subject kind is '{kind}'"))];
    }
    if text(&subject["name"]).is_empty() {
        return vec![path.child("name").required("")];
    }
    ErrorList::new()
}

/// The verb rules both kinds of policy rule share.
fn validate_verbs(rule: &Value, path: &Path) -> ErrorList {
    let verbs = items(&rule["verbs"]);
    let shown = || raw(string_slice(&rule["verbs"]));
    if verbs.is_empty() {
        return vec![path.required("verbs must contain at least one value")];
    }
    if verbs.iter().any(|v| text(v) == "*") {
        if verbs.len() > 1 {
            return vec![path.invalid(shown(), "if '*' is present, must not specify other verbs")];
        }
        return ErrorList::new();
    }
    if verbs.iter().any(|v| !VERBS.contains(&text(v))) {
        return vec![path.not_supported(shown(), &VERBS)];
    }
    ErrorList::new()
}

/// `ValidateFlowSchemaResourcePolicyRule`.
fn validate_resource_rule(rule: &Value, path: &Path) -> ErrorList {
    let mut errors = validate_verbs(rule, &path.child("verbs"));
    for (field, what) in [("apiGroups", "api group"), ("resources", "resource")] {
        let values = items(&rule[field]);
        if values.is_empty() {
            errors.push(
                path.child(field)
                    .required(&format!("resource rules must supply at least one {what}")),
            );
        } else if values.len() > 1 && values.iter().any(|v| text(v) == "*") {
            errors.push(path.child(field).invalid(
                raw(string_slice(&rule[field])),
                &format!("if '*' is present, must not specify other {what}s"),
            ));
        }
    }
    let namespaces = items(&rule["namespaces"]);
    let namespaces_path = path.child("namespaces");
    if namespaces.is_empty() && !flag(&rule["clusterScope"]) {
        errors.push(
            namespaces_path.required("resource rules that are not cluster scoped must supply at least one namespace"),
        );
    } else if namespaces.iter().any(|n| text(n) == "*") {
        if namespaces.len() > 1 {
            errors.push(namespaces_path.invalid(
                raw(string_slice(&rule["namespaces"])),
                "if '*' is present, must not specify other namespaces",
            ));
        }
    } else {
        for (index, namespace) in namespaces.iter().enumerate() {
            let namespace = text(namespace);
            for message in name_is_dns_label(namespace, false) {
                errors.push(namespaces_path.index(index).invalid(
                    namespace,
                    &format!("each member of this list must be '*' or a DNS-1123 label; {message}"),
                ));
            }
        }
    }
    errors
}

/// `ValidateFlowSchemaNonResourcePolicyRule`.
fn validate_non_resource_rule(rule: &Value, path: &Path) -> ErrorList {
    let mut errors = validate_verbs(rule, &path.child("verbs"));
    let urls = items(&rule["nonResourceURLs"]);
    let urls_path = path.child("nonResourceURLs");
    if urls.is_empty() {
        errors.push(urls_path.required("nonResourceURLs must contain at least one value"));
    } else if urls.iter().any(|u| text(u) == "*") {
        if urls.len() > 1 {
            errors.push(urls_path.invalid(
                raw(string_slice(&rule["nonResourceURLs"])),
                "if '*' is present, must not specify other non-resource URLs",
            ));
        }
    } else {
        for (index, url) in urls.iter().enumerate() {
            if let Some(message) = non_resource_url_problem(text(url)) {
                errors.push(urls_path.index(index).invalid(text(url), message));
            }
        }
    }
    errors
}

/// `ValidateNonResourceURLPath`.
fn non_resource_url_problem(path: &str) -> Option<&'static str> {
    if path.is_empty() {
        return Some("must not be empty");
    }
    if path == "/" {
        return None;
    }
    if !path.starts_with('/') {
        return Some("must start with slash");
    }
    if path.contains(' ') {
        return Some("must not contain white-space");
    }
    if path.contains("//") {
        return Some("must not contain double slash");
    }
    let wildcards = path.matches('*').count();
    if wildcards > 1 || (wildcards == 1 && !path.ends_with("/*")) {
        return Some("wildcard can only do suffix matching");
    }
    None
}

/// `ValidatePriorityLevelConfiguration` (also its update).
fn validate_priority_level(object: &Value) -> ErrorList {
    let metadata = &object["metadata"];
    let mut errors = validate_object_meta(metadata, false, name_is_dns_subdomain, &Path::new("metadata"));
    if metadata["annotations"].get(PRESERVE_ZERO_SHARES).is_some() {
        errors.push(
            Path::from_parts(&["metadata", "annotations"])
                .forbidden(&format!("annotation '{PRESERVE_ZERO_SHARES}' is forbidden")),
        );
    }
    let spec = &object["spec"];
    let path = Path::new("spec");
    let kind = text(&spec["type"]);
    let name = text(&metadata["name"]);
    if (name == "exempt") != (kind == "Exempt") {
        errors.push(
            path.child("type")
                .invalid(kind, "type must be 'Exempt' if and only if name is 'exempt'"),
        );
    }
    let (limited, exempt) = (&spec["limited"], &spec["exempt"]);
    match kind {
        "Exempt" => {
            if is_set(limited) {
                errors.push(
                    path.child("limited")
                        .forbidden("must be nil if the type is not Limited"),
                );
            }
            if is_set(exempt) {
                let exempt_path = path.child("exempt");
                if let Some(shares) = opt_int(&exempt["nominalConcurrencyShares"]).filter(|s| *s < 0) {
                    errors.push(
                        exempt_path
                            .child("nominalConcurrencyShares")
                            .invalid(&Value::from(shares), "must be a non-negative integer"),
                    );
                }
                errors.extend(validate_lendable_percent(exempt, &exempt_path));
            }
        }
        "Limited" => {
            if is_set(exempt) {
                errors.push(path.child("exempt").forbidden("must be nil if the type is Limited"));
            }
            if is_set(limited) {
                errors.extend(validate_limited(limited, &path.child("limited")));
            } else {
                errors.push(path.child("limited").required("must not be empty when type is Limited"));
            }
        }
        other => errors.push(path.child("type").not_supported(other, &["Exempt", "Limited"])),
    }
    errors.extend(validate_conditions_list(&object["status"]["conditions"]));
    errors
}

/// The `lendablePercent` rule (0 to 100).
fn validate_lendable_percent(config: &Value, path: &Path) -> ErrorList {
    match opt_int(&config["lendablePercent"]) {
        Some(percent) if !(0..=100).contains(&percent) => vec![
            path.child("lendablePercent")
                .invalid(&Value::from(percent), "must be between 0 and 100, inclusive"),
        ],
        _ => ErrorList::new(),
    }
}

/// `ValidateLimitedPriorityLevelConfiguration` (shares default to 30 in v1).
fn validate_limited(limited: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let shares = opt_int(&limited["nominalConcurrencyShares"]).unwrap_or(30);
    if shares < 0 {
        errors.push(
            path.child("nominalConcurrencyShares")
                .invalid(&Value::from(shares), "must be a non-negative integer"),
        );
    }
    errors.extend(validate_limit_response(
        &limited["limitResponse"],
        &path.child("limitResponse"),
    ));
    errors.extend(validate_lendable_percent(limited, path));
    if let Some(borrowing) = opt_int(&limited["borrowingLimitPercent"]).filter(|b| *b < 0) {
        errors.push(
            path.child("borrowingLimitPercent")
                .invalid(&Value::from(borrowing), "if specified, must be a non-negative integer"),
        );
    }
    errors
}

/// `ValidateLimitResponse`.
fn validate_limit_response(response: &Value, path: &Path) -> ErrorList {
    let queuing = &response["queuing"];
    match text(&response["type"]) {
        "Reject" => {
            if is_set(queuing) {
                return vec![
                    path.child("queuing")
                        .forbidden("must be nil if limited.limitResponse.type is not Limited"),
                ];
            }
            ErrorList::new()
        }
        "Queue" => {
            if !is_set(queuing) {
                return vec![
                    path.child("queuing")
                        .required("must not be empty if limited.limitResponse.type is Limited"),
                ];
            }
            validate_queuing(queuing, &path.child("queuing"))
        }
        other => vec![path.child("type").not_supported(other, &["Queue", "Reject"])],
    }
}

/// `ValidatePriorityLevelQueuingConfiguration` (v1 defaults: 64 queues, hands of 8,
/// queues of 50).
fn validate_queuing(queuing: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let limit = opt_int(&queuing["queueLengthLimit"]).filter(|l| *l != 0).unwrap_or(50);
    let queues = opt_int(&queuing["queues"]).filter(|q| *q != 0).unwrap_or(64);
    let hand = opt_int(&queuing["handSize"]).filter(|h| *h != 0).unwrap_or(8);
    if limit <= 0 {
        errors.push(
            path.child("queueLengthLimit")
                .invalid(&Value::from(limit), "must be positive"),
        );
    }
    if queues <= 0 {
        errors.push(path.child("queues").invalid(&Value::from(queues), "must be positive"));
    } else if queues > MAX_QUEUES {
        errors.push(
            path.child("queues")
                .invalid(&Value::from(queues), &format!("must not be greater than {MAX_QUEUES}")),
        );
    }
    let hand_path = path.child("handSize");
    if hand <= 0 {
        errors.push(hand_path.invalid(&Value::from(hand), "must be positive"));
    } else if hand > queues {
        errors.push(hand_path.invalid(
            &Value::from(hand),
            &format!("should not be greater than queues ({queues})"),
        ));
    } else if required_entropy_bits(queues, hand) > MAX_HASH_BITS {
        errors.push(hand_path.invalid(
            &Value::from(hand),
            &format!(
                "required entropy bits of deckSize {queues} and handSize {hand} should not be greater than {MAX_HASH_BITS}"
            ),
        ));
    }
    errors
}

/// `shufflesharding.RequiredEntropyBits`: `ceil(log2(deck) * hand)`.
#[expect(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    reason = "Go computes it in float64"
)]
fn required_entropy_bits(deck: i64, hand: i64) -> i64 {
    ((deck as f64).log2() * hand as f64).ceil() as i64
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::Write;
    use crate::testing::errors;

    #[test]
    fn flow_schemas_and_levels() {
        let schema = json!({"metadata": {"name": "f"}, "spec": {"matchingPrecedence": 1, "priorityLevelConfiguration": {"name": "x"},
            "rules": [{"subjects": [{"kind": "User", "group": {"name": "g"}}], "nonResourceRules": [{"verbs": ["fly"], "nonResourceURLs": ["/a*b"]}]}]}});
        assert_eq!(
            errors(
                "flowcontrol.apiserver.k8s.io",
                "v1",
                "FlowSchema",
                &schema,
                Write::Create
            ),
            [
                "spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
                "spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User'",
                "spec.rules[0].subjects[0].group: Forbidden: group is forbidden when subject kind is not 'Group'",
                "spec.rules[0].nonResourceRules[0].verbs: Unsupported value: []string{\"fly\"}: supported values: \"create\", \"delete\", \"deletecollection\", \"get\", \"list\", \"patch\", \"proxy\", \"update\", \"watch\"",
                "spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: \"/a*b\": wildcard can only do suffix matching",
            ]
        );
        let level = json!({"metadata": {"name": "l"}, "spec": {"type": "Limited", "limited": {"limitResponse": {"type": "Queue", "queuing": {"queues": 10_000_000, "handSize": 5}}}}});
        assert_eq!(
            errors(
                "flowcontrol.apiserver.k8s.io",
                "v1",
                "PriorityLevelConfiguration",
                &level,
                Write::Create
            ),
            [
                "spec.limited.limitResponse.queuing.handSize: Invalid value: 5: required entropy bits of deckSize 10000000 and handSize 5 should not be greater than 60"
            ]
        );
    }
}
