//! The value constraints of a custom resource's schema, checked as kube-openapi's
//! schema validator checks them (`k8s.io/kube-openapi/pkg/validation/validate`:
//! `schema.go`, `type.go`, `validator.go`, `slice_validator.go`,
//! `object_validator.go`, `schema_props.go`, with the messages of
//! `pkg/validation/errors/schema.go`), turned into field errors as
//! apiextensions-apiserver does (`kubeOpenAPIResultToFieldErrors` in
//! `pkg/apiserver/validation/validation.go`), and ratcheted on updates as its
//! `ratcheting.go` does: errors under a value equal to the old one are dropped.

use std::collections::HashMap;

use parking_lot::Mutex;
use regex::Regex;
use serde_json::Value;

use super::errors::{BadValue, ErrorType, FieldError, NIL_PATH, child, go_float, go_json, go_quote};
use super::formats;

/// Which kube-openapi error a violation is (`errors.*Code`), which decides its field
/// error's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Code {
    InvalidType,
    Required,
    TooLong,
    Enum,
    MaxItems,
    TooManyProperties,
    /// Any other `*errors.Validation`: a field error of type Invalid.
    Other,
    /// An error that is not an `*errors.Validation` (anyOf, oneOf, allOf, not, range
    /// checks): reported on the validator's own path, with an empty value.
    Plain,
}

/// One error of kube-openapi's validator.
#[derive(Debug, Clone)]
struct Violation {
    code: Code,
    /// The property path kube-openapi names (`spec.replicas`, `.spec` at the root).
    name: String,
    /// `err.Value`: None when Go's is nil.
    value: Option<Value>,
    /// `err.Valid`: the limit of a too-long or too-many error.
    valid: Option<i64>,
    /// `err.Values`: the allowed values of an enum.
    values: Vec<Value>,
    message: String,
}

impl Violation {
    fn new(code: Code, name: &str, value: Option<Value>, message: String) -> Self {
        Self {
            code,
            name: name.to_owned(),
            value,
            valid: None,
            values: Vec::new(),
            message,
        }
    }

    fn plain(message: String) -> Self {
        Self::new(Code::Plain, "", None, message)
    }
}

/// What validating one value found: the errors and how many validators applied (which
/// picks the "best" failed alternative of anyOf and oneOf, as kube-openapi's
/// `MatchCount` does).
#[derive(Debug, Default)]
struct Outcome {
    errors: Vec<Violation>,
    matches: usize,
}

impl Outcome {
    fn merge(&mut self, other: Self) {
        self.errors.extend(other.errors);
        self.matches += other.matches;
    }

    fn is_valid(&self) -> bool {
        self.errors.is_empty()
    }
}

/// Compiled `pattern`s, shared by every validation (kube-openapi caches them too).
static PATTERNS: std::sync::LazyLock<Mutex<HashMap<String, Result<Regex, String>>>> =
    std::sync::LazyLock::new(|| Mutex::new(HashMap::new()));

/// A `pattern` compiled, or why it cannot be.
pub(crate) fn pattern(source: &str) -> Result<Regex, String> {
    let mut patterns = PATTERNS.lock();
    if patterns.len() > 4096 {
        patterns.clear();
    }
    patterns
        .entry(source.to_owned())
        .or_insert_with(|| Regex::new(source).map_err(|error| error.to_string()))
        .clone()
}

/// Validates `data` against `schema`, rooted at `field_path` (None: the whole object,
/// whose errors without a property are on kube-apiserver's nil path). With `old`,
/// errors under values that did not change are dropped (ratcheting, on by default
/// since Kubernetes 1.30).
pub(crate) fn validate(schema: &Value, data: &Value, old: Option<&Value>, field_path: Option<&str>) -> Vec<FieldError> {
    let outcome = match old {
        Some(old) => ratcheted(schema, data, "", old),
        None => node(schema, data, "", None),
    };
    outcome
        .errors
        .into_iter()
        .map(|violation| to_field_error(field_path, violation))
        .collect()
}

/// `kubeOpenAPIResultToFieldErrors`: one kube-openapi error as a field error.
fn to_field_error(field_path: Option<&str>, violation: Violation) -> FieldError {
    let base = field_path.unwrap_or(NIL_PATH);
    let path = if violation.name.is_empty() || violation.name == "." {
        base.to_owned()
    } else {
        child(base, violation.name.trim_start_matches('.'))
    };
    let value = || BadValue::Json(violation.value.clone().unwrap_or(Value::String(String::new())));
    match violation.code {
        Code::Required => FieldError::required(path, ""),
        Code::Enum => {
            let allowed: Vec<String> = violation
                .values
                .iter()
                .map(|v| v.as_str().map_or_else(|| go_json(v), str::to_owned))
                .collect();
            FieldError::not_supported(path, value(), &allowed)
        }
        Code::TooLong => FieldError::too_long(path, violation.valid.unwrap_or(-1)),
        Code::MaxItems | Code::TooManyProperties => FieldError::too_many(
            path,
            violation.value.as_ref().and_then(Value::as_i64).unwrap_or(-1),
            violation.valid.unwrap_or(-1),
        ),
        Code::InvalidType => FieldError::new(path, ErrorType::TypeInvalid, value(), violation.message),
        Code::Other => FieldError::invalid(path, value(), violation.message),
        Code::Plain => FieldError::invalid(base, BadValue::from(""), violation.message),
    }
}

/// A ratcheting validator's `Validate`: errors of a value equal to its old value are
/// dropped; its properties and map-list items are validated against theirs.
fn ratcheted(schema: &Value, data: &Value, path: &str, old: &Value) -> Outcome {
    let mut outcome = node(schema, data, path, Some(old));
    if !outcome.is_valid() && data == old {
        outcome.errors.clear();
    }
    outcome
}

/// A child's validator: ratcheting when the child has an old value to compare with.
fn sub(schema: &Value, data: &Value, path: &str, old: Option<&Value>) -> Outcome {
    match old {
        Some(old) => ratcheted(schema, data, path, old),
        None => node(schema, data, path, None),
    }
}

/// The types a schema allows (`x-kubernetes-int-or-string` is integer or string).
fn types(schema: &Value) -> Vec<&str> {
    if schema["x-kubernetes-int-or-string"] == true {
        return vec!["integer", "string"];
    }
    schema["type"].as_str().map(|t| vec![t]).unwrap_or_default()
}

/// The format kube-apiserver keeps in the schema (the others are stripped).
fn format<'a>(schema: &'a Value, types: &[&str]) -> &'a str {
    let format = schema["format"].as_str().unwrap_or_default();
    let single = if types.len() == 1 { Some(types[0]) } else { None };
    if format.is_empty() || !formats::is_checked(format, single) {
        ""
    } else {
        format
    }
}

/// `SchemaValidator.Validate`: the type, schema-props (allOf...), string, format,
/// number, slice, enum and object validators in kube-openapi's order.
fn node(schema: &Value, data: &Value, path: &str, old: Option<&Value>) -> Outcome {
    let mut outcome = Outcome::default();
    let types = types(schema);
    let format = format(schema, &types);
    if data.is_null() {
        if !types.is_empty() && !types.contains(&"null") && schema["nullable"] != true {
            outcome
                .errors
                .push(invalid_type(path, &types.join(","), Value::String("null".into())));
        }
        enum_check(schema, data, path, &mut outcome);
        return outcome;
    }
    if !types.is_empty() || !format.is_empty() {
        if let Some(violation) = type_check(&types, format, data, path) {
            outcome.errors.push(violation);
        }
        outcome.matches += 1;
    }
    schema_props(schema, data, path, &mut outcome);
    if let Value::String(text) = data {
        string_checks(schema, text, path, &mut outcome);
        if !format.is_empty() && !formats::is_valid(format, text) {
            outcome.errors.push(invalid_type(path, format, data.clone()));
        }
    }
    if let Value::Number(number) = data {
        number_checks(schema, &types, format, number, path, &mut outcome);
    }
    if let Value::Array(items) = data {
        slice_checks(schema, items, path, old, &mut outcome);
    }
    enum_check(schema, data, path, &mut outcome);
    if let Value::Object(map) = data {
        object_checks(schema, map, path, old, &mut outcome);
    }
    outcome.matches += 1;
    outcome
}

/// `errors.InvalidType`: with a string value the message quotes it.
fn invalid_type(path: &str, type_name: &str, value: Value) -> Violation {
    let message = match &value {
        Value::String(text) => format!("{path} in body must be of type {type_name}: {}", go_quote(text)),
        _ => format!("{path} in body must be of type {type_name}"),
    };
    Violation::new(Code::InvalidType, path, Some(value), message)
}

/// The JSON type and Go format kube-openapi sees in a decoded value.
fn value_type(data: &Value) -> (&'static str, &'static str) {
    match data {
        Value::Bool(_) => ("boolean", ""),
        Value::String(_) => ("string", ""),
        Value::Number(n) if n.is_i64() => ("integer", "int64"),
        Value::Number(_) => ("number", "float64"),
        Value::Array(_) => ("array", ""),
        Value::Object(_) | Value::Null => ("object", ""),
    }
}

/// `typeValidator.Validate` for a non-null value.
fn type_check(types: &[&str], format: &str, data: &Value, path: &str) -> Option<Violation> {
    let (actual, actual_format) = value_type(data);
    let is_float_int = actual == "number"
        && data
            .as_f64()
            .is_some_and(|f| f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15)
        && types.contains(&"integer");
    let is_int_float = actual == "integer" && types.contains(&"number");
    let string_or_slice = data.is_string() || data.is_array();
    let fits_type = types.contains(&actual) || is_float_int || is_int_float;
    if !string_or_slice && !format.is_empty() && !fits_type && actual_format != format {
        return Some(invalid_type(path, format, Value::String(actual_format.into())));
    }
    let numeric = types.contains(&"number") || types.contains(&"integer");
    if !numeric && !format.is_empty() && string_or_slice {
        return None;
    }
    if !fits_type {
        return Some(invalid_type(path, &types.join(","), Value::String(actual.into())));
    }
    None
}

/// `stringValidator`: maxLength, minLength and pattern, the first failure only.
fn string_checks(schema: &Value, text: &str, path: &str, outcome: &mut Outcome) {
    let length = i64::try_from(text.chars().count()).unwrap_or(i64::MAX);
    if let Some(max) = schema["maxLength"].as_i64()
        && length > max
    {
        let mut violation = Violation::new(
            Code::TooLong,
            path,
            Some(Value::String(text.into())),
            format!("{path} in body should be at most {max} chars long"),
        );
        violation.valid = Some(max);
        outcome.errors.push(violation);
        return;
    }
    if let Some(min) = schema["minLength"].as_i64()
        && length < min
    {
        let message = format!("{path} in body should be at least {min} chars long");
        outcome.errors.push(Violation::new(
            Code::Other,
            path,
            Some(Value::String(text.into())),
            message,
        ));
        return;
    }
    if let Some(source) = schema["pattern"].as_str().filter(|p| !p.is_empty()) {
        let shown = match pattern(source) {
            Ok(regex) if regex.is_match(text) => return,
            Ok(_) => source.to_owned(),
            Err(error) => format!("{source}, but pattern is invalid: {error}"),
        };
        let message = format!("{path} in body should match '{shown}'");
        outcome.errors.push(Violation::new(
            Code::Other,
            path,
            Some(Value::String(text.into())),
            message,
        ));
    }
}

/// A number as kube-openapi holds it: an `int64`, else a `float64`.
#[derive(Clone, Copy)]
enum Number {
    Int(i64),
    Float(f64),
}

impl Number {
    fn of(number: &serde_json::Number) -> Self {
        number
            .as_i64()
            .map_or_else(|| Self::Float(number.as_f64().unwrap_or_default()), Self::Int)
    }

    #[expect(clippy::cast_precision_loss, reason = "kube-openapi converts the same way")]
    fn as_f64(self) -> f64 {
        match self {
            Self::Int(i) => i as f64,
            Self::Float(f) => f,
        }
    }

    fn json(self) -> Value {
        match self {
            Self::Int(i) => Value::from(i),
            Self::Float(f) => Value::from(f),
        }
    }
}

/// `IsValueValidAgainstRange`: whether a number fits the schema's type and format.
fn check_range(value: Number, type_name: &str, format: &str, prefix: &str, path: &str) -> Option<Violation> {
    let text = match value {
        Number::Int(i) => i.to_string(),
        Number::Float(f) => format!("{f}"),
    };
    let fits = match (type_name, format) {
        ("integer", "int32") => text.parse::<i32>().is_ok(),
        ("integer", _) => text.parse::<i64>().is_ok(),
        (_, "float") => text.parse::<f32>().is_ok_and(f32::is_finite),
        _ => true,
    };
    if fits {
        return None;
    }
    let message = if format.is_empty() {
        format!("{prefix} value must be of type {type_name} (default format) in {path}")
    } else {
        format!("{prefix} value must be of type {type_name} with format {format} in {path}")
    };
    Some(Violation::plain(message))
}

/// `numberValidator`: the range of the type's format, multipleOf, minimum, maximum.
fn number_checks(
    schema: &Value,
    types: &[&str],
    format: &str,
    number: &serde_json::Number,
    path: &str,
    outcome: &mut Outcome,
) {
    let value = Number::of(number);
    let type_name = match types {
        ["integer"] => "integer",
        ["number"] => "number",
        _ => "",
    };
    let format = match (type_name, format) {
        ("integer", "int32" | "int64") | ("number", "float" | "double") => format,
        _ => "",
    };
    outcome
        .errors
        .extend(check_range(value, type_name, format, "Checked", path));
    let as_boundary = |key: &str| schema[key].as_f64();
    if let Some(factor) = as_boundary("multipleOf") {
        let check = check_range(Number::Float(factor), type_name, format, "MultipleOf", path);
        let failed = check.is_some();
        outcome.errors.extend(check);
        let native = if failed { Number::Float(value.as_f64()) } else { value };
        outcome.errors.extend(multiple_of(path, native, factor, value));
    }
    if let Some(min) = as_boundary("minimum") {
        let exclusive = schema["exclusiveMinimum"] == true;
        let check = check_range(Number::Float(min), type_name, format, "Minimum boundary", path);
        let failed = check.is_some();
        outcome.errors.extend(check);
        let native = if failed { Number::Float(value.as_f64()) } else { value };
        outcome.errors.extend(bound(path, native, min, exclusive, value, false));
    }
    if let Some(max) = as_boundary("maximum") {
        let exclusive = schema["exclusiveMaximum"] == true;
        let check = check_range(Number::Float(max), type_name, format, "Maximum boundary", path);
        let failed = check.is_some();
        outcome.errors.extend(check);
        let native = if failed { Number::Float(value.as_f64()) } else { value };
        outcome.errors.extend(bound(path, native, max, exclusive, value, true));
    }
    outcome.matches += 1;
}

/// `MultipleOfNativeType`, or `MultipleOf` on floats.
#[expect(
    clippy::cast_possible_truncation,
    reason = "kube-openapi truncates the factor the same way"
)]
fn multiple_of(path: &str, value: Number, factor: f64, shown: Number) -> Option<Violation> {
    let (is_multiple, factor_shown) = match value {
        Number::Int(i) => {
            let factor = factor as i64;
            if factor <= 0 {
                return Some(must_be_positive(path, &factor.to_string()));
            }
            (i % factor == 0, factor.to_string())
        }
        Number::Float(f) => {
            if factor <= 0.0 {
                return Some(must_be_positive(path, &go_float(factor)));
            }
            let quotient = if factor < 1.0 { 1.0 / factor * f } else { f / factor };
            (is_json_integer(quotient), go_float(factor))
        }
    };
    if is_multiple {
        return None;
    }
    let message = format!("{path} in body should be a multiple of {factor_shown}");
    Some(Violation::new(Code::Other, path, Some(shown.json()), message))
}

fn must_be_positive(path: &str, factor: &str) -> Violation {
    let message = format!("factor MultipleOf declared for {path} must be positive: {factor}");
    Violation::new(Code::Other, path, Some(Value::String(factor.into())), message)
}

/// go-openapi's `IsFloat64AJSONInteger`: integral, allowing for rounding.
fn is_json_integer(value: f64) -> bool {
    if !value.is_finite() {
        return false;
    }
    (value - value.round()).abs() / value.abs().max(1.0) < 1e-9
}

/// `MinimumNativeType` and `MaximumNativeType`.
#[expect(
    clippy::cast_possible_truncation,
    reason = "kube-openapi truncates the bound the same way"
)]
fn bound(path: &str, value: Number, limit: f64, exclusive: bool, shown: Number, maximum: bool) -> Option<Violation> {
    let (beyond, limit_shown) = match value {
        Number::Int(i) => {
            let limit = limit as i64;
            let beyond = if maximum {
                i > limit || (exclusive && i == limit)
            } else {
                i < limit || (exclusive && i == limit)
            };
            (beyond, limit.to_string())
        }
        Number::Float(f) => {
            let beyond = if maximum {
                f > limit || (exclusive && f >= limit)
            } else {
                f < limit || (exclusive && f <= limit)
            };
            (beyond, go_float(limit))
        }
    };
    if !beyond {
        return None;
    }
    let relation = match (maximum, exclusive) {
        (true, false) => "less than or equal to",
        (true, true) => "less than",
        (false, false) => "greater than or equal to",
        (false, true) => "greater than",
    };
    let message = format!("{path} in body should be {relation} {limit_shown}");
    Some(Violation::new(Code::Other, path, Some(shown.json()), message))
}

/// `schemaSliceValidator`: items, then minItems, maxItems and uniqueItems.
fn slice_checks(schema: &Value, items: &[Value], path: &str, old: Option<&Value>, outcome: &mut Outcome) {
    if let Some(item_schema) = schema.get("items").filter(|s| s.is_object()) {
        let old_items = old.and_then(|old| super::listtype::correlatable_items(schema, old));
        for (index, item) in items.iter().enumerate() {
            let item_old = old_items.as_ref().and_then(|list| list.get(item));
            outcome.merge(sub(item_schema, item, &format!("{path}[{index}]"), item_old));
        }
    }
    let size = i64::try_from(items.len()).unwrap_or(i64::MAX);
    if let Some(min) = schema["minItems"].as_i64()
        && size < min
    {
        let message = format!("{path} in body should have at least {min} items");
        outcome
            .errors
            .push(Violation::new(Code::Other, path, Some(Value::from(size)), message));
    }
    if let Some(max) = schema["maxItems"].as_i64()
        && size > max
    {
        let message = format!("{path} in body should have at most {max} items");
        let mut violation = Violation::new(Code::MaxItems, path, Some(Value::from(size)), message);
        violation.valid = Some(max);
        outcome.errors.push(violation);
    }
    if schema["uniqueItems"] == true && items.iter().enumerate().any(|(i, item)| items[..i].contains(item)) {
        let message = format!("{path} in body shouldn't contain duplicates");
        outcome.errors.push(Violation::new(Code::Other, path, None, message));
    }
    outcome.matches += 1;
}

/// Whether a value equals an enum's value as Go's reflection compares them: numbers
/// by value (an `int64` converts to the schema's `float64`), the rest deeply.
fn enum_equal(data: &Value, allowed: &Value) -> bool {
    match (data, allowed) {
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        _ => data == allowed,
    }
}

/// `basicCommonValidator`: enum.
fn enum_check(schema: &Value, data: &Value, path: &str, outcome: &mut Outcome) {
    let Some(allowed) = schema["enum"].as_array().filter(|a| !a.is_empty()) else {
        return;
    };
    if !data.is_null() && allowed.iter().any(|value| enum_equal(data, value)) {
        return;
    }
    let shown: Vec<String> = allowed.iter().map(go_enum_value).collect();
    let message = format!("{path} in body should be one of [{}]", shown.join(" "));
    let mut violation = Violation::new(Code::Enum, path, Some(data.clone()), message);
    violation.values.clone_from(allowed);
    outcome.errors.push(violation);
}

/// An enum value as Go's `%v` prints it inside a slice.
fn go_enum_value(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Number(n) => n.as_f64().map_or_else(|| n.to_string(), go_float),
        other => go_json(other),
    }
}

/// `objectValidator`: min/maxProperties, additional properties, properties, required.
fn object_checks(
    schema: &Value,
    map: &serde_json::Map<String, Value>,
    path: &str,
    old: Option<&Value>,
    outcome: &mut Outcome,
) {
    let count = i64::try_from(map.len()).unwrap_or(i64::MAX);
    if let Some(min) = schema["minProperties"].as_i64()
        && count < min
    {
        let message = format!("{path} in body should have at least {min} properties");
        outcome
            .errors
            .push(Violation::new(Code::Other, path, Some(Value::from(count)), message));
    }
    if let Some(max) = schema["maxProperties"].as_i64()
        && count > max
    {
        let message = format!("{path} in body should have at most {max} properties");
        let mut violation = Violation::new(Code::TooManyProperties, path, Some(Value::from(count)), message);
        violation.valid = Some(max);
        outcome.errors.push(violation);
    }
    let properties = schema["properties"].as_object();
    let old_map = old.and_then(Value::as_object);
    let old_of = |key: &str| {
        // `apiVersion` and `kind` at the root are never ratcheted.
        if path.is_empty() && matches!(key, "apiVersion" | "kind") {
            return None;
        }
        old_map.and_then(|m| m.get(key))
    };
    if let Some(additional) = schema.get("additionalProperties").filter(|s| s.is_object()) {
        for (key, value) in map {
            if properties.is_some_and(|p| p.contains_key(key)) {
                continue;
            }
            outcome.merge(sub(additional, value, &format!("{path}.{key}"), old_of(key)));
        }
    }
    if let Some(properties) = properties {
        for (name, property) in properties {
            if let Some(value) = map.get(name) {
                let child_path = if path.is_empty() {
                    name.clone()
                } else {
                    format!("{path}.{name}")
                };
                outcome.merge(sub(property, value, &child_path, old_of(name)));
            }
        }
    }
    for name in schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if !map.contains_key(name) {
            let name = format!("{path}.{name}");
            let message = format!("{name} in body is required");
            outcome
                .errors
                .push(Violation::new(Code::Required, &name, None, message));
        }
    }
}

/// `schemaPropsValidator`: anyOf, oneOf, allOf and not, validated without ratcheting.
fn schema_props(schema: &Value, data: &Value, path: &str, outcome: &mut Outcome) {
    let quoted = go_quote(path);
    if let Some(any_of) = schema["anyOf"].as_array().filter(|a| !a.is_empty()) {
        let mut best: Option<Outcome> = None;
        let mut success: Option<Outcome> = None;
        for alternative in any_of {
            let result = node(alternative, data, path, None);
            if result.is_valid() {
                success = Some(result);
                best = None;
                break;
            }
            if best.as_ref().is_none_or(|b| result.matches > b.matches) {
                best = Some(result);
            }
        }
        if success.is_none() {
            let message = format!("{quoted} must validate at least one schema (anyOf)");
            outcome.errors.push(Violation::plain(message));
        }
        if let Some(result) = best.or(success) {
            outcome.merge(result);
        }
    }
    if let Some(one_of) = schema["oneOf"].as_array().filter(|a| !a.is_empty()) {
        let mut best: Option<Outcome> = None;
        let mut success: Option<Outcome> = None;
        let mut valid = 0;
        for alternative in one_of {
            let result = node(alternative, data, path, None);
            if result.is_valid() {
                valid += 1;
                best = None;
                if success.is_none() {
                    success = Some(result);
                }
                continue;
            }
            if valid == 0 && best.as_ref().is_none_or(|b| result.matches > b.matches) {
                best = Some(result);
            }
        }
        if valid == 1 {
            if let Some(result) = success {
                outcome.merge(result);
            }
        } else {
            let found = if valid == 0 {
                "Found none valid".to_owned()
            } else {
                format!("Found {valid} valid alternatives")
            };
            let message = format!("{quoted} must validate one and only one schema (oneOf). {found}");
            outcome.errors.push(Violation::plain(message));
            if let Some(result) = best {
                outcome.merge(result);
            }
        }
    }
    if let Some(all_of) = schema["allOf"].as_array().filter(|a| !a.is_empty()) {
        let mut valid = 0;
        for part in all_of {
            let result = node(part, data, path, None);
            if result.is_valid() {
                valid += 1;
            }
            outcome.merge(result);
        }
        if valid != all_of.len() {
            let none = if valid == 0 { ". None validated" } else { "" };
            let message = format!("{quoted} must validate all the schemas (allOf){none}");
            outcome.errors.push(Violation::plain(message));
        }
    }
    if let Some(not) = schema.get("not").filter(|s| s.is_object())
        && node(not, data, path, None).is_valid()
    {
        let message = format!("{quoted} must not validate the schema (not)");
        outcome.errors.push(Violation::plain(message));
    }
    outcome.matches += 1;
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn messages(schema: &Value, data: &Value) -> Vec<String> {
        validate(schema, data, None, None)
            .iter()
            .map(FieldError::summary)
            .collect()
    }

    #[test]
    fn numbers_are_bounded_with_kube_openapi_messages() {
        let schema = json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "replicas": {"type": "integer", "minimum": 1, "maximum": 10, "multipleOf": 2},
            "ratio": {"type": "number", "exclusiveMinimum": true, "minimum": 0.5, "exclusiveMaximum": true, "maximum": 1.5},
            "small": {"type": "integer", "format": "int32"},
        }}}});
        let found = messages(
            &schema,
            &json!({"spec": {"replicas": 11, "ratio": 0.5, "small": 4_294_967_296_i64}}),
        );
        assert_eq!(
            found,
            vec![
                "spec.ratio: Invalid value: 0.5: spec.ratio in body should be greater than 0.5",
                "spec.replicas: Invalid value: 11: spec.replicas in body should be a multiple of 2",
                "spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10",
                "<nil>: Invalid value: \"\": Checked value must be of type integer with format int32 in spec.small",
            ]
        );
        assert!(messages(&schema, &json!({"spec": {"replicas": 4, "ratio": 1.0, "small": 3}})).is_empty());
        assert_eq!(
            messages(&schema, &json!({"spec": {"replicas": 0}})),
            vec!["spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1"]
        );
    }

    #[test]
    fn strings_lists_and_maps_have_their_limits() {
        let schema = json!({"type": "object", "properties": {
            "name": {"type": "string", "minLength": 3, "maxLength": 5, "pattern": "^[a-z]+$"},
            "tags": {"type": "array", "minItems": 1, "maxItems": 2, "uniqueItems": true, "items": {"type": "string"}},
            "labels": {"type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": {"type": "string", "maxLength": 2}},
            "when": {"type": "string", "format": "date-time"},
            "mode": {"type": "string", "enum": ["fast", "safe"]},
            "size": {"x-kubernetes-int-or-string": true},
        }});
        let found = messages(
            &schema,
            &json!({"name": "toolong", "tags": ["a", "a", "b"], "labels": {"a": "xyz", "b": "y"},
                "when": "soon", "mode": "slow", "size": true}),
        );
        assert_eq!(
            found,
            vec![
                "labels: Too many: 2: must have at most 1 item",
                "labels.a: Too long: may not be more than 2 bytes",
                "mode: Unsupported value: \"slow\": supported values: \"fast\", \"safe\"",
                "name: Too long: may not be more than 5 bytes",
                "size: Invalid value: \"boolean\": size in body must be of type integer,string: \"boolean\"",
                "tags: Too many: 3: must have at most 2 items",
                "tags: Invalid value: \"\": tags in body shouldn't contain duplicates",
                "when: Invalid value: \"soon\": when in body must be of type date-time: \"soon\"",
            ]
        );
        let found = messages(&schema, &json!({"name": "AB", "tags": [], "labels": {}}));
        assert_eq!(
            found,
            vec![
                "labels: Invalid value: 0: labels in body should have at least 1 properties",
                "name: Invalid value: \"AB\": name in body should be at least 3 chars long",
                "tags: Invalid value: 0: tags in body should have at least 1 items",
            ]
        );
        let found = messages(&schema, &json!({"name": "ABC"}));
        assert_eq!(
            found,
            vec!["name: Invalid value: \"ABC\": name in body should match '^[a-z]+$'"]
        );
    }

    #[test]
    fn combinators_report_on_the_nil_path_as_kube_apiserver_does() {
        let schema = json!({"type": "object", "properties": {"spec": {"type": "object",
            "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
            "oneOf": [{"required": ["c"]}, {"required": ["d"]}],
            "not": {"required": ["e"]},
            "allOf": [{"required": ["f"]}],
        }}});
        let found = messages(&schema, &json!({"spec": {"c": 1, "d": 1, "e": 1}}));
        assert_eq!(
            found,
            vec![
                "<nil>: Invalid value: \"\": \"spec\" must validate at least one schema (anyOf)",
                "spec.a: Required value",
                "<nil>: Invalid value: \"\": \"spec\" must validate one and only one schema (oneOf). Found 2 valid alternatives",
                "spec.f: Required value",
                "<nil>: Invalid value: \"\": \"spec\" must validate all the schemas (allOf). None validated",
                "<nil>: Invalid value: \"\": \"spec\" must not validate the schema (not)",
            ]
        );
    }

    #[test]
    fn unchanged_invalid_values_are_ratcheted() {
        let schema = json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
            "a": {"type": "integer", "maximum": 1}, "b": {"type": "integer", "maximum": 1},
        }}}});
        let old = json!({"spec": {"a": 5, "b": 0}});
        assert!(validate(&schema, &json!({"spec": {"a": 5, "b": 1}}), Some(&old), None).is_empty());
        let changed = validate(&schema, &json!({"spec": {"a": 6, "b": 1}}), Some(&old), None);
        assert_eq!(changed.len(), 1, "{changed:?}");
        assert_eq!(changed[0].field, "spec.a");
        assert_eq!(
            validate(&schema, &json!({"spec": {"a": 5, "b": 1}}), None, None).len(),
            1
        );
    }

    #[test]
    fn a_status_schema_reports_under_status() {
        let schema = json!({"type": "object", "properties": {"replicas": {"type": "integer", "minimum": 0}}});
        let found = validate(&schema, &json!({"replicas": -1}), None, Some("status"));
        assert_eq!(
            found[0].summary(),
            "status.replicas: Invalid value: -1: replicas in body should be greater than or equal to 0"
        );
    }
}
