//! The `ResourceQuota` admission plugin a default kube-apiserver runs, and the usage
//! the quota controller computes for a quota's status.
//!
//! Admission (`evaluate`) checks a create (or, for services and claims, an update)
//! against every quota of the namespace whose *status* limits something the object
//! uses, as kube's admission does: it reads `status.hard`, not `spec.hard`, so a quota
//! the controller has not yet seen limits nothing. A pod must specify each compute
//! resource a matching quota limits (`must specify ...`); a quota whose status lacks
//! the usage of a resource it limits refuses (`status unknown for quota`); usage past
//! `hard` is refused (`exceeded quota: ...`); otherwise the object's usage is charged
//! to `status.used` of each quota it falls in (not for a dry run), before the object
//! is stored. The controller's side (`usage_status`) is what kube-controller-manager's
//! quota controller writes: `hard` from the spec and `used` summed over the
//! namespace's objects; the embedded server's simulated controllers keep it
//! (`controllers::quota`).
//!
//! Ported from kube 1.32, function by function:
//!
//! | kube | here | covered by |
//! |---|---|---|
//! | `resourcequota.QuotaAdmission.Validate` (`admission.go`) | [`evaluate`] | conformance `admission_quota::*` |
//! | `quotaEvaluator.Evaluate`, `checkQuotas` (`controller.go`) | [`evaluate`] | `admission_quota::usage_is_charged_*` |
//! | `CheckRequest` (`controller.go`) | `check_request` | `admission_quota::*` |
//! | `hasUsageStats`, `prettyPrint`, `prettyPrintResourceNames`, `getScopeSelectorsFromQuota` | `has_usage_stats`, `resources::pretty_print*`, `evaluators::scope_selectors` | `admission_quota::a_quota_without_usage_*`, unit tests |
//! | `generic.Matches`, `objectCountEvaluator`, `ObjectCountQuotaResourceNameFor` (`generic/evaluator.go`) | `evaluators::Evaluator::{matches, Count}`, `object_count_name` | `admission_quota::object_counts_*` |
//! | `podEvaluator.{Constraints, Handles, MatchingResources, Usage}`, `enforcePodContainerConstraints`, `podComputeUsageHelper`, `PodUsageFunc`, `QuotaV1Pod`, `podMatchesScopeFunc` (`core/pods.go`) | `evaluators::Evaluator::*`, `compute_usage`, `pod_usage`, `holds_resources`, `matches_scope` | `admission_quota::pods_must_specify_*`, `scopes_*`, unit tests |
//! | `resourcehelper.PodRequests`, `PodLimits` | `evaluators::pod_resources` | unit tests |
//! | `serviceEvaluator.Usage` (`core/services.go`) | `evaluators::service_usage` | `admission_quota::services_*` |
//! | `pvcEvaluator.{MatchingResources, Usage, getStorageUsage}` (`core/persistent_volume_claims.go`) | `evaluators::Evaluator::matching_resources`, `claim_usage` | unit tests |
//! | `quota.{Add, SubtractWithNonNegativeResult, Mask, LessThanOrEqual, Equals, IsNegative, RemoveZeros}` (`quota/v1/resources.go`) | `resources::*` | unit tests |
//! | `resource.Quantity.{Add, Sub, String}` | `resources::Quantity` | unit tests |
//! | `ResourceQuotaController.syncResourceQuota`, `quota.CalculateUsage`, `generic.CalculateUsageStats` | [`usage_status`] | `admission_quota::the_controller_*` |
//!
//! Not ported: the plugin's `AdmissionConfiguration` (`limitedResources`, which a
//! default kube-apiserver does not set, so `insufficient quota to consume` never
//! arises), and the retries of conflicting status updates (the server's lock makes
//! each check and charge one step).

mod evaluators;
pub(super) mod resources;

use std::collections::BTreeSet;

use serde_json::Value;

pub(crate) use self::evaluators::Operation;
use self::evaluators::{Evaluator, scope_selectors};
use self::resources::{
    ResourceList, add, equals, less_than_or_equal, list_of, mask, negative, pretty_print, pretty_print_names,
    remove_zeros, subtract_non_negative, to_json,
};
use crate::core::{ApiError, GroupResource, ResourceType};
use crate::store::Store;

/// The quota resource.
pub(crate) fn quotas_resource() -> GroupResource {
    GroupResource {
        group: String::new(),
        resource: "resourcequotas".to_owned(),
    }
}

/// The quotas of a namespace, by name.
fn quotas_of(store: &Store, namespace: &str) -> Vec<Value> {
    let mut quotas: Vec<Value> = store
        .values(&quotas_resource())
        .iter()
        .filter(|q| q["metadata"]["namespace"] == namespace)
        .map(|q| (**q).clone())
        .collect();
    quotas.sort_by(|a, b| a["metadata"]["name"].as_str().cmp(&b["metadata"]["name"].as_str()));
    quotas
}

/// `QuotaAdmission.Validate`: checks a write of `object` (the previous object `old`
/// on an update) against the quotas of its namespace. Answers the quotas whose
/// `status.used` the write charges, with their new status, for the caller to store
/// with the object (none for a dry run); or kube's refusal.
pub(crate) fn evaluate(
    store: &Store,
    resource: &ResourceType,
    operation: Operation,
    subresource: Option<&str>,
    object: &Value,
    old: Option<&Value>,
    dry_run: bool,
) -> Result<Vec<Value>, ApiError> {
    let namespace = object["metadata"]["namespace"].as_str().unwrap_or_default();
    // Cluster-scoped writes and namespace creation are not counted.
    if namespace.is_empty() || !resource.namespaced {
        return Ok(Vec::new());
    }
    let Some(evaluator) = Evaluator::of(&resource.group, &resource.plural) else {
        return Ok(Vec::new());
    };
    if !evaluator.handles(operation, subresource) {
        return Ok(Vec::new());
    }
    let quotas = quotas_of(store, namespace);
    if quotas.is_empty() {
        return Ok(Vec::new());
    }
    let name = object["metadata"]["name"].as_str().unwrap_or_default();
    let forbidden = |why: String| ApiError::forbidden(resource, name, &why);
    let charged = check_request(&evaluator, &quotas, operation, object, old).map_err(forbidden)?;
    if dry_run {
        return Ok(Vec::new());
    }
    // `checkQuotas`: only the quotas whose usage changed are written.
    Ok(quotas
        .iter()
        .zip(charged)
        .filter(|(before, after)| !equals(&list_of(&before["status"]["used"]), &list_of(&after["status"]["used"])))
        .map(|(_, after)| after)
        .collect())
}

/// `CheckRequest`: the quotas as they would be with the request's usage charged, or
/// why the request is refused.
fn check_request(
    evaluator: &Evaluator,
    quotas: &[Value],
    operation: Operation,
    object: &Value,
    old: Option<&Value>,
) -> Result<Vec<Value>, String> {
    let mut interesting = Vec::new();
    for (index, quota) in quotas.iter().enumerate() {
        if !evaluator.matches(quota, object) {
            continue;
        }
        let quota_name = quota["metadata"]["name"].as_str().unwrap_or_default();
        let hard = names(&quota["status"]["hard"]);
        let restricted = evaluator.matching_resources(&hard);
        evaluator
            .constraints(&restricted, object)
            .map_err(|why| format!("failed quota: {quota_name}: {why}"))?;
        if !has_usage_stats(quota, &restricted) {
            return Err(format!(
                "status unknown for quota: {quota_name}, resources: {}",
                pretty_print_names(&restricted)
            ));
        }
        interesting.push(index);
    }
    let mut delta = evaluator.usage(object);
    let below_zero = negative(&delta);
    if !below_zero.is_empty() {
        return Err(format!(
            "quota usage is negative for resource(s): {}",
            pretty_print_names(&below_zero)
        ));
    }
    if operation == Operation::Update {
        let Some(old) = old else {
            return Err("unable to get previous usage since prior version of object was not found".to_owned());
        };
        // Not a create through an update: charge only what grew.
        if old["metadata"]["resourceVersion"]
            .as_str()
            .is_some_and(|v| !v.is_empty())
        {
            delta = subtract_non_negative(&delta, &evaluator.usage(old));
        }
    }
    let delta = remove_zeros(&delta);
    let mut out = quotas.to_vec();
    if delta.is_empty() || interesting.is_empty() {
        return Ok(out);
    }
    for index in interesting {
        let quota = &quotas[index];
        let hard = list_of(&quota["status"]["hard"]);
        let used = list_of(&quota["status"]["used"]);
        let requested = mask(&delta, hard.keys());
        let new_used = add(&used, &requested);
        let masked = mask(&new_used, requested.keys());
        let (allowed, exceeded) = less_than_or_equal(&masked, &hard);
        if !allowed {
            return Err(format!(
                "exceeded quota: {}, requested: {}, used: {}, limited: {}",
                quota["metadata"]["name"].as_str().unwrap_or_default(),
                pretty_print(&mask(&requested, &exceeded)),
                pretty_print(&mask(&used, &exceeded)),
                pretty_print(&mask(&hard, &exceeded)),
            ));
        }
        out[index]["status"]["used"] = to_json(&new_used);
    }
    Ok(out)
}

/// The names of a resource list.
fn names(list: &Value) -> Vec<String> {
    list.as_object()
        .into_iter()
        .flatten()
        .map(|(name, _)| name.clone())
        .collect()
}

/// `hasUsageStats`: every resource of `status.hard` among `interesting` has a usage.
fn has_usage_stats(quota: &Value, interesting: &[String]) -> bool {
    let used = &quota["status"]["used"];
    names(&quota["status"]["hard"])
        .iter()
        .filter(|name| interesting.contains(name))
        .all(|name| used.get(name.as_str()).is_some())
}

/// `syncResourceQuota`: the status the quota controller gives `quota`: `hard` from the
/// spec, `used` what the namespace's objects use of each resource it limits (kept from
/// the current status for resources no evaluator knows). `served` says whether a
/// resource is served, for `count/<resource>.<group>` names.
pub(crate) fn usage_status(store: &Store, quota: &Value, served: impl Fn(&GroupResource) -> bool) -> Value {
    let namespace = quota["metadata"]["namespace"].as_str().unwrap_or_default();
    let hard = list_of(&quota["spec"]["hard"]);
    let hard_names: Vec<String> = hard.keys().cloned().collect();
    let mut used = list_of(&quota["status"]["used"]);
    let selectors = scope_selectors(quota);
    for (resource, evaluator) in evaluators_for(&hard_names, &served) {
        let matched = evaluator.matching_resources(&hard_names);
        if matched.is_empty() {
            continue;
        }
        // `CalculateUsageStats`: zero for each limited resource, plus each object in
        // all the quota's scopes.
        let mut total: ResourceList = matched
            .iter()
            .map(|name| (name.clone(), resources::Quantity::zero()))
            .collect();
        for object in &store.values(&resource) {
            if object["metadata"]["namespace"] != namespace
                || !selectors.iter().all(|s| evaluator.matches_scope(s, object))
            {
                continue;
            }
            total = add(&total, &evaluator.usage(object));
        }
        used.extend(mask(&total, &matched));
    }
    let used = mask(&used, &hard_names);
    serde_json::json!({"hard": to_json(&hard), "used": to_json(&used)})
}

/// The evaluators that answer for `names`: pods, services and claims for theirs, an
/// object counter for each served resource a `count/...` name or legacy name names.
fn evaluators_for(names: &[String], served: &impl Fn(&GroupResource) -> bool) -> Vec<(GroupResource, Evaluator)> {
    let core = |plural: &str| GroupResource {
        group: String::new(),
        resource: plural.to_owned(),
    };
    let mut resources: BTreeSet<GroupResource> = ["pods", "services", "persistentvolumeclaims"]
        .into_iter()
        .map(core)
        .collect();
    for name in names {
        if let Some(counted) = name.strip_prefix("count/") {
            let (plural, group) = counted.split_once('.').unwrap_or((counted, ""));
            resources.insert(GroupResource {
                group: group.to_owned(),
                resource: plural.to_owned(),
            });
        } else if ["configmaps", "secrets", "resourcequotas", "replicationcontrollers"].contains(&name.as_str()) {
            resources.insert(core(name));
        }
    }
    resources
        .into_iter()
        .filter(|r| served(r))
        .filter_map(|r| Evaluator::of(&r.group, &r.resource).map(|e| (r, e)))
        .collect()
}
