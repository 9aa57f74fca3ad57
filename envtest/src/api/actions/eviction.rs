//! `pods/eviction`: deleting a pod only when its `PodDisruptionBudget` allows one more
//! disruption, as `kubectl drain` and cluster autoscalers ask. A pod that is not
//! running (pending, finished, already being deleted) is deleted regardless.

use serde_json::{Value, json};

use super::check_name;
use crate::core::ApiError;
use crate::lifecycle::deletion::{self, DeleteOptions};
use crate::lifecycle::now;
use crate::state::ApiServer;

/// The answer when a budget allows no disruption now.
const VIOLATES_BUDGET: &str = "Cannot evict pod as it would violate the pod's disruption budget.";

/// Evicts pod `name` as the Eviction `body` asks.
pub(super) fn evict(server: &ApiServer, namespace: &str, name: &str, body: &Value) -> Result<(), ApiError> {
    check_name(Some(name), body, "Eviction")?;
    let options = match body.get("deleteOptions").filter(|o| !o.is_null()) {
        Some(options) => DeleteOptions::read_body(options)?,
        None => DeleteOptions::background(),
    };
    let mut state = server.shared.state.lock();
    let pods = state
        .registry
        .get("", "v1", "pods")
        .ok_or_else(ApiError::path_not_found)?;
    let pod = state
        .store
        .get(&pods.group_resource(), namespace, name)
        .ok_or_else(|| ApiError::not_found(&pods, name))?;
    let running = matches!(pod["status"]["phase"].as_str(), Some("Running" | "Unknown") | None)
        && pod["metadata"]["deletionTimestamp"].is_null();
    if running && let Some(budgets) = state.registry.get("policy", "v1", "poddisruptionbudgets") {
        let storage = budgets.group_resource();
        let labels = &pod["metadata"]["labels"];
        let covering: Vec<_> = state
            .store
            .objects(&storage)
            .values()
            .filter(|b| b["metadata"]["namespace"] == namespace)
            .filter(|b| {
                let selector = &b["spec"]["selector"];
                !selector.is_null()
                    && wheelhouse_selector::LabelSelector::from_structured(Some(selector))
                        .is_ok_and(|s| !s.is_empty() && s.matches(Some(labels)))
            })
            .cloned()
            .collect();
        if covering.len() > 1 {
            return Err(ApiError::new(
                500,
                "InternalError",
                "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
            ));
        }
        if let Some(budget) = covering.first() {
            let budget_name = budget["metadata"]["name"].as_str().unwrap_or_default().to_owned();
            let status = &budget["status"];
            let observed = status["observedGeneration"].as_i64().unwrap_or(0);
            let generation = budget["metadata"]["generation"].as_i64().unwrap_or(0);
            let allowed = status["disruptionsAllowed"].as_i64().unwrap_or(0);
            if observed < generation || allowed <= 0 {
                let why = if observed < generation {
                    format!("The disruption budget {budget_name} is still being processed by the server.")
                } else {
                    format!(
                        "The disruption budget {budget_name} needs {} healthy pods and has {} currently",
                        status["desiredHealthy"].as_i64().unwrap_or(0),
                        status["currentHealthy"].as_i64().unwrap_or(0)
                    )
                };
                let mut error = ApiError::new(429, "TooManyRequests", VIOLATES_BUDGET);
                error.details = Some(json!({"causes": [{"reason": "DisruptionBudget", "message": why}]}));
                error.retry_after = Some(10);
                return Err(error);
            }
            if !options.dry_run {
                let mut updated = budget.as_ref().clone();
                updated["status"]["disruptionsAllowed"] = json!(allowed - 1);
                updated["status"]["disruptedPods"][name] = json!(now());
                state
                    .store
                    .write(&storage, (namespace.to_owned(), budget_name), Some(updated));
            }
        }
    }
    deletion::delete(&mut state, &pods, namespace, name, &options).map(drop)
}
