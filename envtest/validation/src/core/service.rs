//! Services (`ValidateService`, `ValidateServiceUpdate`, `ValidateServiceStatusUpdate`:
//! ports, types, traffic policies, session affinity, load balancer fields). Cluster IPs
//! and IP families are in `cluster_ips`.

use std::collections::BTreeSet;

use serde_json::Value;

use super::cluster_ips::{
    clusters_ips, is_headless, validate_cluster_ips_related_fields, validate_upgrade_downgrade_cluster_ips,
    validate_upgrade_downgrade_ip_families,
};
use super::container::{validate_app_protocol, validate_protocol};
use super::endpoints::validate_non_special_ip;
use super::probes::validate_port_num_or_name;
use super::{
    number, validate_dns1123_label, validate_dns1123_subdomain, validate_object_meta, validate_object_meta_update,
};
use crate::Write;
use crate::field::{ErrorList, Path};
use crate::godump;
use crate::json::{int, is_set, items, opt_int, opt_text, strings, text};
use crate::meta;
use crate::util;

/// A Service written as `write` says.
pub(super) fn validate(service: &Value, write: Write) -> ErrorList {
    match write {
        Write::Create => validate_service(service),
        Write::Subresource { name: "status", old } => {
            let mut errors =
                validate_object_meta_update(&service["metadata"], &old["metadata"], &Path::new("metadata"));
            errors.extend(validate_load_balancer_status(service));
            errors
        }
        Write::Update { old } | Write::Subresource { old, .. } => validate_service_update(service, old),
    }
}

/// `ValidateService`.
fn validate_service(service: &Value) -> ErrorList {
    let meta_path = Path::new("metadata");
    let mut errors = validate_object_meta(&service["metadata"], true, meta::name_is_dns1035_label, &meta_path);
    let annotations = &service["metadata"]["annotations"];
    let hints = opt_text(&annotations["service.kubernetes.io/topology-aware-hints"]);
    let mode = opt_text(&annotations["service.kubernetes.io/topology-mode"]);
    if let (Some(hints), Some(mode)) = (hints, mode)
        && hints != mode
    {
        errors.push(
            meta_path
                .child("annotations")
                .key("service.kubernetes.io/topology-mode")
                .invalid(
                    mode,
                    "must match annotations[service.kubernetes.io/topology-aware-hints] when both are specified",
                ),
        );
    }
    let spec = &service["spec"];
    let spec_path = Path::new("spec");
    let kind = text(&spec["type"]);
    let ports = items(&spec["ports"]);
    if ports.is_empty() && !is_headless(service) && kind != "ExternalName" {
        errors.push(spec_path.child("ports").required(""));
    }
    errors.extend(validate_type_rules(service, &spec_path));
    let mut names = BTreeSet::new();
    for (index, port) in ports.iter().enumerate() {
        errors.extend(validate_service_port(
            port,
            ports.len() > 1,
            &mut names,
            &spec_path.child("ports").index(index),
        ));
    }
    if is_set(&spec["selector"]) {
        errors.extend(meta::validate_labels(&spec["selector"], &spec_path.child("selector")));
    }
    errors.extend(validate_session_affinity(spec, &spec_path));
    errors.extend(validate_cluster_ips_related_fields(service));
    for (index, ip) in strings(&spec["externalIPs"]).iter().enumerate() {
        let ip_path = spec_path.child("externalIPs").index(index);
        let invalid = util::is_valid_ip(&ip_path, ip);
        if invalid.is_empty() {
            errors.extend(validate_non_special_ip(ip, &ip_path));
        } else {
            errors.extend(invalid);
        }
    }
    match kind {
        "" => errors.push(spec_path.child("type").required("")),
        "ClusterIP" | "NodePort" | "LoadBalancer" | "ExternalName" => {}
        other => errors.push(
            spec_path
                .child("type")
                .not_supported(other, &["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"]),
        ),
    }
    errors.extend(validate_node_ports_and_duplicates(service, &spec_path));
    errors.extend(validate_source_ranges(service, &spec_path));
    if is_set(&spec["allocateLoadBalancerNodePorts"]) && kind != "LoadBalancer" {
        errors.push(
            spec_path
                .child("allocateLoadBalancerNodePorts")
                .forbidden("may only be used when `type` is 'LoadBalancer'"),
        );
    }
    if kind == "LoadBalancer" && !is_set(&spec["allocateLoadBalancerNodePorts"]) {
        errors.push(Path::new("allocateLoadBalancerNodePorts").required(""));
    }
    errors.extend(validate_load_balancer_class(None, service));
    errors.extend(validate_external_traffic_policy(service));
    errors.extend(validate_internal_traffic_policy(spec));
    if let Some(distribution) = opt_text(&spec["trafficDistribution"])
        && distribution != "PreferClose"
    {
        errors.push(
            spec_path
                .child("trafficDistribution")
                .not_supported(distribution, &["PreferClose"]),
        );
    }
    errors
}

/// The rules of `ValidateService` that depend on the Service's type.
fn validate_type_rules(service: &Value, spec_path: &Path) -> ErrorList {
    let spec = &service["spec"];
    let mut errors = ErrorList::new();
    match text(&spec["type"]) {
        "LoadBalancer" => {
            for (index, port) in items(&spec["ports"]).iter().enumerate() {
                if int(&port["port"]) == 10250 {
                    errors.push(spec_path.child("ports").index(index).invalid(
                        number(10250),
                        "may not expose port 10250 externally since it is used by kubelet",
                    ));
                }
            }
            if is_headless(service) {
                errors.push(
                    spec_path
                        .child("clusterIPs")
                        .index(0)
                        .invalid("None", "may not be set to 'None' for LoadBalancer services"),
                );
            }
        }
        "NodePort" if is_headless(service) => errors.push(
            spec_path
                .child("clusterIPs")
                .index(0)
                .invalid("None", "may not be set to 'None' for NodePort services"),
        ),
        "ExternalName" => {
            if !clusters_ips(service).is_empty() {
                errors.push(
                    spec_path
                        .child("clusterIPs")
                        .forbidden("may not be set for ExternalName services"),
                );
            }
            if !items(&spec["ipFamilies"]).is_empty() {
                errors.push(
                    spec_path
                        .child("ipFamilies")
                        .forbidden("may not be set for ExternalName services"),
                );
            }
            if is_set(&spec["ipFamilyPolicy"]) {
                errors.push(
                    spec_path
                        .child("ipFamilyPolicy")
                        .forbidden("may not be set for ExternalName services"),
                );
            }
            let name = text(&spec["externalName"]);
            let cname = name.strip_suffix('.').unwrap_or(name);
            if cname.is_empty() {
                errors.push(spec_path.child("externalName").required(""));
            } else {
                errors.extend(validate_dns1123_subdomain(cname, &spec_path.child("externalName")));
            }
        }
        _ => {}
    }
    errors
}

/// `validateServicePort`.
fn validate_service_port<'a>(
    port: &'a Value,
    require_name: bool,
    names: &mut BTreeSet<&'a str>,
    path: &Path,
) -> ErrorList {
    let mut errors = ErrorList::new();
    let name = text(&port["name"]);
    if require_name && name.is_empty() {
        errors.push(path.child("name").required(""));
    } else if !name.is_empty() {
        errors.extend(validate_dns1123_label(name, &path.child("name")));
        if !names.insert(name) {
            errors.push(path.child("name").duplicate(name));
        }
    }
    let number_value = int(&port["port"]);
    for message in util::is_valid_port_num(number_value) {
        errors.push(path.child("port").invalid(number(number_value), &message));
    }
    errors.extend(validate_protocol(&port["protocol"], &path.child("protocol")));
    errors.extend(validate_port_num_or_name(
        &port["targetPort"],
        &path.child("targetPort"),
    ));
    errors.extend(validate_app_protocol(&port["appProtocol"], &path.child("appProtocol")));
    errors
}

/// Session affinity and its config.
fn validate_session_affinity(spec: &Value, spec_path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let affinity = text(&spec["sessionAffinity"]);
    match affinity {
        "" => errors.push(spec_path.child("sessionAffinity").required("")),
        "ClientIP" | "None" => {}
        other => errors.push(
            spec_path
                .child("sessionAffinity")
                .not_supported(other, &["ClientIP", "None"]),
        ),
    }
    let config = &spec["sessionAffinityConfig"];
    let config_path = spec_path.child("sessionAffinityConfig");
    if affinity == "ClientIP" {
        let when = "when session affinity type is ClientIP";
        if !is_set(config) {
            errors.push(config_path.required(when));
        } else if !is_set(&config["clientIP"]) {
            errors.push(config_path.child("clientIP").required(when));
        } else {
            let timeout_path = config_path.child("clientIP").child("timeoutSeconds");
            match opt_int(&config["clientIP"]["timeoutSeconds"]) {
                None => errors.push(timeout_path.required(when)),
                Some(timeout) if timeout <= 0 || timeout > 86400 => {
                    errors.push(timeout_path.invalid(number(timeout), "must be greater than 0 and less than 86400"));
                }
                Some(_) => {}
            }
        }
    } else if affinity == "None" && is_set(config) {
        errors.push(config_path.forbidden("must not be set when session affinity is None"));
    }
    errors
}

/// Node ports only where the type allows them, and no node port or (protocol, port)
/// pair twice.
fn validate_node_ports_and_duplicates(service: &Value, spec_path: &Path) -> ErrorList {
    let spec = &service["spec"];
    let ports = items(&spec["ports"]);
    let mut errors = ErrorList::new();
    if text(&spec["type"]) == "ClusterIP" {
        for (index, port) in ports.iter().enumerate() {
            if int(&port["nodePort"]) != 0 {
                errors.push(
                    spec_path
                        .child("ports")
                        .index(index)
                        .child("nodePort")
                        .forbidden("may not be used when `type` is 'ClusterIP'"),
                );
            }
        }
    }
    let mut node_ports = BTreeSet::new();
    for (index, port) in ports.iter().enumerate() {
        let node_port = int(&port["nodePort"]);
        if node_port == 0 {
            continue;
        }
        if !node_ports.insert((text(&port["protocol"]), node_port)) {
            errors.push(
                spec_path
                    .child("ports")
                    .index(index)
                    .child("nodePort")
                    .duplicate(number(node_port)),
            );
        }
    }
    let mut seen = BTreeSet::new();
    for (index, port) in ports.iter().enumerate() {
        let protocol = text(&port["protocol"]);
        let port_number = int(&port["port"]);
        if !seen.insert((protocol, port_number)) {
            errors.push(
                spec_path
                    .child("ports")
                    .index(index)
                    .duplicate(godump::raw(service_port_dump(protocol, port_number))),
            );
        }
    }
    errors
}

/// A `core.ServicePort` holding only a protocol and a port, as `%#v` prints it.
fn service_port_dump(protocol: &str, port: i64) -> String {
    format!(
        "core.ServicePort{{Name:\"\", Protocol:{}, AppProtocol:(*string)(nil), Port:{port}, TargetPort:intstr.IntOrString{{Type:0, IntVal:0, StrVal:\"\"}}, NodePort:0}}",
        godump::quote(protocol)
    )
}

/// `loadBalancerSourceRanges`, or the annotation standing for them.
fn validate_source_ranges(service: &Value, spec_path: &Path) -> ErrorList {
    let spec = &service["spec"];
    let load_balancer = text(&spec["type"]) == "LoadBalancer";
    let mut errors = ErrorList::new();
    let ranges = strings(&spec["loadBalancerSourceRanges"]);
    let annotation =
        opt_text(&service["metadata"]["annotations"]["service.beta.kubernetes.io/load-balancer-source-ranges"]);
    if !ranges.is_empty() {
        let path = spec_path.child("LoadBalancerSourceRanges");
        if !load_balancer {
            errors.push(path.forbidden("may only be used when `type` is 'LoadBalancer'"));
        }
        for (index, range) in ranges.iter().enumerate() {
            errors.extend(util::is_valid_cidr(&path.index(index), range.trim()));
        }
    } else if let Some(value) = annotation {
        let path = Path::new("metadata")
            .child("annotations")
            .key("service.beta.kubernetes.io/load-balancer-source-ranges");
        if !load_balancer {
            errors.push(path.forbidden("may only be used when `type` is 'LoadBalancer'"));
        }
        let value = value.trim();
        if !value.is_empty() {
            for range in value.split(',') {
                errors.extend(util::is_valid_cidr(&path, range.trim()));
            }
        }
    }
    errors
}

/// `validateLoadBalancerClassField`.
fn validate_load_balancer_class(old: Option<&Value>, service: &Value) -> ErrorList {
    let class = &service["spec"]["loadBalancerClass"];
    let path = Path::new("spec").child("loadBalancerClass");
    let is_load_balancer = |s: &Value| text(&s["spec"]["type"]) == "LoadBalancer";
    let mut errors = ErrorList::new();
    if let Some(old) = old
        && is_load_balancer(old)
        && is_load_balancer(service)
        && old["spec"]["loadBalancerClass"] != *class
    {
        errors.push(path.invalid(godump::pointee(class), "may not change once set"));
    }
    match (is_load_balancer(service), opt_text(class)) {
        (true, Some(class)) => errors.extend(super::validate_qualified_name(class, &path)),
        (false, Some(_)) => errors.push(path.forbidden("may only be used when `type` is 'LoadBalancer'")),
        _ => {}
    }
    errors
}

/// `apiservice.ExternallyAccessible` and `NeedsHealthCheck`.
fn externally_accessible(service: &Value) -> bool {
    let kind = text(&service["spec"]["type"]);
    kind == "LoadBalancer"
        || kind == "NodePort"
        || (kind == "ClusterIP" && !items(&service["spec"]["externalIPs"]).is_empty())
}

fn needs_health_check(service: &Value) -> bool {
    text(&service["spec"]["type"]) == "LoadBalancer" && text(&service["spec"]["externalTrafficPolicy"]) == "Local"
}

/// `validateServiceExternalTrafficPolicy`. (A health check node port is allocated
/// when the Service is stored; a Service that still needs one is not refused here.)
fn validate_external_traffic_policy(service: &Value) -> ErrorList {
    let spec = &service["spec"];
    let path = Path::new("spec");
    let policy = text(&spec["externalTrafficPolicy"]);
    let mut errors = ErrorList::new();
    if !externally_accessible(service) {
        if !policy.is_empty() {
            errors.push(
                path.child("externalTrafficPolicy")
                    .invalid(policy, "may only be set for externally-accessible services"),
            );
        }
    } else if policy.is_empty() {
        errors.push(path.child("externalTrafficPolicy").required(""));
    } else if policy != "Cluster" && policy != "Local" {
        errors.push(
            path.child("externalTrafficPolicy")
                .not_supported(policy, &["Cluster", "Local"]),
        );
    }
    let health = int(&spec["healthCheckNodePort"]);
    if !needs_health_check(service) {
        if health != 0 {
            errors.push(path.child("healthCheckNodePort").invalid(
                number(health),
                "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
            ));
        }
    } else if health != 0 {
        for message in util::is_valid_port_num(health) {
            errors.push(path.child("healthCheckNodePort").invalid(number(health), &message));
        }
    }
    errors
}

/// `validateServiceInternalTrafficFieldsValue`.
fn validate_internal_traffic_policy(spec: &Value) -> ErrorList {
    let path = Path::new("spec").child("internalTrafficPolicy");
    match opt_text(&spec["internalTrafficPolicy"]) {
        None if matches!(text(&spec["type"]), "NodePort" | "LoadBalancer" | "ClusterIP") => vec![path.required("")],
        Some(policy) if policy != "Cluster" && policy != "Local" => {
            vec![path.not_supported(policy, &["Cluster", "Local"])]
        }
        _ => ErrorList::new(),
    }
}

/// `ValidateServiceUpdate`.
fn validate_service_update(service: &Value, old: &Value) -> ErrorList {
    let mut errors = validate_object_meta_update(&service["metadata"], &old["metadata"], &Path::new("metadata"));
    errors.extend(validate_upgrade_downgrade_cluster_ips(old, service));
    errors.extend(validate_upgrade_downgrade_ip_families(old, service));
    errors.extend(validate_load_balancer_class(Some(old), service));
    if needs_health_check(old)
        && needs_health_check(service)
        && int(&service["spec"]["healthCheckNodePort"]) != int(&old["spec"]["healthCheckNodePort"])
    {
        errors.push(
            Path::new("spec")
                .child("healthCheckNodePort")
                .forbidden("field is immutable"),
        );
    }
    errors.extend(validate_service(service));
    errors
}

/// `ValidateLoadBalancerStatus`.
fn validate_load_balancer_status(service: &Value) -> ErrorList {
    let ingress = items(&service["status"]["loadBalancer"]["ingress"]);
    let path = Path::new("status").child("loadBalancer").child("ingress");
    if text(&service["spec"]["type"]) != "LoadBalancer" && !ingress.is_empty() {
        return vec![path.forbidden("may only be used when `spec.type` is 'LoadBalancer'")];
    }
    let mut errors = ErrorList::new();
    for (index, entry) in ingress.iter().enumerate() {
        let entry_path = path.index(index);
        let ip = text(&entry["ip"]);
        if !ip.is_empty() {
            errors.extend(util::is_valid_ip(&entry_path.child("ip"), ip));
        }
        match opt_text(&entry["ipMode"]) {
            None if !ip.is_empty() => errors.push(
                entry_path
                    .child("ipMode")
                    .required("must be specified when `ip` is set"),
            ),
            Some(_) if ip.is_empty() => {
                errors.push(
                    entry_path
                        .child("ipMode")
                        .forbidden("may not be specified when `ip` is not set"),
                );
            }
            Some(mode) if mode != "VIP" && mode != "Proxy" => {
                errors.push(entry_path.child("ipMode").not_supported(mode, &["Proxy", "VIP"]));
            }
            _ => {}
        }
        let hostname = text(&entry["hostname"]);
        if !hostname.is_empty() {
            errors.extend(super::invalid_each(
                &entry_path.child("hostname"),
                hostname,
                &util::is_dns1123_subdomain(hostname),
            ));
            if util::parse_ip_sloppy(hostname).is_some() {
                errors.push(
                    entry_path
                        .child("hostname")
                        .invalid(hostname, "must be a DNS name, not an IP address"),
                );
            }
        }
    }
    errors
}
