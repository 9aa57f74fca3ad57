//! What the real server checks in an object's body before storing it: built-in types
//! must decode as their Go types would (else 400), and custom resources are pruned of
//! unknown fields and validated against their CRD's structural schema (else 422).

use serde_json::Value;

use crate::registry::ResourceType;
use crate::status::ApiError;

/// Checks `object` for `resource`; custom resources are pruned in place.
pub(crate) fn validate(resource: &ResourceType, object: &mut Value) -> Result<(), ApiError> {
    if resource.custom {
        if let Some(schema) = resource.schema.clone() {
            let mut found = Found::default();
            prune_and_check(&schema, object, "", &mut found, true);
            let causes = found.causes;
            if !causes.is_empty() {
                let name = object["metadata"]["name"].as_str().unwrap_or_default().to_owned();
                let causes: Vec<(&str, &str, String)> = causes
                    .iter()
                    .map(|(field, reason, detail)| (field.as_str(), *reason, detail.clone()))
                    .collect();
                return Err(ApiError::invalid(resource, &name, &causes));
            }
        }
        return Ok(());
    }
    decode_builtin(resource, object)?;
    let violations = crate::defaults::violations(resource, object);
    if violations.is_empty() {
        return Ok(());
    }
    let name = object["metadata"]["name"].as_str().unwrap_or_default().to_owned();
    let causes: Vec<(&str, &str, String)> = violations.iter().map(|(f, r, d)| (f.as_str(), *r, d.clone())).collect();
    Err(ApiError::invalid(resource, &name, &causes))
}

/// What a walk of an object against its schema found.
#[derive(Default)]
struct Found {
    /// Violations: (field, reason, detail).
    causes: Vec<(String, &'static str, String)>,
    /// Fields the schema does not declare, which pruning removes.
    pruned: Vec<String>,
}

/// The fields of a custom resource that its schema does not declare (and that
/// pruning would drop), for `fieldValidation` Strict and Warn.
pub(crate) fn unknown_fields(resource: &ResourceType, object: &Value) -> Vec<String> {
    let Some(schema) = resource.schema.as_deref().filter(|_| resource.custom) else {
        return Vec::new();
    };
    let mut found = Found::default();
    prune_and_check(schema, &mut object.clone(), "", &mut found, true);
    found.pruned
}

/// Decodes a built-in object into its k8s-openapi type: a field of the wrong type is a
/// 400, as the real server's decoder reports it.
fn decode_builtin(resource: &ResourceType, object: &Value) -> Result<(), ApiError> {
    let Some(builtin) = resource.catalogue() else {
        return Ok(());
    };
    builtin.decode(object).map_err(|error| {
        ApiError::bad_request(format!(
            "{} in version \"{}\" cannot be handled as a {}: {error}",
            resource.kind, resource.version, resource.kind
        ))
    })
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Prunes fields the schema does not know (unless it preserves them) and collects
/// violations of `type`, `required` and `enum`, with the real server's wording.
fn prune_and_check(schema: &Value, value: &mut Value, path: &str, found: &mut Found, root: bool) {
    let preserve = schema["x-kubernetes-preserve-unknown-fields"] == true;
    let int_or_string = schema["x-kubernetes-int-or-string"] == true;
    if let Some(expected) = schema["type"].as_str() {
        let actual = type_name(value);
        let fits = actual == expected
            || (expected == "number" && actual == "integer")
            || (int_or_string && matches!(actual, "integer" | "string"))
            || (value.is_null() && schema["nullable"] == true);
        if !fits && !value.is_null() {
            let field = path.trim_start_matches('.');
            found.causes.push((
                field.to_owned(),
                "FieldValueTypeInvalid",
                format!("Invalid value: \"{actual}\": {field} in body must be of type {expected}: \"{actual}\""),
            ));
            return;
        }
    }
    if let Some(allowed) = schema["enum"].as_array()
        && !allowed.contains(value)
    {
        let field = path.trim_start_matches('.');
        let allowed: Vec<String> = allowed.iter().map(ToString::to_string).collect();
        found.causes.push((
            field.to_owned(),
            "FieldValueNotSupported",
            format!("Unsupported value: {value}: supported values: {}", allowed.join(", ")),
        ));
    }
    match value {
        Value::Object(map) => {
            let properties = schema["properties"].as_object();
            let additional = &schema["additionalProperties"];
            if let Some(required) = schema["required"].as_array() {
                for name in required.iter().filter_map(Value::as_str) {
                    if !map.contains_key(name) {
                        let field = format!("{path}.{name}").trim_start_matches('.').to_owned();
                        found
                            .causes
                            .push((field, "FieldValueRequired", "Required value".to_owned()));
                    }
                }
            }
            let keys: Vec<String> = map.keys().cloned().collect();
            for key in keys {
                // apiVersion, kind and metadata are the server's, not the schema's.
                if root && matches!(key.as_str(), "apiVersion" | "kind" | "metadata") {
                    continue;
                }
                let child_path = format!("{path}.{key}");
                let child_schema = properties
                    .and_then(|p| p.get(&key))
                    .or_else(|| additional.is_object().then_some(additional));
                match child_schema {
                    Some(child_schema) => {
                        if let Some(child) = map.get_mut(&key) {
                            prune_and_check(child_schema, child, &child_path, found, false);
                        }
                    }
                    None if preserve || *additional == Value::Bool(true) => {}
                    None => {
                        map.remove(&key);
                        found.pruned.push(child_path.trim_start_matches('.').to_owned());
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items").filter(|s| s.is_object()) {
                for (index, item) in items.iter_mut().enumerate() {
                    prune_and_check(item_schema, item, &format!("{path}[{index}]"), found, false);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn custom(schema: &Value) -> ResourceType {
        let crd = json!({"spec": {"group": "example.com", "scope": "Namespaced", "names": {"plural": "webapps", "kind": "WebApp"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": schema}}]}});
        crate::registry::crd_types(&crd).unwrap().remove(0)
    }

    fn schema() -> Value {
        json!({"type": "object", "properties": {
            "spec": {"type": "object", "required": ["image"], "properties": {
                "image": {"type": "string"}, "replicas": {"type": "integer"},
                "mode": {"type": "string", "enum": ["fast", "safe"]},
                "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
            }},
            "status": {"type": "object", "properties": {"phase": {"type": "string"}}},
        }})
    }

    #[test]
    fn unknown_fields_of_custom_resources_are_pruned() {
        let resource = custom(&schema());
        let mut object = json!({"apiVersion": "example.com/v1", "kind": "WebApp", "metadata": {"name": "a"},
            "spec": {"image": "nginx", "unknown": 1, "extra": {"kept": true}}, "stray": "x"});
        assert_eq!(unknown_fields(&resource, &object), vec!["spec.unknown", "stray"]);
        validate(&resource, &mut object).unwrap();
        assert_eq!(object["spec"], json!({"image": "nginx", "extra": {"kept": true}}));
        assert!(object.get("stray").is_none());
        assert_eq!(object["metadata"]["name"], "a");
    }

    #[test]
    fn wrong_types_missing_required_fields_and_bad_enums_are_invalid() {
        let resource = custom(&schema());
        let mut object = json!({"metadata": {"name": "a"}, "spec": {"replicas": "three", "mode": "slow"}});
        let error = validate(&resource, &mut object).unwrap_err();
        assert_eq!((error.code, error.reason.as_ref()), (422, "Invalid"));
        let causes = error.details.unwrap()["causes"].clone();
        let fields: Vec<&str> = causes
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["field"].as_str().unwrap())
            .collect();
        assert!(
            fields.contains(&"spec.image") && fields.contains(&"spec.replicas") && fields.contains(&"spec.mode"),
            "{fields:?}"
        );
    }

    #[test]
    fn built_in_objects_must_decode() {
        let registry = crate::registry::Registry::default();
        let deployments = registry.get("apps", "v1", "deployments").unwrap();
        let mut bad = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "a"}, "spec": {"replicas": "two"}});
        assert_eq!(validate(&deployments, &mut bad).unwrap_err().code, 400);
        let mut good = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "a"},
            "spec": {"selector": {"matchLabels": {"app": "a"}}, "template": {"metadata": {"labels": {"app": "a"}}, "spec": {"containers": [{"name": "a", "image": "nginx"}]}}}});
        validate(&deployments, &mut good).unwrap();
    }
}
