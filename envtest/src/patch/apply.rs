//! Server-side apply and managed fields: who owns which field of an object.
//!
//! Follows structured-merge-diff as kube-apiserver runs it. An apply makes the applied
//! fields the manager's (operation `Apply`), fails on fields another manager owns with a
//! different value unless forced, and removes fields the manager applied last time but
//! no longer does and nobody else owns. Any other write (`record_update`) takes the fields
//! it changed from everyone else (operation `Update`). Both drop ownership of fields that
//! are gone from the object. An entry is one manager's writes with one operation through
//! one endpoint: the same name applying and updating is two owners, which can conflict.

use serde_json::{Map, Value};

use super::configuration::{merge, prune};
use super::fieldset::{self, AddedNodes, FieldSet, Path, PathElement, Schema, is_tracked};
use super::managed::{self, APPLY, Entry, UPDATE};
use super::{Conflict, PatchError};
use wheelhouse_envtest_schema::errors::go_quote;

/// Who writes, through which endpoint of which type: what decides the managed-fields
/// entry a write makes and what it may own.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Writer<'a> {
    /// The field manager.
    pub manager: &'a str,
    /// The RFC 3339 time to record.
    pub now: &'a str,
    /// `status` or `scale` when written through that subresource; the entry names it.
    pub subresource: Option<&'a str>,
    /// The API group and kind, which choose the list merge keys of built-in types.
    pub group: &'a str,
    pub kind: &'a str,
    /// A custom resource is compared with an empty object where a built-in one is
    /// compared with Go's zero value, which already has its structs (see
    /// [`fieldset::changed`]).
    pub custom: bool,
    /// The top-level fields the endpoint's strategy resets (kube's `GetResetFields`:
    /// `spec` on `/status`, `status` on the main endpoint of a type with a status
    /// subresource): a write neither owns them nor conflicts on them.
    pub reset: &'a [&'a str],
}

impl Writer<'_> {
    fn schema(&self) -> Schema<'_> {
        Schema {
            group: self.group,
            kind: self.kind,
        }
    }

    /// Whether `path` lies in a field the endpoint resets.
    fn resets(&self, path: &Path) -> bool {
        matches!(path.first(), Some(PathElement::Field(field)) if self.reset.contains(&field.as_str()))
    }
}

/// Applies `applied` (the manager's whole intent) to `live` (None when the object does
/// not exist yet) as `writer`; returns the new object with its
/// `metadata.managedFields` updated.
pub(crate) fn apply(
    live: Option<&Value>,
    applied: &Value,
    force: bool,
    writer: &Writer<'_>,
) -> Result<Value, PatchError> {
    if !applied.is_object() {
        return Err(PatchError::BadRequest(
            "an apply configuration must be a JSON object".into(),
        ));
    }
    if applied
        .pointer("/metadata/managedFields")
        .is_some_and(|fields| !fields.is_null())
    {
        return Err(PatchError::BadRequest("metadata.managedFields must be nil".into()));
    }
    let (manager, schema) = (writer.manager, writer.schema());
    let mut applied_set = fieldset::leaves(applied, schema).map_err(PatchError::BadRequest)?;
    applied_set.retain(|path| is_tracked(path) && !writer.resets(path));

    let mut live = live.cloned().unwrap_or_else(|| Value::Object(Map::new()));
    let mut entries = managed::read(managed::take(&mut live).as_ref());
    let mut merged = merge(&live, applied, schema, &mut Vec::new());

    let own = entries
        .iter()
        .position(|entry| entry.is(manager, APPLY, writer.subresource, ""));
    let previous = own.map(|index| entries[index].fields.clone()).unwrap_or_default();
    let mut owned: FieldSet = entries
        .iter()
        .enumerate()
        .filter(|(index, _)| Some(*index) != own)
        .flat_map(|(_, entry)| entry.fields.iter().cloned())
        .collect();
    owned.extend(applied_set.iter().cloned());
    prune(&mut merged, &previous, &owned, schema);

    let mut changed = fieldset::changed(&live, &merged, schema, AddedNodes::Leaves);
    changed.retain(|path| is_tracked(path) && !writer.resets(path));
    let mut conflicts = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        // Only the applier's own Apply entry is exempt: its Update entry (the same name
        // writing otherwise) is another owner, as kube keys owners by name, operation,
        // subresource and, for updates, API version.
        if Some(index) == own {
            continue;
        }
        let shown = shown_manager(entry);
        conflicts.extend(entry.fields.intersection(&changed).map(|path| Conflict {
            manager: entry.manager.clone(),
            shown: shown.clone(),
            field: fieldset::describe(path),
        }));
    }
    if !conflicts.is_empty() && !force {
        return Err(PatchError::Conflict(conflicts));
    }
    for (index, entry) in entries.iter_mut().enumerate() {
        if Some(index) != own {
            entry.fields.retain(|path| !changed.contains(path));
        }
    }

    let api_version = api_version(applied, &live);
    let object_changed = merged != live;
    match own {
        Some(index) => {
            let entry = &mut entries[index];
            if object_changed || entry.fields != applied_set {
                entry.time = Some(writer.now.to_owned());
            }
            entry.fields = applied_set;
            entry.api_version = api_version;
        }
        None => entries.push(Entry {
            manager: manager.to_owned(),
            operation: APPLY.to_owned(),
            api_version,
            time: Some(writer.now.to_owned()),
            subresource: writer.subresource.map(str::to_owned),
            fields: applied_set,
        }),
    }
    forget_missing(&mut entries, &merged, schema);
    managed::write(&mut merged, &entries);
    Ok(merged)
}

/// Records a non-apply write (create, update, patch) by `writer`: the fields that it
/// set or changed between `old` and `new` become its own (operation `Update`).
pub(crate) fn record_update(old: Option<&Value>, new: &mut Value, writer: &Writer<'_>) {
    let (manager, schema) = (writer.manager, writer.schema());
    let mut old = old.cloned().unwrap_or_else(|| Value::Object(Map::new()));
    let old_fields = managed::take(&mut old);
    let new_fields = managed::take(new);
    // A writer that sends managed fields other than the stored ones replaces them, as on
    // the real server; most send back what they read, or nothing (a merge patch).
    let base = match new_fields {
        Some(fields) if Some(&fields) != old_fields.as_ref() => Some(fields),
        _ => old_fields,
    };
    let mut entries = managed::read(base.as_ref());

    let nodes = if writer.custom {
        AddedNodes::All
    } else {
        AddedNodes::BuiltIn
    };
    let mut changed = fieldset::changed(&old, new, schema, nodes);
    changed.retain(|path| is_tracked(path) && !writer.resets(path));
    let api_version = api_version(new, &old);
    let own = entries
        .iter()
        .position(|entry| entry.is(manager, UPDATE, writer.subresource, &api_version));
    for (index, entry) in entries.iter_mut().enumerate() {
        if Some(index) != own {
            entry.fields.retain(|path| !changed.contains(path));
        }
    }
    // kube's scale handler maps the Scale's entries back onto the object with the times
    // the object had, so a manager's first write through `/scale` records no time.
    let time = (writer.subresource != Some("scale")).then(|| writer.now.to_owned());
    match own {
        Some(index) => {
            let entry = &mut entries[index];
            let before = entry.fields.len();
            entry.fields.extend(changed);
            if entry.fields.len() != before && time.is_some() {
                entry.time = time;
            }
        }
        None if !changed.is_empty() => entries.push(Entry {
            manager: manager.to_owned(),
            operation: UPDATE.to_owned(),
            api_version,
            time,
            subresource: writer.subresource.map(str::to_owned),
            fields: changed,
        }),
        None => {}
    }
    forget_missing(&mut entries, new, schema);
    managed::write(new, &entries);
}

/// `printManager`: how a conflict names a manager (its time is not part of it).
fn shown_manager(entry: &Entry) -> String {
    let mut shown = go_quote(&entry.manager);
    if let Some(subresource) = entry.subresource.as_deref().filter(|s| !s.is_empty()) {
        shown = format!("{shown} with subresource {}", go_quote(subresource));
    }
    if entry.operation == UPDATE {
        shown = format!("{shown} using {}", entry.api_version);
    }
    shown
}

fn api_version(object: &Value, fallback: &Value) -> String {
    object
        .get("apiVersion")
        .or_else(|| fallback.get("apiVersion"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// Nobody owns a field that is not there.
fn forget_missing(entries: &mut [Entry], object: &Value, schema: Schema<'_>) {
    for entry in entries {
        entry
            .fields
            .retain(|path| fieldset::locate(object, path, schema).is_some());
    }
}

#[cfg(test)]
mod tests;
