//! Persistent volume claims (`ValidatePersistentVolumeClaimSpec`,
//! `ValidatePersistentVolumeClaimUpdate`: a claim's spec is fixed but for the size of a
//! bound claim, `ValidatePersistentVolumeClaimStatusUpdate`), and the claim templates of
//! ephemeral volumes (`ValidatePersistentVolumeClaimTemplate`).

use serde_json::Value;

use super::helper;
use super::resources::{validate_basic_resource, validate_resource_quantity_value};
use super::{
    invalid_each, quantity, validate_dns1123_subdomain, validate_object_meta, validate_object_meta_update,
    validate_positive_quantity_value,
};
use crate::field::{BadValue, ErrorList, Path};
use crate::json::{entries, is_set, items, opt_text, same, strings, text};
use crate::meta::{self, SelectorOptions};
use crate::{Write, godump};

/// A claim written as `write` says.
pub(super) fn validate_claim(claim: &Value, write: Write) -> ErrorList {
    match write {
        Write::Create => validate_persistent_volume_claim(claim, &ClaimOptions::new(None)),
        Write::Subresource { name: "status", old } => validate_claim_status_update(claim, old),
        Write::Update { old } | Write::Subresource { old, .. } => {
            let options = ClaimOptions::new(Some(old));
            let mut errors = validate_persistent_volume_claim(claim, &options);
            errors.extend(validate_claim_update(claim, old, &options));
            errors
        }
    }
}

/// `PersistentVolumeClaimSpecValidationOptions` at 1.32's defaults.
struct ClaimOptions {
    allow_invalid_label_value_in_selector: bool,
    allow_invalid_api_group: bool,
}

impl ClaimOptions {
    fn new(old: Option<&Value>) -> Self {
        let Some(old) = old else {
            return Self {
                allow_invalid_label_value_in_selector: false,
                allow_invalid_api_group: false,
            };
        };
        let spec = &old["spec"];
        Self {
            allow_invalid_label_value_in_selector: !meta::validate_label_selector(&spec["selector"], &Path::new(""))
                .is_empty(),
            allow_invalid_api_group: is_set(&spec["dataSource"]["apiGroup"])
                || is_set(&spec["dataSourceRef"]["apiGroup"]),
        }
    }
}

/// `ValidatePersistentVolumeClaim`.
fn validate_persistent_volume_claim(claim: &Value, options: &ClaimOptions) -> ErrorList {
    let mut errors = validate_object_meta(
        &claim["metadata"],
        true,
        meta::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    errors.extend(validate_claim_spec(&claim["spec"], &Path::new("spec"), options));
    errors
}

/// `ValidatePersistentVolumeClaimTemplate`: an ephemeral volume's claim template.
pub(super) fn validate_claim_template(template: &Value, path: &Path) -> ErrorList {
    let metadata = &template["metadata"];
    let meta_path = path.child("metadata");
    let mut errors = meta::validate_annotations(&metadata["annotations"], &meta_path.child("annotations"));
    errors.extend(meta::validate_labels(&metadata["labels"], &meta_path.child("labels")));
    for (field, go_name) in [
        ("name", "name"),
        ("generateName", "generateName"),
        ("namespace", "namespace"),
        ("selfLink", "selfLink"),
        ("uid", "uID"),
        ("resourceVersion", "resourceVersion"),
        ("generation", "generation"),
        ("creationTimestamp", "creationTimestamp"),
        ("deletionTimestamp", "deletionTimestamp"),
        ("deletionGracePeriodSeconds", "deletionGracePeriodSeconds"),
        ("ownerReferences", "ownerReferences"),
        ("finalizers", "finalizers"),
        ("managedFields", "managedFields"),
    ] {
        if !crate::json::is_zero(&metadata[field]) {
            errors.push(meta_path.child(go_name).forbidden("cannot be set"));
        }
    }
    let options = ClaimOptions::new(None);
    errors.extend(validate_claim_spec(&template["spec"], &path.child("spec"), &options));
    errors
}

/// `ValidatePersistentVolumeClaimSpec`.
fn validate_claim_spec(spec: &Value, path: &Path, options: &ClaimOptions) -> ErrorList {
    let modes = &spec["accessModes"];
    let mut errors = ErrorList::new();
    if items(modes).is_empty() {
        errors.push(path.child("accessModes").required("at least 1 access mode is required"));
    }
    if is_set(&spec["selector"]) {
        let selector_options = SelectorOptions {
            allow_invalid_label_value: options.allow_invalid_label_value_in_selector,
            allow_unknown_operator: false,
        };
        errors.extend(meta::validate_label_selector_with(
            &spec["selector"],
            selector_options,
            &path.child("selector"),
        ));
    }
    errors.extend(
        validate_access_modes(modes, &path.child("accessModes"), "")
            .into_iter()
            .filter(|e| e.kind != crate::field::ErrorType::Required),
    );
    let storage_path = path.child("resources").key("storage");
    match helper::storage_request(spec) {
        None => errors.push(storage_path.required("")),
        Some(storage) => {
            let positive = validate_positive_quantity_value(&storage, &storage_path);
            if positive.is_empty() {
                errors.extend(validate_resource_quantity_value("storage", &storage, &storage_path));
            } else {
                errors.extend(positive);
            }
        }
    }
    if let Some(class) = opt_text(&spec["storageClassName"]).filter(|c| !c.is_empty()) {
        errors.extend(invalid_each(
            &path.child("storageClassName"),
            class,
            &meta::name_is_dns_subdomain(class, false),
        ));
    }
    if let Some(mode) = opt_text(&spec["volumeMode"])
        && mode != "Block"
        && mode != "Filesystem"
    {
        errors.push(path.child("volumeMode").not_supported(mode, &["Block", "Filesystem"]));
    }
    errors.extend(validate_data_sources(spec, path, options));
    errors
}

/// `validateDataSource`, `validateDataSourceRef` and how the two agree.
fn validate_data_sources(spec: &Value, path: &Path, options: &ClaimOptions) -> ErrorList {
    let mut errors = ErrorList::new();
    for field in ["dataSource", "dataSourceRef"] {
        let source = &spec[field];
        if !is_set(source) {
            continue;
        }
        let source_path = path.child(field);
        for required in ["name", "kind"] {
            if text(&source[required]).is_empty() {
                errors.push(source_path.child(required).required(""));
            }
        }
        let group = text(&source["apiGroup"]);
        let kind = text(&source["kind"]);
        if group.is_empty() && kind != "PersistentVolumeClaim" {
            errors.push(source_path.invalid(
                kind,
                "must be 'PersistentVolumeClaim' when referencing the default apiGroup",
            ));
        }
        if !group.is_empty() && !options.allow_invalid_api_group {
            errors.extend(validate_dns1123_subdomain(group, &source_path.child("apiGroup")));
        }
        let namespace = text(&source["namespace"]);
        if field == "dataSourceRef" && !namespace.is_empty() {
            errors.extend(invalid_each(
                &source_path.child("namespace"),
                namespace,
                &meta::name_is_dns_label(namespace, false),
            ));
        }
    }
    let (source, reference) = (&spec["dataSource"], &spec["dataSourceRef"]);
    let shown = || BadValue::Raw(godump::child_field_path("dataSource"));
    if !text(&reference["namespace"]).is_empty() {
        if is_set(source) {
            errors.push(path.invalid(
                shown(),
                "may not be specified when dataSourceRef.namespace is specified",
            ));
        }
    } else if is_set(source) && is_set(reference) {
        let equal = source["apiGroup"] == reference["apiGroup"]
            && text(&source["kind"]) == text(&reference["kind"])
            && text(&source["name"]) == text(&reference["name"]);
        if !equal {
            errors.push(path.invalid(shown(), "must match dataSourceRef"));
        }
    }
    errors
}

/// `ValidatePersistentVolumeClaimUpdate`'s own rules.
fn validate_claim_update(new: &Value, old: &Value, options: &ClaimOptions) -> ErrorList {
    let meta_path = Path::new("metadata");
    let mut errors = validate_object_meta_update(&new["metadata"], &old["metadata"], &meta_path);
    // `ValidatePersistentVolumeClaimUpdate` validates the whole claim again, after the
    // strategy did: each error of the new claim is reported twice.
    errors.extend(validate_persistent_volume_claim(new, options));
    let (mut new_spec, mut old_spec) = (new["spec"].clone(), old["spec"].clone());
    if text(&old["spec"]["volumeName"]).is_empty()
        && let Some(map) = old_spec.as_object_mut()
    {
        map.insert("volumeName".into(), new["spec"]["volumeName"].clone());
    }
    let beta = "volume.beta.kubernetes.io/storage-class";
    let old_annotations = &old["metadata"]["annotations"];
    let new_annotations = &new["metadata"]["annotations"];
    let old_class = opt_text(&old["spec"]["storageClassName"]);
    let new_class = opt_text(&new["spec"]["storageClassName"]);
    let old_beta = opt_text(&old_annotations[beta]);
    let upgrade_from_annotation = old_beta.is_some()
        && old_class.is_none()
        && new_class.is_some_and(|c| Some(c) == old_beta)
        && opt_text(&new_annotations[beta]).is_none_or(|a| Some(a) == old_beta);
    if upgrade_from_annotation {
        if let Some(map) = new_spec.as_object_mut() {
            map.remove("storageClassName");
        }
    } else {
        let (new_value, old_value) = (
            text(&new_annotations[beta]),
            text(old_annotations.get(beta).unwrap_or(&Value::Null)),
        );
        if new_value != old_value {
            errors.push(
                meta_path
                    .child("annotations")
                    .child(beta)
                    .invalid(new_value, meta::FIELD_IMMUTABLE),
            );
        }
        let upgrade_from_nil =
            new_class.is_some() && old_class.is_none() && old_beta.is_none_or(|b| Some(b) == new_class);
        if upgrade_from_nil && let Some(map) = new_spec.as_object_mut() {
            map.remove("storageClassName");
        }
    }
    let bound = text(&new["status"]["phase"]) == "Bound";
    if bound && is_set(&new_spec["resources"]["requests"]) {
        new_spec["resources"]["requests"]["storage"] = old["spec"]["resources"]["requests"]["storage"].clone();
        if new_spec["resources"]["requests"]["storage"].is_null()
            && let Some(requests) = new_spec["resources"]["requests"].as_object_mut()
        {
            requests.remove("storage");
        }
    }
    if bound && is_set(&new_spec["volumeAttributesClassName"]) {
        new_spec["volumeAttributesClassName"] = old_spec["volumeAttributesClassName"].clone();
    }
    if !same(&new_spec, &old_spec) {
        errors.push(Path::new("spec").forbidden(&format!(
            "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n{}",
            crate::gocmp::diff("core.PersistentVolumeClaimSpec", &old_spec, &new_spec)
        )));
    }
    let new_size = helper::storage_request(&new["spec"]).unwrap_or_else(crate::quantity::Quantity::zero);
    let old_size = helper::storage_request(&old["spec"]).unwrap_or_else(crate::quantity::Quantity::zero);
    if new_size.cmp(&old_size).is_lt() {
        // RecoverVolumeExpansionFailure is beta and on in 1.32: the size may go back
        // down to what the status records.
        let status = old["status"]["capacity"]
            .get("storage")
            .map_or_else(crate::quantity::Quantity::zero, quantity);
        if new_size.cmp(&status).is_le() {
            errors.push(
                Path::new("spec")
                    .child("resources")
                    .child("requests")
                    .child("storage")
                    .forbidden("field can not be less than status.capacity"),
            );
        }
    }
    errors.extend(super::validate_immutable_string(
        &new["spec"]["volumeMode"],
        &old["spec"]["volumeMode"],
        &Path::new("volumeMode"),
    ));
    if !same(
        &new["spec"]["volumeAttributesClassName"],
        &old["spec"]["volumeAttributesClassName"],
    ) {
        errors.push(
            Path::new("spec")
                .child("volumeAttributesClassName")
                .forbidden("update is forbidden when the VolumeAttributesClass feature gate is disabled"),
        );
    }
    errors
}

/// `ValidatePersistentVolumeClaimStatusUpdate`.
fn validate_claim_status_update(new: &Value, old: &Value) -> ErrorList {
    const STATUSES: &[&str] = &[
        "ControllerResizeInProgress",
        "ControllerResizeInfeasible",
        "NodeResizeInProgress",
        "NodeResizeInfeasible",
        "NodeResizePending",
    ];
    let mut errors = validate_object_meta_update(&new["metadata"], &old["metadata"], &Path::new("metadata"));
    if items(&new["spec"]["accessModes"]).is_empty() {
        errors.push(Path::from_parts(&["Spec", "accessModes"]).required(""));
    }
    let capacity_path = Path::new("status").child("capacity");
    for (resource, value) in entries(&new["status"]["capacity"]) {
        errors.extend(validate_basic_resource(&quantity(value), &capacity_path.key(resource)));
    }
    let statuses_path = Path::new("status").child("allocatedResourceStatus");
    for (resource, status) in entries(&new["status"]["allocatedResourceStatuses"]) {
        errors.extend(validate_claim_resource_key(resource, &statuses_path));
        if !STATUSES.contains(&text(status)) {
            errors.push(statuses_path.not_supported(super::resources::resource_name(resource), STATUSES));
        }
    }
    let allocated_path = Path::new("status").child("allocatedResources");
    for (resource, value) in entries(&new["status"]["allocatedResources"]) {
        let key_errors = validate_claim_resource_key(resource, &allocated_path);
        if !key_errors.is_empty() {
            errors.extend(key_errors);
            continue;
        }
        let value = quantity(value);
        let basic = validate_basic_resource(&value, &allocated_path.key(resource));
        if basic.is_empty() {
            errors.extend(validate_resource_quantity_value(
                "storage",
                &value,
                &allocated_path.key(resource),
            ));
        } else {
            errors.extend(basic);
        }
    }
    errors
}

/// `validatePersistentVolumeClaimResourceKey`.
fn validate_claim_resource_key(key: &str, path: &Path) -> ErrorList {
    let errors = invalid_each(path, key, &crate::util::is_qualified_name(key));
    if !errors.is_empty() {
        return errors;
    }
    if helper::is_native_resource(key) && key != "storage" {
        return vec![path.not_supported(key, &["storage"])];
    }
    ErrorList::new()
}

const ACCESS_MODES: &[&str] = &["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"];

/// Access modes: at least one, each known, `ReadWriteOncePod` alone.
pub(super) fn validate_access_modes(modes: &Value, path: &Path, required_detail: &str) -> ErrorList {
    let modes = strings(modes);
    let mut errors = ErrorList::new();
    if modes.is_empty() {
        errors.push(path.required(required_detail));
    }
    let (mut once_pod, mut others) = (false, false);
    for mode in &modes {
        if !ACCESS_MODES.contains(mode) {
            errors.push(path.not_supported(*mode, ACCESS_MODES));
        }
        if *mode == "ReadWriteOncePod" {
            once_pod = true;
        } else if ACCESS_MODES.contains(mode) {
            others = true;
        }
    }
    if once_pod && others {
        errors.push(path.forbidden("may not use ReadWriteOncePod with other access modes"));
    }
    errors
}
