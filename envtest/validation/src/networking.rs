//! The validation of the `networking.k8s.io` API group's kinds
//! (`pkg/apis/networking/validation`): `ingress` holds Ingresses and `IngressClasses`,
//! `addresses` `IPAddresses` and `ServiceCIDRs`; `NetworkPolicies` are here.

mod addresses;
mod ingress;

pub(crate) use self::addresses::ip_address_name;

use serde_json::Value;

use crate::common::go_syntax::{raw, slice, string};
use crate::common::names::{name_is_dns_subdomain, port_name, port_number};
use crate::common::net::{contains, parse_cidr_sloppy};
use crate::common::read::{int, is_set, items, text};
use crate::core::{validate_object_meta, validate_object_meta_update};
use crate::field::{ErrorList, Path};
use crate::meta::validate_label_selector;
use crate::{Kind, Write};

/// The errors in `object`, a `networking.k8s.io` kind written as `write` says.
pub(crate) fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    match kind.kind {
        "NetworkPolicy" => validate_network_policy(object, write),
        "Ingress" => ingress::validate_ingress(object, write),
        "IngressClass" => ingress::validate_ingress_class(object, write),
        "IPAddress" => addresses::validate_ip_address(object, write),
        "ServiceCIDR" => addresses::validate_service_cidr(object, write),
        _ => ErrorList::new(),
    }
}

/// The `NetworkPolicy` strategy's `Validate` and `ValidateUpdate` (`ValidateNetworkPolicy`,
/// then `ValidateNetworkPolicyUpdate`).
fn validate_network_policy(object: &Value, write: Write) -> ErrorList {
    let metadata = Path::new("metadata");
    let spec = Path::new("spec");
    let mut errors = validate_object_meta(&object["metadata"], true, name_is_dns_subdomain, &metadata);
    errors.extend(validate_network_policy_spec(&object["spec"], &spec));
    if let Some(old) = write.old() {
        errors.extend(validate_object_meta_update(
            &object["metadata"],
            &old["metadata"],
            &metadata,
        ));
        errors.extend(validate_network_policy_spec(&object["spec"], &spec));
    }
    errors
}

/// `ValidateNetworkPolicySpec`.
fn validate_network_policy_spec(spec: &Value, path: &Path) -> ErrorList {
    let mut errors = validate_label_selector(&spec["podSelector"], &path.child("podSelector"));
    for (direction, peers) in [("ingress", "from"), ("egress", "to")] {
        for (index, rule) in items(&spec[direction]).iter().enumerate() {
            let rule_path = path.child(direction).index(index);
            for (port_index, port) in items(&rule["ports"]).iter().enumerate() {
                errors.extend(validate_network_policy_port(
                    port,
                    &rule_path.child("ports").index(port_index),
                ));
            }
            for (peer_index, peer) in items(&rule[peers]).iter().enumerate() {
                errors.extend(validate_network_policy_peer(
                    peer,
                    &rule_path.child(peers).index(peer_index),
                ));
            }
        }
    }
    let types = &spec["policyTypes"];
    let types_path = path.child("policyTypes");
    if items(types).len() > 2 {
        // Go is handed a pointer to the list, which it follows.
        let shown = slice("networking.PolicyType", types, string);
        errors.push(types_path.invalid(raw(shown), "may not specify more than two policyTypes"));
        return errors;
    }
    for (index, kind) in items(types).iter().enumerate() {
        if !matches!(text(kind), "Ingress" | "Egress") {
            errors.push(types_path.index(index).not_supported(kind, &["Ingress", "Egress"]));
        }
    }
    errors
}

/// `ValidateNetworkPolicyPort` (an unset protocol is v1's default, TCP).
fn validate_network_policy_port(port: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if let Some(protocol) = port["protocol"].as_str()
        && !matches!(protocol, "TCP" | "UDP" | "SCTP")
    {
        errors.push(path.child("protocol").not_supported(protocol, &["TCP", "UDP", "SCTP"]));
    }
    let end = &port["endPort"];
    match &port["port"] {
        Value::Null => {
            if is_set(end) {
                errors.push(
                    path.child("endPort")
                        .invalid(end, "may not be specified when `port` is not specified"),
                );
            }
        }
        Value::String(name) => {
            if is_set(end) {
                errors.push(
                    path.child("endPort")
                        .invalid(end, "may not be specified when `port` is non-numeric"),
                );
            }
            for message in port_name(name) {
                errors.push(path.child("port").invalid(name.as_str(), &message));
            }
        }
        number => {
            let number = int(number);
            for message in port_number(number) {
                errors.push(path.child("port").invalid(&Value::from(number), &message));
            }
            if is_set(end) {
                // kube shows the port, not the end port, in this message.
                if int(end) < number {
                    errors.push(
                        path.child("endPort")
                            .invalid(&Value::from(number), "must be greater than or equal to `port`"),
                    );
                }
                for message in port_number(int(end)) {
                    errors.push(path.child("endPort").invalid(&Value::from(int(end)), &message));
                }
            }
        }
    }
    errors
}

/// `ValidateNetworkPolicyPeer`: exactly one kind of peer, or selectors together.
fn validate_network_policy_peer(peer: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut peers = 0;
    for selector in ["podSelector", "namespaceSelector"] {
        if is_set(&peer[selector]) {
            peers += 1;
            errors.extend(validate_label_selector(&peer[selector], &path.child(selector)));
        }
    }
    let block = &peer["ipBlock"];
    if is_set(block) {
        peers += 1;
        errors.extend(validate_ip_block(block, &path.child("ipBlock")));
    }
    if peers == 0 {
        errors.push(path.required("must specify a peer"));
    } else if peers > 1 && is_set(block) {
        errors.push(path.forbidden("may not specify both ipBlock and another peer"));
    }
    errors
}

/// `IsValidCIDR`'s message.
const CIDR_MESSAGE: &str = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

/// `ValidateIPBlock`: a CIDR, and exceptions strictly inside it.
fn validate_ip_block(block: &Value, path: &Path) -> ErrorList {
    let cidr = text(&block["cidr"]);
    if cidr.is_empty() {
        return vec![path.child("cidr").required("")];
    }
    let Some((network, length)) = parse_cidr_sloppy(cidr) else {
        return vec![path.child("cidr").invalid(cidr, CIDR_MESSAGE)];
    };
    let mut errors = ErrorList::new();
    for (index, except) in items(&block["except"]).iter().enumerate() {
        let except_path = path.child("except").index(index);
        let except = text(except);
        let Some((except_network, except_length)) = parse_cidr_sloppy(except) else {
            errors.push(except_path.invalid(except, CIDR_MESSAGE));
            continue;
        };
        if !contains(network, length, except_network) || length >= except_length {
            errors.push(except_path.invalid(except, "must be a strict subset of `cidr`"));
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
    fn network_policy_blocks_and_ports() {
        let policy = json!({"metadata": {"name": "p"}, "spec": {"podSelector": {}, "ingress": [{
            "ports": [{"protocol": "ICMP", "port": 0}],
            "from": [{"ipBlock": {"cidr": "10.0.0.0/16", "except": ["11.0.0.0/24"]}, "podSelector": {}}]}]}});
        assert_eq!(
            errors("networking.k8s.io", "v1", "NetworkPolicy", &policy, Write::Create),
            [
                "spec.ingress[0].ports[0].protocol: Unsupported value: \"ICMP\": supported values: \"TCP\", \"UDP\", \"SCTP\"",
                "spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive",
                "spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: \"11.0.0.0/24\": must be a strict subset of `cidr`",
                "spec.ingress[0].from[0]: Forbidden: may not specify both ipBlock and another peer",
            ]
        );
    }

    #[test]
    fn ingress_paths_hosts_and_backends() {
        let backend = json!({"service": {"name": "web", "port": {"number": 80}}});
        let ingress = json!({"metadata": {"name": "i"}, "spec": {"rules": [
            {"host": "10.0.0.1", "http": {"paths": [{"path": "/", "backend": backend}]}},
            {"host": "*.*.x.com", "http": {"paths": [{"path": "/a//b", "pathType": "Exact", "backend": {}}]}},
        ]}});
        let found = errors("networking.k8s.io", "v1", "Ingress", &ingress, Write::Create);
        assert_eq!(
            found[0],
            "spec.rules[0].host: Invalid value: \"10.0.0.1\": must be a DNS name, not an IP address"
        );
        assert_eq!(
            found[1],
            "spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified"
        );
        assert!(
            found[2].starts_with("spec.rules[1].host: Invalid value: \"*.*.x.com\": a wildcard DNS-1123 subdomain")
        );
        assert_eq!(
            found[3..],
            [
                "spec.rules[1].http.paths[0].path: Invalid value: \"/a//b\": must not contain '//'",
                "spec.rules[1].http.paths[0].backend: Invalid value: \"\": resource or service backend is required",
            ]
        );
    }

    #[test]
    fn ingress_classes() {
        let class = json!({"metadata": {"name": "c"}, "spec": {"controller": "nodomain", "parameters": {"kind": "K", "name": "n", "scope": "Namespace"}}});
        assert_eq!(
            errors("networking.k8s.io", "v1", "IngressClass", &class, Write::Create),
            [
                "spec.controller: Invalid value: \"nodomain\": must be a domain-prefixed path (such as \"acme.io/foo\")",
                "spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'",
            ]
        );
        let old = json!({"metadata": {"name": "c"}, "spec": {"controller": "example.com/c"}});
        let new = json!({"metadata": {"name": "c"}, "spec": {"controller": "example.com/d"}});
        assert_eq!(
            errors(
                "networking.k8s.io",
                "v1",
                "IngressClass",
                &new,
                Write::Update { old: &old }
            ),
            ["spec.controller: Invalid value: \"example.com/d\": field is immutable"]
        );
    }

    #[test]
    fn service_cidrs_and_addresses() {
        let cidr = json!({"metadata": {"name": "c"}, "spec": {"cidrs": ["10.0.0.1/24", "10.1.0.0/16"]}});
        assert_eq!(
            errors("networking.k8s.io", "v1", "ServiceCIDR", &cidr, Write::Create),
            [
                "spec.cidrs: Invalid value: networking.ServiceCIDRSpec{CIDRs:[]string{\"10.0.0.1/24\", \"10.1.0.0/16\"}}: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64"
            ]
        );
        let single = json!({"metadata": {"name": "c"}, "spec": {"cidrs": ["10.0.0.1/24"]}});
        assert_eq!(
            errors("networking.k8s.io", "v1", "ServiceCIDR", &single, Write::Create),
            ["spec.cidrs[0]: Invalid value: \"10.0.0.1/24\": wrong CIDR format, IP doesn't match network IP address"]
        );
        let address = json!({"metadata": {"name": "10.0.0.1"}, "spec": {"parentRef": {"resource": "", "name": "a/b"}}});
        assert_eq!(
            errors("networking.k8s.io", "v1", "IPAddress", &address, Write::Create),
            [
                "spec.parentRef.resource: Required value",
                "spec.parentRef.name: Invalid value: \"a/b\": may not contain '/'",
            ]
        );
        assert_eq!(
            super::ip_address_name("010.0.0.1", false),
            ["ParseAddr(\"010.0.0.1\"): IPv4 field has octet with leading zero"]
        );
    }
}
