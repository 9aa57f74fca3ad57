//! `merge.go`: one value merged into another along their type, the right-hand side
//! winning (`ruleKeepRHS`). Maps merge field by field and associative lists item by
//! item, keeping the left-hand order and placing new items where the right-hand side
//! puts them relative to the items both have; scalars, atomic lists and maps, and
//! empty ones are taken whole. A field set to null on the right stays null.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::{Part, ValidationErrors, fields, item_element, items, part, resolve, same_part, validate};
use crate::patch::fieldpath::PathElement;
use crate::patch::type_schema::{List, MapType, Relationship, Schema, TypeRef};

/// The merge of `lhs` and `rhs` (either may be absent); None when nothing results.
pub(super) fn merge(
    schema: &Schema,
    type_ref: &TypeRef,
    lhs: Option<&Value>,
    rhs: Option<&Value>,
) -> Result<Option<Value>, ValidationErrors> {
    let atom = resolve(schema, type_ref)?;
    // A left-hand value of another kind than the right-hand one is replaced whole.
    let lhs = match (lhs, rhs) {
        (Some(lhs), Some(rhs)) if !same_part(&atom, lhs, rhs) => None,
        _ => lhs,
    };
    let chosen = part(&atom, rhs.or(lhs))?;
    let merger = Merger { schema };
    match chosen {
        Part::Scalar(kind) => {
            let lhs_errors = validate::scalar(kind, lhs, "lhs: ");
            let rhs_errors = validate::scalar(kind, rhs, "rhs: ");
            if !lhs_errors.is_empty() && !rhs_errors.is_empty() {
                let mut errors = lhs_errors;
                errors.extend(rhs_errors);
                return Err(errors);
            }
            Ok(leaf(lhs, rhs))
        }
        Part::List(list) => merger.list(list, lhs, rhs),
        Part::Map(map) => merger.map(map, lhs, rhs),
    }
}

/// `ruleKeepRHS`.
fn leaf(lhs: Option<&Value>, rhs: Option<&Value>) -> Option<Value> {
    rhs.or(lhs).cloned()
}

/// A list's items in order by element, and the item each element names.
type Indexed<'v> = (Vec<PathElement>, BTreeMap<PathElement, Option<&'v Value>>);

struct Merger<'a> {
    schema: &'a Schema,
}

impl Merger<'_> {
    fn list(&self, list: &List, lhs: Option<&Value>, rhs: Option<&Value>) -> Result<Option<Value>, ValidationErrors> {
        let (lhs_items, rhs_items) = (items(lhs).unwrap_or_default(), items(rhs).unwrap_or_default());
        if list.relationship == Relationship::Atomic || (lhs_items.is_empty() && rhs_items.is_empty()) {
            return Ok(leaf(lhs, rhs));
        }
        self.list_items(list, lhs_items, rhs_items)
    }

    /// `indexListPathElements`: each item's element in order, and the item each names
    /// (a repeated one names null on the left, and is an error on the right).
    fn index<'v>(
        &self,
        list: &List,
        items: &'v [Value],
        allow_duplicates: bool,
    ) -> Result<Indexed<'v>, ValidationErrors> {
        let mut errors = ValidationErrors::default();
        let mut elements = Vec::with_capacity(items.len());
        let mut observed: BTreeMap<PathElement, Option<&Value>> = BTreeMap::new();
        for (index, item) in items.iter().enumerate() {
            let element = match item_element(self.schema, list, item) {
                Ok(element) => element,
                Err(problem) => {
                    errors.extend(ValidationErrors::one(format!("element {index}: {problem}")));
                    continue;
                }
            };
            if observed.contains_key(&element) {
                if !allow_duplicates {
                    errors.extend(ValidationErrors::one(format!("duplicate entries for key {element}")));
                    continue;
                }
                observed.insert(element.clone(), None);
            } else {
                observed.insert(element.clone(), Some(item));
            }
            elements.push(element);
        }
        errors.into_result().map(|()| (elements, observed))
    }

    /// `visitListItems`: the merged items, in the order the real server gives them.
    fn list_items(&self, list: &List, lhs: &[Value], rhs: &[Value]) -> Result<Option<Value>, ValidationErrors> {
        let rhs_index = self.index(list, rhs, false);
        let lhs_index = self.index(list, lhs, true);
        let ((rhs_elements, observed_rhs), (lhs_elements, observed_lhs)) = match (rhs_index, lhs_index) {
            (Ok(rhs), Ok(lhs)) => (rhs, lhs),
            (rhs, lhs) => {
                let mut errors = ValidationErrors::default();
                for result in [rhs.err(), lhs.err()].into_iter().flatten() {
                    errors.extend(result);
                }
                return Err(errors);
            }
        };
        let null = Value::Null;
        // A repeated left-hand item stands for null, as the real server's index keeps it.
        let lhs_child = |element: &PathElement| observed_lhs.get(element).map(|item| item.unwrap_or(&null));
        let rhs_child = |element: &PathElement| observed_rhs.get(element).copied().flatten();
        let mut shared = rhs_elements
            .iter()
            .filter(|element| observed_lhs.contains_key(*element))
            .collect::<Vec<_>>()
            .into_iter();
        let mut next_shared = shared.next();
        let mut merged_rhs: BTreeSet<&PathElement> = BTreeSet::new();
        let mut out = Vec::with_capacity(lhs.len().max(rhs.len()));
        let (mut l, mut r) = (0, 0);
        while l < lhs_elements.len() || r < rhs_elements.len() {
            if l < lhs_elements.len() && r < rhs_elements.len() {
                let element = &lhs_elements[l];
                if *element == rhs_elements[r] {
                    merged_rhs.insert(element);
                    if let Some(item) = self.item(list, element, lhs_child(element), rhs_child(element))? {
                        out.push(item);
                    }
                    l += 1;
                    r += 1;
                    next_shared = shared.next();
                    continue;
                }
                if observed_rhs.contains_key(element) && next_shared.is_some_and(|next| next != element) {
                    l += 1;
                    continue;
                }
            }
            if l < lhs_elements.len() {
                let element = &lhs_elements[l];
                if !observed_rhs.contains_key(element) {
                    if let Some(item) = self.item(list, element, Some(&lhs[l]), None)? {
                        out.push(item);
                    }
                    l += 1;
                    continue;
                } else if merged_rhs.contains(element) {
                    l += 1;
                }
            }
            if r < rhs_elements.len() {
                let element = &rhs_elements[r];
                merged_rhs.insert(element);
                if let Some(item) = self.item(list, element, lhs_child(element), rhs_child(element))? {
                    out.push(item);
                }
                r += 1;
                if next_shared == Some(element) {
                    next_shared = shared.next();
                }
            }
        }
        Ok((!out.is_empty()).then_some(Value::Array(out)))
    }

    fn item(
        &self,
        list: &List,
        element: &PathElement,
        lhs: Option<&Value>,
        rhs: Option<&Value>,
    ) -> Result<Option<Value>, ValidationErrors> {
        if lhs.is_none() && rhs.is_none() {
            return Ok(None);
        }
        merge(self.schema, &list.element, lhs, rhs).map_err(|errors| errors.prefixed(&element.to_string()))
    }

    fn map(&self, map: &MapType, lhs: Option<&Value>, rhs: Option<&Value>) -> Result<Option<Value>, ValidationErrors> {
        let (lhs_fields, rhs_fields) = (fields(lhs), fields(rhs));
        let empty = |fields: Option<&Map<String, Value>>| fields.is_none_or(Map::is_empty);
        if map.is_atomic() || (empty(lhs_fields) && empty(rhs_fields)) {
            return Ok(leaf(lhs, rhs));
        }
        let mut out = Map::new();
        let mut errors = ValidationErrors::default();
        let keys: BTreeSet<&String> = lhs_fields.into_iter().chain(rhs_fields).flat_map(Map::keys).collect();
        for key in keys {
            let lhs_child = lhs_fields.and_then(|fields| fields.get(key));
            let rhs_child = rhs_fields.and_then(|fields| fields.get(key));
            match merge(self.schema, map.field_type(key), lhs_child, rhs_child) {
                Ok(Some(merged)) => {
                    out.insert(key.clone(), merged);
                }
                Ok(None) => {}
                Err(problems) => errors.extend(problems.prefixed(&format!(".{key}"))),
            }
        }
        errors.into_result()?;
        Ok((!out.is_empty()).then_some(Value::Object(out)))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::patch::type_schema::{ObjectType, Schema, convert, named};

    fn widget() -> ObjectType {
        let definitions = serde_json::from_value(json!({"Widget": {"type": "object", "properties": {
            "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                "items": {"type": "object", "properties": {"name": {"type": "string"}, "port": {"type": "integer"}}}},
            "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
            "args": {"type": "array", "items": {"type": "string"}},
            "selector": {"type": "object", "x-kubernetes-map-type": "atomic", "additionalProperties": {"type": "string"}},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}}
        }}}))
        .unwrap();
        ObjectType {
            schema: std::sync::Arc::new(Schema::layered(convert(&definitions, false), None)),
            root: named("Widget"),
        }
    }

    #[test]
    fn associative_lists_merge_by_item_and_atomic_values_are_replaced() {
        let live = json!({"ports": [{"name": "a", "port": 1}, {"name": "b", "port": 2}], "tags": ["x", "y"],
            "args": ["1", "2"], "selector": {"a": "1", "b": "2"}, "labels": {"a": "1"}});
        let applied = json!({"ports": [{"name": "c", "port": 3}, {"name": "a", "port": 5}], "tags": ["z", "x"],
            "args": ["3"], "selector": {"c": "3"}, "labels": {"b": "2", "a": null}});
        assert_eq!(
            widget().merge(&live, &applied).expect("merged"),
            json!({"ports": [{"name": "c", "port": 3}, {"name": "a", "port": 5}, {"name": "b", "port": 2}],
                "tags": ["z", "x", "y"], "args": ["3"], "selector": {"c": "3"}, "labels": {"a": null, "b": "2"}})
        );
    }

    #[test]
    fn merging_an_invalid_configuration_fails() {
        let error = widget()
            .merge(&json!({}), &json!({"ports": [{"name": "a"}, {"name": "a"}]}))
            .expect_err("duplicate");
        assert_eq!(error.to_string(), ".ports: duplicate entries for key [name=\"a\"]");
    }
}
