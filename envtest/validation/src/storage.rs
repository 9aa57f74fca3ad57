//! The validation of the `storage.k8s.io` API group's kinds
//! (`pkg/apis/storage/validation`): `StorageClasses`, `VolumeAttachments`, `CSINodes`,
//! `CSIDrivers`, `CSIStorageCapacities` and `VolumeAttributesClasses`, with v1's defaults
//! (`pkg/apis/storage/v1/defaults.go`) read in for what the object leaves out.
//!
//! Not here: a `VolumeAttachment`'s inline volume spec is a persistent volume spec, core's
//! `ValidatePersistentVolumeSpec`, ported with core's validation.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use wheelhouse_envtest_schema::Quantity;

use crate::common::fields::{IMMUTABLE, immutable_plain, nonnegative, validate_qualified_name};
use crate::common::go_syntax::{GoStruct, approximate, label_selector, pointer, raw, slice, string};
use crate::common::names::{dns1123_subdomain, name_is_dns_subdomain};
use crate::common::read::{entries, is_set, items, opt_int, opt_text, semantic_eq, text};
use crate::core::{validate_object_meta, validate_object_meta_update};
use crate::field::{ErrorList, Path};
use crate::meta::validate_label_selector;
use crate::{Kind, Write};

const MAX_PARAMETERS: usize = 512;
const MAX_PARAMETERS_SIZE: i64 = 256 * 1024;
const MAX_ATTACHMENT_METADATA_SIZE: i64 = 256 * 1024;
const MAX_VOLUME_ERROR_MESSAGE: usize = 1024;
const MAX_LONG_NODE_ID: usize = 256;

/// The errors in `object`, a `storage.k8s.io` kind written as `write` says.
pub(crate) fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    let old = write.old();
    let metadata_update =
        |old: &Value| validate_object_meta_update(&object["metadata"], &old["metadata"], &Path::new("metadata"));
    match kind.kind {
        "StorageClass" => {
            let mut errors = validate_storage_class(object);
            if let Some(old) = old {
                errors.extend(metadata_update(old));
                errors.extend(validate_storage_class_update(object, old));
            }
            errors
        }
        "VolumeAttachment" => validate_volume_attachment_write(object, old),
        "CSINode" => {
            let mut errors = validate_csi_node(object);
            if let Some(old) = old {
                errors.extend(validate_csi_node(object));
                errors.extend(validate_csi_node_update(object, old));
            }
            errors
        }
        "CSIDriver" => validate_csi_driver(object, old),
        "CSIStorageCapacity" => {
            let mut errors = validate_csi_storage_capacity(object);
            if let Some(old) = old {
                errors.extend(metadata_update(old));
                let topology = &object["nodeTopology"];
                if !semantic_eq(topology, &old["nodeTopology"]) {
                    let shown = if topology.is_null() {
                        "\"null\"".to_owned()
                    } else {
                        label_selector(topology)
                    };
                    errors.push(Path::new("nodeTopology").invalid(raw(shown), IMMUTABLE));
                }
                let class = text(&object["storageClassName"]);
                if class != text(&old["storageClassName"]) {
                    errors.push(Path::new("storageClassName").invalid(class, IMMUTABLE));
                }
            }
            errors
        }
        "VolumeAttributesClass" => {
            let mut errors = ErrorList::new();
            if let Some(old) = old {
                errors.extend(metadata_update(old));
                if text(&object["driverName"]) != text(&old["driverName"]) {
                    errors.push(Path::new("driverName").forbidden("updates to driverName are forbidden."));
                }
                if !parameters_equal(&object["parameters"], &old["parameters"]) {
                    errors.push(Path::new("parameters").forbidden("updates to parameters are forbidden."));
                }
            }
            errors.extend(validate_object_meta(
                &object["metadata"],
                false,
                name_is_dns_subdomain,
                &Path::new("metadata"),
            ));
            errors.extend(validate_provisioner(
                text(&object["driverName"]),
                &Path::new("driverName"),
            ));
            errors.extend(validate_parameters(
                &object["parameters"],
                false,
                &Path::new("parameters"),
            ));
            errors
        }
        _ => ErrorList::new(),
    }
}

/// The `VolumeAttachment` strategy's `Validate` and `ValidateUpdate`.
fn validate_volume_attachment_write(object: &Value, old: Option<&Value>) -> ErrorList {
    let mut errors = validate_volume_attachment(object);
    match old {
        None => errors.extend(validate_volume_attachment_v1(object)),
        Some(old) => {
            // `ValidateVolumeAttachmentUpdate` validates the attachment again.
            errors.extend(validate_volume_attachment(object));
            if !semantic_eq(&object["spec"], &old["spec"]) {
                let spec = &object["spec"];
                let source = GoStruct::new("storage.VolumeAttachmentSource")
                    .field(
                        "PersistentVolumeName",
                        pointer("string", &spec["source"]["persistentVolumeName"]),
                    )
                    .field(
                        "InlineVolumeSpec",
                        pointer("core.PersistentVolumeSpec", &spec["source"]["inlineVolumeSpec"]),
                    )
                    .end();
                let shown = GoStruct::new("storage.VolumeAttachmentSpec")
                    .field("Attacher", string(&spec["attacher"]))
                    .field("Source", source)
                    .field("NodeName", string(&spec["nodeName"]))
                    .end();
                errors.push(Path::new("spec").invalid(raw(shown), IMMUTABLE));
            }
        }
    }
    errors
}

/// The `CSIDriver` strategy's `Validate` and `ValidateUpdate`.
fn validate_csi_driver(object: &Value, old: Option<&Value>) -> ErrorList {
    let metadata_update =
        |old: &Value| validate_object_meta_update(&object["metadata"], &old["metadata"], &Path::new("metadata"));
    match old {
        None => {
            let mut errors = validate_object_meta(
                &object["metadata"],
                false,
                name_is_dns_subdomain,
                &Path::new("metadata"),
            );
            errors.extend(validate_csi_driver_spec(&object["spec"], &Path::new("spec")));
            errors
        }
        Some(old) => {
            let mut errors = metadata_update(old);
            errors.extend(validate_csi_driver_spec(&object["spec"], &Path::new("spec")));
            errors.extend(immutable_plain(
                &attach_required(&object["spec"]),
                &attach_required(&old["spec"]),
                &Path::from_parts(&["spec", "attachedRequired"]),
            ));
            let modes = lifecycle_modes(&object["spec"]);
            if !semantic_eq(&modes, &lifecycle_modes(&old["spec"])) {
                let shown = slice("storage.VolumeLifecycleMode", &modes, string);
                errors.push(Path::from_parts(&["spec", "volumeLifecycleModes"]).invalid(raw(shown), IMMUTABLE));
            }
            errors
        }
    }
}

/// `reflect.DeepEqual` of two parameter maps: a nil and an empty map differ.
fn parameters_equal(new: &Value, old: &Value) -> bool {
    match (entries(new), entries(old)) {
        (None, None) => true,
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// `ValidateStorageClass`.
fn validate_storage_class(object: &Value) -> ErrorList {
    let mut errors = validate_object_meta(
        &object["metadata"],
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    errors.extend(validate_provisioner(
        text(&object["provisioner"]),
        &Path::new("provisioner"),
    ));
    errors.extend(validate_parameters(
        &object["parameters"],
        true,
        &Path::new("parameters"),
    ));
    let reclaim = reclaim_policy(object);
    if !reclaim.is_empty() && !matches!(reclaim, "Delete" | "Retain") {
        errors.push(Path::new("reclaimPolicy").not_supported(reclaim, &["Delete", "Retain"]));
    }
    let mode = opt_text(&object["volumeBindingMode"]).unwrap_or("Immediate");
    if !matches!(mode, "Immediate" | "WaitForFirstConsumer") {
        errors.push(Path::new("volumeBindingMode").not_supported(mode, &["Immediate", "WaitForFirstConsumer"]));
    }
    errors.extend(validate_allowed_topologies(
        items(&object["allowedTopologies"]),
        &Path::new("allowedTopologies"),
    ));
    errors
}

/// A `StorageClass`'s reclaim policy, v1's default (`Delete`) when unset.
fn reclaim_policy(object: &Value) -> &str {
    opt_text(&object["reclaimPolicy"]).unwrap_or("Delete")
}

/// `ValidateStorageClassUpdate`.
fn validate_storage_class_update(object: &Value, old: &Value) -> ErrorList {
    let mut errors = ErrorList::new();
    if !parameters_equal(&object["parameters"], &old["parameters"]) {
        errors.push(Path::new("parameters").forbidden("updates to parameters are forbidden."));
    }
    if text(&object["provisioner"]) != text(&old["provisioner"]) {
        errors.push(Path::new("provisioner").forbidden("updates to provisioner are forbidden."));
    }
    if reclaim_policy(object) != reclaim_policy(old) {
        errors.push(Path::new("reclaimPolicy").forbidden("updates to reclaimPolicy are forbidden."));
    }
    let mode = |object: &Value| Value::from(opt_text(&object["volumeBindingMode"]).unwrap_or("Immediate"));
    errors.extend(immutable_plain(
        &mode(object),
        &mode(old),
        &Path::new("volumeBindingMode"),
    ));
    errors
}

/// `validateProvisioner`: required, a qualified name (case aside).
fn validate_provisioner(provisioner: &str, path: &Path) -> ErrorList {
    if provisioner.is_empty() {
        return vec![path.required("")];
    }
    validate_qualified_name(&provisioner.to_lowercase(), path)
}

/// `validateParameters`: at most 512 entries and 256 KiB, no empty key.
fn validate_parameters(parameters: &Value, allow_empty: bool, path: &Path) -> ErrorList {
    let map = entries(parameters);
    let count = map.map_or(0, serde_json::Map::len);
    if count > MAX_PARAMETERS {
        return vec![path.too_long(i64::try_from(MAX_PARAMETERS).unwrap_or(i64::MAX))];
    }
    let mut errors = ErrorList::new();
    let mut size: i64 = 0;
    for (key, value) in map.into_iter().flatten() {
        if key.is_empty() {
            errors.push(path.invalid(key.as_str(), "field can not be empty."));
        }
        size = size.saturating_add(i64::try_from(key.len() + text(value).len()).unwrap_or(i64::MAX));
    }
    if size > MAX_PARAMETERS_SIZE {
        errors.push(path.too_long(MAX_PARAMETERS_SIZE));
    }
    if !allow_empty && count == 0 {
        errors.push(path.required("must contain at least one key/value pair"));
    }
    errors
}

/// `validateAllowedTopologies`: each term valid (core's `ValidateTopologySelectorTerm`),
/// no two alike. kube's list of seen terms starts with one empty entry per term, so
/// a term without expressions is always a duplicate.
fn validate_allowed_topologies(topologies: &[Value], path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut seen: Vec<BTreeMap<String, BTreeSet<String>>> = vec![BTreeMap::new(); topologies.len()];
    for (index, term) in topologies.iter().enumerate() {
        let entry = path.index(index);
        let expressions_path = entry.child("matchLabelExpressions");
        let mut expressions: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (expression_index, requirement) in items(&term["matchLabelExpressions"]).iter().enumerate() {
            let requirement_path = expressions_path.index(expression_index);
            let values_path = requirement_path.child("values");
            let values = items(&requirement["values"]);
            if values.is_empty() {
                errors.push(values_path.required(""));
            }
            let mut set = BTreeSet::new();
            for (value_index, value) in values.iter().enumerate() {
                if !set.insert(text(value).to_owned()) {
                    errors.push(values_path.index(value_index).duplicate(value));
                }
            }
            let key = text(&requirement["key"]);
            errors.extend(validate_qualified_name(key, &requirement_path.child("key")));
            if expressions.contains_key(key) {
                errors.push(requirement_path.child("key").duplicate(key));
            }
            expressions.insert(key.to_owned(), set);
        }
        for earlier in &seen {
            if *earlier == expressions {
                errors.push(expressions_path.duplicate(""));
            }
        }
        seen.push(expressions);
    }
    errors
}

/// `ValidateVolumeAttachment`.
fn validate_volume_attachment(object: &Value) -> ErrorList {
    let mut errors = validate_object_meta(
        &object["metadata"],
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let spec = &object["spec"];
    let path = Path::new("spec");
    let attacher = text(&spec["attacher"]);
    if attacher.is_empty() {
        errors.push(path.child("attacher").required(""));
    }
    let source = &spec["source"];
    let source_path = path.child("source");
    match (
        is_set(&source["inlineVolumeSpec"]),
        opt_text(&source["persistentVolumeName"]),
    ) {
        (false, None) => {
            errors.push(source_path.required("must specify exactly one of inlineVolumeSpec and persistentVolumeName"));
        }
        (true, Some(_)) => {
            errors.push(source_path.forbidden("must specify exactly one of inlineVolumeSpec and persistentVolumeName"));
        }
        (false, Some(name)) => {
            if name.is_empty() {
                errors.push(
                    source_path
                        .child("persistentVolumeName")
                        .required("must specify non empty persistentVolumeName"),
                );
            }
        }
        (true, None) => {}
    }
    let node = text(&spec["nodeName"]);
    for message in name_is_dns_subdomain(node, false) {
        errors.push(path.child("nodeName").invalid(node, &message));
    }
    let status = &object["status"];
    let status_path = Path::new("status");
    let metadata_size: i64 = entries(&status["attachmentMetadata"])
        .into_iter()
        .flatten()
        .map(|(key, value)| i64::try_from(key.len() + text(value).len()).unwrap_or(i64::MAX))
        .fold(0, i64::saturating_add);
    if metadata_size > MAX_ATTACHMENT_METADATA_SIZE {
        errors.push(
            status_path
                .child("attachmentMetadata")
                .too_long(MAX_ATTACHMENT_METADATA_SIZE),
        );
    }
    for field in ["attachError", "detachError"] {
        if text(&status[field]["message"]).len() > MAX_VOLUME_ERROR_MESSAGE {
            // kube states the metadata limit here.
            errors.push(
                status_path
                    .child(field)
                    .child("message")
                    .too_long(MAX_ATTACHMENT_METADATA_SIZE),
            );
        }
    }
    errors
}

/// `ValidateVolumeAttachmentV1`: the attacher a CSI driver name, the volume's name a
/// persistent volume's.
fn validate_volume_attachment_v1(object: &Value) -> ErrorList {
    let mut errors = validate_csi_driver_name(text(&object["spec"]["attacher"]), &Path::new("spec.attacher"));
    if let Some(name) = opt_text(&object["spec"]["source"]["persistentVolumeName"]) {
        for message in name_is_dns_subdomain(name, false) {
            errors.push(Path::new("spec.source.persistentVolumeName").invalid(name, &message));
        }
    }
    errors
}

/// core's `ValidateCSIDriverName`.
fn validate_csi_driver_name(name: &str, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if name.is_empty() {
        errors.push(path.required(""));
    }
    if name.len() > 63 {
        errors.push(path.too_long(63));
    }
    for message in dns1123_subdomain(&name.to_lowercase()) {
        errors.push(path.invalid(name, &message));
    }
    errors
}

/// `ValidateCSINode` (the strategy allows the longer node IDs).
fn validate_csi_node(object: &Value) -> ErrorList {
    let mut errors = validate_object_meta(
        &object["metadata"],
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let drivers_path = Path::from_parts(&["spec", "drivers"]);
    let mut names = BTreeSet::new();
    for (index, driver) in items(&object["spec"]["drivers"]).iter().enumerate() {
        let path = drivers_path.index(index);
        let name = text(&driver["name"]);
        errors.extend(validate_csi_driver_name(name, &path.child("name")));
        let node = text(&driver["nodeID"]);
        if node.is_empty() {
            errors.push(path.child("nodeID").required(""));
        }
        if node.len() > MAX_LONG_NODE_ID {
            errors.push(
                path.child("nodeID")
                    .invalid(node, &format!("must be {MAX_LONG_NODE_ID} characters or less")),
            );
        }
        if let Some(count) = opt_int(&driver["allocatable"]["count"]) {
            errors.extend(nonnegative(count, &path.child("allocatable").child("count")));
        }
        if !names.insert(name.to_owned()) {
            errors.push(path.child("name").duplicate(name));
        }
        let mut keys = BTreeSet::new();
        for key in items(&driver["topologyKeys"]) {
            let key = text(key);
            if key.is_empty() {
                errors.push(path.required(""));
            }
            if !keys.insert(key) {
                errors.push(path.duplicate(key));
            }
            errors.extend(validate_qualified_name(key, &path));
        }
    }
    errors
}

/// `ValidateCSINodeUpdate`: a driver of the same name may not change.
fn validate_csi_node_update(object: &Value, old: &Value) -> ErrorList {
    let mut errors = ErrorList::new();
    for old_driver in items(&old["spec"]["drivers"]) {
        for driver in items(&object["spec"]["drivers"]) {
            if text(&old_driver["name"]) == text(&driver["name"]) && !semantic_eq(old_driver, driver) {
                errors.push(
                    Path::new("CSINodeDriver").invalid(raw(approximate("storage.CSINodeDriver", driver)), IMMUTABLE),
                );
            }
        }
    }
    errors
}

/// `attachRequired`, v1's default (true) when unset.
fn attach_required(spec: &Value) -> Value {
    Value::Bool(spec["attachRequired"].as_bool().unwrap_or(true))
}

/// `volumeLifecycleModes`, v1's default (`Persistent`) when empty.
fn lifecycle_modes(spec: &Value) -> Value {
    if items(&spec["volumeLifecycleModes"]).is_empty() {
        return serde_json::json!(["Persistent"]);
    }
    spec["volumeLifecycleModes"].clone()
}

/// `validateCSIDriverSpec` (the booleans v1 defaults are never missing).
fn validate_csi_driver_spec(spec: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if let Some(policy) = opt_text(&spec["fsGroupPolicy"])
        && !matches!(policy, "ReadWriteOnceWithFSType" | "File" | "None")
    {
        errors.push(
            path.child("fsGroupPolicy")
                .not_supported(policy, &["File", "None", "ReadWriteOnceWithFSType"]),
        );
    }
    let mut audiences = BTreeSet::new();
    for (index, request) in items(&spec["tokenRequests"]).iter().enumerate() {
        let entry = path.child("tokenRequests").index(index);
        let audience = text(&request["audience"]);
        if !audiences.insert(audience) {
            errors.push(entry.child("audience").duplicate(audience));
            continue;
        }
        let Some(seconds) = opt_int(&request["expirationSeconds"]) else {
            continue;
        };
        if seconds < 600 {
            errors.push(
                entry
                    .child("expirationSeconds")
                    .invalid(&Value::from(seconds), "may not specify a duration less than 10 minutes"),
            );
        }
        if seconds > 1 << 32 {
            errors.push(entry.child("expirationSeconds").invalid(
                &Value::from(seconds),
                "may not specify a duration larger than 2^32 seconds",
            ));
        }
    }
    for mode in items(&spec["volumeLifecycleModes"]) {
        let mode = text(mode);
        if !matches!(mode, "Persistent" | "Ephemeral") {
            errors.push(
                path.child("volumeLifecycleModes")
                    .not_supported(mode, &["Persistent", "Ephemeral"]),
            );
        }
    }
    errors
}

/// `ValidateCSIStorageCapacity`.
fn validate_csi_storage_capacity(object: &Value) -> ErrorList {
    let mut errors = validate_object_meta(&object["metadata"], true, name_is_dns_subdomain, &Path::new("metadata"));
    errors.extend(validate_label_selector(
        &object["nodeTopology"],
        &Path::new("nodeTopology"),
    ));
    let class = text(&object["storageClassName"]);
    for message in name_is_dns_subdomain(class, false) {
        errors.push(Path::new("storageClassName").invalid(class, &message));
    }
    if let Some(capacity) = opt_text(&object["capacity"])
        && let (Ok(value), Ok(zero)) = (Quantity::parse(capacity), Quantity::parse("0"))
        && value < zero
    {
        errors.push(Path::new("capacity").invalid(capacity, crate::common::fields::NEGATIVE));
    }
    errors
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::Write;
    use crate::testing::errors;

    #[test]
    fn storage_classes() {
        let class = json!({"metadata": {"name": "s"}, "provisioner": "example.com/p", "allowedTopologies": [{}]});
        assert_eq!(
            errors("storage.k8s.io", "v1", "StorageClass", &class, Write::Create),
            ["allowedTopologies[0].matchLabelExpressions: Duplicate value: \"\""]
        );
        let old = json!({"metadata": {"name": "s"}, "provisioner": "example.com/p", "parameters": {"a": "b"}});
        let new = json!({"metadata": {"name": "s"}, "provisioner": "example.com/q", "parameters": {"a": "c"}, "reclaimPolicy": "Retain"});
        assert_eq!(
            errors(
                "storage.k8s.io",
                "v1",
                "StorageClass",
                &new,
                Write::Update { old: &old }
            ),
            [
                "parameters: Forbidden: updates to parameters are forbidden.",
                "provisioner: Forbidden: updates to provisioner are forbidden.",
                "reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.",
            ]
        );
    }

    #[test]
    fn csi_objects_and_attachments() {
        let driver = json!({"metadata": {"name": "d.example.com"}, "spec": {"tokenRequests": [{"audience": "a", "expirationSeconds": 5}, {"audience": "a"}]}});
        assert_eq!(
            errors("storage.k8s.io", "v1", "CSIDriver", &driver, Write::Create),
            [
                "spec.tokenRequests[0].expirationSeconds: Invalid value: 5: may not specify a duration less than 10 minutes",
                "spec.tokenRequests[1].audience: Duplicate value: \"a\"",
            ]
        );
        let attachment = json!({"metadata": {"name": "v"}, "spec": {"attacher": "", "source": {}, "nodeName": "n"}});
        assert_eq!(
            errors("storage.k8s.io", "v1", "VolumeAttachment", &attachment, Write::Create),
            [
                "spec.attacher: Required value",
                "spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName",
                "spec.attacher: Required value",
                "spec.attacher: Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            ]
        );
    }
}
