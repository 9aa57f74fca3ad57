//! `ValidatePodStatusUpdate`: what a status write may set (conditions, addresses, a node
//! nominated) and may not (the quality-of-service class, a terminated container back to
//! running when the pod does not restart).

use std::collections::BTreeSet;

use serde_json::Value;

use super::options::PodOptions;
use super::pod::validate_annotation_updates;
use super::{validate_object_meta_update, validate_qualified_name};
use crate::field::{ErrorList, Path};
use crate::godump;
use crate::json::{int, is_set, items, text};
use crate::meta;
use crate::util;

/// `ValidatePodStatusUpdate`. (Container users and allocated resource health need
/// features that are off in 1.32: the strategy drops them.)
pub(super) fn validate_pod_status_update(new: &Value, old: &Value) -> ErrorList {
    let options = PodOptions::for_pod(Some(old));
    let meta_path = Path::new("metadata");
    let mut errors = validate_object_meta_update(&new["metadata"], &old["metadata"], &meta_path);
    errors.extend(validate_annotation_updates(
        new,
        old,
        &meta_path.child("annotations"),
        &options,
    ));
    for (index, condition) in items(&new["status"]["conditions"]).iter().enumerate() {
        let kind = text(&condition["type"]);
        if !matches!(kind, "PodScheduled" | "Ready" | "Initialized") {
            errors.extend(validate_qualified_name(
                kind,
                &meta_path.child("conditions").index(index).child("Type"),
            ));
        }
    }
    let status_path = Path::new("status");
    let (status, old_status) = (&new["status"], &old["status"]);
    if text(&new["spec"]["nodeName"]) != text(&old["spec"]["nodeName"]) {
        errors.push(status_path.child("nodeName").forbidden("may not be changed directly"));
    }
    let nominated = text(&status["nominatedNodeName"]);
    if nominated != text(&old_status["nominatedNodeName"]) && !nominated.is_empty() {
        errors.extend(super::invalid_each(
            &status_path.child("nominatedNodeName"),
            nominated,
            &meta::name_is_dns_subdomain(nominated, false),
        ));
    }
    errors.extend(super::validate_immutable_string(
        &status["qosClass"],
        &old_status["qosClass"],
        &status_path.child("qosClass"),
    ));
    let restart = text(&old["spec"]["restartPolicy"]);
    errors.extend(state_transitions(
        status,
        old_status,
        "containerStatuses",
        restart,
        None,
        &status_path,
    ));
    errors.extend(state_transitions(
        status,
        old_status,
        "initContainerStatuses",
        restart,
        Some(&old["spec"]),
        &status_path,
    ));
    errors.extend(state_transitions(
        status,
        old_status,
        "ephemeralContainerStatuses",
        "Never",
        None,
        &status_path,
    ));
    errors.extend(validate_pod_ips(status));
    errors.extend(validate_host_ips(status));
    errors
}

/// `ValidateContainerStateTransition` and `ValidateInitContainerStateTransition`: a
/// terminated container that may not restart stays terminated.
fn state_transitions(
    status: &Value,
    old_status: &Value,
    list: &str,
    restart_policy: &str,
    init_spec: Option<&Value>,
    status_path: &Path,
) -> ErrorList {
    let mut errors = ErrorList::new();
    if restart_policy == "Always" {
        return errors;
    }
    for (index, old) in items(&old_status[list]).iter().enumerate() {
        let terminated = &old["state"]["terminated"];
        if !is_set(terminated) || (int(&terminated["exitCode"]) != 0 && restart_policy == "OnFailure") {
            continue;
        }
        let name = text(&old["name"]);
        if let Some(spec) = init_spec {
            let restartable = items(&spec["initContainers"])
                .iter()
                .find(|c| text(&c["name"]) == name)
                .is_some_and(|c| c["restartPolicy"] == "Always");
            if restartable {
                continue;
            }
        }
        for new in items(&status[list]) {
            if text(&new["name"]) == name && !is_set(&new["state"]["terminated"]) {
                errors.push(
                    status_path
                        .child(list)
                        .index(index)
                        .child("state")
                        .forbidden("may not be transitioned to non-terminated state"),
                );
            }
        }
    }
    errors
}

/// The pod IPs the internal status holds: `podIP` wins over a different `podIPs[0]`.
fn effective_pod_ips(status: &Value) -> Vec<Value> {
    let pod_ip = text(&status["podIP"]);
    let pod_ips = items(&status["podIPs"]);
    if !pod_ip.is_empty() && (pod_ips.is_empty() || text(&pod_ips[0]["ip"]) != pod_ip) {
        return vec![serde_json::json!({"ip": pod_ip})];
    }
    pod_ips.to_vec()
}

/// Whether two or more addresses are one IPv4 and one IPv6 (`IsDualStackIPStrings`).
fn is_dual_stack(ips: &[&str]) -> bool {
    let v6 = ips.iter().filter(|ip| util::is_ipv6_string(ip)).count();
    v6 > 0 && v6 < ips.len()
}

/// `validatePodIPs`.
fn validate_pod_ips(status: &Value) -> ErrorList {
    let path = Path::new("status").child("podIPs");
    let pod_ips = effective_pod_ips(status);
    let mut errors = ErrorList::new();
    for (index, ip) in pod_ips.iter().enumerate() {
        errors.extend(util::is_valid_ip(&path.index(index), text(&ip["ip"])));
    }
    if pod_ips.len() > 1 {
        let ips: Vec<&str> = pod_ips.iter().map(|ip| text(&ip["ip"])).collect();
        if !is_dual_stack(&ips) || ips.len() > 2 {
            errors.push(path.invalid(
                godump::raw(godump::ips("PodIP", &pod_ips)),
                "may specify no more than one IP for each IP family",
            ));
        }
        let mut seen = BTreeSet::new();
        for (index, ip) in pod_ips.iter().enumerate() {
            if !seen.insert(text(&ip["ip"])) {
                errors.push(path.index(index).duplicate(godump::raw(godump::ip_entry("PodIP", ip))));
            }
        }
    }
    errors
}

/// `validateHostIPs`.
fn validate_host_ips(status: &Value) -> ErrorList {
    let host_ips = items(&status["hostIPs"]);
    if host_ips.is_empty() {
        return ErrorList::new();
    }
    let path = Path::new("status").child("hostIPs");
    let mut errors = ErrorList::new();
    let first = text(&host_ips[0]["ip"]);
    if text(&status["hostIP"]) != first {
        errors.push(path.index(0).child("ip").invalid(first, "must be equal to `hostIP`"));
    }
    for (index, ip) in host_ips.iter().enumerate() {
        errors.extend(util::is_valid_ip(&path.index(index), text(&ip["ip"])));
    }
    if host_ips.len() > 1 {
        let mut seen = BTreeSet::new();
        for (index, ip) in host_ips.iter().enumerate() {
            if !seen.insert(text(&ip["ip"])) {
                errors.push(path.index(index).duplicate(godump::raw(godump::ip_entry("HostIP", ip))));
            }
        }
        let ips: Vec<&str> = host_ips.iter().map(|ip| text(&ip["ip"])).collect();
        if !is_dual_stack(&ips) || ips.len() > 2 {
            errors.push(path.invalid(
                godump::raw(godump::ips("HostIP", host_ips)),
                "may specify no more than one IP for each IP family",
            ));
        }
    }
    errors
}
