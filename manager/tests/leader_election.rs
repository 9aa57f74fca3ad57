//! Leader election among replicas on one API server, with short timings (2 s lease,
//! 1.5 s renew deadline, 0.4 s retry) unless a test needs others. Each replica's
//! leader-only work records when it ran; no two replicas' intervals may overlap.

mod common;

use std::time::Duration;

use common::{get, worker};
use k8s_openapi::api::coordination::v1::Lease;
use kube::api::Api;
use tokio::time::Instant;
use wheelhouse_envtest::{InjectedFailure, TestEnv, Verb};
use wheelhouse_examples::replicas::{Replica, TIMEOUT, Timeline, short, until};
use wheelhouse_manager::{Error, LeaderElection, OnLeadershipLost};

fn leaders(replicas: &[Replica]) -> Vec<usize> {
    (0..replicas.len())
        .filter(|&i| replicas[i].manager.is_leader())
        .collect()
}

async fn lease(env: &TestEnv, name: &str) -> Lease {
    Api::<Lease>::namespaced(env.client(), env.namespace())
        .get(name)
        .await
        .expect("the lease exists")
}

fn holder(lease: &Lease) -> Option<String> {
    lease.spec.as_ref()?.holder_identity.clone().filter(|h| !h.is_empty())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exactly_one_of_three_replicas_leads_over_many_renewals() {
    let env = TestEnv::start().await.expect("a test environment");
    let intervals = Timeline::default();
    let replicas: Vec<_> = (0..3)
        .map(|i| worker(&env, i, short(LeaderElection::new("one-leader")), &intervals))
        .collect();
    until("a leader", || intervals.working().is_some()).await;
    let first = intervals.working().expect("a leader");
    // 15 renew periods: the same replica leads throughout, alone.
    let until_then = Instant::now() + Duration::from_secs(6);
    while Instant::now() < until_then {
        let leading = leaders(&replicas);
        assert!(leading.len() <= 1, "several replicas lead: {leading:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(intervals.working(), Some(first));
    assert_eq!(
        intervals.snapshot().len(),
        1,
        "the leader never changed nor restarted its work"
    );
    intervals.assert_disjoint();
    let lease = lease(&env, "one-leader").await;
    assert_eq!(holder(&lease).as_deref(), Some(format!("replica-{first}").as_str()));
    assert_eq!(lease.spec.as_ref().and_then(|s| s.lease_duration_seconds), Some(2));
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_leader_is_replaced_once_its_lease_expires() {
    let env = TestEnv::start().await.expect("a test environment");
    let intervals = Timeline::default();
    let mut replicas: Vec<_> = (0..3)
        .map(|i| worker(&env, i, short(LeaderElection::new("killed")), &intervals))
        .collect();
    until("a leader", || intervals.working().is_some()).await;
    let old = intervals.working().expect("a leader");
    let last_renew = lease(&env, "killed").await;
    replicas[old].kill().await;
    let killed = Instant::now();
    until("another leader", || intervals.working().is_some_and(|r| r != old)).await;
    let takeover = killed.elapsed();
    let new = intervals.working().expect("a leader");
    // The dead leader renewed at most one retry period before it was killed; nobody may
    // lead before that renew has expired, and somebody must soon after.
    assert!(
        takeover >= Duration::from_millis(2000 - 400 - 50),
        "replica {new} took over {takeover:?} after the kill: before the lease could expire"
    );
    assert!(
        takeover <= Duration::from_millis(2000 + 400) + Duration::from_secs(3),
        "replica {new} took over only {takeover:?} after the kill"
    );
    intervals.assert_disjoint();
    let now = lease(&env, "killed").await;
    assert_eq!(holder(&now).as_deref(), Some(format!("replica-{new}").as_str()));
    let transitions = |l: &Lease| l.spec.as_ref().and_then(|s| s.lease_transitions).unwrap_or(0);
    assert_eq!(transitions(&now), transitions(&last_renew) + 1);
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_leader_stopped_gracefully_hands_over_at_once() {
    let env = TestEnv::start().await.expect("a test environment");
    let intervals = Timeline::default();
    // A long retry period: a standby that waited for its next poll would take seconds.
    let election = || {
        LeaderElection::new("graceful").timings(
            Duration::from_secs(30),
            Duration::from_secs(20),
            Duration::from_secs(10),
        )
    };
    let mut replicas: Vec<_> = (0..3).map(|i| worker(&env, i, election(), &intervals)).collect();
    until("a leader", || intervals.working().is_some()).await;
    let old = intervals.working().expect("a leader");
    let before = lease(&env, "graceful").await;
    let stopping = Instant::now();
    replicas[old].stop().await.expect("a clean stop");
    until("another leader", || intervals.working().is_some_and(|r| r != old)).await;
    let handover = stopping.elapsed();
    assert!(
        handover < Duration::from_secs(5),
        "the handover took {handover:?}: standbys poll every 10 s, the watch should have been at once"
    );
    intervals.assert_disjoint();
    let after = lease(&env, "graceful").await;
    let new = intervals.working().expect("a leader");
    assert_eq!(holder(&after).as_deref(), Some(format!("replica-{new}").as_str()));
    let transitions = |l: &Lease| l.spec.as_ref().and_then(|s| s.lease_transitions).unwrap_or(0);
    assert_eq!(
        transitions(&after),
        transitions(&before) + 1,
        "the lease shows the transition"
    );
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_leader_that_cannot_renew_stops_before_another_can_lead() {
    let env = TestEnv::start().await.expect("a test environment");
    let Some(server) = env.server() else {
        eprintln!("skipped: failing lease updates needs the embedded server's fault injection");
        return;
    };
    let intervals = Timeline::default();
    let mut replicas: Vec<_> = (0..3)
        .map(|i| {
            worker(
                &env,
                i,
                short(LeaderElection::new("unrenewable")).on_lost(OnLeadershipLost::Standby),
                &intervals,
            )
        })
        .collect();
    until("a leader", || intervals.working().is_some()).await;
    let old = intervals.working().expect("a leader");
    // Every lease update fails for a while: the leader cannot renew; standbys could not
    // take over either, until the failures run out.
    server.fail_next(12, InjectedFailure::server_error(Verb::Patch, "leases"));
    until("the old leader to stop", || intervals.working().is_none()).await;
    until("a leader again", || intervals.working().is_some()).await;
    intervals.assert_disjoint();
    assert!(!replicas[old].manager.is_leader() || intervals.working() == Some(old));
    for replica in &mut replicas {
        replica.stop().await.expect("a clean stop");
    }
    intervals.assert_disjoint();
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_leader_does_not_work_after_resuming_until_it_leads_again() {
    let env = TestEnv::start().await.expect("a test environment");
    let intervals = Timeline::default();
    let election = || short(LeaderElection::new("paused")).on_lost(OnLeadershipLost::Standby);
    let mut replicas: Vec<_> = (0..2).map(|i| worker(&env, i, election(), &intervals)).collect();
    until("a leader", || intervals.working().is_some()).await;
    let old = intervals.working().expect("a leader");
    let other = 1 - old;
    // Frozen for two lease durations: its term ends at the renew deadline, the other
    // replica takes over when the lease expires, and the frozen one comes back a standby.
    replicas[old].manager.pause_leader_election(Duration::from_secs(4));
    until("the other replica to lead", || intervals.working() == Some(other)).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(
        intervals.count(old),
        1,
        "the paused replica did not work again after resuming"
    );
    assert!(!replicas[old].manager.is_leader());
    assert!(replicas[other].manager.is_leader());
    intervals.assert_disjoint();
    // Once the other leader goes, the resumed replica leads again.
    replicas[other].stop().await.expect("a clean stop");
    until("the resumed replica to lead again", || intervals.working() == Some(old)).await;
    intervals.assert_disjoint();
    replicas[old].stop().await.expect("a clean stop");
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_lease_stops_the_manager_with_the_exit_option() {
    let env = TestEnv::start().await.expect("a test environment");
    let intervals = Timeline::default();
    let election = short(LeaderElection::new("exit")).on_lost(OnLeadershipLost::Exit);
    let mut replica = worker(&env, 0, election, &intervals);
    until("the replica to lead", || intervals.working().is_some()).await;
    replica.manager.pause_leader_election(Duration::from_secs(3));
    let error = tokio::time::timeout(TIMEOUT, replica.exited())
        .await
        .expect("run returns")
        .expect_err("losing the lease is an error");
    assert!(matches!(error, Error::LeadershipLost { .. }), "{error}");
    assert!(
        error
            .to_string()
            .contains("the lease was not renewed within the renew deadline"),
        "{error}"
    );
    assert_eq!(intervals.working(), None);
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_fails_when_a_leader_stops_renewing() {
    let env = TestEnv::start().await.expect("a test environment");
    let shutdown = wheelhouse_manager::CancellationToken::new();
    let manager = wheelhouse_manager::Manager::builder(env.client())
        .leader_election(short(LeaderElection::new("wedged")).namespace(env.namespace()))
        .health_probe_address(Some(([127, 0, 0, 1], 0).into()))
        .shutdown_signal(shutdown.clone())
        .build()
        .expect("a manager");
    let probes = manager.health_probe_address().expect("probes");
    let running = tokio::spawn(manager.clone().run());
    until("leadership", || manager.is_leader()).await;
    assert_eq!(get(probes, "/healthz").await.0, 200);
    manager.pause_leader_election(Duration::from_secs(4));
    let wedged = Instant::now();
    let deadline = Instant::now() + TIMEOUT;
    loop {
        let (status, body) = get(probes, "/healthz").await;
        if status == 500 {
            assert!(
                body.contains("[-]leader-election failed: the leader has not renewed lease"),
                "{body}"
            );
            break;
        }
        assert!(Instant::now() < deadline, "healthz never failed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        wedged.elapsed() >= Duration::from_millis(2000 - 400),
        "healthz failed before a lease duration without renewal"
    );
    shutdown.cancel();
    let _ = running.await;
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lease_without_a_duration_is_judged_with_our_own() {
    use k8s_openapi::api::coordination::v1::LeaseSpec;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::MicroTime;
    let env = TestEnv::start().await.expect("a test environment");
    // A live holder's record that does not say how long it is valid: client-go judges
    // it with its own lease duration, never as already expired.
    let now = MicroTime(k8s_openapi::jiff::Timestamp::now());
    let record = Lease {
        metadata: kube::api::ObjectMeta {
            name: Some("no-duration".into()),
            ..Default::default()
        },
        spec: Some(LeaseSpec {
            holder_identity: Some("another-operator".into()),
            acquire_time: Some(now.clone()),
            renew_time: Some(now),
            ..LeaseSpec::default()
        }),
    };
    Api::<Lease>::namespaced(env.client(), env.namespace())
        .create(&kube::api::PostParams::default(), &record)
        .await
        .expect("create the lease");
    let intervals = Timeline::default();
    let started = Instant::now();
    let mut replica = worker(&env, 0, short(LeaderElection::new("no-duration")), &intervals);
    until("the replica to take the unrenewed lease", || {
        intervals.working().is_some()
    })
    .await;
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(2000 - 100),
        "took the lease {took:?} after start: before our own 2 s lease duration passed"
    );
    replica.stop().await.expect("a clean stop");
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn release_rereads_a_lease_changed_under_it_and_still_releases() {
    let env = TestEnv::start().await.expect("a test environment");
    let Some(server) = env.server() else {
        eprintln!("skipped: a conflicting release needs the embedded server's fault injection");
        return;
    };
    let intervals = Timeline::default();
    // A long retry period: no renew refreshes the replica's record before it stops.
    let election = LeaderElection::new("conflicted").timings(
        Duration::from_secs(30),
        Duration::from_secs(20),
        Duration::from_secs(10),
    );
    let mut replica = worker(&env, 0, election, &intervals);
    until("the replica to lead", || intervals.working().is_some()).await;
    // The release's first write conflicts, as when the replica's record is stale (a
    // late answer to a renew, another writer): it must re-read and release anyway.
    server.fail_next(
        1,
        InjectedFailure {
            code: 409,
            ..InjectedFailure::server_error(Verb::Patch, "leases")
        },
    );
    replica.stop().await.expect("a clean stop");
    let released = lease(&env, "conflicted").await;
    assert_eq!(holder(&released), None, "the lease was released: {:?}", released.spec);
    env.stop().await;
}
