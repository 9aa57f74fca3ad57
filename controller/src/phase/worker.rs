//! [`Worker`]: the stateless code of one phase, called with the resource and its
//! typed inputs, and the [`Outcome`] it returns (the next phase, shared status
//! information, outputs, a requeue delay); [`Finalizer`]: the code run on deletion.

use std::future::Future;
use std::time::Duration;

use futures::future::BoxFuture;

use crate::phase::inputs::{InputSource, Inputs};
use crate::phase::object::Phased;
use crate::phase::outputs::{OutputTarget, Outputs};
use crate::reconciler::{Context, Error};

/// The work of one phase: reads the resource and its inputs, returns where the
/// resource goes next and what objects it wants to exist. Stateless: the scheduler
/// holds one value per phase and calls it by `&self`, never twice at once for one
/// resource, and keeps everything that must survive a call in the resource's status.
///
/// A worker is called again whenever the resource's spec, one of its inputs or one of
/// its outputs changes, and on its requeue interval while the phase does not change,
/// so it must give the same answer for the same world (level-triggered).
///
/// ```
/// # use kube::CustomResource;
/// # use schemars::JsonSchema;
/// # use serde::{Deserialize, Serialize};
/// # use wheelhouse_controller::phase::{Phase, PhaseStatus, Phases};
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
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use wheelhouse_controller::phase::{Objects, Outcome, Worker};
/// use wheelhouse_controller::{Context, Error};
///
/// /// Queued: waits for a ConfigMap in the namespace to exist, then runs.
/// struct Queue;
///
/// impl Worker<Build> for Queue {
///     type Inputs = (Objects<ConfigMap>,);
///     type Outputs = ();
///
///     async fn sync(&self, _: &Build, (configs,): Self::Inputs, _: &Context) -> Result<Outcome<Build>, Error> {
///         Ok(Outcome::next(if configs.is_empty() { BuildPhase::Queued } else { BuildPhase::Running }))
///     }
/// }
/// ```
pub trait Worker<K: Phased>: Send + Sync + 'static {
    /// What the worker reads: `()`, an input such as [`Objects`](crate::phase::Objects),
    /// or a tuple of inputs.
    type Inputs: Inputs<K>;
    /// What the worker wants to exist: `()`, a `Vec<T>` of objects, or a tuple of them.
    /// Each call returns the whole set of each type; the scheduler deletes what this
    /// phase produced before and no longer returns.
    type Outputs: Outputs;

    /// Decides the next phase (the current one to stay), and the outputs to apply.
    /// An [`Error`] is retried with backoff; a terminal one is recorded in the status
    /// and not retried until the resource changes.
    fn sync(
        &self,
        resource: &K,
        inputs: Self::Inputs,
        context: &Context,
    ) -> impl Future<Output = Result<Outcome<K, Self::Outputs>, Error>> + Send;
}

/// Cleans up when a resource is deleted, before its finalizer is removed: retried
/// with backoff until it succeeds. Outputs need no cleanup: they are owned by the
/// resource, and the garbage collector deletes them after it.
pub trait Finalizer<K: Phased>: Send + Sync + 'static {
    /// Releases what the garbage collector does not (external state, ordering).
    fn finalize(&self, resource: &K, context: &Context) -> impl Future<Output = Result<(), Error>> + Send;
}

/// A condition a worker sets in the status; see [`Outcome::with_condition`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConditionUpdate {
    pub type_: String,
    pub status: String,
    pub reason: String,
    pub message: String,
}

/// What a worker decided: the next phase, and optionally new status information,
/// outputs, conditions and a requeue delay.
///
/// ```
/// # use kube::CustomResource;
/// # use schemars::JsonSchema;
/// # use serde::{Deserialize, Serialize};
/// # use wheelhouse_controller::phase::{Phase, PhaseStatus, Phases};
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
/// use std::time::Duration;
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use wheelhouse_controller::phase::Outcome;
///
/// let outcome: Outcome<Build, Vec<ConfigMap>> = Outcome::next(BuildPhase::Running)
///     .with_info(BuildInfo { attempts: 1 })
///     .with_condition("Started", "True", "Scheduled", "the build is running")
///     .with_requeue(Duration::from_secs(10));
/// assert_eq!(outcome.next_phase(), BuildPhase::Running);
/// assert!(outcome.outputs().is_empty());
/// ```
pub struct Outcome<K: Phased, O = ()> {
    next: K::Phase,
    info: Option<K::Info>,
    outputs: O,
    requeue: Option<Duration>,
    conditions: Vec<ConditionUpdate>,
}

impl<K: Phased, O: std::fmt::Debug> std::fmt::Debug for Outcome<K, O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Outcome")
            .field("next", &self.next)
            .field("info", &self.info)
            .field("outputs", &self.outputs)
            .field("requeue", &self.requeue)
            .field("conditions", &self.conditions)
            .finish()
    }
}

impl<K: Phased, O: Default> Outcome<K, O> {
    /// Moves to `phase` (or stays, when it is the current one), with no outputs.
    pub fn next(phase: K::Phase) -> Self {
        Self {
            next: phase,
            info: None,
            outputs: O::default(),
            requeue: None,
            conditions: Vec::new(),
        }
    }
}

impl<K: Phased, O> Outcome<K, O> {
    /// The objects to apply; of each type the worker declares, these are all there
    /// should be.
    #[must_use]
    pub fn with_outputs(mut self, outputs: O) -> Self {
        self.outputs = outputs;
        self
    }

    /// Replaces the status information the workers share (kept as it is otherwise).
    #[must_use]
    pub fn with_info(mut self, info: K::Info) -> Self {
        self.info = Some(info);
        self
    }

    /// Runs the worker again after `delay` if the resource stays in its phase and
    /// nothing else triggers it first (default: the scheduler's work interval).
    #[must_use]
    pub fn with_requeue(mut self, delay: Duration) -> Self {
        self.requeue = Some(delay);
        self
    }

    /// Sets the condition `type_` in the status, as
    /// [`set_condition`](crate::conditions::set_condition) does: its transition time
    /// moves only when its status changes.
    #[must_use]
    pub fn with_condition(mut self, type_: &str, status: &str, reason: &str, message: &str) -> Self {
        self.conditions.push(ConditionUpdate {
            type_: type_.to_owned(),
            status: status.to_owned(),
            reason: reason.to_owned(),
            message: message.to_owned(),
        });
        self
    }

    /// The phase the worker moves to.
    pub fn next_phase(&self) -> K::Phase {
        self.next
    }

    /// The new status information, if the worker gave one.
    pub fn info(&self) -> Option<&K::Info> {
        self.info.as_ref()
    }

    /// The outputs.
    pub fn outputs(&self) -> &O {
        &self.outputs
    }

    /// The requested requeue delay, if any.
    pub fn requeue(&self) -> Option<Duration> {
        self.requeue
    }
}

/// What a worker call left for the scheduler to record, once its outputs are applied.
pub(crate) struct Synced<K: Phased> {
    pub next: K::Phase,
    pub info: Option<K::Info>,
    pub requeue: Option<Duration>,
    pub conditions: Vec<ConditionUpdate>,
}

/// Why a worker call did not reach the status write.
pub(crate) enum Failure<P> {
    /// Reading the inputs, the worker itself or applying its outputs failed.
    Failed(Error),
    /// The worker asked for a transition its phase does not declare; nothing was applied.
    NotAllowed(P),
}

/// One sync of a resource in a phase: the worker's inputs, its call, the transition
/// check, then the outputs applied and pruned.
pub(crate) struct Call<'a, K: Phased> {
    pub resource: &'a K,
    pub context: &'a Context,
    pub inputs: &'a InputSource,
    pub outputs: &'a OutputTarget<'a>,
    pub allows: &'a (dyn Fn(K::Phase) -> bool + Sync),
}

/// A worker of any type, as the scheduler holds it.
pub(crate) trait Run<K: Phased>: Send + Sync {
    fn run<'a>(&'a self, call: Call<'a, K>) -> BoxFuture<'a, Result<Synced<K>, Failure<K::Phase>>>;
}

/// A typed worker behind [`Run`].
pub(crate) struct Typed<W>(pub W);

impl<K: Phased, W: Worker<K>> Run<K> for Typed<W> {
    fn run<'a>(&'a self, call: Call<'a, K>) -> BoxFuture<'a, Result<Synced<K>, Failure<K::Phase>>> {
        Box::pin(async move {
            let inputs = W::Inputs::read(call.resource, call.inputs)
                .await
                .map_err(Failure::Failed)?;
            let outcome = self
                .0
                .sync(call.resource, inputs, call.context)
                .await
                .map_err(Failure::Failed)?;
            if !(call.allows)(outcome.next) {
                return Err(Failure::NotAllowed(outcome.next));
            }
            outcome.outputs.apply(call.outputs).await.map_err(Failure::Failed)?;
            Ok(Synced {
                next: outcome.next,
                info: outcome.info,
                requeue: outcome.requeue,
                conditions: outcome.conditions,
            })
        })
    }
}

/// A finalizer of any type, as the scheduler holds it.
pub(crate) trait RunFinalizer<K: Phased>: Send + Sync {
    fn run<'a>(&'a self, resource: &'a K, context: &'a Context) -> BoxFuture<'a, Result<(), Error>>;
}

impl<K: Phased, F: Finalizer<K>> RunFinalizer<K> for Typed<F> {
    fn run<'a>(&'a self, resource: &'a K, context: &'a Context) -> BoxFuture<'a, Result<(), Error>> {
        Box::pin(self.0.finalize(resource, context))
    }
}
