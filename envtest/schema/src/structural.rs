//! The per-node checks of a CRD schema beyond types and rules, as apiextensions-apiserver
//! makes them: `ValidateStructural` (`pkg/apiserver/schema/validation.go`: what a
//! structural schema may hold, and where), and the `OpenAPI` checks of
//! `ValidateCustomResourceDefinitionOpenAPISchema` and `specStandardValidatorV3`
//! (`pkg/apis/apiextensions/validation/validation.go`: unsupported keywords,
//! `properties` beside `additionalProperties`, map and set lists, map types).
//!
//! Structural violations keep kube-apiserver from checking the defaults (`defaults.rs`),
//! so they are reported apart.

use serde_json::Value;

use crate::errors::{BadValue, FieldError, child, subscript};

/// `openapiV3Types`, sorted.
const TYPES: [&str; 6] = ["array", "boolean", "integer", "number", "object", "string"];

/// The errors of one node: `structural` those of `ValidateStructural`, `other` the
/// `OpenAPI` schema checks.
#[derive(Default)]
pub(crate) struct Found {
    pub structural: Vec<FieldError>,
    pub other: Vec<FieldError>,
}

/// The checks of a node that declares a value (not inside allOf, anyOf, oneOf, not).
/// `root` for the schema's root; `root_property` names the top-level `metadata`,
/// `apiVersion` or `kind` a node lies under, where defaults are forbidden.
pub(crate) fn check(schema: &Value, path: &str, root: bool, root_property: Option<&str>, found: &mut Found) {
    let schema_type = schema["type"].as_str().unwrap_or_default();
    keywords(schema, path, found);
    if let Some(property) = root_property
        && schema.get("default").is_some_and(|d| !d.is_null())
    {
        let detail = format!("must not be set in top-level {property}");
        found.other.push(FieldError::forbidden(child(path, "default"), detail));
    }
    let additional = schema.get("additionalProperties").filter(|a| !a.is_null());
    if let Some(additional) = additional {
        let has_properties = schema["properties"].as_object().is_some_and(|p| !p.is_empty());
        if has_properties && (*additional == false || additional.is_object()) {
            found.other.push(FieldError::forbidden(
                child(path, "additionalProperties"),
                "additionalProperties and properties are mutual exclusive",
            ));
        }
        if root {
            found.structural.push(FieldError::forbidden(
                child(path, "additionalProperties"),
                "must not be used at the root",
            ));
        }
    }
    if schema_type == "array" && schema.get("items").is_none_or(Value::is_null) {
        found
            .structural
            .push(FieldError::required(child(path, "items"), "must be specified"));
    }
    extensions(schema, path, schema_type, found);
    map_type(schema, path, schema_type, found);
    list_items(schema, path, found);
    if root || schema["x-kubernetes-embedded-resource"] == true {
        resource_fields(schema, path, root, found);
    }
}

/// `specStandardValidatorV3.validate`: the `OpenAPI` keywords a CRD may not use.
fn keywords(schema: &Value, path: &str, found: &mut Found) {
    if let Some(schema_type) = schema["type"].as_str()
        && !schema_type.is_empty()
        && !TYPES.contains(&schema_type)
    {
        let supported: Vec<String> = TYPES.iter().map(|t| (*t).to_owned()).collect();
        found.other.push(FieldError::not_supported(
            child(path, "type"),
            schema_type.into(),
            &supported,
        ));
    }
    let forbidden = [
        ("id", "id is not supported"),
        ("additionalItems", "additionalItems is not supported"),
        ("patternProperties", "patternProperties is not supported"),
        ("definitions", "definitions is not supported"),
        ("dependencies", "dependencies is not supported"),
        ("$ref", "$ref is not supported"),
    ];
    for (keyword, detail) in forbidden {
        // kube's tests: `len(ID) > 0`, `len(PatternProperties) != 0`, `len(Definitions)
        // != 0`; `AdditionalItems`, `Dependencies` and `Ref` are pointers, set whatever
        // they hold (an empty `$ref` included).
        let present = match (&schema[keyword], keyword) {
            (Value::Null, _) => false,
            (Value::String(text), "id") => !text.is_empty(),
            (Value::Object(map), "patternProperties" | "definitions") => !map.is_empty(),
            _ => true,
        };
        if present {
            found.other.push(FieldError::forbidden(child(path, keyword), detail));
        }
    }
    if schema["type"] == "null" {
        found.other.push(FieldError::forbidden(
            child(path, "type"),
            "type cannot be set to null, use nullable as an alternative",
        ));
    }
    if schema["items"].is_array() {
        found.other.push(FieldError::forbidden(
            child(path, "items"),
            "items must be a schema object and not an array",
        ));
    }
}

/// The `x-kubernetes-*` extensions that contradict each other.
fn extensions(schema: &Value, path: &str, schema_type: &str, found: &mut Found) {
    let int_or_string = schema["x-kubernetes-int-or-string"] == true;
    let embedded = schema["x-kubernetes-embedded-resource"] == true;
    if schema["x-kubernetes-preserve-unknown-fields"] == false {
        found.other.push(FieldError::invalid(
            child(path, "x-kubernetes-preserve-unknown-fields"),
            BadValue::Json(Value::Bool(false)),
            "must be true or undefined",
        ));
    }
    if int_or_string && schema["x-kubernetes-preserve-unknown-fields"] == true {
        found.structural.push(FieldError::invalid(
            child(path, "x-kubernetes-preserve-unknown-fields"),
            BadValue::Json(Value::Bool(true)),
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }
    if int_or_string && embedded {
        found.structural.push(FieldError::invalid(
            child(path, "x-kubernetes-embedded-resource"),
            BadValue::Json(Value::Bool(true)),
            "must be false if x-kubernetes-int-or-string is true",
        ));
    }
    if embedded {
        let detail = "must be object if x-kubernetes-embedded-resource is true";
        match schema_type {
            "object" => {}
            "" => found.structural.push(FieldError::required(child(path, "type"), detail)),
            other => found
                .structural
                .push(FieldError::invalid(child(path, "type"), other.into(), detail)),
        }
        if schema.get("additionalProperties").is_some_and(|a| !a.is_null()) {
            found.structural.push(FieldError::forbidden(
                child(path, "additionalProperties"),
                "must not be used if x-kubernetes-embedded-resource is set",
            ));
        }
        let no_properties = schema["properties"].as_object().is_none_or(serde_json::Map::is_empty);
        if schema["x-kubernetes-preserve-unknown-fields"] != true && no_properties {
            found.structural.push(FieldError::required(
                child(path, "properties"),
                "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
            ));
        }
    }
}

/// `x-kubernetes-map-type`: on objects, atomic or granular.
fn map_type(schema: &Value, path: &str, schema_type: &str, found: &mut Found) {
    let Some(map_type) = schema.get("x-kubernetes-map-type").and_then(Value::as_str) else {
        return;
    };
    let detail = "must be object if x-kubernetes-map-type is specified";
    match schema_type {
        "object" => {}
        "" => found.other.push(FieldError::required(child(path, "type"), detail)),
        other => found
            .other
            .push(FieldError::invalid(child(path, "type"), other.into(), detail)),
    }
    if map_type != "atomic" && map_type != "granular" {
        let supported = ["atomic".to_owned(), "granular".to_owned()];
        found.other.push(FieldError::not_supported(
            child(path, "x-kubernetes-map-type"),
            map_type.into(),
            &supported,
        ));
    }
}

/// Lists of type set and map: set items atomic, map keys scalar, unique, and either
/// required or defaulted (a key an item may lack could not identify it), and neither
/// items nor keys nullable.
fn list_items(schema: &Value, path: &str, found: &mut Found) {
    let list_type = schema["x-kubernetes-list-type"].as_str().unwrap_or_default();
    let items = &schema["items"];
    if schema["type"] != "array" || !items.is_object() || !matches!(list_type, "set" | "map") {
        return;
    }
    let items_path = child(path, "items");
    if list_type == "set" {
        match items["type"].as_str() {
            Some("array") if items["x-kubernetes-list-type"].as_str().is_some_and(|t| t != "atomic") => {
                found.other.push(FieldError::invalid(
                    child(&items_path, "x-kubernetes-list-type"),
                    BadValue::from(&items["x-kubernetes-list-type"]),
                    "must be atomic as item of a list with x-kubernetes-list-type=set",
                ));
            }
            // Go prints the items' list type here, not its map type: a nil pointer,
            // which `ErrorBody` shows as the string "null".
            Some("object") if items["x-kubernetes-map-type"] != "atomic" => {
                found.other.push(FieldError::invalid(
                    child(&items_path, "x-kubernetes-map-type"),
                    BadValue::from("null"),
                    "must be atomic as item of a list with x-kubernetes-list-type=set",
                ));
            }
            _ => {}
        }
    }
    if items["nullable"] == true {
        found.other.push(FieldError::forbidden(
            child(&items_path, "nullable"),
            format!("cannot be nullable when x-kubernetes-list-type is {list_type}"),
        ));
    }
    if list_type != "map" {
        return;
    }
    if let Some(item_type) = items["type"].as_str().filter(|t| *t != "object") {
        found.other.push(FieldError::invalid(
            child(&items_path, "type"),
            item_type.into(),
            "must be object if parent array's x-kubernetes-list-type is map",
        ));
        return;
    }
    let keys: Vec<&str> = schema["x-kubernetes-list-map-keys"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let required: Vec<&str> = items["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    for (index, key) in keys.iter().enumerate() {
        let Some(property) = items["properties"].get(*key) else {
            continue;
        };
        let property_path = subscript(&child(&items_path, "properties"), key);
        if matches!(property["type"].as_str(), Some("array" | "object")) {
            // Go prints the items' type here, not the key's.
            found.other.push(FieldError::invalid(
                child(&property_path, "type"),
                "object".into(),
                "must be a scalar type if parent array's x-kubernetes-list-type is map",
            ));
        }
        if keys[..index].contains(key) {
            let value = BadValue::Json(schema["x-kubernetes-list-map-keys"].clone());
            found.other.push(FieldError::invalid(
                child(path, "x-kubernetes-list-map-keys"),
                value,
                "must not contain duplicate entries",
            ));
        }
        if !required.contains(key) && property.get("default").is_none_or(Value::is_null) {
            found.other.push(FieldError::required(
                child(&property_path, "default"),
                "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
            ));
        }
        if property["nullable"] == true {
            found.other.push(FieldError::forbidden(
                child(&property_path, "nullable"),
                "this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
            ));
        }
    }
}

/// At the root and in embedded resources: `apiVersion` and `kind` are strings, and the
/// root's `metadata` may only constrain `name` and `generateName`.
fn resource_fields(schema: &Value, path: &str, root: bool, found: &mut Found) {
    let properties = child(path, "properties");
    for field in ["kind", "apiVersion"] {
        if let Some(property) = schema["properties"].get(field)
            && property["type"] != "string"
        {
            let shown = property["type"].as_str().unwrap_or_default();
            found.structural.push(FieldError::invalid(
                child(&subscript(&properties, field), "type"),
                shown.into(),
                "must be string",
            ));
        }
    }
    let Some(metadata) = schema["properties"].get("metadata") else {
        return;
    };
    let metadata_path = subscript(&properties, "metadata");
    if metadata["type"] != "object" {
        let shown = metadata["type"].as_str().unwrap_or_default();
        found.structural.push(FieldError::invalid(
            child(&metadata_path, "type"),
            shown.into(),
            "must be object",
        ));
    }
    if !root {
        return;
    }
    let names_only = metadata["properties"]
        .as_object()
        .is_none_or(|p| p.keys().all(|k| k == "name" || k == "generateName"));
    let others = metadata.as_object().is_some_and(|m| {
        m.iter().any(|(key, value)| {
            !value.is_null() && !matches!(key.as_str(), "type" | "properties" | "default" | "description")
        })
    });
    if !names_only || others {
        found.structural.push(FieldError::forbidden(
            metadata_path,
            "must not specify anything other than name and generateName, but metadata is implicitly specified",
        ));
    }
}

/// Inside allOf, anyOf, oneOf and not (`validateNestedValueValidation`): value
/// constraints only; what shapes a value belongs to the structural schema beside them.
pub(crate) fn check_nested(schema: &Value, path: &str, found: &mut Found) {
    let forbidden: [(&str, &str); 12] = [
        ("type", "must be empty to be structural"),
        ("additionalProperties", "must be undefined to be structural"),
        ("default", "must be undefined to be structural"),
        ("title", "must be empty to be structural"),
        ("description", "must be empty to be structural"),
        ("nullable", "must be false to be structural"),
        ("x-kubernetes-preserve-unknown-fields", "must be false to be structural"),
        ("x-kubernetes-embedded-resource", "must be false to be structural"),
        ("x-kubernetes-int-or-string", "must be false to be structural"),
        ("x-kubernetes-list-map-keys", "must be empty to be structural"),
        ("x-kubernetes-list-type", "must be undefined to be structural"),
        ("x-kubernetes-validations", "must be empty to be structural"),
    ];
    for (keyword, detail) in forbidden {
        let present = match &schema[keyword] {
            Value::Null | Value::Bool(false) => false,
            Value::String(text) => !text.is_empty() || keyword == "x-kubernetes-list-type",
            Value::Array(items) => !items.is_empty(),
            _ => true,
        };
        if present {
            found
                .structural
                .push(FieldError::forbidden(child(path, keyword), detail));
        }
    }
    if schema.get("x-kubernetes-map-type").is_some_and(|m| !m.is_null()) {
        found.structural.push(FieldError::forbidden(
            child(path, "x-kubernetes-map-type"),
            "must be undefined to be structural",
        ));
    }
    if schema["properties"].get("metadata").is_some() {
        found.structural.push(FieldError::forbidden(
            subscript(&child(path, "properties"), "metadata"),
            "must not be specified in a nested context",
        ));
    }
}

/// Whether apiextensions' `NewStructural` can build the schema: it refuses keywords a
/// structural schema has no place for, and `x-kubernetes-preserve-unknown-fields:
/// false`. Without a structural schema kube-apiserver checks neither the structural
/// rules nor the defaults nor the CEL rules (the `OpenAPI` checks report the causes).
pub(crate) fn buildable(schema: &Value) -> bool {
    let unsupported = [
        "id",
        "$schema",
        "$ref",
        "definitions",
        "dependencies",
        "additionalItems",
        "patternProperties",
    ]
    .iter()
    .any(|keyword| match &schema[*keyword] {
        Value::Null => false,
        Value::String(text) => !text.is_empty(),
        Value::Object(map) => *keyword == "dependencies" || !map.is_empty(),
        _ => true,
    });
    if unsupported || schema["x-kubernetes-preserve-unknown-fields"] == false || schema["items"].is_array() {
        return false;
    }
    let children = schema["properties"]
        .as_object()
        .into_iter()
        .flat_map(|p| p.values())
        .chain(
            ["items", "additionalProperties", "not"]
                .iter()
                .filter_map(|k| schema.get(*k)),
        )
        .chain(
            ["allOf", "anyOf", "oneOf"]
                .iter()
                .flat_map(|k| schema[*k].as_array().into_iter().flatten()),
        );
    children.filter(|c| c.is_object()).all(buildable)
}
