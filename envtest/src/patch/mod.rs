//! The four patch types of the API server: JSON merge patch, JSON patch, strategic
//! merge patch (built-in types only) and server-side apply, plus the managed-fields
//! bookkeeping every write does.

pub(crate) mod apply;
mod configuration;
mod fieldset;
mod managed;
mod merge_keys;
pub(crate) mod strategic;

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
    #[error("Apply failed with {} conflict(s): {}", .0.len(), describe_conflicts(.0))]
    Conflict(Vec<Conflict>),
}

/// A field an apply would take from another manager.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Conflict {
    pub manager: String,
    /// As the real server prints it, for example `.spec.replicas`.
    pub field: String,
}

fn describe_conflicts(conflicts: &[Conflict]) -> String {
    conflicts
        .iter()
        .map(|c| format!("conflict with \"{}\": {}", c.manager, c.field))
        .collect::<Vec<_>>()
        .join(", ")
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
