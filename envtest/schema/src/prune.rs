//! What happens to a custom resource before it is validated: fields its schema does not
//! declare are dropped (`pkg/apiserver/schema/pruning/algorithm.go`), `default`s fill
//! in absent fields, and nulls of fields that may not be null are dropped
//! (`pkg/apiserver/schema/defaulting/algorithm.go` and `prunenulls.go`), all in
//! apiextensions-apiserver.

use serde_json::Value;

/// Drops the fields `schema` does not declare (unless it preserves unknown fields) and
/// returns their paths. At the root, and in embedded resources, `apiVersion`, `kind` and
/// `metadata` belong to the server.
pub(crate) fn prune(schema: &Value, value: &mut Value) -> Vec<String> {
    let mut pruned = Vec::new();
    walk(schema, value, "", true, &mut pruned);
    pruned
}

/// `prune`, of a value under the resource's root (a default): `apiVersion`, `kind`
/// and `metadata` are kept only if `schema` is an embedded resource.
pub(crate) fn prune_value(schema: &Value, value: &mut Value) -> Vec<String> {
    let mut pruned = Vec::new();
    walk(schema, value, "", false, &mut pruned);
    pruned
}

fn walk(schema: &Value, value: &mut Value, path: &str, root: bool, pruned: &mut Vec<String>) {
    let preserve = schema["x-kubernetes-preserve-unknown-fields"] == true;
    let embedded = root || schema["x-kubernetes-embedded-resource"] == true;
    match value {
        Value::Object(map) => {
            let properties = schema["properties"].as_object();
            let additional = &schema["additionalProperties"];
            let keys: Vec<String> = map.keys().cloned().collect();
            for key in keys {
                if embedded && matches!(key.as_str(), "apiVersion" | "kind" | "metadata") {
                    continue;
                }
                let child_path = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                let child_schema = properties
                    .and_then(|p| p.get(&key))
                    .or_else(|| additional.is_object().then_some(additional));
                match child_schema {
                    Some(child_schema) => {
                        if let Some(child) = map.get_mut(&key) {
                            walk(child_schema, child, &child_path, false, pruned);
                        }
                    }
                    None if preserve || *additional == Value::Bool(true) => {}
                    None => {
                        map.remove(&key);
                        pruned.push(child_path);
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items").filter(|s| s.is_object()) {
                for (index, item) in items.iter_mut().enumerate() {
                    walk(item_schema, item, &format!("{path}[{index}]"), false, pruned);
                }
            }
        }
        _ => {}
    }
}

/// The schema of a property: declared, else that of additional properties.
fn property<'a>(schema: &'a Value, key: &str) -> Option<&'a Value> {
    schema["properties"]
        .get(key)
        .or_else(|| schema.get("additionalProperties").filter(|s| s.is_object()))
}

/// `structuraldefaulting.Default`: absent properties (and null ones that may not be
/// null) take their schema's `default`.
pub(crate) fn default(schema: &Value, value: &mut Value) {
    match value {
        Value::Object(map) => {
            if let Some(properties) = schema["properties"].as_object() {
                for (key, property) in properties {
                    let Some(default) = property.get("default") else {
                        continue;
                    };
                    let absent = map.get(key).is_none_or(|v| v.is_null() && property["nullable"] != true);
                    if absent {
                        map.insert(key.clone(), default.clone());
                    }
                }
            }
            for (key, child) in map.iter_mut() {
                if let Some(child_schema) = property(schema, key) {
                    default(child_schema, child);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items").filter(|s| s.is_object()) {
                for item in items {
                    default(item_schema, item);
                }
            }
        }
        _ => {}
    }
}

/// `PruneNonNullableNullsWithoutDefaults`: a null the schema does not allow, and has no
/// default for, is dropped as if it had not been sent.
pub(crate) fn prune_nulls(schema: &Value, value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|key, child| {
                let child_schema = property(schema, key);
                !(child.is_null() && child_schema.is_some_and(|s| s["nullable"] != true && s.get("default").is_none()))
            });
            for (key, child) in map.iter_mut() {
                if let Some(child_schema) = property(schema, key) {
                    prune_nulls(child_schema, child);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items").filter(|s| s.is_object()) {
                for item in items {
                    prune_nulls(item_schema, item);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn undeclared_fields_go_and_defaults_come() {
        let schema = json!({"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
                "image": {"type": "string"}, "replicas": {"type": "integer", "default": 1},
                "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
                "template": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {"spec": {"type": "object"}}},
                "note": {"type": "string"},
            }},
        }});
        let mut object = json!({"apiVersion": "v", "kind": "K", "metadata": {"name": "a"}, "stray": 1,
            "spec": {"image": "nginx", "unknown": 1, "extra": {"kept": true}, "note": null,
                "template": {"apiVersion": "v1", "kind": "Pod", "metadata": {}, "junk": 1}}});
        assert_eq!(
            prune(&schema, &mut object),
            vec!["spec.template.junk", "spec.unknown", "stray"]
        );
        default(&schema, &mut object);
        prune_nulls(&schema, &mut object);
        assert_eq!(
            object["spec"],
            json!({"image": "nginx", "replicas": 1, "extra": {"kept": true},
                "template": {"apiVersion": "v1", "kind": "Pod", "metadata": {}}})
        );
        assert_eq!(object["metadata"]["name"], "a");
    }
}
