//! Fenced writes: a leader-only runnable's writes through the manager's client pass
//! only within its leadership term, a write in flight at the term's end is cancelled,
//! and the manager reports leadership lost only once leader-only work has stopped.
//! The server witnesses who held the Lease when each write arrived (the embedded
//! server itself; on an existing cluster its audit log, see `TestEnv::witness_lease`).

mod common;

use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams};
use parking_lot::Mutex;
use serde_json::json;
use tokio::time::Instant;
use wheelhouse_envtest::TestEnv;
use wheelhouse_examples::replicas::{Replica, TIMEOUT, client_of, short, until};
use wheelhouse_manager::{
    CancellationToken, Error, Fenced, LeaderElection, Manager, OnLeadershipLost, Stop, runnable_fn,
};

/// A replica whose leader-only work writes a `ConfigMap` every 10 ms through the
/// manager's client, and keeps each fencing error it got.
struct Writer {
    replica: Replica,
    fenced: Arc<Mutex<Vec<Fenced>>>,
}

impl Writer {
    fn start(env: &TestEnv, index: usize, election: LeaderElection) -> Self {
        let identity = format!("replica-{index}");
        let fenced = Arc::new(Mutex::new(Vec::new()));
        let errors = fenced.clone();
        let replica = Replica::start(&client_of(env, index), env.namespace(), index, election, |manager| {
            let client = manager.client();
            manager.add(runnable_fn("writer", true, move |stop: Stop| {
                let api: Api<ConfigMap> = Api::default_namespaced(client.clone());
                let (identity, errors) = (identity.clone(), errors.clone());
                async move {
                    // The loop does not race its writes against the term: cancelling
                    // a write in flight is the fence's job.
                    for count in 0_u64.. {
                        if stop.is_requested() {
                            break;
                        }
                        if let Err(error) = write(&api, "fenced", &identity, count).await {
                            errors.lock().extend(Fenced::of(&error).cloned());
                        }
                        tokio::time::sleep(Duration::from_millis(10)).await;
                    }
                    Ok(())
                }
            }))
        })
        .expect("a replica");
        Self { replica, fenced }
    }
}

async fn write(api: &Api<ConfigMap>, name: &str, identity: &str, count: u64) -> Result<ConfigMap, kube::Error> {
    let config = json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": name},
        "data": {"writer": identity, "count": count.to_string()},
    });
    api.patch(name, &PatchParams::apply("writer").force(), &Patch::Apply(&config))
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frozen_leaders_writes_are_cancelled_and_never_arrive_after_the_takeover() {
    let env = TestEnv::start().await.expect("a test environment");
    let Some(server) = env.server().cloned() else {
        eprintln!("skipped: holding a replica's requests and witnessing who held the Lease needs the embedded server");
        return;
    };
    let witness = server.witness_lease(env.namespace(), "fenced");
    let election = || short(LeaderElection::new("fenced")).on_lost(OnLeadershipLost::Standby);
    let mut writers: Vec<_> = (0..2).map(|i| Writer::start(&env, i, election())).collect();
    until("a leader to write", || !witness.writes().is_empty()).await;
    let old = usize::from(writers[1].replica.manager.is_leader());
    let other = 1 - old;
    let frozen = format!("replica-{old}");

    // Freeze the leader's requests: its write in flight and its renewals stay held,
    // as if the process stopped before they left. Its term ends at the renew
    // deadline, the other replica takes over once the lease expires, and only then
    // are the held requests let go.
    server.hold_requests(&frozen);
    // The control: the same replica's unfenced client, whose write waits too.
    let unfenced: Api<ConfigMap> = Api::namespaced(writers[old].replica.manager.unfenced_client(), env.namespace());
    let control = tokio::spawn(async move { write(&unfenced, "unfenced", "control", 0).await });
    let held = Instant::now();
    until("the other replica to write", || {
        witness
            .writes()
            .iter()
            .any(|w| w.write.user == format!("replica-{other}"))
    })
    .await;
    assert!(
        held.elapsed() >= Duration::from_millis(1500 - 400),
        "taken over {:?} after the freeze",
        held.elapsed()
    );
    server.release_requests(&frozen);
    control
        .await
        .expect("no panic")
        .expect("the unfenced write goes through");
    tokio::time::sleep(Duration::from_millis(500)).await;

    let stale = witness.stale_writes();
    assert_eq!(
        stale.len(),
        1,
        "only the unfenced control write arrived stale: {stale:#?}"
    );
    assert_eq!(
        (stale[0].write.user.as_str(), stale[0].write.name.as_deref()),
        (frozen.as_str(), Some("unfenced"))
    );
    assert_eq!(stale[0].holder.as_deref(), Some(format!("replica-{other}").as_str()));
    let fenced = writers[old].fenced.lock().clone();
    assert!(
        fenced.iter().any(|f| matches!(f, Fenced::TermEnded { .. })),
        "the held write was cancelled at the term's end: {fenced:?}"
    );
    assert!(writers[other].replica.manager.is_leader());
    for writer in &mut writers {
        tokio::time::timeout(TIMEOUT, writer.replica.stop())
            .await
            .expect("run returns")
            .expect("a clean stop");
    }
    assert!(witness.stale_writes().len() == 1, "{:#?}", witness.stale_writes());
    env.stop().await;
}

/// Records when a guard was dropped.
struct Dropped(Arc<Mutex<Option<Instant>>>);

impl Drop for Dropped {
    fn drop(&mut self) {
        *self.0.lock() = Some(Instant::now());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leadership_is_reported_lost_only_once_leader_only_work_stopped_or_was_named_abandoned() {
    let env = TestEnv::start().await.expect("a test environment");
    let shutdown = CancellationToken::new();
    let manager = Manager::builder(client_of(&env, 0))
        .leader_election(
            short(LeaderElection::new("reported"))
                .namespace(env.namespace())
                .on_lost(OnLeadershipLost::Exit),
        )
        .shutdown_signal(shutdown.clone())
        .build()
        .expect("a manager");
    let dropped = Arc::new(Mutex::new(None));
    let guard = dropped.clone();
    // Cooperates: at the term's end it aborts the task it spawned and waits for it.
    manager
        .add(runnable_fn("cooperative", true, move |stop: Stop| {
            let guard = guard.clone();
            async move {
                let task = tokio::spawn(async move {
                    let _guard = Dropped(guard);
                    std::future::pending::<()>().await;
                });
                stop.term_over().await;
                task.abort();
                let _ = task.await;
                Ok(())
            }
        }))
        .expect("add");
    // Ignores the term's end: the manager drops it after the grace and names it.
    manager
        .add(runnable_fn("stubborn", true, |stop: Stop| async move {
            stop.requested().await;
            Ok(())
        }))
        .expect("add");
    let running = tokio::spawn(manager.clone().run());
    until("leadership", || manager.is_leader()).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    manager.pause_leader_election(Duration::from_secs(5));
    let error = tokio::time::timeout(TIMEOUT, running)
        .await
        .expect("run returns")
        .expect("no panic")
        .expect_err("losing the lease is an error");
    let returned = Instant::now();
    match &error {
        Error::LeadershipLost { abandoned, .. } => assert_eq!(abandoned, &["stubborn".to_owned()], "{error}"),
        other => panic!("expected LeadershipLost, got {other}"),
    }
    assert!(error.to_string().contains("except stubborn"), "{error}");
    let dropped_at = dropped.lock().expect("the cooperative runnable's task was stopped");
    assert!(dropped_at <= returned);
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_runnable_failing_on_a_fenced_write_at_its_terms_end_does_not_stop_the_manager() {
    let env = TestEnv::start().await.expect("a test environment");
    let shutdown = CancellationToken::new();
    let manager = Manager::builder(client_of(&env, 0))
        .leader_election(
            short(LeaderElection::new("failing-writer"))
                .namespace(env.namespace())
                .on_lost(OnLeadershipLost::Standby),
        )
        .shutdown_signal(shutdown.clone())
        .build()
        .expect("a manager");
    let starts = Arc::new(Mutex::new(0_usize));
    let (client, counted) = (manager.client(), starts.clone());
    // Propagates every error, the fence's included, as `?` would.
    manager
        .add(runnable_fn("failing-writer", true, move |stop: Stop| {
            let api: Api<ConfigMap> = Api::default_namespaced(client.clone());
            *counted.lock() += 1;
            async move {
                for count in 0_u64.. {
                    if stop.token().is_cancelled() {
                        break;
                    }
                    write(&api, "failing-writer", "replica-0", count).await?;
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
                Ok(())
            }
        }))
        .expect("add");
    let mut running = tokio::spawn(manager.clone().run());
    until("leadership", || manager.is_leader()).await;
    manager.pause_leader_election(Duration::from_secs(3));
    until("the term to end", || !manager.is_leader()).await;
    until("leadership again, after the pause", || {
        manager.is_leader() && *starts.lock() == 2
    })
    .await;
    assert!(!running.is_finished(), "the manager kept running");
    shutdown.cancel();
    tokio::time::timeout(TIMEOUT, &mut running)
        .await
        .expect("run returns")
        .expect("no panic")
        .expect("a clean stop");
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn built_from_a_config_its_writes_pass_in_the_term_only_and_its_reads_always() {
    let mut env = TestEnv::start().await.expect("a test environment");
    if env.is_embedded() {
        env.serve_http(([127, 0, 0, 1], 0).into())
            .await
            .expect("serve over HTTP");
    }
    let Some(witness) = env.witness_lease(env.namespace(), "from-config") else {
        eprintln!("skipped: judging the writes needs a witness of who held the Lease");
        return;
    };
    let config = env.config_for("replica-0").expect("a configuration");
    let shutdown = CancellationToken::new();
    let manager = Manager::builder_from_config(config)
        .expect("a client of the configuration")
        .leader_election(
            short(LeaderElection::new("from-config"))
                .namespace(env.namespace())
                .identity("replica-0")
                .on_lost(OnLeadershipLost::Standby),
        )
        .metrics_address(None)
        .health_probe_address(None)
        .shutdown_signal(shutdown.clone())
        .build()
        .expect("a manager");
    let running = tokio::spawn(manager.clone().run());
    until("leadership", || manager.is_leader()).await;
    let api: Api<ConfigMap> = Api::default_namespaced(manager.client());
    write(&api, "from-config", "replica-0", 0)
        .await
        .expect("a write in the term");
    // (An audit log records a request once answered: it may take a moment.)
    wheelhouse_envtest::eventually("the write, as the configuration's user, in its term", || async {
        witness
            .writes()
            .iter()
            .any(|w| w.write.user == "replica-0" && w.write.resource == "configmaps" && !w.is_stale())
            .then_some(())
    })
    .await;

    manager.pause_leader_election(Duration::from_secs(3));
    until("the term to end", || !manager.is_leader()).await;
    let refused = write(&api, "from-config", "replica-0", 1)
        .await
        .expect_err("a write after the term");
    assert!(Fenced::of(&refused).is_some(), "{refused}");
    api.get("from-config").await.expect("reads pass without a term");
    until("leadership again, after the pause", || manager.is_leader()).await;
    write(&api, "from-config", "replica-0", 2)
        .await
        .expect("a write in the new term, on its new connections");
    assert!(witness.stale_writes().is_empty(), "{:#?}", witness.stale_writes());
    shutdown.cancel();
    tokio::time::timeout(TIMEOUT, running)
        .await
        .expect("run returns")
        .expect("no panic")
        .expect("a clean stop");
    env.stop().await;
}
