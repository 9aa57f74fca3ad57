//! `x-kubernetes-embedded-resource`: an embedded object carries its own `apiVersion`
//! and `kind`, and its metadata is checked, as apiextensions-apiserver's
//! `pkg/apiserver/schema/objectmeta/validation.go` does (the name check is the
//! path-segment one of `content.IsPathSegmentName`).

use serde_json::Value;

use crate::errors::{FieldError, child};

/// The embedded resources anywhere in `object`, checked.
pub(crate) fn validate(schema: &Value, object: &Value, path: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    crate::walk::visit(schema, object, path, &mut |schema, value, path| {
        if let Value::Object(map) = value
            && schema["x-kubernetes-embedded-resource"] == true
        {
            embedded(map, path, &mut errors);
        }
    });
    errors
}

/// `validateEmbeddedResource`.
fn embedded(map: &serde_json::Map<String, Value>, path: &str, errors: &mut Vec<FieldError>) {
    for field in ["apiVersion", "kind"] {
        if !map.contains_key(field) {
            errors.push(FieldError::required(child(path, field), "must not be empty"));
        }
    }
    if let Some(api_version) = map.get("apiVersion") {
        let field = child(path, "apiVersion");
        match api_version.as_str() {
            None => errors.push(FieldError::invalid(field, api_version.into(), "must be a string")),
            Some("") => errors.push(FieldError::invalid(field, "".into(), "must not be empty")),
            Some(text) if text.matches('/').count() > 1 => errors.push(FieldError::invalid(
                field,
                text.into(),
                format!("unexpected GroupVersion string: {text}"),
            )),
            Some(_) => {}
        }
    }
    if let Some(kind) = map.get("kind") {
        let field = child(path, "kind");
        match kind.as_str() {
            None => errors.push(FieldError::invalid(field, kind.into(), "must be a string")),
            Some("") => errors.push(FieldError::invalid(field, "".into(), "must not be empty")),
            Some(text) => {
                let problems = dns1035_label(&text.to_lowercase());
                if !problems.is_empty() {
                    let detail = format!(
                        "may have mixed case, but should otherwise match: {}",
                        problems.join(",")
                    );
                    errors.push(FieldError::invalid(field, text.into(), detail));
                }
            }
        }
    }
    if let Some(metadata) = map.get("metadata") {
        let field = child(path, "metadata");
        let Some(metadata) = metadata.as_object() else {
            let detail = "must be an object";
            errors.push(FieldError::invalid(field, metadata.into(), detail));
            return;
        };
        if let Some(name) = metadata.get("name").and_then(Value::as_str) {
            for problem in path_segment_problems(name) {
                errors.push(FieldError::invalid(child(&field, "name"), name.into(), problem));
            }
        }
    }
}

/// `IsDNS1035Label`'s complaints.
fn dns1035_label(value: &str) -> Vec<String> {
    let mut problems = Vec::new();
    if value.len() > 63 {
        problems.push("must be no more than 63 characters".to_owned());
    }
    let bytes = value.as_bytes();
    let valid = bytes.first().is_some_and(u8::is_ascii_lowercase)
        && bytes
            .last()
            .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-');
    if !valid {
        problems.push(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
                .to_owned(),
        );
    }
    problems
}

/// `content.IsPathSegmentName`'s complaints.
fn path_segment_problems(name: &str) -> Vec<String> {
    let mut problems = Vec::new();
    if name == "." || name == ".." {
        problems.push(format!("may not be '{name}'"));
    }
    for illegal in ["/", "%"] {
        if name.contains(illegal) {
            problems.push(format!("may not contain '{illegal}'"));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn embedded_resources_need_their_type_and_a_valid_name() {
        let schema = json!({"type": "object", "properties": {"template": {"type": "object",
            "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}}});
        let found: Vec<String> = validate(
            &schema,
            &json!({"template": {"kind": "Pod_", "metadata": {"name": "a/b"}}}),
            "",
        )
        .iter()
        .map(FieldError::summary)
        .collect();
        assert_eq!(found.len(), 3, "{found:?}");
        assert_eq!(found[0], "template.apiVersion: Required value: must not be empty");
        assert!(found[1].starts_with("template.kind: Invalid value: \"Pod_\": may have mixed case"));
        assert_eq!(
            found[2],
            "template.metadata.name: Invalid value: \"a/b\": may not contain '/'"
        );
        assert!(validate(&schema, &json!({"template": {"apiVersion": "v1", "kind": "Pod"}}), "").is_empty());
    }
}
