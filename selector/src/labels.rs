//! Label selectors: the query-string syntax of list and watch, parsed as
//! apimachinery's `labels.Parse` parses it (its lexer, its recursive-descent parser and
//! `NewRequirement`'s checks, with their error messages), and the structured
//! `LabelSelector` of workloads and webhooks, read as `LabelSelectorAsSelector` reads
//! it. Kube: `staging/src/k8s.io/apimachinery/pkg/labels/selector.go` and
//! `pkg/apis/meta/v1/helpers.go`.

mod parser;

use std::collections::BTreeMap;

use serde_json::Value;

use crate::SelectorError;
use crate::validation::{go_quote, is_qualified_name, is_valid_label_value};

/// `selection.Operator`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operator {
    In,
    NotIn,
    Equals,
    DoubleEquals,
    NotEquals,
    Exists,
    DoesNotExist,
    GreaterThan,
    LessThan,
}

/// One requirement on one label: a key, an operator and its values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Requirement {
    key: String,
    operator: Operator,
    values: Vec<String>,
}

impl Requirement {
    /// `NewRequirement`: checks the key, the values the operator needs and each value
    /// as a label value; the errors aggregated as `ToAggregate` writes them (paths
    /// `key`, `values`, `values[i]`, `values[i][key]`, as the parser's nil path makes
    /// them).
    pub(crate) fn new(key: &str, operator: Operator, values: Vec<String>) -> Result<Self, SelectorError> {
        let mut errors: Vec<String> = Vec::new();
        let key_errors = is_qualified_name(key);
        if !key_errors.is_empty() {
            errors.push(format!(
                "key: Invalid value: {}: {}",
                go_quote(key),
                key_errors.join("; ")
            ));
        }
        let listed = || {
            let quoted: Vec<String> = values.iter().map(|v| go_quote(v)).collect();
            format!("[]string{{{}}}", quoted.join(", "))
        };
        match operator {
            Operator::In | Operator::NotIn if values.is_empty() => errors.push(format!(
                "values: Invalid value: {}: for 'in', 'notin' operators, values set can't be empty",
                listed()
            )),
            Operator::Equals | Operator::DoubleEquals | Operator::NotEquals if values.len() != 1 => {
                errors.push(format!(
                    "values: Invalid value: {}: exact-match compatibility requires one single value",
                    listed()
                ));
            }
            Operator::Exists | Operator::DoesNotExist if !values.is_empty() => errors.push(format!(
                "values: Invalid value: {}: values set must be empty for exists and does not exist",
                listed()
            )),
            Operator::GreaterThan | Operator::LessThan => {
                if values.len() != 1 {
                    errors.push(format!(
                        "values: Invalid value: {}: for 'Gt', 'Lt' operators, exactly one value is required",
                        listed()
                    ));
                }
                for (i, value) in values.iter().enumerate() {
                    if value.parse::<i64>().is_err() {
                        errors.push(format!(
                            "values[{i}]: Invalid value: {}: for 'Gt', 'Lt' operators, the value must be an integer",
                            go_quote(value)
                        ));
                    }
                }
            }
            _ => {}
        }
        for (i, value) in values.iter().enumerate() {
            let value_errors = is_valid_label_value(value);
            if !value_errors.is_empty() {
                errors.push(format!(
                    "values[{i}][{key}]: Invalid value: {}: {}",
                    go_quote(value),
                    value_errors.join("; ")
                ));
            }
        }
        if errors.is_empty() {
            return Ok(Self {
                key: key.to_owned(),
                operator,
                values,
            });
        }
        Err(SelectorError(aggregate(errors)))
    }

    /// `Requirement.Matches`.
    fn matches<'a>(&self, label: &impl Fn(&str) -> Option<&'a str>) -> bool {
        let found = label(&self.key);
        let has = |value: &str| self.values.iter().any(|v| v == value);
        match self.operator {
            Operator::In | Operator::Equals | Operator::DoubleEquals => found.is_some_and(has),
            Operator::NotIn | Operator::NotEquals => found.is_none_or(|v| !has(v)),
            Operator::Exists => found.is_some(),
            Operator::DoesNotExist => found.is_none(),
            Operator::GreaterThan | Operator::LessThan => {
                let (Some(found), [bound]) = (found.and_then(|v| v.parse::<i64>().ok()), self.values.as_slice()) else {
                    return false;
                };
                let Ok(bound) = bound.parse::<i64>() else {
                    return false;
                };
                if self.operator == Operator::GreaterThan {
                    found > bound
                } else {
                    found < bound
                }
            }
        }
    }
}

/// `ErrorList.ToAggregate().Error()`: one message as is, several in brackets, each
/// distinct message once.
fn aggregate(errors: Vec<String>) -> String {
    let mut distinct: Vec<String> = Vec::new();
    for error in errors {
        if !distinct.contains(&error) {
            distinct.push(error);
        }
    }
    if distinct.len() == 1 {
        distinct.remove(0)
    } else {
        format!("[{}]", distinct.join(", "))
    }
}

/// A parsed label selector: every requirement must hold. The empty selector matches
/// everything.
///
/// ```
/// use serde_json::json;
/// use wheelhouse_selector::LabelSelector;
///
/// let selector = LabelSelector::parse("app=web,tier in (front,back),!legacy").unwrap();
/// assert!(selector.matches(Some(&json!({"app": "web", "tier": "front"}))));
/// assert!(!selector.matches(Some(&json!({"app": "web", "tier": "front", "legacy": "yes"}))));
/// let error = LabelSelector::parse("env,,tier").unwrap_err();
/// assert_eq!(error.to_string(), "found ',', expected: identifier after ','");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LabelSelector {
    requirements: Vec<Requirement>,
}

impl LabelSelector {
    /// Parses the query-string form (`labels.Parse`): `=`, `==`, `!=`, `in`, `notin`,
    /// `key`, `!key`, `>` and `<`; the error is the message kube-apiserver answers a bad
    /// selector with (a 400).
    pub fn parse(text: &str) -> Result<Self, SelectorError> {
        let mut requirements = parser::parse(text)?;
        requirements.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(Self { requirements })
    }

    /// Reads a structured `LabelSelector` (`matchLabels`, `matchExpressions`) as
    /// `LabelSelectorAsSelector` does, each requirement checked by `NewRequirement`;
    /// `None`, `null` or an empty selector selects everything (kube's nil selector
    /// selects nothing: callers that need that check for null themselves).
    pub fn from_structured(selector: Option<&Value>) -> Result<Self, SelectorError> {
        let mut requirements = Vec::new();
        let Some(selector) = selector.filter(|s| !s.is_null()) else {
            return Ok(Self::default());
        };
        if let Some(labels) = selector.get("matchLabels").and_then(Value::as_object) {
            for (key, value) in labels {
                let value = value.as_str().unwrap_or_default().to_owned();
                requirements.push(Requirement::new(key, Operator::Equals, vec![value])?);
            }
        }
        for expression in selector
            .get("matchExpressions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let key = expression.get("key").and_then(Value::as_str).unwrap_or_default();
            let values: Vec<String> = expression
                .get("values")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect();
            let operator = match expression.get("operator").and_then(Value::as_str).unwrap_or_default() {
                "In" => Operator::In,
                "NotIn" => Operator::NotIn,
                "Exists" => Operator::Exists,
                "DoesNotExist" => Operator::DoesNotExist,
                other => {
                    return Err(SelectorError(format!(
                        "{} is not a valid label selector operator",
                        go_quote(other)
                    )));
                }
            };
            requirements.push(Requirement::new(key, operator, values)?);
        }
        Ok(Self { requirements })
    }

    /// True when the selector has no requirement.
    pub fn is_empty(&self) -> bool {
        self.requirements.is_empty()
    }

    /// Whether `labels` (the `metadata.labels` object, or null) satisfy the selector.
    pub fn matches(&self, labels: Option<&Value>) -> bool {
        self.matches_with(|key| labels.and_then(|l| l.get(key)).and_then(Value::as_str))
    }

    /// Whether a typed object's labels satisfy the selector.
    pub fn matches_labels(&self, labels: Option<&BTreeMap<String, String>>) -> bool {
        self.matches_with(|key| labels.and_then(|l| l.get(key)).map(String::as_str))
    }

    /// Whether the labels that `label` looks up satisfy the selector.
    pub fn matches_with<'a>(&self, label: impl Fn(&str) -> Option<&'a str>) -> bool {
        self.requirements.iter().all(|requirement| requirement.matches(&label))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn every_operator_of_the_query_syntax() {
        let labels = json!({"app": "web", "tier": "front", "replicas": "3"});
        let yes = [
            "app=web",
            "app==web",
            "app!=db",
            "tier in (front,back)",
            "tier notin (db)",
            "app",
            "!legacy",
            "app=web,tier",
            "replicas>2",
            "replicas<4",
            "legacy notin ()",
        ];
        let no = [
            "app=db",
            "app!=web",
            "tier in (back)",
            "tier notin (front, back)",
            "legacy",
            "!app",
            "app=web,legacy",
            "replicas>3",
            "app>1",
        ];
        for text in yes {
            assert!(
                LabelSelector::parse(text).unwrap().matches(Some(&labels)),
                "{text} should match"
            );
        }
        for text in no {
            assert!(
                !LabelSelector::parse(text).unwrap().matches(Some(&labels)),
                "{text} should not match"
            );
        }
        assert!(
            LabelSelector::parse("x in (in)")
                .unwrap()
                .matches(Some(&json!({"x": "in"})))
        );
    }

    #[test]
    fn syntax_errors_are_worded_as_kube_words_them() {
        let error = |text: &str| LabelSelector::parse(text).unwrap_err().to_string();
        assert_eq!(error("env,,tier"), "found ',', expected: identifier after ','");
        assert_eq!(error(","), "found ',', expected: !, identifier, or 'end of string'");
        assert_eq!(
            error("env in (a,b"),
            "unable to parse requirement: found '', expected: ',' or ')'"
        );
        assert_eq!(
            error("env in a"),
            "unable to parse requirement: found 'a' expected: '('"
        );
        assert_eq!(
            error("a===b"),
            "unable to parse requirement: found '=', expected: identifier"
        );
        assert_eq!(error("a=b c"), "found 'c', expected: ',' or 'end of string'");
        assert_eq!(error("!a=b"), "found '=', expected: ',' or 'end of string'");
        assert_eq!(
            error("!"),
            "unable to parse requirement: found '', expected: identifier"
        );
        assert_eq!(
            error("a b"),
            "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"
        );
        assert_eq!(
            error("a in (b c)"),
            "unable to parse requirement: found 'c', expected: ',' or ')'"
        );
        assert_eq!(
            error("a <> b"),
            "unable to parse requirement: found '>', expected: identifier"
        );
        assert_eq!(
            error("a>x"),
            "unable to parse requirement: values[0]: Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer"
        );
        assert!(
            error("-bad=x")
                .starts_with("unable to parse requirement: <nil>: Invalid value: \"-bad\": name part must consist of")
        );
        assert!(
            error(&format!("env={}", "v".repeat(64)))
                .starts_with("unable to parse requirement: values[0][env]: Invalid value: \"vvvv")
        );
        // Values are sorted before they are checked, so indexes follow the sorted set.
        assert!(error("a in (b,-c)").starts_with("unable to parse requirement: values[0][a]: Invalid value: \"-c\""));
        assert!(error("a in (-b,-c)").starts_with("unable to parse requirement: [values[0][a]"));
    }

    #[test]
    fn empty_and_odd_but_valid_selectors() {
        for text in [
            "",
            "a=",
            "a in ()",
            "a notin (,)",
            "a in (,b)",
            "  a  =  b  ",
            "a==b",
            "a!=b",
        ] {
            assert!(LabelSelector::parse(text).is_ok(), "{text}");
        }
        let selector = LabelSelector::parse("a in (,b)").unwrap();
        assert!(selector.matches(Some(&json!({"a": ""}))));
    }

    #[test]
    fn structured_selectors() {
        let selector = json!({"matchLabels": {"app": "web"}, "matchExpressions": [{"key": "env", "operator": "NotIn", "values": ["prod"]}]});
        let selector = LabelSelector::from_structured(Some(&selector)).unwrap();
        assert!(selector.matches(Some(&json!({"app": "web"}))));
        assert!(!selector.matches(Some(&json!({"app": "web", "env": "prod"}))));
        assert!(LabelSelector::from_structured(None).unwrap().matches(None));
        let bad = json!({"matchExpressions": [{"key": "env", "operator": "Gt", "values": ["1"]}]});
        assert_eq!(
            LabelSelector::from_structured(Some(&bad)).unwrap_err().to_string(),
            "\"Gt\" is not a valid label selector operator"
        );
        let empty_in = json!({"matchExpressions": [{"key": "env", "operator": "In", "values": []}]});
        assert_eq!(
            LabelSelector::from_structured(Some(&empty_in)).unwrap_err().to_string(),
            "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty"
        );
    }
}
