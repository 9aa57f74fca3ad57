//! apimachinery's string checks (`k8s.io/apimachinery/pkg/util/validation` and
//! `pkg/api/validation/path`), each returning kube's messages word for word, and the
//! name rules kinds pick (`ValidateNameFunc`): most kinds' names are DNS subdomains,
//! a few DNS labels, and RBAC's and some others' only path segments.
//!
//! The DNS rules themselves are the schema crate's (`wheelhouse_envtest_schema::names`),
//! which the server also uses for custom resources.

use wheelhouse_envtest_schema::names::regex_error;
pub(crate) use wheelhouse_envtest_schema::names::{dns1035_label, dns1123_label, dns1123_subdomain};

/// `qualifiedNameFmt`.
const QUALIFIED_NAME: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
/// `qualifiedNameErrMsg`.
const QUALIFIED_NAME_MESSAGE: &str =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
/// `dns1123SubdomainFmt`.
const DNS1123_SUBDOMAIN: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";

/// `MaxLenError`.
pub(crate) fn max_len(length: usize) -> String {
    format!("must be no more than {length} characters")
}

/// `InclusiveRangeError`.
pub(crate) fn inclusive_range(low: i64, high: i64) -> String {
    format!("must be between {low} and {high}, inclusive")
}

/// `[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?`: a qualified name's name part, and a
/// non-empty label value.
fn is_qualified_part(text: &str) -> bool {
    let bytes = text.as_bytes();
    let edge = |b: Option<&u8>| b.is_some_and(u8::is_ascii_alphanumeric);
    edge(bytes.first())
        && edge(bytes.last())
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// `IsQualifiedName`: label keys, annotation keys, condition types.
pub(crate) fn qualified_name(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errors.push("prefix part must be non-empty".to_owned());
            } else {
                errors.extend(
                    dns1123_subdomain(prefix)
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
                    QUALIFIED_NAME_MESSAGE,
                    QUALIFIED_NAME,
                    &["MyName", "my.name", "123-abc"]
                )
            ));
            return errors;
        }
    };
    if name.is_empty() {
        errors.push("name part must be non-empty".to_owned());
    } else if name.len() > 63 {
        errors.push(format!("name part {}", max_len(63)));
    }
    if !is_qualified_part(name) {
        errors.push(format!(
            "name part {}",
            regex_error(
                QUALIFIED_NAME_MESSAGE,
                QUALIFIED_NAME,
                &["MyName", "my.name", "123-abc"]
            )
        ));
    }
    errors
}

/// `IsValidLabelValue`.
pub(crate) fn label_value(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > 63 {
        errors.push(max_len(63));
    }
    if !value.is_empty() && !is_qualified_part(value) {
        errors.push(regex_error(
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
            "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?",
            &["MyValue", "my_value", "12345"],
        ));
    }
    errors
}

/// Whether `text` matches `dns1123LabelFmt` (length aside).
pub(crate) fn is_label(text: &str) -> bool {
    let bytes = text.as_bytes();
    let edge = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    edge(bytes.first())
        && edge(bytes.last())
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
}

/// Whether `text` matches `dns1123SubdomainFmt` (length aside).
pub(crate) fn is_subdomain(text: &str) -> bool {
    text.split('.').all(is_label)
}

/// `IsWildcardDNS1123Subdomain`: `*.` and a subdomain.
pub(crate) fn wildcard_dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > 253 {
        errors.push(max_len(253));
    }
    if !value.strip_prefix("*.").is_some_and(is_subdomain) {
        errors.push(regex_error(
            "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
            &format!("\\*\\.{DNS1123_SUBDOMAIN}"),
            &["*.example.com"],
        ));
    }
    errors
}

/// `IsValidPathSegmentName`: a name that is safe as one segment of a URL path.
pub(crate) fn path_segment_name(name: &str) -> Vec<String> {
    for illegal in [".", ".."] {
        if name == illegal {
            return vec![format!("may not be '{illegal}'")];
        }
    }
    path_segment_prefix(name)
}

/// `IsValidPathSegmentPrefix`.
pub(crate) fn path_segment_prefix(name: &str) -> Vec<String> {
    ["/", "%"]
        .iter()
        .filter(|illegal| name.contains(*illegal))
        .map(|illegal| format!("may not contain '{illegal}'"))
        .collect()
}

/// `maskTrailingDash`: a generated name's prefix may end in a dash, a suffix follows.
fn mask_trailing_dash(name: &str) -> String {
    if name.len() > 1 && name.ends_with('-') {
        // Go's `name[:len(name)-2] + "a"`: the byte before the dash is dropped too.
        let cut = name.len() - 2;
        match name.get(..cut) {
            Some(head) => format!("{head}a"),
            None => name.to_owned(),
        }
    } else {
        name.to_owned()
    }
}

/// `NameIsDNSSubdomain`.
pub(crate) fn name_is_dns_subdomain(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        return dns1123_subdomain(&mask_trailing_dash(name));
    }
    dns1123_subdomain(name)
}

/// `NameIsDNSLabel`.
pub(crate) fn name_is_dns_label(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        return dns1123_label(&mask_trailing_dash(name));
    }
    dns1123_label(name)
}

/// `NameIsDNS1035Label`.
pub(crate) fn name_is_dns1035_label(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        return dns1035_label(&mask_trailing_dash(name));
    }
    dns1035_label(name)
}

/// `ValidatePathSegmentName` (`path.ValidatePathSegmentName`).
pub(crate) fn name_is_path_segment(name: &str, prefix: bool) -> Vec<String> {
    if prefix {
        return path_segment_prefix(name);
    }
    path_segment_name(name)
}

/// `IsValidPercent`: digits and a `%`.
pub(crate) fn percent(text: &str) -> Vec<String> {
    let valid = text
        .strip_suffix('%')
        .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()));
    if valid {
        return Vec::new();
    }
    vec![regex_error(
        "a valid percent string must be a numeric string followed by an ending '%'",
        "[0-9]+%",
        &["1%", "93%"],
    )]
}

/// `IsValidPortNum`.
pub(crate) fn port_number(port: i64) -> Vec<String> {
    if (1..=65535).contains(&port) {
        return Vec::new();
    }
    vec![inclusive_range(1, 65535)]
}

/// `IsValidPortName`.
pub(crate) fn port_name(port: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if port.len() > 15 {
        errors.push(max_len(15));
    }
    if port.is_empty()
        || !port
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qualified_names_report_each_part() {
        assert!(qualified_name("example.com/my-key_1").is_empty());
        assert_eq!(qualified_name("/a"), vec!["prefix part must be non-empty"]);
        assert!(qualified_name("a/b/c")[0].starts_with("a qualified name must consist"));
        assert!(
            qualified_name("a/b/c")[0]
                .ends_with("with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")
        );
        let empty = qualified_name("");
        assert_eq!(empty[0], "name part must be non-empty");
        assert!(empty[1].starts_with("name part must consist of alphanumeric characters"));
        assert_eq!(
            qualified_name(&"a".repeat(64)),
            vec!["name part must be no more than 63 characters"]
        );
        assert!(qualified_name("Bad_/x")[0].starts_with("prefix part a lowercase RFC 1123 subdomain"));
    }

    #[test]
    fn label_values_may_be_empty() {
        assert!(label_value("").is_empty());
        assert!(label_value("a.b_c-D").is_empty());
        assert!(label_value("-a")[0].contains("'MyValue',  or 'my_value',  or '12345'"));
    }

    #[test]
    fn path_segments_refuse_dots_slashes_and_percents() {
        assert!(path_segment_name("system:controller:x").is_empty());
        assert_eq!(path_segment_name(".."), vec!["may not be '..'"]);
        assert_eq!(
            path_segment_name("a/b%c"),
            vec!["may not contain '/'", "may not contain '%'"]
        );
        assert!(name_is_path_segment("..", true).is_empty());
    }

    #[test]
    fn generated_name_prefixes_may_end_in_a_dash() {
        assert!(name_is_dns_subdomain("web-", true).is_empty());
        assert!(!name_is_dns_subdomain("web-", false).is_empty());
        assert!(name_is_dns_label("a-", true).is_empty());
    }

    #[test]
    fn percents_ports_and_identifiers() {
        assert!(percent("25%").is_empty());
        assert_eq!(percent("x%").len(), 1);
        assert_eq!(port_number(0), vec!["must be between 1 and 65535, inclusive"]);
        assert_eq!(port_name("-a--").len(), 2);
        assert!(wildcard_dns1123_subdomain("*.example.com").is_empty());
        assert!(!wildcard_dns1123_subdomain("*example.com").is_empty());
    }
}
