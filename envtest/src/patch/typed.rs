//! Values walked along their type, as structured-merge-diff's `typed` package walks them:
//! validation, the field set a value sets, merging, comparing and removing fields, each
//! in its own module. This one holds what they share (`helpers.go`): which part of a type
//! a value takes, how a list item is named, and the errors.

mod compare;
mod field_set;
mod merge;
mod remove;
mod validate;

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

pub(crate) use self::compare::Comparison;
use super::fieldpath::{PathElement, Set};
use super::type_schema::{Atom, List, MapType, ObjectType, Relationship, Scalar, Schema, TypeRef};

/// One problem with a value against its type, at a path printed as conflicts print it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ValidationError {
    pub path: String,
    pub message: String,
}

/// `ValidationErrors`, printed as structured-merge-diff prints them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct ValidationErrors(pub Vec<ValidationError>);

impl ValidationErrors {
    pub(crate) fn one(message: impl Into<String>) -> ValidationErrors {
        ValidationErrors(vec![ValidationError {
            path: String::new(),
            message: message.into(),
        }])
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn extend(&mut self, other: ValidationErrors) {
        self.0.extend(other.0);
    }

    /// `WithLazyPrefix`: these errors happened below `prefix`.
    fn prefixed(mut self, prefix: &str) -> ValidationErrors {
        for error in &mut self.0 {
            error.path = format!("{prefix}{}", error.path);
        }
        self
    }

    fn into_result(self) -> Result<(), ValidationErrors> {
        if self.is_empty() { Ok(()) } else { Err(self) }
    }
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl fmt::Display for ValidationErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [only] = self.0.as_slice() {
            return write!(f, "{only}");
        }
        f.write_str("errors:")?;
        for error in &self.0 {
            write!(f, "\n  {error}")?;
        }
        Ok(())
    }
}

/// The part of an atom a value is walked as (`deduceAtom` then `handleAtom`).
#[derive(Debug, Clone, Copy)]
enum Part<'a> {
    Scalar(Scalar),
    List(&'a List),
    Map(&'a MapType),
}

/// The part matching `value`'s kind, or (for null, absent or a mismatched value) the
/// first the atom has of map, scalar, list.
fn part<'a>(atom: &'a Atom, value: Option<&Value>) -> Result<Part<'a>, ValidationErrors> {
    match (value, atom) {
        (
            Some(Value::Number(_) | Value::String(_) | Value::Bool(_)),
            Atom {
                scalar: Some(scalar), ..
            },
        ) => {
            return Ok(Part::Scalar(*scalar));
        }
        (Some(Value::Array(_)), Atom { list: Some(list), .. }) => return Ok(Part::List(list)),
        (Some(Value::Object(_)), Atom { map: Some(map), .. }) => return Ok(Part::Map(map)),
        _ => {}
    }
    if let Some(map) = &atom.map {
        Ok(Part::Map(map))
    } else if let Some(scalar) = atom.scalar {
        Ok(Part::Scalar(scalar))
    } else if let Some(list) = &atom.list {
        Ok(Part::List(list))
    } else {
        Err(ValidationErrors::one("schema error: invalid atom: inlined"))
    }
}

/// A list's items, if `value` is a list.
fn items(value: Option<&Value>) -> Option<&[Value]> {
    value.and_then(Value::as_array).map(Vec::as_slice)
}

/// A map's fields, if `value` is a map.
fn fields(value: Option<&Value>) -> Option<&serde_json::Map<String, Value>> {
    value.and_then(Value::as_object)
}

/// Whether two values take the same part of an atom (`alhs.Equals(&arhs)`).
fn same_part(atom: &Atom, lhs: &Value, rhs: &Value) -> bool {
    let kind = |value: &Value| match part(atom, Some(value)) {
        Ok(Part::Scalar(_)) => 0,
        Ok(Part::List(_)) => 1,
        Ok(Part::Map(_)) => 2,
        Err(_) => 3,
    };
    kind(lhs) == kind(rhs)
}

fn resolve(schema: &Schema, type_ref: &TypeRef) -> Result<Arc<Atom>, ValidationErrors> {
    schema.resolve(type_ref).ok_or_else(|| {
        let name = match type_ref {
            TypeRef::Named { name, .. } => name.to_string(),
            _ => "inlined type".to_owned(),
        };
        ValidationErrors::one(format!("schema error: no type found matching: {name}"))
    })
}

/// `listItemToPathElement`: how an item of an associative list is named; a map list's
/// item by its key fields (a missing key takes its field's default), a set's by value.
fn item_element(schema: &Schema, list: &List, item: &Value) -> Result<PathElement, String> {
    if list.relationship != Relationship::Associative {
        return Err("invalid indexing of non-associative list".to_owned());
    }
    if list.keys.is_empty() {
        return match item {
            Value::Object(_) => Err("associative list without keys has an element that's a map type".to_owned()),
            Value::Array(_) => Err("not supported: associative list with lists as elements".to_owned()),
            Value::Null => Err("associative list without keys has an element that's an explicit null".to_owned()),
            scalar => Ok(PathElement::Value(scalar.clone())),
        };
    }
    let fields = match item {
        Value::Null => return Err("associative list with keys may not have a null element".to_owned()),
        Value::Object(fields) => fields,
        _ => return Err("associative list with keys may not have non-map elements".to_owned()),
    };
    let mut key = Vec::with_capacity(list.keys.len());
    for name in &list.keys {
        let value = match fields.get(name) {
            Some(value) => value.clone(),
            None => match key_default(schema, list, name)? {
                Some(default) => default,
                None => {
                    return Err(format!(
                        "associative list with keys has an element that omits key field {} (and doesn't have default value)",
                        wheelhouse_envtest_schema::errors::go_quote(name)
                    ));
                }
            },
        };
        key.push((name.clone(), value));
    }
    Ok(PathElement::key(key))
}

/// `getAssociativeKeyDefault`.
fn key_default(schema: &Schema, list: &List, name: &str) -> Result<Option<Value>, String> {
    let atom = schema
        .resolve(&list.element)
        .ok_or_else(|| format!("couldn't find default value for {name}: invalid elementType for list"))?;
    let map = atom.map.as_ref().ok_or_else(|| {
        format!("couldn't find default value for {name}: associative list may not have non-map types")
    })?;
    Ok(map
        .fields
        .get(name)
        .and_then(|field| field.default.clone())
        .filter(|default| !default.is_null()))
}

impl ObjectType {
    /// `AsTyped`: checks `value` against the type; `allow_duplicates` for objects already
    /// stored, whose associative lists may repeat a key.
    pub(crate) fn validate(&self, value: &Value, allow_duplicates: bool) -> Result<(), ValidationErrors> {
        validate::validate(&self.schema, &self.root, value, allow_duplicates)
    }

    /// `ToFieldSet`: the fields `value` sets.
    pub(crate) fn to_field_set(&self, value: &Value) -> Result<Set, ValidationErrors> {
        field_set::to_field_set(&self.schema, &self.root, value)
    }

    /// `Merge`: `rhs` merged into `lhs`, `rhs` winning where both set a field.
    pub(crate) fn merge(&self, lhs: &Value, rhs: &Value) -> Result<Value, ValidationErrors> {
        Ok(merge::merge(&self.schema, &self.root, Some(lhs), Some(rhs))?.unwrap_or(Value::Null))
    }

    /// `Compare`: what changed from `lhs` to `rhs`.
    pub(crate) fn compare(&self, lhs: &Value, rhs: &Value) -> Result<Comparison, ValidationErrors> {
        compare::compare(&self.schema, &self.root, lhs, rhs)
    }

    /// `RemoveItems`: `value` without the fields and items in `set`.
    pub(crate) fn remove_items(&self, value: &Value, set: &Set) -> Value {
        remove::remove_items(&self.schema, &self.root, value, set)
    }

    /// `EnsureNamedFieldsAreMembers`: `set` with each struct field it passes through
    /// counted as a member (a map's keys are not), so removing a set removes the struct
    /// fields its leaves leave empty.
    pub(crate) fn ensure_named_fields_are_members(&self, set: &Set) -> Set {
        ensure_named(&self.schema, &self.root, set)
    }
}

fn ensure_named(schema: &Schema, type_ref: &TypeRef, set: &Set) -> Set {
    let atom = schema.resolve(type_ref);
    let map = atom.as_deref().and_then(|atom| atom.map.as_ref());
    let list = atom.as_deref().and_then(|atom| atom.list.as_ref());
    let mut members: std::collections::BTreeSet<PathElement> = set.members().cloned().collect();
    let mut children = std::collections::BTreeMap::new();
    for (element, child) in set.children() {
        let child_type = match (element, map, list) {
            (PathElement::Field(name), Some(map), _) => {
                if map.fields.contains_key(name) {
                    members.insert(element.clone());
                }
                map.field_type(name).clone()
            }
            (PathElement::Key(_), _, Some(list)) => list.element.clone(),
            _ => TypeRef::None,
        };
        children.insert(element.clone(), ensure_named(schema, &child_type, child));
    }
    Set::from_parts(members, children)
}
