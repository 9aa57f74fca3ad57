//! Why a manager could not be built, or why it stopped.

use std::net::SocketAddr;
use std::time::Duration;

/// Any error a runnable can fail with.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// What went wrong, with the name of what failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The leader-election settings break client-go's rules.
    #[error("invalid leader election settings: {0}")]
    InvalidLeaderElection(String),
    /// `--leader-elect` without a lease name.
    #[error(
        "leader election needs the Lease's name: pass --leader-election-id, or set a default with ManagerBuilder::leader_election_id"
    )]
    MissingLeaderElectionId,
    /// A bind address flag did not parse.
    #[error("invalid address {value:?} for {flag}: {why} (use host:port, :port, or 0 to disable)")]
    InvalidAddress {
        /// The flag, like `--metrics-bind-address`.
        flag: &'static str,
        /// What was given.
        value: String,
        /// Why it was refused.
        why: String,
    },
    /// The metrics or probe server could not listen.
    #[error("cannot listen on {address} for the {what} server: {source}")]
    Bind {
        /// `metrics` or `health probe`.
        what: &'static str,
        /// The address.
        address: SocketAddr,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// Secure metrics and the health probes were given one address.
    #[error(
        "secure metrics are HTTPS and the health probes plain HTTP, so they need two addresses, not {address} for both (give --health-probe-bind-address another port, or --metrics-secure=false)"
    )]
    SecureMetricsShareProbeAddress {
        /// The address given for both.
        address: SocketAddr,
    },
    /// The metrics server's certificate could not be made or loaded.
    #[error("metrics server certificate: {0}")]
    Certificate(#[from] crate::certs::CertificateError),
    /// A metric family could not be registered (usually: registered twice).
    #[error("cannot register metrics: {0}")]
    Metrics(#[from] prometheus::Error),
    /// A runnable's `register` failed when it was added.
    #[error("cannot add runnable {name}: {source}")]
    Register {
        /// The runnable.
        name: String,
        /// Its error.
        source: BoxError,
    },
    /// `add` or `run` after the manager started.
    #[error("the manager is already running; add runnables before calling run, and run it once")]
    AlreadyRunning,
    /// The caches did not sync in time.
    #[error("caches did not sync: {0}")]
    CacheSync(#[from] wheelhouse_cache::SyncError),
    /// A runnable failed, which stops the manager.
    #[error("runnable {name} failed: {source}")]
    Runnable {
        /// The runnable.
        name: String,
        /// Its error.
        source: BoxError,
    },
    /// A runnable panicked, which stops the manager.
    #[error("runnable {name} panicked: {message}")]
    RunnablePanicked {
        /// The runnable.
        name: String,
        /// The panic's message.
        message: String,
    },
    /// This replica lost the lease it held ([`OnLeadershipLost::Exit`]).
    ///
    /// [`OnLeadershipLost::Exit`]: crate::OnLeadershipLost::Exit
    #[error("lost leadership of lease {lease}: {why}; leader-only work was stopped at once{}", abandoned_suffix(.abandoned))]
    LeadershipLost {
        /// namespace/name of the Lease.
        lease: String,
        /// Why.
        why: &'static str,
        /// Leader-only runnables that did not stop within the grace after the term's
        /// end, and whose futures were dropped without waiting for what they spawned.
        abandoned: Vec<String>,
    },
    /// Runnables that did not stop within the graceful-shutdown timeout, abandoned.
    #[error("runnables did not stop within the graceful-shutdown timeout of {timeout:?} and were abandoned: {}", .runnables.join(", "))]
    ShutdownTimedOut {
        /// The timeout.
        timeout: Duration,
        /// Their names.
        runnables: Vec<String>,
    },
    /// Listening for SIGTERM/SIGINT failed.
    #[error("cannot listen for termination signals: {0}")]
    Signals(std::io::Error),
    /// Logging could not be set up from the flags.
    #[error("cannot set up logging: {0}")]
    Logging(String),
    /// No client could be made from the `kube::Config` given to
    /// [`Manager::builder_from_config`](crate::Manager::builder_from_config).
    #[error("cannot make a client of the API server from its configuration: {0}")]
    Client(#[source] kube::Error),
}

fn abandoned_suffix(abandoned: &[String]) -> String {
    if abandoned.is_empty() {
        String::new()
    } else {
        format!(
            ", except {}, which did not stop in time and were abandoned",
            abandoned.join(", ")
        )
    }
}
