//! kube-openapi's checks, message for message.

use serde_json::json;

use super::*;

fn messages(schema: &Value, data: &Value) -> Vec<String> {
    validate(schema, data, None, None)
        .iter()
        .map(FieldError::summary)
        .collect()
}

#[test]
fn numbers_are_bounded_with_kube_openapi_messages() {
    // `small`'s int32 format is stripped as kube-apiserver strips it: 2^32 passes.
    let schema = json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "replicas": {"type": "integer", "minimum": 1, "maximum": 10, "multipleOf": 2},
        "ratio": {"type": "number", "exclusiveMinimum": true, "minimum": 0.5, "exclusiveMaximum": true, "maximum": 1.5},
        "small": {"type": "integer", "format": "int32"},
    }}}});
    let found = messages(
        &schema,
        &json!({"spec": {"replicas": 11, "ratio": 0.5, "small": 4_294_967_296_i64}}),
    );
    assert_eq!(
        found,
        vec![
            "spec.ratio: Invalid value: 0.5: spec.ratio in body should be greater than 0.5",
            "spec.replicas: Invalid value: 11: spec.replicas in body should be a multiple of 2",
            "spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10",
        ]
    );
    assert!(messages(&schema, &json!({"spec": {"replicas": 4, "ratio": 1.0, "small": 3}})).is_empty());
    assert_eq!(
        messages(&schema, &json!({"spec": {"replicas": 0}})),
        vec!["spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1"]
    );
}

#[test]
fn strings_lists_and_maps_have_their_limits() {
    let schema = json!({"type": "object", "properties": {
        "name": {"type": "string", "minLength": 3, "maxLength": 5, "pattern": "^[a-z]+$"},
        "tags": {"type": "array", "minItems": 1, "maxItems": 2, "uniqueItems": true, "items": {"type": "string"}},
        "labels": {"type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": {"type": "string", "maxLength": 2}},
        "when": {"type": "string", "format": "date-time"},
        "mode": {"type": "string", "enum": ["fast", "safe"]},
        "size": {"x-kubernetes-int-or-string": true},
    }});
    let found = messages(
        &schema,
        &json!({"name": "toolong", "tags": ["a", "a", "b"], "labels": {"a": "xyz", "b": "y"},
            "when": "soon", "mode": "slow", "size": true}),
    );
    assert_eq!(
        found,
        vec![
            "labels: Too many: 2: must have at most 1 item",
            "labels.a: Too long: may not be more than 2 bytes",
            "mode: Unsupported value: \"slow\": supported values: \"fast\", \"safe\"",
            "name: Too long: may not be more than 5 bytes",
            "size: Invalid value: \"boolean\": size in body must be of type integer,string: \"boolean\"",
            "tags: Too many: 3: must have at most 2 items",
            "tags: Invalid value: \"\": tags in body shouldn't contain duplicates",
            "when: Invalid value: \"soon\": when in body must be of type date-time: \"soon\"",
        ]
    );
    let found = messages(&schema, &json!({"name": "AB", "tags": [], "labels": {}}));
    assert_eq!(
        found,
        vec![
            "labels: Invalid value: 0: labels in body should have at least 1 properties",
            "name: Invalid value: \"AB\": name in body should be at least 3 chars long",
            "tags: Invalid value: 0: tags in body should have at least 1 items",
        ]
    );
    let found = messages(&schema, &json!({"name": "ABC"}));
    assert_eq!(
        found,
        vec!["name: Invalid value: \"ABC\": name in body should match '^[a-z]+$'"]
    );
}

#[test]
fn combinators_report_on_the_nil_path_as_kube_apiserver_does() {
    let schema = json!({"type": "object", "properties": {"spec": {"type": "object",
        "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
        "oneOf": [{"required": ["c"]}, {"required": ["d"]}],
        "not": {"required": ["e"]},
        "allOf": [{"required": ["f"]}],
    }}});
    let found = messages(&schema, &json!({"spec": {"c": 1, "d": 1, "e": 1}}));
    assert_eq!(
        found,
        vec![
            "<nil>: Invalid value: \"\": \"spec\" must validate at least one schema (anyOf)",
            "spec.a: Required value",
            "<nil>: Invalid value: \"\": \"spec\" must validate one and only one schema (oneOf). Found 2 valid alternatives",
            "spec.f: Required value",
            "<nil>: Invalid value: \"\": \"spec\" must validate all the schemas (allOf). None validated",
            "<nil>: Invalid value: \"\": \"spec\" must not validate the schema (not)",
        ]
    );
}

#[test]
fn unchanged_invalid_values_are_ratcheted() {
    let schema = json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "a": {"type": "integer", "maximum": 1}, "b": {"type": "integer", "maximum": 1},
    }}}});
    let old = json!({"spec": {"a": 5, "b": 0}});
    assert!(validate(&schema, &json!({"spec": {"a": 5, "b": 1}}), Some(&old), None).is_empty());
    let changed = validate(&schema, &json!({"spec": {"a": 6, "b": 1}}), Some(&old), None);
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert_eq!(changed[0].field, "spec.a");
    assert_eq!(
        validate(&schema, &json!({"spec": {"a": 5, "b": 1}}), None, None).len(),
        1
    );
}

#[test]
fn a_status_schema_reports_under_status() {
    let schema = json!({"type": "object", "properties": {"replicas": {"type": "integer", "minimum": 0}}});
    let found = validate(&schema, &json!({"replicas": -1}), None, Some("status"));
    assert_eq!(
        found[0].summary(),
        "status.replicas: Invalid value: -1: replicas in body should be greater than or equal to 0"
    );
}
