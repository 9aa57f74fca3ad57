//! wheelhouse: Kubernetes operators in Rust, in the style of Go's controller-runtime,
//! with the informer and workqueue layers made explicit.
//!
//! This facade re-exports one crate per concern; `use wheelhouse::prelude::*` brings in
//! what a `main()` usually needs.
//!
//! | module | crate | what it is for |
//! |---|---|---|
//! | [`workqueue`] | `wheelhouse-workqueue` | dedup queue with delays, rate limiters, priorities, metrics |
//! | [`envtest`] | `wheelhouse-envtest` | an embedded Kubernetes API server for tests, or an existing cluster |
//!
//! The cache, controller, manager and webhook crates join as they are built
//! (see the README's architecture picture).
//!
//! ```
//! use wheelhouse::prelude::*;
//!
//! let queue: WorkQueue<String> = WorkQueue::builder().name("webapp").build();
//! queue.add("default/web".to_owned());
//! assert_eq!(queue.len(), 1);
//! ```

pub use wheelhouse_envtest as envtest;
pub use wheelhouse_workqueue as workqueue;

/// The types most operators use, in one import.
pub mod prelude {
    pub use crate::workqueue::{AddOptions, Priority, RateLimiter, WorkQueue};
}
