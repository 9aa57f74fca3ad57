//! The JSON patch a defaulter answers with, made so that it never drops a field the
//! Rust type does not model.
//!
//! A typed round trip loses what the type does not know: fields of a newer API
//! version, annotations' siblings the struct skips, `null`s it omits. Diffing the
//! defaulted object against the request's JSON would therefore remove all of them.
//! Instead the defaulter's changes are taken from the typed object before and after
//! `default`, laid over the original JSON, and only that result is diffed against the
//! original: what the defaulter did not change stays exactly as it came.

use serde_json::Value;

/// The RFC 6902 patch from `original` to `original` with the changes between `before`
/// and `after` (the typed object's JSON around the defaulter) applied.
pub(crate) fn defaulting_patch(original: &Value, before: &Value, after: &Value) -> json_patch::Patch {
    let defaulted = overlay(original, before, after);
    json_patch::diff(original, &defaulted)
}

/// `original` with the changes from `before` to `after` laid over it.
///
/// Objects merge key by key, so unknown keys beside a changed one survive; arrays of
/// the same length as the typed array merge item by item (unknown fields inside list
/// items survive too); anything else that changed is replaced by `after`.
fn overlay(original: &Value, before: &Value, after: &Value) -> Value {
    if before == after {
        return original.clone();
    }
    match (original, before, after) {
        (Value::Object(original), Value::Object(before), Value::Object(after)) => {
            let mut merged = original.clone();
            for (key, new) in after {
                let old = before.get(key);
                if old == Some(new) {
                    continue;
                }
                let value = match (merged.get(key), old) {
                    (Some(kept), Some(old)) => overlay(kept, old, new),
                    _ => new.clone(),
                };
                merged.insert(key.clone(), value);
            }
            for key in before.keys().filter(|key| !after.contains_key(*key)) {
                merged.remove(key);
            }
            Value::Object(merged)
        }
        (Value::Array(original), Value::Array(before), Value::Array(after)) if original.len() == before.len() => after
            .iter()
            .enumerate()
            .map(|(i, new)| match (original.get(i), before.get(i)) {
                (Some(kept), Some(old)) => overlay(kept, old, new),
                _ => new.clone(),
            })
            .collect(),
        _ => after.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};
    use serde_json::json;

    /// A type that knows little of the object: what a defaulter written against an
    /// older API version sees.
    #[derive(Serialize, Deserialize)]
    struct Known {
        metadata: Metadata,
        spec: Spec,
    }

    #[derive(Serialize, Deserialize)]
    struct Metadata {
        name: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        labels: Option<std::collections::BTreeMap<String, String>>,
    }

    #[derive(Serialize, Deserialize)]
    struct Spec {
        replicas: Option<i32>,
        containers: Vec<Container>,
    }

    #[derive(Serialize, Deserialize)]
    struct Container {
        image: String,
    }

    fn default(known: &mut Known) {
        known.spec.replicas.get_or_insert(1);
        known
            .metadata
            .labels
            .get_or_insert_with(Default::default)
            .insert("managed".into(), "yes".into());
        for container in &mut known.spec.containers {
            if !container.image.contains(':') {
                container.image.push_str(":1.0");
            }
        }
    }

    /// The patch a defaulter's typed round trip gives, applied to `original`.
    fn defaulted(original: &Value) -> (json_patch::Patch, Value) {
        let mut known: Known = serde_json::from_value(original.clone()).unwrap();
        let before = serde_json::to_value(&known).unwrap();
        default(&mut known);
        let after = serde_json::to_value(&known).unwrap();
        let patch = defaulting_patch(original, &before, &after);
        let mut patched = original.clone();
        json_patch::patch(&mut patched, &patch).unwrap();
        (patch, patched)
    }

    #[test]
    fn fields_the_type_does_not_know_survive_defaulting() {
        let original = json!({
            "apiVersion": "example.com/v1", "kind": "Thing",
            "metadata": {"name": "a", "uid": "123", "annotations": {"x": "y"}, "creationTimestamp": null},
            "spec": {
                "containers": [{"image": "nginx", "resources": {"limits": {"cpu": "1"}}}, {"image": "redis:7", "args": ["-v"]}],
                "future": {"nested": [1, 2, 3]},
                "nothing": null,
            },
            "status": {"ready": true},
        });
        let (patch, patched) = defaulted(&original);
        let mut expected = original.clone();
        expected["metadata"]["labels"] = json!({"managed": "yes"});
        expected["spec"]["replicas"] = json!(1);
        expected["spec"]["containers"][0]["image"] = json!("nginx:1.0");
        assert_eq!(patched, expected, "patch: {patch:?}");

        // The typed round trip alone would drop them: this is what the overlay saves.
        let known: Known = serde_json::from_value(original.clone()).unwrap();
        let naive = json_patch::diff(&original, &serde_json::to_value(&known).unwrap());
        assert!(
            naive
                .0
                .iter()
                .any(|op| matches!(op, json_patch::PatchOperation::Remove(_))),
            "a naive diff removes the unknown fields: {naive:?}"
        );
        assert!(
            !patch
                .0
                .iter()
                .any(|op| matches!(op, json_patch::PatchOperation::Remove(_))),
            "{patch:?}"
        );
    }

    #[test]
    fn nothing_to_default_is_an_empty_patch() {
        let original = json!({
            "metadata": {"name": "a", "labels": {"managed": "yes"}, "extra": 1},
            "spec": {"replicas": 3, "containers": [{"image": "nginx:1.27", "extra": true}]},
        });
        let (patch, patched) = defaulted(&original);
        assert!(patch.0.is_empty(), "{patch:?}");
        assert_eq!(patched, original);
    }

    #[test]
    fn an_explicit_null_is_defaulted_and_a_removed_field_is_removed() {
        let original = json!({"metadata": {"name": "a"}, "spec": {"replicas": null, "containers": []}});
        let (_, patched) = defaulted(&original);
        assert_eq!(patched["spec"]["replicas"], 1);

        let original = json!({"a": 1, "b": {"c": 2, "unknown": 3}, "list": [1, 2]});
        let before = json!({"a": 1, "b": {"c": 2}, "list": [1, 2]});
        let after = json!({"b": {"c": 2}, "list": [1, 2, 3]});
        let mut patched = original.clone();
        json_patch::patch(&mut patched, &defaulting_patch(&original, &before, &after)).unwrap();
        assert_eq!(patched, json!({"b": {"c": 2, "unknown": 3}, "list": [1, 2, 3]}));
    }
}
