//! Labels and the selectors over them: metav1's `LabelSelectorAsSelector` (which a
//! workload's template labels must satisfy), and the syntax of label and annotation
//! maps (metav1 `ValidateLabels`, apimachinery `ValidateAnnotations`), for the few
//! places outside object metadata that check them (a `StatefulSet`'s template).

use serde_json::Value;

use super::names::{label_value, qualified_name};
use super::read::{entries, items, text};
use crate::field::{ErrorList, Path};

/// The most bytes all annotations of an object may take (`TotalAnnotationSizeLimitB`).
const ANNOTATIONS_LIMIT: i64 = 256 * 1024;

/// One requirement of a selector: a key, an operator and its values.
#[derive(Debug, Clone)]
struct Requirement {
    key: String,
    operator: Operator,
    values: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Operator {
    In,
    NotIn,
    Exists,
    DoesNotExist,
}

/// A parsed label selector (`labels.Selector`).
#[derive(Debug, Clone)]
pub(crate) enum Selector {
    /// A nil selector: matches nothing (`labels.Nothing()`).
    Nothing,
    /// All requirements must hold; none matches everything.
    All(Vec<RequirementSet>),
}

/// The requirements of a selector, kept opaque to callers.
#[derive(Debug, Clone)]
pub(crate) struct RequirementSet(Requirement);

impl Selector {
    /// `Empty()`: no requirements (a nil selector is not empty: it selects nothing).
    pub(crate) fn is_empty(&self) -> bool {
        matches!(self, Self::All(requirements) if requirements.is_empty())
    }

    /// `Matches(labels.Set(labels))`.
    pub(crate) fn matches(&self, labels: &Value) -> bool {
        let Self::All(requirements) = self else {
            return false;
        };
        let label = |key: &str| entries(labels).and_then(|map| map.get(key)).map(text);
        requirements.iter().all(|RequirementSet(requirement)| {
            let value = label(&requirement.key);
            match requirement.operator {
                Operator::In => value.is_some_and(|v| requirement.values.iter().any(|x| x == v)),
                Operator::NotIn => value.is_none_or(|v| requirement.values.iter().all(|x| x != v)),
                Operator::Exists => value.is_some(),
                Operator::DoesNotExist => value.is_none(),
            }
        })
    }
}

/// metav1's `LabelSelectorAsSelector`: the selector a structured one means, or an
/// error when one of its requirements is malformed.
pub(crate) fn label_selector_as_selector(selector: &Value) -> Result<Selector, String> {
    if selector.is_null() {
        return Ok(Selector::Nothing);
    }
    let mut requirements = Vec::new();
    for (key, value) in entries(&selector["matchLabels"]).into_iter().flatten() {
        requirements.push(requirement(key, Operator::In, vec![text(value).to_owned()])?);
    }
    for expression in items(&selector["matchExpressions"]) {
        let operator = match text(&expression["operator"]) {
            "In" => Operator::In,
            "NotIn" => Operator::NotIn,
            "Exists" => Operator::Exists,
            "DoesNotExist" => Operator::DoesNotExist,
            other => return Err(format!("{other:?} is not a valid label selector operator")),
        };
        let values = items(&expression["values"])
            .iter()
            .map(|v| text(v).to_owned())
            .collect();
        requirements.push(requirement(text(&expression["key"]), operator, values)?);
    }
    Ok(Selector::All(requirements))
}

/// `labels.NewRequirement`: the key a qualified name, the values label values, and as
/// many values as the operator takes.
fn requirement(key: &str, operator: Operator, values: Vec<String>) -> Result<RequirementSet, String> {
    let mut problems = qualified_name(key);
    match operator {
        Operator::In | Operator::NotIn if values.is_empty() => {
            problems.push("for 'in', 'notin' operators, values set can't be empty".to_owned());
        }
        Operator::Exists | Operator::DoesNotExist if !values.is_empty() => {
            problems.push("values set must be empty for exists and does not exist".to_owned());
        }
        _ => {}
    }
    for value in &values {
        problems.extend(label_value(value));
    }
    if problems.is_empty() {
        Ok(RequirementSet(Requirement {
            key: key.to_owned(),
            operator,
            values,
        }))
    } else {
        Err(problems.join("; "))
    }
}

/// metav1 `ValidateLabels`: each key a qualified name, each value a label value.
pub(crate) fn validate_labels(labels: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    for (key, value) in entries(labels).into_iter().flatten() {
        for message in qualified_name(key) {
            errors.push(path.invalid(key.as_str(), &message));
        }
        for message in label_value(text(value)) {
            errors.push(path.invalid(value, &message));
        }
    }
    errors
}

/// apimachinery `ValidateAnnotations`: keys qualified names (case aside), all of them
/// within 256 `KiB`.
pub(crate) fn validate_annotations(annotations: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut size: i64 = 0;
    for (key, value) in entries(annotations).into_iter().flatten() {
        for message in qualified_name(&key.to_lowercase()) {
            errors.push(path.invalid(key.as_str(), &message));
        }
        let length = key.len().saturating_add(text(value).len());
        size = size.saturating_add(i64::try_from(length).unwrap_or(i64::MAX));
    }
    if size > ANNOTATIONS_LIMIT {
        errors.push(path.too_long(ANNOTATIONS_LIMIT));
    }
    errors
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn selectors_match_as_labels_selectors_do() {
        let selector = label_selector_as_selector(&json!({"matchLabels": {"a": "b"},
            "matchExpressions": [{"key": "t", "operator": "NotIn", "values": ["x"]}]}))
        .unwrap();
        assert!(selector.matches(&json!({"a": "b"})));
        assert!(!selector.matches(&json!({"a": "b", "t": "x"})));
        assert!(!selector.matches(&Value::Null));
        assert!(label_selector_as_selector(&json!({})).unwrap().is_empty());
        let nothing = label_selector_as_selector(&Value::Null).unwrap();
        assert!(!nothing.is_empty() && !nothing.matches(&json!({})));
    }

    #[test]
    fn malformed_requirements_are_errors() {
        let bad = |s: Value| label_selector_as_selector(&s).is_err();
        assert!(bad(json!({"matchExpressions": [{"key": "a", "operator": "Bogus"}]})));
        assert!(bad(json!({"matchExpressions": [{"key": "a", "operator": "In"}]})));
        assert!(bad(
            json!({"matchExpressions": [{"key": "a", "operator": "Exists", "values": ["x"]}]})
        ));
        assert!(bad(json!({"matchLabels": {"-a": "b"}})));
        assert!(bad(json!({"matchLabels": {"a": "-b"}})));
    }

    #[test]
    fn label_and_annotation_maps() {
        let path = Path::new("labels");
        assert_eq!(validate_labels(&json!({"a/b/c": "-"}), &path).len(), 2);
        assert!(validate_annotations(&json!({"Example.com/Key": "x"}), &path).is_empty());
        let big = json!({"a": "x".repeat(256 * 1024)});
        assert_eq!(
            validate_annotations(&big, &path)[0].body(),
            "Too long: may not be more than 262144 bytes"
        );
    }
}
