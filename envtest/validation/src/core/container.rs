//! Containers (`validateContainers`, `validateInitContainers`,
//! `validateEphemeralContainers` and what they share in `validateContainerCommon`):
//! names, images, ports, environment, pull and resize policies. Probes and hooks are in
//! `probes`, the downward API in `downward`.

use std::collections::BTreeSet;

use serde_json::Value;

use super::downward::{validate_container_resource_field_selector, validate_object_field_selector};
use super::options::PodOptions;
use super::probes::{validate_lifecycle, validate_probes};
use super::volume::{Volumes, name_to_path, validate_volume_devices, validate_volume_mounts};
use super::{invalid_each, number, validate_dns1123_label, validate_qualified_name};
use crate::field::{ErrorList, Path};
use crate::json::{int, is_set, items, opt_text, text};
use crate::meta;
use crate::util;

/// What every container list check needs from its pod.
pub(crate) struct PodContext<'a> {
    pub volumes: &'a Volumes<'a>,
    pub claim_names: &'a BTreeSet<String>,
    pub grace_period: Option<i64>,
    pub restart_policy: &'a str,
    pub host_users: bool,
    pub options: &'a PodOptions,
}

const INIT_ONLY: &str = "may not be set for init containers without restartPolicy=Always";

/// `validateContainers`: at least one, each valid, names unique, no host port twice.
pub(crate) fn validate_containers(containers: &Value, context: &PodContext, path: &Path) -> ErrorList {
    let list = items(containers);
    if list.is_empty() {
        return vec![path.required("")];
    }
    let mut errors = ErrorList::new();
    let mut names = BTreeSet::new();
    for (index, container) in list.iter().enumerate() {
        let item_path = path.index(index);
        errors.extend(validate_container_common(container, context, &item_path));
        let name = text(&container["name"]);
        if !names.insert(name) {
            errors.push(item_path.child("name").duplicate(name));
        }
        if is_set(&container["lifecycle"]) {
            errors.extend(validate_lifecycle(
                &container["lifecycle"],
                context.grace_period,
                &item_path.child("lifecycle"),
            ));
        }
        errors.extend(validate_probes(container, context.grace_period, &item_path));
        if is_set(&container["restartPolicy"]) {
            errors.push(
                item_path
                    .child("restartPolicy")
                    .forbidden("may not be set for non-init containers"),
            );
        }
    }
    errors.extend(check_host_port_conflicts(list, path));
    errors
}

/// `validateInitContainers`.
pub(crate) fn validate_init_containers(
    containers: &Value,
    regular: &Value,
    context: &PodContext,
    path: &Path,
) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut names: BTreeSet<&str> = items(regular).iter().map(|c| text(&c["name"])).collect();
    for (index, container) in items(containers).iter().enumerate() {
        let item_path = path.index(index);
        errors.extend(validate_container_common(container, context, &item_path));
        let mut restart_always = false;
        if let Some(policy) = opt_text(&container["restartPolicy"]) {
            if policy != "Always" {
                errors.push(item_path.child("restartPolicy").not_supported(policy, &["Always"]));
            }
            restart_always = policy == "Always";
        }
        let name = text(&container["name"]);
        if names.contains(name) {
            errors.push(item_path.child("name").duplicate(name));
        } else if !name.is_empty() {
            names.insert(name);
        }
        errors.extend(check_host_port_conflicts(std::slice::from_ref(container), path));
        if restart_always {
            if is_set(&container["lifecycle"]) {
                errors.extend(validate_lifecycle(
                    &container["lifecycle"],
                    context.grace_period,
                    &item_path.child("lifecycle"),
                ));
            }
            errors.extend(validate_probes(container, context.grace_period, &item_path));
        } else {
            for field in ["lifecycle", "livenessProbe", "readinessProbe", "startupProbe"] {
                if is_set(&container[field]) {
                    errors.push(item_path.child(field).forbidden(INIT_ONLY));
                }
            }
        }
        if !context.options.allow_sidecar_resize_policy && !items(&container["resizePolicy"]).is_empty() {
            errors.push(item_path.child("resizePolicy").invalid(
                crate::godump::raw(crate::godump::resize_policies(&container["resizePolicy"])),
                "must not be set for init containers",
            ));
        }
    }
    errors
}

/// The fields of an ephemeral container, in Go's order, and whether they may be set.
const EPHEMERAL_FIELDS: &[(&str, bool)] = &[
    ("name", true),
    ("image", true),
    ("command", true),
    ("args", true),
    ("workingDir", true),
    ("ports", false),
    ("envFrom", true),
    ("env", true),
    ("resources", false),
    ("resizePolicy", false),
    ("restartPolicy", false),
    ("volumeMounts", true),
    ("volumeDevices", true),
    ("livenessProbe", false),
    ("readinessProbe", false),
    ("startupProbe", false),
    ("lifecycle", false),
    ("terminationMessagePath", true),
    ("terminationMessagePolicy", true),
    ("imagePullPolicy", true),
    ("securityContext", true),
    ("stdin", true),
    ("stdinOnce", true),
    ("tty", true),
];

/// The name `validateFieldAllowList` gives a Go field: its first letter lowered.
fn allow_list_name(field: &str) -> &str {
    match field {
        "tty" => "tTY",
        other => other,
    }
}

/// `validateEphemeralContainers`.
pub(crate) fn validate_ephemeral_containers(
    ephemeral: &Value,
    containers: &Value,
    init: &Value,
    context: &PodContext,
    path: &Path,
) -> ErrorList {
    let list = items(ephemeral);
    if list.is_empty() {
        return ErrorList::new();
    }
    let others: BTreeSet<&str> = items(containers)
        .iter()
        .chain(items(init))
        .map(|c| text(&c["name"]))
        .collect();
    let mut all = others.clone();
    let mut errors = ErrorList::new();
    for (index, container) in list.iter().enumerate() {
        let item_path = path.index(index);
        errors.extend(validate_container_common(container, context, &item_path));
        errors.extend(validate_container_only_for_pod(container, &item_path));
        let name = text(&container["name"]);
        if !all.insert(name) {
            errors.push(item_path.child("name").duplicate(name));
        }
        let target = text(&container["targetContainerName"]);
        if !target.is_empty() && !others.contains(target) {
            errors.push(item_path.child("targetContainerName").not_found(target));
        }
        for (field, allowed) in EPHEMERAL_FIELDS {
            if !allowed && !crate::json::is_zero(&container[*field]) {
                errors.push(
                    item_path
                        .child(allow_list_name(field))
                        .forbidden("cannot be set for an Ephemeral Container"),
                );
            }
        }
        for (mount_index, mount) in items(&container["volumeMounts"]).iter().enumerate() {
            let mount_path = item_path.child("volumeMounts").index(mount_index);
            for field in ["subPath", "subPathExpr"] {
                if !text(&mount[field]).is_empty() {
                    errors.push(
                        mount_path
                            .child(field)
                            .forbidden("cannot be set for an Ephemeral Container"),
                    );
                }
            }
        }
    }
    errors
}

/// `validateContainerOnlyForPod`: a pod's images have no surrounding whitespace.
pub(crate) fn validate_container_only_for_pod(container: &Value, path: &Path) -> ErrorList {
    let image = text(&container["image"]);
    if image.len() == image.trim().len() {
        ErrorList::new()
    } else {
        vec![
            path.child("image")
                .invalid(image, "must not have leading or trailing whitespace"),
        ]
    }
}

/// `validateContainerCommon`.
fn validate_container_common(container: &Value, context: &PodContext, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let name = text(&container["name"]);
    if name.is_empty() {
        errors.push(path.child("name").required(""));
    } else {
        errors.extend(validate_dns1123_label(name, &path.child("name")));
    }
    if text(&container["image"]).is_empty() {
        errors.push(path.child("image").required(""));
    }
    match text(&container["terminationMessagePolicy"]) {
        "File" | "FallbackToLogsOnError" => {}
        "" => errors.push(path.child("terminationMessagePolicy").required("")),
        other => errors.push(
            path.child("terminationMessagePolicy")
                .not_supported(other, &["File", "FallbackToLogsOnError"]),
        ),
    }
    let mounts = name_to_path(&container["volumeMounts"], "mountPath");
    let devices = name_to_path(&container["volumeDevices"], "devicePath");
    errors.extend(validate_container_ports(&container["ports"], &path.child("ports")));
    errors.extend(validate_env(&container["env"], &path.child("env"), context.options));
    errors.extend(validate_env_from(
        &container["envFrom"],
        &path.child("envFrom"),
        context.options,
    ));
    errors.extend(validate_volume_mounts(
        &container["volumeMounts"],
        &devices,
        context.volumes,
        Some(container),
        &path.child("volumeMounts"),
    ));
    errors.extend(validate_volume_devices(
        &container["volumeDevices"],
        &mounts,
        context.volumes,
        &path.child("volumeDevices"),
    ));
    errors.extend(validate_pull_policy(
        text(&container["imagePullPolicy"]),
        &path.child("imagePullPolicy"),
    ));
    errors.extend(super::resources::validate_container_resource_requirements(
        &container["resources"],
        context.claim_names,
        &path.child("resources"),
        context.options,
    ));
    errors.extend(validate_resize_policy(
        &container["resizePolicy"],
        &path.child("resizePolicy"),
        context.restart_policy,
    ));
    errors.extend(super::security::validate_security_context(
        &container["securityContext"],
        &path.child("securityContext"),
        context.host_users,
    ));
    errors
}

const PROTOCOLS: &[&str] = &["SCTP", "TCP", "UDP"];

/// `validateContainerPorts`.
fn validate_container_ports(ports: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut names = BTreeSet::new();
    for (index, port) in items(ports).iter().enumerate() {
        let item_path = path.index(index);
        let name = text(&port["name"]);
        if !name.is_empty() {
            let messages = util::is_valid_port_name(name);
            if !messages.is_empty() {
                errors.extend(invalid_each(&item_path.child("name"), name, &messages));
            } else if !names.insert(name) {
                errors.push(item_path.child("name").duplicate(name));
            }
        }
        let container_port = int(&port["containerPort"]);
        if container_port == 0 {
            errors.push(item_path.child("containerPort").required(""));
        } else {
            for message in util::is_valid_port_num(container_port) {
                errors.push(
                    item_path
                        .child("containerPort")
                        .invalid(number(container_port), &message),
                );
            }
        }
        let host_port = int(&port["hostPort"]);
        if host_port != 0 {
            for message in util::is_valid_port_num(host_port) {
                errors.push(item_path.child("hostPort").invalid(number(host_port), &message));
            }
        }
        errors.extend(validate_protocol(&port["protocol"], &item_path.child("protocol")));
    }
    errors
}

/// A port's protocol: required, one of TCP, UDP and SCTP.
pub(crate) fn validate_protocol(protocol: &Value, path: &Path) -> ErrorList {
    match text(protocol) {
        "" => vec![path.required("")],
        protocol if !PROTOCOLS.contains(&protocol) => vec![path.not_supported(protocol, PROTOCOLS)],
        _ => ErrorList::new(),
    }
}

/// `AccumulateUniqueHostPorts`: no `protocol/hostIP/hostPort` twice.
fn check_host_port_conflicts(containers: &[Value], path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut seen = BTreeSet::new();
    for (index, container) in containers.iter().enumerate() {
        for (port_index, port) in items(&container["ports"]).iter().enumerate() {
            let host_port = int(&port["hostPort"]);
            if host_port == 0 {
                continue;
            }
            let key = format!("{}/{}/{host_port}", text(&port["protocol"]), text(&port["hostIP"]));
            if seen.contains(&key) {
                errors.push(
                    path.index(index)
                        .child("ports")
                        .index(port_index)
                        .child("hostPort")
                        .duplicate(key.as_str()),
                );
            } else {
                seen.insert(key);
            }
        }
    }
    errors
}

/// An environment variable name (or `envFrom` prefix): relaxed, as 1.32 allows.
fn validate_env_name(name: &str, path: &Path, options: &PodOptions) -> ErrorList {
    let messages = if options.allow_relaxed_environment_variable_validation {
        util::is_relaxed_env_var_name(name)
    } else {
        util::is_env_var_name(name)
    };
    invalid_each(path, name, &messages)
}

/// `ValidateEnv`.
fn validate_env(vars: &Value, path: &Path, options: &PodOptions) -> ErrorList {
    let mut errors = ErrorList::new();
    for (index, var) in items(vars).iter().enumerate() {
        let item_path = path.index(index);
        let name = text(&var["name"]);
        if name.is_empty() {
            errors.push(item_path.child("name").required(""));
        } else {
            errors.extend(validate_env_name(name, &item_path.child("name"), options));
        }
        errors.extend(validate_env_var_value_from(var, &item_path.child("valueFrom")));
    }
    errors
}

const ENV_FIELD_PATHS: &[&str] = &[
    "metadata.name",
    "metadata.namespace",
    "metadata.uid",
    "spec.nodeName",
    "spec.serviceAccountName",
    "status.hostIP",
    "status.hostIPs",
    "status.podIP",
    "status.podIPs",
];

/// `validateEnvVarValueFrom`.
fn validate_env_var_value_from(var: &Value, path: &Path) -> ErrorList {
    let from = &var["valueFrom"];
    if !is_set(from) {
        return ErrorList::new();
    }
    let mut errors = ErrorList::new();
    let mut count = 0;
    if is_set(&from["fieldRef"]) {
        count += 1;
        errors.extend(validate_object_field_selector(
            &from["fieldRef"],
            ENV_FIELD_PATHS,
            &path.child("fieldRef"),
        ));
    }
    if is_set(&from["resourceFieldRef"]) {
        count += 1;
        errors.extend(validate_container_resource_field_selector(
            &from["resourceFieldRef"],
            &path.child("resourceFieldRef"),
            false,
        ));
    }
    for field in ["configMapKeyRef", "secretKeyRef"] {
        if is_set(&from[field]) {
            count += 1;
            errors.extend(validate_key_selector(&from[field], &path.child(field)));
        }
    }
    if count == 0 {
        errors.push(path.invalid(
            "",
            "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`",
        ));
    } else if !text(&var["value"]).is_empty() {
        errors.push(path.invalid("", "may not be specified when `value` is not empty"));
    } else if count > 1 {
        errors.push(path.invalid("", "may not have more than one field specified at a time"));
    }
    errors
}

/// `validateConfigMapKeySelector` and `validateSecretKeySelector`.
fn validate_key_selector(selector: &Value, path: &Path) -> ErrorList {
    let name = text(&selector["name"]);
    let mut errors = invalid_each(&path.child("name"), name, &meta::name_is_dns_subdomain(name, false));
    let key = text(&selector["key"]);
    if key.is_empty() {
        errors.push(path.child("key").required(""));
    } else {
        errors.extend(invalid_each(&path.child("key"), key, &util::is_config_map_key(key)));
    }
    errors
}

/// `ValidateEnvFrom`.
fn validate_env_from(sources: &Value, path: &Path, options: &PodOptions) -> ErrorList {
    let mut errors = ErrorList::new();
    for (index, source) in items(sources).iter().enumerate() {
        let item_path = path.index(index);
        let prefix = text(&source["prefix"]);
        if !prefix.is_empty() {
            errors.extend(validate_env_name(prefix, &item_path.child("prefix"), options));
        }
        let mut count = 0;
        for field in ["configMapRef", "secretRef"] {
            let reference = &source[field];
            if !is_set(reference) {
                continue;
            }
            count += 1;
            let name = text(&reference["name"]);
            if name.is_empty() {
                errors.push(item_path.child(field).child("name").required(""));
            } else {
                errors.extend(invalid_each(
                    &item_path.child(field).child("name"),
                    name,
                    &meta::name_is_dns_subdomain(name, true),
                ));
            }
        }
        if count == 0 {
            errors.push(path.invalid("", "must specify one of: `configMapRef` or `secretRef`"));
        } else if count > 1 {
            errors.push(path.invalid("", "may not have more than one field specified at a time"));
        }
    }
    errors
}

/// `validatePullPolicy`.
pub(crate) fn validate_pull_policy(policy: &str, path: &Path) -> ErrorList {
    match policy {
        "Always" | "IfNotPresent" | "Never" => ErrorList::new(),
        "" => vec![path.required("")],
        other => vec![path.not_supported(other, &["Always", "IfNotPresent", "Never"])],
    }
}

/// `validateResizePolicy`.
fn validate_resize_policy(policies: &Value, path: &Path, restart_policy: &str) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut seen = BTreeSet::new();
    for (index, policy) in items(policies).iter().enumerate() {
        let resource = text(&policy["resourceName"]);
        if !seen.insert(resource) {
            errors.push(path.index(index).duplicate(super::resources::resource_name(resource)));
        }
        match resource {
            "cpu" | "memory" => {}
            "" => errors.push(path.required("")),
            other => errors.push(path.not_supported(super::resources::resource_name(other), &["cpu", "memory"])),
        }
        let restart = text(&policy["restartPolicy"]);
        match restart {
            "NotRequired" | "RestartContainer" => {}
            "" => errors.push(path.required("")),
            other => errors.push(path.not_supported(other, &["NotRequired", "RestartContainer"])),
        }
        if restart_policy == "Never" && restart != "NotRequired" {
            errors.push(path.invalid(restart, "must be 'NotRequired' when `restartPolicy` is 'Never'"));
        }
    }
    errors
}

/// `validateQualifiedName` over an app protocol (shared by ports of Services and
/// Endpoints).
pub(crate) fn validate_app_protocol(protocol: &Value, path: &Path) -> ErrorList {
    match opt_text(protocol) {
        Some(protocol) => validate_qualified_name(protocol, path),
        None => ErrorList::new(),
    }
}
