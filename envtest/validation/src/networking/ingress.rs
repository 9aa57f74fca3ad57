//! Ingresses (`ValidateIngressCreate`, `ValidateIngressUpdate`,
//! `ValidateIngressStatusUpdate`) and `IngressClasses` (`ValidateIngressClass`,
//! `ValidateIngressClassUpdate`).

use serde_json::Value;

use crate::Write;
use crate::common::fields::{immutable_string, validate_domain_prefixed_path};
use crate::common::go_syntax::{raw, slice};
use crate::common::names::{
    dns1123_subdomain, name_is_dns_label, name_is_dns_subdomain, name_is_dns1035_label, path_segment_name, port_name,
    port_number, wildcard_dns1123_subdomain,
};
use crate::common::net::parse_ip_sloppy;
use crate::common::read::{int, is_set, items, opt_text, text};
use crate::core::{validate_object_meta, validate_object_meta_update};
use crate::field::{ErrorList, Path};

/// The annotation older clients name an Ingress's class with.
const CLASS_ANNOTATION: &str = "kubernetes.io/ingress.class";
/// The longest controller name of an `IngressClass`.
const MAX_CONTROLLER_LENGTH: i64 = 250;

/// `IngressValidationOptions`: what an update keeps accepting from a stored object.
#[derive(Debug, Clone, Copy, Default)]
struct Options {
    allow_invalid_secret_name: bool,
    allow_invalid_wildcard_host_rule: bool,
}

/// The Ingress strategies' `Validate`, `ValidateUpdate` and the status strategy's.
pub(super) fn validate_ingress(object: &Value, write: Write) -> ErrorList {
    let metadata = Path::new("metadata");
    match write {
        Write::Create => {
            let mut errors = validate_ingress_object(object, Options::default());
            let annotation = opt_text(&object["metadata"]["annotations"][CLASS_ANNOTATION]);
            let class = opt_text(&object["spec"]["ingressClassName"]);
            if let (Some(annotation), Some(class)) = (annotation, class)
                && annotation != class
            {
                errors.push(
                    Path::new("annotations")
                        .child(CLASS_ANNOTATION)
                        .invalid(annotation, "must match `ingressClassName` when both are specified"),
                );
            }
            errors
        }
        Write::Update { old } => {
            let mut errors = validate_object_meta_update(&object["metadata"], &old["metadata"], &metadata);
            let options = Options {
                allow_invalid_secret_name: items(&old["spec"]["tls"])
                    .iter()
                    .any(|tls| !tls_secret_name(text(&tls["secretName"])).is_empty()),
                allow_invalid_wildcard_host_rule: items(&old["spec"]["rules"]).iter().any(|rule| {
                    text(&rule["host"]).contains('*')
                        && !validate_ingress_rule_value(rule, &Path::new(""), Options::default()).is_empty()
                }),
            };
            errors.extend(validate_ingress_object(object, options));
            errors
        }
        Write::Subresource { name: "status", old } => {
            let mut errors = validate_object_meta_update(&object["metadata"], &old["metadata"], &metadata);
            errors.extend(validate_load_balancer_status(
                &object["status"]["loadBalancer"],
                &Path::from_parts(&["status", "loadBalancer"]),
            ));
            errors
        }
        Write::Subresource { .. } => ErrorList::new(),
    }
}

/// `validateIngress`.
fn validate_ingress_object(object: &Value, options: Options) -> ErrorList {
    let mut errors = validate_object_meta(&object["metadata"], true, name_is_dns_subdomain, &Path::new("metadata"));
    errors.extend(validate_ingress_spec(&object["spec"], &Path::new("spec"), options));
    errors
}

/// `ValidateIngressSpec`.
fn validate_ingress_spec(spec: &Value, path: &Path, options: Options) -> ErrorList {
    let mut errors = ErrorList::new();
    let rules = items(&spec["rules"]);
    let backend = &spec["defaultBackend"];
    if rules.is_empty() && !is_set(backend) {
        let shown = slice("networking.IngressRule", &spec["rules"], |_| {
            "networking.IngressRule{...}".to_owned()
        });
        errors.push(path.invalid(raw(shown), "either `defaultBackend` or `rules` must be specified"));
    }
    if is_set(backend) {
        errors.extend(validate_ingress_backend(backend, &path.child("defaultBackend")));
    }
    if !rules.is_empty() {
        errors.extend(validate_ingress_rules(rules, &path.child("rules"), options));
    }
    let tls = items(&spec["tls"]);
    if !tls.is_empty() {
        errors.extend(validate_ingress_tls(tls, &path.child("tls"), options));
    }
    if let Some(class) = opt_text(&spec["ingressClassName"]) {
        for message in name_is_dns_subdomain(class, false) {
            errors.push(path.child("ingressClassName").invalid(class, &message));
        }
    }
    errors
}

/// `validateTLSSecretName`: empty, or a Secret's name.
fn tls_secret_name(name: &str) -> Vec<String> {
    if name.is_empty() {
        return Vec::new();
    }
    name_is_dns_subdomain(name, false)
}

/// `validateIngressTLS`.
fn validate_ingress_tls(tls: &[Value], path: &Path, options: Options) -> ErrorList {
    let mut errors = ErrorList::new();
    for (index, entry) in tls.iter().enumerate() {
        for (host_index, host) in items(&entry["hosts"]).iter().enumerate() {
            let host = text(host);
            let host_path = path.index(index).child("hosts").index(host_index);
            let messages = if host.contains('*') {
                wildcard_dns1123_subdomain(host)
            } else {
                dns1123_subdomain(host)
            };
            errors.extend(messages.iter().map(|message| host_path.invalid(host, message)));
        }
        if !options.allow_invalid_secret_name {
            let secret = text(&entry["secretName"]);
            for message in tls_secret_name(secret) {
                errors.push(path.index(index).child("secretName").invalid(secret, &message));
            }
        }
    }
    errors
}

/// `validateIngressRules`.
fn validate_ingress_rules(rules: &[Value], path: &Path, options: Options) -> ErrorList {
    let mut errors = ErrorList::new();
    for (index, rule) in rules.iter().enumerate() {
        let host = text(&rule["host"]);
        let host_path = path.index(index).child("host");
        let mut wildcard = false;
        if !host.is_empty() {
            if parse_ip_sloppy(host).is_some() {
                errors.push(host_path.invalid(host, "must be a DNS name, not an IP address"));
            }
            let messages = if host.contains('*') {
                wildcard = true;
                wildcard_dns1123_subdomain(host)
            } else {
                dns1123_subdomain(host)
            };
            errors.extend(messages.iter().map(|message| host_path.invalid(host, message)));
        }
        if !wildcard || !options.allow_invalid_wildcard_host_rule {
            errors.extend(validate_ingress_rule_value(rule, &path.index(index), options));
        }
    }
    errors
}

/// `validateIngressRuleValue` and `validateHTTPIngressRuleValue`.
fn validate_ingress_rule_value(rule: &Value, path: &Path, _options: Options) -> ErrorList {
    let mut errors = ErrorList::new();
    let http = &rule["http"];
    if !is_set(http) {
        return errors;
    }
    let http_path = path.child("http");
    let paths = items(&http["paths"]);
    if paths.is_empty() {
        errors.push(http_path.child("paths").required(""));
    }
    for (index, entry) in paths.iter().enumerate() {
        errors.extend(validate_http_ingress_path(
            entry,
            &http_path.child("paths").index(index),
        ));
    }
    errors
}

/// `validateHTTPIngressPath`.
fn validate_http_ingress_path(entry: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let Some(kind) = opt_text(&entry["pathType"]) else {
        return vec![path.child("pathType").required("pathType must be specified")];
    };
    let value = text(&entry["path"]);
    let value_path = path.child("path");
    match kind {
        "Exact" | "Prefix" => {
            if !value.starts_with('/') {
                errors.push(value_path.invalid(value, "must be an absolute path"));
            }
            if !value.is_empty() {
                for sequence in ["//", "/./", "/../", "%2f", "%2F"] {
                    if value.contains(sequence) {
                        errors.push(value_path.invalid(value, &format!("must not contain '{sequence}'")));
                    }
                }
                for suffix in ["/..", "/."] {
                    if value.ends_with(suffix) {
                        errors.push(value_path.invalid(value, &format!("cannot end with '{suffix}'")));
                    }
                }
            }
        }
        "ImplementationSpecific" => {
            if !value.is_empty() && !value.starts_with('/') {
                errors.push(value_path.invalid(value, "must be an absolute path"));
            }
        }
        other => errors.push(
            path.child("pathType")
                .not_supported(other, &["Exact", "ImplementationSpecific", "Prefix"]),
        ),
    }
    errors.extend(validate_ingress_backend(&entry["backend"], &path.child("backend")));
    errors
}

/// `validateIngressBackend`: a resource or a service (by port name or number).
fn validate_ingress_backend(backend: &Value, path: &Path) -> ErrorList {
    let resource = &backend["resource"];
    let service = &backend["service"];
    match (is_set(resource), is_set(service)) {
        (true, true) => vec![path.invalid("", "cannot set both resource and service backends")],
        (true, false) => validate_typed_local_object_reference(resource, &path.child("resource")),
        (false, true) => {
            let mut errors = ErrorList::new();
            let name = text(&service["name"]);
            let name_path = path.child("service").child("name");
            if name.is_empty() {
                errors.push(name_path.required(""));
            } else {
                for message in name_is_dns1035_label(name, false) {
                    errors.push(name_path.invalid(name, &message));
                }
            }
            let port = &service["port"];
            let port_path = path.child("service").child("port");
            let name = text(&port["name"]);
            let number = int(&port["number"]);
            match (!name.is_empty(), number != 0) {
                (true, true) => errors.push(path.invalid("", "cannot set both port name & port number")),
                (true, false) => {
                    for message in port_name(name) {
                        errors.push(port_path.child("name").invalid(name, &message));
                    }
                }
                (false, true) => {
                    for message in port_number(number) {
                        errors.push(port_path.child("number").invalid(&Value::from(number), &message));
                    }
                }
                (false, false) => errors.push(path.required("port name or number is required")),
            }
            errors
        }
        (false, false) => vec![path.invalid("", "resource or service backend is required")],
    }
}

/// `validateIngressTypedLocalObjectReference`.
fn validate_typed_local_object_reference(reference: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if let Some(group) = opt_text(&reference["apiGroup"]) {
        for message in dns1123_subdomain(group) {
            errors.push(path.child("apiGroup").invalid(group, &message));
        }
    }
    for field in ["kind", "name"] {
        let value = text(&reference[field]);
        if value.is_empty() {
            errors.push(path.child(field).required(&format!("{field} is required")));
        } else {
            for message in path_segment_name(value) {
                errors.push(path.child(field).invalid(value, &message));
            }
        }
    }
    errors
}

/// `ValidateIngressLoadBalancerStatus`.
fn validate_load_balancer_status(status: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    for (index, ingress) in items(&status["ingress"]).iter().enumerate() {
        let entry = path.child("ingress").index(index);
        let ip = text(&ingress["ip"]);
        if !ip.is_empty() && parse_ip_sloppy(ip).is_none() {
            errors.push(
                entry
                    .child("ip")
                    .invalid(ip, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"),
            );
        }
        let hostname = text(&ingress["hostname"]);
        if !hostname.is_empty() {
            for message in dns1123_subdomain(hostname) {
                errors.push(entry.child("hostname").invalid(hostname, &message));
            }
            if parse_ip_sloppy(hostname).is_some() {
                errors.push(
                    entry
                        .child("hostname")
                        .invalid(hostname, "must be a DNS name, not an IP address"),
                );
            }
        }
    }
    errors
}

/// The `IngressClass` strategy's `Validate` and `ValidateUpdate`.
pub(super) fn validate_ingress_class(object: &Value, write: Write) -> ErrorList {
    match write.old() {
        None => validate_ingress_class_object(object),
        Some(old) => {
            let mut errors = validate_object_meta_update(&object["metadata"], &old["metadata"], &Path::new("metadata"));
            errors.extend(immutable_string(
                &object["spec"]["controller"],
                &old["spec"]["controller"],
                &Path::from_parts(&["spec", "controller"]),
            ));
            errors.extend(validate_ingress_class_object(object));
            errors
        }
    }
}

/// `ValidateIngressClass` (cluster-scoped).
fn validate_ingress_class_object(object: &Value) -> ErrorList {
    let mut errors = validate_object_meta(
        &object["metadata"],
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let spec = &object["spec"];
    let path = Path::new("spec");
    let controller = text(&spec["controller"]);
    if i64::try_from(controller.len()).unwrap_or(i64::MAX) > MAX_CONTROLLER_LENGTH {
        errors.push(path.child("controller").too_long(MAX_CONTROLLER_LENGTH));
    }
    errors.extend(validate_domain_prefixed_path(&path.child("controller"), controller));
    let parameters = &spec["parameters"];
    if is_set(parameters) {
        errors.extend(validate_parameters_reference(parameters, &path.child("parameters")));
    }
    errors
}

/// `validateIngressClassParametersReference` (an unset scope is v1's default,
/// `Cluster`).
fn validate_parameters_reference(parameters: &Value, path: &Path) -> ErrorList {
    let mut errors = validate_typed_local_object_reference(parameters, path);
    let scope = opt_text(&parameters["scope"]).unwrap_or("Cluster");
    let namespace = &parameters["namespace"];
    match scope {
        "Namespace" => match opt_text(namespace) {
            None => errors.push(
                path.child("namespace")
                    .required("`parameters.scope` is set to 'Namespace'"),
            ),
            Some(name) => {
                for message in name_is_dns_label(name, false) {
                    errors.push(path.child("namespace").invalid(name, &message));
                }
            }
        },
        "Cluster" => {
            if is_set(namespace) {
                errors.push(
                    path.child("namespace")
                        .forbidden("`parameters.scope` is set to 'Cluster'"),
                );
            }
        }
        other => errors.push(path.child("scope").not_supported(other, &["Cluster", "Namespace"])),
    }
    errors
}
