//! Pods as created (`ValidatePodCreate`, `validatePodMetadataAndSpec`), the
//! annotations pods give meaning to and how they may change, and pod templates
//! (`ValidatePodTemplateSpec`). The options kube derives from the feature gates and
//! the stored pod are in `options`.

use serde_json::Value;

use super::annotations;
use super::options::PodOptions;
use super::pod_spec::validate_pod_spec;
use super::scheduling::validate_tolerations;
use super::{helper, validate_object_meta};
use crate::field::{ErrorList, Path};
use crate::json::{entries, is_set, items, opt_text, text};
use crate::meta;

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
    errors.extend(annotations::validate_seccomp_annotations_and_fields(
        &pod["metadata"],
        spec,
        &spec_path,
    ));
    errors.extend(annotations::validate_app_armor_annotations_and_fields(
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
                    errors.extend(validate_tolerations(&parsed, &path.child(TOLERATIONS)));
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
    errors.extend(annotations::validate_seccomp_pod_annotations(annotations, path));
    errors.extend(annotations::validate_app_armor_pod_annotations(annotations, spec, path));
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
    errors.extend(annotations::validate_seccomp_annotations_and_fields(
        metadata,
        spec,
        &path.child("spec"),
    ));
    errors.extend(annotations::validate_app_armor_annotations_and_fields(
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

/// `ValidatePodSpecificAnnotationUpdates`: `AppArmor` and mirror-pod annotations are
/// fixed at creation.
pub(super) fn validate_annotation_updates(new: &Value, old: &Value, path: &Path, options: &PodOptions) -> ErrorList {
    let mut errors = ErrorList::new();
    let (new_annotations, old_annotations) = (&new["metadata"]["annotations"], &old["metadata"]["annotations"]);
    let app_armor = "container.apparmor.security.beta.kubernetes.io/";
    let mirror = "kubernetes.io/config.mirror";
    for (key, value) in entries(old_annotations) {
        if new_annotations.get(key) == Some(value) {
            continue;
        }
        if key.starts_with(app_armor) {
            errors.push(path.key(key).forbidden("may not remove or update AppArmor annotations"));
        }
        if key == mirror {
            errors.push(
                path.key(key)
                    .forbidden("may not remove or update mirror pod annotation"),
            );
        }
    }
    for (key, _) in entries(new_annotations) {
        if old_annotations.get(key).is_some() {
            continue;
        }
        if key.starts_with(app_armor) {
            errors.push(path.key(key).forbidden("may not add AppArmor annotations"));
        }
        if key == mirror {
            errors.push(path.key(key).forbidden("may not add mirror pod annotation"));
        }
    }
    errors.extend(validate_pod_specific_annotations(
        new_annotations,
        &new["spec"],
        path,
        options,
    ));
    errors
}
