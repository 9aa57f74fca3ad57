//! The prometheus series of an informer: objects stored, events, relists.

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, PostParams};
use prometheus::Registry;
use wheelhouse_cache::{Cache, CacheMetrics};

use crate::common::{TIMEOUT, configmap, disconnect, embedded, eventually, metric, scope, start};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_objects_events_and_relists() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let api: Api<ConfigMap> = Api::namespaced(env.client(), &namespace);
    for name in ["a", "b", "c"] {
        api.create(&PostParams::default(), &configmap(name, &[], &[]))
            .await
            .unwrap();
    }
    let registry = Registry::new();
    let metrics = CacheMetrics::register(&registry).expect("the metrics register");
    let cache = Cache::with_metrics(env.client(), Some(metrics));
    let informer = cache.informer::<ConfigMap>(scope(&namespace));
    cache.start();
    cache.wait_for_sync(TIMEOUT).await.expect("the informer syncs");
    let name = informer.name().to_owned();
    let objects = || metric(&registry, "wheelhouse_cache_objects", &[("informer", &name)]);
    let added = || {
        metric(
            &registry,
            "wheelhouse_cache_events_total",
            &[("informer", &name), ("type", "added")],
        )
    };
    let relists = || metric(&registry, "wheelhouse_cache_relists_total", &[("informer", &name)]).unwrap_or(0);
    assert_eq!(objects(), Some(3));
    assert_eq!(informer.store().len(), 3);
    assert_eq!(added(), Some(3));
    assert_eq!(relists(), 0);

    api.create(&PostParams::default(), &configmap("d", &[], &[]))
        .await
        .unwrap();
    eventually("the gauge and counter to count the new object", || async {
        (objects() == Some(4) && added() == Some(4)).then_some(())
    })
    .await;
    assert_eq!(informer.store().len(), 4);

    let Some(server) = embedded(&env, "compacting history to force a relist") else {
        env.stop().await;
        return;
    };
    disconnect(server).await;
    api.create(&PostParams::default(), &configmap("e", &[], &[]))
        .await
        .unwrap();
    server.compact();
    eventually("a relist to be counted", || async { (relists() == 1).then_some(()) }).await;
    eventually("the relisted object to be counted", || async {
        (objects() == Some(5) && added() == Some(5)).then_some(())
    })
    .await;
    let restarts = metric(
        &registry,
        "wheelhouse_cache_watch_restarts_total",
        &[("informer", &name)],
    );
    assert!(
        restarts.is_some_and(|count| count >= 1),
        "the failed re-watch is counted: {restarts:?}"
    );
    env.stop().await;
}
