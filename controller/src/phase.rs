//! The phase scheduler: Autopilot's model (a custom resource moves through declared
//! phases, each with one stateless worker) in plain Rust, without code generation, as
//! an ordinary [`Controller`](crate::Controller).
//!
//! - [`Phase`] (`declaration`): an enum declares its initial phase, its final phases and
//!   the transitions each phase allows; checked when the controller is built.
//! - [`PhaseStatus`] (`status`): the status the scheduler keeps (phase, observed
//!   generation, conditions, last transition, last error) with the workers' own
//!   information beside it.
//! - [`Worker`] and [`Outcome`] (`worker`): one per phase, `sync(&resource, inputs, ctx)`
//!   returning the next phase, status information, outputs and a requeue delay;
//!   [`Finalizer`] for deletion.
//! - [`Inputs`] and [`Objects`] (`inputs`): what a worker reads, from the cache, in the
//!   resource's namespace and narrowed by a [`Selector`]; watched, so a change re-runs
//!   exactly the resources whose inputs it touched.
//! - [`Outputs`] (`outputs`): what a worker wants to exist; applied with server-side
//!   apply, owned by the resource, labelled with the owner and the phase, and pruned
//!   when the phase stops returning them.
//! - [`PhaseScheduler`] (`scheduler`): the workers, built into a controller with
//!   [`Builder::build_phases`](crate::Builder::build_phases).
//! - [`PhaseMetrics`] (`metrics`): transitions, time per worker call, resources per phase.
//!
//! ## Behaviour
//!
//! - **Declaration**, checked when the controller is built: exactly one initial phase, a
//!   worker for every phase that is not final (and none for a final one), every
//!   transition target declared; `DeclarationError` says which rule broke. A worker that
//!   moves to a phase its phase does not allow has its outputs dropped, the reason in
//!   `status.lastError`, a Warning Event, and no retry until the resource changes.
//! - **Status**: `PhaseStatus<P, I>` holds `phase`, `observedGeneration`, `conditions`,
//!   `lastTransitionTime`, `lastError` and the workers' `I` beside them. It is written
//!   only when it changed, as a merge patch conditioned on the resourceVersion the sync
//!   read, and only after the outputs are applied: a failure in between leaves the
//!   resource in the phase whose worker then runs again.
//! - **Inputs** are read from the shared cache in the resource's namespace, narrowed by a
//!   `Selector` taken from the resource (`All`, `Owned`, or yours). Each change to an
//!   input object syncs the resources whose selector matches it before or after the
//!   change, found through cache indexes, never by re-running everything. Inputs from
//!   outside Kubernetes implement the same `Inputs` trait (the Canary's Prometheus query)
//!   and are read afresh on each sync.
//! - **Outputs** are applied with server-side apply as the controller's field manager,
//!   with the resource as controller owner and the labels `wheelhouse.rs/owner-uid`,
//!   `wheelhouse.rs/phase` and `app.kubernetes.io/managed-by`; applies the cache shows in
//!   place are skipped; what a phase produced before and no longer returns is deleted.
//! - A steady phase runs again on the work interval (`work_interval`, 30 s) or the delay
//!   its outcome asks for; an optional `finalizer` worker runs on deletion, retried until
//!   it succeeds. Each transition gets an Event (`PhaseChanged: Waiting -> Evaluating`);
//!   each worker call a `phase_sync` span; `PhaseMetrics` registers
//!   `wheelhouse_phase_transitions_total{controller,from,to}`,
//!   `wheelhouse_phase_sync_seconds{controller,phase}` and
//!   `wheelhouse_phase_resources{controller,phase}`.
//!
//! ## What differs from Autopilot, and why
//!
//! Autopilot generates a project from a YAML description; here phases are an enum with
//! a checked declaration and workers are trait impls, so nothing is generated and nothing needs regenerating;
//! allowed transitions are declared and a forbidden one is a terminal error in status, not
//! an endless retry; inputs are really watched and mapped to the resources they concern
//! (Autopilot's docs said so, its generated code re-listed everything on one global
//! interval); outputs are applied with server-side apply, labelled and pruned (its
//! create-or-update never deleted); the status is written as a conditional merge patch
//! only when it changed; each transition is an Event, a metric and a span.

mod declaration;
mod inputs;
mod metrics;
mod object;
mod outputs;
mod scheduler;
mod status;
mod worker;

pub use self::declaration::{DeclarationError, Phase, Phases};
pub use self::inputs::{All, InputSource, Inputs, Objects, Owned, Selector, Watches};
pub use self::metrics::PhaseMetrics;
pub use self::object::{LABELS_INDEX, MANAGED_BY_LABEL, OWNER_UID_LABEL, Object, PHASE_LABEL, Phased};
pub use self::outputs::{OutputTarget, OutputTypes, Outputs};
pub use self::scheduler::{DEFAULT_WORK_INTERVAL, PhaseScheduler};
pub use self::status::PhaseStatus;
pub use self::worker::{Finalizer, Outcome, Worker};
