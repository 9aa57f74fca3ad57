//! Values as Go's `%#v` prints them. When kube hands `field.Invalid` a struct, a map or
//! a slice of its internal types, the message shows it in Go syntax
//! (`v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, ...}`), so the message
//! here must too; a nil pointer handed over whole prints as the string `"null"`
//! (`ErrorBody` replaces it). Each type a ported function passes is written out field by field in
//! its Go declaration's order; a non-nil pointer inside a struct shows as an address in
//! Go, which differs on each run anyway, so a fixed one stands in for it.

use serde_json::Value;
use wheelhouse_envtest_schema::errors::{BadValue, go_quote};

pub(crate) use wheelhouse_envtest_schema::go_syntax::{GoStruct, pointer, slice};

use super::read::{entries, int as read_int, text};

/// A printed Go value as a field error's value.
pub(crate) fn raw(printed: String) -> BadValue {
    BadValue::Raw(printed)
}

/// A string (or a named string type): quoted.
pub(crate) fn string(value: &Value) -> String {
    go_quote(text(value))
}

/// An integer: its digits, 0 when unset.
pub(crate) fn int(value: &Value) -> String {
    read_int(value).to_string()
}

/// A `map[string]string`: `map[string]string{"a":"b"}`, keys sorted as `fmt` sorts
/// them, or `map[string]string(nil)`.
pub(crate) fn string_map(value: &Value) -> String {
    let Some(map) = entries(value) else {
        return "map[string]string(nil)".to_owned();
    };
    let mut pairs: Vec<(&String, &Value)> = map.iter().collect();
    pairs.sort_by(|a, b| a.0.cmp(b.0));
    let printed: Vec<String> = pairs
        .iter()
        .map(|(key, value)| format!("{}:{}", go_quote(key), string(value)))
        .collect();
    format!("map[string]string{{{}}}", printed.join(", "))
}

/// A `[]string`.
pub(crate) fn string_slice(value: &Value) -> String {
    slice("string", value, string)
}

/// A metav1 `LabelSelector` (`v1.LabelSelector{...}`).
pub(crate) fn label_selector(value: &Value) -> String {
    GoStruct::new("v1.LabelSelector")
        .field("MatchLabels", string_map(&value["matchLabels"]))
        .field(
            "MatchExpressions",
            slice(
                "v1.LabelSelectorRequirement",
                &value["matchExpressions"],
                |requirement| {
                    GoStruct::new("v1.LabelSelectorRequirement")
                        .field("Key", string(&requirement["key"]))
                        .field("Operator", string(&requirement["operator"]))
                        .field("Values", string_slice(&requirement["values"]))
                        .end()
                },
            ),
        )
        .end()
}

/// An `intstr.IntOrString`: its type (0 int, 1 string) and both values.
pub(crate) fn int_or_string(value: &Value) -> String {
    let (kind, number, string_value) = match value {
        Value::String(text) => (1, 0, text.as_str()),
        other => (0, read_int(other), ""),
    };
    GoStruct::new("intstr.IntOrString")
        .field("Type", kind.to_string())
        .field("IntVal", number.to_string())
        .field("StrVal", go_quote(string_value))
        .end()
}

/// A `resource.Quantity` as Go prints it: its int64 amount (value and decimal
/// scale), the unused `inf.Dec`, the cached string (kept only when the text is
/// canonical) and the format its suffix picks. Numbers beyond the int64 fast path
/// print their string only.
pub(crate) fn quantity(text: &str) -> String {
    let (value, scale, format, canonical) = quantity_amount(text).unwrap_or((0, 0, "DecimalSI", false));
    GoStruct::new("resource.Quantity")
        .field("i", format!("resource.int64Amount{{value:{value}, scale:{scale}}}"))
        .field("d", "resource.infDecAmount{Dec:(*inf.Dec)(nil)}")
        .field("s", go_quote(if canonical { text } else { "" }))
        .field("Format", go_quote(format))
        .end()
}

/// `ParseQuantity`'s int64 fast path: (value, scale, format, canonical).
fn quantity_amount(text: &str) -> Option<(i64, i32, &'static str, bool)> {
    let (positive, rest) = match text.as_bytes().first()? {
        b'-' => (false, &text[1..]),
        b'+' => (true, &text[1..]),
        _ => (true, text),
    };
    let number_end = rest
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(rest.len());
    let (number, suffix) = rest.split_at(number_end);
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let whole = whole.trim_start_matches('0');
    let whole = if whole.is_empty() { "0" } else { whole };
    let (format, exponent, binary): (&str, i32, bool) = match suffix {
        "" => ("DecimalSI", 0, false),
        "n" => ("DecimalSI", -9, false),
        "u" => ("DecimalSI", -6, false),
        "m" => ("DecimalSI", -3, false),
        "k" => ("DecimalSI", 3, false),
        "M" => ("DecimalSI", 6, false),
        "G" => ("DecimalSI", 9, false),
        "T" => ("DecimalSI", 12, false),
        "P" => ("DecimalSI", 15, false),
        "E" => ("DecimalSI", 18, false),
        "Ki" => ("BinarySI", 10, true),
        "Mi" => ("BinarySI", 20, true),
        "Gi" => ("BinarySI", 30, true),
        "Ti" => ("BinarySI", 40, true),
        "Pi" => ("BinarySI", 50, true),
        "Ei" => ("BinarySI", 60, true),
        other => ("DecimalExponent", other.get(1..)?.parse().ok()?, false),
    };
    let shifted = format!("{whole}{fraction}");
    let digits: i64 = shifted.parse().ok()?;
    let (mut value, scale) = if binary {
        if !fraction.is_empty() {
            return None;
        }
        (
            digits.checked_mul(1_i64.checked_shl(u32::try_from(exponent).ok()?)?)?,
            0,
        )
    } else {
        (digits, exponent - i32::try_from(fraction.len()).ok()?)
    };
    if !positive {
        value = -value;
    }
    let canonical = if binary {
        exponent % 10 == 0 && digits & 0x07 != 0
    } else {
        scale % 3 == 0 && !shifted.ends_with("000") && !shifted.starts_with('0')
    };
    Some((value, scale, format, canonical))
}

/// A struct this crate does not spell out field by field (a pod template, a whole
/// spec): its fields in the JSON's order, named as Go names them, nested structs
/// without their type names. Close to Go's dump, not equal to it.
pub(crate) fn approximate(type_name: &str, value: &Value) -> String {
    let Some(map) = entries(value) else {
        return format!("{type_name}{{}}");
    };
    let mut literal = GoStruct::new(type_name);
    for (key, field) in map {
        literal = literal.field(&exported(key), nested(field));
    }
    literal.end()
}

fn nested(value: &Value) -> String {
    match value {
        Value::Object(_) => approximate("", value),
        Value::Array(list) => {
            let printed: Vec<String> = list.iter().map(nested).collect();
            format!("{{{}}}", printed.join(", "))
        }
        Value::String(text) => go_quote(text),
        Value::Null => "nil".to_owned(),
        other => other.to_string(),
    }
}

/// A JSON field name as its Go field's name (`matchLabels` is `MatchLabels`).
fn exported(key: &str) -> String {
    let mut chars = key.chars();
    chars
        .next()
        .map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn selectors_print_as_kube_prints_them() {
        assert_eq!(
            label_selector(&json!({})),
            "v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}"
        );
        assert_eq!(
            label_selector(
                &json!({"matchLabels": {"z": "q", "a": "c"}, "matchExpressions": [{"key": "x", "operator": "In", "values": ["y"]}]})
            ),
            "v1.LabelSelector{MatchLabels:map[string]string{\"a\":\"c\", \"z\":\"q\"}, MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:\"x\", Operator:\"In\", Values:[]string{\"y\"}}}}"
        );
    }

    #[test]
    fn int_or_strings_and_pointers() {
        assert_eq!(
            int_or_string(&json!("150%")),
            "intstr.IntOrString{Type:1, IntVal:0, StrVal:\"150%\"}"
        );
        assert_eq!(
            int_or_string(&json!(3)),
            "intstr.IntOrString{Type:0, IntVal:3, StrVal:\"\"}"
        );
        assert_eq!(
            pointer("intstr.IntOrString", &Value::Null),
            "(*intstr.IntOrString)(nil)"
        );
        assert_eq!(string_map(&json!({})), "map[string]string{}");
        assert_eq!(
            quantity("-500m"),
            "resource.Quantity{i:resource.int64Amount{value:-500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:\"-500m\", Format:\"DecimalSI\"}"
        );
        assert!(quantity("1Ki").contains("value:1024, scale:0"));
        assert_eq!(approximate("core.X", &json!({"a": {"b": [1]}})), "core.X{A:{B:{1}}}");
    }
}
