//! Resource names and quantities: `validateResourceName` and its container, quota and
//! limit-range variants, `ValidateResourceQuantityValue`, and a container's
//! requirements (`validateResourceRequirements`: names, requests within limits,
//! huge pages, claims).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde_json::Value;

use super::helper;
use super::options::PodOptions;
use super::{invalid_each, quantity, validate_dns1123_label, validate_nonnegative_quantity};
use crate::field::{BadValue, ErrorList, Path};
use crate::json::{entries, items, text};
use crate::quantity::Quantity;
use crate::util;

/// A `core.ResourceName` as a field error shows it: through its `String` method,
/// unquoted.
pub(crate) fn resource_name(name: &str) -> BadValue {
    BadValue::Raw(name.to_owned())
}

/// `validateResourceName`: a qualified name, and a standard one when it has no domain.
pub(crate) fn validate_resource_name(name: &str, path: &Path) -> ErrorList {
    let errors: ErrorList = util::is_qualified_name(name)
        .iter()
        .map(|message| path.invalid(resource_name(name), message))
        .collect();
    if !errors.is_empty() {
        return errors;
    }
    if !name.contains('/') && !helper::is_standard_resource_name(name) {
        return vec![path.invalid(
            resource_name(name),
            "must be a standard resource type or fully qualified",
        )];
    }
    ErrorList::new()
}

/// `validateContainerResourceName`.
pub(crate) fn validate_container_resource_name(name: &str, path: &Path) -> ErrorList {
    let mut errors = validate_resource_name(name, path);
    if !name.contains('/') {
        if !helper::is_standard_container_resource_name(name) {
            errors.push(path.invalid(resource_name(name), "must be a standard resource for containers"));
        }
    } else if !helper::is_native_resource(name) && !helper::is_extended_resource_name(name) {
        errors.push(path.invalid(resource_name(name), "doesn't follow extended resource name standard"));
    }
    errors
}

/// `ValidateResourceQuotaResourceName`.
pub(crate) fn validate_resource_quota_resource_name(name: &str, path: &Path) -> ErrorList {
    let mut errors = validate_resource_name(name, path);
    if !name.contains('/') && !helper::is_standard_quota_resource_name(name) {
        errors.push(path.invalid(resource_name(name), "must be a standard resource for quota"));
    }
    errors
}

/// `validateLimitRangeTypeName`.
pub(crate) fn validate_limit_range_type_name(value: &str, path: &Path) -> ErrorList {
    let errors = invalid_each(path, value, &util::is_qualified_name(value));
    if !errors.is_empty() {
        return errors;
    }
    if !value.contains('/') && !helper::is_standard_limit_range_type(value) {
        return vec![path.invalid(value, "must be a standard limit type or fully qualified")];
    }
    ErrorList::new()
}

/// `validateLimitRangeResourceName`.
pub(crate) fn validate_limit_range_resource_name(limit_type: &str, name: &str, path: &Path) -> ErrorList {
    match limit_type {
        "Pod" | "Container" => validate_container_resource_name(name, path),
        _ => validate_resource_name(name, path),
    }
}

/// `ValidateResourceQuantityValue`: not negative, and whole for integer resources.
pub(crate) fn validate_resource_quantity_value(resource: &str, value: &Quantity, path: &Path) -> ErrorList {
    let mut errors = validate_nonnegative_quantity(value, path);
    if helper::is_integer_resource_name(resource) && value.milli_value() % 1000 != 0 {
        errors.push(path.invalid(BadValue::Raw(value.go_dump(false)), "must be an integer"));
    }
    errors
}

/// `validateBasicResource`: not negative.
pub(crate) fn validate_basic_resource(value: &Quantity, path: &Path) -> ErrorList {
    let whole = value.value();
    if whole < 0 {
        let shown = i64::try_from(whole).unwrap_or(i64::MIN);
        vec![path.invalid(super::number(shown), "must be a valid resource quantity")]
    } else {
        ErrorList::new()
    }
}

/// `ValidateContainerResourceRequirements` (`validateResourceRequirements` with the
/// container resource names).
pub(crate) fn validate_container_resource_requirements(
    requirements: &Value,
    claim_names: &BTreeSet<String>,
    path: &Path,
    options: &PodOptions,
) -> ErrorList {
    let mut errors = ErrorList::new();
    let limits_path = path.child("limits");
    let requests_path = path.child("requests");
    let (mut limit_compute, mut request_compute, mut limit_huge, mut request_huge) = (false, false, false, false);
    for (name, value) in entries(&requirements["limits"]) {
        let item_path = limits_path.key(name);
        let value = quantity(value);
        errors.extend(validate_container_resource_name(name, &item_path));
        errors.extend(validate_resource_quantity_value(name, &value, &item_path));
        if helper::is_huge_page_resource_name(name) {
            limit_huge = true;
            errors.extend(huge_page_value(name, &value, &item_path, options));
        }
        limit_compute |= name == "cpu" || name == "memory";
    }
    for (name, value) in entries(&requirements["requests"]) {
        let item_path = requests_path.key(name);
        let value = quantity(value);
        errors.extend(validate_container_resource_name(name, &item_path));
        errors.extend(validate_resource_quantity_value(name, &value, &item_path));
        match requirements["limits"].get(name.as_str()).map(quantity) {
            Some(limit) => {
                let ordering = value.cmp(&limit);
                if ordering.is_ne() && !helper::is_overcommit_allowed(name) {
                    errors.push(requests_path.invalid(
                        value.to_string().as_str(),
                        &format!("must be equal to {name} limit of {limit}"),
                    ));
                } else if ordering.is_gt() {
                    errors.push(requests_path.invalid(
                        value.to_string().as_str(),
                        &format!("must be less than or equal to {name} limit of {limit}"),
                    ));
                }
            }
            None if !helper::is_overcommit_allowed(name) => {
                errors.push(limits_path.required("Limit must be set for non overcommitable resources"));
            }
            None => {}
        }
        if helper::is_huge_page_resource_name(name) {
            request_huge = true;
            errors.extend(huge_page_value(name, &value, &item_path, options));
        }
        request_compute |= name == "cpu" || name == "memory";
    }
    if !limit_compute && !request_compute && (request_huge || limit_huge) {
        errors.push(path.forbidden("HugePages require cpu or memory"));
    }
    errors.extend(validate_resource_claim_names(
        &requirements["claims"],
        claim_names,
        &path.child("claims"),
    ));
    errors
}

/// `validateResourceQuantityHugePageValue`.
fn huge_page_value(name: &str, value: &Quantity, path: &Path, options: &PodOptions) -> ErrorList {
    if options.allow_indivisible_huge_pages_values || helper::is_huge_page_resource_value_divisible(name, value) {
        return ErrorList::new();
    }
    vec![path.invalid(
        value.to_string().as_str(),
        &format!("{value} is not positive integer multiple of {name}"),
    )]
}

/// `validateResourceClaimNames`: each claim names one of the pod's resource claims,
/// once.
fn validate_resource_claim_names(claims: &Value, pod_claims: &BTreeSet<String>, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut names: BTreeSet<String> = BTreeSet::new();
    for (index, claim) in items(claims).iter().enumerate() {
        let item_path = path.index(index);
        let name = text(&claim["name"]);
        if name.is_empty() {
            errors.push(item_path.required(""));
            continue;
        }
        let request = text(&claim["request"]);
        if names.contains(name) {
            errors.push(item_path.duplicate(name));
        } else {
            let mut key = name.to_owned();
            if !request.is_empty() {
                errors.extend(validate_dns1123_label(request, &item_path.child("request")));
                let _ = write!(key, "/{request}");
            }
            if names.contains(&key) {
                errors.push(item_path.duplicate(key.as_str()));
            } else if request.is_empty() {
                for existing in &names {
                    if existing.split_once('/').is_some_and(|(claim, _)| claim == name) {
                        errors.push(item_path.duplicate(name));
                    }
                }
            }
            names.insert(key);
        }
        if !pod_claims.contains(name) {
            let mut error = item_path.not_found(name);
            error.detail = if pod_claims.is_empty() {
                "must be one of the names in pod.spec.resourceClaims which is empty".to_owned()
            } else {
                let known: Vec<&str> = pod_claims.iter().map(String::as_str).collect();
                format!(
                    "must be one of the names in pod.spec.resourceClaims: {}",
                    known.join(", ")
                )
            };
            errors.push(error);
        }
    }
    errors
}
