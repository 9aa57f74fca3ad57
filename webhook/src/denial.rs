//! [`Denied`] and [`FieldError`]: how a typed webhook says no, and how that becomes the
//! `Status` kube-apiserver shows the user, worded as its own validation errors are
//! (apimachinery's `field.Error` and `errors.NewInvalid`).

use std::fmt::{self, Display, Write as _};

use kube::core::response::{StatusCause, StatusDetails};
use kube::core::{GroupVersionKind, Status};
use serde::Serialize;
use serde_json::Value;

/// Warnings a webhook returns with an allowed request; kubectl prints each as
/// `Warning: ...`.
pub type Warnings = Vec<String>;

/// What is wrong with one field, as apimachinery's `field.Error` says it:
/// `spec.replicas: Invalid value: 0: must be between 1 and 50`.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    /// The field's path, dotted as kubectl shows it (`spec.template.spec.containers[0].image`).
    pub field: String,
    /// What kind of problem.
    pub kind: FieldErrorKind,
    /// The offending value, when showing it helps (not for `Required` or `Forbidden`).
    pub value: Option<Value>,
    /// What to do instead.
    pub detail: String,
}

/// The kinds of field error apimachinery knows, with its wording.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldErrorKind {
    /// "Invalid value": the value is malformed or out of range.
    Invalid,
    /// "Required value": the field must be set.
    Required,
    /// "Forbidden": the field may not be set, or not changed.
    Forbidden,
    /// "Unsupported value": the value is not one of the supported ones.
    NotSupported,
    /// "Duplicate value": the value appears twice where it must be unique.
    Duplicate,
}

impl FieldErrorKind {
    /// The words kube-apiserver uses in messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Invalid => "Invalid value",
            Self::Required => "Required value",
            Self::Forbidden => "Forbidden",
            Self::NotSupported => "Unsupported value",
            Self::Duplicate => "Duplicate value",
        }
    }

    /// The `reason` of the Status cause (`metav1.CauseType`).
    pub fn cause(self) -> &'static str {
        match self {
            Self::Invalid => "FieldValueInvalid",
            Self::Required => "FieldValueRequired",
            Self::Forbidden => "FieldValueForbidden",
            Self::NotSupported => "FieldValueNotSupported",
            Self::Duplicate => "FieldValueDuplicate",
        }
    }
}

impl FieldError {
    /// `field: Invalid value: <value>: detail`.
    pub fn invalid(field: impl Into<String>, value: impl Serialize, detail: impl Into<String>) -> Self {
        Self::with_value(field, FieldErrorKind::Invalid, value, detail)
    }

    /// `field: Required value: detail`.
    pub fn required(field: impl Into<String>, detail: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            kind: FieldErrorKind::Required,
            value: None,
            detail: detail.into(),
        }
    }

    /// `field: Forbidden: detail`.
    pub fn forbidden(field: impl Into<String>, detail: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            kind: FieldErrorKind::Forbidden,
            value: None,
            detail: detail.into(),
        }
    }

    /// `field: Unsupported value: <value>: supported values: "a", "b"`.
    pub fn not_supported(field: impl Into<String>, value: impl Serialize, supported: &[&str]) -> Self {
        let supported: Vec<String> = supported.iter().map(|s| format!("{s:?}")).collect();
        Self::with_value(
            field,
            FieldErrorKind::NotSupported,
            value,
            format!("supported values: {}", supported.join(", ")),
        )
    }

    /// `field: Duplicate value: <value>`.
    pub fn duplicate(field: impl Into<String>, value: impl Serialize) -> Self {
        Self::with_value(field, FieldErrorKind::Duplicate, value, "")
    }

    fn with_value(
        field: impl Into<String>,
        kind: FieldErrorKind,
        value: impl Serialize,
        detail: impl Into<String>,
    ) -> Self {
        Self {
            field: field.into(),
            kind,
            value: Some(serde_json::to_value(value).unwrap_or(Value::Null)),
            detail: detail.into(),
        }
    }

    /// The message without the field: `Invalid value: "nginx": detail`
    /// (apimachinery's `ErrorBody`). A value whose JSON is longer than 256 bytes is
    /// cut there and followed by `...(<length> bytes)`.
    pub fn body(&self) -> String {
        let mut body = self.kind.as_str().to_owned();
        let shows_value = matches!(
            self.kind,
            FieldErrorKind::Invalid | FieldErrorKind::NotSupported | FieldErrorKind::Duplicate
        );
        if shows_value {
            let value = self.value.as_ref().unwrap_or(&Value::Null);
            body.push_str(": ");
            body.push_str(&shown_value(value));
        }
        if !self.detail.is_empty() {
            body.push_str(": ");
            body.push_str(&self.detail);
        }
        body
    }
}

/// The longest value a field error shows, in bytes of its JSON.
const MAX_SHOWN_VALUE_BYTES: usize = 256;

/// `value` as JSON, cut to [`MAX_SHOWN_VALUE_BYTES`] (at a character boundary) with
/// `...` and the full length after it: a denial (shown twice, in the message and in
/// its cause) never grows with the value a client sent.
fn shown_value(value: &Value) -> String {
    let mut shown = value.to_string();
    if shown.len() > MAX_SHOWN_VALUE_BYTES {
        let full = shown.len();
        let mut cut = MAX_SHOWN_VALUE_BYTES;
        while !shown.is_char_boundary(cut) {
            cut -= 1;
        }
        shown.truncate(cut);
        let _ = write!(shown, "...({full} bytes)");
    }
    shown
}

impl Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.body())
    }
}

/// A webhook's refusal: a message ([`new`](Self::new), code 403 `Forbidden`), or
/// field errors ([`invalid`](Self::invalid), code 422 `Invalid`) that kube-apiserver
/// shows as it shows its own validation, with the Status apimachinery's
/// `errors.NewInvalid` makes (what kubebuilder's scaffold returns): message
/// `WebApp.example.com "web" is invalid: spec.image: ...` (several errors in
/// brackets), and `details` naming the object's `name`, `group` and `kind` with one
/// cause per field error (`reason` `FieldValueInvalid`..., `message`, `field`).
///
/// ```
/// use wheelhouse_webhook::{Denied, FieldError};
///
/// let denied = Denied::invalid([FieldError::invalid("spec.replicas", 0, "must be between 1 and 50")]);
/// assert_eq!(denied.to_string(), "spec.replicas: Invalid value: 0: must be between 1 and 50");
/// assert_eq!((denied.code(), denied.reason()), (422, "Invalid"));
/// assert_eq!(Denied::new("closed for maintenance").code(), 403);
/// assert_eq!(Denied::if_any(Vec::new()).ok(), Some(()));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Denied {
    message: String,
    field_errors: Vec<FieldError>,
    code: u16,
    reason: &'static str,
}

impl Denied {
    /// A refusal with `message`, shown to the user after
    /// `admission webhook "..." denied the request: `.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            field_errors: Vec::new(),
            code: 403,
            reason: "Forbidden",
        }
    }

    /// A refusal for these field errors: code 422, reason `Invalid`, as
    /// kube-apiserver refuses an object its own validation rejects.
    pub fn invalid(errors: impl IntoIterator<Item = FieldError>) -> Self {
        Self {
            field_errors: errors.into_iter().collect(),
            code: 422,
            reason: INVALID,
            ..Self::new("")
        }
    }

    /// `Err` with the errors when there are any: the end of a validation that collects
    /// every problem before answering, as kube-apiserver does.
    pub fn if_any(errors: Vec<FieldError>) -> Result<(), Self> {
        if errors.is_empty() {
            Ok(())
        } else {
            Err(Self::invalid(errors))
        }
    }

    /// The Status code and its reason (`Forbidden`, `BadRequest`, ...) instead of
    /// 403 `Forbidden` ([`new`](Self::new)) or 422 `Invalid` ([`invalid`](Self::invalid)).
    #[must_use]
    pub fn with_code(mut self, code: u16, reason: &'static str) -> Self {
        self.code = code;
        self.reason = reason;
        self
    }

    /// The message given to [`new`](Self::new), if any.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The field errors, if any.
    pub fn field_errors(&self) -> &[FieldError] {
        &self.field_errors
    }

    /// The Status code the answer carries (403, 422, or what [`with_code`](Self::with_code) set).
    pub fn code(&self) -> u16 {
        self.code
    }

    /// The Status reason the answer carries (`Forbidden`, `Invalid`, ...).
    pub fn reason(&self) -> &'static str {
        self.reason
    }

    /// The Status of the answer, for an object of `kind` named `name`.
    pub(crate) fn into_status(self, kind: &GroupVersionKind, name: &str) -> Status {
        let mut message = self.message;
        let causes: Vec<StatusCause> = self
            .field_errors
            .iter()
            .map(|e| StatusCause {
                reason: e.kind.cause().to_owned(),
                message: e.body(),
                field: e.field.clone(),
            })
            .collect();
        if !self.field_errors.is_empty() || (self.reason == INVALID && message.is_empty()) {
            let qualified = if kind.group.is_empty() {
                kind.kind.clone()
            } else {
                format!("{}.{}", kind.kind, kind.group)
            };
            // apimachinery leaves the colon out when there is nothing after it.
            let invalid = if self.field_errors.is_empty() {
                format!("{qualified} {name:?} is invalid")
            } else {
                format!("{qualified} {name:?} is invalid: {}", aggregate(&self.field_errors))
            };
            message = if message.is_empty() {
                invalid
            } else {
                format!("{message}: {invalid}")
            };
        }
        let status = Status::failure(&message, self.reason).with_code(self.code);
        if causes.is_empty() && self.reason != INVALID {
            return status;
        }
        status.with_details(StatusDetails {
            name: name.to_owned(),
            group: kind.group.clone(),
            kind: kind.kind.clone(),
            uid: String::new(),
            causes,
            retry_after_seconds: 0,
        })
    }
}

/// The reason of a refusal for field errors (`metav1.StatusReasonInvalid`).
const INVALID: &str = "Invalid";

/// apimachinery's aggregate: one error alone, several in brackets.
fn aggregate(errors: &[FieldError]) -> String {
    let messages: Vec<String> = errors.iter().map(ToString::to_string).collect();
    match messages.as_slice() {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}

impl Display for Denied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.message.is_empty(), self.field_errors.is_empty()) {
            (_, true) => f.write_str(&self.message),
            (true, false) => f.write_str(&aggregate(&self.field_errors)),
            (false, false) => write!(f, "{}: {}", self.message, aggregate(&self.field_errors)),
        }
    }
}

impl std::error::Error for Denied {}

#[cfg(test)]
mod tests {
    use super::*;

    fn webapp() -> GroupVersionKind {
        GroupVersionKind::gvk("example.com", "v1", "WebApp")
    }

    #[test]
    fn field_errors_read_as_kube_apiserver_writes_them() {
        assert_eq!(
            FieldError::invalid("spec.image", "nginx", "add a tag").to_string(),
            r#"spec.image: Invalid value: "nginx": add a tag"#
        );
        assert_eq!(
            FieldError::required("spec.image", "").to_string(),
            "spec.image: Required value"
        );
        assert_eq!(
            FieldError::forbidden("spec.port", "may not change").to_string(),
            "spec.port: Forbidden: may not change"
        );
        assert_eq!(
            FieldError::not_supported("spec.mode", "x", &["a", "b"]).to_string(),
            r#"spec.mode: Unsupported value: "x": supported values: "a", "b""#
        );
    }

    #[test]
    fn a_long_value_is_cut_so_a_denial_never_grows_with_it() {
        let long = "é".repeat(1024 * 1024);
        let shown = FieldError::invalid("spec.image", &long, "add a tag").to_string();
        assert!(shown.len() < 400, "{} bytes", shown.len());
        assert!(shown.starts_with(r#"spec.image: Invalid value: "ééé"#), "{shown}");
        assert!(
            shown.ends_with(&format!("...({} bytes): add a tag", long.len() + 2)),
            "{shown}"
        );
        let status =
            Denied::invalid([FieldError::invalid("spec.image", &long, "add a tag")]).into_status(&webapp(), "web");
        assert!(status.message.len() < 500);
    }

    #[test]
    fn one_invalid_field_is_a_422_that_names_the_object() {
        let status = Denied::invalid([FieldError::invalid("spec.replicas", 0, "between 1 and 50")])
            .into_status(&webapp(), "web");
        assert_eq!(status.code, 422);
        assert_eq!(status.reason, "Invalid");
        assert_eq!(status.status, Some(kube::core::response::StatusSummary::Failure));
        assert_eq!(
            status.message,
            r#"WebApp.example.com "web" is invalid: spec.replicas: Invalid value: 0: between 1 and 50"#
        );
        let details = status.details.unwrap();
        assert_eq!(details.kind, "WebApp");
        assert_eq!((details.group.as_str(), details.name.as_str()), ("example.com", "web"));
        assert_eq!(details.causes.len(), 1);
        assert_eq!(details.causes[0].message, "Invalid value: 0: between 1 and 50");
        assert_eq!(details.causes[0].field, "spec.replicas");
        assert_eq!(details.causes[0].reason, "FieldValueInvalid");
    }

    #[test]
    fn several_errors_are_bracketed_and_a_plain_denial_keeps_its_message() {
        let status = Denied::invalid([
            FieldError::required("spec.image", ""),
            FieldError::invalid("spec.port", 0, "1-65535"),
        ])
        .into_status(&GroupVersionKind::gvk("", "v1", "ConfigMap"), "c");
        assert_eq!(
            status.message,
            r#"ConfigMap "c" is invalid: [spec.image: Required value, spec.port: Invalid value: 0: 1-65535]"#
        );
        let status = Denied::new("closed for maintenance").into_status(&webapp(), "web");
        assert_eq!(status.message, "closed for maintenance");
        assert_eq!((status.code, status.reason.as_str()), (403, "Forbidden"));
        assert!(status.details.is_none());
        let status = Denied::invalid([]).into_status(&webapp(), "web");
        assert_eq!(status.message, r#"WebApp.example.com "web" is invalid"#);
        assert_eq!(status.code, 422);
        assert!(status.details.unwrap().causes.is_empty());
    }
}
