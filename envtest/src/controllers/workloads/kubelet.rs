//! The kubelet of the simulated Nodes (`pkg/kubelet/`: `kubelet.go` `SyncPod`,
//! `kubelet_pods.go` `generateAPIPodStatus` and `getPhase`, `status/generate.go` for
//! the pod conditions, `kuberuntime/kuberuntime_container.go` and
//! `images/image_manager.go` for the waiting reasons and the crash-loop back-off):
//! `pod_start_delay` after a pod is bound to a simulated Node its containers run, and
//! the pod reports what they do (its [`PodBehaviour`]): phase, `Initialized`,
//! `ContainersReady` and `Ready` conditions, container statuses, `podIP`, `hostIP`
//! and `startTime`. A pod being deleted stops within its grace period (at most
//! `pod_start_delay`) and is then removed, as the kubelet confirms a deletion.
//!
//! Every status is a function of the time since the containers started, so a sync
//! writes nothing when nothing is due, and the next change comes back as a timer.
//! Not imitated: probes (readiness is the behaviour's), resources, volumes, init
//! containers beyond reporting them completed, ephemeral containers.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Duration;

use jiff::{SignedDuration, Timestamp};
use k8s_openapi::api::core::v1::{Container, PodSpec};
use serde_json::{Map, Value, json};
use tokio::time::Instant;

use super::cluster::Cluster;
use super::fields::{condition, is_deleting, name_of, namespace_of, typed, uid_of};
use super::nodes::{KUBELET, is_simulated, node_ip, number_of, pod_ip};
use super::pods::is_finished;
use super::{Key, Kind};
use crate::options::{BEHAVIOUR_ANNOTATION, PodBehaviour};

/// The kubelet's restart back-off: 10 s, doubling, at most 5 minutes
/// (`kubecontainer.MaxContainerBackOff`).
fn back_off(restarts: u32) -> Duration {
    Duration::from_secs(10u64.saturating_mul(1 << restarts.min(5)).min(300))
}

/// What the kubelet remembers of a pod it runs.
struct Running {
    /// When the containers start (the pod was bound `pod_start_delay` before).
    start: Instant,
    /// The same moment on the wall clock, for the timestamps in the status.
    start_wall: Timestamp,
    /// When the kubelet first saw the pod (`status.startTime`).
    seen_wall: Timestamp,
    ip: String,
}

/// The pods the simulated kubelets run, by uid, and the pod addresses each Node gave out.
#[derive(Default)]
pub(super) struct Kubelet {
    pods: HashMap<String, Running>,
    /// When each pod being deleted is stopped, by uid.
    stopping: HashMap<String, Instant>,
    next_ip: HashMap<usize, u32>,
}

impl Kubelet {
    /// Forgets a pod that is gone.
    pub fn forget(&mut self, pod: &Value) {
        self.pods.remove(uid_of(pod));
        self.stopping.remove(uid_of(pod));
    }

    /// Brings the status of the pod of `key` up to date, if a simulated Node runs it.
    pub fn sync(&mut self, cluster: &mut Cluster<'_>, key: &Key) {
        let Some(pod) = cluster.get_key(key) else {
            return;
        };
        let node = pod["spec"]["nodeName"].as_str().unwrap_or_default().to_owned();
        if node.is_empty() || !is_simulated(cluster, &node) {
            return;
        }
        let uid = uid_of(&pod).to_owned();
        if is_deleting(&pod) {
            self.stop(cluster, key, &pod);
            return;
        }
        if is_finished(&pod) && !self.pods.contains_key(&uid) {
            return;
        }
        let now = cluster.now;
        let delay = cluster.options.pod_start_delay;
        let next_ip = &mut self.next_ip;
        let running = self.pods.entry(uid).or_insert_with(|| {
            let number = number_of(&node).unwrap_or(0);
            let index = next_ip.entry(number).or_insert(0);
            *index += 1;
            Running {
                start: now + delay,
                start_wall: Timestamp::now() + delay,
                seen_wall: Timestamp::now(),
                ip: pod_ip(number, *index),
            }
        });
        let (status, next) = pod_status(cluster, &pod, running, &node);
        record_events(cluster, &pod, &status, &node);
        cluster.write_status(Kind::Pod, &pod, status, KUBELET);
        if let Some(at) = next {
            cluster.requeue_at(key.clone(), at);
        }
    }

    /// Stops a pod being deleted: within its grace period, at most `pod_start_delay`,
    /// it is removed for good.
    fn stop(&mut self, cluster: &mut Cluster<'_>, key: &Key, pod: &Value) {
        let grace = pod["metadata"]["deletionGracePeriodSeconds"]
            .as_i64()
            .unwrap_or(0)
            .max(0);
        let delay = cluster
            .options
            .pod_start_delay
            .min(Duration::from_secs(grace.unsigned_abs()));
        let now = cluster.now;
        let at = *self.stopping.entry(uid_of(pod).to_owned()).or_insert(now + delay);
        if at > now {
            cluster.requeue_at(key.clone(), at);
            return;
        }
        if cluster
            .delete(Kind::Pod, namespace_of(pod), name_of(pod), Some(0))
            .is_some()
        {
            self.forget(pod);
        }
    }
}

fn format(time: Timestamp) -> String {
    time.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// One container's status at a moment, and when it next changes (after the start).
struct ContainerStatus {
    status: Value,
    ready: bool,
    /// Runs, or waits to be restarted after it ran (Go's getPhase counts it stopped).
    running_or_restarting: bool,
    /// Has terminated for good, with this exit code.
    exited: Option<i64>,
    next: Option<Duration>,
}

/// A container that has exited for good with `code`.
fn exited(status: Value, code: i64) -> ContainerStatus {
    ContainerStatus {
        status,
        ready: false,
        running_or_restarting: false,
        exited: Some(code),
        next: None,
    }
}

/// Where a container is `elapsed` after its pod's containers started.
struct Moment<'a> {
    name: &'a str,
    image: &'a str,
    behaviour: PodBehaviour,
    restarts_on_failure: bool,
    restarts_always: bool,
    elapsed: Duration,
    start_wall: Timestamp,
    run_time: Duration,
    pull_time: Duration,
    pod: &'a Value,
}

impl Moment<'_> {
    fn at(&self, offset: Duration) -> String {
        format(self.start_wall + SignedDuration::try_from(offset).unwrap_or_default())
    }

    fn container_id(&self, restarts: u32) -> String {
        let mut hasher = DefaultHasher::new();
        (uid_of(self.pod), self.name, restarts).hash(&mut hasher);
        format!("containerd://{:016x}{:048x}", hasher.finish(), restarts)
    }

    fn image_id(&self) -> String {
        let mut hasher = DefaultHasher::new();
        self.image.hash(&mut hasher);
        let repository = self.image.split(['@', ':']).next().unwrap_or_default();
        format!("{repository}@sha256:{:064x}", hasher.finish())
    }

    fn status(&self, state: &Value, last: &Value, ready: bool, restarts: u32, started: bool) -> Value {
        let pulled = self.behaviour != PodBehaviour::ImagePullError;
        json!({
            "name": self.name,
            "state": state,
            "lastState": last,
            "ready": ready,
            "restartCount": restarts,
            "image": self.image,
            "imageID": if pulled { self.image_id() } else { String::new() },
            "containerID": if pulled { json!(self.container_id(restarts)) } else { Value::Null },
            "started": started,
        })
    }

    fn running(&self, since: Duration) -> Value {
        json!({"running": {"startedAt": self.at(since)}})
    }

    fn terminated(&self, code: i64, started: Duration, finished: Duration, restarts: u32) -> Value {
        json!({"terminated": {
            "exitCode": code, "reason": if code == 0 { "Completed" } else { "Error" },
            "startedAt": self.at(started), "finishedAt": self.at(finished),
            "containerID": self.container_id(restarts),
        }})
    }

    fn crash_loop(&self, restarts: u32) -> Value {
        let message = format!(
            "back-off {}s restarting failed container={} pod={}_{}({})",
            back_off(restarts).as_secs(),
            self.name,
            name_of(self.pod),
            namespace_of(self.pod),
            uid_of(self.pod)
        );
        json!({"waiting": {"reason": "CrashLoopBackOff", "message": message}})
    }

    /// The container's status: see [`PodBehaviour`] for what each behaviour does.
    fn compute(&self) -> ContainerStatus {
        let t = self.elapsed;
        match self.behaviour {
            PodBehaviour::NeverReady | PodBehaviour::Healthy
                if self.restarts_always || self.behaviour == PodBehaviour::NeverReady =>
            {
                let ready = self.behaviour == PodBehaviour::Healthy;
                ContainerStatus {
                    status: self.status(&self.running(Duration::ZERO), &json!({}), ready, 0, true),
                    ready,
                    running_or_restarting: true,
                    exited: None,
                    next: None,
                }
            }
            PodBehaviour::Healthy | PodBehaviour::NeverReady => {
                if t < self.run_time {
                    return self.running_for(self.run_time);
                }
                let state = self.terminated(0, Duration::ZERO, self.run_time, 0);
                exited(self.status(&state, &json!({}), false, 0, false), 0)
            }
            PodBehaviour::ImagePullError => {
                let (reason, message) = if t < self.pull_time {
                    (
                        "ErrImagePull",
                        format!(
                            "rpc error: code = NotFound desc = failed to pull and unpack image \"{}\": not found",
                            self.image
                        ),
                    )
                } else {
                    ("ImagePullBackOff", format!("Back-off pulling image \"{}\"", self.image))
                };
                ContainerStatus {
                    status: self.status(
                        &json!({"waiting": {"reason": reason, "message": message}}),
                        &json!({}),
                        false,
                        0,
                        false,
                    ),
                    ready: false,
                    running_or_restarting: false,
                    exited: None,
                    next: (t < self.pull_time).then_some(self.pull_time),
                }
            }
            PodBehaviour::CrashLoop | PodBehaviour::Fail => self.failing(),
        }
    }

    /// A container that exits with code 1: once, or again and again with the
    /// crash-loop back-off between runs when its pod restarts it.
    fn failing(&self) -> ContainerStatus {
        let t = self.elapsed;
        // Each run lasts `run` (0 for a crash loop), then the container waits
        // out the back-off before the next run.
        let run = if self.behaviour == PodBehaviour::Fail {
            self.run_time
        } else {
            Duration::ZERO
        };
        if !self.restarts_on_failure {
            if t < run {
                return self.running_for(run);
            }
            let state = self.terminated(1, Duration::ZERO, run, 0);
            return exited(self.status(&state, &json!({}), false, 0, false), 1);
        }
        let mut restarts = 0;
        let mut began = Duration::ZERO;
        while began + run + back_off(restarts) <= t && restarts < 1000 {
            began += run + back_off(restarts);
            restarts += 1;
        }
        let last = if restarts == 0 {
            json!({})
        } else {
            let previous = began.saturating_sub(back_off(restarts - 1) + run);
            self.terminated(1, previous, previous + run, restarts - 1)
        };
        if t < began + run {
            return ContainerStatus {
                status: self.status(&self.running(began), &last, true, restarts, true),
                ready: true,
                running_or_restarting: true,
                exited: None,
                next: Some(began + run),
            };
        }
        let last = self.terminated(1, began, began + run, restarts);
        ContainerStatus {
            status: self.status(&self.crash_loop(restarts), &last, false, restarts, false),
            ready: false,
            running_or_restarting: true,
            exited: None,
            next: Some(began + run + back_off(restarts)),
        }
    }

    /// Running and ready until `until`.
    fn running_for(&self, until: Duration) -> ContainerStatus {
        ContainerStatus {
            status: self.status(&self.running(Duration::ZERO), &json!({}), true, 0, true),
            ready: true,
            running_or_restarting: true,
            exited: None,
            next: Some(until),
        }
    }
}

/// The status the kubelet reports for `pod` now, and when it next changes.
fn pod_status(cluster: &Cluster<'_>, pod: &Value, running: &Running, node: &str) -> (Value, Option<Instant>) {
    let now = cluster.now;
    let options = cluster.options;
    let spec: PodSpec = typed(&pod["spec"]).unwrap_or_default();
    let policy = spec.restart_policy.as_deref().unwrap_or("Always");
    let annotation = pod["metadata"]["annotations"][BEHAVIOUR_ANNOTATION].as_str();
    let containers = &spec.containers;
    let started = now >= running.start;
    let mut statuses = Vec::new();
    let mut next: Option<Instant> = (!started).then_some(running.start);
    let (mut all_ready, mut waiting, mut active) = (!containers.is_empty(), 0, 0);
    let (mut exited, mut succeeded) = (0, 0);
    let mut unready = Vec::new();
    for container in containers {
        let name = container.name.as_str();
        let image = container.image.as_deref().unwrap_or_default();
        let computed = if started {
            let moment = Moment {
                name,
                image,
                behaviour: options.behaviour(image, annotation),
                restarts_on_failure: policy != "Never",
                restarts_always: policy == "Always",
                elapsed: now - running.start,
                start_wall: running.start_wall,
                run_time: options.run_time,
                pull_time: options.pod_start_delay.max(Duration::from_secs(1)),
                pod,
            };
            moment.compute()
        } else {
            ContainerStatus {
                status: json!({
                    "name": name, "state": {"waiting": {"reason": "ContainerCreating"}}, "lastState": {},
                    "ready": false, "restartCount": 0, "image": image, "imageID": "", "started": false,
                }),
                ready: false,
                running_or_restarting: false,
                exited: None,
                next: None,
            }
        };
        if let Some(after) = computed.next {
            let at = running.start + after;
            next = Some(next.map_or(at, |n| n.min(at)));
        }
        if !computed.ready {
            all_ready = false;
            unready.push(name);
        }
        match computed.exited {
            Some(code) => {
                exited += 1;
                succeeded += usize::from(code == 0);
            }
            None if computed.running_or_restarting => active += 1,
            None => waiting += 1,
        }
        statuses.push(computed.status);
    }
    // `getPhase`.
    let phase = if waiting > 0 || !started {
        "Pending"
    } else if active > 0 {
        "Running"
    } else if exited > 0 && exited == succeeded {
        "Succeeded"
    } else if exited > 0 {
        "Failed"
    } else {
        "Pending"
    };
    let mut status = Map::new();
    status.insert("phase".into(), json!(phase));
    status.insert(
        "conditions".into(),
        conditions(pod, phase, all_ready && phase == "Running", &unready),
    );
    let number = number_of(node).unwrap_or(0);
    status.insert("hostIP".into(), json!(node_ip(number)));
    status.insert("hostIPs".into(), json!([{"ip": node_ip(number)}]));
    status.insert("podIP".into(), json!(running.ip));
    status.insert("podIPs".into(), json!([{"ip": running.ip}]));
    status.insert("startTime".into(), json!(format(running.seen_wall)));
    let init = init_statuses(&spec, running.start_wall);
    if !init.is_empty() {
        status.insert("initContainerStatuses".into(), Value::Array(init));
    }
    status.insert("containerStatuses".into(), Value::Array(statuses));
    status.insert("qosClass".into(), json!(qos_class(containers)));
    (Value::Object(status), next)
}

/// Init containers, reported completed as the pod's containers start.
fn init_statuses(spec: &PodSpec, start_wall: Timestamp) -> Vec<Value> {
    spec.init_containers
        .iter()
        .flatten()
        .map(|container| {
            let at = format(start_wall);
            json!({
                "name": container.name, "image": container.image, "imageID": "", "ready": true,
                "restartCount": 0, "started": false, "lastState": {},
                "state": {"terminated": {"exitCode": 0, "reason": "Completed", "startedAt": at, "finishedAt": at}},
            })
        })
        .collect()
}

/// The pod conditions (`status/generate.go`), each keeping its `lastTransitionTime`
/// while its status stays; conditions the kubelet does not own (`PodScheduled`,
/// readiness gates) are kept as they are.
fn conditions(pod: &Value, phase: &str, ready: bool, unready: &[&str]) -> Value {
    let previous = &pod["status"]["conditions"];
    let (reason, message) = if ready {
        (None, None)
    } else if phase == "Succeeded" {
        (Some("PodCompleted"), None)
    } else {
        (
            Some("ContainersNotReady"),
            Some(format!("containers with unready status: [{}]", unready.join(" "))),
        )
    };
    let make = |kind: &str, value: bool, reason: Option<&str>, message: Option<&String>| {
        let status = if value { "True" } else { "False" };
        let transition = condition(previous, kind).filter(|c| c["status"] == status).map_or_else(
            || json!(super::fields::timestamp()),
            |c| c["lastTransitionTime"].clone(),
        );
        let mut condition =
            json!({"type": kind, "status": status, "lastProbeTime": null, "lastTransitionTime": transition});
        if let Some(reason) = reason {
            condition["reason"] = json!(reason);
        }
        if let Some(message) = message {
            condition["message"] = json!(message);
        }
        condition
    };
    let initialized_reason = (phase == "Succeeded").then_some("PodCompleted");
    let mut conditions = vec![
        make("Initialized", true, initialized_reason, None),
        make("Ready", ready, reason, message.as_ref()),
        make("ContainersReady", ready, reason, message.as_ref()),
    ];
    let owned = ["Initialized", "Ready", "ContainersReady"];
    conditions.extend(
        previous
            .as_array()
            .into_iter()
            .flatten()
            .filter(|c| !owned.iter().any(|kind| c["type"] == *kind))
            .cloned(),
    );
    Value::Array(conditions)
}

/// `GetPodQOS`: `Guaranteed` when every container limits cpu and memory to what it
/// requests, `BestEffort` when none asks for anything, else `Burstable`.
fn qos_class(containers: &[Container]) -> &'static str {
    let resources = |c: &Container, limits: bool| {
        let resources = c.resources.as_ref()?;
        let amounts = if limits { &resources.limits } else { &resources.requests };
        amounts.clone().filter(|m| !m.is_empty())
    };
    if containers
        .iter()
        .all(|c| resources(c, false).is_none() && resources(c, true).is_none())
    {
        return "BestEffort";
    }
    let guaranteed = containers.iter().all(|c| {
        let limits = resources(c, true).unwrap_or_default();
        let requests = resources(c, false).unwrap_or_else(|| limits.clone());
        ["cpu", "memory"]
            .iter()
            .all(|kind| limits.contains_key(*kind) && limits.get(*kind) == requests.get(*kind))
    });
    if guaranteed { "Guaranteed" } else { "Burstable" }
}

/// The Events a kubelet records as a container's state changes: a start, a failed
/// pull and its back-off, a crash-loop back-off.
fn record_events(cluster: &mut Cluster<'_>, pod: &Value, status: &Value, node: &str) {
    // The statuses before, by container name: found once each, not by a scan per
    // container (a pod may have thousands).
    let before: std::collections::HashMap<&str, &Value> = pod["status"]["containerStatuses"]
        .as_array()
        .into_iter()
        .flatten()
        .rev()
        .map(|c| (c["name"].as_str().unwrap_or_default(), c))
        .collect();
    for container in status["containerStatuses"].as_array().into_iter().flatten() {
        let name = container["name"].as_str().unwrap_or_default();
        let old = before.get(name).copied().unwrap_or(&Value::Null);
        let image = container["image"].as_str().unwrap_or_default();
        let reason = |c: &Value| c["state"]["waiting"]["reason"].as_str().map(str::to_owned);
        let restarted = old["restartCount"] != container["restartCount"];
        let mut events: Vec<(bool, &str, String)> = Vec::new();
        if container["state"]["running"].is_object() && (old["state"]["running"].is_null() || restarted) {
            events.push((false, "Started", format!("Started container {name}")));
        }
        match reason(container).as_deref() {
            Some("ErrImagePull") if reason(old).as_deref() != Some("ErrImagePull") => {
                let detail = container["state"]["waiting"]["message"].as_str().unwrap_or_default();
                events.push((true, "Failed", format!("Failed to pull image \"{image}\": {detail}")));
                events.push((true, "Failed", "Error: ErrImagePull".to_owned()));
            }
            Some("ImagePullBackOff") if reason(old).as_deref() != Some("ImagePullBackOff") => {
                events.push((false, "BackOff", format!("Back-off pulling image \"{image}\"")));
                events.push((true, "Failed", "Error: ImagePullBackOff".to_owned()));
            }
            Some("CrashLoopBackOff") if reason(old).as_deref() != Some("CrashLoopBackOff") || restarted => {
                let message = format!(
                    "Back-off restarting failed container {name} in pod {}_{}({})",
                    name_of(pod),
                    namespace_of(pod),
                    uid_of(pod)
                );
                events.push((true, "BackOff", message));
            }
            _ => {}
        }
        for (warning, reason, message) in events {
            cluster.event_from(pod, warning, reason, &message, KUBELET, Some(node));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moment(behaviour: PodBehaviour, always: bool, elapsed: Duration) -> ContainerStatus {
        let pod = json!({"metadata": {"name": "p", "namespace": "n", "uid": "u"}});
        Moment {
            name: "app",
            image: "nginx:1.27",
            behaviour,
            restarts_on_failure: always,
            restarts_always: always,
            elapsed,
            start_wall: Timestamp::UNIX_EPOCH,
            run_time: Duration::from_secs(1),
            pull_time: Duration::from_secs(1),
            pod: &pod,
        }
        .compute()
    }

    #[test]
    fn containers_follow_their_behaviour() {
        let healthy = moment(PodBehaviour::Healthy, true, Duration::ZERO);
        assert!(healthy.ready && healthy.next.is_none());
        let job = moment(PodBehaviour::Healthy, false, Duration::from_secs(2));
        assert_eq!(job.exited, Some(0));
        assert_eq!(job.status["state"]["terminated"]["reason"], "Completed");
        let never = moment(PodBehaviour::NeverReady, true, Duration::from_secs(100));
        assert!(!never.ready && never.running_or_restarting);
        let pull = moment(PodBehaviour::ImagePullError, true, Duration::ZERO);
        assert_eq!(pull.status["state"]["waiting"]["reason"], "ErrImagePull");
        let pull = moment(PodBehaviour::ImagePullError, true, Duration::from_secs(5));
        assert_eq!(pull.status["state"]["waiting"]["reason"], "ImagePullBackOff");
        let crash = moment(PodBehaviour::CrashLoop, true, Duration::from_secs(35));
        // Back-offs of 10 and 20 s have passed: two restarts.
        assert_eq!(crash.status["restartCount"], 2);
        assert_eq!(crash.status["state"]["waiting"]["reason"], "CrashLoopBackOff");
        assert_eq!(crash.status["lastState"]["terminated"]["exitCode"], 1);
        let failed = moment(PodBehaviour::Fail, false, Duration::from_secs(2));
        assert_eq!(failed.exited, Some(1));
    }

    #[test]
    fn back_off_doubles_up_to_five_minutes() {
        assert_eq!(back_off(0), Duration::from_secs(10));
        assert_eq!(back_off(3), Duration::from_secs(80));
        assert_eq!(back_off(40), Duration::from_mins(5));
    }
}
