//! The validation of the `discovery.k8s.io` API group's kinds
//! (`pkg/apis/discovery/validation`): `EndpointSlices`, their addresses of the slice's
//! type, ports (unnamed and TCP by v1's defaults), topology and zone hints.

use std::collections::BTreeSet;
use std::net::IpAddr;

use serde_json::Value;

use crate::common::fields::{immutable_string, validate_dns1123_label, validate_qualified_name};
use crate::common::labels::validate_labels;
use crate::common::names::{dns1123_label, dns1123_subdomain, label_value, name_is_dns_subdomain};
use crate::common::net::parse_ip_sloppy;
use crate::common::read::{entries, is_set, items, opt_text, text};
use crate::core::validate_object_meta;
use crate::field::{ErrorList, Path};
use crate::{Kind, Write};

const MAX_TOPOLOGY_LABELS: usize = 16;
const MAX_ADDRESSES: usize = 100;
const MAX_PORTS: usize = 20000;
const MAX_ENDPOINTS: usize = 1000;
const MAX_ZONE_HINTS: usize = 8;

/// A count for `field.TooMany`.
fn count(length: usize) -> i64 {
    i64::try_from(length).unwrap_or(i64::MAX)
}

/// The errors in `object`, a `discovery.k8s.io` kind written as `write` says.
pub(crate) fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    if kind.kind != "EndpointSlice" {
        return ErrorList::new();
    }
    let mut errors = validate_endpoint_slice(object);
    if let Some(old) = write.old() {
        errors.extend(immutable_string(
            &object["addressType"],
            &old["addressType"],
            &Path::new("addressType"),
        ));
    }
    errors
}

/// `ValidateEndpointSlice`.
fn validate_endpoint_slice(object: &Value) -> ErrorList {
    let mut errors = validate_object_meta(&object["metadata"], true, name_is_dns_subdomain, &Path::new("metadata"));
    let address_type = text(&object["addressType"]);
    let types = ["FQDN", "IPv4", "IPv6"];
    if address_type.is_empty() {
        errors.push(Path::new("addressType").required(""));
    } else if !types.contains(&address_type) {
        errors.push(Path::new("addressType").not_supported(address_type, &types));
    }
    errors.extend(validate_endpoints(
        items(&object["endpoints"]),
        address_type,
        &Path::new("endpoints"),
    ));
    errors.extend(validate_ports(items(&object["ports"]), &Path::new("ports")));
    errors
}

/// `validateEndpoints`.
fn validate_endpoints(endpoints: &[Value], address_type: &str, path: &Path) -> ErrorList {
    if endpoints.len() > MAX_ENDPOINTS {
        return vec![path.too_many(count(endpoints.len()), count(MAX_ENDPOINTS))];
    }
    let mut errors = ErrorList::new();
    for (index, endpoint) in endpoints.iter().enumerate() {
        let entry = path.index(index);
        let addresses_path = entry.child("addresses");
        let addresses = items(&endpoint["addresses"]);
        if addresses.is_empty() {
            errors.push(addresses_path.required("must contain at least 1 address"));
        } else if addresses.len() > MAX_ADDRESSES {
            errors.push(addresses_path.too_many(count(addresses.len()), count(MAX_ADDRESSES)));
        }
        for (address_index, address) in addresses.iter().enumerate() {
            let address = text(address);
            let address_path = addresses_path.index(address_index);
            match address_type {
                "IPv4" | "IPv6" => {
                    let ip = parse_ip_sloppy(address);
                    let family_ok = match address_type {
                        "IPv4" => ip.is_some_and(|ip| as_v4(ip).is_ipv4()),
                        _ => ip.is_some_and(|ip| !as_v4(ip).is_ipv4()),
                    };
                    if !family_ok {
                        let message = format!("must be a valid {address_type} address");
                        errors.push(address_path.invalid(address, &message));
                    }
                    errors.extend(validate_non_special_ip(address, &address_path));
                }
                "FQDN" => errors.extend(fully_qualified_domain_name(&address_path, address)),
                _ => {}
            }
        }
        if let Some(node) = opt_text(&endpoint["nodeName"]) {
            for message in name_is_dns_subdomain(node, false) {
                errors.push(entry.child("nodeName").invalid(node, &message));
            }
        }
        let topology = &endpoint["deprecatedTopology"];
        let topology_path = entry.child("deprecatedTopology");
        let labels = entries(topology).map_or(0, serde_json::Map::len);
        if labels > MAX_TOPOLOGY_LABELS {
            errors.push(topology_path.too_many(count(labels), count(MAX_TOPOLOGY_LABELS)));
        }
        errors.extend(validate_labels(topology, &topology_path));
        if let Some(hostname) = opt_text(&endpoint["hostname"]) {
            errors.extend(validate_dns1123_label(hostname, &entry.child("hostname")));
        }
        let hints = &endpoint["hints"];
        if is_set(hints) {
            errors.extend(validate_hints(hints, &entry.child("hints")));
        }
    }
    errors
}

/// An IPv4-mapped IPv6 address as the IPv4 address Go's `To4` sees in it.
fn as_v4(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
    }
}

/// core's `ValidateNonSpecialIP`: not unspecified, loopback or link-local.
fn validate_non_special_ip(address: &str, path: &Path) -> ErrorList {
    let Some(ip) = parse_ip_sloppy(address).map(as_v4) else {
        return vec![path.invalid(address, "must be a valid IP address")];
    };
    let mut errors = ErrorList::new();
    if ip.is_unspecified() {
        errors.push(path.invalid(address, &format!("may not be unspecified ({address})")));
    }
    if ip.is_loopback() {
        errors.push(path.invalid(address, "may not be in the loopback range (127.0.0.0/8, ::1/128)"));
    }
    let (link_local, link_local_multicast) = match ip {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
            (a == 169 && b == 254, a == 224 && b == 0 && c == 0)
        }
        IpAddr::V6(v6) => {
            let segments = v6.segments();
            (segments[0] & 0xffc0 == 0xfe80, segments[0] & 0xff0f == 0xff02)
        }
    };
    if link_local {
        errors.push(path.invalid(
            address,
            "may not be in the link-local range (169.254.0.0/16, fe80::/10)",
        ));
    }
    if link_local_multicast {
        errors.push(path.invalid(
            address,
            "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)",
        ));
    }
    errors
}

/// `IsFullyQualifiedDomainName`: a subdomain (a trailing dot allowed) of at least two
/// labels.
fn fully_qualified_domain_name(path: &Path, name: &str) -> ErrorList {
    if name.is_empty() {
        return vec![path.required("")];
    }
    let name = name.strip_suffix('.').unwrap_or(name);
    let problems = dns1123_subdomain(name);
    if !problems.is_empty() {
        return vec![path.invalid(name, &problems.join(","))];
    }
    if name.split('.').count() < 2 {
        return vec![path.invalid(name, "should be a domain with at least two segments separated by dots")];
    }
    for label in name.split('.') {
        let problems = dns1123_label(label);
        if !problems.is_empty() {
            return vec![path.invalid(label, &problems.join(","))];
        }
    }
    ErrorList::new()
}

/// `validatePorts`.
fn validate_ports(ports: &[Value], path: &Path) -> ErrorList {
    if ports.len() > MAX_PORTS {
        return vec![path.too_many(count(ports.len()), count(MAX_PORTS))];
    }
    let mut errors = ErrorList::new();
    let mut names = BTreeSet::new();
    for (index, port) in ports.iter().enumerate() {
        let entry = path.index(index);
        let name = opt_text(&port["name"]).unwrap_or_default();
        if !name.is_empty() {
            errors.extend(validate_dns1123_label(name, &entry.child("name")));
        }
        if !names.insert(name) {
            errors.push(entry.child("name").duplicate(name));
        }
        let protocol = opt_text(&port["protocol"]).unwrap_or("TCP");
        if !matches!(protocol, "TCP" | "UDP" | "SCTP") {
            errors.push(entry.child("protocol").not_supported(protocol, &["SCTP", "TCP", "UDP"]));
        }
        if let Some(app_protocol) = opt_text(&port["appProtocol"]) {
            errors.extend(validate_qualified_name(app_protocol, &entry.child("appProtocol")));
        }
    }
    errors
}

/// `validateHints`.
fn validate_hints(hints: &Value, path: &Path) -> ErrorList {
    let zones = items(&hints["forZones"]);
    let zones_path = path.child("forZones");
    if zones.len() > MAX_ZONE_HINTS {
        return vec![zones_path.too_many(count(zones.len()), count(MAX_ZONE_HINTS))];
    }
    let mut errors = ErrorList::new();
    let mut seen = BTreeSet::new();
    for (index, zone) in zones.iter().enumerate() {
        let name = text(&zone["name"]);
        let zone_path = zones_path.index(index).child("name");
        if !seen.insert(name) {
            errors.push(zone_path.duplicate(name));
        }
        for message in label_value(name) {
            errors.push(zone_path.invalid(name, &message));
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::Write;
    use crate::testing::errors;

    #[test]
    fn endpoint_slices() {
        let slice =
            json!({"metadata": {"name": "s"}, "addressType": "IPv6", "endpoints": [{"addresses": ["::1", "1.2.3.4"]}]});
        assert_eq!(
            errors("discovery.k8s.io", "v1", "EndpointSlice", &slice, Write::Create),
            [
                "endpoints[0].addresses[0]: Invalid value: \"::1\": may not be in the loopback range (127.0.0.0/8, ::1/128)",
                "endpoints[0].addresses[1]: Invalid value: \"1.2.3.4\": must be a valid IPv6 address",
            ]
        );
        let fqdn = json!({"metadata": {"name": "s"}, "addressType": "FQDN", "endpoints": [{"addresses": ["nodots"]}]});
        assert_eq!(
            errors("discovery.k8s.io", "v1", "EndpointSlice", &fqdn, Write::Create),
            [
                "endpoints[0].addresses[0]: Invalid value: \"nodots\": should be a domain with at least two segments separated by dots"
            ]
        );
        let retyped = json!({"metadata": {"name": "s"}, "addressType": "IPv4"});
        assert_eq!(
            errors(
                "discovery.k8s.io",
                "v1",
                "EndpointSlice",
                &retyped,
                Write::Update { old: &slice }
            ),
            ["addressType: Invalid value: \"IPv4\": field is immutable"]
        );
    }
}
