//! A Lease changed by someone other than its elector: edited by hand to name a live
//! standby, restored from an older copy (a backup), or, in a ring, a member's Lease
//! edited to name another member. A replica takes a record naming it only if it is
//! exactly the record it last wrote, and a holder whose watch sees a record it did not
//! write ends its term at once, so none of these ever makes two leaders (or two
//! members serving one slot).
//!
//! Each is tried [`TRIES`] times. The write witness (the embedded server's records, or
//! a real server's audit log: see `TestEnv::witness_writes`) checks that every write a
//! replica sent arrived inside its own term and never after another replica's began.

mod common;

use std::time::Duration;

use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
use kube::CustomResourceExt;
use kube::api::{Api, ListParams, Patch, PatchParams};
use serde_json::json;
use wheelhouse_envtest::TestEnv;
use wheelhouse_examples::replicas::{
    Replica, Timeline, balanced, client_of, create_many_webapps, short, short_ring, until,
};
use wheelhouse_examples::webapp::WebApp;
use wheelhouse_manager::ring::RING_LABEL;
use wheelhouse_manager::{LeaderElection, OnLeadershipLost, Sharding};

use crate::common::{assert_writes_fenced, config_map_writer};

/// How many times each change is made.
const TRIES: usize = 30;

/// Replica `index`, whose leader-only work writes a `ConfigMap` of its own every 5 ms
/// through the manager's (fenced) client, recorded on `timeline`.
fn writer(env: &TestEnv, index: usize, lease: &str, timeline: &Timeline) -> Replica {
    let timeline = timeline.clone();
    let namespace = env.namespace().to_owned();
    let election = short(LeaderElection::new(lease)).on_lost(OnLeadershipLost::Standby);
    Replica::start(&client_of(env, index), env.namespace(), index, election, |manager| {
        manager.add(config_map_writer(
            manager.client(),
            &namespace,
            index,
            &timeline,
            Duration::from_millis(5),
        ))
    })
    .expect("a replica")
}

fn leases(env: &TestEnv) -> Api<Lease> {
    Api::namespaced(env.client(), env.namespace())
}

async fn set_spec(env: &TestEnv, name: &str, spec: serde_json::Value) {
    leases(env)
        .patch(name, &PatchParams::default(), &Patch::Merge(&json!({ "spec": spec })))
        .await
        .expect("change the Lease");
}

/// Waits for the current leader's work, then changes the Lease with `change` (given
/// the leader), then waits until that work ended and another term (anyone's) began.
/// Returns the leader the change was made under.
async fn change_under_the_leader<F: Future<Output = ()>>(
    timeline: &Timeline,
    change: impl FnOnce(usize) -> F,
) -> usize {
    until("a leader", || timeline.working().is_some()).await;
    let leader = timeline.working().expect("a leader");
    let work = timeline.current(leader).expect("the leader's work");
    // Let it write for a while: a change lands in the middle of its writes.
    tokio::time::sleep(Duration::from_millis(100)).await;
    change(leader).await;
    until("the leader's term to end", || timeline.has_ended(work)).await;
    until("another term to begin", || timeline.working_after(work).is_some()).await;
    leader
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lease_edited_to_name_a_live_standby_never_makes_two_leaders() {
    const LEASE: &str = "edited";
    let env = TestEnv::start().await.expect("a test environment");
    let witness = env.witness_writes();
    let timeline = Timeline::default();
    let mut replicas: Vec<Replica> = (0..3).map(|i| writer(&env, i, LEASE, &timeline)).collect();
    let mut named_took_over = 0;
    for attempt in 0..TRIES {
        let mut standby = 0;
        let leader = change_under_the_leader(&timeline, |leader| {
            // As `kubectl patch lease --type merge -p '{"spec":{"holderIdentity":..}}'`.
            standby = (leader + 1 + attempt % 2) % 3;
            set_spec(&env, LEASE, json!({ "holderIdentity": format!("replica-{standby}") }))
        })
        .await;
        assert_ne!(leader, standby);
        let next = timeline.working().expect("a leader");
        named_took_over += usize::from(next == standby);
        timeline.assert_disjoint();
    }
    eprintln!("{TRIES} edits naming a live standby; the named standby led next {named_took_over} times");
    if let Some(witness) = &witness {
        let writes = assert_writes_fenced(witness, &timeline, !env.is_embedded());
        eprintln!("{writes} writes witnessed, none after another replica's term began");
    }
    for replica in &mut replicas {
        replica.stop().await.expect("a clean stop");
    }
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lease_restored_from_an_older_copy_never_makes_two_leaders() {
    const LEASE: &str = "restored";
    let env = TestEnv::start().await.expect("a test environment");
    let witness = env.witness_writes();
    let timeline = Timeline::default();
    let mut replicas: Vec<Replica> = (0..3).map(|i| writer(&env, i, LEASE, &timeline)).collect();
    until("a leader", || timeline.working().is_some()).await;
    let copy = || async {
        let lease = leases(&env).get(LEASE).await.expect("the Lease");
        lease.spec.unwrap_or_default()
    };
    // Each try restores the copy the try before took: it names the leader of then,
    // who may lead now (its own identity in a record it did not write) or stand by.
    let mut older: LeaseSpec = copy().await;
    let mut named_self = 0;
    for _ in 0..TRIES {
        let restored = older.clone();
        let leader = change_under_the_leader(&timeline, |_| async {
            // A restore is a change only once a renew moved the record on.
            older = copy().await;
            while older == restored {
                tokio::time::sleep(Duration::from_millis(50)).await;
                older = copy().await;
            }
            set_spec(&env, LEASE, serde_json::to_value(&restored).expect("a spec")).await;
        })
        .await;
        named_self += usize::from(restored.holder_identity.as_deref() == Some(format!("replica-{leader}").as_str()));
        timeline.assert_disjoint();
    }
    eprintln!("{TRIES} restores of an older copy, {named_self} of them naming the leader itself");
    if let Some(witness) = &witness {
        let writes = assert_writes_fenced(witness, &timeline, !env.is_embedded());
        eprintln!("{writes} writes witnessed, none after another replica's term began");
    }
    for replica in &mut replicas {
        replica.stop().await.expect("a clean stop");
    }
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_lease_edited_to_name_another_member_never_makes_two_servers() {
    const RING: &str = "edited-ring";
    let env = TestEnv::start().await.expect("a test environment");
    env.install_crd(&WebApp::crd()).await.expect("the CRD installs");
    let witness = env.witness_writes();
    create_many_webapps(&env.client(), env.namespace(), 24)
        .await
        .expect("WebApps");
    let timeline = Timeline::default();
    let ring = || short_ring(Sharding::new(RING)).on_lost(OnLeadershipLost::Standby);
    // Every WebApp comes back every 200 ms, so two members serving one would overlap.
    let requeue = Some(Duration::from_millis(200));
    let mut members: Vec<Replica> = (0..3)
        .map(|i| {
            Replica::webapp(&client_of(&env, i), env.namespace(), i, ring(), &timeline, requeue).expect("a member")
        })
        .collect();
    let all = |members: &[Replica]| balanced(&members.iter().collect::<Vec<_>>());
    let selector = format!("{RING_LABEL}={RING}");
    for attempt in 0..TRIES {
        until("three members to split the slots", || all(&members)).await;
        let (victim, named) = (attempt % 3, (attempt + 1) % 3);
        let list = leases(&env)
            .list(&ListParams::default().labels(&selector))
            .await
            .expect("list");
        let held_by = |lease: &Lease, index: usize| {
            lease.spec.as_ref().and_then(|spec| spec.holder_identity.clone()) == Some(format!("replica-{index}"))
        };
        let lease = list
            .items
            .iter()
            .find(|lease| held_by(lease, victim))
            .expect("the victim's Lease");
        let name = lease.metadata.name.clone().expect("a name");
        set_spec(&env, &name, json!({ "holderIdentity": format!("replica-{named}") })).await;
        until("the victim to stop serving", || members[victim].serving().is_empty()).await;
    }
    until("three members to split the slots", || all(&members)).await;
    if let Some((a, b)) = timeline.overlap_on_one_object() {
        panic!("{} reconciled by two members at once: {a:?} and {b:?}", a.what);
    }
    if let Some(witness) = &witness {
        let about = |write: &wheelhouse_envtest::ArrivedWrite| {
            let children = ["webapps", "deployments", "services"].contains(&write.resource.as_str());
            children.then(|| write.name.clone()).flatten().map(Some)
        };
        let writes = timeline.assert_writes_fenced(&witness.writes(), about, !env.is_embedded());
        eprintln!("{writes} writes witnessed, none after another member began on the same WebApp");
    }
    for member in &mut members {
        member.stop().await.expect("a clean stop");
    }
    env.stop().await;
}
