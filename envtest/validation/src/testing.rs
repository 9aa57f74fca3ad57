//! What the groups' unit tests share: validating an object of a kind and reading the
//! errors as kube's 422 lists them (`field: body`).

use serde_json::Value;

use crate::{Kind, Write, validate};

/// The errors of `object`, a `group`/`version` `kind`, written as `write` says, each
/// as `field: body`.
pub(crate) fn errors(group: &str, version: &str, kind: &str, object: &Value, write: Write) -> Vec<String> {
    let kind = Kind {
        group,
        version,
        kind,
        namespaced: true,
    };
    validate(&kind, object, write)
        .iter()
        .map(|error| format!("{}: {}", error.field, error.body()))
        .collect()
}

/// The fields of the errors (for cases whose messages another test pins down).
pub(crate) fn fields(group: &str, version: &str, kind: &str, object: &Value, write: Write) -> Vec<String> {
    errors(group, version, kind, object, write)
        .into_iter()
        .map(|error| error.split(": ").next().unwrap_or_default().to_owned())
        .collect()
}
