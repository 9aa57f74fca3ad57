//! One informer, and so one watch, per type and scope, however many readers.

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, PostParams};
use wheelhouse_cache::{Cache, Scope};
use wheelhouse_envtest::Verb;

use crate::common::{TIMEOUT, configmap, embedded, eventually, start};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readers_of_one_type_and_scope_share_one_watch() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let api: Api<ConfigMap> = Api::namespaced(env.client(), &namespace);
    let cache = Cache::new(env.client());
    let first = cache.informer::<ConfigMap>(Scope::namespace(&namespace));
    let second = cache.informer::<ConfigMap>(Scope::namespace(&namespace));
    // An index added through one reader shows in the other: they hold one store.
    first.store().add_index("marker", |_: &ConfigMap| Vec::new());
    assert!(
        second.store().index_values("marker").is_ok(),
        "both readers hold the same store"
    );
    assert_eq!(first.name(), second.name());
    cache.start();
    cache.wait_for_sync(TIMEOUT).await.expect("the informer syncs");
    assert!(first.has_synced() && second.has_synced());

    api.create(&PostParams::default(), &configmap("shared", &[], &[]))
        .await
        .unwrap();
    eventually("both readers to see the new object", || async {
        (first.store().get(Some(&namespace), "shared").is_some()
            && second.store().get(Some(&namespace), "shared").is_some())
        .then_some(())
    })
    .await;
    if let Some(server) = embedded(&env, "counting list and watch requests") {
        // Two informers would each have listed before `wait_for_sync` returned.
        assert_eq!(
            server.request_count(Verb::List, "configmaps"),
            1,
            "one list for both readers"
        );
        // The object arrived through the watch, so it is open; no faults, no restarts.
        assert_eq!(
            server.request_count(Verb::Watch, "configmaps"),
            1,
            "one watch for both readers"
        );
    }

    // Another scope of the same type is another informer, with its own store and watch.
    let web = cache.informer::<ConfigMap>(Scope::namespace(&namespace).labels("app=web"));
    assert!(
        web.store().index_values("marker").is_err(),
        "another scope has its own store"
    );
    assert_ne!(web.name(), first.name());
    // The cache is started, so an informer asked for later starts at once.
    cache.wait_for_sync(TIMEOUT).await.expect("the second informer syncs");
    api.create(&PostParams::default(), &configmap("web", &[("app", "web")], &[]))
        .await
        .unwrap();
    eventually("the labelled informer to see its object", || async {
        web.store().get(Some(&namespace), "web").is_some().then_some(())
    })
    .await;
    assert!(
        web.store().get(Some(&namespace), "shared").is_none(),
        "the selector applies"
    );
    eventually("the first informer to see the labelled object", || async {
        first.store().get(Some(&namespace), "web").is_some().then_some(())
    })
    .await;
    if let Some(server) = embedded(&env, "counting list and watch requests") {
        assert_eq!(server.request_count(Verb::List, "configmaps"), 2);
        assert_eq!(server.request_count(Verb::Watch, "configmaps"), 2);
    }
    env.stop().await;
}
