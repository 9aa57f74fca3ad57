//! The statefulset controller (`pkg/controller/statefulset/stateful_set_control.go`:
//! `UpdateStatefulSet`, `updateStatefulSet`; `stateful_set_utils.go`;
//! `stateful_pod_control.go`): pods named `<set>-<ordinal>`, created in order, each
//! only once the ones before it are Running and Ready (`OrderedReady`; all at once with
//! `Parallel`), removed from the highest ordinal down, each with its claims from
//! `volumeClaimTemplates`; a template change becomes a ControllerRevision and the pods
//! are replaced from the highest ordinal down to the partition.

use std::ops::ControlFlow;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::cluster::{CONTROLLER_MANAGER, Cluster};
use super::fields::{controller_uid, generation, int, is_deleting, name_of, set_count};
use super::history::{Revisions, Style, sync_revisions, truncate_history};
use super::pods::{from_template, is_available, is_ready, phase};
use super::{Key, Kind};

const COMPONENT: &str = "statefulset-controller";
/// The label naming a pod's revision (`StatefulSetRevisionLabel`).
pub(super) const REVISION_LABEL: &str = "controller-revision-hash";

/// The ordinal at the end of a pod's name, if it is `<set>-<ordinal>`.
fn ordinal(set: &str, pod: &Value) -> Option<usize> {
    name_of(pod).strip_prefix(set)?.strip_prefix('-')?.parse().ok()
}

fn revision_of(pod: &Value) -> &str {
    pod["metadata"]["labels"][REVISION_LABEL].as_str().unwrap_or_default()
}

fn running_and_ready(pod: &Value) -> bool {
    phase(pod) == "Running" && is_ready(pod)
}

fn healthy(pod: &Value) -> bool {
    running_and_ready(pod) && !is_deleting(pod)
}

pub(super) fn sync(cluster: &mut Cluster<'_>, key: &Key) {
    let Some(set) = cluster.get_key(key) else {
        return;
    };
    let current_name = set["status"]["currentRevision"].as_str().map(str::to_owned);
    let Some(revisions) = sync_revisions(cluster, &set, current_name.as_deref(), Style::StatefulSet) else {
        return;
    };
    let pods = cluster.children(&set, Kind::Pod);
    let mut status = Value::Object(update_set(cluster, &set, &revisions, pods));
    // `completeRollingUpdate`.
    if set["spec"]["updateStrategy"]["type"] == "RollingUpdate"
        && int(&status["updatedReplicas"], 0) == int(&status["replicas"], 0)
        && int(&status["readyReplicas"], 0) == int(&status["replicas"], 0)
    {
        status["currentReplicas"] = status["updatedReplicas"].clone();
        status["currentRevision"] = status["updateRevision"].clone();
    }
    let status = finish_status(&set, status.as_object().cloned().unwrap_or_default());
    let written = cluster.write_status(Kind::StatefulSet, &set, status, CONTROLLER_MANAGER);
    let set = written.unwrap_or(set);
    let mut live: Vec<String> = vec![
        name_of(&revisions.current).to_owned(),
        name_of(&revisions.update).to_owned(),
    ];
    live.extend(
        cluster
            .children(&set, Kind::Pod)
            .iter()
            .map(|pod| revision_of(pod).to_owned()),
    );
    truncate_history(cluster, &set, &live, int(&set["spec"]["revisionHistoryLimit"], 10));
}

/// One pass of `updateStatefulSet` over a set's pods, in the real controller's order:
/// the pods are sorted into replicas and condemned ones and counted
/// ([`Pass::observe`]), then, unless the set is being deleted, missing and failed
/// replicas are created in ordinal order ([`Pass::create_replicas`]), condemned pods
/// removed from the highest ordinal down ([`Pass::remove_condemned`]) and, with
/// `RollingUpdate`, pods of an old revision replaced from the highest ordinal down to
/// the partition ([`Pass::roll_out`]). Under `OrderedReady` a step ends the pass when it
/// acts or has a pod to wait for; the counts are reported wherever the pass ended.
fn update_set(
    cluster: &mut Cluster<'_>,
    set: &Arc<Value>,
    revisions: &Revisions,
    pods: Vec<Arc<Value>>,
) -> Map<String, Value> {
    let mut pass = Pass::observe(set, revisions, pods);
    if !is_deleting(set) {
        let _ended = pass.act(cluster);
    }
    pass.report()
}

/// What one pass knows of a set: its revisions, its pods by ordinal and the counts
/// it will report, kept current as the pass creates and deletes pods.
struct Pass<'a> {
    set: &'a Arc<Value>,
    revisions: &'a Revisions,
    set_name: String,
    /// The names of the current and the update revision.
    current: String,
    update: String,
    /// `OrderedReady` (the default): one pod at a time, each waiting for the ones before.
    monotonic: bool,
    counts: Counts,
    /// The pod of each ordinal below `spec.replicas`, if there is one.
    replicas: Vec<Option<Arc<Value>>>,
    /// The pods at or above `spec.replicas`, by ordinal.
    condemned: Vec<(usize, Arc<Value>)>,
}

impl<'a> Pass<'a> {
    /// Counts the set's pods and sorts them into replicas and condemned pods.
    fn observe(set: &'a Arc<Value>, revisions: &'a Revisions, pods: Vec<Arc<Value>>) -> Self {
        let set_name = name_of(set).to_owned();
        let current = name_of(&revisions.current).to_owned();
        let update = name_of(&revisions.update).to_owned();
        let wanted = usize::try_from(int(&set["spec"]["replicas"], 1).max(0)).unwrap_or(0);
        let min_ready = int(&set["spec"]["minReadySeconds"], 0);
        let mut counts = Counts::default();
        let mut replicas: Vec<Option<Arc<Value>>> = vec![None; wanted];
        let mut condemned: Vec<(usize, Arc<Value>)> = Vec::new();
        for pod in pods {
            counts.replicas += 1;
            if running_and_ready(&pod) {
                counts.ready += 1;
                if is_available(&pod, min_ready) {
                    counts.available += 1;
                }
            }
            if !phase(&pod).is_empty() && !is_deleting(&pod) {
                counts.current += i64::from(revision_of(&pod) == current);
                counts.updated += i64::from(revision_of(&pod) == update);
            }
            match ordinal(&set_name, &pod) {
                Some(index) if index < wanted => replicas[index] = Some(pod),
                Some(index) => condemned.push((index, pod)),
                None => {}
            }
        }
        condemned.sort_by_key(|(index, _)| *index);
        Self {
            set,
            revisions,
            set_name,
            current,
            update,
            monotonic: set["spec"]["podManagementPolicy"] != "Parallel",
            counts,
            replicas,
            condemned,
        }
    }

    /// The steps that change pods, in order, until one ends the pass.
    fn act(&mut self, cluster: &mut Cluster<'_>) -> ControlFlow<()> {
        self.create_replicas(cluster)?;
        self.remove_condemned(cluster)?;
        self.roll_out(cluster)
    }

    /// Creates each missing replica (recreating a Failed one) in ordinal order, the
    /// next only once the ones before are Running and Ready under `OrderedReady`.
    fn create_replicas(&mut self, cluster: &mut Cluster<'_>) -> ControlFlow<()> {
        for index in 0..self.replicas.len() {
            let mut pod = self.replicas[index].clone();
            if let Some(failed) = pod.as_ref().filter(|p| phase(p) == "Failed") {
                let message = format!(
                    "StatefulSet {}/{} is recreating failed Pod {}",
                    failed["metadata"]["namespace"].as_str().unwrap_or_default(),
                    self.set_name,
                    name_of(failed)
                );
                cluster.event(self.set, true, "RecreatingFailedPod", &message, COMPONENT);
                delete_pod(cluster, self.set, failed);
                self.counts.forget(failed, &self.current, &self.update);
                pod = None;
            }
            let Some(pod) = pod else {
                let revision = if below_partition(self.set, index) {
                    &self.revisions.current
                } else {
                    &self.revisions.update
                };
                if create_pod(cluster, self.set, revision, index) {
                    self.counts.replicas += 1;
                    self.counts.current += i64::from(name_of(revision) == self.current);
                    self.counts.updated += i64::from(name_of(revision) == self.update);
                }
                if self.monotonic {
                    return ControlFlow::Break(());
                }
                continue;
            };
            if self.monotonic && (is_deleting(&pod) || !running_and_ready(&pod)) {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }

    /// Deletes the condemned pods from the highest ordinal down; under `OrderedReady`
    /// one at a time, and only while every pod is healthy or the unhealthy one is the
    /// lowest-ordinal one (which is deleted first).
    fn remove_condemned(&mut self, cluster: &mut Cluster<'_>) -> ControlFlow<()> {
        let first_unhealthy = self
            .replicas
            .iter()
            .flatten()
            .chain(self.condemned.iter().map(|(_, pod)| pod))
            .filter(|pod| !healthy(pod))
            .min_by_key(|pod| ordinal(&self.set_name, pod))
            .map(|pod| name_of(pod).to_owned());
        for (_, pod) in self.condemned.iter().rev() {
            if is_deleting(pod) {
                if self.monotonic {
                    return ControlFlow::Break(());
                }
                continue;
            }
            if self.monotonic && !running_and_ready(pod) && first_unhealthy.as_deref() != Some(name_of(pod)) {
                return ControlFlow::Break(());
            }
            delete_pod(cluster, self.set, pod);
            self.counts.current -= i64::from(revision_of(pod) == self.current);
            self.counts.updated -= i64::from(revision_of(pod) == self.update);
            if self.monotonic {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }

    /// `RollingUpdate`: deletes the highest-ordinal pod at or above the partition that
    /// is not of the update revision (it comes back at the update revision), once the
    /// pods above it are healthy. `OnDelete` replaces nothing.
    fn roll_out(&mut self, cluster: &mut Cluster<'_>) -> ControlFlow<()> {
        if self.set["spec"]["updateStrategy"]["type"] == "OnDelete" {
            return ControlFlow::Break(());
        }
        let partition =
            usize::try_from(int(&self.set["spec"]["updateStrategy"]["rollingUpdate"]["partition"], 0).max(0))
                .unwrap_or(0);
        for index in (partition..self.replicas.len()).rev() {
            let Some(pod) = &self.replicas[index] else {
                continue;
            };
            if revision_of(pod) != self.update && !is_deleting(pod) {
                delete_pod(cluster, self.set, pod);
                self.counts.current -= 1;
                return ControlFlow::Break(());
            }
            if !healthy(pod) {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }

    /// The status the pass computed: generation, revisions and counts.
    fn report(self) -> Map<String, Value> {
        let mut status = Map::new();
        status.insert("observedGeneration".into(), json!(generation(self.set)));
        status.insert("currentRevision".into(), json!(self.current));
        status.insert("updateRevision".into(), json!(self.update));
        status.insert("collisionCount".into(), json!(self.revisions.collision_count));
        self.counts.write(&mut status);
        status
    }
}

/// Pods with an ordinal below the partition keep the current revision.
fn below_partition(set: &Value, index: usize) -> bool {
    let rolling = &set["spec"]["updateStrategy"]["rollingUpdate"];
    if rolling.is_object() {
        usize::try_from(int(&rolling["partition"], 0)).is_ok_and(|partition| index < partition)
    } else {
        set["spec"]["updateStrategy"]["type"] == "RollingUpdate"
            && usize::try_from(int(&set["status"]["currentReplicas"], 0)).is_ok_and(|current| index < current)
    }
}

#[derive(Default)]
struct Counts {
    replicas: i64,
    ready: i64,
    available: i64,
    current: i64,
    updated: i64,
}

impl Counts {
    fn forget(&mut self, pod: &Value, current: &str, update: &str) {
        self.replicas -= 1;
        self.current -= i64::from(revision_of(pod) == current);
        self.updated -= i64::from(revision_of(pod) == update);
    }

    fn write(&self, status: &mut Map<String, Value>) {
        set_count(status, "replicas", self.replicas);
        set_count(status, "readyReplicas", self.ready);
        set_count(status, "currentReplicas", self.current);
        set_count(status, "updatedReplicas", self.updated);
        // Since 1.22 (not in 1.19): written even when zero.
        status.insert("availableReplicas".into(), json!(self.available));
    }
}

/// The status to write: the counts computed, and the set's other status fields.
fn finish_status(set: &Value, computed: Map<String, Value>) -> Value {
    let mut status = set["status"].as_object().cloned().unwrap_or_default();
    for field in ["replicas", "readyReplicas", "currentReplicas", "updatedReplicas"] {
        status.remove(field);
    }
    status.extend(computed);
    Value::Object(status)
}

/// Creates the pod of `index` at `revision`, with its claims first; whether it was made.
fn create_pod(cluster: &mut Cluster<'_>, set: &Arc<Value>, revision: &Value, index: usize) -> bool {
    let namespace = set["metadata"]["namespace"].as_str().unwrap_or_default().to_owned();
    let name = format!("{}-{index}", name_of(set));
    let template = revision["data"]["spec"]["template"].clone();
    let mut pod = from_template(&template, set);
    if let Some(map) = pod["metadata"].as_object_mut() {
        map.remove("generateName");
    }
    pod["metadata"]["name"] = json!(name);
    if !pod["metadata"]["labels"].is_object() {
        pod["metadata"]["labels"] = json!({});
    }
    let labels = &mut pod["metadata"]["labels"];
    labels["statefulset.kubernetes.io/pod-name"] = json!(name);
    // Since 1.28 (not in 1.19).
    labels["apps.kubernetes.io/pod-index"] = json!(index.to_string());
    labels[REVISION_LABEL] = json!(name_of(revision));
    pod["spec"]["hostname"] = json!(name);
    if let Some(service) = set["spec"]["serviceName"].as_str().filter(|s| !s.is_empty()) {
        pod["spec"]["subdomain"] = json!(service);
    }
    let claims = claims(set, index);
    if !claims.is_empty() {
        let mut volumes: Vec<Value> = claims
            .iter()
            .map(|(template, claim)| json!({"name": template, "persistentVolumeClaim": {"claimName": claim["metadata"]["name"]}}))
            .collect();
        volumes.extend(
            pod["spec"]["volumes"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|v| !claims.iter().any(|(template, _)| v["name"] == template.as_str()))
                .cloned(),
        );
        pod["spec"]["volumes"] = Value::Array(volumes);
    }
    for (_, claim) in claims {
        let claim_name = claim["metadata"]["name"].as_str().unwrap_or_default().to_owned();
        if cluster
            .get(Kind::PersistentVolumeClaim, &namespace, &claim_name)
            .is_some()
        {
            continue;
        }
        match cluster.create(Kind::PersistentVolumeClaim, &namespace, claim, CONTROLLER_MANAGER) {
            Ok(_) => {
                let message = format!(
                    "create Claim {claim_name} Pod {name} in StatefulSet {} success",
                    name_of(set)
                );
                cluster.event(set, false, "SuccessfulCreate", &message, COMPONENT);
            }
            Err(error) => {
                let message = format!(
                    "create Claim {claim_name} for Pod {name} in StatefulSet {} failed error: {}",
                    name_of(set),
                    error.message
                );
                cluster.event(set, true, "FailedCreate", &message, COMPONENT);
                return false;
            }
        }
    }
    match cluster.create(Kind::Pod, &namespace, pod, CONTROLLER_MANAGER) {
        Ok(_) => {
            let message = format!("create Pod {name} in StatefulSet {} successful", name_of(set));
            cluster.event(set, false, "SuccessfulCreate", &message, COMPONENT);
            true
        }
        Err(error) => {
            let message = format!(
                "create Pod {name} in StatefulSet {} failed error: {}",
                name_of(set),
                error.message
            );
            cluster.event(set, true, "FailedCreate", &message, COMPONENT);
            false
        }
    }
}

/// The claims of the pod of `index` (`getPersistentVolumeClaims`): `<claim>-<set>-<n>`,
/// labelled with the set's selector.
fn claims(set: &Value, index: usize) -> Vec<(String, Value)> {
    set["spec"]["volumeClaimTemplates"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|template| {
            let template_name = name_of(template).to_owned();
            let mut claim = template.clone();
            claim["apiVersion"] = json!("v1");
            claim["kind"] = json!("PersistentVolumeClaim");
            if !claim["metadata"].is_object() {
                claim["metadata"] = json!({});
            }
            claim["metadata"]["name"] = json!(format!("{template_name}-{}-{index}", name_of(set)));
            if !claim["metadata"]["labels"].is_object() {
                claim["metadata"]["labels"] = json!({});
            }
            for (key, value) in set["spec"]["selector"]["matchLabels"].as_object().into_iter().flatten() {
                claim["metadata"]["labels"][key] = value.clone();
            }
            if let Some(map) = claim.as_object_mut() {
                map.remove("status");
            }
            (template_name, claim)
        })
        .collect()
}

fn delete_pod(cluster: &mut Cluster<'_>, set: &Arc<Value>, pod: &Value) {
    if controller_uid(pod).as_deref() != set["metadata"]["uid"].as_str() {
        return;
    }
    let namespace = pod["metadata"]["namespace"].as_str().unwrap_or_default().to_owned();
    let name = name_of(pod).to_owned();
    if cluster.delete(Kind::Pod, &namespace, &name, None).is_some() {
        let message = format!("delete Pod {name} in StatefulSet {} successful", name_of(set));
        cluster.event(set, false, "SuccessfulDelete", &message, COMPONENT);
    }
}
