//! How the simulated controllers read and write the cluster: the server's state
//! directly, under its lock, through the same create, update and delete rules a client
//! request goes through (`lifecycle::prepare_new`, `prepare_update`, `lifecycle::deletion::delete`),
//! with an index of which object controls which.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use serde_json::Value;
use tokio::time::Instant;

use super::events::Recorder;
use super::fields::{controller_uid, name_of};
use super::pods::is_finished;
use super::{Key, Kind, Timers};
use crate::core::{ApiError, ResourceType};
use crate::lifecycle::deletion::{DeleteOptions, Deleted, delete};
use crate::lifecycle::{commit_create, prepare_new};
use crate::options::WorkloadSimulation;
use crate::state::State;
use crate::store::object_key;

/// The field manager of kube-controller-manager's writes.
pub(super) const CONTROLLER_MANAGER: &str = "kube-controller-manager";

/// Which objects each object controls (its `ownerReferences` entry with
/// `controller: true`), and which Node each pod runs on, from every write the
/// simulation observed.
///
/// Invariants: `children[owner]` holds `child` exactly when `owner_of[child] == owner`;
/// `pods_on[node]` is the number of pods `node_of` places on `node`, and `node_of`
/// holds the bound pods that have not finished. The index may lag the store by the
/// events not yet observed, so every reader re-reads the objects it names and checks
/// their owner again; the scheduler reads the counts as they are (a lagging count only
/// shifts which Node is least loaded).
#[derive(Default)]
pub(super) struct Index {
    children: HashMap<String, BTreeSet<Key>>,
    owner_of: HashMap<Key, String>,
    /// The Node of each bound, unfinished pod: the scheduler's count of pods per Node
    /// without reading every pod for every binding (which made a cold start of N pods
    /// cost N² reads under the server's lock).
    node_of: HashMap<Key, String>,
    pods_on: HashMap<String, usize>,
}

impl Index {
    /// Records `object` (of `kind`) as it is now, or its deletion.
    pub fn observe(&mut self, kind: Kind, object: &Value, deleted: bool) {
        let (namespace, name) = object_key(object);
        let key = Key { kind, namespace, name };
        if kind == Kind::Pod {
            let node = object["spec"]["nodeName"].as_str().filter(|node| !node.is_empty());
            self.place(&key, node.filter(|_| !deleted && !is_finished(object)));
        }
        let owner = if deleted { None } else { controller_uid(object) };
        if self.owner_of.get(&key) == owner.as_ref() {
            return;
        }
        if let Some(old) = self.owner_of.remove(&key)
            && let Some(set) = self.children.get_mut(&old)
        {
            set.remove(&key);
            if set.is_empty() {
                self.children.remove(&old);
            }
        }
        if let Some(owner) = owner {
            self.children.entry(owner.clone()).or_default().insert(key.clone());
            self.owner_of.insert(key, owner);
        }
    }

    /// Moves the pod of `key` to `node` (None: it runs nowhere) in the counts.
    fn place(&mut self, key: &Key, node: Option<&str>) {
        if self.node_of.get(key).map(String::as_str) == node {
            return;
        }
        if let Some(old) = self.node_of.remove(key)
            && let Some(count) = self.pods_on.get_mut(&old)
        {
            *count -= 1;
            if *count == 0 {
                self.pods_on.remove(&old);
            }
        }
        if let Some(node) = node {
            self.node_of.insert(key.clone(), node.to_owned());
            *self.pods_on.entry(node.to_owned()).or_default() += 1;
        }
    }

    /// How many bound, unfinished pods run on `node`, as far as the index has seen.
    pub fn pods_on(&self, node: &str) -> usize {
        self.pods_on.get(node).copied().unwrap_or(0)
    }

    fn children_of(&self, uid: &str, kind: Kind) -> Vec<Key> {
        self.children
            .get(uid)
            .into_iter()
            .flatten()
            .filter(|key| key.kind == kind)
            .cloned()
            .collect()
    }
}

/// What the simulated controllers act through during one pass: the server's state,
/// and the simulation's index, timers and event recorder.
pub(super) struct Cluster<'a> {
    pub state: &'a mut State,
    pub index: &'a mut Index,
    pub timers: &'a mut Timers,
    pub recorder: &'a mut Recorder,
    pub options: &'a WorkloadSimulation,
    /// When this pass started, for timers.
    pub now: Instant,
}

impl Cluster<'_> {
    /// The served type of `kind`.
    pub fn resource(&self, kind: Kind) -> Option<Arc<ResourceType>> {
        let (group, version, plural) = kind.api();
        self.state.registry.get(group, version, plural)
    }

    pub fn get(&self, kind: Kind, namespace: &str, name: &str) -> Option<Arc<Value>> {
        self.state.store.get(&kind.group_resource(), namespace, name)
    }

    /// The current object of `key`.
    pub fn get_key(&self, key: &Key) -> Option<Arc<Value>> {
        self.get(key.kind, &key.namespace, &key.name)
    }

    /// Every object of `kind`.
    pub fn all(&self, kind: Kind) -> Vec<Arc<Value>> {
        self.state.store.values(&kind.group_resource())
    }

    /// The objects of `kind` that `owner` controls, oldest first (ties by name), as
    /// the controllers sort them (`ReplicaSetsByCreationTimestamp`).
    pub fn children(&self, owner: &Value, kind: Kind) -> Vec<Arc<Value>> {
        let uid = owner["metadata"]["uid"].as_str().unwrap_or_default();
        let mut children: Vec<Arc<Value>> = self
            .index
            .children_of(uid, kind)
            .iter()
            .filter_map(|key| self.get_key(key))
            .filter(|child| controller_uid(child).as_deref() == Some(uid))
            .collect();
        children.sort_by(|a, b| {
            let created = |o: &Value| {
                o["metadata"]["creationTimestamp"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned()
            };
            created(a).cmp(&created(b)).then_with(|| name_of(a).cmp(name_of(b)))
        });
        children
    }

    /// Creates `object` in `namespace` as `manager` would through the API.
    pub fn create(
        &mut self,
        kind: Kind,
        namespace: &str,
        object: Value,
        manager: &str,
    ) -> Result<Arc<Value>, ApiError> {
        let resource = self.resource(kind).ok_or_else(ApiError::path_not_found)?;
        let namespace = resource.namespaced.then_some(namespace);
        let (object, _warnings) = prepare_new(&resource, namespace, object, manager)?;
        let created = commit_create(self.state, &resource, object, false)?;
        self.index.observe(kind, &created, false);
        Ok(created)
    }

    /// Writes `desired` over `current` (or over its status, with `status`), as an
    /// update from `manager`; the object as stored after, None if the write was
    /// refused (its next event retries).
    pub fn update(
        &mut self,
        kind: Kind,
        current: &Value,
        desired: Value,
        status: bool,
        manager: &str,
    ) -> Option<Arc<Value>> {
        let resource = self.resource(kind)?;
        let subresource = status.then_some("status");
        let written =
            crate::lifecycle::controller_update(self.state, &resource, current, desired, subresource, manager)?;
        let (namespace, name) = object_key(&written);
        let gone = self.get(kind, &namespace, &name).is_none();
        self.index.observe(kind, &written, gone);
        Some(written)
    }

    /// Replaces the status of `current` with `status`.
    pub fn write_status(&mut self, kind: Kind, current: &Value, status: Value, manager: &str) -> Option<Arc<Value>> {
        if current["status"] == status {
            return None;
        }
        let mut desired = current.clone();
        desired["status"] = status;
        self.update(kind, current, desired, true, manager)
    }

    /// Deletes an object as a controller does: in the background, and for a pod with
    /// its grace period (`grace_period` None) or the one given.
    pub fn delete(&mut self, kind: Kind, namespace: &str, name: &str, grace_period: Option<i64>) -> Option<Deleted> {
        let resource = self.resource(kind)?;
        let mut options = DeleteOptions::propagating(None);
        options.grace_period_seconds = grace_period;
        match delete(self.state, &resource, namespace, name, &options) {
            Ok(deleted) => {
                let gone = matches!(deleted, Deleted::Gone(_));
                self.index.observe(kind, deleted.object(), gone);
                Some(deleted)
            }
            Err(error) => {
                tracing::debug!(?error, name, "a simulated controller's delete was refused");
                None
            }
        }
    }

    /// Looks at `key` again at `at` (or at once, if that has passed).
    pub fn requeue_at(&mut self, key: Key, at: Instant) {
        self.timers.insert((at.max(self.now), key));
    }

    /// Records an Event about `involved` from `component` (and `host`).
    pub fn event(&mut self, involved: &Value, warning: bool, reason: &str, message: &str, component: &str) {
        self.event_from(involved, warning, reason, message, component, None);
    }

    /// [`Self::event`] from a component on a node (the kubelet).
    pub fn event_from(
        &mut self,
        involved: &Value,
        warning: bool,
        reason: &str,
        message: &str,
        component: &str,
        host: Option<&str>,
    ) {
        let event = super::events::Occurrence {
            involved,
            warning,
            reason,
            message,
            component,
            host,
        };
        self.recorder.record(self.state, &event);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pod(name: &str, node: &str, phase: &str) -> Value {
        json!({"metadata": {"namespace": "default", "name": name},
               "spec": {"nodeName": node}, "status": {"phase": phase}})
    }

    #[test]
    fn pods_per_node_follow_bindings_moves_finishes_and_deletions() {
        let mut index = Index::default();
        index.observe(Kind::Pod, &pod("a", "", "Pending"), false);
        assert_eq!(index.pods_on(""), 0, "an unbound pod runs nowhere");
        index.observe(Kind::Pod, &pod("a", "worker-1", "Pending"), false);
        index.observe(Kind::Pod, &pod("b", "worker-1", "Running"), false);
        index.observe(Kind::Pod, &pod("b", "worker-1", "Running"), false);
        assert_eq!(index.pods_on("worker-1"), 2, "a pod seen twice counts once");
        index.observe(Kind::Pod, &pod("a", "worker-2", "Running"), false);
        assert_eq!((index.pods_on("worker-1"), index.pods_on("worker-2")), (1, 1));
        index.observe(Kind::Pod, &pod("b", "worker-1", "Succeeded"), false);
        assert_eq!(index.pods_on("worker-1"), 0, "a finished pod no longer counts");
        index.observe(Kind::Pod, &pod("a", "worker-2", "Running"), true);
        assert_eq!(index.pods_on("worker-2"), 0, "a deleted pod no longer counts");
        assert!(index.node_of.is_empty() && index.pods_on.is_empty());
    }
}
