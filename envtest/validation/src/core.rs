//! The validation of core/v1 kinds (`pkg/apis/core/validation`), and the pieces other
//! groups share: the pod template of every workload, core's `ValidateObjectMeta` (which
//! adds the legacy finalizer rule to apimachinery's), and the checks of names,
//! quantities and resource names.
//!
//! One module per idea. Pods: `pod` (create, metadata, templates), `pod_update`
//! (updates and the pod subresources), `pod_status`, `options` (the validation options),
//! `pod_spec` (`ValidatePodSpec`), `scheduling` (affinity, tolerations, topology),
//! `container`, `probes`, `downward` (the downward API), `resources` (resource names
//! and requirements), `security` (security contexts) and `annotations` (seccomp and
//! `AppArmor` annotations); volumes: `volume` (pod volumes and mounts), `sources` (the
//! sources pods and persistent volumes share), `projected`, `paths`. The other kinds:
//! `service` with `cluster_ips`, `endpoints`, `config` (secrets, config maps, service
//! accounts), `persistent_volume`, `claim`, `node`, `namespace`, `quota` (limit ranges
//! and resource quotas), `event` and `controller` (replication controllers and pod
//! templates); `helper` holds `pkg/apis/core/helper`'s sets, `go_json` Go's JSON syntax
//! check.

mod annotations;
mod claim;
mod cluster_ips;
mod config;
mod container;
mod controller;
mod downward;
mod endpoints;
pub(crate) mod event;
mod go_json;
mod helper;
mod namespace;
mod node;
mod options;
mod paths;
mod persistent_volume;
mod pod;
mod pod_spec;
mod pod_status;
mod pod_update;
mod probes;
mod projected;
mod quota;
mod resources;
mod scheduling;
mod security;
mod service;
mod sources;
mod volume;

#[cfg(test)]
mod tests;

use serde_json::{Value, json};

use crate::field::{BadValue, ErrorList, Path};
use crate::json::{items, text};
use crate::meta::{self, NameRule};
use crate::quantity::Quantity;
use crate::{Kind, Write};

pub(crate) use self::options::PodOptions;
pub(crate) use self::pod::validate_pod_template_spec_with;
pub(crate) use self::security::validate_app_armor_profile_field;

/// The errors in `object`, a core/v1 kind written as `write` says.
pub(crate) fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    match (kind.kind, write) {
        ("Pod", _) => pod_update::validate(object, write),
        ("Binding", Write::Create) => pod_update::validate_pod_binding(object),
        ("PodTemplate", Write::Create) => controller::validate_pod_template(object),
        ("PodTemplate", write) => controller::validate_pod_template_update(object, old_of(write)),
        ("ReplicationController", write) => controller::validate(object, write),
        ("Service", write) => service::validate(object, write),
        ("Endpoints", Write::Create) => endpoints::validate_endpoints(object),
        ("Endpoints", write) => endpoints::validate_endpoints_update(object, old_of(write)),
        ("Secret", Write::Create) => config::validate_secret(object),
        ("Secret", write) => config::validate_secret_update(object, old_of(write)),
        ("ConfigMap", Write::Create) => config::validate_config_map(object),
        ("ConfigMap", write) => config::validate_config_map_update(object, old_of(write)),
        ("ServiceAccount", Write::Create) => config::validate_service_account(object),
        ("ServiceAccount", write) => config::validate_service_account_update(object, old_of(write)),
        ("PersistentVolume", write) => persistent_volume::validate_volume(object, write),
        ("PersistentVolumeClaim", write) => claim::validate_claim(object, write),
        ("Node", write) => node::validate(object, write),
        ("Namespace", write) => namespace::validate(object, write),
        ("LimitRange", _) => quota::validate_limit_range(object),
        ("ResourceQuota", write) => quota::validate_resource_quota(object, write),
        ("Event", Write::Create) => event::validate_event_create(object, event::EventApi::CoreV1),
        ("Event", write) => event::validate_event_update(object, old_of(write), event::EventApi::CoreV1),
        _ => ErrorList::new(),
    }
}

/// Whether this module ports the kind's whole validation (its metadata included).
pub(crate) fn ports(kind: &str) -> bool {
    matches!(
        kind,
        "Pod"
            | "Binding"
            | "PodTemplate"
            | "ReplicationController"
            | "Service"
            | "Endpoints"
            | "Secret"
            | "ConfigMap"
            | "ServiceAccount"
            | "PersistentVolume"
            | "PersistentVolumeClaim"
            | "Node"
            | "Namespace"
            | "LimitRange"
            | "ResourceQuota"
            | "Event"
    )
}

/// The stored object of an update (`Value::Null` for a create, which the callers
/// never pass).
fn old_of(write: Write<'_>) -> &Value {
    static NULL: Value = Value::Null;
    write.old().unwrap_or(&NULL)
}

/// `ValidatePodTemplateSpec`: a workload's pod template (its metadata and pod spec) at
/// `path`, with the options a new template gets.
#[allow(dead_code, reason = "the workload groups' validation calls it")]
pub(crate) fn validate_pod_template_spec(template: &Value, path: &Path) -> ErrorList {
    validate_pod_template_spec_with(template, path, &PodOptions::for_template(None))
}

/// core's `ValidateObjectMeta`: apimachinery's, then each finalizer without a `/` must
/// be one of the legacy standard names.
pub(crate) fn validate_object_meta(
    meta: &Value,
    requires_namespace: bool,
    name_rule: NameRule,
    path: &Path,
) -> ErrorList {
    let mut errors = meta::validate_object_meta(meta, requires_namespace, name_rule, path);
    for (index, finalizer) in items(&meta["finalizers"]).iter().enumerate() {
        errors.extend(validate_kube_finalizer_name(
            text(finalizer),
            &path.child("finalizers").index(index),
        ));
    }
    errors
}

/// core's `ValidateObjectMetaUpdate`: apimachinery's, then the legacy finalizer rule.
pub(crate) fn validate_object_meta_update(new: &Value, old: &Value, path: &Path) -> ErrorList {
    let mut errors = meta::validate_object_meta_update(new, old, path);
    for (index, finalizer) in items(&new["finalizers"]).iter().enumerate() {
        errors.extend(validate_kube_finalizer_name(
            text(finalizer),
            &path.child("finalizers").index(index),
        ));
    }
    errors
}

/// `validateKubeFinalizerName`: a finalizer without a domain must be `kubernetes`,
/// `orphan` or `foregroundDeletion`.
pub(crate) fn validate_kube_finalizer_name(name: &str, path: &Path) -> ErrorList {
    if !name.contains('/') && !helper::is_standard_finalizer_name(name) {
        return vec![path.invalid(
            name,
            "name is neither a standard finalizer name nor is it fully qualified",
        )];
    }
    ErrorList::new()
}

/// `validateFinalizerName`: a qualified name and the legacy rule (namespaces'
/// `spec.finalizers`).
pub(crate) fn validate_finalizer_name(name: &str, path: &Path) -> ErrorList {
    let mut errors = meta::validate_finalizer_name(name, path);
    errors.extend(validate_kube_finalizer_name(name, path));
    errors
}

/// Each message of a name rule as an Invalid error at `path`.
pub(crate) fn invalid_each(path: &Path, value: &str, messages: &[String]) -> ErrorList {
    messages.iter().map(|message| path.invalid(value, message)).collect()
}

/// `ValidateDNS1123Label`.
pub(crate) fn validate_dns1123_label(value: &str, path: &Path) -> ErrorList {
    invalid_each(path, value, &crate::util::is_dns1123_label(value))
}

/// `ValidateDNS1123Subdomain`.
pub(crate) fn validate_dns1123_subdomain(value: &str, path: &Path) -> ErrorList {
    invalid_each(path, value, &crate::util::is_dns1123_subdomain(value))
}

/// `ValidateQualifiedName`.
pub(crate) fn validate_qualified_name(value: &str, path: &Path) -> ErrorList {
    invalid_each(path, value, &crate::util::is_qualified_name(value))
}

/// A number as a field error shows it.
pub(crate) fn number(value: i64) -> BadValue {
    BadValue::Json(json!(value))
}

/// `field.NewPath("")`, which Go prints as `[]`.
pub(crate) fn empty_path() -> Path {
    Path::new("[]")
}

/// A quantity field: parsed, or zero when it does not parse (the decoder refused
/// such a body before validation).
pub(crate) fn quantity(value: &Value) -> Quantity {
    Quantity::from_json(value)
}

/// `ValidateNonnegativeQuantity`.
pub(crate) fn validate_nonnegative_quantity(value: &Quantity, path: &Path) -> ErrorList {
    if value.sign() < 0 {
        vec![path.invalid(value.to_string().as_str(), meta::IS_NEGATIVE)]
    } else {
        ErrorList::new()
    }
}

/// `ValidatePositiveQuantityValue`.
pub(crate) fn validate_positive_quantity_value(value: &Quantity, path: &Path) -> ErrorList {
    if value.sign() <= 0 {
        vec![path.invalid(value.to_string().as_str(), "must be greater than zero")]
    } else {
        ErrorList::new()
    }
}

/// A string field that must equal its stored value (`ValidateImmutableField` on a Go
/// string or string-typed value, printed quoted).
pub(crate) fn validate_immutable_string(new: &Value, old: &Value, path: &Path) -> ErrorList {
    meta::validate_immutable_field(&json!(text(new)), &json!(text(old)), BadValue::from(text(new)), path)
}

/// `qos.GetPodQOS` of a stored pod: its status's class, or the class its spec gives.
pub(crate) fn quality_of_service_of(pod: &Value) -> String {
    match text(&pod["status"]["qosClass"]) {
        "" => quality_of_service(&pod["spec"]).to_owned(),
        class => class.to_owned(),
    }
}

/// `qos.ComputePodQOS`: `Guaranteed` when every container limits cpu and memory and
/// asks for no less, `BestEffort` when none asks for or limits either, else `Burstable`.
pub(crate) fn quality_of_service(spec: &Value) -> &'static str {
    let mut requests: std::collections::BTreeMap<&str, Quantity> = std::collections::BTreeMap::new();
    let mut limits: std::collections::BTreeMap<&str, Quantity> = std::collections::BTreeMap::new();
    let mut guaranteed = true;
    let add = |sum: &mut std::collections::BTreeMap<&str, Quantity>, name: &'static str, value: Quantity| {
        let total = sum.remove(name).map_or(value.clone(), |before| before.plus(&value));
        sum.insert(name, total);
    };
    for list in ["initContainers", "containers"] {
        for container in items(&spec[list]) {
            let mut limited = 0;
            for name in ["cpu", "memory"] {
                let request = container["resources"]["requests"].get(name).map(quantity);
                if let Some(request) = request.filter(|q| q.sign() > 0) {
                    add(&mut requests, name, request);
                }
                let limit = container["resources"]["limits"].get(name).map(quantity);
                if let Some(limit) = limit.filter(|q| q.sign() > 0) {
                    limited += 1;
                    add(&mut limits, name, limit);
                }
            }
            guaranteed &= limited == 2;
        }
    }
    if requests.is_empty() && limits.is_empty() {
        return "BestEffort";
    }
    if guaranteed {
        guaranteed = requests
            .iter()
            .all(|(name, request)| limits.get(name).is_some_and(|limit| limit.cmp(request).is_eq()));
    }
    if guaranteed && requests.len() == limits.len() {
        "Guaranteed"
    } else {
        "Burstable"
    }
}
