//! The replicas and selector of a custom resource whose CRD has a scale subresource,
//! checked on every write as apiextensions' `customResourceValidator` checks them
//! (`ValidateScaleSpec`, `ValidateScaleStatus`): spec and status replicas must be
//! integers from 0 to 2147483647 and the label selector a string, each error at the
//! CRD's path as written (`.spec.replicas`).

use serde_json::Value;

use crate::core::ResourceType;

/// (field, reason, detail) of each broken rule; `status_only` for a `/status` write,
/// which checks the status paths alone.
pub(crate) fn violations(resource: &ResourceType, object: &Value, status_only: bool) -> Vec<(String, String)> {
    let Some(paths) = &resource.scale_paths else {
        return Vec::new();
    };
    let mut found = Vec::new();
    if !status_only {
        found.extend(replicas(object, &paths.spec_replicas));
    }
    found.extend(replicas(object, &paths.status_replicas));
    if let Some(path) = &paths.label_selector
        && let Some(value) = lookup(object, path)
        && !value.is_string()
    {
        found.push((
            path.clone(),
            format!(
                "Invalid value: \"\": {} accessor error: {} is of the type {}, expected string",
                accessor_path(path),
                go_value(value),
                go_type(value)
            ),
        ));
    }
    found
}

/// `unstructured.NestedInt64` at `path` and the bounds of an int32 count.
fn replicas(object: &Value, path: &str) -> Option<(String, String)> {
    let value = lookup(object, path)?;
    let detail = match value.as_i64() {
        None => format!(
            "Invalid value: 0: {} accessor error: {} is of the type {}, expected int64",
            accessor_path(path),
            go_value(value),
            go_type(value)
        ),
        Some(count) if count < 0 => format!("Invalid value: {count}: should be a non-negative integer"),
        Some(count) if count > i64::from(i32::MAX) => {
            format!("Invalid value: {count}: should be less than or equal to {}", i32::MAX)
        }
        Some(_) => return None,
    };
    Some((path.to_owned(), detail))
}

/// The value at a `.a.b` path, if any.
fn lookup<'a>(object: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.')
        .filter(|s| !s.is_empty())
        .try_fold(object, |value, key| value.get(key))
        .filter(|value| !value.is_null())
}

/// `jsonPath(fields)`: the path with one leading dot.
fn accessor_path(path: &str) -> String {
    format!(".{}", path.trim_start_matches('.'))
}

/// Go's `%v` of a decoded JSON value.
fn go_value(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// Go's `%T` of a decoded JSON value.
fn go_type(value: &Value) -> &'static str {
    match value {
        Value::String(_) => "string",
        Value::Bool(_) => "bool",
        Value::Number(number) if number.is_i64() || number.is_u64() => "int64",
        Value::Number(_) => "float64",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
        Value::Null => "<nil>",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::resources::registry::crd_types;

    fn scaled() -> ResourceType {
        let crd = json!({"spec": {"group": "example.com", "scope": "Namespaced", "names": {"plural": "webapps", "kind": "WebApp"},
            "versions": [{"name": "v1", "served": true, "storage": true, "subresources": {"scale": {
                "specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas", "labelSelectorPath": ".status.selector"}}}]}});
        crd_types(&crd).unwrap().remove(0)
    }

    #[test]
    fn replicas_must_be_int32_counts() {
        let resource = scaled();
        assert!(violations(&resource, &json!({"spec": {"replicas": 3}}), false).is_empty());
        assert!(
            violations(&resource, &json!({"spec": {}}), false).is_empty(),
            "absent is fine"
        );
        assert_eq!(
            violations(&resource, &json!({"spec": {"replicas": -1}}), false),
            vec![(
                ".spec.replicas".to_owned(),
                "Invalid value: -1: should be a non-negative integer".to_owned()
            )]
        );
        assert_eq!(
            violations(&resource, &json!({"spec": {"replicas": "x"}}), false)[0].1,
            "Invalid value: 0: .spec.replicas accessor error: x is of the type string, expected int64"
        );
        assert_eq!(
            violations(&resource, &json!({"spec": {"replicas": 3_000_000_000_i64}}), false)[0].1,
            "Invalid value: 3000000000: should be less than or equal to 2147483647"
        );
        assert!(
            violations(&resource, &json!({"spec": {"replicas": -1}}), true).is_empty(),
            "/status checks the status only"
        );
        assert_eq!(
            violations(&resource, &json!({"status": {"selector": 1}}), true)[0].1,
            "Invalid value: \"\": .status.selector accessor error: 1 is of the type int64, expected string"
        );
    }
}
