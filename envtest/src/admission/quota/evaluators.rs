//! Quota evaluators (`pkg/quota/v1/evaluator/core` and the generic object-count
//! evaluator of `staging/src/k8s.io/apiserver/pkg/quota/v1/generic`): for each
//! resource, which operations change usage, which quota resource names it answers
//! for, whether an object falls in a quota's scopes, what it must specify, and what
//! it uses.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::resources::{Quantity, ResourceList, add, pod_total};

/// The resources quota never counts (`install.ignoredResources`): virtual ones, and
/// events, which were never counted.
const IGNORED: &[(&str, &str)] = &[
    ("", "bindings"),
    ("", "componentstatuses"),
    ("authentication.k8s.io", "tokenreviews"),
    ("authentication.k8s.io", "selfsubjectreviews"),
    ("authorization.k8s.io", "subjectaccessreviews"),
    ("authorization.k8s.io", "selfsubjectaccessreviews"),
    ("authorization.k8s.io", "localsubjectaccessreviews"),
    ("authorization.k8s.io", "selfsubjectrulesreviews"),
    ("", "events"),
    ("events.k8s.io", "events"),
];

/// The pod resources quota knows (`podResources`), and the prefixes of the rest.
const POD_RESOURCES: &[&str] = &[
    "count/pods",
    "cpu",
    "memory",
    "ephemeral-storage",
    "requests.cpu",
    "requests.memory",
    "requests.ephemeral-storage",
    "limits.cpu",
    "limits.memory",
    "limits.ephemeral-storage",
    "pods",
];
const POD_RESOURCE_PREFIXES: &[&str] = &["hugepages-", "requests.hugepages-"];

/// The compute resources every container must specify when a quota limits them
/// (`validationSet`).
const VALIDATION_SET: &[&str] = &[
    "cpu",
    "memory",
    "requests.cpu",
    "requests.memory",
    "limits.cpu",
    "limits.memory",
];

const SERVICE_RESOURCES: &[&str] = &[
    "count/services",
    "services",
    "services.nodeports",
    "services.loadbalancers",
];

/// The suffix of the per-class claim resources (`storageClassSuffix`).
const STORAGE_CLASS_SUFFIX: &str = ".storageclass.storage.k8s.io/";

/// The names counted objects of a few core resources are also known by
/// (`legacyObjectCountAliases`).
fn legacy_alias(group: &str, plural: &str) -> Option<&'static str> {
    match (group, plural) {
        ("", "configmaps") => Some("configmaps"),
        ("", "resourcequotas") => Some("resourcequotas"),
        ("", "replicationcontrollers") => Some("replicationcontrollers"),
        ("", "secrets") => Some("secrets"),
        _ => None,
    }
}

/// `generic.ObjectCountQuotaResourceNameFor`.
pub(crate) fn object_count_name(group: &str, plural: &str) -> String {
    if group.is_empty() {
        format!("count/{plural}")
    } else {
        format!("count/{plural}.{group}")
    }
}

/// A request's operation, as the evaluators' `Handles` sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operation {
    Create,
    Update,
}

/// An evaluator: the pod, service and claim evaluators, or an object counter.
#[derive(Debug, Clone)]
pub(crate) enum Evaluator {
    Pods,
    Services,
    Claims,
    /// `objectCountEvaluator`: its `count/...` name and its legacy alias.
    Count(Vec<String>),
}

impl Evaluator {
    /// The evaluator of a resource; `None` for the ignored ones.
    pub(crate) fn of(group: &str, plural: &str) -> Option<Self> {
        if IGNORED.contains(&(group, plural)) {
            return None;
        }
        Some(match (group, plural) {
            ("", "pods") => Self::Pods,
            ("", "services") => Self::Services,
            ("", "persistentvolumeclaims") => Self::Claims,
            _ => {
                let mut names = vec![object_count_name(group, plural)];
                names.extend(legacy_alias(group, plural).map(str::to_owned));
                Self::Count(names)
            }
        })
    }

    /// `Handles`: pods count on create (and on a resize), services and claims on
    /// create and update, anything else on create; never through a subresource
    /// other than a pod's `resize`.
    pub(crate) fn handles(&self, operation: Operation, subresource: Option<&str>) -> bool {
        match (self, subresource) {
            (Self::Pods | Self::Count(_), None) => operation == Operation::Create,
            (Self::Pods, Some("resize")) => operation == Operation::Update,
            (_, Some(_)) => false,
            (Self::Services | Self::Claims, None) => true,
        }
    }

    /// `MatchingResources`: which of `names` this evaluator answers for.
    pub(crate) fn matching_resources(&self, names: &[String]) -> Vec<String> {
        match self {
            Self::Pods => {
                let mut result: Vec<String> = names
                    .iter()
                    .filter(|n| POD_RESOURCES.contains(&n.as_str()))
                    .cloned()
                    .collect();
                for name in names {
                    if POD_RESOURCE_PREFIXES.iter().any(|p| name.starts_with(p)) || is_extended_for_quota(name) {
                        result.push(name.clone());
                    }
                }
                result
            }
            Self::Services => names
                .iter()
                .filter(|n| SERVICE_RESOURCES.contains(&n.as_str()))
                .cloned()
                .collect(),
            Self::Claims => names
                .iter()
                .filter(|n| {
                    let fixed = [
                        "count/persistentvolumeclaims",
                        "persistentvolumeclaims",
                        "requests.storage",
                    ];
                    fixed.contains(&n.as_str())
                        || ["persistentvolumeclaims", "requests.storage"]
                            .iter()
                            .any(|r| n.ends_with(&format!("{STORAGE_CLASS_SUFFIX}{r}")))
                })
                .cloned()
                .collect(),
            Self::Count(own) => names.iter().filter(|n| own.contains(n)).cloned().collect(),
        }
    }

    /// Whether `object` falls in one scope requirement: only pods have scopes
    /// (`podMatchesScopeFunc`); the others match none (`MatchesNoScopeFunc`).
    pub(crate) fn matches_scope(&self, selector: &Value, object: &Value) -> bool {
        if !matches!(self, Self::Pods) {
            return false;
        }
        match selector["scopeName"].as_str().unwrap_or_default() {
            "Terminating" => is_terminating(object),
            "NotTerminating" => !is_terminating(object),
            "BestEffort" => is_best_effort(object),
            "NotBestEffort" => !is_best_effort(object),
            "PriorityClass" => priority_class_matches(selector, object),
            "CrossNamespacePodAffinity" => uses_cross_namespace_affinity(object),
            _ => false,
        }
    }

    /// `generic.Matches`: the quota limits something this evaluator counts and the
    /// object is in all the quota's scopes.
    pub(crate) fn matches(&self, quota: &Value, object: &Value) -> bool {
        let hard: Vec<String> = quota["status"]["hard"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(name, _)| name.clone())
            .collect();
        !self.matching_resources(&hard).is_empty()
            && scope_selectors(quota)
                .iter()
                .all(|selector| self.matches_scope(selector, object))
    }

    /// `Constraints`: a pod's every container must specify the compute resources a
    /// matching quota limits (`must specify ...`); the others constrain nothing.
    pub(crate) fn constraints(&self, required: &[String], object: &Value) -> Result<(), String> {
        if !matches!(self, Self::Pods) {
            return Ok(());
        }
        let required: BTreeSet<&str> = required
            .iter()
            .map(String::as_str)
            .filter(|r| VALIDATION_SET.contains(r))
            .collect();
        let mut missing: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for list in ["containers", "initContainers"] {
            for container in object["spec"][list].as_array().into_iter().flatten() {
                let resources = &container["resources"];
                let usage = compute_usage(&list_of(&resources["requests"]), &list_of(&resources["limits"]));
                let name = container["name"].as_str().unwrap_or_default();
                for resource in &required {
                    if !usage.contains_key(*resource) {
                        missing
                            .entry((*resource).to_owned())
                            .or_default()
                            .insert(name.to_owned());
                    }
                }
            }
        }
        if missing.is_empty() {
            return Ok(());
        }
        let parts: Vec<String> = missing
            .iter()
            .map(|(resource, containers)| {
                let names: Vec<&str> = containers.iter().map(String::as_str).collect();
                format!("{resource} for: {}", names.join(","))
            })
            .collect();
        Err(format!("must specify {}", parts.join("; ")))
    }

    /// `Usage`: what the object uses.
    pub(crate) fn usage(&self, object: &Value) -> ResourceList {
        match self {
            Self::Pods => pod_usage(object),
            Self::Services => service_usage(object),
            Self::Claims => claim_usage(object),
            Self::Count(names) => names.iter().map(|n| (n.clone(), Quantity::count(1))).collect(),
        }
    }
}

/// A quota's scopes as requirements (`getScopeSelectorsFromQuota`): each of
/// `spec.scopes` with `Exists`, then `spec.scopeSelector`'s expressions.
pub(crate) fn scope_selectors(quota: &Value) -> Vec<Value> {
    let mut selectors: Vec<Value> = quota["spec"]["scopes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|scope| serde_json::json!({"scopeName": scope, "operator": "Exists"}))
        .collect();
    selectors.extend(
        quota["spec"]["scopeSelector"]["matchExpressions"]
            .as_array()
            .into_iter()
            .flatten()
            .cloned(),
    );
    selectors
}

fn list_of(value: &Value) -> ResourceList {
    super::resources::list_of(value)
}

/// `isExtendedResourceNameForQuota`: `requests.` of a name outside the native
/// `kubernetes.io/` domain that has a domain.
fn is_extended_for_quota(name: &str) -> bool {
    name.strip_prefix("requests.")
        .is_some_and(|rest| rest.contains('/') && !is_native(rest))
}

/// `helper.IsNativeResource`: no domain, or a `kubernetes.io/` one.
fn is_native(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

/// `helper.IsExtendedResourceName`: a domain-qualified name outside `kubernetes.io/`
/// not starting with `requests.`.
fn is_extended(name: &str) -> bool {
    !is_native(name) && !name.starts_with("requests.")
}

/// `podComputeUsageHelper`: a pod's (or a container's) usage from its requests and
/// limits.
fn compute_usage(requests: &ResourceList, limits: &ResourceList) -> ResourceList {
    let mut result = ResourceList::new();
    result.insert("pods".to_owned(), Quantity::count(1));
    for resource in ["cpu", "memory", "ephemeral-storage"] {
        if let Some(request) = requests.get(resource) {
            result.insert(resource.to_owned(), *request);
            result.insert(format!("requests.{resource}"), *request);
        }
        if let Some(limit) = limits.get(resource) {
            result.insert(format!("limits.{resource}"), *limit);
        }
    }
    for (resource, request) in requests {
        if resource.starts_with("hugepages-") {
            result.insert(resource.clone(), *request);
            result.insert(format!("requests.{resource}"), *request);
        }
        if is_extended(resource) {
            result.insert(format!("requests.{resource}"), *request);
        }
    }
    result
}

/// `PodUsageFunc`: every pod counts in `count/pods`; one not yet finished also in
/// `pods` and with its requests and limits.
fn pod_usage(pod: &Value) -> ResourceList {
    let mut result = ResourceList::new();
    result.insert("count/pods".to_owned(), Quantity::count(1));
    if !holds_resources(pod) {
        return result;
    }
    let requests = pod_resources(pod, "requests");
    let limits = pod_resources(pod, "limits");
    add(&result, &compute_usage(&requests, &limits))
}

/// `QuotaV1Pod`: a pod holds its resources until it finishes or is past the end of
/// its deletion grace period.
fn holds_resources(pod: &Value) -> bool {
    if matches!(pod["status"]["phase"].as_str(), Some("Failed" | "Succeeded")) {
        return false;
    }
    let metadata = &pod["metadata"];
    let deleted = metadata["deletionTimestamp"]
        .as_str()
        .and_then(|t| t.parse::<jiff::Timestamp>().ok());
    let grace = metadata["deletionGracePeriodSeconds"].as_i64();
    if let (Some(deleted), Some(grace)) = (deleted, grace)
        && let Ok(end) = deleted.checked_add(jiff::SignedDuration::from_secs(grace))
    {
        return jiff::Timestamp::now() <= end;
    }
    true
}

/// `resourcehelper.PodRequests` / `PodLimits`: the containers' sum, at least the
/// largest init container (a restartable one runs beside those after it, so it adds
/// to both), plus the pod's overhead (for limits, only where a limit is set).
fn pod_resources(pod: &Value, kind: &str) -> ResourceList {
    let spec = &pod["spec"];
    let mut total = pod_total(pod, kind);
    for (name, overhead) in list_of(&spec["overhead"]) {
        match total.get_mut(&name) {
            Some(value) => *value = value.plus(overhead),
            None if kind == "requests" => {
                total.insert(name, overhead);
            }
            None => {}
        }
    }
    total
}

/// `isTerminating`: a pod with an active deadline.
fn is_terminating(pod: &Value) -> bool {
    pod["spec"]["activeDeadlineSeconds"].as_i64().is_some_and(|s| s >= 0)
}

/// `qos.GetPodQOS(pod) == BestEffort`: no container requests or limits CPU or memory.
fn is_best_effort(pod: &Value) -> bool {
    let spec = &pod["spec"];
    !["containers", "initContainers"].iter().any(|list| {
        spec[*list].as_array().into_iter().flatten().any(|container| {
            ["requests", "limits"].iter().any(|kind| {
                let list = list_of(&container["resources"][*kind]);
                ["cpu", "memory"]
                    .iter()
                    .any(|r| list.get(*r).is_some_and(|q| !q.is_zero()))
            })
        })
    })
}

/// The `PriorityClass` scope: `Exists` is any class; the other operators match the
/// class name as the value of the label `PriorityClass` (`podMatchesSelector`).
fn priority_class_matches(selector: &Value, pod: &Value) -> bool {
    let class = pod["spec"]["priorityClassName"].as_str().unwrap_or_default();
    let values: Vec<&str> = selector["values"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    match selector["operator"].as_str().unwrap_or_default() {
        "Exists" => !class.is_empty(),
        "DoesNotExist" => class.is_empty(),
        "In" => !class.is_empty() && values.contains(&class),
        "NotIn" => class.is_empty() || !values.contains(&class),
        _ => false,
    }
}

/// `usesCrossNamespacePodAffinity`: an affinity or anti-affinity term naming
/// namespaces or a namespace selector.
fn uses_cross_namespace_affinity(pod: &Value) -> bool {
    let affinity = &pod["spec"]["affinity"];
    let crosses = |term: &Value| {
        term["namespaces"].as_array().is_some_and(|n| !n.is_empty())
            || term.get("namespaceSelector").is_some_and(|s| !s.is_null())
    };
    ["podAffinity", "podAntiAffinity"].iter().any(|kind| {
        let terms = &affinity[*kind];
        terms["requiredDuringSchedulingIgnoredDuringExecution"]
            .as_array()
            .into_iter()
            .flatten()
            .any(crosses)
            || terms["preferredDuringSchedulingIgnoredDuringExecution"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|weighted| crosses(&weighted["podAffinityTerm"]))
    })
}

/// The service evaluator's `Usage`: one service; node ports for each port of a
/// `NodePort` or `LoadBalancer` service (only those given one when the balancer
/// allocates none); one balancer for a `LoadBalancer`.
fn service_usage(service: &Value) -> ResourceList {
    let spec = &service["spec"];
    let ports = spec["ports"].as_array().map_or(0, Vec::len);
    let count = |n: usize| Quantity::count(i64::try_from(n).unwrap_or(i64::MAX));
    let mut result = ResourceList::new();
    result.insert("count/services".to_owned(), count(1));
    result.insert("services".to_owned(), count(1));
    let (mut node_ports, mut balancers) = (0, 0);
    match spec["type"].as_str() {
        Some("NodePort") => node_ports = ports,
        Some("LoadBalancer") => {
            node_ports = if spec["allocateLoadBalancerNodePorts"] == false {
                spec["ports"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|p| p["nodePort"].as_i64().is_some_and(|n| n != 0))
                    .count()
            } else {
                ports
            };
            balancers = 1;
        }
        _ => {}
    }
    result.insert("services.loadbalancers".to_owned(), count(balancers));
    result.insert("services.nodeports".to_owned(), count(node_ports));
    result
}

/// The claim evaluator's `Usage`: one claim, its storage request rounded up (or what
/// was allocated, when more), each also under its storage class.
fn claim_usage(claim: &Value) -> ResourceList {
    let mut result = ResourceList::new();
    result.insert("persistentvolumeclaims".to_owned(), Quantity::count(1));
    result.insert("count/persistentvolumeclaims".to_owned(), Quantity::count(1));
    // `GetPersistentVolumeClaimClass`: the beta annotation wins over the field.
    let class = claim["metadata"]["annotations"]["volume.beta.kubernetes.io/storage-class"]
        .as_str()
        .or_else(|| claim["spec"]["storageClassName"].as_str())
        .unwrap_or_default();
    if !class.is_empty() {
        result.insert(
            format!("{class}{STORAGE_CLASS_SUFFIX}persistentvolumeclaims"),
            Quantity::count(1),
        );
    }
    let requested = Quantity::of(&claim["spec"]["resources"]["requests"]["storage"]).map(Quantity::round_up);
    let allocated = Quantity::of(&claim["status"]["allocatedResources"]["storage"]);
    let storage = match (requested, allocated) {
        (Some(requested), Some(allocated)) if allocated > requested => Some(allocated.round_up()),
        (requested, _) => requested,
    };
    if let Some(storage) = storage {
        result.insert("requests.storage".to_owned(), storage);
        if !class.is_empty() {
            result.insert(format!("{class}{STORAGE_CLASS_SUFFIX}requests.storage"), storage);
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::admission::quota::resources::pretty_print;

    #[test]
    fn a_pod_uses_its_containers_sum_at_least_its_largest_init_container() {
        let pod = json!({"spec": {
            "containers": [
                {"name": "a", "resources": {"requests": {"cpu": "100m"}, "limits": {"memory": "64Mi"}}},
                {"name": "b", "resources": {"requests": {"cpu": "200m"}}},
            ],
            "initContainers": [{"name": "i", "resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}],
            "overhead": {"cpu": "10m"},
        }});
        assert_eq!(
            pretty_print(&Evaluator::Pods.usage(&pod)),
            "count/pods=1,cpu=1010m,limits.memory=64Mi,memory=1Gi,pods=1,requests.cpu=1010m,requests.memory=1Gi"
        );
        let finished = json!({"spec": pod["spec"], "status": {"phase": "Succeeded"}});
        assert_eq!(pretty_print(&Evaluator::Pods.usage(&finished)), "count/pods=1");
        let gone = json!({"metadata": {"deletionTimestamp": "2000-01-01T00:00:00Z", "deletionGracePeriodSeconds": 30}, "spec": pod["spec"]});
        assert_eq!(pretty_print(&Evaluator::Pods.usage(&gone)), "count/pods=1");
        let going = json!({"metadata": {"deletionTimestamp": "2999-01-01T00:00:00Z", "deletionGracePeriodSeconds": 30}, "spec": pod["spec"]});
        assert!(Evaluator::Pods.usage(&going).contains_key("pods"));
    }

    #[test]
    fn pods_must_specify_what_a_quota_limits() {
        let pod = json!({"spec": {
            "containers": [{"name": "p", "resources": {"requests": {"cpu": "1"}}}],
            "initContainers": [{"name": "i"}],
        }});
        let required = ["requests.cpu".to_owned(), "limits.memory".to_owned(), "pods".to_owned()];
        assert_eq!(
            Evaluator::Pods.constraints(&required, &pod),
            Err("must specify limits.memory for: i,p; requests.cpu for: i".to_owned())
        );
    }

    #[test]
    fn scopes_select_pods_by_deadline_quality_and_class() {
        let pod =
            json!({"spec": {"activeDeadlineSeconds": 5, "priorityClassName": "high", "containers": [{"name": "c"}]}});
        let scope = |name: &str| json!({"scopeName": name, "operator": "Exists"});
        assert!(Evaluator::Pods.matches_scope(&scope("Terminating"), &pod));
        assert!(Evaluator::Pods.matches_scope(&scope("BestEffort"), &pod));
        assert!(!Evaluator::Pods.matches_scope(&scope("NotBestEffort"), &pod));
        let class = json!({"scopeName": "PriorityClass", "operator": "In", "values": ["high"]});
        assert!(Evaluator::Pods.matches_scope(&class, &pod));
        assert!(!Evaluator::Services.matches_scope(&scope("Terminating"), &pod));
    }

    #[test]
    fn services_count_node_ports_and_balancers() {
        let service = json!({"spec": {"type": "LoadBalancer", "ports": [{"port": 1}, {"port": 2}]}});
        assert_eq!(
            pretty_print(&Evaluator::Services.usage(&service)),
            "count/services=1,services=1,services.loadbalancers=1,services.nodeports=2"
        );
        let claim = json!({"spec": {"storageClassName": "fast", "resources": {"requests": {"storage": "1.5"}}}});
        assert_eq!(
            pretty_print(&Evaluator::Claims.usage(&claim)),
            "count/persistentvolumeclaims=1,fast.storageclass.storage.k8s.io/persistentvolumeclaims=1,fast.storageclass.storage.k8s.io/requests.storage=2,persistentvolumeclaims=1,requests.storage=2"
        );
        assert!(Evaluator::of("", "events").is_none());
        let Some(Evaluator::Count(names)) = Evaluator::of("", "secrets") else {
            panic!("secrets are counted");
        };
        assert_eq!(names, ["count/secrets", "secrets"]);
    }
}
