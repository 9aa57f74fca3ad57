//! Reading a decoded object as Go reads its struct: a field that is absent (or `null`)
//! is the Go zero value (`""`, `0`, `false`, an empty slice or map), and a pointer field
//! is "set" when it is present. The server decoded the object as its Go type before
//! validation, so a field of the wrong type never reaches here; these readers still
//! answer the zero value for one rather than panic.

use serde_json::{Map, Value};

/// A string field (`""` when unset).
pub(crate) fn text(value: &Value) -> &str {
    value.as_str().unwrap_or_default()
}

/// A string pointer field: `None` when unset.
pub(crate) fn opt_text(value: &Value) -> Option<&str> {
    value.as_str()
}

/// A list field (empty when unset).
pub(crate) fn items(value: &Value) -> &[Value] {
    value.as_array().map_or(&[], Vec::as_slice)
}

/// The strings of a `[]string` field.
pub(crate) fn strings(value: &Value) -> Vec<&str> {
    items(value).iter().map(text).collect()
}

/// A map field's entries (none when unset), in the object's key order.
pub(crate) fn entries(value: &Value) -> impl Iterator<Item = (&String, &Value)> {
    value.as_object().into_iter().flat_map(Map::iter)
}

/// The number of entries of a map field.
pub(crate) fn len_map(value: &Value) -> usize {
    value.as_object().map_or(0, Map::len)
}

/// An integer field (`0` when unset).
pub(crate) fn int(value: &Value) -> i64 {
    value.as_i64().unwrap_or_default()
}

/// An integer pointer field: `None` when unset.
pub(crate) fn opt_int(value: &Value) -> Option<i64> {
    value.as_i64()
}

/// Whether a pointer (or struct) field is present.
pub(crate) fn is_set(value: &Value) -> bool {
    !value.is_null()
}

/// Whether a field holds its Go zero value: unset, `""`, `0`, `false`, or an empty
/// list, map or struct (`reflect.Value.IsZero` on what the JSON decodes to, with
/// empty collections counted as nil, as `apiequality.Semantic` compares them).
pub(crate) fn is_zero(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Bool(flag) => !flag,
        Value::Number(number) => number.as_f64() == Some(0.0),
        Value::String(text) => text.is_empty(),
        Value::Array(list) => list.is_empty(),
        Value::Object(map) => map.values().all(is_zero),
    }
}

/// Semantic equality (`apiequality.Semantic.DeepEqual`): unset fields equal their zero
/// values and empty collections equal absent ones, so an object a client round-tripped
/// compares equal to the stored one.
pub(crate) fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(left), Value::Object(right)) => {
            left.iter()
                .all(|(key, value)| same(value, right.get(key).unwrap_or(&Value::Null)))
                && right
                    .iter()
                    .all(|(key, value)| left.contains_key(key) || is_empty_value(value))
        }
        (Value::Array(left), Value::Array(right)) => {
            left.len() == right.len() && left.iter().zip(right).all(|(x, y)| same(x, y))
        }
        (Value::Null, other) | (other, Value::Null) => is_empty_value(other),
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

/// A value that decodes to what an absent field decodes to: `null` or an empty list.
/// (A `""` or `0` stays distinct from absent for pointer fields, and so does an empty
/// object: a struct, held by value, when both sides have it, or by a pointer that is
/// not nil; an empty map was left out or written null as the object decoded and was
/// stored, so it does not reach here as `{}`.)
fn is_empty_value(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Array(list) => list.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn absent_fields_read_as_go_zero_values() {
        let object = json!({"a": "x", "n": 3, "list": [1], "flag": true});
        assert_eq!(text(&object["missing"]), "");
        assert_eq!(text(&object["n"]), "");
        assert_eq!(int(&object["n"]), 3);
        assert_eq!(int(&object["missing"]), 0);
        assert!(items(&object["missing"]).is_empty());
        assert!(is_zero(&json!({"a": "", "b": []})));
        assert!(!is_zero(&json!({"a": "x"})));
    }

    #[test]
    fn semantic_equality_ignores_empty_lists_but_not_empty_structs() {
        assert!(same(&json!({"a": 1, "b": []}), &json!({"a": 1})));
        // An empty struct behind a pointer is not nil.
        assert!(!same(&json!({"a": {}}), &json!({})));
        assert!(same(&json!({"a": {}}), &json!({"a": {}})));
        assert!(!same(&json!({"a": ""}), &json!({})));
        assert!(!same(&json!({"a": [1]}), &json!({"a": [2]})));
        assert!(same(&json!(1), &json!(1.0)));
    }
}
