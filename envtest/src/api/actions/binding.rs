//! `pods/binding` (and the `bindings` resource): what a scheduler does to place a pod
//! on a node. The pod gets `spec.nodeName` and a `PodScheduled` condition, once.

use serde_json::{Value, json};

use super::check_name;
use crate::core::ApiError;
use crate::lifecycle::now;
use crate::state::{ApiServer, State};

/// Binds the pod the Binding `body` names to its target node.
pub(super) fn bind(server: &ApiServer, namespace: &str, url_name: Option<&str>, body: &Value) -> Result<(), ApiError> {
    let name = check_name(url_name, body, "Binding")?;
    let target = &body["target"];
    let node = target["name"].as_str().unwrap_or_default();
    if node.is_empty() {
        return Err(ApiError::new(
            422,
            "Invalid",
            format!("Binding \"{name}\" is invalid: target.name: Required value"),
        ));
    }
    if target["kind"]
        .as_str()
        .is_some_and(|kind| !kind.is_empty() && kind != "Node")
    {
        return Err(ApiError::new(
            422,
            "Invalid",
            format!(
                "Binding \"{name}\" is invalid: target.kind: Invalid value: {}: must be empty or 'Node'",
                target["kind"]
            ),
        ));
    }
    let mut state = server.shared.state.lock();
    bind_pod(
        &mut state,
        namespace,
        &name,
        node,
        body["metadata"]["annotations"].as_object(),
    )
    .map(|_| ())
}

/// Assigns the pod `name` to `node` under the server's lock (the Binding's
/// `annotations` merged into the pod's): the binding subresource's write, which the
/// simulated scheduler makes too.
pub(crate) fn bind_pod(
    state: &mut State,
    namespace: &str,
    name: &str,
    node: &str,
    annotations: Option<&serde_json::Map<String, Value>>,
) -> Result<std::sync::Arc<Value>, ApiError> {
    let name = name.to_owned();
    let pods = state
        .registry
        .get("", "v1", "pods")
        .ok_or_else(ApiError::path_not_found)?;
    let storage = pods.group_resource();
    let current = state
        .store
        .get(&storage, namespace, &name)
        .ok_or_else(|| ApiError::not_found(&pods, &name))?;
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
    Ok(state
        .store
        .write(&storage, (namespace.to_owned(), name), Some(pod))
        .object
        .clone())
}
