//! [`PhaseScheduler`]: a worker per phase, an optional finalizer and the work interval,
//! checked against the phase declaration and built into an ordinary [`Controller`] by
//! [`Builder::build_phases`]; and the reconciler it becomes, which runs one sync:
//! finalizer, inputs, worker, transition check, outputs, then the status (only if it
//! changed), an Event and metrics for a transition.
//!
//! Order is what makes a sync safe to repeat: outputs are applied before the status
//! records the transition, so a failure anywhere leaves the resource in the phase whose
//! worker produced them, and that worker runs again.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use jiff::Timestamp;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use kube::ResourceExt;
use kube::api::{Api, Patch, PatchParams};
use kube::runtime::events::{Event as KubeEvent, EventType, Recorder, Reporter};
use parking_lot::Mutex;
use serde_json::json;
use tracing::Instrument;
use wheelhouse_cache::{ScopeKind, Store};

use crate::controller::{Builder, Controller};
use crate::key::ObjectKey;
use crate::phase::declaration::{DeclarationError, Declared, Phase};
use crate::phase::inputs::{InputSource, Inputs, Provided, Watches};
use crate::phase::metrics::{CountByPhase, PhaseMetrics, PhaseSeries};
use crate::phase::object::Phased;
use crate::phase::outputs::{OutputKinds, OutputTarget, OutputTypes, Outputs};
use crate::phase::status::{PhaseStatus, merge_patch};
use crate::phase::worker::{Call, Failure, Finalizer, Run, RunFinalizer, Synced, Typed, Worker};
use crate::predicate::{self, Predicate};
use crate::reconciler::{Action, Context, Error, Reconciler};
use crate::{conditions, finalizer, owner};

/// How long a sync waits for the cache to catch up with the scheduler's own last
/// write of the resource, before it looks again.
const CACHE_CATCH_UP: Duration = Duration::from_millis(20);

/// The default work interval: how often a resource that stays in a phase is synced
/// again when nothing it watches changes.
pub const DEFAULT_WORK_INTERVAL: Duration = Duration::from_secs(30);

/// Called before each worker call with the resource's key and the phase's name.
type SyncHook = Arc<dyn Fn(&ObjectKey, &str) + Send + Sync>;

/// A worker, erased, with what it declares.
struct WorkerEntry<K: Phased> {
    phase: K::Phase,
    run: Box<dyn Run<K>>,
    declare: fn(&mut Watches<K>, &mut OutputTypes<K>),
}

/// The workers of a phased resource, and how they run; [`Builder::build_phases`]
/// checks them against [`Phase::phases`] and builds the controller.
///
/// ```no_run
/// # use kube::CustomResource;
/// # use schemars::JsonSchema;
/// # use serde::{Deserialize, Serialize};
/// # use wheelhouse_controller::phase::{Phase, PhaseStatus, Phases, Outcome, Worker};
/// # use wheelhouse_controller::{Context, Error};
/// # #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
/// # pub enum BuildPhase { Queued, Running, Done }
/// # impl Phase for BuildPhase {
/// #     fn phases() -> Phases<Self> {
/// #         Phases::new().initial(Self::Queued, [Self::Running]).phase(Self::Running, [Self::Done]).final_phase(Self::Done)
/// #     }
/// # }
/// # #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
/// # pub struct BuildInfo { pub attempts: u32 }
/// # #[derive(CustomResource, Clone, Debug, Serialize, Deserialize, JsonSchema)]
/// # #[kube(group = "example.com", version = "v1", kind = "Build", namespaced, status = "PhaseStatus<BuildPhase, BuildInfo>")]
/// # pub struct BuildSpec { pub image: String }
/// # struct Queue; struct Run;
/// # impl Worker<Build> for Queue { type Inputs = (); type Outputs = ();
/// #     async fn sync(&self, _: &Build, _: (), _: &Context) -> Result<Outcome<Build>, Error> { Ok(Outcome::next(BuildPhase::Running)) } }
/// # impl Worker<Build> for Run { type Inputs = (); type Outputs = ();
/// #     async fn sync(&self, _: &Build, _: (), _: &Context) -> Result<Outcome<Build>, Error> { Ok(Outcome::next(BuildPhase::Done)) } }
/// # async fn example(cache: wheelhouse_cache::Cache) -> Result<(), wheelhouse_controller::phase::DeclarationError> {
/// use std::time::Duration;
/// use wheelhouse_controller::Controller;
/// use wheelhouse_controller::phase::PhaseScheduler;
///
/// let controller = Controller::for_::<Build>(&cache)
///     .namespace("ci")
///     .concurrency(4)
///     .build_phases(
///         PhaseScheduler::new()
///             .worker(BuildPhase::Queued, Queue)
///             .worker(BuildPhase::Running, Run)
///             .work_interval(Duration::from_secs(60)),
///     )?;
/// controller.run(async { let _ = tokio::signal::ctrl_c().await; }).await;
/// # Ok(())
/// # }
/// ```
pub struct PhaseScheduler<K: Phased> {
    workers: Vec<WorkerEntry<K>>,
    finalizer: Option<(String, Box<dyn RunFinalizer<K>>)>,
    work_interval: Duration,
    field_manager: Option<String>,
    metrics: Option<PhaseMetrics>,
    provided: Provided,
    on_sync: Option<SyncHook>,
}

impl<K: Phased> fmt::Debug for PhaseScheduler<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PhaseScheduler")
            .field("phases", &self.workers.iter().map(|w| w.phase).collect::<Vec<_>>())
            .field("finalizer", &self.finalizer.as_ref().map(|(name, _)| name))
            .field("work_interval", &self.work_interval)
            .finish_non_exhaustive()
    }
}

impl<K: Phased> Default for PhaseScheduler<K> {
    fn default() -> Self {
        Self::new()
    }
}

fn declare<K: Phased, W: Worker<K>>(watches: &mut Watches<K>, outputs: &mut OutputTypes<K>) {
    W::Inputs::watch(watches);
    W::Outputs::declare(outputs);
}

impl<K: Phased> PhaseScheduler<K> {
    /// A scheduler with no workers yet.
    pub fn new() -> Self {
        Self {
            workers: Vec::new(),
            finalizer: None,
            work_interval: DEFAULT_WORK_INTERVAL,
            field_manager: None,
            metrics: None,
            provided: Provided::default(),
            on_sync: None,
        }
    }

    /// The worker of `phase`.
    #[must_use]
    pub fn worker<W: Worker<K>>(mut self, phase: K::Phase, worker: W) -> Self {
        self.workers.push(WorkerEntry {
            phase,
            run: Box::new(Typed(worker)),
            declare: declare::<K, W>,
        });
        self
    }

    /// Runs `worker` when a resource is deleted, holding the deletion with the
    /// finalizer `name` (added to every resource) until the worker succeeds.
    #[must_use]
    pub fn finalizer<F: Finalizer<K>>(mut self, name: impl Into<String>, worker: F) -> Self {
        self.finalizer = Some((name.into(), Box::new(Typed(worker))));
        self
    }

    /// How often a resource that stays in its phase is synced again when nothing it
    /// watches changes and its worker asked for no other delay (default 30 s).
    #[must_use]
    pub fn work_interval(mut self, interval: Duration) -> Self {
        self.work_interval = interval;
        self
    }

    /// The field manager of outputs and status writes (default: the controller's name).
    #[must_use]
    pub fn field_manager(mut self, manager: impl Into<String>) -> Self {
        self.field_manager = Some(manager.into());
        self
    }

    /// Reports transitions, worker time and resources per phase to `metrics`.
    #[must_use]
    pub fn metrics(mut self, metrics: &PhaseMetrics) -> Self {
        self.metrics = Some(metrics.clone());
        self
    }

    /// Gives inputs a value of type `T` (a default address, a client), read with
    /// [`InputSource::get`].
    #[must_use]
    pub fn provide<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.provided.insert(value);
        self
    }

    /// Calls `hook` before each worker call with the resource's key and the phase's
    /// name (for tests and benchmarks that count calls).
    #[must_use]
    pub fn on_sync(mut self, hook: impl Fn(&ObjectKey, &str) + Send + Sync + 'static) -> Self {
        self.on_sync = Some(Arc::new(hook));
        self
    }
}

impl<K: Phased> Builder<K> {
    /// The controller that runs `scheduler`'s workers: checks the workers against
    /// [`Phase::phases`], watches every input and owns every output type of the
    /// workers, and adds a predicate that lets through spec, label, annotation and
    /// phase changes and the start of deletion (a status write that keeps the phase
    /// does not sync the resource again). Predicates given to the builder must not
    /// filter out phase changes: a transition is what runs the next worker.
    pub fn build_phases(self, scheduler: PhaseScheduler<K>) -> Result<Controller, DeclarationError> {
        let phases: Vec<K::Phase> = scheduler.workers.iter().map(|w| w.phase).collect();
        let declared = Declared::check(K::Phase::phases(), &phases)?;
        let (cache, scope) = (self.cache().clone(), self.scope().clone());
        let controller = self.controller_name().to_owned();
        let field_manager = scheduler.field_manager.unwrap_or_else(|| controller.clone());
        let mut watches = Watches::new(&cache, &scope);
        let mut output_types = OutputTypes::new(&cache, &scope, &field_manager);
        for worker in &scheduler.workers {
            (worker.declare)(&mut watches, &mut output_types);
        }
        let (builder, inputs) = watches.finish(self, Arc::new(scheduler.provided));
        let (builder, outputs) = output_types.finish(builder);
        let resources = cache
            .informer::<K>(crate::controller::primary_scope(&cache, &scope))
            .store()
            .clone();
        let series = scheduler
            .metrics
            .map(|metrics| metrics.for_controller(&controller, count_by_phase(&resources, &declared)));
        let reporter = Reporter {
            controller: controller.clone(),
            instance: None,
        };
        let predicate = worth_a_sync(declared.initial());
        let reconciler = PhaseReconciler {
            workers: scheduler.workers.into_iter().map(|w| (w.phase, w.run)).collect(),
            declared,
            finalizer: scheduler.finalizer,
            work_interval: scheduler.work_interval,
            recorder: Recorder::new(cache.client(), reporter),
            field_manager,
            controller,
            inputs,
            outputs,
            resources,
            series,
            on_sync: scheduler.on_sync,
            written: Mutex::new(HashMap::new()),
        };
        Ok(builder.predicate(predicate).build(reconciler))
    }
}

/// Spec, label and annotation changes, the start of deletion, and phase changes (a
/// resource without a phase is in `initial`: recording an error on a new resource
/// does not run its worker again).
fn worth_a_sync<K: Phased>(initial: K::Phase) -> Predicate<K> {
    let phase = move |resource: &K| resource.phase_status().and_then(|s| s.phase).unwrap_or(initial);
    predicate::generation_changed()
        .or(predicate::deletion_started())
        .or(predicate::labels_changed())
        .or(predicate::annotations_changed())
        .or(Predicate::new(move |old: &K, new: &K| phase(old) != phase(new)))
}

/// Counts `resources` by phase name (every declared phase, zero included).
fn count_by_phase<K: Phased>(resources: &Store<K>, declared: &Declared<K::Phase>) -> CountByPhase {
    let resources = resources.clone();
    let names: HashMap<K::Phase, String> = declared.names().map(|(p, n)| (p, n.to_owned())).collect();
    let initial = declared.initial();
    Box::new(move || {
        let mut counts: BTreeMap<String, i64> = names.values().map(|n| (n.clone(), 0)).collect();
        for resource in resources.all() {
            let phase = resource.phase_status().and_then(|s| s.phase).unwrap_or(initial);
            if let Some(name) = names.get(&phase) {
                *counts.entry(name.clone()).or_default() += 1;
            }
        }
        counts
    })
}

/// The scheduler as a [`Reconciler`].
struct PhaseReconciler<K: Phased> {
    declared: Declared<K::Phase>,
    workers: HashMap<K::Phase, Box<dyn Run<K>>>,
    finalizer: Option<(String, Box<dyn RunFinalizer<K>>)>,
    work_interval: Duration,
    field_manager: String,
    controller: String,
    inputs: InputSource,
    outputs: OutputKinds,
    resources: Store<K>,
    recorder: Recorder,
    series: Option<PhaseSeries>,
    on_sync: Option<SyncHook>,
    /// For each resource the scheduler wrote last, the resourceVersion it wrote over:
    /// while the cache still holds that version, the cache has not seen the write, and
    /// a sync from it would run a worker on a state already left behind (the next
    /// phase's worker, or a second step of the same one). Such a sync waits instead.
    written: Mutex<HashMap<ObjectKey, String>>,
}

impl<K: Phased> Reconciler<K> for PhaseReconciler<K> {
    async fn reconcile(&self, resource: Arc<K>, context: &Context) -> Result<Action, Error> {
        let key = ObjectKey::of(resource.as_ref());
        if self.is_stale(&key, &resource) {
            return Ok(Action::requeue_after(CACHE_CATCH_UP));
        }
        let api: Api<K> = K::Scope::api(context.client().clone(), resource.meta().namespace.as_deref(), &());
        if finalizer::is_deleting(resource.as_ref()) {
            return self.finalize(&api, &key, &resource, context).await;
        }
        let resource = match &self.finalizer {
            Some((name, _)) if !finalizer::has(resource.as_ref(), name) => {
                let stored = finalizer::ensure(&api, resource.as_ref(), name).await?;
                self.remember(&key, &resource, &stored);
                Arc::new(stored)
            }
            _ => resource,
        };
        self.sync(&api, &key, &resource, context).await
    }
}

impl<K: Phased> PhaseReconciler<K> {
    /// Runs the worker of the resource's phase and records what it decided, in three
    /// steps: find the phase's worker, run it, record its outcome.
    async fn sync(&self, api: &Api<K>, key: &ObjectKey, resource: &K, context: &Context) -> Result<Action, Error> {
        let phase = resource
            .phase_status()
            .and_then(|s| s.phase)
            .unwrap_or(self.declared.initial());
        let (Some(name), Some(worker)) = (self.declared.name(phase), self.workers.get(&phase)) else {
            return self.no_worker(api, key, resource, phase).await;
        };
        if let Some(hook) = &self.on_sync {
            hook(key, name);
        }
        let result = self
            .run_worker(worker.as_ref(), key, resource, context, phase, name)
            .await?;
        match result {
            // A failed status write is not recorded in the status: it would fail too.
            Ok(synced) => self.record(api, key, resource, phase, synced).await,
            Err(failure) => Err(self.record_failure(api, key, resource, phase, name, failure).await),
        }
    }

    /// A phase without a worker: a final phase is done; any other is a status no one
    /// declared, recorded and not retried.
    async fn no_worker(&self, api: &Api<K>, key: &ObjectKey, resource: &K, phase: K::Phase) -> Result<Action, Error> {
        if self.declared.is_final(phase) {
            return Ok(Action::done());
        }
        let message = format!(
            "status.phase is {phase:?}, which {} does not declare; set a declared phase",
            K::kind(&())
        );
        self.record_error(api, key, resource, phase, &message).await;
        Err(Error::terminal(message))
    }

    /// Runs `worker` once on `resource`, with its inputs, the output target (owned by
    /// the resource, labelled with the phase) and the transition check, and times it.
    /// The outer error is a resource that cannot own outputs yet.
    async fn run_worker(
        &self,
        worker: &dyn Run<K>,
        key: &ObjectKey,
        resource: &K,
        context: &Context,
        phase: K::Phase,
        name: &str,
    ) -> Result<Result<Synced<K>, Failure<K::Phase>>, Error> {
        let owner = owner::controller_ref(resource)
            .ok_or_else(|| Error::terminal(format!("{} {key} has no uid yet", K::kind(&()))))?;
        let target = OutputTarget {
            client: context.client().clone(),
            namespace: resource.meta().namespace.as_deref(),
            owner,
            phase: name,
            controller: &self.controller,
            kinds: &self.outputs,
        };
        let allows = |to: K::Phase| self.declared.allows(phase, to);
        let call = Call {
            resource,
            context,
            inputs: &self.inputs,
            outputs: &target,
            allows: &allows,
        };
        let started = Instant::now();
        let result = worker
            .run(call)
            .instrument(tracing::info_span!("phase_sync", phase = name))
            .await;
        if let Some(series) = &self.series {
            series.sync_time(name).observe(started.elapsed().as_secs_f64());
        }
        Ok(result)
    }

    /// Records a failed sync in the status (and, when it will not be retried, as a
    /// warning Event), and returns the error the controller acts on.
    async fn record_failure(
        &self,
        api: &Api<K>,
        key: &ObjectKey,
        resource: &K,
        phase: K::Phase,
        name: &str,
        failure: Failure<K::Phase>,
    ) -> Error {
        match failure {
            Failure::NotAllowed(to) => {
                let message = format!(
                    "the worker of phase {name} moved to {}, which {name} does not allow (allowed: {}); its outputs were not applied",
                    self.declared.name(to).map_or_else(|| format!("{to:?}"), str::to_owned),
                    self.declared.allowed_names(phase).join(", ")
                );
                self.record_error(api, key, resource, phase, &message).await;
                self.publish(resource, EventType::Warning, "TransitionRefused", &message)
                    .await;
                Error::terminal(message)
            }
            Failure::Failed(error) => {
                let message = error.to_string();
                self.record_error(api, key, resource, phase, &message).await;
                if error.is_terminal() {
                    self.publish(resource, EventType::Warning, "SyncFailed", &message).await;
                }
                error
            }
        }
    }

    /// Writes what a successful sync decided (if it changes the status), and for a
    /// transition an Event and the metric.
    async fn record(
        &self,
        api: &Api<K>,
        key: &ObjectKey,
        resource: &K,
        phase: K::Phase,
        synced: Synced<K>,
    ) -> Result<Action, Error> {
        let generation = resource.meta().generation;
        let mut status = resource.phase_status().cloned().unwrap_or_default();
        let moved = status.phase != Some(synced.next);
        status.phase = Some(synced.next);
        status.observed_generation = generation;
        status.last_error = None;
        if moved {
            status.last_transition_time = Some(Time(Timestamp::now()));
        }
        if let Some(info) = synced.info {
            status.info = info;
        }
        for c in &synced.conditions {
            conditions::set_condition(
                &mut status.conditions,
                &c.type_,
                &c.status,
                &c.reason,
                &c.message,
                generation,
            );
        }
        self.write_status(api, key, resource, &status).await?;
        if phase == synced.next {
            return Ok(Action::requeue_after(synced.requeue.unwrap_or(self.work_interval)));
        }
        let (from, to) = (
            self.declared.name(phase).unwrap_or_default(),
            self.declared.name(synced.next).unwrap_or_default(),
        );
        if let Some(series) = &self.series {
            series.transition(from, to);
        }
        self.publish(resource, EventType::Normal, "PhaseChanged", &format!("{from} -> {to}"))
            .await;
        // The status write comes back as a phase change, which runs the next worker.
        Ok(Action::done())
    }

    /// Records `message` as the status's `lastError`, keeping the phase; a failure to
    /// write it is logged, not returned (the sync's own error is what matters).
    async fn record_error(&self, api: &Api<K>, key: &ObjectKey, resource: &K, phase: K::Phase, message: &str) {
        let mut status = resource.phase_status().cloned().unwrap_or_default();
        status.phase = Some(phase);
        status.last_error = Some(message.to_owned());
        if let Err(error) = self.write_status(api, key, resource, &status).await {
            tracing::warn!(%error, "could not record the error in the status");
        }
    }

    /// Writes `status` unless the resource has it already: a merge patch of what
    /// differs, conditioned on the resourceVersion the sync read, so a status computed
    /// from an old resource is never written over a newer one (409, and a retry).
    async fn write_status(
        &self,
        api: &Api<K>,
        key: &ObjectKey,
        resource: &K,
        status: &PhaseStatus<K::Phase, K::Info>,
    ) -> Result<(), Error> {
        let before = resource.phase_status();
        if before == Some(status) {
            return Ok(());
        }
        let patch = json!({
            "metadata": {"resourceVersion": resource.resource_version()},
            "status": merge_patch(&serde_json::to_value(before)?, &serde_json::to_value(status)?),
        });
        let params = PatchParams {
            field_manager: Some(self.field_manager.clone()),
            ..PatchParams::default()
        };
        let stored = api
            .patch_status(&resource.name_any(), &params, &Patch::Merge(&patch))
            .await?;
        self.remember(key, resource, &stored);
        Ok(())
    }

    /// Runs the finalizer worker of a resource being deleted, then lets it go.
    async fn finalize(&self, api: &Api<K>, key: &ObjectKey, resource: &K, context: &Context) -> Result<Action, Error> {
        let Some((name, worker)) = &self.finalizer else {
            return Ok(Action::done());
        };
        if !finalizer::has(resource, name) {
            return Ok(Action::done());
        }
        let result = worker
            .run(resource, context)
            .instrument(tracing::info_span!("phase_finalize", finalizer = %name))
            .await;
        if let Err(error) = result {
            let message = format!("finalizer {name}: {error}");
            let phase = resource
                .phase_status()
                .and_then(|s| s.phase)
                .unwrap_or(self.declared.initial());
            self.record_error(api, key, resource, phase, &message).await;
            // Retried until it succeeds, even if terminal: the deletion waits on it.
            return Err(Error::new(std::io::Error::other(message)));
        }
        self.publish(
            resource,
            EventType::Normal,
            "Finalized",
            &format!("finalizer {name} ran; the deletion proceeds"),
        )
        .await;
        let stored = finalizer::remove(api, resource, name).await?;
        self.remember(key, resource, &stored);
        Ok(Action::done())
    }

    /// Whether the cache still holds the version of `resource` the scheduler last
    /// wrote over (see `written`).
    fn is_stale(&self, key: &ObjectKey, resource: &K) -> bool {
        let mut written = self.written.lock();
        match written.get(key) {
            Some(before) if resource.meta().resource_version.as_ref() == Some(before) => true,
            Some(_) => {
                written.remove(key);
                false
            }
            None => false,
        }
    }

    /// Remembers that the scheduler wrote over this version of `resource`, unless the
    /// write left it as it was (same resourceVersion: no event will come to wait for).
    fn remember(&self, key: &ObjectKey, resource: &K, stored: &K) {
        let Some(version) = resource.meta().resource_version.clone() else {
            return;
        };
        if stored.meta().resource_version.as_ref() == Some(&version) {
            return;
        }
        let mut written = self.written.lock();
        written.insert(key.clone(), version);
        // Forget resources that are gone, once they could be a good part of the map.
        if written.len() > 2 * self.resources.len() + 64 {
            written.retain(|key, _| self.resources.get(key.namespace.as_deref(), &key.name).is_some());
        }
    }

    /// Publishes an Event about `resource`; a failure is logged (an Event is a record,
    /// not part of the sync).
    async fn publish(&self, resource: &K, type_: EventType, reason: &str, note: &str) {
        // The Events API caps a note at 1 kB.
        let note: String = note.chars().take(1000).collect();
        let event = KubeEvent {
            type_,
            reason: reason.to_owned(),
            note: Some(note),
            action: "Sync".to_owned(),
            secondary: None,
        };
        // With its resourceVersion, the reference makes each transition an Event of its
        // own: kube's recorder folds Events about the same reference and reason into one
        // series, which would keep only the first transition's note.
        let mut regarding = resource.object_ref(&());
        regarding.resource_version.clone_from(&resource.meta().resource_version);
        if let Err(error) = self.recorder.publish(&event, &regarding).await {
            tracing::warn!(error = %wheelhouse_cache::error_chain(&error), reason, "could not publish an Event");
        }
    }
}
