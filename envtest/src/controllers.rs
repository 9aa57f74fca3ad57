//! The controllers a cluster runs beside its API server and that tests rely on: the
//! garbage collector, namespace and CRD cleanup, kube-apiserver's own flow-control
//! configuration controller (`flowcontrol`) and `APIService` availability controllers
//! (`apiservices`), and on request the workload
//! simulation (`workloads`: the workload controllers, a scheduler and kubelets) with the
//! storage protection controllers (`protection`) beside it.
//!
//! They run as one tokio task inside the embedded server. The task watches every write
//! through `Store::subscribe_all` and acts on the server's state directly, as
//! kube-controller-manager acts through the API: each pass re-reads the store, so an
//! object that changed meanwhile is simply handled again on its next event.
//!
//! May import: `core`, `options`, `resources`, `store`, `state`, `lifecycle`, `api`
//! (the simulated scheduler binds pods as a `pods/binding` create does) and
//! `admission` (quota usage is computed as quota admission computes it).

mod apiservices;
mod crds;
mod flowcontrol;
mod gc;
mod namespaces;
mod protection;
mod quota;
#[cfg(feature = "workloads")]
mod workloads;

use std::collections::BTreeSet;
use std::sync::{Arc, Weak};

use futures::StreamExt;
use futures::channel::mpsc::UnboundedReceiver;
use serde_json::Value;

use crate::core::{GroupResource, ResourceType};
use crate::lifecycle::controller_update as update;
use crate::options::ServerOptions;
use crate::state::{ApiServer, Shared, State};
use crate::store::{Event, EventType, object_key};

#[cfg(feature = "workloads")]
use self::workloads::Simulation;

#[cfg(feature = "workloads")]
impl Simulation {
    /// The simulation `options` ask for, if any.
    fn of(options: &ServerOptions) -> Option<Self> {
        options.workloads.clone().map(Self::new)
    }
}

/// Without the `workloads` feature there is no simulation: an uninhabited stand-in
/// keeps the controllers' loop one.
#[cfg(not(feature = "workloads"))]
enum Simulation {}

#[cfg(not(feature = "workloads"))]
impl Simulation {
    fn of(_: &ServerOptions) -> Option<Self> {
        None
    }

    fn observe(&mut self, _: &Event) {
        match *self {}
    }

    fn register_nodes(&mut self, _: &mut State, _: tokio::time::Instant) {
        match *self {}
    }

    fn next_deadline(&self) -> Option<tokio::time::Instant> {
        match *self {}
    }

    fn run(&mut self, _: &mut State, _: tokio::time::Instant) {
        match *self {}
    }
}

/// The field manager of the writes kube-controller-manager makes (it sets none, so the
/// server names it after its user agent).
const CONTROLLER_MANAGER: &str = "kube-controller-manager";

/// Starts the controllers the options ask for, on the server's own threads (so they
/// run whatever the test's runtime does, and in a server built outside async code).
pub(crate) fn start(server: &ApiServer) {
    let options = &server.shared.options;
    if !options.controllers && Simulation::of(options).is_none() {
        return;
    }
    let runtime = server.shared.runtime.handle();
    // The simulation's clock (`tokio::time::Instant`) is the server runtime's.
    let _entered = runtime.enter();
    // Subscribing and scanning under one lock: every object is either in the scan or
    // arrives as an event, never neither.
    let mut controllers = Controllers::new(options);
    let (events, initial) = {
        let mut state = server.shared.state.lock();
        let events = state.store.subscribe_all();
        let resources: Vec<GroupResource> = state.store.resources().cloned().collect();
        let mut initial = Vec::new();
        for resource in resources {
            for object in state.store.objects(&resource).values() {
                initial.push(Arc::new(Event::added(resource.clone(), object.clone())));
            }
        }
        if let Some(workloads) = &mut controllers.workloads {
            workloads.register_nodes(&mut state, tokio::time::Instant::now());
        }
        (events, initial)
    };
    // A Weak: the task must not keep the server alive; dropping the server drops the
    // store, whose sender ends `events` and with it the task.
    runtime.spawn(controllers.run(Arc::downgrade(&server.shared), events, initial));
}

/// Where an object lives: its resource and its (namespace, name), the namespace empty
/// when cluster-scoped.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct ObjectRef {
    resource: GroupResource,
    namespace: String,
    name: String,
}

impl ObjectRef {
    fn of(resource: &GroupResource, object: &Value) -> Self {
        let (namespace, name) = object_key(object);
        Self {
            resource: resource.clone(),
            namespace,
            name,
        }
    }

    /// The object as stored now.
    fn get(&self, state: &State) -> Option<Arc<Value>> {
        state.store.get(&self.resource, &self.namespace, &self.name)
    }

    /// A served type of the object's resource (any version: they share storage).
    fn resource_type(&self, state: &State) -> Option<Arc<ResourceType>> {
        state.registry.any_version(&self.resource)
    }
}

/// The state of all controllers, owned by their one task.
struct Controllers {
    /// Garbage collection and namespace and CRD cleanup run (`ServerOptions::controllers`).
    cleanup: bool,
    gc: gc::GarbageCollector,
    /// Runs with the cleanup controllers (it is kube-apiserver's own).
    flowcontrol: flowcontrol::FlowControl,
    workloads: Option<Simulation>,
    /// Namespaces whose quotas to sync in the next pass (with the workloads only, as
    /// kube-controller-manager's quota controller runs beside its workload ones).
    quota_namespaces: BTreeSet<String>,
    /// Objects to look at in the next pass: each once, however many events named it.
    dirty: BTreeSet<ObjectRef>,
    /// `APIServices`, Services and Endpoints that changed or went since the last pass,
    /// for the `APIService` availability controllers.
    availability: BTreeSet<ObjectRef>,
}

impl Controllers {
    fn new(options: &ServerOptions) -> Self {
        Self {
            cleanup: options.controllers,
            gc: gc::GarbageCollector::default(),
            flowcontrol: flowcontrol::FlowControl::default(),
            workloads: Simulation::of(options),
            quota_namespaces: BTreeSet::new(),
            dirty: BTreeSet::new(),
            availability: BTreeSet::new(),
        }
    }

    /// Handles the initial scan, then every event and rollout deadline, until the
    /// server is gone.
    async fn run(
        mut self,
        shared: Weak<Shared>,
        mut events: UnboundedReceiver<Arc<Event>>,
        // The initial scan, handled as if every object had just been added.
        mut batch: Vec<Arc<Event>>,
    ) {
        loop {
            {
                let Some(shared) = shared.upgrade() else {
                    return;
                };
                let mut state = shared.state.lock();
                // Every write sends its event while it holds the state, so what is
                // queued now is everything the state holds: the index acts on the
                // state it sees (a foreground owner is never judged with its newest
                // dependents still queued).
                while let Ok(event) = events.try_recv() {
                    batch.push(event);
                }
                self.pass(&mut state, &batch);
            }
            batch.clear();
            let deadline = [
                self.workloads.as_ref().and_then(Simulation::next_deadline),
                self.flowcontrol.next_deadline(),
            ]
            .into_iter()
            .flatten()
            .min();
            let timer = async move {
                match deadline {
                    Some(deadline) => tokio::time::sleep_until(deadline).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                event = events.next() => match event {
                    Some(event) => batch.push(event),
                    None => return,
                },
                () = timer => {}
            }
            // Whatever else is queued joins this pass, so a burst is handled once.
            while let Ok(event) = events.try_recv() {
                batch.push(event);
            }
        }
    }

    /// Takes in `events`, then acts on everything they made dirty, and runs the
    /// workload simulation's syncs that are dirty or due.
    fn pass(&mut self, state: &mut State, events: &[Arc<Event>]) {
        for event in events {
            self.observe(state, event);
        }
        let dirty = std::mem::take(&mut self.dirty);
        for item in &dirty {
            self.gc.attempt_to_delete(state, item);
            self.gc.process_owner(state, item);
            namespaces::finalize(state, item);
            crds::cleanup(state, item);
            if self.workloads.is_some() {
                protection::protect_claim(state, item);
                protection::protect_volume(state, item);
            }
        }
        if self.cleanup {
            self.flowcontrol.digest(state, tokio::time::Instant::now());
        }
        let changed = std::mem::take(&mut self.availability);
        let groups: BTreeSet<String> = changed.iter().filter_map(apiservices::crd_group).collect();
        for group in &groups {
            apiservices::register_crd_versions(state, group);
        }
        let apis: BTreeSet<ObjectRef> = changed
            .iter()
            .flat_map(|item| apiservices::affected(state, item))
            .collect();
        for api in &apis {
            apiservices::sync(state, api);
        }
        if let Some(workloads) = &mut self.workloads {
            workloads.run(state, tokio::time::Instant::now());
        }
        let namespaces = std::mem::take(&mut self.quota_namespaces);
        for namespace in quota::with_quotas(state, namespaces) {
            quota::sync(state, &namespace);
        }
    }

    fn observe(&mut self, state: &State, event: &Event) {
        if let Some(workloads) = &mut self.workloads {
            workloads.observe(event);
            let (namespace, _) = object_key(event.object());
            if !namespace.is_empty() {
                self.quota_namespaces.insert(namespace);
            }
        }
        if !self.cleanup {
            return;
        }
        if flowcontrol::watches(&event.resource) {
            self.flowcontrol.observe();
        }
        let item = ObjectRef::of(&event.resource, event.object());
        if apiservices::watches(&event.resource) {
            self.availability.insert(item.clone());
        }
        self.gc.observe(state, event, &item, &mut self.dirty);
        if event.kind == EventType::Deleted {
            // Whoever waits for this object to go (its namespace, its CRD) looks again.
            if !item.namespace.is_empty() {
                self.dirty.insert(namespaces::namespace_ref(&item.namespace));
            }
            self.dirty.extend(crds::deleting_crds_of(state, &item.resource));
        } else {
            self.dirty.insert(item.clone());
        }
        if self.workloads.is_some() {
            self.dirty.extend(protection::released_by(state, &item));
        }
    }
}

/// The `metadata.finalizers` of an object.
fn finalizers(object: &Value) -> impl Iterator<Item = &str> {
    object["metadata"]["finalizers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

fn has_finalizer(object: &Value, finalizer: &str) -> bool {
    finalizers(object).any(|f| f == finalizer)
}

fn is_deleting(object: &Value) -> bool {
    object["metadata"]["deletionTimestamp"].is_string()
}

/// Removes one finalizer; when it was the last of an object being deleted, the update
/// deletes the object.
fn remove_finalizer(state: &mut State, resource: &ResourceType, current: &Value, finalizer: &str, manager: &str) {
    let mut desired = current.clone();
    if let Some(list) = desired["metadata"]["finalizers"].as_array_mut() {
        list.retain(|f| f != finalizer);
    }
    update(state, resource, current, desired, None, manager);
}

#[cfg(test)]
mod tests {
    use std::future::Future;
    use std::time::Duration;

    use kube::api::{Api, DynamicObject};
    use kube::core::ApiResource;

    use super::*;

    /// Waits until `check` holds, polling every 20 ms for up to 5 s.
    pub(super) async fn eventually<F, Fut>(what: &str, mut check: F)
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = bool>,
    {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while !check().await {
            assert!(tokio::time::Instant::now() < deadline, "timed out waiting until {what}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Whether `name` exists, through the API.
    pub(super) async fn exists<K>(api: &Api<K>, name: &str) -> bool
    where
        K: kube::Resource + Clone + serde::de::DeserializeOwned + std::fmt::Debug,
    {
        api.get_opt(name).await.expect("get").is_some()
    }

    /// A server with the default controllers and a client of it.
    pub(super) fn server() -> (ApiServer, kube::Client) {
        let server = ApiServer::new(ServerOptions::default());
        let client = kube::Client::new(server.clone(), "default");
        (server, client)
    }

    #[tokio::test]
    async fn the_task_ends_when_the_server_is_dropped() {
        let server = ApiServer::new(ServerOptions::default());
        let metrics = server.shared.runtime.handle().metrics();
        assert_eq!(metrics.num_alive_tasks(), 1, "the controllers' one task");
        let shared = Arc::downgrade(&server.shared);
        drop(server);
        // The task holds only a Weak, so dropping the server drops it all, its
        // threads with it, once a pass it may be in the middle of (holding the
        // server for that pass) ends.
        eventually("nothing keeps the server alive", || async {
            shared.upgrade().is_none()
        })
        .await;
        eventually("the controller task ended", || async { metrics.num_alive_tasks() == 0 }).await;
    }

    #[tokio::test]
    async fn nothing_runs_when_no_controller_is_asked_for() {
        let options = ServerOptions {
            controllers: false,
            ..ServerOptions::default()
        };
        let server = ApiServer::new(options);
        assert_eq!(server.shared.runtime.handle().metrics().num_alive_tasks(), 0);
    }

    #[test]
    fn a_server_built_outside_a_runtime_runs_its_controllers() {
        let server = ApiServer::new(ServerOptions::default());
        assert_eq!(server.shared.runtime.handle().metrics().num_alive_tasks(), 1);
        assert!(server.revision() > 0);
    }

    #[tokio::test]
    async fn objects_present_before_start_are_handled() {
        // An object whose owner never existed, stored before the controllers start: the
        // server is built on a thread without a runtime, so its own start does nothing.
        let server = std::thread::spawn(|| ApiServer::new(ServerOptions::default()))
            .join()
            .expect("build the server");
        let orphan = serde_json::json!({
            "apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "orphan", "namespace": "default", "uid": "u-1", "ownerReferences": [
                {"apiVersion": "v1", "kind": "ConfigMap", "name": "gone", "uid": "u-0"}
            ]},
        });
        let configmaps = GroupResource {
            group: String::new(),
            resource: "configmaps".into(),
        };
        server
            .shared
            .state
            .lock()
            .store
            .write(&configmaps, ("default".into(), "orphan".into()), Some(orphan));
        start(&server);
        let client = kube::Client::new(server.clone(), "default");
        let resource = ApiResource::erase::<k8s_openapi::api::core::v1::ConfigMap>(&());
        let api: Api<DynamicObject> = Api::namespaced_with(client, "default", &resource);
        eventually("the orphan is collected", || async { !exists(&api, "orphan").await }).await;
    }
}
