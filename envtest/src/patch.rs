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
mod zero_values;

use serde_json::Value;

/// Why a patch could not be applied; the server maps each to the real server's status.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum PatchError {
    /// The patch itself is malformed (HTTP 400).
    #[error("{0}")]
    BadRequest(String),
    /// The patch is well-formed but cannot apply to this object, such as a failed JSON
    /// patch `test` (HTTP 422).
    #[error("{0}")]
    Invalid(String),
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

/// RFC 7386 JSON merge patch.
pub(crate) fn merge(original: &Value, patch: &Value) -> Result<Value, PatchError> {
    if !patch.is_object() {
        return Err(PatchError::BadRequest("a merge patch must be a JSON object".into()));
    }
    let mut object = original.clone();
    json_patch::merge(&mut object, patch);
    Ok(object)
}

/// RFC 6902 JSON patch; a failed `test` or a missing path is 422 as on the real server.
pub(crate) fn json(original: &Value, patch: &Value) -> Result<Value, PatchError> {
    let operations: json_patch::Patch = serde_json::from_value(patch.clone())
        .map_err(|e| PatchError::BadRequest(format!("the JSON patch is malformed: {e}")))?;
    let mut object = original.clone();
    json_patch::patch(&mut object, &operations).map_err(|e| {
        PatchError::Invalid(format!(
            "the server rejected our request due to an error in our request: {e}"
        ))
    })?;
    Ok(object)
}
