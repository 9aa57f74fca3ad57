//! Reading and writing an object's fields as the simulated components do, on the JSON
//! the store holds: its name, namespace and uid, whether it is being deleted, its
//! controller, counts and conditions in its status, and parts read as k8s-openapi
//! types. A leaf of the simulation: every component imports it, it imports none.

use serde_json::{Value, json};

use crate::lifecycle::now;

/// The uid of the object's controller, from its `ownerReferences`.
pub(super) fn controller_uid(object: &Value) -> Option<String> {
    controller_ref(object)
        .and_then(|r| r["uid"].as_str())
        .map(str::to_owned)
}

/// The `ownerReferences` entry with `controller: true`.
pub(super) fn controller_ref(object: &Value) -> Option<&Value> {
    object["metadata"]["ownerReferences"]
        .as_array()?
        .iter()
        .find(|r| r["controller"] == true)
}

pub(super) fn name_of(object: &Value) -> &str {
    object["metadata"]["name"].as_str().unwrap_or_default()
}

pub(super) fn namespace_of(object: &Value) -> &str {
    object["metadata"]["namespace"].as_str().unwrap_or_default()
}

pub(super) fn uid_of(object: &Value) -> &str {
    object["metadata"]["uid"].as_str().unwrap_or_default()
}

pub(super) fn is_deleting(object: &Value) -> bool {
    object["metadata"]["deletionTimestamp"].is_string()
}

/// An integer field, or `default` when absent (as Go reads a zero or defaulted field).
pub(super) fn int(value: &Value, default: i64) -> i64 {
    value.as_i64().unwrap_or(default)
}

/// A part of a stored object (its `spec`, its `status`) read as its k8s-openapi type,
/// for the controllers that read typed fields; None when the part is absent. The parts
/// rather than the whole object, whose `spec` is optional in some Kubernetes versions
/// and required in others.
pub(super) fn typed<T: serde::de::DeserializeOwned>(object: &Value) -> Option<T> {
    T::deserialize(object).ok()
}

/// `metadata.generation`.
pub(super) fn generation(object: &Value) -> i64 {
    int(&object["metadata"]["generation"], 0)
}

/// The owner reference a controller puts on what it creates
/// (`metav1.NewControllerRef`).
pub(super) fn controller_reference(owner: &Value) -> Value {
    json!({
        "apiVersion": owner["apiVersion"],
        "kind": owner["kind"],
        "name": owner["metadata"]["name"],
        "uid": owner["metadata"]["uid"],
        "controller": true,
        "blockOwnerDeletion": true,
    })
}

/// Sets a count in a status the way Go's `omitempty` writes it: zero is left out.
pub(super) fn set_count(status: &mut serde_json::Map<String, Value>, field: &str, count: i64) {
    if count == 0 {
        status.remove(field);
    } else {
        status.insert(field.to_owned(), json!(count));
    }
}

/// The time as the API writes it, now.
pub(super) fn timestamp() -> String {
    now()
}

/// Seconds since `time` (an RFC 3339 timestamp), or None if it does not parse.
pub(super) fn seconds_since(time: &Value) -> Option<i64> {
    let time: jiff::Timestamp = time.as_str()?.parse().ok()?;
    Some(jiff::Timestamp::now().as_second() - time.as_second())
}

/// A condition of `type` among `conditions`.
pub(super) fn condition<'a>(conditions: &'a Value, kind: &str) -> Option<&'a Value> {
    conditions.as_array()?.iter().find(|c| c["type"] == kind)
}
