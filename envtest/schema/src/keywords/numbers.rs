//! The numeric keywords, as kube-openapi's `numberValidator` checks them
//! (`pkg/validation/validate/validator.go` and `values.go`): the range of the type's
//! format, `multipleOf`, `minimum` and `maximum` (exclusive or not), integers compared
//! as integers and the rest as floats.

use serde_json::Value;

use super::{Code, Outcome, Violation};
use crate::errors::go_float;

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
pub(super) fn number_checks(
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
