//! The `ConversionReview` exchanged with a CRD's conversion webhook: the request, and
//! the checks kube-apiserver's `getConvertedObjectsFromResponse` makes on the answer.

use std::time::Duration;

use serde_json::{Value, json};

use crate::admission::{CallError, Webhooks, new_uid};
use crate::core::ConversionWebhook;

/// How long a conversion webhook may take: client-go's default for the REST client
/// kube-apiserver calls it with (the `?timeout=30s` it appends).
const TIMEOUT: Duration = Duration::from_secs(30);

/// Why a review produced no converted objects.
pub(super) enum Error {
    /// The CRD lists no review version the server speaks (said as is).
    Unsupported(String),
    /// The call or the answer failed (after `conversion webhook for <gvk> failed: `).
    Failed(String),
}

/// Which `ConversionReview` version a webhook is sent: the first of
/// `conversionReviewVersions` the server knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReviewVersion {
    V1,
    V1beta1,
}

impl ReviewVersion {
    fn choose(versions: &[String]) -> Option<Self> {
        versions.iter().find_map(|v| match v.as_str() {
            "v1" => Some(Self::V1),
            "v1beta1" => Some(Self::V1beta1),
            _ => None,
        })
    }

    fn api_version(self) -> &'static str {
        match self {
            Self::V1 => "apiextensions.k8s.io/v1",
            Self::V1beta1 => "apiextensions.k8s.io/v1beta1",
        }
    }
}

/// Sends `objects` to the webhook to be converted to `desired` (`group/version`), and
/// returns what it converted them to, unchecked but for the review's own fields.
pub(super) async fn call(
    webhooks: &Webhooks,
    webhook: &ConversionWebhook,
    objects: &[&Value],
    desired: &str,
) -> Result<Vec<Value>, Error> {
    let version = ReviewVersion::choose(&webhook.review_versions)
        .ok_or_else(|| Error::Unsupported("no supported conversion review versions".to_owned()))?;
    let uid = new_uid();
    let review = json!({
        "kind": "ConversionReview",
        "apiVersion": version.api_version(),
        "request": {"uid": uid, "desiredAPIVersion": desired, "objects": objects},
    });
    let body = webhooks
        .send(&webhook.client_config, review.to_string().into_bytes(), TIMEOUT)
        .await
        .map_err(|error| match error {
            CallError::Client(message) | CallError::Call(message) => Error::Failed(message),
        })?;
    let answer: Value = serde_json::from_slice(&body).map_err(|e| Error::Failed(e.to_string()))?;
    converted_objects(version, &uid, &answer).map_err(Error::Failed)
}

/// `getConvertedObjectsFromResponse`: a v1 answer must be a v1 `ConversionReview` for
/// this uid (v1beta1 answers were never checked for either), and must say `Success`.
fn converted_objects(version: ReviewVersion, uid: &str, answer: &Value) -> Result<Vec<Value>, String> {
    if version == ReviewVersion::V1 {
        let api_version = answer["apiVersion"].as_str().unwrap_or_default();
        let kind = answer["kind"].as_str().unwrap_or_default();
        if api_version != "apiextensions.k8s.io/v1" || kind != "ConversionReview" {
            // Go prints a GroupVersionKind as "group/version, Kind=kind".
            let group_version = if api_version.contains('/') {
                api_version.to_owned()
            } else {
                format!("/{api_version}")
            };
            return Err(format!(
                "expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got {group_version}, Kind={kind}"
            ));
        }
    }
    let response = answer
        .get("response")
        .filter(|r| r.is_object())
        .ok_or_else(|| "no response provided".to_owned())?;
    if version == ReviewVersion::V1 {
        let answered = response["uid"].as_str().unwrap_or_default();
        if answered != uid {
            return Err(format!("expected response.uid={uid:?}, got {answered:?}"));
        }
    }
    let status = response["result"]["status"].as_str().unwrap_or_default();
    if status != "Success" {
        let message = response["result"]["message"].as_str().unwrap_or_default();
        if !message.is_empty() {
            return Err(message.to_owned());
        }
        return Err(format!("response.result.status was '{status}', not 'Success'"));
    }
    Ok(response["convertedObjects"].as_array().cloned().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_v1_answer_must_be_a_successful_review_for_the_request() {
        let ok = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
            "response": {"uid": "u", "result": {"status": "Success"}, "convertedObjects": [{"a": 1}]}});
        assert_eq!(
            converted_objects(ReviewVersion::V1, "u", &ok).unwrap(),
            vec![json!({"a": 1})]
        );
        assert_eq!(
            converted_objects(ReviewVersion::V1, "other", &ok).unwrap_err(),
            "expected response.uid=\"other\", got \"u\""
        );
        let mut failed = ok.clone();
        failed["response"]["result"] = json!({"status": "Failure", "message": "cannot convert spec.size"});
        assert_eq!(
            converted_objects(ReviewVersion::V1, "u", &failed).unwrap_err(),
            "cannot convert spec.size"
        );
        failed["response"]["result"] = json!({"status": "Failure"});
        assert_eq!(
            converted_objects(ReviewVersion::V1, "u", &failed).unwrap_err(),
            "response.result.status was 'Failure', not 'Success'"
        );
        let admission = json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview"});
        assert_eq!(
            converted_objects(ReviewVersion::V1, "u", &admission).unwrap_err(),
            "expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got admission.k8s.io/v1, Kind=AdmissionReview"
        );
        // v1beta1 answers are read without checking their kind or uid.
        let beta = json!({"response": {"uid": "x", "result": {"status": "Success"}, "convertedObjects": []}});
        assert!(
            converted_objects(ReviewVersion::V1beta1, "u", &beta)
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            converted_objects(ReviewVersion::V1beta1, "u", &json!({})).unwrap_err(),
            "no response provided"
        );
    }

    #[test]
    fn the_first_known_review_version_is_sent() {
        let versions = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            ReviewVersion::choose(&versions(&["v2", "v1beta1", "v1"])),
            Some(ReviewVersion::V1beta1)
        );
        assert_eq!(ReviewVersion::choose(&versions(&["v1"])), Some(ReviewVersion::V1));
        assert_eq!(ReviewVersion::choose(&versions(&["v2"])), None);
    }
}
