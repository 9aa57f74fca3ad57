//! What a test asks of the workload simulation: how many Nodes, how long pods take,
//! and which pods misbehave (the failure knobs).

use std::time::Duration;

/// The annotation that gives every container of a pod a [`PodBehaviour`], by its
/// name: `healthy`, `never-ready`, `image-pull-error`, `crash-loop` or `fail`. Set it
/// on a workload's pod template and every pod of the workload gets it.
pub const BEHAVIOUR_ANNOTATION: &str = "envtest.wheelhouse.rs/behaviour";

/// The embedded server's stand-in for kube-controller-manager's workload controllers,
/// kube-scheduler and the kubelet (see `ServerOptions::workloads`): Deployments make
/// ReplicaSets, ReplicaSets, StatefulSets, DaemonSets and Jobs make Pods, Pods are
/// bound to simulated Nodes and, `pod_start_delay` later, run. The storage protection
/// controllers run with it: a deleted claim or volume goes once nothing uses it
/// (without the simulation it stays terminating, held by its protection finalizer, as
/// on a cluster whose controller manager runs only the garbage collector and the
/// namespace controller).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), wheelhouse_envtest::Error> {
/// use std::time::Duration;
/// use wheelhouse_envtest::{PodBehaviour, ServerOptions, TestEnv, WorkloadSimulation};
///
/// let simulation = WorkloadSimulation {
///     pod_start_delay: Duration::from_millis(50),
///     ..WorkloadSimulation::default()
/// }
/// // Containers whose image ends in `:broken` never pull.
/// .with_image("*:broken", PodBehaviour::ImagePullError);
/// let options = ServerOptions { workloads: Some(simulation), ..ServerOptions::default() };
/// let env = TestEnv::embedded_with(options).await?;
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkloadSimulation {
    /// How many Ready Nodes to register, named `worker-1`, `worker-2`, ... (default 1).
    pub nodes: usize,
    /// How long after a pod is bound to a Node its containers run (and, if healthy,
    /// become ready); also how long a deleted pod takes to stop, at most its grace
    /// period (default 500 ms).
    pub pod_start_delay: Duration,
    /// How long the containers of a pod that is not restarted (`restartPolicy: Never`
    /// or `OnFailure`, as in Jobs) run before they exit (default 500 ms).
    pub run_time: Duration,
    /// Behaviours by image: the first rule whose pattern matches a container's image
    /// decides, else the pod's [`BEHAVIOUR_ANNOTATION`], else healthy.
    pub images: Vec<ImageRule>,
}

impl Default for WorkloadSimulation {
    fn default() -> Self {
        Self {
            nodes: 1,
            pod_start_delay: Duration::from_millis(500),
            run_time: Duration::from_millis(500),
            images: Vec::new(),
        }
    }
}

impl WorkloadSimulation {
    /// The default simulation with pods that start `delay` after they are bound.
    #[must_use]
    pub fn pods_start_after(delay: Duration) -> Self {
        Self {
            pod_start_delay: delay,
            ..Self::default()
        }
    }

    /// Gives containers whose image matches `pattern` a behaviour. The pattern is the
    /// whole image with `*` standing for any run of characters: `*:broken`,
    /// `registry.example/flaky/*`, `nginx:1.27`.
    #[must_use]
    pub fn with_image(mut self, pattern: impl Into<String>, behaviour: PodBehaviour) -> Self {
        self.images.push(ImageRule {
            pattern: pattern.into(),
            behaviour,
        });
        self
    }

    /// The behaviour of a container with `image` in a pod annotated `annotation`.
    pub(crate) fn behaviour(&self, image: &str, annotation: Option<&str>) -> PodBehaviour {
        self.images
            .iter()
            .find(|rule| glob_matches(&rule.pattern, image))
            .map(|rule| rule.behaviour)
            .or_else(|| annotation.and_then(PodBehaviour::from_name))
            .unwrap_or(PodBehaviour::Healthy)
    }
}

/// One failure knob: containers whose image matches `pattern` behave as `behaviour`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageRule {
    /// The image, with `*` for any run of characters.
    pub pattern: String,
    /// What such containers do.
    pub behaviour: PodBehaviour,
}

/// What a simulated container does once its pod is on a Node, as the kubelet would
/// report it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PodBehaviour {
    /// Starts and becomes ready; a container of a pod that is not restarted exits 0
    /// after `run_time` (`healthy`).
    Healthy,
    /// Runs but never passes its readiness probe, and never exits (`never-ready`).
    NeverReady,
    /// Its image cannot be pulled: waiting with `ErrImagePull`, then `ImagePullBackOff`
    /// (`image-pull-error`).
    ImagePullError,
    /// Exits with code 1 as soon as it starts: restarted with a growing back-off
    /// (waiting with `CrashLoopBackOff`), or, when not restarted, the pod fails
    /// (`crash-loop`).
    CrashLoop,
    /// Runs, ready, for `run_time`, then exits with code 1: a Job's pod that fails, or
    /// a crash loop with ready spells when restarted (`fail`).
    Fail,
}

impl PodBehaviour {
    /// The behaviour an annotation value names.
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name.trim() {
            "healthy" => Self::Healthy,
            "never-ready" => Self::NeverReady,
            "image-pull-error" => Self::ImagePullError,
            "crash-loop" => Self::CrashLoop,
            "fail" => Self::Fail,
            _ => return None,
        })
    }
}

/// Whether `text` matches `pattern`, where `*` stands for any run of characters.
fn glob_matches(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_the_whole_image() {
        assert!(glob_matches("nginx:1.27", "nginx:1.27"));
        assert!(!glob_matches("nginx:1.27", "nginx:1.27.1"));
        assert!(glob_matches("*:broken", "registry.example/app:broken"));
        assert!(!glob_matches("*:broken", "app:broken-not"));
        assert!(glob_matches("registry.example/*/app*", "registry.example/team/app:v2"));
        assert!(glob_matches("*", ""));
        assert!(!glob_matches("a*a", "a"));
    }

    #[test]
    fn image_rules_come_before_the_annotation() {
        let simulation = WorkloadSimulation::default().with_image("*:bad", PodBehaviour::ImagePullError);
        assert_eq!(
            simulation.behaviour("app:bad", Some("crash-loop")),
            PodBehaviour::ImagePullError
        );
        assert_eq!(
            simulation.behaviour("app:good", Some("crash-loop")),
            PodBehaviour::CrashLoop
        );
        assert_eq!(simulation.behaviour("app:good", Some("unknown")), PodBehaviour::Healthy);
        assert_eq!(simulation.behaviour("app:good", None), PodBehaviour::Healthy);
    }
}
