//! The checks of a CRD's own schema.
use serde_json::json;

use super::*;

fn crd(schema: &Value) -> Value {
    json!({"spec": {"versions": [{"name": "v1", "schema": {"openAPIV3Schema": schema}}]}})
}

fn found(schema: &Value) -> Vec<String> {
    validate(&crd(schema)).iter().map(FieldError::summary).collect()
}

const ROOT: &str = "spec.validation.openAPIV3Schema";

#[test]
fn versions_with_different_schemas_are_checked_one_by_one() {
    let two = json!({"spec": {"versions": [
        {"name": "v1", "schema": {"openAPIV3Schema": {"type": "object"}}},
        {"name": "v2", "schema": {"openAPIV3Schema": {"type": "array"}}},
    ]}});
    let found: Vec<String> = validate(&two).iter().map(FieldError::summary).collect();
    assert_eq!(
        found,
        vec![
            "spec.versions[1].schema.openAPIV3Schema.items: Required value: must be specified",
            "spec.versions[1].schema.openAPIV3Schema.type: Invalid value: \"array\": must be object at the root"
        ]
    );
}

#[test]
fn rules_that_do_not_compile_refuse_the_crd() {
    let schema = json!({"type": "object", "properties": {"spec": {"type": "object",
        "properties": {"replicas": {"type": "integer"}},
        "x-kubernetes-validations": [{"rule": "self.replicass > 0"}, {"rule": "self.replicas"}]}}});
    let errors = found(&schema);
    assert_eq!(errors.len(), 2, "{errors:?}");
    let prefix = format!(
        "{ROOT}.properties[spec].x-kubernetes-validations[0].rule: Invalid value: {{\"Rule\":\"self.replicass \\u003e 0\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}}: compilation failed: ERROR: <input>:1:"
    );
    assert!(errors[0].starts_with(&prefix), "{}", errors[0]);
    assert!(errors[0].contains("undefined field 'replicass'"), "{}", errors[0]);
    assert!(
        errors[1].ends_with(": cel expression must evaluate to a bool"),
        "{}",
        errors[1]
    );
}

#[test]
fn rule_fields_are_checked() {
    let schema = json!({"type": "object", "properties": {"spec": {"type": "object",
    "properties": {"a": {"type": "string"}},
    "x-kubernetes-validations": [
        {"rule": "", "message": "x"},
        {"rule": "true", "reason": "FieldValueBad"},
        {"rule": "true", "fieldPath": ".b"},
        {"rule": "true", "optionalOldSelf": true},
    ]}}});
    let rules = format!("{ROOT}.properties[spec].x-kubernetes-validations");
    assert_eq!(
        found(&schema),
        vec![
            format!("{rules}[0].rule: Required value: rule is not specified"),
            format!(
                "{rules}[1].reason: Unsupported value: \"FieldValueBad\": supported values: \"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\", \"FieldValueRequired\""
            ),
            format!("{rules}[2].fieldPath: Invalid value: \".b\": must be a valid path"),
        ]
    );
    let schema = json!({"type": "object", "x-kubernetes-validations": [{"rule": "true", "optionalOldSelf": true}]});
    assert_eq!(
        found(&schema),
        vec![format!(
            "{ROOT}.x-kubernetes-validations[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule"
        )]
    );
}

#[test]
fn pathological_rules_exceed_the_cost_budget() {
    let schema = json!({"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "names": {"type": "array", "items": {"type": "string"},
            "x-kubernetes-validations": [{"rule": "self.all(a, self.all(b, a.matches(b)))"}]},
        "bounded": {"type": "array", "maxItems": 10, "items": {"type": "string", "maxLength": 20},
            "x-kubernetes-validations": [{"rule": "self.all(a, self.all(b, a.matches(b)))"}]},
    }}}});
    let errors = found(&schema);
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors[0].starts_with(&format!(
            "{ROOT}.properties[spec].properties[names].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying"
        )),
        "{}",
        errors[0]
    );
    assert!(
        errors[1]
            .contains("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget")
    );
}

#[test]
fn structural_mistakes_are_refused() {
    let schema = json!({"type": "object", "properties": {
        "a": {"description": "no type"},
        "b": {"type": "array", "uniqueItems": true, "items": {"type": "string"}},
        "c": {"type": "string", "pattern": "+"},
        "d": {"type": "array", "x-kubernetes-list-type": "map", "items": {"type": "object"}},
    }});
    let errors = found(&schema);
    assert_eq!(errors.len(), 4, "{errors:?}");
    assert_eq!(
        errors[0],
        format!("{ROOT}.properties[a].type: Required value: must not be empty for specified object fields")
    );
    // The structural errors (sorted) come before the other checks.
    assert!(errors[2].contains("properties[b].uniqueItems: Forbidden: uniqueItems cannot be set to true"));
    assert!(errors[1].starts_with(&format!(
        "{ROOT}.properties[c].pattern: Invalid value: \"+\": must be a valid regular expression, but isn't: "
    )));
    assert_eq!(
        errors[3],
        format!(
            "{ROOT}.properties[d].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map"
        )
    );
    assert_eq!(
        found(&json!({"type": "array", "items": {"type": "string"}})),
        vec![format!(
            "{ROOT}.type: Invalid value: \"array\": must be object at the root"
        )]
    );
}

#[test]
fn properties_beside_additional_properties_are_refused() {
    let schema = json!({"type": "object", "properties": {"spec": {"type": "object",
        "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "string"}}}});
    assert_eq!(
        found(&schema),
        vec![format!(
            "{ROOT}.properties[spec].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive"
        )]
    );
    let allowed = json!({"type": "object", "properties": {"spec": {"type": "object",
        "properties": {"a": {"type": "string"}}, "additionalProperties": true}}});
    assert_eq!(found(&allowed), Vec::<String>::new());
}

#[test]
fn map_list_keys_must_be_required_or_defaulted() {
    let schema = json!({"type": "object", "properties": {"ports": {"type": "array",
        "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name", "protocol"],
        "items": {"type": "object", "required": ["name"], "properties": {
            "name": {"type": "string"}, "protocol": {"type": "string"}}}}}});
    assert_eq!(
        found(&schema),
        vec![format!(
            "{ROOT}.properties[ports].items.properties[protocol].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"
        )]
    );
    let mut defaulted = schema.clone();
    defaulted["properties"]["ports"]["items"]["properties"]["protocol"]["default"] = json!("TCP");
    assert_eq!(found(&defaulted), Vec::<String>::new());
}

#[test]
fn structural_rules_of_kube_are_kept() {
    let schema = json!({"type": "object", "additionalProperties": {"type": "string"}, "properties": {
        "list": {"type": "array"},
        "either": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]},
        "mixed": {"type": "string", "allOf": [{"type": "string", "description": "x"}]},
        "weird": {"type": "date"},
        "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "object"}},
    }});
    let errors = found(&schema);
    for expected in [
        format!("{ROOT}.additionalProperties: Forbidden: must not be used at the root"),
        format!("{ROOT}.properties[list].items: Required value: must be specified"),
        format!("{ROOT}.properties[mixed].allOf[0].description: Forbidden: must be empty to be structural"),
        format!("{ROOT}.properties[mixed].allOf[0].type: Forbidden: must be empty to be structural"),
    ] {
        assert!(errors.contains(&expected), "{expected} in {errors:?}");
    }
    assert!(!errors.iter().any(|e| e.contains("properties[either]")), "{errors:?}");
    // The structural errors come first, sorted; the other checks follow.
    let schema = json!({"type": "object", "properties": {
        "open": {"type": "object", "x-kubernetes-preserve-unknown-fields": false},
        "weird": {"type": "date"},
        "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "object"}},
    }});
    let mut errors = found(&schema);
    errors.sort();
    assert_eq!(
        errors,
        vec![
            format!(
                "{ROOT}.properties[open].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined"
            ),
            format!(
                "{ROOT}.properties[tags].items.x-kubernetes-map-type: Invalid value: \"null\": must be atomic as item of a list with x-kubernetes-list-type=set"
            ),
            format!(
                "{ROOT}.properties[weird].type: Unsupported value: \"date\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\""
            ),
        ]
    );
}

#[test]
fn a_schema_kube_cannot_build_gets_its_openapi_errors_only() {
    // `$ref` keeps `NewStructural` from building the schema: no structural, default or
    // rule checks follow (checked on kube-apiserver 1.32).
    let schema = json!({"type": "object", "properties": {
        "ref": {"type": "string", "$ref": "#/x"},
        "kind": {"type": "integer"},
        "n": {"type": "integer", "minimum": 1, "default": 0},
    }});
    assert_eq!(
        found(&schema),
        vec![format!("{ROOT}.properties[ref].$ref: Forbidden: $ref is not supported")]
    );
}

#[test]
fn defaults_are_checked_once_the_schema_is_structural() {
    let schema = json!({"type": "object", "properties": {
        "replicas": {"type": "integer", "minimum": 1, "default": 0},
        "metadata": {"type": "object", "default": {"name": "x"}},
    }});
    let mut errors = found(&schema);
    errors.sort();
    assert_eq!(
        errors,
        vec![
            format!("{ROOT}.properties[metadata].default: Forbidden: must not be set in top-level metadata"),
            format!(
                "{ROOT}.properties[replicas].default: Invalid value: 0:  in body should be greater than or equal to 1"
            ),
        ]
    );
    let mut broken = schema.clone();
    broken["properties"]["list"] = json!({"type": "array"});
    assert!(
        !found(&broken).iter().any(|e| e.contains("greater than")),
        "no default checks while the schema is not structural"
    );
}
