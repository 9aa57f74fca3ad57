//! `ServiceAccount` tokens as kube-apiserver issues and authenticates them:
//! `serviceaccounts/token` (a `TokenRequest`) signs a JWT (RS256, `kid`) with the
//! claims kube writes (`aud`, `exp`, `iat`, `iss`, `jti`, `nbf`, `sub` and the
//! `kubernetes.io` claims naming the namespace, the `ServiceAccount` and the object the
//! token is bound to), and a `TokenReview` (or a request carrying the token) verifies
//! the signature, the times, the audiences and that the `ServiceAccount` and bound object
//! still exist with the same uid.
//!
//! kube-apiserver: `pkg/registry/core/serviceaccount/storage/token.go` (`Create`),
//! `pkg/serviceaccount/claims.go` (`Claims`, `Validate`), `pkg/serviceaccount/jwt.go`
//! (`AuthenticateToken`), `apiserver/pkg/authentication/serviceaccount/util.go`
//! (`UserInfo`). Feature gates as 1.32 has them: `ServiceAccountTokenJTI`,
//! `ServiceAccountTokenPodNodeInfo`, `ServiceAccountTokenNodeBinding` and its validation
//! on; `--service-account-extend-token-expiration` on, no maximum expiration.

mod signing;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use jiff::{SignedDuration, Timestamp};
use serde_json::{Value, json};
use wheelhouse_envtest_schema::errors::go_quote;

use super::authorizer::Subject;
use crate::core::{ApiError, GroupResource};
use crate::state::ApiServer;

pub(crate) use self::signing::key as signing_key;

/// The issuer (`--service-account-issuer`) and the API audience (`--api-audiences`,
/// the issuer when not set), as kind sets them: the audience of a token asked for
/// without one, and of a review or request that names none.
pub(crate) const ISSUER: &str = "https://kubernetes.default.svc.cluster.local";
const DEFAULT_EXPIRATION_SECONDS: i64 = 3600;
const MIN_EXPIRATION_SECONDS: i64 = 600;
const MAX_EXPIRATION_SECONDS: i64 = 1 << 32;
/// `WarnOnlyBoundTokenExpirationSeconds`: what the kubelet asks for, which kube extends
/// to `ExpirationExtensionSeconds` (a year), with `warnafter` at the asked time.
const WARN_ONLY_EXPIRATION_SECONDS: i64 = 60 * 60 + 7;
const EXTENDED_EXPIRATION_SECONDS: i64 = 24 * 365 * 60 * 60;
/// go-jose's `DefaultLeeway`, for the times and for deletions.
const LEEWAY_SECONDS: i64 = 60;

/// Issues a token for the `ServiceAccount` `namespace/name` from the `TokenRequest` `body`.
pub(crate) fn request(server: &ApiServer, namespace: &str, name: &str, body: &Value) -> Result<Value, ApiError> {
    let invalid = |error_name: &str, field: &str, value: String, detail: &str| {
        ApiError::invalid_kind(
            "authentication.k8s.io",
            "TokenRequest",
            error_name,
            &[(field, "FieldValueInvalid", format!("Invalid value: {value}: {detail}"))],
        )
    };
    let metadata = &body["metadata"];
    if let Some(given) = metadata["name"]
        .as_str()
        .filter(|given| !given.is_empty() && *given != name)
    {
        return Err(invalid(
            name,
            "metadata.name",
            go_quote(given),
            "must match the service account name if specified",
        ));
    }
    if let Some(given) = metadata["namespace"]
        .as_str()
        .filter(|given| !given.is_empty() && *given != namespace)
    {
        return Err(invalid(
            name,
            "metadata.namespace",
            go_quote(given),
            "must match the service account namespace if specified",
        ));
    }
    let account = {
        let state = server.shared.state.lock();
        state
            .store
            .get(&core("serviceaccounts"), namespace, name)
            .ok_or_else(|| not_found("serviceaccounts", name))?
    };
    let spec = &body["spec"];
    let mut audiences = strings(&spec["audiences"]);
    if audiences.is_empty() {
        audiences = vec![ISSUER.to_owned()];
    }
    let now = Timestamp::now();
    let mut expiration = spec["expirationSeconds"].as_i64().unwrap_or(DEFAULT_EXPIRATION_SECONDS);
    if expiration < MIN_EXPIRATION_SECONDS {
        return Err(invalid(
            "",
            "spec.expirationSeconds",
            expiration.to_string(),
            "may not specify a duration less than 10 minutes",
        ));
    }
    if expiration > MAX_EXPIRATION_SECONDS {
        return Err(invalid(
            "",
            "spec.expirationSeconds",
            expiration.to_string(),
            "may not specify a duration larger than 2^32 seconds",
        ));
    }
    let bound = bound_object(server, namespace, name, &spec["boundObjectRef"])?;
    let requested = expiration;
    let mut warn_after = None;
    if matches!(bound, Bound::Pod { .. })
        && expiration == WARN_ONLY_EXPIRATION_SECONDS
        && audiences.iter().all(|audience| audience == ISSUER)
    {
        warn_after = Some(expiration);
        expiration = EXTENDED_EXPIRATION_SECONDS;
    }
    let claims = claims(&account, namespace, &bound, now, expiration, warn_after, &audiences);
    let token = signing_key()
        .and_then(|key| key.sign(&claims))
        .map_err(|error| ApiError::new(500, "InternalError", format!("failed to generate token: {error}")))?;
    Ok(json!({
        "kind": "TokenRequest",
        "apiVersion": "authentication.k8s.io/v1",
        "metadata": {"name": name, "namespace": namespace, "creationTimestamp": seconds(now)},
        "spec": {"audiences": audiences, "expirationSeconds": requested, "boundObjectRef": spec["boundObjectRef"]},
        "status": {"token": token, "expirationTimestamp": seconds(after(now, requested))},
    }))
}

/// The object a token is bound to (`spec.boundObjectRef`), as `TokenREST.Create` finds it.
enum Bound {
    None,
    Pod { pod: Value, node: Option<Value> },
    Secret(Value),
    Node(Value),
}

fn bound_object(server: &ApiServer, namespace: &str, account: &str, reference: &Value) -> Result<Bound, ApiError> {
    if !reference.is_object() {
        return Ok(Bound::None);
    }
    let kind = reference["kind"].as_str().unwrap_or_default();
    let (group, version) = group_version(reference["apiVersion"].as_str().unwrap_or_default());
    let name = reference["name"].as_str().unwrap_or_default();
    let state = server.shared.state.lock();
    let get = |resource: &str, namespace: &str, name: &str| {
        state
            .store
            .get(&core(resource), namespace, name)
            .map(|object| (*object).clone())
            .ok_or_else(|| not_found(resource, name))
    };
    let bound = match (group, kind) {
        ("", "Pod") => {
            let pod = get("pods", namespace, name)?;
            if pod["spec"]["serviceAccountName"].as_str().unwrap_or_default() != account {
                return Err(ApiError::bad_request(format!(
                    "cannot bind token for serviceaccount {} to pod running with different serviceaccount name.",
                    go_quote(account)
                )));
            }
            // A node that does not exist still lends its name, so a client can see
            // where the pod was placed.
            let node = pod["spec"]["nodeName"]
                .as_str()
                .filter(|node| !node.is_empty())
                .map(|node| get("nodes", "", node).unwrap_or_else(|_| json!({"metadata": {"name": node}})));
            Bound::Pod { pod, node }
        }
        ("", "Node") => Bound::Node(get("nodes", "", name)?),
        ("", "Secret") => Bound::Secret(get("secrets", namespace, name)?),
        _ => {
            return Err(ApiError::bad_request(format!(
                "cannot bind token to object of type {group}/{version}, Kind={kind}"
            )));
        }
    };
    let uid = match &bound {
        Bound::Pod { pod: object, .. } | Bound::Secret(object) | Bound::Node(object) => uid_of(object),
        Bound::None => "",
    };
    let wanted = reference["uid"].as_str().unwrap_or_default();
    if !wanted.is_empty() && wanted != uid {
        let mut error = ApiError::new(
            409,
            "Conflict",
            format!(
                "Operation cannot be fulfilled on {kind} \"{name}\": the UID in the bound object reference ({wanted}) does not match the UID in record. The object might have been deleted and then recreated"
            ),
        );
        error.details = Some(json!({"name": name, "kind": kind}));
        return Err(error);
    }
    Ok(bound)
}

/// `schema.ParseGroupVersion` as `FromAPIVersionAndKind` uses it: `v1` is the core
/// group, `g/v` a group, anything else neither.
fn group_version(api_version: &str) -> (&str, &str) {
    match api_version.split_once('/') {
        None => ("", api_version),
        Some((_, rest)) if rest.contains('/') => ("", ""),
        Some((group, version)) => (group, version),
    }
}

/// `serviceaccount.Claims`: the public claims and kube's private ones, in one map
/// (go-jose merges them, and writes the keys sorted, as a `Value` does).
fn claims(
    account: &Value,
    namespace: &str,
    bound: &Bound,
    now: Timestamp,
    expiration: i64,
    warn_after: Option<i64>,
    audiences: &[String],
) -> Value {
    let name = account["metadata"]["name"].as_str().unwrap_or_default();
    let mut kubernetes = json!({
        "namespace": namespace,
        "serviceaccount": reference(account),
    });
    match bound {
        Bound::Pod { pod, node } => {
            kubernetes["pod"] = reference(pod);
            if let Some(node) = node {
                kubernetes["node"] = reference(node);
            }
        }
        Bound::Secret(secret) => kubernetes["secret"] = reference(secret),
        Bound::Node(node) => kubernetes["node"] = reference(node),
        Bound::None => {}
    }
    if let Some(warn_after) = warn_after {
        kubernetes["warnafter"] = json!(after(now, warn_after).as_second());
    }
    json!({
        "aud": audiences,
        "exp": after(now, expiration).as_second(),
        "iat": now.as_second(),
        "iss": ISSUER,
        "jti": new_uuid(),
        "kubernetes.io": kubernetes,
        "nbf": now.as_second(),
        "sub": format!("system:serviceaccount:{namespace}:{name}"),
    })
}

/// A claim's `ref`: name and uid, each left out when empty.
fn reference(object: &Value) -> Value {
    let mut reference = serde_json::Map::new();
    for (key, value) in [
        ("name", &object["metadata"]["name"]),
        ("uid", &object["metadata"]["uid"]),
    ] {
        if let Some(text) = value.as_str().filter(|text| !text.is_empty()) {
            reference.insert(key.to_owned(), json!(text));
        }
    }
    Value::Object(reference)
}

/// A `TokenReview`'s `status` for its `spec`.
pub(super) fn review(server: &ApiServer, spec: &Value) -> Result<Value, ApiError> {
    let token = spec["token"].as_str().unwrap_or_default();
    if token.is_empty() {
        return Err(ApiError::bad_request(
            "token is required for TokenReview in authentication",
        ));
    }
    let mut wanted = strings(&spec["audiences"]);
    if wanted.is_empty() {
        wanted = vec![ISSUER.to_owned()];
    }
    Ok(match authenticate(server, token, &wanted) {
        Ok(user) => {
            let mut answer = json!({
                "username": user.subject.user, "uid": user.uid, "groups": user.subject.groups,
            });
            if !user.extra.is_empty() {
                answer["extra"] = json!(user.extra);
            }
            json!({"authenticated": true, "user": answer, "audiences": user.audiences})
        }
        Err(error) => json!({"user": {}, "error": error}),
    })
}

/// Who a valid token authenticates as (`ServiceAccountInfo.UserInfo`), and the
/// audiences it was accepted for.
pub(crate) struct Authenticated {
    pub subject: Subject,
    pub uid: String,
    pub extra: BTreeMap<&'static str, Vec<String>>,
    pub audiences: Vec<String>,
}

/// Authenticates `token` for one of `wanted` audiences, as kube's bearer-token
/// authenticator does; the error is a `TokenReview`'s `status.error`.
pub(crate) fn authenticate(server: &ApiServer, token: &str, wanted: &[String]) -> Result<Authenticated, String> {
    const INVALID: &str = "invalid bearer token";
    let failed = |why: String| format!("[{INVALID}, {why}]");
    // Not one of this server's: not a JWT, another issuer, or no token issued yet.
    if token.trim_start().starts_with('{') || signing::unverified_issuer(token).as_deref() != Some(ISSUER) {
        return Err(INVALID.to_owned());
    }
    let Some(key) = signing::existing() else {
        return Err(failed("invalid signature, no keys found".to_owned()));
    };
    let claims = match key.verify(token) {
        Ok(claims) => claims,
        Err(signing::VerifyError::Malformed) => return Err(INVALID.to_owned()),
        Err(error) => return Err(failed(error.to_string())),
    };
    let token_audiences = strings(&claims["aud"]);
    let audiences: Vec<String> = wanted
        .iter()
        .filter(|audience| token_audiences.contains(audience))
        .cloned()
        .collect();
    if audiences.is_empty() {
        return Err(failed(format!(
            "token audiences {} is invalid for the target audiences {}",
            go_strings(&token_audiences),
            go_strings(wanted)
        )));
    }
    let info = validate(server, &claims).map_err(failed)?;
    Ok(Authenticated { audiences, ..info })
}

/// `validator.Validate`: the times (with go-jose's leeway), then the `ServiceAccount`
/// and the bound object, each still there with the uid the token names.
fn validate(server: &ApiServer, claims: &Value) -> Result<Authenticated, String> {
    let now = Timestamp::now().as_second();
    let time = |claim: &str| claims[claim].as_i64();
    if time("nbf").is_some_and(|nbf| now + LEEWAY_SECONDS < nbf) {
        return Err("service account token is not valid yet".to_owned());
    }
    if time("exp").is_some_and(|exp| now - LEEWAY_SECONDS > exp) {
        return Err("service account token has expired".to_owned());
    }
    if time("iat").is_some_and(|iat| now + LEEWAY_SECONDS < iat) {
        return Err("service account token is issued in the future".to_owned());
    }
    let private = &claims["kubernetes.io"];
    let namespace = private["namespace"].as_str().unwrap_or_default();
    let account_ref = &private["serviceaccount"];
    let (account_name, account_uid) = (text(account_ref, "name"), text(account_ref, "uid"));
    let state = server.shared.state.lock();
    let get = |resource: &str, namespace: &str, name: &str| state.store.get(&core(resource), namespace, name);
    let account = get("serviceaccounts", namespace, &account_name)
        .ok_or_else(|| format!("serviceaccounts \"{account_name}\" not found"))?;
    if uid_of(&account) != account_uid {
        return Err(format!(
            "service account UID ({}) does not match claim ({account_uid})",
            uid_of(&account)
        ));
    }
    if deleted_before(&account, now - LEEWAY_SECONDS) {
        return Err(format!("service account {namespace}/{account_name} has been deleted"));
    }
    let mut extra: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    let (secret_ref, pod_ref, node_ref) = (&private["secret"], &private["pod"], &private["node"]);
    if secret_ref.is_object() {
        let secret = get("secrets", namespace, &text(secret_ref, "name"));
        check_bound(secret.as_deref(), secret_ref, "secret", now)?;
    }
    if pod_ref.is_object() {
        let pod = get("pods", namespace, &text(pod_ref, "name"));
        check_bound(pod.as_deref(), pod_ref, "pod", now)?;
        let (name, uid) = (text(pod_ref, "name"), text(pod_ref, "uid"));
        if !name.is_empty() && !uid.is_empty() {
            extra.insert("authentication.kubernetes.io/pod-name", vec![name]);
            extra.insert("authentication.kubernetes.io/pod-uid", vec![uid]);
        }
    }
    if node_ref.is_object() {
        // A pod's node is only told; a token bound to the node itself needs it there.
        if !pod_ref.is_object() {
            let node = get("nodes", "", &text(node_ref, "name"));
            check_bound(node.as_deref(), node_ref, "node", now)?;
        }
        let (name, uid) = (text(node_ref, "name"), text(node_ref, "uid"));
        if !name.is_empty() {
            extra.insert("authentication.kubernetes.io/node-name", vec![name]);
            if !uid.is_empty() {
                extra.insert("authentication.kubernetes.io/node-uid", vec![uid]);
            }
        }
    }
    if let Some(jti) = claims["jti"].as_str().filter(|jti| !jti.is_empty()) {
        extra.insert("authentication.kubernetes.io/credential-id", vec![format!("JTI={jti}")]);
    }
    Ok(Authenticated {
        subject: Subject::named(&format!("system:serviceaccount:{namespace}:{account_name}")),
        uid: account_uid,
        extra,
        audiences: Vec::new(),
    })
}

/// A bound object (`what`: secret, pod or node) still there, with the uid its claim
/// names, and not deleted longer ago than the leeway.
fn check_bound(found: Option<&Value>, claim: &Value, what: &str, now: i64) -> Result<(), String> {
    let invalidated = || "service account token has been invalidated".to_owned();
    let object = found.ok_or_else(invalidated)?;
    let claimed = text(claim, "uid");
    if uid_of(object) != claimed {
        return Err(format!(
            "{what} UID ({}) does not match service account {what} ref claim ({claimed})",
            uid_of(object)
        ));
    }
    if deleted_before(object, now - LEEWAY_SECONDS) {
        return Err(invalidated());
    }
    Ok(())
}

/// Whether `object` was marked deleted before `second`.
fn deleted_before(object: &Value, second: i64) -> bool {
    object["metadata"]["deletionTimestamp"]
        .as_str()
        .and_then(|at| at.parse::<Timestamp>().ok())
        .is_some_and(|at| at.as_second() < second)
}

fn text(claim: &Value, key: &str) -> String {
    claim[key].as_str().unwrap_or_default().to_owned()
}

/// `/.well-known/openid-configuration`: where the keys are and what signs with them.
pub(crate) fn openid_configuration() -> Value {
    json!({
        "issuer": ISSUER,
        "jwks_uri": format!("{ISSUER}/openid/v1/jwks"),
        "response_types_supported": ["id_token"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
    })
}

/// `/openid/v1/jwks`: the public key that verifies the server's tokens.
pub(crate) fn jwks() -> Result<Value, String> {
    Ok(json!({"keys": [signing_key()?.jwk()]}))
}

fn uid_of(object: &Value) -> &str {
    object["metadata"]["uid"].as_str().unwrap_or_default()
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|values| values.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default()
}

/// A `[]string` as Go's `%q` prints it: `["a" "b"]`.
fn go_strings(values: &[String]) -> String {
    let quoted: Vec<String> = values.iter().map(|value| go_quote(value)).collect();
    format!("[{}]", quoted.join(" "))
}

fn not_found(resource: &str, name: &str) -> ApiError {
    let mut error = ApiError::new(404, "NotFound", format!("{resource} \"{name}\" not found"));
    error.details = Some(json!({"name": name, "kind": resource}));
    error
}

fn core(resource: &str) -> GroupResource {
    GroupResource {
        group: String::new(),
        resource: resource.to_owned(),
    }
}

fn after(now: Timestamp, seconds: i64) -> Timestamp {
    now.checked_add(SignedDuration::from_secs(seconds))
        .unwrap_or(Timestamp::MAX)
}

fn seconds(timestamp: Timestamp) -> String {
    timestamp.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// A random v4 UUID, as `uuid.NewString` makes a token's `jti`.
fn new_uuid() -> String {
    let mut bytes: [u8; 16] = rand::random();
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let mut text = String::with_capacity(36);
    for (index, byte) in bytes.iter().enumerate() {
        if matches!(index, 4 | 6 | 8 | 10) {
            text.push('-');
        }
        let _ = write!(text, "{byte:02x}");
    }
    text
}
