//! The validation rules of the built-in types whose validation is not yet ported to
//! the `wheelhouse-envtest-validation` crate (the core/v1 kinds are), worded as
//! kube-apiserver words them (`pkg/apis/<group>/validation/validation.go`), their
//! metadata rules (`apimachinery/pkg/api/validation/objectmeta.go`), and the fields an
//! update may not change.

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

pub(super) fn not_supported(field: impl Into<String>, value: &Value, supported: &[&str]) -> Violation {
    let supported: Vec<String> = supported.iter().map(|s| format!("\"{s}\"")).collect();
    (
        field.into(),
        "FieldValueNotSupported",
        format!("Unsupported value: {value}: supported values: {}", supported.join(", ")),
    )
}

/// The validation rules of built-in types that an object can break (field, reason,
/// detail), worded as the real server words them.
pub(crate) fn violations(resource: &ResourceType, object: &Value) -> Vec<Violation> {
    let mut found = Vec::new();
    if resource.custom {
        return found;
    }
    if let ("apps", "Deployment" | "ReplicaSet" | "StatefulSet") = (resource.group.as_str(), resource.kind.as_str()) {
        {
            let spec = &object["spec"];
            let selector = &spec["selector"];
            if selector.is_null() {
                found.push(("spec.selector".into(), "FieldValueRequired", "Required value".into()));
            } else {
                let labels = &spec["template"]["metadata"]["labels"];
                let selected = wheelhouse_selector::LabelSelector::from_structured(Some(selector))
                    .is_ok_and(|s| s.matches(Some(labels)));
                if !selected {
                    found.push((
                        "spec.template.metadata.labels".into(),
                        "FieldValueInvalid",
                        format!("Invalid value: {labels}: `selector` does not match template `labels`"),
                    ));
                }
            }
            pod_spec_violations(&spec["template"]["spec"], "spec.template.spec", &mut found);
        }
    }
    found.extend(other_violations(resource, object));
    found.extend(super::registrations::violations(resource, object));
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
        ("apps", "Deployment" | "ReplicaSet" | "StatefulSet") => &["selector"],
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

/// The rules a new or updated object of the other built-in kinds breaks, and their
/// metadata rules (the core kinds' are ported).
fn other_violations(resource: &ResourceType, object: &Value) -> Vec<Violation> {
    let mut found = Vec::new();
    if !resource.group.is_empty() {
        metadata(object, &mut found);
    }
    let spec = &object["spec"];
    match (resource.group.as_str(), resource.kind.as_str()) {
        ("batch", "Job") => job(spec, "spec", &mut found),
        ("batch", "CronJob") => {
            if object["metadata"]["name"].as_str().is_some_and(|n| n.len() > 52) {
                let name = &object["metadata"]["name"];
                found.push(invalid("metadata.name", name, "must be no more than 52 characters"));
            }
            cron_schedule(&spec["schedule"], &mut found);
            job(&spec["jobTemplate"]["spec"], "spec.jobTemplate.spec", &mut found);
        }
        ("apps", "DaemonSet") => {
            if spec["selector"].is_null() {
                found.push(required("spec.selector", ""));
            } else {
                selector_matches_template(spec, &mut found);
            }
            pod_spec_violations(&spec["template"]["spec"], "spec.template.spec", &mut found);
        }
        ("rbac.authorization.k8s.io", "Role" | "ClusterRole") => {
            policy_rules(resource.kind == "Role", object, &mut found);
        }
        ("rbac.authorization.k8s.io", "RoleBinding" | "ClusterRoleBinding") => {
            role_binding(resource.kind == "RoleBinding", object, &mut found);
        }
        ("policy", "PodDisruptionBudget") if !spec["minAvailable"].is_null() && !spec["maxUnavailable"].is_null() => {
            found.push(invalid(
                "spec",
                spec,
                "minAvailable and maxUnavailable cannot be both set",
            ));
        }
        ("autoscaling", "HorizontalPodAutoscaler") => autoscaler(spec, &mut found),
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
        ("batch", "Job") => {
            for field in ["selector", "template", "completionMode"] {
                if !unchanged(&["spec", field]) {
                    let value = &new["spec"][field];
                    found.push(invalid(format!("spec.{field}"), value, "field is immutable"));
                }
            }
        }
        ("apps", "DaemonSet") if !unchanged(&["spec", "selector"]) => {
            found.push(invalid("spec.selector", &new["spec"]["selector"], "field is immutable"));
        }
        ("rbac.authorization.k8s.io", "RoleBinding" | "ClusterRoleBinding") if !unchanged(&["roleRef"]) => {
            found.push(invalid("roleRef", &new["roleRef"], "cannot change roleRef"));
        }
        _ => {}
    }
    found
}

/// Label keys and values, and annotation keys, of the kinds not yet ported.
fn metadata(object: &Value, found: &mut Vec<Violation>) {
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

fn selector_matches_template(spec: &Value, found: &mut Vec<Violation>) {
    let labels = &spec["template"]["metadata"]["labels"];
    let selected = wheelhouse_selector::LabelSelector::from_structured(Some(&spec["selector"]))
        .is_ok_and(|s| s.matches(Some(labels)));
    if !selected {
        found.push(invalid(
            "spec.template.metadata.labels",
            labels,
            "`selector` does not match template `labels`",
        ));
    }
}

/// A Job spec (or a `CronJob`'s job template spec) at `path`.
fn job(spec: &Value, path: &str, found: &mut Vec<Violation>) {
    let policy = &spec["template"]["spec"]["restartPolicy"];
    if !matches!(policy.as_str(), Some("OnFailure" | "Never")) {
        found.push(not_supported(
            format!("{path}.template.spec.restartPolicy"),
            policy,
            &["OnFailure", "Never"],
        ));
    }
    if spec["manualSelector"] == true {
        if spec["selector"].is_null() {
            found.push(required(format!("{path}.selector"), ""));
        } else {
            selector_matches_template(spec, found);
        }
    }
    for field in ["parallelism", "completions", "backoffLimit", "activeDeadlineSeconds"] {
        if spec[field].as_i64().is_some_and(|n| n < 0) {
            found.push(invalid(
                format!("{path}.{field}"),
                &spec[field],
                "must be greater than or equal to 0",
            ));
        }
    }
    pod_spec_violations(&spec["template"]["spec"], &format!("{path}.template.spec"), found);
}

/// The five fields of a cron schedule, or a `@` descriptor.
fn cron_schedule(schedule: &Value, found: &mut Vec<Violation>) {
    let Some(text) = schedule.as_str().filter(|s| !s.is_empty()) else {
        found.push(required("spec.schedule", ""));
        return;
    };
    if let Some(descriptor) = text.strip_prefix('@') {
        let known = matches!(
            descriptor,
            "yearly" | "annually" | "monthly" | "weekly" | "daily" | "midnight" | "hourly"
        ) || descriptor.starts_with("every ");
        if !known {
            found.push(invalid(
                "spec.schedule",
                schedule,
                &format!("unrecognized descriptor: {text}"),
            ));
        }
        return;
    }
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() != 5 {
        found.push(invalid(
            "spec.schedule",
            schedule,
            &format!("expected exactly 5 fields, found {}: {text}", fields.len()),
        ));
        return;
    }
    let allowed = |field: &str| {
        field
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'*' | b'/' | b',' | b'-' | b'?'))
    };
    if let Some(bad) = fields.iter().find(|field| !allowed(field)) {
        found.push(invalid(
            "spec.schedule",
            schedule,
            &format!("failed to parse {bad}: {text}"),
        ));
    }
}

/// `rules` of a `Role` or `ClusterRole`.
fn policy_rules(namespaced: bool, object: &Value, found: &mut Vec<Violation>) {
    for (index, rule) in object["rules"].as_array().into_iter().flatten().enumerate() {
        let path = format!("rules[{index}]");
        let empty = |field: &str| rule[field].as_array().is_none_or(Vec::is_empty);
        if empty("verbs") {
            found.push(required(
                format!("{path}.verbs"),
                "verbs must contain at least one value",
            ));
        }
        if empty("nonResourceURLs") {
            if empty("apiGroups") {
                found.push(required(
                    format!("{path}.apiGroups"),
                    "resource rules must supply at least one api group",
                ));
            }
            if empty("resources") {
                found.push(required(
                    format!("{path}.resources"),
                    "resource rules must supply at least one resource",
                ));
            }
        } else {
            if namespaced {
                found.push(invalid(
                    format!("{path}.nonResourceURLs"),
                    &rule["nonResourceURLs"],
                    "namespaced rules cannot apply to non-resource URLs",
                ));
            }
            if !empty("apiGroups") || !empty("resources") || !empty("resourceNames") {
                found.push(invalid(
                    format!("{path}.nonResourceURLs"),
                    &rule["nonResourceURLs"],
                    "rules cannot apply to both regular resources and non-resource URLs",
                ));
            }
        }
    }
}

/// `roleRef` and `subjects` of a `RoleBinding` or `ClusterRoleBinding`.
fn role_binding(namespaced: bool, object: &Value, found: &mut Vec<Violation>) {
    let role = &object["roleRef"];
    if role["apiGroup"] != "rbac.authorization.k8s.io" {
        found.push(not_supported(
            "roleRef.apiGroup",
            &role["apiGroup"],
            &["rbac.authorization.k8s.io"],
        ));
    }
    let kinds: &[&str] = if namespaced {
        &["Role", "ClusterRole"]
    } else {
        &["ClusterRole"]
    };
    if !role["kind"].as_str().is_some_and(|k| kinds.contains(&k)) {
        found.push(not_supported("roleRef.kind", &role["kind"], kinds));
    }
    if role["name"].as_str().is_none_or(str::is_empty) {
        found.push(required("roleRef.name", ""));
    }
    for (index, subject) in object["subjects"].as_array().into_iter().flatten().enumerate() {
        let path = format!("subjects[{index}]");
        if subject["name"].as_str().is_none_or(str::is_empty) {
            found.push(required(format!("{path}.name"), ""));
        }
        match subject["kind"].as_str() {
            Some("ServiceAccount") => {
                if !namespaced && subject["namespace"].as_str().is_none_or(str::is_empty) {
                    found.push(required(format!("{path}.namespace"), ""));
                }
            }
            Some("User" | "Group") => {}
            _ => found.push(not_supported(
                format!("{path}.kind"),
                &subject["kind"],
                &["ServiceAccount", "User", "Group"],
            )),
        }
    }
}

/// An autoscaling/v1 or v2 `HorizontalPodAutoscaler`.
fn autoscaler(spec: &Value, found: &mut Vec<Violation>) {
    let max = spec["maxReplicas"].as_i64();
    match max {
        None => found.push(required("spec.maxReplicas", "")),
        Some(max) if max < 1 => found.push(invalid(
            "spec.maxReplicas",
            &spec["maxReplicas"],
            "must be greater than or equal to 1",
        )),
        Some(_) => {}
    }
    if let (Some(min), Some(max)) = (spec["minReplicas"].as_i64(), max)
        && min > max
    {
        found.push(invalid(
            "spec.minReplicas",
            &spec["minReplicas"],
            "must be less than or equal to maxReplicas",
        ));
    }
    for field in ["kind", "name"] {
        if spec["scaleTargetRef"][field].as_str().is_none_or(str::is_empty) {
            found.push(required(format!("spec.scaleTargetRef.{field}"), ""));
        }
    }
}
