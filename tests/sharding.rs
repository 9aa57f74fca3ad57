//! The WebApp operator sharded across replicas, each its own Manager in a ring: every
//! reconcile of every replica is recorded (which replica, which WebApp, from when to
//! when), and no WebApp may ever be reconciled by two replicas at once, while members
//! join, leave gracefully, are killed, pause past their renew deadline, and have their
//! Lease deleted under them. Every WebApp must be reconciled after each change, and
//! each replica's cache must hold only its share.
//!
//! The server is a second witness (the embedded server's records, or a real server's
//! audit log, see `TestEnv::witness_writes`): every write a replica sent
//! for a WebApp or its children must have arrived while that replica was reconciling
//! that WebApp (so none lands after a slot was handed over). Runs on the embedded
//! server twice, with and without its KEP-5866 support (the server filtering, then the
//! informers filtering), and on a real cluster once.

use std::time::Duration;

use k8s_openapi::api::coordination::v1::Lease;
use kube::CustomResourceExt;
use kube::api::{Api, DeleteParams, ListParams};
use tokio::time::Instant;
use wheelhouse::cache::shard::ServerFiltering;
use wheelhouse::manager::ring::RING_LABEL;
use wheelhouse::manager::{OnLeadershipLost, Sharding};
use wheelhouse_envtest::{ServerOptions, TestEnv, WriteWitness};
use wheelhouse_examples::replicas::{Replica, Timeline, balanced, client_of, create_many_webapps, short_ring, until};
use wheelhouse_examples::webapp::WebApp;

const WEBAPPS: usize = 48;

fn ring(name: &str) -> Sharding {
    short_ring(Sharding::new(name)).on_lost(OnLeadershipLost::Standby)
}

fn start(env: &TestEnv, name: &str, index: usize, timeline: &Timeline) -> Replica {
    // Every WebApp comes back every 200 ms: the replicas reconcile all the time, so
    // two reconciling one WebApp at once would overlap.
    let requeue = Some(Duration::from_millis(200));
    Replica::webapp(
        &client_of(env, index),
        env.namespace(),
        index,
        ring(name),
        timeline,
        requeue,
    )
    .expect("a sharded replica")
}

/// Every write a replica sent for a WebApp, its Deployment or its Service (all named
/// after the WebApp) arrived at least before another replica began reconciling it; a
/// reconcile cancelled at a handover may have had a write on its way (bytes on a TCP
/// connection to a real server, a handling the embedded server's threads were already
/// committing), which lands just after that reconcile ended.
fn assert_writes_inside_reconciles(witness: &WriteWitness, timeline: &Timeline) {
    let about = |write: &wheelhouse_envtest::ArrivedWrite| {
        let children = ["webapps", "deployments", "services"].contains(&write.resource.as_str());
        children.then(|| write.name.clone()).flatten().map(Some)
    };
    timeline.assert_writes_fenced(&witness.writes(), about, true);
}

fn assert_no_overlap(timeline: &Timeline) {
    if let Some((a, b)) = timeline.overlap_on_one_object() {
        panic!("{} reconciled by two replicas at once: {a:?} and {b:?}", a.what);
    }
}

async fn every_webapp_reconciled(env: &TestEnv, timeline: &Timeline, what: &str) {
    let since = Instant::now();
    let api: Api<WebApp> = Api::namespaced(env.client(), env.namespace());
    // A WebApp being deleted may be gone before its next reconcile: count the others.
    let total = api
        .list(&ListParams::default())
        .await
        .expect("list")
        .items
        .iter()
        .filter(|webapp| webapp.metadata.deletion_timestamp.is_none())
        .count();
    until(what, || timeline.objects_since(since) >= total).await;
}

/// Deletes the ring `ring`'s Lease that `identity` holds, and waits until it is
/// back (re-created by its member).
async fn delete_member_lease(env: &TestEnv, ring: &str, identity: &str) {
    let leases: Api<Lease> = Api::namespaced(env.client(), env.namespace());
    let selector = format!("{RING_LABEL}={ring}");
    let held = |lease: &Lease| lease.spec.as_ref().and_then(|spec| spec.holder_identity.as_deref()) == Some(identity);
    let list = leases
        .list(&ListParams::default().labels(&selector))
        .await
        .expect("list");
    let lease = list.items.into_iter().find(held).expect("the member's Lease");
    let name = lease.metadata.name.clone().expect("a name");
    leases.delete(&name, &DeleteParams::default()).await.expect("delete");
    wheelhouse_envtest::eventually("the member's Lease to be re-created", || async {
        let now = leases.get_opt(&name).await.ok()??;
        (now.metadata.uid != lease.metadata.uid && held(&now)).then_some(())
    })
    .await;
}

async fn scenario(env: TestEnv, name: &str, filtering: Option<ServerFiltering>) {
    env.install_crd(&WebApp::crd()).await.expect("the CRD installs");
    let witness = env.witness_writes();
    create_many_webapps(&env.client(), env.namespace(), WEBAPPS)
        .await
        .expect("WebApps");
    let timeline = Timeline::default();
    let a = start(&env, name, 0, &timeline);
    let mut b = start(&env, name, 1, &timeline);
    let mut c = start(&env, name, 2, &timeline);
    until("three replicas to split the slots", || balanced(&[&a, &b, &c])).await;
    // Each sharded informer asked the server whether it filters: the embedded one
    // does when its KEP-5866 support is on; a real one before 1.36 never does.
    let seen = a.manager.shards().map(wheelhouse::cache::Shards::server_filtering);
    match filtering {
        Some(expected) => assert_eq!(seen, Some(expected)),
        None => assert_ne!(seen, Some(ServerFiltering::Unknown)),
    }
    every_webapp_reconciled(&env, &timeline, "every WebApp reconciled by three replicas").await;
    let cached: Vec<i64> = [&a, &b, &c].iter().map(|r| r.cached()).collect();
    assert_eq!(
        cached.iter().sum::<i64>(),
        i64::try_from(WEBAPPS).unwrap_or(i64::MAX),
        "each WebApp is cached by one replica: {cached:?}"
    );
    assert_no_overlap(&timeline);

    // A graceful leave: the other two take its slots at once.
    b.stop().await.expect("a graceful stop");
    until("two replicas after a graceful leave", || balanced(&[&a, &c])).await;
    every_webapp_reconciled(&env, &timeline, "every WebApp after the leave").await;
    assert_no_overlap(&timeline);

    // A join.
    let d = start(&env, name, 3, &timeline);
    until("three replicas after a join", || balanced(&[&a, &c, &d])).await;
    assert_no_overlap(&timeline);

    // A kill: its Lease expires, then the others take its slots.
    c.kill().await;
    until("two replicas after a kill", || balanced(&[&a, &d])).await;
    every_webapp_reconciled(&env, &timeline, "every WebApp after the kill").await;
    assert_no_overlap(&timeline);

    // A pause past the renew deadline: its term ends and its controllers stop before
    // the other sees its Lease expire; then it rejoins.
    a.manager.pause_leader_election(Duration::from_secs(4));
    until("the paused replica to stop serving", || a.serving().is_empty()).await;
    until("the paused replica to rejoin", || balanced(&[&a, &d])).await;
    every_webapp_reconciled(&env, &timeline, "every WebApp after the pause").await;
    assert_no_overlap(&timeline);

    // A member's Lease deleted under it: it ends its term at once and joins again with
    // a new Lease, while the other counts it live (its slots unserved) until then, as
    // for an expiry, so no WebApp is reconciled by two at once.
    delete_member_lease(&env, name, "replica-3").await;
    until("the member to rejoin after its Lease was deleted", || {
        balanced(&[&a, &d])
    })
    .await;
    every_webapp_reconciled(&env, &timeline, "every WebApp after a Lease deletion").await;
    assert_no_overlap(&timeline);

    // A WebApp deleted while sharded is let go by whoever had it.
    let api: Api<WebApp> = Api::namespaced(env.client(), env.namespace());
    api.delete("webapp-0", &DeleteParams::default()).await.expect("delete");
    every_webapp_reconciled(&env, &timeline, "every WebApp after a delete").await;
    assert_no_overlap(&timeline);
    if let Some(witness) = &witness {
        assert_writes_inside_reconciles(witness, &timeline);
    }
    drop((a, d));
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn no_webapp_is_reconciled_by_two_replicas_at_once_with_server_filtering() {
    let options = ServerOptions {
        sharded_list_and_watch: true,
        ..ServerOptions::default()
    };
    let env = TestEnv::start_with(options).await.expect("a test environment");
    let expected = env.is_embedded().then_some(ServerFiltering::Yes);
    scenario(env, "sharded-server", expected).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn no_webapp_is_reconciled_by_two_replicas_at_once_with_client_filtering() {
    let backend = wheelhouse_envtest::Backend::from_environment();
    if backend != wheelhouse_envtest::Backend::Embedded {
        eprintln!(
            "skipped: on {} the other test runs this scenario with whatever filtering the server does",
            backend.describe()
        );
        return;
    }
    let env = TestEnv::embedded().await.expect("a test environment");
    scenario(env, "sharded-client", Some(ServerFiltering::No)).await;
}
