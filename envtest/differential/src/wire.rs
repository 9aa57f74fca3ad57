//! What goes on the wire: one HTTP request, written once and sent to every server, and
//! one server's answer to it, as the comparison reads it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One HTTP request, the same bytes for every server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// `GET`, `POST`, `PUT`, `PATCH` or `DELETE`.
    pub method: String,
    /// The path and query, `/api/v1/namespaces/x/pods?dryRun=All`.
    pub path: String,
    /// The body's media type, when there is a body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// The body, as text (bad JSON is a mutation too).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub body: String,
}

/// A server's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// The HTTP status code; 0 when there was no answer (see `body`).
    pub code: u16,
    /// The body as JSON, or as a JSON string when it was not JSON (or no answer came:
    /// then the transport error).
    pub body: Value,
    /// The messages of the `Warning` headers, in the order sent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

impl Answer {
    /// An answer that never came: the request could not be sent, or the step could not
    /// be written because an earlier step failed on this server.
    pub fn none(why: impl Into<String>) -> Self {
        Self {
            code: 0,
            body: Value::String(why.into()),
            warnings: Vec::new(),
        }
    }

    /// A 2xx answer.
    pub fn succeeded(&self) -> bool {
        (200..300).contains(&self.code)
    }

    /// The body when it is a `metav1.Status`.
    pub fn status(&self) -> Option<&serde_json::Map<String, Value>> {
        let body = self.body.as_object()?;
        (body.get("kind").and_then(Value::as_str) == Some("Status")).then_some(body)
    }

    /// `metadata.name` of the object answered.
    pub fn object_name(&self) -> Option<&str> {
        self.body.pointer("/metadata/name").and_then(Value::as_str)
    }

    /// The text of a `Status` field (`reason`, `message`), empty when absent.
    pub fn status_text(&self, field: &str) -> &str {
        self.status()
            .and_then(|status| status.get(field))
            .and_then(Value::as_str)
            .unwrap_or("")
    }
}

/// `value` with every string longer than `limit` characters cut, saying how long it
/// was: what a report keeps of a megabyte of `ConfigMap` data.
pub fn abbreviate(value: &Value, limit: usize) -> Value {
    match value {
        Value::String(text) if text.chars().count() > limit => Value::String(format!(
            "{}... ({} characters)",
            text.chars().take(limit).collect::<String>(),
            text.chars().count()
        )),
        Value::Array(items) => Value::Array(items.iter().map(|item| abbreviate(item, limit)).collect()),
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(key, field)| {
                    let key = if key.chars().count() > limit {
                        format!(
                            "{}... ({} characters)",
                            key.chars().take(limit).collect::<String>(),
                            key.chars().count()
                        )
                    } else {
                        key.clone()
                    };
                    (key, abbreviate(field, limit))
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The message of one `Warning` header value (`299 - "text"`), or the value itself
/// when it is not in that form.
pub fn warning_text(header: &str) -> String {
    let mut parts = header.splitn(3, ' ');
    let (Some(_code), Some(_agent), Some(text)) = (parts.next(), parts.next(), parts.next()) else {
        return header.to_owned();
    };
    let text = text.trim();
    text.strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .map_or_else(|| text.to_owned(), |t| t.replace("\\\"", "\"").replace("\\\\", "\\"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_warning_header_gives_its_message() {
        assert_eq!(
            warning_text(r#"299 - "unknown field \"spec.x\"""#),
            r#"unknown field "spec.x""#
        );
        assert_eq!(warning_text("odd"), "odd");
    }

    #[test]
    fn long_strings_are_cut() {
        let value = json!({"data": {"big": "a".repeat(50)}, "n": 1});
        assert_eq!(
            abbreviate(&value, 4),
            json!({"data": {"big": "aaaa... (50 characters)"}, "n": 1})
        );
    }

    #[test]
    fn a_status_body_is_read_as_one() {
        let answer = Answer {
            code: 422,
            body: json!({"kind": "Status", "reason": "Invalid", "message": "m"}),
            warnings: Vec::new(),
        };
        assert_eq!(answer.status_text("reason"), "Invalid");
        assert!(!answer.succeeded());
        let object = Answer {
            code: 201,
            body: json!({"kind": "Pod", "metadata": {"name": "p"}}),
            warnings: Vec::new(),
        };
        assert!(object.status().is_none());
        assert_eq!(object.object_name(), Some("p"));
    }
}
