//! wheelhouse-controller: reconcilers and the controller that runs them.
//!
//! A [`Controller`] reads its objects through a shared [`Cache`](wheelhouse_cache::Cache),
//! turns every relevant change into a key on a
//! [`WorkQueue`](wheelhouse_workqueue::WorkQueue), and hands keys to a
//! [`Reconciler`], one worker per key at a time. Outcomes follow controller-runtime:
//! an error is retried with backoff, a terminal error is not, `requeue_after` comes
//! back after its delay, success forgets the key's failures; panics and timeouts count
//! as errors and never take the process down.
//!
//! [`phase`] builds Autopilot's model on top: a resource moves through declared phases,
//! one stateless worker per phase, inputs watched and outputs applied and pruned.

mod apply;
pub mod conditions;
mod controller;
pub mod finalizer;
mod metrics;
pub mod owner;
pub mod phase;
pub mod predicate;
mod reconciler;
mod source;
mod worker;

pub use crate::apply::{Applier, apply};
pub use crate::controller::{Builder, Controller, ObjectKey};
pub use crate::metrics::ControllerMetrics;
pub use crate::predicate::Predicate;
pub use crate::reconciler::{Action, Context, Error, Reconciler};
/// Kubernetes Events from a controller: kube's recorder, deduplicating repeats.
pub use kube::runtime::events::{Event as KubeEvent, EventType, Recorder, Reporter};
