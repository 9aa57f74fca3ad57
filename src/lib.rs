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
//! | `envtest` (feature `envtest`) | `wheelhouse-envtest` | an embedded Kubernetes API server for tests, or an existing cluster |
//! | [`selector`] | `wheelhouse-selector` | label and field selectors |
//! | [`webhook`] | `wheelhouse-webhook` | admission webhooks: typed validators and defaulters over HTTPS, certificates, configurations |
//!
//!
//! ```
//! use wheelhouse::prelude::*;
//!
//! let queue: WorkQueue<String> = WorkQueue::builder().name("webapp").build();
//! queue.add("default/web".to_owned());
//! assert_eq!(queue.len(), 1);
//! ```

pub use wheelhouse_cache as cache;
pub use wheelhouse_controller as controller;
#[cfg(feature = "envtest")]
pub use wheelhouse_envtest as envtest;
pub use wheelhouse_manager as manager;
pub use wheelhouse_selector as selector;
pub use wheelhouse_webhook as webhook;
pub use wheelhouse_workqueue as workqueue;

/// The types most operators use, in one import.
pub mod prelude {
    pub use crate::cache::{Cache, Event, ListOptions, Scope};
    pub use crate::controller::{Action, Context, Controller, Error, ObjectKey, Reconciler};
    pub use crate::manager::{LeaderElection, Manager, ManagerArgs, Runnable, Stop};
    pub use crate::webhook::{Defaulter, Denied, FieldError, Validator, Warnings, WebhookServer};
    pub use crate::workqueue::{AddOptions, Priority, RateLimiter, WorkQueue};
}
