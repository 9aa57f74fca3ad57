//! limit ranges (`ValidateLimitRange`: types, resource names, and min, max, defaults
//! and ratios that agree) and resource quotas (`ValidateResourceQuota` with its scopes
//! and scope selector, the update and status rules).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::helper;
use super::resources::{
    validate_limit_range_resource_name, validate_limit_range_type_name, validate_resource_quantity_value,
    validate_resource_quota_resource_name,
};
use super::{quantity, validate_object_meta, validate_object_meta_update};
use crate::field::{BadValue, ErrorList, Path};
use crate::json::{entries, is_set, items, len_map, strings, text};
use crate::meta;
use crate::quantity::Quantity;
use crate::{Write, godump};

/// `ValidateLimitRange` (the strategy runs it on create and update alike).
pub(super) fn validate_limit_range(limit_range: &Value) -> ErrorList {
    let mut errors = validate_object_meta(
        &limit_range["metadata"],
        true,
        meta::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let path = Path::from_parts(&["spec", "limits"]);
    let mut types = BTreeSet::new();
    for (index, limit) in items(&limit_range["spec"]["limits"]).iter().enumerate() {
        let item_path = path.index(index);
        let kind = text(&limit["type"]);
        errors.extend(validate_limit_range_type_name(kind, &item_path.child("type")));
        if !types.insert(kind) {
            errors.push(item_path.child("type").duplicate(kind));
        }
        errors.extend(validate_limit(limit, kind, &item_path));
    }
    errors
}

/// One limit of a limit range.
fn validate_limit(limit: &Value, kind: &str, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut keys: BTreeSet<&str> = BTreeSet::new();
    let read = |field: &str, errors: &mut ErrorList| -> BTreeMap<String, Quantity> {
        let mut values = BTreeMap::new();
        for (name, value) in entries(&limit[field]) {
            errors.extend(validate_limit_range_resource_name(
                kind,
                name,
                &path.child(field).key(name),
            ));
            values.insert(name.clone(), quantity(value));
        }
        values
    };
    let max = read("max", &mut errors);
    let min = read("min", &mut errors);
    let (mut defaults, mut default_requests) = (BTreeMap::new(), BTreeMap::new());
    if kind == "Pod" {
        if len_map(&limit["default"]) > 0 {
            errors.push(
                path.child("default")
                    .forbidden("may not be specified when `type` is 'Pod'"),
            );
        }
        if len_map(&limit["defaultRequest"]) > 0 {
            errors.push(
                path.child("defaultRequest")
                    .forbidden("may not be specified when `type` is 'Pod'"),
            );
        }
    } else {
        defaults = read("default", &mut errors);
        default_requests = read("defaultRequest", &mut errors);
    }
    if kind == "PersistentVolumeClaim" && limit["min"].get("storage").is_none() && limit["max"].get("storage").is_none()
    {
        errors.push(
            path.child("limits")
                .required("either minimum or maximum storage value is required, but neither was provided"),
        );
    }
    let ratios = read("maxLimitRequestRatio", &mut errors);
    for map in [&max, &min, &defaults, &default_requests, &ratios] {
        keys.extend(map.keys().map(String::as_str));
    }
    for key in keys {
        errors.extend(compare_limits(
            key,
            &min,
            &max,
            &defaults,
            &default_requests,
            &ratios,
            path,
        ));
    }
    errors
}

/// The agreement of one resource's min, max, default, default request and ratio.
fn compare_limits(
    key: &str,
    min: &BTreeMap<String, Quantity>,
    max: &BTreeMap<String, Quantity>,
    defaults: &BTreeMap<String, Quantity>,
    default_requests: &BTreeMap<String, Quantity>,
    ratios: &BTreeMap<String, Quantity>,
    path: &Path,
) -> ErrorList {
    let mut errors = ErrorList::new();
    let dump = |q: &Quantity| BadValue::Raw(q.go_dump(true));
    let (min, max, default, request, ratio) = (
        min.get(key),
        max.get(key),
        defaults.get(key),
        default_requests.get(key),
        ratios.get(key),
    );
    if let (Some(min), Some(max)) = (min, max)
        && min.cmp(max).is_gt()
    {
        errors.push(
            path.child("min")
                .key(key)
                .invalid(dump(min), &format!("min value {min} is greater than max value {max}")),
        );
    }
    if let (Some(request), Some(min)) = (request, min)
        && min.cmp(request).is_gt()
    {
        errors.push(path.child("defaultRequest").key(key).invalid(
            dump(request),
            &format!("min value {min} is greater than default request value {request}"),
        ));
    }
    if let (Some(request), Some(max)) = (request, max)
        && request.cmp(max).is_gt()
    {
        errors.push(path.child("defaultRequest").key(key).invalid(
            dump(request),
            &format!("default request value {request} is greater than max value {max}"),
        ));
    }
    if let (Some(request), Some(default)) = (request, default)
        && request.cmp(default).is_gt()
    {
        errors.push(path.child("defaultRequest").key(key).invalid(
            dump(request),
            &format!("default request value {request} is greater than default limit value {default}"),
        ));
    }
    if let (Some(default), Some(min)) = (default, min)
        && min.cmp(default).is_gt()
    {
        errors.push(path.child("default").key(key).invalid(
            dump(min),
            &format!("min value {min} is greater than default value {default}"),
        ));
    }
    if let (Some(default), Some(max)) = (default, max)
        && default.cmp(max).is_gt()
    {
        errors.push(path.child("default").key(key).invalid(
            dump(max),
            &format!("default value {default} is greater than max value {max}"),
        ));
    }
    if let Some(ratio) = ratio {
        if ratio.cmp(&Quantity::from_int(1)).is_lt() {
            errors.push(
                path.child("maxLimitRequestRatio")
                    .key(key)
                    .invalid(dump(ratio), &format!("ratio {ratio} is less than 1")),
            );
        }
        if let (Some(min), Some(max)) = (min, max) {
            errors.extend(ratio_within_bounds(key, ratio, min, max, path));
        }
    }
    if let (Some(default), Some(request)) = (default, request)
        && !helper::is_overcommit_allowed(key)
        && default.cmp(request).is_ne()
    {
        errors.push(path.child("defaultRequest").key(key).invalid(
            dump(request),
            &format!("default value {default} must equal to defaultRequest value {request} in {key}"),
        ));
    }
    errors
}

/// The ratio may not exceed max / min.
#[expect(clippy::cast_precision_loss, reason = "kube compares the ratio as a float64")]
fn ratio_within_bounds(key: &str, ratio: &Quantity, min: &Quantity, max: &Quantity, path: &Path) -> ErrorList {
    const MAX_MILLI: i128 = i64::MAX as i128 / 1000;
    let (mut ratio_value, mut min_value, mut max_value) = (ratio.value() as f64, min.value(), max.value());
    if ratio.value() < MAX_MILLI && min_value < MAX_MILLI && max_value < MAX_MILLI {
        ratio_value = ratio.milli_value() as f64 / 1000.0;
        min_value = min.milli_value();
        max_value = max.milli_value();
    }
    let limit = max_value as f64 / min_value as f64;
    if ratio_value > limit {
        return vec![path.child("maxLimitRequestRatio").key(key).invalid(
            BadValue::Raw(ratio.go_dump(true)),
            &format!("ratio {ratio} is greater than max/min = {limit:.6}"),
        )];
    }
    ErrorList::new()
}

/// A resource quota written as `write` says.
pub(super) fn validate_resource_quota(quota: &Value, write: Write) -> ErrorList {
    match write {
        Write::Create => {
            let mut errors = validate_object_meta(
                &quota["metadata"],
                true,
                meta::name_is_dns_subdomain,
                &Path::new("metadata"),
            );
            errors.extend(validate_spec(&quota["spec"], &Path::new("spec")));
            errors.extend(validate_status(&quota["status"], &Path::new("status")));
            errors
        }
        Write::Subresource { name: "status", old } => {
            let mut errors = validate_object_meta_update(&quota["metadata"], &old["metadata"], &Path::new("metadata"));
            errors.extend(validate_status(&quota["status"], &Path::new("status")));
            errors
        }
        Write::Update { old } | Write::Subresource { old, .. } => {
            let mut errors = validate_object_meta_update(&quota["metadata"], &old["metadata"], &Path::new("metadata"));
            errors.extend(validate_spec(&quota["spec"], &Path::new("spec")));
            let (new_scopes, old_scopes): (BTreeSet<&str>, BTreeSet<&str>) = (
                strings(&quota["spec"]["scopes"]).into_iter().collect(),
                strings(&old["spec"]["scopes"]).into_iter().collect(),
            );
            if new_scopes != old_scopes {
                errors.push(
                    Path::from_parts(&["spec", "scopes"]).invalid(scopes_shown(&quota["spec"]), meta::FIELD_IMMUTABLE),
                );
            }
            errors
        }
    }
}

/// A quota's `scopes` as `%#v` prints a `[]core.ResourceQuotaScope`.
fn scopes_shown(spec: &Value) -> BadValue {
    godump::raw(godump::string_slice("core.ResourceQuotaScope", &spec["scopes"]))
}

/// Hard or used quantities: names for quota, values valid.
fn validate_amounts(amounts: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    for (name, value) in entries(amounts) {
        let item_path = path.key(name);
        errors.extend(validate_resource_quota_resource_name(name, &item_path));
        errors.extend(validate_resource_quantity_value(name, &quantity(value), &item_path));
    }
    errors
}

/// `ValidateResourceQuotaStatus`.
fn validate_status(status: &Value, path: &Path) -> ErrorList {
    let mut errors = validate_amounts(&status["hard"], &path.child("hard"));
    errors.extend(validate_amounts(&status["used"], &path.child("used")));
    errors
}

/// `ValidateResourceQuotaSpec`.
fn validate_spec(spec: &Value, path: &Path) -> ErrorList {
    let mut errors = validate_amounts(&spec["hard"], &path.child("hard"));
    let hard: BTreeSet<&str> = entries(&spec["hard"]).map(|(k, _)| k.as_str()).collect();
    let scopes = strings(&spec["scopes"]);
    if !scopes.is_empty() {
        let scopes_path = path.child("scopes");
        for scope in &scopes {
            if !helper::is_standard_resource_quota_scope(scope) {
                errors.push(scopes_path.invalid(scopes_shown(spec), "unsupported scope"));
            }
            for resource in &hard {
                if helper::is_standard_quota_resource_name(resource)
                    && !helper::is_resource_quota_scope_valid_for_resource(scope, resource)
                {
                    errors.push(scopes_path.invalid(scopes_shown(spec), "unsupported scope applied to resource"));
                }
            }
        }
        errors.extend(conflicting_scopes(&scopes, &scopes_path, spec));
    }
    if is_set(&spec["scopeSelector"]) {
        errors.extend(validate_scope_selector(spec, &hard, &path.child("scopeSelector")));
    }
    errors
}

fn conflicting_scopes(scopes: &[&str], path: &Path, spec: &Value) -> ErrorList {
    let mut errors = ErrorList::new();
    for (a, b) in [("BestEffort", "NotBestEffort"), ("Terminating", "NotTerminating")] {
        if scopes.contains(&a) && scopes.contains(&b) {
            errors.push(path.invalid(scopes_shown(spec), "conflicting scopes"));
        }
    }
    errors
}

/// `validateScopedResourceSelectorRequirement`.
fn validate_scope_selector(spec: &Value, hard: &BTreeSet<&str>, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let expressions_path = path.child("matchExpressions");
    let mut scopes = Vec::new();
    for requirement in items(&spec["scopeSelector"]["matchExpressions"]) {
        let scope = text(&requirement["scopeName"]);
        if !helper::is_standard_resource_quota_scope(scope) {
            errors.push(expressions_path.child("scopeName").invalid(scope, "unsupported scope"));
        }
        for resource in hard {
            if helper::is_standard_quota_resource_name(resource)
                && !helper::is_resource_quota_scope_valid_for_resource(scope, resource)
            {
                errors.push(expressions_path.invalid(
                    godump::raw(godump::scope_selector(&spec["scopeSelector"])),
                    "unsupported scope applied to resource",
                ));
            }
        }
        let operator = text(&requirement["operator"]);
        if matches!(
            scope,
            "BestEffort" | "NotBestEffort" | "Terminating" | "NotTerminating" | "CrossNamespacePodAffinity"
        ) && operator != "Exists"
        {
            errors.push(expressions_path.child("operator").invalid(
                operator,
                "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
            ));
        }
        let values = items(&requirement["values"]);
        match operator {
            "In" | "NotIn" if values.is_empty() => errors.push(
                expressions_path
                    .child("values")
                    .required("must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"),
            ),
            "Exists" | "DoesNotExist" if !values.is_empty() => errors.push(expressions_path.child("values").invalid(
                godump::raw(godump::string_slice("string", &requirement["values"])),
                "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector",
            )),
            "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
            other => errors.push(
                expressions_path
                    .child("operator")
                    .invalid(other, "not a valid selector operator"),
            ),
        }
        scopes.push(scope);
    }
    errors.extend(conflicting_scopes(&scopes, &expressions_path, spec));
    errors
}
