//! A custom resource's write against its CRD version's structural schema, in
//! apiextensions-apiserver's order (`pkg/registry/customresource/strategy.go`,
//! `status_strategy.go` and `validator.go`):
//!
//! 1. unknown fields are pruned, then defaults applied and `null`s the schema does not
//!    allow dropped (`prune`): validation sees the object as it will be stored;
//! 2. the value constraints of kube-openapi (`keywords`, with `formats`), embedded
//!    resources (`embedded`) and list types (`listtype`) are checked;
//! 3. the CEL rules (`cel`) run only when the object passed the structural checks a
//!    rule relies on, else one error says the rules were not checked.
//!
//! Updates ratchet as kube-apiserver does since 1.30 (feature `CRDValidationRatcheting`):
//! a value that fails a constraint but did not change passes, so tightening a schema
//! does not lock existing objects (but for the CEL rules of a `/status` write, which
//! 1.32's status strategy runs without ratcheting). The real server warns about such
//! values; this one lets them through silently.

use serde_json::Value;

use crate::errors::{BadValue, FieldError, NIL_PATH};
use crate::{cel, embedded, keywords, listtype, prune};

/// What kind of write an object comes with.
#[derive(Debug, Clone, Copy)]
pub enum Write<'a> {
    /// A new object.
    Create,
    /// An update of the object on its main endpoint, from the stored object.
    Update(&'a Value),
    /// An update through `/status`, from the stored object.
    Status(&'a Value),
}

/// What the custom resource codec does as it decodes a body (`schemaCoercingDecoder`
/// and `unstructuredDefaulter`): unknown fields pruned, defaults applied, `null`s the
/// schema does not allow dropped. The field manager sees the object as this leaves it.
pub fn decode(schema: &Value, object: &mut Value) {
    prune::prune(schema, object);
    prune::default(schema, object);
    prune::prune_nulls(schema, object);
}

/// What the field manager does to the object a server-side apply makes
/// (`structuredMergeManager.Apply` calls the custom resource defaulter): defaults
/// applied, and no pruning; a `null` the configuration sets stays for validation to
/// refuse where the schema does not allow it.
pub fn decode_applied(schema: &Value, object: &mut Value) {
    prune::default(schema, object);
}

/// Decodes (see [`decode`]) and validates `object` against `schema`; the field errors
/// are a 422's causes.
pub fn admit(schema: &Value, object: &mut Value, write: Write<'_>) -> Result<(), Vec<FieldError>> {
    decode(schema, object);
    let errors = validate(schema, object, write);
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

/// Validates the object a server-side apply made, as [`decode_applied`] left it.
pub fn admit_applied(schema: &Value, object: &mut Value, write: Write<'_>) -> Result<(), Vec<FieldError>> {
    decode_applied(schema, object);
    let errors = validate(schema, object, write);
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

/// The fields of `object` its schema does not declare (and pruning would drop).
pub fn unknown_fields(schema: &Value, object: &Value) -> Vec<String> {
    prune::prune(schema, &mut object.clone())
}

fn validate(schema: &Value, object: &Value, write: Write<'_>) -> Vec<FieldError> {
    let mut errors = Vec::new();
    let old = match write {
        Write::Create => None,
        Write::Update(old) | Write::Status(old) => Some(old),
    };
    match write {
        Write::Status(old) => {
            if let (Some(status), Some(status_schema)) = (object.get("status"), schema["properties"].get("status")) {
                errors.extend(keywords::validate(
                    status_schema,
                    status,
                    old.get("status"),
                    Some("status"),
                ));
            }
            let new_list_errors = listtype::validate(schema, object, NIL_PATH);
            if !new_list_errors.is_empty() && listtype::validate(schema, old, NIL_PATH).is_empty() {
                errors.extend(new_list_errors);
            }
        }
        Write::Create | Write::Update(_) => {
            errors.extend(keywords::validate(schema, object, old, None));
            errors.extend(embedded::validate(schema, object, NIL_PATH));
            if old.is_none_or(|old| listtype::validate(schema, old, NIL_PATH).is_empty()) {
                errors.extend(listtype::validate(schema, object, NIL_PATH));
            }
        }
    }
    if !has_rules(schema) {
        return errors;
    }
    if errors.iter().any(FieldError::blocks_rules) {
        errors.push(FieldError::invalid(
            NIL_PATH,
            BadValue::Json(Value::Null),
            "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
        ));
    } else {
        // 1.32's status strategy runs the rules without `cel.WithRatcheting`.
        let ratchet = !matches!(write, Write::Status(_));
        errors.extend(cel::validate(schema, object, old, ratchet));
    }
    errors
}

/// Whether any node of `schema` has CEL rules: without, kube-apiserver has no CEL
/// validator, and no "rules were not checked" error either.
fn has_rules(schema: &Value) -> bool {
    if schema
        .get("x-kubernetes-validations")
        .is_some_and(|r| r.as_array().is_some_and(|a| !a.is_empty()))
    {
        return true;
    }
    let children = schema["properties"]
        .as_object()
        .into_iter()
        .flat_map(|p| p.values())
        .chain(["items", "additionalProperties"].iter().filter_map(|k| schema.get(*k)))
        .chain(schema["allOf"].as_array().into_iter().flatten());
    children.filter(|c| c.is_object()).any(has_rules)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn schema() -> Value {
        json!({"type": "object", "properties": {
            "spec": {"type": "object", "required": ["image"], "properties": {
                "image": {"type": "string"}, "replicas": {"type": "integer", "minimum": 1},
            }, "x-kubernetes-validations": [{"rule": "self.replicas <= 5", "message": "at most 5"}]},
            "status": {"type": "object", "properties": {"ready": {"type": "integer", "minimum": 0}}},
        }})
    }

    fn summaries(result: Result<(), Vec<FieldError>>) -> Vec<String> {
        result
            .err()
            .unwrap_or_default()
            .iter()
            .map(FieldError::summary)
            .collect()
    }

    #[test]
    fn structural_errors_hold_back_the_rules() {
        let mut object = json!({"spec": {"replicas": 9}});
        let found = summaries(admit(&schema(), &mut object, Write::Create));
        assert_eq!(
            found,
            vec![
                "spec.image: Required value",
                "<nil>: Invalid value: \"null\": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
            ]
        );
        let mut object = json!({"spec": {"image": "a", "replicas": 9}});
        assert_eq!(
            summaries(admit(&schema(), &mut object, Write::Create)),
            vec!["spec: Invalid value: \"object\": at most 5"]
        );
    }

    #[test]
    fn status_writes_validate_the_status_schema_under_status() {
        let old = json!({"spec": {"image": "a", "replicas": 9}, "status": {"ready": 1}});
        let mut object = json!({"spec": {"image": "a", "replicas": 9}, "status": {"ready": -1}});
        let found = summaries(admit(&schema(), &mut object, Write::Status(&old)));
        assert_eq!(
            found,
            vec![
                "status.ready: Invalid value: -1: ready in body should be greater than or equal to 0",
                "spec: Invalid value: \"object\": at most 5"
            ],
            "1.32's status strategy does not ratchet the rules on the unchanged spec"
        );
    }
}
