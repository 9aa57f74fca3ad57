//! The `default`s of a CRD schema, checked as apiextensions-apiserver's
//! `structuraldefaulting.ValidateDefaults` does
//! (`pkg/apiserver/schema/defaulting/validation.go`): each default must already be
//! pruned (no field its schema would drop) and must pass its own schema's value
//! constraints (type, bounds, length, pattern, enum, format...), else the CRD is
//! refused. A default that broke its schema would otherwise be written into every
//! object that omits the field, and every such write would then be refused.
//!
//! Defaults under `additionalProperties` are not visited (kube-apiserver forbids or
//! ignores them there), nor those in the `metadata`, `apiVersion` or `kind` of an
//! embedded resource (kube checks those as object metadata; the embedded server checks
//! them by their schema only). Defaults are not run through CEL rules here.

use serde_json::Value;

use crate::errors::{BadValue, FieldError, child, subscript};

/// The violations of the defaults in `schema`, rooted at `path`.
pub(crate) fn validate(schema: &Value, path: &str) -> Vec<FieldError> {
    let mut errors = Vec::new();
    walk(schema, path, true, &mut errors);
    errors
}

/// `resource_root`: `schema` is the root or an embedded resource, whose `metadata`,
/// `apiVersion` and `kind` are the server's.
fn walk(schema: &Value, path: &str, resource_root: bool, errors: &mut Vec<FieldError>) {
    if let Some(default) = schema.get("default").filter(|d| !d.is_null()) {
        check(schema, default, path, errors);
    }
    if let Some(items) = schema.get("items").filter(|i| i.is_object()) {
        walk(items, &child(path, "items"), false, errors);
    }
    let embedded = resource_root || schema["x-kubernetes-embedded-resource"] == true;
    for (name, property) in schema["properties"].as_object().into_iter().flatten() {
        if embedded && matches!(name.as_str(), "metadata" | "apiVersion" | "kind") {
            continue;
        }
        let embedded_child = property["x-kubernetes-embedded-resource"] == true;
        walk(
            property,
            &subscript(&child(path, "properties"), name),
            embedded_child,
            errors,
        );
    }
}

/// One default: pruned already, then valid against its schema.
fn check(schema: &Value, default: &Value, path: &str, errors: &mut Vec<FieldError>) {
    let field = child(path, "default");
    let mut pruned = default.clone();
    crate::prune::prune_value(schema, &mut pruned);
    if pruned != *default {
        errors.push(FieldError::invalid(
            field.clone(),
            BadValue::Json(default.clone()),
            "must not have unknown fields",
        ));
    }
    errors.extend(crate::keywords::validate(schema, default, None, Some(&field)));
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn found(schema: &Value) -> Vec<String> {
        validate(schema, "s").iter().map(FieldError::summary).collect()
    }

    #[test]
    fn defaults_must_pass_their_own_schema() {
        let schema = json!({"type": "object", "properties": {
            "replicas": {"type": "integer", "minimum": 1, "default": 0},
            "name": {"type": "integer", "default": "x"},
            "mode": {"type": "string", "enum": ["a", "b"], "default": "c"},
            "ok": {"type": "integer", "minimum": 1, "default": 1},
        }});
        let mut errors = found(&schema);
        errors.sort();
        assert_eq!(
            errors,
            vec![
                "s.properties[mode].default: Unsupported value: \"c\": supported values: \"a\", \"b\"",
                "s.properties[name].default: Invalid value: \"string\":  in body must be of type integer: \"string\"",
                "s.properties[replicas].default: Invalid value: 0:  in body should be greater than or equal to 1",
            ]
        );
    }

    #[test]
    fn object_defaults_are_pruned_and_checked_field_by_field() {
        let schema = json!({"type": "object", "properties": {"spec": {"type": "object",
            "properties": {"size": {"type": "integer", "maximum": 3}},
            "default": {"size": 5, "extra": true}}}});
        assert_eq!(
            found(&schema),
            vec![
                "s.properties[spec].default: Invalid value: map[string]interface {}{\"extra\":true, \"size\":5}: must not have unknown fields",
                "s.properties[spec].default.size: Invalid value: 5: size in body should be less than or equal to 3",
            ]
        );
    }

    #[test]
    fn list_items_are_visited_and_additional_properties_are_not() {
        let schema = json!({"type": "object", "properties": {
            "ports": {"type": "array", "items": {"type": "integer", "maximum": 10, "default": 11}},
            "labels": {"type": "object", "additionalProperties": {"type": "integer", "maximum": 1, "default": 2}},
        }});
        assert_eq!(
            found(&schema),
            vec!["s.properties[ports].items.default: Invalid value: 11:  in body should be less than or equal to 10"]
        );
    }
}
