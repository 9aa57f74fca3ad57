//! `ValidatePodSpec`: a pod spec as a Pod and every workload's template carry it,
//! with its names, policies, DNS settings, host aliases, resource claims and
//! scheduling gates. Affinity, tolerations and topology spread are in `scheduling`.

use std::collections::BTreeSet;

use serde_json::Value;

use super::container::{PodContext, validate_containers, validate_ephemeral_containers, validate_init_containers};
use super::options::PodOptions;
use super::scheduling::{validate_affinity, validate_tolerations, validate_topology_spread_constraints};
use super::volume::validate_volumes;
use super::{invalid_each, number, validate_dns1123_label, validate_dns1123_subdomain, validate_qualified_name};
use crate::field::{BadValue, ErrorList, Path};
use crate::godump;
use crate::json::{int, is_set, items, opt_int, opt_text, strings, text};
use crate::meta::{self};
use crate::util;

/// `ValidatePodSpec`; `pod_name` is the Pod's name (none for a template).
pub(crate) fn validate_pod_spec(spec: &Value, pod_name: Option<&str>, path: &Path, options: &PodOptions) -> ErrorList {
    let mut errors = ErrorList::new();
    if !is_set(&spec["terminationGracePeriodSeconds"]) {
        errors.push(path.child("terminationGracePeriodSeconds").required(""));
    }
    let (volumes, volume_errors) = validate_volumes(&spec["volumes"], pod_name, &path.child("volumes"), options);
    errors.extend(volume_errors);
    let claim_names: BTreeSet<String> = items(&spec["resourceClaims"])
        .iter()
        .map(|c| text(&c["name"]).to_owned())
        .filter(|n| !n.is_empty())
        .collect();
    errors.extend(validate_pod_resource_claims(
        &spec["resourceClaims"],
        &path.child("resourceClaims"),
    ));
    let context = PodContext {
        volumes: &volumes,
        claim_names: &claim_names,
        grace_period: opt_int(&spec["terminationGracePeriodSeconds"]),
        restart_policy: text(&spec["restartPolicy"]),
        // `hostUsers` needs UserNamespacesSupport, off in 1.32: dropped, so true.
        host_users: true,
        options,
    };
    errors.extend(validate_containers(
        &spec["containers"],
        &context,
        &path.child("containers"),
    ));
    errors.extend(validate_init_containers(
        &spec["initContainers"],
        &spec["containers"],
        &context,
        &path.child("initContainers"),
    ));
    errors.extend(validate_ephemeral_containers(
        &spec["ephemeralContainers"],
        &spec["containers"],
        &spec["initContainers"],
        &context,
        &path.child("ephemeralContainers"),
    ));
    errors.extend(validate_host_network_deps(spec, path, options));
    errors.extend(validate_restart_policy(
        text(&spec["restartPolicy"]),
        &path.child("restartPolicy"),
    ));
    errors.extend(validate_dns_policy(text(&spec["dnsPolicy"]), &path.child("dnsPolicy")));
    errors.extend(meta::validate_labels(
        &spec["nodeSelector"],
        &path.child("nodeSelector"),
    ));
    errors.extend(super::security::validate_pod_security_context(
        spec,
        &path.child("securityContext"),
        options.allow_namespaced_sysctls_for_host_net_and_host_ipc,
    ));
    errors.extend(validate_image_pull_secrets(
        &spec["imagePullSecrets"],
        &path.child("imagePullSecrets"),
    ));
    errors.extend(validate_affinity(&spec["affinity"], options, &path.child("affinity")));
    errors.extend(validate_dns_config(spec, &path.child("dnsConfig"), options));
    for (index, gate) in items(&spec["readinessGates"]).iter().enumerate() {
        errors.extend(validate_qualified_name(
            text(&gate["conditionType"]),
            &path.child("readinessGates").index(index).child("conditionType"),
        ));
    }
    errors.extend(validate_scheduling_gates(
        &spec["schedulingGates"],
        &path.child("schedulingGates"),
    ));
    errors.extend(validate_topology_spread_constraints(
        &spec["topologySpreadConstraints"],
        &path.child("topologySpreadConstraints"),
        options,
    ));
    errors.extend(super::security::validate_windows_host_process_pod(spec, path));
    errors.extend(validate_names_and_policies(spec, path));
    errors.extend(super::security::validate_os(spec, path));
    errors
}

/// The named references and the remaining scalar rules of `ValidatePodSpec`, in order.
fn validate_names_and_policies(spec: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let named = |field: &str, errors: &mut ErrorList| {
        let name = text(&spec[field]);
        if !name.is_empty() {
            errors.extend(invalid_each(
                &path.child(field),
                name,
                &meta::name_is_dns_subdomain(name, false),
            ));
        }
    };
    named("serviceAccountName", &mut errors);
    named("nodeName", &mut errors);
    if let Some(deadline) = opt_int(&spec["activeDeadlineSeconds"])
        && !(1..=i64::from(i32::MAX)).contains(&deadline)
    {
        errors.push(
            path.child("activeDeadlineSeconds")
                .invalid(number(deadline), &util::inclusive_range_error(1, i64::from(i32::MAX))),
        );
    }
    for field in ["hostname", "subdomain"] {
        let value = text(&spec[field]);
        if !value.is_empty() {
            errors.extend(validate_dns1123_label(value, &path.child(field)));
        }
    }
    if !items(&spec["tolerations"]).is_empty() {
        errors.extend(validate_tolerations(&spec["tolerations"], &path.child("tolerations")));
    }
    for (index, alias) in items(&spec["hostAliases"]).iter().enumerate() {
        let alias_path = path.child("hostAliases").index(index);
        errors.extend(util::is_valid_ip(&alias_path.child("ip"), text(&alias["ip"])));
        for (name_index, hostname) in strings(&alias["hostnames"]).iter().enumerate() {
            errors.extend(validate_dns1123_subdomain(
                hostname,
                &alias_path.child("hostnames").index(name_index),
            ));
        }
    }
    named("priorityClassName", &mut errors);
    if let Some(runtime_class) = opt_text(&spec["runtimeClassName"]) {
        errors.extend(invalid_each(
            &path.child("runtimeClassName"),
            runtime_class,
            &meta::name_is_dns_subdomain(runtime_class, false),
        ));
    }
    if let Some(policy) = opt_text(&spec["preemptionPolicy"]) {
        match policy {
            "PreemptLowerPriority" | "Never" => {}
            "" => errors.push(path.child("preemptionPolicy").required("")),
            other => errors.push(
                path.child("preemptionPolicy")
                    .not_supported(other, &["PreemptLowerPriority", "Never"]),
            ),
        }
    }
    if is_set(&spec["overhead"]) {
        let requirements = serde_json::json!({"limits": spec["overhead"]});
        errors.extend(super::resources::validate_container_resource_requirements(
            &requirements,
            &BTreeSet::new(),
            &path.child("overhead"),
            &PodOptions::for_template(None),
        ));
    }
    errors
}

/// `validatePodResourceClaims`: names unique DNS labels, one source each.
fn validate_pod_resource_claims(claims: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut names = BTreeSet::new();
    for (index, claim) in items(claims).iter().enumerate() {
        let item_path = path.index(index);
        let name = text(&claim["name"]);
        if name.is_empty() {
            errors.push(item_path.child("name").required(""));
        } else if names.contains(name) {
            errors.push(item_path.child("name").duplicate(name));
        } else {
            errors.extend(validate_dns1123_label(name, &item_path.child("name")));
            names.insert(name);
        }
        let claim_name = opt_text(&claim["resourceClaimName"]);
        let template = opt_text(&claim["resourceClaimTemplateName"]);
        if claim_name.is_some() && template.is_some() {
            errors.push(item_path.invalid(
                BadValue::Json(claim.clone()),
                "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified",
            ));
        }
        if claim_name.is_none() && template.is_none() {
            errors.push(item_path.invalid(
                BadValue::Json(claim.clone()),
                "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`",
            ));
        }
        for (field, value) in [
            ("resourceClaimName", claim_name),
            ("resourceClaimTemplateName", template),
        ] {
            if let Some(value) = value {
                errors.extend(invalid_each(
                    &item_path.child(field),
                    value,
                    &meta::name_is_dns_subdomain(value, false),
                ));
            }
        }
    }
    errors
}

/// `validatePodHostNetworkDeps`: with `hostNetwork`, host ports equal container ports.
fn validate_host_network_deps(spec: &Value, path: &Path, options: &PodOptions) -> ErrorList {
    let mut errors = ErrorList::new();
    if spec["hostNetwork"] != true {
        return errors;
    }
    for (index, container) in items(&spec["containers"]).iter().enumerate() {
        for (port_index, port) in items(&container["ports"]).iter().enumerate() {
            let (host, container_port) = (int(&port["hostPort"]), int(&port["containerPort"]));
            if (options.resource_is_pod || host != 0) && host != container_port {
                errors.push(
                    path.child("containers")
                        .index(index)
                        .child("ports")
                        .index(port_index)
                        .child("hostPort")
                        .invalid(number(host), "must match `containerPort` when `hostNetwork` is true"),
                );
            }
        }
    }
    errors
}

/// `validateRestartPolicy`.
pub(crate) fn validate_restart_policy(policy: &str, path: &Path) -> ErrorList {
    match policy {
        "Always" | "OnFailure" | "Never" => ErrorList::new(),
        "" => vec![path.required("")],
        other => vec![path.not_supported(other, &["Always", "OnFailure", "Never"])],
    }
}

fn validate_dns_policy(policy: &str, path: &Path) -> ErrorList {
    match policy {
        "ClusterFirstWithHostNet" | "ClusterFirst" | "Default" | "None" => ErrorList::new(),
        "" => vec![path.required("")],
        other => vec![path.not_supported(other, &["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"])],
    }
}

/// `validateImagePullSecrets`: only `name` may be set.
fn validate_image_pull_secrets(secrets: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    for (index, secret) in items(secrets).iter().enumerate() {
        let extra = secret
            .as_object()
            .is_some_and(|fields| fields.iter().any(|(k, v)| k != "name" && !v.is_null()));
        if extra {
            errors.push(
                path.index(index)
                    .invalid(BadValue::Json(secret.clone()), "only name may be set"),
            );
        }
    }
    errors
}

/// `validatePodDNSConfig`.
fn validate_dns_config(spec: &Value, path: &Path, options: &PodOptions) -> ErrorList {
    let config = &spec["dnsConfig"];
    let mut errors = ErrorList::new();
    if spec["dnsPolicy"] == "None" {
        if !is_set(config) {
            return vec![path.required("must provide `dnsConfig` when `dnsPolicy` is None")];
        }
        if items(&config["nameservers"]).is_empty() {
            return vec![
                path.child("nameservers")
                    .required("must provide at least one DNS nameserver when `dnsPolicy` is None"),
            ];
        }
    }
    if !is_set(config) {
        return errors;
    }
    let nameservers = strings(&config["nameservers"]);
    if nameservers.len() > 3 {
        errors.push(path.child("nameservers").invalid(
            godump::raw(godump::string_slice("string", &config["nameservers"])),
            "must not have more than 3 nameservers",
        ));
    }
    for (index, server) in nameservers.iter().enumerate() {
        errors.extend(util::is_valid_ip(&path.child("nameservers").index(index), server));
    }
    let searches = strings(&config["searches"]);
    let shown = || godump::raw(godump::string_slice("string", &config["searches"]));
    if searches.len() > 32 {
        errors.push(
            path.child("searches")
                .invalid(shown(), "must not have more than 32 search paths"),
        );
    }
    if searches.join(" ").len() > 2048 {
        errors.push(path.child("searches").invalid(
            shown(),
            "must not have more than 2048 characters (including spaces) in the search list",
        ));
    }
    for (index, search) in searches.iter().enumerate() {
        let search_path = path.child("searches").index(index);
        if options.allow_relaxed_dns_search_validation {
            if *search != "." {
                let trimmed = search.strip_suffix('.').unwrap_or(search);
                let messages = util::is_dns1123_subdomain(&trimmed.replace('_', "a"));
                errors.extend(invalid_each(&search_path, trimmed, &messages));
            }
        } else {
            errors.extend(validate_dns1123_subdomain(
                search.strip_suffix('.').unwrap_or(search),
                &search_path,
            ));
        }
    }
    for (index, option) in items(&config["options"]).iter().enumerate() {
        if text(&option["name"]).is_empty() {
            errors.push(path.child("options").index(index).required("must not be empty"));
        }
    }
    errors
}

/// `validateSchedulingGates`: qualified names, none twice.
fn validate_scheduling_gates(gates: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut seen = BTreeSet::new();
    for (index, gate) in items(gates).iter().enumerate() {
        let name = text(&gate["name"]);
        errors.extend(validate_qualified_name(name, &path.index(index)));
        if !seen.insert(name) {
            errors.push(path.index(index).duplicate(name));
        }
    }
    errors
}
