//! The `LimitRanger` admission plugin (`plugin/pkg/admission/limitranger`): a new
//! Pod's containers get the defaults of the `LimitRange`s of their namespace
//! (`default_pod`, `PodMutateLimitFunc`), then Pods and claims are checked against each
//! range (`validate`): each container's and the Pod's summed requests and limits
//! within `min` and `max` and at most `maxLimitRequestRatio` apart, a claim's storage
//! request within its item's bounds. The first range a write breaks refuses it, with
//! all that range's complaints.
//!
//! | kube (1.32) | here | covered by |
//! |---|---|---|
//! | `LimitRanger.Admit`, `PodMutateLimitFunc`, `defaultContainerResourceRequirements`, `mergeContainerResources` | [`default_pod`], `container_defaults` | conformance `plugins::limit_ranges_default_the_resources_of_new_pods` |
//! | `LimitRanger.Validate`, `runLimitFunc`, `SupportsAttributes` | [`validate`] | conformance `admission_limits::*` |
//! | `PodValidateLimitFunc` | `pod_refusals` | `admission_limits::containers_*`, `admission_limits::pods_*` |
//! | `PersistentVolumeClaimValidateLimitFunc` | `claim_refusals` | `admission_limits::claims_*` |
//! | `minConstraint`, `maxConstraint`, `maxRequestConstraint`, `limitRequestRatioConstraint`, `requestLimitEnforcedValues` | `min_constraint`, `max_constraint`, `max_request_constraint`, `ratio_constraint`, `milli` | `admission_limits::*`, unit tests |
//! | `podRequests`, `podLimits`, `addResourceList`, `maxResourceList` | `pod_total` | `admission_limits::pods_*` |
//!
//! Not ported: pod-level resources (`spec.resources`, alpha in 1.32) and the `resize`
//! subresource (alpha). kube walks a range's `min`, `max` and ratios in Go map order,
//! so with several complaints its order varies; here it is name order.

use serde_json::{Value, json};

use super::quota::resources::{Quantity, ResourceList, list_of, pod_total};
use crate::core::{ApiError, GroupResource, ResourceType};
use crate::store::Store;

/// `LimitRanger.Validate` for a Pod create or a claim write (`SupportsAttributes`;
/// the caller runs it for nothing else): the first range that refuses the object
/// refuses the write, its complaints aggregated as `utilerrors.NewAggregate` prints
/// them. A claim being deleted is not checked.
pub(super) fn validate(
    store: &Store,
    resource: &ResourceType,
    object: &Value,
    old: Option<&Value>,
) -> Result<(), ApiError> {
    if old.is_some_and(|o| o["metadata"]["deletionTimestamp"].is_string()) {
        return Ok(());
    }
    let pod = resource.plural == "pods";
    for range in ranges_of(store, object) {
        let refusals = if pod {
            pod_refusals(&range, object)
        } else {
            claim_refusals(&range, object)
        };
        if refusals.is_empty() {
            continue;
        }
        let why = if refusals.len() == 1 {
            refusals[0].clone()
        } else {
            format!("[{}]", refusals.join(", "))
        };
        let name = object["metadata"]["name"].as_str().unwrap_or_default();
        return Err(ApiError::forbidden(resource, name, &why));
    }
    Ok(())
}

/// The items of a range, with their bounds as resource lists.
struct Item {
    kind: String,
    min: ResourceList,
    max: ResourceList,
    ratio: ResourceList,
}

fn items(range: &Value) -> Vec<Item> {
    range["spec"]["limits"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|item| Item {
            kind: item["type"].as_str().unwrap_or_default().to_owned(),
            min: list_of(&item["min"]),
            max: list_of(&item["max"]),
            ratio: list_of(&item["maxLimitRequestRatio"]),
        })
        .collect()
}

/// All the constraints of one item on one set of requests and limits.
fn check(item: &Item, requests: &ResourceList, limits: &ResourceList, refusals: &mut Vec<String>) {
    let kind = item.kind.as_str();
    for (name, enforced) in &item.min {
        refusals.extend(min_constraint(kind, name, *enforced, requests, limits));
    }
    for (name, enforced) in &item.max {
        refusals.extend(max_constraint(kind, name, *enforced, requests, limits));
    }
    for (name, enforced) in &item.ratio {
        refusals.extend(ratio_constraint(kind, name, *enforced, requests, limits));
    }
}

/// `PodValidateLimitFunc`: `Container` items bound each container and init
/// container; `Pod` items the Pod's totals.
fn pod_refusals(range: &Value, pod: &Value) -> Vec<String> {
    let mut refusals = Vec::new();
    for item in items(range) {
        match item.kind.as_str() {
            "Container" => {
                for list in ["containers", "initContainers"] {
                    for container in pod["spec"][list].as_array().into_iter().flatten() {
                        let resources = &container["resources"];
                        check(
                            &item,
                            &list_of(&resources["requests"]),
                            &list_of(&resources["limits"]),
                            &mut refusals,
                        );
                    }
                }
            }
            "Pod" => check(
                &item,
                &pod_total(pod, "requests"),
                &pod_total(pod, "limits"),
                &mut refusals,
            ),
            _ => {}
        }
    }
    refusals
}

/// `PersistentVolumeClaimValidateLimitFunc`: a claim's requests within `min`, and
/// within `max` by request (a claim's limits are not taken as the user's).
fn claim_refusals(range: &Value, claim: &Value) -> Vec<String> {
    let requests = list_of(&claim["spec"]["resources"]["requests"]);
    let mut refusals = Vec::new();
    for item in items(range).iter().filter(|i| i.kind == "PersistentVolumeClaim") {
        for (name, enforced) in &item.min {
            refusals.extend(min_constraint(
                &item.kind,
                name,
                *enforced,
                &requests,
                &ResourceList::new(),
            ));
        }
        for (name, enforced) in &item.max {
            refusals.extend(max_request_constraint(&item.kind, name, *enforced, &requests));
        }
    }
    refusals
}

/// `requestLimitEnforcedValues`: quantities compared in thousandths, rounded up.
fn milli(quantity: Option<&Quantity>) -> i128 {
    quantity.map_or(0, |q| q.milli())
}

/// `minConstraint`.
fn min_constraint(
    kind: &str,
    name: &str,
    enforced: Quantity,
    requests: &ResourceList,
    limits: &ResourceList,
) -> Option<String> {
    let (request, limit) = (requests.get(name), limits.get(name));
    let head = format!("minimum {name} usage per {kind} is {enforced}");
    let Some(request) = request else {
        return Some(format!("{head}.  No request is specified"));
    };
    if request.milli() < enforced.milli() {
        return Some(format!("{head}, but request is {request}"));
    }
    match limit {
        Some(limit) if limit.milli() < enforced.milli() => Some(format!("{head}, but limit is {limit}")),
        _ => None,
    }
}

/// `maxRequestConstraint`: for kinds whose limits are not recognised.
fn max_request_constraint(kind: &str, name: &str, enforced: Quantity, requests: &ResourceList) -> Option<String> {
    let head = format!("maximum {name} usage per {kind} is {enforced}");
    let Some(request) = requests.get(name) else {
        return Some(format!("{head}.  No request is specified"));
    };
    (request.milli() > enforced.milli()).then(|| format!("{head}, but request is {request}"))
}

/// `maxConstraint`.
fn max_constraint(
    kind: &str,
    name: &str,
    enforced: Quantity,
    requests: &ResourceList,
    limits: &ResourceList,
) -> Option<String> {
    let head = format!("maximum {name} usage per {kind} is {enforced}");
    let Some(limit) = limits.get(name) else {
        return Some(format!("{head}.  No limit is specified"));
    };
    if limit.milli() > enforced.milli() {
        return Some(format!("{head}, but limit is {limit}"));
    }
    match requests.get(name) {
        Some(request) if request.milli() > enforced.milli() => Some(format!("{head}, but request is {request}")),
        _ => None,
    }
}

/// `limitRequestRatioConstraint`: both must be set and non-zero, and the limit at most
/// `enforced` times the request (compared in thousandths, printed as Go's `%f`).
fn ratio_constraint(
    kind: &str,
    name: &str,
    enforced: Quantity,
    requests: &ResourceList,
    limits: &ResourceList,
) -> Option<String> {
    let head = format!("{name} max limit to request ratio per {kind} is {enforced}");
    let (request, limit) = (milli(requests.get(name)), milli(limits.get(name)));
    if request == 0 {
        return Some(format!("{head}, but no request is specified or request is 0"));
    }
    if limit == 0 {
        return Some(format!("{head}, but no limit is specified or limit is 0"));
    }
    #[expect(clippy::cast_precision_loss, reason = "kube compares the ratio as a float64")]
    let (observed, bound) = (limit as f64 / request as f64, enforced.milli() as f64);
    (observed * 1000.0 > bound).then(|| format!("{head}, but provided ratio is {observed:.6}"))
}

/// `LimitRanger`'s mutation (`PodMutateLimitFunc`): each container lacking a resource
/// the namespace's `LimitRange`s default gets it, and the Pod an annotation naming
/// what was set. The server defaults the stored Pod again on every read and computes
/// its quality-of-service class after admission, so both follow.
pub(super) fn default_pod(store: &Store, pod: &mut Value) {
    let (mut limits, mut requests) = (serde_json::Map::new(), serde_json::Map::new());
    for range in ranges_of(store, pod) {
        for item in range["spec"]["limits"].as_array().into_iter().flatten() {
            if item["type"] == "Container" {
                let (default, default_request) = container_defaults(item);
                limits.extend(default);
                requests.extend(default_request);
            }
        }
    }
    if limits.is_empty() && requests.is_empty() {
        return;
    }
    let mut notes: Vec<String> = Vec::new();
    for (list, prefix) in [("containers", "container"), ("initContainers", "init container")] {
        for container in pod["spec"]
            .get_mut(list)
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            let name = container["name"].as_str().unwrap_or_default().to_owned();
            for (kind, defaults, word) in [("requests", &requests, "request"), ("limits", &limits, "limit")] {
                let resources = &mut container["resources"];
                if !resources[kind].is_object() {
                    resources[kind] = json!({});
                }
                let mut set: Vec<&str> = Vec::new();
                for (resource_name, quantity) in defaults {
                    if resources[kind].get(resource_name).is_none() {
                        resources[kind][resource_name] = quantity.clone();
                        set.push(resource_name);
                    }
                }
                if !set.is_empty() {
                    set.sort_unstable();
                    notes.push(format!("{} {word} for {prefix} {name}", set.join(", ")));
                }
            }
        }
    }
    if notes.is_empty() {
        return;
    }
    if !pod["metadata"]["annotations"].is_object() {
        pod["metadata"]["annotations"] = json!({});
    }
    pod["metadata"]["annotations"]["kubernetes.io/limit-ranger"] =
        json!(format!("LimitRanger plugin set: {}", notes.join("; ")));
    crate::objects::after_pod_admission(pod);
}

/// The `LimitRange`s of the object's namespace, by name.
fn ranges_of(store: &Store, object: &Value) -> Vec<Value> {
    let namespace = object["metadata"]["namespace"].as_str().unwrap_or_default();
    let resource = GroupResource {
        group: String::new(),
        resource: "limitranges".to_owned(),
    };
    store
        .values(&resource)
        .iter()
        .filter(|r| r["metadata"]["namespace"] == namespace)
        .map(|r| (**r).clone())
        .collect()
}

/// A container item's default limits and requests, as `SetDefaults_LimitRangeItem`
/// completes them: limits from `max`, requests from the limits, then from `min`.
fn container_defaults(item: &Value) -> (serde_json::Map<String, Value>, serde_json::Map<String, Value>) {
    let map = |key: &str| item[key].as_object().cloned().unwrap_or_default();
    let mut default = map("default");
    for (name, quantity) in map("max") {
        default.entry(name).or_insert(quantity);
    }
    let mut request = map("defaultRequest");
    for (name, quantity) in default.clone().into_iter().chain(map("min")) {
        request.entry(name).or_insert(quantity);
    }
    (default, request)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(value: &Value) -> ResourceList {
        list_of(value)
    }

    fn q(text: &str) -> Quantity {
        Quantity::parse(text).expect("a quantity")
    }

    #[test]
    fn constraints_speak_as_kube_does() {
        let requests = list(&json!({"cpu": "250m"}));
        let limits = list(&json!({"cpu": "1"}));
        assert_eq!(
            ratio_constraint("Container", "cpu", q("2"), &requests, &limits),
            Some("cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000".to_owned())
        );
        assert_eq!(ratio_constraint("Container", "cpu", q("4"), &requests, &limits), None);
        assert_eq!(
            min_constraint("Pod", "cpu", q("0.5"), &requests, &limits),
            Some("minimum cpu usage per Pod is 500m, but request is 250m".to_owned())
        );
        assert_eq!(
            max_constraint("Container", "memory", q("1Gi"), &requests, &limits),
            Some("maximum memory usage per Container is 1Gi.  No limit is specified".to_owned())
        );
        assert_eq!(
            max_request_constraint(
                "PersistentVolumeClaim",
                "storage",
                q("1Gi"),
                &list(&json!({"storage": "2Gi"}))
            ),
            Some("maximum storage usage per PersistentVolumeClaim is 1Gi, but request is 2Gi".to_owned())
        );
    }

    #[test]
    fn a_pod_totals_its_containers_and_its_largest_init_container() {
        let pod = json!({"spec": {
            "containers": [{"resources": {"requests": {"cpu": "100m"}}}, {"resources": {"requests": {"cpu": "200m"}}}],
            "initContainers": [
                {"restartPolicy": "Always", "resources": {"requests": {"cpu": "50m"}}},
                {"resources": {"requests": {"cpu": "1"}}},
            ],
        }});
        assert_eq!(pod_total(&pod, "requests").get("cpu"), Some(&q("1050m")));
    }
}
