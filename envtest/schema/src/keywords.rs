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

use crate::errors::{BadValue, ErrorType, FieldError, NIL_PATH, child, go_float, go_json, go_quote};
use crate::formats;

mod numbers;

use numbers::number_checks;

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
        number_checks(schema, number, path, &mut outcome);
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

/// `schemaSliceValidator`: items, then minItems, maxItems and uniqueItems.
fn slice_checks(schema: &Value, items: &[Value], path: &str, old: Option<&Value>, outcome: &mut Outcome) {
    if let Some(item_schema) = schema.get("items").filter(|s| s.is_object()) {
        let old_items = old.and_then(|old| crate::listtype::correlatable_items(schema, old));
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
mod tests;
