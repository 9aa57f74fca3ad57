//! The validation of the `apps` API group's kinds (`pkg/apis/apps/validation`), with
//! what each kind's registry strategy adds (`pkg/registry/apps/<kind>/strategy.go`:
//! the selector may not change on apps/v1; a status write is validated alone).
//!
//! `deployment` holds Deployments and `ReplicaSets` (they share the pod template and
//! rolling-update rules), `stateful_set` `StatefulSets`, `daemon_set` `DaemonSets` and
//! `ControllerRevisions`; the int-or-percent rules all of them use are here.

mod daemon_set;
mod deployment;
mod stateful_set;

use serde_json::Value;

use crate::common::fields::nonnegative;
use crate::common::go_syntax::{int_or_string, raw};
use crate::common::labels::Selector;
use crate::common::names::percent;
use crate::common::read::int;
use crate::field::{ErrorList, Path};
use crate::{Kind, Write};

/// The errors in `object`, an `apps` kind written as `write` says.
pub(crate) fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    match kind.kind {
        "Deployment" => deployment::validate_deployment(object, write),
        "ReplicaSet" => deployment::validate_replica_set(object, write),
        "StatefulSet" => stateful_set::validate(object, write),
        "DaemonSet" => daemon_set::validate_daemon_set(object, write),
        "ControllerRevision" => daemon_set::validate_controller_revision(object, write),
        _ => ErrorList::new(),
    }
}

/// `ValidatePositiveIntOrPercent`: a non-negative integer or a percent string.
pub(crate) fn validate_positive_int_or_percent(value: &Value, path: &Path) -> ErrorList {
    match value {
        Value::String(text) => percent(text)
            .iter()
            .map(|message| path.invalid(raw(int_or_string(value)), message))
            .collect(),
        other => nonnegative(int(other), path),
    }
}

/// `getPercentValue`: the number of a valid percent string.
fn percent_value(value: &Value) -> Option<i64> {
    let text = value.as_str()?;
    if !percent(text).is_empty() {
        return None;
    }
    // Go's `strconv.Atoi` of the digits; an overflow reads as 0, as its error does.
    Some(text.trim_end_matches('%').parse().unwrap_or_default())
}

/// `getIntOrPercentValue`: a percent's number, an integer, or 0 (`IntValue` of a
/// string that is not a number).
fn int_or_percent_value(value: &Value) -> i64 {
    if let Some(number) = percent_value(value) {
        return number;
    }
    match value {
        Value::String(text) => text.parse().unwrap_or_default(),
        other => int(other),
    }
}

/// `IsNotMoreThan100Percent`.
pub(crate) fn is_not_more_than_100_percent(value: &Value, path: &Path) -> ErrorList {
    match percent_value(value) {
        Some(number) if number > 100 => {
            vec![path.invalid(raw(int_or_string(value)), "must not be greater than 100%")]
        }
        _ => ErrorList::new(),
    }
}

/// Whether a template's labels satisfy a workload's selector, as the pod template
/// checks ask (an empty selector asks nothing; a nil one matches nothing).
fn selector_rejects(selector: &Selector, labels: &Value) -> bool {
    !selector.is_empty() && !selector.matches(labels)
}

#[cfg(test)]
mod tests;
