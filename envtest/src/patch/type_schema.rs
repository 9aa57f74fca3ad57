//! structured-merge-diff's description of an object's type (`schema/elements.go`): each
//! node is a scalar, a list (atomic, or associative: a set, or a map list with key
//! fields) and/or a map (a struct with named fields, a map of one element type, atomic
//! or granular). Built from `OpenAPI` schemas by `from_openapi`, for custom resources and
//! built-in types alike, so both merge by one engine.

mod from_openapi;

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

pub(crate) use self::from_openapi::convert;

/// How a list's items or a map's fields relate (`ElementRelationship`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Relationship {
    /// Replaced as a whole, owned as one field.
    Atomic,
    /// List items identified by keys or by value, each owned on its own.
    Associative,
    /// Map fields each owned on their own (the default for maps).
    Separable,
}

/// A scalar's kind, which validation checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scalar {
    Numeric,
    String,
    Boolean,
    /// Any scalar (`int-or-string`, dates, unknown formats).
    Untyped,
}

/// A reference to a type: by name, or inline; a named map or list may have its
/// relationship overridden where it is used (`x-kubernetes-map-type` beside a `$ref`).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) enum TypeRef {
    /// No type: a map field that is not declared (validation refuses the value).
    #[default]
    None,
    Named {
        name: Arc<str>,
        relationship: Option<Relationship>,
    },
    Inline(Arc<Atom>),
}

/// What a node may be; a value picks the part that matches its JSON kind.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Atom {
    pub scalar: Option<Scalar>,
    pub list: Option<List>,
    pub map: Option<MapType>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct List {
    pub element: TypeRef,
    pub relationship: Relationship,
    /// Key fields of a map list; empty for a set.
    pub keys: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MapType {
    pub fields: HashMap<String, Field>,
    /// The type of fields not declared; `TypeRef::None` when there may be none.
    pub element: TypeRef,
    /// `None` when unset: treated as separable, but no override.
    pub relationship: Option<Relationship>,
}

impl MapType {
    pub(crate) fn is_atomic(&self) -> bool {
        self.relationship == Some(Relationship::Atomic)
    }

    /// The type of the field `name`: its declared type, or the element type.
    pub(crate) fn field_type(&self, name: &str) -> &TypeRef {
        self.fields.get(name).map_or(&self.element, |field| &field.type_ref)
    }
}

/// A struct field: its type and its `default`, which a map list's missing key takes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Field {
    pub type_ref: TypeRef,
    pub default: Option<Value>,
}

/// Named types, with the two every schema has: `__untyped_atomic_` (anything, owned
/// whole) and `__untyped_deduced_` (anything; maps merge field by field).
#[derive(Debug, Clone, Default)]
pub(crate) struct Schema {
    types: HashMap<Arc<str>, Arc<Atom>>,
    /// Named types shared with other schemas (`ObjectMeta` for every custom resource).
    base: Option<Arc<Schema>>,
}

pub(crate) const UNTYPED_ATOMIC: &str = "__untyped_atomic_";
pub(crate) const UNTYPED_DEDUCED: &str = "__untyped_deduced_";

pub(crate) fn named(name: &str) -> TypeRef {
    TypeRef::Named {
        name: name.into(),
        relationship: None,
    }
}

impl Schema {
    /// A schema of `types` that falls back to `base` for names it lacks.
    pub(crate) fn layered(types: HashMap<Arc<str>, Arc<Atom>>, base: Option<Arc<Schema>>) -> Schema {
        let mut schema = Schema { types, base };
        if schema.base.is_none() {
            schema.add_common_types();
        }
        schema
    }

    fn add_common_types(&mut self) {
        let untyped_list = |element: &str| List {
            element: named(element),
            relationship: Relationship::Atomic,
            keys: Vec::new(),
        };
        let untyped_map = |element: &str, relationship| MapType {
            fields: HashMap::new(),
            element: named(element),
            relationship: Some(relationship),
        };
        self.types.insert(
            UNTYPED_ATOMIC.into(),
            Arc::new(Atom {
                scalar: Some(Scalar::Untyped),
                list: Some(untyped_list(UNTYPED_ATOMIC)),
                map: Some(untyped_map(UNTYPED_ATOMIC, Relationship::Atomic)),
            }),
        );
        self.types.insert(
            UNTYPED_DEDUCED.into(),
            Arc::new(Atom {
                scalar: Some(Scalar::Untyped),
                list: Some(untyped_list(UNTYPED_ATOMIC)),
                map: Some(untyped_map(UNTYPED_DEDUCED, Relationship::Separable)),
            }),
        );
    }

    fn named_type(&self, name: &str) -> Option<&Arc<Atom>> {
        self.types
            .get(name)
            .or_else(|| self.base.as_deref().and_then(|base| base.named_type(name)))
    }

    /// `Resolve`: the atom a reference names, with its relationship override applied.
    pub(crate) fn resolve(&self, type_ref: &TypeRef) -> Option<Arc<Atom>> {
        match type_ref {
            // Only validation refuses an undeclared field; the other walks, which see
            // objects already admitted, take it for a field of unknown type.
            TypeRef::None => self.named_type(UNTYPED_DEDUCED).cloned(),
            TypeRef::Inline(atom) => Some(atom.clone()),
            TypeRef::Named {
                name,
                relationship: None,
            } => self.named_type(name).cloned(),
            TypeRef::Named {
                name,
                relationship: Some(relationship),
            } => {
                let atom = self.named_type(name)?;
                let mut overridden = Atom::clone(atom);
                if let Some(map) = &mut overridden.map {
                    map.relationship = Some(*relationship);
                } else if let Some(list) = &mut overridden.list {
                    list.relationship = *relationship;
                } else {
                    return None;
                }
                Some(Arc::new(overridden))
            }
        }
    }
}

/// The type of one kind of object: its schema and the root type's reference.
#[derive(Debug, Clone)]
pub(crate) struct ObjectType {
    pub schema: Arc<Schema>,
    pub root: TypeRef,
}

impl ObjectType {
    /// A type that knows nothing of the object's fields (`NewDeducedTypeConverter`):
    /// maps merge field by field, lists are atomic.
    pub(crate) fn deduced() -> ObjectType {
        ObjectType {
            schema: Arc::new(Schema::layered(HashMap::new(), None)),
            root: named(UNTYPED_DEDUCED),
        }
    }
}
