//! Errors as the real API server reports them: an HTTP code and a `Status` object with
//! the same reason, message and details, so clients (kube, kubectl) react the same way.

use std::borrow::Cow;

use serde_json::{Value, json};

use super::ResourceType;

/// A failed request: what the client receives as a `Status`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ApiError {
    pub code: u16,
    pub reason: Cow<'static, str>,
    pub message: String,
    pub details: Option<Value>,
    /// Seconds a client should wait before retrying (429 and some 5xx).
    pub retry_after: Option<u64>,
    /// Answered as kube-apiserver's plain-text `404 page not found`, not a `Status`.
    pub plain_text: bool,
}

impl ApiError {
    pub fn new(code: u16, reason: impl Into<Cow<'static, str>>, message: impl Into<String>) -> Self {
        Self {
            code,
            reason: reason.into(),
            message: message.into(),
            details: None,
            retry_after: None,
            plain_text: false,
        }
    }

    fn with_details(mut self, resource: &ResourceType, name: &str) -> Self {
        let mut details = json!({"name": name, "kind": resource.plural});
        if !resource.group.is_empty() {
            details["group"] = json!(resource.group);
        }
        self.details = Some(details);
        self
    }

    pub fn not_found(resource: &ResourceType, name: &str) -> Self {
        Self::new(
            404,
            "NotFound",
            format!("{} \"{name}\" not found", resource.qualified()),
        )
        .with_details(resource, name)
    }

    pub fn namespace_not_found(namespace: &str) -> Self {
        let mut error = Self::new(404, "NotFound", format!("namespaces \"{namespace}\" not found"));
        error.details = Some(json!({"name": namespace, "kind": "namespaces"}));
        error
    }

    /// An admission plugin's refusal (`admission.NewForbidden`).
    pub fn forbidden(resource: &ResourceType, name: &str, why: &str) -> Self {
        let message = format!("{} \"{name}\" is forbidden: {why}", resource.qualified());
        Self::new(403, "Forbidden", message).with_details(resource, name)
    }

    pub fn already_exists(resource: &ResourceType, name: &str) -> Self {
        Self::new(
            409,
            "AlreadyExists",
            format!("{} \"{name}\" already exists", resource.qualified()),
        )
        .with_details(resource, name)
    }

    pub fn conflict(resource: &ResourceType, name: &str, why: &str) -> Self {
        let message = format!(
            "Operation cannot be fulfilled on {} \"{name}\": {why}",
            resource.qualified()
        );
        Self::new(409, "Conflict", message).with_details(resource, name)
    }

    pub fn stale(resource: &ResourceType, name: &str) -> Self {
        Self::conflict(
            resource,
            name,
            "the object has been modified; please apply your changes to the latest version and try again",
        )
    }

    /// 422: the object breaks a validation rule; `field` and `detail` as the real
    /// server's causes (for example `metadata.name`, `Required value: ...`). The kind
    /// is the stored type's (`rest.BeforeCreate` names the internal object's kind), so
    /// an events.k8s.io Event is refused as a core `Event`.
    pub fn invalid(resource: &ResourceType, name: &str, causes: &[(&str, &str, String)]) -> Self {
        Self::invalid_kind(&resource.storage().group, &resource.kind, name, causes)
    }

    /// [`invalid`](Self::invalid) of any group and kind, such as `ListOptions` of
    /// `meta.k8s.io` (`errors.NewInvalid(groupKind, name, errs)`).
    pub fn invalid_kind(group: &str, kind: &str, name: &str, causes: &[(&str, &str, String)]) -> Self {
        // Each distinct error once, as `ToAggregate` writes the summary.
        let mut summary: Vec<String> = Vec::new();
        for (field, _, detail) in causes {
            let line = format!("{field}: {detail}");
            if !summary.contains(&line) {
                summary.push(line);
            }
        }
        let summary = if summary.len() == 1 {
            summary[0].clone()
        } else {
            format!("[{}]", summary.join(", "))
        };
        // `Kind.group`, as kube-apiserver names the kind (`qualifiedKind.String()`).
        let qualified = if group.is_empty() {
            kind.to_owned()
        } else {
            format!("{kind}.{group}")
        };
        let message = format!("{qualified} \"{name}\" is invalid: {summary}");
        let causes: Vec<Value> = causes
            .iter()
            .map(|(field, reason, detail)| json!({"reason": reason, "message": detail, "field": field}))
            .collect();
        let mut details = json!({"name": name, "kind": kind, "causes": causes});
        // Go's `omitempty`: the options of a request have no name to give, a patch
        // that does not decode no kind either.
        if let Some(details) = details.as_object_mut() {
            if name.is_empty() {
                details.remove("name");
            }
            if kind.is_empty() {
                details.remove("kind");
            }
        }
        if !group.is_empty() {
            details["group"] = json!(group);
        }
        Self {
            details: Some(details),
            ..Self::new(422, "Invalid", message)
        }
    }

    /// A patch whose result does not decode as the type: kube-apiserver's 422 of the
    /// `patch` (`errors.NewInvalid(schema.GroupKind{}, "", ...)`), quoting the patched
    /// object's JSON and the decoder's complaint.
    pub fn invalid_patch(patched: &str, why: &str) -> Self {
        let quoted = wheelhouse_envtest_schema::errors::go_quote(patched);
        Self::invalid_kind(
            "",
            "",
            "",
            &[("patch", "FieldValueInvalid", format!("Invalid value: {quoted}: {why}"))],
        )
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(400, "BadRequest", message)
    }

    pub fn gone(message: impl Into<String>) -> Self {
        Self::new(410, "Expired", message)
    }

    /// The router's 405 (`NewGenericServerResponse` with nothing to name: empty
    /// details, written as `{}`).
    pub fn method_not_allowed() -> Self {
        let mut error = Self::new(
            405,
            "MethodNotAllowed",
            "the server does not allow this method on the requested resource",
        );
        error.details = Some(json!({}));
        error
    }

    /// A path under an API group the server does not serve: kube-apiserver's handler
    /// chain finds no group and Go's mux answers in plain text.
    pub fn page_not_found() -> Self {
        let mut error = Self::new(404, "NotFound", "404 page not found");
        error.plain_text = true;
        error
    }

    pub fn path_not_found() -> Self {
        Self::new(404, "NotFound", "the server could not find the requested resource")
    }

    /// The `Status` object.
    pub fn to_status(&self) -> Value {
        let mut status = json!({
            "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": self.message, "reason": self.reason, "code": self.code,
        });
        // Go omits an unknown (empty) reason, as a conversion webhook's failure has.
        if self.reason.is_empty()
            && let Some(fields) = status.as_object_mut()
        {
            fields.remove("reason");
        }
        if let Some(details) = &self.details {
            status["details"] = details.clone();
        }
        if let Some(seconds) = self.retry_after {
            status["details"]["retryAfterSeconds"] = json!(seconds);
        }
        status
    }
}
