//! Security settings of pods and containers: `ValidateSecurityContext`,
//! `validatePodSpecSecurityContext` (ids, sysctls, seccomp and `AppArmor` profiles,
//! Windows options) and the Linux and Windows rules of `spec.os`. The seccomp and
//! `AppArmor` annotations that must agree with the fields are in `annotations`.
//!
//! Fields whose feature is off in 1.32 (`hostUsers`, `supplementalGroupsPolicy`,
//! `seLinuxChangePolicy`, `procMount`) are dropped by the pod strategy before
//! validation, so they are not checked here.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::number;
use super::paths::validate_local_descending_path;
use crate::field::{BadValue, ErrorList, Path};
use crate::json::{int, is_set, items, opt_int, opt_text, text};
use crate::util;

/// kube-apiserver's `--allow-privileged`, false by default (the servers this project
/// checks against run with the default).
const ALLOW_PRIVILEGED: bool = false;

/// `ValidateSecurityContext`: a container's security context.
pub(crate) fn validate_security_context(context: &Value, path: &Path, _host_users: bool) -> ErrorList {
    let mut errors = ErrorList::new();
    if !is_set(context) {
        return errors;
    }
    if context["privileged"] == true && !ALLOW_PRIVILEGED {
        errors.push(path.child("privileged").forbidden("disallowed by cluster policy"));
    }
    if let Some(user) = opt_int(&context["runAsUser"]) {
        for message in util::is_valid_id(user) {
            errors.push(path.child("runAsUser").invalid(number(user), &message));
        }
    }
    if let Some(group) = opt_int(&context["runAsGroup"]) {
        for message in util::is_valid_id(group) {
            errors.push(path.child("runAsGroup").invalid(number(group), &message));
        }
    }
    errors.extend(validate_seccomp_profile_field(
        &context["seccompProfile"],
        &path.child("seccompProfile"),
    ));
    if context["allowPrivilegeEscalation"] == false {
        if context["privileged"] == true {
            errors.push(path.invalid(
                crate::godump::raw(crate::godump::security_context(context)),
                "cannot set `allowPrivilegeEscalation` to false and `privileged` to true",
            ));
        }
        for capability in items(&context["capabilities"]["add"]) {
            if text(capability) == "CAP_SYS_ADMIN" {
                errors.push(path.invalid(
                    crate::godump::raw(crate::godump::security_context(context)),
                    "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN",
                ));
            }
        }
    }
    errors.extend(validate_windows_options(
        &context["windowsOptions"],
        &path.child("windowsOptions"),
    ));
    errors.extend(validate_app_armor_profile_field(
        &context["appArmorProfile"],
        &path.child("appArmorProfile"),
    ));
    errors
}

/// `validatePodSpecSecurityContext`: the pod's ids, sysctls and profiles (the
/// host-namespace fields sit beside `securityContext` in v1).
pub(crate) fn validate_pod_security_context(spec: &Value, path: &Path, allow_host_sysctls: bool) -> ErrorList {
    let context = &spec["securityContext"];
    let mut errors = ErrorList::new();
    for field in ["fsGroup", "runAsUser", "runAsGroup"] {
        if let Some(id) = opt_int(&context[field]) {
            for message in util::is_valid_id(id) {
                errors.push(path.child(field).invalid(number(id), &message));
            }
        }
    }
    for (index, group) in items(&context["supplementalGroups"]).iter().enumerate() {
        let group = int(group);
        for message in util::is_valid_id(group) {
            errors.push(
                path.child("supplementalGroups")
                    .index(index)
                    .invalid(number(group), &message),
            );
        }
    }
    if spec["shareProcessNamespace"] == true && spec["hostPID"] == true {
        errors.push(path.child("shareProcessNamespace").invalid(
            &Value::Bool(true),
            "ShareProcessNamespace and HostPID cannot both be enabled",
        ));
    }
    if !items(&context["sysctls"]).is_empty() {
        errors.extend(validate_sysctls(spec, &path.child("sysctls"), allow_host_sysctls));
    }
    if let Some(policy) = opt_text(&context["fsGroupChangePolicy"])
        && policy != "OnRootMismatch"
        && policy != "Always"
    {
        errors.push(
            path.child("fsGroupChangePolicy")
                .not_supported(policy, &["Always", "OnRootMismatch"]),
        );
    }
    errors.extend(validate_seccomp_profile_field(
        &context["seccompProfile"],
        &path.child("seccompProfile"),
    ));
    errors.extend(validate_windows_options(
        &context["windowsOptions"],
        &path.child("windowsOptions"),
    ));
    errors.extend(validate_app_armor_profile_field(
        &context["appArmorProfile"],
        &path.child("appArmorProfile"),
    ));
    errors
}

static SYSCTL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$")
        .unwrap_or_else(|_| unreachable!("constant"))
});

/// `validateSysctls`.
fn validate_sysctls(spec: &Value, path: &Path, allow_host_sysctls: bool) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut names = std::collections::BTreeSet::new();
    for (index, sysctl) in items(&spec["securityContext"]["sysctls"]).iter().enumerate() {
        let name = text(&sysctl["name"]);
        let name_path = path.index(index).child("name");
        if name.is_empty() {
            errors.push(name_path.required(""));
        } else if name.len() > 253 || !SYSCTL.is_match(name) {
            errors.push(name_path.invalid(
                name,
                "must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$",
            ));
        } else if names.contains(name) {
            errors.push(name_path.duplicate(name));
        }
        if !allow_host_sysctls && let Some(error) = validate_host_sysctl(name, spec, &name_path) {
            errors.push(error);
        }
        names.insert(name);
    }
    errors
}

/// `ValidateHostSysctl`: namespaced sysctls may not be set for a namespace the pod
/// shares with the host.
pub(crate) fn validate_host_sysctl(name: &str, spec: &Value, path: &Path) -> Option<crate::field::FieldError> {
    let normalized = name.replace('/', ".");
    let net = normalized.starts_with("net.");
    let ipc = normalized.starts_with("kernel.shm")
        || normalized.starts_with("kernel.msg")
        || normalized.starts_with("fs.mqueue.")
        || normalized == "kernel.sem";
    if spec["hostNetwork"] == true && net {
        return Some(path.invalid(name, "may not be specified when 'hostNetwork' is true"));
    }
    if spec["hostIPC"] == true && ipc {
        return Some(path.invalid(name, "may not be specified when 'hostIPC' is true"));
    }
    None
}

/// `validateSeccompProfileField`.
fn validate_seccomp_profile_field(profile: &Value, path: &Path) -> ErrorList {
    if !is_set(profile) {
        return ErrorList::new();
    }
    let mut errors = ErrorList::new();
    let kind = text(&profile["type"]);
    match kind {
        "Localhost" | "RuntimeDefault" | "Unconfined" => {}
        "" => errors.push(
            path.child("type")
                .required("type is required when seccompProfile is set"),
        ),
        other => errors.push(
            path.child("type")
                .not_supported(other, &["Localhost", "RuntimeDefault", "Unconfined"]),
        ),
    }
    let localhost = opt_text(&profile["localhostProfile"]);
    if kind == "Localhost" {
        match localhost {
            None => errors.push(
                path.child("localhostProfile")
                    .required("must be set when seccomp type is Localhost"),
            ),
            Some(local) => errors.extend(validate_local_descending_path(local, &path.child("localhostProfile"))),
        }
    } else if localhost.is_some() {
        errors.push(path.child("localhostProfile").invalid(
            BadValue::Json(profile.clone()),
            "can only be set when seccomp type is Localhost",
        ));
    }
    errors
}

/// `ValidateAppArmorProfileField`.
pub(crate) fn validate_app_armor_profile_field(profile: &Value, path: &Path) -> ErrorList {
    if !is_set(profile) {
        return ErrorList::new();
    }
    let mut errors = ErrorList::new();
    let local = opt_text(&profile["localhostProfile"]);
    match text(&profile["type"]) {
        "Localhost" => match local {
            None => errors.push(
                path.child("localhostProfile")
                    .required("must be set when AppArmor type is Localhost"),
            ),
            Some(local) => {
                if local.trim() != local {
                    errors.push(
                        path.child("localhostProfile")
                            .invalid(local, "must not be padded with whitespace"),
                    );
                } else if local.is_empty() {
                    errors.push(
                        path.child("localhostProfile")
                            .required("must be set when AppArmor type is Localhost"),
                    );
                }
                if local.len() > 4095 {
                    errors.push(path.child("localhostProfile").too_long(4095));
                }
            }
        },
        "RuntimeDefault" | "Unconfined" => {
            if let Some(local) = local {
                errors.push(
                    path.child("localhostProfile")
                        .invalid(local, "can only be set when AppArmor type is Localhost"),
                );
            }
        }
        "" => errors.push(
            path.child("type")
                .required("type is required when appArmorProfile is set"),
        ),
        other => errors.push(
            path.child("type")
                .not_supported(other, &["Localhost", "RuntimeDefault", "Unconfined"]),
        ),
    }
    errors
}

static NET_BIOS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^[^\\/:\*\?"<>|\.][^\\/:\*\?"<>|]{0,14}$"#).unwrap_or_else(|_| unreachable!("constant"))
});
static WINDOWS_DOMAIN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$")
        .unwrap_or_else(|_| unreachable!("constant"))
});
static USER_BAD_CHARS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"["/\\:;|=,\+\*\?<>@\[\]]"#).unwrap_or_else(|_| unreachable!("constant")));

/// `validateWindowsSecurityContextOptions`.
fn validate_windows_options(options: &Value, path: &Path) -> ErrorList {
    if !is_set(options) {
        return ErrorList::new();
    }
    let mut errors = ErrorList::new();
    if let Some(name) = opt_text(&options["gmsaCredentialSpecName"]) {
        errors.extend(super::invalid_each(
            &path.child("gmsaCredentialSpecName"),
            name,
            &util::is_dns1123_subdomain(name),
        ));
    }
    if let Some(spec) = opt_text(&options["gmsaCredentialSpec"]) {
        if spec.is_empty() {
            errors.push(
                path.child("gmsaCredentialSpec")
                    .invalid(spec, "gmsaCredentialSpec cannot be an empty string"),
            );
        } else if spec.len() > 64 * 1024 {
            errors.push(
                path.child("gmsaCredentialSpec")
                    .invalid(spec, "gmsaCredentialSpec size must be under 64 KiB"),
            );
        }
    }
    if let Some(user) = opt_text(&options["runAsUserName"]) {
        for message in run_as_user_name_errors(user) {
            errors.push(path.child("runAsUserName").invalid(user, &message));
        }
    }
    errors
}

fn run_as_user_name_errors(value: &str) -> Vec<String> {
    if value.is_empty() {
        return vec!["runAsUserName cannot be an empty string".to_owned()];
    }
    if value.chars().any(|c| c.is_ascii_control()) {
        return vec!["runAsUserName cannot contain control characters".to_owned()];
    }
    let parts: Vec<&str> = value.split('\\').collect();
    if parts.len() > 2 {
        return vec!["runAsUserName cannot contain more than one backslash".to_owned()];
    }
    let (domain, user) = match parts.as_slice() {
        [user] => (None, *user),
        [domain, user] => (Some(*domain), *user),
        _ => (None, ""),
    };
    let mut messages = Vec::new();
    if domain.is_some_and(|d| d.len() >= 256) {
        messages.push("runAsUserName's Domain length must be under 256 characters".to_owned());
    }
    if let Some(domain) = domain
        && !(NET_BIOS.is_match(domain) || WINDOWS_DOMAIN.is_match(domain))
    {
        messages.push("runAsUserName's Domain doesn't match the NetBios nor the DNS format".to_owned());
    }
    if user.is_empty() {
        messages.push("runAsUserName's User cannot be empty".to_owned());
    } else if user.len() > 104 {
        messages.push("runAsUserName's User length must not be longer than 104 characters".to_owned());
    }
    if !user.is_empty() && user.chars().all(|c| c == '.' || c == ' ') {
        messages.push("runAsUserName's User cannot contain only periods or spaces".to_owned());
    }
    if USER_BAD_CHARS.is_match(user) {
        messages.push("runAsUserName's User cannot contain the following characters: \"/\\:;|=,+*?<>@[]".to_owned());
    }
    messages
}

/// Every container of a pod spec (init, regular, ephemeral) with its path, in
/// `VisitContainersWithPath`'s order.
pub(crate) fn containers_with_paths<'a>(spec: &'a Value, path: &Path) -> Vec<(&'a Value, Path)> {
    let mut all = Vec::new();
    for list in ["initContainers", "containers", "ephemeralContainers"] {
        for (index, container) in items(&spec[list]).iter().enumerate() {
            all.push((container, path.child(list).index(index)));
        }
    }
    all
}

/// `validateWindowsHostProcessPod`.
pub(crate) fn validate_windows_host_process_pod(spec: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let pod_host_process = spec["securityContext"]["windowsOptions"]["hostProcess"].as_bool();
    let (mut count, mut host_process_count) = (0, 0);
    for (container, container_path) in containers_with_paths(spec, path) {
        count += 1;
        let container_host_process = container["securityContext"]["windowsOptions"]["hostProcess"].as_bool();
        if let (Some(pod), Some(own)) = (pod_host_process, container_host_process)
            && pod != own
        {
            errors.push(
                container_path
                    .child("securityContext")
                    .child("windowsOptions")
                    .child("hostProcess")
                    .invalid(
                        &Value::Bool(own),
                        &format!("pod hostProcess value must be identical if both are specified, was {pod}"),
                    ),
            );
        }
        if container_host_process == Some(true) || (container_host_process.is_none() && pod_host_process == Some(true))
        {
            host_process_count += 1;
        }
    }
    if host_process_count > 0 {
        if host_process_count != count {
            errors.push(path.invalid(
                "",
                "If pod contains any hostProcess containers then all containers must be HostProcess containers",
            ));
        }
        if spec["hostNetwork"] != true {
            errors.push(path.child("hostNetwork").invalid(
                &Value::Bool(false),
                "hostNetwork must be true if pod contains any hostProcess containers",
            ));
        }
        if !ALLOW_PRIVILEGED {
            errors.push(path.forbidden("hostProcess containers are disallowed by cluster policy"));
        }
    }
    errors
}

/// `validateOS`, then `validateLinux` or `validateWindows`.
pub(crate) fn validate_os(spec: &Value, path: &Path) -> ErrorList {
    let os = &spec["os"];
    if !is_set(os) {
        return ErrorList::new();
    }
    let name = text(&os["name"]);
    if name.is_empty() {
        return vec![path.child("os").child("name").required("cannot be empty")];
    }
    if name != "linux" && name != "windows" {
        return vec![path.child("os").not_supported(name, &["linux", "windows"])];
    }
    if name == "linux" {
        validate_linux(spec, path)
    } else {
        validate_windows(spec, path)
    }
}

fn validate_linux(spec: &Value, path: &Path) -> ErrorList {
    const NOT_LINUX: &str = "windows options cannot be set for a linux pod";
    let mut errors = ErrorList::new();
    if is_set(&spec["securityContext"]["windowsOptions"]) {
        errors.push(
            path.child("securityContext")
                .child("windowsOptions")
                .forbidden(NOT_LINUX),
        );
    }
    for (container, container_path) in containers_with_paths(spec, path) {
        if is_set(&container["securityContext"]["windowsOptions"]) {
            errors.push(
                container_path
                    .child("securityContext")
                    .child("windowsOptions")
                    .forbidden(NOT_LINUX),
            );
        }
    }
    errors
}

fn validate_windows(spec: &Value, path: &Path) -> ErrorList {
    const NOT_WINDOWS: &str = "cannot be set for a windows pod";
    let mut errors = ErrorList::new();
    let context = &spec["securityContext"];
    let context_path = path.child("securityContext");
    if is_set(context) {
        for (field, at_spec) in [
            ("appArmorProfile", false),
            ("seLinuxOptions", false),
            ("hostPID", true),
            ("hostIPC", true),
            ("seccompProfile", false),
            ("fsGroup", false),
            ("fsGroupChangePolicy", false),
            ("sysctls", false),
            ("shareProcessNamespace", true),
            ("runAsUser", false),
            ("runAsGroup", false),
            ("supplementalGroups", false),
        ] {
            let value = if at_spec { &spec[field] } else { &context[field] };
            let set = match field {
                "hostPID" | "hostIPC" => value == true,
                "sysctls" => !items(value).is_empty(),
                _ => is_set(value),
            };
            if set {
                let field_path = if at_spec {
                    path.child(field)
                } else {
                    context_path.child(field)
                };
                errors.push(field_path.forbidden(NOT_WINDOWS));
            }
        }
    }
    for (container, container_path) in containers_with_paths(spec, path) {
        let security = &container["securityContext"];
        if !is_set(security) {
            continue;
        }
        for field in [
            "appArmorProfile",
            "seLinuxOptions",
            "seccompProfile",
            "capabilities",
            "readOnlyRootFilesystem",
            "privileged",
            "allowPrivilegeEscalation",
            "runAsUser",
            "runAsGroup",
        ] {
            if is_set(&security[field]) {
                errors.push(
                    container_path
                        .child("securityContext")
                        .child(field)
                        .forbidden(NOT_WINDOWS),
                );
            }
        }
    }
    errors
}
