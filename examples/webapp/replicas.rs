//! Replicas of the WebApp operator on one API server, each its own [`Manager`],
//! identity and cache, electing a leader on one Lease; every reconcile is recorded on
//! a shared [`Timeline`]. Shared by `examples/ha.rs`, `tests/ha.rs` and
//! `benches/failover.rs`.

#![allow(dead_code, reason = "each user uses a part")]

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use kube::ResourceExt;
use parking_lot::Mutex;
use tokio::task::JoinHandle;
use tokio::time::Instant;
use wheelhouse::controller::{Action, Context, Error, Reconciler};
use wheelhouse::manager::{CancellationToken, LeaderElection, Manager};

use crate::operator::{self, WebApp, WebAppReconciler, WebAppSpec};

/// One reconcile: which replica ran it, for which WebApp, from when to when (the end
/// is set when the reconcile returns or is dropped, so aborted ones count).
#[derive(Debug, Clone)]
pub struct Reconcile {
    pub replica: usize,
    pub webapp: String,
    pub started: Instant,
    pub started_at: SystemTime,
    pub ended: Option<Instant>,
}

/// Every replica's reconciles, in the order they started.
#[derive(Clone, Default)]
pub struct Timeline(Arc<Mutex<Vec<Reconcile>>>);

impl Timeline {
    pub fn snapshot(&self) -> Vec<Reconcile> {
        self.0.lock().clone()
    }

    /// The first reconcile `replica` started at or after `since`.
    pub fn first_by(&self, replica: usize, since: SystemTime) -> Option<Reconcile> {
        self.0
            .lock()
            .iter()
            .find(|r| r.replica == replica && r.started_at >= since)
            .cloned()
    }

    /// True while `replica` is in the middle of a reconcile.
    pub fn in_flight(&self, replica: usize) -> bool {
        self.0
            .lock()
            .iter()
            .rev()
            .take(16)
            .any(|r| r.replica == replica && r.ended.is_none())
    }

    /// The replicas that reconciled since `since`.
    pub fn replicas_since(&self, since: Instant) -> Vec<usize> {
        let mut replicas: Vec<usize> = self
            .0
            .lock()
            .iter()
            .filter(|r| r.started >= since)
            .map(|r| r.replica)
            .collect();
        replicas.sort_unstable();
        replicas.dedup();
        replicas
    }

    /// Two reconciles of different replicas that overlapped in time, if any.
    pub fn overlap(&self) -> Option<(Reconcile, Reconcile)> {
        let reconciles = self.snapshot();
        let now = Instant::now();
        for (i, a) in reconciles.iter().enumerate() {
            for b in &reconciles[i + 1..] {
                let (a_end, b_end) = (a.ended.unwrap_or(now), b.ended.unwrap_or(now));
                if a.replica != b.replica && a.started < b_end && b.started < a_end {
                    return Some((a.clone(), b.clone()));
                }
            }
        }
        None
    }

    fn open(&self, replica: usize, webapp: String) -> usize {
        let mut reconciles = self.0.lock();
        reconciles.push(Reconcile {
            replica,
            webapp,
            started: Instant::now(),
            started_at: SystemTime::now(),
            ended: None,
        });
        reconciles.len() - 1
    }
}

/// Ends a recorded reconcile when dropped.
struct Ending(Timeline, usize);

impl Drop for Ending {
    fn drop(&mut self) {
        self.0.0.lock()[self.1].ended = Some(Instant::now());
    }
}

/// The WebApp reconciler, recording each call; `requeue` (when set) brings every
/// WebApp back that soon, so a leader reconciles all the time.
pub struct Recording {
    inner: WebAppReconciler,
    replica: usize,
    timeline: Timeline,
    requeue: Option<Duration>,
}

impl Reconciler<WebApp> for Recording {
    async fn reconcile(&self, webapp: Arc<WebApp>, context: &Context) -> Result<Action, Error> {
        let _ending = Ending(
            self.timeline.clone(),
            self.timeline.open(self.replica, webapp.name_any()),
        );
        let action = self.inner.reconcile(webapp, context).await?;
        Ok(self.requeue.map_or(action, Action::requeue_after))
    }
}

/// A replica of the operator, running its manager on its own task.
pub struct Replica {
    pub index: usize,
    pub manager: Manager,
    shutdown: CancellationToken,
    task: Option<JoinHandle<Result<(), wheelhouse::manager::Error>>>,
}

impl Replica {
    /// Starts replica `index` (identity `replica-<index>`) reconciling the WebApps of
    /// `namespace`, with `election` (its namespace set to `namespace`).
    pub fn start(
        client: &kube::Client,
        namespace: &str,
        index: usize,
        election: LeaderElection,
        timeline: &Timeline,
        requeue: Option<Duration>,
    ) -> Result<Self, wheelhouse::manager::Error> {
        let shutdown = CancellationToken::new();
        let manager = Manager::builder(client.clone())
            .leader_election(election.namespace(namespace).identity(format!("replica-{index}")))
            .shutdown_signal(shutdown.clone())
            .build()?;
        let builder = operator::builder(manager.cache(), Some(namespace));
        let reconciler = Recording {
            inner: WebAppReconciler::cached(&builder).expect("builder() owns Deployments and Services whole"),
            replica: index,
            timeline: timeline.clone(),
            requeue,
        };
        manager.add(builder.build(reconciler))?;
        let task = tokio::spawn(manager.clone().run());
        Ok(Self {
            index,
            manager,
            shutdown,
            task: Some(task),
        })
    }

    /// True while this replica's manager runs.
    pub fn is_running(&self) -> bool {
        self.task.as_ref().is_some_and(|t| !t.is_finished())
    }

    /// Stops gracefully (the lease is released) and returns what `run` returned.
    pub async fn stop(&mut self) -> Result<(), wheelhouse::manager::Error> {
        self.shutdown.cancel();
        match self.task.take() {
            Some(task) => task
                .await
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic.into_panic())),
            None => Ok(()),
        }
    }

    /// Kills the replica as a crash would: its manager's future is dropped and nothing
    /// is released.
    pub async fn kill(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
            let _ = task.await;
        }
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        if let Some(task) = &self.task {
            task.abort();
        }
    }
}

/// The index of the replica that leads now, if one does.
pub fn leader(replicas: &[Replica]) -> Option<usize> {
    replicas
        .iter()
        .find(|r| r.is_running() && r.manager.is_leader())
        .map(|r| r.index)
}

/// The WebApps the replicas share: `shop`, `blog` and `wiki`, `replicas` each.
pub async fn create_webapps(client: &kube::Client, namespace: &str, replicas: i32) -> Result<(), kube::Error> {
    let webapps: kube::Api<WebApp> = kube::Api::namespaced(client.clone(), namespace);
    for name in ["shop", "blog", "wiki"] {
        let spec = WebAppSpec {
            image: "nginx:1.27".into(),
            replicas: Some(replicas),
            port: Some(80),
        };
        webapps
            .create(&kube::api::PostParams::default(), &WebApp::new(name, spec))
            .await?;
    }
    Ok(())
}
