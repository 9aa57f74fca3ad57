//! Go's `time.Parse` errors for the two layouts Kubernetes' times decode with:
//! `metav1.Time` parses RFC 3339 (`2006-01-02T15:04:05Z07:00`) and `metav1.MicroTime`
//! RFC 3339 with microseconds (`2006-01-02T15:04:05.000000Z07:00`). A body whose time
//! does not parse is refused in these words (`parsing time "" as "2006-01-02T15:04:05Z07:00":
//! cannot parse "" as "2006"`).
//!
//! Ported from `time/format.go`'s `parse`, for the layout elements these two layouts
//! use, whole:
//!
//! | Go | here |
//! |---|---|
//! | `skip` of the literal before an element | [`skip`] |
//! | `stdLongYear` (4 bytes, a digit first, `atoi`) | `Element::LongYear` |
//! | `stdZeroMonth`, `stdZeroDay`, `stdZeroMinute`, `stdZeroSecond` (`getnum`, fixed) | `Element::Fixed` |
//! | `stdHour` (`getnum`, one or two digits) | `Element::Hour` |
//! | a fraction after the seconds the layout does not have | `Element::Fixed` for seconds |
//! | `stdFracSecond0` (`parseNanoseconds`) | `Element::Fraction` |
//! | `stdISO8601ColonTZ` (`Z` or `±hh:mm`) | `Element::Zone` |
//! | range errors (`month`, `hour`, `minute`, `second`, `fractional second`, zone offsets) | `out_of_range` |
//! | `extra text`, `day out of range` (`daysIn`) | after the elements |
//!
//! What `parse` accepts and the RFC 3339 fast path would not (a one-digit hour) is
//! accepted here too; what it does with the parsed time is not this module's concern.

use std::fmt::Write as _;

/// A layout Kubernetes decodes times with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// `time.RFC3339`, `metav1.Time`'s.
    Rfc3339,
    /// `metav1.RFC3339Micro`, `metav1.MicroTime`'s.
    Rfc3339Micro,
}

#[derive(Clone, Copy)]
enum Element {
    LongYear,
    /// Two digits, zero-padded: month, day, minute, second (named for range errors).
    Fixed(Field),
    Hour,
    /// A period or comma and this many digits.
    Fraction(usize),
    Zone,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    Month,
    Day,
    Minute,
    Second,
}

/// The layout's elements: the literal before each, the element, and its layout text.
fn elements(layout: Layout) -> (&'static str, &'static [(&'static str, Element, &'static str)]) {
    use Element::{Fixed, Fraction, Hour, LongYear, Zone};
    use Field::{Day, Minute, Month, Second};
    match layout {
        Layout::Rfc3339 => (
            "2006-01-02T15:04:05Z07:00",
            &[
                ("", LongYear, "2006"),
                ("-", Fixed(Month), "01"),
                ("-", Fixed(Day), "02"),
                ("T", Hour, "15"),
                (":", Fixed(Minute), "04"),
                (":", Fixed(Second), "05"),
                ("", Zone, "Z07:00"),
            ],
        ),
        Layout::Rfc3339Micro => (
            "2006-01-02T15:04:05.000000Z07:00",
            &[
                ("", LongYear, "2006"),
                ("-", Fixed(Month), "01"),
                ("-", Fixed(Day), "02"),
                ("T", Hour, "15"),
                (":", Fixed(Minute), "04"),
                (":", Fixed(Second), "05"),
                ("", Fraction(6), ".000000"),
                ("", Zone, "Z07:00"),
            ],
        ),
    }
}

/// Go's error parsing `value` with `layout`, None when Go parses it.
pub(crate) fn parse_error(layout: Layout, value: &str) -> Option<String> {
    let (layout_text, elements) = elements(layout);
    let cannot = |element: &str, rest: &[u8]| {
        format!(
            "parsing time {} as {}: cannot parse {} as {}",
            quote(value.as_bytes()),
            quote(layout_text.as_bytes()),
            quote(rest),
            quote(element.as_bytes())
        )
    };
    let message = |text: &str| format!("parsing time {}{text}", quote(value.as_bytes()));
    let (mut year, mut month, mut day) = (0_i64, 1_i64, 1_i64);
    let mut rest = value.as_bytes();
    for (index, (prefix, element, text)) in elements.iter().enumerate() {
        rest = match skip(rest, prefix.as_bytes()) {
            Some(after) => after,
            None => return Some(cannot(prefix, rest)),
        };
        let hold = rest;
        let mut range: Option<&str> = None;
        let parsed: Option<()> = match *element {
            Element::LongYear => (rest.len() >= 4 && is_digit(rest, 0)).then_some(()).and_then(|()| {
                let (digits, after) = rest.split_at(4);
                rest = after;
                year = atoi(digits)?;
                Some(())
            }),
            Element::Fixed(field) => getnum(rest, true).map(|(number, after)| {
                rest = after;
                match field {
                    Field::Month => {
                        month = number;
                        if !(1..=12).contains(&number) {
                            range = Some("month");
                        }
                    }
                    Field::Day => day = number,
                    Field::Minute if number >= 60 => range = Some("minute"),
                    Field::Minute => {}
                    Field::Second if number >= 60 => range = Some("second"),
                    Field::Second => {
                        // A fraction the layout does not have is read all the same.
                        let next_is_fraction = matches!(elements.get(index + 1), Some((_, Element::Fraction(_), _)));
                        if !next_is_fraction && rest.len() >= 2 && comma_or_period(rest[0]) && is_digit(rest, 1) {
                            let end = (2..rest.len()).find(|&n| !is_digit(rest, n)).unwrap_or(rest.len());
                            if let Ok(Some(out)) = nanoseconds(rest, end) {
                                range = Some(out);
                            }
                            rest = &rest[end..];
                        }
                    }
                }
            }),
            Element::Hour => getnum(rest, false).map(|(hour, after)| {
                rest = after;
                if hour >= 24 {
                    range = Some("hour");
                }
            }),
            Element::Fraction(digits) => {
                let width = 1 + digits;
                (rest.len() >= width).then_some(()).and_then(|()| {
                    let result = nanoseconds(rest, width);
                    rest = &rest[width..];
                    range = result.ok()?;
                    Some(())
                })
            }
            Element::Zone => zone(&mut rest, &mut range),
        };
        if let Some(what) = range {
            return Some(message(&format!(": {what} out of range")));
        }
        if parsed.is_none() {
            return Some(cannot(text, hold));
        }
    }
    if !rest.is_empty() {
        return Some(message(&format!(": extra text: {}", quote(rest))));
    }
    if day < 1 || day > days_in(month, year) {
        return Some(message(": day out of range"));
    }
    None
}

/// `stdISO8601ColonTZ`: `Z`, or a sign and `hh:mm`.
fn zone(rest: &mut &[u8], range: &mut Option<&'static str>) -> Option<()> {
    if rest.first() == Some(&b'Z') {
        *rest = &rest[1..];
        return Some(());
    }
    if rest.len() < 6 || rest[3] != b':' {
        return None;
    }
    let (sign, hours, minutes) = (rest[0], &rest[1..3], &rest[4..6]);
    *rest = &rest[6..];
    let (hours, _) = getnum(hours, true)?;
    let (minutes, _) = getnum(minutes, true)?;
    if hours > 24 {
        *range = Some("time zone offset hour");
    }
    if minutes > 60 {
        *range = Some("time zone offset minute");
    }
    matches!(sign, b'+' | b'-').then_some(())
}

/// `skip`: the literal `prefix` at the start of `value` (a space in it matches any
/// run of spaces), the rest after it; None when it is not there.
fn skip<'v>(mut value: &'v [u8], mut prefix: &[u8]) -> Option<&'v [u8]> {
    while let Some(&first) = prefix.first() {
        if first == b' ' {
            if value.first().is_some_and(|&c| c != b' ') {
                return None;
            }
            prefix = trim_spaces(prefix);
            value = trim_spaces(value);
            continue;
        }
        if value.first() != Some(&first) {
            return None;
        }
        prefix = &prefix[1..];
        value = &value[1..];
    }
    Some(value)
}

fn trim_spaces(text: &[u8]) -> &[u8] {
    let start = text.iter().position(|&c| c != b' ').unwrap_or(text.len());
    &text[start..]
}

/// `getnum`: one or two digits (two when `fixed`), and the rest.
fn getnum(text: &[u8], fixed: bool) -> Option<(i64, &[u8])> {
    if !is_digit(text, 0) {
        return None;
    }
    let first = i64::from(text[0] - b'0');
    if !is_digit(text, 1) {
        return (!fixed).then_some((first, &text[1..]));
    }
    Some((first * 10 + i64::from(text[1] - b'0'), &text[2..]))
}

/// `parseNanoseconds`: the separator and digits in `text[..width]`; Ok(Some) names a
/// range error, Err a text that does not parse.
fn nanoseconds(text: &[u8], width: usize) -> Result<Option<&'static str>, ()> {
    if !text.first().copied().is_some_and(comma_or_period) {
        return Err(());
    }
    let width = width.min(10);
    let fraction = atoi(&text[1..width]).ok_or(())?;
    Ok((fraction < 0).then_some("fractional second"))
}

/// `atoi`: an optional sign and decimal digits, all of `text`, without overflow.
fn atoi(text: &[u8]) -> Option<i64> {
    let (negative, digits) = match text.first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let mut number: u64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return None;
        }
        if number > (1 << 63) / 10 {
            return None;
        }
        number = number * 10 + u64::from(c - b'0');
        if number > 1 << 63 {
            return None;
        }
    }
    let number = i64::try_from(number).unwrap_or(i64::MAX);
    Some(if negative { -number } else { number })
}

fn is_digit(text: &[u8], index: usize) -> bool {
    text.get(index).is_some_and(u8::is_ascii_digit)
}

fn comma_or_period(c: u8) -> bool {
    c == b'.' || c == b','
}

/// `daysIn`: the days of `month` in `year`.
fn days_in(month: i64, year: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The time package's own `quote`: a byte outside printable ASCII as `\xNN`, a quote
/// or backslash escaped.
fn quote(text: &[u8]) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for &c in text {
        if (b' '..0x80).contains(&c) {
            if c == b'"' || c == b'\\' {
                quoted.push('\\');
            }
            quoted.push(char::from(c));
        } else {
            let _ = write!(quoted, "\\x{c:02x}");
        }
    }
    quoted.push('"');
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each answer below is what Go 1.23's `time.Parse` says.
    #[test]
    fn errors_are_gos() {
        let rfc = |value| parse_error(Layout::Rfc3339, value);
        let micro = |value| parse_error(Layout::Rfc3339Micro, value);
        assert_eq!(
            rfc("").as_deref(),
            Some(r#"parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006""#)
        );
        assert_eq!(
            micro("yesterday").as_deref(),
            Some(
                r#"parsing time "yesterday" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "yesterday" as "2006""#
            )
        );
        assert_eq!(
            rfc("2024-01-02T03:04:05Zx").as_deref(),
            Some(r#"parsing time "2024-01-02T03:04:05Zx": extra text: "x""#)
        );
        assert_eq!(
            micro("2024-01-02T03:04:05.000000Zx").as_deref(),
            Some(r#"parsing time "2024-01-02T03:04:05.000000Zx": extra text: "x""#)
        );
        assert_eq!(
            rfc("2024-13-02T03:04:05Z").as_deref(),
            Some(r#"parsing time "2024-13-02T03:04:05Z": month out of range"#)
        );
        assert_eq!(
            rfc("2023-02-29T03:04:05Z").as_deref(),
            Some(r#"parsing time "2023-02-29T03:04:05Z": day out of range"#)
        );
        assert_eq!(
            rfc("2024-01-02 03:04:05Z").as_deref(),
            Some(
                r#"parsing time "2024-01-02 03:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 03:04:05Z" as "T""#
            )
        );
        assert_eq!(
            micro("2024-01-02T03:04:05Z").as_deref(),
            Some(
                r#"parsing time "2024-01-02T03:04:05Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000""#
            )
        );
        assert_eq!(
            rfc("2024-01-02T03:04:05+0100").as_deref(),
            Some(
                r#"parsing time "2024-01-02T03:04:05+0100" as "2006-01-02T15:04:05Z07:00": cannot parse "+0100" as "Z07:00""#
            )
        );
        assert_eq!(rfc("2024-01-02T03:04:05Z"), None);
        assert_eq!(rfc("2024-01-02T03:04:05.123Z"), None);
        assert_eq!(rfc("2024-02-29T23:59:59-07:00"), None);
        assert_eq!(micro("2024-01-02T03:04:05.000000Z"), None);
    }
}
