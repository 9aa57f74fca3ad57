//! The admission plugins a default kube-apiserver runs that change the objects operators
//! create (`plugin/pkg/admission/`), so that an object read back here carries what it
//! would carry on a cluster, and a controller comparing desired with stored state
//! sees the same difference:
//!
//! - `DefaultTolerationSeconds`: Pods tolerate `node.kubernetes.io/not-ready` and
//!   `node.kubernetes.io/unreachable` (`NoExecute`) for 300 s unless they say otherwise;
//! - `Priority`: Pods get the priority of their class, or of the global default class,
//!   else 0 with `preemptionPolicy: PreemptLowerPriority`; an unknown class is refused;
//! - `DefaultStorageClass`: claims without a class get the default `StorageClass`;
//! - `DefaultIngressClass`: Ingresses without a class get the default `IngressClass`;
//! - `TaintNodesByCondition`: a new Node is tainted `node.kubernetes.io/not-ready`
//!   (`NoSchedule`) until the node lifecycle controller sees it Ready;
//! - `StorageObjectInUseProtection`: new claims and volumes get the
//!   `kubernetes.io/pvc-protection` and `kubernetes.io/pv-protection` finalizers, which
//!   the protection controllers (`controllers::protection`) remove once the object is
//!   deleted and unused;
//! - `LimitRanger` (`limits`): a new Pod's containers get the default requests and
//!   limits of the `LimitRange`s of their namespace, and the annotation saying so; Pods
//!   and claims outside a range's `min`, `max` or `maxLimitRequestRatio` are refused;
//! - `RuntimeClass`: a new Pod naming a `RuntimeClass` must find it, and takes its
//!   overhead and scheduling (node selector and tolerations); a Pod's own overhead must
//!   be the class's.
//!
//! `NamespaceLifecycle` is in `lifecycle` (`steps`: creates in a missing or terminating
//! namespace; `deletion`: the namespaces a cluster needs); `ResourceQuota` is in
//! `quota`, run after these under the same lock. Not run:
//! `ServiceAccount` (no token controller),
//! `PodSecurity` (privileged by default), `PersistentVolumeClaimResize` and the
//! certificate plugins.

use serde_json::{Value, json};

use crate::core::{ApiError, GroupResource, ResourceType};
use crate::store::Store;

/// How long a Pod stays on a node that is not ready or unreachable.
const TOLERATION_SECONDS: i64 = 300;

/// The priority classes every cluster has (`SystemPriorityClasses`).
pub(crate) fn system_priority_classes() -> [Value; 2] {
    let class = |name: &str, value: i64, description: &str| {
        json!({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": name},
            "value": value, "description": description, "preemptionPolicy": "PreemptLowerPriority"})
    };
    [
        class(
            "system-node-critical",
            2_000_001_000,
            "Used for system critical pods that must not be moved from their current node.",
        ),
        class(
            "system-cluster-critical",
            2_000_000_000,
            "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.",
        ),
    ]
}

/// Runs the mutating plugins on `object`, created (`old` None) or updated.
pub(crate) fn admit(
    store: &Store,
    resource: &ResourceType,
    object: &mut Value,
    old: Option<&Value>,
) -> Result<(), ApiError> {
    if resource.custom {
        return Ok(());
    }
    match (resource.group.as_str(), resource.plural.as_str()) {
        ("", "pods") => {
            if old.is_none() {
                super::limits::default_pod(store, object);
                super::limits::validate(store, resource, object, old)?;
            }
            default_tolerations(object);
            priority(store, resource, object, old)?;
            if old.is_none() {
                runtime_class(store, resource, object)?;
            }
            Ok(())
        }
        ("", "persistentvolumeclaims") => {
            super::limits::validate(store, resource, object, old)?;
            if old.is_some() {
                return Ok(());
            }
            protect(object, CLAIM_PROTECTION);
            let spec = &mut object["spec"];
            if spec.is_object() && spec.get("storageClassName").is_none_or(Value::is_null) {
                let class = default_class(
                    store,
                    "storage.k8s.io",
                    "storageclasses",
                    &[
                        "storageclass.kubernetes.io/is-default-class",
                        "storageclass.beta.kubernetes.io/is-default-class",
                    ],
                );
                if let Some(class) = class {
                    spec["storageClassName"] = json!(class);
                }
            }
            Ok(())
        }
        ("networking.k8s.io", "ingresses") if old.is_none() => {
            let annotated = object["metadata"]["annotations"]
                .get("kubernetes.io/ingress.class")
                .is_some();
            let spec = &mut object["spec"];
            if spec.is_object() && spec.get("ingressClassName").is_none_or(Value::is_null) && !annotated {
                let annotation = ["ingressclass.kubernetes.io/is-default-class"];
                if let Some(class) = default_class(store, "networking.k8s.io", "ingressclasses", &annotation) {
                    spec["ingressClassName"] = json!(class);
                }
            }
            Ok(())
        }
        ("", "services") => super::allocation::allocate(store, resource, object, old),
        ("", "persistentvolumes") if old.is_none() => {
            protect(object, VOLUME_PROTECTION);
            Ok(())
        }
        ("", "nodes") if old.is_none() => {
            taint_not_ready(object);
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The finalizer on every claim (`volumeutil.PVCProtectionFinalizer`).
pub(crate) const CLAIM_PROTECTION: &str = "kubernetes.io/pvc-protection";
/// The finalizer on every volume (`volumeutil.PVProtectionFinalizer`).
pub(crate) const VOLUME_PROTECTION: &str = "kubernetes.io/pv-protection";

/// `StorageObjectInUseProtection`: a new claim or volume gets its protection finalizer
/// (appended, unless it has it), which kube-controller-manager's protection
/// controllers remove once it is deleted and unused (`controllers::protection`).
fn protect(object: &mut Value, finalizer: &str) {
    let Some(metadata) = object.get_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    match metadata.get_mut("finalizers").and_then(Value::as_array_mut) {
        Some(list) if list.iter().any(|f| f == finalizer) => {}
        Some(list) => list.push(finalizer.into()),
        None => {
            metadata.insert("finalizers".into(), json!([finalizer]));
        }
    }
}

/// The taint `TaintNodesByCondition` puts on a new Node, removed by the node lifecycle
/// controller once the node is Ready.
pub(crate) const NOT_READY_TAINT: &str = "node.kubernetes.io/not-ready";

/// `TaintNodesByCondition`: the not-ready taint appended, unless the node has one of
/// that key and effect.
fn taint_not_ready(node: &mut Value) {
    if !node["spec"].is_object() {
        if !node["spec"].is_null() {
            return;
        }
        node["spec"] = json!({});
    }
    let mut taints = node["spec"]["taints"].as_array().cloned().unwrap_or_default();
    if taints
        .iter()
        .any(|t| t["key"] == NOT_READY_TAINT && t["effect"] == "NoSchedule")
    {
        return;
    }
    taints.push(json!({"key": NOT_READY_TAINT, "effect": "NoSchedule"}));
    node["spec"]["taints"] = json!(taints);
}

/// `DefaultTolerationSeconds`: a toleration of the key (or of every key) with the
/// `NoExecute` effect (or every effect) counts.
pub(crate) fn default_tolerations(pod: &mut Value) {
    let spec = &mut pod["spec"];
    if !spec.is_object() {
        return;
    }
    let tolerations = spec["tolerations"].as_array().cloned().unwrap_or_default();
    let tolerates = |key: &str| {
        tolerations.iter().any(|t| {
            let t_key = t["key"].as_str().unwrap_or_default();
            let effect = t["effect"].as_str().unwrap_or_default();
            (t_key == key || t_key.is_empty()) && (effect == "NoExecute" || effect.is_empty())
        })
    };
    let mut added = tolerations.clone();
    for key in ["node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"] {
        if !tolerates(key) {
            added.push(json!({"key": key, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": TOLERATION_SECONDS}));
        }
    }
    if added.len() != tolerations.len() {
        spec["tolerations"] = Value::Array(added);
    }
}

/// `Priority`: on create, the priority (and preemption policy) of the Pod's class, of
/// the global default class, or 0; on update, what the Pod had.
fn priority(store: &Store, resource: &ResourceType, pod: &mut Value, old: Option<&Value>) -> Result<(), ApiError> {
    if let Some(old) = old {
        for field in ["priority", "preemptionPolicy"] {
            if pod["spec"].get(field).is_none_or(Value::is_null)
                && let Some(kept) = old["spec"].get(field).filter(|v| !v.is_null())
            {
                pod["spec"][field] = kept.clone();
            }
        }
        return Ok(());
    }
    let classes: Vec<Value> = cluster_objects(store, "scheduling.k8s.io", "priorityclasses");
    let name = pod["spec"]["priorityClassName"].as_str().unwrap_or_default().to_owned();
    let forbidden = |detail: String| {
        let pod_name = pod["metadata"]["name"].as_str().unwrap_or_default();
        ApiError::forbidden(resource, pod_name, &detail)
    };
    let class = if name.is_empty() {
        classes
            .iter()
            .filter(|c| c["globalDefault"] == true)
            .min_by_key(|c| c["value"].as_i64().unwrap_or_default())
            .cloned()
    } else {
        let found = classes.iter().find(|c| c["metadata"]["name"] == name.as_str()).cloned();
        Some(found.ok_or_else(|| forbidden(format!("no PriorityClass with name {name} was found")))?)
    };
    let (class_name, value, policy) = match &class {
        Some(class) => (
            class["metadata"]["name"].as_str().unwrap_or_default().to_owned(),
            class["value"].as_i64().unwrap_or_default(),
            class["preemptionPolicy"].clone(),
        ),
        None => (String::new(), 0, json!("PreemptLowerPriority")),
    };
    if let Some(given) = pod["spec"]["priority"].as_i64()
        && given != value
    {
        return Err(forbidden(format!(
            "the integer value of priority ({given}) must not be provided in pod spec; priority admission controller computed {value} from the given PriorityClass name"
        )));
    }
    if let (Some(given), Some(computed)) = (pod["spec"]["preemptionPolicy"].as_str(), policy.as_str())
        && given != computed
    {
        return Err(forbidden(format!(
            "the string value of PreemptionPolicy ({given}) must not be provided in pod spec; priority admission controller computed {computed} from the given PriorityClass name"
        )));
    }
    let spec = &mut pod["spec"];
    if !class_name.is_empty() {
        spec["priorityClassName"] = json!(class_name);
    }
    spec["priority"] = json!(value);
    if !policy.is_null() {
        spec["preemptionPolicy"] = policy;
    }
    Ok(())
}

/// The `RuntimeClass` plugin on a new Pod: `Admit` (`setOverhead`, `setScheduling`)
/// then `Validate` (`validateOverhead`).
fn runtime_class(store: &Store, resource: &ResourceType, pod: &mut Value) -> Result<(), ApiError> {
    let pod_name = pod["metadata"]["name"].as_str().unwrap_or_default().to_owned();
    let forbidden = |detail: &str| ApiError::forbidden(resource, &pod_name, detail);
    let class = match pod["spec"].get("runtimeClassName").filter(|n| !n.is_null()) {
        None => None,
        Some(name) => {
            let name = name.as_str().unwrap_or_default().to_owned();
            let classes = cluster_objects(store, "node.k8s.io", "runtimeclasses");
            let found = classes.into_iter().find(|c| c["metadata"]["name"] == name.as_str());
            Some(found.ok_or_else(|| {
                forbidden(&format!(
                    "pod rejected: RuntimeClass {} not found",
                    wheelhouse_envtest_schema::errors::go_quote(&name)
                ))
            })?)
        }
    };
    let overhead = class.as_ref().and_then(|c| c.get("overhead")).filter(|o| !o.is_null());
    let fixed = overhead.map(|o| o["podFixed"].clone()).unwrap_or_default();
    // `Semantic.DeepEqual`: quantities by value, and no map is an empty one.
    let same_overhead = |pod: &Value| {
        let quantities = |list: &Value| super::quota::resources::list_of(list);
        quantities(&pod["spec"]["overhead"]) == quantities(&fixed)
    };
    if overhead.is_some() {
        let given = &pod["spec"]["overhead"];
        if given.as_object().is_some_and(|o| !o.is_empty()) && !same_overhead(pod) {
            return Err(forbidden(
                "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead",
            ));
        }
        set_or_remove(&mut pod["spec"], "overhead", fixed.clone());
    }
    if let Some(scheduling) = class
        .as_ref()
        .and_then(|c| c.get("scheduling"))
        .filter(|s| !s.is_null())
    {
        let mut selector = pod["spec"]["nodeSelector"].as_object().cloned();
        if let Some(runtime) = scheduling["nodeSelector"].as_object() {
            match &mut selector {
                None => selector = Some(runtime.clone()),
                Some(selector) => {
                    for (key, value) in runtime {
                        if let Some(given) = selector.get(key).filter(|given| *given != value) {
                            return Err(forbidden(&format!(
                                "conflict: runtimeClass.scheduling.nodeSelector[{key}] = {}; pod.spec.nodeSelector[{key}] = {}",
                                value.as_str().unwrap_or_default(),
                                given.as_str().unwrap_or_default()
                            )));
                        }
                        selector.insert(key.clone(), value.clone());
                    }
                }
            }
        }
        set_or_remove(
            &mut pod["spec"],
            "nodeSelector",
            selector.map_or(Value::Null, Value::Object),
        );
        let tolerations = merge_tolerations(
            pod["spec"]["tolerations"].as_array().map_or(&[][..], Vec::as_slice),
            scheduling["tolerations"].as_array().map_or(&[][..], Vec::as_slice),
        );
        set_or_remove(
            &mut pod["spec"],
            "tolerations",
            if tolerations.is_empty() {
                Value::Null
            } else {
                Value::Array(tolerations)
            },
        );
    }
    // `validateOverhead`, once the mutations are in.
    if overhead.is_some() {
        if !same_overhead(pod) {
            return Err(forbidden(
                "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead",
            ));
        }
    } else if pod["spec"].get("overhead").is_some_and(|o| !o.is_null()) {
        return Err(forbidden(
            "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead",
        ));
    }
    Ok(())
}

fn set_or_remove(object: &mut Value, field: &str, value: Value) {
    if let Some(map) = object.as_object_mut() {
        if value.is_null() {
            map.remove(field);
        } else {
            map.insert(field.to_owned(), value);
        }
    }
}

/// `tolerations.MergeTolerations`: both lists, without a toleration another tolerates
/// a superset of (of two equal ones, the first is kept).
fn merge_tolerations(first: &[Value], second: &[Value]) -> Vec<Value> {
    let all: Vec<&Value> = first.iter().chain(second).collect();
    let mut merged: Vec<Value> = Vec::new();
    for (index, toleration) in all.iter().enumerate() {
        if merged.iter().any(|kept| is_superset(kept, toleration)) {
            continue;
        }
        if all[index + 1..]
            .iter()
            .any(|later| *later != *toleration && is_superset(later, toleration))
        {
            continue;
        }
        merged.push((*toleration).clone());
    }
    merged
}

/// `isSuperset`: whether `ss` tolerates all that `t` does.
fn is_superset(ss: &Value, t: &Value) -> bool {
    if ss == t {
        return true;
    }
    let text = |v: &Value, field: &str| v[field].as_str().unwrap_or_default().to_owned();
    let (ss_key, t_key) = (text(ss, "key"), text(t, "key"));
    let ss_operator = text(ss, "operator");
    if t_key != ss_key && (!ss_key.is_empty() || ss_operator != "Exists") {
        return false;
    }
    let ss_effect = text(ss, "effect");
    if text(t, "effect") != ss_effect && !ss_effect.is_empty() {
        return false;
    }
    if ss_effect == "NoExecute"
        && let Some(limit) = ss["tolerationSeconds"].as_i64()
        && t["tolerationSeconds"].as_i64().is_none_or(|seconds| seconds > limit)
    {
        return false;
    }
    match ss_operator.as_str() {
        "Equal" | "" => text(t, "operator") == "Equal" && text(t, "value") == text(ss, "value"),
        "Exists" => true,
        _ => false,
    }
}

/// Every object of a cluster-scoped resource.
fn cluster_objects(store: &Store, group: &str, plural: &str) -> Vec<Value> {
    let resource = GroupResource {
        group: group.to_owned(),
        resource: plural.to_owned(),
    };
    store.values(&resource).iter().map(|o| (**o).clone()).collect()
}

/// The class marked default by one of `annotations`; of several, the newest, as
/// kube-apiserver picks since 1.26 (the name breaks ties).
fn default_class(store: &Store, group: &str, plural: &str, annotations: &[&str]) -> Option<String> {
    let classes = cluster_objects(store, group, plural);
    classes
        .iter()
        .filter(|c| annotations.iter().any(|a| c["metadata"]["annotations"][*a] == "true"))
        .max_by(|a, b| {
            let created = |c: &Value| {
                c["metadata"]["creationTimestamp"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned()
            };
            let name = |c: &Value| c["metadata"]["name"].as_str().unwrap_or_default().to_owned();
            (created(a), name(b)).cmp(&(created(b), name(a)))
        })
        .and_then(|c| c["metadata"]["name"].as_str().map(str::to_owned))
}
