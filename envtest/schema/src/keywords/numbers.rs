//! The numeric keywords, as kube-openapi's `numberValidator` checks them
//! (`pkg/validation/validate/validator.go` and `values.go`): `multipleOf`, `minimum`
//! and `maximum` (exclusive or not), integers compared as integers and the rest as
//! floats.

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

    fn json(self) -> Value {
        match self {
            Self::Int(i) => Value::from(i),
            Self::Float(f) => Value::from(f),
        }
    }
}

/// `numberValidator`: multipleOf, minimum and maximum. kube-openapi builds the
/// validator without the schema's type and format (`SchemaValidator.numberValidator`
/// sets neither, in 1.19 as in 1.32), so its `IsValueValidAgainstRange` checks of the
/// value and the boundaries never fail and every comparison is native: a float where
/// an integer belongs is the type validator's error alone.
pub(super) fn number_checks(schema: &Value, number: &serde_json::Number, path: &str, outcome: &mut Outcome) {
    let value = Number::of(number);
    let as_boundary = |key: &str| schema[key].as_f64();
    if let Some(factor) = as_boundary("multipleOf") {
        outcome.errors.extend(multiple_of(path, value, factor, value));
    }
    if let Some(min) = as_boundary("minimum") {
        let exclusive = schema["exclusiveMinimum"] == true;
        outcome.errors.extend(bound(path, value, min, exclusive, value, false));
    }
    if let Some(max) = as_boundary("maximum") {
        let exclusive = schema["exclusiveMaximum"] == true;
        outcome.errors.extend(bound(path, value, max, exclusive, value, true));
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
