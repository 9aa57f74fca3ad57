//! The documents that describe the API rather than hold objects: discovery
//! (`/api`, `/apis`, legacy or aggregated as the client's `Accept` asks), `/version`,
//! health checks and the `OpenAPI` documents kubectl reads.

use http::{HeaderValue, Response, StatusCode, header};
use serde_json::{Value, json};

use crate::core::{ApiError, ResponseBody, bytes_response, error_response, json_response, sha512_hex, text_response};
use crate::request::negotiation::{self, Convert};
use crate::resources::discovery::aggregated;
use crate::resources::registry::Registry;

/// Answers discovery, version, health and the `OpenAPI` documents. kubectl reads the latter
/// before it writes: `/openapi/v3` tells it which group versions exist and that PATCH
/// takes `fieldValidation`, so it leaves validation to the server; `/openapi/v2` holds
/// every definition and path as JSON (`kubectl explain`, client-side validation); asked
/// for as protobuf only, it is an empty document, so kubectl's fallbacks find no schema
/// and use their built-in types.
pub(crate) fn serve(registry: &Registry, parts: &http::request::Parts) -> Response<ResponseBody> {
    if parts.method != http::Method::GET {
        return error_response(&ApiError::method_not_allowed());
    }
    let accept = parts
        .headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let segments: Vec<&str> = parts.uri.path().trim_matches('/').split('/').collect();
    let discovery = matches!(segments.as_slice(), ["api" | "apis", ..]);
    if discovery {
        let root = matches!(segments.as_slice(), ["api" | "apis"]);
        let allows = |subtype: &str, convert: Option<&Convert>| {
            convert.is_none_or(|convert| root && subtype == "json" && aggregated_version(convert).is_some())
        };
        match negotiation::negotiate(accept, allows) {
            None => return error_response(&negotiation::not_acceptable()),
            Some(chosen) => {
                if let Some(convert) = chosen.convert {
                    let core = segments.as_slice() == ["api"];
                    return serve_aggregated(registry, parts, core, &convert);
                }
            }
        }
    }
    let document = match segments.as_slice() {
        ["healthz" | "readyz" | "livez"] => return text_response(StatusCode::OK, "ok"),
        ["version"] => Some(version()),
        // kube-apiserver's `routes.ServiceAccountIssuerDiscovery`, cached an hour.
        [".well-known", "openid-configuration"] => {
            let document = crate::authz::openid_configuration();
            return openid_response(json_response(StatusCode::OK, &document), "application/json");
        }
        ["openid", "v1", "jwks"] => {
            // go-restful's route `Produces(mimeJWKS)`: any other media type is 406.
            let acceptable = accept.is_empty()
                || accept.split(',').any(|clause| {
                    let media = clause.split(';').next().unwrap_or_default().trim();
                    matches!(media, "application/jwk-set+json" | "application/*" | "*/*")
                });
            if !acceptable {
                let mut error = ApiError::new(
                    406,
                    "NotAcceptable",
                    "406: Not Acceptable\n\nAvailable representations: application/jwk-set+json",
                );
                error.details = Some(json!({}));
                return error_response(&error);
            }
            return match crate::authz::jwks() {
                Ok(keys) => openid_response(json_response(StatusCode::OK, &keys), "application/jwk-set+json"),
                Err(error) => error_response(&ApiError::new(500, "InternalError", error)),
            };
        }
        ["api"] => Some(Registry::core_versions()),
        ["api", "v1"] => registry.resource_list("", "v1"),
        ["apis"] => Some(registry.group_list()),
        ["apis", group] | ["apis", group, _] if registry.group(group).is_none() => {
            return error_response(&ApiError::page_not_found());
        }
        ["apis", group] => registry.group(group),
        ["apis", group, version] => registry.resource_list(group, version),
        ["openapi", "v2"] => {
            let Some(protobuf) = openapi_v2_format(accept) else {
                // kube-openapi's handler: 406 with no body when no clause matches.
                let mut response = bytes_response(StatusCode::NOT_ACCEPTABLE, Vec::new());
                response.headers_mut().remove(header::CONTENT_TYPE);
                response
                    .headers_mut()
                    .insert(header::VARY, HeaderValue::from_static("Accept"));
                return response;
            };
            return serve_openapi_v2(parts, &crate::resources::openapi::v2::document(registry), protobuf);
        }
        // kube-apiserver 1.32 sends the index without an `ETag`.
        ["openapi", "v3"] => Some(crate::resources::openapi::index(registry)),
        ["openapi", "v3", "api", version] => {
            return match crate::resources::openapi::group_version(registry, "", version) {
                Some(document) => serve_openapi(parts, &document, Some(&format!("api/{version}"))),
                None => error_response(&ApiError::path_not_found()),
            };
        }
        ["openapi", "v3", "apis", group, version] => {
            return match crate::resources::openapi::group_version(registry, group, version) {
                Some(document) => serve_openapi(parts, &document, Some(&format!("apis/{group}/{version}"))),
                None => error_response(&ApiError::path_not_found()),
            };
        }
        _ => None,
    };
    match document {
        Some(document) => json_response(StatusCode::OK, &document),
        None => error_response(&ApiError::path_not_found()),
    }
}

/// An issuer-discovery document with its content type and `Cache-Control: public,
/// max-age=3600` (the key getter's cache age), as kube serves both.
fn openid_response(mut response: Response<ResponseBody>, content_type: &'static str) -> Response<ResponseBody> {
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=3600"));
    response
}

/// The representations `/openapi/v2` offers, in kube-openapi's order: JSON, then the
/// protobuf under its deprecated and its current name.
const OPENAPI_V2_FORMATS: [(&str, bool); 3] = [
    ("json", false),
    ("com.github.proto-openapi.spec.v2@v1.0+protobuf", true),
    ("com.github.proto-openapi.spec.v2.v1.0+protobuf", true),
];

/// kube-openapi's negotiation: the first of `Accept`'s clauses, in goautoneg's order,
/// that one of the representations matches (`*/*` when there is no header) decides;
/// Some(true) is the protobuf, None nothing acceptable.
fn openapi_v2_format(accept: &str) -> Option<bool> {
    let accept = if accept.is_empty() { "*/*" } else { accept };
    negotiation::parse_accept(accept).iter().find_map(|clause| {
        OPENAPI_V2_FORMATS
            .iter()
            .find(|(subtype, _)| {
                (clause.media_type == "application" || clause.media_type == "*")
                    && (clause.subtype == *subtype || clause.subtype == "*")
            })
            .map(|(_, protobuf)| *protobuf)
    })
}

/// `/openapi/v2` as kube-openapi's v2 handler serves it (`http.ServeContent`): the
/// `ETag` the SHA-512 of the JSON (the protobuf form's too), 304 when `If-None-Match`
/// names it, `Vary: Accept`.
fn serve_openapi_v2(
    parts: &http::request::Parts,
    document: &crate::resources::openapi::v2::Document,
    protobuf: bool,
) -> Response<ResponseBody> {
    let not_modified = parts
        .headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|value| value.as_bytes() == document.etag.as_bytes());
    let mut response = if not_modified {
        let mut response = bytes_response(StatusCode::NOT_MODIFIED, Vec::new());
        response.headers_mut().remove(header::CONTENT_TYPE);
        response
    } else {
        let (body, content_type) = if protobuf {
            (
                document.protobuf(),
                "application/com.github.proto-openapi.spec.v2.v1.0+protobuf",
            )
        } else {
            (document.bytes.clone(), "application/json")
        };
        let mut response = Response::new(crate::core::full_body(body));
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        response
    };
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&document.etag) {
        headers.insert(header::ETAG, value);
    }
    headers.insert(header::VARY, HeaderValue::from_static("Accept"));
    response
}

/// The aggregated discovery version a transform names (`v2` or `v2beta1` of
/// `apidiscovery.k8s.io`, `as=APIGroupDiscoveryList`).
fn aggregated_version(convert: &Convert) -> Option<&'static str> {
    if convert.group != "apidiscovery.k8s.io" || convert.kind != "APIGroupDiscoveryList" {
        return None;
    }
    match convert.version.as_str() {
        "v2" => Some("v2"),
        "v2beta1" => Some("v2beta1"),
        _ => None,
    }
}

/// `/api` or `/apis` as an `APIGroupDiscoveryList` of the version asked for, with
/// kube's `ETag` (the SHA-512 of the document, the same for both versions), `Vary`
/// and `Cache-Control: public`; 304 when `If-None-Match` names the `ETag`.
fn serve_aggregated(
    registry: &Registry,
    parts: &http::request::Parts,
    core: bool,
    convert: &Convert,
) -> Response<ResponseBody> {
    let version = aggregated_version(convert).unwrap_or("v2");
    let mut document = aggregated::group_list(registry, core);
    let etag = format!("\"{}\"", sha512_hex(&serde_json::to_vec(&document).unwrap_or_default()));
    let not_modified = parts
        .headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|value| value.as_bytes() == etag.as_bytes());
    let mut response = if not_modified {
        let mut response = bytes_response(StatusCode::NOT_MODIFIED, Vec::new());
        response.headers_mut().remove(header::CONTENT_TYPE);
        response
    } else {
        if let Some(fields) = document.as_object_mut() {
            let mut typed = serde_json::Map::new();
            typed.insert("kind".into(), json!("APIGroupDiscoveryList"));
            typed.insert("apiVersion".into(), json!(format!("apidiscovery.k8s.io/{version}")));
            typed.append(fields);
            document = Value::Object(typed);
        }
        let mut response = json_response(StatusCode::OK, &document);
        let content_type = format!("application/json;g=apidiscovery.k8s.io;v={version};as=APIGroupDiscoveryList");
        if let Ok(value) = HeaderValue::from_str(&content_type) {
            response.headers_mut().insert(header::CONTENT_TYPE, value);
        }
        response
    };
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&etag) {
        headers.insert(header::ETAG, value);
    }
    headers.insert(header::VARY, HeaderValue::from_static("Accept"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("public"));
    response
}

/// An `OpenAPI` document as kube-openapi's handlers serve it: its `ETag` the SHA-512 of
/// the JSON, `If-None-Match` naming it answered 304 (`http.ServeContent`), `Vary:
/// Accept`. A v3 group version (`hashed`, its path under `/openapi/v3`) asked for with
/// `?hash=` is redirected (301) to its current hash when the hash is another, and
/// otherwise marked `Cache-Control: public, immutable`, expiring in a year, as
/// `handler3.HandleGroupVersion` does: clients cache it by URL.
fn serve_openapi(parts: &http::request::Parts, document: &Value, hashed: Option<&str>) -> Response<ResponseBody> {
    let bytes = serde_json::to_vec(document).unwrap_or_default();
    let hash = sha512_hex(&bytes);
    let etag = format!("\"{hash}\"");
    let asked = hashed.and_then(|_| {
        form_urlencoded::parse(parts.uri.query().unwrap_or_default().as_bytes())
            .find(|(key, _)| key == "hash")
            .map(|(_, value)| value.into_owned())
            .filter(|value| !value.is_empty())
    });
    let not_modified = parts
        .headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|value| value.as_bytes() == etag.as_bytes());
    let mut response = match (&asked, hashed) {
        (Some(asked), Some(path)) if *asked != hash => {
            let mut response = bytes_response(StatusCode::MOVED_PERMANENTLY, Vec::new());
            if let Ok(location) = HeaderValue::from_str(&format!("/openapi/v3/{path}?hash={hash}")) {
                response.headers_mut().insert(header::LOCATION, location);
            }
            response
        }
        _ if not_modified => {
            let mut response = bytes_response(StatusCode::NOT_MODIFIED, Vec::new());
            response.headers_mut().remove(header::CONTENT_TYPE);
            response
        }
        _ => bytes_response(StatusCode::OK, bytes),
    };
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&etag) {
        headers.insert(header::ETAG, value);
    }
    headers.insert(header::VARY, HeaderValue::from_static("Accept"));
    if asked.as_deref() == Some(hash.as_str()) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("public, immutable"));
        let expires = jiff::Timestamp::now()
            .to_zoned(jiff::tz::TimeZone::UTC)
            .checked_add(jiff::Span::new().years(1))
            .map(|time| time.strftime("%a, %d %b %Y %H:%M:%S UTC").to_string());
        if let Some(value) = expires.ok().and_then(|text| HeaderValue::from_str(&text).ok()) {
            headers.insert(header::EXPIRES, value);
        }
    }
    response
}

/// What `/version` reports: the Kubernetes version the server imitates
/// ([`crate::core::KUBERNETES_VERSION`]), marked as ours.
fn version() -> Value {
    let (major, minor) = crate::core::KUBERNETES_VERSION;
    json!({
        "major": major.to_string(), "minor": minor.to_string(),
        "gitVersion": crate::core::git_version(),
        "gitCommit": "", "gitTreeState": "clean", "buildDate": "2026-01-01T00:00:00Z",
        "goVersion": "rust", "compiler": "rustc", "platform": "linux/amd64",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_reports_the_release_imitated() {
        let version = version();
        assert_eq!(version["major"], "1");
        assert_eq!(version["minor"], "32");
        assert_eq!(version["gitVersion"], "v1.32.0+wheelhouse-envtest");
    }

    #[test]
    fn etags_are_upper_case_sha512() {
        let etag = sha512_hex(b"");
        assert_eq!(etag.len(), 128);
        assert!(etag.starts_with("CF83E1357EEFB8BD"), "{etag}");
    }
}
