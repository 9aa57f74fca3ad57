//! Server-side fencing: a write a partition held past a takeover is refused by the API
//! server itself, and nothing of it is applied, by either mechanism of `ServerFencing`:
//! the `ValidatingAdmissionPolicy` whose parameter is the leader-election Lease, and
//! the fence webhook (for servers without admission policies) that reads the Lease from
//! etcd for each write.
//!
//! Two replicas elect on one Lease, each through its own fault proxy; the leader's
//! write is held in its proxy while the other takes over and writes, then delivered.
//! Runs on the embedded server and on an existing cluster. The policy's test is
//! skipped, with the reason from discovery, where the server has no
//! `admissionregistration.k8s.io/v1` policies (before 1.30); the webhook's runs on
//! every server that can call a webhook on this machine's loopback.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams};
use tokio_util::sync::CancellationToken;
use wheelhouse_envtest::{TestEnv, Verb};
use wheelhouse_examples::fault_proxy::FaultProxy;
use wheelhouse_examples::replicas::short;
use wheelhouse_manager::{
    FENCE_LABEL, FenceWebhook, FenceWebhookClient, FencingMechanism, LeaderElection, Manager, ServerFencing,
    ServerFencingError, TERM_ANNOTATION,
};
use wheelhouse_webhook::{WebhookOptions, WebhookServer};

const LEASE: &str = "fenced-writer";

fn config_map(name: &str, value: &str, term: Option<&str>) -> ConfigMap {
    let mut map = ConfigMap::default();
    map.metadata.name = Some(name.into());
    map.metadata.annotations = term.map(|term| BTreeMap::from([(TERM_ANNOTATION.to_owned(), term.to_owned())]));
    map.data = Some(BTreeMap::from([("value".to_owned(), value.to_owned())]));
    map
}

/// A replica electing on `LEASE` through `proxy`, its writes of what `fencing` names
/// fenced by the server; stopped by the returned token.
fn replica(env: &TestEnv, proxy: &FaultProxy, identity: &str, fencing: &ServerFencing) -> (Manager, CancellationToken) {
    let shutdown = CancellationToken::new();
    let manager = Manager::builder(proxy.client(identity, env.namespace()))
        .shutdown_signal(shutdown.clone())
        .metrics_address(None)
        .health_probe_address(None)
        .leader_election(short(
            LeaderElection::new(LEASE).namespace(env.namespace()).identity(identity),
        ))
        .server_fencing(fencing.clone())
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

/// The environment with `mechanism` fencing `ConfigMap`s for `LEASE`, or None (and
/// why on stderr) where the server cannot fence that way. The webhook reads the Lease
/// through `proxy`, as replica-a's own webhook would: the old leader answering for its
/// own held write.
async fn fenced_env(mechanism: FencingMechanism) -> Option<(TestEnv, ServerFencing)> {
    let mut env = TestEnv::start().await.expect("a test environment");
    if env.is_embedded() {
        env.serve_http(([127, 0, 0, 1], 0).into())
            .await
            .expect("serve over HTTP");
    }
    let namespace = env.namespace().to_owned();
    // Cluster-scoped: named after the test's namespace so runs on one cluster differ.
    let fencing = ServerFencing::new(format!("fencing-{namespace}")).resource::<ConfigMap>();
    match mechanism {
        FencingMechanism::AdmissionPolicy => {
            match ServerFencing::supported(&env.client()).await {
                Ok(()) => {}
                Err(ServerFencingError::Unsupported(why)) => {
                    eprintln!("skipped: {why}");
                    return None;
                }
                Err(error) => panic!("discovery: {error}"),
            }
            fencing
                .install(&env.client(), &namespace, LEASE)
                .await
                .expect("the policy installed");
        }
        FencingMechanism::Webhook => {
            if !wheelhouse_webhook::envtest::calls_loopback(&env).await {
                eprintln!("skipped: this API server cannot call a webhook on this machine's loopback");
                return None;
            }
        }
    }
    Some((env, fencing))
}

/// Serves the replicas' fence webhooks for `env` behind one URL, as a Service would,
/// each review going to the replica `answering` names (the test routes around a
/// partitioned one, as a Service's endpoints would), and registers the configuration;
/// removed when `env` stops.
async fn serve_the_fence_webhooks(
    env: &TestEnv,
    fencing: &ServerFencing,
    replicas: Vec<FenceWebhook>,
    answering: Arc<AtomicUsize>,
) {
    let replicas = Arc::new(replicas);
    let webhook_server =
        WebhookServer::new(WebhookOptions::default()).handler(fencing.webhook_path(), move |request| {
            let fence = replicas[answering.load(Ordering::SeqCst)].clone();
            async move { fence.review(request).await }
        });
    let served = wheelhouse_webhook::envtest::serve(env, webhook_server)
        .await
        .expect("the webhook served");
    let url = FenceWebhookClient::Url(format!("https://{}", served.address()));
    fencing
        .install_webhook(&env.client(), &url, Some(served.ca_bundle()))
        .await
        .expect("the webhook's configuration installed");
    let name = fencing.name().to_owned();
    env.on_stop(move |client| async move {
        let api: Api<k8s_openapi::api::admissionregistration::v1::ValidatingWebhookConfiguration> = Api::all(client);
        let _ = api.delete(&name, &DeleteParams::default()).await;
    });
}

/// Waits until the policy is in force: the admission plugin reads new policies and
/// their parameters from informers, and a write stamped with a term no Lease is in is
/// refused once it has them.
async fn wait_for_the_policy(maps: &Api<ConfigMap>, namespace: &str, fencing: &ServerFencing) {
    let mut probes = 0;
    until(
        "the policy to be in force (a kube-apiserver whose admission policies' Lease informer was \
         stopped, when the last binding with paramKind Lease was removed, never sees a new Lease: \
         kubernetes/kubernetes#130887; restart it)",
        Duration::from_mins(1),
        async || {
            probes += 1;
            let mut probe = config_map(
                &format!("probe-{probes}"),
                "x",
                Some(&format!("{namespace}/{LEASE}/nobody/0")),
            );
            // The webhook's configuration selects the labelled objects only.
            probe.metadata.labels = Some(BTreeMap::from([(FENCE_LABEL.to_owned(), fencing.label_value())]));
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

/// The target as the new leader wrote it: nothing held was applied after.
async fn assert_unchanged_since(maps: &Api<ConfigMap>, written: &ConfigMap) -> ConfigMap {
    let after = maps.get("target").await.expect("the target");
    assert_eq!(
        after.metadata.resource_version, written.metadata.resource_version,
        "nothing applied after the new leader's write"
    );
    assert_eq!(
        after.data.as_ref().and_then(|d| d.get("value")).map(String::as_str),
        Some("b")
    );
    after
}

/// Failing closed: the answering webhook cannot read the Lease (its replica is cut
/// off), so even the current term's stamp is refused rather than let in unjudged.
async fn assert_a_webhook_that_cannot_read_the_lease_refuses(
    maps: &Api<ConfigMap>,
    answering_replica: &FaultProxy,
    current_term: Option<String>,
) {
    answering_replica.partition();
    let unjudged = maps
        .patch(
            "target",
            &PatchParams::default(),
            &Patch::Merge(config_map("target", "unjudged", current_term.as_deref())),
        )
        .await;
    answering_replica.heal();
    match unjudged {
        Err(kube::Error::Api(status)) => {
            assert_eq!(status.code, 403, "{status:?}");
            assert!(status.message.contains("could not be read"), "{status:?}");
        }
        other => panic!("a write the webhook could not judge was not refused: {other:?}"),
    }
}

/// Two replicas electing on `LEASE`, replica-a leading, with `mechanism` in force;
/// with the webhook, each review answered by the replica `answering` names.
async fn fenced_replicas(
    env: &TestEnv,
    fencing: &ServerFencing,
    mechanism: FencingMechanism,
    proxies: [&FaultProxy; 2],
    answering: &Arc<AtomicUsize>,
) -> [(Manager, CancellationToken); 2] {
    let namespace = env.namespace();
    let admin = env.client();
    let (a, stop_a) = replica(env, proxies[0], "replica-a", fencing);
    until("replica-a to lead", Duration::from_secs(30), async || a.is_leader()).await;
    let (b, stop_b) = replica(env, proxies[1], "replica-b", fencing);
    if mechanism == FencingMechanism::Webhook {
        let webhooks = [&a, &b]
            .iter()
            .map(|replica| {
                replica
                    .fence_webhook()
                    .expect("a manager with server-side fencing has its webhook")
            })
            .collect();
        serve_the_fence_webhooks(env, fencing, webhooks, answering.clone()).await;
    }
    let discovered = match ServerFencing::supported(&admin).await {
        Ok(()) => FencingMechanism::AdmissionPolicy,
        Err(_) => FencingMechanism::Webhook,
    };
    assert_eq!(
        a.server_fencing_mechanism().await.expect("discovery"),
        Some(discovered),
        "the manager picks the mechanism from discovery"
    );
    wait_for_the_policy(&Api::namespaced(admin, namespace), namespace, fencing).await;
    [(a, stop_a), (b, stop_b)]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_held_past_a_takeover_is_refused_by_the_admission_policy() {
    a_write_held_past_a_takeover_is_refused(FencingMechanism::AdmissionPolicy).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_held_past_a_takeover_is_refused_by_the_fence_webhook() {
    a_write_held_past_a_takeover_is_refused(FencingMechanism::Webhook).await;
}

async fn a_write_held_past_a_takeover_is_refused(mechanism: FencingMechanism) {
    let Some((env, fencing)) = fenced_env(mechanism).await else {
        return;
    };
    let admin = env.client();
    let namespace = env.namespace().to_owned();
    let proxy_a = FaultProxy::in_front_of(&env).await.expect("a proxy");
    let proxy_b = FaultProxy::in_front_of(&env).await.expect("a proxy");
    let leases: Api<Lease> = Api::namespaced(admin.clone(), &namespace);
    let maps: Api<ConfigMap> = Api::namespaced(admin.clone(), &namespace);
    // Which replica's webhook answers (0: replica-a, 1: replica-b).
    let answering = Arc::new(AtomicUsize::new(0));
    let [(a, stop_a), (b, stop_b)] = fenced_replicas(&env, &fencing, mechanism, [&proxy_a, &proxy_b], &answering).await;

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
    // Replica-a is cut off: reviews go to replica-b's webhook meanwhile.
    answering.store(1, Ordering::SeqCst);
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
        let mut stale = config_map("target", "stale", a_term.as_deref());
        stale.metadata.labels = Some(BTreeMap::from([(FENCE_LABEL.to_owned(), fencing.label_value())]));
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
    // The held writes are judged by replica-a's own webhook: the old leader answers
    // for its own stale writes, and reads the new term from etcd.
    answering.store(0, Ordering::SeqCst);
    let healed = Instant::now();
    proxy_a.heal();
    let answer = held.await.expect("the held write's task");
    assert!(answer.is_err(), "the held write did not succeed: {answer:?}");
    // The write a frozen process sent is answered by the policy.
    assert_refused_by_the_policy(frozen.await.expect("the frozen write's task"));
    wait_for_the_held_writes(witness.as_ref(), healed).await;
    let after = assert_unchanged_since(&maps, &written).await;

    // What the server answers such a write: the old term's stamp, sent now.
    assert_refused_by_the_policy(
        maps.patch(
            "target",
            &PatchParams::default(),
            &Patch::Merge(config_map("target", "stale", a_term.as_deref())),
        )
        .await,
    );

    if mechanism == FencingMechanism::Webhook {
        assert_a_webhook_that_cannot_read_the_lease_refuses(&maps, &proxy_a, term_of(&after)).await;
    }

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
