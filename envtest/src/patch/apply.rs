//! Server-side apply and managed fields: the field manager kube-apiserver wraps around
//! structured-merge-diff (apimachinery's `managedfields/internal`), layer by layer:
//!
//! - `lastappliedmanager`/`lastappliedupdater`: `kubectl` may take fields its
//!   client-side `last-applied-configuration` annotation says it set, and keeps that
//!   annotation current when the object has one;
//! - `skipnonapplied`: an object that tracks no managed fields gets its fields owned by
//!   `before-first-apply` before the first apply, and an update of one starts no
//!   tracking;
//! - `capmanagers`: past ten update entries the oldest fold into `ancient-changes`;
//! - `buildmanagerinfo`: a manager is keyed by name, operation, subresource and, for an
//!   update, API version;
//! - `managedfieldsupdater`: an entry's time is the last time its manager changed the
//!   object;
//! - `stripmeta`: nobody owns `apiVersion`, `kind` or identifying metadata;
//! - `structuredmerge`: the objects are checked against their type and handed to the
//!   [`Updater`].

use std::sync::Arc;

use serde_json::{Map, Value};

use super::fieldpath::{Path, Set, describe, fields};
use super::managed::{self, APPLY, Identity, Managed, UPDATE, VersionedSet};
use super::type_schema::ObjectType;
use super::updater::{UpdateError, Updater};
use super::{Conflict, PatchError};
use wheelhouse_envtest_schema::errors::go_quote;

use crate::core::Builtin;
use crate::resources::go_encoding;

/// The manager the fields an object had before its first apply are given to.
const BEFORE_FIRST_APPLY: &str = "before-first-apply";
/// The manager name an update's changes are computed under before they join the
/// writer's own entry (`managedFieldsUpdater`).
const CURRENT_OPERATION: &str = "current-operation";
/// The manager whose client-side apply annotation is kept current.
const KUBECTL: &str = "kubectl";
const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";
/// `TotalAnnotationSizeLimitB`: an annotation that would pass it is dropped instead.
const ANNOTATIONS_SIZE_LIMIT: usize = 256 * 1024;

/// Who writes, through which endpoint of which type: what decides the managed-fields
/// entry a write makes and what it may own.
#[derive(Debug, Clone)]
pub(crate) struct Writer<'a> {
    /// The field manager.
    pub manager: &'a str,
    /// The RFC 3339 time to record.
    pub now: &'a str,
    /// `status` or `scale` when written through that subresource; the entry names it.
    pub subresource: Option<&'a str>,
    /// The endpoint's API version (`apps/v1`), which entries record, and its kind.
    pub api_version: String,
    pub kind: &'a str,
    /// The type's structure: how its lists and maps merge and are owned.
    pub object_type: Arc<ObjectType>,
    /// A custom resource (its nulls are its schema's to keep or drop).
    pub custom: bool,
    /// A built-in type's objects are compared as the Go values kube-apiserver compares
    /// (`FromStructured`): as Go's encoder writes them, value structs and fields that
    /// are not `omitempty` always there; a custom resource's as they are.
    pub built_in: Option<&'static Builtin>,
    /// The top-level fields the endpoint's strategy resets (kube's `GetResetFields`:
    /// `spec` on `/status`, `status` on the main endpoint of a type with a status
    /// subresource): a write neither owns them nor conflicts on them.
    pub reset: &'a [&'a str],
}

impl Writer<'_> {
    fn reset_fields(&self) -> Option<Set> {
        if self.reset.is_empty() {
            return None;
        }
        let mut set = Set::new();
        for field in self.reset {
            set.insert(&fields(&[field]));
        }
        Some(set)
    }

    /// `objectGVKNN`, as typed-object errors name the object.
    fn describe_object(&self, object: &Value) -> String {
        let metadata = &object["metadata"];
        let text = |name: &str| metadata[name].as_str().unwrap_or_default().to_owned();
        let (group, version) = self.api_version.rsplit_once('/').unwrap_or(("", &self.api_version));
        format!(
            "{}/{}; {group}/{version}, Kind={}",
            text("namespace"),
            text("name"),
            self.kind
        )
    }

    /// The object a type's `New()` gives: nothing but its type, and for a built-in
    /// type what Go writes of its zero value.
    fn empty_like(&self, object: &Value) -> Value {
        let mut empty = Map::new();
        for field in ["apiVersion", "kind"] {
            if let Some(value) = object.get(field) {
                empty.insert(field.to_owned(), value.clone());
            }
        }
        let mut empty = Value::Object(empty);
        self.go_value(&mut empty);
        empty
    }

    /// `object` as the value kube-apiserver compares: a built-in object as Go writes it.
    fn go_value(&self, object: &mut Value) {
        if let Some(builtin) = self.built_in {
            go_encoding::encode_builtin(builtin, object);
        }
    }
}

/// `stripmeta`'s set: nobody owns these.
fn stripped() -> Set {
    let mut set = Set::new();
    for path in [
        &["apiVersion"][..],
        &["kind"],
        &["metadata"],
        &["metadata", "name"],
        &["metadata", "namespace"],
        &["metadata", "creationTimestamp"],
        &["metadata", "selfLink"],
        &["metadata", "uid"],
        &["metadata", "clusterName"],
        &["metadata", "generation"],
        &["metadata", "managedFields"],
        &["metadata", "resourceVersion"],
    ] {
        set.insert(&fields(path));
    }
    set
}

fn strip_meta(managers: &mut Managed, identifier: &str) {
    if let Some(versioned) = managers.fields.get_mut(identifier) {
        versioned.set = versioned.set.difference(&stripped());
        if versioned.set.is_empty() {
            managers.fields.remove(identifier);
        }
    }
}

/// Applies `applied` (the manager's whole intent) to `live` (None when the object does
/// not exist yet) as `writer`; returns the new object with its `metadata.managedFields`.
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
    let mut live = live.cloned().unwrap_or_else(|| writer.empty_like(applied));
    writer.go_value(&mut live);
    let managed = managed::decode(managed::take(&mut live).as_ref())
        .map_err(|e| PatchError::Internal(format!("failed to decode managed fields: {e}")))?;
    let (mut object, managed) = apply_with_last_applied(&live, applied, managed, force, writer)?;
    if writer.manager == KUBECTL && has_last_applied(&object) {
        set_last_applied(&mut object, applied);
    }
    drop_nulls(&mut object, writer.custom);
    // kube-apiserver turns the merged value back into the Go object it stores.
    writer.go_value(&mut object);
    managed::put(&mut object, &managed);
    Ok(object)
}

/// `lastAppliedManager.Apply`: `kubectl`'s conflicts on fields its client-side
/// annotation says it set, and the live object still holds as it set them, are not
/// conflicts: it applies again with force.
fn apply_with_last_applied(
    live: &Value,
    applied: &Value,
    managed: Managed,
    force: bool,
    writer: &Writer<'_>,
) -> Result<(Value, Managed), PatchError> {
    let result = apply_tracked(live, applied, managed.clone(), force, writer);
    let Err(UpdateError::Conflicts(conflicts)) = &result else {
        return finish(result);
    };
    if writer.manager != KUBECTL {
        return finish(result);
    }
    let Some(allowed) = allowed_by_last_applied(live, writer) else {
        return finish(result);
    };
    let remaining: Vec<(String, Path)> = conflicts
        .iter()
        .filter(|(_, path)| !allowed.has(path))
        .cloned()
        .collect();
    if remaining.is_empty() {
        return finish(apply_tracked(live, applied, managed, true, writer));
    }
    finish(Err(UpdateError::Conflicts(remaining)))
}

/// The updater's failure as the server reports it.
fn finish(result: Result<(Value, Managed), UpdateError>) -> Result<(Value, Managed), PatchError> {
    result.map_err(|error| match error {
        UpdateError::Failed(message) => PatchError::Internal(message),
        UpdateError::Conflicts(conflicts) => PatchError::Conflict(
            conflicts
                .into_iter()
                .map(|(manager, path)| Conflict {
                    shown: shown_manager(&manager),
                    manager: Identity::parse(&manager).map_or_else(|| manager.clone(), |identity| identity.manager),
                    identifier: manager,
                    field: describe(&path),
                })
                .collect(),
        ),
    })
}

/// `allowedConflictsFromLastApplied`: the fields the annotation sets that the live
/// object holds unchanged; None when there is no usable annotation.
fn allowed_by_last_applied(live: &Value, writer: &Writer<'_>) -> Option<Set> {
    let text = live["metadata"]["annotations"][LAST_APPLIED]
        .as_str()
        .filter(|t| !t.is_empty())?;
    let last_applied: Value = serde_json::from_str(text).ok()?;
    if last_applied["apiVersion"] != writer.api_version {
        return None;
    }
    let object_type = &*writer.object_type;
    object_type.validate(&last_applied, false).ok()?;
    object_type.validate(live, true).ok()?;
    let set = object_type.to_field_set(&last_applied).ok()?;
    let comparison = object_type.compare(&last_applied, live).ok()?;
    Some(
        set.difference(&comparison.modified)
            .difference(&comparison.added)
            .difference(&comparison.removed),
    )
}

fn has_last_applied(object: &Value) -> bool {
    object["metadata"]["annotations"][LAST_APPLIED]
        .as_str()
        .is_some_and(|text| !text.is_empty())
}

/// `lastAppliedUpdater`: the annotation becomes the applied configuration (without the
/// annotation), as `encoding/json` writes it; dropped if the annotations grow too large.
fn set_last_applied(object: &mut Value, applied: &Value) {
    let mut configuration = applied.clone();
    if let Some(annotations) = configuration
        .pointer_mut("/metadata/annotations")
        .and_then(Value::as_object_mut)
    {
        annotations.remove(LAST_APPLIED);
    }
    let encoded = format!("{}\n", super::value::to_go_json(&configuration));
    let Some(annotations) = object
        .pointer_mut("/metadata/annotations")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    annotations.insert(LAST_APPLIED.to_owned(), Value::String(encoded));
    let size: usize = annotations
        .iter()
        .map(|(key, value)| key.len() + value.as_str().map_or(0, str::len))
        .sum();
    if size > ANNOTATIONS_SIZE_LIMIT {
        annotations.remove(LAST_APPLIED);
    }
}

/// `skipNonAppliedManager.Apply` and the layers below it.
fn apply_tracked(
    live: &Value,
    applied: &Value,
    mut managed: Managed,
    force: bool,
    writer: &Writer<'_>,
) -> Result<(Value, Managed), UpdateError> {
    if managed.fields.is_empty() {
        managed = update_tracked(&writer.empty_like(live), live, managed, BEFORE_FIRST_APPLY, writer)?;
    }
    let entry = managed::identifier(writer.manager, APPLY, &writer.api_version, writer.subresource);
    let object_type = &*writer.object_type;
    object_type.validate(applied, false).map_err(|errors| {
        UpdateError::Failed(format!(
            "failed to create typed patch object ({}): {errors}",
            writer.describe_object(applied)
        ))
    })?;
    object_type.validate(live, true).map_err(|errors| {
        UpdateError::Failed(format!(
            "failed to create typed live object ({}): {errors}",
            writer.describe_object(live)
        ))
    })?;
    let ignored = writer.reset_fields();
    let updater = Updater {
        object_type,
        ignored: ignored.as_ref(),
    };
    let (object, fields) = updater.apply(live, applied, &writer.api_version, managed.fields, &entry, force)?;
    managed.fields = fields;
    strip_meta(&mut managed, &entry);
    let object = match object {
        Some(object) => {
            managed.times.insert(entry, Some(writer.now.to_owned()));
            object
        }
        None => live.clone(),
    };
    Ok((object, managed))
}

/// Records a non-apply write (create, update, patch) by `writer`: the fields it set or
/// changed between `old` and `new` become its own (operation `Update`).
pub(crate) fn record_update(old: Option<&Value>, new: &mut Value, writer: &Writer<'_>) {
    let mut live = old.cloned().unwrap_or_else(|| writer.empty_like(new));
    writer.go_value(&mut live);
    writer.go_value(new);
    let live_fields = managed::take(&mut live);
    let new_fields = managed::take(new);
    let managed = if writer.subresource.is_some() {
        managed::decode(live_fields.as_ref()).unwrap_or_default()
    } else if managed::is_reset(new_fields.as_ref()) {
        Managed::default()
    } else {
        match managed::decode(new_fields.as_ref()) {
            Ok(managed) if !managed.fields.is_empty() => managed,
            _ => managed::decode(live_fields.as_ref()).unwrap_or_default(),
        }
    };
    // An object stored without managed fields starts tracking none on update.
    if managed.fields.is_empty() && live["metadata"]["uid"].as_str().is_some_and(|uid| !uid.is_empty()) {
        return;
    }
    // `UpdateNoErrors`: a write the types cannot follow loses its managed fields.
    if let Ok(managed) = update_tracked(&live, new, managed, writer.manager, writer) {
        managed::put(new, &managed);
    }
}

/// `capManagersManager.Update` and the layers below it: `manager`'s entry gains what
/// the write from `live` to `new` changed, everyone else loses it.
fn update_tracked(
    live: &Value,
    new: &Value,
    mut managed: Managed,
    updater_name: &str,
    writer: &Writer<'_>,
) -> Result<Managed, UpdateError> {
    let identifier = managed::identifier(updater_name, UPDATE, &writer.api_version, writer.subresource);
    let object_type = &*writer.object_type;
    for (object, which) in [(new, "new"), (live, "live")] {
        object_type.validate(object, true).map_err(|errors| {
            UpdateError::Failed(format!(
                "failed to convert {which} object ({}) to smd typed: {errors}",
                writer.describe_object(object)
            ))
        })?;
    }
    let ignored = writer.reset_fields();
    let updater = Updater {
        object_type,
        ignored: ignored.as_ref(),
    };
    let fields = updater.record_update(live, new, &writer.api_version, managed.fields, CURRENT_OPERATION)?;
    managed.fields = fields;
    strip_meta(&mut managed, CURRENT_OPERATION);
    if let Some(current) = managed.fields.remove(CURRENT_OPERATION) {
        let set = match managed.fields.get(&identifier) {
            Some(previous) => current.set.union(&previous.set),
            None => current.set,
        };
        managed.fields.insert(
            identifier.clone(),
            VersionedSet {
                set,
                api_version: current.api_version,
                applied: false,
            },
        );
        // kube's scale handler maps the Scale's entries back onto the object with the
        // times the object had, so a write through `/scale` records none.
        if writer.subresource != Some("scale") {
            managed.times.insert(identifier, Some(writer.now.to_owned()));
        }
    }
    managed::cap_update_managers(&mut managed);
    Ok(managed)
}

/// Nulls an apply leaves (fields set to null, maps it emptied) are dropped where the
/// real server drops them: everywhere in a built-in object (Go decodes null as the zero
/// value) and in a custom resource's metadata (which is coerced to `ObjectMeta`); the
/// custom resource's schema pipeline drops the others it does not allow.
fn drop_nulls(object: &mut Value, custom: bool) {
    if custom {
        if let Some(metadata) = object.get_mut("metadata") {
            crate::patch::prune_nulls(metadata);
        }
    } else {
        crate::patch::prune_nulls(object);
    }
}

/// `printManager`: how a conflict names a manager.
fn shown_manager(identifier: &str) -> String {
    let Some(identity) = Identity::parse(identifier) else {
        return go_quote(identifier);
    };
    let mut shown = go_quote(&identity.manager);
    if !identity.subresource.is_empty() {
        shown = format!("{shown} with subresource {}", go_quote(&identity.subresource));
    }
    if identity.operation == UPDATE {
        shown = format!("{shown} using {}", identity.api_version);
    }
    shown
}

#[cfg(test)]
mod tests;
