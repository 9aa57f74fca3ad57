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
/// use wheelhouse_envtest::{ServerOptions, TestEnv};
///
/// // Watches that ask for bookmarks get one every 100 ms; a watch from before the
/// // last 100 events gets 410 Gone.
/// let options = ServerOptions {
///     history_limit: 100,
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
    /// How many events the server keeps for watches to resume from; older watches
    /// get 410 Gone (default 10,000, like a busy cluster's watch cache).
    pub history_limit: usize,
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
            history_limit: 10_000,
            bookmark_interval: Duration::from_secs(1),
            controllers: true,
            #[cfg(feature = "workloads")]
            workloads: None,
            sharded_list_and_watch: false,
        }
    }
}
