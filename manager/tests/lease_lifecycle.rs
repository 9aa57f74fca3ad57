//! The Lease's lifecycle under leader election: renewals are patches, which never
//! re-create a deleted Lease; a deleted Lease is not a free one (its last holder keeps
//! it for a lease duration as the others see it, and ends its own term at once); a
//! replica whose term ended stays up and leads again later; and stopping does not
//! wait on an API server the replica cannot reach.
//!
//! The write witness (the embedded server's, or a real one's audit log) checks that every write a replica sent
//! arrived while that replica's leader-only work ran, so none arrived after another
//! replica's term began.

mod common;

use std::time::Duration;

use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use serde_json::json;
use wheelhouse_envtest::TestEnv;
use wheelhouse_examples::replicas::{Replica, TIMEOUT, Timeline, client_of, short, until};
use wheelhouse_manager::LeaderElection;

use crate::common::{assert_writes_fenced, config_map_writer};

/// Starts replica `index`, whose leader-only work writes a `ConfigMap` of its own through
/// the manager's (fenced) client every few milliseconds, recorded on `timeline`.
fn writer(env: &TestEnv, index: usize, election: LeaderElection, timeline: &Timeline) -> Replica {
    let timeline = timeline.clone();
    let namespace = env.namespace().to_owned();
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

async fn delete_lease(env: &TestEnv, name: &str) {
    leases(env)
        .delete(name, &DeleteParams::default())
        .await
        .expect("delete the lease");
}

#[tokio::test]
async fn a_patch_never_creates_a_lease_and_its_resource_version_is_a_precondition() {
    let env = TestEnv::start().await.expect("a test environment");
    let api = leases(&env);
    let lease = Lease {
        metadata: kube::api::ObjectMeta {
            name: Some("patched".into()),
            ..Default::default()
        },
        spec: Some(LeaseSpec {
            holder_identity: Some("a".into()),
            ..LeaseSpec::default()
        }),
    };
    let created = api.create(&PostParams::default(), &lease).await.expect("create");
    let first = created.metadata.resource_version.clone().expect("a resourceVersion");
    let renew = |version: &str, holder: &str| json!({"metadata": {"resourceVersion": version}, "spec": {"holderIdentity": holder}});
    let renewed = api
        .patch("patched", &PatchParams::default(), &Patch::Merge(&renew(&first, "b")))
        .await
        .expect("a patch at the current resourceVersion");
    assert_ne!(renewed.metadata.resource_version.as_deref(), Some(first.as_str()));
    // A patch carrying an older resourceVersion conflicts, as a PUT would.
    let stale = api
        .patch("patched", &PatchParams::default(), &Patch::Merge(&renew(&first, "c")))
        .await
        .expect_err("a stale resourceVersion");
    assert!(
        matches!(&stale, kube::Error::Api(status) if status.code == 409),
        "{stale}"
    );
    let last = renewed.metadata.resource_version.clone().expect("a resourceVersion");
    api.delete("patched", &DeleteParams::default()).await.expect("delete");
    // Once deleted, a (late) patch is 404 and creates nothing...
    let missing = api
        .patch("patched", &PatchParams::default(), &Patch::Merge(&renew(&last, "a")))
        .await
        .expect_err("no lease to patch");
    assert!(
        matches!(&missing, kube::Error::Api(status) if status.code == 404),
        "{missing}"
    );
    assert!(api.get_opt("patched").await.expect("get").is_none());
    // ...where a PUT would have re-created it (Leases allow create on update): why
    // renewals are patches.
    let mut put = renewed.clone();
    put.metadata.resource_version = Some(last);
    put.metadata.uid = None;
    api.replace("patched", &PostParams::default(), &put)
        .await
        .expect("kube-apiserver creates a Lease on update");
    assert!(api.get_opt("patched").await.expect("get").is_some());
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lease_deleted_under_its_leader_ends_its_term_before_another_can_write() {
    let env = TestEnv::start().await.expect("a test environment");
    let witness = env.witness_writes();
    let timeline = Timeline::default();
    let election = || short(LeaderElection::new("deleted"));
    let replicas: Vec<_> = (0..2).map(|i| writer(&env, i, election(), &timeline)).collect();
    until("a leader", || timeline.working().is_some()).await;
    let old = timeline.working().expect("a leader");
    let standby = 1 - old;
    tokio::time::sleep(Duration::from_millis(200)).await;

    // Deleted while the leader's elector is stalled, so it cannot take the Lease back:
    // the standby must wait as for an expiry, and the leader must stop at once.
    replicas[old].manager.pause_leader_election(Duration::from_secs(4));
    delete_lease(&env, "deleted").await;
    until("the old leader to stop", || timeline.working() != Some(old)).await;
    until("the standby to lead", || timeline.working() == Some(standby)).await;
    timeline.assert_disjoint();
    let took_over = timeline
        .first_by(standby, std::time::SystemTime::UNIX_EPOCH)
        .expect("the standby's term");
    let old_term = timeline
        .snapshot()
        .into_iter()
        .find(|w| w.replica == old)
        .expect("the old leader's term");
    assert!(
        old_term.ended.is_some_and(|ended| ended <= took_over.started),
        "the old leader's work ended before the standby's began: {old_term:?} {took_over:?}"
    );

    // Deleted again, under the new leader, which is not stalled: it may take the
    // Lease back at once, but only after its term ended.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let terms = timeline.count(standby);
    delete_lease(&env, "deleted").await;
    until("the leader's term to end", || {
        timeline.count(standby) > terms || timeline.working() != Some(standby)
    })
    .await;
    until("a leader again", || timeline.working().is_some()).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    timeline.assert_disjoint();
    assert!(
        replicas.iter().all(Replica::is_running),
        "a replica whose term ended stays up"
    );
    if let Some(witness) = &witness {
        let writes = assert_writes_fenced(witness, &timeline, !env.is_embedded());
        eprintln!("{writes} writes witnessed, none after another replica's term began");
    }
    for mut replica in replicas {
        replica.stop().await.expect("a clean stop");
    }
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_whose_term_ended_stays_up_and_leads_again() {
    let env = TestEnv::start().await.expect("a test environment");
    let witness = env.witness_writes();
    let timeline = Timeline::default();
    let election = || short(LeaderElection::new("rejoined"));
    let mut replicas: Vec<_> = (0..2).map(|i| writer(&env, i, election(), &timeline)).collect();
    until("a leader", || timeline.working().is_some()).await;
    let old = timeline.working().expect("a leader");
    let other = 1 - old;
    // Stalled past its renew deadline: its term ends, the other takes over.
    replicas[old].manager.pause_leader_election(Duration::from_secs(3));
    until("the other replica to lead", || timeline.working() == Some(other)).await;
    assert!(replicas[old].is_running(), "the replica that lost its term stays up");
    assert!(!replicas[old].manager.is_leader());
    // A write of the old replica's is refused now: it is a standby.
    let refused = Api::<ConfigMap>::namespaced(replicas[old].manager.client(), env.namespace())
        .create(&PostParams::default(), &ConfigMap::default())
        .await
        .expect_err("a standby's write");
    assert!(wheelhouse_manager::Fenced::of(&refused).is_some(), "{refused}");
    // Once the other leaves, the first leads again, without a restart.
    replicas[other].stop().await.expect("a clean stop");
    until("the first replica to lead again", || timeline.working() == Some(old)).await;
    assert_eq!(timeline.count(old), 2, "two terms of the same replica");
    timeline.assert_disjoint();
    if let Some(witness) = &witness {
        assert_writes_fenced(witness, &timeline, !env.is_embedded());
    }
    replicas[old].stop().await.expect("a clean stop");
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_leader_cut_off_from_the_api_server_still_stops_within_its_timeout() {
    let env = TestEnv::start().await.expect("a test environment");
    let Some(server) = env.server().cloned() else {
        eprintln!("skipped: cutting a replica off needs the embedded server's request gate");
        return;
    };
    let timeline = Timeline::default();
    let mut replica = writer(&env, 0, short(LeaderElection::new("cut-off")), &timeline);
    until("the replica to lead", || timeline.working().is_some()).await;
    // Every request of the replica is held from now on: the API server is unreachable.
    server.hold_requests("replica-0");
    until("its term to end", || timeline.working().is_none()).await;
    let stopped = tokio::time::timeout(TIMEOUT, replica.stop())
        .await
        .expect("the stop returns");
    assert!(
        stopped.is_ok(),
        "nothing was abandoned, as the release is bounded: {stopped:?}"
    );
    server.release_requests("replica-0");
    env.stop().await;
}
