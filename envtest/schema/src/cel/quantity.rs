//! Kubernetes quantities in CEL (`quantity('1.5Gi')`, `isQuantity`, `add`, `sub`,
//! `compareTo`, `isLessThan`, `asInteger`, ...), as kube-apiserver's
//! `k8s.io/apiserver/pkg/cel/library/quantity.go` offers them, with the parsing of
//! apimachinery's `resource.ParseQuantity`.

use std::cmp::Ordering;
use std::sync::Arc;

use cel::common::types::{INT_TYPE, STRING_TYPE, Type};
use cel::objects::Opaque;
use cel::{Env, ExecutionError, Value};

use super::overload::{error, overload, type_name};

/// The CEL type name of a quantity.
pub(crate) const QUANTITY_TYPE: &str = "kubernetes.Quantity";

const FORMAT_ERROR: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/// An exact quantity: `mantissa × 10^exponent`.
#[derive(Debug, Clone, Copy)]
pub struct Quantity {
    mantissa: i128,
    exponent: i32,
}

impl PartialEq for Quantity {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Quantity {}

impl PartialOrd for Quantity {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Quantity {
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b) = align(*self, *other);
        match (a, b) {
            (Some(a), Some(b)) => a.mantissa.cmp(&b.mantissa),
            _ => self.approximate().total_cmp(&other.approximate()),
        }
    }
}

impl Opaque for Quantity {
    fn runtime_type_name(&self) -> &str {
        QUANTITY_TYPE
    }
}

/// Both quantities at the smaller exponent, unless that overflows.
fn align(a: Quantity, b: Quantity) -> (Option<Quantity>, Option<Quantity>) {
    let exponent = a.exponent.min(b.exponent);
    (a.rescale(exponent), b.rescale(exponent))
}

impl Quantity {
    /// The quantity a CEL value holds, if it is one.
    pub(crate) fn of(value: &Value) -> Option<&Self> {
        match value {
            Value::Opaque(opaque) => opaque.downcast_ref::<Self>(),
            _ => None,
        }
    }

    fn rescale(self, exponent: i32) -> Option<Self> {
        let steps = u32::try_from(self.exponent - exponent).ok()?;
        let factor = 10i128.checked_pow(steps)?;
        Some(Self {
            mantissa: self.mantissa.checked_mul(factor)?,
            exponent,
        })
    }

    #[expect(clippy::cast_precision_loss, reason = "asApproximateFloat is approximate by name")]
    fn approximate(self) -> f64 {
        self.mantissa as f64 * 10f64.powi(self.exponent)
    }

    /// `resource.ParseQuantity`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let number_end = text
            .char_indices()
            .find(|(i, c)| !(c.is_ascii_digit() || *c == '.' || (*i == 0 && (*c == '+' || *c == '-'))))
            .map_or(text.len(), |(i, _)| i);
        let (number, suffix) = text.split_at(number_end);
        let (negative, digits) = match number.as_bytes().first() {
            Some(b'-') => (true, &number[1..]),
            Some(b'+') => (false, &number[1..]),
            _ => (false, number),
        };
        if digits.is_empty() || digits.matches('.').count() > 1 || digits == "." {
            return Err(FORMAT_ERROR.to_owned());
        }
        let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
        let mut mantissa: i128 = 0;
        for digit in whole.bytes().chain(fraction.bytes()) {
            mantissa = mantissa
                .checked_mul(10)
                .and_then(|m| m.checked_add(i128::from(digit - b'0')))
                .ok_or_else(|| "quantity too large".to_owned())?;
        }
        let mut exponent = -i32::try_from(fraction.len()).map_err(|_| FORMAT_ERROR.to_owned())?;
        let binary = |power: u32| 1024i128.pow(power);
        let (multiplier, decimal) = match suffix {
            "" => (1, 0),
            "Ki" => (binary(1), 0),
            "Mi" => (binary(2), 0),
            "Gi" => (binary(3), 0),
            "Ti" => (binary(4), 0),
            "Pi" => (binary(5), 0),
            "Ei" => (binary(6), 0),
            "n" => (1, -9),
            "u" => (1, -6),
            "m" => (1, -3),
            "k" => (1, 3),
            "M" => (1, 6),
            "G" => (1, 9),
            "T" => (1, 12),
            "P" => (1, 15),
            "E" => (1, 18),
            other => {
                let rest = other
                    .strip_prefix('e')
                    .or_else(|| other.strip_prefix('E'))
                    .ok_or_else(|| "unable to parse quantity's suffix".to_owned())?;
                let power: i32 = rest
                    .parse()
                    .map_err(|_| "unable to parse quantity's suffix".to_owned())?;
                (1, power)
            }
        };
        mantissa = mantissa
            .checked_mul(multiplier)
            .ok_or_else(|| "quantity too large".to_owned())?;
        exponent += decimal;
        Ok(Self {
            mantissa: if negative { -mantissa } else { mantissa },
            exponent,
        })
    }

    fn is_integer(self) -> bool {
        self.exponent >= 0 || self.mantissa % 10i128.pow(self.exponent.unsigned_abs().min(38)) == 0
    }

    fn as_integer(self) -> Option<i64> {
        if !self.is_integer() {
            return None;
        }
        let integer = if self.exponent >= 0 {
            self.rescale(0)?.mantissa
        } else {
            self.mantissa / 10i128.pow(self.exponent.unsigned_abs())
        };
        i64::try_from(integer).ok()
    }

    fn add(self, other: Self, negate: bool) -> Option<Self> {
        let (a, b) = align(self, other);
        let (a, b) = (a?, b?);
        let other = if negate { -b.mantissa } else { b.mantissa };
        Some(Self {
            mantissa: a.mantissa.checked_add(other)?,
            exponent: a.exponent,
        })
    }
}

fn value(quantity: Quantity) -> Value {
    Value::Opaque(Arc::new(quantity))
}

fn receiver(function: &str, args: &[Value]) -> Result<Quantity, ExecutionError> {
    Quantity::of(&args[0])
        .copied()
        .ok_or_else(|| ExecutionError::no_such_overload(function, vec![type_name(&args[0])]))
}

fn operand(function: &str, value: &Value) -> Result<Quantity, ExecutionError> {
    match value {
        Value::Int(i) => Ok(Quantity {
            mantissa: i128::from(*i),
            exponent: 0,
        }),
        other => Quantity::of(other)
            .copied()
            .ok_or_else(|| ExecutionError::no_such_overload(function, vec![type_name(other)])),
    }
}

fn quantity(args: &[Value]) -> Result<Value, ExecutionError> {
    let Value::String(text) = &args[0] else {
        return Err(ExecutionError::no_such_overload("quantity", vec![type_name(&args[0])]));
    };
    Quantity::parse(text).map(value).map_err(|e| error("quantity", e))
}

#[expect(
    clippy::unnecessary_wraps,
    reason = "every overload has the signature `overload!` wraps"
)]
fn is_quantity(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(
        matches!(&args[0], Value::String(text) if Quantity::parse(text).is_ok()),
    ))
}

fn sign(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Int(
        receiver("sign", args)?.mantissa.signum().try_into().unwrap_or(0),
    ))
}

fn is_integer(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(receiver("isInteger", args)?.is_integer()))
}

fn as_integer(args: &[Value]) -> Result<Value, ExecutionError> {
    receiver("asInteger", args)?
        .as_integer()
        .map(Value::Int)
        .ok_or_else(|| error("asInteger", "cannot convert value to integer"))
}

fn as_approximate_float(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Float(receiver("asApproximateFloat", args)?.approximate()))
}

fn add(args: &[Value]) -> Result<Value, ExecutionError> {
    let sum = receiver("add", args)?.add(operand("add", &args[1])?, false);
    sum.map(value).ok_or_else(|| error("add", "quantity overflow"))
}

fn sub(args: &[Value]) -> Result<Value, ExecutionError> {
    let difference = receiver("sub", args)?.add(operand("sub", &args[1])?, true);
    difference.map(value).ok_or_else(|| error("sub", "quantity overflow"))
}

fn compare_to(args: &[Value]) -> Result<Value, ExecutionError> {
    let ordering = receiver("compareTo", args)?.cmp(&operand("compareTo", &args[1])?);
    Ok(Value::Int(match ordering {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    }))
}

fn is_less_than(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(
        receiver("isLessThan", args)? < operand("isLessThan", &args[1])?,
    ))
}

fn is_greater_than(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(
        receiver("isGreaterThan", args)? > operand("isGreaterThan", &args[1])?,
    ))
}

/// Declares `quantity`, `isQuantity` and the quantity methods.
pub(super) fn register(env: &mut Env) -> Result<(), cel::DeclarationError> {
    let quantity_type = || Type::new_opaque_type(QUANTITY_TYPE);
    env.add_overload("quantity", "quantity_string", vec![STRING_TYPE], overload!(quantity))?;
    env.add_overload(
        "isQuantity",
        "isQuantity_string",
        vec![STRING_TYPE],
        overload!(is_quantity),
    )?;
    let methods: [(&str, cel::common::functions::Function); 4] = [
        ("sign", overload!(sign)),
        ("isInteger", overload!(is_integer)),
        ("asInteger", overload!(as_integer)),
        ("asApproximateFloat", overload!(as_approximate_float)),
    ];
    for (name, function) in methods {
        env.add_member_overload(name, &format!("quantity_{name}"), quantity_type(), vec![], function)?;
    }
    let binary: [(&str, cel::common::functions::Function); 5] = [
        ("add", overload!(add)),
        ("sub", overload!(sub)),
        ("compareTo", overload!(compare_to)),
        ("isLessThan", overload!(is_less_than)),
        ("isGreaterThan", overload!(is_greater_than)),
    ];
    for (name, function) in binary {
        let id = format!("quantity_{name}_quantity");
        env.add_member_overload(name, &id, quantity_type(), vec![quantity_type()], function)?;
        if matches!(name, "add" | "sub") {
            let id = format!("quantity_{name}_int");
            env.add_member_overload(name, &id, quantity_type(), vec![INT_TYPE], function)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::library::tests::eval;
    use super::*;

    fn yes(source: &str) {
        assert_eq!(eval(source), Ok(Value::Bool(true)), "{source}");
    }

    #[test]
    fn quantities_parse_and_compare_as_kubernetes_does() {
        assert_eq!(Quantity::parse("1Gi"), Quantity::parse("1024Mi"));
        assert_eq!(Quantity::parse("1.5"), Quantity::parse("1500m"));
        assert_eq!(Quantity::parse("1e3"), Quantity::parse("1k"));
        assert!(Quantity::parse("1Gb").is_err());
        assert!(Quantity::parse("abc").is_err());
        yes("quantity('1Gi') == quantity('1024Mi') && quantity('1Gi').isGreaterThan(quantity('1G'))");
        yes("quantity('500m').isLessThan(quantity('1')) && quantity('1').compareTo(quantity('1000m')) == 0");
        yes("quantity('1.5').add(quantity('500m')) == quantity('2') && quantity('3').sub(1) == quantity('2')");
        yes("quantity('2k').asInteger() == 2000 && !quantity('1.5').isInteger() && quantity('-1').sign() == -1");
        yes("quantity('250m').asApproximateFloat() == 0.25 && isQuantity('10Mi') && !isQuantity('ten')");
        assert!(eval("quantity('1.5').asInteger()").is_err());
        assert!(eval("quantity('x')").is_err());
    }
}
