//! Kubernetes label and field selectors, in both their forms: the query-string syntax of list and
//! watch (`app=web,tier in (a,b),!legacy`) and the structured `LabelSelector` of
//! webhooks and workloads (`matchLabels` + `matchExpressions`).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

/// One requirement on one label.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Requirement {
    Equals(String, String),
    NotEquals(String, String),
    In(String, BTreeSet<String>),
    NotIn(String, BTreeSet<String>),
    Exists(String),
    DoesNotExist(String),
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
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LabelSelector {
    requirements: Vec<Requirement>,
}

/// A selector the server cannot parse; the message is the one clients see.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unable to parse requirement: {0}")]
pub struct SelectorError(String);

impl LabelSelector {
    /// Parses the query-string form: `=`, `==`, `!=`, `in`, `notin`, `key`, `!key`.
    pub fn parse(text: &str) -> Result<Self, SelectorError> {
        let mut requirements = Vec::new();
        for part in split_top_level(text) {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            requirements.push(parse_requirement(part)?);
        }
        Ok(Self { requirements })
    }

    /// Reads a structured `LabelSelector` (`matchLabels`, `matchExpressions`); `None`
    /// or `null` selects everything.
    pub fn from_structured(selector: Option<&Value>) -> Result<Self, SelectorError> {
        let mut requirements = Vec::new();
        let Some(selector) = selector.filter(|s| !s.is_null()) else {
            return Ok(Self::default());
        };
        if let Some(labels) = selector.get("matchLabels").and_then(Value::as_object) {
            for (key, value) in labels {
                let value = value.as_str().unwrap_or_default().to_owned();
                requirements.push(Requirement::Equals(key.clone(), value));
            }
        }
        for expression in selector
            .get("matchExpressions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let key = expression
                .get("key")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            let values: BTreeSet<String> = expression
                .get("values")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect();
            let operator = expression.get("operator").and_then(Value::as_str).unwrap_or_default();
            requirements.push(match operator {
                "In" => Requirement::In(key, values),
                "NotIn" => Requirement::NotIn(key, values),
                "Exists" => Requirement::Exists(key),
                "DoesNotExist" => Requirement::DoesNotExist(key),
                other => {
                    return Err(SelectorError(format!(
                        "{other:?} is not a valid label selector operator"
                    )));
                }
            });
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
        self.requirements.iter().all(|requirement| match requirement {
            Requirement::Equals(key, value) => label(key) == Some(value.as_str()),
            Requirement::NotEquals(key, value) => label(key) != Some(value.as_str()),
            Requirement::In(key, values) => label(key).is_some_and(|v| values.contains(v)),
            Requirement::NotIn(key, values) => label(key).is_none_or(|v| !values.contains(v)),
            Requirement::Exists(key) => label(key).is_some(),
            Requirement::DoesNotExist(key) => label(key).is_none(),
        })
    }
}

/// Splits at commas that are not inside parentheses.
fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0_i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

fn parse_requirement(part: &str) -> Result<Requirement, SelectorError> {
    let invalid = || SelectorError(part.to_owned());
    if let Some(key) = part.strip_prefix('!') {
        return Ok(Requirement::DoesNotExist(valid_key(key.trim(), part)?));
    }
    for (operator, make) in [
        ("!=", Requirement::NotEquals as fn(String, String) -> Requirement),
        ("==", Requirement::Equals),
        ("=", Requirement::Equals),
    ] {
        if let Some((key, value)) = part.split_once(operator) {
            return Ok(make(valid_key(key.trim(), part)?, valid_value(value.trim(), part)?));
        }
    }
    for (operator, negated) in [(" notin ", true), (" in ", false)] {
        if let Some((key, values)) = part.split_once(operator) {
            let values = values.trim();
            let inner = values
                .strip_prefix('(')
                .and_then(|v| v.strip_suffix(')'))
                .ok_or_else(invalid)?;
            let values = inner
                .split(',')
                .map(|v| valid_value(v.trim(), part))
                .collect::<Result<BTreeSet<_>, _>>()?;
            let key = valid_key(key.trim(), part)?;
            return Ok(if negated {
                Requirement::NotIn(key, values)
            } else {
                Requirement::In(key, values)
            });
        }
    }
    Ok(Requirement::Exists(valid_key(part, part)?))
}

fn valid_key(key: &str, part: &str) -> Result<String, SelectorError> {
    let ok = !key.is_empty()
        && key.len() <= 317
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'));
    if ok {
        Ok(key.to_owned())
    } else {
        Err(SelectorError(format!("{part}: invalid label key {key:?}")))
    }
}

fn valid_value(value: &str, part: &str) -> Result<String, SelectorError> {
    let ok = value.len() <= 63
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(value.to_owned())
    } else {
        Err(SelectorError(format!("{part}: invalid label value {value:?}")))
    }
}

/// A field selector. Every resource supports `metadata.name` and `metadata.namespace`;
/// some add their own fields, as kube-apiserver's field label conversions do (events
/// by `involvedObject.*`, pods by `spec.nodeName` and `status.phase`, ...).
///
/// ```
/// use serde_json::json;
/// use wheelhouse_selector::FieldSelector;
///
/// let selector = FieldSelector::parse_for("involvedObject.name=web", "", "Event").unwrap();
/// assert!(selector.matches(&json!({"involvedObject": {"name": "web"}})));
/// assert!(FieldSelector::parse_for("involvedObject.name=web", "", "ConfigMap").is_err());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldSelector {
    /// (path in the object, must equal, value).
    requirements: Vec<(String, bool, String)>,
}

/// The extra fields a resource can be selected by, and the path each reads.
fn extra_fields(group: &str, kind: &str) -> &'static [(&'static str, &'static str)] {
    match (group, kind) {
        ("", "Event") => &[
            ("involvedObject.kind", "involvedObject.kind"),
            ("involvedObject.namespace", "involvedObject.namespace"),
            ("involvedObject.name", "involvedObject.name"),
            ("involvedObject.uid", "involvedObject.uid"),
            ("involvedObject.apiVersion", "involvedObject.apiVersion"),
            ("involvedObject.resourceVersion", "involvedObject.resourceVersion"),
            ("involvedObject.fieldPath", "involvedObject.fieldPath"),
            ("reason", "reason"),
            ("reportingComponent", "reportingComponent"),
            ("source", "source.component"),
            ("type", "type"),
        ],
        // events.k8s.io Events are stored as core Events: each field reads its core
        // counterpart, as kube-apiserver's field label conversion maps it.
        ("events.k8s.io", "Event") => &[
            ("regarding.kind", "involvedObject.kind"),
            ("regarding.namespace", "involvedObject.namespace"),
            ("regarding.name", "involvedObject.name"),
            ("regarding.uid", "involvedObject.uid"),
            ("regarding.apiVersion", "involvedObject.apiVersion"),
            ("regarding.resourceVersion", "involvedObject.resourceVersion"),
            ("regarding.fieldPath", "involvedObject.fieldPath"),
            ("reason", "reason"),
            ("reportingController", "reportingComponent"),
            ("type", "type"),
        ],
        ("", "Pod") => &[
            ("spec.nodeName", "spec.nodeName"),
            ("spec.restartPolicy", "spec.restartPolicy"),
            ("spec.schedulerName", "spec.schedulerName"),
            ("spec.serviceAccountName", "spec.serviceAccountName"),
            ("status.phase", "status.phase"),
            ("status.podIP", "status.podIP"),
            ("status.nominatedNodeName", "status.nominatedNodeName"),
        ],
        ("", "Secret") => &[("type", "type")],
        ("", "Namespace") => &[("status.phase", "status.phase")],
        ("apps", "ReplicaSet") => &[("status.replicas", "status.replicas")],
        _ => &[],
    }
}

impl FieldSelector {
    /// Parses a selector on the fields every resource has
    /// (`metadata.name=web,metadata.namespace!=kube-system`).
    pub fn parse(text: &str) -> Result<Self, SelectorError> {
        Self::parse_for(text, "", "")
    }

    /// Parses a selector on the fields of `kind` in API `group`.
    pub fn parse_for(text: &str, group: &str, kind: &str) -> Result<Self, SelectorError> {
        let mut requirements = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (field, equal, value) = if let Some((f, v)) = part.split_once("!=") {
                (f, false, v)
            } else if let Some((f, v)) = part.split_once("==") {
                (f, true, v)
            } else if let Some((f, v)) = part.split_once('=') {
                (f, true, v)
            } else {
                return Err(SelectorError(format!("invalid field selector: {part}")));
            };
            let field = field.trim();
            let path = match field {
                "metadata.name" | "metadata.namespace" => field,
                _ => extra_fields(group, kind)
                    .iter()
                    .find(|(name, _)| *name == field)
                    .map(|(_, path)| *path)
                    .ok_or_else(|| SelectorError(format!("field label not supported: {field}")))?,
            };
            requirements.push((path.to_owned(), equal, value.trim().to_owned()));
        }
        Ok(Self { requirements })
    }

    /// Whether `object` satisfies the selector (a missing field reads as empty).
    pub fn matches(&self, object: &Value) -> bool {
        self.requirements.iter().all(|(path, equal, value)| {
            let field = path.split('.').try_fold(object, |v, key| v.get(key));
            let actual = match field {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) | None => String::new(),
                Some(other) => other.to_string(),
            };
            (actual == *value) == *equal
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn every_operator_of_the_query_syntax() {
        let labels = json!({"app": "web", "tier": "front"});
        let yes = [
            "app=web",
            "app==web",
            "app!=db",
            "tier in (front,back)",
            "tier notin (db)",
            "app",
            "!legacy",
            "app=web,tier",
        ];
        let no = [
            "app=db",
            "app!=web",
            "tier in (back)",
            "tier notin (front, back)",
            "legacy",
            "!app",
            "app=web,legacy",
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
        assert!(LabelSelector::parse("a in b").is_err());
        assert!(LabelSelector::parse("a=b c").is_err());
    }

    #[test]
    fn structured_selectors() {
        let selector = json!({"matchLabels": {"app": "web"}, "matchExpressions": [{"key": "env", "operator": "NotIn", "values": ["prod"]}]});
        let selector = LabelSelector::from_structured(Some(&selector)).unwrap();
        assert!(selector.matches(Some(&json!({"app": "web"}))));
        assert!(!selector.matches(Some(&json!({"app": "web", "env": "prod"}))));
        assert!(LabelSelector::from_structured(None).unwrap().matches(None));
    }

    #[test]
    fn field_selectors_on_name_and_namespace() {
        let object = json!({"metadata": {"name": "web", "namespace": "default"}});
        assert!(FieldSelector::parse("metadata.name=web").unwrap().matches(&object));
        assert!(
            FieldSelector::parse("metadata.namespace!=kube-system")
                .unwrap()
                .matches(&object)
        );
        assert!(!FieldSelector::parse("metadata.name==db").unwrap().matches(&object));
        assert!(FieldSelector::parse("spec.nodeName=x").is_err());
        let event = json!({"involvedObject": {"name": "web", "kind": "ConfigMap"}, "source": {"component": "kubelet"}});
        let selector = FieldSelector::parse_for(
            "involvedObject.name=web,involvedObject.kind=ConfigMap,source=kubelet",
            "",
            "Event",
        )
        .unwrap();
        assert!(selector.matches(&event));
        assert!(
            !FieldSelector::parse_for("involvedObject.name=db", "", "Event")
                .unwrap()
                .matches(&event)
        );
        assert!(FieldSelector::parse_for("involvedObject.name=web", "", "ConfigMap").is_err());
    }
}
