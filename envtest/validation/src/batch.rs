//! The validation of the `batch` API group's kinds (`pkg/apis/batch/validation`), with
//! what the Job and `CronJob` strategies add (`pkg/registry/batch/*/strategy.go`: the
//! options they compute, and a `CronJob`'s status, which they do not validate).
//!
//! `job` holds Job specs and updates, `job_status` a Job's status writes, `indexes`
//! an Indexed Job's index lists, `cron_job` `CronJobs` and `schedule` their schedules and
//! time zones.

mod cron_job;
mod indexes;
mod job;
mod job_status;
mod schedule;

use serde_json::Value;

use crate::field::ErrorList;
use crate::{Kind, Write};

/// The errors in `object`, a `batch` kind written as `write` says.
pub(crate) fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    match (kind.kind, write) {
        ("Job", Write::Create) => job::validate_job(object, job::job_options(None)),
        ("Job", Write::Update { old }) => job::validate_job_update(object, old, job::job_options(Some(old))),
        ("Job", Write::Subresource { name: "status", old }) => job_status::validate_job_update_status(object, old),
        ("CronJob", Write::Create) => cron_job::validate_cron_job_create(object),
        ("CronJob", Write::Update { old }) => cron_job::validate_cron_job_update(object, old),
        _ => ErrorList::new(),
    }
}

#[cfg(test)]
mod tests;
