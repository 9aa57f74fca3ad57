//! How rules run: `self`, `oldSelf`, messages, reasons, field paths and ratcheting.

use serde_json::{Value, json};

use super::*;

fn schema(rules: &Value) -> Value {
    json!({"type": "object", "properties": {"spec": {"type": "object",
        "properties": {
            "replicas": {"type": "integer"}, "min": {"type": "integer"}, "name": {"type": "string"},
            "mode": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "mode is immutable"}]},
            "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                "items": {"type": "object", "properties": {"name": {"type": "string"}, "port": {"type": "integer"}},
                    "x-kubernetes-validations": [{"rule": "self.port > 0", "message": "port must be positive"},
                        {"rule": "self.port >= oldSelf.port", "message": "ports only grow"}]}},
            "labels": {"type": "object", "additionalProperties": {"type": "string",
                "x-kubernetes-validations": [{"rule": "self.size() <= 3"}]}},
        },
        "x-kubernetes-validations": rules}}})
}

fn run(schema: &Value, object: &Value, old: Option<&Value>) -> Vec<String> {
    validate(schema, object, old, true)
        .iter()
        .map(FieldError::summary)
        .collect()
}

#[test]
fn failing_rules_report_their_message_or_the_rule() {
    let rules =
        json!([{"rule": "self.replicas >= self.min"}, {"rule": "self.replicas < 10", "message": "too many replicas"}]);
    let found = run(&schema(&rules), &json!({"spec": {"replicas": 10, "min": 11}}), None);
    assert_eq!(
        found,
        vec![
            "spec: Invalid value: \"object\": failed rule: self.replicas >= self.min",
            "spec: Invalid value: \"object\": too many replicas",
        ]
    );
    assert!(run(&schema(&rules), &json!({"spec": {"replicas": 3, "min": 1}}), None).is_empty());
}

#[test]
fn rules_on_scalars_show_their_type_and_rules_on_items_and_maps_their_path() {
    let object = json!({"spec": {"ports": [{"name": "a", "port": 0}], "labels": {"team": "toolong"}}});
    assert_eq!(
        run(&schema(&json!([])), &object, None),
        vec![
            "spec.labels[team]: Invalid value: \"string\": failed rule: self.size() <= 3",
            "spec.ports[0]: Invalid value: \"object\": port must be positive",
        ]
    );
}

#[test]
fn message_expressions_field_paths_and_reasons_shape_the_error() {
    let rules = json!([
        {"rule": "self.replicas <= 5", "messageExpression": "'replicas ' + string(self.replicas) + ' > 5'",
            "fieldPath": ".replicas", "reason": "FieldValueForbidden"},
        {"rule": "has(self.name)", "message": "name is required", "reason": "FieldValueRequired", "fieldPath": ".name"},
        {"rule": "self.min < 0", "messageExpression": "'   '", "message": "fallback message"},
    ]);
    let found = run(&schema(&rules), &json!({"spec": {"replicas": 7, "min": 1}}), None);
    assert_eq!(
        found,
        vec![
            "spec.replicas: Forbidden: replicas 7 > 5",
            "spec.name: Required value: name is required",
            "spec: Invalid value: \"object\": fallback message",
        ]
    );
}

#[test]
fn transition_rules_run_on_updates_only() {
    let object = json!({"spec": {"mode": "b"}});
    assert!(
        run(&schema(&json!([])), &object, None).is_empty(),
        "no oldSelf on create"
    );
    let old = json!({"spec": {"mode": "a"}});
    assert_eq!(
        run(&schema(&json!([])), &object, Some(&old)),
        vec!["spec.mode: Invalid value: \"string\": mode is immutable"]
    );
    let old_ports = json!({"spec": {"ports": [{"name": "a", "port": 80}, {"name": "b", "port": 1}]}});
    let new_ports =
        json!({"spec": {"ports": [{"name": "b", "port": 2}, {"name": "a", "port": 79}, {"name": "c", "port": 5}]}});
    assert_eq!(
        run(&schema(&json!([])), &new_ports, Some(&old_ports)),
        vec!["spec.ports[1]: Invalid value: \"object\": ports only grow"],
        "map-list items meet their old selves by key"
    );
}

#[test]
fn optional_old_self_sees_none_on_create() {
    let rules = json!([{"rule": "oldSelf.hasValue() || self.replicas == 1", "optionalOldSelf": true,
        "message": "new objects start with one replica"}]);
    let found = run(&schema(&rules), &json!({"spec": {"replicas": 2}}), None);
    assert_eq!(
        found,
        vec!["spec: Invalid value: \"object\": new objects start with one replica"]
    );
    let old = json!({"spec": {"replicas": 1}});
    assert!(run(&schema(&rules), &json!({"spec": {"replicas": 2}}), Some(&old)).is_empty());
}

#[test]
fn unchanged_values_are_ratcheted_but_transition_rules_are_not() {
    let rules = json!([{"rule": "self.replicas < 10", "message": "too many"}]);
    let old = json!({"spec": {"replicas": 20, "name": "x"}});
    assert!(run(&schema(&rules), &old.clone(), Some(&old)).is_empty());
    let changed = json!({"spec": {"replicas": 20, "name": "y"}});
    assert_eq!(
        run(&schema(&rules), &changed, Some(&old)),
        vec!["spec: Invalid value: \"object\": too many"]
    );
}

#[test]
fn runtime_errors_name_the_rule() {
    let rules = json!([{"rule": "self.name.size() > 0"}, {"rule": "1 / (self.replicas - self.replicas) == 1"}]);
    let found = run(&schema(&rules), &json!({"spec": {"replicas": 1}}), None);
    assert_eq!(
        found,
        vec![
            "spec: Invalid value: \"object\": no such key: name evaluating rule: self.name.size() > 0",
            "spec: Invalid value: \"object\": division by zero evaluating rule: 1 / (self.replicas - self.replicas) == 1",
        ]
    );
}

#[test]
fn root_rules_report_on_the_nil_path_and_see_the_metadata_name() {
    let schema = json!({"type": "object", "x-kubernetes-validations": [
        {"rule": "self.metadata.name.startsWith('web-')", "message": "names start with web-"}]});
    let object = json!({"apiVersion": "example.com/v1", "kind": "WebApp", "metadata": {"name": "db"}});
    assert_eq!(
        run(&schema, &object, None),
        vec!["<nil>: Invalid value: \"object\": names start with web-"]
    );
}

#[test]
fn field_paths_follow_kubernetes_json_path_rules() {
    let schema = json!({"type": "object", "properties": {
        "a": {"type": "object", "properties": {"b.c": {"type": "string"}}},
        "m": {"type": "object", "additionalProperties": {"type": "string"}}}});
    assert_eq!(field_path(".a['b.c']", &schema).as_deref(), Ok("a.b.c"));
    assert_eq!(field_path(".m.key", &schema).as_deref(), Ok("m[key]"));
    assert!(field_path(".a.x", &schema).is_err());
    assert!(field_path("a", &schema).is_err());
}
