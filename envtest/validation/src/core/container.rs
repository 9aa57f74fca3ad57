//! Containers (`validateContainers`, `validateInitContainers`,
//! `validateEphemeralContainers` and what they share in `validateContainerCommon`):
//! names, images, ports, environment, mounts, probes, lifecycle hooks, pull and resize
//! policies.

use std::collections::BTreeSet;

use serde_json::Value;

use super::pod::PodOptions;
use super::volume::{Volumes, name_to_path, validate_volume_devices, validate_volume_mounts};
use super::{invalid_each, number, validate_dns1123_label, validate_qualified_name};
use crate::field::{ErrorList, Path};
use crate::json::{int, is_set, items, opt_int, opt_text, text};
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
                context,
                &item_path.child("lifecycle"),
            ));
        }
        errors.extend(validate_probes(container, context, &item_path));
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

/// Liveness, readiness and startup probes.
fn validate_probes(container: &Value, context: &PodContext, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let liveness = &container["livenessProbe"];
    if is_set(liveness) {
        errors.extend(validate_probe(liveness, context, &path.child("livenessProbe")));
        errors.extend(success_threshold_is_one(liveness, &path.child("livenessProbe")));
    }
    let readiness = &container["readinessProbe"];
    if is_set(readiness) {
        errors.extend(validate_probe(readiness, context, &path.child("readinessProbe")));
        if is_set(&readiness["terminationGracePeriodSeconds"]) {
            errors.push(
                path.child("readinessProbe")
                    .child("terminationGracePeriodSeconds")
                    .invalid(
                        &readiness["terminationGracePeriodSeconds"],
                        "must not be set for readinessProbes",
                    ),
            );
        }
    }
    let startup = &container["startupProbe"];
    if is_set(startup) {
        errors.extend(validate_probe(startup, context, &path.child("startupProbe")));
        errors.extend(success_threshold_is_one(startup, &path.child("startupProbe")));
    }
    errors
}

fn success_threshold_is_one(probe: &Value, path: &Path) -> ErrorList {
    let threshold = int(&probe["successThreshold"]);
    if threshold == 1 {
        ErrorList::new()
    } else {
        vec![path.child("successThreshold").invalid(number(threshold), "must be 1")]
    }
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
                    context,
                    &item_path.child("lifecycle"),
                ));
            }
            errors.extend(validate_probes(container, context, &item_path));
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

/// `validateObjectFieldSelector`: the downward API's `fieldRef`.
pub(crate) fn validate_object_field_selector(selector: &Value, expressions: &[&str], path: &Path) -> ErrorList {
    let api_version = text(&selector["apiVersion"]);
    if api_version.is_empty() {
        return vec![path.child("apiVersion").required("")];
    }
    let field_path = text(&selector["fieldPath"]);
    if field_path.is_empty() {
        return vec![path.child("fieldPath").required("")];
    }
    let internal = match convert_downward_api_field_label(api_version, field_path) {
        Ok(internal) => internal,
        Err(message) => {
            return vec![
                path.child("fieldPath")
                    .invalid(field_path, &format!("error converting fieldPath: {message}")),
            ];
        }
    };
    if let Some((field, subscript)) = split_maybe_subscripted_path(&internal) {
        return match field {
            "metadata.annotations" => validate_qualified_name(&subscript.to_lowercase(), path),
            "metadata.labels" => validate_qualified_name(subscript, path),
            other => vec![path.invalid(other, "does not support subscript")],
        };
    }
    if !expressions.contains(&internal.as_str()) {
        let mut supported = expressions.to_vec();
        supported.sort_unstable();
        return vec![path.child("fieldPath").not_supported(internal.as_str(), &supported)];
    }
    ErrorList::new()
}

/// `fieldpath.SplitMaybeSubscriptedPath`: `metadata.labels['key']`.
fn split_maybe_subscripted_path(field_path: &str) -> Option<(&str, &str)> {
    let trimmed = field_path.strip_suffix("']")?;
    let (field, subscript) = trimmed.split_once("['")?;
    (!field.is_empty()).then_some((field, subscript))
}

/// `pods.ConvertDownwardAPIFieldLabel` for v1.
fn convert_downward_api_field_label(version: &str, label: &str) -> Result<String, String> {
    if version != "v1" {
        return Err(format!("unsupported pod version: {version}"));
    }
    if let Some((field, _)) = split_maybe_subscripted_path(label) {
        return match field {
            "metadata.annotations" | "metadata.labels" => Ok(label.to_owned()),
            _ => Err(format!("field label does not support subscript: {label}")),
        };
    }
    match label {
        "metadata.annotations"
        | "metadata.labels"
        | "metadata.name"
        | "metadata.namespace"
        | "metadata.uid"
        | "spec.nodeName"
        | "spec.restartPolicy"
        | "spec.serviceAccountName"
        | "spec.schedulerName"
        | "status.phase"
        | "status.hostIP"
        | "status.hostIPs"
        | "status.podIP"
        | "status.podIPs" => Ok(label.to_owned()),
        "spec.host" => Ok("spec.nodeName".to_owned()),
        _ => Err(format!("field label not supported: {label}")),
    }
}

const RESOURCE_FIELD_PATHS: &[&str] = &[
    "limits.cpu",
    "limits.ephemeral-storage",
    "limits.memory",
    "requests.cpu",
    "requests.ephemeral-storage",
    "requests.memory",
];

/// `validateContainerResourceFieldSelector`.
pub(crate) fn validate_container_resource_field_selector(selector: &Value, path: &Path, volume: bool) -> ErrorList {
    let mut errors = ErrorList::new();
    let resource = text(&selector["resource"]);
    if volume && text(&selector["containerName"]).is_empty() {
        errors.push(path.child("containerName").required(""));
    } else if resource.is_empty() {
        errors.push(path.child("resource").required(""));
    } else if !RESOURCE_FIELD_PATHS.contains(&resource)
        && !resource.starts_with("limits.hugepages-")
        && !resource.starts_with("requests.hugepages-")
    {
        errors.push(path.child("resource").not_supported(resource, RESOURCE_FIELD_PATHS));
    }
    errors.extend(validate_container_resource_divisor(
        resource,
        &selector["divisor"],
        path,
    ));
    errors
}

/// `validateContainerResourceDivisor`.
fn validate_container_resource_divisor(resource: &str, divisor: &Value, path: &Path) -> ErrorList {
    const SIZES: &[&str] = &[
        "1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei",
    ];
    let quantity = super::quantity(divisor);
    if quantity.is_zero() {
        return ErrorList::new();
    }
    let shown = quantity.to_string();
    let sizes = "1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei";
    let mut errors = ErrorList::new();
    let divisor_path = path.child("divisor");
    match resource {
        "limits.cpu" | "requests.cpu" if !["1m", "1"].contains(&shown.as_str()) => errors.push(divisor_path.invalid(
            resource,
            "only divisor's values 1m and 1 are supported with the cpu resource",
        )),
        "limits.memory" | "requests.memory" if !SIZES.contains(&shown.as_str()) => errors.push(divisor_path.invalid(
            resource,
            &format!("only divisor's values {sizes} are supported with the memory resource"),
        )),
        "limits.ephemeral-storage" | "requests.ephemeral-storage" if !SIZES.contains(&shown.as_str()) => {
            errors.push(divisor_path.invalid(
                resource,
                &format!("only divisor's values {sizes} are supported with the local ephemeral storage resource"),
            ));
        }
        _ => {}
    }
    let huge = resource.starts_with("requests.hugepages-") || resource.starts_with("limits.hugepages-");
    if huge && !SIZES.contains(&shown.as_str()) {
        errors.push(divisor_path.invalid(
            resource,
            &format!("only divisor's values {sizes} are supported with the hugepages resource"),
        ));
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

/// `validateLifecycle`: the post-start and pre-stop handlers.
fn validate_lifecycle(lifecycle: &Value, context: &PodContext, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    for hook in ["postStart", "preStop"] {
        if is_set(&lifecycle[hook]) {
            errors.extend(validate_handler(&lifecycle[hook], false, context, &path.child(hook)));
        }
    }
    errors
}

/// `validateProbe`.
fn validate_probe(probe: &Value, context: &PodContext, path: &Path) -> ErrorList {
    let mut errors = validate_handler(probe, true, context, path);
    for field in [
        "initialDelaySeconds",
        "timeoutSeconds",
        "periodSeconds",
        "successThreshold",
        "failureThreshold",
    ] {
        errors.extend(meta::validate_nonnegative_field(int(&probe[field]), &path.child(field)));
    }
    if let Some(grace) = opt_int(&probe["terminationGracePeriodSeconds"]).filter(|g| *g <= 0) {
        errors.push(
            path.child("terminationGracePeriodSeconds")
                .invalid(number(grace), "must be greater than 0"),
        );
    }
    errors
}

/// `validateHandler`: exactly one of exec, httpGet, tcpSocket, grpc (probes) or sleep
/// (lifecycle hooks).
fn validate_handler(handler: &Value, probe: bool, context: &PodContext, path: &Path) -> ErrorList {
    let kinds: &[&str] = if probe {
        &["exec", "httpGet", "tcpSocket", "grpc"]
    } else {
        &["exec", "httpGet", "tcpSocket", "sleep"]
    };
    let mut errors = ErrorList::new();
    let mut count = 0;
    for kind in kinds {
        let action = &handler[*kind];
        if !is_set(action) {
            continue;
        }
        let action_path = path.child(kind);
        if count > 0 {
            errors.push(action_path.forbidden("may not specify more than 1 handler type"));
            continue;
        }
        count += 1;
        errors.extend(match *kind {
            "exec" if items(&action["command"]).is_empty() => vec![action_path.child("command").required("")],
            "httpGet" => validate_http_get(action, &action_path),
            "tcpSocket" => validate_port_num_or_name(&action["port"], &action_path.child("port")),
            "grpc" => validate_port_num_or_name(&Value::from(int(&action["port"])), &action_path.child("port")),
            "sleep" => validate_sleep(action, context.grace_period, &action_path),
            _ => ErrorList::new(),
        });
    }
    if count == 0 {
        errors.push(path.required("must specify a handler type"));
    }
    errors
}

fn validate_http_get(action: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if text(&action["path"]).is_empty() {
        errors.push(path.child("path").required(""));
    }
    errors.extend(validate_port_num_or_name(&action["port"], &path.child("port")));
    let scheme = text(&action["scheme"]);
    if scheme != "HTTP" && scheme != "HTTPS" {
        errors.push(path.child("scheme").not_supported(scheme, &["HTTP", "HTTPS"]));
    }
    for header in items(&action["httpHeaders"]) {
        let name = text(&header["name"]);
        errors.extend(invalid_each(
            &path.child("httpHeaders"),
            name,
            &util::is_http_header_name(name),
        ));
    }
    errors
}

/// `validateSleepAction`: more than zero, within the grace period.
fn validate_sleep(action: &Value, grace_period: Option<i64>, path: &Path) -> ErrorList {
    let seconds = int(&action["seconds"]);
    match grace_period {
        Some(grace) if seconds <= 0 || seconds > grace => vec![path.invalid(
            number(seconds),
            &format!(
                "must be greater than 0 and less than terminationGracePeriodSeconds ({grace}). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep."
            ),
        )],
        _ => ErrorList::new(),
    }
}

/// `ValidatePortNumOrName`: an `IntOrString` port, a number or an IANA name.
pub(crate) fn validate_port_num_or_name(port: &Value, path: &Path) -> ErrorList {
    match port {
        Value::String(name) => invalid_each(path, name, &util::is_valid_port_name(name)),
        other => {
            let port = int(other);
            util::is_valid_port_num(port)
                .iter()
                .map(|message| path.invalid(number(port), message))
                .collect()
        }
    }
}
