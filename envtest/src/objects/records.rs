//! The records components keep about themselves, validated as kube-apiserver validates
//! them: events.k8s.io/v1 Events (`ValidateEventCreate`: the legacy rules every Event
//! keeps, then the strict ones of the events API, worded with the core Event's field
//! names as kube-apiserver words them) and coordination.k8s.io Leases
//! (`ValidateLeaseSpec`).

use serde_json::{Value, json};

use super::builtin_rules::{Violation, invalid, qualified_name, required};
use crate::core::ResourceType;

/// The most characters of `reportingInstance`, `action` and `reason`.
const FIELD_LIMIT: usize = 128;
/// The most characters of `note` (the core Event's `message`).
const NOTE_LIMIT: usize = 1024;

/// The rules an Event or a Lease breaks.
pub(super) fn violations(resource: &ResourceType, object: &Value) -> Vec<Violation> {
    let mut found = Vec::new();
    if (resource.group.as_str(), resource.kind.as_str()) == ("events.k8s.io", "Event") {
        event(object, &mut found);
    }
    found
}

/// An events.k8s.io/v1 Event, as `ValidateEventCreate` checks what recorders send.
fn event(object: &Value, found: &mut Vec<Violation>) {
    let text = |field: &str| object[field].as_str().unwrap_or_default();
    let unset = json!("");
    let namespace = object["metadata"]["namespace"].as_str().unwrap_or_default();
    let regarding = object["regarding"]["namespace"].as_str().unwrap_or_default();
    if object["eventTime"].is_null() {
        let matches = if regarding.is_empty() {
            namespace.is_empty() || namespace == "default"
        } else {
            namespace == regarding
        };
        if !matches {
            found.push(invalid(
                "involvedObject.namespace",
                &json!(regarding),
                "does not match event.namespace",
            ));
        }
        found.push(required("eventTime", ""));
    } else {
        if regarding.is_empty() && namespace != "default" && namespace != "kube-system" {
            found.push(invalid(
                "involvedObject.namespace",
                &json!(regarding),
                "does not match event.namespace",
            ));
        }
        let controller = text("reportingController");
        if controller.is_empty() {
            found.push(required("reportingController", ""));
        }
        qualified_name("reportingController", controller, found);
        for field in ["reportingInstance", "action", "reason"] {
            if text(field).is_empty() {
                found.push(required(field, ""));
            }
            if text(field).len() > FIELD_LIMIT {
                found.push(invalid(
                    field,
                    &unset,
                    &format!("can have at most {FIELD_LIMIT} characters"),
                ));
            }
        }
        if text("note").len() > NOTE_LIMIT {
            found.push(invalid(
                "message",
                &unset,
                &format!("can have at most {NOTE_LIMIT} characters"),
            ));
        }
    }
    let kind = text("type");
    if kind != "Normal" && kind != "Warning" {
        found.push(invalid("type", &unset, &format!("has invalid value: {kind}")));
    }
    let deprecated = [
        ("deprecatedFirstTimestamp", "firstTimestamp"),
        ("deprecatedLastTimestamp", "lastTimestamp"),
    ];
    for (field, core) in deprecated {
        if !object[field].is_null() {
            found.push(invalid(core, &unset, "needs to be unset"));
        }
    }
    if object["deprecatedCount"].as_i64().is_some_and(|count| count != 0) {
        found.push(invalid("count", &unset, "needs to be unset"));
    }
    let source = &object["deprecatedSource"];
    let said = |field: &str| source[field].as_str().is_some_and(|s| !s.is_empty());
    if said("component") || said("host") {
        found.push(invalid("source", &unset, "needs to be unset"));
    }
    let series = &object["series"];
    if series.is_object() {
        let count = series["count"].as_i64().unwrap_or_default();
        if count < 2 {
            found.push(invalid("series.count", &json!(count), "should be at least 2"));
        }
        if series["lastObservedTime"].is_null() {
            found.push(required("series.lastObservedTime", ""));
        }
    }
}
