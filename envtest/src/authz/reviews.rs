//! The review resources: created, answered, never stored. Access reviews are decided
//! by the RBAC objects stored in the server ([`authorizer`]); a `TokenReview`
//! authenticates the `ServiceAccount` tokens the server issued ([`tokens`]).
//! The server itself still serves every request to everyone: the reviews are for the
//! programs under test that ask them (a metrics endpoint's authorization, say). A
//! request without a user (a plain `ApiServer` handle) is an administrator's
//! (`system:masters`); one from [`ApiServer::as_user`] is that user's.

use serde_json::{Value, json};

use super::authorizer::{self, Attributes, Subject};
use super::tokens;
use crate::core::ApiError;
use crate::lifecycle::check_type;
use crate::request::Target;
use crate::state::ApiServer;

/// The review `body` with the server's answer in its `status`.
pub(crate) fn answer(server: &ApiServer, target: &Target, body: &Value, manager: &str) -> Result<Value, ApiError> {
    let resource = &target.resource;
    check_type(resource, body)?;
    // Decoded as any create body is: Go's decoder's refusals, and the review as its Go
    // type holds it (nulls and unknown fields gone, zero `omitempty` fields left out).
    let mut decoded = body.clone();
    crate::objects::decode(resource, &mut decoded)?;
    let body = &decoded;
    // kube-apiserver validates a review before answering it
    // (`pkg/apis/authorization/validation`), the namespace of a local review's URL
    // in its metadata.
    let mut reviewed = body.clone();
    if let Some(namespace) = target.namespace.as_deref()
        && reviewed.is_object()
    {
        if !reviewed["metadata"].is_object() {
            reviewed["metadata"] = json!({});
        }
        if reviewed["metadata"]["namespace"].is_null() {
            reviewed["metadata"]["namespace"] = json!(namespace);
        }
    }
    let kind = wheelhouse_envtest_validation::Kind {
        group: &resource.group,
        version: &resource.version,
        kind: &resource.kind,
        namespaced: resource.namespaced,
    };
    // A rules review's REST handler wants a namespace before anything else, and
    // validates nothing more.
    if resource.kind == "SelfSubjectRulesReview" && body["spec"]["namespace"].as_str().is_none_or(str::is_empty) {
        return Err(ApiError::bad_request("no namespace on request"));
    }
    let errors =
        wheelhouse_envtest_validation::validate(&kind, &reviewed, wheelhouse_envtest_validation::Write::Create);
    if !errors.is_empty() {
        let causes: Vec<(&str, &str, String)> = errors
            .iter()
            .map(|error| (error.field.as_str(), error.kind.reason(), error.body()))
            .collect();
        // The authorization reviews' REST handlers name the decoded internal object's
        // kind, which decoding left empty: `.authorization.k8s.io "" is invalid`.
        if resource.group == "authorization.k8s.io" {
            return Err(ApiError::invalid_kind(&resource.group, "", "", &causes));
        }
        return Err(ApiError::invalid(resource, "", &causes));
    }
    let requester = match server.user() {
        Some(user) => Subject::named(user),
        None => Subject {
            user: crate::core::ADMIN.to_owned(),
            groups: crate::core::ADMIN_GROUPS.map(str::to_owned).to_vec(),
        },
    };
    let spec = &body["spec"];
    let status = match resource.kind.as_str() {
        "SubjectAccessReview" => access(server, &subject_of(spec)?, spec, None)?,
        "LocalSubjectAccessReview" => {
            let namespace = target.namespace.as_deref().unwrap_or_default();
            access(server, &subject_of(spec)?, spec, Some(namespace))?
        }
        "SelfSubjectAccessReview" => access(server, &requester, spec, None)?,
        "SelfSubjectRulesReview" if requester.groups.iter().any(|g| g == "system:masters") => {
            // `cluster-admin`'s rules with those of the default roles every
            // authenticated user is bound to (`system:basic-user`,
            // `system:discovery`, `system:public-info-viewer`), in the order 1.32
            // lists them; the handler answers a new review holding only them.
            let status = json!({
                "resourceRules": [
                    {"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]},
                    {"verbs": ["create"], "apiGroups": ["authorization.k8s.io"],
                     "resources": ["selfsubjectaccessreviews", "selfsubjectrulesreviews"]},
                    {"verbs": ["create"], "apiGroups": ["authentication.k8s.io"], "resources": ["selfsubjectreviews"]},
                ],
                "nonResourceRules": [
                    {"verbs": ["get"], "nonResourceURLs": ["/healthz", "/livez", "/readyz", "/version", "/version/"]},
                    {"verbs": ["*"], "nonResourceURLs": ["*"]},
                    {"verbs": ["get"], "nonResourceURLs": ["/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez",
                                                          "/openapi", "/openapi/*", "/readyz", "/version", "/version/"]},
                ],
                "incomplete": false,
            });
            return Ok(json!({
                "apiVersion": resource.api_version(), "kind": resource.kind.clone(),
                "metadata": {"creationTimestamp": null}, "spec": {}, "status": status,
            }));
        }
        "SelfSubjectRulesReview" => json!({
            "resourceRules": [],
            "nonResourceRules": [],
            "incomplete": true,
            "evaluationError": "the embedded API server lists rules only for administrators",
        }),
        "TokenReview" => tokens::review(server, spec)?,
        "SelfSubjectReview" => json!({"userInfo": requester_info(server)}),
        _ => return Err(ApiError::method_not_allowed()),
    };
    // The create handler's field manager records the requester's fields, as for any
    // create.
    let mut answer = body.clone();
    if !answer["metadata"].is_object() {
        answer["metadata"] = json!({});
    }
    crate::lifecycle::record_create(resource, &mut answer, manager, &crate::lifecycle::now());
    answer["metadata"]["creationTimestamp"] = Value::Null;
    answer["status"] = status;
    Ok(answer)
}

/// The user and groups a `SubjectAccessReview` asks about.
fn subject_of(spec: &Value) -> Result<Subject, ApiError> {
    let user = spec["user"].as_str().unwrap_or_default().to_owned();
    let groups: Vec<String> = spec["groups"]
        .as_array()
        .map(|groups| groups.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default();
    if user.is_empty() && groups.is_empty() {
        return Err(invalid(
            "spec.user: Invalid value: \"\": at least one of user or group must be specified",
        ));
    }
    Ok(Subject { user, groups })
}

/// An access review's `status`: the request of `spec` decided for `subject`. A local
/// review's `namespace` (from its URL) must be its attributes' namespace.
fn access(server: &ApiServer, subject: &Subject, spec: &Value, namespace: Option<&str>) -> Result<Value, ApiError> {
    let text = |value: &Value, field: &str| value[field].as_str().unwrap_or_default().to_owned();
    let attributes = match (
        spec["resourceAttributes"].as_object(),
        spec["nonResourceAttributes"].as_object(),
    ) {
        (Some(_), None) => {
            let resource = &spec["resourceAttributes"];
            let asked = text(resource, "namespace");
            if let Some(namespace) = namespace
                && asked != namespace
            {
                return Err(invalid(&format!(
                    "spec.resourceAttributes.namespace: Invalid value: \"{asked}\": must match metadata.namespace"
                )));
            }
            Attributes::Resource {
                namespace: asked,
                verb: text(resource, "verb"),
                group: text(resource, "group"),
                resource: text(resource, "resource"),
                subresource: text(resource, "subresource"),
                name: text(resource, "name"),
            }
        }
        (None, Some(_)) => {
            let url = &spec["nonResourceAttributes"];
            Attributes::NonResource {
                path: text(url, "path"),
                verb: text(url, "verb"),
            }
        }
        _ => {
            return Err(invalid(
                "spec.resourceAttributes: Invalid value: \"null\": exactly one of nonResourceAttributes or resourceAttributes must be specified",
            ));
        }
    };
    let decision = authorizer::authorize(&server.shared.state.lock(), subject, &attributes);
    let mut status = json!({"allowed": decision.allowed});
    if !decision.reason.is_empty() {
        status["reason"] = json!(decision.reason);
    }
    if !decision.evaluation_errors.is_empty() {
        status["evaluationError"] = json!(decision.evaluation_errors.join(", "));
    }
    Ok(status)
}

fn invalid(why: &str) -> ApiError {
    ApiError::new(
        422,
        "Invalid",
        format!("SubjectAccessReview.authorization.k8s.io \"\" is invalid: {why}"),
    )
}

/// The requesting user as a `UserInfo`: the administrator's (with its uid), or a user
/// named by `ApiServer::as_user` (a name and its groups, no uid, as kube-apiserver's
/// impersonation gives).
pub(crate) fn requester_info(server: &ApiServer) -> Value {
    match server.user() {
        Some(user) => {
            let subject = Subject::named(user);
            json!({"username": subject.user, "groups": subject.groups})
        }
        None => crate::core::admin_user_info(),
    }
}
