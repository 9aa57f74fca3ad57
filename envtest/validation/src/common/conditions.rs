//! metav1 `ValidateConditions`: the standard `metav1.Condition` list that status
//! writes carry (a `PodDisruptionBudget`'s, a `StorageVersionMigration`'s).

use serde_json::Value;

use super::fields::validate_qualified_name;
use super::read::{int, items, text};
use crate::field::{ErrorList, Path};

const MAX_REASON_LENGTH: i64 = 1024;
const MAX_MESSAGE_LENGTH: i64 = 32 * 1024;

/// `ValidateConditions`: each condition valid, no type twice.
pub(crate) fn validate_conditions(conditions: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut seen = std::collections::HashSet::new();
    for (index, condition) in items(conditions).iter().enumerate() {
        let kind = text(&condition["type"]);
        if !seen.insert(kind) {
            errors.push(path.index(index).child("type").duplicate(kind));
        }
        errors.extend(validate_condition(condition, &path.index(index)));
    }
    errors
}

/// `ValidateCondition`.
fn validate_condition(condition: &Value, path: &Path) -> ErrorList {
    let mut errors = validate_qualified_name(text(&condition["type"]), &path.child("type"));
    let status = text(&condition["status"]);
    if !matches!(status, "True" | "False" | "Unknown") {
        errors.push(
            path.child("status")
                .not_supported(status, &["False", "True", "Unknown"]),
        );
    }
    let generation = int(&condition["observedGeneration"]);
    if generation < 0 {
        errors.push(
            path.child("observedGeneration")
                .invalid(&Value::from(generation), "must be greater than or equal to zero"),
        );
    }
    let transition = text(&condition["lastTransitionTime"]);
    if transition.is_empty() || transition.starts_with("0001-01-01T00:00:00") {
        errors.push(path.child("lastTransitionTime").required("must be set"));
    }
    let reason = text(&condition["reason"]);
    if reason.is_empty() {
        errors.push(path.child("reason").required("must be set"));
    } else {
        if !is_condition_reason(reason) {
            errors.push(path.child("reason").invalid(
                reason,
                &wheelhouse_envtest_schema::names::regex_error(
                    "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
                    "[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?",
                    &["my_name", "MY_NAME", "MyName", "ReasonA,ReasonB", "ReasonA:ReasonB"],
                ),
            ));
        }
        if i64::try_from(reason.len()).unwrap_or(i64::MAX) > MAX_REASON_LENGTH {
            errors.push(path.child("reason").too_long(MAX_REASON_LENGTH));
        }
    }
    if i64::try_from(text(&condition["message"]).len()).unwrap_or(i64::MAX) > MAX_MESSAGE_LENGTH {
        errors.push(path.child("message").too_long(MAX_MESSAGE_LENGTH));
    }
    errors
}

/// `[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?`.
fn is_condition_reason(reason: &str) -> bool {
    let bytes = reason.as_bytes();
    bytes.first().is_some_and(u8::is_ascii_alphabetic)
        && bytes.last().is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b',' | b':'))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn conditions_are_unique_and_complete() {
        let conditions = json!([
            {"type": "Ready", "status": "True", "lastTransitionTime": "2024-01-01T00:00:00Z", "reason": "Fine"},
            {"type": "Ready", "status": "Maybe", "reason": "bad reason", "observedGeneration": -1},
        ]);
        let errors = validate_conditions(&conditions, &Path::from_parts(&["status", "conditions"]));
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            vec![
                "status.conditions[1].type",
                "status.conditions[1].status",
                "status.conditions[1].observedGeneration",
                "status.conditions[1].lastTransitionTime",
                "status.conditions[1].reason",
            ]
        );
    }
}
