//! kube-apiserver's `APIService` availability controllers (kube-aggregator's
//! `status/local` and `status/remote`), which keep each `APIService`'s `Available`
//! condition. One served by the API server itself (no `spec.service`) is always
//! available; one that names a Service is checked against that Service and its
//! Endpoints, and the condition says what is missing, in the controller's words.
//! The remote controller's last check, a discovery request to the service, is not
//! made here (the embedded server proxies to no aggregated API server): an `APIService`
//! whose service has endpoints keeps the condition it has.
//!
//! Beside them, the CRD registration controller: each group version a CRD serves has
//! a local `APIService` (`kube-aggregator.kubernetes.io/automanaged: "true"`, group
//! priority 1000, version priority 100), removed when no CRD serves it any more.

use serde_json::{Value, json};

use super::{ObjectRef, update};
use crate::core::GroupResource;
use crate::state::State;

/// The field manager of kube-apiserver's own writes.
const MANAGER: &str = "kube-apiserver";

/// The label of the `APIService`s kube-apiserver registers itself; `true` for a CRD's.
const AUTOMANAGED: &str = "kube-aggregator.kubernetes.io/automanaged";

fn crds() -> GroupResource {
    GroupResource {
        group: "apiextensions.k8s.io".into(),
        resource: "customresourcedefinitions".into(),
    }
}

fn apiservices() -> GroupResource {
    GroupResource {
        group: "apiregistration.k8s.io".into(),
        resource: "apiservices".into(),
    }
}

/// Whether a change to `resource` may change an `APIService`'s availability or which
/// ones a CRD registers.
pub(super) fn watches(resource: &GroupResource) -> bool {
    *resource == apiservices()
        || *resource == crds()
        || (resource.group.is_empty() && matches!(resource.resource.as_str(), "services" | "endpoints"))
}

/// The group a changed CRD defines (the CRD may be gone: its name says it).
pub(super) fn crd_group(item: &ObjectRef) -> Option<String> {
    (item.resource == crds()).then(|| item.name.split_once('.').map(|(_, group)| group.to_owned()))?
}

/// `crdRegistrationController.handleVersionUpdate` for every version of `group`: an
/// `APIService` for each version a CRD of the group serves, none for the others.
pub(super) fn register_crd_versions(state: &mut State, group: &str) {
    let Some(resource) = state.registry.get("apiregistration.k8s.io", "v1", "apiservices") else {
        return;
    };
    let served: std::collections::BTreeSet<String> = state
        .store
        .values(&crds())
        .iter()
        .filter(|crd| crd["spec"]["group"] == group)
        .flat_map(|crd| crd["spec"]["versions"].as_array().cloned().unwrap_or_default())
        .filter(|version| version["served"].as_bool() == Some(true))
        .filter_map(|version| version["name"].as_str().map(str::to_owned))
        .collect();
    let registered: Vec<(String, String)> = state
        .store
        .values(&apiservices())
        .iter()
        .filter(|api| api["metadata"]["labels"][AUTOMANAGED] == "true" && api["spec"]["group"] == group)
        .map(|api| {
            let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
            (text(&api["metadata"]["name"]), text(&api["spec"]["version"]))
        })
        .collect();
    for (name, version) in &registered {
        if !served.contains(version) {
            let options = crate::lifecycle::deletion::DeleteOptions::background();
            let _ = crate::lifecycle::deletion::delete(state, &resource, "", name, &options);
        }
    }
    for version in served {
        let name = format!("{version}.{group}");
        if state.store.get(&apiservices(), "", &name).is_some() {
            continue;
        }
        let api = json!({"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
            "metadata": {"name": name, "labels": {AUTOMANAGED: "true"}},
            "spec": {"group": group, "version": version, "groupPriorityMinimum": 1000, "versionPriority": 100}});
        if let Ok((api, _)) = crate::lifecycle::prepare_new(&resource, None, api, MANAGER) {
            let _ = crate::lifecycle::commit_create(state, &resource, api, false);
        }
    }
}

/// The `APIServices` a change of `item` may change the availability of: an `APIService`
/// itself, or those naming a Service or Endpoints that changed.
pub(super) fn affected(state: &State, item: &ObjectRef) -> Vec<ObjectRef> {
    if item.resource == apiservices() {
        return vec![item.clone()];
    }
    if !watches(&item.resource) {
        return Vec::new();
    }
    state
        .store
        .values(&apiservices())
        .iter()
        .filter(|api| {
            let service = &api["spec"]["service"];
            service["namespace"] == item.namespace.as_str() && service["name"] == item.name.as_str()
        })
        .map(|api| ObjectRef::of(&apiservices(), api))
        .collect()
}

/// Sets the `Available` condition of the `APIService` `item` as the controllers would.
pub(super) fn sync(state: &mut State, item: &ObjectRef) {
    let (Some(current), Some(resource)) = (item.get(state), item.resource_type(state)) else {
        return;
    };
    let Some((status, reason, message)) = availability(state, &current) else {
        return;
    };
    let mut desired = (*current).clone();
    set_condition(&mut desired, status, reason, &message);
    if desired["status"] != current["status"] {
        update(state, &resource, &current, desired, Some("status"), MANAGER);
    }
}

/// (status, reason, message) of the `Available` condition, or None when only the
/// discovery check could tell.
fn availability(state: &State, api: &Value) -> Option<(&'static str, &'static str, String)> {
    let service = &api["spec"]["service"];
    if service.is_null() {
        return Some(("True", "Local", "Local APIServices are always available".to_owned()));
    }
    let namespace = service["namespace"].as_str().unwrap_or_default();
    let name = service["name"].as_str().unwrap_or_default();
    let quoted = wheelhouse_envtest_schema::errors::go_quote(namespace);
    let core = |resource: &str| GroupResource {
        group: String::new(),
        resource: resource.into(),
    };
    let Some(found) = state.store.get(&core("services"), namespace, name) else {
        return Some((
            "False",
            "ServiceNotFound",
            format!("service/{name} in {quoted} is not present"),
        ));
    };
    // Only a ClusterIP Service's port and endpoints are checked.
    if found["spec"]["type"].as_str().unwrap_or("ClusterIP") != "ClusterIP" {
        return None;
    }
    let port = service["port"].as_i64().unwrap_or(443);
    let ports = found["spec"]["ports"].as_array().map(Vec::as_slice).unwrap_or_default();
    let Some(listening) = ports.iter().find(|p| p["port"].as_i64() == Some(port)) else {
        return Some((
            "False",
            "ServicePortError",
            format!("service/{name} in {quoted} is not listening on port {port}"),
        ));
    };
    let port_name = listening["name"].as_str().unwrap_or_default();
    let Some(endpoints) = state.store.get(&core("endpoints"), namespace, name) else {
        return Some((
            "False",
            "EndpointsNotFound",
            format!("cannot find endpoints for service/{name} in {quoted}"),
        ));
    };
    let active = endpoints["subsets"].as_array().into_iter().flatten().any(|subset| {
        subset["addresses"].as_array().is_some_and(|a| !a.is_empty())
            && subset["ports"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|p| p["name"].as_str().unwrap_or_default() == port_name)
    });
    if active {
        return None;
    }
    Some((
        "False",
        "MissingEndpoints",
        format!(
            "endpoints for service/{name} in {quoted} have no addresses with port name {}",
            wheelhouse_envtest_schema::errors::go_quote(port_name)
        ),
    ))
}

/// `SetAPIServiceCondition`: the `Available` condition added, or its reason and
/// message replaced, its transition time moved only when its status changes.
fn set_condition(api: &mut Value, status: &str, reason: &str, message: &str) {
    let now = crate::lifecycle::now();
    if !api["status"].is_object() {
        api["status"] = json!({});
    }
    if !api["status"]["conditions"].is_array() {
        api["status"]["conditions"] = json!([]);
    }
    let Some(conditions) = api["status"]["conditions"].as_array_mut() else {
        return;
    };
    match conditions.iter_mut().find(|c| c["type"] == "Available") {
        Some(existing) => {
            if existing["status"] != status {
                existing["status"] = json!(status);
                existing["lastTransitionTime"] = json!(now);
            }
            existing["reason"] = json!(reason);
            existing["message"] = json!(message);
        }
        None => conditions.push(json!({
            "type": "Available",
            "status": status,
            "lastTransitionTime": now,
            "reason": reason,
            "message": message,
        })),
    }
}
