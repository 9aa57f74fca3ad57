//! `ServiceAccount` tokens: `serviceaccounts/token` (a `TokenRequest`) issues one, and a
//! `TokenReview` authenticates it, as kube-apiserver does for bound tokens: valid until
//! it expires, for the audiences it was issued for, and while its `ServiceAccount` (the
//! same one, by uid) exists. Tokens are opaque here, not signed JWTs: a client hands
//! them back without reading them.
//!
//! kube-apiserver: `pkg/registry/core/serviceaccount/storage/token.go` and
//! `pkg/serviceaccount/claims.go`.

use std::fmt::Write as _;

use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};

use super::authorizer::Subject;
use crate::core::{ApiError, GroupResource};
use crate::state::{ApiServer, Issued};

/// What kube-apiserver's `--api-audiences` is by default on kind, k3s and kubeadm: the
/// audience of a token asked for without one, and of a review that names none.
const API_AUDIENCE: &str = "https://kubernetes.default.svc.cluster.local";
const DEFAULT_EXPIRATION_SECONDS: i64 = 3600;
const MIN_EXPIRATION_SECONDS: i64 = 600;

/// Issues a token for the `ServiceAccount` `namespace/name` from the `TokenRequest` `body`.
pub(crate) fn request(server: &ApiServer, namespace: &str, name: &str, body: &Value) -> Result<Value, ApiError> {
    let spec = &body["spec"];
    let expiration = spec["expirationSeconds"].as_i64().unwrap_or(DEFAULT_EXPIRATION_SECONDS);
    if expiration < MIN_EXPIRATION_SECONDS {
        return Err(ApiError::new(
            422,
            "Invalid",
            format!(
                "TokenRequest.authentication.k8s.io \"{name}\" is invalid: spec.expirationSeconds: Invalid value: {expiration}: may not specify a duration less than 10 minutes"
            ),
        ));
    }
    let audiences = audiences_of(&spec["audiences"]);
    let uid = {
        let state = server.shared.state.lock();
        let account = state.store.get(&service_accounts(), namespace, name).ok_or_else(|| {
            let mut error = ApiError::new(404, "NotFound", format!("serviceaccounts \"{name}\" not found"));
            error.details = Some(json!({"name": name, "kind": "serviceaccounts"}));
            error
        })?;
        account["metadata"]["uid"].as_str().unwrap_or_default().to_owned()
    };
    let now = Timestamp::now();
    let expires = now
        .checked_add(SignedDuration::from_secs(expiration))
        .unwrap_or(Timestamp::MAX);
    let token = new_token();
    server.shared.tokens.lock().insert(
        token.clone(),
        Issued {
            namespace: namespace.to_owned(),
            service_account: name.to_owned(),
            uid,
            audiences: audiences.clone(),
            expires,
        },
    );
    Ok(json!({
        "kind": "TokenRequest",
        "apiVersion": "authentication.k8s.io/v1",
        "metadata": {"name": name, "namespace": namespace, "creationTimestamp": seconds(now)},
        "spec": {"audiences": audiences, "expirationSeconds": expiration, "boundObjectRef": spec["boundObjectRef"]},
        "status": {"token": token, "expirationTimestamp": seconds(expires)},
    }))
}

/// A `TokenReview`'s `status` for its `spec`.
pub(super) fn review(server: &ApiServer, spec: &Value) -> Result<Value, ApiError> {
    let token = spec["token"].as_str().unwrap_or_default();
    if token.is_empty() {
        return Err(ApiError::bad_request(
            "token is required for TokenReview in authentication",
        ));
    }
    let wanted = audiences_of(&spec["audiences"]);
    let invalid = || json!({"user": {}, "error": "invalid bearer token"});
    let Some((subject, uid, audiences)) = authenticate(server, token) else {
        return Ok(invalid());
    };
    let common: Vec<&String> = audiences.iter().filter(|a| wanted.contains(a)).collect();
    if common.is_empty() {
        return Ok(json!({
            "user": {},
            "error": format!("[invalid bearer token, token audiences {audiences:?} is invalid for the target audiences {wanted:?}]"),
        }));
    }
    Ok(json!({
        "authenticated": true,
        "user": {"username": subject.user, "uid": uid, "groups": subject.groups},
        "audiences": common,
    }))
}

/// The user a valid token names, with its `ServiceAccount`'s uid and the token's
/// audiences; None for a token never issued, expired, or whose `ServiceAccount` is gone.
pub(crate) fn authenticate(server: &ApiServer, token: &str) -> Option<(Subject, String, Vec<String>)> {
    let issued = server.shared.tokens.lock().get(token).cloned()?;
    if issued.expires <= Timestamp::now() {
        return None;
    }
    let state = server.shared.state.lock();
    let account = state
        .store
        .get(&service_accounts(), &issued.namespace, &issued.service_account)?;
    if account["metadata"]["uid"].as_str() != Some(issued.uid.as_str()) {
        return None;
    }
    let user = format!("system:serviceaccount:{}:{}", issued.namespace, issued.service_account);
    Some((Subject::named(&user), issued.uid, issued.audiences))
}

fn audiences_of(value: &Value) -> Vec<String> {
    let audiences: Vec<String> = value
        .as_array()
        .map(|values| values.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default();
    if audiences.is_empty() {
        vec![API_AUDIENCE.to_owned()]
    } else {
        audiences
    }
}

fn service_accounts() -> GroupResource {
    GroupResource {
        group: String::new(),
        resource: "serviceaccounts".to_owned(),
    }
}

fn seconds(timestamp: Timestamp) -> String {
    timestamp.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// 32 random bytes, hex: as unguessable as a signed token, and visibly not a JWT.
fn new_token() -> String {
    let bytes: [u8; 32] = rand::random();
    bytes.iter().fold(String::from("envtest."), |mut token, byte| {
        let _ = write!(token, "{byte:02x}");
        token
    })
}
