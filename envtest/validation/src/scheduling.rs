//! The validation of the `scheduling.k8s.io` API group's kinds
//! (`pkg/apis/scheduling/validation`): `PriorityClasses`. Names starting `system-` are
//! the two classes the cluster creates, with their values; other classes stay at or
//! below a billion.

use serde_json::Value;

use crate::common::fields::immutable_plain;
use crate::common::names::name_is_dns_subdomain;
use crate::common::read::{flag, int, opt_text, text};
use crate::core::{validate_object_meta, validate_object_meta_update};
use crate::field::{ErrorList, Path};
use crate::{Kind, Write};

/// `HighestUserDefinablePriority`.
const HIGHEST_USER_DEFINABLE_PRIORITY: i64 = 1_000_000_000;
/// `SystemPriorityClassPrefix`.
const SYSTEM_PREFIX: &str = "system-";
/// `SystemPriorityClasses()`: name, value, global default.
const SYSTEM_CLASSES: [(&str, i64, bool); 2] = [
    ("system-node-critical", 2_000_001_000, false),
    ("system-cluster-critical", 2_000_000_000, false),
];

/// The errors in `object`, a `scheduling.k8s.io` kind written as `write` says.
pub(crate) fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    if kind.kind != "PriorityClass" {
        return ErrorList::new();
    }
    match write.old() {
        None => validate_priority_class(object),
        Some(old) => {
            // `ValidatePriorityClassUpdate`.
            let mut errors = validate_object_meta_update(&object["metadata"], &old["metadata"], &Path::new("metadata"));
            if int(&object["value"]) != int(&old["value"]) {
                errors.push(Path::new("value").forbidden("may not be changed in an update."));
            }
            errors.extend(immutable_plain(
                &preemption_policy(object),
                &preemption_policy(old),
                &Path::new("preemptionPolicy"),
            ));
            errors
        }
    }
}

/// The preemption policy, v1's default (`PreemptLowerPriority`) when unset.
fn preemption_policy(object: &Value) -> Value {
    Value::from(opt_text(&object["preemptionPolicy"]).unwrap_or("PreemptLowerPriority"))
}

/// `ValidatePriorityClass`.
fn validate_priority_class(object: &Value) -> ErrorList {
    let mut errors = validate_object_meta(
        &object["metadata"],
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let name = text(&object["metadata"]["name"]);
    let value = int(&object["value"]);
    if name.starts_with(SYSTEM_PREFIX) {
        if let Err(reason) = known_system_class(name, value, flag(&object["globalDefault"])) {
            errors.push(Path::from_parts(&["metadata", "name"]).forbidden(&format!(
                "priority class names with '{SYSTEM_PREFIX}' prefix are reserved for system use only. error: {reason}"
            )));
        }
    } else if value > HIGHEST_USER_DEFINABLE_PRIORITY {
        errors.push(Path::new("value").forbidden(&format!(
            "maximum allowed value of a user defined priority is {HIGHEST_USER_DEFINABLE_PRIORITY}"
        )));
    }
    if let Some(policy) = opt_text(&object["preemptionPolicy"]) {
        // core's `ValidatePreemptionPolicy`.
        let path = Path::new("preemptionPolicy");
        match policy {
            "PreemptLowerPriority" | "Never" => {}
            "" => errors.push(path.required("")),
            other => errors.push(path.not_supported(other, &["PreemptLowerPriority", "Never"])),
        }
    }
    errors
}

/// `IsKnownSystemPriorityClass`.
fn known_system_class(name: &str, value: i64, global_default: bool) -> Result<(), String> {
    let Some((_, known_value, known_default)) = SYSTEM_CLASSES.iter().find(|(known, _, _)| *known == name) else {
        return Err(format!("{name} is not a known system priority class"));
    };
    if *known_value != value {
        return Err(format!("value of {name} PriorityClass must be {known_value}"));
    }
    if *known_default != global_default {
        return Err(format!("globalDefault of {name} PriorityClass must be {known_default}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::Write;
    use crate::testing::errors;

    #[test]
    fn system_and_user_priorities() {
        let system = json!({"metadata": {"name": "system-node-critical"}, "value": 2_000_001_000});
        assert!(errors("scheduling.k8s.io", "v1", "PriorityClass", &system, Write::Create).is_empty());
        let fake = json!({"metadata": {"name": "system-vg"}, "value": 1});
        assert_eq!(
            errors("scheduling.k8s.io", "v1", "PriorityClass", &fake, Write::Create),
            [
                "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-vg is not a known system priority class"
            ]
        );
        let old = json!({"metadata": {"name": "p"}, "value": 5});
        let new = json!({"metadata": {"name": "p"}, "value": 6, "preemptionPolicy": "Never"});
        assert_eq!(
            errors(
                "scheduling.k8s.io",
                "v1",
                "PriorityClass",
                &new,
                Write::Update { old: &old }
            ),
            [
                "value: Forbidden: may not be changed in an update.",
                "preemptionPolicy: Invalid value: \"Never\": field is immutable",
            ]
        );
    }
}
