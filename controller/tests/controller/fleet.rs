//! Fleet controllers on embedded fleets: ten API servers in one process, clusters
//! joining and leaving while the controller runs, fairness across clusters, and a
//! member that cannot be reached. Member `0` of each fleet is `TestEnv::start()`'s, so
//! `USE_EXISTING_CLUSTER=true` makes it a real API server.

use std::sync::Arc;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::ResourceExt;
use kube::api::{Api, PostParams};
use parking_lot::Mutex;
use prometheus::Registry;
use serde_json::json;
use tokio::sync::{Semaphore, oneshot};
use tokio::task::JoinHandle;
use wheelhouse_controller::{
    Action, Context, Controller, ControllerMetrics, Error, FleetController, FleetMetrics, FleetView, Reconciler,
};
use wheelhouse_envtest::TestEnv;
use wheelhouse_manager::fleet::InProcess;

use crate::common::{TIMEOUT, eventually, metric};

/// The label of the objects a fleet test's reconciler acts on (its value: the test).
const LABEL: &str = "wheelhouse.dev/fleet-test";

/// A `ConfigMap` `name` labelled for `test`.
fn labelled(name: &str, test: &str) -> ConfigMap {
    serde_json::from_value(json!({"metadata": {"name": name, "labels": {LABEL: test}}, "data": {"k": "v"}}))
        .expect("a valid ConfigMap")
}

/// A reconciler written for one cluster: it answers each labelled `ConfigMap` with a
/// `<name>-reply` `ConfigMap` next to it, through the context's client, and records
/// which cluster it was called for.
#[derive(Clone, Default)]
struct Replies {
    test: String,
    seen: Arc<Mutex<Vec<(String, String)>>>,
    /// When set, each reconcile takes a permit first (the test lets them through).
    tap: Option<Arc<Semaphore>>,
}

impl Reconciler<ConfigMap> for Replies {
    async fn reconcile(&self, object: Arc<ConfigMap>, context: &Context) -> Result<Action, Error> {
        if object.labels().get(LABEL) != Some(&self.test) {
            return Ok(Action::done());
        }
        let cluster = context.cluster().unwrap_or_default().to_owned();
        self.seen.lock().push((cluster.clone(), object.name_any()));
        if let Some(tap) = &self.tap {
            tap.acquire().await.map_err(Error::new)?.forget();
        }
        let namespace = object.namespace().unwrap_or_default();
        let replies: Api<ConfigMap> = Api::namespaced(context.client().clone(), &namespace);
        let reply: ConfigMap = serde_json::from_value(json!({
            "metadata": {"name": format!("{}-reply", object.name_any())},
            "data": {"cluster": cluster},
        }))?;
        match replies.create(&PostParams::default(), &reply).await {
            Ok(_) => Ok(Action::done()),
            Err(kube::Error::Api(status)) if status.code == 409 => Ok(Action::done()),
            Err(error) => Err(error.into()),
        }
    }
}

impl Replies {
    fn new(test: &str) -> Self {
        Self {
            test: test.to_owned(),
            ..Self::default()
        }
    }

    fn seen(&self) -> Vec<(String, String)> {
        self.seen.lock().clone()
    }
}

/// `count` clusters: the first `TestEnv::start()`'s (a real one under
/// `USE_EXISTING_CLUSTER=true`), the others embedded.
async fn fleet_of(count: usize) -> Vec<TestEnv> {
    let mut envs = vec![TestEnv::start().await.expect("the first member starts")];
    for _ in 1..count {
        envs.push(TestEnv::embedded().await.expect("an embedded member starts"));
    }
    envs
}

/// Creates `name` labelled for `test` in `env`'s namespace.
async fn create(env: &TestEnv, name: &str, test: &str) {
    let configmaps: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    configmaps
        .create(&PostParams::default(), &labelled(name, test))
        .await
        .expect("the ConfigMap is created");
}

/// Waits for `name`'s reply in `env` and returns the cluster it names.
async fn reply_in(env: &TestEnv, name: &str) -> String {
    let configmaps: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let reply = format!("{name}-reply");
    eventually(&format!("{reply} in {}", env.namespace()), || async {
        let found = configmaps.get_opt(&reply).await.ok().flatten()?;
        found.data?.get("cluster").cloned()
    })
    .await
}

/// A fleet controller running on its own task.
struct Running {
    view: FleetView,
    shutdown: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
}

impl Running {
    fn start(controller: FleetController) -> Self {
        let view = controller.view();
        let (shutdown, requested) = oneshot::channel::<()>();
        let task = tokio::spawn(controller.run(async move {
            let _ = requested.await;
        }));
        Self {
            view,
            shutdown: Some(shutdown),
            task,
        }
    }

    async fn stop(mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        tokio::time::timeout(TIMEOUT, self.task)
            .await
            .expect("run returns after shutdown")
            .expect("the fleet controller does not panic");
    }
}

fn member_name(index: usize) -> String {
    format!("member-{index}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fleet_of_ten_reconciles_each_cluster_with_its_own_client_and_labels_metrics_by_cluster() {
    let envs = fleet_of(10).await;
    let fleet = InProcess::new();
    for (index, env) in envs.iter().enumerate() {
        fleet.join(member_name(index), env.client());
    }
    let registry = Registry::new();
    let metrics = ControllerMetrics::register(&registry).expect("controller metrics register");
    let fleet_metrics = FleetMetrics::register(&registry).expect("fleet metrics register");
    let reconciler = Replies::new("ten");
    let controller = Controller::for_::<ConfigMap>(&wheelhouse_cache::Cache::new(envs[0].client()))
        .name("replies")
        .concurrency(4)
        .metrics(&metrics)
        .fleet(fleet.clone())
        .fleet_metrics(&fleet_metrics)
        .build(reconciler.clone());
    let running = Running::start(controller);
    running.view.wait_for(|names| names.len() == 10).await;
    for env in &envs {
        create(env, "request", "ten").await;
    }
    for (index, env) in envs.iter().enumerate() {
        assert_eq!(
            reply_in(env, "request").await,
            member_name(index),
            "each cluster is answered through its own client"
        );
    }
    let mut seen: Vec<String> = reconciler.seen().into_iter().map(|(cluster, _)| cluster).collect();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 10, "every member was reconciled: {seen:?}");
    for index in 0..10 {
        let cluster = member_name(index);
        let labels = [
            ("controller", "replies"),
            ("cluster", cluster.as_str()),
            ("result", "success"),
        ];
        assert!(
            metric(&registry, "wheelhouse_fleet_reconcile_total", &labels) >= 1.0,
            "{cluster} counted"
        );
        let ready = [("controller", "replies"), ("cluster", cluster.as_str())];
        assert!((metric(&registry, "wheelhouse_fleet_cluster_ready", &ready) - 1.0).abs() < f64::EPSILON);
    }
    assert!((metric(&registry, "wheelhouse_fleet_clusters", &[("controller", "replies")]) - 10.0).abs() < f64::EPSILON);
    running.stop().await;
    for env in envs {
        env.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fleet_members_join_and_leave_while_it_runs_and_a_leaving_one_is_let_go() {
    let envs = fleet_of(4).await;
    let fleet = InProcess::new();
    for (index, env) in envs.iter().enumerate().take(3) {
        fleet.join(member_name(index), env.client());
    }
    let registry = Registry::new();
    let fleet_metrics = FleetMetrics::register(&registry).expect("fleet metrics register");
    let reconciler = Replies::new("churn");
    let controller = Controller::for_::<ConfigMap>(&wheelhouse_cache::Cache::new(envs[0].client()))
        .name("churn")
        .fleet(fleet.clone())
        .fleet_metrics(&fleet_metrics)
        .build(reconciler.clone());
    let running = Running::start(controller);
    running.view.wait_for(|names| names.len() == 3).await;
    for env in envs.iter().take(3) {
        create(env, "before", "churn").await;
    }
    for (index, env) in envs.iter().enumerate().take(3) {
        assert_eq!(reply_in(env, "before").await, member_name(index));
    }

    // A fourth joins while it runs: its existing objects are reconciled.
    create(&envs[3], "before", "churn").await;
    fleet.join(member_name(3), envs[3].client());
    assert_eq!(reply_in(&envs[3], "before").await, member_name(3));

    // The second leaves: it is disengaged, its series go, and nothing of it is
    // reconciled any more, while the others carry on.
    assert!(fleet.leave(&member_name(1)));
    running
        .view
        .wait_for(|names| !names.iter().any(|n| **n == *member_name(1)))
        .await;
    assert_eq!(running.view.names().len(), 3);
    create(&envs[1], "after", "churn").await;
    for index in [0, 2, 3] {
        create(&envs[index], "after", "churn").await;
    }
    for index in [0, 2, 3] {
        assert_eq!(reply_in(&envs[index], "after").await, member_name(index));
    }
    // Each reply was written after its request was reconciled; the marker replies of
    // the members still in the fleet came after the left member's request existed.
    assert!(
        !reconciler.seen().contains(&(member_name(1), "after".to_owned())),
        "a member that left is not reconciled"
    );
    let configmaps: Api<ConfigMap> = Api::namespaced(envs[1].client(), envs[1].namespace());
    assert!(configmaps.get_opt("after-reply").await.expect("a read").is_none());
    let left = [("controller", "churn"), ("cluster", "member-1")];
    assert!(
        metric(&registry, "wheelhouse_fleet_reconcile_total", &left).abs() < f64::EPSILON,
        "its series are gone"
    );
    assert!(
        metric(
            &registry,
            "wheelhouse_fleet_membership_changes_total",
            &[("change", "left")]
        ) >= 1.0
    );

    // It can come back, and is engaged afresh.
    fleet.join(member_name(1), envs[1].client());
    assert_eq!(reply_in(&envs[1], "after").await, member_name(1));
    running.stop().await;
    for env in envs {
        env.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fleet_serves_clusters_in_turn_so_a_busy_one_cannot_starve_the_rest() {
    let envs = fleet_of(4).await;
    for index in 0..40 {
        create(&envs[0], &format!("busy-{index}"), "fair").await;
    }
    for env in &envs[1..] {
        create(env, "quiet", "fair").await;
    }
    let fleet = InProcess::new();
    fleet.join("busy", envs[0].client());
    let tap = Arc::new(Semaphore::new(0));
    let reconciler = Replies {
        tap: Some(tap.clone()),
        ..Replies::new("fair")
    };
    let controller = Controller::for_::<ConfigMap>(&wheelhouse_cache::Cache::new(envs[0].client()))
        .name("fair")
        .concurrency(1)
        .fleet(fleet.clone())
        .build(reconciler.clone());
    let running = Running::start(controller);
    // The busy cluster's first reconcile holds the only slot; its other keys queue.
    eventually("the busy cluster's first reconcile", || async {
        (!reconciler.seen().is_empty()).then_some(())
    })
    .await;
    for (index, env) in envs.iter().enumerate().skip(1) {
        fleet.join(format!("quiet-{index}"), env.client());
    }
    // Each quiet cluster's worker holds its key and is in line for the slot.
    eventually("the quiet clusters in line", || async {
        let clusters = running.view.clusters();
        let waiting = clusters
            .iter()
            .filter(|c| c.name.starts_with("quiet") && c.waiting == 1)
            .count();
        (waiting == 3).then_some(())
    })
    .await;
    tap.add_permits(1000);
    eventually("every quiet cluster reconciled", || async {
        (reconciler.seen().iter().filter(|(c, _)| c.starts_with("quiet")).count() == 3).then_some(())
    })
    .await;
    let order: Vec<String> = reconciler.seen().into_iter().map(|(cluster, _)| cluster).collect();
    assert_eq!(order[0], "busy");
    let mut next: Vec<&str> = order[1..4].iter().map(String::as_str).collect();
    next.sort_unstable();
    assert_eq!(
        next,
        ["quiet-1", "quiet-2", "quiet-3"],
        "the quiet clusters are served before the busy one's next key: {order:?}"
    );
    running.stop().await;
    for env in envs {
        env.stop().await;
    }
}

/// A client for an address nothing listens on: a member whose API server is away.
async fn unreachable_client() -> kube::Client {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let address = listener.local_addr().expect("its address");
    drop(listener);
    let config = kube::Config::new(format!("http://{address}").parse().expect("a URL"));
    let url = config.cluster_url.clone();
    let client = kube::Client::try_from(config).expect("a client");
    // As the kubeconfig providers do: errors name the URL that could not be reached.
    wheelhouse_cache::name_request_urls(client, Some(&url))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fleet_member_that_cannot_be_reached_is_reported_and_does_not_hold_up_the_others() {
    let envs = fleet_of(3).await;
    let fleet = InProcess::new();
    for (index, env) in envs.iter().enumerate() {
        fleet.join(member_name(index), env.client());
    }
    fleet.join("away", unreachable_client().await);
    let registry = Registry::new();
    let fleet_metrics = FleetMetrics::register(&registry).expect("fleet metrics register");
    let reconciler = Replies::new("away");
    let controller = Controller::for_::<ConfigMap>(&wheelhouse_cache::Cache::new(envs[0].client()))
        .name("away")
        .fleet(fleet.clone())
        .fleet_metrics(&fleet_metrics)
        .build(reconciler.clone());
    let running = Running::start(controller);
    running.view.wait_for(|names| names.len() == 4).await;
    for env in &envs {
        create(env, "request", "away").await;
    }
    for (index, env) in envs.iter().enumerate() {
        assert_eq!(reply_in(env, "request").await, member_name(index));
    }
    let away = eventually("the unreachable member's error", || async {
        running
            .view
            .clusters()
            .into_iter()
            .find(|c| &*c.name == "away" && c.error.is_some())
    })
    .await;
    assert!(!away.ready());
    let error = away.error.unwrap_or_default();
    assert!(
        error.contains("127.0.0.1"),
        "the error names what could not be reached: {error}"
    );
    let ready = |cluster: &'static str| metric(&registry, "wheelhouse_fleet_cluster_ready", &[("cluster", cluster)]);
    assert!(ready("away").abs() < f64::EPSILON);
    assert!((ready("member-2") - 1.0).abs() < f64::EPSILON);
    running.stop().await;
    for env in envs {
        env.stop().await;
    }
}
