//! The `paths` of a group version's `OpenAPI` v3 document: each resource's operations,
//! marked with their kind and action and taking the parameters the server accepts, as
//! kube-apiserver's endpoint installer publishes them
//! (`staging/src/k8s.io/apiserver/pkg/endpoints/installer.go`).

use serde_json::{Map, Value, json};

/// The paths of `list`, the discovery document (`APIResourceList`) of `group`/`version`.
pub(super) fn paths(list: &Value, group: &str, version: &str) -> Map<String, Value> {
    let prefix = if group.is_empty() {
        format!("/api/{version}")
    } else {
        format!("/apis/{group}/{version}")
    };
    let mut paths = Map::new();
    for resource in list["resources"].as_array().into_iter().flatten() {
        let name = resource["name"].as_str().unwrap_or_default();
        let (plural, subresource) = match name.split_once('/') {
            Some((plural, subresource)) => (plural, Some(subresource)),
            None => (name, None),
        };
        let verbs: Vec<&str> = resource["verbs"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
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
        let operation =
            |action: &str, parameters: &[&str], patch: bool| self::operation(action, &gvk, parameters, patch);
        let write = ["dryRun", "fieldManager", "fieldValidation"];
        let mut item = Map::new();
        let has = |verb: &str| verbs.contains(&verb);
        if has("get") {
            item.insert("get".into(), operation("get", &[], false));
        }
        if has("update") {
            item.insert("put".into(), operation("put", &write, false));
        }
        if has("patch") {
            let parameters = ["dryRun", "fieldManager", "fieldValidation", "force"];
            item.insert("patch".into(), operation("patch", &parameters, true));
        }
        if let Some(subresource) = subresource {
            if has("create") {
                item.insert("post".into(), operation("post", &write, false));
            }
            item.insert("parameters".into(), json!(path_parameters(true, namespaced)));
            paths.insert(format!("{collection}/{{name}}/{subresource}"), Value::Object(item));
            continue;
        }
        if has("delete") {
            let parameters = ["dryRun", "gracePeriodSeconds", "propagationPolicy"];
            item.insert("delete".into(), operation("delete", &parameters, false));
        }
        if !item.is_empty() {
            item.insert("parameters".into(), json!(path_parameters(true, namespaced)));
            paths.insert(format!("{collection}/{{name}}"), Value::Object(item));
        }
        let list_parameters = [
            "labelSelector",
            "fieldSelector",
            "limit",
            "continue",
            "resourceVersion",
            "watch",
        ];
        let mut collection_item = Map::new();
        if has("list") {
            collection_item.insert("get".into(), operation("list", &list_parameters, false));
        }
        if has("create") {
            collection_item.insert("post".into(), operation("post", &write, false));
        }
        if has("deletecollection") {
            let parameters = ["labelSelector", "fieldSelector", "dryRun"];
            collection_item.insert("delete".into(), operation("deletecollection", &parameters, false));
        }
        collection_item.insert("parameters".into(), json!(path_parameters(false, namespaced)));
        paths.insert(collection, Value::Object(collection_item));
        if namespaced && has("list") {
            paths.insert(
                format!("{prefix}/{plural}"),
                json!({"get": operation("list", &list_parameters, false)}),
            );
        }
    }
    paths
}

/// The `{name}` and `{namespace}` parameters of a path.
fn path_parameters(with_name: bool, namespaced: bool) -> Vec<Value> {
    let names = [("name", with_name), ("namespace", namespaced)];
    names
        .into_iter()
        .filter(|(_, present)| *present)
        .map(|(name, _)| json!({"name": name, "in": "path", "required": true, "schema": {"type": "string", "uniqueItems": true}}))
        .collect()
}

/// One operation of a path: what kind it acts on and the query parameters it takes.
/// PATCH also says which patch types it accepts. Strategic merge is left out: the
/// schemas here do not carry merge keys, and kubectl builds strategic merge patches
/// from a document only when it offers them (else it uses its compiled-in types).
fn operation(action: &str, gvk: &Value, parameters: &[&str], patch: bool) -> Value {
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
        let content: Map<String, Value> = [
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
