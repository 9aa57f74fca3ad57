//! Two servers' answers to one request, compared aspect by aspect: the status code
//! first (when it differs, nothing else is worth reading), then for refusals the
//! `reason`, the `details.causes` (as a set, then in order), the `message` and the
//! other details, for successes the normalised object field by field, and the
//! warnings.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::wire::Answer;

/// What differs, most telling first: a case's class is named by its first difference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Aspect {
    /// The HTTP status code.
    Code,
    /// The `Status`'s `reason`.
    Reason,
    /// The `details.causes`, as a set.
    Causes,
    /// The `message`.
    Message,
    /// The same causes in another order.
    CauseOrder,
    /// `details` other than causes (name, group, kind, retryAfterSeconds).
    Details,
    /// One answered a `Status`, the other an object, or bodies that are not JSON differ.
    Body,
    /// A field of the object answered.
    Stored,
    /// The `Warning` headers.
    Warnings,
}

impl Aspect {
    /// The aspect's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Self::Code => "code",
            Self::Reason => "reason",
            Self::Causes => "causes",
            Self::Message => "message",
            Self::CauseOrder => "cause order",
            Self::Details => "details",
            Self::Body => "body",
            Self::Stored => "stored object",
            Self::Warnings => "warnings",
        }
    }
}

/// One difference between the reference's answer and another server's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difference {
    /// The step it was found in (0-based), and its label.
    pub step: usize,
    /// The step's label.
    pub label: String,
    /// What differs.
    pub aspect: Aspect,
    /// Where, for the stored object and causes: a field path with `[*]` for indices.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub path: String,
    /// The reference's side, shortened.
    pub reference: String,
    /// The other server's side, shortened.
    pub subject: String,
}

/// At most this many stored-object paths are reported per step; the rest are noise
/// from the same cause.
const MAX_PATHS: usize = 8;

/// One difference before it is placed in a step: aspect, path, both sides.
type Found = (Aspect, String, String, String);

/// The differences between two answers to step `step` (`label`), whose bodies are
/// already normalised.
pub fn compare(step: usize, label: &str, reference: &Answer, subject: &Answer) -> Vec<Difference> {
    let mut found: Vec<Found> = Vec::new();
    if reference.code == subject.code {
        match (reference.status(), subject.status()) {
            (Some(_), Some(_)) => found.extend(status_differences(&reference.body, &subject.body)),
            (None, None) => found.extend(object_differences(&reference.body, &subject.body)),
            (ours, _) => {
                let describe = |status: bool| if status { "a Status" } else { "an object" }.to_owned();
                found.push((
                    Aspect::Body,
                    String::new(),
                    describe(ours.is_some()),
                    describe(ours.is_none()),
                ));
            }
        }
        let warnings = |answer: &Answer| {
            let mut list = answer.warnings.clone();
            list.sort();
            list
        };
        if warnings(reference) != warnings(subject) {
            found.push((
                Aspect::Warnings,
                String::new(),
                warnings(reference).join(" | "),
                warnings(subject).join(" | "),
            ));
        }
    } else {
        found.push((Aspect::Code, String::new(), summary(reference), summary(subject)));
    }
    found
        .into_iter()
        .map(|(aspect, path, reference, subject)| Difference {
            step,
            label: label.to_owned(),
            aspect,
            path,
            reference,
            subject,
        })
        .collect()
}

/// How two `Status` bodies differ: reason, causes as a set then in order, message,
/// the other details.
fn status_differences(ours: &Value, theirs: &Value) -> Vec<Found> {
    let mut out = Vec::new();
    let text = |body: &Value, field: &str| body.get(field).and_then(Value::as_str).unwrap_or("").to_owned();
    if text(ours, "reason") != text(theirs, "reason") {
        out.push((
            Aspect::Reason,
            String::new(),
            text(ours, "reason"),
            text(theirs, "reason"),
        ));
    }
    let (ours_causes, theirs_causes) = (causes(ours), causes(theirs));
    let (ours_set, theirs_set): (BTreeSet<_>, BTreeSet<_>) =
        (ours_causes.iter().collect(), theirs_causes.iter().collect());
    if ours_set != theirs_set {
        let fields: BTreeSet<String> = ours_set
            .symmetric_difference(&theirs_set)
            .map(|cause| pattern(&cause.0))
            .collect();
        out.push((
            Aspect::Causes,
            fields.into_iter().collect::<Vec<_>>().join(","),
            show_causes(&ours_causes),
            show_causes(&theirs_causes),
        ));
    } else if ours_causes != theirs_causes {
        out.push((
            Aspect::CauseOrder,
            String::new(),
            show_causes(&ours_causes),
            show_causes(&theirs_causes),
        ));
    }
    if text(ours, "message") != text(theirs, "message") {
        out.push((
            Aspect::Message,
            String::new(),
            text(ours, "message"),
            text(theirs, "message"),
        ));
    }
    let details = |body: &Value| {
        let mut details = body.get("details").cloned().unwrap_or(Value::Null);
        if let Some(fields) = details.as_object_mut() {
            fields.remove("causes");
        }
        details
    };
    if details(ours) != details(theirs) {
        out.push((
            Aspect::Details,
            String::new(),
            details(ours).to_string(),
            details(theirs).to_string(),
        ));
    }
    out
}

/// How two objects (or two non-JSON bodies) differ, path by path.
fn object_differences(ours: &Value, theirs: &Value) -> Vec<Found> {
    let mut paths = Vec::new();
    diff(ours, theirs, "", &mut paths);
    let aspect = if ours.is_string() { Aspect::Body } else { Aspect::Stored };
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for (path, reference, subject) in paths {
        if seen.len() >= MAX_PATHS {
            break;
        }
        let shown = pattern(&path);
        if seen.insert(shown.clone()) {
            out.push((aspect, shown, reference, subject));
        }
    }
    out
}

/// `422 Invalid`, `201`, or `no answer: ...`.
pub fn summary(answer: &Answer) -> String {
    if answer.code == 0 {
        return format!("no answer: {}", answer.body.as_str().unwrap_or(""));
    }
    let reason = answer.status_text("reason");
    if reason.is_empty() {
        answer.code.to_string()
    } else {
        format!("{} {reason}", answer.code)
    }
}

/// The `(field, reason, message)` of each cause, in order.
fn causes(body: &Value) -> Vec<(String, String, String)> {
    body.pointer("/details/causes")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .map(|cause| {
                    let text = |field: &str| cause.get(field).and_then(Value::as_str).unwrap_or("").to_owned();
                    (text("field"), text("reason"), text("message"))
                })
                .collect()
        })
        .unwrap_or_default()
}

fn show_causes(causes: &[(String, String, String)]) -> String {
    if causes.is_empty() {
        return "(none)".to_owned();
    }
    causes
        .iter()
        .map(|(field, reason, message)| format!("{field} {reason}: {message}"))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// A JSON pointer or a cause's field as a path pattern: indices as `[*]`, and
/// `managedFields` entries cut at `fieldsV1` (their insides follow from the rest).
pub fn pattern(path: &str) -> String {
    let tokens: Vec<&str> = if path.starts_with('/') {
        path.trim_start_matches('/').split('/').collect()
    } else {
        path.split('.').collect()
    };
    let mut out = String::new();
    for token in tokens {
        if token.is_empty() {
            continue;
        }
        if let Some((name, _index)) = token.split_once('[') {
            // A cause's field: `spec.ports[0]`.
            push_segment(&mut out, name);
            out.push_str("[*]");
        } else if token.parse::<usize>().is_ok() {
            out.push_str("[*]");
        } else {
            push_segment(&mut out, &token.replace("~1", "/").replace("~0", "~"));
        }
        if out.ends_with("managedFields[*].fieldsV1") {
            break;
        }
    }
    out
}

fn push_segment(out: &mut String, segment: &str) {
    if !out.is_empty() {
        out.push('.');
    }
    out.push_str(segment);
}

/// Every path where two JSON values differ, with both sides shortened (`absent` where
/// one lacks it).
fn diff(ours: &Value, theirs: &Value, path: &str, out: &mut Vec<(String, String, String)>) {
    match (ours, theirs) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for key in keys {
                let here = format!("{path}/{}", key.replace('~', "~0").replace('/', "~1"));
                match (a.get(key), b.get(key)) {
                    (Some(x), Some(y)) => diff(x, y, &here, out),
                    (x, y) => out.push((here, shown(x), shown(y))),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for index in 0..a.len().max(b.len()) {
                let here = format!("{path}/{index}");
                match (a.get(index), b.get(index)) {
                    (Some(x), Some(y)) => diff(x, y, &here, out),
                    (x, y) => out.push((here, shown(x), shown(y))),
                }
            }
        }
        _ if ours != theirs => out.push((path.to_owned(), shown(Some(ours)), shown(Some(theirs)))),
        _ => {}
    }
}

/// A value in at most 120 characters, or `absent`.
pub fn shown(value: Option<&Value>) -> String {
    let Some(value) = value else {
        return "absent".to_owned();
    };
    let text = value.to_string();
    if text.chars().count() > 120 {
        format!("{}...", text.chars().take(117).collect::<String>())
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answer(code: u16, body: Value) -> Answer {
        Answer {
            code,
            body,
            warnings: Vec::new(),
        }
    }

    fn invalid(causes: &Value, message: &str) -> Value {
        json!({"kind": "Status", "reason": "Invalid", "message": message, "details": {"name": "x", "causes": causes}})
    }

    #[test]
    fn a_different_code_says_it_all() {
        let found = compare(
            1,
            "the mutation",
            &answer(422, invalid(&json!([]), "m")),
            &answer(201, json!({})),
        );
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].aspect, found[0].reference.as_str(), found[0].subject.as_str()),
            (Aspect::Code, "422 Invalid", "201")
        );
    }

    #[test]
    fn causes_are_compared_as_sets_then_in_order() {
        let a = json!({"field": "spec.ports[0].port", "reason": "FieldValueInvalid", "message": "bad"});
        let b = json!({"field": "spec.selector", "reason": "FieldValueRequired", "message": "req"});
        let ordered = compare(
            0,
            "s",
            &answer(422, invalid(&json!([a, b]), "m")),
            &answer(422, invalid(&json!([b, a]), "m")),
        );
        assert_eq!(
            ordered.iter().map(|d| d.aspect).collect::<Vec<_>>(),
            [Aspect::CauseOrder]
        );
        let missing = compare(
            0,
            "s",
            &answer(422, invalid(&json!([a, b]), "m")),
            &answer(422, invalid(&json!([b]), "n")),
        );
        assert_eq!(
            missing.iter().map(|d| d.aspect).collect::<Vec<_>>(),
            [Aspect::Causes, Aspect::Message]
        );
        assert_eq!(missing[0].path, "spec.ports[*].port");
    }

    #[test]
    fn stored_objects_are_compared_field_by_field() {
        let ours = json!({"spec": {"a": 1, "list": [{"b": 2}]}, "status": {}});
        let theirs = json!({"spec": {"a": 1, "list": [{"b": 3}, {"b": 4}]}});
        let found = compare(0, "s", &answer(201, ours), &answer(201, theirs));
        let paths: Vec<(&str, &str, &str)> = found
            .iter()
            .map(|d| (d.path.as_str(), d.reference.as_str(), d.subject.as_str()))
            .collect();
        assert_eq!(
            paths,
            [
                ("spec.list[*].b", "2", "3"),
                ("spec.list[*]", "absent", "{\"b\":4}"),
                ("status", "{}", "absent")
            ]
        );
    }

    #[test]
    fn warnings_count_even_when_all_else_agrees() {
        let mut warned = answer(201, json!({}));
        warned.warnings = vec!["unknown field \"x\"".into()];
        let found = compare(0, "s", &warned, &answer(201, json!({})));
        assert_eq!(found.iter().map(|d| d.aspect).collect::<Vec<_>>(), [Aspect::Warnings]);
    }

    #[test]
    fn patterns_hide_indices_and_managed_field_insides() {
        assert_eq!(
            pattern("/spec/containers/0/ports/1/containerPort"),
            "spec.containers[*].ports[*].containerPort"
        );
        assert_eq!(pattern("spec.containers[0].image"), "spec.containers[*].image");
        assert_eq!(
            pattern("/metadata/managedFields/0/fieldsV1/f:spec/f:x"),
            "metadata.managedFields[*].fieldsV1"
        );
        assert_eq!(pattern("/metadata/labels/a~1b"), "metadata.labels.a/b");
    }
}
