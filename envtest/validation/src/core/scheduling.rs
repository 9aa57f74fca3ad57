//! Where pods may run: affinity and node selectors (`validateAffinity`,
//! `ValidateNodeSelector`), tolerations and taint effects (`ValidateTolerations`), and
//! topology spread (`validateTopologySpreadConstraints`).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::options::PodOptions;
use super::{invalid_each, number};
use crate::field::{ErrorList, Path};
use crate::json::{entries, int, is_set, items, opt_int, opt_text, strings, text};
use crate::meta::{self, SelectorOptions};
use crate::util;

/// `validateAffinity`.
pub(super) fn validate_affinity(affinity: &Value, options: &PodOptions, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if !is_set(affinity) {
        return errors;
    }
    let node = &affinity["nodeAffinity"];
    if is_set(node) {
        let node_path = path.child("nodeAffinity");
        let required = &node["requiredDuringSchedulingIgnoredDuringExecution"];
        if is_set(required) {
            errors.extend(validate_node_selector(
                required,
                &node_path.child("requiredDuringSchedulingIgnoredDuringExecution"),
            ));
        }
        let preferred = &node["preferredDuringSchedulingIgnoredDuringExecution"];
        for (index, term) in items(preferred).iter().enumerate() {
            let term_path = node_path
                .child("preferredDuringSchedulingIgnoredDuringExecution")
                .index(index);
            let weight = int(&term["weight"]);
            if !(1..=100).contains(&weight) {
                errors.push(
                    term_path
                        .child("weight")
                        .invalid(number(weight), "must be in the range 1-100"),
                );
            }
            errors.extend(validate_node_selector_term(
                &term["preference"],
                &term_path.child("preference"),
            ));
        }
    }
    for kind in ["podAffinity", "podAntiAffinity"] {
        let pod = &affinity[kind];
        if !is_set(pod) {
            continue;
        }
        let kind_path = path.child(kind);
        let allow = options.allow_invalid_label_value_in_selector;
        for (index, term) in items(&pod["requiredDuringSchedulingIgnoredDuringExecution"])
            .iter()
            .enumerate()
        {
            errors.extend(validate_pod_affinity_term(
                term,
                allow,
                &kind_path
                    .child("requiredDuringSchedulingIgnoredDuringExecution")
                    .index(index),
            ));
        }
        for (index, weighted) in items(&pod["preferredDuringSchedulingIgnoredDuringExecution"])
            .iter()
            .enumerate()
        {
            let term_path = kind_path
                .child("preferredDuringSchedulingIgnoredDuringExecution")
                .index(index);
            let weight = int(&weighted["weight"]);
            if !(1..=100).contains(&weight) {
                errors.push(
                    term_path
                        .child("weight")
                        .invalid(number(weight), "must be in the range 1-100"),
                );
            }
            errors.extend(validate_pod_affinity_term(
                &weighted["podAffinityTerm"],
                allow,
                &term_path.child("podAffinityTerm"),
            ));
        }
    }
    errors
}

/// `validatePodAffinityTerm`.
fn validate_pod_affinity_term(term: &Value, allow_invalid_label_value: bool, path: &Path) -> ErrorList {
    let options = SelectorOptions {
        allow_invalid_label_value,
        allow_unknown_operator: false,
    };
    let mut errors = meta::validate_label_selector_with(&term["labelSelector"], options, &path.child("labelSelector"));
    errors.extend(meta::validate_label_selector_with(
        &term["namespaceSelector"],
        options,
        &path.child("namespaceSelector"),
    ));
    for name in strings(&term["namespaces"]) {
        errors.extend(invalid_each(
            &path.child("namespace"),
            name,
            &meta::name_is_dns_label(name, false),
        ));
    }
    errors.extend(validate_match_label_keys_and_mismatch(term, path));
    let key = text(&term["topologyKey"]);
    if key.is_empty() {
        errors.push(path.child("topologyKey").required("can not be empty"));
    }
    errors.extend(meta::validate_label_name(key, &path.child("topologyKey")));
    errors
}

/// `validateMatchLabelKeysAndMismatchLabelKeys`.
fn validate_match_label_keys_and_mismatch(term: &Value, path: &Path) -> ErrorList {
    let selector = &term["labelSelector"];
    let match_keys = strings(&term["matchLabelKeys"]);
    let mismatch_keys = strings(&term["mismatchLabelKeys"]);
    let mut errors = label_keys(&path.child("matchLabelKeys"), &match_keys, selector);
    errors.extend(label_keys(&path.child("mismatchLabelKeys"), &mismatch_keys, selector));
    if is_set(selector) {
        let positions: BTreeMap<&str, usize> = match_keys.iter().enumerate().map(|(i, k)| (*k, i)).collect();
        let mut selector_keys: BTreeSet<&str> = entries(&selector["matchLabels"]).map(|(k, _)| k.as_str()).collect();
        for expression in items(&selector["matchExpressions"]) {
            let key = text(&expression["key"]);
            if let Some(index) = positions.get(key)
                && selector_keys.contains(key)
            {
                errors.push(
                    path.index(*index)
                        .invalid(key, "exists in both matchLabelKeys and labelSelector"),
                );
            }
            selector_keys.insert(key);
        }
    }
    for (index, key) in match_keys.iter().enumerate() {
        if mismatch_keys.contains(key) {
            errors.push(
                path.child("matchLabelKeys")
                    .index(index)
                    .invalid(*key, "exists in both matchLabelKeys and mismatchLabelKeys"),
            );
        }
    }
    errors
}

/// `validateLabelKeys`.
fn label_keys(path: &Path, keys: &[&str], selector: &Value) -> ErrorList {
    if keys.is_empty() {
        return ErrorList::new();
    }
    if !is_set(selector) {
        return vec![path.forbidden("must not be specified when labelSelector is not set")];
    }
    keys.iter()
        .enumerate()
        .flat_map(|(index, key)| meta::validate_label_name(key, &path.index(index)))
        .collect()
}

/// `ValidateNodeSelector`: at least one term, each valid.
pub(crate) fn validate_node_selector(selector: &Value, path: &Path) -> ErrorList {
    let terms_path = path.child("nodeSelectorTerms");
    let terms = items(&selector["nodeSelectorTerms"]);
    if terms.is_empty() {
        return vec![terms_path.required("must have at least one node selector term")];
    }
    terms
        .iter()
        .enumerate()
        .flat_map(|(index, term)| validate_node_selector_term(term, &terms_path.index(index)))
        .collect()
}

/// `ValidateNodeSelectorTerm`.
fn validate_node_selector_term(term: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    for (index, requirement) in items(&term["matchExpressions"]).iter().enumerate() {
        errors.extend(validate_node_selector_requirement(
            requirement,
            &path.child("matchExpressions").index(index),
        ));
    }
    for (index, requirement) in items(&term["matchFields"]).iter().enumerate() {
        errors.extend(validate_node_field_selector_requirement(
            requirement,
            &path.child("matchFields").index(index),
        ));
    }
    errors
}

/// `ValidateNodeSelectorRequirement`.
fn validate_node_selector_requirement(requirement: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let values = items(&requirement["values"]);
    match text(&requirement["operator"]) {
        "In" | "NotIn" if values.is_empty() => errors.push(
            path.child("values")
                .required("must be specified when `operator` is 'In' or 'NotIn'"),
        ),
        "Exists" | "DoesNotExist" if !values.is_empty() => errors.push(
            path.child("values")
                .forbidden("may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
        ),
        "Gt" | "Lt" if values.len() != 1 => errors.push(
            path.child("values")
                .required("must be specified single value when `operator` is 'Lt' or 'Gt'"),
        ),
        "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt" => {}
        other => errors.push(path.child("operator").invalid(other, "not a valid selector operator")),
    }
    errors.extend(meta::validate_label_name(text(&requirement["key"]), &path.child("key")));
    errors
}

/// `ValidateNodeFieldSelectorRequirement`: only `metadata.name`, with one value.
fn validate_node_field_selector_requirement(requirement: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    match text(&requirement["operator"]) {
        "In" | "NotIn" => {
            if items(&requirement["values"]).len() != 1 {
                errors.push(
                    path.child("values")
                        .required("must be only one value when `operator` is 'In' or 'NotIn' for node field selector"),
                );
            }
        }
        other => errors.push(path.child("operator").invalid(other, "not a valid selector operator")),
    }
    let key = text(&requirement["key"]);
    if key == "metadata.name" {
        for (index, value) in strings(&requirement["values"]).iter().enumerate() {
            errors.extend(invalid_each(
                &path.child("values").index(index),
                value,
                &meta::name_is_dns_subdomain(value, false),
            ));
        }
    } else {
        errors.push(path.child("key").invalid(key, "not a valid field selector key"));
    }
    errors
}

/// `validateTaintEffect`.
pub(crate) fn validate_taint_effect(effect: &str, allow_empty: bool, path: &Path) -> ErrorList {
    if !allow_empty && effect.is_empty() {
        return vec![path.required("")];
    }
    match effect {
        "NoSchedule" | "PreferNoSchedule" | "NoExecute" => ErrorList::new(),
        other => vec![path.not_supported(other, &["NoSchedule", "PreferNoSchedule", "NoExecute"])],
    }
}

/// `ValidateTolerations`.
pub(crate) fn validate_tolerations(tolerations: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    for (index, toleration) in items(tolerations).iter().enumerate() {
        let item_path = path.index(index);
        let key = text(&toleration["key"]);
        let operator = text(&toleration["operator"]);
        let effect = text(&toleration["effect"]);
        if !key.is_empty() {
            errors.extend(meta::validate_label_name(key, &item_path.child("key")));
        }
        if key.is_empty() && operator != "Exists" {
            errors.push(item_path.child("operator").invalid(
                operator,
                "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            ));
        }
        if is_set(&toleration["tolerationSeconds"]) && effect != "NoExecute" {
            errors.push(
                item_path
                    .child("effect")
                    .invalid(effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"),
            );
        }
        let value = text(&toleration["value"]);
        match operator {
            "Equal" | "" => {
                let messages = util::is_valid_label_value(value);
                if !messages.is_empty() {
                    errors.push(item_path.child("operator").invalid(value, &messages.join(";")));
                }
            }
            "Exists" => {
                if !value.is_empty() {
                    errors.push(
                        item_path
                            .child("operator")
                            .invalid(value, "value must be empty when `operator` is 'Exists'"),
                    );
                }
            }
            other => errors.push(item_path.child("operator").not_supported(other, &["Equal", "Exists"])),
        }
        if !effect.is_empty() {
            errors.extend(validate_taint_effect(effect, true, &item_path.child("effect")));
        }
    }
    errors
}

/// `validateTopologySpreadConstraints`.
pub(super) fn validate_topology_spread_constraints(
    constraints: &Value,
    path: &Path,
    options: &PodOptions,
) -> ErrorList {
    let mut errors = ErrorList::new();
    let list = items(constraints);
    for (index, constraint) in list.iter().enumerate() {
        let item_path = path.index(index);
        let skew = int(&constraint["maxSkew"]);
        if skew <= 0 {
            errors.push(
                item_path
                    .child("maxSkew")
                    .invalid(number(skew), "must be greater than zero"),
            );
        }
        let key = text(&constraint["topologyKey"]);
        if key.is_empty() {
            errors.push(item_path.child("topologyKey").required("can not be empty"));
        }
        let action = text(&constraint["whenUnsatisfiable"]);
        if action != "DoNotSchedule" && action != "ScheduleAnyway" {
            errors.push(
                item_path
                    .child("whenUnsatisfiable")
                    .not_supported(action, &["DoNotSchedule", "ScheduleAnyway"]),
            );
        }
        let repeated = list[index + 1..]
            .iter()
            .any(|other| text(&other["topologyKey"]) == key && text(&other["whenUnsatisfiable"]) == action);
        if repeated {
            errors.push(
                item_path
                    .child("{topologyKey, whenUnsatisfiable}")
                    .duplicate(format!("{{{key}, {action}}}").as_str()),
            );
        }
        if let Some(domains) = opt_int(&constraint["minDomains"]) {
            if domains <= 0 {
                errors.push(
                    item_path
                        .child("minDomains")
                        .invalid(number(domains), "must be greater than zero"),
                );
            }
            if action != "DoNotSchedule" {
                errors.push(item_path.child("minDomains").invalid(
                    number(domains),
                    &format!("can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {action}"),
                ));
            }
        }
        for field in ["nodeAffinityPolicy", "nodeTaintsPolicy"] {
            if let Some(policy) = opt_text(&constraint[field])
                && policy != "Ignore"
                && policy != "Honor"
            {
                errors.push(item_path.child(field).not_supported(policy, &["Honor", "Ignore"]));
            }
        }
        errors.extend(validate_match_label_keys_in_topology_spread(
            constraint,
            &item_path.child("matchLabelKeys"),
        ));
        if !options.allow_invalid_topology_spread_constraint_label_selector {
            errors.extend(meta::validate_label_selector(
                &constraint["labelSelector"],
                &item_path.child("labelSelector"),
            ));
        }
    }
    errors
}

/// `validateMatchLabelKeysInTopologySpread`.
fn validate_match_label_keys_in_topology_spread(constraint: &Value, path: &Path) -> ErrorList {
    let keys = strings(&constraint["matchLabelKeys"]);
    if keys.is_empty() {
        return ErrorList::new();
    }
    let selector = &constraint["labelSelector"];
    let mut errors = ErrorList::new();
    let mut selector_keys = BTreeSet::new();
    if is_set(selector) {
        selector_keys.extend(entries(&selector["matchLabels"]).map(|(k, _)| k.as_str()));
        selector_keys.extend(items(&selector["matchExpressions"]).iter().map(|e| text(&e["key"])));
    } else {
        errors.push(path.forbidden("must not be specified when labelSelector is not set"));
    }
    for (index, key) in keys.iter().enumerate() {
        errors.extend(meta::validate_label_name(key, &path.index(index)));
        if selector_keys.contains(key) {
            errors.push(
                path.index(index)
                    .invalid(*key, "exists in both matchLabelKeys and labelSelector"),
            );
        }
    }
    errors
}
