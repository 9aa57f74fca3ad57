//! Creates that act instead of storing: binding a pod to a node (`pods/binding` and
//! `bindings`), evicting a pod within its disruption budget (`pods/eviction`), and the
//! review resources whose answer is computed (`SubjectAccessReview` and friends from
//! the stored RBAC objects, `TokenReview`, `SelfSubjectReview`), and `ServiceAccount`
//! tokens (`serviceaccounts/token`).
//!
//! kube-apiserver: `pkg/registry/core/pod/storage/storage.go` (`BindingREST`),
//! `pkg/registry/core/pod/storage/eviction.go` (`EvictionREST`),
//! `pkg/registry/authorization/*/rest.go` and `pkg/registry/authentication/*/storage.go`.

mod binding;
#[cfg(feature = "workloads")]
pub(crate) use self::binding::bind_pod;
mod eviction;

use http::StatusCode;
use serde_json::{Value, json};

use crate::authz::{reviews, tokens};
use crate::core::ApiError;
use crate::request::Target;
use crate::state::ApiServer;

/// Carries out a create on a subresource (`pods/binding`, `pods/eviction`) or of a
/// create-only resource, by `manager` (the field manager the reviews record); the
/// JSON answer and its code.
pub(crate) fn create(
    server: &ApiServer,
    target: &Target,
    body: &Value,
    manager: &str,
) -> Result<(StatusCode, Value), ApiError> {
    let resource = &target.resource;
    let namespace = target.namespace.as_deref().unwrap_or_default();
    match (
        resource.group.as_str(),
        resource.plural.as_str(),
        target.subresource.as_deref(),
    ) {
        ("", "pods", Some("binding")) | ("", "bindings", None) => {
            binding::bind(server, namespace, target.name.as_deref(), body, target.dry_run())?;
            Ok((StatusCode::CREATED, success(201)))
        }
        ("", "pods", Some("eviction")) => {
            let name = target.name.as_deref().unwrap_or_default();
            match eviction::evict(server, namespace, name, body, target.dry_run.as_deref())? {
                eviction::Evicted::Success => Ok((StatusCode::CREATED, success(201))),
                // A failure returned as the eviction's result: its code is the answer's.
                eviction::Evicted::Status(code, message) => Ok((
                    StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
                    json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": message, "code": code}),
                )),
            }
        }
        ("", "serviceaccounts", Some("token")) => {
            let name = target.name.as_deref().unwrap_or_default();
            Ok((StatusCode::CREATED, tokens::request(server, namespace, name, body)?))
        }
        _ if !resource.stored() && target.subresource.is_none() => {
            Ok((StatusCode::CREATED, reviews::answer(server, target, body, manager)?))
        }
        _ => Err(ApiError::method_not_allowed()),
    }
}

/// The `Status` a successful action answers with.
fn success(code: u16) -> Value {
    json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": code})
}

/// The body's `metadata.name` must be the object of the URL (when the URL names one).
fn check_name(url_name: Option<&str>, body: &Value, kind: &str) -> Result<String, ApiError> {
    let name = body["metadata"]["name"].as_str().unwrap_or_default();
    match url_name {
        Some(url_name) if url_name != name => Err(ApiError::bad_request(format!(
            "name in URL does not match name in {kind} object"
        ))),
        _ if name.is_empty() => Err(ApiError::bad_request(format!("{kind}: metadata.name: Required value"))),
        _ => Ok(name.to_owned()),
    }
}
