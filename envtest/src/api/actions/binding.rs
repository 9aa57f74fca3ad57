//! `pods/binding` (and the `bindings` resource): what a scheduler does to place a pod
//! on a node. The pod gets `spec.nodeName` and a `PodScheduled` condition, once.

use serde_json::{Value, json};

use super::check_name;
use wheelhouse_envtest_schema::errors::go_quote;

use crate::core::ApiError;
use crate::lifecycle::now;
use crate::state::{ApiServer, State};

/// Binds the pod the Binding `body` names to its target node (`BindingREST.Create`
/// in `pkg/registry/core/pod/storage/storage.go`): `ValidatePodBinding`'s errors are
/// a 500 listing them (kube returns the aggregate, not a `Status`), the Binding's uid
/// and resourceVersion are preconditions on the pod, and a dry run checks without
/// binding.
pub(super) fn bind(
    server: &ApiServer,
    namespace: &str,
    url_name: Option<&str>,
    body: &Value,
    dry_run: bool,
) -> Result<(), ApiError> {
    let name = check_name(url_name, body, "Binding")?;
    let target = &body["target"];
    let node = target["name"].as_str().unwrap_or_default();
    let mut errors = Vec::new();
    if let Some(kind) = target["kind"]
        .as_str()
        .filter(|kind| !kind.is_empty() && *kind != "Node")
    {
        errors.push(format!(
            "target.kind: Unsupported value: {}: supported values: \"Node\", \"<empty>\"",
            go_quote(kind)
        ));
    }
    if node.is_empty() {
        errors.push("target.name: Required value".to_owned());
    }
    if !errors.is_empty() {
        let message = if errors.len() == 1 {
            errors.remove(0)
        } else {
            format!("[{}]", errors.join(", "))
        };
        return Err(ApiError::new(500, "", message));
    }
    let mut state = server.shared.state.lock();
    check_pod_preconditions(&state, namespace, &name, body)?;
    let pod = assigned(
        &state,
        namespace,
        &name,
        node,
        body["metadata"]["annotations"].as_object(),
    )?;
    if !dry_run {
        store_pod(&mut state, namespace, &name, pod);
    }
    Ok(())
}

/// The Binding's `metadata.uid` and `resourceVersion` must be the pod's, as the pod
/// storage's preconditions word it.
fn check_pod_preconditions(state: &State, namespace: &str, name: &str, body: &Value) -> Result<(), ApiError> {
    let Some(pods) = state.registry.get("", "v1", "pods") else {
        return Ok(());
    };
    let Some(pod) = state.store.get(&pods.group_resource(), namespace, name) else {
        return Ok(());
    };
    let failed = |what: &str, given: &str, found: &str| {
        let message = format!(
            "Operation cannot be fulfilled on pods \"{name}\": StorageError: invalid object, Code: 4, Key: /registry/pods/{namespace}/{name}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: {what} in precondition: {given}, {what} in object meta: {found}"
        );
        let mut error = ApiError::new(409, "Conflict", message);
        error.details = Some(json!({"name": name, "kind": "pods"}));
        error
    };
    let metadata = &body["metadata"];
    if let Some(uid) = metadata["uid"].as_str().filter(|u| !u.is_empty()) {
        let found = pod["metadata"]["uid"].as_str().unwrap_or_default();
        if uid != found {
            return Err(failed("UID", uid, found));
        }
    }
    if let Some(version) = metadata["resourceVersion"].as_str().filter(|v| !v.is_empty()) {
        let found = pod["metadata"]["resourceVersion"].as_str().unwrap_or_default();
        if version != found {
            return Err(failed("ResourceVersion", version, found));
        }
    }
    Ok(())
}

/// Assigns the pod `name` to `node` under the server's lock (the Binding's
/// `annotations` merged into the pod's): the binding subresource's write, which the
/// simulated scheduler makes too.
#[cfg(feature = "workloads")]
pub(crate) fn bind_pod(
    state: &mut State,
    namespace: &str,
    name: &str,
    node: &str,
    annotations: Option<&serde_json::Map<String, Value>>,
) -> Result<std::sync::Arc<Value>, ApiError> {
    let pod = assigned(state, namespace, name, node, annotations)?;
    Ok(store_pod(state, namespace, name, pod))
}

/// The pod `name` as binding it to `node` makes it (`setPodHostAndAnnotations`): a pod
/// being deleted, already assigned or with scheduling gates cannot be bound (409).
fn assigned(
    state: &State,
    namespace: &str,
    name: &str,
    node: &str,
    annotations: Option<&serde_json::Map<String, Value>>,
) -> Result<Value, ApiError> {
    let pods = state
        .registry
        .get("", "v1", "pods")
        .ok_or_else(ApiError::path_not_found)?;
    let current = state
        .store
        .get(&pods.group_resource(), namespace, name)
        .ok_or_else(|| ApiError::not_found(&pods, name))?;
    let conflict = |why: String| {
        let mut error = ApiError::new(
            409,
            "Conflict",
            format!("Operation cannot be fulfilled on pods/binding \"{name}\": {why}"),
        );
        error.details = Some(json!({"name": name, "kind": "pods/binding"}));
        error
    };
    if current["metadata"]["deletionTimestamp"].is_string() {
        return Err(conflict(format!(
            "pod {name} is being deleted, cannot be assigned to a host"
        )));
    }
    if let Some(assigned) = current["spec"]["nodeName"].as_str().filter(|n| !n.is_empty()) {
        return Err(conflict(format!(
            "pod {name} is already assigned to node \"{assigned}\""
        )));
    }
    if current["spec"]["schedulingGates"]
        .as_array()
        .is_some_and(|gates| !gates.is_empty())
    {
        return Err(conflict(format!("pod {name} has non-empty .spec.schedulingGates")));
    }
    let mut pod = current.as_ref().clone();
    pod["spec"]["nodeName"] = json!(node);
    if let Some(annotations) = annotations {
        if !pod["metadata"]["annotations"].is_object() {
            pod["metadata"]["annotations"] = json!({});
        }
        for (key, value) in annotations {
            pod["metadata"]["annotations"][key] = value.clone();
        }
    }
    let scheduled =
        json!({"type": "PodScheduled", "status": "True", "lastProbeTime": null, "lastTransitionTime": now()});
    if !pod["status"].is_object() {
        pod["status"] = json!({});
    }
    let mut conditions: Vec<Value> = pod["status"]["conditions"].as_array().cloned().unwrap_or_default();
    conditions.retain(|c| c["type"] != "PodScheduled");
    conditions.push(scheduled);
    pod["status"]["conditions"] = json!(conditions);
    Ok(pod)
}

/// Stores a bound pod; the pod as stored.
fn store_pod(state: &mut State, namespace: &str, name: &str, pod: Value) -> std::sync::Arc<Value> {
    let storage = crate::core::GroupResource {
        group: String::new(),
        resource: "pods".into(),
    };
    state
        .store
        .write(&storage, (namespace.to_owned(), name.to_owned()), Some(pod))
        .object()
        .clone()
}
