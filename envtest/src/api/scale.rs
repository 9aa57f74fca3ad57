//! The `/scale` subresource: an `autoscaling/v1` Scale read from, and replicas written
//! to, the object's own fields; for a custom resource at the paths its CRD names
//! (`specReplicasPath`, `statusReplicasPath`, `labelSelectorPath`), as
//! apiextensions-apiserver's `scale.go` does.
//!
//! A write of the Scale is checked as the registries' `scaleUpdatedObjectInfo` check
//! it: the Scale must decode (`spec.replicas` an int32), a built-in resource's Scale
//! must pass `ValidateScale` (no negative replicas: 422 of `Scale.autoscaling`) and
//! match the object's uid; a custom resource's negative replicas are refused by its
//! CRD's scale paths (`objects`), and a patch that leaves a custom resource without
//! replicas is a 400.

use serde_json::{Map, Value, json};

use crate::core::{ApiError, ResourceType};

/// The replicas a custom resource's old Scale carries when the object has none
/// (`invalidSpecReplicas`, the smallest int32): a patch that keeps it set none.
const UNSET_REPLICAS: i64 = -2_147_483_648;

/// `.spec.replicas` as JSON-pointer-like segments.
fn segments(path: &str) -> impl Iterator<Item = &str> {
    path.split('.').filter(|s| !s.is_empty())
}

fn at<'a>(object: &'a Value, path: &str) -> &'a Value {
    segments(path).fold(object, |value, key| &value[key])
}

/// Where `resource` keeps its replicas and selector.
fn paths(resource: &ResourceType) -> (&str, &str) {
    resource
        .scale_paths
        .as_ref()
        .map_or((".spec.replicas", ".status.replicas"), |p| {
            (p.spec_replicas.as_str(), p.status_replicas.as_str())
        })
}

/// The label selector a built-in type's spec holds, as a selector string (a
/// `ReplicationController`'s selector is the label map itself).
fn builtin_selector(object: &Value) -> String {
    let selector = &object["spec"]["selector"];
    if selector.get("matchLabels").is_none()
        && selector.get("matchExpressions").is_none()
        && let Some(labels) = selector.as_object().filter(|s| s.values().all(Value::is_string))
    {
        return labels
            .iter()
            .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
            .collect::<Vec<_>>()
            .join(",");
    }
    crate::core::label_selector_string(selector)
}

/// The Scale of `object`. Zero spec replicas and an empty selector are omitted, as
/// Go's `omitempty` drops them from `autoscaling/v1`'s Scale.
pub(crate) fn to_scale(resource: &ResourceType, object: &Value) -> Value {
    let (spec_path, status_path) = paths(resource);
    let selector = match &resource.scale_paths {
        Some(paths) => paths
            .label_selector
            .as_deref()
            .and_then(|path| at(object, path).as_str())
            .unwrap_or_default()
            .to_owned(),
        None => builtin_selector(object),
    };
    let metadata = &object["metadata"];
    let mut meta = Map::new();
    for field in ["name", "namespace", "uid", "resourceVersion", "creationTimestamp"] {
        if let Some(value) = metadata.get(field).filter(|v| !v.is_null()) {
            meta.insert(field.to_owned(), value.clone());
        }
    }
    let mut spec = json!({});
    let replicas = at(object, spec_path).as_i64().unwrap_or(0);
    if replicas != 0 {
        spec["replicas"] = json!(replicas);
    }
    let mut status = json!({"replicas": at(object, status_path).as_i64().unwrap_or(0)});
    if !selector.is_empty() {
        status["selector"] = json!(selector);
    }
    json!({"kind": "Scale", "apiVersion": "autoscaling/v1", "metadata": meta, "spec": spec, "status": status})
}

/// The Scale a patch of `/scale` applies to: the object's, with a custom resource's
/// missing replicas marked as never set.
pub(crate) fn base_scale(resource: &ResourceType, object: &Value) -> Value {
    let mut scale = to_scale(resource, object);
    let (spec_path, _) = paths(resource);
    if resource.custom && at(object, spec_path).is_null() {
        scale["spec"]["replicas"] = json!(UNSET_REPLICAS);
    }
    scale
}

/// The object `current` becomes when the Scale `asked` (a PUT's body, or the patched
/// Scale when `patched`) is written through `/scale`.
pub(crate) fn apply(resource: &ResourceType, current: &Value, asked: &Value, patched: bool) -> Result<Value, ApiError> {
    let name = current["metadata"]["name"].as_str().unwrap_or_default();
    let replicas = match &asked["spec"]["replicas"] {
        // A Scale omits zero replicas, so an absent count is zero.
        Value::Null => 0,
        value => value
            .as_i64()
            .filter(|r| i32::try_from(*r).is_ok())
            .ok_or_else(|| undecodable(asked, value, patched))?,
    };
    if resource.custom {
        if replicas == UNSET_REPLICAS {
            let (spec_path, _) = paths(resource);
            return Err(ApiError::bad_request(format!(
                "the spec replicas field \"{spec_path}\" cannot be empty"
            )));
        }
    } else {
        // The handler puts the request's namespace on the Scale before it is checked.
        let mut checked = asked.clone();
        if checked["metadata"]["namespace"].as_str().is_none_or(str::is_empty)
            && let Some(namespace) = current["metadata"].get("namespace")
        {
            checked["metadata"]["namespace"] = namespace.clone();
        }
        let errors = wheelhouse_envtest_validation::validate_scale(&checked);
        if !errors.is_empty() {
            let causes: Vec<(&str, &str, String)> = errors
                .iter()
                .map(|error| (error.field.as_str(), error.kind.reason(), error.body()))
                .collect();
            return Err(ApiError::invalid_kind("autoscaling", "Scale", name, &causes));
        }
        let uid = current["metadata"]["uid"].as_str().unwrap_or_default();
        if let Some(asked_uid) = asked["metadata"]["uid"].as_str().filter(|u| !u.is_empty() && *u != uid) {
            let namespace = current["metadata"]["namespace"].as_str().unwrap_or_default();
            let key = if namespace.is_empty() {
                format!("/registry/{}/{name}", resource.plural)
            } else {
                format!("/registry/{}/{namespace}/{name}", resource.plural)
            };
            return Err(ApiError::conflict(
                resource,
                name,
                &format!(
                    "StorageError: invalid object, Code: 4, Key: {key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: {asked_uid}, UID in object meta: {uid}"
                ),
            ));
        }
    }
    let mut desired = current.clone();
    set_replicas(resource, &mut desired, json!(replicas));
    if let Some(version) = asked["metadata"]["resourceVersion"].as_str() {
        desired["metadata"]["resourceVersion"] = json!(version);
    }
    Ok(desired)
}

/// A Scale whose `spec.replicas` is no int32: a PUT's body fails to decode (400), a
/// patch's result is kube's 422 of the `patch` (its text shows the patched Scale).
fn undecodable(scale: &Value, replicas: &Value, patched: bool) -> ApiError {
    let found = match replicas {
        Value::String(_) => "string".to_owned(),
        Value::Bool(_) => "bool".to_owned(),
        Value::Array(_) => "array".to_owned(),
        Value::Object(_) => "object".to_owned(),
        other => format!("number {other}"),
    };
    let why = format!("json: cannot unmarshal {found} into Go struct field ScaleSpec.spec.replicas of type int32");
    if patched {
        crate::core::ApiError::invalid_patch(&scale.to_string(), &why)
    } else {
        ApiError::bad_request(format!("Scale in version \"v1\" cannot be handled as a Scale: {why}"))
    }
}

/// `object` with its spec replicas set to `replicas`.
pub(crate) fn set_replicas(resource: &ResourceType, object: &mut Value, replicas: Value) {
    let (spec_path, _) = paths(resource);
    let keys: Vec<&str> = segments(spec_path).collect();
    let Some((last, parents)) = keys.split_last() else {
        return;
    };
    let mut target = object;
    for key in parents {
        if !target[*key].is_object() {
            target[*key] = json!({});
        }
        target = &mut target[*key];
    }
    target[*last] = replicas;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::ScalePaths;
    use crate::resources::registry::{Registry, crd_types};

    fn custom(selector: Option<&str>) -> ResourceType {
        let mut scale = json!({"specReplicasPath": ".spec.size", "statusReplicasPath": ".status.count"});
        if let Some(path) = selector {
            scale["labelSelectorPath"] = json!(path);
        }
        let crd = json!({"spec": {"group": "example.com", "scope": "Namespaced", "names": {"plural": "webapps", "kind": "WebApp"},
            "versions": [{"name": "v1", "served": true, "storage": true, "subresources": {"scale": scale}}]}});
        crd_types(&crd).unwrap().remove(0)
    }

    #[test]
    fn custom_resources_scale_at_their_crds_paths() {
        let resource = custom(Some(".status.selector"));
        assert_eq!(
            resource.scale_paths,
            Some(ScalePaths {
                spec_replicas: ".spec.size".into(),
                status_replicas: ".status.count".into(),
                label_selector: Some(".status.selector".into())
            })
        );
        let object = json!({"metadata": {"name": "a", "namespace": "n"}, "spec": {"size": 3}, "status": {"count": 2, "selector": "app=a"}});
        let scale = to_scale(&resource, &object);
        assert_eq!(scale["spec"], json!({"replicas": 3}));
        assert_eq!(scale["status"], json!({"replicas": 2, "selector": "app=a"}));
        let mut object = object;
        set_replicas(&resource, &mut object, json!(5));
        assert_eq!(object["spec"]["size"], 5);
    }

    #[test]
    fn without_a_selector_path_the_scale_has_no_selector() {
        let scale = to_scale(&custom(None), &json!({"metadata": {"name": "a"}, "spec": {}}));
        assert_eq!(scale["status"], json!({"replicas": 0}));
        assert_eq!(scale["spec"], json!({}), "zero replicas are omitted");
        assert_eq!(scale["metadata"], json!({"name": "a"}));
    }

    #[test]
    fn built_in_types_scale_their_spec_and_selector() {
        let registry = Registry::default();
        let deployments = registry.get("apps", "v1", "deployments").unwrap();
        let object =
            json!({"metadata": {"name": "d"}, "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "d"}}}});
        let scale = to_scale(&deployments, &object);
        assert_eq!(scale["status"], json!({"replicas": 0, "selector": "app=d"}));
    }
}
