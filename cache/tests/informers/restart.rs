//! After the API server restarts, an informer lists again as soon as the server
//! answers (and its client does not sleep a starting server's `Retry-After`): its watch was refused while the server was away, so it does not resume
//! that watch from its old resourceVersion and wait for the restarted server's 410
//! (1.19 sent a custom resource watch's 410 seconds after `/readyz`, once that
//! resource's watch cache was ready), it starts over from a list. A custom resource,
//! since that is where the wait was.

use std::time::{Duration, Instant};

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind, PostParams};
use wheelhouse_cache::{Cache, Scope};
use wheelhouse_envtest::Verb;

use crate::common::{self, TIMEOUT};

const PLURAL: &str = "relistings";

fn crd() -> CustomResourceDefinition {
    serde_json::from_value(serde_json::json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": format!("{PLURAL}.restart.wheelhouse.dev")},
        "spec": {
            "group": "restart.wheelhouse.dev",
            "names": {"kind": "Relisting", "listKind": "RelistingList", "plural": PLURAL, "singular": "relisting"},
            "scope": "Namespaced",
            "versions": [{
                "name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
            }],
        },
    }))
    .expect("a CRD")
}

fn resource() -> ApiResource {
    let gvk = GroupVersionKind::gvk("restart.wheelhouse.dev", "v1", "Relisting");
    ApiResource::from_gvk_with_plural(&gvk, PLURAL)
}

fn object(name: &str) -> DynamicObject {
    DynamicObject::new(name, &resource())
}

async fn until(what: &str, check: impl Fn() -> bool) {
    let deadline = Instant::now() + TIMEOUT;
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_the_informer_lists_at_once_instead_of_resuming_its_watch() {
    let mut env = common::start().await;
    if env.is_embedded() {
        env.serve_http(([127, 0, 0, 1], 0).into())
            .await
            .expect("serve over HTTP");
    }
    if !env.can_restart_api_server() {
        eprintln!("skipped: the API server of this environment cannot be restarted by a test");
        return;
    }
    env.install_crd(&crd()).await.expect("the CRD");
    // The informer reaches the server over TCP, so the stop refuses and resets it.
    // Without kube's default retry, which sleeps a 503's `Retry-After` inside the
    // request: a restarting kube-apiserver answers custom resources `503 server is
    // starting` with `Retry-After: 10` until shortly before `/readyz`, and a list that
    // arrived then waited 10 s (the informer's own backoff retries instead; the
    // manager's client retries briefly and ignores `Retry-After`).
    let mut config = env.config_for("informer").expect("a configuration");
    config.default_retry = false;
    let client = kube::Client::try_from(config).expect("a client");
    let namespace = env.namespace().to_owned();
    let cache = Cache::new(client);
    let informer = cache.dynamic_informer(&resource(), Scope::namespace(namespace.clone()));
    cache.start();
    cache.wait_for_sync(TIMEOUT).await.expect("synced");
    let objects = Api::<DynamicObject>::namespaced_with(env.client(), &namespace, &resource());
    objects
        .create(&PostParams::default(), &object("before"))
        .await
        .expect("an object");
    until("the informer to see the first object", || {
        informer.store().get(Some(&namespace), "before").is_some()
    })
    .await;

    env.stop_api_server().await.expect("stop the API server");
    // Long enough for the informer to try its watch again and be refused.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let server = env.server().cloned();
    let count = move |verb| server.as_ref().map(|server| server.request_count(verb, PLURAL));
    let (lists, watches) = (count(Verb::List), count(Verb::Watch));
    // Changed while the server was away: on the embedded server in process, as another
    // API server in front of the same storage would take it; on a real one, which has
    // no other, as soon as it answers again.
    let change = async || {
        objects
            .create(&PostParams::default(), &object("during"))
            .await
            .expect("an object written in the outage");
    };
    if env.is_embedded() {
        change().await;
    }
    env.start_api_server().await.expect("start the API server");
    let back = Instant::now();
    if !env.is_embedded() {
        change().await;
        eprintln!(
            "the restarted server took the change {} ms after it was ready",
            back.elapsed().as_millis()
        );
    }
    until("the informer to see the outage's object", || {
        informer.store().get(Some(&namespace), "during").is_some()
    })
    .await;
    eprintln!(
        "the informer had the outage's change {} ms after the server was back",
        back.elapsed().as_millis()
    );
    if let (Some(lists), Some(watches)) = (lists, watches) {
        // One list, then one watch from it: no watch from the old resourceVersion.
        until("the informer to watch again", || {
            count(Verb::Watch).is_some_and(|now| now > watches)
        })
        .await;
        assert_eq!(count(Verb::List), Some(lists + 1), "one fresh list");
        assert_eq!(
            count(Verb::Watch),
            Some(watches + 1),
            "no watch resumed from the old resourceVersion before the list"
        );
    } else {
        eprintln!("request counts skipped: they need the embedded API server");
    }
    informer.stop();
    env.stop().await;
}
