//! A new leadership term catches up first on what changed while this replica was out:
//! the objects whose resourceVersion moved since it last reconciled them, and the new
//! ones, go before those it left settled.

use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::ResourceExt;
use kube::api::{Api, Patch, PatchParams, PostParams};
use parking_lot::Mutex;
use tokio::time::Instant;
use wheelhouse_controller::{Action, Context, Error, Reconciler};
use wheelhouse_manager::{CancellationToken, LeaderElection, Manager, OnLeadershipLost};

use crate::common::{TIMEOUT, configmap, controller, start};

/// Records the order of its reconciles, taking a little time over each.
struct Ordered(Arc<Mutex<Vec<String>>>);

impl Reconciler<ConfigMap> for Ordered {
    async fn reconcile(&self, object: Arc<ConfigMap>, _: &Context) -> Result<Action, Error> {
        tokio::time::sleep(Duration::from_millis(5)).await;
        self.0.lock().push(object.name_any());
        Ok(Action::done())
    }
}

async fn until(what: &str, check: impl Fn() -> bool) {
    let deadline = Instant::now() + TIMEOUT;
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_term_reconciles_what_changed_while_it_was_out_first() {
    let env = start().await;
    let shutdown = CancellationToken::new();
    let manager = Manager::builder(env.client())
        .leader_election(
            LeaderElection::new("catch-up")
                .namespace(env.namespace())
                .timings(
                    Duration::from_secs(2),
                    Duration::from_millis(1500),
                    Duration::from_millis(400),
                )
                .on_lost(OnLeadershipLost::Standby),
        )
        .shutdown_signal(shutdown.clone())
        .build()
        .expect("a manager");
    let order = Arc::new(Mutex::new(Vec::new()));
    let built = controller::<ConfigMap>(&env, manager.cache()).build(Ordered(order.clone()));
    manager.add(built).expect("add");
    let configs: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    for i in 0..30 {
        configs
            .create(&PostParams::default(), &configmap(&format!("settled-{i:02}"), &[]))
            .await
            .expect("create");
    }
    let running = tokio::spawn(manager.clone().run());
    until("every object reconciled once", || order.lock().len() >= 30).await;
    tokio::time::sleep(Duration::from_millis(300)).await;

    // Out of its term for a while; meanwhile three objects change and one appears.
    manager.pause_leader_election(Duration::from_secs(3));
    until("the term to end", || !manager.is_leader()).await;
    let changed = ["settled-07", "settled-19", "settled-28"];
    for name in changed {
        let patch = serde_json::json!({"data": {"changed": "while out"}});
        configs
            .patch(name, &PatchParams::default(), &Patch::Merge(&patch))
            .await
            .expect("change");
    }
    configs
        .create(&PostParams::default(), &configmap("new-while-out", &[]))
        .await
        .expect("create");
    let before = order.lock().len();
    until("a new term", || manager.is_leader()).await;
    until("the new term to reconcile", || order.lock().len() >= before + 4).await;
    let mut first: Vec<String> = order.lock()[before..before + 4].to_vec();
    first.sort();
    assert_eq!(
        first,
        ["new-while-out", "settled-07", "settled-19", "settled-28"],
        "the new term began with what changed while it was out"
    );
    shutdown.cancel();
    let _ = tokio::time::timeout(TIMEOUT, running).await;
    env.stop().await;
}
