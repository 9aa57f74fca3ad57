//! `AdmissionReview` on the wire: decoding a request with its objects left as raw JSON
//! (each webhook decodes them as its own type, so a bad object is that webhook's
//! denial, not a malformed review), and encoding the answer.
//!
//! The answer is written here rather than by serializing kube's `AdmissionResponse`:
//! kube serializes `patch` as an array of numbers, which kube-apiserver's decoder
//! happens to accept, while the API's documented form (and what Go webhooks send) is a
//! base64 string.

use std::collections::HashMap;

use base64::Engine as _;
use k8s_openapi::api::authentication::v1::UserInfo;
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use kube::core::admission::{AdmissionResponse, Operation};
use kube::core::{GroupVersionKind, GroupVersionResource, Status};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::request::Request;

/// The API version of `AdmissionReview` that configurations generated here ask for.
pub const ADMISSION_V1: &str = "admission.k8s.io/v1";
const ADMISSION_V1BETA1: &str = "admission.k8s.io/v1beta1";
const KIND: &str = "AdmissionReview";
/// The longest request uid accepted: a UUID's 36 characters.
pub(crate) const MAX_UID_BYTES: usize = 36;

/// A decoded review: the request, its objects still raw, borrowed from the body.
#[derive(Debug)]
pub(crate) struct Review<'a> {
    pub api_version: &'static str,
    pub request: Request,
    pub object: Option<&'a RawValue>,
    pub old_object: Option<&'a RawValue>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireReview<'a> {
    #[serde(default)]
    api_version: String,
    #[serde(default)]
    kind: String,
    #[serde(borrow, default)]
    request: Option<WireRequest<'a>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireRequest<'a> {
    uid: String,
    kind: GroupVersionKind,
    resource: GroupVersionResource,
    #[serde(default)]
    sub_resource: Option<String>,
    #[serde(default)]
    name: String,
    #[serde(default)]
    namespace: Option<String>,
    operation: Operation,
    #[serde(default)]
    user_info: UserInfo,
    #[serde(borrow, default)]
    object: Option<&'a RawValue>,
    #[serde(borrow, default)]
    old_object: Option<&'a RawValue>,
    #[serde(default)]
    dry_run: Option<bool>,
    #[serde(default)]
    options: Option<RawExtension>,
}

/// Refuses a body whose objects and arrays nest deeper than `max_depth`, before any
/// parser recurses into it: a deep body costs stack and time to parse and drop, and
/// no Kubernetes object comes near the limit. The error is the 400 answer's message.
pub(crate) fn check_nesting(body: &[u8], max_depth: usize) -> Result<(), String> {
    let (mut depth, mut in_string, mut escaped) = (0_usize, false, false);
    for &byte in body {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                if depth > max_depth {
                    return Err(format!(
                        "the request body nests objects and arrays more than {max_depth} deep; no Kubernetes object needs that"
                    ));
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// Decodes a request body; the error is the message of the 400 answer.
pub(crate) fn decode(body: &[u8]) -> Result<Review<'_>, String> {
    // serde_json skips the strings of fields nobody reads without checking their
    // UTF-8: check the whole body, so that JSON is JSON wherever it is broken.
    let body =
        std::str::from_utf8(body).map_err(|e| format!("the request body is not an AdmissionReview: not UTF-8: {e}"))?;
    let wire: WireReview<'_> = serde_json::from_str(body).map_err(|error| {
        // A request that does not decode may belong to another kind of object
        // altogether: say that rather than what is missing from it.
        match serde_json::from_str::<TypeMeta>(body).map(|types| version_of(&types)) {
            Ok(Err(wrong_kind)) => wrong_kind,
            _ => format!("the request body is not an AdmissionReview: {error}"),
        }
    })?;
    let api_version = version_of(&TypeMeta {
        api_version: wire.api_version,
        kind: wire.kind,
    })?;
    let wire = wire
        .request
        .ok_or_else(|| "the AdmissionReview has no request".to_owned())?;
    if wire.uid.is_empty() {
        return Err("the AdmissionReview's request has an empty uid".to_owned());
    }
    // The uid is echoed in the answer: a UUID is all kube-apiserver sends, and a
    // longer one would let a client make the answer as large as its request.
    if wire.uid.len() > MAX_UID_BYTES {
        return Err(format!(
            "the AdmissionReview's request uid is {} bytes long; a uid is a UUID of {MAX_UID_BYTES}",
            wire.uid.len()
        ));
    }
    Ok(Review {
        api_version,
        request: Request {
            uid: wire.uid,
            kind: wire.kind,
            resource: wire.resource,
            sub_resource: wire.sub_resource,
            name: wire.name,
            namespace: wire.namespace,
            operation: wire.operation,
            user_info: wire.user_info,
            dry_run: wire.dry_run.unwrap_or(false),
            options: wire.options,
        },
        object: wire.object,
        old_object: wire.old_object,
    })
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TypeMeta {
    #[serde(default)]
    api_version: String,
    #[serde(default)]
    kind: String,
}

fn version_of(types: &TypeMeta) -> Result<&'static str, String> {
    match (types.kind.as_str(), types.api_version.as_str()) {
        (KIND, ADMISSION_V1) => Ok(ADMISSION_V1),
        (KIND, ADMISSION_V1BETA1) => Ok(ADMISSION_V1BETA1),
        (kind, api_version) => Err(format!(
            "expected an AdmissionReview of {ADMISSION_V1}, got kind {kind:?} of apiVersion {api_version:?}"
        )),
    }
}

/// A webhook's decision, before it is written for one request.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Verdict {
    pub allowed: bool,
    pub status: Option<Box<Status>>,
    /// A JSON patch (RFC 6902), serialized.
    pub patch: Option<Vec<u8>>,
    pub warnings: Vec<String>,
    pub audit_annotations: HashMap<String, String>,
}

impl Verdict {
    pub fn allowed(warnings: Vec<String>) -> Self {
        Self {
            allowed: true,
            status: None,
            patch: None,
            warnings,
            audit_annotations: HashMap::new(),
        }
    }

    pub fn denied(status: Status) -> Self {
        Self {
            allowed: false,
            status: Some(Box::new(status)),
            ..Self::allowed(Vec::new())
        }
    }

    /// Denied because the request cannot be acted on (code 400).
    pub fn bad_request(message: &str) -> Self {
        Self::denied(Status::failure(message, "BadRequest").with_code(400))
    }

    /// Denied because the webhook failed (code 500).
    pub fn internal_error(message: &str) -> Self {
        Self::denied(Status::failure(message, "InternalError").with_code(500))
    }
}

impl From<AdmissionResponse> for Verdict {
    fn from(response: AdmissionResponse) -> Self {
        let status = (!response.allowed || response.result != Status::default()).then(|| Box::new(response.result));
        Self {
            allowed: response.allowed,
            status,
            patch: response.patch.filter(|_| response.allowed),
            warnings: response.warnings.unwrap_or_default(),
            audit_annotations: response.audit_annotations,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct WireAnswer<'a> {
    api_version: &'a str,
    kind: &'static str,
    response: WireResponse<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct WireResponse<'a> {
    uid: &'a str,
    allowed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<&'a Status>,
    #[serde(skip_serializing_if = "Option::is_none")]
    patch: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    patch_type: Option<&'static str>,
    #[serde(skip_serializing_if = "HashMap::is_empty")]
    audit_annotations: &'a HashMap<String, String>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    warnings: &'a [String],
}

/// The answer's body for `uid` in the review's own API version.
pub(crate) fn encode(api_version: &str, uid: &str, verdict: &Verdict) -> Result<Vec<u8>, serde_json::Error> {
    let patch = verdict
        .patch
        .as_ref()
        .map(|patch| base64::engine::general_purpose::STANDARD.encode(patch));
    let answer = WireAnswer {
        api_version,
        kind: KIND,
        response: WireResponse {
            uid,
            allowed: verdict.allowed,
            status: verdict.status.as_deref(),
            patch_type: patch.as_ref().map(|_| "JSONPatch"),
            patch,
            audit_annotations: &verdict.audit_annotations,
            warnings: &verdict.warnings,
        },
    };
    serde_json::to_vec(&answer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn review(request: &Value) -> Vec<u8> {
        json!({"apiVersion": ADMISSION_V1, "kind": "AdmissionReview", "request": request})
            .to_string()
            .into_bytes()
    }

    fn request() -> Value {
        json!({
            "uid": "u-1",
            "kind": {"group": "example.com", "version": "v1", "kind": "WebApp"},
            "resource": {"group": "example.com", "version": "v1", "resource": "webapps"},
            "name": "web", "namespace": "shop", "operation": "CREATE",
            "userInfo": {"username": "alice"},
            "object": {"metadata": {"name": "web"}, "spec": {"image": "nginx:1.27"}},
            "oldObject": null,
            "dryRun": true,
        })
    }

    #[test]
    fn a_review_decodes_with_its_objects_raw() {
        let body = review(&request());
        let review = decode(&body).unwrap();
        assert_eq!(review.request.uid, "u-1");
        assert_eq!(review.request.operation, Operation::Create);
        assert!(review.request.dry_run && !review.request.may_have_side_effects());
        assert_eq!(
            review.object.unwrap().get(),
            r#"{"metadata":{"name":"web"},"spec":{"image":"nginx:1.27"}}"#
        );
        assert!(review.old_object.is_none(), "null is no object");
    }

    #[test]
    fn what_is_not_a_v1_review_with_a_request_is_refused_with_a_reason() {
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (b"{".to_vec(), "not an AdmissionReview"),
            (b"\xff\xfe".to_vec(), "not an AdmissionReview"),
            (b"[]".to_vec(), r#"got kind """#),
            (br#"{"apiVersion":"v1","kind":"Pod"}"#.to_vec(), r#"got kind "Pod""#),
            (
                br#"{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}"#.to_vec(),
                "has no request",
            ),
            (review(&json!({"uid": "u"})), "missing field"),
            (review(&json!(null)), "has no request"),
            // Broken UTF-8 in a field no one reads is still broken JSON.
            (
                [&review(&request())[..1], b"\"x\":\"\xff\",", &review(&request())[1..]].concat(),
                "not UTF-8",
            ),
        ];
        for (body, expected) in cases {
            let error = decode(&body).unwrap_err();
            assert!(error.contains(expected), "{error} should say {expected}");
        }
        let mut empty_uid = request();
        empty_uid["uid"] = json!("");
        assert!(decode(&review(&empty_uid)).unwrap_err().contains("empty uid"));
        let mut long_uid = request();
        long_uid["uid"] = json!("u".repeat(37));
        assert!(decode(&review(&long_uid)).unwrap_err().contains("37 bytes long"));
        long_uid["uid"] = json!("0123abcd-0123-4567-89ab-0123456789ab");
        assert!(decode(&review(&long_uid)).is_ok(), "a UUID's 36 characters fit");
        let mut wrong_operation = request();
        wrong_operation["operation"] = json!("EXPLODE");
        assert!(decode(&review(&wrong_operation)).unwrap_err().contains("EXPLODE"));
    }

    #[test]
    fn nesting_is_counted_outside_strings_only() {
        assert!(check_nesting(br#"{"a":[{"b":1}]}"#, 3).is_ok());
        assert!(
            check_nesting(br#"{"a":[{"b":[1]}]}"#, 3)
                .unwrap_err()
                .contains("more than 3 deep")
        );
        assert!(check_nesting(br#"{"a":"[[[[{{{{\"[[[["}"#, 1).is_ok());
        assert!(
            check_nesting(br#"{"a":"\\"}"#, 1).is_ok(),
            "an escaped backslash ends the escape"
        );
    }

    #[test]
    fn patches_are_base64_with_their_type_and_denials_carry_the_status() {
        let mut verdict = Verdict::allowed(vec!["careful".into()]);
        verdict.patch = Some(br#"[{"op":"add","path":"/a","value":1}]"#.to_vec());
        let body: Value = serde_json::from_slice(&encode(ADMISSION_V1, "u-1", &verdict).unwrap()).unwrap();
        assert_eq!(body["apiVersion"], ADMISSION_V1);
        assert_eq!(body["response"]["uid"], "u-1");
        assert_eq!(body["response"]["patchType"], "JSONPatch");
        assert_eq!(
            body["response"]["patch"],
            "W3sib3AiOiJhZGQiLCJwYXRoIjoiL2EiLCJ2YWx1ZSI6MX1d"
        );
        assert_eq!(body["response"]["warnings"], json!(["careful"]));

        let body: Value =
            serde_json::from_slice(&encode(ADMISSION_V1, "u-2", &Verdict::bad_request("no")).unwrap()).unwrap();
        assert_eq!(body["response"]["allowed"], false);
        assert_eq!(body["response"]["status"]["code"], 400);
        assert_eq!(body["response"]["status"]["message"], "no");
        assert!(body["response"].get("patch").is_none());
    }

    #[test]
    fn a_denying_handler_response_never_carries_a_patch() {
        let allowed = AdmissionResponse::invalid("x");
        let mut response = allowed.deny("no");
        response.patch = Some(b"[]".to_vec());
        let verdict = Verdict::from(response);
        assert!(!verdict.allowed);
        assert!(verdict.patch.is_none());
    }
}
