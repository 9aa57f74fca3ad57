//! Resource lists and their arithmetic as quota does it
//! (`staging/src/k8s.io/apiserver/pkg/quota/v1/resources.go`), on quantities that add,
//! subtract and print as apimachinery's `resource.Quantity` does: a sum takes the
//! format of its first non-zero operand, and a quantity prints in its canonical form
//! (`0.5` as `500m`, `1024Mi` as `1Gi`), which is what quota's messages and its
//! `status.used` show.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

/// Nano units per unit: the finest precision a quantity keeps here (kube keeps more
/// for exotic inputs, which rounds up to nano when it is canonicalised anyway).
const NANO: i128 = 1_000_000_000;

/// How a quantity prints (`resource.Format`), taken from the suffix it was written with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    DecimalSi,
    BinarySi,
    DecimalExponent,
}

/// A quantity: its value in nano units and the format it prints in.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Quantity {
    nanos: i128,
    format: Format,
}

impl PartialEq for Quantity {
    fn eq(&self, other: &Self) -> bool {
        self.nanos == other.nanos
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
        self.nanos.cmp(&other.nanos)
    }
}

impl Quantity {
    /// A whole number in `DecimalSI`, as `resource.NewQuantity(n, DecimalSI)` makes.
    pub(crate) fn count(n: i64) -> Self {
        Self {
            nanos: i128::from(n) * NANO,
            format: Format::DecimalSi,
        }
    }

    /// `resource.Quantity{Format: DecimalSI}`: zero.
    pub(crate) fn zero() -> Self {
        Self::count(0)
    }

    /// `resource.ParseQuantity`; `None` for what is not a quantity (validation refuses
    /// those before admission sees them).
    pub(crate) fn parse(text: &str) -> Option<Self> {
        let text = text.trim();
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
        if digits.is_empty() || digits == "." || digits.matches('.').count() > 1 {
            return None;
        }
        let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
        let mut mantissa: i128 = 0;
        for digit in whole.bytes().chain(fraction.bytes()) {
            mantissa = mantissa.checked_mul(10)?.checked_add(i128::from(digit - b'0'))?;
        }
        let mut exponent = -i32::try_from(fraction.len()).ok()?;
        let binary = |power: u32| 1024i128.pow(power);
        let (multiplier, decimal, format) = match suffix {
            "" => (1, 0, Format::DecimalSi),
            "Ki" => (binary(1), 0, Format::BinarySi),
            "Mi" => (binary(2), 0, Format::BinarySi),
            "Gi" => (binary(3), 0, Format::BinarySi),
            "Ti" => (binary(4), 0, Format::BinarySi),
            "Pi" => (binary(5), 0, Format::BinarySi),
            "Ei" => (binary(6), 0, Format::BinarySi),
            "n" => (1, -9, Format::DecimalSi),
            "u" => (1, -6, Format::DecimalSi),
            "m" => (1, -3, Format::DecimalSi),
            "k" => (1, 3, Format::DecimalSi),
            "M" => (1, 6, Format::DecimalSi),
            "G" => (1, 9, Format::DecimalSi),
            "T" => (1, 12, Format::DecimalSi),
            "P" => (1, 15, Format::DecimalSi),
            "E" => (1, 18, Format::DecimalSi),
            other => {
                let rest = other.strip_prefix('e').or_else(|| other.strip_prefix('E'))?;
                (1, rest.parse().ok()?, Format::DecimalExponent)
            }
        };
        mantissa = mantissa.checked_mul(multiplier)?;
        exponent += decimal + 9;
        // To nano units, rounding a finer fraction up (`RoundUp(Nano)`).
        let nanos = if exponent >= 0 {
            mantissa.checked_mul(10i128.checked_pow(exponent.unsigned_abs())?)?
        } else {
            let divisor = 10i128.checked_pow(exponent.unsigned_abs()).unwrap_or(i128::MAX);
            let quotient = mantissa / divisor;
            if mantissa % divisor == 0 {
                quotient
            } else {
                quotient + 1
            }
        };
        Some(Self {
            nanos: if negative { -nanos } else { nanos },
            format,
        })
    }

    /// The quantity a JSON value holds: a string, or a number (kube accepts both).
    pub(crate) fn of(value: &Value) -> Option<Self> {
        match value {
            Value::String(text) => Self::parse(text),
            Value::Number(number) => Self::parse(&number.to_string()),
            _ => None,
        }
    }

    pub(crate) fn is_zero(self) -> bool {
        self.nanos == 0
    }

    pub(crate) fn is_negative(self) -> bool {
        self.nanos < 0
    }

    /// `Quantity.Add`: a zero receiver takes the other's format.
    pub(crate) fn plus(self, other: Self) -> Self {
        Self {
            nanos: self.nanos.saturating_add(other.nanos),
            format: if self.is_zero() { other.format } else { self.format },
        }
    }

    /// `Quantity.Sub`, formats as `plus`.
    pub(crate) fn minus(self, other: Self) -> Self {
        Self {
            nanos: self.nanos.saturating_sub(other.nanos),
            format: if self.is_zero() { other.format } else { self.format },
        }
    }

    /// The larger of two, as `quota.Max` and `maxResourceList` pick.
    pub(crate) fn larger(self, other: Self) -> Self {
        if other > self { other } else { self }
    }

    /// `MilliValue`: in thousandths, rounded up.
    pub(crate) fn milli(self) -> i128 {
        let per_milli = NANO / 1000;
        self.nanos.div_euclid(per_milli) + i128::from(self.nanos.rem_euclid(per_milli) != 0)
    }

    /// Rounded up to a whole number (`RoundUp(0)`), as claims' storage is charged.
    pub(crate) fn round_up(self) -> Self {
        let rest = self.nanos.rem_euclid(NANO);
        let nanos = if rest == 0 {
            self.nanos
        } else {
            self.nanos - rest + NANO
        };
        Self { nanos, ..self }
    }
}

impl std::fmt::Display for Quantity {
    /// `Quantity.String()`: the canonical form. Binary when the format is binary and
    /// the value a whole number of at least 1024 in size; decimal with an SI suffix
    /// (or an exponent) at a power of 1000 that keeps the number whole otherwise.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (sign, magnitude) = if self.nanos < 0 {
            ("-", -self.nanos)
        } else {
            ("", self.nanos)
        };
        if magnitude == 0 {
            return f.write_str("0");
        }
        let whole = magnitude % NANO == 0;
        if self.format == Format::BinarySi && whole && magnitude >= 1024 * NANO {
            let mut number = magnitude / NANO;
            let mut power = 0;
            while power < 6 && number % 1024 == 0 {
                number /= 1024;
                power += 1;
            }
            let suffix = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][power];
            return write!(f, "{sign}{number}{suffix}");
        }
        // In thousands steps from nano: strip whole factors of 1000.
        let mut number = magnitude;
        let mut step = 0usize; // 0 = nano, 3 = units, 9 = exa
        while step < 9 && number % 1000 == 0 {
            number /= 1000;
            step += 1;
        }
        if self.format == Format::DecimalExponent {
            let exponent = i32::try_from(step).unwrap_or(0) * 3 - 9;
            return if exponent == 0 {
                write!(f, "{sign}{number}")
            } else {
                write!(f, "{sign}{number}e{exponent}")
            };
        }
        let suffix = ["n", "u", "m", "", "k", "M", "G", "T", "P", "E"][step];
        write!(f, "{sign}{number}{suffix}")
    }
}

/// A `ResourceList`: resource names to quantities, in name order.
pub(crate) type ResourceList = BTreeMap<String, Quantity>;

/// The list a JSON object holds (`spec.hard`, `status.used`, a container's requests);
/// entries that are not quantities are left out.
pub(crate) fn list_of(value: &Value) -> ResourceList {
    value
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(name, quantity)| Some((name.clone(), Quantity::of(quantity)?)))
        .collect()
}

/// The list as JSON, each quantity in its canonical form.
pub(crate) fn to_json(list: &ResourceList) -> Value {
    let map: serde_json::Map<String, Value> = list
        .iter()
        .map(|(name, quantity)| (name.clone(), json!(quantity.to_string())))
        .collect();
    Value::Object(map)
}

/// `quota.Add`.
pub(crate) fn add(a: &ResourceList, b: &ResourceList) -> ResourceList {
    let mut result = a.clone();
    for (name, quantity) in b {
        result
            .entry(name.clone())
            .and_modify(|q| *q = q.plus(*quantity))
            .or_insert(*quantity);
    }
    result
}

/// `quota.SubtractWithNonNegativeResult`: what is in either list, `a - b` floored at 0.
pub(crate) fn subtract_non_negative(a: &ResourceList, b: &ResourceList) -> ResourceList {
    let mut result = ResourceList::new();
    for (name, quantity) in a {
        let difference = b.get(name).map_or(*quantity, |other| quantity.minus(*other));
        let kept = if difference.nanos > 0 {
            difference
        } else {
            Quantity::parse("0").unwrap_or_else(Quantity::zero)
        };
        result.insert(name.clone(), kept);
    }
    for name in b.keys() {
        result.entry(name.clone()).or_insert_with(Quantity::zero);
    }
    result
}

/// `quota.Mask`: only the named resources.
pub(crate) fn mask<'a>(list: &ResourceList, names: impl IntoIterator<Item = &'a String>) -> ResourceList {
    let names: BTreeSet<&String> = names.into_iter().collect();
    list.iter()
        .filter(|(name, _)| names.contains(name))
        .map(|(name, quantity)| (name.clone(), *quantity))
        .collect()
}

/// `quota.LessThanOrEqual`: whether every resource of `a` that `b` also names is at
/// most `b`'s, and those that are not.
pub(crate) fn less_than_or_equal(a: &ResourceList, b: &ResourceList) -> (bool, Vec<String>) {
    let exceeded: Vec<String> = b
        .iter()
        .filter(|(name, limit)| a.get(*name).is_some_and(|value| value > *limit))
        .map(|(name, _)| name.clone())
        .collect();
    (exceeded.is_empty(), exceeded)
}

/// `quota.Equals`: the same names with equal quantities.
pub(crate) fn equals(a: &ResourceList, b: &ResourceList) -> bool {
    a.len() == b.len() && a.iter().all(|(name, quantity)| b.get(name) == Some(quantity))
}

/// `quota.IsNegative`: the resources below zero.
pub(crate) fn negative(list: &ResourceList) -> Vec<String> {
    list.iter()
        .filter(|(_, q)| q.is_negative())
        .map(|(name, _)| name.clone())
        .collect()
}

/// `quota.RemoveZeros`.
pub(crate) fn remove_zeros(list: &ResourceList) -> ResourceList {
    list.iter()
        .filter(|(_, q)| !q.is_zero())
        .map(|(name, q)| (name.clone(), *q))
        .collect()
}

/// `prettyPrint`: `name=quantity` pairs in name order, comma separated.
pub(crate) fn pretty_print(list: &ResourceList) -> String {
    list.iter()
        .map(|(name, quantity)| format!("{name}={quantity}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// `prettyPrintResourceNames`: sorted, comma separated.
pub(crate) fn pretty_print_names<'a>(names: impl IntoIterator<Item = &'a String>) -> String {
    let names: BTreeSet<&String> = names.into_iter().collect();
    names.into_iter().cloned().collect::<Vec<_>>().join(",")
}

/// `resourcehelper.PodRequests` / `PodLimits` without the pod's overhead (`LimitRanger`'s
/// `podRequests` / `podLimits`): the containers' sum, at least each init container with
/// the restartable ones started before it (a restartable one also adds to the sum).
/// Quota's usage adds the overhead to it.
pub(crate) fn pod_total(pod: &Value, kind: &str) -> ResourceList {
    let spec = &pod["spec"];
    let mut total = ResourceList::new();
    for container in spec["containers"].as_array().into_iter().flatten() {
        total = add(&total, &list_of(&container["resources"][kind]));
    }
    let (mut sidecars, mut init) = (ResourceList::new(), ResourceList::new());
    for container in spec["initContainers"].as_array().into_iter().flatten() {
        let own = list_of(&container["resources"][kind]);
        let running = if container["restartPolicy"] == "Always" {
            total = add(&total, &own);
            sidecars = add(&sidecars, &own);
            sidecars.clone()
        } else {
            add(&own, &sidecars)
        };
        for (name, quantity) in running {
            init.entry(name)
                .and_modify(|q| *q = q.larger(quantity))
                .or_insert(quantity);
        }
    }
    for (name, quantity) in init {
        total
            .entry(name)
            .and_modify(|q| *q = q.larger(quantity))
            .or_insert(quantity);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(text: &str) -> Quantity {
        Quantity::parse(text).expect("a quantity")
    }

    #[test]
    fn quantities_print_canonically() {
        for (input, printed) in [
            ("0.5", "500m"),
            ("1500m", "1500m"),
            ("2000", "2k"),
            ("1500", "1500"),
            ("1024Mi", "1Gi"),
            ("1536", "1536"),
            ("512Mi", "512Mi"),
            ("100", "100"),
            ("1e3", "1e3"),
            ("0", "0"),
            ("1Ki", "1Ki"),
            ("0.1m", "100u"),
        ] {
            assert_eq!(q(input).to_string(), printed, "{input}");
        }
    }

    #[test]
    fn a_sum_takes_the_format_of_its_first_non_zero_operand() {
        assert_eq!(Quantity::zero().plus(q("64Mi")).to_string(), "64Mi");
        assert_eq!(q("64Mi").plus(q("64Mi")).to_string(), "128Mi");
        assert_eq!(q("100m").plus(q("0.9")).to_string(), "1");
        assert_eq!(q("1").minus(q("300m")).to_string(), "700m");
    }

    #[test]
    fn lists_compare_and_subtract_as_quota_does() {
        let used = list_of(&json!({"pods": "2", "requests.cpu": "1"}));
        let hard = list_of(&json!({"pods": "1", "requests.cpu": "2", "secrets": "3"}));
        assert_eq!(less_than_or_equal(&used, &hard), (false, vec!["pods".to_owned()]));
        let delta = subtract_non_negative(
            &list_of(&json!({"pods": "1"})),
            &list_of(&json!({"pods": "2", "x": "1"})),
        );
        assert_eq!(pretty_print(&delta), "pods=0,x=0");
        assert_eq!(pretty_print(&remove_zeros(&delta)), "");
        assert_eq!(Quantity::parse("1.5").map(Quantity::round_up), Some(q("2")));
        assert!(Quantity::parse("bogus").is_none());
    }
}
