//! Probes and lifecycle hooks (`validateProbe`, `validateHandler`, `validateLifecycle`):
//! one handler each, ports by number or name, thresholds and the sleep of a hook within
//! the grace period.

use serde_json::Value;

use super::{invalid_each, number};
use crate::field::{ErrorList, Path};
use crate::json::{int, is_set, items, opt_int, text};
use crate::meta;
use crate::util;

/// Liveness, readiness and startup probes.
pub(super) fn validate_probes(container: &Value, grace_period: Option<i64>, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let liveness = &container["livenessProbe"];
    if is_set(liveness) {
        errors.extend(validate_probe(liveness, grace_period, &path.child("livenessProbe")));
        errors.extend(success_threshold_is_one(liveness, &path.child("livenessProbe")));
    }
    let readiness = &container["readinessProbe"];
    if is_set(readiness) {
        errors.extend(validate_probe(readiness, grace_period, &path.child("readinessProbe")));
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
        errors.extend(validate_probe(startup, grace_period, &path.child("startupProbe")));
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

/// `validateLifecycle`: the post-start and pre-stop handlers.
pub(super) fn validate_lifecycle(lifecycle: &Value, grace_period: Option<i64>, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    for hook in ["postStart", "preStop"] {
        if is_set(&lifecycle[hook]) {
            errors.extend(validate_handler(
                &lifecycle[hook],
                false,
                grace_period,
                &path.child(hook),
            ));
        }
    }
    errors
}

/// `validateProbe`.
fn validate_probe(probe: &Value, grace_period: Option<i64>, path: &Path) -> ErrorList {
    let mut errors = validate_handler(probe, true, grace_period, path);
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
fn validate_handler(handler: &Value, probe: bool, grace_period: Option<i64>, path: &Path) -> ErrorList {
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
            "sleep" => validate_sleep(action, grace_period, &action_path),
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
