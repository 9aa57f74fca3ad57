//! Three replicas of the WebApp operator, each its own Manager, on `TestEnv::start()`:
//! every reconcile of every replica is recorded, and no two replicas' reconciles may
//! overlap, while the leader is killed, fails to renew, or stops gracefully. Short
//! timings: 2 s lease, 1.5 s renew deadline, 0.4 s retry.

use std::time::Duration;

use kube::CustomResourceExt;
use kube::api::{Api, Patch, PatchParams, PostParams};
use replicas::{Replica, Timeline, leader, short, until};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::time::Instant;
use webapp::{WebApp, WebAppSpec};
use wheelhouse::manager::{LeaderElection, OnLeadershipLost};
use wheelhouse_envtest::{InjectedFailure, TestEnv, Verb};
use wheelhouse_examples::replicas;
use wheelhouse_examples::webapp;

fn election() -> LeaderElection {
    short(LeaderElection::new("webapp-ha")).on_lost(OnLeadershipLost::Standby)
}

/// Three WebApps and three replicas; returns once one replica leads and reconciles.
async fn start(env: &TestEnv, timeline: &Timeline, election: LeaderElection) -> Vec<Replica> {
    env.install_crd(&WebApp::crd()).await.expect("the CRD installs");
    replicas::create_webapps(&env.client(), env.namespace(), 1)
        .await
        .expect("create");
    let requeue = Some(Duration::from_millis(50));
    let replicas: Vec<_> = (0..3)
        .map(|i| {
            Replica::webapp(&env.client(), env.namespace(), i, election.clone(), timeline, requeue).expect("a replica")
        })
        .collect();
    until("a leader to reconcile", || !timeline.snapshot().is_empty()).await;
    replicas
}

fn assert_no_overlap(timeline: &Timeline) {
    if let Some((a, b)) = timeline.overlap() {
        panic!("two replicas reconciled at once: {a:?} and {b:?}");
    }
}

/// Waits until a replica other than `old` reconciles, and returns it.
async fn new_leader(timeline: &Timeline, old: usize) -> usize {
    let since = Instant::now();
    let mut new = None;
    until("another replica to reconcile", || {
        new = timeline.replicas_since(since).into_iter().find(|&r| r != old);
        new.is_some()
    })
    .await;
    new.expect("set above")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_leader_that_cannot_renew_stops_reconciling_before_another_leads() {
    let env = TestEnv::start().await.expect("a test environment");
    let Some(server) = env.server() else {
        eprintln!("skipped: failing lease updates needs the embedded server's fault injection");
        return;
    };
    let timeline = Timeline::default();
    // Losing the lease stops the manager (`OnLeadershipLost::Exit`): the old leader cannot take its
    // own lease back once the failures stop, so another replica must take over.
    let mut replicas = start(&env, &timeline, election().on_lost(OnLeadershipLost::Exit)).await;
    let old = leader(&replicas).expect("a leader");
    server.fail_next(10, InjectedFailure::server_error(Verb::Patch, "leases"));
    let new = new_leader(&timeline, old).await;
    assert_ne!(new, old);
    let stopped = replicas[old]
        .stop()
        .await
        .expect_err("the old leader's manager stopped");
    assert!(
        matches!(stopped, wheelhouse::manager::Error::LeadershipLost { .. }),
        "{stopped}"
    );
    // The new leader keeps reconciling; the old one never came back in between.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_no_overlap(&timeline);
    let since_takeover = timeline
        .snapshot()
        .into_iter()
        .filter(|r| r.replica == new)
        .map(|r| r.started)
        .min()
        .expect("the new leader reconciled");
    assert!(
        timeline
            .snapshot()
            .iter()
            .all(|r| r.replica != old || r.ended.is_some_and(|end| end <= since_takeover)),
        "the old leader reconciled after the new one started"
    );
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_webapp_is_reconciled_by_one_replica_at_a_time_through_failovers() {
    let env = TestEnv::start().await.expect("a test environment");
    let timeline = Timeline::default();
    let mut replicas = start(&env, &timeline, election()).await;

    let first = leader(&replicas).expect("a leader");
    replicas[first].kill().await;
    let second = new_leader(&timeline, first).await;
    assert_no_overlap(&timeline);

    // A spec change reaches the new leader.
    let webapps: Api<WebApp> = Api::namespaced(env.client(), env.namespace());
    let patch = serde_json::json!({"spec": {"replicas": 2}});
    webapps
        .patch("shop", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .expect("scale");
    wheelhouse_envtest::eventually("the new leader to apply the change", || async {
        let deployment = Api::<k8s_openapi::api::apps::v1::Deployment>::namespaced(env.client(), env.namespace())
            .get("shop")
            .await
            .ok()?;
        (deployment.spec.replicas == Some(2)).then_some(())
    })
    .await;

    replicas[second].stop().await.expect("a clean stop");
    let third = new_leader(&timeline, second).await;
    assert!(third != first && third != second);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_no_overlap(&timeline);
    replicas[third].stop().await.expect("a clean stop");
    assert_no_overlap(&timeline);
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_controller_added_to_a_manager_reports_to_its_registry() {
    let env = TestEnv::start().await.expect("a test environment");
    env.install_crd(&WebApp::crd()).await.expect("the CRD installs");
    let shutdown = wheelhouse::manager::CancellationToken::new();
    let manager = wheelhouse::manager::Manager::builder(env.client())
        .metrics_address(Some(([127, 0, 0, 1], 0).into()))
        .shutdown_signal(shutdown.clone())
        .build()
        .expect("a manager");
    manager
        .add(webapp::controller(manager.cache(), Some(env.namespace()), None))
        .expect("add");
    let address = manager.metrics_address().expect("metrics are served");
    let running = tokio::spawn(manager.run());
    let webapps: Api<WebApp> = Api::namespaced(env.client(), env.namespace());
    let spec = WebAppSpec {
        image: "nginx:1.27".into(),
        replicas: Some(1),
        port: Some(80),
    };
    webapps
        .create(&PostParams::default(), &WebApp::new("web", spec))
        .await
        .expect("create");
    // The reconcile writes the WebApp's status before it returns and is counted, so
    // wait for the count rather than for the status.
    let metrics = wheelhouse_envtest::eventually("the reconcile to be counted on /metrics", || async {
        let metrics = scrape(address).await;
        let reconciles: f64 = metrics
            .lines()
            .filter(|line| line.starts_with("controller_runtime_reconcile_total{controller=\"webapp\""))
            .filter_map(|line| line.rsplit(' ').next()?.parse::<f64>().ok())
            .sum();
        (reconciles >= 1.0).then_some(metrics)
    })
    .await;
    for family in [
        "controller_runtime_reconcile_time_seconds_bucket{controller=\"webapp\"",
        "controller_runtime_max_concurrent_reconciles{controller=\"webapp\"} 4",
        "workqueue_adds_total{controller=\"webapp\",name=\"webapp\"}",
        "workqueue_depth{controller=\"webapp\",name=\"webapp\"}",
        "wheelhouse_cache_objects{informer=\"webapps.example.com/v1",
        "process_resident_memory_bytes",
    ] {
        assert!(metrics.contains(family), "/metrics lacks {family}:\n{metrics}");
    }
    shutdown.cancel();
    running.await.expect("no panic").expect("a clean stop");
    env.stop().await;
}

/// `GET /metrics` on the manager's HTTP server, the response as text.
async fn scrape(address: std::net::SocketAddr) -> String {
    let mut stream = tokio::net::TcpStream::connect(address).await.expect("connect");
    stream
        .write_all(b"GET /metrics HTTP/1.1\r\nHost: m\r\nConnection: close\r\n\r\n")
        .await
        .expect("send");
    let mut metrics = String::new();
    stream.read_to_string(&mut metrics).await.expect("read");
    metrics
}
