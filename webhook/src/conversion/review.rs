//! `ConversionReview` on the wire: the review decoded with its objects left as raw
//! JSON, each object converted by the conversion registered for its group and kind,
//! its metadata restored but for labels and annotations, and the answer encoded with
//! the request's uid. A failure anywhere (a panic included) fails the whole review,
//! as kube-apiserver expects: it converts all of a list, or none.

use std::borrow::Cow;
use std::panic::AssertUnwindSafe;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use wheelhouse_manager::serve::panic_message;

use super::Conversions;
use crate::metrics::RouteMetrics;
use crate::review::MAX_UID_BYTES;

const KIND: &str = "ConversionReview";
const V1: &str = "apiextensions.k8s.io/v1";
const V1BETA1: &str = "apiextensions.k8s.io/v1beta1";
/// The longest failure message: messages may quote names and decoder errors, and an
/// answer must not grow with the request.
const MAX_MESSAGE_BYTES: usize = 4096;

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
    #[serde(rename = "desiredAPIVersion")]
    desired_api_version: String,
    #[serde(borrow, default)]
    objects: Vec<&'a RawValue>,
}

/// What is read of each object before it is converted.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Header<'a> {
    #[serde(borrow, default)]
    api_version: Cow<'a, str>,
    #[serde(borrow, default)]
    kind: Cow<'a, str>,
}

/// The name and namespace, read only for a failure's message.
#[derive(Deserialize, Default)]
struct Named {
    #[serde(default)]
    name: String,
    #[serde(default)]
    namespace: Option<String>,
}

/// A converted object: the input itself when it is already in the desired version.
#[derive(Serialize)]
#[serde(untagged)]
enum Converted<'a> {
    Unchanged(&'a RawValue),
    Changed(Box<RawValue>),
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
    converted_objects: Vec<Converted<'a>>,
    result: Outcome,
}

/// The `metav1.Status` of the answer.
#[derive(Serialize)]
struct Outcome {
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

/// Answers one `ConversionReview` body: the answer's bytes, or the message of a 400
/// when the body is not a review that can be answered.
pub(crate) fn answer(
    conversions: &Conversions,
    body: &[u8],
    metrics: Option<&RouteMetrics>,
) -> Result<Vec<u8>, String> {
    let body =
        std::str::from_utf8(body).map_err(|e| format!("the request body is not a ConversionReview: not UTF-8: {e}"))?;
    let review: WireReview<'_> =
        serde_json::from_str(body).map_err(|e| format!("the request body is not a ConversionReview: {e}"))?;
    let api_version = match (review.kind.as_str(), review.api_version.as_str()) {
        (KIND, V1) => V1,
        (KIND, V1BETA1) => V1BETA1,
        (kind, api_version) => {
            return Err(format!(
                "expected a ConversionReview of {V1}, got kind {kind:?} of apiVersion {api_version:?}"
            ));
        }
    };
    let request = review
        .request
        .ok_or_else(|| "the ConversionReview has no request".to_owned())?;
    if request.uid.is_empty() {
        return Err("the ConversionReview's request has an empty uid".to_owned());
    }
    // Echoed in the answer: a longer uid would let a client grow the answer.
    if request.uid.len() > MAX_UID_BYTES {
        return Err(format!(
            "the ConversionReview's request uid is {} bytes long; a uid is a UUID of {MAX_UID_BYTES}",
            request.uid.len()
        ));
    }
    let span = tracing::Span::current();
    span.record("uid", request.uid.as_str());
    span.record("desired", request.desired_api_version.as_str());
    span.record("objects", request.objects.len());
    let converted = std::panic::catch_unwind(AssertUnwindSafe(|| {
        convert_all(conversions, &request.objects, &request.desired_api_version)
    }))
    .unwrap_or_else(|panic| {
        if let Some(metrics) = metrics {
            metrics.panicked();
        }
        tracing::error!(panic = %panic_message(&*panic), "a conversion panicked; the review fails");
        Err(format!(
            "internal error: a conversion panicked (request uid {}; see the webhook server's log)",
            request.uid
        ))
    });
    span.record("converted", converted.is_ok());
    let (converted_objects, result) = match converted {
        Ok(objects) => (
            objects,
            Outcome {
                status: "Success",
                message: None,
            },
        ),
        Err(message) => {
            tracing::warn!(%message, "a conversion failed");
            (
                Vec::new(),
                Outcome {
                    status: "Failure",
                    message: Some(bounded(message)),
                },
            )
        }
    };
    let answer = WireAnswer {
        api_version,
        kind: KIND,
        response: WireResponse {
            uid: &request.uid,
            converted_objects,
            result,
        },
    };
    serde_json::to_vec(&answer).map_err(|e| format!("could not encode the answer: {e}"))
}

/// Converts every object to `desired`, or says why one cannot be.
fn convert_all<'a>(
    conversions: &Conversions,
    objects: &[&'a RawValue],
    desired: &str,
) -> Result<Vec<Converted<'a>>, String> {
    let (desired_group, desired_version) = split_api_version(desired);
    if desired_version.is_empty() {
        return Err(format!("desiredAPIVersion {desired:?} is not a group/version"));
    }
    let mut converted = Vec::with_capacity(objects.len());
    for (index, raw) in objects.iter().enumerate() {
        let failed = |why: String| {
            let named: Named = serde_json::from_str::<NamedObject>(raw.get())
                .map(|o| o.metadata)
                .unwrap_or_default();
            let name = match named.namespace {
                Some(namespace) => format!("{namespace}/{}", named.name),
                None => named.name,
            };
            format!("converting object {index} ({name:?}) to {desired}: {why}")
        };
        let header: Header<'_> =
            serde_json::from_str(raw.get()).map_err(|e| failed(format!("not a Kubernetes object: {e}")))?;
        let (group, version) = split_api_version(&header.api_version);
        let conversion = conversions.get(group, &header.kind).ok_or_else(|| {
            failed(format!(
                "its kind {:?} of apiVersion {:?} has no conversion registered with this server",
                header.kind, header.api_version
            ))
        })?;
        if group != desired_group {
            return Err(failed(format!(
                "it is in group {group:?}, and conversion never changes the group"
            )));
        }
        if !conversion.has_version(desired_version) {
            return Err(failed(format!(
                "version {desired_version} of {}.{group} is not registered (registered: {})",
                header.kind,
                conversion.versions().join(", ")
            )));
        }
        if version == desired_version {
            converted.push(Converted::Unchanged(raw));
            continue;
        }
        if !conversion.has_version(version) {
            return Err(failed(format!(
                "its version {version} of {}.{group} is not registered (registered: {})",
                header.kind,
                conversion.versions().join(", ")
            )));
        }
        let object = conversion
            .convert(raw.get(), version, desired_version)
            .map_err(failed)?;
        converted.push(Converted::Changed(object));
    }
    Ok(converted)
}

#[derive(Deserialize)]
struct NamedObject {
    #[serde(default)]
    metadata: Named,
}

/// Splits `example.com/v1` into group and version; the core group's `v1` has an
/// empty group.
fn split_api_version(api_version: &str) -> (&str, &str) {
    api_version.rsplit_once('/').unwrap_or(("", api_version))
}

fn bounded(mut message: String) -> String {
    if message.len() > MAX_MESSAGE_BYTES {
        let mut cut = MAX_MESSAGE_BYTES;
        while !message.is_char_boundary(cut) {
            cut -= 1;
        }
        message.truncate(cut);
        message.push_str("...");
    }
    message
}
