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
//! [`fleet`] runs one controller across many clusters: `.fleet(provider)` on the
//! builder engages each cluster the provider announces (its own cache, queue and
//! workers), serves the clusters in turn, and hands each reconcile its cluster's
//! client and stores, so a reconciler written for one cluster runs per cluster as is.
//!
//! [`phase`] builds Autopilot's model on top: a resource moves through declared phases,
//! one stateless worker per phase, inputs watched and outputs applied and pruned.
//!
//! # What reaches the reconciler
//!
//! The reconciler gets the object as the cache holds it when a worker picks its key,
//! not the change that queued it: several changes in a row make one reconcile.
//!
//! - **Creates and deletes** of the primary object always queue its key; **updates**
//!   do unless the builder's [`predicate`](Builder::predicate) filters them (for
//!   instance [`predicate::generation_changed`], which lets spec changes through and
//!   drops status-only and metadata-only ones, so the controller's own status write
//!   does not bring the object straight back).
//! - **A deleted object** never reaches the reconciler once it is gone from the cache:
//!   its key is dropped, with its failures. To act on a deletion, hold the object with
//!   a [`finalizer`]: the reconciler then sees it with `deletionTimestamp` set
//!   ([`finalizer::is_deleting`]) until it removes its finalizer.
//! - **Children** (`owns`, `owns_full`) and **watched objects** (`watches`) queue the
//!   key of their owner (or whatever the map returns) on every create, update and
//!   delete, whatever the predicate says: a Deployment's status change reconciles its
//!   WebApp even when the WebApp's own status changes are filtered.
//! - **Lists** (the first, relists after a lost watch, each new leadership term's
//!   replay of the cache) queue every object at low priority, so a restart reconciles
//!   everything once, after live changes; except, once this replica has reconciled
//!   anything, the objects that changed or appeared since it last reconciled them,
//!   which go in at normal priority: a term that begins after an outage catches up
//!   first on what changed while it was out.
//! - **Requeues**: [`Action::requeue`] and [`Action::requeue_after`] bring the key back
//!   with no change; a plain [`Error`] brings it back with backoff.
//! - **Sharded**: under a manager built with
//!   [`sharding`](wheelhouse_manager::ManagerBuilder::sharding), the primary objects
//!   and the children are cached only for this replica's slots ([`primary_scope`],
//!   [`children_scope`]), an object reaches the reconciler only while its slot is
//!   served here, and the objects of a slot handed over are all queued once, at low
//!   priority.
//!
//! # Names shared with kube-runtime
//!
//! | kube-runtime | wheelhouse | how ours differs |
//! |---|---|---|
//! | `controller::Action` (`requeue(d)`, `await_change()`) | [`Action`] (`requeue_after(d)`, [`requeue()`](Action::requeue), `done()`) | `requeue()` is immediate; `done()` waits for a change |
//! | your own error type, plus `error_policy` | [`Error`] | one type; retries use the queue's rate limiter, [`Error::terminal`] is not retried |
//! | `finalizer::finalizer` (runs `Apply`/`Cleanup` for you) | [`finalizer`] (`ensure`, `remove`, `is_deleting`) | plain functions the reconciler calls where it wants |
//! | `events::Event` | [`KubeEvent`] (and [`Context::publish`]) | re-exported under another name, since the prelude's `Event` is a cache event: `wheelhouse_cache::Event`, an object added, updated or deleted |
//! | `Controller::new(api, config)` then `.owns(api, config)` | [`Controller::for_`] then [`Builder::owns`] | informers come from a shared cache in one scope, set once on the builder |

mod apply;
mod cluster;
pub mod conditions;
mod controller;
pub mod finalizer;
pub mod fleet;
mod key;
mod metrics;
pub mod owner;
pub mod phase;
pub mod predicate;
mod reconciler;
mod settled;
mod source;
mod worker;

pub use crate::apply::{APPLIED_ANNOTATION, Applier, apply};
pub use crate::controller::{Builder, Controller, children_scope, primary_scope};
pub use crate::fleet::{ClusterStatus, FleetBuilder, FleetController, FleetMetrics, FleetView};
pub use crate::key::{ClusterKey, ObjectKey};
pub use crate::metrics::ControllerMetrics;
pub use crate::predicate::Predicate;
pub use crate::reconciler::{Action, Context, Error, NotOwned, Reconciler};
/// Kubernetes Events from a controller: kube's recorder, deduplicating repeats.
pub use kube::runtime::events::{Event as KubeEvent, EventType, Recorder, Reporter};
