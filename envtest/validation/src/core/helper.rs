//! `pkg/apis/core/helper`: which resource names, quota scopes, limit types and
//! finalizers are standard, and how huge-page resource names read.

use crate::core::quantity;
use crate::quantity::Quantity;

const HUGE_PAGES_PREFIX: &str = "hugepages-";
const REQUESTS_HUGE_PAGES_PREFIX: &str = "requests.hugepages-";
const DEFAULT_NAMESPACE_PREFIX: &str = "kubernetes.io/";
const REQUESTS_PREFIX: &str = "requests.";

/// `IsHugePageResourceName`.
pub(crate) fn is_huge_page_resource_name(name: &str) -> bool {
    name.starts_with(HUGE_PAGES_PREFIX)
}

/// `IsQuotaHugePageResourceName`.
pub(crate) fn is_quota_huge_page_resource_name(name: &str) -> bool {
    name.starts_with(HUGE_PAGES_PREFIX) || name.starts_with(REQUESTS_HUGE_PAGES_PREFIX)
}

/// `HugePageSizeFromResourceName`.
pub(crate) fn huge_page_size(name: &str) -> Option<Quantity> {
    let size = name.strip_prefix(HUGE_PAGES_PREFIX)?;
    Quantity::parse(size).ok()
}

/// `IsHugePageResourceValueDivisible`.
pub(crate) fn is_huge_page_resource_value_divisible(name: &str, value: &Quantity) -> bool {
    let Some(page) = huge_page_size(name) else {
        return false;
    };
    if page.sign() <= 0 || page.milli_value() % 1000 != 0 {
        return false;
    }
    let page = page.value();
    page != 0 && value.value() % page == 0
}

/// `IsStandardResourceQuotaScope`.
pub(crate) fn is_standard_resource_quota_scope(scope: &str) -> bool {
    matches!(
        scope,
        "Terminating"
            | "NotTerminating"
            | "BestEffort"
            | "NotBestEffort"
            | "PriorityClass"
            | "CrossNamespacePodAffinity"
    )
}

/// `IsResourceQuotaScopeValidForResource`.
pub(crate) fn is_resource_quota_scope_valid_for_resource(scope: &str, resource: &str) -> bool {
    let object_count = resource == "pods";
    let compute = matches!(
        resource,
        "cpu" | "memory" | "limits.cpu" | "limits.memory" | "requests.cpu" | "requests.memory"
    );
    match scope {
        "Terminating" | "NotTerminating" | "NotBestEffort" | "PriorityClass" | "CrossNamespacePodAffinity" => {
            object_count || compute
        }
        "BestEffort" => object_count,
        _ => true,
    }
}

/// `IsStandardContainerResourceName`.
pub(crate) fn is_standard_container_resource_name(name: &str) -> bool {
    matches!(name, "cpu" | "memory" | "ephemeral-storage") || is_huge_page_resource_name(name)
}

/// `IsNativeResource`: no domain, or the `kubernetes.io/` one.
pub(crate) fn is_native_resource(name: &str) -> bool {
    !name.contains('/') || name.contains(DEFAULT_NAMESPACE_PREFIX)
}

/// `IsExtendedResourceName`.
pub(crate) fn is_extended_resource_name(name: &str) -> bool {
    if is_native_resource(name) || name.starts_with(REQUESTS_PREFIX) {
        return false;
    }
    crate::util::is_qualified_name(&format!("{REQUESTS_PREFIX}{name}")).is_empty()
}

/// `IsOvercommitAllowed`: native resources but huge pages.
pub(crate) fn is_overcommit_allowed(name: &str) -> bool {
    is_native_resource(name) && !is_huge_page_resource_name(name)
}

/// `IsStandardLimitRangeType`.
pub(crate) fn is_standard_limit_range_type(value: &str) -> bool {
    matches!(value, "Pod" | "Container" | "PersistentVolumeClaim")
}

/// `IsStandardQuotaResourceName`.
pub(crate) fn is_standard_quota_resource_name(name: &str) -> bool {
    matches!(
        name,
        "cpu"
            | "memory"
            | "ephemeral-storage"
            | "requests.cpu"
            | "requests.memory"
            | "requests.storage"
            | "requests.ephemeral-storage"
            | "limits.cpu"
            | "limits.memory"
            | "limits.ephemeral-storage"
            | "pods"
            | "resourcequotas"
            | "services"
            | "replicationcontrollers"
            | "secrets"
            | "persistentvolumeclaims"
            | "configmaps"
            | "services.nodeports"
            | "services.loadbalancers"
    ) || is_quota_huge_page_resource_name(name)
}

/// `IsStandardResourceName`.
pub(crate) fn is_standard_resource_name(name: &str) -> bool {
    matches!(
        name,
        "cpu"
            | "memory"
            | "ephemeral-storage"
            | "requests.cpu"
            | "requests.memory"
            | "requests.ephemeral-storage"
            | "limits.cpu"
            | "limits.memory"
            | "limits.ephemeral-storage"
            | "pods"
            | "resourcequotas"
            | "services"
            | "replicationcontrollers"
            | "secrets"
            | "configmaps"
            | "persistentvolumeclaims"
            | "storage"
            | "requests.storage"
            | "services.nodeports"
            | "services.loadbalancers"
    ) || is_quota_huge_page_resource_name(name)
}

/// `IsIntegerResourceName`.
pub(crate) fn is_integer_resource_name(name: &str) -> bool {
    matches!(
        name,
        "pods"
            | "resourcequotas"
            | "services"
            | "replicationcontrollers"
            | "secrets"
            | "configmaps"
            | "persistentvolumeclaims"
            | "services.nodeports"
            | "services.loadbalancers"
    ) || is_extended_resource_name(name)
}

/// `IsStandardFinalizerName`.
pub(crate) fn is_standard_finalizer_name(name: &str) -> bool {
    matches!(name, "kubernetes" | "orphan" | "foregroundDeletion")
}

/// `GetDeletionCostFromPodAnnotations`: the `controller.kubernetes.io/pod-deletion-cost`
/// annotation is a 32-bit integer, without a `+` or a leading zero (but `0` itself).
pub(crate) fn deletion_cost_is_valid(value: &str) -> bool {
    let first_ok = match value.as_bytes().first() {
        Some(b'-') => true,
        Some(b'0') => value == "0",
        Some(b) => (b'1'..=b'9').contains(b),
        None => false,
    };
    first_ok && value.parse::<i32>().is_ok()
}

/// The storage request of a claim spec's resources.
pub(crate) fn storage_request(spec: &serde_json::Value) -> Option<Quantity> {
    spec["resources"]["requests"].get("storage").map(quantity)
}
