//! The `x-kubernetes-*` extensions of the built-in types' schemas, which k8s-openapi's
//! generated schemas lack: list types and map keys, map types, patch strategies and
//! merge keys, the defaults of list map keys, and the definitions of any JSON value,
//! which have no type there (`extensions.json`, extracted from a
//! Kubernetes source tree by `tests/openapi_extensions.rs`). They are added to the
//! schemas `/openapi/v3` serves, and server-side apply's types are built from those.

use std::sync::LazyLock;

use serde_json::{Map, Value};

/// Definitions by name, as in `components.schemas`.
type Definitions = Map<String, Value>;

/// The extensions by definition name: `{"x-kubernetes-map-type": ..., "properties":
/// {field: {extension: value}}}`.
static EXTENSIONS: LazyLock<Map<String, Value>> = LazyLock::new(|| {
    let document: Value = serde_json::from_str(include_str!("extensions.json")).unwrap_or_default();
    document["definitions"].as_object().cloned().unwrap_or_default()
});

/// Adds the extensions to the definitions they belong to, where the definition has the
/// field (k8s-openapi may model a version without it).
pub(super) fn add(definitions: &mut Definitions) {
    for (name, definition) in definitions.iter_mut() {
        let (Some(extensions), Some(definition)) = (EXTENSIONS.get(name), definition.as_object_mut()) else {
            continue;
        };
        if extensions["untyped"] == true {
            definition.remove("type");
        }
        if let Some(map_type) = extensions.get("x-kubernetes-map-type") {
            definition.insert("x-kubernetes-map-type".into(), map_type.clone());
        }
        let Some(properties) = definition.get_mut("properties").and_then(Value::as_object_mut) else {
            continue;
        };
        for (field, added) in extensions["properties"].as_object().into_iter().flatten() {
            let (Some(property), Some(added)) = (
                properties.get_mut(field).and_then(Value::as_object_mut),
                added.as_object(),
            ) else {
                continue;
            };
            for (key, value) in added {
                property.insert(key.clone(), value.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn list_types_map_types_and_key_defaults_are_added() {
        let mut definitions: Definitions = serde_json::from_value(json!({
            "io.k8s.api.core.v1.PodSpec": {"type": "object", "properties": {"containers": {"type": "array"}, "tolerations": {"type": "array"}}},
            "io.k8s.api.core.v1.ContainerPort": {"type": "object", "properties": {"protocol": {"type": "string"}}},
            "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector": {"type": "object", "properties": {}}
        }))
        .expect("definitions");
        add(&mut definitions);
        let containers = &definitions["io.k8s.api.core.v1.PodSpec"]["properties"]["containers"];
        assert_eq!(containers["x-kubernetes-list-type"], "map");
        assert_eq!(containers["x-kubernetes-list-map-keys"], json!(["name"]));
        assert_eq!(containers["x-kubernetes-patch-merge-key"], "name");
        assert_eq!(
            definitions["io.k8s.api.core.v1.PodSpec"]["properties"]["tolerations"]["x-kubernetes-list-type"],
            "atomic"
        );
        assert_eq!(
            definitions["io.k8s.api.core.v1.ContainerPort"]["properties"]["protocol"]["default"],
            "TCP"
        );
        assert_eq!(
            definitions["io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector"]["x-kubernetes-map-type"],
            "atomic"
        );
    }
}
