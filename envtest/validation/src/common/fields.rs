//! The small field checks of `pkg/apis/core/validation` and apimachinery that every
//! group's validation calls: non-negative numbers, immutable fields, names and labels
//! of one field.

use serde_json::Value;
use wheelhouse_envtest_schema::errors::BadValue;

use super::names::{dns1123_label, qualified_name};
use super::read::{entries, opt_int, semantic_eq, text};
use crate::field::{ErrorList, Path};

/// `IsNegativeErrorMsg`.
pub(crate) const NEGATIVE: &str = "must be greater than or equal to 0";
/// `FieldImmutableErrorMsg`.
pub(crate) const IMMUTABLE: &str = "field is immutable";

/// `ValidateNonnegativeField`.
pub(crate) fn nonnegative(value: i64, path: &Path) -> ErrorList {
    if value < 0 {
        return vec![path.invalid(&Value::from(value), NEGATIVE)];
    }
    ErrorList::new()
}

/// `ValidateNonnegativeField` of a pointer field: nothing when unset.
pub(crate) fn nonnegative_if_set(value: &Value, path: &Path) -> ErrorList {
    opt_int(value).map(|v| nonnegative(v, path)).unwrap_or_default()
}

/// `ValidateImmutableField`: `new` must equal `old` (`Semantic.DeepEqual`); the
/// message shows `shown`, the new value as Go prints it.
pub(crate) fn immutable(new: &Value, old: &Value, path: &Path, shown: impl FnOnce() -> BadValue) -> ErrorList {
    if semantic_eq(new, old) {
        return ErrorList::new();
    }
    vec![path.invalid(shown(), IMMUTABLE)]
}

/// `ValidateImmutableField` of a value Go prints plainly (a string, a number, a
/// pointer to one): the new value as the message's value.
pub(crate) fn immutable_plain(new: &Value, old: &Value, path: &Path) -> ErrorList {
    immutable(new, old, path, || {
        if new.is_null() {
            BadValue::Json(Value::from("null"))
        } else {
            BadValue::Json(new.clone())
        }
    })
}

/// `ValidateImmutableField` of a Go `string` field: absent or null is Go's "", both as
/// compared and as shown.
pub(crate) fn immutable_string(new: &Value, old: &Value, path: &Path) -> ErrorList {
    let text = |value: &Value| Value::from(value.as_str().unwrap_or_default());
    immutable_plain(&text(new), &text(old), path)
}

/// `IsDecremented`: a pointer counter that went down or away.
pub(crate) fn is_decremented(new: &Value, old: &Value) -> bool {
    match (opt_int(new), opt_int(old)) {
        (None, Some(_)) => true,
        (Some(new), Some(old)) => new < old,
        _ => false,
    }
}

/// `ValidateQualifiedName`.
pub(crate) fn validate_qualified_name(value: &str, path: &Path) -> ErrorList {
    qualified_name(value).iter().map(|m| path.invalid(value, m)).collect()
}

/// `ValidateDNS1123Label`.
pub(crate) fn validate_dns1123_label(value: &str, path: &Path) -> ErrorList {
    dns1123_label(value).iter().map(|m| path.invalid(value, m)).collect()
}

/// `ValidateHasLabel`: `metadata` (at `path`) carries `key` with `expected`.
pub(crate) fn validate_has_label(metadata: &Value, path: &Path, key: &str, expected: &str) -> ErrorList {
    let labels = &metadata["labels"];
    let field = path.child("labels").key(key);
    match entries(labels).and_then(|map| map.get(key)) {
        None => vec![field.required(&format!("must be '{expected}'"))],
        Some(actual) if text(actual) != expected => {
            let shown = super::go_syntax::string_map(labels);
            vec![field.invalid(BadValue::Raw(shown), &format!("must be '{expected}'"))]
        }
        Some(_) => ErrorList::new(),
    }
}

/// `IsDomainPrefixedPath`: a DNS subdomain, `/`, and an HTTP path (RFC 3986).
pub(crate) fn validate_domain_prefixed_path(path: &Path, value: &str) -> ErrorList {
    if value.is_empty() {
        return vec![path.required("")];
    }
    let Some((host, rest)) = value.split_once('/').filter(|(h, r)| !h.is_empty() && !r.is_empty()) else {
        return vec![path.invalid(value, "must be a domain-prefixed path (such as \"acme.io/foo\")")];
    };
    let mut errors: ErrorList = super::names::dns1123_subdomain(host)
        .iter()
        .map(|message| path.invalid(host, message))
        .collect();
    let http_path = rest
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"/-._~%!$&'()*+,;=:".contains(&b));
    if !http_path {
        errors.push(path.invalid(
            rest,
            "Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')",
        ));
    }
    errors
}

/// `IsConfigMapKey` as a name rule (`LeaseCandidates` are named like config keys).
pub(crate) fn validate_config_map_key_name(name: &str, _prefix: bool) -> Vec<String> {
    let mut errors = Vec::new();
    if name.len() > 253 {
        errors.push(super::names::max_len(253));
    }
    if name.is_empty()
        || !name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
    {
        errors.push(wheelhouse_envtest_schema::names::regex_error(
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
            "[-._a-zA-Z0-9]+",
            &["key.name", "KEY_NAME", "key-name"],
        ));
    }
    match name {
        "." => errors.push("must not be '.'".to_owned()),
        ".." => errors.push("must not be '..'".to_owned()),
        _ if name.starts_with("..") => errors.push("must not start with '..'".to_owned()),
        _ => {}
    }
    errors
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn numbers_and_immutability() {
        let path = Path::new("spec.replicas");
        assert_eq!(
            nonnegative(-1, &path)[0].body(),
            "Invalid value: -1: must be greater than or equal to 0"
        );
        assert!(nonnegative_if_set(&Value::Null, &path).is_empty());
        assert!(immutable_plain(&json!(1), &json!(1.0), &path).is_empty());
        assert_eq!(
            immutable_plain(&Value::Null, &json!(1), &path)[0].body(),
            "Invalid value: \"null\": field is immutable"
        );
        assert!(is_decremented(&Value::Null, &json!(1)));
        assert!(!is_decremented(&json!(2), &json!(1)));
    }

    #[test]
    fn has_label_names_the_missing_key() {
        let path = Path::new("spec.template.metadata");
        let errors = validate_has_label(&json!({"labels": {"a": "x"}}), &path, "a", "y");
        assert_eq!(errors[0].field, "spec.template.metadata.labels[a]");
        assert_eq!(
            errors[0].body(),
            "Invalid value: map[string]string{\"a\":\"x\"}: must be 'y'"
        );
        let missing = validate_has_label(&json!({}), &path, "b", "y");
        assert_eq!(missing[0].body(), "Required value: must be 'y'");
    }
}
