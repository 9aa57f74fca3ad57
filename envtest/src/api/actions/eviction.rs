//! `pods/eviction`: deleting a pod only when its `PodDisruptionBudget` allows one more
//! disruption, as `kubectl drain` and cluster autoscalers ask, ported whole from
//! kube-apiserver's `EvictionREST.Create` (`pkg/registry/core/pod/storage/eviction.go`).
//!
//! - The request's `dryRun` and the Eviction's `deleteOptions.dryRun` are one
//!   (`propagateDryRun`): either may carry it, and both must agree. A dry run checks
//!   everything and changes nothing: the pod stays, the budget is not spent.
//! - A pod that is not running (`Pending`, `Succeeded`, `Failed`) or already being
//!   deleted is deleted without looking at budgets (`canIgnorePDB`).
//! - More than one budget selecting the pod is answered with a failure `Status` of
//!   code 500; no budget deletes the pod.
//! - A pod that is not Ready (`IsPodReady`) goes without spending the budget when the
//!   budget's `unhealthyPodEvictionPolicy` is `AlwaysAllow`, or (the default,
//!   `IfHealthyBudget`) when `currentHealthy >= desiredHealthy > 0`: the application is
//!   not disrupted by losing a pod that serves nothing.
//! - Otherwise `checkAndDecrement`: a budget whose status is older than its spec is
//!   429 "still being processed" (retry after 10 s), a negative budget or one with more
//!   than 2,000 pending disruptions is 403, zero disruptions allowed is 429; else the
//!   budget's `disruptionsAllowed` goes down by one, the pod is recorded in
//!   `disruptedPods` (and `DisruptionAllowed` turns False at zero), and the pod gets
//!   the `DisruptionTarget` condition before it is deleted.
//!
//! Everything happens under the server's lock, so no other write can come between
//! the budget's check and the pod's deletion: kube-apiserver's conflict retries
//! (`EvictionsRetry`) and resourceVersion preconditions guard that race there.

use std::sync::Arc;

use serde_json::{Value, json};

use super::check_name;
use crate::core::{ApiError, ResourceType};
use crate::lifecycle::deletion::{self, DeleteOptions};
use crate::lifecycle::now;
use crate::state::{ApiServer, State};

/// The answer when a budget allows no disruption now.
const VIOLATES_BUDGET: &str = "Cannot evict pod as it would violate the pod's disruption budget.";

/// `MaxDisruptedPodSize`: evictions approved but not yet seen by the disruption
/// controller beyond which a budget refuses more.
const MAX_DISRUPTED_POD_SIZE: usize = 2000;

/// What an eviction answers when it did not fail: a success, or the failure `Status`
/// kube-apiserver returns as the eviction's result (several budgets).
pub(super) enum Evicted {
    /// The pod is deleted (or would be, on a dry run).
    Success,
    /// A `Status` of failure with its code, returned rather than raised.
    Status(u16, String),
}

/// Evicts pod `name` as the Eviction `body` asks; `dry_run` is the request's `dryRun`.
pub(super) fn evict(
    server: &ApiServer,
    namespace: &str,
    name: &str,
    body: &Value,
    dry_run: Option<&[String]>,
) -> Result<Evicted, ApiError> {
    check_kind(body)?;
    check_name(Some(name), body, "Eviction")?;
    if body["deleteOptions"]["ignoreStoreReadErrorWithClusterBreakingPotential"] == true {
        let cause = (
            "deleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential",
            "FieldValueInvalid",
            "Invalid value: true: can not be set for pod eviction, try after removing the option".to_owned(),
        );
        return Err(ApiError::invalid_kind("policy", "Eviction", name, &[cause]));
    }
    let options = propagate_dry_run(body, dry_run)?;
    let is_dry_run = options["dryRun"].as_array().is_some_and(|values| !values.is_empty());
    let mut state = server.shared.state.lock();
    let pods = state
        .registry
        .get("", "v1", "pods")
        .ok_or_else(ApiError::path_not_found)?;
    let pod = state
        .store
        .get(&pods.group_resource(), namespace, name)
        .ok_or_else(|| ApiError::not_found(&pods, name))?;
    if can_ignore_budget(&pod) {
        delete_pod(&mut state, &pods, &pod, &options, is_dry_run)?;
        return Ok(Evicted::Success);
    }
    let budgets = budgets_of(&state, &pod);
    if budgets.len() > 1 {
        return Ok(Evicted::Status(
            500,
            "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.".into(),
        ));
    }
    if let Some(budget) = budgets.first() {
        let unhealthy_may_go = !is_pod_ready(&pod) && {
            let status = &budget["status"];
            let always = budget["spec"]["unhealthyPodEvictionPolicy"] == "AlwaysAllow";
            let desired = status["desiredHealthy"].as_i64().unwrap_or(0);
            always || (status["currentHealthy"].as_i64().unwrap_or(0) >= desired && desired > 0)
        };
        if !unhealthy_may_go {
            check_and_decrement(&mut state, budget, name, is_dry_run)?;
        }
    }
    delete_pod(&mut state, &pods, &pod, &options, is_dry_run)?;
    Ok(Evicted::Success)
}

/// The body must be an Eviction (`policy/v1` or `policy/v1beta1`, which the
/// subresource accepts); a body that names no kind is read as one.
fn check_kind(body: &Value) -> Result<(), ApiError> {
    let kind = body["kind"].as_str().unwrap_or_default();
    let api_version = body["apiVersion"].as_str().unwrap_or_default();
    if kind.is_empty() && api_version.is_empty() {
        return Ok(());
    }
    if kind == "Eviction" && matches!(api_version, "policy/v1" | "policy/v1beta1") {
        return Ok(());
    }
    // kube names the version without its group (`v1.ConfigMap`, `v1beta1.Foo`).
    let version = api_version.rsplit('/').next().unwrap_or_default();
    Err(ApiError::bad_request(format!(
        "{kind} in version \"{version}\" cannot be handled as a Eviction: converting ({version}.{kind}) to (policy.Eviction): unknown conversion"
    )))
}

/// `propagateDryRun`: the Eviction's `deleteOptions` with the request's `dryRun` when
/// it has none; both given and different is an error (a 500, as kube answers it).
fn propagate_dry_run(body: &Value, request: Option<&[String]>) -> Result<Value, ApiError> {
    let mut options = match body.get("deleteOptions") {
        Some(options) if options.is_object() => options.clone(),
        _ => json!({}),
    };
    let request: Vec<String> = request.map(<[String]>::to_vec).unwrap_or_default();
    let content: Vec<String> = options["dryRun"]
        .as_array()
        .map(|values| {
            values
                .iter()
                .map(|v| v.as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default();
    if content.is_empty() {
        if !request.is_empty() {
            options["dryRun"] = json!(request);
        }
    } else if !request.is_empty() && request != content {
        // Go's `%v` of a `[]string`: the values space-separated in brackets.
        return Err(ApiError::new(
            500,
            "",
            format!(
                "Non-matching dry-run options in request and content: [{}] and [{}]",
                request.join(" "),
                content.join(" ")
            ),
        ));
    }
    Ok(options)
}

/// `canIgnorePDB`: a pod that has finished, has not started, or is already being
/// deleted disrupts nothing more by going.
fn can_ignore_budget(pod: &Value) -> bool {
    matches!(
        pod["status"]["phase"].as_str(),
        Some("Succeeded" | "Failed" | "Pending")
    ) || pod["metadata"]["deletionTimestamp"].is_string()
}

/// `podutil.IsPodReady`: the pod's `Ready` condition is True.
fn is_pod_ready(pod: &Value) -> bool {
    pod["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|c| c["type"] == "Ready" && c["status"] == "True")
}

/// `getPodDisruptionBudgets`: the budgets of the pod's namespace whose selector
/// (`LabelSelectorAsSelector`: none selects nothing, an empty one everything, an
/// invalid one nothing) selects the pod.
fn budgets_of(state: &State, pod: &Value) -> Vec<Arc<Value>> {
    let Some(budgets) = state.registry.get("policy", "v1", "poddisruptionbudgets") else {
        return Vec::new();
    };
    let namespace = &pod["metadata"]["namespace"];
    let labels = pod["metadata"].get("labels");
    state
        .store
        .values(&budgets.group_resource())
        .iter()
        .filter(|b| &b["metadata"]["namespace"] == namespace)
        .filter(|b| {
            let selector = &b["spec"]["selector"];
            !selector.is_null()
                && wheelhouse_selector::LabelSelector::from_structured(Some(selector)).is_ok_and(|s| s.matches(labels))
        })
        .cloned()
        .collect()
}

/// `checkAndDecrement`: refuses when the budget allows no disruption now, else spends
/// one (not on a dry run) and records the pod as disrupted.
fn check_and_decrement(state: &mut State, budget: &Value, pod_name: &str, dry_run: bool) -> Result<(), ApiError> {
    let name = budget["metadata"]["name"].as_str().unwrap_or_default().to_owned();
    let status = &budget["status"];
    let observed = status["observedGeneration"].as_i64().unwrap_or(0);
    let generation = budget["metadata"]["generation"].as_i64().unwrap_or(0);
    if observed < generation {
        return Err(too_many_requests(
            &format!("The disruption budget {name} is still being processed by the server."),
            Some(10),
        ));
    }
    let allowed = status["disruptionsAllowed"].as_i64().unwrap_or(0);
    let forbidden = |why: &str| {
        let mut error = ApiError::new(
            403,
            "Forbidden",
            format!("poddisruptionbudget.policy \"{name}\" is forbidden: {why}"),
        );
        error.details = Some(json!({"name": name, "group": "policy", "kind": "poddisruptionbudget"}));
        error
    };
    if allowed < 0 {
        return Err(forbidden("pdb disruptions allowed is negative"));
    }
    let disrupted = status["disruptedPods"].as_object().map_or(0, serde_json::Map::len);
    if disrupted > MAX_DISRUPTED_POD_SIZE {
        return Err(forbidden(
            "DisruptedPods map too big - too many evictions not confirmed by PDB controller",
        ));
    }
    if allowed == 0 {
        return Err(too_many_requests(
            &format!(
                "The disruption budget {name} needs {} healthy pods and has {} currently",
                status["desiredHealthy"].as_i64().unwrap_or(0),
                status["currentHealthy"].as_i64().unwrap_or(0)
            ),
            None,
        ));
    }
    if dry_run {
        return Ok(());
    }
    let mut updated = budget.clone();
    updated["status"]["disruptionsAllowed"] = json!(allowed - 1);
    if allowed - 1 == 0 {
        set_disruption_allowed_false(&mut updated);
    }
    if !updated["status"]["disruptedPods"].is_object() {
        updated["status"]["disruptedPods"] = json!({});
    }
    updated["status"]["disruptedPods"][pod_name] = json!(now());
    let namespace = budget["metadata"]["namespace"].as_str().unwrap_or_default().to_owned();
    if let Some(budgets) = state.registry.get("policy", "v1", "poddisruptionbudgets") {
        state
            .store
            .write(&budgets.group_resource(), (namespace, name), Some(updated));
    }
    Ok(())
}

/// `UpdateDisruptionAllowedCondition` at zero disruptions allowed: the
/// `DisruptionAllowed` condition False for `InsufficientPods` (`SetStatusCondition`
/// keeps the transition time when the status does not change).
fn set_disruption_allowed_false(budget: &mut Value) {
    let observed = budget["status"]["observedGeneration"].clone();
    let mut conditions: Vec<Value> = budget["status"]["conditions"].as_array().cloned().unwrap_or_default();
    let condition = json!({"type": "DisruptionAllowed", "status": "False", "observedGeneration": observed,
        "lastTransitionTime": now(), "reason": "InsufficientPods", "message": ""});
    match conditions.iter_mut().find(|c| c["type"] == "DisruptionAllowed") {
        Some(existing) => {
            let transition = if existing["status"] == "False" {
                existing["lastTransitionTime"].clone()
            } else {
                condition["lastTransitionTime"].clone()
            };
            *existing = condition;
            existing["lastTransitionTime"] = transition;
        }
        None => conditions.push(condition),
    }
    budget["status"]["conditions"] = json!(conditions);
}

/// `NewTooManyRequests` with a `DisruptionBudget` cause.
fn too_many_requests(cause: &str, retry_after: Option<u64>) -> ApiError {
    let mut error = ApiError::new(429, "TooManyRequests", VIOLATES_BUDGET);
    error.details = Some(json!({"causes": [{"reason": "DisruptionBudget", "message": cause}]}));
    error.retry_after = retry_after;
    error
}

/// `addConditionAndDeletePod`: the pod gets the `DisruptionTarget` condition (not on a
/// dry run), then is deleted with the eviction's options, which are validated as a
/// delete's are.
fn delete_pod(
    state: &mut State,
    pods: &ResourceType,
    pod: &Value,
    options: &Value,
    dry_run: bool,
) -> Result<(), ApiError> {
    let options = DeleteOptions::read_body(options)?;
    let namespace = pod["metadata"]["namespace"].as_str().unwrap_or_default().to_owned();
    let name = pod["metadata"]["name"].as_str().unwrap_or_default().to_owned();
    if !dry_run {
        check_pod_preconditions(pod, &options)?;
        let mut marked = pod.clone();
        add_disruption_target(&mut marked);
        if marked != *pod {
            state
                .store
                .write(&pods.group_resource(), (namespace.clone(), name.clone()), Some(marked));
        }
    }
    let mut options = options;
    // The condition's write is the eviction's own: a resourceVersion precondition
    // the client gave was checked against the pod before it.
    options.resource_version = None;
    deletion::delete(state, pods, &namespace, &name, &options).map(drop)
}

/// The preconditions of the eviction's `deleteOptions`, checked before the condition
/// is written, as `getLatestPod` checks them (a 409 naming the resource `Pod`).
fn check_pod_preconditions(pod: &Value, options: &DeleteOptions) -> Result<(), ApiError> {
    let name = pod["metadata"]["name"].as_str().unwrap_or_default();
    let conflict = |why: String| {
        let mut error = ApiError::new(
            409,
            "Conflict",
            format!("Operation cannot be fulfilled on Pod \"{name}\": {why}"),
        );
        error.details = Some(json!({"name": name, "kind": "Pod"}));
        error
    };
    let uid = pod["metadata"]["uid"].as_str().unwrap_or_default();
    if let Some(expected) = options.uid.as_deref().filter(|u| !u.is_empty())
        && expected != uid
    {
        return Err(conflict(format!(
            "the UID in the precondition ({expected}) does not match the UID in record ({uid}). The object might have been deleted and then recreated"
        )));
    }
    let version = pod["metadata"]["resourceVersion"].as_str().unwrap_or_default();
    if let Some(expected) = options.resource_version.as_deref().filter(|v| !v.is_empty())
        && expected != version
    {
        return Err(conflict(format!(
            "the ResourceVersion in the precondition ({expected}) does not match the ResourceVersion in record ({version}). The object might have been modified"
        )));
    }
    Ok(())
}

/// `UpdatePodCondition` with `DisruptionTarget`: added with the current time, or
/// updated (its transition time kept unless its status changes).
fn add_disruption_target(pod: &mut Value) {
    let condition = json!({"type": "DisruptionTarget", "status": "True", "lastProbeTime": null,
        "lastTransitionTime": now(), "reason": "EvictionByEvictionAPI", "message": "Eviction API: evicting"});
    if !pod["status"].is_object() {
        pod["status"] = json!({});
    }
    let mut conditions: Vec<Value> = pod["status"]["conditions"].as_array().cloned().unwrap_or_default();
    match conditions.iter_mut().find(|c| c["type"] == "DisruptionTarget") {
        Some(existing) => {
            let mut updated = condition;
            if existing["status"] == "True" {
                updated["lastTransitionTime"] = existing["lastTransitionTime"].clone();
                updated["lastProbeTime"] = existing["lastProbeTime"].clone();
            }
            *existing = updated;
        }
        None => conditions.push(condition),
    }
    pod["status"]["conditions"] = json!(conditions);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_request_s_dry_run_and_the_eviction_s_are_one() {
        let body = json!({"metadata": {"name": "p"}});
        let all = ["All".to_owned()];
        assert_eq!(propagate_dry_run(&body, Some(&all)).unwrap()["dryRun"], json!(["All"]));
        assert_eq!(propagate_dry_run(&body, None).unwrap(), json!({}));
        let own = json!({"metadata": {"name": "p"}, "deleteOptions": {"dryRun": ["All"]}});
        assert_eq!(propagate_dry_run(&own, None).unwrap()["dryRun"], json!(["All"]));
        let other = json!({"metadata": {"name": "p"}, "deleteOptions": {"dryRun": ["x"]}});
        let error = propagate_dry_run(&other, Some(&all)).unwrap_err();
        assert_eq!(
            (error.code, error.message.as_str()),
            (
                500,
                "Non-matching dry-run options in request and content: [All] and [x]"
            )
        );
    }

    #[test]
    fn pods_that_are_not_running_ignore_budgets() {
        for phase in ["Pending", "Succeeded", "Failed"] {
            assert!(can_ignore_budget(&json!({"status": {"phase": phase}})));
        }
        assert!(!can_ignore_budget(&json!({"status": {"phase": "Running"}})));
        assert!(can_ignore_budget(
            &json!({"metadata": {"deletionTimestamp": "2024-01-01T00:00:00Z"}, "status": {"phase": "Running"}})
        ));
    }

    #[test]
    fn the_disruption_target_condition_is_added_once() {
        let mut pod = json!({"status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}});
        add_disruption_target(&mut pod);
        let first = pod["status"]["conditions"][1].clone();
        assert_eq!(
            (first["type"].as_str(), first["reason"].as_str()),
            (Some("DisruptionTarget"), Some("EvictionByEvictionAPI"))
        );
        add_disruption_target(&mut pod);
        assert_eq!(pod["status"]["conditions"].as_array().unwrap().len(), 2);
    }

    #[test]
    fn bodies_of_another_kind_are_refused_as_kube_refuses_them() {
        assert!(check_kind(&json!({"metadata": {"name": "p"}})).is_ok());
        assert!(check_kind(&json!({"apiVersion": "policy/v1beta1", "kind": "Eviction"})).is_ok());
        let error = check_kind(&json!({"apiVersion": "v1", "kind": "ConfigMap"})).unwrap_err();
        assert_eq!(
            error.message,
            "ConfigMap in version \"v1\" cannot be handled as a Eviction: converting (v1.ConfigMap) to (policy.Eviction): unknown conversion"
        );
    }
}
