//! What an applied configuration does to the live object: merged into it, and what its
//! manager stopped applying pruned from it. Ownership bookkeeping is `apply`'s.

use serde_json::{Map, Value};

use super::fieldset::{self, FieldSet, Path, PathElement, Schema, has_descendant, is_tracked};

/// Merges the applied configuration into the live object: maps field by field,
/// associative and set lists item by item (new items appended), everything else
/// replaced. Nulls in the configuration set nothing.
pub(crate) fn merge(live: &Value, applied: &Value, schema: Schema<'_>, path: &mut Path) -> Value {
    match (live, applied) {
        (Value::Object(live_fields), Value::Object(applied_fields)) if !schema.atomic_map(path) => {
            let mut result = live_fields.clone();
            for (name, value) in applied_fields {
                if value.is_null() {
                    continue;
                }
                path.push(PathElement::Field(name.clone()));
                let merged = match live_fields.get(name) {
                    Some(live_value) => merge(live_value, value, schema, path),
                    None => without_nulls(value),
                };
                path.pop();
                result.insert(name.clone(), merged);
            }
            Value::Object(result)
        }
        (Value::Array(live_items), Value::Array(applied_items)) => {
            let mut result = live_items.clone();
            for item in applied_items {
                // Items of an atomic list have no element: the list is replaced.
                let Some(element) = schema.item_element(path, item) else {
                    return without_nulls(applied);
                };
                let position = result
                    .iter()
                    .position(|existing| schema.item_element(path, existing).as_ref() == Some(&element));
                path.push(element);
                match position {
                    Some(index) => result[index] = merge(&result[index], item, schema, path),
                    None => result.push(without_nulls(item)),
                }
                path.pop();
            }
            Value::Array(result)
        }
        _ => without_nulls(applied),
    }
}

fn without_nulls(value: &Value) -> Value {
    match value {
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .filter(|(_, value)| !value.is_null())
                .map(|(name, value)| (name.clone(), without_nulls(value)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_nulls).collect()),
        scalar => scalar.clone(),
    }
}

/// Removes from `object` what the manager applied before (`previous`) that nobody owns
/// now (`owned` includes the new configuration), and the maps that leaves empty.
pub(crate) fn prune(object: &mut Value, previous: &FieldSet, owned: &FieldSet, schema: Schema<'_>) {
    // Parents first (they sort before their descendants): removing a list item whole
    // must not start with its key fields, or the item could no longer be found.
    for path in previous {
        if !is_tracked(path) || owned.contains(path) || has_descendant(owned, path) || is_item_key(path) {
            continue;
        }
        if fieldset::remove(object, path, schema) {
            remove_emptied_parents(object, path, owned, schema);
        }
    }
}

/// Whether `path` is a key field of a list item, which lives and dies with the item.
fn is_item_key(path: &Path) -> bool {
    match path.as_slice() {
        [.., PathElement::Key(key), PathElement::Field(name)] => {
            serde_json::from_str::<Map<String, Value>>(key).is_ok_and(|key| key.contains_key(name))
        }
        _ => false,
    }
}

fn remove_emptied_parents(object: &mut Value, path: &Path, owned: &FieldSet, schema: Schema<'_>) {
    for depth in (1..path.len()).rev() {
        let parent = path[..depth].to_vec();
        let empty = match fieldset::locate(object, &parent, schema) {
            Some(Value::Object(fields)) => fields.is_empty(),
            Some(Value::Array(items)) => items.is_empty(),
            _ => false,
        };
        if !empty || !is_tracked(&parent) || owned.contains(&parent) || !fieldset::remove(object, &parent, schema) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const POD: Schema<'static> = Schema { group: "", kind: "Pod" };

    fn field(name: &str) -> PathElement {
        PathElement::Field(name.into())
    }

    fn container(name: &str) -> Path {
        vec![
            field("spec"),
            field("containers"),
            PathElement::Key(format!("{{\"name\":\"{name}\"}}")),
        ]
    }

    #[test]
    fn merge_keeps_live_items_merges_by_key_and_appends_new_ones() {
        let live = json!({"spec": {"containers": [{"name": "a", "image": "1", "tty": true}, {"name": "b"}],
            "tolerations": [{"key": "x"}, {"key": "y"}]}});
        let applied = json!({"spec": {"containers": [{"name": "a", "image": "2", "stdin": null}, {"name": "c"}],
            "tolerations": [{"key": "z"}]}});
        assert_eq!(
            merge(&live, &applied, POD, &mut Vec::new()),
            json!({"spec": {"containers": [{"name": "a", "image": "2", "tty": true}, {"name": "b"}, {"name": "c"}],
                "tolerations": [{"key": "z"}]}})
        );
    }

    #[test]
    fn prune_removes_unowned_items_whole_and_keeps_owned_ones() {
        let mut object = json!({"spec": {"containers": [{"name": "a", "image": "1"}, {"name": "b", "image": "2"}]}});
        let mut previous = FieldSet::new();
        for name in ["a", "b"] {
            for leaf in ["name", "image"] {
                let mut path = container(name);
                previous.insert(path.clone());
                path.push(field(leaf));
                previous.insert(path);
            }
        }
        let mut owned = FieldSet::new();
        let mut image_a = container("a");
        image_a.push(field("image"));
        owned.insert(image_a);
        prune(&mut object, &previous, &owned, POD);
        assert_eq!(object, json!({"spec": {"containers": [{"name": "a", "image": "1"}]}}));
    }

    #[test]
    fn prune_removes_the_maps_it_empties() {
        let mut object = json!({"metadata": {"name": "x", "labels": {"a": "1"}}, "spec": {"replicas": 1}});
        let previous: FieldSet = [vec![field("metadata"), field("labels"), field("a")]]
            .into_iter()
            .collect();
        prune(&mut object, &previous, &FieldSet::new(), POD);
        assert_eq!(object, json!({"metadata": {"name": "x"}, "spec": {"replicas": 1}}));
    }
}
