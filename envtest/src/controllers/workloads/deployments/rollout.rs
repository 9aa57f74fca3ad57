//! How a Deployment moves replicas between its ReplicaSets
//! (`pkg/controller/deployment/rolling.go`, `recreate.go`, and `sync.go`: `scale`,
//! `scaleReplicaSet`, `cleanupDeployment`): a rolling update scales the new
//! ReplicaSet up within `maxSurge` and the old ones down within `maxUnavailable`; a
//! Recreate scales the old ones to zero and waits for their pods to go before it
//! scales the new one up; a resize of a rollout in progress is shared out in
//! proportion; old ReplicaSets beyond `revisionHistoryLimit` are deleted.

use std::cmp::Ordering;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::super::Kind;
use super::super::cluster::CONTROLLER_MANAGER;
use super::super::fields::{int, is_deleting, name_of, namespace_of, uid_of};
use super::super::pods::is_finished;
use super::super::replicasets::replicas;
use super::revisions::{DESIRED_REPLICAS, MAX_REPLICAS, int_annotation, set_replicas_annotations};
use super::{Deployment, is_recreate, max_surge, max_unavailable, rolling_update, typed_int_or_percent, wanted};

fn active(replica_sets: &[Arc<Value>]) -> Vec<Arc<Value>> {
    replica_sets.iter().filter(|rs| replicas(rs) > 0).cloned().collect()
}

fn status_count(replica_set: &Value, field: &str) -> i64 {
    int(&replica_set["status"][field], 0)
}

fn created(replica_set: &Value) -> &str {
    replica_set["metadata"]["creationTimestamp"]
        .as_str()
        .unwrap_or_default()
}

/// `ReplicaSetsByCreationTimestamp`: oldest first, ties by name.
fn oldest_first(a: &Arc<Value>, b: &Arc<Value>) -> Ordering {
    created(a).cmp(created(b)).then_with(|| name_of(a).cmp(name_of(b)))
}

impl Deployment<'_, '_> {
    /// The ReplicaSet as this sync last wrote it.
    fn fresh(&self, replica_set: &Arc<Value>) -> Arc<Value> {
        self.replica_sets
            .iter()
            .find(|rs| uid_of(rs) == uid_of(replica_set))
            .cloned()
            .unwrap_or_else(|| replica_set.clone())
    }

    fn fresh_all(&self, replica_sets: &[Arc<Value>]) -> Vec<Arc<Value>> {
        replica_sets.iter().map(|rs| self.fresh(rs)).collect()
    }

    /// Go's `sync`, for paused Deployments and resizes: scale, clean up if paused,
    /// report.
    pub(super) fn sync_scale(&mut self) {
        let Some((new, old)) = self.new_and_old(false) else {
            return;
        };
        self.scale(new.as_ref(), &old);
        let old = self.fresh_all(&old);
        if self.spec.paused == Some(true) {
            self.cleanup(&old);
        }
        let new = new.map(|rs| self.fresh(&rs));
        self.sync_status(&old, new.as_ref());
    }

    /// `rolloutRolling`.
    pub(super) fn roll_out_rolling(&mut self) {
        let Some((Some(new), old)) = self.new_and_old(true) else {
            return;
        };
        let mut all = old.clone();
        all.push(new.clone());
        if self.reconcile_new(&all, &new) {
            let (old, new) = (self.fresh_all(&old), self.fresh(&new));
            self.sync_rollout_status(&old, Some(&new));
            return;
        }
        let all = self.fresh_all(&all);
        let new = self.fresh(&new);
        if self.reconcile_old(&all, &active(&self.fresh_all(&old)), &new) {
            let old = self.fresh_all(&old);
            self.sync_rollout_status(&old, Some(&new));
            return;
        }
        let old = self.fresh_all(&old);
        let status = self.object["status"].clone();
        if self.is_complete(&status) {
            self.cleanup(&old);
        }
        self.sync_rollout_status(&old, Some(&new));
    }

    /// `rolloutRecreate`.
    pub(super) fn roll_out_recreate(&mut self) {
        let Some((mut new, mut old)) = self.new_and_old(false) else {
            return;
        };
        let mut scaled_down = false;
        for replica_set in active(&old) {
            scaled_down |= self.scale_and_record(&replica_set, 0);
        }
        old = self.fresh_all(&old);
        if scaled_down {
            self.sync_rollout_status(&old, new.as_ref());
            return;
        }
        if self.old_pods_running(new.as_ref(), &old) {
            self.sync_rollout_status(&old, new.as_ref());
            return;
        }
        if new.is_none() {
            let Some((created, now_old)) = self.new_and_old(true) else {
                return;
            };
            new = created;
            old = now_old;
        }
        if let Some(replica_set) = &new {
            let wanted = wanted(&self.spec);
            self.scale_and_record(replica_set, wanted);
        }
        let status = self.object["status"].clone();
        if self.is_complete(&status) {
            self.cleanup(&old);
        }
        let new = new.map(|rs| self.fresh(&rs));
        self.sync_rollout_status(&old, new.as_ref());
    }

    /// `oldPodsRunning`: an old ReplicaSet reports pods, or one of its pods (even one
    /// being deleted) has not finished.
    fn old_pods_running(&self, new: Option<&Arc<Value>>, old: &[Arc<Value>]) -> bool {
        if old.iter().map(|rs| status_count(rs, "replicas")).sum::<i64>() > 0 {
            return true;
        }
        let new_uid = new.map(|rs| uid_of(rs).to_owned());
        self.replica_sets
            .iter()
            .filter(|rs| new_uid.as_deref() != Some(uid_of(rs)))
            .flat_map(|rs| self.cluster.children(rs, Kind::Pod))
            .any(|pod| !is_finished(&pod))
    }

    /// `reconcileNewReplicaSet`: whether the new ReplicaSet was scaled.
    fn reconcile_new(&mut self, all: &[Arc<Value>], new: &Arc<Value>) -> bool {
        let wanted = wanted(&self.spec);
        let current = replicas(new);
        if current == wanted {
            return false;
        }
        if current > wanted {
            return self.scale_and_record(new, wanted);
        }
        let count = self.new_rs_new_replicas(all, new);
        self.scale_and_record(new, count)
    }

    /// `NewRSNewReplicas`: how big the new ReplicaSet may be now.
    pub(super) fn new_rs_new_replicas(&self, all: &[Arc<Value>], new: &Value) -> i64 {
        let wanted = wanted(&self.spec);
        if is_recreate(&self.spec) {
            return wanted;
        }
        let surge = typed_int_or_percent(rolling_update(&self.spec, true), wanted, true);
        let current: i64 = all.iter().map(|rs| replicas(rs)).sum();
        let max_total = wanted + surge;
        if current >= max_total {
            return replicas(new);
        }
        let scale_up = (max_total - current).min(wanted - replicas(new));
        replicas(new) + scale_up
    }

    /// `reconcileOldReplicaSets`: whether any old ReplicaSet was scaled down.
    fn reconcile_old(&mut self, all: &[Arc<Value>], old: &[Arc<Value>], new: &Arc<Value>) -> bool {
        let old_pods: i64 = old.iter().map(|rs| replicas(rs)).sum();
        if old_pods == 0 {
            return false;
        }
        let all_pods: i64 = all.iter().map(|rs| replicas(rs)).sum();
        let min_available = wanted(&self.spec) - max_unavailable(&self.spec);
        let new_unavailable = replicas(new) - status_count(new, "availableReplicas");
        let max_scaled_down = all_pods - min_available - new_unavailable;
        if max_scaled_down <= 0 {
            return false;
        }
        let cleaned = self.cleanup_unhealthy(old, max_scaled_down);
        let old = self.fresh_all(old);
        let mut all = old.clone();
        all.push(self.fresh(new));
        let scaled = self.scale_down_old_for_rolling(&all, &old);
        cleaned + scaled > 0
    }

    /// `cleanupUnhealthyReplicas`: old ReplicaSets lose their unavailable replicas
    /// first, which costs no availability.
    fn cleanup_unhealthy(&mut self, old: &[Arc<Value>], max_cleanup: i64) -> i64 {
        let mut old = old.to_vec();
        old.sort_by(oldest_first);
        let mut total = 0;
        for replica_set in old {
            if total >= max_cleanup {
                break;
            }
            let current = replicas(&replica_set);
            let available = status_count(&replica_set, "availableReplicas");
            if current == 0 || current == available {
                continue;
            }
            let count = (max_cleanup - total).min(current - available);
            self.scale_and_record(&replica_set, current - count);
            total += count;
        }
        total
    }

    /// `scaleDownOldReplicaSetsForRollingUpdate`: old ReplicaSets shrink by as many
    /// available replicas as exceed the minimum, oldest first.
    fn scale_down_old_for_rolling(&mut self, all: &[Arc<Value>], old: &[Arc<Value>]) -> i64 {
        let min_available = wanted(&self.spec) - max_unavailable(&self.spec);
        let available: i64 = all.iter().map(|rs| status_count(rs, "availableReplicas")).sum();
        if available <= min_available {
            return 0;
        }
        let mut old = old.to_vec();
        old.sort_by(oldest_first);
        let target = available - min_available;
        let mut total = 0;
        for replica_set in old {
            if total >= target {
                break;
            }
            let current = replicas(&replica_set);
            if current == 0 {
                continue;
            }
            let count = current.min(target - total);
            self.scale_and_record(&replica_set, current - count);
            total += count;
        }
        total
    }

    /// `scale`: a resize while paused or mid-rollout. One active ReplicaSet takes the
    /// whole size; a saturated new one empties the old ones; otherwise the change is
    /// shared out in proportion to the ReplicaSets' sizes.
    fn scale(&mut self, new: Option<&Arc<Value>>, old: &[Arc<Value>]) {
        let wanted = wanted(&self.spec);
        if let Some(replica_set) = find_active_or_latest(new, old) {
            if replicas(&replica_set) != wanted {
                self.scale_and_record(&replica_set, wanted);
            }
            return;
        }
        if new.is_some_and(|rs| self.is_saturated(rs)) {
            for replica_set in active(old) {
                self.scale_and_record(&replica_set, 0);
            }
            return;
        }
        if is_recreate(&self.spec) {
            return;
        }
        let mut all: Vec<Arc<Value>> = old.to_vec();
        all.extend(new.cloned());
        let mut all = active(&all);
        let current: i64 = all.iter().map(|rs| replicas(rs)).sum();
        let allowed = if wanted > 0 { wanted + max_surge(&self.spec) } else { 0 };
        let to_add = allowed - current;
        let direction = match to_add.cmp(&0) {
            Ordering::Greater => {
                // Bigger first; among equals, newer first when growing.
                all.sort_by(|a, b| replicas(b).cmp(&replicas(a)).then_with(|| oldest_first(b, a)));
                "up"
            }
            Ordering::Less => {
                all.sort_by(|a, b| replicas(b).cmp(&replicas(a)).then_with(|| oldest_first(a, b)));
                "down"
            }
            Ordering::Equal => "",
        };
        let mut added = 0;
        let mut sizes: Vec<i64> = Vec::with_capacity(all.len());
        for replica_set in &all {
            if to_add == 0 {
                sizes.push(replicas(replica_set));
            } else {
                let proportion = self.proportion(replica_set, to_add, added);
                sizes.push(replicas(replica_set) + proportion);
                added += proportion;
            }
        }
        for (index, replica_set) in all.iter().enumerate() {
            if index == 0 && to_add != 0 {
                sizes[0] = (sizes[0] + to_add - added).max(0);
            }
            self.scale_replica_set(replica_set, sizes[index], direction);
        }
    }

    /// `GetProportion`: this ReplicaSet's share of `to_add`, within what is left.
    fn proportion(&self, replica_set: &Value, to_add: i64, added: i64) -> i64 {
        if replicas(replica_set) == 0 || to_add == 0 || to_add == added {
            return 0;
        }
        let fraction = self.fraction(replica_set);
        let allowed = to_add - added;
        if to_add > 0 {
            fraction.min(allowed)
        } else {
            fraction.max(allowed)
        }
    }

    /// `getReplicaSetFraction`: how much this ReplicaSet grows (or shrinks) when the
    /// Deployment's size with surge is spread over the size it was annotated for.
    fn fraction(&self, replica_set: &Value) -> i64 {
        let wanted = wanted(&self.spec);
        if wanted == 0 {
            return -replicas(replica_set);
        }
        let deployment_replicas = wanted + max_surge(&self.spec);
        let annotated =
            int_annotation(replica_set, MAX_REPLICAS).unwrap_or_else(|| int(&self.object["status"]["replicas"], 0));
        if annotated == 0 {
            return 0;
        }
        #[expect(
            clippy::cast_precision_loss,
            clippy::cast_possible_truncation,
            reason = "replica counts are small"
        )]
        let size = ((replicas(replica_set) * deployment_replicas) as f64 / annotated as f64).round() as i64;
        size - replicas(replica_set)
    }

    /// `IsSaturated`: the new ReplicaSet has all replicas, annotated and available.
    fn is_saturated(&self, replica_set: &Value) -> bool {
        let wanted = wanted(&self.spec);
        replicas(replica_set) == wanted
            && int_annotation(replica_set, DESIRED_REPLICAS) == Some(wanted)
            && status_count(replica_set, "availableReplicas") == wanted
    }

    /// `scaleReplicaSetAndRecordEvent`: whether the ReplicaSet was resized.
    fn scale_and_record(&mut self, replica_set: &Arc<Value>, size: i64) -> bool {
        let current = replicas(replica_set);
        if current == size {
            return false;
        }
        let direction = if current < size { "up" } else { "down" };
        self.scale_replica_set(replica_set, size, direction)
    }

    /// `scaleReplicaSet`: writes the size and the Deployment's replica annotations;
    /// an event when the size changed.
    fn scale_replica_set(&mut self, replica_set: &Arc<Value>, size: i64, direction: &str) -> bool {
        let replica_set = self.fresh(replica_set);
        let wanted = wanted(&self.spec);
        let max = wanted + max_surge(&self.spec);
        let resize = replicas(&replica_set) != size;
        let mut annotations: Map<String, Value> = replica_set["metadata"]["annotations"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        let annotate = set_replicas_annotations(&mut annotations, wanted, max);
        if !resize && !annotate {
            return false;
        }
        let mut desired = replica_set.as_ref().clone();
        desired["spec"]["replicas"] = json!(size);
        desired["metadata"]["annotations"] = Value::Object(annotations);
        let Some(written) = self
            .cluster
            .update(Kind::ReplicaSet, &replica_set, desired, false, CONTROLLER_MANAGER)
        else {
            return false;
        };
        let name = name_of(&written).to_owned();
        self.replace_replica_set(written);
        if resize {
            let message = format!("Scaled {direction} replica set {name} to {size}");
            self.event(false, "ScalingReplicaSet", &message);
        }
        resize
    }

    /// `cleanupDeployment`: deletes the oldest old ReplicaSets beyond
    /// `revisionHistoryLimit`, if they are empty and settled.
    fn cleanup(&mut self, old: &[Arc<Value>]) {
        let Some(limit) = self
            .spec
            .revision_history_limit
            .map(i64::from)
            .filter(|limit| *limit != super::NO_DEADLINE)
        else {
            return;
        };
        let mut cleanable: Vec<Arc<Value>> = old.iter().filter(|rs| !is_deleting(rs)).cloned().collect();
        let excess = i64::try_from(cleanable.len()).unwrap_or(i64::MAX) - limit;
        if excess <= 0 {
            return;
        }
        cleanable.sort_by(oldest_first);
        for replica_set in cleanable.iter().take(usize::try_from(excess).unwrap_or(0)) {
            let settled = status_count(replica_set, "replicas") == 0
                && replicas(replica_set) == 0
                && super::generation(replica_set) <= status_count(replica_set, "observedGeneration");
            if !settled {
                continue;
            }
            let namespace = namespace_of(replica_set).to_owned();
            let name = name_of(replica_set).to_owned();
            self.cluster.delete(Kind::ReplicaSet, &namespace, &name, None);
            self.replica_sets.retain(|rs| uid_of(rs) != uid_of(replica_set));
        }
    }
}

/// `FindActiveOrLatest`: the one ReplicaSet with replicas, or with none active the
/// new one (else the newest old one); None when several have replicas.
fn find_active_or_latest(new: Option<&Arc<Value>>, old: &[Arc<Value>]) -> Option<Arc<Value>> {
    if new.is_none() && old.is_empty() {
        return None;
    }
    let mut newest_first = old.to_vec();
    newest_first.sort_by(|a, b| oldest_first(b, a));
    let mut all = newest_first.clone();
    all.extend(new.cloned());
    let active = active(&all);
    match active.len() {
        0 => new.cloned().or_else(|| newest_first.first().cloned()),
        1 => active.first().cloned(),
        _ => None,
    }
}
