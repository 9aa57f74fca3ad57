//! Replicas that reach the embedded API server over TCP, each through its own fault
//! proxy (the examples' `fault_proxy`), partitioned as a network partitions them:
//! - a ring member cut off long enough to be swept, whose renew sent before the cut is
//!   delivered when the partition heals: it must fail, not re-create the member's
//!   Lease as a ghost the ring would count live with its old claims;
//! - a leader whose packets are dropped while a standby takes over, and a standby
//!   partitioned during a graceful handover: the embedded server's write witness
//!   checks that every write arrived while its sender's term ran;
//! - every ring member cut off as by an API server restart: all terms end, no member
//!   exits, and the ring forms again when the server is back.
//!
//! They run on the embedded server (its HTTP listener behind the proxies) and on an
//! existing cluster on loopback (its address behind them); there the write witness is
//! the API server's audit log (`TestEnv::witness_writes`), without which the tests
//! that need it skip with a message.

mod common;

use std::time::{Duration, Instant};

use futures::StreamExt;
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::{Api, ListParams};
use kube::runtime::watcher;
use parking_lot::Mutex;
use std::sync::Arc;
use wheelhouse_envtest::{TestEnv, Verb};
use wheelhouse_examples::fault_proxy::FaultProxy;
use wheelhouse_examples::replicas::{Replica, Timeline, balanced, short, short_ring, until};
use wheelhouse_manager::ring::{RING_LABEL, SERVING_ANNOTATION};
use wheelhouse_manager::{LeaderElection, Sharding};

use crate::common::{assert_writes_fenced, config_map_writer};

/// The environment, the embedded server served over HTTP so proxies can stand in
/// front of it.
async fn served() -> TestEnv {
    let mut env = TestEnv::start().await.expect("a test environment");
    if env.is_embedded() {
        env.serve_http(([127, 0, 0, 1], 0).into())
            .await
            .expect("serve over HTTP");
    }
    env
}

async fn proxy(env: &TestEnv) -> FaultProxy {
    FaultProxy::in_front_of(env).await.expect("a proxy")
}

/// Replica `index`, reaching the server through `proxy`, whose leader-only work writes
/// a `ConfigMap` of its own every few milliseconds while recorded on `timeline`.
fn writer(
    env: &TestEnv,
    proxy: &FaultProxy,
    index: usize,
    membership: impl Into<wheelhouse_examples::replicas::Membership>,
    timeline: &Timeline,
) -> Replica {
    let timeline = timeline.clone();
    let namespace = env.namespace().to_owned();
    let client = proxy.client(&format!("replica-{index}"), env.namespace());
    Replica::start(&client, env.namespace(), index, membership, |manager| {
        manager.add(config_map_writer(
            manager.client(),
            &namespace,
            index,
            &timeline,
            Duration::from_millis(10),
        ))
    })
    .expect("a replica")
}

/// The served slots a member's Lease record claims (its annotation, unparsed).
fn claim(lease: &Lease) -> Option<String> {
    lease.metadata.annotations.as_ref()?.get(SERVING_ANNOTATION).cloned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_renew_delivered_after_its_member_was_swept_fails_and_leaves_no_ghost() {
    let env = served().await;
    let Some(witness) = env.witness_writes() else {
        eprintln!("skipped: seeing the held renew arrive needs a write witness");
        return;
    };
    let ring = || short_ring(Sharding::new("ghost"));
    let proxies = [proxy(&env).await, proxy(&env).await];
    let timeline = Timeline::default();
    let survivor = writer(&env, &proxies[0], 0, ring(), &timeline);
    let victim = writer(&env, &proxies[1], 1, ring(), &timeline);
    until("two members to split the slots", || balanced(&[&survivor, &victim])).await;
    let leases: Api<Lease> = Api::namespaced(env.client(), env.namespace());
    let selector = format!("{RING_LABEL}=ghost");
    let list = leases
        .list(&ListParams::default().labels(&selector))
        .await
        .expect("list");
    let lease = list
        .items
        .into_iter()
        .find(|l| l.spec.as_ref().and_then(|s| s.holder_identity.as_deref()) == Some("replica-1"))
        .expect("the victim's Lease");
    let name = lease.metadata.name.clone().expect("a name");
    // Every record of the victim's Lease the server stores from now on.
    let records = Arc::new(Mutex::new(Vec::<Lease>::new()));
    let recording = {
        let records = records.clone();
        let config = watcher::Config::default().fields(&format!("metadata.name={name}"));
        let mut events = watcher(leases.clone(), config).boxed();
        tokio::spawn(async move {
            while let Some(event) = events.next().await {
                if let Ok(watcher::Event::Apply(lease) | watcher::Event::InitApply(lease)) = event {
                    records.lock().push(lease);
                }
            }
        })
    };

    // Cut off: its next renew is written to its socket and held there. Its term ends;
    // the survivor sees its Lease expire, takes every slot and sweeps the Lease.
    proxies[1].partition();
    until("the survivor to serve every slot", || balanced(&[&survivor])).await;
    wheelhouse_envtest::eventually("the victim's Lease to be swept", || async {
        leases.get_opt(&name).await.ok()?.is_none().then_some(())
    })
    .await;
    let swept = Instant::now();
    let before = records.lock().len();
    proxies[1].heal();
    wheelhouse_envtest::eventually("the held renew to arrive", || async {
        witness
            .writes()
            .iter()
            .any(|w| {
                w.user == "replica-1"
                    && matches!(w.verb, Verb::Patch | Verb::Update)
                    && w.resource == "leases"
                    && w.name.as_deref() == Some(name.as_str())
                    && w.arrived > swept
            })
            .then_some(())
    })
    .await;
    until("the victim to rejoin", || balanced(&[&survivor, &victim])).await;
    // Whatever re-created the victim's Lease was its new term, which claims nothing at
    // first: never the late renew, which would carry the old term's claim.
    let after: Vec<Lease> = records.lock()[before..].to_vec();
    let first = after.first().expect("the victim's Lease was re-created");
    assert_eq!(
        first.spec.as_ref().and_then(|s| s.lease_transitions),
        Some(0),
        "created anew: {first:?}"
    );
    assert!(
        claim(first).is_none_or(|claim| claim.trim_start_matches('0').is_empty()),
        "the Lease came back with the old term's claim, a ghost: {first:?}"
    );
    recording.abort();
    drop((survivor, victim));
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn partitions_during_a_handover_leave_no_write_outside_its_term() {
    let env = served().await;
    let witness = env.witness_writes();
    let election = || short(LeaderElection::new("partitioned"));
    let proxies = [proxy(&env).await, proxy(&env).await, proxy(&env).await];
    let timeline = Timeline::default();
    let mut replicas: Vec<Replica> = (0..3)
        .map(|i| writer(&env, &proxies[i], i, election(), &timeline))
        .collect();
    until("a leader", || timeline.working().is_some()).await;

    // The leader's packets are dropped: its term ends, a standby takes over once the
    // Lease expires, and the old leader rejoins when the network is back.
    let old = timeline.working().expect("a leader");
    proxies[old].partition();
    until("another leader", || timeline.working().is_some_and(|r| r != old)).await;
    proxies[old].reset_connections();
    proxies[old].heal();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(replicas[old].is_running(), "the old leader stays up as a standby");

    // A graceful handover while one standby is partitioned: the leader releases, the
    // reachable standby takes over; the partitioned one catches up when it heals.
    let leader = timeline.working().expect("a leader");
    let cut_off = (0..3).find(|&i| i != leader).expect("a standby");
    proxies[cut_off].partition();
    replicas[leader].stop().await.expect("a clean stop");
    until("a leader after the handover", || {
        timeline.working().is_some_and(|r| r != leader)
    })
    .await;
    proxies[cut_off].heal();
    tokio::time::sleep(Duration::from_millis(500)).await;

    timeline.assert_disjoint();
    if let Some(witness) = &witness {
        assert_writes_fenced(witness, &timeline, !env.is_embedded());
    }
    for replica in &mut replicas {
        replica.stop().await.expect("a clean stop");
    }
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_an_api_server_outage_every_ring_member_rejoins_without_exiting() {
    let env = served().await;
    let ring = || short_ring(Sharding::new("outage"));
    let mut proxies = Vec::new();
    for _ in 0..3 {
        proxies.push(proxy(&env).await);
    }
    let timeline = Timeline::default();
    let mut members: Vec<Replica> = (0..3)
        .map(|i| writer(&env, &proxies[i], i, ring(), &timeline))
        .collect();
    until("three members to split the slots", || {
        balanced(&members.iter().collect::<Vec<_>>())
    })
    .await;
    // The API server goes away for longer than a lease duration, as in a restart:
    // open connections are reset and new ones refused. Every member's term ends.
    for proxy in &proxies {
        proxy.refuse(true);
        proxy.reset_connections();
    }
    until("every member to stop serving", || {
        members.iter().all(|m| m.serving().is_empty())
    })
    .await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    for proxy in &proxies {
        proxy.refuse(false);
    }
    let back = Instant::now();
    // Back: the members, still up with their caches, form the ring again.
    until("the ring to form again", || {
        balanced(&members.iter().collect::<Vec<_>>())
    })
    .await;
    eprintln!(
        "the ring formed again {} ms after the server was reachable",
        back.elapsed().as_millis()
    );
    assert!(members.iter().all(Replica::is_running), "no member exited");
    for member in &mut members {
        member.stop().await.expect("a clean stop");
    }
    env.stop().await;
}
