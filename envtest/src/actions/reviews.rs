//! The review resources: created, answered, never stored. With no authentication or
//! authorization in the embedded server, every access review is allowed (as with
//! kube-apiserver's `AlwaysAllow` authorizer), no bearer token is valid, and the user
//! asking is an administrator.

use serde_json::{Value, json};

use crate::registry::ResourceType;
use crate::rules::check_type;
use crate::status::ApiError;

/// The review `body` with the server's answer in its `status`.
pub(super) fn answer(resource: &ResourceType, body: &Value) -> Result<Value, ApiError> {
    check_type(resource, body)?;
    if let Some(builtin) = resource.catalogue() {
        builtin.decode(body).map_err(|error| {
            ApiError::bad_request(format!(
                "{} in version \"{}\" cannot be handled as a {}: {error}",
                resource.kind, resource.version, resource.kind
            ))
        })?;
    }
    let status = match resource.kind.as_str() {
        "SubjectAccessReview" | "SelfSubjectAccessReview" | "LocalSubjectAccessReview" => {
            json!({"allowed": true, "reason": "the embedded API server authorizes every request"})
        }
        "SelfSubjectRulesReview" => json!({
            "resourceRules": [{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]}],
            "nonResourceRules": [{"verbs": ["*"], "nonResourceURLs": ["*"]}],
            "incomplete": false,
        }),
        "TokenReview" => json!({"user": {}, "error": "invalid bearer token"}),
        "SelfSubjectReview" => {
            json!({"userInfo": {"username": "system:admin", "groups": ["system:masters", "system:authenticated"]}})
        }
        _ => return Err(ApiError::method_not_allowed()),
    };
    let mut answer = body.clone();
    if !answer["metadata"].is_object() {
        answer["metadata"] = json!({});
    }
    answer["metadata"]["creationTimestamp"] = Value::Null;
    answer["status"] = status;
    Ok(answer)
}
