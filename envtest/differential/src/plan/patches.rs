//! Patch bodies that carry a mutation: the JSON merge patch (RFC 7386) from the seed to
//! the mutated object, which is also a valid strategic merge patch, and the JSON patch
//! (RFC 6902) of the mutation's edits.

use serde_json::{Map, Value, json};

use crate::mutate::{self, Edit};

/// The merge patch that turns `from` into `to`: changed members recursively, removed
/// ones as `null`, lists whole.
pub fn merge_diff(from: &Value, to: &Value) -> Value {
    match (from, to) {
        (Value::Object(before), Value::Object(after)) => {
            let mut patch = Map::new();
            for (key, old) in before {
                match after.get(key) {
                    None => {
                        patch.insert(key.clone(), Value::Null);
                    }
                    Some(new) if new != old => {
                        patch.insert(key.clone(), merge_diff(old, new));
                    }
                    Some(_) => {}
                }
            }
            for (key, new) in after {
                if !before.contains_key(key) {
                    patch.insert(key.clone(), new.clone());
                }
            }
            Value::Object(patch)
        }
        _ => to.clone(),
    }
}

/// The JSON patch operations of `edits` applied to `document`: `replace` where the
/// value exists, `add` where it does not (at the first missing level, so the parents
/// exist), `remove` where it exists, `add` at `/-` for a duplicated item.
pub fn json_patch(document: &Value, edits: &[Edit]) -> Value {
    let mut current = document.clone();
    let mut operations = Vec::new();
    for edit in edits {
        match edit {
            Edit::Set { pointer, value } => {
                if current.pointer(pointer).is_some() {
                    operations.push(json!({"op": "replace", "path": pointer, "value": value}));
                } else {
                    let tokens = mutate::tokens(pointer);
                    // The first level that is missing gets the whole subtree.
                    let missing = (1..=tokens.len())
                        .find(|n| current.pointer(&mutate::to_pointer(&tokens[..*n])).is_none())
                        .unwrap_or(tokens.len());
                    let mut subtree = value.clone();
                    for token in tokens[missing..].iter().rev() {
                        subtree = json!({ token.as_str(): subtree });
                    }
                    operations
                        .push(json!({"op": "add", "path": mutate::to_pointer(&tokens[..missing]), "value": subtree}));
                }
            }
            Edit::Remove { pointer } => {
                if current.pointer(pointer).is_some() {
                    operations.push(json!({"op": "remove", "path": pointer}));
                }
            }
            Edit::DuplicateFirst { pointer, .. } => {
                let before = current.pointer(pointer).and_then(Value::as_array).map_or(0, Vec::len);
                let after = mutate::apply(&current, std::slice::from_ref(edit));
                if let Some(copy) = after
                    .pointer(pointer)
                    .and_then(Value::as_array)
                    .and_then(|l| l.get(before))
                {
                    operations.push(json!({"op": "add", "path": format!("{pointer}/-"), "value": copy}));
                }
            }
        }
        current = mutate::apply(&current, std::slice::from_ref(edit));
    }
    Value::Array(operations)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_merge_diff_holds_what_changed_only() {
        let from = json!({"a": 1, "b": {"c": 2, "d": 3}, "l": [1, 2], "gone": true});
        let to = json!({"a": 1, "b": {"c": 5, "d": 3}, "l": [1, 2, 2], "new": "x"});
        assert_eq!(
            merge_diff(&from, &to),
            json!({"b": {"c": 5}, "l": [1, 2, 2], "gone": null, "new": "x"})
        );
        assert_eq!(merge_diff(&from, &from), json!({}));
    }

    #[test]
    fn json_patch_operations_fit_the_document() {
        let document = json!({"metadata": {"name": "x"}, "spec": {"ports": [{"port": 80}]}});
        let edits = [
            Edit::Set {
                pointer: "/spec/ports/0/port".into(),
                value: json!(-1),
            },
            Edit::Set {
                pointer: "/metadata/labels/a~1b".into(),
                value: json!("v"),
            },
            Edit::Remove {
                pointer: "/spec/missing".into(),
            },
            Edit::DuplicateFirst {
                pointer: "/spec/ports".into(),
                changes: vec![],
            },
        ];
        assert_eq!(
            json_patch(&document, &edits),
            json!([
                {"op": "replace", "path": "/spec/ports/0/port", "value": -1},
                {"op": "add", "path": "/metadata/labels", "value": {"a/b": "v"}},
                {"op": "add", "path": "/spec/ports/-", "value": {"port": -1}},
            ])
        );
    }
}
