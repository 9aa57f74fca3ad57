//! A controller under a manager with leader election: at the end of its leadership
//! term its reconciles in flight are cancelled and awaited before the manager reports
//! leadership lost, and a write the reconciler sends after the term is refused.

use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, PostParams};
use parking_lot::Mutex;
use tokio::time::Instant;
use wheelhouse_controller::{Action, Context, Error, Reconciler};
use wheelhouse_manager::{CancellationToken, Fenced, LeaderElection, Manager};

use crate::common::{TIMEOUT, configmap, controller, start};

/// When the reconcile in flight began and when its future was dropped.
#[derive(Default)]
struct Seen {
    started: Option<Instant>,
    dropped: Option<Instant>,
}

struct DroppedAt(Arc<Mutex<Seen>>);

impl Drop for DroppedAt {
    fn drop(&mut self) {
        self.0.lock().dropped = Some(Instant::now());
    }
}

/// Never finishes by itself: it holds its reconcile open until cancelled.
struct Endless(Arc<Mutex<Seen>>);

impl Reconciler<ConfigMap> for Endless {
    async fn reconcile(&self, _: Arc<ConfigMap>, _: &Context) -> Result<Action, Error> {
        self.0.lock().started.get_or_insert_with(Instant::now);
        let _dropped = DroppedAt(self.0.clone());
        std::future::pending().await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_the_terms_end_reconciles_in_flight_are_cancelled_and_awaited_before_leadership_is_reported_lost() {
    let env = start().await;
    let manager = Manager::builder(env.client())
        .leader_election(
            LeaderElection::new("controller-fencing")
                .namespace(env.namespace())
                .timings(
                    Duration::from_secs(2),
                    Duration::from_millis(1500),
                    Duration::from_millis(400),
                )
                .on_lost(wheelhouse_manager::OnLeadershipLost::Exit),
        )
        .shutdown_signal(CancellationToken::new())
        .build()
        .expect("a manager");
    let seen = Arc::new(Mutex::new(Seen::default()));
    let built = controller::<ConfigMap>(&env, manager.cache()).build(Endless(seen.clone()));
    manager.add(built).expect("add");
    let running = tokio::spawn(manager.clone().run());
    Api::<ConfigMap>::namespaced(env.client(), env.namespace())
        .create(&PostParams::default(), &configmap("held-open", &[]))
        .await
        .expect("create");
    let deadline = Instant::now() + TIMEOUT;
    while seen.lock().started.is_none() {
        assert!(Instant::now() < deadline, "the reconcile never started");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    manager.pause_leader_election(Duration::from_secs(5));
    let error = tokio::time::timeout(TIMEOUT, running)
        .await
        .expect("run returns")
        .expect("no panic")
        .expect_err("losing the lease is an error");
    let returned = Instant::now();
    assert!(
        matches!(&error, wheelhouse_manager::Error::LeadershipLost { abandoned, .. } if abandoned.is_empty()),
        "{error}"
    );
    let dropped = seen.lock().dropped.expect("the reconcile in flight was cancelled");
    assert!(dropped <= returned, "cancelled before leadership was reported lost");
    // The manager's client now refuses the controller's writes.
    let refused = Api::<ConfigMap>::namespaced(manager.client(), env.namespace())
        .create(&PostParams::default(), &configmap("after-the-term", &[]))
        .await
        .expect_err("no term, no write");
    assert!(
        matches!(Fenced::of(&refused), Some(Fenced::NotLeading { .. })),
        "{refused}"
    );
    env.stop().await;
}
