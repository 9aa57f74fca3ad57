//! apimachinery's syntax checks (`k8s.io/apimachinery/pkg/util/validation`): qualified
//! names, label values, DNS labels and subdomains, ports, IPs and CIDRs (parsed as
//! `k8s.io/utils/net`'s sloppy parsers accept them), environment variable names and
//! config keys, each answering kube's messages word for word.

// Part of this port serves the other API groups' validation as it is ported.
#![allow(dead_code)]

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::LazyLock;

use regex::Regex;

use crate::field::{ErrorList, Path};

const QUALIFIED_NAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const QUALIFIED_NAME_ERR: &str =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_ERR: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_ERR: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_ERR: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL_ERR: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const WILDCARD_FMT: &str = "\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const WILDCARD_ERR: &str = "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";
const C_IDENTIFIER_FMT: &str = "[A-Za-z_][A-Za-z0-9_]*";
const C_IDENTIFIER_ERR: &str = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'";
const ENV_VAR_NAME_FMT: &str = "[-._a-zA-Z][-._a-zA-Z0-9]*";
const ENV_VAR_NAME_ERR: &str = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";
const CONFIG_MAP_KEY_FMT: &str = "[-._a-zA-Z0-9]+";
const CONFIG_MAP_KEY_ERR: &str = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const PERCENT_FMT: &str = "[0-9]+%";
const HTTP_HEADER_FMT: &str = "[-A-Za-z0-9]+";
const HTTP_PATH_FMT: &str = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";

/// An anchored expression, compiled once.
fn anchored(pattern: &str) -> Regex {
    Regex::new(&format!("^(?:{pattern})$")).unwrap_or_else(|_| unreachable!("the patterns are constants"))
}

macro_rules! pattern {
    ($name:ident, $fmt:expr) => {
        static $name: LazyLock<Regex> = LazyLock::new(|| anchored($fmt));
    };
}

pattern!(QUALIFIED_NAME, QUALIFIED_NAME_FMT);
pattern!(LABEL_VALUE, LABEL_VALUE_FMT);
pattern!(DNS1123_LABEL, DNS1123_LABEL_FMT);
pattern!(DNS1123_SUBDOMAIN, DNS1123_SUBDOMAIN_FMT);
pattern!(DNS1035_LABEL, DNS1035_LABEL_FMT);
pattern!(WILDCARD, WILDCARD_FMT);
pattern!(C_IDENTIFIER, C_IDENTIFIER_FMT);
pattern!(ENV_VAR_NAME, ENV_VAR_NAME_FMT);
pattern!(CONFIG_MAP_KEY, CONFIG_MAP_KEY_FMT);
pattern!(PERCENT, PERCENT_FMT);
pattern!(HTTP_HEADER, HTTP_HEADER_FMT);
pattern!(HTTP_PATH, HTTP_PATH_FMT);

/// `MaxLenError`.
pub(crate) fn max_len_error(length: usize) -> String {
    format!("must be no more than {length} characters")
}

/// `EmptyError`.
pub(crate) fn empty_error() -> &'static str {
    "must be non-empty"
}

/// `InclusiveRangeError`.
pub(crate) fn inclusive_range_error(low: i64, high: i64) -> String {
    format!("must be between {low} and {high}, inclusive")
}

/// `RegexError`: the rule, examples and the expression, as kube words them (its
/// examples join with `',  or '`, two spaces, as Go's loop writes them).
pub(crate) fn regex_error(message: &str, expression: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{message} (regex used for validation is '{expression}')");
    }
    let mut text = format!("{message} (e.g. ");
    for (index, example) in examples.iter().enumerate() {
        if index > 0 {
            text.push_str(" or ");
        }
        text.push('\'');
        text.push_str(example);
        text.push_str("', ");
    }
    text.push_str("regex used for validation is '");
    text.push_str(expression);
    text.push_str("')");
    text
}

/// `IsQualifiedName`: label keys, annotation keys (lower-cased), finalizers.
pub(crate) fn is_qualified_name(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errors.push(format!("prefix part {}", empty_error()));
            } else {
                errors.extend(
                    is_dns1123_subdomain(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            *name
        }
        _ => {
            errors.push(format!(
                "a qualified name {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(
                    QUALIFIED_NAME_ERR,
                    QUALIFIED_NAME_FMT,
                    &["MyName", "my.name", "123-abc"]
                )
            ));
            return errors;
        }
    };
    if name.is_empty() {
        errors.push(format!("name part {}", empty_error()));
    } else if name.len() > 63 {
        errors.push(format!("name part {}", max_len_error(63)));
    }
    if !QUALIFIED_NAME.is_match(name) {
        errors.push(format!(
            "name part {}",
            regex_error(
                QUALIFIED_NAME_ERR,
                QUALIFIED_NAME_FMT,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errors
}

/// `IsValidLabelValue`.
pub(crate) fn is_valid_label_value(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > 63 {
        errors.push(max_len_error(63));
    }
    if !LABEL_VALUE.is_match(value) {
        errors.push(regex_error(
            LABEL_VALUE_ERR,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errors
}

/// `IsDNS1123Label`.
pub(crate) fn is_dns1123_label(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > 63 {
        errors.push(max_len_error(63));
    }
    if !DNS1123_LABEL.is_match(value) {
        if DNS1123_SUBDOMAIN.is_match(value) {
            // A valid subdomain that is not a label, its length already checked: dots.
            errors.push("must not contain dots".to_owned());
        } else {
            errors.push(regex_error(
                DNS1123_LABEL_ERR,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errors
}

/// `IsDNS1123Subdomain`.
pub(crate) fn is_dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > 253 {
        errors.push(max_len_error(253));
    }
    if !DNS1123_SUBDOMAIN.is_match(value) {
        errors.push(regex_error(
            DNS1123_SUBDOMAIN_ERR,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errors
}

/// `IsDNS1035Label`.
pub(crate) fn is_dns1035_label(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > 63 {
        errors.push(max_len_error(63));
    }
    if !DNS1035_LABEL.is_match(value) {
        errors.push(regex_error(
            DNS1035_LABEL_ERR,
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errors
}

/// `IsWildcardDNS1123Subdomain`.
pub(crate) fn is_wildcard_dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > 253 {
        errors.push(max_len_error(253));
    }
    if !WILDCARD.is_match(value) {
        errors.push(regex_error(WILDCARD_ERR, WILDCARD_FMT, &["*.example.com"]));
    }
    errors
}

/// `IsCIdentifier`.
pub(crate) fn is_c_identifier(value: &str) -> Vec<String> {
    if C_IDENTIFIER.is_match(value) {
        Vec::new()
    } else {
        vec![regex_error(
            C_IDENTIFIER_ERR,
            C_IDENTIFIER_FMT,
            &["my_name", "MY_NAME", "MyName"],
        )]
    }
}

/// `IsValidPortNum`: 1 to 65535.
pub(crate) fn is_valid_port_num(port: i64) -> Vec<String> {
    is_in_range(port, 1, 65535)
}

/// `IsInRange`.
pub(crate) fn is_in_range(value: i64, low: i64, high: i64) -> Vec<String> {
    if (low..=high).contains(&value) {
        Vec::new()
    } else {
        vec![inclusive_range_error(low, high)]
    }
}

/// `IsValidUserID` and `IsValidGroupID`: 0 to 2^31-1.
pub(crate) fn is_valid_id(id: i64) -> Vec<String> {
    is_in_range(id, 0, i64::from(i32::MAX))
}

/// `IsValidPortName`: an IANA service name.
pub(crate) fn is_valid_port_name(port: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if port.len() > 15 {
        errors.push(max_len_error(15));
    }
    let charset = !port.is_empty()
        && port
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !charset {
        errors.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".to_owned());
    }
    if !port.bytes().any(|b| b.is_ascii_lowercase()) {
        errors.push("must contain at least one letter (a-z)".to_owned());
    }
    if port.contains("--") {
        errors.push("must not contain consecutive hyphens".to_owned());
    }
    if port.starts_with('-') || port.ends_with('-') {
        errors.push("must not begin or end with a hyphen".to_owned());
    }
    errors
}

/// `IsValidPercent`.
pub(crate) fn is_valid_percent(value: &str) -> Vec<String> {
    if PERCENT.is_match(value) {
        Vec::new()
    } else {
        vec![regex_error(
            "a valid percent string must be a numeric string followed by an ending '%'",
            PERCENT_FMT,
            &["1%", "93%"],
        )]
    }
}

/// `IsHTTPHeaderName`.
pub(crate) fn is_http_header_name(value: &str) -> Vec<String> {
    if HTTP_HEADER.is_match(value) {
        Vec::new()
    } else {
        vec![regex_error(
            "a valid HTTP header must consist of alphanumeric characters or '-'",
            HTTP_HEADER_FMT,
            &["X-Header-Name"],
        )]
    }
}

/// `IsEnvVarName`.
pub(crate) fn is_env_var_name(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if !ENV_VAR_NAME.is_match(value) {
        errors.push(regex_error(
            ENV_VAR_NAME_ERR,
            ENV_VAR_NAME_FMT,
            &["my.env-name", "MY_ENV.NAME", "MyEnvName1"],
        ));
    }
    errors.extend(has_chdir_prefix(value));
    errors
}

/// `IsRelaxedEnvVarName`: printable ASCII but `=` (the 1.32 default, the
/// `RelaxedEnvironmentVariableValidation` gate being beta and on).
pub(crate) fn is_relaxed_env_var_name(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.is_empty() {
        errors.push(format!("environment variable name {}", empty_error()));
    }
    if value.chars().any(|c| !(' '..='~').contains(&c) || c == '=') {
        errors.push(
            "a valid environment variable name must consist only of printable ASCII characters other than '='"
                .to_owned(),
        );
    }
    errors
}

/// `IsConfigMapKey`: the keys of config maps and secrets.
pub(crate) fn is_config_map_key(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > 253 {
        errors.push(max_len_error(253));
    }
    if !CONFIG_MAP_KEY.is_match(value) {
        errors.push(regex_error(
            CONFIG_MAP_KEY_ERR,
            CONFIG_MAP_KEY_FMT,
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    errors.extend(has_chdir_prefix(value));
    errors
}

fn has_chdir_prefix(value: &str) -> Option<String> {
    match value {
        "." => Some("must not be '.'".to_owned()),
        ".." => Some("must not be '..'".to_owned()),
        _ if value.starts_with("..") => Some("must not start with '..'".to_owned()),
        _ => None,
    }
}

/// `IsFullyQualifiedDomainName`: at least two labels, a trailing dot allowed.
pub(crate) fn is_fully_qualified_domain_name(path: &Path, name: &str) -> ErrorList {
    if name.is_empty() {
        return vec![path.required("")];
    }
    let name = name.strip_suffix('.').unwrap_or(name);
    let errors = is_dns1123_subdomain(name);
    if !errors.is_empty() {
        return vec![path.invalid(name, &errors.join(","))];
    }
    if name.split('.').count() < 2 {
        return vec![path.invalid(name, "should be a domain with at least two segments separated by dots")];
    }
    for label in name.split('.') {
        let errors = is_dns1123_label(label);
        if !errors.is_empty() {
            return vec![path.invalid(label, &errors.join(","))];
        }
    }
    Vec::new()
}

/// `IsDomainPrefixedPath`: `acme.io/foo`.
pub(crate) fn is_domain_prefixed_path(path: &Path, value: &str) -> ErrorList {
    if value.is_empty() {
        return vec![path.required("")];
    }
    let Some((host, rest)) = value.split_once('/').filter(|(h, r)| !h.is_empty() && !r.is_empty()) else {
        return vec![path.invalid(value, "must be a domain-prefixed path (such as \"acme.io/foo\")")];
    };
    let mut errors: ErrorList = is_dns1123_subdomain(host)
        .iter()
        .map(|message| path.invalid(host, message))
        .collect();
    if !HTTP_PATH.is_match(rest) {
        errors.push(path.invalid(rest, &regex_error("Invalid path", HTTP_PATH_FMT, &[])));
    }
    errors
}

/// `netutils.ParseIPSloppy`: Go 1.16's `net.ParseIP`, which reads IPv4 octets with
/// leading zeros as decimal; an IPv4-mapped IPv6 address is its IPv4 address (as Go's
/// 16-byte form of an IPv4 address behaves).
pub(crate) fn parse_ip_sloppy(value: &str) -> Option<IpAddr> {
    if value.contains(':') {
        let address = if let Ok(address) = value.parse::<Ipv6Addr>() {
            address
        } else {
            // An embedded IPv4 part with leading zeros: rewrite it canonically.
            let (head, tail) = value.rsplit_once(':')?;
            let v4 = parse_ipv4_sloppy(tail)?;
            format!("{head}:{v4}").parse::<Ipv6Addr>().ok()?
        };
        return Some(address.to_ipv4_mapped().map_or(IpAddr::V6(address), IpAddr::V4));
    }
    parse_ipv4_sloppy(value).map(IpAddr::V4)
}

fn parse_ipv4_sloppy(value: &str) -> Option<Ipv4Addr> {
    let mut octets = [0u8; 4];
    let mut parts = value.split('.');
    for octet in &mut octets {
        let part = parts.next()?;
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let number = part.trim_start_matches('0');
        *octet = if number.is_empty() { 0 } else { number.parse().ok()? };
    }
    parts.next().is_none().then(|| Ipv4Addr::from(octets))
}

/// `netutils.ParseCIDRSloppy`: the address and the prefix length.
pub(crate) fn parse_cidr_sloppy(value: &str) -> Option<(IpAddr, u8)> {
    let (address, prefix) = value.split_once('/')?;
    let ip = parse_ip_sloppy(address)?;
    // Go keeps the address family the text used: `::ffff:1.2.3.4/120` is IPv6.
    let bits = if address.contains(':') { 128 } else { 32 };
    if prefix.is_empty() || !prefix.bytes().all(|b| b.is_ascii_digit()) || prefix.len() > 3 {
        return None;
    }
    let length: u8 = prefix.parse().ok()?;
    (length <= bits).then_some((ip, length))
}

/// `IsValidIP`.
pub(crate) fn is_valid_ip(path: &Path, value: &str) -> ErrorList {
    if parse_ip_sloppy(value).is_some() {
        Vec::new()
    } else {
        vec![path.invalid(value, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")]
    }
}

/// `IsValidIPv4Address`.
pub(crate) fn is_valid_ipv4_address(path: &Path, value: &str) -> ErrorList {
    if matches!(parse_ip_sloppy(value), Some(IpAddr::V4(_))) {
        Vec::new()
    } else {
        vec![path.invalid(value, "must be a valid IPv4 address")]
    }
}

/// `IsValidIPv6Address`.
pub(crate) fn is_valid_ipv6_address(path: &Path, value: &str) -> ErrorList {
    if matches!(parse_ip_sloppy(value), Some(IpAddr::V6(_))) {
        Vec::new()
    } else {
        vec![path.invalid(value, "must be a valid IPv6 address")]
    }
}

/// `IsValidCIDR`.
pub(crate) fn is_valid_cidr(path: &Path, value: &str) -> ErrorList {
    if parse_cidr_sloppy(value).is_some() {
        Vec::new()
    } else {
        vec![path.invalid(value, "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)")]
    }
}

/// Whether `value` is an IPv6 address (`netutils.IsIPv6String`).
pub(crate) fn is_ipv6_string(value: &str) -> bool {
    matches!(parse_ip_sloppy(value), Some(IpAddr::V6(_)))
}

/// Whether `value` is an IPv6 CIDR (`netutils.IsIPv6CIDRString`).
pub(crate) fn is_ipv6_cidr_string(value: &str) -> bool {
    matches!(parse_cidr_sloppy(value), Some((IpAddr::V6(_), _)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qualified_names_follow_kube() {
        assert!(is_qualified_name("example.com/My.name-1").is_empty());
        assert_eq!(is_qualified_name("/a"), vec!["prefix part must be non-empty"]);
        assert_eq!(is_qualified_name("a/b/c").len(), 1);
        assert!(is_qualified_name("a/b/c")[0].starts_with("a qualified name must consist of"));
        assert_eq!(
            is_qualified_name("-a")[0],
            "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
        );
        assert_eq!(is_qualified_name("").len(), 2);
        assert_eq!(
            is_qualified_name(&"a".repeat(64)),
            vec!["name part must be no more than 63 characters"]
        );
        assert!(is_qualified_name("Bad_Prefix/a")[0].starts_with("prefix part a lowercase RFC 1123 subdomain"));
    }

    #[test]
    fn labels_and_subdomains_follow_kube() {
        assert!(is_valid_label_value("").is_empty());
        assert_eq!(is_valid_label_value("-x").len(), 1);
        assert_eq!(is_dns1123_label("a.b"), vec!["must not contain dots"]);
        assert!(is_dns1035_label("1a")[0].starts_with("a DNS-1035 label"));
        assert!(is_dns1123_subdomain("a.b").is_empty());
        assert!(is_wildcard_dns1123_subdomain("*.a.b").is_empty());
        assert_eq!(is_wildcard_dns1123_subdomain("a.b").len(), 1);
    }

    #[test]
    fn ports_and_names_follow_kube() {
        assert!(is_valid_port_num(80).is_empty());
        assert_eq!(is_valid_port_num(0), vec!["must be between 1 and 65535, inclusive"]);
        assert!(is_valid_port_name("http").is_empty());
        assert_eq!(
            is_valid_port_name("-8-"),
            vec![
                "must contain at least one letter (a-z)",
                "must not begin or end with a hyphen"
            ]
        );
        assert_eq!(is_valid_port_name("").len(), 2);
        assert!(is_env_var_name("A_B").is_empty());
        assert_eq!(is_env_var_name("1A").len(), 1);
        assert_eq!(is_config_map_key(".."), vec!["must not be '..'"]);
        assert!(is_relaxed_env_var_name("1=a")[0].contains("other than '='"));
    }

    #[test]
    fn addresses_parse_sloppily() {
        assert_eq!(
            parse_ip_sloppy("010.1.1.1"),
            Some(IpAddr::V4(Ipv4Addr::new(10, 1, 1, 1)))
        );
        assert!(parse_ip_sloppy("1.2.3").is_none());
        assert!(parse_ip_sloppy("256.1.1.1").is_none());
        assert!(matches!(parse_ip_sloppy("::1"), Some(IpAddr::V6(_))));
        assert!(matches!(parse_ip_sloppy("::ffff:1.2.3.4"), Some(IpAddr::V4(_))));
        assert!(parse_ip_sloppy("fe80::1%eth0").is_none());
        assert!(parse_cidr_sloppy("10.0.0.0/8").is_some());
        assert!(parse_cidr_sloppy("10.0.0.0/33").is_none());
        assert!(parse_cidr_sloppy("10.0.0.0").is_none());
        let path = Path::new("ip");
        assert_eq!(
            is_valid_ip(&path, "x")[0].body(),
            "Invalid value: \"x\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"
        );
    }
}
