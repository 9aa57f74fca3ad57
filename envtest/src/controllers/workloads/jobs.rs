//! The job controller (`pkg/controller/job/job_controller.go`: `syncJob`, `manageJob`,
//! `pastBackoffLimitOnFailure`, `pastActiveDeadline`): a Job keeps `parallelism` pods
//! running until `completions` of them succeed, counts succeeded and failed pods, and
//! ends with a `Complete` condition, or `Failed` once more pods failed than
//! `backoffLimit` allows (or it outlived `activeDeadlineSeconds`). As 1.32's
//! controller, it says `SuccessCriteriaMet` before `Complete` and `FailureTarget`
//! before `Failed` (the Job status validation refuses a finished Job without them);
//! here both come in one status write.
//!
//! Not imitated: the back-off before a failed pod is replaced (it is replaced at
//! once), the wait for a failed Job's pods to terminate before `Failed`, `Indexed`
//! completion, and pod failure and success policies; `status.ready` (1.24+) is
//! written, `terminating` and `uncountedTerminatedPods` are not.

use std::time::Duration;

use k8s_openapi::api::batch::v1::{JobSpec, JobStatus};
use serde_json::{Map, Value, json};

use super::cluster::{CONTROLLER_MANAGER, Cluster};
use super::fields::{int, is_deleting, name_of, seconds_since, set_count, timestamp, typed};
use super::pods::{deletion_order, from_template, is_active, is_ready, phase};
use super::{Key, Kind};

const COMPONENT: &str = "job-controller";

/// Whether a Job has its `Complete` or `Failed` condition (`IsJobFinished`).
fn is_finished(status: &JobStatus) -> bool {
    let conditions = status.conditions.as_deref().unwrap_or_default();
    ["Complete", "Failed"].iter().any(|kind| {
        conditions
            .iter()
            .find(|c| c.type_ == *kind)
            .is_some_and(|c| c.status == "True")
    })
}

/// What the controller reads of a Job, typed; it writes the status as JSON.
fn read(job: &Value) -> (JobSpec, JobStatus) {
    (
        typed(&job["spec"]).unwrap_or_default(),
        typed(&job["status"]).unwrap_or_default(),
    )
}

pub(super) fn sync(cluster: &mut Cluster<'_>, key: &Key) {
    let Some(job) = cluster.get_key(key) else {
        return;
    };
    let (spec, observed) = read(&job);
    if is_finished(&observed) {
        return;
    }
    let pods = cluster.children(&job, Kind::Pod);
    let active: Vec<_> = pods.iter().filter(|pod| is_active(pod)).cloned().collect();
    let count = |wanted: &str| i64::try_from(pods.iter().filter(|pod| phase(pod) == wanted).count()).unwrap_or(0);
    let (succeeded, mut failed) = (count("Succeeded"), count("Failed"));
    let mut active_count = i64::try_from(active.len()).unwrap_or(0);
    let mut status: Map<String, Value> = job["status"].as_object().cloned().unwrap_or_default();
    let conditions_before = status.get("conditions").and_then(Value::as_array).map_or(0, Vec::len);
    if !status.contains_key("startTime") {
        status.insert("startTime".into(), json!(timestamp()));
        if let Some(deadline) = spec.active_deadline_seconds {
            let at = cluster.now + Duration::from_secs(deadline.unsigned_abs());
            cluster.requeue_at(key.clone(), at);
        }
    }
    let backoff_limit = i64::from(spec.backoff_limit.unwrap_or(6));
    let failure = if failed > backoff_limit || past_backoff_limit_on_failure(&spec, &pods, backoff_limit) {
        Some(("BackoffLimitExceeded", "Job has reached the specified backoff limit"))
    } else if past_active_deadline(&spec, &status) {
        Some(("DeadlineExceeded", "Job was active longer than specified deadline"))
    } else {
        None
    };
    if let Some((reason, message)) = failure {
        for pod in &active {
            delete_pod(cluster, &job, pod);
        }
        failed += active_count;
        active_count = 0;
        push_condition(&mut status, "FailureTarget", reason, message);
        push_condition(&mut status, "Failed", reason, message);
        cluster.event(&job, true, reason, message, COMPONENT);
    } else {
        if !is_deleting(&job) {
            active_count = manage(cluster, &job, &spec, &active, succeeded);
        }
        let complete = match spec.completions {
            None => succeeded > 0 && active_count == 0,
            Some(completions) => succeeded >= i64::from(completions),
        };
        if complete {
            let (reason, message) = ("CompletionsReached", "Reached expected number of succeeded pods");
            push_condition(&mut status, "SuccessCriteriaMet", reason, message);
            push_condition(&mut status, "Complete", reason, message);
            status.insert("completionTime".into(), json!(timestamp()));
            cluster.event(&job, false, "Completed", "Job completed", COMPONENT);
        }
    }
    let conditions_after = status.get("conditions").and_then(Value::as_array).map_or(0, Vec::len);
    // A finished Job has no active pods, so none ready (the status validation refuses
    // more ready pods than active ones).
    let ready = if active_count == 0 {
        0
    } else {
        active.iter().filter(|pod| is_ready(pod) && !is_deleting(pod)).count()
    };
    let observed_count = |count: Option<i32>| i64::from(count.unwrap_or(0));
    let changed = observed_count(observed.active) != active_count
        || observed_count(observed.succeeded) != succeeded
        || observed_count(observed.failed) != failed
        || observed_count(observed.ready) != i64::try_from(ready).unwrap_or(0)
        || conditions_before != conditions_after
        || observed.start_time.is_none();
    if changed {
        set_count(&mut status, "active", active_count);
        set_count(&mut status, "succeeded", succeeded);
        set_count(&mut status, "failed", failed);
        status.insert("ready".into(), json!(ready));
        cluster.write_status(Kind::Job, &job, Value::Object(status), CONTROLLER_MANAGER);
    }
}

/// `manageJob`: deletes pods beyond `parallelism`, or creates as many as are still
/// wanted; the number active after.
fn manage(
    cluster: &mut Cluster<'_>,
    job: &Value,
    spec: &JobSpec,
    active: &[std::sync::Arc<Value>],
    succeeded: i64,
) -> i64 {
    let parallelism = if spec.suspend == Some(true) {
        0
    } else {
        i64::from(spec.parallelism.unwrap_or(1))
    };
    let mut active_count = i64::try_from(active.len()).unwrap_or(0);
    if active_count > parallelism {
        let mut ranked: Vec<(&Value, usize)> = active.iter().map(|pod| (pod.as_ref(), 0)).collect();
        ranked.sort_by(deletion_order);
        let excess = usize::try_from(active_count - parallelism).unwrap_or(0);
        for (pod, _) in ranked.into_iter().take(excess) {
            delete_pod(cluster, job, pod);
            active_count -= 1;
        }
        return active_count;
    }
    let wanted = match spec.completions {
        None if succeeded > 0 => active_count,
        None => parallelism,
        Some(completions) => (i64::from(completions) - succeeded).min(parallelism),
    };
    let namespace = job["metadata"]["namespace"].as_str().unwrap_or_default().to_owned();
    let missing = (wanted - active_count).max(0);
    for _ in 0..missing {
        let pod = from_template(&job["spec"]["template"], job);
        match cluster.create(Kind::Pod, &namespace, pod, CONTROLLER_MANAGER) {
            Ok(created) => {
                active_count += 1;
                let message = format!("Created pod: {}", name_of(&created));
                cluster.event(job, false, "SuccessfulCreate", &message, COMPONENT);
            }
            Err(error) => {
                let message = format!("Error creating: {}", error.message);
                cluster.event(job, true, "FailedCreate", &message, COMPONENT);
                break;
            }
        }
    }
    active_count
}

fn delete_pod(cluster: &mut Cluster<'_>, job: &Value, pod: &Value) {
    let namespace = pod["metadata"]["namespace"].as_str().unwrap_or_default().to_owned();
    let name = name_of(pod).to_owned();
    if cluster.delete(Kind::Pod, &namespace, &name, None).is_some() {
        let message = format!("Deleted pod: {name}");
        cluster.event(job, false, "SuccessfulDelete", &message, COMPONENT);
    }
}

/// `pastBackoffLimitOnFailure`: with `restartPolicy: OnFailure` failures are restarts
/// of the pods' containers, and they count against the limit.
fn past_backoff_limit_on_failure(spec: &JobSpec, pods: &[std::sync::Arc<Value>], limit: i64) -> bool {
    let restart_policy = spec
        .template
        .spec
        .as_ref()
        .and_then(|pod| pod.restart_policy.as_deref());
    if restart_policy != Some("OnFailure") {
        return false;
    }
    let restarts: i64 = pods
        .iter()
        .filter(|pod| matches!(phase(pod), "Running" | "Pending"))
        .flat_map(|pod| {
            ["initContainerStatuses", "containerStatuses"]
                .into_iter()
                .flat_map(|list| pod["status"][list].as_array().cloned().unwrap_or_default())
        })
        .map(|status| int(&status["restartCount"], 0))
        .sum();
    if limit == 0 { restarts > 0 } else { restarts >= limit }
}

/// `pastActiveDeadline`.
fn past_active_deadline(spec: &JobSpec, status: &Map<String, Value>) -> bool {
    let Some(deadline) = spec.active_deadline_seconds else {
        return false;
    };
    status
        .get("startTime")
        .and_then(seconds_since)
        .is_some_and(|running| running >= deadline)
}

/// Appends a `True` condition (`newCondition`); empty reason and message are left out.
fn push_condition(status: &mut Map<String, Value>, kind: &str, reason: &str, message: &str) {
    let now = timestamp();
    let mut condition = json!({"type": kind, "status": "True", "lastProbeTime": now, "lastTransitionTime": now});
    if !reason.is_empty() {
        condition["reason"] = json!(reason);
    }
    if !message.is_empty() {
        condition["message"] = json!(message);
    }
    let conditions = status.entry("conditions").or_insert_with(|| json!([]));
    if let Some(list) = conditions.as_array_mut() {
        list.push(condition);
    }
}
