//! The `AdmissionReview` exchanged with a webhook: the request built from the admission
//! attributes, and the checks kube-apiserver's `VerifyAdmissionResponse` makes on the reply.

use base64::Engine as _;
use serde_json::{Map, Value, json};

use super::{AdmissionAttributes, AdmissionError};

/// Which `AdmissionReview` version a webhook is sent: the first it lists that we know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ReviewVersion {
    V1,
    V1beta1,
}

impl ReviewVersion {
    /// Reads `admissionReviewVersions`; v1 when the field is absent.
    pub fn choose(spec: &Value) -> Result<Self, String> {
        let Some(versions) = spec.get("admissionReviewVersions").and_then(Value::as_array) else {
            return Ok(Self::V1);
        };
        versions
            .iter()
            .find_map(|version| match version.as_str() {
                Some("v1") => Some(Self::V1),
                Some("v1beta1") => Some(Self::V1beta1),
                _ => None,
            })
            .ok_or_else(|| "webhook does not accept known AdmissionReview versions (v1, v1beta1)".to_owned())
    }

    fn api_version(self) -> &'static str {
        match self {
            Self::V1 => "admission.k8s.io/v1",
            Self::V1beta1 => "admission.k8s.io/v1beta1",
        }
    }
}

/// A random version-4 UUID, the form kube-apiserver gives `request.uid`.
pub(crate) fn new_uid() -> String {
    let mut bits = rand::random::<u128>();
    bits = (bits & !(0xF << 76)) | (0x4 << 76);
    bits = (bits & !(0x3 << 62)) | (0x2 << 62);
    let hex = format!("{bits:032x}");
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

/// The serialized `AdmissionReview` request; `object` is the object as the previous
/// mutating webhooks left it.
pub(super) fn request(
    version: ReviewVersion,
    uid: &str,
    attributes: &AdmissionAttributes<'_>,
    object: Option<&Value>,
    request_version: &str,
) -> Vec<u8> {
    let mut request = Map::new();
    request.insert("uid".into(), uid.into());
    request.extend(request_fields(attributes, object, request_version));
    let review = json!({"apiVersion": version.api_version(), "kind": "AdmissionReview", "request": request});
    review.to_string().into_bytes()
}

/// The fields of an `AdmissionRequest` but its uid: what webhooks receive, and what
/// admission policies see as `request` (with `object` and `oldObject`). `attributes`
/// are at the version the webhook is called at; `request_version` is the one the
/// request named.
pub(in crate::admission) fn request_fields(
    attributes: &AdmissionAttributes<'_>,
    object: Option<&Value>,
    request_version: &str,
) -> Map<String, Value> {
    let kind = |version: &str| json!({"group": attributes.group, "version": version, "kind": attributes.kind});
    let resource =
        |version: &str| json!({"group": attributes.group, "version": version, "resource": attributes.resource});
    let mut request = Map::new();
    request.insert("kind".into(), kind(attributes.version));
    request.insert("resource".into(), resource(attributes.version));
    // A webhook matched through an equivalent version sees that version's kind and
    // resource, and the request's in requestKind and requestResource.
    request.insert("requestKind".into(), kind(request_version));
    request.insert("requestResource".into(), resource(request_version));
    if let Some(subresource) = attributes.subresource.filter(|s| !s.is_empty()) {
        request.insert("subResource".into(), subresource.into());
        request.insert("requestSubResource".into(), subresource.into());
    }
    if !attributes.name.is_empty() {
        request.insert("name".into(), attributes.name.into());
    }
    if let Some(namespace) = attributes.namespace.filter(|ns| !ns.is_empty()) {
        request.insert("namespace".into(), namespace.into());
    }
    request.insert("operation".into(), attributes.operation.as_str().into());
    request.insert("userInfo".into(), crate::core::admin_user_info());
    request.insert("object".into(), object.cloned().unwrap_or(Value::Null));
    request.insert(
        "oldObject".into(),
        attributes.old_object.cloned().unwrap_or(Value::Null),
    );
    request.insert("dryRun".into(), attributes.dry_run.into());
    request.insert("options".into(), attributes.options.cloned().unwrap_or(Value::Null));
    request
}

/// A webhook's valid answer.
#[derive(Debug, Default)]
pub(super) struct Reply {
    pub warnings: Vec<String>,
    /// Set when the webhook said `allowed: false`.
    pub denial: Option<AdmissionError>,
    /// The `JSONPatch` of a mutating webhook that allowed the request.
    pub patch: Option<json_patch::Patch>,
}

/// Checks and reads the webhook's answer `body`. The error is the reason of a failed
/// call, worded as kube-apiserver's dispatchers word it.
pub(super) fn reply(
    version: ReviewVersion,
    uid: &str,
    mutating: bool,
    webhook: &str,
    body: &[u8],
) -> Result<Reply, String> {
    let review: Value = serde_json::from_slice(body).map_err(|e| format!("failed to call webhook: {e}"))?;
    let invalid = |message: String| format!("received invalid webhook response: {message}");
    let response = review
        .get("response")
        .filter(|response| response.is_object())
        .ok_or_else(|| invalid("webhook response was absent".to_owned()))?;
    let text = |field: &str| response.get(field).and_then(Value::as_str).unwrap_or_default();

    // v1beta1 answers were never checked for uid, kind or patchType; v1 answers are.
    let mut patch_type = response
        .get("patchType")
        .filter(|t| !t.is_null())
        .map(|t| t.as_str().unwrap_or_default());
    let patch = Some(text("patch")).filter(|patch| !patch.is_empty());
    if version == ReviewVersion::V1 {
        if text("uid") != uid {
            return Err(invalid(format!("expected response.uid={uid:?}, got {:?}", text("uid"))));
        }
        check_kind(&review).map_err(invalid)?;
        check_patch_fields(mutating, patch.is_some(), patch_type).map_err(invalid)?;
    } else if patch.is_some() {
        patch_type = Some("JSONPatch");
    }

    let mut reply = Reply {
        warnings: response
            .get("warnings")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|warning| warning.as_str().map(str::to_owned))
            .collect(),
        ..Reply::default()
    };
    if !response.get("allowed").and_then(Value::as_bool).unwrap_or(false) {
        reply.denial = Some(denial(webhook, response.get("status")));
        return Ok(reply);
    }
    let Some(patch) = patch.filter(|_| mutating) else {
        return Ok(reply);
    };
    let patch = base64::engine::general_purpose::STANDARD
        .decode(patch)
        .map_err(|e| e.to_string())
        .and_then(|bytes| serde_json::from_slice::<json_patch::Patch>(&bytes).map_err(|e| e.to_string()))
        .map_err(|e| format!("received undecodable patch in webhook response: {e}"))?;
    if patch.0.is_empty() {
        return Ok(reply);
    }
    match patch_type {
        Some("JSONPatch") => reply.patch = Some(patch),
        other => return Err(format!("unsupported patch type {:?}", other.unwrap_or_default())),
    }
    Ok(reply)
}

/// The reply must be a v1 `AdmissionReview`, whatever the webhook was sent.
fn check_kind(review: &Value) -> Result<(), String> {
    let api_version = review.get("apiVersion").and_then(Value::as_str).unwrap_or_default();
    let kind = review.get("kind").and_then(Value::as_str).unwrap_or_default();
    if api_version == "admission.k8s.io/v1" && kind == "AdmissionReview" {
        return Ok(());
    }
    // Go prints a GroupVersionKind as "group/version, Kind=kind", with an empty group.
    let group_version = if api_version.contains('/') {
        api_version.to_owned()
    } else {
        format!("/{api_version}")
    };
    Err(format!(
        "expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got {group_version}, Kind={kind}"
    ))
}

fn check_patch_fields(mutating: bool, has_patch: bool, patch_type: Option<&str>) -> Result<(), String> {
    let message = match (mutating, has_patch, patch_type) {
        (true, true, None) => "webhook returned response.patch but not response.patchType",
        (true, false, Some(_)) => "webhook returned response.patchType but not response.patch",
        (true, true, Some("")) => "webhook returned invalid response.patchType of \"\"",
        (false, true, _) => "validating webhook may not return response.patch",
        (false, false, Some(_)) => "validating webhook may not return response.patchType",
        _ => return Ok(()),
    };
    Err(message.to_owned())
}

/// `allowed: false` as `webhookerrors.ToStatusErr` reads it.
fn denial(webhook: &str, status: Option<&Value>) -> AdmissionError {
    let text = |field: &str| {
        status
            .and_then(|s| s.get(field))
            .and_then(Value::as_str)
            .unwrap_or_default()
    };
    // A rejection must not look like success: codes below 400 (or none) become 400.
    let code = status
        .and_then(|s| s.get("code"))
        .and_then(Value::as_u64)
        .and_then(|code| u16::try_from(code).ok())
        .filter(|code| *code >= 400)
        .unwrap_or(400);
    let message = if text("message").is_empty() {
        text("reason")
    } else {
        text("message")
    };
    AdmissionError::Denied {
        webhook: webhook.to_owned(),
        code,
        reason: text("reason").to_owned(),
        message: message.to_owned(),
        details: status.and_then(|s| s.get("details")).filter(|d| d.is_object()).cloned(),
    }
}
