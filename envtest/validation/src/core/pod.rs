//! Pods as created (`ValidatePodCreate`, `validatePodMetadataAndSpec`), the
//! annotations pods give meaning to, the options kube derives from the feature gates
//! and the stored pod (`GetValidationOptionsFromPodSpecAndMeta`), and pod templates
//! (`ValidatePodTemplateSpec`).

use serde_json::Value;

use super::pod_spec::validate_pod_spec;
use super::security;
use super::{helper, validate_object_meta};
use crate::field::{ErrorList, Path};
use crate::json::{is_set, items, opt_text, text};
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

/// `ValidatePodCreate`.
pub(crate) fn validate_pod_create(pod: &Value, options: &PodOptions) -> ErrorList {
    let mut errors = validate_pod_metadata_and_spec(pod, options);
    let spec_path = Path::new("spec");
    let spec = &pod["spec"];
    if !items(&spec["ephemeralContainers"]).is_empty() {
        errors.push(
            spec_path
                .child("ephemeralContainers")
                .forbidden("cannot be set on create"),
        );
    }
    if !text(&spec["nodeName"]).is_empty() && !items(&spec["schedulingGates"]).is_empty() {
        errors.push(
            spec_path
                .child("nodeName")
                .forbidden("cannot be set until all schedulingGates have been cleared"),
        );
    }
    errors.extend(security::validate_seccomp_annotations_and_fields(
        &pod["metadata"],
        spec,
        &spec_path,
    ));
    errors.extend(security::validate_app_armor_annotations_and_fields(
        &pod["metadata"],
        spec,
        &spec_path,
    ));
    errors
}

/// `validatePodMetadataAndSpec`.
pub(crate) fn validate_pod_metadata_and_spec(pod: &Value, options: &PodOptions) -> ErrorList {
    let meta_path = Path::new("metadata");
    let spec_path = Path::new("spec");
    let metadata = &pod["metadata"];
    let spec = &pod["spec"];
    let mut errors = validate_object_meta(metadata, true, meta::name_is_dns_subdomain, &meta_path);
    errors.extend(validate_pod_specific_annotations(
        &metadata["annotations"],
        spec,
        &meta_path.child("annotations"),
        options,
    ));
    errors.extend(validate_pod_spec(
        spec,
        Some(text(&metadata["name"])),
        &spec_path,
        options,
    ));
    if text(&spec["serviceAccountName"]).is_empty() {
        for (index, volume) in items(&spec["volumes"]).iter().enumerate() {
            let projected = &volume["projected"];
            if !is_set(projected) {
                continue;
            }
            for (source_index, source) in items(&projected["sources"]).iter().enumerate() {
                if is_set(&source["serviceAccountToken"]) {
                    errors.push(
                        spec_path
                            .child("volumes")
                            .index(index)
                            .child("projected")
                            .child("sources")
                            .index(source_index)
                            .child("serviceAccountToken")
                            .forbidden("must not be specified when serviceAccountName is not set"),
                    );
                }
            }
        }
    }
    for list in ["containers", "initContainers"] {
        for (index, container) in items(&spec[list]).iter().enumerate() {
            errors.extend(super::container::validate_container_only_for_pod(
                container,
                &spec_path.child(list).index(index),
            ));
        }
    }
    errors
}

const MIRROR_POD: &str = "kubernetes.io/config.mirror";
const TOLERATIONS: &str = "scheduler.alpha.kubernetes.io/tolerations";
const DELETION_COST: &str = "controller.kubernetes.io/pod-deletion-cost";

/// `ValidatePodSpecificAnnotations`.
pub(crate) fn validate_pod_specific_annotations(
    annotations: &Value,
    spec: &Value,
    path: &Path,
    options: &PodOptions,
) -> ErrorList {
    let mut errors = ErrorList::new();
    if let Some(mirror) = opt_text(&annotations[MIRROR_POD])
        && text(&spec["nodeName"]).is_empty()
    {
        errors.push(
            path.key(MIRROR_POD)
                .invalid(mirror, "must set spec.nodeName if mirror pod annotation is set"),
        );
    }
    let tolerations = text(&annotations[TOLERATIONS]);
    if !tolerations.is_empty() {
        match serde_json::from_str::<Value>(tolerations) {
            Ok(parsed) if parsed.is_array() || parsed.is_null() => {
                if !items(&parsed).is_empty() {
                    errors.extend(super::pod_spec::validate_tolerations(&parsed, &path.child(TOLERATIONS)));
                }
            }
            Ok(_) | Err(_) => errors.push(path.invalid(TOLERATIONS, "json: cannot unmarshal into []core.Toleration")),
        }
    }
    if !options.allow_invalid_pod_deletion_cost
        && let Some(cost) = opt_text(&annotations[DELETION_COST])
        && !helper::deletion_cost_is_valid(cost)
    {
        errors.push(path.key(DELETION_COST).invalid(cost, "must be a 32bit integer"));
    }
    errors.extend(security::validate_seccomp_pod_annotations(annotations, path));
    errors.extend(security::validate_app_armor_pod_annotations(annotations, spec, path));
    errors
}

/// `ValidatePodTemplateSpec` with the given options.
pub(crate) fn validate_pod_template_spec_with(template: &Value, path: &Path, options: &PodOptions) -> ErrorList {
    let metadata = &template["metadata"];
    let spec = &template["spec"];
    let mut errors = meta::validate_labels(&metadata["labels"], &path.child("labels"));
    errors.extend(meta::validate_annotations(
        &metadata["annotations"],
        &path.child("annotations"),
    ));
    errors.extend(validate_pod_specific_annotations(
        &metadata["annotations"],
        spec,
        &path.child("annotations"),
        options,
    ));
    errors.extend(validate_pod_spec(spec, None, &path.child("spec"), options));
    errors.extend(security::validate_seccomp_annotations_and_fields(
        metadata,
        spec,
        &path.child("spec"),
    ));
    errors.extend(security::validate_app_armor_annotations_and_fields(
        metadata,
        spec,
        &path.child("spec"),
    ));
    if !items(&spec["ephemeralContainers"]).is_empty() {
        errors.push(
            path.child("spec")
                .child("ephemeralContainers")
                .forbidden("ephemeral containers not allowed in pod template"),
        );
    }
    errors
}
