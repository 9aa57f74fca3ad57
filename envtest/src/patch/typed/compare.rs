//! `compare.go`: what changed between two values of one type, in the terms ownership is
//! kept in: fields and items added, removed or modified. A map or list that appears or
//! disappears is itself added or removed along with what it holds; an atomic one, or an
//! empty one, is compared whole.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::{Part, ValidationErrors, fields, item_element, items, part, resolve, same_part, validate};
use crate::patch::fieldpath::{Path, PathElement, Set};
use crate::patch::type_schema::{List, MapType, Relationship, Schema, TypeRef};
use crate::patch::value;

/// `Comparison`.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Comparison {
    pub removed: Set,
    pub modified: Set,
    pub added: Set,
}

impl Comparison {
    /// `FilterFields` with an exclude filter: drops the paths under `excluded`.
    pub(crate) fn exclude(&mut self, excluded: &Set) {
        for set in [&mut self.removed, &mut self.modified, &mut self.added] {
            *set = set.recursive_difference(excluded);
        }
    }

    /// What a write set: the modified and added fields.
    pub(crate) fn changed(&self) -> Set {
        self.modified.union(&self.added)
    }
}

pub(super) fn compare(
    schema: &Schema,
    type_ref: &TypeRef,
    lhs: &Value,
    rhs: &Value,
) -> Result<Comparison, ValidationErrors> {
    let mut walker = Walker {
        schema,
        path: Vec::new(),
        comparison: Comparison::default(),
    };
    walker.compare(type_ref, Some(lhs), Some(rhs)).into_result()?;
    Ok(walker.comparison)
}

struct Walker<'a> {
    schema: &'a Schema,
    path: Path,
    comparison: Comparison,
}

impl Walker<'_> {
    fn compare(&mut self, type_ref: &TypeRef, lhs: Option<&Value>, rhs: Option<&Value>) -> ValidationErrors {
        let atom = match resolve(self.schema, type_ref) {
            Ok(atom) => atom,
            Err(errors) => return errors,
        };
        let mut errors = ValidationErrors::default();
        let mut in_leaf = false;
        match (lhs, rhs) {
            (Some(old), Some(new)) if !same_part(&atom, old, new) => {
                // The value changed kind: what the old one held is removed, and the
                // field, now of the new kind, is compared as a leaf.
                if let Ok(old_part) = part(&atom, Some(old)) {
                    let mut ignored = false;
                    errors.extend(self.handle(old_part, Some(old), Some(new), &mut ignored));
                }
                match part(&atom, Some(new)) {
                    Ok(new_part) => errors.extend(self.handle(new_part, Some(old), Some(new), &mut in_leaf)),
                    Err(problems) => errors.extend(problems),
                }
            }
            _ => match part(&atom, rhs.or(lhs)) {
                Ok(chosen) => errors.extend(self.handle(chosen, lhs, rhs, &mut in_leaf)),
                Err(problems) => errors.extend(problems),
            },
        }
        if !in_leaf {
            if lhs.is_none() {
                self.comparison.added.insert(&self.path);
            } else if rhs.is_none() {
                self.comparison.removed.insert(&self.path);
            }
        }
        errors
    }

    fn handle(
        &mut self,
        chosen: Part<'_>,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
        in_leaf: &mut bool,
    ) -> ValidationErrors {
        match chosen {
            Part::Scalar(kind) => {
                let lhs_errors = validate::scalar(kind, lhs, "lhs: ");
                let rhs_errors = validate::scalar(kind, rhs, "rhs: ");
                if !lhs_errors.is_empty() && !rhs_errors.is_empty() {
                    let mut errors = lhs_errors;
                    errors.extend(rhs_errors);
                    return errors;
                }
                self.leaf(lhs, rhs, in_leaf);
                ValidationErrors::default()
            }
            Part::List(list) => self.list(list, lhs, rhs, in_leaf),
            Part::Map(map) => self.map(map, lhs, rhs, in_leaf),
        }
    }

    /// `doLeaf`.
    fn leaf(&mut self, lhs: Option<&Value>, rhs: Option<&Value>, in_leaf: &mut bool) {
        if *in_leaf {
            return;
        }
        *in_leaf = true;
        match (lhs, rhs) {
            (None, _) => self.comparison.added.insert(&self.path),
            (_, None) => self.comparison.removed.insert(&self.path),
            (Some(old), Some(new)) if !value::equals(old, new) => self.comparison.modified.insert(&self.path),
            _ => {}
        }
    }

    fn list(&mut self, list: &List, lhs: Option<&Value>, rhs: Option<&Value>, in_leaf: &mut bool) -> ValidationErrors {
        let (old, new) = (items(lhs), items(rhs));
        let empty = |items: Option<&[Value]>| items.is_none_or(<[Value]>::is_empty);
        if list.relationship == Relationship::Atomic || (empty(old) && empty(new)) {
            self.leaf(lhs, rhs, in_leaf);
            return ValidationErrors::default();
        }
        self.list_items(list, old.unwrap_or_default(), new.unwrap_or_default())
    }

    /// Items grouped by element, in the order first seen (left, then new on the right).
    fn group<'v>(
        &self,
        list: &List,
        items: &'v [Value],
        order: &mut Vec<PathElement>,
        known: Option<&BTreeMap<PathElement, Vec<&Value>>>,
        errors: &mut ValidationErrors,
    ) -> BTreeMap<PathElement, Vec<&'v Value>> {
        let mut grouped: BTreeMap<PathElement, Vec<&Value>> = BTreeMap::new();
        for (index, item) in items.iter().enumerate() {
            match item_element(self.schema, list, item) {
                Err(problem) => errors.extend(ValidationErrors::one(format!("element {index}: {problem}"))),
                Ok(element) => {
                    if let Some(group) = grouped.get_mut(&element) {
                        group.push(item);
                    } else {
                        if known.is_none_or(|known| !known.contains_key(&element)) {
                            order.push(element.clone());
                        }
                        grouped.insert(element, vec![item]);
                    }
                }
            }
        }
        grouped
    }

    fn list_items(&mut self, list: &List, old: &[Value], new: &[Value]) -> ValidationErrors {
        let mut errors = ValidationErrors::default();
        let mut order = Vec::new();
        let old_items = self.group(list, old, &mut order, None, &mut errors);
        let new_items = self.group(list, new, &mut order, Some(&old_items), &mut errors);
        for element in order {
            let old_group = old_items.get(&element).map(Vec::as_slice).unwrap_or_default();
            let new_group = new_items.get(&element).map(Vec::as_slice).unwrap_or_default();
            match (old_group.len(), new_group.len()) {
                (0..=1, 0..=1) => {
                    errors.extend(self.item(list, &element, old_group.first().copied(), new_group.first().copied()));
                }
                (2.., 2..) => {
                    let same = old_group.len() == new_group.len()
                        && old_group.iter().zip(new_group).all(|(a, b)| value::equals(a, b));
                    if !same {
                        self.mark(&element, Which::Modified);
                    }
                }
                (2.., _) => {
                    if let Some(first) = new_group.first() {
                        errors.extend(self.item(list, &element, None, Some(first)));
                    }
                    self.mark(&element, Which::Removed);
                }
                (_, _) => {
                    if let Some(first) = old_group.first() {
                        errors.extend(self.item(list, &element, Some(first), None));
                    }
                    self.mark(&element, Which::Added);
                }
            }
        }
        errors
    }

    /// Records a repeated item as a whole, which is not walked into.
    fn mark(&mut self, element: &PathElement, which: Which) {
        self.path.push(element.clone());
        match which {
            Which::Added => self.comparison.added.insert(&self.path),
            Which::Removed => self.comparison.removed.insert(&self.path),
            Which::Modified => self.comparison.modified.insert(&self.path),
        }
        self.path.pop();
    }

    fn item(
        &mut self,
        list: &List,
        element: &PathElement,
        old: Option<&Value>,
        new: Option<&Value>,
    ) -> ValidationErrors {
        self.path.push(element.clone());
        let errors = self.compare(&list.element, old, new).prefixed(&element.to_string());
        self.path.pop();
        errors
    }

    fn map(&mut self, map: &MapType, lhs: Option<&Value>, rhs: Option<&Value>, in_leaf: &mut bool) -> ValidationErrors {
        let (old, new) = (fields(lhs), fields(rhs));
        let empty = |fields: Option<&Map<String, Value>>| fields.is_none_or(Map::is_empty);
        if map.is_atomic() || (empty(old) && empty(new)) {
            self.leaf(lhs, rhs, in_leaf);
            return ValidationErrors::default();
        }
        let mut keys: Vec<&String> = old.into_iter().chain(new).flat_map(Map::keys).collect();
        keys.sort_unstable();
        keys.dedup();
        let mut errors = ValidationErrors::default();
        for key in keys {
            self.path.push(PathElement::Field(key.clone()));
            let child = self.compare(
                map.field_type(key),
                old.and_then(|fields| fields.get(key)),
                new.and_then(|fields| fields.get(key)),
            );
            errors.extend(child.prefixed(&format!(".{key}")));
            self.path.pop();
        }
        errors
    }
}

#[derive(Clone, Copy)]
enum Which {
    Added,
    Removed,
    Modified,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::patch::fieldpath::describe;
    use crate::patch::type_schema::{ObjectType, Schema, convert, named};

    fn printed(set: &crate::patch::fieldpath::Set) -> Vec<String> {
        set.paths().iter().map(|path| describe(path)).collect()
    }

    #[test]
    fn comparison_lists_added_removed_and_modified_fields_and_items() {
        let definitions = serde_json::from_value(json!({"Widget": {"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
                "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                    "items": {"type": "object", "properties": {"name": {"type": "string"}, "port": {"type": "integer"}}}},
                "args": {"type": "array", "items": {"type": "string"}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}}
            }}
        }}}))
        .unwrap();
        let widget = ObjectType {
            schema: std::sync::Arc::new(Schema::layered(convert(&definitions, false), None)),
            root: named("Widget"),
        };
        let old = json!({"spec": {"ports": [{"name": "a", "port": 1}, {"name": "b", "port": 2}], "args": ["1"]}});
        let new =
            json!({"spec": {"ports": [{"name": "a", "port": 5}, {"name": "c"}], "args": ["1"], "labels": {"x": "1"}}});
        let comparison = widget.compare(&old, &new).expect("compared");
        assert_eq!(printed(&comparison.modified), [".spec.ports[name=\"a\"].port"]);
        assert_eq!(
            printed(&comparison.added),
            [
                ".spec.labels",
                ".spec.labels.x",
                ".spec.ports[name=\"c\"]",
                ".spec.ports[name=\"c\"].name"
            ]
        );
        assert_eq!(
            printed(&comparison.removed),
            [
                ".spec.ports[name=\"b\"]",
                ".spec.ports[name=\"b\"].name",
                ".spec.ports[name=\"b\"].port"
            ]
        );
    }
}
