//! The defaults and validation rules of the built-in resources the catalogue added to
//! the first few (those live in `defaults.rs`), limited to what operators commonly
//! meet: kube-apiserver's `pkg/apis/<group>/v1/defaults.go`,
//! `pkg/apis/<group>/validation/validation.go`, the Job strategy's generated selector
//! (`pkg/registry/batch/job/strategy.go`), and the metadata rules every built-in
//! object obeys (`apimachinery/pkg/api/validation/objectmeta.go`).

use serde_json::{Value, json};

use crate::defaults::{pod_spec_violations, pod_template, set};
use crate::registry::ResourceType;

/// One violation: (field, reason, detail) as kube-apiserver words it.
type Violation = (String, &'static str, String);

fn required(field: impl Into<String>, detail: &str) -> Violation {
    let detail = if detail.is_empty() {
        "Required value".to_owned()
    } else {
        format!("Required value: {detail}")
    };
    (field.into(), "FieldValueRequired", detail)
}

fn invalid(field: impl Into<String>, value: &Value, detail: &str) -> Violation {
    (
        field.into(),
        "FieldValueInvalid",
        format!("Invalid value: {value}: {detail}"),
    )
}

fn not_supported(field: impl Into<String>, value: &Value, supported: &[&str]) -> Violation {
    let supported: Vec<String> = supported.iter().map(|s| format!("\"{s}\"")).collect();
    (
        field.into(),
        "FieldValueNotSupported",
        format!("Unsupported value: {value}: supported values: {}", supported.join(", ")),
    )
}

/// Fills in the defaults of the workloads added by the catalogue.
pub(crate) fn apply_defaults(resource: &ResourceType, object: &mut Value) {
    match (resource.group.as_str(), resource.kind.as_str()) {
        ("batch", "Job") => {
            job_selector(object);
            job_spec(&mut object["spec"]);
            set(&mut object["spec"], "manualSelector", json!(false));
            // `SetDefaults_Job` copies the template's labels to a Job without labels;
            // the server defaults again on every read, after the selector's labels.
            let labels = object["spec"]["template"]["metadata"]["labels"].clone();
            let unlabelled = object["metadata"]["labels"]
                .as_object()
                .is_none_or(serde_json::Map::is_empty);
            if labels.as_object().is_some_and(|l| !l.is_empty()) && unlabelled && object["metadata"].is_object() {
                object["metadata"]["labels"] = labels;
            }
        }
        ("batch", "CronJob") => {
            let spec = &mut object["spec"];
            set(spec, "concurrencyPolicy", json!("Allow"));
            set(spec, "suspend", json!(false));
            set(spec, "successfulJobsHistoryLimit", json!(3));
            set(spec, "failedJobsHistoryLimit", json!(1));
            if spec["jobTemplate"].is_object() {
                job_spec(&mut spec["jobTemplate"]["spec"]);
            }
        }
        ("apps", "DaemonSet") => {
            let spec = &mut object["spec"];
            set(spec, "revisionHistoryLimit", json!(10));
            set(spec, "updateStrategy", json!({"type": "RollingUpdate"}));
            if spec["updateStrategy"]["type"] == "RollingUpdate" && spec["updateStrategy"].is_object() {
                set(&mut spec["updateStrategy"], "rollingUpdate", json!({}));
                let rolling = &mut spec["updateStrategy"]["rollingUpdate"];
                set(rolling, "maxUnavailable", json!(1));
                set(rolling, "maxSurge", json!(0));
            }
            pod_template(spec);
        }
        ("", "ReplicationController") => {
            set(&mut object["spec"], "replicas", json!(1));
            pod_template(&mut object["spec"]);
        }
        ("", "PersistentVolumeClaim") => {
            set(&mut object["spec"], "volumeMode", json!("Filesystem"));
            if object["status"].is_null() {
                object["status"] = json!({"phase": "Pending"});
            }
        }
        ("", "PersistentVolume") => {
            set(&mut object["spec"], "persistentVolumeReclaimPolicy", json!("Retain"));
            set(&mut object["spec"], "volumeMode", json!("Filesystem"));
            if object["status"].is_null() {
                object["status"] = json!({"phase": "Pending"});
            }
        }
        _ => {}
    }
}

fn job_spec(spec: &mut Value) {
    if !spec.is_object() {
        return;
    }
    if spec["completions"].is_null() && spec["parallelism"].is_null() {
        spec["completions"] = json!(1);
        spec["parallelism"] = json!(1);
    }
    set(spec, "parallelism", json!(1));
    let backoff = if spec["backoffLimitPerIndex"].is_null() {
        6
    } else {
        i32::MAX
    };
    set(spec, "backoffLimit", json!(backoff));
    set(spec, "completionMode", json!("NonIndexed"));
    set(spec, "suspend", json!(false));
    let replacement = if spec["podFailurePolicy"].is_null() {
        "TerminatingOrFailed"
    } else {
        "Failed"
    };
    set(spec, "podReplacementPolicy", json!(replacement));
    pod_template(spec);
}

/// A Job without `manualSelector` gets a selector on its own uid, and its pod template
/// the matching labels, as the Job strategy's `generateSelector` does.
fn job_selector(object: &mut Value) {
    if object["spec"]["manualSelector"] == true || !object["spec"].is_object() {
        return;
    }
    let uid = object["metadata"]["uid"].clone();
    let name = object["metadata"]["name"].clone();
    if !uid.is_string() || !object["spec"]["selector"].is_null() {
        return;
    }
    object["spec"]["selector"] = json!({"matchLabels": {"batch.kubernetes.io/controller-uid": uid}});
    let template = &mut object["spec"]["template"];
    if !template.is_object() {
        return;
    }
    set(template, "metadata", json!({}));
    set(&mut template["metadata"], "labels", json!({}));
    let labels = &mut template["metadata"]["labels"];
    for (key, value) in [
        ("batch.kubernetes.io/controller-uid", &uid),
        ("controller-uid", &uid),
        ("batch.kubernetes.io/job-name", &name),
        ("job-name", &name),
    ] {
        set(labels, key, value.clone());
    }
}

/// The rules a new or updated object of a catalogue-added type breaks.
pub(crate) fn violations(resource: &ResourceType, object: &Value) -> Vec<Violation> {
    let mut found = Vec::new();
    metadata(resource, object, &mut found);
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
        ("events.k8s.io", "Event") => event(object, &mut found),
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

/// Fields of catalogue-added types that an update may not change.
pub(crate) fn immutable_changes(resource: &ResourceType, current: &Value, new: &Value) -> Vec<Violation> {
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
            crate::names::dns1035_label(name)
        } else {
            crate::names::dns1123_label(name)
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
fn qualified_name(field: &str, key: &str, found: &mut Vec<Violation>) {
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

/// An events.k8s.io/v1 Event, as `ValidateEventCreate` checks what recorders send.
fn event(object: &Value, found: &mut Vec<Violation>) {
    if object["eventTime"].is_null() {
        found.push(required("eventTime", ""));
    }
    for field in ["reportingController", "reportingInstance", "action", "reason"] {
        let value = object[field].as_str().unwrap_or_default();
        if value.is_empty() {
            found.push(required(field, ""));
        } else if value.len() > 128 && field != "reportingController" {
            found.push(invalid(field, &object[field], "can have at most 128 characters"));
        }
    }
    if !matches!(object["type"].as_str(), Some("Normal" | "Warning")) {
        found.push(not_supported("type", &object["type"], &["Normal", "Warning"]));
    }
    if object["note"].as_str().is_some_and(|note| note.len() > 1024) {
        found.push(invalid("note", &json!("..."), "can have at most 1024 characters"));
    }
}
