//! The `CronJob` controller ported to wheelhouse, then turned into a fleet controller: a
//! walkthrough for a newcomer who has one cluster's controller and wants it to run
//! across many.
//!
//! # 1. The controller for one cluster
//!
//! [`CronJobs`] is the reconciler kubebuilder's tutorial builds, on the built-in
//! `batch/v1` `CronJob`: each reconcile lists the Jobs it started (labelled with the
//! `CronJob`'s name), records the active ones and the last run in the `CronJob`'s status,
//! starts the next Job when the schedule says it is due (a controller-owned Job named
//! after the scheduled time, so a retried reconcile cannot start it twice), deletes
//! finished Jobs past the history limits, and asks to come back at the next run. It
//! reads nothing but its [`Context`]: the client, the store of owned Jobs.
//!
//! ```no_run
//! # async fn example(manager: wheelhouse::manager::Manager) -> Result<(), wheelhouse::manager::Error> {
//! use wheelhouse_examples::cronjob;
//!
//! // One cluster: the manager's.
//! manager.add(cronjob::builder(manager.cache()).build(cronjob::CronJobs))?;
//! manager.run().await
//! # }
//! ```
//!
//! # 2. The same reconciler over a fleet
//!
//! Nothing in the reconciler changes. The builder gets one more call, `.fleet(provider)`:
//! the controller's declarations (`owns::<Job>()`, the concurrency) are made again in
//! every member that joins, and each reconcile's [`Context`] hands the reconciler that
//! member's client and stores. [`fleet_controller`] is that line:
//!
//! ```no_run
//! # async fn example(manager: wheelhouse::manager::Manager) -> Result<(), wheelhouse::manager::Error> {
//! use wheelhouse::manager::fleet::KubeconfigSecrets;
//! use wheelhouse_examples::cronjob;
//!
//! // The members: every `<cluster>-kubeconfig` Secret in the home cluster's
//! // namespace `fleet` (Cluster API's convention), watched.
//! let members = KubeconfigSecrets::new(manager.cache(), "fleet");
//! let controller = cronjob::builder(manager.cache())
//!     .fleet(members)
//!     .build(cronjob::CronJobs);
//! manager.add(controller)?;
//! manager.run().await
//! # }
//! ```
//!
//! # 3. Where the members come from
//!
//! A provider announces the members; pick the one that matches how you know them:
//! [`KubeconfigSecrets`](wheelhouse::manager::fleet::KubeconfigSecrets) (Secrets in
//! the home cluster, as Cluster API writes them),
//! [`KubeconfigContexts`](wheelhouse::manager::fleet::KubeconfigContexts) (contexts of
//! a kubeconfig file), or [`InProcess`](wheelhouse::manager::fleet::InProcess)
//! (clusters your program joins and leaves itself; in tests, embedded API servers).
//! Members can join and leave while the manager runs.
//!
//! # 4. Running it with replicas
//!
//! Unchanged from one cluster: with leader election the leader engages every member;
//! with a ring (`ManagerBuilder::sharding`) each member, with all its `CronJobs`, is
//! engaged by one replica and changes hands safely when replicas come and go.
//!
//! # 5. Permissions
//!
//! The home cluster needs the members' Secrets (`list`, `watch`) and the Lease; each
//! member needs what the single-cluster controller needed (here `CronJobs` and their
//! status, Jobs, Events). `tests/fleet_rbac.rs` shows how to generate both from what
//! the operator sends in a test; `deploy/fleet-home-rbac.yaml` and
//! `deploy/fleet-member-rbac.yaml` are the WebApp operator's. A project started with
//! `cargo wheelhouse init --fleet` gets both files written from its kinds, and its
//! reconcilers' `add` already calls `.fleet(..)` with the kubeconfig Secrets' provider.
//!
//! # 6. Testing it
//!
//! A fleet is a few embedded API servers in one test:
//! `cargo run --example cronjob-fleet` runs this controller over a hub and three
//! members (a `CronJob` `@every 1s` in each, Jobs completing on the simulated kubelet), and
//! `tests/fleet_cronjob.rs` checks that every member gets its Jobs.
//!
//! Schedules: this port reads `@every <duration>` (Go's duration: `90s`, `1m30s`, `2h`);
//! a five-field cron line is refused with a terminal error naming the `CronJob`.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::batch::v1::{CronJob, Job};
use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use kube::api::{Api, DeleteParams, PostParams, PropagationPolicy};
use kube::{Resource, ResourceExt};
use wheelhouse::cache::Cache;
use wheelhouse::controller::owner::controller_ref;
use wheelhouse::controller::{Action, Builder, Context, Controller, Error, FleetController, Reconciler};
use wheelhouse::manager::fleet::Provider;

/// The label on the Jobs a `CronJob` started, valued with its name.
pub const CRONJOB_LABEL: &str = "wheelhouse.dev/cronjob";

/// The builder of the `CronJob` controller: `CronJobs`, and the Jobs they own.
pub fn builder(cache: &Cache) -> Builder<CronJob> {
    Controller::for_::<CronJob>(cache)
        .name("cronjob")
        .owns::<Job>()
        .concurrency(4)
}

/// The `CronJob` controller over every member `provider` announces: [`builder`] and
/// [`CronJobs`] unchanged, with `.fleet(provider)`.
pub fn fleet_controller(cache: &Cache, provider: impl Provider) -> FleetController {
    builder(cache).fleet(provider).build(CronJobs)
}

/// The `CronJob` reconciler (see the [module](self)).
#[derive(Debug, Clone, Copy, Default)]
pub struct CronJobs;

impl Reconciler<CronJob> for CronJobs {
    async fn reconcile(&self, cronjob: Arc<CronJob>, context: &Context) -> Result<Action, Error> {
        let name = cronjob.name_any();
        let namespace = cronjob.namespace().unwrap_or_default();
        let spec = cronjob.spec.clone();
        let every = every(&spec.schedule).ok_or_else(|| {
            Error::terminal(format!(
                "CronJob {namespace}/{name}: schedule {:?} is not @every <duration>",
                spec.schedule
            ))
        })?;
        let jobs_api: Api<Job> = Api::namespaced(context.client().clone(), &namespace);
        let selector = format!("{CRONJOB_LABEL}={name}");
        let mut jobs = jobs_api
            .list(&kube::api::ListParams::default().labels(&selector))
            .await?
            .items;
        jobs.sort_by_key(|job| job.metadata.creation_timestamp.clone().map(|t| t.0));

        // The status: the active Jobs and the last scheduled time.
        let (finished, active): (Vec<&Job>, Vec<&Job>) = jobs.iter().partition(|job| is_finished(job));
        let now = jiff::Timestamp::now();
        let last = cronjob
            .status
            .as_ref()
            .and_then(|status| status.last_schedule_time.clone())
            .or_else(|| cronjob.metadata.creation_timestamp.clone())
            .map_or(now, |time| time.0);
        let next = last + signed(every);
        let due = now >= next && !spec.suspend.unwrap_or(false);
        let forbid = spec.concurrency_policy.as_deref() == Some("Forbid") && !active.is_empty();
        let mut scheduled = last;
        let mut started = None;
        if due && !forbid {
            let job = job_for(&cronjob, next)?;
            match jobs_api.create(&PostParams::default(), &job).await {
                Ok(job) => started = Some(job),
                // Started by an earlier reconcile whose status write was lost.
                Err(kube::Error::Api(status)) if status.code == 409 => {}
                Err(error) => return Err(error.into()),
            }
            scheduled = next;
        }
        let mut references: Vec<ObjectReference> = active.iter().map(|job| reference(job)).collect();
        references.extend(started.as_ref().map(reference));
        let status = serde_json::json!({
            "active": references,
            "lastScheduleTime": Time(scheduled),
        });
        context.patch_status(&*cronjob, &status).await?;

        // History: the oldest finished Jobs beyond the limits go.
        let (succeeded, failed): (Vec<&Job>, Vec<&Job>) = finished.into_iter().partition(|job| succeeded(job));
        let keep_succeeded = usize::try_from(spec.successful_jobs_history_limit.unwrap_or(3)).unwrap_or(0);
        let keep_failed = usize::try_from(spec.failed_jobs_history_limit.unwrap_or(1)).unwrap_or(0);
        for job in oldest_beyond(&succeeded, keep_succeeded).chain(oldest_beyond(&failed, keep_failed)) {
            let params = DeleteParams {
                propagation_policy: Some(PropagationPolicy::Background),
                ..DeleteParams::default()
            };
            match jobs_api.delete(&job.name_any(), &params).await {
                Ok(_) => {}
                Err(kube::Error::Api(status)) if status.code == 404 => {}
                Err(error) => return Err(error.into()),
            }
        }
        let until_next = (scheduled + signed(every)).duration_since(jiff::Timestamp::now());
        let wait = Duration::try_from(until_next).unwrap_or(Duration::ZERO);
        Ok(Action::requeue_after(wait.max(Duration::from_millis(50))))
    }
}

/// The Job a `CronJob` starts for the run scheduled at `at`: its template, owned by the
/// `CronJob`, named after the run (so a second create of the same run is a conflict).
fn job_for(cronjob: &CronJob, at: jiff::Timestamp) -> Result<Job, Error> {
    let template = cronjob.spec.job_template.clone();
    let mut labels: BTreeMap<String, String> = template
        .metadata
        .as_ref()
        .and_then(|meta| meta.labels.clone())
        .unwrap_or_default();
    labels.insert(CRONJOB_LABEL.to_owned(), cronjob.name_any());
    let owner = controller_ref(cronjob).ok_or_else(|| Error::terminal("a CronJob without a name or uid"))?;
    let mut job = Job {
        spec: template.spec,
        ..Job::default()
    };
    job.metadata.name = Some(format!("{}-{}", cronjob.name_any(), at.as_second()));
    job.metadata.namespace = cronjob.namespace();
    job.metadata.labels = Some(labels);
    job.metadata.annotations = template.metadata.and_then(|meta| meta.annotations);
    job.metadata.owner_references = Some(vec![owner]);
    Ok(job)
}

fn reference(job: &Job) -> ObjectReference {
    ObjectReference {
        api_version: Some(Job::api_version(&()).into_owned()),
        kind: Some(Job::kind(&()).into_owned()),
        name: job.metadata.name.clone(),
        namespace: job.metadata.namespace.clone(),
        uid: job.metadata.uid.clone(),
        resource_version: job.metadata.resource_version.clone(),
        ..ObjectReference::default()
    }
}

fn condition(job: &Job, kind: &str) -> bool {
    job.status
        .as_ref()
        .and_then(|status| status.conditions.as_ref())
        .is_some_and(|conditions| conditions.iter().any(|c| c.type_ == kind && c.status == "True"))
}

fn is_finished(job: &Job) -> bool {
    condition(job, "Complete") || condition(job, "Failed")
}

fn succeeded(job: &Job) -> bool {
    condition(job, "Complete")
}

/// The oldest of `jobs` (sorted oldest first) beyond the newest `keep`.
fn oldest_beyond<'a>(jobs: &'a [&'a Job], keep: usize) -> impl Iterator<Item = &'a Job> + 'a {
    jobs.iter().take(jobs.len().saturating_sub(keep)).copied()
}

fn signed(duration: Duration) -> jiff::SignedDuration {
    jiff::SignedDuration::try_from(duration).unwrap_or(jiff::SignedDuration::MAX)
}

/// The interval of an `@every <duration>` schedule, in Go's duration syntax (a
/// sequence of numbers with units `h`, `m`, `s`, `ms`); None for anything else.
///
/// ```
/// use std::time::Duration;
/// use wheelhouse_examples::cronjob::every;
///
/// assert_eq!(every("@every 1s"), Some(Duration::from_secs(1)));
/// assert_eq!(every("@every 1m30s"), Some(Duration::from_secs(90)));
/// assert_eq!(every("@every 250ms"), Some(Duration::from_millis(250)));
/// assert_eq!(every("*/5 * * * *"), None);
/// assert_eq!(every("@every 5"), None);
/// assert_eq!(every("@every 0s"), None);
/// ```
pub fn every(schedule: &str) -> Option<Duration> {
    let mut rest = schedule.trim().strip_prefix("@every ")?.trim();
    let mut total = Duration::ZERO;
    while !rest.is_empty() {
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        let number: u64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let (unit, length) = [("ms", 2), ("h", 1), ("m", 1), ("s", 1)]
            .into_iter()
            .find(|(unit, _)| rest.starts_with(unit))?;
        total += match unit {
            "ms" => Duration::from_millis(number),
            "h" => Duration::from_secs(number.checked_mul(3600)?),
            "m" => Duration::from_secs(number.checked_mul(60)?),
            _ => Duration::from_secs(number),
        };
        rest = &rest[length..];
    }
    (!total.is_zero()).then_some(total)
}

/// A `CronJob` `name` on `schedule` whose Job runs one `busybox` container that exits
/// (a simulated kubelet completes it), keeping two finished Jobs.
///
/// # Panics
/// Never: the object is a literal.
pub fn cronjob(name: &str, schedule: &str) -> CronJob {
    serde_json::from_value(serde_json::json!({
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": {"name": name},
        "spec": {
            "schedule": schedule,
            "successfulJobsHistoryLimit": 2,
            "jobTemplate": {"spec": {"template": {"spec": {
                "restartPolicy": "Never",
                "containers": [{"name": "tick", "image": "busybox:1.36", "command": ["date"]}],
            }}}},
        },
    }))
    .expect("a literal CronJob")
}
