//! `remove.go`: a value without the fields and list items of a set. A map or list that
//! the removal empties becomes null (it is not removed itself unless it is in the set);
//! the write path drops such nulls as the object is stored.

use serde_json::{Map, Value};

use super::{Part, item_element, part};
use crate::patch::fieldpath::{PathElement, Set};
use crate::patch::type_schema::{Relationship, Schema, TypeRef};

pub(super) fn remove_items(schema: &Schema, type_ref: &TypeRef, value: &Value, remove: &Set) -> Value {
    let Some(atom) = schema.resolve(type_ref) else {
        return Value::Null;
    };
    match part(&atom, Some(value)) {
        Err(_) => Value::Null,
        Ok(Part::Scalar(_)) => value.clone(),
        Ok(Part::List(list)) => {
            let Value::Array(items) = value else {
                return Value::Null;
            };
            if items.is_empty() || list.relationship == Relationship::Atomic {
                return Value::Null;
            }
            let mut kept = Vec::with_capacity(items.len());
            for item in items {
                // An item that cannot be named cannot be in the set.
                let element = item_element(schema, list, item).unwrap_or(PathElement::Index(0));
                if remove.has_member(&element) {
                    continue;
                }
                match remove.with_prefix(&element).filter(|below| !below.is_empty()) {
                    Some(below) => kept.push(remove_items(schema, &list.element, item, below)),
                    None => kept.push(item.clone()),
                }
            }
            if kept.is_empty() {
                Value::Null
            } else {
                Value::Array(kept)
            }
        }
        Ok(Part::Map(map)) => {
            let Value::Object(fields) = value else {
                return Value::Null;
            };
            if fields.is_empty() || map.is_atomic() {
                return Value::Null;
            }
            let mut kept = Map::new();
            for (key, child) in fields {
                let element = PathElement::Field(key.clone());
                if remove.has_member(&element) {
                    continue;
                }
                let child = match remove.with_prefix(&element).filter(|below| !below.is_empty()) {
                    Some(below) => remove_items(schema, map.field_type(key), child, below),
                    None => child.clone(),
                };
                kept.insert(key.clone(), child);
            }
            if kept.is_empty() {
                Value::Null
            } else {
                Value::Object(kept)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::patch::fieldpath::{PathElement, Set, fields};
    use crate::patch::type_schema::{ObjectType, Schema, convert, named};

    #[test]
    fn items_and_fields_in_the_set_are_removed_and_emptied_maps_become_null() {
        let definitions = serde_json::from_value(json!({"Widget": {"type": "object", "properties": {
            "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                "items": {"type": "object", "properties": {"name": {"type": "string"}, "port": {"type": "integer"}}}},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "image": {"type": "string"}
        }}}))
        .unwrap();
        let widget = ObjectType {
            schema: std::sync::Arc::new(Schema::layered(convert(&definitions, false), None)),
            root: named("Widget"),
        };
        let object =
            json!({"ports": [{"name": "a", "port": 1}, {"name": "b", "port": 2}], "labels": {"x": "1"}, "image": "i"});
        let mut set = Set::new();
        let mut port_a = fields(&["ports"]);
        port_a.push(PathElement::key(vec![("name".into(), json!("a"))]));
        set.insert(&port_a);
        set.insert(&fields(&["labels", "x"]));
        let mut port_b = fields(&["ports"]);
        port_b.push(PathElement::key(vec![("name".into(), json!("b"))]));
        port_b.push(PathElement::Field("port".into()));
        set.insert(&port_b);
        assert_eq!(
            widget.remove_items(&object, &set),
            json!({"ports": [{"name": "b"}], "labels": null, "image": "i"})
        );
    }
}
