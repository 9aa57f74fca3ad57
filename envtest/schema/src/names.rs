//! apimachinery's name checks (`k8s.io/apimachinery/pkg/util/validation`), with the
//! messages kube-apiserver writes: users read them in every 422 about a name, so they
//! carry kube's examples and regular expressions word for word.

/// `dns1123LabelFmt`.
const DNS1123_LABEL: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
/// `dns1123SubdomainFmt`.
const DNS1123_SUBDOMAIN: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
/// `dns1035LabelFmt`.
const DNS1035_LABEL: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";

/// apimachinery's `maskTrailingDash`: a `generateName` prefix may end in a dash, as a
/// suffix follows it (Go drops the last two characters and appends `a`).
#[must_use]
pub fn mask_trailing_dash(name: &str) -> String {
    if name.len() > 1 && name.ends_with('-') {
        let cut = name.len() - 2;
        if name.is_char_boundary(cut) {
            return format!("{}a", &name[..cut]);
        }
    }
    name.to_owned()
}

/// `MaxLenError`.
fn max_len(length: usize) -> String {
    format!("must be no more than {length} characters")
}

/// `RegexError`: the rule, examples and the expression, as kube words them (its
/// examples join with `',  or '`, two spaces, as Go's loop writes them).
pub fn regex_error(message: &str, expression: &str, examples: &[&str]) -> String {
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

/// A label of lower-case letters, digits and inner dashes; `first_letter` for RFC 1035.
fn is_label(text: &str, first_letter: bool) -> bool {
    let bytes = text.as_bytes();
    let inner = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-';
    let edge = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    let first_ok = bytes
        .first()
        .is_some_and(|b| if first_letter { b.is_ascii_lowercase() } else { edge(b) });
    first_ok && bytes.last().is_some_and(edge) && bytes.iter().all(inner)
}

fn is_subdomain(text: &str) -> bool {
    text.split('.').all(|label| is_label(label, false))
}

/// `IsDNS1123Subdomain`: most object names, CRD groups.
pub fn dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > 253 {
        errors.push(max_len(253));
    }
    if !is_subdomain(value) {
        errors.push(regex_error(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
            DNS1123_SUBDOMAIN,
            &["example.com"],
        ));
    }
    errors
}

/// `IsDNS1123Label`: namespace names.
pub fn dns1123_label(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > 63 {
        errors.push(max_len(63));
    }
    if !is_label(value, false) {
        if is_subdomain(value) {
            errors.push("must not contain dots".to_owned());
        } else {
            errors.push(regex_error(
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
                DNS1123_LABEL,
                &["my-name", "123-abc"],
            ));
        }
    }
    errors
}

/// `IsDNS1035Label`: Service names, CRD version names, plurals, kinds.
pub fn dns1035_label(value: &str) -> Vec<String> {
    let mut errors = Vec::new();
    if value.len() > 63 {
        errors.push(max_len(63));
    }
    if !is_label(value, true) {
        errors.push(regex_error(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
            DNS1035_LABEL,
            &["my-name", "abc-123"],
        ));
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_s_trailing_dash_is_masked_as_go_masks_it() {
        // Go's mask drops two characters and appends `a`.
        assert_eq!(mask_trailing_dash("ab-"), "aa");
        assert_eq!(mask_trailing_dash("web"), "web");
    }

    #[test]
    fn subdomains_carry_kubes_example_and_expression() {
        assert!(dns1123_subdomain("a.b-c.d1").is_empty());
        assert_eq!(
            dns1123_subdomain("Bad_Name"),
            vec![
                "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
            ]
        );
        assert_eq!(
            dns1123_subdomain(&"a".repeat(254)),
            vec!["must be no more than 253 characters"]
        );
    }

    #[test]
    fn labels_tell_dots_from_other_mistakes() {
        assert_eq!(dns1123_label("a.b"), vec!["must not contain dots"]);
        assert!(dns1123_label("-a")[0].ends_with(
            "(e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
        ));
        assert!(dns1035_label("v1").is_empty());
        assert!(dns1035_label("1v")[0].starts_with("a DNS-1035 label must consist"));
        assert!(dns1035_label("")[0].starts_with("a DNS-1035 label"));
    }
}
