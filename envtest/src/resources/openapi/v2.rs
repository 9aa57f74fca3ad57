//! `/openapi/v2`: one Swagger 2.0 document of every served group version's paths and
//! definitions, built-in and custom, as kube-apiserver aggregates them
//! (`k8s.io/kube-openapi/pkg/handler`, with apiextensions-apiserver's CRD documents
//! merged in). `kubectl explain` and older kubectl's client-side validation read it.
//!
//! Its definitions are those of `/openapi/v3` in v2's forms (`#/definitions/`
//! references, no `nullable`); its paths are each resource's routes as 1.32 writes them
//! (`routes`: operation ids such as `listAppsV1DeploymentForAllNamespaces`, the watch
//! paths, descriptions, media types, answers), with the parameters many operations
//! share written once under their hashed names (`shared`). It is built once per set of
//! served types: the document and its `ETag` are kept until a
//! `CustomResourceDefinition` changes what is served, so a request costs a lookup, not
//! a rebuild.

mod builder;
mod definitions;
mod protobuf;
mod routes;
mod shared;

use std::sync::{Arc, LazyLock, OnceLock};

use parking_lot::Mutex;
use serde_json::{Map, Value, json};

use crate::core::{ResourceType, sha512_hex};
use crate::resources::registry::Registry;

/// The serialized document and its `ETag` (kube's `%X` of the SHA-512, quoted).
#[derive(Clone)]
pub(crate) struct Document {
    /// Shared, not copied, by every answer that sends it.
    pub bytes: bytes::Bytes,
    pub etag: Arc<str>,
    /// The protobuf form, encoded from `bytes` when first asked for and kept with them.
    protobuf: Arc<OnceLock<bytes::Bytes>>,
}

impl Document {
    /// The document as gnostic's `openapi.v2.Document` message, encoded once.
    pub fn protobuf(&self) -> bytes::Bytes {
        self.protobuf
            .get_or_init(|| {
                let document: Value = serde_json::from_slice(&self.bytes).unwrap_or_default();
                bytes::Bytes::from(protobuf::encode(&document))
            })
            .clone()
    }
}

/// How many sets of served types are remembered: test environments running at once
/// with CRDs of their own each have theirs.
const CACHED: usize = 8;

type Cache = Mutex<Vec<(Vec<Arc<ResourceType>>, Document)>>;

static CACHE: LazyLock<Cache> = LazyLock::new(Mutex::default);

/// The document for what `registry` serves: built-in types never change, so the served
/// custom types (held, so they cannot be freed and their addresses reused) say whether
/// a document made before still holds.
pub(crate) fn document(registry: &Registry) -> Document {
    let key: Vec<Arc<ResourceType>> = registry.custom_types();
    let same =
        |held: &[Arc<ResourceType>]| held.len() == key.len() && held.iter().zip(&key).all(|(a, b)| Arc::ptr_eq(a, b));
    {
        let mut cache = CACHE.lock();
        if let Some(index) = cache.iter().position(|(held, _)| same(held)) {
            let entry = cache.remove(index);
            let document = entry.1.clone();
            cache.insert(0, entry);
            return document;
        }
    }
    let bytes = serde_json::to_vec(&build(registry)).unwrap_or_default();
    let document = Document {
        etag: Arc::from(format!("\"{}\"", sha512_hex(&bytes))),
        bytes: bytes::Bytes::from(bytes),
        protobuf: Arc::default(),
    };
    let mut cache = CACHE.lock();
    cache.insert(0, (key, document.clone()));
    cache.truncate(CACHED);
    document
}

/// The whole document: each group version's definitions from its v3 document, its
/// paths as kube-apiserver's installer and kube-openapi's builder write them
/// (`routes`), and the parameters many operations share written once (`shared`).
fn build(registry: &Registry) -> Value {
    let mut definitions = Map::new();
    let groups: Vec<(String, Vec<String>)> = registry.groups().into_iter().collect();
    for (group, versions) in &groups {
        for version in versions {
            let Some(document) = super::group_version(registry, group, version) else {
                continue;
            };
            if let Some(schemas) = document["components"]["schemas"].as_object() {
                for (name, schema) in schemas {
                    definitions
                        .entry(name.clone())
                        .or_insert_with(|| to_v2_schema(schema.clone()));
                }
            }
        }
    }
    // A CRD's definition as apiextensions-apiserver publishes it in v2.
    for resource in registry.custom_types() {
        if let Some((name, mut schema)) = super::custom_definition(&resource) {
            structural_to_v2(&mut schema);
            definitions.insert(name, to_v2_schema(schema));
        }
    }
    let mut listed = Vec::new();
    for (group, versions) in &groups {
        for version in versions {
            let Some(list) = registry.resource_list(group, version) else {
                continue;
            };
            for resource in list["resources"].as_array().into_iter().flatten() {
                let name = resource["name"].as_str().unwrap_or_default();
                let lists = resource["verbs"]
                    .as_array()
                    .is_some_and(|verbs| verbs.iter().any(|verb| verb == "list"));
                if name.contains('/') || !lists {
                    continue;
                }
                let kind = resource["kind"].as_str().unwrap_or_default().to_owned();
                let custom = registry
                    .get(group, version, name)
                    .filter(|resource| resource.custom)
                    .map(|resource| (name.to_owned(), super::selectable_fields(&resource)));
                listed.push(definitions::Listed {
                    group: group.clone(),
                    version: version.clone(),
                    kind,
                    custom,
                });
            }
        }
    }
    let by_kind = definitions_by_kind(&definitions);
    definitions::add(&mut definitions, &listed, &by_kind);
    let by_kind = definitions_by_kind(&definitions);
    let references = routes::Definitions { by_kind: &by_kind };
    let mut routed = Map::new();
    routes::other_paths(&groups, &mut routed);
    for (group, versions) in &groups {
        for version in versions {
            let Some(list) = registry.resource_list(group, version) else {
                continue;
            };
            let custom = registry
                .of_group_version(group, version)
                .iter()
                .any(|resource| resource.custom);
            routes::resource_paths(&list, group, version, custom, &references, &mut routed);
        }
    }
    let mut paths: Map<String, Value> = routed
        .into_iter()
        .map(|(path, item)| {
            let path_routes = item["routes"].as_array().cloned().unwrap_or_default();
            let built = builder::path_item(&path, &path_routes);
            (path, built)
        })
        .collect();
    let parameters = shared::deduplicate(&mut paths);
    json!({
        "swagger": "2.0",
        "info": {"title": "Kubernetes", "version": crate::core::openapi_version()},
        "paths": paths,
        "definitions": definitions,
        "parameters": parameters,
        "securityDefinitions": {"BearerToken": {
            "description": "Bearer Token authentication", "type": "apiKey", "name": "authorization", "in": "header",
        }},
        "security": [{"BearerToken": []}],
    })
}

/// A v3 schema as v2 writes it: references into `#/definitions/`, a lone `allOf`
/// reference (v3's way to describe a reference) as the reference itself, and none of
/// what Swagger 2.0 lacks (`nullable`, `anyOf`, `oneOf`, `not`), as kube-openapi's and
/// apiextensions' v2 builders drop them.
fn to_v2_schema(mut schema: Value) -> Value {
    match &mut schema {
        Value::Object(fields) => {
            for key in ["nullable", "anyOf", "oneOf", "not"] {
                fields.remove(key);
            }
            let lone_reference = fields
                .get("allOf")
                .and_then(Value::as_array)
                .filter(|all| all.len() == 1)
                .and_then(|all| all[0].get("$ref"))
                .cloned();
            if let Some(reference) = lone_reference {
                fields.remove("allOf");
                fields.insert("$ref".into(), reference);
            }
            if let Some(Value::String(reference)) = fields.get_mut("$ref")
                && let Some(name) = reference.strip_prefix("#/components/schemas/")
            {
                *reference = format!("#/definitions/{name}");
            }
            for value in fields.values_mut() {
                *value = to_v2_schema(std::mem::take(value));
            }
        }
        Value::Array(items) => {
            for item in items {
                *item = to_v2_schema(std::mem::take(item));
            }
        }
        _ => {}
    }
    schema
}

/// apiextensions-apiserver's `ToStructuralOpenAPIV2`: what kubectl cannot read of a
/// structural schema goes. Junctors are dropped; a nullable value loses its type, items
/// and properties (and its name in its parent's `required`); a value that keeps unknown
/// fields loses its items and properties, and its type when an object; an array left
/// without items loses its type.
fn structural_to_v2(schema: &mut Value) {
    let Some(fields) = schema.as_object_mut() else {
        return;
    };
    // A lone `allOf` reference is how the v3 form describes a reference (metadata's
    // `ObjectMeta`): `to_v2_schema` makes it the reference; other junctors go.
    let lone_reference = fields
        .get("allOf")
        .and_then(Value::as_array)
        .is_some_and(|all| all.len() == 1 && all[0].get("$ref").is_some());
    if !lone_reference {
        fields.remove("allOf");
    }
    for key in ["oneOf", "anyOf", "not"] {
        fields.remove(key);
    }
    let nullable_properties: Vec<String> = fields
        .get("properties")
        .and_then(Value::as_object)
        .map(|properties| {
            properties
                .iter()
                .filter(|(_, property)| property["nullable"] == true)
                .map(|(name, _)| name.clone())
                .collect()
        })
        .unwrap_or_default();
    let nullable_additional = fields
        .get("additionalProperties")
        .is_some_and(|additional| additional["nullable"] == true);
    if fields.remove("nullable") == Some(Value::Bool(true)) {
        for key in ["type", "items", "properties"] {
            fields.remove(key);
        }
    }
    let preserves = fields.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(true));
    if preserves {
        fields.remove("items");
        fields.remove("properties");
    }
    let typed = |fields: &Map<String, Value>, name: &str| fields.get("type").and_then(Value::as_str) == Some(name);
    if !fields.contains_key("items") && typed(fields, "array") {
        fields.remove("type");
    }
    if preserves && typed(fields, "object") {
        fields.remove("type");
    }
    if nullable_additional {
        fields.remove("required");
    } else if let Some(Value::Array(required)) = fields.get_mut("required") {
        required.retain(|name| !nullable_properties.iter().any(|nullable| name == nullable));
    }
    if let Some(Value::Object(properties)) = fields.get_mut("properties") {
        for property in properties.values_mut() {
            structural_to_v2(property);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(child) = fields.get_mut(key) {
            structural_to_v2(child);
        }
    }
}

/// Definition names by `group/version/kind`, to type the bodies of operations.
fn definitions_by_kind(definitions: &Map<String, Value>) -> Map<String, Value> {
    let mut by_kind = Map::new();
    for (name, schema) in definitions {
        for gvk in schema["x-kubernetes-group-version-kind"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let key = format!(
                "{}/{}/{}",
                text(&gvk["group"]),
                text(&gvk["version"]),
                text(&gvk["kind"])
            );
            by_kind.insert(key, json!(format!("#/definitions/{name}")));
        }
    }
    by_kind
}

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v3_forms_become_v2s() {
        let schema = json!({"properties": {"a": {"allOf": [{"$ref": "#/components/schemas/X"}], "description": "d"},
            "b": {"type": "string", "nullable": true}}});
        assert_eq!(
            to_v2_schema(schema),
            json!({"properties": {"a": {"$ref": "#/definitions/X", "description": "d"}, "b": {"type": "string"}}})
        );
    }

    #[test]
    fn structural_schemas_lose_what_kubectl_cannot_read() {
        let mut schema = json!({"type": "object", "required": ["a", "b"], "properties": {
            "a": {"type": "string", "nullable": true},
            "b": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {"c": {"type": "string"}}},
            "d": {"type": "array", "x-kubernetes-preserve-unknown-fields": true, "items": {"type": "string"}},
            "e": {"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": true},
        }});
        structural_to_v2(&mut schema);
        assert_eq!(
            schema,
            json!({"type": "object", "required": ["b"], "properties": {
                "a": {},
                "b": {"x-kubernetes-preserve-unknown-fields": true},
                "d": {"x-kubernetes-preserve-unknown-fields": true},
                "e": {"x-kubernetes-int-or-string": true},
            }})
        );
    }

    #[test]
    fn the_document_is_built_once_per_set_of_served_types() {
        let registry = Registry::default();
        let first = document(&registry);
        let second = document(&registry.clone());
        assert_eq!(
            first.bytes.as_ptr(),
            second.bytes.as_ptr(),
            "the cached document is served again"
        );
        let parsed: Value = serde_json::from_slice(&first.bytes).expect("JSON");
        assert_eq!(parsed["swagger"], "2.0");
        let pod = &parsed["definitions"]["io.k8s.api.core.v1.Pod"];
        assert_eq!(pod["x-kubernetes-group-version-kind"][0]["kind"], "Pod", "{pod}");
        let post = &parsed["paths"]["/api/v1/namespaces/{namespace}/pods"]["post"];
        assert_eq!(
            post["parameters"][0]["schema"]["$ref"], "#/definitions/io.k8s.api.core.v1.Pod",
            "{post}"
        );
        assert!(!String::from_utf8_lossy(&first.bytes).contains("#/components/"));
    }
}
