//! JSON values as structured-merge-diff sees them (`value/value.go`): a total order
//! across types (numbers, then strings, booleans, lists, maps, null), equality that takes
//! an integer and a float of the same amount for equal, and the two ways it prints a
//! value: `ToString` for conflict messages and json-iterator's JSON for `FieldsV1` keys.

use std::cmp::Ordering;
use std::fmt::Write as _;

use serde_json::{Map, Number, Value};

/// A number as Go's unstructured JSON reads it: an `int64` when the text is an integer
/// that fits, else a `float64`.
#[derive(Clone, Copy)]
enum Numeric {
    Int(i64),
    Float(f64),
}

fn numeric(number: &Number) -> Numeric {
    match number.as_i64() {
        Some(int) => Numeric::Int(int),
        None => Numeric::Float(number.as_f64().unwrap_or(f64::NAN)),
    }
}

/// The rank of a value's type in `Compare`'s order; numbers share one.
fn rank(value: &Value) -> u8 {
    match value {
        Value::Number(_) => 0,
        Value::String(_) => 1,
        Value::Bool(_) => 2,
        Value::Array(_) => 3,
        Value::Object(_) => 4,
        Value::Null => 5,
    }
}

/// `FloatCompare`: NaN-free totals as Go orders them.
fn float_compare(lhs: f64, rhs: f64) -> Ordering {
    lhs.partial_cmp(&rhs).unwrap_or(Ordering::Equal)
}

fn number_compare(lhs: &Number, rhs: &Number) -> Ordering {
    match (numeric(lhs), numeric(rhs)) {
        (Numeric::Int(lhs), Numeric::Int(rhs)) => lhs.cmp(&rhs),
        #[expect(clippy::cast_precision_loss, reason = "Go compares an int with a float as float64")]
        (Numeric::Int(lhs), Numeric::Float(rhs)) => float_compare(lhs as f64, rhs),
        #[expect(clippy::cast_precision_loss, reason = "Go compares an int with a float as float64")]
        (Numeric::Float(lhs), Numeric::Int(rhs)) => float_compare(lhs, rhs as f64),
        (Numeric::Float(lhs), Numeric::Float(rhs)) => float_compare(lhs, rhs),
    }
}

/// `value.Compare`: a total order over values of any types.
pub(crate) fn compare(lhs: &Value, rhs: &Value) -> Ordering {
    match (lhs, rhs) {
        (Value::Number(lhs), Value::Number(rhs)) => number_compare(lhs, rhs),
        (Value::String(lhs), Value::String(rhs)) => lhs.cmp(rhs),
        (Value::Bool(lhs), Value::Bool(rhs)) => lhs.cmp(rhs),
        (Value::Array(lhs), Value::Array(rhs)) => {
            for (lhs, rhs) in lhs.iter().zip(rhs) {
                let order = compare(lhs, rhs);
                if order != Ordering::Equal {
                    return order;
                }
            }
            lhs.len().cmp(&rhs.len())
        }
        (Value::Object(lhs), Value::Object(rhs)) => map_compare(lhs, rhs),
        (Value::Null, Value::Null) => Ordering::Equal,
        _ => rank(lhs).cmp(&rank(rhs)),
    }
}

/// `MapCompare`: key by key in lexical order; a map missing a key the other has at that
/// position sorts after it.
fn map_compare(lhs: &Map<String, Value>, rhs: &Map<String, Value>) -> Ordering {
    let mut keys: Vec<&String> = lhs.keys().chain(rhs.keys()).collect();
    keys.sort_unstable();
    keys.dedup();
    for (index, key) in keys.into_iter().enumerate() {
        let order = match (lhs.get(key), rhs.get(key)) {
            _ if index == lhs.len() => Ordering::Less,
            _ if index == rhs.len() => Ordering::Greater,
            (None, _) => Ordering::Greater,
            (_, None) => Ordering::Less,
            (Some(lhs), Some(rhs)) => compare(lhs, rhs),
        };
        if order != Ordering::Equal {
            return order;
        }
    }
    Ordering::Equal
}

/// `value.Equals`: as `==`, but an integer equals a float of the same amount.
pub(crate) fn equals(lhs: &Value, rhs: &Value) -> bool {
    match (lhs, rhs) {
        (Value::Number(lhs), Value::Number(rhs)) => number_compare(lhs, rhs) == Ordering::Equal,
        (Value::Array(lhs), Value::Array(rhs)) => {
            lhs.len() == rhs.len() && lhs.iter().zip(rhs).all(|(lhs, rhs)| equals(lhs, rhs))
        }
        (Value::Object(lhs), Value::Object(rhs)) => {
            lhs.len() == rhs.len()
                && lhs
                    .iter()
                    .all(|(key, lhs)| rhs.get(key).is_some_and(|rhs| equals(lhs, rhs)))
        }
        _ => lhs == rhs,
    }
}

/// `value.ToString`: how a conflict's path prints a key or a set item (`"a"`, `80`,
/// `true`).
pub(crate) fn to_go_string(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Number(number) => match numeric(number) {
            Numeric::Int(int) => int.to_string(),
            Numeric::Float(float) => go_float_v(float),
        },
        Value::String(text) => wheelhouse_envtest_schema::errors::go_quote(text),
        Value::Bool(flag) => flag.to_string(),
        Value::Array(items) => format!("[{}]", items.iter().map(to_go_string).collect::<Vec<_>>().join(",")),
        Value::Object(fields) => fields.iter().fold(String::new(), |mut out, (key, value)| {
            let _ = write!(out, "{key}={}", to_go_string(value));
            out
        }),
    }
}

/// Go's `%v` of a float64: the shortest text that reads back, with an exponent from
/// 1e21 up and below 1e-4.
fn go_float_v(float: f64) -> String {
    let magnitude = float.abs();
    if magnitude != 0.0 && !(1e-4..1e21).contains(&magnitude) {
        return go_exponent(&format!("{float:e}"));
    }
    format!("{float}")
}

/// Rust's `1e21` as Go prints it, `1e+21`.
fn go_exponent(rust: &str) -> String {
    match rust.split_once('e') {
        Some((mantissa, exponent)) if !exponent.starts_with('-') => format!("{mantissa}e+{exponent:0>2}"),
        Some((mantissa, exponent)) => format!("{mantissa}e-{:0>2}", &exponent[1..]),
        None => rust.to_owned(),
    }
}

/// `value` as json-iterator writes it in its standard-library-compatible mode: object
/// keys sorted, HTML characters escaped (`<` as `\u003c`), floats as `encoding/json`
/// formats them. `FieldsV1` keys embed this text, so it must match byte for byte.
pub(crate) fn to_go_json(value: &Value) -> String {
    let mut out = String::new();
    write_go_json(value, &mut out);
    out
}

fn write_go_json(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
        Value::Number(number) => match numeric(number) {
            Numeric::Int(int) => out.push_str(&int.to_string()),
            Numeric::Float(float) => out.push_str(&go_json_float(float)),
        },
        Value::String(text) => write_go_string(text, out),
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_go_json(item, out);
            }
            out.push(']');
        }
        Value::Object(fields) => {
            out.push('{');
            for (index, (key, value)) in fields.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_go_string(key, out);
                out.push(':');
                write_go_json(value, out);
            }
            out.push('}');
        }
    }
}

/// `encoding/json`'s float: plain decimal, or an exponent below 1e-6 and from 1e21.
fn go_json_float(float: f64) -> String {
    let magnitude = float.abs();
    if magnitude != 0.0 && !(1e-6..1e21).contains(&magnitude) {
        return go_exponent(&format!("{float:e}"));
    }
    format!("{float}")
}

/// A JSON string as Go's encoder escapes it.
pub(crate) fn write_go_string(text: &str, out: &mut String) {
    out.push('"');
    for character in text.chars() {
        match character {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", u32::from(character));
            }
            control if u32::from(control) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(control));
            }
            other => out.push(other),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn numbers_sort_before_strings_and_compare_by_amount() {
        assert_eq!(compare(&json!(9), &json!(10)), Ordering::Less);
        assert_eq!(compare(&json!(1), &json!(1.0)), Ordering::Equal);
        assert_eq!(compare(&json!(100), &json!("a")), Ordering::Less);
        assert_eq!(compare(&json!("b"), &json!(true)), Ordering::Less);
        assert_eq!(compare(&json!(null), &json!({})), Ordering::Greater);
        assert_eq!(compare(&json!({"a": 1}), &json!({"a": 1, "b": 2})), Ordering::Less);
        assert!(equals(&json!({"a": [1]}), &json!({"a": [1.0]})));
        assert!(!equals(&json!("1"), &json!(1)));
    }

    #[test]
    fn values_print_as_go_prints_them() {
        assert_eq!(to_go_string(&json!("a\"b")), "\"a\\\"b\"");
        assert_eq!(to_go_string(&json!(80)), "80");
        assert_eq!(to_go_string(&json!(1.5)), "1.5");
        assert_eq!(to_go_string(&json!(1e21)), "1e+21");
        assert_eq!(
            to_go_json(&json!({"b": "<x>", "a": 1})),
            r#"{"a":1,"b":"\u003cx\u003e"}"#
        );
        assert_eq!(to_go_json(&json!("tab\tand\u{1}")), r#""tab\tand\u0001""#);
    }
}
