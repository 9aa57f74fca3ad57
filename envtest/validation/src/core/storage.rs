//! persistent volumes (`ValidatePersistentVolumeSpec` with the sources only volumes
//! have, the update and status rules) and persistent volume claims
//! (`ValidatePersistentVolumeClaimSpec`, `ValidatePersistentVolumeClaimUpdate`: a
//! claim's spec is fixed but for its size while bound, its status rules), and the
//! claim templates of ephemeral volumes.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use super::helper;
use super::resources::{validate_basic_resource, validate_resource_quantity_value};
use super::volume::{self, required_list, required_text, validate_csi_driver_name, validate_path_no_backsteps};
use super::{
    invalid_each, number, quantity, validate_dns1123_label, validate_dns1123_subdomain, validate_object_meta,
    validate_object_meta_update, validate_positive_quantity_value,
};
use crate::field::{BadValue, ErrorList, Path};
use crate::json::{entries, int, is_set, items, len_map, opt_text, same, strings, text};
use crate::meta::{self, SelectorOptions};
use crate::{Write, godump};

const ACCESS_MODES: &[&str] = &["ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"];
const MORE_THAN_ONE: &str = "may not specify more than 1 volume type";

/// A persistent volume written as `write` says.
pub(super) fn validate_volume(volume: &Value, write: Write) -> ErrorList {
    match write {
        Write::Create => validate_persistent_volume(volume),
        Write::Subresource { name: "status", old } => {
            validate_object_meta_update(&volume["metadata"], &old["metadata"], &Path::new("metadata"))
        }
        Write::Update { old } | Write::Subresource { old, .. } => {
            let mut errors = validate_persistent_volume(volume);
            errors.extend(validate_persistent_volume_update(volume, old));
            errors
        }
    }
}

/// `ValidatePersistentVolume`.
fn validate_persistent_volume(volume: &Value) -> ErrorList {
    let mut errors = validate_object_meta(
        &volume["metadata"],
        false,
        meta::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    errors.extend(validate_persistent_volume_spec(
        &volume["spec"],
        text(&volume["metadata"]["name"]),
        &Path::new("spec"),
    ));
    errors
}

/// Access modes: at least one, each known, `ReadWriteOncePod` alone.
fn validate_access_modes(modes: &Value, path: &Path, required_detail: &str) -> ErrorList {
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

/// `ValidatePersistentVolumeSpec` (not inline).
fn validate_persistent_volume_spec(spec: &Value, name: &str, path: &Path) -> ErrorList {
    let mut errors = validate_access_modes(&spec["accessModes"], &path.child("accessModes"), "");
    let capacity = &spec["capacity"];
    let capacity_path = path.child("capacity");
    if len_map(capacity) == 0 {
        errors.push(capacity_path.required(""));
    }
    if capacity.get("storage").is_none() || len_map(capacity) > 1 {
        errors.push(capacity_path.not_supported(godump::raw(godump::resource_list(capacity)), &["storage"]));
    }
    for (resource, value) in entries(capacity) {
        let value = quantity(value);
        errors.extend(validate_basic_resource(&value, &capacity_path.key(resource)));
        errors.extend(validate_positive_quantity_value(&value, &capacity_path.key(resource)));
    }
    let reclaim = text(&spec["persistentVolumeReclaimPolicy"]);
    if !reclaim.is_empty() && !["Delete", "Recycle", "Retain"].contains(&reclaim) {
        errors.push(
            path.child("persistentVolumeReclaimPolicy")
                .not_supported(reclaim, &["Delete", "Recycle", "Retain"]),
        );
    }
    let node_affinity = &spec["nodeAffinity"];
    if is_set(node_affinity) {
        if is_set(&node_affinity["required"]) {
            errors.extend(super::pod_spec::validate_node_selector(
                &node_affinity["required"],
                &path.child("nodeAffinity").child("required"),
            ));
        } else {
            errors.push(
                path.child("nodeAffinity")
                    .child("required")
                    .required("must specify required node constraints"),
            );
        }
    }
    errors.extend(validate_volume_sources(spec, name, path, is_set(node_affinity)));
    let host = text(&spec["hostPath"]["path"]);
    if is_set(&spec["hostPath"]) && clean_is_root(host) && reclaim == "Recycle" {
        errors.push(
            path.child("persistentVolumeReclaimPolicy")
                .forbidden("may not be 'recycle' for a hostPath mount of '/'"),
        );
    }
    let class = text(&spec["storageClassName"]);
    if !class.is_empty() {
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
    errors
}

/// Whether `path.Clean` of `host` is `/`.
fn clean_is_root(host: &str) -> bool {
    host.starts_with('/') && host.split('/').all(|part| part.is_empty() || part == ".")
}

type VolumeCheck = fn(&Value, &Path, &str) -> ErrorList;

/// The volume sources a persistent volume may use, in `ValidatePersistentVolumeSpec`'s
/// order: the JSON field, the name the "more than one" error uses, the path the check
/// uses, the check.
const SOURCES: &[(&str, &str, &str, VolumeCheck)] = &[
    ("hostPath", "hostPath", "hostPath", |s, p, _| volume::host_path(s, p)),
    ("gcePersistentDisk", "gcePersistentDisk", "persistentDisk", |s, p, _| {
        volume::gce_persistent_disk(s, p)
    }),
    (
        "awsElasticBlockStore",
        "awsElasticBlockStore",
        "awsElasticBlockStore",
        |s, p, _| volume::aws_elastic_block_store(s, p),
    ),
    ("glusterfs", "glusterfs", "glusterfs", |s, p, _| glusterfs(s, p)),
    ("flocker", "flocker", "flocker", |s, p, _| volume::flocker(s, p)),
    ("nfs", "nfs", "nfs", |s, p, _| volume::nfs(s, p)),
    ("rbd", "rbd", "rbd", |s, p, _| {
        let mut errors = required_list(s, "monitors", p);
        errors.extend(required_text(s, "image", p));
        errors
    }),
    ("quobyte", "quobyte", "quobyte", |s, p, _| volume::quobyte(s, p)),
    ("cephfs", "cephFS", "cephfs", |s, p, _| required_list(s, "monitors", p)),
    ("iscsi", "iscsi", "iscsi", iscsi),
    ("cinder", "cinder", "cinder", |s, p, _| {
        secret_reference_source(s, p, "volumeID")
    }),
    ("fc", "fc", "fc", |s, p, _| volume::fc(s, p)),
    ("flexVolume", "", "flexVolume", |s, p, _| volume::flex(s, p)),
    ("azureFile", "azureFile", "azureFile", |s, p, _| azure_file(s, p)),
    ("vsphereVolume", "vsphereVolume", "vsphereVolume", |s, p, _| {
        required_text(s, "volumePath", p)
    }),
    (
        "photonPersistentDisk",
        "photonPersistentDisk",
        "photonPersistentDisk",
        |s, p, _| required_text(s, "pdID", p),
    ),
    ("portworxVolume", "portworxVolume", "portworxVolume", |s, p, _| {
        required_text(s, "volumeID", p)
    }),
    ("azureDisk", "azureDisk", "azureDisk", |s, p, _| {
        volume::azure_disk(s, p)
    }),
    ("scaleIO", "scaleIO", "scaleIO", |s, p, _| {
        let mut errors = required_text(s, "gateway", p);
        errors.extend(required_text(s, "system", p));
        errors.extend(required_text(s, "volumeName", p));
        errors
    }),
    ("local", "local", "local", |s, p, _| {
        let local = text(&s["path"]);
        if local.is_empty() {
            vec![p.child("path").required("")]
        } else {
            validate_path_no_backsteps(local, &p.child("path"))
        }
    }),
    ("storageos", "storageos", "storageos", |s, p, _| storage_os(s, p)),
    ("csi", "csi", "csi", |s, p, _| csi(s, p)),
];

/// The one volume source of a persistent volume.
fn validate_volume_sources(spec: &Value, name: &str, path: &Path, node_affinity: bool) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut count = 0;
    for (field, forbidden_name, check_name, check) in SOURCES {
        let source = &spec[*field];
        if !is_set(source) {
            continue;
        }
        // Flex volumes are counted but never refused as a second source.
        if count > 0 && !forbidden_name.is_empty() {
            errors.push(path.child(forbidden_name).forbidden(MORE_THAN_ONE));
            continue;
        }
        count += 1;
        errors.extend(check(source, &path.child(check_name), name));
        if *field == "local" && !node_affinity {
            errors.push(
                path.child("nodeAffinity")
                    .required("Local volume requires node affinity"),
            );
        }
    }
    if count == 0 {
        errors.push(path.required("must specify a volume type"));
    }
    errors
}

fn glusterfs(source: &Value, path: &Path) -> ErrorList {
    let mut errors = required_text(source, "endpoints", path);
    errors.extend(required_text(source, "path", path));
    if let Some(namespace) = opt_text(&source["endpointsNamespace"]) {
        let namespace_path = path.child("endpointsNamespace");
        if namespace.is_empty() {
            errors.push(namespace_path.invalid(
                namespace,
                "if the endpointnamespace is set, it must be a valid namespace name",
            ));
        } else {
            errors.extend(invalid_each(
                &namespace_path,
                namespace,
                &meta::name_is_dns_label(namespace, false),
            ));
        }
    }
    errors
}

/// `validateISCSIPersistentVolumeSource`.
fn iscsi(source: &Value, path: &Path, name: &str) -> ErrorList {
    let mut errors = required_text(source, "targetPortal", path);
    let portal = text(&source["targetPortal"]);
    if is_set(&source["initiatorName"]) && name.len() + 1 + portal.len() > 64 {
        errors.push(path.child("targetportal").invalid(
            portal,
            "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.",
        ));
    }
    let iqn = text(&source["iqn"]);
    if iqn.is_empty() {
        errors.push(path.child("iqn").required(""));
    } else if !(iqn.starts_with("iqn") || iqn.starts_with("eui") || iqn.starts_with("naa"))
        || volume::bad_iscsi_name(iqn)
    {
        errors.push(path.child("iqn").invalid(iqn, "must be valid format"));
    }
    let lun = int(&source["lun"]);
    if !(0..=255).contains(&lun) {
        errors.push(
            path.child("lun")
                .invalid(number(lun), &crate::util::inclusive_range_error(0, 255)),
        );
    }
    let chap = source["chapAuthDiscovery"] == true || source["chapAuthSession"] == true;
    if chap && !is_set(&source["secretRef"]) {
        errors.push(path.child("secretRef").required(""));
    }
    if is_set(&source["secretRef"]) && text(&source["secretRef"]["name"]).is_empty() {
        errors.push(path.child("secretRef").child("name").required(""));
    }
    if let Some(initiator) = opt_text(&source["initiatorName"]) {
        let prefixed = initiator.starts_with("iqn") || initiator.starts_with("eui") || initiator.starts_with("naa");
        if !prefixed {
            errors.push(path.child("initiatorname").invalid(initiator, "must be valid format"));
        }
        if volume::bad_iscsi_name(initiator) {
            errors.push(path.child("initiatorname").invalid(initiator, "must be valid format"));
        }
    }
    errors
}

/// A source with an id and an optional secret reference that needs a name and a
/// namespace (`validateCinderPersistentVolumeSource`).
fn secret_reference_source(source: &Value, path: &Path, id: &str) -> ErrorList {
    let mut errors = required_text(source, id, path);
    let secret = &source["secretRef"];
    if is_set(secret) {
        for field in ["name", "namespace"] {
            if text(&secret[field]).is_empty() {
                errors.push(path.child("secretRef").child(field).required(""));
            }
        }
    }
    errors
}

fn azure_file(source: &Value, path: &Path) -> ErrorList {
    let mut errors = required_text(source, "secretName", path);
    errors.extend(required_text(source, "shareName", path));
    if opt_text(&source["secretNamespace"]).is_some_and(str::is_empty) {
        errors.push(path.child("secretNamespace").required(""));
    }
    errors
}

fn storage_os(source: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let name = text(&source["volumeName"]);
    if name.is_empty() {
        errors.push(path.child("volumeName").required(""));
    } else {
        errors.extend(validate_dns1123_label(name, &path.child("volumeName")));
    }
    let namespace = text(&source["volumeNamespace"]);
    if !namespace.is_empty() {
        errors.extend(validate_dns1123_label(namespace, &path.child("volumeNamespace")));
    }
    let secret = &source["secretRef"];
    if is_set(secret) {
        for field in ["name", "namespace"] {
            if text(&secret[field]).is_empty() {
                errors.push(path.child("secretRef").child(field).required(""));
            }
        }
    }
    errors
}

/// `validateCSIPersistentVolumeSource`.
fn csi(source: &Value, path: &Path) -> ErrorList {
    let mut errors = validate_csi_driver_name(text(&source["driver"]), &path.child("driver"));
    if text(&source["volumeHandle"]).is_empty() {
        errors.push(path.child("volumeHandle").required(""));
    }
    for field in [
        "controllerPublishSecretRef",
        "controllerExpandSecretRef",
        "nodePublishSecretRef",
        "nodeExpandSecretRef",
    ] {
        let secret = &source[field];
        if !is_set(secret) {
            continue;
        }
        let secret_path = path.child(field);
        let name = text(&secret["name"]);
        if name.is_empty() {
            errors.push(secret_path.child("name").required(""));
        } else {
            errors.extend(validate_dns1123_subdomain(name, &secret_path.child("name")));
        }
        let namespace = text(&secret["namespace"]);
        if namespace.is_empty() {
            errors.push(secret_path.child("namespace").required(""));
        } else {
            errors.extend(validate_dns1123_label(namespace, &secret_path.child("namespace")));
        }
    }
    errors
}

/// `ValidatePersistentVolumeUpdate`'s own rules: the source and volume mode fixed,
/// node affinity set once.
fn validate_persistent_volume_update(new: &Value, old: &Value) -> ErrorList {
    let mut errors = ErrorList::new();
    let source = |spec: &Value, keep_expand_secret: bool| -> Value {
        let mut source: Map<String, Value> = SOURCES
            .iter()
            .filter(|(field, ..)| is_set(&spec[*field]))
            .map(|(field, ..)| ((*field).to_owned(), spec[*field].clone()))
            .collect();
        if !keep_expand_secret && let Some(csi) = source.get_mut("csi").and_then(Value::as_object_mut) {
            csi.remove("controllerExpandSecretRef");
        }
        Value::Object(source)
    };
    let adds_expand_secret = is_set(&old["spec"]["csi"])
        && !is_set(&old["spec"]["csi"]["controllerExpandSecretRef"])
        && is_set(&new["spec"]["csi"]["controllerExpandSecretRef"]);
    let (before, after) = (source(&old["spec"], true), source(&new["spec"], !adds_expand_secret));
    if !same(&after, &before) {
        errors.push(Path::new("spec").child("persistentvolumesource").forbidden(&format!(
            "spec.persistentvolumesource is immutable after creation\n{}",
            diff(&before, &after)
        )));
    }
    errors.extend(super::validate_immutable_string(
        &new["spec"]["volumeMode"],
        &old["spec"]["volumeMode"],
        &Path::new("volumeMode"),
    ));
    let old_affinity = &old["spec"]["nodeAffinity"];
    if is_set(old_affinity) && !same(&new["spec"]["nodeAffinity"], old_affinity) {
        errors.push(Path::new("nodeAffinity").invalid(
            BadValue::Json(new["spec"]["nodeAffinity"].clone()),
            "field is immutable, except for updating from beta label to GA",
        ));
    }
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
    let shown = || BadValue::Raw(path.child("dataSource").as_str().to_owned());
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
fn validate_claim_update(new: &Value, old: &Value, _options: &ClaimOptions) -> ErrorList {
    let meta_path = Path::new("metadata");
    let mut errors = validate_object_meta_update(&new["metadata"], &old["metadata"], &meta_path);
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
            diff(&old_spec, &new_spec)
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

/// A diff of two specs in `cmp.Diff`'s shape (see `pod_update`).
fn diff(old: &Value, new: &Value) -> String {
    let mut out = String::from("  {\n");
    let mut fields: Vec<&String> = old.as_object().into_iter().flat_map(Map::keys).collect();
    fields.extend(new.as_object().into_iter().flat_map(Map::keys));
    fields.sort();
    fields.dedup();
    for field in fields {
        let (before, after) = (&old[field.as_str()], &new[field.as_str()]);
        if !same(before, after) {
            let _ = write!(
                out,
                "- \t{field}: {},\n+ \t{field}: {},\n",
                godump::quote(&before.to_string()),
                godump::quote(&after.to_string())
            );
        }
    }
    out.push_str("  }\n");
    out
}
