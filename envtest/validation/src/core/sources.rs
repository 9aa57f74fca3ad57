//! The volume sources pods and persistent volumes share (host paths, disks, NFS, Fibre
//! Channel, flex volumes...), the items and modes of projected files, and the names of
//! CSI drivers.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::number;
use super::paths::{validate_local_non_reserved_path, validate_path_no_backsteps};
use crate::field::{ErrorList, Path};
use crate::godump;
use crate::json::{entries, int, items, opt_int, opt_text, text};
use crate::util::{self, inclusive_range_error};

const FILE_MODE_ERROR: &str = "must be a number between 0 and 0777 (octal), both inclusive";

pub(super) fn required_text(source: &Value, field: &str, path: &Path) -> ErrorList {
    if text(&source[field]).is_empty() {
        vec![path.child(field).required("")]
    } else {
        ErrorList::new()
    }
}

pub(super) fn required_list(source: &Value, field: &str, path: &Path) -> ErrorList {
    if items(&source[field]).is_empty() {
        vec![path.child(field).required("")]
    } else {
        ErrorList::new()
    }
}

/// `validateHostPathVolumeSource`.
pub(super) fn host_path(source: &Value, path: &Path) -> ErrorList {
    let host = text(&source["path"]);
    if host.is_empty() {
        return vec![path.child("path").required("")];
    }
    let mut errors = validate_path_no_backsteps(host, &path.child("path"));
    if let Some(kind) = opt_text(&source["type"]) {
        const TYPES: &[&str] = &[
            "",
            "BlockDevice",
            "CharDevice",
            "Directory",
            "DirectoryOrCreate",
            "File",
            "FileOrCreate",
            "Socket",
        ];
        if !TYPES.contains(&kind) {
            errors.push(path.child("type").not_supported(kind, TYPES));
        }
    }
    errors
}

static IQN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"iqn\.\d{4}-\d{2}\.([[:alnum:]-.]+)(:[^,;*&$|\s]+)$").unwrap_or_else(|_| unreachable!("constant"))
});

static EUI: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^eui.[[:alnum:]]{16}$").unwrap_or_else(|_| unreachable!("constant")));

static NAA: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^naa.[[:alnum:]]{32}$").unwrap_or_else(|_| unreachable!("constant")));

/// Whether an iSCSI qualified name fails its format (`iqn`, `eui` and `naa` forms).
pub(super) fn bad_iscsi_name(name: &str) -> bool {
    (name.starts_with("iqn") && !IQN.is_match(name))
        || (name.starts_with("eui") && !EUI.is_match(name))
        || (name.starts_with("naa") && !NAA.is_match(name))
}

pub(super) fn has_iscsi_prefix(name: &str) -> bool {
    name.starts_with("iqn") || name.starts_with("eui") || name.starts_with("naa")
}

/// `validateFCVolumeSource`.
pub(super) fn fc(source: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let wwns = items(&source["targetWWNs"]);
    let wwids = items(&source["wwids"]);
    if wwns.is_empty() && wwids.is_empty() {
        errors.push(
            path.child("targetWWNs")
                .required("must specify either targetWWNs or wwids, but not both"),
        );
    }
    if !wwns.is_empty() && !wwids.is_empty() {
        errors.push(path.child("targetWWNs").invalid(
            godump::raw(godump::string_slice("string", &source["targetWWNs"])),
            "targetWWNs and wwids can not be specified simultaneously",
        ));
    }
    if !wwns.is_empty() {
        match opt_int(&source["lun"]) {
            None => errors.push(path.child("lun").required("lun is required if targetWWNs is specified")),
            Some(lun) if !(0..=255).contains(&lun) => {
                errors.push(path.child("lun").invalid(number(lun), &inclusive_range_error(0, 255)));
            }
            Some(_) => {}
        }
    }
    errors
}

/// `validateGCEPersistentDiskVolumeSource`.
pub(super) fn gce_persistent_disk(source: &Value, path: &Path) -> ErrorList {
    let mut errors = required_text(source, "pdName", path);
    errors.extend(partition(source, path));
    errors
}

/// `validateAWSElasticBlockStoreVolumeSource`.
pub(super) fn aws_elastic_block_store(source: &Value, path: &Path) -> ErrorList {
    let mut errors = required_text(source, "volumeID", path);
    errors.extend(partition(source, path));
    errors
}

fn partition(source: &Value, path: &Path) -> ErrorList {
    let partition = int(&source["partition"]);
    if (0..=255).contains(&partition) {
        ErrorList::new()
    } else {
        vec![
            path.child("partition")
                .invalid(number(partition), &inclusive_range_error(1, 255)),
        ]
    }
}

pub(super) fn file_mode(source: &Value, field: &str, path: &Path) -> ErrorList {
    match opt_int(&source[field]) {
        Some(mode) if !(0..=0o777).contains(&mode) => vec![path.child(field).invalid(number(mode), FILE_MODE_ERROR)],
        _ => ErrorList::new(),
    }
}

/// `validateKeyToPath`.
pub(super) fn key_to_path(item: &Value, path: &Path) -> ErrorList {
    let mut errors = required_text(item, "key", path);
    errors.extend(required_text(item, "path", path));
    errors.extend(validate_local_non_reserved_path(
        text(&item["path"]),
        &path.child("path"),
    ));
    errors.extend(file_mode(item, "mode", path));
    errors
}

/// `validateNFSVolumeSource`.
pub(super) fn nfs(source: &Value, path: &Path) -> ErrorList {
    let mut errors = required_text(source, "server", path);
    errors.extend(required_text(source, "path", path));
    let nfs_path = text(&source["path"]);
    if !nfs_path.starts_with('/') {
        errors.push(path.child("path").invalid(nfs_path, "must be an absolute path"));
    }
    errors
}

/// `validateQuobyteVolumeSource`.
pub(super) fn quobyte(source: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let registry = text(&source["registry"]);
    if registry.is_empty() {
        errors.push(
            path.child("registry")
                .required("must be a host:port pair or multiple pairs separated by commas"),
        );
    } else if text(&source["tenant"]).len() >= 65 {
        errors.push(
            path.child("tenant")
                .required("must be a UUID and may not exceed a length of 64 characters"),
        );
    } else {
        for pair in registry.split(',') {
            if !is_host_port(pair) {
                errors.push(path.child("registry").invalid(
                    registry,
                    "must be a host:port pair or multiple pairs separated by commas",
                ));
            }
        }
    }
    errors.extend(required_text(source, "volume", path));
    errors
}

/// Whether Go's `net.SplitHostPort` accepts `pair`: `host:port` or `[host]:port`.
fn is_host_port(pair: &str) -> bool {
    if let Some(rest) = pair.strip_prefix('[') {
        let Some((host, port)) = rest.split_once(']') else {
            return false;
        };
        return !host.contains('[') && port.starts_with(':') && !port[1..].contains(':');
    }
    match pair.rsplit_once(':') {
        Some((host, _)) => !host.contains(':') && !pair.contains('[') && !pair.contains(']'),
        None => false,
    }
}

/// `validateFlockerVolumeSource`.
pub(super) fn flocker(source: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let (name, uuid) = (text(&source["datasetName"]), text(&source["datasetUUID"]));
    if name.is_empty() && uuid.is_empty() {
        errors.push(path.required("one of datasetName and datasetUUID is required"));
    }
    if !name.is_empty() && !uuid.is_empty() {
        errors.push(path.invalid(
            "resource",
            "datasetName and datasetUUID can not be specified simultaneously",
        ));
    }
    if name.contains('/') {
        errors.push(path.child("datasetName").invalid(name, "must not contain '/'"));
    }
    errors
}

/// `validateFlexVolumeSource` (and the persistent volume one, alike): options may not
/// use the `kubernetes.io` and `k8s.io` domains.
pub(super) fn flex(source: &Value, path: &Path) -> ErrorList {
    let mut errors = required_text(source, "driver", path);
    for (key, _) in entries(&source["options"]) {
        let domain = key.split_once('/').map_or(key.as_str(), |(domain, _)| domain);
        let normalized = format!(".{}", domain.to_lowercase());
        if normalized.ends_with(".kubernetes.io") || normalized.ends_with(".k8s.io") {
            errors.push(
                path.child("options")
                    .key(key)
                    .invalid(key.as_str(), "kubernetes.io and k8s.io namespaces are reserved"),
            );
        }
    }
    errors
}

/// `validateAzureDisk`.
pub(super) fn azure_disk(source: &Value, path: &Path) -> ErrorList {
    let mut errors = required_text(source, "diskName", path);
    let uri = text(&source["diskURI"]);
    if uri.is_empty() {
        errors.push(path.child("diskURI").required(""));
    }
    if let Some(mode) = opt_text(&source["cachingMode"])
        && !["None", "ReadOnly", "ReadWrite"].contains(&mode)
    {
        errors.push(
            path.child("cachingMode")
                .not_supported(mode, &["None", "ReadOnly", "ReadWrite"]),
        );
    }
    let kind = opt_text(&source["kind"]);
    if let Some(kind) = kind
        && !["Dedicated", "Managed", "Shared"].contains(&kind)
    {
        errors.push(
            path.child("kind")
                .not_supported(kind, &["Dedicated", "Managed", "Shared"]),
        );
    }
    if kind == Some("Managed") && !uri.starts_with("/subscriptions/") {
        errors.push(path.child("diskURI").not_supported(
            uri,
            &["/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"],
        ));
    }
    if kind.is_some_and(|k| k != "Managed") && !uri.starts_with("https://") {
        errors.push(path.child("diskURI").not_supported(
            uri,
            &["https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"],
        ));
    }
    errors
}

/// `ValidateCSIDriverName`.
pub(crate) fn validate_csi_driver_name(driver: &str, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if driver.is_empty() {
        errors.push(path.required(""));
    }
    if driver.len() > 63 {
        errors.push(path.too_long(63));
    }
    errors.extend(super::invalid_each(
        path,
        driver,
        &util::is_dns1123_subdomain(&driver.to_lowercase()),
    ));
    errors
}
