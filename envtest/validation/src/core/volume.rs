//! Pod volumes (`ValidateVolumes`, `validateVolumeSource` and each source in the form a
//! pod gives it), and how containers mount them (`ValidateVolumeMounts`,
//! `ValidateVolumeDevices`). The sources pods share with persistent volumes are in
//! `sources`, the local paths volumes name in `paths`.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::claim::validate_claim_template;
use super::downward::downward_api_file;
use super::options::PodOptions;
use super::paths::{validate_local_descending_path, validate_path_no_backsteps};
use super::sources::{
    aws_elastic_block_store, azure_disk, bad_iscsi_name, fc, file_mode, flex, flocker, gce_persistent_disk,
    has_iscsi_prefix, host_path, key_to_path, nfs, quobyte, required_list, required_text, validate_csi_driver_name,
};
use super::{number, validate_dns1123_label};
use crate::field::{ErrorList, Path};
use crate::godump;
use crate::json::{int, is_set, items, opt_text, text};
use crate::meta;
use crate::util::inclusive_range_error;

const MORE_THAN_ONE: &str = "may not specify more than 1 volume type";

/// The volumes a pod declares by name, for its containers' mounts.
pub(crate) type Volumes<'a> = BTreeMap<String, &'a Value>;

/// A volume source's check: the source, its path, the volume's name and the pod's
/// metadata (for ephemeral volumes' claim names).
type SourceCheck = fn(&Value, &Path, &Context) -> ErrorList;

/// What a source's check may need beside the source.
pub(crate) struct Context<'a> {
    pub volume_name: &'a str,
    pub pod_name: Option<&'a str>,
    pub options: &'a PodOptions,
}

/// The pod volume sources in `validateVolumeSource`'s order: the JSON field, the name
/// the "more than one" error uses, the path the source's own check uses, the check.
const SOURCES: &[(&str, &str, &str, SourceCheck)] = &[
    ("emptyDir", "emptyDir", "emptyDir", empty_dir),
    ("hostPath", "hostPath", "hostPath", |s, p, _| host_path(s, p)),
    ("gitRepo", "gitRepo", "gitRepo", |s, p, _| git_repo(s, p)),
    ("gcePersistentDisk", "gcePersistentDisk", "persistentDisk", |s, p, _| {
        gce_persistent_disk(s, p)
    }),
    (
        "awsElasticBlockStore",
        "awsElasticBlockStore",
        "awsElasticBlockStore",
        |s, p, _| aws_elastic_block_store(s, p),
    ),
    ("secret", "secret", "secret", |s, p, _| secret(s, p)),
    ("nfs", "nfs", "nfs", |s, p, _| nfs(s, p)),
    ("iscsi", "iscsi", "iscsi", |s, p, _| iscsi(s, p)),
    ("glusterfs", "glusterfs", "glusterfs", |s, p, _| glusterfs(s, p)),
    ("flocker", "flocker", "flocker", |s, p, _| flocker(s, p)),
    (
        "persistentVolumeClaim",
        "persistentVolumeClaim",
        "persistentVolumeClaim",
        |s, p, _| required_text(s, "claimName", p),
    ),
    ("rbd", "rbd", "rbd", |s, p, _| rbd(s, p)),
    ("cinder", "cinder", "cinder", |s, p, _| cinder(s, p)),
    ("cephfs", "cephFS", "cephfs", |s, p, _| required_list(s, "monitors", p)),
    ("quobyte", "quobyte", "quobyte", |s, p, _| quobyte(s, p)),
    ("downwardAPI", "downwarAPI", "downwardAPI", downward_api),
    ("fc", "fc", "fc", |s, p, _| fc(s, p)),
    ("flexVolume", "flexVolume", "flexVolume", |s, p, _| flex(s, p)),
    ("configMap", "configMap", "configMap", |s, p, _| config_map(s, p)),
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
    ("azureDisk", "azureDisk", "azureDisk", |s, p, _| azure_disk(s, p)),
    ("storageos", "storageos", "storageos", |s, p, _| storage_os(s, p)),
    ("projected", "projected", "projected", projected),
    ("scaleIO", "scaleIO", "scaleIO", |s, p, _| scale_io(s, p)),
    ("csi", "csi", "csi", |s, p, _| csi(s, p)),
    ("ephemeral", "ephemeral", "ephemeral", |s, p, _| ephemeral(s, p)),
];

/// `ValidateVolumes`: each volume named (a DNS label, once) with exactly one valid
/// source; the volumes by name, for the containers' mounts.
pub(crate) fn validate_volumes<'a>(
    volumes: &'a Value,
    pod_name: Option<&str>,
    path: &Path,
    options: &PodOptions,
) -> (Volumes<'a>, ErrorList) {
    let mut errors = ErrorList::new();
    let mut by_name = Volumes::new();
    let mut created_claims = BTreeSet::new();
    if let Some(pod) = pod_name.filter(|p| !p.is_empty()) {
        for volume in items(volumes) {
            if is_set(&volume["ephemeral"]) {
                created_claims.insert(format!("{pod}-{}", text(&volume["name"])));
            }
        }
    }
    for (index, volume) in items(volumes).iter().enumerate() {
        let item_path = path.index(index);
        let name_path = item_path.child("name");
        let name = text(&volume["name"]);
        let context = Context {
            volume_name: name,
            pod_name,
            options,
        };
        let mut found = validate_volume_source(volume, &item_path, &context);
        if name.is_empty() {
            found.push(name_path.required(""));
        } else {
            found.extend(validate_dns1123_label(name, &name_path));
        }
        if by_name.contains_key(name) {
            found.push(name_path.duplicate(name));
        }
        if found.is_empty() {
            by_name.insert(name.to_owned(), volume);
        } else {
            errors.extend(found);
        }
        let claim = &volume["persistentVolumeClaim"];
        if is_set(claim) && created_claims.contains(text(&claim["claimName"])) {
            errors.push(item_path.child("persistentVolumeClaim").child("claimName").invalid(
                text(&claim["claimName"]),
                "must not reference a PVC that gets created for an ephemeral volume",
            ));
        }
    }
    (by_name, errors)
}

/// `validateVolumeSource`: exactly one source, each checked by its own rules.
fn validate_volume_source(source: &Value, path: &Path, context: &Context) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut count = 0;
    for (field, forbidden_name, check_name, check) in SOURCES {
        let value = &source[*field];
        if !is_set(value) {
            continue;
        }
        if count > 0 {
            errors.push(path.child(forbidden_name).forbidden(MORE_THAN_ONE));
        } else {
            count += 1;
            errors.extend(check(value, &path.child(check_name), context));
            if *field == "ephemeral" {
                errors.extend(ephemeral_claim_name(path, context));
            }
        }
        if *field == "iscsi" && is_set(&value["initiatorName"]) {
            let portal = text(&value["targetPortal"]);
            if context.volume_name.len() + 1 + portal.len() > 64 {
                errors.push(path.child("name").invalid(
                    context.volume_name,
                    "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.",
                ));
            }
        }
    }
    // `image` volumes need the ImageVolume feature, off in 1.32: the field is dropped.
    if count == 0 {
        errors.push(path.required("must specify a volume type"));
    }
    errors
}

/// The claim an ephemeral volume creates is named `<pod>-<volume>`, a DNS subdomain.
fn ephemeral_claim_name(path: &Path, context: &Context) -> ErrorList {
    let (Some(pod), volume) = (context.pod_name.filter(|p| !p.is_empty()), context.volume_name) else {
        return ErrorList::new();
    };
    if volume.is_empty() {
        return ErrorList::new();
    }
    let claim = format!("{pod}-{volume}");
    meta::name_is_dns_subdomain(&claim, false)
        .iter()
        .map(|message| {
            path.child("name")
                .invalid(volume, &format!("PVC name {}: {message}", godump::quote(&claim)))
        })
        .collect()
}

fn empty_dir(source: &Value, path: &Path, _: &Context) -> ErrorList {
    let limit = &source["sizeLimit"];
    if is_set(limit) && super::quantity(limit).sign() < 0 {
        return vec![
            path.child("sizeLimit")
                .forbidden("SizeLimit field must be a valid resource quantity"),
        ];
    }
    ErrorList::new()
}

fn git_repo(source: &Value, path: &Path) -> ErrorList {
    let mut errors = required_text(source, "repository", path);
    errors.extend(validate_local_descending_path(
        text(&source["directory"]),
        &path.child("directory"),
    ));
    errors
}

fn iscsi(source: &Value, path: &Path) -> ErrorList {
    let mut errors = required_text(source, "targetPortal", path);
    let iqn = text(&source["iqn"]);
    if iqn.is_empty() {
        errors.push(path.child("iqn").required(""));
    } else if !has_iscsi_prefix(iqn) {
        errors.push(
            path.child("iqn")
                .invalid(iqn, "must be valid format starting with iqn, eui, or naa"),
        );
    } else if bad_iscsi_name(iqn) {
        errors.push(path.child("iqn").invalid(iqn, "must be valid format"));
    }
    let lun = int(&source["lun"]);
    if !(0..=255).contains(&lun) {
        errors.push(path.child("lun").invalid(number(lun), &inclusive_range_error(0, 255)));
    }
    let chap = source["chapAuthDiscovery"] == true || source["chapAuthSession"] == true;
    if chap && !is_set(&source["secretRef"]) {
        errors.push(path.child("secretRef").required(""));
    }
    if let Some(initiator) = opt_text(&source["initiatorName"]) {
        if !has_iscsi_prefix(initiator) {
            errors.push(
                path.child("initiatorname")
                    .invalid(initiator, "must be valid format starting with iqn, eui, or naa"),
            );
        }
        if bad_iscsi_name(initiator) {
            errors.push(path.child("initiatorname").invalid(initiator, "must be valid format"));
        }
    }
    errors
}

fn secret(source: &Value, path: &Path) -> ErrorList {
    let mut errors = required_text(source, "secretName", path);
    errors.extend(file_mode(source, "defaultMode", path));
    for (index, item) in items(&source["items"]).iter().enumerate() {
        errors.extend(key_to_path(item, &path.child("items").index(index)));
    }
    errors
}

fn config_map(source: &Value, path: &Path) -> ErrorList {
    let mut errors = required_text(source, "name", path);
    errors.extend(file_mode(source, "defaultMode", path));
    for (index, item) in items(&source["items"]).iter().enumerate() {
        errors.extend(key_to_path(item, &path.child("items").index(index)));
    }
    errors
}

fn glusterfs(source: &Value, path: &Path) -> ErrorList {
    let mut errors = required_text(source, "endpoints", path);
    errors.extend(required_text(source, "path", path));
    errors
}

fn rbd(source: &Value, path: &Path) -> ErrorList {
    let mut errors = required_list(source, "monitors", path);
    errors.extend(required_text(source, "image", path));
    errors
}

fn cinder(source: &Value, path: &Path) -> ErrorList {
    let mut errors = required_text(source, "volumeID", path);
    if is_set(&source["secretRef"]) && text(&source["secretRef"]["name"]).is_empty() {
        errors.push(path.child("secretRef").child("name").required(""));
    }
    errors
}

fn azure_file(source: &Value, path: &Path) -> ErrorList {
    let mut errors = required_text(source, "secretName", path);
    errors.extend(required_text(source, "shareName", path));
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
    if is_set(&source["secretRef"]) && text(&source["secretRef"]["name"]).is_empty() {
        errors.push(path.child("secretRef").child("name").required(""));
    }
    errors
}

fn scale_io(source: &Value, path: &Path) -> ErrorList {
    let mut errors = required_text(source, "gateway", path);
    errors.extend(required_text(source, "system", path));
    errors.extend(required_text(source, "volumeName", path));
    errors
}

fn csi(source: &Value, path: &Path) -> ErrorList {
    let mut errors = validate_csi_driver_name(text(&source["driver"]), &path.child("driver"));
    let secret = &source["nodePublishSecretRef"];
    if is_set(secret) {
        let name = text(&secret["name"]);
        if name.is_empty() {
            errors.push(path.child("nodePublishSecretRef").child("name").required(""));
        } else {
            errors.extend(super::invalid_each(
                &path.child("name"),
                name,
                &meta::name_is_dns_subdomain(name, false),
            ));
        }
    }
    errors
}

fn ephemeral(source: &Value, path: &Path) -> ErrorList {
    let template = &source["volumeClaimTemplate"];
    if !is_set(template) {
        return vec![path.child("volumeClaimTemplate").required("")];
    }
    validate_claim_template(template, &path.child("volumeClaimTemplate"))
}

fn downward_api(source: &Value, path: &Path, _: &Context) -> ErrorList {
    let mut errors = file_mode(source, "defaultMode", path);
    for file in items(&source["items"]) {
        errors.extend(downward_api_file(file, path));
    }
    errors
}

fn projected(source: &Value, path: &Path, context: &Context) -> ErrorList {
    let mut errors = file_mode(source, "defaultMode", path);
    errors.extend(super::projected::validate_projection_sources(
        source,
        path,
        context.options,
    ));
    errors
}

/// `ValidateVolumeMounts`.
pub(crate) fn validate_volume_mounts(
    mounts: &Value,
    devices: &BTreeMap<String, String>,
    volumes: &Volumes,
    container: Option<&Value>,
    path: &Path,
) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut mount_points = BTreeSet::new();
    for (index, mount) in items(mounts).iter().enumerate() {
        let item_path = path.index(index);
        let name = text(&mount["name"]);
        let mount_path = text(&mount["mountPath"]);
        if name.is_empty() {
            errors.push(item_path.child("name").required(""));
        }
        if !volumes.contains_key(name) {
            errors.push(item_path.child("name").not_found(name));
        }
        if mount_path.is_empty() {
            errors.push(item_path.child("mountPath").required(""));
        }
        if !mount_points.insert(mount_path) {
            errors.push(item_path.child("mountPath").invalid(mount_path, "must be unique"));
        }
        if devices.contains_key(name) {
            errors.push(
                item_path
                    .child("name")
                    .invalid(name, "must not already exist in volumeDevices"),
            );
        }
        if devices.values().any(|device| device == mount_path) {
            errors.push(
                item_path
                    .child("mountPath")
                    .invalid(mount_path, "must not already exist as a path in volumeDevices"),
            );
        }
        let sub_path = text(&mount["subPath"]);
        if !sub_path.is_empty() {
            errors.extend(validate_local_descending_path(sub_path, &path.child("subPath")));
        }
        let sub_path_expr = text(&mount["subPathExpr"]);
        if !sub_path_expr.is_empty() {
            if !sub_path.is_empty() {
                errors.push(
                    item_path
                        .child("subPathExpr")
                        .invalid(sub_path_expr, "subPathExpr and subPath are mutually exclusive"),
                );
            }
            errors.extend(validate_local_descending_path(
                sub_path_expr,
                &path.child("subPathExpr"),
            ));
        }
        if let Some(propagation) = opt_text(&mount["mountPropagation"]) {
            errors.extend(validate_mount_propagation(
                propagation,
                container,
                &path.child("mountPropagation"),
            ));
        }
        errors.extend(validate_mount_recursive_read_only(
            mount,
            &path.child("recursiveReadOnly"),
        ));
    }
    errors
}

/// `validateMountPropagation`.
fn validate_mount_propagation(propagation: &str, container: Option<&Value>, path: &Path) -> ErrorList {
    const SUPPORTED: &[&str] = &["Bidirectional", "HostToContainer", "None"];
    let mut errors = ErrorList::new();
    if !SUPPORTED.contains(&propagation) {
        errors.push(path.not_supported(propagation, SUPPORTED));
    }
    let Some(container) = container else {
        return errors;
    };
    let privileged = container["securityContext"]["privileged"] == true;
    if propagation == "Bidirectional" && !privileged {
        errors.push(path.forbidden("Bidirectional mount propagation is available only to privileged containers"));
    }
    errors
}

/// `validateMountRecursiveReadOnly`.
fn validate_mount_recursive_read_only(mount: &Value, path: &Path) -> ErrorList {
    let Some(mode) = opt_text(&mount["recursiveReadOnly"]) else {
        return ErrorList::new();
    };
    let mut errors = ErrorList::new();
    match mode {
        "Disabled" => {}
        "Enabled" | "IfPossible" => {
            if mount["readOnly"] != true {
                errors.push(path.forbidden("may only be specified when readOnly is true"));
            }
            if opt_text(&mount["mountPropagation"]).is_some_and(|p| p != "None") {
                errors.push(path.forbidden("may only be specified when mountPropagation is None or not specified"));
            }
        }
        other => errors.push(path.not_supported(other, &["Disabled", "Enabled", "IfPossible"])),
    }
    errors
}

/// `ValidateVolumeDevices`.
pub(crate) fn validate_volume_devices(
    devices: &Value,
    mounts: &BTreeMap<String, String>,
    volumes: &Volumes,
    path: &Path,
) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut device_paths = BTreeSet::new();
    let mut device_names = BTreeSet::new();
    for (index, device) in items(devices).iter().enumerate() {
        let item_path = path.index(index);
        let name = text(&device["name"]);
        let device_path = text(&device["devicePath"]);
        let source = volumes.get(name);
        let is_claim = source.is_some_and(|s| is_set(&s["persistentVolumeClaim"]) || is_set(&s["ephemeral"]));
        if name.is_empty() {
            errors.push(item_path.child("name").required(""));
        }
        if device_names.contains(name) {
            errors.push(item_path.child("name").invalid(name, "must be unique"));
        }
        if source.is_some() && !is_claim {
            errors.push(item_path.child("name").invalid(
                name,
                "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode",
            ));
        }
        if source.is_none() {
            errors.push(item_path.child("name").not_found(name));
        }
        if device_path.is_empty() {
            errors.push(item_path.child("devicePath").required(""));
        }
        if device_paths.contains(device_path) {
            errors.push(item_path.child("devicePath").invalid(device_path, "must be unique"));
        }
        if !device_path.is_empty() && !validate_path_no_backsteps(device_path, &path.child("devicePath")).is_empty() {
            errors.push(
                item_path
                    .child("devicePath")
                    .invalid(device_path, "can not contain backsteps ('..')"),
            );
        } else {
            device_paths.insert(device_path);
        }
        if mounts.contains_key(name) {
            errors.push(
                item_path
                    .child("name")
                    .invalid(name, "must not already exist in volumeMounts"),
            );
        }
        if mounts.values().any(|mount| mount == device_path) {
            errors.push(
                item_path
                    .child("devicePath")
                    .invalid(device_path, "must not already exist as a path in volumeMounts"),
            );
        }
        if !name.is_empty() {
            device_names.insert(name);
        }
    }
    errors
}

/// `GetVolumeMountMap` and `GetVolumeDeviceMap`: name to path.
pub(crate) fn name_to_path(list: &Value, path_field: &str) -> BTreeMap<String, String> {
    items(list)
        .iter()
        .map(|item| (text(&item["name"]).to_owned(), text(&item[path_field]).to_owned()))
        .collect()
}
