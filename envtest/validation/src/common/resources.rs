//! Resource names and quantities as core's validation checks them in containers'
//! requirements and in a `RuntimeClass`'s overhead (`validateContainerResourceName`,
//! `ValidateResourceQuantityValue`, the limits half of `validateResourceRequirements`).
//!
//! Not here: the huge-page size rule of requirements, and the canonical form Go prints
//! quantities in (the text as written is shown instead).

use serde_json::Value;
use wheelhouse_envtest_schema::Quantity;
use wheelhouse_envtest_schema::errors::BadValue;

use super::fields::NEGATIVE;
use super::read::{entries, text};
use crate::field::{ErrorList, Path};

/// `IsStandardResourceName`'s set (`standardResources`).
const STANDARD_RESOURCES: [&str; 20] = [
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
    "resourcequotas",
    "services",
    "replicationcontrollers",
    "secrets",
    "configmaps",
    "persistentvolumeclaims",
    "storage",
    "requests.storage",
    "services.nodeports",
    "services.loadbalancers",
];

/// core/v1's `ValidateContainerResourceName`: a qualified name that is a standard
/// container resource (`cpu`, `memory`, `ephemeral-storage`, `hugepages-*`) or, with
/// a prefix, a native or extended resource.
pub(crate) fn validate_container_resource_name(name: &str, path: &Path) -> ErrorList {
    // A `core.ResourceName` prints through its `String()`: unquoted.
    let shown = || BadValue::Raw(name.to_owned());
    // `validateResourceName`.
    let qualified: ErrorList = super::names::qualified_name(name)
        .iter()
        .map(|message| path.invalid(shown(), message))
        .collect();
    if !qualified.is_empty() {
        return qualified;
    }
    let mut errors = ErrorList::new();
    let unprefixed = !name.contains('/');
    let quota_huge_pages = name.starts_with("requests.hugepages-") || name.starts_with("limits.hugepages-");
    if unprefixed && !STANDARD_RESOURCES.contains(&name) && !quota_huge_pages {
        errors.push(path.invalid(shown(), "must be a standard resource type or fully qualified"));
    }
    if unprefixed {
        let container = matches!(name, "cpu" | "memory" | "ephemeral-storage") || name.starts_with("hugepages-");
        if !container {
            errors.push(path.invalid(shown(), "must be a standard resource for containers"));
        }
    } else if !name.contains("kubernetes.io/") {
        // `IsExtendedResourceName`: not `requests.`-prefixed, and a qualified name
        // once it is.
        let extended =
            !name.starts_with("requests.") && super::names::qualified_name(&format!("requests.{name}")).is_empty();
        if !extended {
            errors.push(path.invalid(shown(), "doesn't follow extended resource name standard"));
        }
    }
    errors
}

/// `IsIntegerResourceName`: counted objects and extended resources.
fn is_integer_resource(name: &str) -> bool {
    let counted = [
        "pods",
        "resourcequotas",
        "services",
        "replicationcontrollers",
        "secrets",
        "configmaps",
        "persistentvolumeclaims",
        "services.nodeports",
        "services.loadbalancers",
    ];
    let extended = name.contains('/')
        && !name.contains("kubernetes.io/")
        && !name.starts_with("requests.")
        && super::names::qualified_name(&format!("requests.{name}")).is_empty();
    counted.contains(&name) || extended
}

/// `ValidateResourceQuantityValue`: not negative, and whole for counted resources.
pub(crate) fn validate_resource_quantity_value(name: &str, quantity: &str, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let (Ok(value), Ok(zero)) = (Quantity::parse(quantity), Quantity::parse("0")) else {
        return errors;
    };
    if value < zero {
        errors.push(path.invalid(quantity, NEGATIVE));
    }
    if is_integer_resource(name) {
        // `MilliValue() % 1000 != 0`: a fraction of a unit.
        let whole = Quantity::parse(&quantity_units(quantity).to_string()).ok();
        if whole.is_none_or(|whole| whole != value) {
            errors.push(path.invalid(quantity, "must be an integer"));
        }
    }
    errors
}

/// A quantity's whole units, rounded toward zero (0 when it does not parse as a
/// plain or suffixed number).
fn quantity_units(quantity: &str) -> i128 {
    let Ok(value) = Quantity::parse(quantity) else {
        return 0;
    };
    // Walk down from the largest power of ten the value could hold.
    let Ok(zero) = Quantity::parse("0") else {
        return 0;
    };
    let negative = value < zero;
    let mut units: i128 = 0;
    for exponent in (0..=30).rev() {
        let step = 10_i128.pow(exponent);
        loop {
            let next = if negative { units - step } else { units + step };
            let Ok(candidate) = Quantity::parse(&next.to_string()) else {
                break;
            };
            let within = if negative {
                candidate >= value
            } else {
                candidate <= value
            };
            if !within {
                break;
            }
            units = next;
        }
    }
    units
}

/// The limits half of `validateResourceRequirements` (what a `RuntimeClass`'s
/// `overhead.podFixed` is checked with).
pub(crate) fn validate_limits(limits: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    for (name, quantity) in entries(limits).into_iter().flatten() {
        let entry = path.child("limits").key(name);
        errors.extend(validate_container_resource_name(name, &entry));
        errors.extend(validate_resource_quantity_value(name, text(quantity), &entry));
    }
    errors
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn resource_names_and_quantities() {
        let path = Path::new("overhead");
        assert!(validate_limits(&json!({"cpu": "250m", "memory": "1Gi"}), &path).is_empty());
        let errors = validate_limits(&json!({"bogus": "1", "cpu": "-1", "example.com/gpu": "1.5"}), &path);
        let bodies: Vec<String> = errors.iter().map(|e| format!("{}: {}", e.field, e.body())).collect();
        assert_eq!(
            bodies,
            vec![
                "overhead.limits[bogus]: Invalid value: bogus: must be a standard resource type or fully qualified",
                "overhead.limits[bogus]: Invalid value: bogus: must be a standard resource for containers",
                "overhead.limits[cpu]: Invalid value: \"-1\": must be greater than or equal to 0",
                "overhead.limits[example.com/gpu]: Invalid value: \"1.5\": must be an integer",
            ]
        );
        assert_eq!(quantity_units("2500m"), 2);
        assert_eq!(quantity_units("3k"), 3000);
    }
}
