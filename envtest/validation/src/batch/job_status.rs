//! A Job's status writes: `ValidateJobUpdateStatus` with the options the Job status
//! strategy computes while the `JobManagedBy` gate is on (1.32's default): each rule on
//! how finished, failed and indexed Jobs may look is checked when the fields it reads
//! change, so an external controller cannot move a Job backwards or into a state
//! clients do not expect.

use serde_json::Value;
use wheelhouse_envtest_schema::errors::BadValue;

use super::indexes::{failed_overlaps_completed, validate_indexes_format};
use crate::common::fields::nonnegative;
use crate::common::go_syntax::{GoStruct, raw, slice, string};
use crate::common::read::{int, is_set, items, opt_int, opt_text, semantic_eq, text};
use crate::core::validate_object_meta_update;
use crate::field::{ErrorList, Path};

/// `JobStatusValidationOptions` as `getStatusValidationOptions` sets them with
/// `JobManagedBy` on.
#[derive(Debug, Clone, Copy, Default)]
#[expect(clippy::struct_excessive_bools, reason = "kube's options, one flag per rule")]
struct StatusOptions {
    reject_decreasing_succeeded: bool,
    reject_invalid_completed_indexes: bool,
    reject_invalid_failed_indexes: bool,
    reject_completed_indexes_for_non_indexed: bool,
    reject_failed_indexes_without_backoff_per_index: bool,
    reject_failed_indexes_overlapping_completed: bool,
    reject_failed_without_failure_target: bool,
    reject_complete_without_success_criteria: bool,
    reject_finished_with_active: bool,
    reject_finished_without_start_time: bool,
    reject_finished_with_uncounted: bool,
    reject_start_time_update_for_unsuspended: bool,
    reject_completion_before_start: bool,
    reject_not_complete_with_completion_time: bool,
    reject_complete_without_completion_time: bool,
    reject_complete_with_failed: bool,
    reject_complete_with_failure_target: bool,
    reject_more_ready_than_active: bool,
    reject_finished_with_terminating: bool,
}

/// `IsConditionTrue`.
fn condition_true(job: &Value, kind: &str) -> bool {
    items(&job["status"]["conditions"])
        .iter()
        .any(|c| text(&c["type"]) == kind && text(&c["status"]) == "True")
}

/// `IsJobFinished`.
fn finished(job: &Value) -> bool {
    condition_true(job, "Complete") || condition_true(job, "Failed")
}

/// `getStatusValidationOptions`.
fn status_options(job: &Value, old: &Value) -> StatusOptions {
    let (status, old_status) = (&job["status"], &old["status"]);
    let changed = |field: &str| !semantic_eq(&status[field], &old_status[field]);
    let condition_changed = |kind: &str| condition_true(job, kind) != condition_true(old, kind);
    let indexed = text(&job["spec"]["completionMode"]) == "Indexed";
    let finished_changed = finished(job) != finished(old);
    let complete_changed = condition_changed("Complete");
    let failed_changed = condition_changed("Failed");
    let target_changed = condition_changed("FailureTarget");
    let criteria_changed = condition_changed("SuccessCriteriaMet");
    let completed_indexes_changed = text(&status["completedIndexes"]) != text(&old_status["completedIndexes"]);
    let failed_indexes_changed = opt_text(&status["failedIndexes"]) != opt_text(&old_status["failedIndexes"]);
    let active_changed = int(&status["active"]) != int(&old_status["active"]);
    let start_changed = changed("startTime");
    let completion_changed = changed("completionTime");
    StatusOptions {
        reject_decreasing_succeeded: !indexed
            || opt_int(&job["spec"]["completions"]) != opt_int(&job["spec"]["parallelism"]),
        reject_invalid_completed_indexes: completed_indexes_changed,
        reject_invalid_failed_indexes: failed_indexes_changed,
        reject_completed_indexes_for_non_indexed: completed_indexes_changed,
        reject_failed_indexes_without_backoff_per_index: failed_indexes_changed,
        reject_failed_indexes_overlapping_completed: failed_indexes_changed || completed_indexes_changed,
        reject_failed_without_failure_target: failed_changed || failed_indexes_changed,
        reject_complete_without_success_criteria: complete_changed || criteria_changed,
        reject_finished_with_active: finished_changed || active_changed,
        reject_finished_without_start_time: finished_changed || start_changed,
        reject_finished_with_uncounted: finished_changed || changed("uncountedTerminatedPods"),
        reject_start_time_update_for_unsuspended: start_changed,
        reject_completion_before_start: start_changed || completion_changed,
        reject_not_complete_with_completion_time: complete_changed || completion_changed,
        reject_complete_without_completion_time: complete_changed || completion_changed,
        reject_complete_with_failed: complete_changed || failed_changed,
        reject_complete_with_failure_target: complete_changed || target_changed,
        reject_more_ready_than_active: opt_int(&status["ready"]) != opt_int(&old_status["ready"]) || active_changed,
        reject_finished_with_terminating: finished_changed
            || opt_int(&status["terminating"]) != opt_int(&old_status["terminating"]),
    }
}

/// A `metav1.Time` as Go's `time.Time.String()` prints it (kube-apiserver's local
/// zone, UTC).
fn time_string(value: &Value) -> String {
    value
        .as_str()
        .and_then(|text| text.parse::<jiff::Timestamp>().ok())
        .map_or_else(
            || "0001-01-01 00:00:00 +0000 UTC".to_owned(),
            |time| time.strftime("%Y-%m-%d %H:%M:%S%.f +0000 UTC").to_string(),
        )
}

/// A timestamp's instant, for `Before`.
fn instant(value: &Value) -> Option<jiff::Timestamp> {
    value.as_str().and_then(|text| text.parse().ok())
}

/// The Job status strategy's `ValidateUpdate`: `ValidateJobUpdateStatus`.
pub(super) fn validate_job_update_status(job: &Value, old: &Value) -> ErrorList {
    let options = status_options(job, old);
    let mut errors = validate_object_meta_update(&job["metadata"], &old["metadata"], &Path::new("metadata"));
    errors.extend(validate_job_status_update(job, old, options));
    errors
}

/// `ValidateJobStatusUpdate`.
fn validate_job_status_update(job: &Value, old: &Value, options: StatusOptions) -> ErrorList {
    let path = Path::new("status");
    let conditions = path.child("conditions");
    let mut errors = validate_job_status(job, &path, options);
    for kind in ["Failed", "Complete", "FailureTarget"] {
        if condition_true(old, kind) && !condition_true(job, kind) {
            errors.push(conditions.invalid(
                BadValue::Omit,
                &format!("cannot disable the terminal {kind}=True condition"),
            ));
        }
    }
    let (status, old_status) = (&job["status"], &old["status"]);
    let failed = int(&status["failed"]);
    if failed < int(&old_status["failed"]) {
        errors.push(
            path.child("failed")
                .invalid(&Value::from(failed), "cannot decrease the failed counter"),
        );
    }
    let succeeded = int(&status["succeeded"]);
    if options.reject_decreasing_succeeded && succeeded < int(&old_status["succeeded"]) {
        errors.push(
            path.child("succeeded")
                .invalid(&Value::from(succeeded), "cannot decrease the succeeded counter"),
        );
    }
    let completion = &status["completionTime"];
    if is_set(completion)
        && is_set(&old_status["completionTime"])
        && instant(completion) != instant(&old_status["completionTime"])
    {
        errors.push(
            path.child("completionTime")
                .invalid(raw(time_string(completion)), "completionTime cannot be mutated"),
        );
    }
    if options.reject_start_time_update_for_unsuspended
        && is_set(&old_status["startTime"])
        && instant(&old_status["startTime"]) != instant(&status["startTime"])
        && !job["spec"]["suspend"].as_bool().unwrap_or_default()
    {
        errors.push(
            path.child("startTime")
                .required("startTime cannot be removed for unsuspended job"),
        );
    }
    if condition_true(old, "SuccessCriteriaMet") && !condition_true(job, "SuccessCriteriaMet") {
        errors.push(conditions.invalid(BadValue::Omit, "cannot disable the SuccessCriteriaMet=True condition"));
    }
    if condition_true(old, "Complete")
        && !condition_true(old, "SuccessCriteriaMet")
        && condition_true(job, "SuccessCriteriaMet")
    {
        errors.push(conditions.invalid(
            BadValue::Omit,
            "cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions",
        ));
    }
    errors
}

/// `validateJobStatus`.
#[expect(clippy::too_many_lines, reason = "one Go function, ported whole in its order")]
fn validate_job_status(job: &Value, path: &Path, options: StatusOptions) -> ErrorList {
    let status = &job["status"];
    let spec = &job["spec"];
    let conditions = path.child("conditions");
    let mut errors = ErrorList::new();
    for field in ["active", "succeeded", "failed"] {
        errors.extend(nonnegative(int(&status[field]), &path.child(field)));
    }
    for field in ["ready", "terminating"] {
        if let Some(value) = opt_int(&status[field]) {
            errors.extend(nonnegative(value, &path.child(field)));
        }
    }
    let uncounted = &status["uncountedTerminatedPods"];
    if is_set(uncounted) {
        let uncounted_path = path.child("uncountedTerminatedPods");
        let mut seen = std::collections::HashSet::new();
        for list in ["succeeded", "failed"] {
            for (index, uid) in items(&uncounted[list]).iter().enumerate() {
                let uid_path = uncounted_path.child(list).index(index);
                let uid = text(uid);
                if uid.is_empty() {
                    errors.push(uid_path.invalid(uid, "must not be empty"));
                } else if !seen.insert(uid) {
                    errors.push(uid_path.duplicate(uid));
                }
            }
        }
    }
    let complete = condition_true(job, "Complete");
    let failed = condition_true(job, "Failed");
    let criteria_met = condition_true(job, "SuccessCriteriaMet");
    let failure_target = condition_true(job, "FailureTarget");
    if options.reject_complete_with_failed && complete && failed {
        errors.push(conditions.invalid(BadValue::Omit, "cannot set Complete=True and Failed=true conditions"));
    }
    if options.reject_complete_with_failure_target && complete && failure_target {
        errors.push(conditions.invalid(
            BadValue::Omit,
            "cannot set Complete=True and FailureTarget=true conditions",
        ));
    }
    let completion = &status["completionTime"];
    let start = &status["startTime"];
    if options.reject_not_complete_with_completion_time && is_set(completion) && !complete {
        errors.push(path.child("completionTime").invalid(
            raw(time_string(completion)),
            "cannot set completionTime when there is no Complete=True condition",
        ));
    }
    if options.reject_complete_without_completion_time && !is_set(completion) && complete {
        errors.push(
            path.child("completionTime")
                .required("completionTime is required for Complete jobs"),
        );
    }
    if options.reject_completion_before_start
        && let (Some(started), Some(completed)) = (instant(start), instant(completion))
        && completed < started
    {
        errors.push(path.child("completionTime").invalid(
            raw(time_string(completion)),
            "completionTime cannot be set before startTime",
        ));
    }
    if options.reject_failed_without_failure_target && failed && !failure_target {
        errors.push(conditions.invalid(
            BadValue::Omit,
            "cannot set Failed=True condition without the FailureTarget=true condition",
        ));
    }
    if options.reject_complete_without_success_criteria && complete && !criteria_met {
        errors.push(conditions.invalid(
            BadValue::Omit,
            "cannot set Complete=True condition without the SuccessCriteriaMet=true condition",
        ));
    }
    let is_finished = finished(job);
    let active = int(&status["active"]);
    if options.reject_finished_with_active && active > 0 && is_finished {
        errors.push(
            path.child("active")
                .invalid(&Value::from(active), "active>0 is invalid for finished job"),
        );
    }
    if options.reject_finished_without_start_time && !is_set(start) && is_finished {
        errors.push(
            path.child("startTime")
                .required("startTime is required for finished job"),
        );
    }
    if options.reject_finished_with_uncounted
        && is_finished
        && is_set(uncounted)
        && items(&uncounted["failed"]).len() + items(&uncounted["succeeded"]).len() > 0
    {
        let shown = GoStruct::new("batch.UncountedTerminatedPods")
            .field("Succeeded", slice("types.UID", &uncounted["succeeded"], string))
            .field("Failed", slice("types.UID", &uncounted["failed"], string))
            .end();
        errors.push(
            path.child("uncountedTerminatedPods")
                .invalid(raw(shown), "uncountedTerminatedPods needs to be empty for finished job"),
        );
    }
    let completions = opt_int(&spec["completions"]);
    let completed_indexes = text(&status["completedIndexes"]);
    let failed_indexes = opt_text(&status["failedIndexes"]);
    if options.reject_invalid_completed_indexes
        && let Some(completions) = completions
        && let Err(error) = validate_indexes_format(completed_indexes, completions)
    {
        errors.push(
            path.child("completedIndexes")
                .invalid(completed_indexes, &format!("error parsing completedIndexes: {error}")),
        );
    }
    if options.reject_invalid_failed_indexes
        && let (Some(completions), Some(failed_indexes)) = (completions, failed_indexes)
        && is_set(&spec["backoffLimitPerIndex"])
        && let Err(error) = validate_indexes_format(failed_indexes, completions)
    {
        errors.push(
            path.child("failedIndexes")
                .invalid(failed_indexes, &format!("error parsing failedIndexes: {error}")),
        );
    }
    let indexed = text(&spec["completionMode"]) == "Indexed";
    if options.reject_completed_indexes_for_non_indexed && !completed_indexes.is_empty() && !indexed {
        errors.push(path.child("completedIndexes").invalid(
            completed_indexes,
            "cannot set non-empty completedIndexes when non-indexed completion mode",
        ));
    }
    if options.reject_failed_indexes_without_backoff_per_index
        && let Some(failed_indexes) = failed_indexes
        && spec["backoffLimitPerIndex"].is_null()
    {
        errors.push(path.child("failedIndexes").invalid(
            failed_indexes,
            "cannot set non-null failedIndexes when backoffLimitPerIndex is null",
        ));
    }
    if options.reject_failed_indexes_overlapping_completed
        && let (Some(completions), Some(failed_indexes)) = (completions, failed_indexes)
        && let Err(error) = failed_overlaps_completed(completed_indexes, failed_indexes, completions)
    {
        errors.push(path.child("failedIndexes").invalid(failed_indexes, &error));
    }
    if options.reject_finished_with_terminating
        && let Some(terminating) = opt_int(&status["terminating"])
        && terminating > 0
        && is_finished
    {
        errors.push(
            path.child("terminating")
                .invalid(&Value::from(terminating), "terminating>0 is invalid for finished job"),
        );
    }
    if options.reject_more_ready_than_active
        && let Some(ready) = opt_int(&status["ready"])
        && ready > active
    {
        errors.push(
            path.child("ready")
                .invalid(&Value::from(ready), "cannot set more ready pods than active"),
        );
    }
    // `AllowForSuccessCriteriaMetInExtendedScope` is on with `JobManagedBy`, so the
    // NonIndexed and no-SuccessPolicy rules do not apply.
    if criteria_met && failed {
        errors.push(conditions.invalid(
            BadValue::Omit,
            "cannot set SuccessCriteriaMet=True and Failed=true conditions",
        ));
    }
    if criteria_met && failure_target {
        errors.push(conditions.invalid(
            BadValue::Omit,
            "cannot set SuccessCriteriaMet=True and FailureTarget=true conditions",
        ));
    }
    if is_set(&spec["successPolicy"]) && !criteria_met && complete {
        errors.push(conditions.invalid(
            BadValue::Omit,
            "cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True",
        ));
    }
    errors
}
