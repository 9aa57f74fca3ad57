//! Field errors as kube-apiserver writes them: apimachinery's `field.Error`
//! (`k8s.io/apimachinery/pkg/util/validation/field/errors.go`), whose `ErrorBody` is a
//! 422 cause's message, and whose value is printed the way Go's `fmt` and
//! `encoding/json` print it.

use std::fmt::Write as _;

use serde_json::Value;

/// The kind of a field error: a cause's `reason`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorType {
    /// `field.Required`: a required field is missing.
    Required,
    /// `field.Duplicate`: a value appears twice where it must be unique.
    Duplicate,
    /// `field.Invalid`: the value breaks a rule.
    Invalid,
    /// `field.NotSupported`: the value is not one of the supported ones.
    NotSupported,
    /// `field.Forbidden`: the field may not be set here.
    Forbidden,
    /// `field.TooLong`: a string or list longer than allowed.
    TooLong,
    /// `field.TooMany`: more items or properties than allowed.
    TooMany,
    /// `field.TypeInvalid`: the value has the wrong type.
    TypeInvalid,
    /// `field.NotFound`: the value names something that does not exist (a volume, a
    /// container).
    NotFound,
    /// `field.InternalError`: the server could not check the value.
    Internal,
}

impl ErrorType {
    /// The cause's `reason`, for example `FieldValueInvalid`.
    pub fn reason(self) -> &'static str {
        match self {
            Self::Required => "FieldValueRequired",
            Self::Duplicate => "FieldValueDuplicate",
            Self::Invalid => "FieldValueInvalid",
            Self::NotSupported => "FieldValueNotSupported",
            Self::Forbidden => "FieldValueForbidden",
            Self::TooLong => "FieldValueTooLong",
            Self::TooMany => "FieldValueTooMany",
            Self::TypeInvalid => "FieldValueTypeInvalid",
            Self::NotFound => "FieldValueNotFound",
            Self::Internal => "InternalError",
        }
    }

    /// How the message names the kind (`ErrorType.String()`).
    fn label(self) -> &'static str {
        match self {
            Self::Required => "Required value",
            Self::Duplicate => "Duplicate value",
            Self::Invalid | Self::TypeInvalid => "Invalid value",
            Self::NotSupported => "Unsupported value",
            Self::Forbidden => "Forbidden",
            Self::TooLong => "Too long",
            Self::TooMany => "Too many",
            Self::NotFound => "Not found",
            Self::Internal => "Internal error",
        }
    }
}

/// The value a field error shows: omitted, or printed as Go prints it.
#[derive(Debug, Clone, PartialEq)]
pub enum BadValue {
    /// `field.OmitValueType`: the message shows no value.
    Omit,
    /// A value as the object holds it.
    Json(Value),
    /// A value already printed as Go prints it (a Go struct marshalled to JSON).
    Raw(String),
}

impl From<&Value> for BadValue {
    fn from(value: &Value) -> Self {
        Self::Json(value.clone())
    }
}

impl From<&str> for BadValue {
    fn from(value: &str) -> Self {
        Self::Json(Value::String(value.to_owned()))
    }
}

/// One violation: where (`field`), what kind, the value and the explanation.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    /// The path as `field.Path.String()` prints it (`<nil>` for no path at all).
    pub field: String,
    /// What kind of violation it is (the cause's `reason`).
    pub kind: ErrorType,
    /// The value the message shows.
    pub value: BadValue,
    /// The explanation after the value, if any.
    pub detail: String,
}

/// What `field.Path.String()` prints for the nil path, which kube-apiserver uses for
/// errors about the whole object (a rule at the schema's root, for example).
pub const NIL_PATH: &str = "<nil>";

impl FieldError {
    /// A field error of any kind.
    pub fn new(field: impl Into<String>, kind: ErrorType, value: BadValue, detail: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            kind,
            value,
            detail: detail.into(),
        }
    }

    /// `field.Required`, with an empty value as Go's zero value prints.
    pub fn required(field: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(
            field,
            ErrorType::Required,
            BadValue::Json(Value::String(String::new())),
            detail,
        )
    }

    /// `field.Invalid`.
    pub fn invalid(field: impl Into<String>, value: BadValue, detail: impl Into<String>) -> Self {
        Self::new(field, ErrorType::Invalid, value, detail)
    }

    /// `field.Forbidden`, with an empty value as Go's zero value prints.
    pub fn forbidden(field: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::new(
            field,
            ErrorType::Forbidden,
            BadValue::Json(Value::String(String::new())),
            detail,
        )
    }

    /// `field.NotSupported`: the supported values quoted, as `strconv.Quote` does.
    pub fn not_supported(field: impl Into<String>, value: BadValue, supported: &[String]) -> Self {
        let detail = if supported.is_empty() {
            String::new()
        } else {
            let quoted: Vec<String> = supported.iter().map(|v| go_quote(v)).collect();
            format!("supported values: {}", quoted.join(", "))
        };
        Self::new(field, ErrorType::NotSupported, value, detail)
    }

    /// `field.TooLong`: the limit in bytes, the value omitted.
    pub fn too_long(field: impl Into<String>, max: i64) -> Self {
        let detail = if max >= 0 {
            format!("may not be more than {max} {}", if max == 1 { "byte" } else { "bytes" })
        } else {
            "value is too long".to_owned()
        };
        Self::new(field, ErrorType::TooLong, BadValue::Omit, detail)
    }

    /// `field.TooMany`: how many there are and the most allowed.
    pub fn too_many(field: impl Into<String>, actual: i64, max: i64) -> Self {
        let detail = if max >= 0 {
            format!("must have at most {max} {}", if max == 1 { "item" } else { "items" })
        } else {
            "has too many items".to_owned()
        };
        let value = if actual >= 0 {
            BadValue::Json(Value::from(actual))
        } else {
            BadValue::Omit
        };
        Self::new(field, ErrorType::TooMany, value, detail)
    }

    /// `ErrorBody()`: the cause's message.
    pub fn body(&self) -> String {
        let mut body = match (self.kind, &self.value) {
            (ErrorType::Required | ErrorType::Forbidden | ErrorType::TooLong | ErrorType::Internal, _)
            | (_, BadValue::Omit) => self.kind.label().to_owned(),
            (_, BadValue::Json(value)) => format!("{}: {}", self.kind.label(), go_value(value)),
            (_, BadValue::Raw(printed)) => format!("{}: {printed}", self.kind.label()),
        };
        if !self.detail.is_empty() {
            body.push_str(": ");
            body.push_str(&self.detail);
        }
        body
    }

    /// `Error()`: `field: body`, as the 422's summary lists it.
    #[cfg(test)]
    pub fn summary(&self) -> String {
        format!("{}: {}", self.field, self.body())
    }

    /// Whether kube-apiserver skips the CEL rules after this error
    /// (`hasBlockingErr` in apiextensions-apiserver's `customresource/strategy.go`).
    pub fn blocks_rules(&self) -> bool {
        matches!(
            self.kind,
            ErrorType::NotSupported
                | ErrorType::Required
                | ErrorType::TooLong
                | ErrorType::TooMany
                | ErrorType::TypeInvalid
        )
    }
}

/// A value as kube-apiserver 1.32's `ErrorBody` prints it: numbers and booleans with
/// `%v`, strings with `%q`, null as `"null"`, lists and maps (an unstructured object's
/// `[]interface{}` and `map[string]interface{}`) with `%#v`.
pub fn go_value(value: &Value) -> String {
    match value {
        Value::String(text) => go_quote(text),
        Value::Number(number) => go_number(number),
        Value::Bool(flag) => flag.to_string(),
        Value::Null => go_quote("null"),
        Value::Array(_) | Value::Object(_) => go_syntax(value),
    }
}

/// Go's `%#v` of a value of an unstructured object: `map[string]interface {}{"a":1}`
/// (keys sorted, as `fmt` sorts them), `[]interface {}{"a", "b"}`, and
/// `interface {}(nil)` for a nil element.
fn go_syntax(value: &Value) -> String {
    match value {
        Value::Null => "interface {}(nil)".to_owned(),
        Value::String(text) => go_quote(text),
        Value::Number(number) => go_number(number),
        Value::Bool(flag) => flag.to_string(),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(go_syntax).collect();
            format!("[]interface {{}}{{{}}}", items.join(", "))
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let entries: Vec<String> = entries
                .into_iter()
                .map(|(key, value)| format!("{}:{}", go_quote(key), go_syntax(value)))
                .collect();
            format!("map[string]interface {{}}{{{}}}", entries.join(", "))
        }
    }
}

/// Go's `%v` (and `%+v`) of a decoded JSON value: `map[a:1 b:[x y]]` (keys sorted, as
/// `fmt` sorts them), strings bare, `<nil>` for null; what the strategic merge patch's
/// errors and the patch handler print of the maps and lists they were given.
pub fn go_plain(value: &Value) -> String {
    match value {
        Value::Null => "<nil>".to_owned(),
        Value::String(text) => text.clone(),
        Value::Number(number) => go_number(number),
        Value::Bool(flag) => flag.to_string(),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(go_plain).collect();
            format!("[{}]", items.join(" "))
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let entries: Vec<String> = entries
                .into_iter()
                .map(|(key, value)| format!("{key}:{}", go_plain(value)))
                .collect();
            format!("map[{}]", entries.join(" "))
        }
    }
}

/// A number as Go's `%v` prints an `int64` or a `float64`.
pub fn go_number(number: &serde_json::Number) -> String {
    if let Some(integer) = number.as_i64() {
        return integer.to_string();
    }
    if let Some(integer) = number.as_u64() {
        return integer.to_string();
    }
    go_float(number.as_f64().unwrap_or_default())
}

/// A float as Go's `%v` prints it (`strconv.FormatFloat(v, 'g', -1, 64)`): the shortest
/// digits, in exponent form below 1e-4 and from 1e6 on (`1e+06`).
pub fn go_float(value: f64) -> String {
    if value.is_nan() {
        return "NaN".to_owned();
    }
    if value.is_infinite() {
        return if value > 0.0 { "+Inf" } else { "-Inf" }.to_owned();
    }
    // Rust's `{:e}` and Display both write the shortest digits that round-trip, as Go does.
    let scientific = format!("{value:e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if (-4..6).contains(&exponent) {
        return format!("{value}");
    }
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.abs())
}

/// A string as Go's `strconv.Quote` writes it.
pub fn go_quote(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\r' => quoted.push_str("\\r"),
            '\t' => quoted.push_str("\\t"),
            '\u{7}' => quoted.push_str("\\a"),
            '\u{8}' => quoted.push_str("\\b"),
            '\u{c}' => quoted.push_str("\\f"),
            '\u{b}' => quoted.push_str("\\v"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(quoted, "\\x{:02x}", c as u32);
            }
            c if c.is_control() => {
                let _ = write!(quoted, "\\u{:04x}", c as u32);
            }
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// A value as Go's `encoding/json` marshals it: compact, keys sorted, and `<`, `>`,
/// `&` escaped.
pub fn go_json(value: &Value) -> String {
    let json = serde_json::to_string(value).unwrap_or_default();
    json.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// `field.Path.Child`: `parent.child`, or `child` at the root.
pub fn child(parent: &str, name: &str) -> String {
    if parent.is_empty() || parent == NIL_PATH {
        name.to_owned()
    } else {
        format!("{parent}.{name}")
    }
}

/// `field.Path.Index` and `field.Path.Key`: `parent[index]`.
pub fn subscript(parent: &str, index: impl std::fmt::Display) -> String {
    if parent == NIL_PATH {
        format!("[{index}]")
    } else {
        format!("{parent}[{index}]")
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn plain_values_print_as_go_s_percent_v() {
        assert_eq!(go_plain(&json!({"$patch": "bogus"})), "map[$patch:bogus]");
        assert_eq!(
            go_plain(&json!({"b": [1, "x", null], "a": {"c": true}})),
            "map[a:map[c:true] b:[1 x <nil>]]"
        );
        assert_eq!(go_plain(&json!([[{"name": "app"}], ["x"]])), "[[map[name:app]] [x]]");
    }

    #[test]
    fn values_print_as_go_prints_them() {
        assert_eq!(go_value(&json!(0)), "0");
        assert_eq!(go_value(&json!(1.5)), "1.5");
        assert_eq!(go_value(&json!(1e21)), "1e+21");
        assert_eq!(go_value(&json!(1_000_000.0)), "1e+06");
        assert_eq!(go_value(&json!(123_456.5)), "123456.5");
        assert_eq!(go_value(&json!(0.000_001_5)), "1.5e-06");
        assert_eq!(go_value(&json!("a\"b")), r#""a\"b""#);
        assert_eq!(
            go_value(&json!({"b": [1, null], "a": "<"})),
            r#"map[string]interface {}{"a":"<", "b":[]interface {}{1, interface {}(nil)}}"#
        );
        assert_eq!(go_value(&Value::Null), r#""null""#);
    }

    #[test]
    fn bodies_follow_the_error_type() {
        let invalid = FieldError::invalid("spec.replicas", (&json!(0)).into(), "must be positive");
        assert_eq!(invalid.summary(), "spec.replicas: Invalid value: 0: must be positive");
        assert_eq!(FieldError::required("spec.image", "").body(), "Required value");
        assert_eq!(
            FieldError::too_long("spec.name", 5).body(),
            "Too long: may not be more than 5 bytes"
        );
        assert_eq!(
            FieldError::too_many("spec.items", 4, 3).body(),
            "Too many: 4: must have at most 3 items"
        );
        let unsupported = FieldError::not_supported("spec.mode", (&json!("slow")).into(), &["fast".into(), "1".into()]);
        assert_eq!(
            unsupported.body(),
            r#"Unsupported value: "slow": supported values: "fast", "1""#
        );
        assert_eq!(
            FieldError::invalid("spec", BadValue::Omit, "failed rule: x").body(),
            "Invalid value: failed rule: x"
        );
    }
}
