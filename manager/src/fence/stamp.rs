//! Stamping a fenced write with its term: the body of a create, update or patch of a
//! resource [`ServerFencing`] names gets [`TERM_ANNOTATION`] set to the term's token,
//! which the server's policy or webhook compares with the Lease, and labelled
//! [`FENCE_LABEL`] so a webhook configuration can select the fenced objects alone.

use bytes::Bytes;
use http::{Method, Request, header};
use kube::client::Body;

use super::server::{ServerFencing, TERM_ANNOTATION};
use super::webhook::FENCE_LABEL;
use crate::error::BoxError;

/// The API group and resource a request's path names, when it names the object itself
/// (a collection or one object, not a subresource).
fn resource_of(path: &str) -> Option<(&str, &str)> {
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let (group, rest) = match segments.as_slice() {
        ["api", _version, rest @ ..] => ("", rest),
        ["apis", group, _version, rest @ ..] => (*group, rest),
        _ => return None,
    };
    // `namespaces/<ns>/<resource>...`, unless it is a namespace's own subresource
    // (kube-apiserver's RequestInfoFactory: `status` and `finalize`).
    let rest = match rest {
        ["namespaces", _, resource, tail @ ..] if !matches!(*resource, "status" | "finalize") => {
            let mut named = vec![*resource];
            named.extend(tail);
            named
        }
        other => other.to_vec(),
    };
    match rest.as_slice() {
        [resource] | [resource, _] => Some((group, *resource)),
        _ => None,
    }
}

/// Whether `request` is a write `fencing` stamps: a create, update or patch of a
/// fenced resource's object, with a body the stamp can merge into (not a JSON patch).
pub(super) fn applies(fencing: &ServerFencing, request: &Request<Body>) -> bool {
    if !matches!(*request.method(), Method::POST | Method::PUT | Method::PATCH) {
        return false;
    }
    let json_patch = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("application/json-patch"));
    !json_patch && resource_of(request.uri().path()).is_some_and(|(group, resource)| fencing.fences(group, resource))
}

/// `request` with its body's `metadata.annotations` carrying `token` and its labels
/// `label`. A body that is not a JSON object is sent as it was (the server refuses it
/// anyway).
pub(super) async fn stamp(request: Request<Body>, token: &str, label: &str) -> Result<Request<Body>, BoxError> {
    let (mut parts, body) = request.into_parts();
    let bytes = body.collect_bytes().await?;
    let stamped = stamped(&bytes, token, label).unwrap_or(bytes);
    parts.headers.insert(header::CONTENT_LENGTH, stamped.len().into());
    Ok(Request::from_parts(parts, Body::from(stamped)))
}

/// `body` with the term annotation and the fence label set, or None when it is not a
/// JSON object.
fn stamped(body: &[u8], token: &str, label: &str) -> Option<Bytes> {
    let mut object: serde_json::Value = serde_json::from_slice(body).ok()?;
    let metadata = object
        .as_object_mut()?
        .entry("metadata")
        .or_insert_with(|| serde_json::json!({}));
    let metadata = metadata.as_object_mut()?;
    for (field, key, value) in [("annotations", TERM_ANNOTATION, token), ("labels", FENCE_LABEL, label)] {
        let map = metadata.entry(field).or_insert_with(|| serde_json::json!({}));
        if map.is_null() {
            *map = serde_json::json!({});
        }
        map.as_object_mut()?
            .insert(key.to_owned(), serde_json::Value::String(value.to_owned()));
    }
    serde_json::to_vec(&object).ok().map(Bytes::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_name_the_object_itself_only() {
        assert_eq!(resource_of("/api/v1/namespaces/a/configmaps"), Some(("", "configmaps")));
        assert_eq!(
            resource_of("/api/v1/namespaces/a/configmaps/x"),
            Some(("", "configmaps"))
        );
        assert_eq!(resource_of("/api/v1/namespaces/a/configmaps/x/status"), None);
        assert_eq!(resource_of("/api/v1/namespaces/a"), Some(("", "namespaces")));
        assert_eq!(resource_of("/api/v1/namespaces/a/status"), None);
        assert_eq!(
            resource_of("/apis/apps/v1/namespaces/a/deployments/d"),
            Some(("apps", "deployments"))
        );
        assert_eq!(resource_of("/apis/apps/v1/namespaces/a/deployments/d/scale"), None);
        assert_eq!(
            resource_of("/apis/example.com/v1/clusterthings/t"),
            Some(("example.com", "clusterthings"))
        );
        assert_eq!(resource_of("/version"), None);
    }

    #[test]
    fn the_annotation_is_merged_into_any_metadata() {
        let token = "a/3";
        let read = |body: &[u8]| -> serde_json::Value {
            serde_json::from_slice(&stamped(body, token, "f").expect("stamped")).expect("json")
        };
        assert_eq!(
            read(br#"{"data":{"k":"v"}}"#)["metadata"]["annotations"][TERM_ANNOTATION],
            "a/3"
        );
        let kept = read(br#"{"metadata":{"annotations":{"other":"x"},"name":"n"}}"#);
        assert_eq!(kept["metadata"]["annotations"]["other"], "x");
        assert_eq!(kept["metadata"]["annotations"][TERM_ANNOTATION], "a/3");
        assert_eq!(kept["metadata"]["labels"][FENCE_LABEL], "f");
        assert_eq!(
            read(br#"{"metadata":{"annotations":null}}"#)["metadata"]["annotations"][TERM_ANNOTATION],
            "a/3"
        );
        assert!(stamped(b"[1]", token, "f").is_none());
        assert!(stamped(b"not json", token, "f").is_none());
    }

    #[test]
    fn only_mergeable_writes_of_fenced_resources_are_stamped() {
        let fencing = ServerFencing::new("f").resource_named("", "configmaps");
        let request = |method: Method, path: &str, content_type: &str| {
            Request::builder()
                .method(method)
                .uri(path)
                .header(header::CONTENT_TYPE, content_type)
                .body(Body::empty())
                .expect("a request")
        };
        let path = "/api/v1/namespaces/a/configmaps/x";
        assert!(applies(
            &fencing,
            &request(Method::PATCH, path, "application/merge-patch+json")
        ));
        assert!(applies(&fencing, &request(Method::PUT, path, "application/json")));
        assert!(!applies(
            &fencing,
            &request(Method::PATCH, path, "application/json-patch+json")
        ));
        assert!(!applies(&fencing, &request(Method::DELETE, path, "application/json")));
        assert!(!applies(
            &fencing,
            &request(Method::PUT, "/api/v1/namespaces/a/secrets/x", "application/json")
        ));
    }
}
