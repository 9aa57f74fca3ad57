//! `tofieldset.go`: the fields a value sets, as an apply takes ownership of them: every
//! scalar, atomic list or map and associative list item, each field set to null or to
//! an empty map, and each field of a map that is not a declared struct field (a label,
//! an unknown field kept by `x-kubernetes-preserve-unknown-fields`). A struct field that
//! holds fields is not itself listed.

use serde_json::Value;

use super::{Part, ValidationErrors, item_element, part, resolve};
use crate::patch::fieldpath::{Path, PathElement, Set};
use crate::patch::type_schema::{List, Relationship, Schema, TypeRef};

pub(super) fn to_field_set(schema: &Schema, type_ref: &TypeRef, value: &Value) -> Result<Set, ValidationErrors> {
    let mut walker = Walker {
        schema,
        set: Set::new(),
        path: Vec::new(),
    };
    walker.value(type_ref, value).into_result()?;
    Ok(walker.set)
}

struct Walker<'a> {
    schema: &'a Schema,
    set: Set,
    path: Path,
}

impl Walker<'_> {
    fn value(&mut self, type_ref: &TypeRef, value: &Value) -> ValidationErrors {
        let atom = match resolve(self.schema, type_ref) {
            Ok(atom) => atom,
            Err(errors) => return errors,
        };
        match part(&atom, Some(value)) {
            Err(errors) => errors,
            Ok(Part::Scalar(_)) => {
                self.set.insert(&self.path);
                ValidationErrors::default()
            }
            Ok(Part::List(list)) => {
                if list.relationship == Relationship::Atomic {
                    self.set.insert(&self.path);
                    return ValidationErrors::default();
                }
                match value {
                    Value::Array(items) => self.list_items(list, items),
                    _ => ValidationErrors::default(),
                }
            }
            Ok(Part::Map(map)) => {
                if map.is_atomic() {
                    self.set.insert(&self.path);
                    return ValidationErrors::default();
                }
                let Value::Object(fields) = value else {
                    return ValidationErrors::default();
                };
                let mut errors = ValidationErrors::default();
                for (key, child) in fields {
                    self.path.push(PathElement::Field(key.clone()));
                    errors.extend(self.value(map.field_type(key), child));
                    let empty = child.is_null() || child.as_object().is_some_and(serde_json::Map::is_empty);
                    if empty || !map.fields.contains_key(key) {
                        self.set.insert(&self.path);
                    }
                    self.path.pop();
                }
                errors
            }
        }
    }

    /// Items are members with what they set; an item repeated in the list is owned once,
    /// whole, and not walked into.
    fn list_items(&mut self, list: &List, items: &[Value]) -> ValidationErrors {
        let elements: Vec<Option<PathElement>> = items
            .iter()
            .map(|item| item_element(self.schema, list, item).ok())
            .collect();
        let mut seen = Set::new();
        let mut duplicates = Set::new();
        for element in elements.iter().flatten() {
            if seen.has_member(element) {
                if !duplicates.has_member(element) {
                    self.path.push(element.clone());
                    self.set.insert(&self.path);
                    self.path.pop();
                    duplicates.insert_member(element.clone());
                }
            } else {
                seen.insert_member(element.clone());
            }
        }
        let mut errors = ValidationErrors::default();
        for (item, element) in items.iter().zip(elements) {
            let Some(element) = element else {
                continue;
            };
            if duplicates.has_member(&element) {
                continue;
            }
            self.path.push(element);
            errors.extend(self.value(&list.element, item));
            self.set.insert(&self.path);
            self.path.pop();
        }
        errors
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::patch::fieldpath::describe;
    use crate::patch::type_schema::{ObjectType, convert, named};

    #[test]
    fn sets_list_leaves_items_and_undeclared_map_fields() {
        let definitions = serde_json::from_value(json!({"Widget": {"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
                "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                    "items": {"type": "object", "properties": {"name": {"type": "string"}, "port": {"type": "integer"}}}},
                "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
                "args": {"type": "array", "items": {"type": "string"}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "selector": {"type": "object", "x-kubernetes-map-type": "atomic", "additionalProperties": {"type": "string"}},
                "gone": {"type": "string"}
            }}
        }}}))
        .unwrap();
        let widget = ObjectType {
            schema: std::sync::Arc::new(Schema::layered(convert(&definitions, false), None)),
            root: named("Widget"),
        };
        let set = widget
            .to_field_set(
                &json!({"spec": {"ports": [{"name": "a", "port": 1}], "tags": ["x"], "args": ["1"],
                "labels": {"app": "w"}, "selector": {"s": "1"}, "gone": null}}),
            )
            .expect("valid");
        let printed: Vec<String> = set.paths().iter().map(|path| describe(path)).collect();
        assert_eq!(
            printed,
            [
                ".spec.args",
                ".spec.gone",
                ".spec.selector",
                ".spec.labels.app",
                ".spec.ports[name=\"a\"]",
                ".spec.ports[name=\"a\"].name",
                ".spec.ports[name=\"a\"].port",
                ".spec.tags[=\"x\"]"
            ]
        );
    }
}
