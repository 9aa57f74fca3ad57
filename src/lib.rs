//! wheelhouse: Kubernetes operators in Rust, in the style of Go's controller-runtime,
//! with the informer and workqueue layers made explicit.
//!
//! This facade re-exports one crate per concern; `use wheelhouse::prelude::*` brings in
//! what a `main()` usually needs.
//!
//! | module | crate | what it is for |
//! |---|---|---|
//! | [`workqueue`] | `wheelhouse-workqueue` | dedup queue with delays, rate limiters, priorities, metrics |
//! | [`cache`] | `wheelhouse-cache` | shared informers, indexed store, ordered event fan-out |
//! | [`controller`] | `wheelhouse-controller` | reconcilers, the controller builder, finalizers, apply, conditions |
//! | [`manager`] | `wheelhouse-manager` | runnables started in order, Lease leader election, metrics and probes, flags |
//! | [`selector`] | `wheelhouse-selector` | label and field selectors |
//! | [`webhook`] | `wheelhouse-webhook` | admission webhooks: typed validators and defaulters over HTTPS, certificates, configurations |
//!
//! Tests reach the embedded Kubernetes API server through its own crate,
//! `wheelhouse-envtest`, as a dev-dependency (`use wheelhouse_envtest::TestEnv`), so it
//! is never built into an operator's binary.
//!
//! The binary picks the Kubernetes version: it enables exactly one version feature of
//! `k8s-openapi` (`latest`, or `v1_33` for the oldest API server it supports), which
//! every wheelhouse crate then builds against; the library crates enable none.
//!
//! ```
//! use wheelhouse::prelude::*;
//!
//! let queue: WorkQueue<String> = WorkQueue::builder().name("webapp").build();
//! queue.add("default/web".to_owned());
//! assert_eq!(queue.len(), 1);
//! ```

// Inline, so each crate's items are documented here, under the facade's paths.
#[doc(inline)]
pub use wheelhouse_cache as cache;
#[doc(inline)]
pub use wheelhouse_controller as controller;
#[doc(inline)]
pub use wheelhouse_manager as manager;
#[doc(inline)]
pub use wheelhouse_selector as selector;
#[doc(inline)]
pub use wheelhouse_webhook as webhook;
#[doc(inline)]
pub use wheelhouse_workqueue as workqueue;

/// The types most operators use, in one import.
///
/// `Event` here is a cache event (an object added, updated or deleted, as informers
/// deliver them), not a Kubernetes Event: those are [`KubeEvent`](crate::controller::KubeEvent),
/// published in one call with [`Context::publish`](crate::controller::Context::publish).
pub mod prelude {
    pub use crate::cache::{Cache, Event, ListOptions, Scope};
    pub use crate::controller::{Action, Context, Controller, Error, ObjectKey, Reconciler};
    pub use crate::manager::{LeaderElection, Manager, ManagerArgs, Runnable, Stop};
    pub use crate::webhook::{Defaulter, Denied, FieldError, Validator, Warnings, WebhookServer};
    pub use crate::workqueue::{AddOptions, Priority, RateLimiter, WorkQueue};
}
