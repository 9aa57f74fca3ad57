//! How the embedded server is configured: [`ServerOptions`], and what a test asks of
//! the workload simulation when the `workloads` feature is on.
//!
//! May import: nothing in the crate (it is configuration, read by everything).

use std::time::Duration;

#[cfg(feature = "workloads")]
mod simulation;

#[cfg(feature = "workloads")]
pub use self::simulation::{BEHAVIOUR_ANNOTATION, ImageRule, PodBehaviour, WorkloadSimulation};

/// How the embedded server behaves; the default is a plain kube-apiserver plus the
/// controllers every cluster runs (garbage collector, namespace cleanup).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), wheelhouse_envtest::Error> {
/// use std::time::Duration;
/// use wheelhouse_envtest::{ServerOptions, TestEnv, WatchWindow};
///
/// // Watches that ask for bookmarks get one every 100 ms; a watch from before the
/// // last 100 events of its resource gets 410 Expired.
/// let options = ServerOptions {
///     watch_window: WatchWindow { min_events: 100, max_events: 100, ..Default::default() },
///     bookmark_interval: Duration::from_millis(100),
///     ..Default::default()
/// };
/// let env = TestEnv::embedded_with(options).await?;
/// assert!(env.runs_controllers());
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// How much history of each resource the server keeps for watches (and exact
    /// lists) to start from; older resourceVersions get 410 Expired. The default is
    /// kube-apiserver's watch cache (see [`WatchWindow`]).
    pub watch_window: WatchWindow,
    /// How long a list waits for a resourceVersion newer than the server's before
    /// it answers 504 `ResourceVersionTooLarge` (default 3 s, kube-apiserver's wait).
    pub future_resource_version_wait: Duration,
    /// How often a watch that asked for bookmarks gets one (default 1 s; the real
    /// server sends one about every minute).
    pub bookmark_interval: Duration,
    /// Run the garbage collector and namespace and CRD cleanup, as
    /// kube-controller-manager does (default on).
    pub controllers: bool,
    /// Simulate the workload controllers, a scheduler and kubelets on simulated Nodes,
    /// so Deployments, StatefulSets, DaemonSets and Jobs get running Pods and the
    /// status kube-controller-manager writes (default off; see [`WorkloadSimulation`]).
    /// Only with the `workloads` feature.
    #[cfg(feature = "workloads")]
    pub workloads: Option<WorkloadSimulation>,
    /// The `ShardedListAndWatch` feature gate (KEP-5866): honour `shardSelector` on
    /// list, watch and deletecollection and answer lists with `metadata.shardInfo`.
    /// Default off, as the gate is alpha (off) in kube-apiserver 1.36; a server that
    /// serves a version before 1.36 ignores the parameter whatever this says.
    pub sharded_list_and_watch: bool,
}

impl Default for ServerOptions {
    fn default() -> Self {
        Self {
            watch_window: WatchWindow::default(),
            future_resource_version_wait: Duration::from_secs(3),
            bookmark_interval: Duration::from_secs(1),
            controllers: true,
            #[cfg(feature = "workloads")]
            workloads: None,
            sharded_list_and_watch: false,
        }
    }
}

/// How much of each resource's history the server keeps, sized as kube-apiserver
/// sizes its watch cache: at least `min_events` and every event younger than
/// `fresh_for`, never more than `max_events`. kube-apiserver's cache doubles (up to
/// 100 × 1024 events) while its oldest event is younger than 75 s and halves (down to
/// 100) once a quarter of it is older; keeping exactly the events younger than
/// `fresh_for` is the steady state it approaches, without its steps. Events leave only
/// when their resource is written, as the watch cache resizes only on events.
///
/// ```
/// use std::time::Duration;
/// use wheelhouse_envtest::WatchWindow;
///
/// // A window a test can outrun: the last three events of each resource.
/// let small = WatchWindow { min_events: 3, max_events: 3, fresh_for: Duration::ZERO };
/// assert!(small.max_events < WatchWindow::default().max_events);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WatchWindow {
    /// Events kept whatever their age (kube-apiserver: 100; at least 1).
    pub min_events: usize,
    /// Events kept at most, however young (kube-apiserver: 102,400).
    pub max_events: usize,
    /// Events younger than this are kept, up to `max_events` (kube-apiserver: 75 s,
    /// its bookmark period plus 15 s).
    pub fresh_for: Duration,
}

impl Default for WatchWindow {
    fn default() -> Self {
        Self {
            min_events: 100,
            max_events: 100 * 1024,
            fresh_for: Duration::from_secs(75),
        }
    }
}
