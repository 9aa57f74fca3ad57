//! The documents that describe the API rather than hold objects: discovery
//! (`/api`, `/apis`), `/version`, health checks and the `OpenAPI` index kubectl reads
//! to decide that the server validates fields itself.

use http::{HeaderValue, Response, StatusCode, header};
use serde_json::{Value, json};

use crate::registry::Registry;
use crate::server::{ResponseBody, bytes_response, error_response, json_response, text_response};
use crate::status::ApiError;

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
        ["openapi", "v3"] => Some(openapi_v3_index(registry)),
        ["openapi", "v3", "api", "v1"] => openapi_v3_group_version(registry, "", "v1"),
        ["openapi", "v3", "apis", group, version] => openapi_v3_group_version(registry, group, version),
        _ => None,
    };
    match document {
        Some(document) => json_response(StatusCode::OK, &document),
        None => error_response(&ApiError::path_not_found()),
    }
}

/// `GET /openapi/v3`: where each group version's document is, with a hash of its
/// content in the URL as the real server gives (clients cache by URL).
fn openapi_v3_index(registry: &Registry) -> Value {
    let mut paths = serde_json::Map::new();
    for (group, versions) in registry.groups() {
        for version in versions {
            let key = if group.is_empty() {
                format!("api/{version}")
            } else {
                format!("apis/{group}/{version}")
            };
            let Some(document) = openapi_v3_group_version(registry, &group, &version) else {
                continue;
            };
            let mut hasher = std::hash::DefaultHasher::new();
            std::hash::Hash::hash(&document.to_string(), &mut hasher);
            let hash = std::hash::Hasher::finish(&hasher);
            paths.insert(
                key.clone(),
                json!({"serverRelativeURL": format!("/openapi/v3/{key}?hash={hash:016X}")}),
            );
        }
    }
    json!({"paths": paths})
}

/// The `OpenAPI` v3 document of one group version: its paths and operations, each
/// marked with its kind and action and taking the parameters the server accepts, but
/// no schemas (so clients neither validate nor build patches from them).
fn openapi_v3_group_version(registry: &Registry, group: &str, version: &str) -> Option<Value> {
    let list = registry.resource_list(group, version)?;
    let prefix = if group.is_empty() {
        format!("/api/{version}")
    } else {
        format!("/apis/{group}/{version}")
    };
    let mut paths = serde_json::Map::new();
    for resource in list["resources"].as_array().into_iter().flatten() {
        let name = resource["name"].as_str().unwrap_or_default();
        let (plural, subresource) = match name.split_once('/') {
            Some((plural, subresource)) => (plural, Some(subresource)),
            None => (name, None),
        };
        let namespaced = resource["namespaced"].as_bool().unwrap_or(false);
        let gvk = json!({
            "group": resource.get("group").and_then(Value::as_str).unwrap_or(group),
            "version": resource.get("version").and_then(Value::as_str).unwrap_or(version),
            "kind": resource["kind"],
        });
        let collection = if namespaced {
            format!("{prefix}/namespaces/{{namespace}}/{plural}")
        } else {
            format!("{prefix}/{plural}")
        };
        let path_parameters = |with_name: bool| openapi_path_parameters(with_name, namespaced);
        let operation =
            |action: &str, parameters: &[&str], patch: bool| openapi_operation(action, &gvk, parameters, patch);
        let write = ["dryRun", "fieldManager", "fieldValidation"];
        let mut item = json!({
            "get": operation("get", &[], false),
            "put": operation("put", &write, false),
            "patch": operation("patch", &["dryRun", "fieldManager", "fieldValidation", "force"], true),
            "parameters": path_parameters(true),
        });
        if let Some(subresource) = subresource {
            paths.insert(format!("{collection}/{{name}}/{subresource}"), item);
            continue;
        }
        item["delete"] = operation("delete", &["dryRun", "gracePeriodSeconds", "propagationPolicy"], false);
        paths.insert(format!("{collection}/{{name}}"), item);
        let list_parameters = [
            "labelSelector",
            "fieldSelector",
            "limit",
            "continue",
            "resourceVersion",
            "watch",
        ];
        paths.insert(
            collection,
            json!({
                "get": operation("list", &list_parameters, false),
                "post": operation("post", &write, false),
                "delete": operation("deletecollection", &["labelSelector", "fieldSelector", "dryRun"], false),
                "parameters": path_parameters(false),
            }),
        );
        if namespaced {
            paths.insert(
                format!("{prefix}/{plural}"),
                json!({"get": operation("list", &list_parameters, false)}),
            );
        }
    }
    Some(json!({
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": "v1.34.0"},
        "paths": paths,
        "components": {"schemas": {}},
    }))
}

/// The `{name}` and `{namespace}` parameters of a path.
fn openapi_path_parameters(with_name: bool, namespaced: bool) -> Vec<Value> {
    let names = [("name", with_name), ("namespace", namespaced)];
    names
        .into_iter()
        .filter(|(_, present)| *present)
        .map(|(name, _)| json!({"name": name, "in": "path", "required": true, "schema": {"type": "string", "uniqueItems": true}}))
        .collect()
}

/// One operation of a path: what kind it acts on and the query parameters it takes.
/// PATCH also says which patch types it accepts; strategic merge is left out because
/// no schema here carries its merge keys (kubectl then uses its compiled-in types).
fn openapi_operation(action: &str, gvk: &Value, parameters: &[&str], patch: bool) -> Value {
    let parameters: Vec<Value> = parameters
        .iter()
        .map(|p| {
            let kind = if matches!(*p, "force" | "watch") {
                "boolean"
            } else {
                "string"
            };
            json!({"name": p, "in": "query", "schema": {"type": kind, "uniqueItems": true}})
        })
        .collect();
    let mut operation = json!({
        "parameters": parameters,
        "responses": {"200": {"description": "OK"}},
        "x-kubernetes-action": action,
        "x-kubernetes-group-version-kind": gvk,
    });
    if patch {
        let content: serde_json::Map<String, Value> = [
            "application/json-patch+json",
            "application/merge-patch+json",
            "application/apply-patch+yaml",
        ]
        .into_iter()
        .map(|t| (t.to_owned(), json!({"schema": {"type": "object"}})))
        .collect();
        operation["requestBody"] = json!({"content": content, "required": true});
    }
    operation
}

/// What `/version` reports: the Kubernetes whose behaviour the server imitates (that
/// of k8s-openapi's newest version: its validation messages, for one), marked as ours.
fn version() -> Value {
    json!({
        "major": "1", "minor": "37", "gitVersion": "v1.37.0+wheelhouse-envtest",
        "gitCommit": "", "gitTreeState": "clean", "buildDate": "2026-01-01T00:00:00Z",
        "goVersion": "rust", "compiler": "rustc", "platform": "linux/amd64",
    })
}
