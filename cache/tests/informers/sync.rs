//! `wait_for_sync` gives up after its timeout and names the informers that did not sync.

use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{ApiResource, GroupVersionKind};
use wheelhouse_cache::{Cache, Scope};
use wheelhouse_envtest::{InjectedFailure, Verb};

use crate::common::{TIMEOUT, embedded, start};

const WAIT: Duration = Duration::from_millis(500);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wait_for_sync_names_the_informer_whose_lists_fail() {
    let env = start().await;
    let Some(server) = embedded(&env, "failing lists") else {
        env.stop().await;
        return;
    };
    let namespace = env.namespace().to_owned();
    server.fail_next(1000, InjectedFailure::server_error(Verb::List, "configmaps"));
    let cache = Cache::new(env.client());
    let informer = cache.informer::<ConfigMap>(Scope::namespace(&namespace));
    cache.start();
    let started = tokio::time::Instant::now();
    let error = cache.wait_for_sync(WAIT).await.expect_err("no list succeeds");
    assert!(started.elapsed() < WAIT * 4, "wait_for_sync returned near its timeout");
    assert_eq!(error.informers, [informer.name().to_owned()]);
    let message = error.to_string();
    assert!(
        message.contains("configmaps") && message.contains(&namespace),
        "message: {message}"
    );
    assert!(!informer.has_synced() && !cache.has_synced());
    assert!(
        server.request_count(Verb::List, "configmaps") >= 1,
        "the informer tried to list"
    );
    env.stop().await;
}

/// Also on a real cluster: a resource the server does not serve never syncs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wait_for_sync_names_the_informer_of_an_unserved_resource() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let cache = Cache::new(env.client());
    let served = cache.informer::<ConfigMap>(Scope::namespace(&namespace));
    let gvk = GroupVersionKind::gvk("unserved.wheelhouse.rs", "v1", "Widget");
    let resource = ApiResource::from_gvk_with_plural(&gvk, "widgets");
    let unserved = cache.dynamic_informer(&resource, Scope::namespace(&namespace));
    cache.start();
    let error = cache.wait_for_sync(WAIT).await.expect_err("widgets are not served");
    assert_eq!(error.informers, [unserved.name().to_owned()]);
    assert!(error.to_string().contains("widgets"), "message: {error}");
    assert!(error.to_string().contains(&namespace), "message: {error}");
    assert!(tokio::time::timeout(TIMEOUT, served.wait_for_sync()).await.is_ok());
    env.stop().await;
}

/// `list_page_size` pages the initial list: every object is stored, from as many list
/// requests as pages (the count only on the embedded server, which counts requests).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_initial_list_comes_in_pages_of_the_size_asked() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let api: kube::Api<ConfigMap> = kube::Api::namespaced(env.client(), &namespace);
    for n in 0..5 {
        let object = crate::common::configmap(&format!("paged-{n}"), &[], &[("k", "v")]);
        api.create(&kube::api::PostParams::default(), &object).await.unwrap();
    }
    let lists_before = env
        .server()
        .map(|server| server.request_count(Verb::List, "configmaps"));
    let cache = Cache::new(env.client());
    let options = wheelhouse_cache::InformerOptions {
        list_page_size: Some(2),
        ..Default::default()
    };
    let informer = cache.informer_with::<ConfigMap>(Scope::namespace(&namespace), options);
    cache.start();
    cache.wait_for_sync(TIMEOUT).await.expect("the informer syncs");
    assert_eq!(informer.store().len(), 5);
    if let (Some(server), Some(before)) = (env.server(), lists_before) {
        let pages = server.request_count(Verb::List, "configmaps") - before;
        assert_eq!(pages, 3, "5 objects in pages of 2");
    }
    env.stop().await;
}
