//! The validation of the `policy` API group's kinds (`pkg/apis/policy/validation`):
//! `PodDisruptionBudgets`. Their strategy validates the spec only (no object metadata:
//! the generic path-segment name check that follows every strategy applies).

use serde_json::Value;

use crate::apps::{is_not_more_than_100_percent, validate_positive_int_or_percent};
use crate::common::conditions::validate_conditions;
use crate::common::fields::nonnegative;
use crate::common::go_syntax::{GoStruct, pointer, raw};
use crate::common::read::{int, is_set, opt_text};
use crate::field::{ErrorList, Path};
use crate::meta::validate_label_selector;
use crate::{Kind, Write};

/// The errors in `object`, a `policy` kind written as `write` says.
pub(crate) fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    if kind.kind != "PodDisruptionBudget" {
        return ErrorList::new();
    }
    match write {
        Write::Create | Write::Update { .. } => {
            validate_pod_disruption_budget_spec(&object["spec"], &Path::new("spec"))
        }
        Write::Subresource { name: "status", .. } => validate_status_update(&object["status"], &Path::new("status")),
        Write::Subresource { .. } => ErrorList::new(),
    }
}

/// `ValidatePodDisruptionBudgetSpec`.
fn validate_pod_disruption_budget_spec(spec: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let min = &spec["minAvailable"];
    let max = &spec["maxUnavailable"];
    if is_set(min) && is_set(max) {
        let shown = GoStruct::new("policy.PodDisruptionBudgetSpec")
            .field("MinAvailable", pointer("intstr.IntOrString", min))
            .field("Selector", pointer("v1.LabelSelector", &spec["selector"]))
            .field("MaxUnavailable", pointer("intstr.IntOrString", max))
            .field(
                "UnhealthyPodEvictionPolicy",
                pointer(
                    "policy.UnhealthyPodEvictionPolicyType",
                    &spec["unhealthyPodEvictionPolicy"],
                ),
            )
            .end();
        errors.push(path.invalid(raw(shown), "minAvailable and maxUnavailable cannot be both set"));
    }
    for (field, value) in [("minAvailable", min), ("maxUnavailable", max)] {
        if is_set(value) {
            errors.extend(validate_positive_int_or_percent(value, &path.child(field)));
            errors.extend(is_not_more_than_100_percent(value, &path.child(field)));
        }
    }
    errors.extend(validate_label_selector(&spec["selector"], &path.child("selector")));
    if let Some(policy) = opt_text(&spec["unhealthyPodEvictionPolicy"])
        && !matches!(policy, "IfHealthyBudget" | "AlwaysAllow")
    {
        errors.push(
            path.child("unhealthyPodEvictionPolicy")
                .not_supported(policy, &["AlwaysAllow", "IfHealthyBudget"]),
        );
    }
    errors
}

/// `ValidatePodDisruptionBudgetStatusUpdate` (policy/v1).
fn validate_status_update(status: &Value, path: &Path) -> ErrorList {
    let mut errors = validate_conditions(&status["conditions"], &path.child("conditions"));
    for field in ["disruptionsAllowed", "currentHealthy", "desiredHealthy", "expectedPods"] {
        errors.extend(nonnegative(int(&status[field]), &path.child(field)));
    }
    errors
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::Write;
    use crate::testing::errors;

    #[test]
    fn budgets_bound_one_side() {
        let budget =
            json!({"metadata": {"name": "team:web"}, "spec": {"minAvailable": -1, "unhealthyPodEvictionPolicy": "X"}});
        assert_eq!(
            errors("policy", "v1", "PodDisruptionBudget", &budget, Write::Create),
            [
                "spec.minAvailable: Invalid value: -1: must be greater than or equal to 0",
                "spec.unhealthyPodEvictionPolicy: Unsupported value: \"X\": supported values: \"AlwaysAllow\", \"IfHealthyBudget\"",
            ]
        );
        let mut status = budget.clone();
        status["status"] = json!({"disruptionsAllowed": -1, "conditions": [{"type": "X", "status": "True", "reason": "Fine", "lastTransitionTime": "2024-01-01T00:00:00Z"}]});
        assert_eq!(
            errors(
                "policy",
                "v1",
                "PodDisruptionBudget",
                &status,
                Write::Subresource {
                    name: "status",
                    old: &budget
                }
            ),
            ["status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0"]
        );
    }
}
