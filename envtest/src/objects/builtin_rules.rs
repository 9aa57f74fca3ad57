//! The validation rules of built-in types that operators commonly trip over, worded as
//! kube-apiserver words them (`pkg/apis/<group>/validation/validation.go`), the
//! metadata rules every built-in object obeys
//! (`apimachinery/pkg/api/validation/objectmeta.go`), and the fields an update may not
//! change.

use serde_json::{Value, json};

use crate::core::ResourceType;

/// One violation: (field, reason, detail) as kube-apiserver words it.
pub(super) type Violation = (String, &'static str, String);

pub(super) fn required(field: impl Into<String>, detail: &str) -> Violation {
    let detail = if detail.is_empty() {
        "Required value".to_owned()
    } else {
        format!("Required value: {detail}")
    };
    (field.into(), "FieldValueRequired", detail)
}

pub(super) fn invalid(field: impl Into<String>, value: &Value, detail: &str) -> Violation {
    (
        field.into(),
        "FieldValueInvalid",
        format!("Invalid value: {value}: {detail}"),
    )
}

/// The validation rules of built-in types that an object can break (field, reason,
/// detail), worded as the real server words them.
pub(crate) fn violations(resource: &ResourceType, object: &Value) -> Vec<Violation> {
    let mut found = Vec::new();
    if resource.custom {
        return found;
    }
    match (resource.group.as_str(), resource.kind.as_str()) {
        ("", "Pod") => pod_spec_violations(&object["spec"], "spec", &mut found),
        ("", "Service") => {
            let spec = &object["spec"];
            let headless = spec["clusterIP"] == "None";
            let needs_ports = spec["type"] != "ExternalName" && !headless;
            if needs_ports && spec["ports"].as_array().is_none_or(Vec::is_empty) {
                found.push(("spec.ports".into(), "FieldValueRequired", "Required value".into()));
            }
        }
        _ => {}
    }
    found.extend(other_violations(resource, object));
    found
}

pub(crate) fn pod_spec_violations(spec: &Value, path: &str, found: &mut Vec<Violation>) {
    let containers = spec["containers"].as_array().map(Vec::as_slice).unwrap_or_default();
    if containers.is_empty() {
        found.push((
            format!("{path}.containers"),
            "FieldValueRequired",
            "Required value".into(),
        ));
    }
    for (index, container) in containers.iter().enumerate() {
        for field in ["name", "image"] {
            if container[field].as_str().is_none_or(str::is_empty) {
                found.push((
                    format!("{path}.containers[{index}].{field}"),
                    "FieldValueRequired",
                    "Required value".into(),
                ));
            }
        }
    }
}

/// Fields of built-in types that an update may not change.
pub(crate) fn immutable_changes(resource: &ResourceType, current: &Value, new: &Value) -> Vec<Violation> {
    let mut found = Vec::new();
    let immutable: &[&str] = match (resource.group.as_str(), resource.kind.as_str()) {
        ("", "Service") => &["clusterIP"],
        _ => &[],
    };
    for field in immutable {
        let (before, after) = (&current["spec"][field], &new["spec"][field]);
        if !before.is_null() && before != after {
            found.push((
                format!("spec.{field}"),
                "FieldValueInvalid",
                format!("Invalid value: {after}: field is immutable"),
            ));
        }
    }
    found.extend(other_immutable_changes(resource, current, new));
    found
}

/// The rules a new or updated object of the other built-in kinds breaks, and the
/// metadata rules of every built-in object.
fn other_violations(resource: &ResourceType, object: &Value) -> Vec<Violation> {
    let mut found = Vec::new();
    metadata(resource, object, &mut found);
    let spec = &object["spec"];
    match (resource.group.as_str(), resource.kind.as_str()) {
        ("", "ConfigMap" | "Secret") => config_keys(object, &mut found),
        ("", "PersistentVolumeClaim") => {
            if spec["accessModes"].as_array().is_none_or(Vec::is_empty) {
                found.push(required("spec.accessModes", "at least 1 access mode is required"));
            }
            if spec["resources"]["requests"]["storage"].is_null() {
                found.push(required("spec.resources[storage]", ""));
            }
        }
        ("", "PersistentVolume") => {
            if spec["capacity"]["storage"].is_null() {
                found.push(required("spec.capacity", ""));
            }
            if spec["accessModes"].as_array().is_none_or(Vec::is_empty) {
                found.push(required("spec.accessModes", ""));
            }
        }
        ("", "Event") => {
            let involved = &object["involvedObject"]["namespace"];
            let namespace = &object["metadata"]["namespace"];
            if involved.as_str().is_some_and(|n| !n.is_empty()) && involved != namespace {
                found.push(invalid(
                    "involvedObject.namespace",
                    involved,
                    "does not match event.namespace",
                ));
            }
        }
        _ => {}
    }
    found
}

/// Fields of the other built-in kinds that an update may not change.
fn other_immutable_changes(resource: &ResourceType, current: &Value, new: &Value) -> Vec<Violation> {
    let mut found = Vec::new();
    let unchanged = |path: &[&str]| {
        let read = |object: &Value| path.iter().fold(object.clone(), |value, key| value[*key].clone());
        read(current) == read(new)
    };
    match (resource.group.as_str(), resource.kind.as_str()) {
        ("", "ConfigMap" | "Secret") if current["immutable"] == true => {
            for field in ["data", "binaryData"] {
                if !unchanged(&[field]) {
                    found.push((
                        field.to_owned(),
                        "FieldValueForbidden",
                        "Forbidden: field is immutable when `immutable` is set".to_owned(),
                    ));
                }
            }
            if new["immutable"] != true {
                found.push((
                    "immutable".to_owned(),
                    "FieldValueForbidden",
                    "Forbidden: field is immutable when `immutable` is set".to_owned(),
                ));
            }
        }
        _ => {}
    }
    found
}

/// Label keys and values, and annotation keys, of every built-in object.
fn metadata(resource: &ResourceType, object: &Value, found: &mut Vec<Violation>) {
    if let Some(labels) = object["metadata"]["labels"].as_object() {
        for (key, value) in labels {
            qualified_name("metadata.labels", key, found);
            let text = value.as_str().unwrap_or_default();
            if text.len() > 63 {
                found.push(invalid("metadata.labels", value, "must be no more than 63 characters"));
            } else if !text.is_empty() && !name_part(text) {
                found.push(invalid(
                    "metadata.labels",
                    value,
                    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                ));
            }
        }
    }
    if let Some(annotations) = object["metadata"]["annotations"].as_object() {
        for key in annotations.keys() {
            qualified_name("metadata.annotations", key, found);
        }
    }
    let name = object["metadata"]["name"].as_str().unwrap_or_default();
    let label_only = match (resource.group.as_str(), resource.kind.as_str()) {
        ("", "Namespace") => Some(false),
        ("", "Service") => Some(true),
        _ => None,
    };
    if let Some(starts_with_letter) = label_only
        && !name.is_empty()
    {
        let details = if starts_with_letter {
            wheelhouse_envtest_schema::names::dns1035_label(name)
        } else {
            wheelhouse_envtest_schema::names::dns1123_label(name)
        };
        for detail in details {
            found.push(invalid("metadata.name", &json!(name), &detail));
        }
    }
}

/// `[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?`.
fn name_part(text: &str) -> bool {
    let bytes = text.as_bytes();
    let edge = |b: Option<&u8>| b.is_some_and(u8::is_ascii_alphanumeric);
    edge(bytes.first())
        && edge(bytes.last())
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// A qualified name (`prefix/name`, the prefix a DNS subdomain), as label and
/// annotation keys must be.
pub(super) fn qualified_name(field: &str, key: &str, found: &mut Vec<Violation>) {
    let (prefix, name) = key.rsplit_once('/').map_or((None, key), |(p, n)| (Some(p), n));
    let prefix_ok =
        prefix.is_none_or(|p| !p.is_empty() && p.len() <= 253 && p.split('.').all(|label| dns_label(label, false)));
    if !prefix_ok || name.is_empty() || name.len() > 63 || !name_part(name) {
        found.push(invalid(
            field,
            &json!(key),
            "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        ));
    }
}

/// An RFC 1123 label (or, `starts_with_letter`, an RFC 1035 one).
fn dns_label(text: &str, starts_with_letter: bool) -> bool {
    let bytes = text.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 63
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
        && bytes.first().is_some_and(|b| {
            if starts_with_letter {
                b.is_ascii_lowercase()
            } else {
                *b != b'-'
            }
        })
        && bytes.last().is_some_and(|b| *b != b'-')
}

/// `ConfigMap` and `Secret` keys: `[-._a-zA-Z0-9]+`.
fn config_keys(object: &Value, found: &mut Vec<Violation>) {
    for field in ["data", "binaryData"] {
        for key in object[field].as_object().into_iter().flat_map(|m| m.keys()) {
            let valid = !key.is_empty()
                && key.len() <= 253
                && key
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
            if !valid {
                found.push(invalid(
                    format!("{field}[{key}]"),
                    &json!(key),
                    "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
                ));
            }
        }
    }
}
