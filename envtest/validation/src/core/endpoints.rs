//! Endpoints (`ValidateEndpoints`, `ValidateEndpointsUpdate`): addresses that are
//! real IPs (not unspecified, loopback or link-local), named ports when there are
//! several.

use serde_json::Value;

use super::container::{validate_app_protocol, validate_protocol};
use super::{number, validate_dns1123_label, validate_object_meta, validate_object_meta_update};
use crate::field::{ErrorList, Path};
use crate::json::{int, items, opt_text, text};
use crate::meta;
use crate::util;

/// `ValidateNonSpecialIP`: no unspecified, loopback or link-local address.
pub(crate) fn validate_non_special_ip(value: &str, path: &Path) -> ErrorList {
    let Some(ip) = util::parse_ip_sloppy(value) else {
        return vec![path.invalid(value, "must be a valid IP address")];
    };
    let mut errors = ErrorList::new();
    if ip.is_unspecified() {
        errors.push(path.invalid(value, &format!("may not be unspecified ({value})")));
    }
    if ip.is_loopback() {
        errors.push(path.invalid(value, "may not be in the loopback range (127.0.0.0/8, ::1/128)"));
    }
    let (link_local_unicast, link_local_multicast) = match ip {
        std::net::IpAddr::V4(v4) => (v4.is_link_local(), v4.octets()[..3] == [224, 0, 0]),
        std::net::IpAddr::V6(v6) => {
            let first = v6.segments()[0];
            (first & 0xffc0 == 0xfe80, first & 0xff0f == 0xff02)
        }
    };
    if link_local_unicast {
        errors.push(path.invalid(value, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"));
    }
    if link_local_multicast {
        errors.push(path.invalid(
            value,
            "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)",
        ));
    }
    errors
}

/// `ValidateEndpoints` (create).
pub(super) fn validate_endpoints(endpoints: &Value) -> ErrorList {
    let mut errors = validate_object_meta(
        &endpoints["metadata"],
        true,
        meta::name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let path = Path::new("subsets");
    for (index, subset) in items(&endpoints["subsets"]).iter().enumerate() {
        let subset_path = path.index(index);
        let (addresses, not_ready) = (items(&subset["addresses"]), items(&subset["notReadyAddresses"]));
        if addresses.is_empty() && not_ready.is_empty() {
            errors.push(subset_path.required("must specify `addresses` or `notReadyAddresses`"));
        }
        for (field, list) in [("addresses", addresses), ("notReadyAddresses", not_ready)] {
            for (address_index, address) in list.iter().enumerate() {
                errors.extend(validate_endpoint_address(
                    address,
                    &subset_path.child(field).index(address_index),
                ));
            }
        }
        let ports = items(&subset["ports"]);
        for (port_index, port) in ports.iter().enumerate() {
            errors.extend(validate_endpoint_port(
                port,
                ports.len() > 1,
                &subset_path.child("ports").index(port_index),
            ));
        }
    }
    errors
}

/// `ValidateEndpointsUpdate`.
pub(super) fn validate_endpoints_update(new: &Value, old: &Value) -> ErrorList {
    let mut errors = validate_object_meta_update(&new["metadata"], &old["metadata"], &Path::new("metadata"));
    errors.extend(validate_endpoints(new));
    errors
}

fn validate_endpoint_address(address: &Value, path: &Path) -> ErrorList {
    let ip = text(&address["ip"]);
    let mut errors = util::is_valid_ip(&path.child("ip"), ip);
    let hostname = text(&address["hostname"]);
    if !hostname.is_empty() {
        errors.extend(validate_dns1123_label(hostname, &path.child("hostname")));
    }
    if let Some(node) = opt_text(&address["nodeName"]) {
        errors.extend(super::invalid_each(
            &path.child("nodeName"),
            node,
            &meta::name_is_dns_subdomain(node, false),
        ));
    }
    errors.extend(validate_non_special_ip(ip, &path.child("ip")));
    errors
}

fn validate_endpoint_port(port: &Value, require_name: bool, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let name = text(&port["name"]);
    if require_name && name.is_empty() {
        errors.push(path.child("name").required(""));
    } else if !name.is_empty() {
        errors.extend(validate_dns1123_label(name, &path.child("name")));
    }
    let port_number = int(&port["port"]);
    for message in util::is_valid_port_num(port_number) {
        errors.push(path.child("port").invalid(number(port_number), &message));
    }
    errors.extend(validate_protocol(&port["protocol"], &path.child("protocol")));
    errors.extend(validate_app_protocol(&port["appProtocol"], &path.child("appProtocol")));
    errors
}
