//! `CronJobs`: `ValidateCronJobCreate`, `ValidateCronJobUpdate`, `validateCronJobSpec`,
//! the schedule and time zone, and `ValidateJobTemplateSpec` (the Job a `CronJob` makes,
//! whose selector the server always generates).

use serde_json::Value;

use super::job::validate_job_spec_fields;
use super::schedule::{load_location, parse_standard};
use crate::common::fields::nonnegative_if_set;
use crate::common::go_syntax::{label_selector, raw};
use crate::common::names::name_is_dns_subdomain;
use crate::common::read::{flag, is_set, opt_text, text};
use crate::core::{validate_object_meta, validate_object_meta_update};
use crate::field::{ErrorList, Path};

/// A `CronJob`'s name leaves room for the 11-character suffix of the Jobs it makes
/// (`DNS1035LabelMaxLength - 11`).
const MAX_NAME_LENGTH: usize = 52;

/// `ValidateCronJobCreate`.
pub(super) fn validate_cron_job_create(cron_job: &Value) -> ErrorList {
    let metadata = &cron_job["metadata"];
    let mut errors = validate_object_meta(metadata, true, name_is_dns_subdomain, &Path::new("metadata"));
    errors.extend(validate_cron_job_spec(&cron_job["spec"], None, &Path::new("spec")));
    let name = text(&metadata["name"]);
    if name.len() > MAX_NAME_LENGTH {
        errors.push(
            Path::new("metadata")
                .child("name")
                .invalid(name, "must be no more than 52 characters"),
        );
    }
    errors
}

/// `ValidateCronJobUpdate` (no name-length rule: older `CronJobs` may be longer).
pub(super) fn validate_cron_job_update(cron_job: &Value, old: &Value) -> ErrorList {
    let mut errors = validate_object_meta_update(&cron_job["metadata"], &old["metadata"], &Path::new("metadata"));
    errors.extend(validate_cron_job_spec(
        &cron_job["spec"],
        Some(&old["spec"]),
        &Path::new("spec"),
    ));
    errors
}

/// `validateCronJobSpec`.
fn validate_cron_job_spec(spec: &Value, old: Option<&Value>, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let schedule = text(&spec["schedule"]);
    let time_zone = opt_text(&spec["timeZone"]);
    if schedule.is_empty() {
        errors.push(path.child("schedule").required(""));
    } else {
        let allow_tz = old.is_some_and(|old| text(&old["schedule"]).contains("TZ"));
        errors.extend(validate_schedule_format(
            schedule,
            allow_tz,
            time_zone,
            &path.child("schedule"),
        ));
    }
    errors.extend(nonnegative_if_set(
        &spec["startingDeadlineSeconds"],
        &path.child("startingDeadlineSeconds"),
    ));
    if old.is_none_or(|old| opt_text(&old["timeZone"]) != time_zone) {
        errors.extend(validate_time_zone(time_zone, &path.child("timeZone")));
    }
    let policy_path = path.child("concurrencyPolicy");
    match text(&spec["concurrencyPolicy"]) {
        "Allow" | "Forbid" | "Replace" => {}
        "" => errors.push(policy_path.required("")),
        other => errors.push(policy_path.not_supported(other, &["Allow", "Forbid", "Replace"])),
    }
    errors.extend(validate_job_template_spec(
        &spec["jobTemplate"],
        &path.child("jobTemplate"),
    ));
    for field in ["successfulJobsHistoryLimit", "failedJobsHistoryLimit"] {
        errors.extend(nonnegative_if_set(&spec[field], &path.child(field)));
    }
    errors
}

/// `validateScheduleFormat`.
fn validate_schedule_format(schedule: &str, allow_tz: bool, time_zone: Option<&str>, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if let Err(error) = parse_standard(schedule) {
        errors.push(path.invalid(schedule, &error));
    }
    let has_tz = schedule.contains("TZ");
    if allow_tz && has_tz && time_zone.is_some() {
        errors.push(path.invalid(schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule"));
    } else if !allow_tz && has_tz {
        errors.push(path.invalid(
            schedule,
            "cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
        ));
    }
    errors
}

/// `validTimeZoneCharacters`: `^[A-Za-z\.\-_0-9+]{1,14}$`.
fn is_time_zone_part(part: &str) -> bool {
    (1..=14).contains(&part.len())
        && part
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'+'))
}

/// `validateTimeZone`: unset, or an explicit IANA zone.
fn validate_time_zone(time_zone: Option<&str>, path: &Path) -> ErrorList {
    let Some(zone) = time_zone else {
        return ErrorList::new();
    };
    if zone.is_empty() {
        return vec![path.invalid(zone, "timeZone must be nil or non-empty string")];
    }
    for part in zone.split('/') {
        if part == "." || part == ".." || part.starts_with('-') || !is_time_zone_part(part) {
            return vec![path.invalid(zone, &format!("unknown time zone {zone}"))];
        }
    }
    let mut errors = ErrorList::new();
    if zone.eq_ignore_ascii_case("local") {
        errors.push(path.invalid(
            zone,
            "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones",
        ));
    }
    if let Err(error) = load_location(zone) {
        errors.push(path.invalid(zone, &error));
    }
    errors
}

/// `ValidateJobTemplateSpec`.
fn validate_job_template_spec(template: &Value, path: &Path) -> ErrorList {
    let spec = &template["spec"];
    let spec_path = path.child("spec");
    let mut errors = validate_job_spec_fields(spec, &spec_path);
    let selector = &spec["selector"];
    if is_set(selector) {
        errors.push(
            spec_path
                .child("selector")
                .invalid(raw(label_selector(selector)), "`selector` will be auto-generated"),
        );
    }
    if flag(&spec["manualSelector"]) {
        errors.push(
            spec_path
                .child("manualSelector")
                .not_supported(true_pointer(), &["nil", "false"]),
        );
    }
    errors
}

/// A `*bool` pointing at true, as `field.NotSupported` prints it (the pointer is
/// followed: `true`).
fn true_pointer() -> &'static Value {
    &Value::Bool(true)
}
