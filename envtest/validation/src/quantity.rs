//! apimachinery's `resource.Quantity` as validation uses it: `ParseQuantity` (with its
//! rounding of anything below a nano-unit up), comparison, `Value` and `MilliValue`,
//! and `String`, whose canonical form (`1500m`, `1536Mi`, `1e3`) kube's messages print.

use std::cmp::Ordering;

/// How a quantity is written: its suffix family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// `m`, `k`, `M`... or none.
    DecimalSI,
    /// `Ki`, `Mi`, `Gi`...
    BinarySI,
    /// `e3`, `E6`.
    DecimalExponent,
}

/// An exact quantity: `mantissa × 10^exponent`, written in `format`.
#[derive(Debug, Clone)]
pub(crate) struct Quantity {
    mantissa: i128,
    exponent: i32,
    format: Format,
    /// The text as written, when `ParseQuantity` keeps it (already canonical).
    kept: Option<String>,
    /// Go's `int64Amount` (value, scale) when `ParseQuantity`'s fast path held the
    /// quantity in one; `None` when Go used an `inf.Dec`.
    amount: Option<(i64, i32)>,
}

/// `ErrFormatWrong`'s text.
pub(crate) const FORMAT_ERROR: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/// `ErrSuffix`'s text.
pub(crate) const SUFFIX_ERROR: &str = "unable to parse quantity's suffix";

/// The smallest exponent a quantity keeps (`Nano`).
const NANO: i32 = -9;

impl Quantity {
    /// A quantity field: parsed, or zero when it does not parse (the decoder refused
    /// such a body before validation).
    pub(crate) fn from_json(value: &serde_json::Value) -> Self {
        match value {
            serde_json::Value::String(text) => Self::parse(text).unwrap_or_else(|_| Self::zero()),
            serde_json::Value::Number(number) => number.as_i64().map_or_else(
                || Self::parse(&number.to_string()).unwrap_or_else(|_| Self::zero()),
                Self::from_int,
            ),
            _ => Self::zero(),
        }
    }

    /// Zero, as an unset quantity is.
    pub(crate) fn zero() -> Self {
        Self {
            mantissa: 0,
            exponent: 0,
            format: Format::DecimalSI,
            kept: None,
            amount: Some((0, 0)),
        }
    }

    /// An integer quantity.
    pub(crate) fn from_int(value: i64) -> Self {
        Self {
            mantissa: i128::from(value),
            exponent: 0,
            format: Format::DecimalSI,
            kept: None,
            amount: Some((value, 0)),
        }
    }

    /// `resource.ParseQuantity`.
    pub(crate) fn parse(text: &str) -> Result<Self, &'static str> {
        if text.is_empty() {
            return Err(FORMAT_ERROR);
        }
        if text == "0" {
            return Ok(Self {
                kept: Some(text.to_owned()),
                ..Self::zero()
            });
        }
        let parts = split(text).ok_or(FORMAT_ERROR)?;
        let (base_ten, exponent, format) = interpret(parts.suffix).ok_or(SUFFIX_ERROR)?;
        let digits = format!("{}{}", parts.whole, parts.fraction);
        let mut mantissa: i128 = 0;
        for digit in digits.bytes() {
            mantissa = mantissa
                .checked_mul(10)
                .and_then(|m| m.checked_add(i128::from(digit - b'0')))
                .ok_or("quantity too large")?;
        }
        let fraction_len = i32::try_from(parts.fraction.len()).map_err(|_| FORMAT_ERROR)?;
        let mut scale = -fraction_len;
        if base_ten {
            scale = scale.checked_add(exponent).ok_or("quantity too large")?;
        } else {
            let factor = 1i128
                .checked_shl(u32::try_from(exponent).unwrap_or(0))
                .ok_or("quantity too large")?;
            mantissa = mantissa.checked_mul(factor).ok_or("quantity too large")?;
        }
        let mut quantity = Self {
            mantissa: if parts.negative { -mantissa } else { mantissa },
            exponent: scale,
            format,
            kept: None,
            amount: None,
        }
        .normalized();
        quantity.round_up_to(NANO);
        if quantity.format == Format::BinarySI && quantity.mantissa != 0 && quantity.abs_cmp_int(1) == Ordering::Less {
            quantity.format = Format::DecimalSI;
        }
        if let Some((value, scale, keep)) = fast_path(&parts, exponent, format) {
            quantity.amount = Some((value, scale));
            if keep {
                quantity.kept = Some(text.to_owned());
            }
        }
        Ok(quantity)
    }

    /// Moves trailing zeros of the mantissa into the exponent.
    fn normalized(mut self) -> Self {
        if self.mantissa == 0 {
            self.exponent = 0;
            return self;
        }
        while self.mantissa % 10 == 0 {
            self.mantissa /= 10;
            self.exponent += 1;
        }
        self
    }

    /// Rounds away from zero to `10^exponent` (`inf.RoundUp`).
    fn round_up_to(&mut self, exponent: i32) {
        while self.exponent < exponent {
            let sign = self.mantissa.signum();
            let carry = self.mantissa % 10 != 0;
            self.mantissa /= 10;
            if carry {
                self.mantissa += sign;
            }
            self.exponent += 1;
        }
    }

    /// `Sign`.
    pub(crate) fn sign(&self) -> i32 {
        match self.mantissa.cmp(&0) {
            Ordering::Less => -1,
            Ordering::Equal => 0,
            Ordering::Greater => 1,
        }
    }

    /// `IsZero`.
    pub(crate) fn is_zero(&self) -> bool {
        self.mantissa == 0
    }

    /// `Cmp`.
    pub(crate) fn cmp(&self, other: &Self) -> Ordering {
        compare(self.mantissa, self.exponent, other.mantissa, other.exponent)
    }

    fn abs_cmp_int(&self, value: i128) -> Ordering {
        compare(self.mantissa.abs(), self.exponent, value, 0)
    }

    /// `Value`: the integer value, rounded away from zero.
    pub(crate) fn value(&self) -> i128 {
        self.scaled(0)
    }

    /// `MilliValue`: the value in thousandths, rounded away from zero.
    pub(crate) fn milli_value(&self) -> i128 {
        self.scaled(-3)
    }

    /// The value in units of `10^scale`, rounded away from zero (saturating).
    fn scaled(&self, scale: i32) -> i128 {
        let mut copy = self.clone();
        copy.round_up_to(scale);
        let mut value = copy.mantissa;
        for _ in scale..copy.exponent {
            value = value.saturating_mul(10);
        }
        value
    }

    /// Whether the value is a whole number (`AsScale(0)` is exact).
    pub(crate) fn is_integer(&self) -> bool {
        self.exponent >= 0 || self.mantissa == 0
    }

    /// `Add`: the sum, in the first one's format.
    pub(crate) fn plus(&self, other: &Self) -> Self {
        let exponent = self.exponent.min(other.exponent);
        let widen = |q: &Self| {
            let mut value = q.mantissa;
            for _ in exponent..q.exponent {
                value = value.saturating_mul(10);
            }
            value
        };
        Self {
            mantissa: widen(self).saturating_add(widen(other)),
            exponent,
            format: self.format,
            kept: None,
            amount: None,
        }
        .normalized()
    }
}

impl std::fmt::Display for Quantity {
    /// `String`: the text kept from parsing, or the canonical form.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(kept) = &self.kept {
            return f.write_str(kept);
        }
        f.write_str(&self.canonical())
    }
}

impl Quantity {
    /// `CanonicalizeBytes`.
    fn canonical(&self) -> String {
        if self.is_zero() {
            return "0".to_owned();
        }
        let mut format = self.format;
        if format == Format::BinarySI && (self.abs_cmp_int(1024) == Ordering::Less || !self.is_integer()) {
            format = Format::DecimalSI;
        }
        if format == Format::BinarySI {
            let mut amount = self.value();
            let mut exponent = 0;
            while amount != 0 && amount % 1024 == 0 && exponent < 6 {
                amount /= 1024;
                exponent += 1;
            }
            // Past Ei there is no suffix: Go writes the remaining power of 1024 out.
            let suffix = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][exponent];
            return format!("{amount}{suffix}");
        }
        let (mut amount, mut exponent) = (self.mantissa, self.exponent);
        while exponent.rem_euclid(3) != 0 {
            amount = amount.saturating_mul(10);
            exponent -= 1;
        }
        let suffix = match format {
            Format::DecimalExponent if exponent == 0 => String::new(),
            Format::DecimalExponent => format!("e{exponent}"),
            _ => match exponent {
                -9 => "n".to_owned(),
                -6 => "u".to_owned(),
                -3 => "m".to_owned(),
                3 => "k".to_owned(),
                6 => "M".to_owned(),
                9 => "G".to_owned(),
                12 => "T".to_owned(),
                15 => "P".to_owned(),
                18 => "E".to_owned(),
                // Beyond the table Go writes no suffix at all.
                _ => String::new(),
            },
        };
        format!("{amount}{suffix}")
    }
}

/// Compares `a × 10^ea` with `b × 10^eb` exactly.
fn compare(a: i128, ea: i32, b: i128, eb: i32) -> Ordering {
    let sign = |v: i128| v.signum();
    if sign(a) != sign(b) || a == 0 {
        return sign(a).cmp(&sign(b));
    }
    let magnitude = |v: i128, e: i32| i64::from(e) + i64::try_from(v.unsigned_abs().to_string().len()).unwrap_or(0);
    let by_magnitude = magnitude(a, ea).cmp(&magnitude(b, eb));
    let absolute = if by_magnitude == Ordering::Equal {
        // Same number of integer digits: align, which cannot overflow by much.
        let low = ea.min(eb);
        let widen = |v: i128, e: i32| {
            let mut v = v.unsigned_abs();
            for _ in low..e {
                v = v.saturating_mul(10);
            }
            v
        };
        widen(a, ea).cmp(&widen(b, eb))
    } else {
        by_magnitude
    };
    if a < 0 { absolute.reverse() } else { absolute }
}

/// The pieces `parseQuantityString` finds.
struct Parts<'a> {
    negative: bool,
    whole: &'a str,
    fraction: &'a str,
    suffix: &'a str,
}

/// `parseQuantityString`: sign, digits (leading zeros dropped), fraction, suffix.
fn split(text: &str) -> Option<Parts<'_>> {
    let (negative, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let rest = rest.trim_start_matches('0');
    let whole_end = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
    let (whole, rest) = rest.split_at(whole_end);
    let (fraction, rest) = match rest.strip_prefix('.') {
        Some(after) => {
            let end = after.find(|c: char| !c.is_ascii_digit()).unwrap_or(after.len());
            after.split_at(end)
        }
        None => ("", rest),
    };
    let letters_end = rest.find(|c: char| !"eEinumkKMGTP".contains(c)).unwrap_or(rest.len());
    let (_, exponent) = rest.split_at(letters_end);
    let exponent = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
    if !exponent.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(Parts {
        negative,
        whole,
        fraction,
        suffix: rest,
    })
}

/// A suffix's base (true for ten), exponent and format (`quantitySuffixer.interpret`).
fn interpret(suffix: &str) -> Option<(bool, i32, Format)> {
    let decimal = |exponent| Some((true, exponent, Format::DecimalSI));
    let binary = |exponent| Some((false, exponent, Format::BinarySI));
    match suffix {
        "" => decimal(0),
        "n" => decimal(-9),
        "u" => decimal(-6),
        "m" => decimal(-3),
        "k" => decimal(3),
        "M" => decimal(6),
        "G" => decimal(9),
        "T" => decimal(12),
        "P" => decimal(15),
        "E" => decimal(18),
        "Ki" => binary(10),
        "Mi" => binary(20),
        "Gi" => binary(30),
        "Ti" => binary(40),
        "Pi" => binary(50),
        "Ei" => binary(60),
        _ => {
            let rest = suffix.strip_prefix(['e', 'E']).filter(|r| !r.is_empty())?;
            let exponent: i64 = rest.parse().ok()?;
            // Go truncates the parsed int64 to int32.
            #[expect(clippy::cast_possible_truncation, reason = "Go's int32(parsed)")]
            Some((true, exponent as i32, Format::DecimalExponent))
        }
    }
}

/// `ParseQuantity`'s fast path: the `int64Amount` (value, scale) it builds when the
/// number fits, and whether it keeps the text as the quantity's string (it is already
/// in canonical form).
fn fast_path(parts: &Parts<'_>, exponent: i32, format: Format) -> Option<(i64, i32, bool)> {
    let num = if parts.whole.is_empty() { "0" } else { parts.whole };
    let shifted = format!("{num}{}", parts.fraction);
    let num_len = i32::try_from(num.len()).ok()?;
    let fraction_len = i32::try_from(parts.fraction.len()).ok()?;
    let (precision, scale, multiplier) = match format {
        Format::DecimalSI | Format::DecimalExponent => (18 - num_len - fraction_len, exponent - fraction_len, 1i64),
        Format::BinarySI if exponent >= 0 && fraction_len == 0 => (
            15 - num_len - exponent * 3 / 10 - 1,
            0,
            1i64.checked_shl(u32::try_from(exponent).ok()?)?,
        ),
        Format::BinarySI => (-1, 0, 1),
    };
    if precision < 0 || scale < NANO {
        return None;
    }
    let digits: i64 = shifted.parse().ok()?;
    let value = digits.checked_mul(multiplier)?;
    let value = if parts.negative { -value } else { value };
    let keep = match format {
        Format::BinarySI => exponent % 10 == 0 && digits & 7 != 0,
        _ => scale % 3 == 0 && !shifted.ends_with("000") && !shifted.starts_with('0'),
    };
    Some((value, scale, keep))
}

impl Quantity {
    /// Go's `int64Amount` (value, scale), when `ParseQuantity` held it in one.
    pub(crate) fn amount(&self) -> Option<(i64, i32)> {
        self.amount
    }

    pub(crate) fn format(&self) -> Format {
        self.format
    }

    /// The text `ParseQuantity` kept as the quantity's string, if it kept one.
    pub(crate) fn kept(&self) -> Option<&str> {
        self.kept.as_deref()
    }

    /// The quantity as the `inf.Dec` of `ParseQuantity`'s slow path prints it: a
    /// non-zero amount is rounded to nano-units, so it has nine decimals.
    pub(crate) fn decimal(&self) -> String {
        if self.mantissa == 0 {
            return "0".to_owned();
        }
        let sign = if self.mantissa < 0 { "-" } else { "" };
        let shift = usize::try_from(self.exponent - NANO).unwrap_or_default();
        let digits = format!("{}{}", self.mantissa.unsigned_abs(), "0".repeat(shift));
        let padded = format!("{digits:0>10}");
        let (whole, fraction) = padded.split_at(padded.len() - 9);
        format!("{sign}{whole}.{fraction}")
    }

    /// The quantity as Go's `%#v` prints a `resource.Quantity`: `cached` when its
    /// `String` was called on that very value before (its string is then filled in),
    /// else with the text parsing kept, if any. An `inf.Dec` pointer prints with a
    /// fixed address where Go prints a random one.
    pub(crate) fn go_dump(&self, cached: bool) -> String {
        let shown = if cached {
            self.to_string()
        } else {
            self.kept.clone().unwrap_or_default()
        };
        let (value, scale, dec) = match self.amount {
            Some((value, scale)) => (value, scale, "(*inf.Dec)(nil)"),
            None => (0, 0, "(*inf.Dec)(0xc000a1b2c0)"),
        };
        let format = match self.format {
            Format::DecimalSI => "DecimalSI",
            Format::BinarySI => "BinarySI",
            Format::DecimalExponent => "DecimalExponent",
        };
        format!(
            "resource.Quantity{{i:resource.int64Amount{{value:{value}, scale:{scale}}}, d:resource.infDecAmount{{Dec:{dec}}}, s:{}, Format:{}}}",
            wheelhouse_envtest_schema::errors::go_quote(&shown),
            wheelhouse_envtest_schema::errors::go_quote(format)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical(text: &str) -> String {
        Quantity::parse(text).unwrap().to_string()
    }

    #[test]
    fn strings_are_kubes_canonical_forms() {
        assert_eq!(canonical("1"), "1");
        assert_eq!(canonical("1.5"), "1500m");
        assert_eq!(canonical("0.5"), "500m");
        assert_eq!(canonical("1000"), "1k");
        assert_eq!(canonical("1024Mi"), "1Gi");
        assert_eq!(canonical("1.5Gi"), "1536Mi");
        assert_eq!(canonical("1Gi"), "1Gi");
        assert_eq!(canonical("100m"), "100m");
        assert_eq!(canonical("1e3"), "1e3");
        assert_eq!(canonical("10e3"), "10e3");
        assert_eq!(canonical("0.0000000001"), "1n");
        assert_eq!(canonical("-1"), "-1");
        assert_eq!(canonical("0"), "0");
        assert_eq!(canonical("00"), "0");
        assert_eq!(canonical("512"), "512");
        assert_eq!(canonical("0.5Ki"), "512");
        assert_eq!(canonical("2000Mi"), "2000Mi");
    }

    #[test]
    fn bad_quantities_are_refused() {
        assert!(Quantity::parse("").is_err());
        assert!(Quantity::parse("1x").is_err());
        assert!(Quantity::parse("1Gx").is_err());
        assert!(Quantity::parse("abc").is_err());
    }

    #[test]
    fn quantities_compare_by_value() {
        let q = |t: &str| Quantity::parse(t).unwrap();
        assert_eq!(q("1").cmp(&q("1000m")), Ordering::Equal);
        assert_eq!(q("1Ki").cmp(&q("1k")), Ordering::Greater);
        assert_eq!(q("-1").cmp(&q("0")), Ordering::Less);
        assert_eq!(q("1e30").cmp(&q("1")), Ordering::Greater);
        assert_eq!(q("1.5").value(), 2);
        assert_eq!(q("1.5").milli_value(), 1500);
        assert_eq!(q("2Mi").value(), 2 * 1024 * 1024);
    }

    #[test]
    fn dumps_print_go_s_struct() {
        let q = |t: &str| Quantity::parse(t).unwrap().go_dump(true);
        assert_eq!(
            q("1500m"),
            r#"resource.Quantity{i:resource.int64Amount{value:1500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"1500m", Format:"DecimalSI"}"#
        );
        assert_eq!(
            q("0.5"),
            r#"resource.Quantity{i:resource.int64Amount{value:5, scale:-1}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"500m", Format:"DecimalSI"}"#
        );
        assert!(q("1Gi").contains("value:1073741824, scale:0"));
        assert!(Quantity::parse("1.5").unwrap().go_dump(false).contains("s:\"\","));
    }
}
