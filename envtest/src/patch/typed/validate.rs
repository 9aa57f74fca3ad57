//! `validate.go`: a value against its type: scalars of the declared kind, fields
//! declared (unless the map takes any), associative list items nameable and, unless
//! allowed, unique. An apply configuration that fails it is refused before anything
//! merges.

use serde_json::Value;

use super::{Part, ValidationErrors, item_element, part, resolve};
use crate::patch::fieldpath::{PathElement, Set};
use crate::patch::type_schema::{Relationship, Scalar, Schema, TypeRef};

pub(super) fn validate(
    schema: &Schema,
    type_ref: &TypeRef,
    value: &Value,
    allow_duplicates: bool,
) -> Result<(), ValidationErrors> {
    Validator {
        schema,
        allow_duplicates,
    }
    .value(type_ref, value)
    .into_result()
}

struct Validator<'a> {
    schema: &'a Schema,
    allow_duplicates: bool,
}

/// `validateScalar`; `prefix` names the side of a comparison (`lhs: `).
pub(super) fn scalar(scalar: Scalar, value: Option<&Value>, prefix: &str) -> ValidationErrors {
    let Some(value) = value.filter(|value| !value.is_null()) else {
        return ValidationErrors::default();
    };
    let problem = match (scalar, value) {
        (Scalar::Numeric, Value::Number(_))
        | (Scalar::String, Value::String(_))
        | (Scalar::Boolean, Value::Bool(_))
        | (Scalar::Untyped, Value::Number(_) | Value::String(_) | Value::Bool(_)) => {
            return ValidationErrors::default();
        }
        (Scalar::Numeric, other) => format!("expected numeric (int or float), got {}", go_type_name(other)),
        (Scalar::String, other) => format!(
            "expected string, got &value.valueUnstructured{{Value:{}}}",
            go_sharp_printed(other)
        ),
        (Scalar::Boolean, other) => format!("expected boolean, got &{{{}}}", go_printed(other)),
        (Scalar::Untyped, other) => format!("expected any scalar, got &{{{}}}", go_printed(other)),
    };
    ValidationErrors::one(format!("{prefix}{problem}"))
}

/// Go's `%T` of an unstructured value.
fn go_type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(number) if number.is_i64() => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// Go's `%#v` of an unstructured value.
fn go_sharp_printed(value: &Value) -> String {
    match value {
        Value::Null => "interface {}(nil)".to_owned(),
        Value::String(text) => wheelhouse_envtest_schema::errors::go_quote(text),
        Value::Array(items) => format!(
            "[]interface {{}}{{{}}}",
            items.iter().map(go_sharp_printed).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(fields) => format!(
            "map[string]interface {{}}{{{}}}",
            fields
                .iter()
                .map(|(key, value)| format!(
                    "{}:{}",
                    wheelhouse_envtest_schema::errors::go_quote(key),
                    go_sharp_printed(value)
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}

/// How Go prints a value it failed to take (`%v` of an unstructured value).
fn go_printed(value: &Value) -> String {
    match value {
        Value::Array(items) => format!("[{}]", items.iter().map(go_printed).collect::<Vec<_>>().join(" ")),
        Value::Object(fields) => format!(
            "map[{}]",
            fields
                .iter()
                .map(|(key, value)| format!("{key}:{}", go_printed(value)))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

impl Validator<'_> {
    fn value(&self, type_ref: &TypeRef, value: &Value) -> ValidationErrors {
        let atom = match resolve(self.schema, type_ref) {
            Ok(atom) => atom,
            Err(errors) => return errors,
        };
        match part(&atom, Some(value)) {
            Err(errors) => errors,
            Ok(Part::Scalar(kind)) => scalar(kind, Some(value), ""),
            Ok(Part::List(list)) => match value {
                Value::Null => ValidationErrors::default(),
                Value::Array(items) => self.list_items(list, items),
                other => ValidationErrors::one(format!("expected list, got &{{{}}}", go_printed(other))),
            },
            Ok(Part::Map(map)) => match value {
                Value::Null => ValidationErrors::default(),
                Value::Object(fields) => {
                    let mut errors = ValidationErrors::default();
                    for (key, child) in fields {
                        let element = PathElement::Field(key.clone());
                        let child_type = match map.fields.get(key) {
                            Some(field) => &field.type_ref,
                            None if map.element == TypeRef::None => {
                                errors.extend(
                                    ValidationErrors::one("field not declared in schema")
                                        .prefixed(&element.to_string()),
                                );
                                return errors;
                            }
                            None => &map.element,
                        };
                        errors.extend(self.value(child_type, child).prefixed(&element.to_string()));
                    }
                    errors
                }
                other => ValidationErrors::one(format!("expected map, got &{{{}}}", go_printed(other))),
            },
        }
    }

    fn list_items(&self, list: &crate::patch::type_schema::List, items: &[Value]) -> ValidationErrors {
        let mut errors = ValidationErrors::default();
        let mut seen = Set::new();
        for (index, item) in items.iter().enumerate() {
            let element = if list.relationship == Relationship::Associative {
                match item_element(self.schema, list, item) {
                    Ok(element) => element,
                    Err(problem) => {
                        errors.extend(ValidationErrors::one(format!("element {index}: {problem}")));
                        return errors;
                    }
                }
            } else {
                PathElement::Index(index)
            };
            if list.relationship == Relationship::Associative {
                if seen.has_member(&element) && !self.allow_duplicates {
                    errors.extend(ValidationErrors::one(format!("duplicate entries for key {element}")));
                }
                seen.insert_member(element.clone());
            }
            errors.extend(self.value(&list.element, item).prefixed(&element.to_string()));
        }
        errors
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::patch::type_schema::{ObjectType, Schema, convert, named};

    fn widget() -> ObjectType {
        let definitions = serde_json::from_value(json!({"Widget": {"type": "object", "properties": {
            "spec": {"type": "object", "properties": {
                "replicas": {"type": "integer"},
                "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                    "items": {"type": "object", "properties": {"name": {"type": "string"}}}}
            }}
        }}}))
        .unwrap();
        ObjectType {
            schema: std::sync::Arc::new(Schema::layered(convert(&definitions, false), None)),
            root: named("Widget"),
        }
    }

    #[test]
    fn undeclared_fields_wrong_kinds_and_missing_keys_are_refused() {
        let widget = widget();
        let error = |value| widget.validate(&value, false).expect_err("invalid").to_string();
        assert_eq!(
            error(json!({"spec": {"other": 1}})),
            ".spec.other: field not declared in schema"
        );
        assert_eq!(
            error(json!({"spec": {"replicas": "x"}})),
            ".spec.replicas: expected numeric (int or float), got string"
        );
        assert_eq!(
            error(json!({"spec": {"ports": [{"port": 1}]}})),
            ".spec.ports: element 0: associative list with keys has an element that omits key field \"name\" (and doesn't have default value)"
        );
        assert_eq!(
            error(json!({"spec": {"ports": [{"name": "a"}, {"name": "a"}]}})),
            ".spec.ports: duplicate entries for key [name=\"a\"]"
        );
        assert!(
            widget
                .validate(&json!({"spec": {"ports": [{"name": "a"}, {"name": "a"}]}}), true)
                .is_ok()
        );
    }
}
