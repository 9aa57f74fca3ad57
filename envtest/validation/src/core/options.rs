//! `PodValidationOptions` at 1.32's feature-gate defaults, and what a stored pod lets an
//! update keep (`GetValidationOptionsFromPodSpecAndMeta`).

use serde_json::Value;

use super::{helper, security};
use crate::field::Path;
use crate::json::{items, opt_text, text};
use crate::meta;

/// `PodValidationOptions` at 1.32's feature-gate defaults; the `allow_*` fields keep
/// accepting what an already stored pod holds.
#[derive(Debug, Clone, Default)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "kube's options are a set of independent switches"
)]
pub(crate) struct PodOptions {
    pub allow_invalid_pod_deletion_cost: bool,
    pub allow_invalid_label_value_in_selector: bool,
    pub allow_indivisible_huge_pages_values: bool,
    pub allow_invalid_topology_spread_constraint_label_selector: bool,
    pub allow_non_local_projected_token_path: bool,
    pub allow_namespaced_sysctls_for_host_net_and_host_ipc: bool,
    pub resource_is_pod: bool,
    pub allow_relaxed_environment_variable_validation: bool,
    pub allow_relaxed_dns_search_validation: bool,
    pub allow_sidecar_resize_policy: bool,
}

impl PodOptions {
    /// The options for a pod template (`resource_is_pod` false), given the stored
    /// template's pod spec on an update.
    pub(crate) fn for_template(old_spec: Option<&Value>) -> Self {
        let mut options = Self {
            // RelaxedEnvironmentVariableValidation is beta and on in 1.32.
            allow_relaxed_environment_variable_validation: true,
            ..Self::default()
        };
        if let Some(old) = old_spec {
            options.allow_invalid_label_value_in_selector = has_invalid_label_value_in_affinity(old);
            options.allow_invalid_topology_spread_constraint_label_selector = items(&old["topologySpreadConstraints"])
                .iter()
                .any(|c| !meta::validate_label_selector(&c["labelSelector"], &Path::new("")).is_empty());
            options.allow_sidecar_resize_policy = items(&old["initContainers"])
                .iter()
                .any(|c| c["restartPolicy"] == "Always" && !items(&c["resizePolicy"]).is_empty());
            options.allow_namespaced_sysctls_for_host_net_and_host_ipc = items(&old["securityContext"]["sysctls"])
                .iter()
                .any(|sysctl| security::validate_host_sysctl(text(&sysctl["name"]), old, &Path::new("")).is_some());
            options.allow_relaxed_dns_search_validation = items(&old["dnsConfig"]["searches"])
                .iter()
                .any(|s| text(s) == "." || text(s).contains('_'));
        }
        options
    }

    /// The options for a Pod, created (`old` None) or updated from `old`.
    pub(crate) fn for_pod(old: Option<&Value>) -> Self {
        let mut options = Self::for_template(old.map(|pod| &pod["spec"]));
        options.resource_is_pod = true;
        if let Some(old) = old {
            let cost = &old["metadata"]["annotations"]["controller.kubernetes.io/pod-deletion-cost"];
            options.allow_invalid_pod_deletion_cost =
                opt_text(cost).is_some_and(|c| !helper::deletion_cost_is_valid(c));
        }
        options
    }
}

/// `hasInvalidLabelValueInAffinitySelector`.
fn has_invalid_label_value_in_affinity(spec: &Value) -> bool {
    let affinity = &spec["affinity"];
    ["podAffinity", "podAntiAffinity"].iter().any(|kind| {
        let pod = &affinity[*kind];
        let required = items(&pod["requiredDuringSchedulingIgnoredDuringExecution"])
            .iter()
            .any(|term| meta::label_selector_has_invalid_label_value(&term["labelSelector"]));
        let preferred = items(&pod["preferredDuringSchedulingIgnoredDuringExecution"])
            .iter()
            .any(|term| meta::label_selector_has_invalid_label_value(&term["podAffinityTerm"]["labelSelector"]));
        required || preferred
    })
}
