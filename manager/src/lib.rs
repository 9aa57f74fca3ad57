//! wheelhouse-manager: what an operator's `main()` composes.
//!
//! - [`Manager`]: the client, the shared [`Cache`](wheelhouse_cache::Cache), the
//!   Prometheus registry and the [`Runnable`]s of one process, started in order
//!   (metrics and probes, every-replica runnables, caches, then leader-only runnables)
//!   and stopped in reverse on SIGTERM/SIGINT within a graceful-shutdown timeout.
//! - [`LeaderElection`]: client-go's Lease algorithm, plus a watch so a standby takes a
//!   released lease at once; a leader that cannot renew drops its leader-only work
//!   before any other replica could take over.
//! - `/metrics`, `/healthz`, `/readyz` on hyper, with named checks.
//! - [`ManagerArgs`]: kubebuilder's flags (`--leader-elect`, `--metrics-bind-address`,
//!   ...) to `#[command(flatten)]`, and [`ManagerArgs::init_logging`].
//!
//! ```no_run
//! # async fn example() -> Result<(), Box<dyn std::error::Error>> {
//! use clap::Parser;
//! use wheelhouse_manager::{Manager, ManagerArgs};
//!
//! #[derive(Parser)]
//! struct Flags {
//!     #[command(flatten)]
//!     manager: ManagerArgs,
//! }
//!
//! let flags = Flags::parse();
//! flags.manager.init_logging()?;
//! let manager = Manager::builder(kube::Client::try_default().await?)
//!     .args(&flags.manager)
//!     .leader_election_id("my-operator")
//!     .build()?;
//! // manager.add(controller)?;  (a wheelhouse Controller is a Runnable)
//! manager.run().await?;
//! # Ok(())
//! # }
//! ```

mod args;
mod error;
mod health;
mod http;
mod leader;
mod lifecycle;
mod manager;
mod runnable;

pub use crate::args::{LogFormat, ManagerArgs};
pub use crate::error::Error;
pub use crate::leader::{LeaderElection, OnLeadershipLost};
pub use crate::manager::{Manager, ManagerBuilder};
pub use crate::runnable::{BoxError, Runnable, Stop, runnable_fn};
/// The token [`ManagerBuilder::shutdown_signal`] takes and [`Stop::token`] gives.
pub use tokio_util::sync::CancellationToken;
