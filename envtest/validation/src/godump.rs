//! Values as Go's `%#v` prints them, for the field errors whose value is a Go slice,
//! map or struct (`field.Invalid(path, finalizers, ...)` shows `[]string{"a", "b"}`).
//! Pointers print as `(*T)(0x...)` in Go, with an address that changes on every
//! request; here they print with a fixed address of the same shape.

use std::fmt::Write as _;

use serde_json::Value;

use crate::field::BadValue;
use crate::json::{entries, items, text};

/// The address a non-nil pointer prints with (Go prints the real, random one).
const ADDRESS: &str = "0xc000a1b2c0";

/// `%q` of a string.
pub(crate) fn quote(value: &str) -> String {
    wheelhouse_envtest_schema::errors::go_quote(value)
}

/// `[]string{"a", "b"}` (`[]string(nil)` when empty and absent).
pub(crate) fn string_slice(type_name: &str, value: &Value) -> String {
    if value.is_null() {
        return format!("[]{type_name}(nil)");
    }
    let quoted: Vec<String> = items(value).iter().map(|item| quote(text(item))).collect();
    format!("[]{type_name}{{{}}}", quoted.join(", "))
}

/// `[]string{"a", "b"}` of plain strings.
pub(crate) fn strings(values: &[&str]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| quote(v)).collect();
    format!("[]string{{{}}}", quoted.join(", "))
}

/// `map[string]string{"a":"b"}`, keys sorted as `fmt` sorts them.
pub(crate) fn string_map(value: &Value) -> String {
    if value.is_null() {
        return "map[string]string(nil)".to_owned();
    }
    let mut pairs: Vec<(&String, &str)> = entries(value).map(|(k, v)| (k, text(v))).collect();
    pairs.sort();
    let printed: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("{}:{}", quote(k), quote(v)))
        .collect();
    format!("map[string]string{{{}}}", printed.join(", "))
}

/// A pointer field: `(*T)(nil)` or `(*T)(0x...)`.
pub(crate) fn pointer(type_name: &str, value: &Value) -> String {
    if value.is_null() {
        format!("(*{type_name})(nil)")
    } else {
        format!("(*{type_name})({ADDRESS})")
    }
}

/// A Go struct: `type{Field:value, ...}` from (field name, printed value) pairs.
pub(crate) fn structure(type_name: &str, fields: &[(&str, String)]) -> String {
    let mut out = format!("{type_name}{{");
    for (index, (name, value)) in fields.iter().enumerate() {
        if index > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{name}:{value}");
    }
    out.push('}');
    out
}

/// A `metav1.OwnerReference` as `%#v` prints it.
pub(crate) fn owner_reference(reference: &Value) -> String {
    structure(
        "v1.OwnerReference",
        &[
            ("APIVersion", quote(text(&reference["apiVersion"]))),
            ("Kind", quote(text(&reference["kind"]))),
            ("Name", quote(text(&reference["name"]))),
            ("UID", quote(text(&reference["uid"]))),
            ("Controller", pointer("bool", &reference["controller"])),
            ("BlockOwnerDeletion", pointer("bool", &reference["blockOwnerDeletion"])),
        ],
    )
}

/// `[]v1.OwnerReference{...}`.
pub(crate) fn owner_references(references: &Value) -> String {
    let printed: Vec<String> = items(references).iter().map(owner_reference).collect();
    format!("[]v1.OwnerReference{{{}}}", printed.join(", "))
}

/// A value already printed as Go prints it.
pub(crate) fn raw(printed: String) -> BadValue {
    BadValue::Raw(printed)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn collections_print_as_percent_sharp_v() {
        assert_eq!(string_slice("string", &json!(["a", "b"])), r#"[]string{"a", "b"}"#);
        assert_eq!(string_slice("string", &Value::Null), "[]string(nil)");
        assert_eq!(
            string_map(&json!({"b": "2", "a": "1"})),
            r#"map[string]string{"a":"1", "b":"2"}"#
        );
        assert_eq!(
            owner_reference(&json!({"apiVersion": "v1", "kind": "Pod", "name": "a", "uid": "u"})),
            r#"v1.OwnerReference{APIVersion:"v1", Kind:"Pod", Name:"a", UID:"u", Controller:(*bool)(nil), BlockOwnerDeletion:(*bool)(nil)}"#
        );
    }
}
