//! The string formats kube-apiserver checks in custom resources: kube-openapi's
//! `strfmt.Default` registry (`k8s.io/kube-openapi/pkg/validation/strfmt`), limited to
//! the formats apiextensions-apiserver keeps (`pkg/apiserver/validation/formats.go`;
//! any other format is stripped from the schema and not checked).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::LazyLock;

use regex::Regex;

fn regex(pattern: &str) -> Regex {
    // The patterns are constants of this file, tested below.
    Regex::new(pattern).unwrap_or_else(|error| panic!("format pattern {pattern}: {error}"))
}

static HOSTNAME: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$",
    )
});
static UUID: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$"));
static UUID3: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$"));
static UUID4: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$"));
static UUID5: LazyLock<Regex> =
    LazyLock::new(|| regex(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$"));
static BASE64: LazyLock<Regex> =
    LazyLock::new(|| regex(r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$"));
static CREDIT_CARD: LazyLock<Regex> = LazyLock::new(|| {
    regex(
        r"^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$",
    )
});
static SSN: LazyLock<Regex> = LazyLock::new(|| regex(r"^\d{3}[- ]?\d{2}[- ]?\d{4}$"));
static HEX_COLOR: LazyLock<Regex> = LazyLock::new(|| regex(r"^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$"));
static RGB_COLOR: LazyLock<Regex> = LazyLock::new(|| {
    let byte = r"(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])";
    regex(&format!(r"^rgb\(\s*{byte}\s*,\s*{byte}\s*,\s*{byte}\s*\)$"))
});
static TIME_OF_DAY: LazyLock<Regex> =
    LazyLock::new(|| regex(r"^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$"));
static DURATION_PART: LazyLock<Regex> = LazyLock::new(|| regex(r"((\d+)\s*([A-Za-zµ]+))"));
static SHORT_NAME: LazyLock<Regex> = LazyLock::new(|| regex(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"));
static LONG_NAME: LazyLock<Regex> =
    LazyLock::new(|| regex(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"));

/// Whether kube-apiserver checks `format` on a schema of type `schema_type`: the
/// others are stripped from the schema (`StripUnsupportedFormatsPostProcess`, whose
/// list has string formats only: `int32`, `int64`, `float` and `double` go, so an
/// `int32` field takes any integer on 1.19 and 1.32 alike).
pub(crate) fn is_checked(format: &str, schema_type: Option<&str>) -> bool {
    match schema_type {
        None | Some("string") => is_known(format),
        Some(_) => false,
    }
}

/// Whether `format` names a string format of the registry (names are compared
/// without dashes, as go-openapi normalizes them).
fn is_known(format: &str) -> bool {
    matches!(
        format.replace('-', "").as_str(),
        "bsonobjectid"
            | "uri"
            | "email"
            | "hostname"
            | "ipv4"
            | "ipv6"
            | "cidr"
            | "mac"
            | "uuid"
            | "uuid3"
            | "uuid4"
            | "uuid5"
            | "isbn"
            | "isbn10"
            | "isbn13"
            | "creditcard"
            | "ssn"
            | "hexcolor"
            | "rgbcolor"
            | "byte"
            | "password"
            | "date"
            | "duration"
            | "datetime"
            | "k8sshortname"
            | "k8slongname"
    )
}

/// Whether `value` is a valid string of `format` (a known one).
pub(crate) fn is_valid(format: &str, value: &str) -> bool {
    match format.replace('-', "").as_str() {
        "bsonobjectid" => value.len() == 24 && value.bytes().all(|b| b.is_ascii_hexdigit()),
        "uri" => is_request_uri(value),
        "email" => is_email(value),
        "hostname" => HOSTNAME.is_match(value) && value.len() <= 255 && value.split('.').all(|label| label.len() <= 63),
        "ipv4" => parse_ip_sloppy(value).is_some() && value.contains('.'),
        "ipv6" => value.parse::<Ipv6Addr>().is_ok(),
        "cidr" => is_cidr(value),
        "mac" => is_mac(value),
        "uuid" => UUID.is_match(value),
        "uuid3" => UUID3.is_match(value),
        "uuid4" => UUID4.is_match(value),
        "uuid5" => UUID5.is_match(value),
        "isbn" => is_isbn10(value) || is_isbn13(value),
        "isbn10" => is_isbn10(value),
        "isbn13" => is_isbn13(value),
        "creditcard" => is_credit_card(value),
        "ssn" => value.len() == 11 && SSN.is_match(value),
        "hexcolor" => HEX_COLOR.is_match(value),
        "rgbcolor" => RGB_COLOR.is_match(value),
        "byte" => BASE64.is_match(value),
        "date" => is_date(value),
        "duration" => is_duration(value),
        "datetime" => is_date_time(value),
        "k8sshortname" => value.len() <= 63 && SHORT_NAME.is_match(value),
        "k8slongname" => value.len() <= 253 && LONG_NAME.is_match(value),
        _ => true,
    }
}

/// Go's `url.ParseRequestURI`: an absolute URI or an absolute path, no fragment.
fn is_request_uri(value: &str) -> bool {
    if value.is_empty() || value.chars().any(|c| c.is_control() || c == ' ') {
        return false;
    }
    if value.starts_with('/') {
        return true;
    }
    let Some((scheme, rest)) = value.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && !rest.is_empty()
}

/// Go's `mail.ParseAddress`, roughly: `local@domain`, optionally inside `Name <...>`.
fn is_email(value: &str) -> bool {
    let address = match (value.rfind('<'), value.strip_suffix('>')) {
        (Some(open), Some(inner)) => &inner[open + 1..],
        _ => value,
    };
    let Some((local, domain)) = address.rsplit_once('@') else {
        return false;
    };
    !local.is_empty()
        && !domain.is_empty()
        && !address.chars().any(|c| c.is_whitespace() || c == '<' || c == '>')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
}

/// Go's `netutils.ParseIPSloppy`: leading zeros in IPv4 parts are tolerated.
fn parse_ip_sloppy(value: &str) -> Option<IpAddr> {
    if let Ok(ip) = value.parse::<IpAddr>() {
        return Some(ip);
    }
    let parts: Vec<&str> = value.split('.').collect();
    if parts.len() != 4 {
        return None;
    }
    let mut octets = [0u8; 4];
    for (octet, part) in octets.iter_mut().zip(parts) {
        if part.is_empty() || part.len() > 3 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *octet = part.parse().ok()?;
    }
    Some(IpAddr::V4(Ipv4Addr::from(octets)))
}

fn is_cidr(value: &str) -> bool {
    let Some((ip, prefix)) = value.split_once('/') else {
        return false;
    };
    let Ok(prefix) = prefix.parse::<u8>() else {
        return false;
    };
    match parse_ip_sloppy(ip) {
        Some(IpAddr::V4(_)) => prefix <= 32,
        Some(IpAddr::V6(_)) => prefix <= 128,
        None => false,
    }
}

/// Go's `net.ParseMAC`: 6, 8 or 20 bytes, as `aa:bb:..`, `aa-bb-..` or `aabb.ccdd.eeff`.
fn is_mac(value: &str) -> bool {
    let hex = |part: &str, len: usize| part.len() == len && part.bytes().all(|b| b.is_ascii_hexdigit());
    let sizes = [6, 8, 20];
    for separator in [':', '-'] {
        let parts: Vec<&str> = value.split(separator).collect();
        if parts.len() > 1 && sizes.contains(&parts.len()) && parts.iter().all(|p| hex(p, 2)) {
            return true;
        }
    }
    let groups: Vec<&str> = value.split('.').collect();
    groups.len() > 1 && sizes.contains(&(groups.len() * 2)) && groups.iter().all(|g| hex(g, 4))
}

fn is_isbn10(value: &str) -> bool {
    let digits: Vec<char> = value.chars().filter(|c| *c != '-' && *c != ' ').collect();
    if digits.len() != 10 {
        return false;
    }
    let mut sum = 0;
    for (i, c) in digits.iter().enumerate() {
        let digit = match (i, c) {
            (9, 'X') => 10,
            (_, c) => match c.to_digit(10) {
                Some(d) => d,
                None => return false,
            },
        };
        sum += digit * (10 - u32::try_from(i).unwrap_or(0));
    }
    sum % 11 == 0
}

fn is_isbn13(value: &str) -> bool {
    let digits: Vec<u32> = value
        .chars()
        .filter(|c| *c != '-' && *c != ' ')
        .map(|c| c.to_digit(10).unwrap_or(99))
        .collect();
    if digits.len() != 13 || digits.contains(&99) {
        return false;
    }
    let sum: u32 = digits[..12]
        .iter()
        .enumerate()
        .map(|(i, d)| if i % 2 == 0 { *d } else { d * 3 })
        .sum();
    (10 - sum % 10) % 10 == digits[12]
}

/// govalidator's `IsCreditCard`: a known card number pattern and the Luhn checksum.
fn is_credit_card(value: &str) -> bool {
    let digits: String = value.chars().filter(char::is_ascii_digit).collect();
    if !CREDIT_CARD.is_match(&digits) {
        return false;
    }
    let mut sum = 0;
    for (i, c) in digits.chars().rev().enumerate() {
        let mut digit = c.to_digit(10).unwrap_or(0);
        if i % 2 == 1 {
            digit *= 2;
            if digit > 9 {
                digit -= 9;
            }
        }
        sum += digit;
    }
    sum % 10 == 0
}

/// RFC 3339's full-date, `2006-01-02`, a real calendar day.
fn is_date(value: &str) -> bool {
    value.len() == 10 && jiff::civil::Date::strptime("%Y-%m-%d", value).is_ok()
}

/// kube-openapi's `IsDateTime`: a date, `t`, then a time of day with an offset.
fn is_date_time(value: &str) -> bool {
    if value.len() < 4 {
        return false;
    }
    let lower = value.to_lowercase();
    let parts: Vec<&str> = lower.split('t').collect();
    if parts.len() < 2 || !is_date(parts[0]) {
        return false;
    }
    let Some(captures) = TIME_OF_DAY.captures(parts[1]) else {
        return false;
    };
    let field = |i: usize| captures.get(i).map_or("", |m| m.as_str());
    field(1) <= "23" && field(2) <= "59" && field(3) <= "59"
}

/// kube-openapi's `ParseDuration`: Go's `time.ParseDuration`, or `<n> <unit>` parts
/// with the units it knows.
fn is_duration(value: &str) -> bool {
    if is_go_duration(value) {
        return true;
    }
    let units = ["ns", "us", "µs", "ms", "s", "m", "h", "d", "w"];
    let mut found = false;
    for captures in DURATION_PART.captures_iter(value) {
        let unit = captures.get(3).map_or("", |m| m.as_str());
        if captures.get(2).and_then(|m| m.as_str().parse::<i64>().ok()).is_none() {
            return false;
        }
        let known = units.contains(&unit)
            || matches!(
                unit,
                "nanosecond"
                    | "nanoseconds"
                    | "microsecond"
                    | "microseconds"
                    | "millisecond"
                    | "milliseconds"
                    | "second"
                    | "seconds"
                    | "sec"
                    | "secs"
                    | "minute"
                    | "minutes"
                    | "min"
                    | "mins"
                    | "hour"
                    | "hours"
                    | "hr"
                    | "hrs"
                    | "day"
                    | "days"
                    | "week"
                    | "weeks"
            );
        if !known {
            return false;
        }
        found = true;
    }
    found
}

/// Go's `time.ParseDuration`: `[-+]` then `<decimal><unit>` parts, or `0`.
pub(crate) fn is_go_duration(value: &str) -> bool {
    parse_go_duration(value).is_some()
}

/// Go's `time.ParseDuration`, in nanoseconds.
pub fn parse_go_duration(value: &str) -> Option<i128> {
    let (negative, mut rest) = match value.as_bytes().first() {
        Some(b'-') => (true, &value[1..]),
        Some(b'+') => (false, &value[1..]),
        _ => (false, value),
    };
    if rest == "0" {
        return Some(0);
    }
    if rest.is_empty() {
        return None;
    }
    let mut total: f64 = 0.0;
    while !rest.is_empty() {
        let number_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let number = &rest[..number_end];
        if number.is_empty() || number == "." {
            return None;
        }
        let amount: f64 = number.parse().ok()?;
        rest = &rest[number_end..];
        let unit_end = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let nanos = match &rest[..unit_end] {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            _ => return None,
        };
        rest = &rest[unit_end..];
        total += amount * nanos;
    }
    if total > 9.223_372_036_854_776e18 {
        return None;
    }
    // Durations are whole nanoseconds; the float is within i64's range, checked above.
    #[expect(clippy::cast_possible_truncation, reason = "checked against i64::MAX above")]
    let nanos = total.round() as i128;
    Some(if negative { -nanos } else { nanos })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_accept_and_refuse_as_kube_openapi_does() {
        let cases = [
            ("date-time", "2024-01-02T03:04:05Z", true),
            ("date-time", "2024-01-02T03:04:05.123+02:00", true),
            ("date-time", "2024-01-02", false),
            ("date-time", "yesterday", false),
            ("date", "2024-02-29", true),
            ("date", "2023-02-29", false),
            ("byte", "aGVsbG8=", true),
            ("byte", "hello!", false),
            ("uuid", "123e4567-e89b-12d3-a456-426614174000", true),
            ("uuid", "123e4567", false),
            ("ipv4", "10.0.0.1", true),
            ("ipv4", "10.0.0.256", false),
            ("ipv6", "::1", true),
            ("cidr", "10.0.0.0/8", true),
            ("cidr", "10.0.0.0/33", false),
            ("mac", "01:23:45:67:89:ab", true),
            ("mac", "01:23:45", false),
            ("hostname", "example.com", true),
            ("hostname", "-bad-", false),
            ("email", "a@example.com", true),
            ("email", "not an email", false),
            ("uri", "https://example.com/a", true),
            ("uri", "example", false),
            ("duration", "1h30m", true),
            ("duration", "3 days", true),
            ("duration", "soon", false),
            ("hexcolor", "#fff", true),
            ("rgbcolor", "rgb(255, 0, 0)", true),
            ("isbn10", "0321751043", true),
            ("isbn13", "978-0321751041", true),
            ("creditcard", "4111111111111111", true),
            ("creditcard", "4111111111111112", false),
            ("ssn", "123-45-6789", true),
            ("bsonobjectid", "507f1f77bcf86cd799439011", true),
            ("password", "anything", true),
        ];
        for (format, value, valid) in cases {
            assert!(is_known(format), "{format}");
            assert_eq!(is_valid(format, value), valid, "{format} {value}");
        }
    }

    #[test]
    fn only_the_formats_kube_apiserver_keeps_are_checked() {
        assert!(is_checked("date-time", Some("string")));
        assert!(!is_checked("color", Some("string")));
        assert!(!is_checked("int32", Some("integer")));
        assert!(!is_checked("float", Some("number")));
        assert!(!is_checked("date-time", Some("integer")));
        assert!(!is_checked("int32", Some("string")));
    }

    #[test]
    fn go_durations_parse() {
        assert_eq!(parse_go_duration("1h30m"), Some(5_400_000_000_000));
        assert_eq!(parse_go_duration("-1.5s"), Some(-1_500_000_000));
        assert_eq!(parse_go_duration("0"), Some(0));
        assert_eq!(parse_go_duration("1"), None);
        assert_eq!(parse_go_duration("1d"), None);
    }
}
