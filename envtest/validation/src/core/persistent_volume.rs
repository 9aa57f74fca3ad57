//! Persistent volumes (`ValidatePersistentVolume`, `ValidatePersistentVolumeSpec` with
//! the sources only persistent volumes have, `ValidatePersistentVolumeUpdate` and the
//! status rules). Claims are in `claim`, the sources shared with pods in `sources`.

use serde_json::{Map, Value};

use super::claim::validate_access_modes;
use super::paths::validate_path_no_backsteps;
use super::resources::validate_basic_resource;
use super::scheduling::validate_node_selector;
use super::sources::{self, required_list, required_text, validate_csi_driver_name};
use super::{
    invalid_each, number, quantity, validate_dns1123_label, validate_dns1123_subdomain, validate_object_meta,
    validate_object_meta_update, validate_positive_quantity_value,
};
use crate::field::{BadValue, ErrorList, Path};
use crate::json::{entries, int, is_set, len_map, opt_text, same, text};
use crate::meta::{self};
use crate::{Write, godump};

const MORE_THAN_ONE: &str = "may not specify more than 1 volume type";

/// A persistent volume written as `write` says.
pub(super) fn validate_volume(volume: &Value, write: Write) -> ErrorList {
    match write {
        Write::Create => {
            let mut errors = validate_persistent_volume(volume);
            errors.extend(check_mount_option(volume));
            errors
        }
        Write::Subresource { name: "status", old } => {
            validate_object_meta_update(&volume["metadata"], &old["metadata"], &Path::new("metadata"))
        }
        Write::Update { old } | Write::Subresource { old, .. } => {
            // The strategy's `ValidateUpdate`: the volume and its mount options, then
            // `ValidatePersistentVolumeUpdate`, which validates the volume again.
            let mut errors = validate_persistent_volume(volume);
            errors.extend(check_mount_option(volume));
            errors.extend(validate_persistent_volume(volume));
            errors.extend(validate_persistent_volume_update(volume, old));
            errors
        }
    }
}

/// The sources whose volumes take mount options (`checkMountOption`).
const MOUNTABLE: &[&str] = &[
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "glusterfs",
    "nfs",
    "rbd",
    "quobyte",
    "iscsi",
    "cinder",
    "cephfs",
    "azureFile",
    "vsphereVolume",
    "azureDisk",
    "photonPersistentDisk",
];

/// `pkg/volume/validation.ValidatePersistentVolume` (`checkMountOption`): the beta
/// mount-options annotation only on a volume of a source that takes them.
fn check_mount_option(volume: &Value) -> ErrorList {
    const ANNOTATION: &str = "volume.beta.kubernetes.io/mount-options";
    let mut errors = ErrorList::new();
    let spec = &volume["spec"];
    if MOUNTABLE.iter().any(|source| !spec[*source].is_null()) {
        return errors;
    }
    if volume["metadata"]["annotations"].get(ANNOTATION).is_some() {
        errors.push(
            Path::from_parts(&["metadata", "annotations", ANNOTATION])
                .forbidden("may not specify mount options for this volume type"),
        );
    }
    errors
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
            errors.extend(validate_node_selector(
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
    ("hostPath", "hostPath", "hostPath", |s, p, _| sources::host_path(s, p)),
    ("gcePersistentDisk", "gcePersistentDisk", "persistentDisk", |s, p, _| {
        sources::gce_persistent_disk(s, p)
    }),
    (
        "awsElasticBlockStore",
        "awsElasticBlockStore",
        "awsElasticBlockStore",
        |s, p, _| sources::aws_elastic_block_store(s, p),
    ),
    ("glusterfs", "glusterfs", "glusterfs", |s, p, _| glusterfs(s, p)),
    ("flocker", "flocker", "flocker", |s, p, _| sources::flocker(s, p)),
    ("nfs", "nfs", "nfs", |s, p, _| sources::nfs(s, p)),
    ("rbd", "rbd", "rbd", |s, p, _| {
        let mut errors = required_list(s, "monitors", p);
        errors.extend(required_text(s, "image", p));
        errors
    }),
    ("quobyte", "quobyte", "quobyte", |s, p, _| sources::quobyte(s, p)),
    ("cephfs", "cephFS", "cephfs", |s, p, _| required_list(s, "monitors", p)),
    ("iscsi", "iscsi", "iscsi", iscsi),
    ("cinder", "cinder", "cinder", |s, p, _| {
        secret_reference_source(s, p, "volumeID")
    }),
    ("fc", "fc", "fc", |s, p, _| sources::fc(s, p)),
    ("flexVolume", "", "flexVolume", |s, p, _| sources::flex(s, p)),
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
        sources::azure_disk(s, p)
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
        || sources::bad_iscsi_name(iqn)
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
        if sources::bad_iscsi_name(initiator) {
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
            crate::gocmp::diff("core.PersistentVolumeSource", &before, &after)
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
