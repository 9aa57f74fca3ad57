//! The names the groups' validation uses for apimachinery's string checks
//! (`k8s.io/apimachinery/pkg/util/validation` and `pkg/api/validation/path`) and the
//! name rules kinds pick (`ValidateNameFunc`): most kinds' names are DNS subdomains,
//! a few DNS labels, and RBAC's and some others' only path segments. Each is the one
//! port of its kube function, in `util` (the string checks) and `meta` (the name
//! rules), under the short names the groups' code reads.

pub(crate) use crate::meta::{
    name_is_dns_label, name_is_dns_subdomain, name_is_dns1035_label, validate_path_segment_name as name_is_path_segment,
};
pub(crate) use crate::util::{
    is_dns1035_label as dns1035_label, is_dns1123_label as dns1123_label, is_dns1123_subdomain as dns1123_subdomain,
    is_qualified_name as qualified_name, is_valid_label_value as label_value, is_valid_percent as percent,
    is_valid_port_name as port_name, is_valid_port_num as port_number,
    is_wildcard_dns1123_subdomain as wildcard_dns1123_subdomain, max_len_error as max_len,
};

/// `IsValidPathSegmentName`: a name that is safe as one segment of a URL path.
pub(crate) fn path_segment_name(name: &str) -> Vec<String> {
    name_is_path_segment(name, false)
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
