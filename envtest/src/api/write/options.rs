//! The options of a create, update or patch (`CreateOptions`, `UpdateOptions`,
//! `PatchOptions`), read from the query and checked before anything else is read of
//! the request, as kube-apiserver's handlers check them: a bad option is a 422 of the
//! options' kind and the write is never made. A `?dryRun=` with an empty or unknown
//! value is such a bad option, never a real write.
//!
//! kube-apiserver: `ValidateCreateOptions`, `ValidateUpdateOptions`,
//! `ValidatePatchOptions`, `ValidateFieldManager`, `ValidateDryRun` and
//! `ValidateFieldValidation` in
//! `staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go`, called
//! from `handlers/create.go`, `update.go` and `patch.go`. (`DeleteOptions` are read and
//! checked in `crate::lifecycle::deletion`.)

use std::fmt::Write as _;

use wheelhouse_envtest_schema::errors::go_quote;

use crate::core::{ApiError, Verb};
use crate::request::Target;

/// `FieldManagerMaxLength`.
const FIELD_MANAGER_MAX_LENGTH: usize = 128;

/// The patch types kube-apiserver accepts for built-in resources; custom resources
/// accept all but strategic merge.
const PATCH_TYPES: [&str; 4] = [
    "application/json-patch+json",
    "application/merge-patch+json",
    "application/strategic-merge-patch+json",
    "application/apply-patch+yaml",
];

/// The patch type of a PATCH's `Content-Type` (parameters after `;` dropped), refused
/// with kube's 415 when the resource does not take it: checked first of all, as
/// `PatchResource` does.
pub(super) fn patch_type<'a>(target: &Target, content_type: &'a str) -> Result<&'a str, ApiError> {
    let patch_type = content_type.split(';').next().unwrap_or_default().trim();
    let accepted: Vec<&str> = PATCH_TYPES
        .iter()
        .copied()
        .filter(|t| !(target.resource.custom && *t == "application/strategic-merge-patch+json"))
        .collect();
    if accepted.contains(&patch_type) {
        return Ok(patch_type);
    }
    // A custom resource's patch handler refuses it itself, naming what it accepts; a
    // built-in resource's route (go-restful's `Consumes`) answers before any handler,
    // naming no media type: only the code and its text, and empty details.
    if target.resource.custom {
        return Err(ApiError::new(
            415,
            "UnsupportedMediaType",
            format!(
                "the body of the request was in an unknown format - accepted media types include: {}",
                accepted.join(", ")
            ),
        ));
    }
    let mut error = ApiError::new(415, "UnsupportedMediaType", "415: Unsupported Media Type");
    error.details = Some(serde_json::json!({}));
    Err(error)
}

/// Checks the options of a write of `target` (a PATCH of `patch_type`): 422 of
/// `CreateOptions`, `UpdateOptions` or `PatchOptions` listing every broken rule in
/// kube's order. Deletes are not checked here.
pub(super) fn validate(target: &Target, patch_type: Option<&str>) -> Result<(), ApiError> {
    let kind = match target.verb {
        Verb::Create => "CreateOptions",
        Verb::Update => "UpdateOptions",
        Verb::Patch => "PatchOptions",
        _ => return Ok(()),
    };
    let field_manager = target.query.get("fieldManager").map(String::as_str).unwrap_or_default();
    let mut causes: Vec<(&str, &str, String)> = Vec::new();
    if target.verb == Verb::Patch {
        // `ValidatePatchOptions`: apply needs a manager, other patches take no `force`
        // (any value, even an empty one, sets it).
        if patch_type.is_some_and(|t| t.starts_with("application/apply-patch")) {
            if field_manager.is_empty() {
                causes.push((
                    "fieldManager",
                    "FieldValueRequired",
                    "Required value: is required for apply patch".into(),
                ));
            }
        } else if target.query.contains_key("force") {
            causes.push((
                "force",
                "FieldValueForbidden",
                "Forbidden: may not be specified for non-apply patch".into(),
            ));
        }
    }
    causes.extend(field_manager_errors(field_manager));
    causes.extend(dry_run_errors(target.dry_run.as_deref()));
    let field_validation = target
        .query
        .get("fieldValidation")
        .map(String::as_str)
        .unwrap_or_default();
    if !matches!(field_validation, "" | "Ignore" | "Strict" | "Warn") {
        causes.push((
            "fieldValidation",
            "FieldValueNotSupported",
            format!(
                "Unsupported value: {}: supported values: \"\", \"Ignore\", \"Strict\", \"Warn\"",
                go_quote(field_validation)
            ),
        ));
    }
    if causes.is_empty() {
        return Ok(());
    }
    Err(ApiError::invalid_kind("meta.k8s.io", kind, "", &causes))
}

/// `ValidateFieldManager`: at most 128 bytes, every character printable (each other
/// one reported with its byte position, as Go's `range` over a string counts).
fn field_manager_errors(manager: &str) -> Vec<(&'static str, &'static str, String)> {
    let mut causes = Vec::new();
    if manager.len() > FIELD_MANAGER_MAX_LENGTH {
        causes.push((
            "fieldManager",
            "FieldValueTooLong",
            format!("Too long: may not be more than {FIELD_MANAGER_MAX_LENGTH} bytes"),
        ));
    }
    for (position, c) in manager.char_indices() {
        if !go_printable(c) {
            causes.push((
                "fieldManager",
                "FieldValueInvalid",
                format!(
                    "Invalid value: {}: invalid character U+{:04X} (at position {position})",
                    go_quote_printable(manager),
                    c as u32
                ),
            ));
        }
    }
    causes
}

/// `ValidateDryRun`: every value must be `All` (`?dryRun=` is a list of one empty
/// value, refused as such).
pub(crate) fn dry_run_errors(values: Option<&[String]>) -> Vec<(&'static str, &'static str, String)> {
    let Some(values) = values.filter(|v| v.iter().any(|value| value != "All")) else {
        return Vec::new();
    };
    let quoted: Vec<String> = values.iter().map(|value| go_quote(value)).collect();
    vec![(
        "dryRun",
        "FieldValueNotSupported",
        format!(
            "Unsupported value: []string{{{}}}: supported values: \"All\"",
            quoted.join(", ")
        ),
    )]
}

/// Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII
/// space. Rust's standard library has no general categories, so what is not printable
/// is named: controls, separators other than the space, and the format, private-use
/// and noncharacter code points a field manager could plausibly carry.
fn go_printable(c: char) -> bool {
    let code = c as u32;
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    let format = matches!(code,
        0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x890..=0x891 | 0x8E2 | 0x180E
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F
        | 0xFEFF | 0xFFF9..=0xFFFB | 0x110BD | 0x110CD | 0x13430..=0x1343F
        | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A | 0xE0001 | 0xE0020..=0xE007F);
    let private_use = matches!(code, 0xE000..=0xF8FF | 0xF_0000..=0xF_FFFD | 0x10_0000..=0x10_FFFD);
    let noncharacter = matches!(code, 0xFDD0..=0xFDEF) || code & 0xFFFE == 0xFFFE;
    !(format || private_use || noncharacter)
}

/// `strconv.Quote` as `%q` prints a value: what is not printable is escaped
/// (`\x01`, `\u200b`), the rest written as is.
fn go_quote_printable(text: &str) -> String {
    let mut quoted = String::new();
    for c in text.chars() {
        if go_printable(c) || c.is_control() {
            quoted.push_str(go_quote(&c.to_string()).trim_matches('"'));
        } else if (c as u32) <= 0xFFFF {
            let _ = write!(quoted, "\\u{:04x}", c as u32);
        } else {
            let _ = write!(quoted, "\\U{:08x}", c as u32);
        }
    }
    format!("\"{quoted}\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dry_run_values_other_than_all_are_refused_with_go_s_list() {
        assert!(dry_run_errors(None).is_empty());
        assert!(dry_run_errors(Some(&["All".into()])).is_empty());
        let refused = dry_run_errors(Some(&["All".into(), String::new()]));
        assert_eq!(
            refused[0].2,
            "Unsupported value: []string{\"All\", \"\"}: supported values: \"All\""
        );
    }

    #[test]
    fn field_managers_must_be_printable_and_short() {
        assert!(field_manager_errors("kubectl-client-side-apply").is_empty());
        let errors = field_manager_errors("a\u{1}b");
        assert_eq!(
            errors[0].2,
            "Invalid value: \"a\\x01b\": invalid character U+0001 (at position 1)"
        );
        let errors = field_manager_errors("\u{200b}");
        assert_eq!(
            errors[0].2,
            "Invalid value: \"\\u200b\": invalid character U+200B (at position 0)"
        );
        assert_eq!(field_manager_errors(&"m".repeat(129))[0].1, "FieldValueTooLong");
        assert!(field_manager_errors("é ü 名前").is_empty());
    }
}
