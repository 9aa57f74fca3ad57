//! `fieldsV1`, the field sets of `metadata.managedFields`, computed from the JSON a
//! manager wrote, as kube-apiserver records an Update: `f:<field>` for each field,
//! `k:<keys>` for each item of a list merged by key, `.` for a map or item itself.

use serde_json::{Map, Value, json};

/// The key fields of the Pod lists that merge item by item (the rest are atomic: a
/// manager owns the whole list).
fn list_keys(field: &str) -> Option<&'static [&'static str]> {
    Some(match field {
        "containers" | "initContainers" | "env" | "volumes" | "ephemeralContainers" => &["name"],
        "ports" => &["containerPort", "protocol"],
        "volumeMounts" => &["mountPath"],
        "conditions" => &["type"],
        "ownerReferences" => &["uid"],
        "podIPs" | "hostIPs" => &["ip"],
        _ => return None,
    })
}

/// The field set of everything in `object` (top-level fields without their own `.`,
/// as the server writes `f:metadata` and `f:spec`).
pub fn fields_v1(object: &Value) -> Value {
    let Some(map) = object.as_object() else {
        return json!({});
    };
    Value::Object(
        map.iter()
            .map(|(name, value)| (format!("f:{name}"), field(name, value, false)))
            .collect(),
    )
}

/// The set of one field named `name` holding `value`; `dot` marks the node itself
/// (every nested non-empty map, list and list item has one).
fn field(name: &str, value: &Value, dot: bool) -> Value {
    let mut set = Map::new();
    match value {
        Value::Object(children) if !children.is_empty() => {
            if dot {
                set.insert(".".into(), json!({}));
            }
            for (child, value) in children {
                set.insert(format!("f:{child}"), field(child, value, true));
            }
        }
        Value::Array(items) if !items.is_empty() => {
            let Some(keys) = list_keys(name) else {
                return json!({});
            };
            set.insert(".".into(), json!({}));
            for item in items {
                set.insert(format!("k:{}", item_key(item, keys)), field("", item, true));
            }
        }
        _ => {}
    }
    Value::Object(set)
}

/// An item's key, as the JSON object of its key fields in name order (`protocol`
/// defaults to TCP, as the server defaults it before computing the set).
fn item_key(item: &Value, keys: &[&str]) -> String {
    let mut key = Map::new();
    for &name in keys {
        let value = match (name, item.get(name)) {
            (_, Some(value)) => value.clone(),
            ("protocol", None) => json!("TCP"),
            (_, None) => continue,
        };
        key.insert(name.to_owned(), value);
    }
    Value::Object(key).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_lists_by_key_and_atomic_lists_have_the_servers_shape() {
        let written = json!({
            "metadata": {"labels": {"app": "web"}},
            "spec": {"containers": [{"name": "web", "args": ["-v"], "ports": [{"containerPort": 80}]}]},
        });
        let expected = json!({
            "f:metadata": {"f:labels": {".": {}, "f:app": {}}},
            "f:spec": {"f:containers": {".": {}, "k:{\"name\":\"web\"}": {
                ".": {},
                "f:args": {},
                "f:name": {},
                "f:ports": {".": {}, "k:{\"containerPort\":80,\"protocol\":\"TCP\"}": {".": {}, "f:containerPort": {}}},
            }}},
        });
        assert_eq!(fields_v1(&written), expected);
    }
}
