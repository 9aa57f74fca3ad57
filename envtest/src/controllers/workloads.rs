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
mod fields;
mod history;
mod jobs;
mod kubelet;
mod nodes;
mod pods;
mod replicasets;
mod scheduler;
mod statefulsets;

use std::collections::BTreeSet;

use serde_json::Value;
use tokio::time::Instant;

use self::cluster::{Cluster, Index};
use self::events::Recorder;
use crate::core::GroupResource;
use crate::options::WorkloadSimulation;
use crate::state::State;
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
        let group = reference["apiVersion"]
            .as_str()?
            .rsplit_once('/')
            .map_or("", |(g, _)| g);
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
    /// ReplicaSets that lost a pod since the last pass: their Deployments look again.
    pods_gone: BTreeSet<Key>,
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
            pods_gone: BTreeSet::new(),
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
        if deleted
            && kind == Kind::Pod
            && let Some(owner) = fields::controller_ref(event.object())
            && Kind::of_owner(owner) == Some(Kind::ReplicaSet)
        {
            // A Recreate rollout waits for the old pods to be gone, which changes no
            // ReplicaSet status: the deployment controller watches pod deletions.
            self.pods_gone.insert(Key {
                kind: Kind::ReplicaSet,
                namespace: fields::namespace_of(event.object()).to_owned(),
                name: owner["name"].as_str().unwrap_or_default().to_owned(),
            });
        }
        self.index.observe(kind, event.object(), deleted);
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
            self.dirty.insert(Key::of(kind, event.object()));
        }
        if deleted && kind == Kind::Pod {
            self.kubelet.forget(event.object());
        }
        let objects = std::iter::once(event.object().as_ref()).chain(event.previous().map(AsRef::as_ref));
        for object in objects {
            if let Some(owner) = fields::controller_ref(object)
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

    /// Registers the simulated Nodes, so they are there as soon as the server is
    /// (a test deciding from the Nodes whether pods run sees them at once).
    pub fn register_nodes(&mut self, state: &mut State, now: Instant) {
        // The first pass registers them; nothing else is dirty yet.
        self.run(state, now);
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
        for key in std::mem::take(&mut self.pods_gone) {
            let owner = state
                .store
                .get(&Kind::ReplicaSet.group_resource(), &key.namespace, &key.name)
                .and_then(|rs| fields::controller_ref(&rs).cloned());
            if let Some(owner) = owner.filter(|o| Kind::of_owner(o) == Some(Kind::Deployment)) {
                let name = owner["name"].as_str().unwrap_or_default().to_owned();
                self.dirty.insert(Key {
                    kind: Kind::Deployment,
                    namespace: key.namespace,
                    name,
                });
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
            // A bug in one sync must not end the simulation for every later object.
            let synced = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                sync(&mut self.kubelet, &mut cluster, key);
            }));
            if synced.is_err() {
                tracing::error!(?key, "a simulated controller panicked; the object is left as it is");
            }
        }
    }
}

/// One sync of one key by the component that owns its kind.
fn sync(kubelet: &mut kubelet::Kubelet, cluster: &mut Cluster<'_>, key: &Key) {
    match key.kind {
        Kind::Deployment => deployments::sync(cluster, key),
        Kind::ReplicaSet => replicasets::sync(cluster, key),
        Kind::StatefulSet => statefulsets::sync(cluster, key),
        Kind::DaemonSet => daemonsets::sync(cluster, key),
        Kind::Job => jobs::sync(cluster, key),
        Kind::Pod => {
            scheduler::schedule(cluster, key);
            kubelet.sync(cluster, key);
        }
        Kind::Node => {
            daemonsets::sync_all(cluster);
            scheduler::schedule_all(cluster);
        }
        Kind::ControllerRevision | Kind::PersistentVolumeClaim => {}
    }
}
