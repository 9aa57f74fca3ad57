//! After the API server restarts, an informer lists again as soon as the server
//! answers: its watch was refused while the server was away, so it does not resume
//! that watch from its old resourceVersion and wait for the restarted server's 410
//! (1.19 sent it seconds after `/readyz`), it starts over from a list.

use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, PostParams};
use wheelhouse_cache::{Cache, Scope};
use wheelhouse_envtest::Verb;

use crate::common::{self, TIMEOUT};

fn config_map(name: &str) -> ConfigMap {
    let mut map = ConfigMap::default();
    map.metadata.name = Some(name.into());
    map
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
    // The informer reaches the server over TCP, so the stop refuses and resets it.
    let client = kube::Client::try_from(env.config_for("informer").expect("a configuration")).expect("a client");
    let namespace = env.namespace().to_owned();
    let cache = Cache::new(client);
    let informer = cache.informer::<ConfigMap>(Scope::namespace(namespace.clone()));
    cache.start();
    cache.wait_for_sync(TIMEOUT).await.expect("synced");
    let maps: Api<ConfigMap> = Api::namespaced(env.client(), &namespace);
    maps.create(&PostParams::default(), &config_map("before"))
        .await
        .expect("a ConfigMap");
    until("the informer to see the first ConfigMap", || {
        informer.store().get(Some(&namespace), "before").is_some()
    })
    .await;

    env.stop_api_server().await.expect("stop the API server");
    // Long enough for the informer to try its watch again and be refused.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let server = env.server().cloned();
    let count = move |verb| server.as_ref().map(|server| server.request_count(verb, "configmaps"));
    let (lists, watches) = (count(Verb::List), count(Verb::Watch));
    // Changed while the server was away (on the embedded server, in process).
    let during = env.client();
    Api::<ConfigMap>::namespaced(during, &namespace)
        .create(&PostParams::default(), &config_map("during"))
        .await
        .expect("a ConfigMap written in the outage");

    env.start_api_server().await.expect("start the API server");
    let back = Instant::now();
    until("the informer to see the outage's ConfigMap", || {
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
