//! The JSON patch a defaulter answers with, made so that it never drops a field the
//! Rust type does not model.
//!
//! A typed round trip loses what the type does not know: fields of a newer API
//! version, annotations' siblings the struct skips, `null`s it omits. Diffing the
//! defaulted object against the request's JSON would therefore remove all of them.
//! Instead the defaulter's changes are taken from the typed object before and after
//! `default`, laid over the original JSON, and only that result is diffed against the
//! original: what the defaulter did not change stays exactly as it came.

//!
//! The work is done on raw JSON, one level at a time and only where `before` and
//! `after` differ, so a mutate holds no parsed tree of the object: its peak memory is
//! the body, the typed object and its two encodings, whatever the object's shape.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::value::RawValue;

/// The RFC 6902 patch, serialized, from `original` to `original` with the changes
/// between `before` and `after` (the typed object's JSON around the defaulter)
/// applied; None when that changes nothing.
pub(crate) fn defaulting_patch(
    original: &RawValue,
    before: &RawValue,
    after: &RawValue,
) -> Result<Option<Vec<u8>>, serde_json::Error> {
    let mut operations = Vec::new();
    diff(original, before, after, &mut String::new(), &mut operations)?;
    if operations.is_empty() {
        return Ok(None);
    }
    serde_json::to_vec(&operations).map(Some)
}

/// One operation of the patch; values are written as they are, never parsed.
#[derive(Serialize)]
#[serde(tag = "op", rename_all = "lowercase")]
enum Operation<'a> {
    Add { path: String, value: &'a RawValue },
    Replace { path: String, value: &'a RawValue },
    Remove { path: String },
}

#[derive(PartialEq, Eq)]
enum Shape {
    Object,
    Array,
    Other,
}

fn shape(value: &RawValue) -> Shape {
    match value.get().trim_start().as_bytes().first() {
        Some(b'{') => Shape::Object,
        Some(b'[') => Shape::Array,
        _ => Shape::Other,
    }
}

/// Appends the operations that lay the change from `before` to `after` over
/// `original`, at the JSON pointer `path`: objects by [`diff_objects`], arrays by
/// [`diff_arrays`], anything else that changed replaced by `after`.
fn diff<'a>(
    original: &'a RawValue,
    before: &'a RawValue,
    after: &'a RawValue,
    path: &mut String,
    operations: &mut Vec<Operation<'a>>,
) -> Result<(), serde_json::Error> {
    if before.get() == after.get() {
        return Ok(());
    }
    match (shape(original), shape(before), shape(after)) {
        (Shape::Object, Shape::Object, Shape::Object) => diff_objects(original, before, after, path, operations),
        (Shape::Array, Shape::Array, Shape::Array) => diff_arrays(original, before, after, path, operations),
        _ => {
            operations.push(Operation::Replace {
                path: path.clone(),
                value: after,
            });
            Ok(())
        }
    }
}

/// Objects merge key by key, so unknown keys beside a changed one survive: a key the
/// defaulter changed is diffed further (or added, when the original lacks it), and a
/// key it removed is removed where the original has it.
fn diff_objects<'a>(
    original: &'a RawValue,
    before: &'a RawValue,
    after: &'a RawValue,
    path: &mut String,
    operations: &mut Vec<Operation<'a>>,
) -> Result<(), serde_json::Error> {
    let original: BTreeMap<String, &RawValue> = serde_json::from_str(original.get())?;
    let before: BTreeMap<String, &RawValue> = serde_json::from_str(before.get())?;
    let after: BTreeMap<String, &RawValue> = serde_json::from_str(after.get())?;
    for (key, new) in &after {
        let old = before.get(key);
        if old.is_some_and(|old| old.get() == new.get()) {
            continue;
        }
        let parent = push_key(path, key);
        match (original.get(key), old) {
            (Some(kept), Some(old)) => diff(kept, old, new, path, operations)?,
            _ => operations.push(Operation::Add {
                path: path.clone(),
                value: new,
            }),
        }
        path.truncate(parent);
    }
    let removed = before
        .keys()
        .filter(|key| !after.contains_key(*key) && original.contains_key(*key));
    for key in removed {
        let parent = push_key(path, key);
        operations.push(Operation::Remove { path: path.clone() });
        path.truncate(parent);
    }
    Ok(())
}

/// Arrays of the same length as the typed array merge item by item (unknown fields
/// inside list items survive too); when the type saw other items than were sent, no
/// item lines up and the whole array is replaced.
fn diff_arrays<'a>(
    original: &'a RawValue,
    before: &'a RawValue,
    after: &'a RawValue,
    path: &mut String,
    operations: &mut Vec<Operation<'a>>,
) -> Result<(), serde_json::Error> {
    let kept: Vec<&RawValue> = serde_json::from_str(original.get())?;
    let old: Vec<&RawValue> = serde_json::from_str(before.get())?;
    if kept.len() != old.len() {
        operations.push(Operation::Replace {
            path: path.clone(),
            value: after,
        });
        return Ok(());
    }
    let new: Vec<&RawValue> = serde_json::from_str(after.get())?;
    for (index, item) in new.iter().enumerate() {
        let parent = push_key(path, &index.to_string());
        match (kept.get(index), old.get(index)) {
            (Some(_), Some(was)) if was.get() == item.get() => {}
            (Some(kept), Some(was)) => diff(kept, was, item, path, operations)?,
            _ => operations.push(Operation::Add {
                path: path.clone(),
                value: item,
            }),
        }
        path.truncate(parent);
    }
    for index in (new.len()..kept.len()).rev() {
        let parent = push_key(path, &index.to_string());
        operations.push(Operation::Remove { path: path.clone() });
        path.truncate(parent);
    }
    Ok(())
}

/// Appends `/key` (escaped as RFC 6901 asks) to `path`; returns the length to
/// truncate back to.
fn push_key(path: &mut String, key: &str) -> usize {
    let parent = path.len();
    path.push('/');
    for c in key.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
    parent
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::{Deserialize, Serialize};
    use serde_json::value::to_raw_value;
    use serde_json::{Value, json};

    /// The patch between three JSON values, parsed.
    fn patch_of(original: &Value, before: &Value, after: &Value) -> json_patch::Patch {
        let raw = |value: &Value| to_raw_value(value).unwrap();
        let patch = defaulting_patch(&raw(original), &raw(before), &raw(after)).unwrap();
        patch.map_or_else(
            || json_patch::Patch(Vec::new()),
            |patch| serde_json::from_slice(&patch).unwrap(),
        )
    }

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
        let patch = patch_of(original, &before, &after);
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
        json_patch::patch(&mut patched, &patch_of(&original, &before, &after)).unwrap();
        assert_eq!(patched, json!({"b": {"c": 2, "unknown": 3}, "list": [1, 2, 3]}));
    }

    #[test]
    fn keys_are_escaped_lists_shrink_from_the_end_and_misaligned_lists_are_replaced() {
        let original =
            json!({"metadata": {"labels": {"a/b": "1", "c~d": "2"}}, "items": [1, 2, 3, 4], "other": [1, {"x": 1}]});
        let before = json!({"metadata": {"labels": {"a/b": "1", "c~d": "2"}}, "items": [1, 2, 3, 4], "other": [1]});
        let after = json!({"metadata": {"labels": {"a/b": "9"}}, "items": [1, 5], "other": [2]});
        let patch = patch_of(&original, &before, &after);
        let mut patched = original.clone();
        json_patch::patch(&mut patched, &patch).unwrap();
        assert_eq!(
            patched,
            json!({"metadata": {"labels": {"a/b": "9"}}, "items": [1, 5], "other": [2]}),
            "{patch:?}"
        );
        let paths: Vec<String> = serde_json::to_value(&patch)
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(|op| op["path"].as_str().unwrap().to_owned())
            .collect();
        assert!(
            paths.contains(&"/metadata/labels/a~1b".to_owned()) && paths.contains(&"/metadata/labels/c~0d".to_owned()),
            "{paths:?}"
        );
    }
}
