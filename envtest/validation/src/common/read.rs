//! Reading an object's JSON as kube reads its Go struct: a missing or `null` field is
//! the Go zero value (or a nil pointer), and equality is apimachinery's
//! `Semantic.DeepEqual`, where an empty list or map equals a missing one.
//!
//! The server decoded the object into its k8s-openapi type before calling this crate
//! (a field of the wrong type was a 400 already), but nothing here assumes it: any
//! JSON reads as some value, so no input can panic.

use serde_json::{Map, Value};

/// An integer field, 0 when unset (Go's zero value).
pub(crate) fn int(value: &Value) -> i64 {
    value.as_i64().unwrap_or_default()
}

/// A pointer to an integer: None when unset.
pub(crate) fn opt_int(value: &Value) -> Option<i64> {
    value.as_i64()
}

/// A string field, empty when unset.
pub(crate) fn text(value: &Value) -> &str {
    value.as_str().unwrap_or_default()
}

/// A pointer to a string: None when unset.
pub(crate) fn opt_text(value: &Value) -> Option<&str> {
    value.as_str()
}

/// A boolean field, false when unset.
pub(crate) fn flag(value: &Value) -> bool {
    value.as_bool().unwrap_or_default()
}

/// A list field, empty when unset.
pub(crate) fn items(value: &Value) -> &[Value] {
    value.as_array().map_or(&[], Vec::as_slice)
}

/// A map field, None when unset (a nil map).
pub(crate) fn entries(value: &Value) -> Option<&Map<String, Value>> {
    value.as_object()
}

/// Whether a pointer (or a map, a list) field is set: present and not `null`.
pub(crate) fn is_set(value: &Value) -> bool {
    !value.is_null()
}

/// Whether a value reads as its Go zero value.
fn is_zero(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Bool(flag) => !flag,
        Value::Number(number) => number.as_f64() == Some(0.0),
        Value::String(text) => text.is_empty(),
        Value::Array(list) => list.is_empty(),
        // An empty object is a struct, held by value (then both sides have it) or by a
        // pointer that is not nil: an empty map was left out or written null as the
        // object decoded and was stored, so it does not reach here as `{}`.
        Value::Object(_) => false,
    }
}

/// `apiequality.Semantic.DeepEqual` read from JSON: missing, `null` and a zero value
/// are equal (a nil and an empty list or map are, in Go), numbers compare by value;
/// an empty struct is not nil.
pub(crate) fn semantic_eq(left: &Value, right: &Value) -> bool {
    match (left, right) {
        (Value::Object(a), Value::Object(b)) => {
            a.iter()
                .all(|(key, value)| semantic_eq(value, b.get(key).unwrap_or(&Value::Null)))
                && b.iter()
                    .filter(|(key, _)| !a.contains_key(*key))
                    .all(|(_, value)| is_zero(value))
        }
        (Value::Array(a), Value::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| semantic_eq(x, y)),
        (Value::Number(a), Value::Number(b)) => match (a.as_i64(), b.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => a.as_f64() == b.as_f64(),
        },
        _ if is_zero(left) && is_zero(right) => true,
        _ => left == right,
    }
}

/// `object` without the listed top-level fields, to compare "everything else".
pub(crate) fn without(object: &Value, fields: &[&str]) -> Value {
    match object {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(key, _)| !fields.contains(&key.as_str()))
                .map(|(key, value)| (key.clone(), value.clone()))
                .collect(),
        ),
        _ => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn zero_values_and_missing_fields_are_equal() {
        assert!(semantic_eq(&json!({"a": [], "b": 0}), &json!({})));
        assert!(semantic_eq(&json!({"a": 1.0}), &json!({"a": 1})));
        assert!(!semantic_eq(&json!({"a": 1}), &json!({})));
        assert!(!semantic_eq(&json!([1, 2]), &json!([2, 1])));
        assert!(semantic_eq(&Value::Null, &json!("")));
    }

    #[test]
    fn wrong_types_read_as_zero_values() {
        assert_eq!(int(&json!("7")), 0);
        assert_eq!(text(&json!(7)), "");
        assert!(items(&json!({})).is_empty());
        assert_eq!(without(&json!({"a": 1, "b": 2}), &["a"]), json!({"b": 2}));
    }
}
