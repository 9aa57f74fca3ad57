//! Service cluster IPs and node ports, allocated as kube-apiserver's Service storage
//! allocates them when it stores a Service (`pkg/registry/core/service/storage/alloc.go`):
//! a given `clusterIP` must be an IP of the service CIDR that no other Service holds,
//! and one is chosen when none is given; each port of a `NodePort` or `LoadBalancer`
//! Service gets a `nodePort` of 30000–32767 that no other Service holds. What is
//! allocated is read from the stored Services, so a deleted Service (or one that
//! stopped needing node ports) releases what it held, and a dry run reserves nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::net::{IpAddr, Ipv4Addr};
use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::{Value, json};
use wheelhouse_envtest_schema::errors::go_quote;

use crate::core::{ApiError, GroupResource, ResourceType};
use crate::store::Store;

/// The service CIDR, 10.96.0.0/12, as a kubeadm cluster's (`--service-cluster-ip-range`).
const CIDR_BASE: u32 = u32::from_be_bytes([10, 96, 0, 0]);
const CIDR_PREFIX: u32 = 12;
const CIDR_TEXT: &str = "10.96.0.0/12";

/// `--service-node-port-range`'s default.
const NODE_PORTS: std::ops::RangeInclusive<i64> = 30000..=32767;

/// Where the next search for a free cluster IP starts (offset in the CIDR), and for a
/// free node port: kube picks at random, here in turn, so tests see distinct values.
static NEXT_IP_OFFSET: AtomicU32 = AtomicU32::new(10);
static NEXT_NODE_PORT: AtomicU32 = AtomicU32::new(0);

/// Allocates `service`'s cluster IP and node ports, created (`old` None) or updated
/// from `old`; a 422 with kube's field error when a given value cannot be had.
pub(crate) fn allocate(
    store: &Store,
    resource: &ResourceType,
    service: &mut Value,
    old: Option<&Value>,
) -> Result<(), ApiError> {
    let name = service["metadata"]["name"].as_str().unwrap_or_default().to_owned();
    let namespace = service["metadata"]["namespace"].as_str().unwrap_or_default().to_owned();
    let others: Vec<_> = store
        .objects(&GroupResource {
            group: String::new(),
            resource: "services".into(),
        })
        .into_iter()
        .filter(|((ns, n), _)| !(*ns == namespace && *n == name))
        .map(|(_, other)| store.value(&other))
        .collect();
    let invalid =
        |field: &str, detail: String| ApiError::invalid(resource, &name, &[(field, "FieldValueInvalid", detail)]);
    if let Some(old) = old {
        drop_released_values(service, old);
    }
    if needs_cluster_ip(service) && old.is_none_or(|old| !needs_cluster_ip(old)) {
        let taken: BTreeSet<&str> = others
            .iter()
            .filter_map(|other| other["spec"]["clusterIP"].as_str())
            .collect();
        cluster_ip(&mut service["spec"], &taken).map_err(|(field, detail)| invalid(&field, detail))?;
    }
    if needs_node_ports(service) {
        if let Some(old) = old.filter(|old| needs_node_ports(old)) {
            keep_node_ports(service, old);
        }
        let mut taken: BTreeSet<i64> = others.iter().flat_map(|other| node_ports(other)).collect();
        let own: BTreeSet<i64> = old.map(node_ports).unwrap_or_default();
        node_ports_of(&mut service["spec"], &mut taken, &own).map_err(|(field, detail)| invalid(&field, detail))?;
    }
    Ok(())
}

/// A field error: the field's path and its detail (`Invalid value: ...: why`).
type FieldError = (String, String);

fn needs_cluster_ip(service: &Value) -> bool {
    let spec = &service["spec"];
    spec["type"] != "ExternalName" && spec["clusterIP"] != "None"
}

fn needs_node_ports(service: &Value) -> bool {
    let spec = &service["spec"];
    spec["type"] == "NodePort" || (spec["type"] == "LoadBalancer" && spec["allocateLoadBalancerNodePorts"] != false)
}

/// The node ports `service` holds.
fn node_ports(service: &Value) -> BTreeSet<i64> {
    if !needs_node_ports(service) {
        return BTreeSet::new();
    }
    service["spec"]["ports"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|port| port["nodePort"].as_i64())
        .collect()
}

/// `dropTypeDependentFields`: a Service changing to a type that needs no cluster IP or
/// no node ports loses the values it still carries from before, which releases them.
fn drop_released_values(service: &mut Value, old: &Value) {
    if !needs_node_ports(service) && needs_node_ports(old) {
        let old_ports: Vec<Value> = old["spec"]["ports"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|port| port["nodePort"].clone())
            .collect();
        let ports = service["spec"]["ports"].as_array_mut();
        for (index, port) in ports.into_iter().flatten().enumerate() {
            if old_ports.get(index) == Some(&port["nodePort"])
                && let Some(port) = port.as_object_mut()
            {
                port.remove("nodePort");
            }
        }
    }
    if service["spec"]["type"] == "ExternalName"
        && needs_cluster_ip(old)
        && service["spec"]["clusterIP"] == old["spec"]["clusterIP"]
        && let Some(spec) = service["spec"].as_object_mut()
    {
        for field in ["clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy"] {
            spec.remove(field);
        }
    }
}

/// `PatchAllocatedValues`: a port that names no node port keeps the one its namesake
/// had, unless another port now uses it.
fn keep_node_ports(service: &mut Value, old: &Value) {
    let by_name: BTreeMap<String, i64> = old["spec"]["ports"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|port| {
            Some((
                port["name"].as_str().unwrap_or_default().to_owned(),
                port["nodePort"].as_i64()?,
            ))
        })
        .collect();
    let Some(ports) = service["spec"]["ports"].as_array_mut() else {
        return;
    };
    let used: BTreeSet<i64> = ports.iter().filter_map(|port| port["nodePort"].as_i64()).collect();
    for port in ports {
        let name = port["name"].as_str().unwrap_or_default();
        if port["nodePort"].as_i64().is_none_or(|n| n == 0)
            && let Some(&kept) = by_name.get(name)
            && !used.contains(&kept)
        {
            port["nodePort"] = json!(kept);
        }
    }
}

/// The cluster IP of a new Service (or one that now needs one): the given one if it is
/// an IP of the CIDR that no other Service holds, else the next free one.
fn cluster_ip(spec: &mut Value, taken: &BTreeSet<&str>) -> Result<(), FieldError> {
    let given = spec["clusterIP"]
        .as_str()
        .filter(|ip| !ip.is_empty())
        .map(str::to_owned);
    let Some(given) = given else {
        let ip = next_free_ip(taken).ok_or_else(|| {
            (
                "spec.clusterIPs".to_owned(),
                "Internal error: failed to allocate a serviceIP: range is full".to_owned(),
            )
        })?;
        spec["clusterIP"] = json!(ip);
        spec["clusterIPs"] = json!([ip]);
        return Ok(());
    };
    // `ValidateServiceClusterIPsRelatedFields`, then `allocIPs`.
    let shown = format!("[]string{{{}}}", go_quote(&given));
    let address = given.parse::<IpAddr>().map_err(|_| {
        (
            "spec.clusterIPs[0]".to_owned(),
            format!(
                "Invalid value: {}: must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
                go_quote(&given)
            ),
        )
    })?;
    let IpAddr::V4(address) = address else {
        return Err((
            "spec.clusterIPs[0]".to_owned(),
            format!("Invalid value: {shown}: IPv6 is not configured on this cluster"),
        ));
    };
    let failed = |why: &str| {
        (
            "spec.clusterIPs".to_owned(),
            format!("Invalid value: {shown}: failed to allocate IP {given}: {why}"),
        )
    };
    if !in_range(address) {
        return Err(failed(&format!(
            "the provided IP ({given}) is not in the valid range. The range of valid IPs is {CIDR_TEXT}"
        )));
    }
    if taken.contains(given.as_str()) {
        return Err(failed("provided IP is already allocated"));
    }
    spec["clusterIPs"] = json!([given]);
    Ok(())
}

/// Whether `address` can be allocated: inside the CIDR, and neither its network nor
/// its broadcast address.
fn in_range(address: Ipv4Addr) -> bool {
    let offset = u32::from(address).wrapping_sub(CIDR_BASE);
    offset > 0 && offset < size() - 1
}

fn size() -> u32 {
    1 << (32 - CIDR_PREFIX)
}

fn next_free_ip(taken: &BTreeSet<&str>) -> Option<String> {
    for _ in 0..size() {
        let offset = NEXT_IP_OFFSET.fetch_add(1, Ordering::Relaxed) % size();
        let address = Ipv4Addr::from(CIDR_BASE + offset);
        // .1 is the `kubernetes` Service's on a real cluster.
        if offset > 1 && in_range(address) && !taken.contains(address.to_string().as_str()) {
            return Some(address.to_string());
        }
    }
    None
}

/// `initNodePorts`/`updateNodePorts`: each port's given node port, checked, or the next
/// free one; ports of one number (TCP and UDP) share theirs. `own` are the node ports
/// the Service held before, which it may keep.
fn node_ports_of(spec: &mut Value, taken: &mut BTreeSet<i64>, own: &BTreeSet<i64>) -> Result<(), FieldError> {
    let Some(ports) = spec["ports"].as_array_mut() else {
        return Ok(());
    };
    let requested: Vec<(String, i64)> = ports
        .iter()
        .map(|port| (port["port"].to_string(), port["nodePort"].as_i64().unwrap_or(0)))
        .collect();
    let mut by_port: BTreeMap<String, i64> = BTreeMap::new();
    for (index, port) in ports.iter_mut().enumerate() {
        let number = port["port"].to_string();
        let given = port["nodePort"].as_i64().filter(|n| *n != 0);
        let shared = by_port.get(&number).copied();
        let wanted = match (given, shared) {
            (None, Some(shared)) => {
                port["nodePort"] = json!(shared);
                continue;
            }
            (Some(given), Some(shared)) if given == shared => continue,
            (Some(given), _) => Some(given),
            // A later port of the same number may name the node port to share.
            (None, None) => requested
                .iter()
                .skip(index)
                .find(|(other, node_port)| *other == number && *node_port != 0)
                .map(|(_, node_port)| *node_port),
        };
        let node_port = match wanted {
            Some(node_port) => {
                let field = format!("spec.ports[{index}].nodePort");
                if !NODE_PORTS.contains(&node_port) {
                    return Err((
                        field,
                        format!(
                            "Invalid value: {node_port}: provided port is not in the valid range. The range of valid ports is {}-{}",
                            NODE_PORTS.start(),
                            NODE_PORTS.end()
                        ),
                    ));
                }
                if taken.contains(&node_port) && !own.contains(&node_port) {
                    return Err((
                        field,
                        format!("Invalid value: {node_port}: provided port is already allocated"),
                    ));
                }
                node_port
            }
            None => next_free_port(taken).ok_or_else(|| {
                (
                    format!("spec.ports[{index}].nodePort"),
                    "Internal error: failed to allocate a nodePort: range is full".to_owned(),
                )
            })?,
        };
        taken.insert(node_port);
        by_port.insert(number, node_port);
        port["nodePort"] = json!(node_port);
    }
    Ok(())
}

fn next_free_port(taken: &BTreeSet<i64>) -> Option<i64> {
    let count = NODE_PORTS.end() - NODE_PORTS.start() + 1;
    for _ in 0..count {
        let offset = i64::from(NEXT_NODE_PORT.fetch_add(1, Ordering::Relaxed)) % count;
        let port = NODE_PORTS.start() + offset;
        if !taken.contains(&port) {
            return Some(port);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_cluster_ips_are_checked_as_kube_words_it() {
        let taken = BTreeSet::from(["10.96.0.20"]);
        let mut spec = json!({"clusterIP": "abc"});
        let error = cluster_ip(&mut spec, &taken).expect_err("not an IP");
        assert_eq!(error.0, "spec.clusterIPs[0]");
        assert_eq!(
            error.1,
            "Invalid value: \"abc\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"
        );
        let mut spec = json!({"clusterIP": "192.0.2.1"});
        let error = cluster_ip(&mut spec, &taken).expect_err("outside");
        assert_eq!(
            error,
            (
                "spec.clusterIPs".to_owned(),
                "Invalid value: []string{\"192.0.2.1\"}: failed to allocate IP 192.0.2.1: the provided IP (192.0.2.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12".to_owned()
            )
        );
        let mut spec = json!({"clusterIP": "10.96.0.20"});
        let error = cluster_ip(&mut spec, &taken).expect_err("taken");
        assert!(
            error
                .1
                .ends_with("failed to allocate IP 10.96.0.20: provided IP is already allocated")
        );
        let mut spec = json!({"clusterIP": "10.111.255.254"});
        cluster_ip(&mut spec, &taken).expect("the last usable address");
        assert_eq!(spec["clusterIPs"], json!(["10.111.255.254"]));
        assert!(!in_range(Ipv4Addr::new(10, 111, 255, 255)) && !in_range(Ipv4Addr::new(10, 96, 0, 0)));
    }

    #[test]
    fn a_cluster_ip_is_chosen_from_the_free_ones() {
        let mut spec = json!({});
        cluster_ip(&mut spec, &BTreeSet::new()).expect("allocated");
        let ip: Ipv4Addr = spec["clusterIP"].as_str().expect("an IP").parse().expect("an IPv4");
        assert!(in_range(ip));
        assert_eq!(spec["clusterIPs"], json!([ip.to_string()]));
    }

    #[test]
    fn node_ports_are_allocated_shared_by_port_number_and_checked() {
        let mut taken = BTreeSet::from([30100]);
        let mut spec = json!({"ports": [
            {"port": 53, "protocol": "UDP"}, {"port": 53, "protocol": "TCP", "nodePort": 30200}, {"port": 80}
        ]});
        node_ports_of(&mut spec, &mut taken, &BTreeSet::new()).expect("allocated");
        assert_eq!(spec["ports"][0]["nodePort"], 30200);
        assert_eq!(spec["ports"][1]["nodePort"], 30200);
        let third = spec["ports"][2]["nodePort"].as_i64().expect("a port");
        assert!(NODE_PORTS.contains(&third) && third != 30200 && third != 30100);

        let mut spec = json!({"ports": [{"port": 80, "nodePort": 30100}]});
        let error = node_ports_of(&mut spec, &mut taken, &BTreeSet::new()).expect_err("taken");
        assert_eq!(
            error,
            (
                "spec.ports[0].nodePort".to_owned(),
                "Invalid value: 30100: provided port is already allocated".to_owned()
            )
        );
        node_ports_of(&mut spec, &mut taken, &BTreeSet::from([30100])).expect("its own");
        let mut spec = json!({"ports": [{"port": 80, "nodePort": 8080}]});
        let error = node_ports_of(&mut spec, &mut taken, &BTreeSet::new()).expect_err("outside");
        assert_eq!(
            error.1,
            "Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767"
        );
    }

    #[test]
    fn changing_type_drops_what_the_new_type_does_not_need() {
        let old = json!({"spec": {"type": "NodePort", "clusterIP": "10.96.0.30", "ports": [{"port": 80, "nodePort": 30001}]}});
        let mut new = json!({"spec": {"type": "ClusterIP", "clusterIP": "10.96.0.30", "ports": [{"port": 80, "nodePort": 30001}]}});
        drop_released_values(&mut new, &old);
        assert_eq!(new["spec"]["ports"][0], json!({"port": 80}));
        let mut external = json!({"spec": {"type": "ExternalName", "externalName": "x.example", "clusterIP": "10.96.0.30", "ports": []}});
        drop_released_values(&mut external, &old);
        assert!(external["spec"].get("clusterIP").is_none());

        let mut renamed = json!({"spec": {"type": "NodePort", "ports": [{"name": "web", "port": 81}]}});
        let before = json!({"spec": {"type": "NodePort", "ports": [{"name": "web", "port": 80, "nodePort": 30001}]}});
        keep_node_ports(&mut renamed, &before);
        assert_eq!(renamed["spec"]["ports"][0]["nodePort"], 30001);
    }
}
