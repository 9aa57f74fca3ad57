//! `x-kubernetes-list-type`: items of a `set` are unique, items of a `map` are unique
//! by their `x-kubernetes-list-map-keys`, as apiextensions-apiserver checks them
//! (`pkg/apiserver/schema/listtype/validation.go`); and the old item a map-list item
//! is compared with when ratcheting (`MakeMapList` in apiserver's
//! `pkg/cel/common/maplist.go`).

use serde_json::{Map, Value};

use crate::errors::{BadValue, ErrorType, FieldError, subscript};

/// `ValidateListSetsAndMaps`: duplicates in sets and map lists anywhere in `object`.
pub(crate) fn validate(schema: &Value, object: &Value, path: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    crate::walk::visit(schema, object, path, &mut |schema, value, path| {
        let Value::Array(items) = value else {
            return;
        };
        match schema["x-kubernetes-list-type"].as_str() {
            Some("set") => {
                for index in duplicates(items) {
                    errors.push(duplicate(subscript(path, index), items[index].clone()));
                }
            }
            Some("map") => errors.extend(map_list(schema, items, path)),
            _ => {}
        }
    });
    errors
}

fn duplicate(path: String, value: Value) -> FieldError {
    FieldError::new(path, ErrorType::Duplicate, BadValue::Json(value), "")
}

/// The indices of the second occurrence of each repeated item (later repeats are not
/// reported again, as `validateListSet` counts them).
fn duplicates(items: &[Value]) -> Vec<usize> {
    let mut found = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let earlier = items[..index].iter().filter(|other| *other == item).count();
        if earlier == 1 {
            found.push(index);
        }
    }
    found
}

/// The map keys of a map-list item: absent keys are left out.
fn key_of(keys: &[&str], item: &Value) -> Map<String, Value> {
    keys.iter()
        .filter_map(|key| item.get(*key).map(|v| ((*key).to_owned(), v.clone())))
        .collect()
}

fn map_keys(schema: &Value) -> Vec<&str> {
    schema["x-kubernetes-list-map-keys"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// `validateListMap`: items are objects, unique by their keys.
fn map_list(schema: &Value, items: &[Value], path: &str) -> Vec<FieldError> {
    for (index, item) in items.iter().enumerate() {
        if !item.is_object() && !item.is_null() {
            let detail = "must be an object for an array of list-type map";
            return vec![FieldError::invalid(subscript(path, index), item.into(), detail)];
        }
    }
    let keys = map_keys(schema);
    let item_keys: Vec<Value> = items.iter().map(|item| Value::Object(key_of(&keys, item))).collect();
    duplicates(&item_keys)
        .into_iter()
        .map(|index| duplicate(subscript(path, index), item_keys[index].clone()))
        .collect()
}

/// The items of an old map list, found by the keys of a new item.
pub(crate) struct MapList<'a> {
    keys: Vec<&'a str>,
    items: &'a [Value],
}

impl MapList<'_> {
    /// The old item with the same keys as `item`, if exactly one has them.
    pub fn get(&self, item: &Value) -> Option<&Value> {
        let wanted = key_of(&self.keys, item);
        if wanted.len() != self.keys.len() {
            return None;
        }
        let mut matching = self.items.iter().filter(|old| key_of(&self.keys, old) == wanted);
        let first = matching.next();
        if matching.next().is_some() { None } else { first }
    }
}

/// The old items that new items correlate with: only those of a map list (atomic lists
/// and sets are compared whole).
pub(crate) fn correlatable_items<'a>(schema: &'a Value, old: &'a Value) -> Option<MapList<'a>> {
    if schema["x-kubernetes-list-type"] != "map" {
        return None;
    }
    Some(MapList {
        keys: map_keys(schema),
        items: old.as_array()?,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn sets_and_map_lists_refuse_duplicates() {
        let schema = json!({"type": "object", "properties": {
            "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
            "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                "items": {"type": "object", "properties": {"name": {"type": "string"}}}},
        }});
        let object =
            json!({"tags": ["a", "b", "a", "a"], "ports": [{"name": "http", "port": 1}, {"name": "http", "port": 2}]});
        let found: Vec<String> = validate(&schema, &object, "").iter().map(FieldError::summary).collect();
        assert_eq!(
            found,
            vec![
                r#"ports[1]: Duplicate value: map[string]interface {}{"name":"http"}"#,
                r#"tags[2]: Duplicate value: "a""#,
            ]
        );
    }

    #[test]
    fn map_list_items_are_found_by_their_keys() {
        let schema = json!({"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]});
        let old = json!([{"name": "a", "v": 1}, {"name": "b", "v": 2}]);
        let list = correlatable_items(&schema, &old).unwrap();
        assert_eq!(
            list.get(&json!({"name": "b", "v": 3})),
            Some(&json!({"name": "b", "v": 2}))
        );
        assert_eq!(list.get(&json!({"name": "c"})), None);
        assert!(correlatable_items(&json!({"x-kubernetes-list-type": "set"}), &old).is_none());
    }
}
