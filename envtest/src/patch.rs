//! The four patch types of the API server: JSON merge patch, JSON patch, strategic
//! merge patch (built-in types only) and server-side apply, plus the managed-fields
//! bookkeeping every write does.
//!
//! May import: nothing in the crate (field errors and Go quoting come from the schema
//! crate).

pub(crate) mod apply;
mod fieldpath;
mod managed;
mod merge_keys;
pub(crate) mod strategic;
pub(crate) mod type_schema;
mod typed;
mod updater;
mod value;

use serde_json::Value;

/// Why a patch could not be applied; the server maps each to the real server's status.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum PatchError {
    /// The patch itself is malformed (HTTP 400).
    #[error("{0}")]
    BadRequest(String),
    /// The patch does not apply to this object (a JSON patch operation that fails, a
    /// list of lists in a strategic merge): kube-apiserver's generic 422 (`errors.
    /// NewGenericServerResponse`), whose message says no more than that, whatever the
    /// patch library reported.
    #[error("{0}")]
    Rejected(String),
    /// A JSON patch of more operations than the server takes (HTTP 413).
    #[error("{0}")]
    TooLarge(String),
    /// Server-side apply would take fields another manager owns (HTTP 409); each
    /// conflict names the manager and the field path.
    #[error("{}", conflict_message(.0))]
    Conflict(Vec<Conflict>),
    /// The objects do not fit their type, as a plain error of the real server's field
    /// manager reports it (HTTP 500 without a reason): an apply configuration with a
    /// field the schema does not declare, or a list item without its key.
    #[error("{0}")]
    Internal(String),
}

/// A field an apply would take from another manager.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Conflict {
    pub manager: String,
    /// The manager's entry as the server keys it (manager, operation, subresource and,
    /// for an update, API version), which orders the conflict message.
    pub identifier: String,
    /// The manager as kube-apiserver prints it (`printManager`): quoted, with its
    /// subresource, and for an `Update` the API version it wrote with.
    pub shown: String,
    /// As the real server prints it, for example `.spec.replicas`.
    pub field: String,
}

impl Conflict {
    /// The cause kube-apiserver lists for this conflict.
    pub(crate) fn cause(&self) -> serde_json::Value {
        serde_json::json!({"reason": "FieldManagerConflict", "message": format!("conflict with {}", self.shown), "field": self.field})
    }
}

/// `getConflictMessage`: one conflict on one line; several grouped by manager (in the
/// order of their identifiers), one path a line.
fn conflict_message(conflicts: &[Conflict]) -> String {
    if let [only] = conflicts {
        return format!(
            "Apply failed with 1 conflict: conflict with {}: {}",
            only.shown, only.field
        );
    }
    let mut managers: Vec<&str> = conflicts.iter().map(|c| c.identifier.as_str()).collect();
    managers.sort_unstable();
    managers.dedup();
    let mut lines = Vec::new();
    for manager in managers {
        let mut of_manager = conflicts.iter().filter(|c| c.identifier == manager).peekable();
        if let Some(first) = of_manager.peek() {
            lines.push(format!("conflicts with {}:", first.shown));
        }
        lines.extend(of_manager.map(|c| format!("- {}", c.field)));
    }
    format!("Apply failed with {} conflicts: {}", conflicts.len(), lines.join("\n"))
}

/// The most operations one JSON patch may hold (`maxJSONPatchOperations`).
const MAX_JSON_PATCH_OPERATIONS: usize = 10_000;

/// Reads a patch's body as JSON, as the patch handler first unmarshals it: a body that
/// is not JSON is a 400 with the decoder's complaint (`error decoding patch: ...` for
/// merge and JSON patches, bare for a strategic merge patch).
pub(crate) fn decode(body: &[u8], prefix: &str) -> Result<Value, PatchError> {
    crate::core::decode_json(body).map_err(|why| PatchError::BadRequest(format!("{prefix}{why}")))
}

/// A JSON merge patch, as kube's patch handler applies it (evanphx/json-patch's
/// `MergePatch`, which differs from RFC 7386 in where it prunes nulls): the patch must
/// unmarshal into a map (a list, a string, a number is a 400 naming its type), and
/// `null` is the merge library's `Invalid JSON Patch`.
pub(crate) fn merge(original: &Value, patch: &Value) -> Result<Value, PatchError> {
    match patch {
        Value::Object(_) => {}
        Value::Null => return Err(PatchError::BadRequest("Invalid JSON Patch".into())),
        other => {
            return Err(PatchError::BadRequest(format!(
                "error decoding patch: json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                crate::core::go_json_type(other)
            )));
        }
    }
    let mut object = original.clone();
    merge_value(&mut object, patch);
    Ok(object)
}

/// evanphx/json-patch's `merge`: a patch object met by an object is merged into it key
/// by key (a null removes the key); any other value replaces what was there. A value
/// that lands where the document had no object (`pruneNulls`) loses the null keys of
/// every object within it, lists' objects included (RFC 7386 would keep those); a
/// value that replaces an object is taken as it is.
fn merge_value(current: &mut Value, patch: &Value) {
    match (current, patch) {
        (Value::Object(document), Value::Object(patch)) => {
            for (key, value) in patch {
                match document.get_mut(key) {
                    _ if value.is_null() => {
                        document.remove(key);
                    }
                    Some(current) if !current.is_null() => merge_value(current, value),
                    _ => {
                        let mut value = value.clone();
                        prune_nulls(&mut value);
                        document.insert(key.clone(), value);
                    }
                }
            }
        }
        (current @ Value::Object(_), patch) => *current = patch.clone(),
        (current, patch) => {
            let mut patch = patch.clone();
            prune_nulls(&mut patch);
            *current = patch;
        }
    }
}

/// `pruneNulls`: the null keys of every object within `value` removed; a list keeps its
/// null items.
pub(crate) fn prune_nulls(value: &mut Value) {
    match value {
        Value::Object(fields) => {
            fields.retain(|_, field| !field.is_null());
            fields.values_mut().for_each(prune_nulls);
        }
        Value::Array(items) => items.iter_mut().for_each(prune_nulls),
        _ => {}
    }
}

/// RFC 6902 JSON patch, as kube's patch handler applies it: the body must be a list of
/// operation objects (else a 400 naming what it is); `null` is no operation; more than
/// 10,000 operations is a 413; an operation that cannot apply, an unknown `op` or one
/// missing its path included, is the generic 422 ([`PatchError::Rejected`]). An `add`,
/// `replace` or `test` without a `value` uses `null`, as the Go library reads it.
pub(crate) fn json(original: &Value, patch: &Value) -> Result<Value, PatchError> {
    let operations = match patch {
        Value::Null => return Ok(original.clone()),
        Value::Array(operations) => operations,
        other => {
            return Err(PatchError::BadRequest(format!(
                "error decoding patch: json: cannot unmarshal {} into Go value of type []handlers.jsonPatchOp",
                crate::core::go_json_type(other)
            )));
        }
    };
    if let Some(other) = operations.iter().find(|op| !op.is_object() && !op.is_null()) {
        return Err(PatchError::BadRequest(format!(
            "error decoding patch: json: cannot unmarshal {} into Go value of type handlers.jsonPatchOp",
            crate::core::go_json_type(other)
        )));
    }
    if operations.len() > MAX_JSON_PATCH_OPERATIONS {
        return Err(PatchError::TooLarge(format!(
            "The allowed maximum operations in a JSON patch is {MAX_JSON_PATCH_OPERATIONS}, got {}",
            operations.len()
        )));
    }
    let rejected = |why: String| PatchError::Rejected(why);
    let mut parsed = Vec::with_capacity(operations.len());
    for operation in operations {
        let mut operation = operation.clone();
        if let Some(fields) = operation.as_object_mut()
            && matches!(
                fields.get("op").and_then(Value::as_str),
                Some("add" | "replace" | "test")
            )
        {
            fields.entry("value").or_insert(Value::Null);
        }
        let operation: json_patch::PatchOperation =
            serde_json::from_value(operation).map_err(|e| rejected(e.to_string()))?;
        parsed.push(operation);
    }
    let mut object = original.clone();
    for operation in &parsed {
        let Some(operation) = as_evanphx_v4(&object, operation) else {
            continue;
        };
        json_patch::patch(&mut object, std::slice::from_ref(&operation)).map_err(|e| rejected(e.to_string()))?;
    }
    Ok(object)
}

/// An operation as kube's JSON patch library (evanphx/json-patch v4) carries it out,
/// where that differs from RFC 6902: it reads a key an object lacks as `null` without
/// an error, so a `replace` of such a key adds it, and a `test` of it against `null`
/// passes (None: nothing to do).
fn as_evanphx_v4(object: &Value, operation: &json_patch::PatchOperation) -> Option<json_patch::PatchOperation> {
    use json_patch::{AddOperation, PatchOperation};
    let missing_from_its_object = |path: &json_patch::jsonptr::Pointer| {
        let Some((parent, key)) = path.split_back() else {
            return false;
        };
        parent
            .resolve(object)
            .ok()
            .and_then(Value::as_object)
            .is_some_and(|parent| !parent.contains_key(key.decoded().as_ref()))
    };
    match operation {
        PatchOperation::Replace(replace) if missing_from_its_object(&replace.path) => {
            Some(PatchOperation::Add(AddOperation {
                path: replace.path.clone(),
                value: replace.value.clone(),
            }))
        }
        PatchOperation::Test(test) if test.value.is_null() && missing_from_its_object(&test.path) => None,
        other => Some(other.clone()),
    }
}
