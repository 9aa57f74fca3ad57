//! The walk every structural check takes: a value and the schema of each node under
//! it, with the node's field path as kube-apiserver prints it.

use serde_json::Value;

use crate::errors;

/// Calls `visit` on `value` and every value under it that `schema` declares, with the
/// value's schema and field path (`a.b`, `a[key]`, `a[0]`), as apiextensions-apiserver's
/// structural walks go.
pub(crate) fn visit(schema: &Value, value: &Value, path: &str, visit_node: &mut dyn FnMut(&Value, &Value, &str)) {
    visit_node(schema, value, path);
    match value {
        Value::Object(map) => {
            for (key, child_value) in map {
                if let Some(property) = schema["properties"].get(key) {
                    visit(property, child_value, &errors::child(path, key), visit_node);
                } else if let Some(additional) = schema.get("additionalProperties").filter(|s| s.is_object()) {
                    visit(additional, child_value, &errors::subscript(path, key), visit_node);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items").filter(|s| s.is_object()) {
                for (index, item) in items.iter().enumerate() {
                    visit(item_schema, item, &errors::subscript(path, index), visit_node);
                }
            }
        }
        _ => {}
    }
}
