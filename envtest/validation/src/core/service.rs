//! Services (`ValidateService`, `ValidateServiceUpdate`, `ValidateServiceStatusUpdate`:
//! ports, types, cluster IPs and IP families, traffic policies, session affinity,
//! load balancer fields) and Endpoints (`ValidateEndpoints`).

use std::collections::BTreeSet;

use serde_json::Value;

use super::container::{validate_port_num_or_name, validate_protocol};
use super::volume::validate_app_protocol;
use super::{
    number, validate_dns1123_label, validate_dns1123_subdomain, validate_object_meta, validate_object_meta_update,
};
use crate::Write;
use crate::field::{BadValue, ErrorList, Path};
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

fn clusters_ips(service: &Value) -> Vec<&str> {
    strings(&service["spec"]["clusterIPs"])
}

/// `isHeadlessService`.
fn is_headless(service: &Value) -> bool {
    clusters_ips(service) == ["None"]
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

/// `ValidateServiceClusterIPsRelatedFields`.
fn validate_cluster_ips_related_fields(service: &Value) -> ErrorList {
    let spec = &service["spec"];
    if text(&spec["type"]) == "ExternalName" {
        return ErrorList::new();
    }
    let path = Path::new("spec");
    let ips_path = path.child("clusterIPs");
    let cluster_ip = text(&spec["clusterIP"]);
    let ips = clusters_ips(service);
    let shown = || godump::raw(godump::string_slice("string", &spec["clusterIPs"]));
    let mut errors = ErrorList::new();
    if !cluster_ip.is_empty() {
        if ips.is_empty() {
            errors.push(ips_path.required(""));
        } else if ips[0] != cluster_ip {
            errors.push(ips_path.invalid(shown(), "first value must match `clusterIP`"));
        }
    } else if !ips.is_empty() {
        errors.push(ips_path.invalid(shown(), "must be empty when `clusterIP` is not specified"));
    }
    let families = strings(&spec["ipFamilies"]);
    let mut seen = BTreeSet::new();
    for (index, family) in families.iter().enumerate() {
        if *family != "IPv4" && *family != "IPv6" {
            errors.push(
                path.child("ipFamilies")
                    .index(index)
                    .not_supported(*family, &["IPv4", "IPv6"]),
            );
        }
        if !seen.insert(family) {
            errors.push(path.child("ipFamilies").index(index).duplicate(*family));
        }
    }
    if let Some(policy) = opt_text(&spec["ipFamilyPolicy"])
        && !matches!(policy, "SingleStack" | "PreferDualStack" | "RequireDualStack")
    {
        errors.push(
            path.child("ipFamilyPolicy")
                .not_supported(policy, &["PreferDualStack", "RequireDualStack", "SingleStack"]),
        );
    }
    let mut invalid = false;
    for (index, ip) in ips.iter().enumerate() {
        if index == 0 && *ip == "None" {
            if ips.len() > 1 {
                invalid = true;
                errors.push(ips_path.invalid(shown(), "'None' must be the first and only value"));
            }
            continue;
        }
        let found = util::is_valid_ip(&ips_path.index(index), ip);
        invalid |= !found.is_empty();
        errors.extend(found);
    }
    if ips.len() > 2 {
        errors.push(ips_path.invalid(shown(), "may only hold up to 2 values"));
    }
    if invalid {
        return errors;
    }
    if ips.len() > 1 {
        let v6 = ips.iter().filter(|ip| util::is_ipv6_string(ip)).count();
        if v6 == 0 || v6 == ips.len() {
            errors.push(ips_path.invalid(shown(), "may specify no more than one IP for each IP family"));
        }
    }
    if !is_headless(service) && !ips.is_empty() && !families.is_empty() {
        for (index, (ip, family)) in ips.iter().zip(&families).enumerate() {
            if *family == "IPv4" && util::is_ipv6_string(ip) {
                errors.push(ips_path.index(index).invalid(
                    *ip,
                    &format!("expected an IPv4 value as indicated by `ipFamilies[{index}]`"),
                ));
            }
            if *family == "IPv6" && !util::is_ipv6_string(ip) {
                errors.push(ips_path.index(index).invalid(
                    *ip,
                    &format!("expected an IPv6 value as indicated by `ipFamilies[{index}]`"),
                ));
            }
        }
    }
    errors
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

/// `validateUpgradeDowngradeClusterIPs`.
fn validate_upgrade_downgrade_cluster_ips(old: &Value, service: &Value) -> ErrorList {
    let external = |s: &Value| text(&s["spec"]["type"]) == "ExternalName";
    if external(service) || external(old) || (is_headless(old) && is_headless(service)) {
        return ErrorList::new();
    }
    let (before, after) = (clusters_ips(old), clusters_ips(service));
    let path = Path::new("spec").child("clusterIPs");
    let shown = || godump::raw(godump::string_slice("string", &service["spec"]["clusterIPs"]));
    let mut errors = ErrorList::new();
    if before.len() == after.len() {
        for (index, ip) in before.iter().enumerate() {
            if *ip != after[index] {
                errors.push(path.index(index).invalid(shown(), "may not change once set"));
            }
        }
    } else if before.len() > after.len() {
        if after.is_empty() {
            errors.push(path.index(0).invalid(shown(), "primary clusterIP can not be unset"));
        }
        if !before.is_empty() && !after.is_empty() && after[0] != before[0] {
            errors.push(path.index(0).invalid(shown(), "may not change once set"));
        }
        if after.len() == 1 && text(&service["spec"]["ipFamilyPolicy"]) != "SingleStack" {
            errors.push(Path::new("spec").child("ipFamilyPolicy").invalid(
                policy_shown(service),
                "must be set to 'SingleStack' when releasing the secondary clusterIP",
            ));
        }
    } else if !before.is_empty() && after[0] != before[0] {
        errors.push(path.index(0).invalid(shown(), "may not change once set"));
    }
    errors
}

fn policy_shown(service: &Value) -> BadValue {
    godump::pointee(&service["spec"]["ipFamilyPolicy"])
}

/// `validateUpgradeDowngradeIPFamilies`.
fn validate_upgrade_downgrade_ip_families(old: &Value, service: &Value) -> ErrorList {
    let external = |s: &Value| text(&s["spec"]["type"]) == "ExternalName";
    if external(service) || external(old) || is_headless(old) != is_headless(service) || is_headless(service) {
        return ErrorList::new();
    }
    let (before, after) = (
        strings(&old["spec"]["ipFamilies"]),
        strings(&service["spec"]["ipFamilies"]),
    );
    let path = Path::new("spec").child("ipFamilies").index(0);
    let families = || godump::raw(godump::string_slice("core.IPFamily", &service["spec"]["ipFamilies"]));
    let ips = || godump::raw(godump::string_slice("string", &service["spec"]["clusterIPs"]));
    let mut errors = ErrorList::new();
    if before.len() == after.len() {
        for (index, family) in before.iter().enumerate() {
            if *family != after[index] {
                errors.push(path.invalid(families(), "may not change once set"));
            }
        }
    } else if before.len() > after.len() {
        if clusters_ips(service).is_empty() {
            errors.push(path.invalid(families(), "primary ipFamily can not be unset"));
        }
        if !after.is_empty() && after[0] != before[0] {
            errors.push(path.invalid(ips(), "may not change once set"));
        }
        if after.len() == 1 && text(&service["spec"]["ipFamilyPolicy"]) != "SingleStack" {
            errors.push(Path::new("spec").child("ipFamilyPolicy").invalid(
                policy_shown(service),
                "must be set to 'SingleStack' when releasing the secondary ipFamily",
            ));
        }
    } else if !before.is_empty() && !after.is_empty() && after[0] != before[0] {
        errors.push(path.invalid(ips(), "may not change once set"));
    }
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
