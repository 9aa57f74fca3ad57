//! `IPAddresses` (`ValidateIPAddress`, `ValidateIPAddressUpdate`) and `ServiceCIDRs`
//! (`ValidateServiceCIDR`, `ValidateServiceCIDRUpdate`,
//! `ValidateServiceCIDRStatusUpdate`): the cluster's service address ranges and the
//! addresses allocated from them.

use serde_json::Value;

use crate::Write;
use crate::common::fields::immutable;
use crate::common::go_syntax::{GoStruct, raw, string, string_slice};
use crate::common::names::{dns1123_subdomain, name_is_dns_subdomain, path_segment_name};
use crate::common::net::{mask, parse_addr, parse_prefix};
use crate::common::read::{is_set, items, text};
use crate::core::{validate_object_meta, validate_object_meta_update};
use crate::field::{ErrorList, Path};

/// `ValidateIPAddressName`: an IP address in its canonical form.
pub(crate) fn ip_address_name(name: &str, _prefix: bool) -> Vec<String> {
    match parse_addr(name) {
        Err(error) => vec![error],
        Ok(ip) if ip.to_string() != name => vec!["must be a canonical format IP address".to_owned()],
        Ok(_) => Vec::new(),
    }
}

/// The `IPAddress` strategy's `Validate` and `ValidateUpdate`.
pub(super) fn validate_ip_address(object: &Value, write: Write) -> ErrorList {
    let mut errors = validate_object_meta(&object["metadata"], false, ip_address_name, &Path::new("metadata"));
    let reference = &object["spec"]["parentRef"];
    errors.extend(validate_parent_reference(reference, &Path::new("spec")));
    if let Some(old) = write.old() {
        errors.extend(validate_object_meta_update(
            &object["metadata"],
            &old["metadata"],
            &Path::new("metadata"),
        ));
        errors.extend(immutable(
            reference,
            &old["spec"]["parentRef"],
            &Path::from_parts(&["spec", "parentRef"]),
            || raw(parent_reference(reference)),
        ));
    }
    errors
}

/// A `networking.ParentReference` as Go prints it.
fn parent_reference(reference: &Value) -> String {
    if reference.is_null() {
        return "\"null\"".to_owned();
    }
    GoStruct::new("networking.ParentReference")
        .field("Group", string(&reference["group"]))
        .field("Resource", string(&reference["resource"]))
        .field("Namespace", string(&reference["namespace"]))
        .field("Name", string(&reference["name"]))
        .end()
}

/// `validateIPAddressParentReference`.
fn validate_parent_reference(reference: &Value, path: &Path) -> ErrorList {
    if !is_set(reference) {
        return vec![path.child("parentRef").required("")];
    }
    let path = path.child("parentRef");
    let mut errors = ErrorList::new();
    let group = text(&reference["group"]);
    if !group.is_empty() {
        for message in dns1123_subdomain(group) {
            errors.push(path.child("group").invalid(group, &message));
        }
    }
    for field in ["resource", "name"] {
        let value = text(&reference[field]);
        if value.is_empty() {
            errors.push(path.child(field).required(""));
        } else {
            for message in path_segment_name(value) {
                errors.push(path.child(field).invalid(value, &message));
            }
        }
    }
    let namespace = text(&reference["namespace"]);
    if !namespace.is_empty() {
        for message in path_segment_name(namespace) {
            errors.push(path.child("namespace").invalid(namespace, &message));
        }
    }
    errors
}

/// The `ServiceCIDR` strategies' `Validate`, `ValidateUpdate` and the status strategy's.
pub(super) fn validate_service_cidr(object: &Value, write: Write) -> ErrorList {
    let metadata = Path::new("metadata");
    match write {
        Write::Create => validate_service_cidr_object(object),
        Write::Update { old } => {
            let mut errors = validate_service_cidr_object(object);
            errors.extend(validate_object_meta_update(
                &object["metadata"],
                &old["metadata"],
                &metadata,
            ));
            let cidrs = &object["spec"]["cidrs"];
            errors.extend(immutable(
                cidrs,
                &old["spec"]["cidrs"],
                &Path::from_parts(&["spec", "cidrs"]),
                || raw(string_slice(cidrs)),
            ));
            errors
        }
        Write::Subresource { name: "status", old } => {
            validate_object_meta_update(&object["metadata"], &old["metadata"], &metadata)
        }
        Write::Subresource { .. } => ErrorList::new(),
    }
}

/// `ValidateServiceCIDR`: one or two CIDRs, one of each family, each canonical.
fn validate_service_cidr_object(object: &Value) -> ErrorList {
    let mut errors = validate_object_meta(
        &object["metadata"],
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let spec = &object["spec"];
    let path = Path::from_parts(&["spec", "cidrs"]);
    let cidrs = items(&spec["cidrs"]);
    let shown = || {
        raw(GoStruct::new("networking.ServiceCIDRSpec")
            .field("CIDRs", string_slice(&spec["cidrs"]))
            .end())
    };
    if cidrs.is_empty() {
        errors.push(path.required("at least one CIDR required"));
        return errors;
    }
    if cidrs.len() > 2 {
        errors.push(path.invalid(shown(), "may only hold up to 2 values"));
        return errors;
    }
    if cidrs.len() == 2 {
        let families: Vec<Option<bool>> = cidrs
            .iter()
            .map(|c| crate::common::net::parse_cidr_sloppy(text(c)).map(|(ip, _)| ip.is_ipv4()))
            .collect();
        let dual = matches!(families.as_slice(), [Some(a), Some(b)] if a != b);
        if !dual {
            errors.push(path.invalid(
                shown(),
                "may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64",
            ));
            return errors;
        }
    }
    for (index, cidr) in cidrs.iter().enumerate() {
        let cidr = text(cidr);
        let entry = path.index(index);
        match parse_prefix(cidr) {
            Err(error) => errors.push(entry.invalid(cidr, &error)),
            Ok((ip, length)) => {
                if mask(ip, length) != ip {
                    errors.push(entry.invalid(cidr, "wrong CIDR format, IP doesn't match network IP address"));
                }
                if format!("{ip}/{length}") != cidr {
                    errors.push(entry.invalid(cidr, "CIDR not in RFC 5952 canonical format"));
                }
            }
        }
    }
    errors
}
