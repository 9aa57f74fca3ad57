//! `OpenAPI` schemas to structured-merge-diff types, as kube-openapi's `schemaconv`
//! (`ToSchemaFromOpenAPI`) converts them: `x-kubernetes-list-type` and
//! `x-kubernetes-list-map-keys` (or, without them, `x-kubernetes-patch-strategy: merge`
//! and `x-kubernetes-patch-merge-key`) make a list associative; `x-kubernetes-map-type`
//! makes a map atomic or granular; `x-kubernetes-preserve-unknown-fields` lets a map
//! hold fields it does not declare, down its whole subtree; a field's `default` is what
//! a map list's missing key takes. Malformed extensions (which CRD validation refuses)
//! fall back to atomic.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::{Atom, Field, List, MapType, Relationship, Scalar, TypeRef, UNTYPED_ATOMIC, UNTYPED_DEDUCED, named};

/// Schemas by definition name, as in `components.schemas`.
pub(crate) type Definitions = Map<String, Value>;

const QUANTITY: &str = "io.k8s.apimachinery.pkg.api.resource.Quantity";
const RAW_EXTENSION: &str = "io.k8s.apimachinery.pkg.runtime.RawExtension";

/// The named types of `definitions`; `preserve_unknown_fields` for a CRD that keeps
/// unknown fields everywhere (`spec.preserveUnknownFields`).
pub(crate) fn convert(definitions: &Definitions, preserve_unknown_fields: bool) -> HashMap<Arc<str>, Arc<Atom>> {
    let mut types = HashMap::new();
    for (name, schema) in definitions {
        if schema.get("$ref").is_some() {
            continue; // an alias of another definition
        }
        let atom = match name.as_str() {
            QUANTITY => Atom {
                scalar: Some(Scalar::Untyped),
                ..Atom::default()
            },
            RAW_EXTENSION => untyped_atomic(),
            _ => visit(schema, preserve_unknown_fields),
        };
        if atom != Atom::default() {
            types.insert(Arc::from(name.as_str()), Arc::new(atom));
        }
    }
    types
}

/// The atom of `__untyped_atomic_`, which a raw extension is.
fn untyped_atomic() -> Atom {
    Atom {
        scalar: Some(Scalar::Untyped),
        list: Some(List {
            element: named(UNTYPED_ATOMIC),
            relationship: Relationship::Atomic,
            keys: Vec::new(),
        }),
        map: Some(MapType {
            fields: HashMap::new(),
            element: named(UNTYPED_ATOMIC),
            relationship: Some(Relationship::Atomic),
        }),
    }
}

/// `visitSpec`: a schema's atom; preserving unknown fields here preserves them below.
fn visit(schema: &Value, preserve_unknown_fields: bool) -> Atom {
    let preserve = preserve_unknown_fields || schema["x-kubernetes-preserve-unknown-fields"] == true;
    let schema_type = match &schema["type"] {
        Value::String(text) => text.as_str(),
        Value::Array(types) => types.first().and_then(Value::as_str).unwrap_or_default(),
        _ => "",
    };
    match schema_type {
        "" => Atom {
            scalar: Some(Scalar::Untyped),
            list: Some(list(schema, preserve)),
            map: Some(object(schema, preserve)),
        },
        "object" => Atom {
            map: Some(object(schema, preserve)),
            ..Atom::default()
        },
        "array" => Atom {
            list: Some(list(schema, preserve)),
            ..Atom::default()
        },
        primitive => Atom {
            scalar: Some(scalar(primitive, schema["format"].as_str().unwrap_or_default())),
            ..Atom::default()
        },
    }
}

/// `convertPrimitive`.
fn scalar(schema_type: &str, format: &str) -> Scalar {
    match (schema_type, format) {
        ("integer" | "number", _) => Scalar::Numeric,
        ("string", "" | "byte") => Scalar::String,
        ("boolean", _) => Scalar::Boolean,
        _ => Scalar::Untyped,
    }
}

/// The definition a schema refers to: `$ref`, or the one `$ref` of an `allOf`.
fn reference(schema: &Value) -> Option<&str> {
    let reference = match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => reference,
        None => match schema.get("allOf").and_then(Value::as_array).map(Vec::as_slice) {
            Some([only]) => only.get("$ref")?.as_str()?,
            _ => return None,
        },
    };
    reference.rsplit('/').next().filter(|name| !name.is_empty())
}

/// `makeOpenAPIRef`: a reference by name (with the referencing schema's map type), or
/// the schema converted inline.
fn type_ref(schema: &Value, preserve_unknown_fields: bool) -> TypeRef {
    if let Some(name) = reference(schema) {
        return TypeRef::Named {
            name: name.into(),
            relationship: map_relationship(schema),
        };
    }
    TypeRef::Inline(Arc::new(visit(schema, preserve_unknown_fields)))
}

/// `getMapElementRelationship`.
fn map_relationship(schema: &Value) -> Option<Relationship> {
    match schema.get("x-kubernetes-map-type").and_then(Value::as_str) {
        Some("atomic") => Some(Relationship::Atomic),
        Some("granular") => Some(Relationship::Separable),
        _ => None,
    }
}

/// `parseObject`.
fn object(schema: &Value, preserve_unknown_fields: bool) -> MapType {
    let properties = schema.get("properties").and_then(Value::as_object);
    let fields = properties
        .into_iter()
        .flatten()
        .map(|(name, member)| {
            let field = Field {
                type_ref: type_ref(member, preserve_unknown_fields),
                default: member.get("default").cloned(),
            };
            (name.clone(), field)
        })
        .collect();
    let element = match schema.get("additionalProperties") {
        None | Some(Value::Null) => {
            if preserve_unknown_fields || properties.is_none_or(Map::is_empty) {
                named(UNTYPED_DEDUCED)
            } else {
                TypeRef::None
            }
        }
        Some(Value::Bool(true)) => named(UNTYPED_DEDUCED),
        Some(Value::Bool(false)) => TypeRef::None,
        Some(additional) => type_ref(additional, preserve_unknown_fields),
    };
    MapType {
        fields,
        element,
        relationship: map_relationship(schema),
    }
}

/// `parseList` with `getListElementRelationship`.
fn list(schema: &Value, preserve_unknown_fields: bool) -> List {
    let (relationship, keys) = match schema.get("x-kubernetes-list-type").and_then(Value::as_str) {
        Some("set") => (Relationship::Associative, Vec::new()),
        Some("map") => {
            let keys = schema["x-kubernetes-list-map-keys"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect();
            (Relationship::Associative, keys)
        }
        Some(_) => (Relationship::Atomic, Vec::new()),
        None => match schema.get("x-kubernetes-patch-strategy").and_then(Value::as_str) {
            Some("merge" | "merge,retainKeys") => {
                let keys = schema
                    .get("x-kubernetes-patch-merge-key")
                    .and_then(Value::as_str)
                    .map(|key| vec![key.to_owned()])
                    .unwrap_or_default();
                (Relationship::Associative, keys)
            }
            _ => (Relationship::Atomic, Vec::new()),
        },
    };
    let element = match schema.get("items") {
        Some(items) if items.is_object() => type_ref(items, preserve_unknown_fields),
        _ => named(UNTYPED_ATOMIC),
    };
    List {
        element,
        relationship,
        keys,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn list_and_map_types_come_from_the_extensions() {
        let definitions: Definitions = serde_json::from_value(json!({
            "Widget": {"type": "object", "properties": {
                "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                    "items": {"type": "object", "properties": {"name": {"type": "string"}, "protocol": {"type": "string", "default": "TCP"}}}},
                "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
                "args": {"type": "array", "items": {"type": "string"}},
                "env": {"type": "array", "x-kubernetes-patch-strategy": "merge", "x-kubernetes-patch-merge-key": "name",
                    "items": {"$ref": "#/components/schemas/Env"}},
                "selector": {"allOf": [{"$ref": "#/components/schemas/Selector"}], "x-kubernetes-map-type": "atomic"},
                "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}}}},
                "size": {"x-kubernetes-int-or-string": true}
            }},
            "Env": {"type": "object", "properties": {"name": {"type": "string"}}},
            "Selector": {"type": "object", "additionalProperties": {"type": "string"}}
        }))
        .unwrap();
        let types = convert(&definitions, false);
        let widget = types["Widget"].map.as_ref().unwrap();
        let list_of = |field: &str| match &widget.fields[field].type_ref {
            TypeRef::Inline(atom) => atom.list.clone().unwrap(),
            other => panic!("{field}: {other:?}"),
        };
        assert_eq!(list_of("ports").keys, ["name"]);
        assert_eq!(list_of("ports").relationship, Relationship::Associative);
        assert!(list_of("tags").keys.is_empty() && list_of("tags").relationship == Relationship::Associative);
        assert_eq!(list_of("args").relationship, Relationship::Atomic);
        assert_eq!(list_of("env").keys, ["name"]);
        assert_eq!(
            widget.fields["selector"].type_ref,
            TypeRef::Named {
                name: "Selector".into(),
                relationship: Some(Relationship::Atomic)
            }
        );
        let TypeRef::Inline(free) = &widget.fields["free"].type_ref else {
            panic!("inline")
        };
        let TypeRef::Inline(inner) = &free.map.as_ref().unwrap().fields["a"].type_ref else {
            panic!("inline")
        };
        assert_eq!(
            inner.map.as_ref().unwrap().element,
            named(UNTYPED_DEDUCED),
            "unknown fields are kept down the subtree"
        );
        assert_eq!(widget.element, TypeRef::None, "a struct declares its fields");
        let TypeRef::Inline(size) = &widget.fields["size"].type_ref else {
            panic!("inline")
        };
        assert_eq!(size.scalar, Some(Scalar::Untyped));
    }
}
