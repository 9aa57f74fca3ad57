//! The workload simulation (`ServerOptions::workloads`): a small kube-controller-manager
//! (the deployment, replicaset, statefulset, daemonset and job controllers),
//! kube-scheduler and kubelet, so that workloads on the embedded server get
//! ReplicaSets, Pods on Ready Nodes, rollouts and the status those components write.
//!
//! It lives inside the server, as a module folder beside `controllers/`, rather than as
//! a crate of its own that talks to the API: it runs in the controllers' task, sees
//! every write through `Store::subscribe_all` and acts on the state under the server's
//! lock through the same create, update and delete rules a request goes through
//! (`cluster.rs`). That keeps what made `controllers/` simple: each sync reads the
//! store as it is now, so none of kube-controller-manager's machinery for stale caches
//! (expectations, adoption re-checks) is needed; the simulation starts and stops with
//! the server, with nothing to connect; and thousands of pods cost no encoding or HTTP
//! round trips, which the benchmarks that run it would feel. The price is that its
//! writes skip admission webhooks, which a real cluster calls for the Pods its
//! controllers create.
//!
//! Each component is one module that opens with what it imitates and where that lives
//! in Kubernetes' source. The controllers are level-triggered as the real ones are: an
//! event marks keys dirty (the object, and its controller for an object it controls),
//! a pass syncs each dirty key once, and time-driven steps (a pod starting, a
//! progress deadline) come back as timers.

mod cluster;
mod daemonsets;
mod deployments;
mod events;
mod history;
mod jobs;
mod kubelet;
mod nodes;
mod options;
mod pods;
mod replicasets;
mod scheduler;
mod statefulsets;

use std::collections::BTreeSet;

use serde_json::Value;
use tokio::time::Instant;

pub use self::options::{BEHAVIOUR_ANNOTATION, ImageRule, PodBehaviour, WorkloadSimulation};
use self::cluster::{Cluster, Index};
use self::events::Recorder;
use crate::registry::GroupResource;
use crate::server::State;
use crate::store::{Event, EventType, object_key};

/// The kinds the simulation watches or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Kind {
    // Synced in this order within a pass: owners before what they own.
    Deployment,
    ReplicaSet,
    StatefulSet,
    DaemonSet,
    Job,
    Pod,
    Node,
    ControllerRevision,
    PersistentVolumeClaim,
}

impl Kind {
    /// (group, version, plural).
    fn api(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Self::Deployment => ("apps", "v1", "deployments"),
            Self::ReplicaSet => ("apps", "v1", "replicasets"),
            Self::StatefulSet => ("apps", "v1", "statefulsets"),
            Self::DaemonSet => ("apps", "v1", "daemonsets"),
            Self::Job => ("batch", "v1", "jobs"),
            Self::Pod => ("", "v1", "pods"),
            Self::Node => ("", "v1", "nodes"),
            Self::ControllerRevision => ("apps", "v1", "controllerrevisions"),
            Self::PersistentVolumeClaim => ("", "v1", "persistentvolumeclaims"),
        }
    }

    fn group_resource(self) -> GroupResource {
        let (group, _, plural) = self.api();
        GroupResource {
            group: group.into(),
            resource: plural.into(),
        }
    }

    const ALL: [Self; 9] = [
        Self::Deployment,
        Self::ReplicaSet,
        Self::StatefulSet,
        Self::DaemonSet,
        Self::Job,
        Self::Pod,
        Self::Node,
        Self::ControllerRevision,
        Self::PersistentVolumeClaim,
    ];

    fn of(resource: &GroupResource) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| {
            let (group, _, plural) = kind.api();
            resource.group == group && resource.resource == plural
        })
    }

    /// The kind an owner reference names.
    fn of_owner(reference: &Value) -> Option<Self> {
        let group = reference["apiVersion"].as_str()?.rsplit_once('/').map_or("", |(g, _)| g);
        Self::ALL.into_iter().find(|kind| {
            let (kind_group, _, _) = kind.api();
            kind_group == group && format!("{kind:?}") == reference["kind"].as_str().unwrap_or_default()
        })
    }
}

/// One object a controller syncs.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct Key {
    kind: Kind,
    namespace: String,
    name: String,
}

impl Key {
    fn of(kind: Kind, object: &Value) -> Self {
        let (namespace, name) = object_key(object);
        Self { kind, namespace, name }
    }
}

/// Keys to look at again at a time, earliest first.
pub(super) type Timers = BTreeSet<(Instant, Key)>;

/// The simulation's state, owned by the controllers' task.
pub(crate) struct Simulation {
    options: WorkloadSimulation,
    index: Index,
    timers: Timers,
    recorder: Recorder,
    kubelet: kubelet::Kubelet,
    /// Keys to sync in the next pass, each once.
    dirty: BTreeSet<Key>,
    /// The Nodes are registered (on the first pass).
    registered: bool,
}

impl Simulation {
    pub fn new(options: WorkloadSimulation) -> Self {
        Self {
            options,
            index: Index::default(),
            timers: Timers::new(),
            recorder: Recorder::default(),
            kubelet: kubelet::Kubelet::default(),
            dirty: BTreeSet::new(),
            registered: false,
        }
    }

    /// Indexes the object of `event` and marks dirty what must look at it: itself and
    /// its controller (the object before the change too, in case its owner changed).
    pub fn observe(&mut self, event: &Event) {
        let Some(kind) = Kind::of(&event.resource) else {
            return;
        };
        let deleted = event.kind == EventType::Deleted;
        self.index.observe(kind, &event.object, deleted);
        if kind == Kind::Node {
            // Every DaemonSet places pods by the Nodes, and pods may now fit somewhere.
            self.dirty.insert(Key {
                kind: Kind::Node,
                namespace: String::new(),
                name: String::new(),
            });
        }
        if matches!(
            kind,
            Kind::Deployment | Kind::ReplicaSet | Kind::StatefulSet | Kind::DaemonSet | Kind::Job | Kind::Pod
        ) {
            self.dirty.insert(Key::of(kind, &event.object));
        }
        if deleted && kind == Kind::Pod {
            self.kubelet.forget(&event.object);
        }
        let objects = std::iter::once(event.object.as_ref()).chain(event.previous.as_deref());
        for object in objects {
            if let Some(owner) = cluster::controller_ref(object)
                && let Some(owner_kind) = Kind::of_owner(owner)
            {
                self.dirty.insert(Key {
                    kind: owner_kind,
                    namespace: object["metadata"]["namespace"].as_str().unwrap_or_default().to_owned(),
                    name: owner["name"].as_str().unwrap_or_default().to_owned(),
                });
            }
        }
    }

    /// When the next timer is due.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.timers.first().map(|(at, _)| *at)
    }

    /// Syncs every dirty key and every key whose timer is due.
    pub fn run(&mut self, state: &mut State, now: Instant) {
        while let Some((at, _)) = self.timers.first() {
            if *at > now {
                break;
            }
            if let Some((_, key)) = self.timers.pop_first() {
                self.dirty.insert(key);
            }
        }
        let dirty = std::mem::take(&mut self.dirty);
        let mut cluster = Cluster {
            state,
            index: &mut self.index,
            timers: &mut self.timers,
            recorder: &mut self.recorder,
            options: &self.options,
            now,
        };
        if !self.registered {
            nodes::register(&mut cluster);
            self.registered = true;
        }
        for key in &dirty {
            match key.kind {
                Kind::Deployment => deployments::sync(&mut cluster, key),
                Kind::ReplicaSet => replicasets::sync(&mut cluster, key),
                Kind::StatefulSet => statefulsets::sync(&mut cluster, key),
                Kind::DaemonSet => daemonsets::sync(&mut cluster, key),
                Kind::Job => jobs::sync(&mut cluster, key),
                Kind::Pod => {
                    scheduler::schedule(&mut cluster, key);
                    self.kubelet.sync(&mut cluster, key);
                }
                Kind::Node => {
                    daemonsets::sync_all(&mut cluster);
                    scheduler::schedule_all(&mut cluster);
                }
                Kind::ControllerRevision | Kind::PersistentVolumeClaim => {}
            }
        }
    }
}
