//! Nodes (`ValidateNode`, `ValidateNodeUpdate`): taints, pod CIDRs set once, provider
//! id set once, resources, addresses and the deprecated config source.

use std::collections::BTreeSet;

use serde_json::Value;

use super::resources::validate_resource_quantity_value;
use super::scheduling::validate_taint_effect;
use super::{invalid_each, quantity, validate_object_meta, validate_object_meta_update};
use crate::Write;
use crate::field::{BadValue, ErrorList, Path};
use crate::godump;
use crate::json::{entries, is_set, items, strings, text};
use crate::meta;
use crate::util;

/// A Node written as `write` says: the strategy runs `ValidateNode` then
/// `ValidateNodeUpdate` on updates, and only the latter on status writes.
pub(super) fn validate(node: &Value, write: Write) -> ErrorList {
    match write {
        Write::Create => validate_node(node),
        Write::Subresource { name: "status", old } => validate_node_update(node, old),
        Write::Update { old } | Write::Subresource { old, .. } => {
            let mut errors = validate_node(node);
            errors.extend(validate_node_update(node, old));
            errors
        }
    }
}

/// `ValidateNode`.
fn validate_node(node: &Value) -> ErrorList {
    let meta_path = Path::new("metadata");
    let mut errors = validate_object_meta(&node["metadata"], false, meta::name_is_dns_subdomain, &meta_path);
    errors.extend(validate_node_specific_annotations(
        &node["metadata"]["annotations"],
        &meta_path.child("annotations"),
    ));
    if !items(&node["spec"]["taints"]).is_empty() {
        errors.extend(validate_node_taints(
            &node["spec"]["taints"],
            &meta_path.child("taints"),
        ));
    }
    errors.extend(validate_node_resources(node));
    let cidrs = strings(&node["spec"]["podCIDRs"]);
    if !cidrs.is_empty() {
        let path = Path::new("spec").child("podCIDRs");
        for (index, cidr) in cidrs.iter().enumerate() {
            errors.extend(util::is_valid_cidr(&path.index(index), cidr));
        }
        if cidrs.len() > 1 {
            let v6 = cidrs.iter().filter(|c| util::is_ipv6_cidr_string(c)).count();
            if let Some(index) = cidrs.iter().position(|c| util::parse_cidr_sloppy(c).is_none()) {
                errors.push(path.internal(&format!(
                    "invalid PodCIDRs. failed to check with dual stack with error:invalid CIDR[{index}]: <nil> (invalid CIDR address: {})",
                    cidrs[index]
                )));
            }
            let valid = cidrs.iter().all(|c| util::parse_cidr_sloppy(c).is_some());
            if !valid || v6 == 0 || v6 == cidrs.len() || cidrs.len() > 2 {
                errors.push(path.invalid(
                    godump::raw(godump::string_slice("string", &node["spec"]["podCIDRs"])),
                    "may specify no more than one CIDR for each IP family",
                ));
            }
            let mut seen = BTreeSet::new();
            for (index, cidr) in cidrs.iter().enumerate() {
                if !seen.insert(cidr) {
                    errors.push(path.index(index).duplicate(*cidr));
                }
            }
        }
    }
    errors
}

/// `ValidateNodeResources`: capacity and allocatable quantities.
fn validate_node_resources(node: &Value) -> ErrorList {
    let mut errors = ErrorList::new();
    for field in ["capacity", "allocatable"] {
        for (resource, value) in entries(&node["status"][field]) {
            let path = Path::from_parts(&["status", field, resource]);
            errors.extend(validate_resource_quantity_value(resource, &quantity(value), &path));
        }
    }
    errors
}

/// `validateNodeTaints`: keys, values and effects valid, no key and effect twice.
fn validate_node_taints(taints: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut seen = BTreeSet::new();
    for (index, taint) in items(taints).iter().enumerate() {
        let item_path = path.index(index);
        let key = text(&taint["key"]);
        errors.extend(meta::validate_label_name(key, &item_path.child("key")));
        let value = text(&taint["value"]);
        let messages = util::is_valid_label_value(value);
        if !messages.is_empty() {
            errors.push(item_path.child("value").invalid(value, &messages.join(";")));
        }
        let effect = text(&taint["effect"]);
        errors.extend(validate_taint_effect(effect, false, &item_path.child("effect")));
        if !seen.insert((effect, key)) {
            let mut duplicate = item_path.duplicate(godump::raw(godump::taint(taint)));
            "taints must be unique by key and effect pair".clone_into(&mut duplicate.detail);
            errors.push(duplicate);
        }
    }
    errors
}

/// `ValidateNodeSpecificAnnotations`: the taints and avoid-pods annotations.
fn validate_node_specific_annotations(annotations: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let taints = text(&annotations["scheduler.alpha.kubernetes.io/taints"]);
    if !taints.is_empty() {
        match serde_json::from_str::<Value>(taints) {
            Ok(parsed) if parsed.is_array() || parsed.is_null() => {
                if !items(&parsed).is_empty() {
                    errors.extend(validate_node_taints(
                        &parsed,
                        &path.child("scheduler.alpha.kubernetes.io/taints"),
                    ));
                }
            }
            Ok(_) | Err(_) => errors.push(path.invalid(
                "scheduler.alpha.kubernetes.io/taints",
                "json: cannot unmarshal into []core.Taint",
            )),
        }
    }
    errors
}

/// `ValidateNodeUpdate`.
fn validate_node_update(node: &Value, old: &Value) -> ErrorList {
    let meta_path = Path::new("metadata");
    let mut errors = validate_object_meta_update(&node["metadata"], &old["metadata"], &meta_path);
    errors.extend(validate_node_specific_annotations(
        &node["metadata"]["annotations"],
        &meta_path.child("annotations"),
    ));
    errors.extend(validate_node_resources(node));
    let mut addresses = Vec::new();
    for (index, address) in items(&node["status"]["addresses"]).iter().enumerate() {
        let key = (text(&address["type"]), text(&address["address"]));
        if addresses.contains(&key) {
            errors.push(
                Path::new("status")
                    .child("addresses")
                    .index(index)
                    .duplicate(godump::raw(godump::node_address(address))),
            );
        }
        addresses.push(key);
    }
    let (old_cidrs, new_cidrs) = (strings(&old["spec"]["podCIDRs"]), strings(&node["spec"]["podCIDRs"]));
    if !old_cidrs.is_empty() {
        let detail = "node updates may not change podCIDR except from \"\" to valid";
        let path = Path::new("spec").child("podCIDRs");
        if old_cidrs.len() == new_cidrs.len() {
            for (before, after) in old_cidrs.iter().zip(&new_cidrs) {
                if before != after {
                    errors.push(path.forbidden(detail));
                }
            }
        } else {
            errors.push(path.forbidden(detail));
        }
    }
    let old_provider = text(&old["spec"]["providerID"]);
    if !old_provider.is_empty() && old_provider != text(&node["spec"]["providerID"]) {
        errors.push(
            Path::new("spec")
                .child("providerID")
                .forbidden("node updates may not change providerID except from \"\" to valid"),
        );
    }
    if is_set(&node["spec"]["configSource"]) {
        errors.extend(validate_config_source(
            &node["spec"]["configSource"],
            &Path::new("spec").child("configSource"),
            true,
        ));
    }
    let config = &node["status"]["config"];
    if is_set(config) {
        for field in ["assigned", "active", "lastKnownGood"] {
            if is_set(&config[field]) {
                errors.extend(validate_config_source(
                    &config[field],
                    &Path::from_parts(&["status", "config", field]),
                    false,
                ));
            }
        }
    }
    if !items(&node["spec"]["taints"]).is_empty() {
        errors.extend(validate_node_taints(
            &node["spec"]["taints"],
            &meta_path.child("taints"),
        ));
    }
    if text(&node["spec"]["externalID"]) != text(&old["spec"]["externalID"]) {
        errors.push(Path::new("spec").child("externalID").forbidden("may not be updated"));
    }
    errors
}

/// `validateNodeConfigSourceSpec` (`in_spec`) and `validateNodeConfigSourceStatus`.
fn validate_config_source(source: &Value, path: &Path, in_spec: bool) -> ErrorList {
    let mut errors = ErrorList::new();
    let config_map = &source["configMap"];
    if is_set(config_map) {
        let map_path = path.child("configMap");
        if in_spec {
            if !text(&config_map["uid"]).is_empty() {
                errors.push(map_path.child("uid").forbidden("uid must not be set in spec"));
            }
            if !text(&config_map["resourceVersion"]).is_empty() {
                errors.push(
                    map_path
                        .child("resourceVersion")
                        .forbidden("resourceVersion must not be set in spec"),
                );
            }
        } else {
            if text(&config_map["uid"]).is_empty() {
                errors.push(map_path.child("uid").required("uid must be set in status"));
            }
            if text(&config_map["resourceVersion"]).is_empty() {
                errors.push(
                    map_path
                        .child("resourceVersion")
                        .required("resourceVersion must be set in status"),
                );
            }
        }
        errors.extend(validate_config_map_source(config_map, &map_path));
    } else {
        errors.push(path.invalid(
            BadValue::Json(source.clone()),
            "exactly one reference subfield must be non-nil",
        ));
    }
    errors
}

/// `validateConfigMapNodeConfigSource`.
fn validate_config_map_source(source: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let namespace = text(&source["namespace"]);
    if namespace.is_empty() {
        errors.push(path.child("namespace").required("namespace must be set"));
    } else {
        errors.extend(invalid_each(
            &path.child("namespace"),
            namespace,
            &meta::name_is_dns_label(namespace, false),
        ));
    }
    let name = text(&source["name"]);
    if name.is_empty() {
        errors.push(path.child("name").required("name must be set"));
    } else {
        errors.extend(invalid_each(
            &path.child("name"),
            name,
            &meta::name_is_dns_subdomain(name, false),
        ));
    }
    let key = text(&source["kubeletConfigKey"]);
    if key.is_empty() {
        errors.push(path.child("kubeletConfigKey").required("kubeletConfigKey must be set"));
    } else {
        errors.extend(invalid_each(
            &path.child("kubeletConfigKey"),
            key,
            &util::is_config_map_key(key),
        ));
    }
    errors
}
