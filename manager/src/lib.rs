//! wheelhouse-manager: what an operator's `main()` composes.
//!
//! - [`Manager`]: the client, the shared [`Cache`](wheelhouse_cache::Cache), the
//!   Prometheus registry and the [`Runnable`]s of one process, started in order
//!   (metrics and probes, every-replica runnables, caches, then leader-only runnables)
//!   and stopped in reverse on SIGTERM/SIGINT within a graceful-shutdown timeout.
//! - [`LeaderElection`]: client-go's Lease algorithm, plus a watch so a standby takes a
//!   released lease at once; a leader that cannot renew drops its leader-only work
//!   before any other replica could take over.
//! - [`serve`]: the serving layer the metrics, health and webhook servers share (accept
//!   loop that backs off, TLS, connections bounded with the longest-silent closed past
//!   the bound, header, body and idle timeouts, HTTP/2 settings, a byte budget), each
//!   server with its own [`ServeLimits`](serve::ServeLimits).
//! - `/metrics`, `/healthz`, `/readyz` on hyper, with named checks. With
//!   [`ManagerArgs`] (`--metrics-secure`, the default) `/metrics` is HTTPS and each
//!   scrape's bearer token is checked with the API server: a `TokenReview` to
//!   authenticate it, a `SubjectAccessReview` for `get` on `/metrics` to authorize it,
//!   as kubebuilder scaffolds; the probes stay plain HTTP on their own port.
//! - [`Certificates`] and [`CertWatcher`]: serving certificates, self-signed or from a
//!   directory reloaded when they rotate (read on a blocking thread with a timeout;
//!   while the files cannot be read or loaded the old certificate keeps serving and
//!   [`CertHealth`] turns `/readyz` not ready), shared by the metrics and webhook servers.
//! - [`ManagerArgs`]: kubebuilder's flags (`--leader-elect`, `--metrics-bind-address`,
//!   ...) to `#[command(flatten)]`, and [`ManagerArgs::init_logging`].
//!
//! ## Lifecycle
//!
//! `Manager::run` starts the metrics and probe server, then what every replica runs
//! (webhook servers), then the caches (its error names informers that do not sync), then,
//! once this replica holds the Lease, the leader-only runnables (controllers). On
//! SIGTERM/SIGINT it stops them in reverse within a graceful-shutdown timeout (30 s; a
//! runnable that does not stop is named and abandoned). A runnable that fails or panics
//! stops the manager, and `run` returns its error. `/metrics` serves everything in the
//! manager's registry: controller-runtime's controller, workqueue and webhook families,
//! the informers', `leader_election_master_status`, and the process's memory, CPU, open
//! files and start time. `/healthz` and `/readyz` list failing checks by name
//! (`?verbose`, `?exclude=`, `/healthz/<name>`); add your own with `add_healthz_check`.
//! Anything with a lifetime can be a `Runnable` (`runnable_fn` turns a closure into one).
//!
//! ## Leader election
//!
//! Three replicas of an operator elect a leader on a `coordination.k8s.io/v1` Lease with
//! client-go's algorithm: a candidate takes the Lease only when it is free or when it has
//! seen the same record unchanged for a whole lease duration on its own monotonic clock,
//! and every write carries the resourceVersion it read, so two replicas never both win.
//! Defaults are client-go's (15 s lease, 10 s renew deadline, 2 s retry, validated).
//! Beyond client-go:
//!
//! - **A leader that cannot renew stops at once, and its writes are fenced.** Its
//!   leadership term ends 10 s after it *sent* its last successful renew, before any other
//!   replica can have seen that renew expire. [`Manager::client`] (which the cache, the
//!   controllers, their helpers and event recorders use) checks every write against the
//!   term as it is sent and cancels it if the term ends before the answer ([`Fenced`]);
//!   reads pass. At the term's end, controllers cancel their reconciles in flight and wait
//!   for them; the manager waits for every leader-only runnable (dropping and naming one
//!   that overstays half the takeover margin) and only then reports leadership lost.
//!   Built with [`Manager::builder_from_config`], the writes go out on connections of
//!   their own that check the term on every write to the socket, so a request frozen
//!   anywhere above it is refused at resume; what remains is what the kernel already
//!   held: see [`Fenced`]. For the writes that matter, [`ServerFencing`] (opt-in)
//!   closes that too: the writes carry their term, and a `ValidatingAdmissionPolicy`
//!   with the Lease as its parameter (1.30+), or before 1.30 the operator's own
//!   [`FenceWebhook`] reading the Lease from etcd, refuses one whose term is over,
//!   however late it arrives; [`FencingMechanism`] is chosen from discovery.
//! - **A replica whose term ended rejoins warm.** By default it stays up as a standby:
//!   its caches stay warm, its writes are refused, it competes for the Lease again, and
//!   each new term starts the leader-only runnables afresh (so after an API server
//!   outage that ended every term, the replicas lead again without a restart and a
//!   relist). `OnLeadershipLost::Exit` keeps controller-runtime's exit with an error.
//!   Stopping is bounded even while the API server is unreachable.
//! - **A deleted Lease is not a free one.** Standbys count it held by its last holder
//!   until a lease duration after they last saw it change, as an expiry; the holder
//!   ends its term at once when it sees its Lease deleted (its watch, or a 404 on
//!   renew). Renewals are merge patches with the resourceVersion as precondition, so a
//!   late renew can never re-create a deleted Lease (a PUT would: Leases are created
//!   on update).
//! - **Only the record it last wrote is a replica's own.** A Lease edited to name a
//!   standby, or restored from an older copy, is not taken at once by the replica it
//!   names: any record this replica did not write is waited out for a lease duration,
//!   and the leader whose watch sees it ends its term at once (as for a deletion), so
//!   such an edit never makes two leaders. The log line and [`Error::LeadershipLost`]
//!   name the cause: not renewed, deleted, changed hands, or overwritten.
//! - **No retry storm.** After a failed attempt the elector waits its jittered retry
//!   period, whatever expiry it observed: a refused connection costs each replica at
//!   most one attempt per retry period.
//! - **Standbys watch the Lease.** A leader stopping gracefully finishes its reconciles,
//!   then empties the Lease's holder; a standby sees it on its watch and takes over at once
//!   (where client-go's polling standby needs up to a retry period; `benches/README.md`
//!   has the measured handover times), and after
//!   a crash it takes over the moment the lease expires as it observed it.
//! - **Standbys keep their caches warm**: a controller's informers are made when it is
//!   built, so a new leader starts reconciling without a relist, on a fresh work queue per
//!   term.
//! - `/healthz` fails once a leader's elector has gone a lease duration without renewing,
//!   so a wedged leader is restarted. Metrics: `leader_election_master_status{name}` and
//!   `wheelhouse_leader_election_transitions_total{name,to}`.
//!
//! ## Sharding
//!
//! One leader is one pod's CPU, memory and API latency. With
//! [`ManagerBuilder::sharding`] every replica works instead: each holds its own Lease
//! in a ring ([`Sharding`]), the 64-bit FNV-1a hash space of the primary objects' uid
//! (or namespace) is split among the live members, and each controller built on
//! [`Manager::cache`] caches and reconciles only this replica's share. A slot moves
//! only once its old owner stopped reconciling it and said so in its Lease, or its
//! Lease expired (the protocol and its invariant are in [`ring`]). The informers ask
//! the API server for their ranges with `shardSelector` (KEP-5866, Kubernetes 1.36+
//! with the `ShardedListAndWatch` gate) and filter by the same hash where the server
//! ignores it. Metrics: `wheelhouse_shard_ring_members`, `wheelhouse_shard_owned_fraction`,
//! `wheelhouse_shard_objects`, `wheelhouse_shard_server_filtering`,
//! `wheelhouse_shard_handover_slots_total{direction}` and
//! `wheelhouse_shard_handover_duration_seconds`.
//!
//! ## Fleets
//!
//! One operator can reconcile across many clusters. A [`fleet::Provider`] announces
//! clusters joining and leaving (a stream of [`fleet::ClusterEvent`]s, every current
//! member first): [`fleet::InProcess`] for clusters the program joins itself (embedded
//! `TestEnv`s), [`fleet::KubeconfigContexts`] for a fixed list of kubeconfig contexts,
//! [`fleet::KubeconfigSecrets`] for Cluster API's `<cluster>-kubeconfig` Secrets in the
//! home cluster, watched. Each [`fleet::Cluster`] carries its own client and cache,
//! shared by every controller of the fleet; the controller crate's
//! `Builder::fleet(provider)` engages and disengages them. A member that cannot be
//! reached is a `/readyz` notice ([`Manager::add_readyz_notice`]): listed under
//! `?verbose` as `[+]fleet-<controller> degraded: ...`, without making the replica
//! unready. The manager's leader election covers the fleet (one leader reconciles every
//! member); spreading members across a sharded ring is not built yet.
//!
//! `manager/tests/leader_election.rs` and `tests/ha.rs` run three replicas on one API
//! server and record when each replica's work runs; across kills, failed renewals (the
//! embedded server's fault injection), frozen electors and graceful handovers, no two
//! replicas' intervals ever overlap.
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
//! let manager = Manager::builder_from_config(kube::Config::infer().await?)?
//!     .args(&flags.manager)
//!     .leader_election_id("my-operator")
//!     .build()?;
//! // manager.add(controller)?;  (a wheelhouse Controller is a Runnable)
//! manager.run().await?;
//! # Ok(())
//! # }
//! ```

mod args;
mod cert_watcher;
mod certs;
mod client;
mod error;
mod fence;
pub mod fleet;
mod health;
mod http;
mod leader;
mod manager;
mod metrics_auth;
mod migration;
pub mod ring;
pub mod serve;

pub use crate::args::{LogFormat, ManagerArgs};
pub use crate::cert_watcher::{CertHealth, CertWatcher, ServingCertificate, tls_server_config};
pub use crate::certs::{CA_FILE, CERT_FILE, CertificateError, Certificates, KEY_FILE};
pub use crate::error::{BoxError, Error};
pub use crate::fence::Fenced;
pub use crate::fence::server::{ServerFencing, ServerFencingError, TERM_ANNOTATION};
pub use crate::fence::webhook::{FENCE_LABEL, FenceWebhook, FenceWebhookClient, FencingMechanism};
pub use crate::leader::{LeaderElection, OnLeadershipLost};
pub use crate::manager::runnable::{Runnable, Stop, runnable_fn};
pub use crate::manager::{Manager, ManagerBuilder};
pub use crate::migration::{MIGRATION_PROGRESS_ANNOTATION, MigrationOutcome, StorageMigration};
pub use crate::ring::Sharding;
/// The token [`ManagerBuilder::shutdown_signal`] takes and [`Stop::token`] gives.
pub use tokio_util::sync::CancellationToken;
