//! The deployment controller (`pkg/controller/deployment/`: `syncDeployment` in
//! `deployment_controller.go`, `sync.go`, `progress.go`, and the helpers of
//! `util/deployment_util.go`): a Deployment owns one ReplicaSet per template it has had,
//! moves replicas from the old ones to the new one as its strategy allows
//! (`rollout.rs`), keeps `revisionHistoryLimit` old ones for rollbacks, and reports
//! the counts and the `Available` and `Progressing` conditions kube-controller-manager
//! writes, with their reasons and messages.
//!
//! Not imitated: the deprecated `rollbackTo` annotation (kubectl rolls back by
//! patching the template, which works), adopting ReplicaSets that match the selector
//! but have no controller, and releasing those that stop matching it.

mod revisions;
mod rollout;

use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::apps::v1::DeploymentSpec;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde_json::{Map, Value, json};

use super::cluster::{CONTROLLER_MANAGER, Cluster};
use super::fields::{condition, generation, int, is_deleting, set_count, timestamp, typed, uid_of};
use super::replicasets::replicas;
use super::{Key, Kind};
use revisions::NewReplicaSet;

const COMPONENT: &str = "deployment-controller";

/// `progressDeadlineSeconds` with this value means no deadline (`math.MaxInt32`).
const NO_DEADLINE: i64 = 2_147_483_647;

/// The new ReplicaSet, if there is one, and the old ones.
type NewAndOld = (Option<Arc<Value>>, Vec<Arc<Value>>);

/// One sync of one Deployment, holding what `syncDeployment` passes around.
pub(super) struct Deployment<'c, 'a> {
    cluster: &'c mut Cluster<'a>,
    key: Key,
    /// The Deployment with the changes this sync made (Go's `d`, mutated in place).
    object: Value,
    /// The Deployment as stored, which the next write replaces.
    stored: Arc<Value>,
    /// Its spec, typed, for reading: a sync changes only metadata and status.
    spec: DeploymentSpec,
    /// The ReplicaSets it controls, oldest first, as last written.
    replica_sets: Vec<Arc<Value>>,
}

pub(super) fn sync(cluster: &mut Cluster<'_>, key: &Key) {
    let Some(stored) = cluster.get_key(key) else {
        return;
    };
    let replica_sets = cluster.children(&stored, Kind::ReplicaSet);
    let mut deployment = Deployment {
        cluster,
        key: key.clone(),
        object: stored.as_ref().clone(),
        spec: typed(&stored["spec"]).unwrap_or_default(),
        stored,
        replica_sets,
    };
    deployment.sync();
}

impl Deployment<'_, '_> {
    fn sync(&mut self) {
        let selector = &self.spec.selector;
        let selects_all = selector
            .match_labels
            .as_ref()
            .is_none_or(std::collections::BTreeMap::is_empty)
            && selector.match_expressions.as_ref().is_none_or(Vec::is_empty);
        if selects_all {
            self.event(
                true,
                "SelectingAll",
                "This deployment is selecting all pods. A non-empty selector is required.",
            );
            if int(&self.object["status"]["observedGeneration"], 0) < generation(&self.object) {
                self.object["status"]["observedGeneration"] = json!(generation(&self.object));
                self.save();
            }
            return;
        }
        if is_deleting(&self.object) {
            self.sync_status_only();
            return;
        }
        self.check_paused_conditions();
        if self.spec.paused == Some(true) || self.is_scaling_event() {
            self.sync_scale();
            return;
        }
        if is_recreate(&self.spec) {
            self.roll_out_recreate();
        } else {
            self.roll_out_rolling();
        }
    }

    /// The ReplicaSets that are not the new one, and their subset that has replicas
    /// (`FindOldReplicaSets`: all old, and old with `spec.replicas` > 0).
    fn old_replica_sets(&self, new: Option<&Arc<Value>>) -> Vec<Arc<Value>> {
        let new_uid = new.map(|rs| uid_of(rs).to_owned());
        self.replica_sets
            .iter()
            .filter(|rs| new_uid.as_deref() != Some(uid_of(rs)))
            .cloned()
            .collect()
    }

    /// `syncStatusOnly`: a Deployment being deleted only reports.
    fn sync_status_only(&mut self) {
        let new = match self.new_replica_set(&[], false) {
            NewReplicaSet::Found(rs) => Some(rs),
            NewReplicaSet::Absent => None,
            NewReplicaSet::Failed => return,
        };
        let old = self.old_replica_sets(new.as_ref());
        self.sync_status(&old, new.as_ref());
    }

    /// `checkPausedConditions`: an `Unknown` Progressing condition while paused, and
    /// when resumed.
    fn check_paused_conditions(&mut self) {
        if !self.has_progress_deadline() {
            return;
        }
        let reason = self.condition("Progressing").map(|c| c["reason"].clone());
        if reason.as_ref().is_some_and(|r| r == "ProgressDeadlineExceeded") {
            return;
        }
        let paused_before = reason.is_some_and(|r| r == "DeploymentPaused");
        let paused = self.spec.paused == Some(true);
        if paused && !paused_before {
            self.set_condition("Progressing", "Unknown", "DeploymentPaused", "Deployment is paused");
        } else if !paused && paused_before {
            self.set_condition("Progressing", "Unknown", "DeploymentResumed", "Deployment is resumed");
        } else {
            return;
        }
        self.save();
    }

    /// `isScalingEvent`: an active ReplicaSet was sized for another replica count.
    fn is_scaling_event(&mut self) -> bool {
        let Some((new, old)) = self.new_and_old(false) else {
            return false;
        };
        let desired = wanted(&self.spec);
        new.iter().chain(old.iter()).filter(|rs| replicas(rs) > 0).any(|rs| {
            revisions::int_annotation(rs, revisions::DESIRED_REPLICAS).is_some_and(|annotated| annotated != desired)
        })
    }

    /// `getAllReplicaSetsAndSyncRevision`: the new ReplicaSet (created when `create`)
    /// and all old ones; None when the sync must stop.
    fn new_and_old(&mut self, create: bool) -> Option<NewAndOld> {
        let new_before = revisions::find_new(&self.object, &self.replica_sets);
        let old = self.old_replica_sets(new_before.as_ref());
        let new = match self.new_replica_set(&old, create) {
            NewReplicaSet::Found(rs) => Some(rs),
            NewReplicaSet::Absent => None,
            NewReplicaSet::Failed => return None,
        };
        let old = self.old_replica_sets(new.as_ref());
        Some((new, old))
    }

    /// `calculateStatus`: the counts summed over the ReplicaSets and the `Available`
    /// condition.
    fn calculate_status(&self, all: &[Arc<Value>], new: Option<&Arc<Value>>) -> Value {
        let sum = |replica_sets: &[&Arc<Value>], field: &str| {
            replica_sets.iter().map(|rs| int(&rs["status"][field], 0)).sum::<i64>()
        };
        let all: Vec<&Arc<Value>> = all.iter().collect();
        let available = sum(&all, "availableReplicas");
        let total: i64 = all.iter().map(|rs| replicas(rs)).sum();
        let mut status = Map::new();
        set_count(&mut status, "observedGeneration", generation(&self.object));
        set_count(&mut status, "replicas", sum(&all, "replicas"));
        set_count(
            &mut status,
            "updatedReplicas",
            new.map_or(0, |rs| int(&rs["status"]["replicas"], 0)),
        );
        set_count(&mut status, "readyReplicas", sum(&all, "readyReplicas"));
        set_count(&mut status, "availableReplicas", available);
        set_count(&mut status, "unavailableReplicas", (total - available).max(0));
        if let Some(count) = self.object["status"].get("collisionCount") {
            status.insert("collisionCount".into(), count.clone());
        }
        if let Some(conditions) = self.object["status"].get("conditions") {
            status.insert("conditions".into(), conditions.clone());
        }
        let mut status = Value::Object(status);
        if available >= wanted(&self.spec) - max_unavailable(&self.spec) {
            set_condition(
                &mut status,
                "Available",
                "True",
                "MinimumReplicasAvailable",
                "Deployment has minimum availability.",
            );
        } else {
            set_condition(
                &mut status,
                "Available",
                "False",
                "MinimumReplicasUnavailable",
                "Deployment does not have minimum availability.",
            );
        }
        status
    }

    /// `syncDeploymentStatus`.
    fn sync_status(&mut self, old: &[Arc<Value>], new: Option<&Arc<Value>>) {
        let mut all = old.to_vec();
        all.extend(new.cloned());
        self.object["status"] = self.calculate_status(&all, new);
        self.save();
    }

    /// `syncRolloutStatus`: the status with the `Progressing` condition a rollout
    /// earns (complete, progressing, or past its deadline), and the ReplicaSets'
    /// `ReplicaFailure`.
    fn sync_rollout_status(&mut self, old: &[Arc<Value>], new: Option<&Arc<Value>>) {
        let mut all = old.to_vec();
        all.extend(new.cloned());
        let mut status = self.calculate_status(&all, new);
        if !self.has_progress_deadline() {
            remove_condition(&mut status, "Progressing");
        }
        let current = self.condition("Progressing").cloned();
        let complete_before = int(&status["replicas"], 0) == int(&status["updatedReplicas"], 0)
            && current
                .as_ref()
                .is_some_and(|c| c["reason"] == "NewReplicaSetAvailable");
        let subject = new.map_or_else(
            || format!("Deployment \"{}\"", self.key.name),
            |rs| format!("ReplicaSet \"{}\"", rs["metadata"]["name"].as_str().unwrap_or_default()),
        );
        if self.has_progress_deadline() && !complete_before {
            if self.is_complete(&status) {
                let message = format!("{subject} has successfully progressed.");
                set_condition(&mut status, "Progressing", "True", "NewReplicaSetAvailable", &message);
            } else if self.is_progressing(&status) {
                let message = format!("{subject} is progressing.");
                let mut condition = new_condition("Progressing", "True", "ReplicaSetUpdated", &message);
                if let Some(current) = &current {
                    if current["status"] == "True" {
                        condition["lastTransitionTime"] = current["lastTransitionTime"].clone();
                    }
                    remove_condition(&mut status, "Progressing");
                }
                push_condition(&mut status, condition);
            } else if self.timed_out(&status) {
                let message = format!("{subject} has timed out progressing.");
                set_condition(
                    &mut status,
                    "Progressing",
                    "False",
                    "ProgressDeadlineExceeded",
                    &message,
                );
            }
        }
        let failure = new
            .into_iter()
            .chain(all.iter())
            .find_map(|rs| condition(&rs["status"]["conditions"], "ReplicaFailure").cloned());
        match failure {
            Some(failure) => {
                let mut converted = failure.clone();
                converted["lastUpdateTime"] = failure["lastTransitionTime"].clone();
                set_condition_value(&mut status, converted);
            }
            None => remove_condition(&mut status, "ReplicaFailure"),
        }
        let unchanged = status == self.object["status"];
        self.object["status"] = status;
        if unchanged {
            self.requeue_stuck();
        } else {
            self.save();
        }
    }

    /// `DeploymentComplete`.
    fn is_complete(&self, status: &Value) -> bool {
        let wanted = wanted(&self.spec);
        int(&status["updatedReplicas"], 0) == wanted
            && int(&status["replicas"], 0) == wanted
            && int(&status["availableReplicas"], 0) == wanted
            && int(&status["observedGeneration"], 0) >= generation(&self.object)
    }

    /// `DeploymentProgressing`: more updated, ready or available replicas, or fewer old.
    fn is_progressing(&self, status: &Value) -> bool {
        let old = &self.object["status"];
        let count = |status: &Value, field: &str| int(&status[field], 0);
        let old_replicas = |status: &Value| count(status, "replicas") - count(status, "updatedReplicas");
        count(status, "updatedReplicas") > count(old, "updatedReplicas")
            || old_replicas(status) < old_replicas(old)
            || count(status, "readyReplicas") > count(old, "readyReplicas")
            || count(status, "availableReplicas") > count(old, "availableReplicas")
    }

    /// `DeploymentTimedOut`: no progress reported for `progressDeadlineSeconds`.
    fn timed_out(&self, status: &Value) -> bool {
        let Some(condition) = condition(&status["conditions"], "Progressing") else {
            return false;
        };
        match condition["reason"].as_str() {
            Some("NewReplicaSetAvailable") => false,
            Some("ProgressDeadlineExceeded") => true,
            _ => super::fields::seconds_since(&condition["lastUpdateTime"])
                .is_some_and(|since| since > self.progress_deadline()),
        }
    }

    /// `requeueStuckDeployment`: a rollout without progress is looked at again when
    /// its deadline passes.
    fn requeue_stuck(&mut self) {
        let Some(current) = self.condition("Progressing").cloned() else {
            return;
        };
        if !self.has_progress_deadline()
            || self.is_complete(&self.object["status"])
            || current["reason"] == "ProgressDeadlineExceeded"
        {
            return;
        }
        let since = super::fields::seconds_since(&current["lastUpdateTime"]).unwrap_or(0);
        let after = (self.progress_deadline() - since).max(0) + 1;
        let at = self.cluster.now + Duration::from_secs(after.unsigned_abs());
        self.cluster.requeue_at(self.key.clone(), at);
    }

    fn progress_deadline(&self) -> i64 {
        self.spec.progress_deadline_seconds.map_or(NO_DEADLINE, i64::from)
    }

    fn has_progress_deadline(&self) -> bool {
        self.spec
            .progress_deadline_seconds
            .is_some_and(|deadline| i64::from(deadline) != NO_DEADLINE)
    }

    fn condition(&self, kind: &str) -> Option<&Value> {
        condition(&self.object["status"]["conditions"], kind)
    }

    fn set_condition(&mut self, kind: &str, status: &str, reason: &str, message: &str) {
        if !self.object["status"].is_object() {
            self.object["status"] = json!({});
        }
        set_condition(&mut self.object["status"], kind, status, reason, message);
    }

    /// `SetDeploymentRevision`: whether the revision annotation changed.
    fn set_revision(&mut self, revision: &str) -> bool {
        if !self.object["metadata"]["annotations"].is_object() {
            self.object["metadata"]["annotations"] = json!({});
        }
        let annotations = &mut self.object["metadata"]["annotations"];
        if annotations[revisions::REVISION] == revision {
            return false;
        }
        annotations[revisions::REVISION] = json!(revision);
        true
    }

    /// Writes the changes this sync made to the Deployment: its annotations, then its
    /// status (kube-controller-manager sends both in one status update).
    fn save(&mut self) {
        if self.object["metadata"]["annotations"] != self.stored["metadata"]["annotations"] {
            let mut desired = self.stored.as_ref().clone();
            desired["metadata"]["annotations"] = self.object["metadata"]["annotations"].clone();
            if let Some(written) =
                self.cluster
                    .update(Kind::Deployment, &self.stored, desired, false, CONTROLLER_MANAGER)
            {
                self.stored = written;
            }
        }
        let status = self.object["status"].clone();
        if let Some(written) = self
            .cluster
            .write_status(Kind::Deployment, &self.stored, status, CONTROLLER_MANAGER)
        {
            self.stored = written;
        }
    }

    fn event(&mut self, warning: bool, reason: &str, message: &str) {
        let involved = self.stored.clone();
        self.cluster.event(&involved, warning, reason, message, COMPONENT);
    }

    /// Puts a ReplicaSet as written in place of its old version; returns it.
    fn replace_replica_set(&mut self, written: Arc<Value>) -> Arc<Value> {
        match self.replica_sets.iter_mut().find(|rs| uid_of(rs) == uid_of(&written)) {
            Some(slot) => *slot = written.clone(),
            None => self.replica_sets.push(written.clone()),
        }
        written
    }
}

/// The replicas a Deployment wants: `spec.replicas`, default 1.
pub(super) fn wanted(spec: &DeploymentSpec) -> i64 {
    spec.replicas.map_or(1, i64::from)
}

/// Whether the strategy is `Recreate` (else `RollingUpdate`).
pub(super) fn is_recreate(spec: &DeploymentSpec) -> bool {
    spec.strategy.as_ref().and_then(|s| s.type_.as_deref()) == Some("Recreate")
}

/// `maxSurge` as a count (`MaxSurge`): percentages of the replicas round up.
pub(super) fn max_surge(spec: &DeploymentSpec) -> i64 {
    if is_recreate(spec) {
        return 0;
    }
    fenceposts(spec).0
}

/// `maxUnavailable` as a count (`MaxUnavailable`): percentages round down, at most
/// the replicas, and 0 when there are none.
pub(super) fn max_unavailable(spec: &DeploymentSpec) -> i64 {
    let wanted = wanted(spec);
    if is_recreate(spec) || wanted == 0 {
        return 0;
    }
    fenceposts(spec).1.min(wanted)
}

/// The rolling update's `maxSurge` or `maxUnavailable` (`field`), if set.
pub(super) fn rolling_update(spec: &DeploymentSpec, max_surge: bool) -> Option<&IntOrString> {
    let rolling = spec.strategy.as_ref()?.rolling_update.as_ref()?;
    if max_surge {
        rolling.max_surge.as_ref()
    } else {
        rolling.max_unavailable.as_ref()
    }
}

/// `ResolveFenceposts`: (surge, unavailable), never both zero.
fn fenceposts(spec: &DeploymentSpec) -> (i64, i64) {
    let wanted = wanted(spec);
    let surge = typed_int_or_percent(rolling_update(spec, true), wanted, true);
    let unavailable = typed_int_or_percent(rolling_update(spec, false), wanted, false);
    if surge == 0 && unavailable == 0 {
        (0, 1)
    } else {
        (surge, unavailable)
    }
}

/// `GetValueFromIntOrPercent`: a number, or a percentage of `total` rounded up or down.
pub(super) fn int_or_percent(value: &Value, total: i64, round_up: bool) -> i64 {
    if let Some(number) = value.as_i64() {
        return number;
    }
    let Some(percent) = value
        .as_str()
        .and_then(|s| s.strip_suffix('%'))
        .and_then(|p| p.parse::<i64>().ok())
    else {
        return 0;
    };
    let scaled = percent * total;
    if round_up {
        (scaled + 99).div_euclid(100)
    } else {
        scaled.div_euclid(100)
    }
}

/// [`int_or_percent`] of a typed value; an absent one is 0.
pub(super) fn typed_int_or_percent(value: Option<&IntOrString>, total: i64, round_up: bool) -> i64 {
    match value {
        Some(IntOrString::Int(number)) => i64::from(*number),
        Some(IntOrString::String(text)) => int_or_percent(&Value::String(text.clone()), total, round_up),
        None => 0,
    }
}

/// A condition as `NewDeploymentCondition` makes it, stamped now.
fn new_condition(kind: &str, status: &str, reason: &str, message: &str) -> Value {
    let now = timestamp();
    json!({
        "type": kind, "status": status, "lastUpdateTime": now, "lastTransitionTime": now,
        "reason": reason, "message": message,
    })
}

/// `SetDeploymentCondition` of a new condition.
fn set_condition(status: &mut Value, kind: &str, condition_status: &str, reason: &str, message: &str) {
    set_condition_value(status, new_condition(kind, condition_status, reason, message));
}

/// `SetDeploymentCondition`: nothing changes when the status and reason are the same;
/// a condition whose status is unchanged keeps its `lastTransitionTime`.
fn set_condition_value(status: &mut Value, mut condition: Value) {
    let kind = condition["type"].as_str().unwrap_or_default().to_owned();
    if let Some(current) = super::fields::condition(&status["conditions"], &kind) {
        if current["status"] == condition["status"] && current["reason"] == condition["reason"] {
            return;
        }
        if current["status"] == condition["status"] {
            condition["lastTransitionTime"] = current["lastTransitionTime"].clone();
        }
    }
    remove_condition(status, &kind);
    push_condition(status, condition);
}

fn push_condition(status: &mut Value, condition: Value) {
    if !status["conditions"].is_array() {
        status["conditions"] = json!([]);
    }
    if let Some(conditions) = status["conditions"].as_array_mut() {
        conditions.push(condition);
    }
}

fn remove_condition(status: &mut Value, kind: &str) {
    if let Some(conditions) = status["conditions"].as_array_mut() {
        conditions.retain(|c| c["type"] != kind);
        if conditions.is_empty()
            && let Some(map) = status.as_object_mut()
        {
            map.remove("conditions");
        }
    }
}
