//! The name rules selectors check, with apimachinery's words
//! (`staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go`): label keys
//! are qualified names (`IsQualifiedName`), label values `IsValidLabelValue`, and a
//! key's prefix a DNS-1123 subdomain (`IsDNS1123Subdomain`); values are quoted as Go's
//! `%q` quotes them.

use std::fmt::Write as _;

const QUALIFIED_NAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const QUALIFIED_NAME_ERR: &str =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_MAX_LENGTH: usize = 63;
const LABEL_VALUE_FMT: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
const LABEL_VALUE_ERR: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MAX_LENGTH: usize = 63;
const DNS1123_SUBDOMAIN_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const DNS1123_SUBDOMAIN_ERR: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MAX_LENGTH: usize = 253;

/// `RegexError`: the rule, examples, and the expression it is checked with.
fn regex_error(message: &str, expression: &str, examples: &[&str]) -> String {
    let mut text = format!("{message} (e.g. ");
    for (i, example) in examples.iter().enumerate() {
        if i > 0 {
            text.push_str(" or ");
        }
        let _ = write!(text, "'{example}', ");
    }
    let _ = write!(text, "regex used for validation is '{expression}')");
    text
}

/// `qualifiedNameRegexp`: alphanumeric at both ends, `-`, `_` and `.` inside.
fn is_qualified_name_part(name: &str) -> bool {
    let bytes = name.as_bytes();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// `dns1123SubdomainRegexp`: dot-separated lowercase labels, each alphanumeric at both
/// ends with `-` inside.
fn is_dns1123_subdomain_syntax(value: &str) -> bool {
    value.split('.').all(|label| {
        let bytes = label.as_bytes();
        match (bytes.first(), bytes.last()) {
            (Some(first), Some(last)) => {
                let ok = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
                ok(first) && ok(last) && bytes.iter().all(|b| ok(b) || *b == b'-')
            }
            _ => false,
        }
    })
}

/// `IsDNS1123Subdomain`.
pub(crate) fn is_dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        errors.push(format!(
            "must be no more than {DNS1123_SUBDOMAIN_MAX_LENGTH} characters"
        ));
    }
    if !is_dns1123_subdomain_syntax(value) {
        errors.push(regex_error(
            DNS1123_SUBDOMAIN_ERR,
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errors
}

/// `IsQualifiedName`: an optional DNS subdomain prefix and `/`, then a name of at most
/// 63 characters.
pub(crate) fn is_qualified_name(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errors.push("prefix part must be non-empty".to_owned());
            } else {
                errors.extend(
                    is_dns1123_subdomain(prefix)
                        .into_iter()
                        .map(|message| format!("prefix part {message}")),
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
        errors.push("name part must be non-empty".to_owned());
    } else if name.len() > QUALIFIED_NAME_MAX_LENGTH {
        errors.push(format!(
            "name part must be no more than {QUALIFIED_NAME_MAX_LENGTH} characters"
        ));
    }
    if !is_qualified_name_part(name) {
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

/// `IsValidLabelValue`: empty, or a qualified name part of at most 63 characters.
pub(crate) fn is_valid_label_value(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > LABEL_VALUE_MAX_LENGTH {
        errors.push(format!("must be no more than {LABEL_VALUE_MAX_LENGTH} characters"));
    }
    if !value.is_empty() && !is_qualified_name_part(value) {
        errors.push(regex_error(
            LABEL_VALUE_ERR,
            LABEL_VALUE_FMT,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errors
}

/// Go's `%q` of a string: quoted, with quotes, backslashes and control characters
/// escaped, printable text as is.
pub(crate) fn go_quote(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\r' => quoted.push_str("\\r"),
            '\t' => quoted.push_str("\\t"),
            '\u{7}' => quoted.push_str("\\a"),
            '\u{8}' => quoted.push_str("\\b"),
            '\u{c}' => quoted.push_str("\\f"),
            '\u{b}' => quoted.push_str("\\v"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(quoted, "\\x{:02x}", c as u32);
            }
            c if c.is_control() => {
                let _ = write!(quoted, "\\u{:04x}", c as u32);
            }
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qualified_names_as_apimachinery_checks_them() {
        assert!(is_qualified_name("app").is_empty());
        assert!(is_qualified_name("example.com/app_1.x").is_empty());
        assert_eq!(
            is_qualified_name(&"a".repeat(64)),
            vec!["name part must be no more than 63 characters"]
        );
        assert_eq!(is_qualified_name("/a"), vec!["prefix part must be non-empty"]);
        assert_eq!(
            is_qualified_name("-bad"),
            vec![
                "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
            ]
        );
        assert_eq!(is_qualified_name("Example_.com/a").len(), 1);
        assert_eq!(is_qualified_name("a/b/c").len(), 1);
        assert_eq!(is_qualified_name("a/").len(), 2, "empty, and not matching");
    }

    #[test]
    fn label_values_may_be_empty() {
        assert!(is_valid_label_value("").is_empty());
        assert!(is_valid_label_value("v1.2_x").is_empty());
        assert_eq!(is_valid_label_value("-b").len(), 1);
        assert_eq!(
            is_valid_label_value(&"v".repeat(64)),
            vec!["must be no more than 63 characters"]
        );
    }
}
