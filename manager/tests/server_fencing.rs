//! Server-side fencing: a write a partition held past a takeover is refused by the API
//! server itself (the `ValidatingAdmissionPolicy` of `ServerFencing`, whose parameter
//! is the leader-election Lease), and nothing of it is applied.
//!
//! Two replicas elect on one Lease, each through its own fault proxy; the leader's
//! write is held in its proxy while the other takes over and writes, then delivered.
//! Runs on the embedded server and on an existing cluster; skipped, with the reason
//! from discovery, where the server has no `admissionregistration.k8s.io/v1` policies
//! (before 1.30).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use tokio_util::sync::CancellationToken;
use wheelhouse_envtest::{TestEnv, Verb};
use wheelhouse_examples::fault_proxy::FaultProxy;
use wheelhouse_examples::replicas::short;
use wheelhouse_manager::{LeaderElection, Manager, ServerFencing, ServerFencingError, TERM_ANNOTATION};

const LEASE: &str = "fenced-writer";

fn config_map(name: &str, value: &str, term: Option<&str>) -> ConfigMap {
    let mut map = ConfigMap::default();
    map.metadata.name = Some(name.into());
    map.metadata.annotations = term.map(|term| BTreeMap::from([(TERM_ANNOTATION.to_owned(), term.to_owned())]));
    map.data = Some(BTreeMap::from([("value".to_owned(), value.to_owned())]));
    map
}

/// A replica electing on `LEASE` through `proxy`, its `ConfigMap` writes fenced by the
/// server; stopped by the returned token.
fn replica(env: &TestEnv, proxy: &FaultProxy, identity: &str) -> (Manager, CancellationToken) {
    let shutdown = CancellationToken::new();
    let manager = Manager::builder(proxy.client(identity, env.namespace()))
        .shutdown_signal(shutdown.clone())
        .metrics_address(None)
        .health_probe_address(None)
        .leader_election(short(
            LeaderElection::new(LEASE).namespace(env.namespace()).identity(identity),
        ))
        .server_fencing(ServerFencing::new("stamps-only").resource::<ConfigMap>())
        .build()
        .expect("a manager");
    tokio::spawn(manager.clone().run());
    (manager, shutdown)
}

async fn until(what: &str, within: Duration, mut check: impl AsyncFnMut() -> bool) {
    let deadline = Instant::now() + within;
    while !check().await {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn holder(leases: &Api<Lease>) -> Option<String> {
    leases
        .get_opt(LEASE)
        .await
        .ok()
        .flatten()
        .and_then(|lease| lease.spec?.holder_identity)
}

/// The environment with the policy installed for `LEASE`, or None (and why on stderr)
/// where the server has no admission policies.
async fn fenced_env() -> Option<(TestEnv, ServerFencing)> {
    let mut env = TestEnv::start().await.expect("a test environment");
    if env.is_embedded() {
        env.serve_http(([127, 0, 0, 1], 0).into())
            .await
            .expect("serve over HTTP");
    }
    match ServerFencing::supported(&env.client()).await {
        Ok(()) => {}
        Err(ServerFencingError::Unsupported(why)) => {
            eprintln!("skipped: {why}");
            return None;
        }
        Err(error) => panic!("discovery: {error}"),
    }
    let namespace = env.namespace().to_owned();
    // Cluster-scoped: named after the test's namespace so runs on one cluster differ.
    let fencing = ServerFencing::new(format!("fencing-{namespace}")).resource::<ConfigMap>();
    fencing
        .install(&env.client(), &namespace, LEASE)
        .await
        .expect("the policy installed");
    Some((env, fencing))
}

/// Waits until the policy is in force: the admission plugin reads new policies and
/// their parameters from informers, and a write stamped with a term no Lease is in is
/// refused once it has them.
async fn wait_for_the_policy(maps: &Api<ConfigMap>, namespace: &str) {
    let mut probes = 0;
    until(
        "the policy to be in force (a kube-apiserver whose admission policies' Lease informer was \
         stopped, when the last binding with paramKind Lease was removed, never sees a new Lease: \
         kubernetes/kubernetes#130887; restart it)",
        Duration::from_mins(1),
        async || {
            probes += 1;
            let probe = config_map(
                &format!("probe-{probes}"),
                "x",
                Some(&format!("{namespace}/{LEASE}/nobody/0")),
            );
            match maps.create(&PostParams::default(), &probe).await {
                Err(kube::Error::Api(status)) => status.code == 403,
                _ => false,
            }
        },
    )
    .await;
}

/// The policy's answer to a write from an ended term: 403, naming the term.
fn assert_refused_by_the_policy(answer: Result<ConfigMap, kube::Error>) {
    match answer {
        Err(kube::Error::Api(status)) => {
            assert_eq!(status.code, 403, "{status:?}");
            assert!(status.message.contains("leadership term"), "{}", status.message);
        }
        other => panic!("not the policy's answer: {other:?}"),
    }
}

/// The term annotation of `map`.
fn term_of(map: &ConfigMap) -> Option<String> {
    map.metadata.annotations.as_ref()?.get(TERM_ANNOTATION).cloned()
}

/// Waits until both held writes of replica-a have arrived after `healed`, as the
/// witness saw them; without a witness, waits 5 s instead.
async fn wait_for_the_held_writes(witness: Option<&wheelhouse_envtest::WriteWitness>, healed: Instant) {
    let Some(witness) = witness else {
        eprintln!("no write witness here: waiting 5 s for the held writes instead of seeing them arrive");
        tokio::time::sleep(Duration::from_secs(5)).await;
        return;
    };
    until("both held writes to arrive", Duration::from_secs(30), async || {
        witness
            .writes()
            .iter()
            .filter(|write| {
                write.user == "replica-a"
                    && write.verb == Verb::Patch
                    && write.name.as_deref() == Some("target")
                    && write.arrived >= healed
            })
            .count()
            >= 2
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_held_past_a_takeover_is_refused_by_the_api_server() {
    let Some((env, fencing)) = fenced_env().await else {
        return;
    };
    let admin = env.client();
    let namespace = env.namespace().to_owned();
    let proxy_a = FaultProxy::in_front_of(&env).await.expect("a proxy");
    let proxy_b = FaultProxy::in_front_of(&env).await.expect("a proxy");
    let leases: Api<Lease> = Api::namespaced(admin.clone(), &namespace);
    let maps: Api<ConfigMap> = Api::namespaced(admin.clone(), &namespace);
    let (a, stop_a) = replica(&env, &proxy_a, "replica-a");
    until("replica-a to lead", Duration::from_secs(30), async || a.is_leader()).await;
    let (b, stop_b) = replica(&env, &proxy_b, "replica-b");

    wait_for_the_policy(&maps, &namespace).await;

    let a_maps: Api<ConfigMap> = Api::namespaced(a.client(), &namespace);
    let apply = |who: &str| PatchParams::apply(who).force();
    a_maps
        .patch(
            "target",
            &apply("replica-a"),
            &Patch::Apply(config_map("target", "a", None)),
        )
        .await
        .expect("the leader's write");
    let a_term = term_of(&maps.get("target").await.expect("the target"));
    assert!(
        a_term
            .as_deref()
            .is_some_and(|term| term.starts_with(&format!("{namespace}/{LEASE}/replica-a/"))),
        "stamped with the leader's term: {a_term:?}"
    );

    // The leader's next write is held in its proxy, as a partition holds it, while
    // its renewals are held too: its term ends and the other replica takes over.
    let witness = env.witness_writes();
    proxy_a.partition();
    assert!(a.is_leader(), "still in its term when the write is sent");
    let held = tokio::spawn({
        let a_maps = a_maps.clone();
        async move {
            a_maps
                .patch(
                    "target",
                    &apply("replica-a"),
                    &Patch::Apply(config_map("target", "stale", None)),
                )
                .await
        }
    });
    // The same write from a process frozen past its client-side checks (or a client
    // that waits on): it is not cancelled, so the server answers it.
    let frozen = tokio::spawn({
        let raw: Api<ConfigMap> = Api::namespaced(proxy_a.client("replica-a", &namespace), &namespace);
        let stale = config_map("target", "stale", a_term.as_deref());
        async move { raw.patch("target", &PatchParams::default(), &Patch::Merge(stale)).await }
    });
    until("replica-b to take over", Duration::from_secs(30), async || {
        holder(&leases).await.as_deref() == Some("replica-b") && b.is_leader()
    })
    .await;
    assert!(!a.is_leader(), "replica-a's term ended in the partition");
    let b_maps: Api<ConfigMap> = Api::namespaced(b.client(), &namespace);
    let written = b_maps
        .patch(
            "target",
            &apply("replica-b"),
            &Patch::Apply(config_map("target", "b", None)),
        )
        .await
        .expect("the new leader's write");
    assert_ne!(a_term, term_of(&written), "a new term");

    // The partition heals: the held write arrives, and the server refuses it.
    let healed = Instant::now();
    proxy_a.heal();
    let answer = held.await.expect("the held write's task");
    assert!(answer.is_err(), "the held write did not succeed: {answer:?}");
    // The write a frozen process sent is answered by the policy.
    assert_refused_by_the_policy(frozen.await.expect("the frozen write's task"));
    wait_for_the_held_writes(witness.as_ref(), healed).await;
    let after = maps.get("target").await.expect("the target");
    assert_eq!(
        after.metadata.resource_version, written.metadata.resource_version,
        "nothing applied after the new leader's write"
    );
    assert_eq!(
        after.data.as_ref().and_then(|d| d.get("value")).map(String::as_str),
        Some("b")
    );

    // What the server answers such a write: the old term's stamp, sent now.
    assert_refused_by_the_policy(
        maps.patch(
            "target",
            &PatchParams::default(),
            &Patch::Merge(config_map("target", "stale", a_term.as_deref())),
        )
        .await,
    );

    stop_a.cancel();
    stop_b.cancel();
    // On a real cluster the binding stays: removing the last binding whose paramKind
    // is Lease stops kube-apiserver's Lease informer for the admission policies for
    // the life of the process (it is never restarted: kubernetes/kubernetes#130887),
    // and every later run would find its policy judging nothing. A binding left
    // behind names a Lease in a namespace that is gone: not found, allowed.
    if env.is_embedded() {
        fencing.uninstall(&admin).await.expect("the policy removed");
    }
    let _ = maps
        .delete_collection(&DeleteParams::default(), &ListParams::default())
        .await;
}
