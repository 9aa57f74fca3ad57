//! The `metadata.managedFields` entries of an object: one field set per manager,
//! operation and subresource, with the time it last grew or changed.

use serde_json::{Map, Value};

use super::fieldset::{FieldSet, from_fields_v1, to_fields_v1};

/// The operation of an entry written by server-side apply.
pub(crate) const APPLY: &str = "Apply";
/// The operation of an entry written by any other write.
pub(crate) const UPDATE: &str = "Update";

/// One `managedFields` entry, with its `fieldsV1` read into a set.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entry {
    pub manager: String,
    pub operation: String,
    pub api_version: String,
    pub time: Option<String>,
    pub subresource: Option<String>,
    pub fields: FieldSet,
}

impl Entry {
    /// Whether this entry is the one `manager` writes with `operation` on `subresource`
    /// (and, for an `Update`, in `api_version`): the server keeps exactly one per such
    /// identity (`BuildManagerIdentifier`, which leaves an apply's version out).
    pub(crate) fn is(&self, manager: &str, operation: &str, subresource: Option<&str>, api_version: &str) -> bool {
        self.manager == manager
            && self.operation == operation
            && self.subresource.as_deref() == subresource
            && (operation == APPLY || self.api_version == api_version)
    }

    /// What the real server sorts entries by.
    fn order(&self) -> (&str, &str, &str, &str, &str) {
        (
            &self.operation,
            self.time.as_deref().unwrap_or_default(),
            &self.manager,
            &self.api_version,
            self.subresource.as_deref().unwrap_or_default(),
        )
    }

    fn read(entry: &Value) -> Option<Entry> {
        let text = |name: &str| entry.get(name).and_then(Value::as_str).map(str::to_owned);
        Some(Entry {
            manager: text("manager").unwrap_or_default(),
            operation: text("operation")?,
            api_version: text("apiVersion").unwrap_or_default(),
            time: text("time"),
            subresource: text("subresource").filter(|subresource| !subresource.is_empty()),
            fields: entry.get("fieldsV1").map(from_fields_v1).unwrap_or_default(),
        })
    }

    fn to_json(&self) -> Value {
        let mut entry = Map::new();
        entry.insert("manager".into(), self.manager.clone().into());
        entry.insert("operation".into(), self.operation.clone().into());
        entry.insert("apiVersion".into(), self.api_version.clone().into());
        if let Some(time) = &self.time {
            entry.insert("time".into(), time.clone().into());
        }
        entry.insert("fieldsType".into(), "FieldsV1".into());
        entry.insert("fieldsV1".into(), to_fields_v1(&self.fields));
        if let Some(subresource) = &self.subresource {
            entry.insert("subresource".into(), subresource.clone().into());
        }
        Value::Object(entry)
    }
}

/// Removes `metadata.managedFields` from `object` and returns it, so that comparing and
/// merging objects never looks at the bookkeeping.
pub(crate) fn take(object: &mut Value) -> Option<Value> {
    object.get_mut("metadata")?.as_object_mut()?.remove("managedFields")
}

/// The entries of a `managedFields` list; malformed entries (no operation) are skipped.
pub(crate) fn read(managed_fields: Option<&Value>) -> Vec<Entry> {
    managed_fields
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Entry::read)
        .collect()
}

/// Writes `entries` to `object`'s `metadata.managedFields`, leaving out entries that own
/// nothing and the field itself when none remain, in the order the real server sorts
/// them (`sortEncodedManagedFields`: operation, time, manager, API version,
/// subresource).
pub(crate) fn write(object: &mut Value, entries: &[Entry]) {
    let Some(metadata) = object.get_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    let mut kept: Vec<&Entry> = entries.iter().filter(|entry| !entry.fields.is_empty()).collect();
    // Times are RFC 3339 in UTC, so their text sorts as they do; no time sorts first.
    kept.sort_by(|a, b| a.order().cmp(&b.order()));
    let entries: Vec<Value> = kept.into_iter().map(Entry::to_json).collect();
    if entries.is_empty() {
        metadata.remove("managedFields");
    } else {
        metadata.insert("managedFields".into(), Value::Array(entries));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn entries_round_trip_and_empty_ones_are_dropped() {
        let managed = json!([
            {"manager": "kubectl", "operation": "Apply", "apiVersion": "v1", "time": "2024-01-01T00:00:00Z",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:a": {}}}},
            {"manager": "ctl", "operation": "Update", "apiVersion": "v1", "time": "2024-01-01T00:00:00Z",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:status": {"f:phase": {}}}, "subresource": "status"},
            {"manager": "idle", "operation": "Update", "apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": {}}
        ]);
        let entries = read(Some(&managed));
        assert_eq!(entries.len(), 3);
        assert!(entries[1].is("ctl", UPDATE, Some("status"), "v1"));
        assert!(!entries[1].is("ctl", UPDATE, None, "v1"));
        assert!(!entries[1].is("ctl", UPDATE, Some("status"), "v2"));
        assert!(
            entries[0].is("kubectl", APPLY, None, "v2"),
            "an apply's version is no part of it"
        );
        let mut object = json!({"metadata": {"name": "x", "managedFields": []}});
        write(&mut object, &entries);
        let written = take(&mut object).expect("written");
        assert_eq!(written, Value::Array(managed.as_array().expect("a list")[..2].to_vec()));
        assert_eq!(object, json!({"metadata": {"name": "x"}}));
    }

    #[test]
    fn no_entries_means_no_managed_fields() {
        let mut object = json!({"metadata": {"managedFields": [{"operation": "Update"}]}});
        write(&mut object, &[]);
        assert_eq!(object, json!({"metadata": {}}));
    }

    #[test]
    fn entries_are_written_in_the_real_servers_order() {
        let entry = |manager: &str, operation: &str, time: Option<&str>| Entry {
            manager: manager.into(),
            operation: operation.into(),
            api_version: "v1".into(),
            time: time.map(str::to_owned),
            subresource: None,
            fields: from_fields_v1(&serde_json::json!({"f:data": {}})),
        };
        let mut object = serde_json::json!({"metadata": {}});
        let entries = [
            entry("b", UPDATE, Some("2024-01-02T00:00:00Z")),
            entry("a", UPDATE, Some("2024-01-02T00:00:00Z")),
            entry("z", APPLY, Some("2024-01-03T00:00:00Z")),
            entry("c", UPDATE, Some("2024-01-01T00:00:00Z")),
            entry("scale", UPDATE, None),
        ];
        write(&mut object, &entries);
        let managers: Vec<&str> = object["metadata"]["managedFields"]
            .as_array()
            .expect("a list")
            .iter()
            .filter_map(|e| e["manager"].as_str())
            .collect();
        assert_eq!(managers, ["z", "scale", "c", "a", "b"]);
    }
}
