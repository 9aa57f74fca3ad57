//! The documents that describe the API rather than hold objects: discovery
//! (`/api`, `/apis`), `/version`, health checks and the `OpenAPI` index kubectl reads
//! to decide that the server validates fields itself.

use http::{HeaderValue, Response, StatusCode, header};
use serde_json::{Value, json};

use crate::core::{ApiError, ResponseBody, bytes_response, error_response, json_response, text_response};
use crate::resources::registry::Registry;

/// Answers discovery, version, health and the `OpenAPI` documents. kubectl reads the latter
/// before it writes: `/openapi/v3` tells it which group versions exist and that PATCH
/// takes `fieldValidation`, so it leaves validation to the server; `/openapi/v2` is
/// valid but empty (JSON, or the protobuf kubectl asks for), so kubectl's fallbacks
/// find no schema and use their built-in types.
pub(crate) fn serve(registry: &Registry, parts: &http::request::Parts) -> Response<ResponseBody> {
    /// `Document{swagger: "2.0", info: {title: "Kubernetes", version: "v1.34.0"},
    /// paths: {}, definitions: {}}` in the encoding of gnostic's `OpenAPIv2.proto`.
    const OPENAPI_V2_PROTOBUF: &[u8] = b"\x0a\x032.0\x12\x15\x0a\x0aKubernetes\x12\x07v1.34.0\x42\x00\x4a\x00";
    if parts.method != http::Method::GET {
        return error_response(&ApiError::method_not_allowed());
    }
    let accept = parts
        .headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let segments: Vec<&str> = parts.uri.path().trim_matches('/').split('/').collect();
    let document = match segments.as_slice() {
        ["healthz" | "readyz" | "livez"] => return text_response(StatusCode::OK, "ok"),
        ["version"] => Some(version()),
        ["api"] => Some(Registry::core_versions()),
        ["api", "v1"] => registry.resource_list("", "v1"),
        ["apis"] => Some(registry.group_list()),
        ["apis", group] | ["apis", group, _] if registry.group(group).is_none() => {
            return error_response(&ApiError::page_not_found());
        }
        ["apis", group] => registry.group(group),
        ["apis", group, version] => registry.resource_list(group, version),
        ["openapi", "v2"] if accept.contains("protobuf") && !accept.contains("json") => {
            let mut response = bytes_response(StatusCode::OK, OPENAPI_V2_PROTOBUF.to_vec());
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/com.github.proto-openapi.spec.v2.v1.0+protobuf"),
            );
            return response;
        }
        ["openapi", "v2"] => Some(json!({
            "swagger": "2.0", "info": {"title": "Kubernetes", "version": "v1.34.0"}, "paths": {}, "definitions": {},
        })),
        ["openapi", "v3"] => Some(crate::resources::openapi::index(registry)),
        ["openapi", "v3", "api", version] => crate::resources::openapi::group_version(registry, "", version),
        ["openapi", "v3", "apis", group, version] => crate::resources::openapi::group_version(registry, group, version),
        _ => None,
    };
    match document {
        Some(document) => json_response(StatusCode::OK, &document),
        None => error_response(&ApiError::path_not_found()),
    }
}

/// What `/version` reports: the Kubernetes version k8s-openapi was built for (whose
/// resources the server serves), marked as ours.
fn version() -> Value {
    let (major, minor) = crate::resources::catalogue::kubernetes_version();
    json!({
        "major": major.to_string(), "minor": minor.to_string(),
        "gitVersion": format!("v{major}.{minor}.0+wheelhouse-envtest"),
        "gitCommit": "", "gitTreeState": "clean", "buildDate": "2026-01-01T00:00:00Z",
        "goVersion": "rust", "compiler": "rustc", "platform": "linux/amd64",
    })
}
