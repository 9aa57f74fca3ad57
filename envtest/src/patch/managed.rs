//! `metadata.managedFields` read into sets and written back, as apimachinery's
//! `managedfields/internal` does (`managedfields.go`, `capmanagers.go`): managers are
//! keyed by an identifier (the entry's manager, operation, subresource and, for an
//! update, API version, as JSON), each with its field set and the time it last changed
//! something; entries are written sorted by operation, time in seconds, manager, API
//! version and subresource.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::fieldpath::Set;
use super::value::write_go_string;

/// The operation of an entry written by server-side apply.
pub(crate) const APPLY: &str = "Apply";
/// The operation of an entry written by any other write.
pub(crate) const UPDATE: &str = "Update";

/// One manager's fields: what it owns, the API version it wrote them in, and whether it
/// applied them (`fieldpath.VersionedSet`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct VersionedSet {
    pub set: Set,
    pub api_version: String,
    pub applied: bool,
}

/// The managers of an object and the times they last changed it (`Managed`).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Managed {
    pub fields: BTreeMap<String, VersionedSet>,
    pub times: BTreeMap<String, Option<String>>,
}

/// `BuildManagerIdentifier`: the key a manager's entry is found by; an apply's version
/// is no part of it, so one applier keeps one entry across versions.
pub(crate) fn identifier(manager: &str, operation: &str, api_version: &str, subresource: Option<&str>) -> String {
    let mut out = String::from("{");
    let mut field = |name: &str, value: &str| {
        if value.is_empty() {
            return;
        }
        if out.len() > 1 {
            out.push(',');
        }
        write_go_string(name, &mut out);
        out.push(':');
        write_go_string(value, &mut out);
    };
    field("manager", manager);
    field("operation", operation);
    if operation != APPLY {
        field("apiVersion", api_version);
    }
    field("subresource", subresource.unwrap_or_default());
    out.push('}');
    out
}

/// The parts of an identifier (`encodeManagerVersionedSet` unmarshals it back).
#[derive(Debug, Default)]
pub(crate) struct Identity {
    pub manager: String,
    pub operation: String,
    pub api_version: String,
    pub subresource: String,
}

impl Identity {
    pub(crate) fn parse(identifier: &str) -> Option<Identity> {
        let fields: Map<String, Value> = serde_json::from_str(identifier).ok()?;
        let text = |name: &str| fields.get(name).and_then(Value::as_str).unwrap_or_default().to_owned();
        Some(Identity {
            manager: text("manager"),
            operation: text("operation"),
            api_version: text("apiVersion"),
            subresource: text("subresource"),
        })
    }
}

/// `DecodeManagedFields`: the entries of `metadata.managedFields`; an entry the real
/// server could not have written is an error.
pub(crate) fn decode(managed_fields: Option<&Value>) -> Result<Managed, String> {
    let mut managed = Managed::default();
    let entries = match managed_fields {
        None | Some(Value::Null) => return Ok(managed),
        Some(Value::Array(entries)) => entries,
        Some(_) => return Err("managedFields must be a list".to_owned()),
    };
    for (index, entry) in entries.iter().enumerate() {
        let text = |name: &str| entry.get(name).and_then(Value::as_str).unwrap_or_default();
        let operation = text("operation");
        if operation != APPLY && operation != UPDATE {
            return Err("operation must be `Apply` or `Update`".to_owned());
        }
        let api_version = text("apiVersion");
        if api_version.is_empty() {
            return Err("apiVersion must not be empty".to_owned());
        }
        match text("fieldsType") {
            "FieldsV1" => {}
            "" => return Err(format!("missing fieldsType in managed fields entry {index}")),
            other => {
                return Err(format!(
                    "invalid fieldsType \"{other}\" in managed fields entry {index}"
                ));
            }
        }
        let subresource = Some(text("subresource")).filter(|s| !s.is_empty());
        let key = identifier(text("manager"), operation, api_version, subresource);
        let set = match entry.get("fieldsV1") {
            None | Some(Value::Null) => Set::new(),
            Some(fields) => Set::from_fields_v1(fields).map_err(|e| format!("error decoding set: {e}"))?,
        };
        managed.fields.insert(
            key.clone(),
            VersionedSet {
                set,
                api_version: api_version.to_owned(),
                applied: operation == APPLY,
            },
        );
        managed
            .times
            .insert(key, entry.get("time").and_then(Value::as_str).map(str::to_owned));
    }
    Ok(managed)
}

/// `isResetManagedFields`: a write that sends `managedFields: []` (or one empty entry)
/// asks for them to be cleared.
pub(crate) fn is_reset(managed_fields: Option<&Value>) -> bool {
    match managed_fields.and_then(Value::as_array).map(Vec::as_slice) {
        Some([]) => true,
        Some([only]) => only.as_object().is_some_and(Map::is_empty),
        _ => false,
    }
}

/// Seconds since the epoch of an RFC 3339 time, or 0 (`Time.Unix` of a nil time).
fn seconds(time: Option<&str>) -> i64 {
    time.and_then(|time| time.parse::<jiff::Timestamp>().ok())
        .map_or(0, jiff::Timestamp::as_second)
}

/// One entry as written.
struct Encoded {
    identity: Identity,
    api_version: String,
    operation: &'static str,
    time: Option<String>,
    fields: Value,
}

/// `encodeManagedFields`: the entries in the real server's order, or None when there
/// are none (the field is then left out).
pub(crate) fn encode(managed: &Managed) -> Option<Value> {
    let mut entries: Vec<Encoded> = managed
        .fields
        .iter()
        .map(|(key, versioned)| Encoded {
            identity: Identity::parse(key).unwrap_or_default(),
            api_version: versioned.api_version.clone(),
            operation: if versioned.applied { APPLY } else { UPDATE },
            time: managed.times.get(key).cloned().flatten(),
            fields: versioned.set.to_fields_v1(),
        })
        .collect();
    if entries.is_empty() {
        return None;
    }
    entries.sort_by(|p, q| {
        p.operation
            .cmp(q.operation)
            .then_with(|| seconds(p.time.as_deref()).cmp(&seconds(q.time.as_deref())))
            .then_with(|| p.identity.manager.cmp(&q.identity.manager))
            .then_with(|| p.api_version.cmp(&q.api_version))
            .then_with(|| p.identity.subresource.cmp(&q.identity.subresource))
    });
    let entries = entries
        .into_iter()
        .map(|entry| {
            let mut out = Map::new();
            if !entry.identity.manager.is_empty() {
                out.insert("manager".into(), entry.identity.manager.into());
            }
            out.insert("operation".into(), entry.operation.into());
            out.insert("apiVersion".into(), entry.api_version.into());
            if let Some(time) = entry.time {
                out.insert("time".into(), time.into());
            }
            out.insert("fieldsType".into(), "FieldsV1".into());
            out.insert("fieldsV1".into(), entry.fields);
            if !entry.identity.subresource.is_empty() {
                out.insert("subresource".into(), entry.identity.subresource.into());
            }
            Value::Object(out)
        })
        .collect();
    Some(Value::Array(entries))
}

/// Removes `metadata.managedFields` from `object` and returns it, so that comparing and
/// merging objects never looks at the bookkeeping (`RemoveObjectManagedFields`).
pub(crate) fn take(object: &mut Value) -> Option<Value> {
    object.get_mut("metadata")?.as_object_mut()?.remove("managedFields")
}

/// `EncodeObjectManagedFields`.
pub(crate) fn put(object: &mut Value, managed: &Managed) {
    let Some(metadata) = object.get_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    match encode(managed) {
        Some(entries) => {
            metadata.insert("managedFields".into(), entries);
        }
        None => {
            metadata.remove("managedFields");
        }
    }
}

/// The manager update entries are folded into past the cap (`capmanagers.go`).
const ANCIENT_CHANGES: &str = "ancient-changes";
/// `DefaultMaxUpdateManagers`.
const MAX_UPDATE_MANAGERS: usize = 10;

/// `capUpdateManagers`: past ten updaters, the oldest are folded, per API version,
/// into one `ancient-changes` entry.
pub(crate) fn cap_update_managers(managed: &mut Managed) {
    let mut updaters: Vec<String> = managed
        .fields
        .iter()
        .filter(|(_, versioned)| !versioned.applied)
        .map(|(key, _)| key.clone())
        .collect();
    if updaters.len() <= MAX_UPDATE_MANAGERS {
        return;
    }
    let time_of = |key: &String| seconds(managed.times.get(key).cloned().flatten().as_deref());
    updaters.sort_by(|a, b| time_of(a).cmp(&time_of(b)).then_with(|| a.cmp(b)));
    let mut first_of_version: BTreeMap<String, String> = BTreeMap::new();
    let mut length = updaters.len();
    for manager in updaters {
        if length <= MAX_UPDATE_MANAGERS {
            break;
        }
        let Some(versioned) = managed.fields.get(&manager).cloned() else {
            continue;
        };
        let time = managed.times.get(&manager).cloned().flatten();
        let version = versioned.api_version.clone();
        let bucket = identifier(ANCIENT_CHANGES, UPDATE, &version, None);
        match first_of_version.get(&version) {
            Some(first) => {
                if !managed.fields.contains_key(&bucket)
                    && let Some(first_set) = managed.fields.remove(first)
                {
                    managed.fields.insert(bucket.clone(), first_set);
                }
                let folded = managed.fields.get(&bucket).map(|b| b.set.clone()).unwrap_or_default();
                managed.fields.insert(
                    bucket.clone(),
                    VersionedSet {
                        set: versioned.set.union(&folded),
                        api_version: version,
                        applied: versioned.applied,
                    },
                );
                managed.fields.remove(&manager);
                length -= 1;
                managed.times.insert(bucket, time);
            }
            None => {
                first_of_version.insert(version, manager);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn entries_round_trip_sorted_as_the_real_server_sorts_them() {
        let managed_fields = json!([
            {"manager": "b", "operation": "Update", "apiVersion": "v1", "time": "2024-01-02T00:00:00Z",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:b": {}}}},
            {"manager": "ctl", "operation": "Update", "apiVersion": "v1", "time": "2024-01-01T00:00:00Z",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:status": {"f:phase": {}}}, "subresource": "status"},
            {"manager": "kubectl", "operation": "Apply", "apiVersion": "v1", "time": "2024-01-03T00:00:00Z",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:a": {}}}}
        ]);
        let managed = decode(Some(&managed_fields)).expect("valid");
        assert!(
            managed
                .fields
                .contains_key(r#"{"manager":"kubectl","operation":"Apply"}"#)
        );
        assert!(
            managed
                .fields
                .contains_key(r#"{"manager":"ctl","operation":"Update","apiVersion":"v1","subresource":"status"}"#)
        );
        let written = encode(&managed).expect("entries");
        let managers: Vec<&str> = written
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|e| e["manager"].as_str())
            .collect();
        assert_eq!(managers, ["kubectl", "ctl", "b"]);
        assert_eq!(decode(Some(&written)).expect("valid"), managed);
    }

    #[test]
    fn malformed_entries_are_refused_and_resets_recognised() {
        assert!(
            decode(Some(
                &json!([{"operation": "Patch", "apiVersion": "v1", "fieldsType": "FieldsV1"}])
            ))
            .is_err()
        );
        assert!(decode(Some(&json!([{"operation": "Update", "fieldsType": "FieldsV1"}]))).is_err());
        assert_eq!(
            decode(Some(&json!([{"operation": "Update", "apiVersion": "v1"}]))),
            Err("missing fieldsType in managed fields entry 0".to_owned())
        );
        assert!(is_reset(Some(&json!([]))) && is_reset(Some(&json!([{}]))));
        assert!(!is_reset(None) && !is_reset(Some(&json!([{"manager": "x"}]))));
    }

    #[test]
    fn the_oldest_updaters_past_ten_fold_into_ancient_changes() {
        let mut managed = Managed::default();
        for index in 0..12 {
            let key = identifier(&format!("m{index:02}"), UPDATE, "v1", None);
            let mut set = Set::new();
            set.insert(&crate::patch::fieldpath::fields(&["data", &format!("k{index}")]));
            managed.fields.insert(
                key.clone(),
                VersionedSet {
                    set,
                    api_version: "v1".into(),
                    applied: false,
                },
            );
            managed.times.insert(key, Some(format!("2024-01-01T00:00:{index:02}Z")));
        }
        cap_update_managers(&mut managed);
        assert_eq!(managed.fields.len(), 10);
        let ancient = &managed.fields[&identifier(ANCIENT_CHANGES, UPDATE, "v1", None)];
        assert_eq!(ancient.set.paths().len(), 3, "the three oldest folded together");
        assert!(!managed.fields.contains_key(&identifier("m00", UPDATE, "v1", None)));
        assert!(managed.fields.contains_key(&identifier("m03", UPDATE, "v1", None)));
    }
}
