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

mod declaration;
mod inputs;
mod metrics;
mod outputs;
mod scheduler;
mod status;
mod worker;

pub use self::declaration::{DeclarationError, Phase, Phases};
pub use self::inputs::{All, InputSource, Inputs, LABELS_INDEX, Object, Objects, Owned, Selector, Watches};
pub use self::metrics::PhaseMetrics;
pub use self::outputs::{MANAGED_BY_LABEL, OWNER_UID_LABEL, OutputTarget, OutputTypes, Outputs, PHASE_LABEL};
pub use self::scheduler::{DEFAULT_WORK_INTERVAL, PhaseScheduler};
pub use self::status::{PhaseStatus, Phased};
pub use self::worker::{Finalizer, Outcome, Worker};
