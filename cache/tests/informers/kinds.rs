//! Informers of other shapes: metadata-only, dynamic, and with a periodic resync.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, ApiResource, PostParams};
use kube::core::PartialObjectMeta;
use wheelhouse_cache::{Cache, Event, InformerOptions, ListOptions};

use crate::common::{
    SUITE, TIMEOUT, configmap, describe, event_of, eventually, next_event, scope, server_versions, start,
    stored_versions,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_metadata_informer_stores_names_and_labels() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let api: Api<ConfigMap> = Api::namespaced(env.client(), &namespace);
    api.create(
        &PostParams::default(),
        &configmap("web", &[("app", "web")], &[("k", "v")]),
    )
    .await
    .unwrap();
    api.create(&PostParams::default(), &configmap("db", &[("app", "db")], &[]))
        .await
        .unwrap();
    let cache = Cache::new(env.client());
    let metadata = cache.metadata_informer::<ConfigMap>(scope(&namespace));
    let full = cache.informer::<ConfigMap>(scope(&namespace));
    cache.start();
    cache.wait_for_sync(TIMEOUT).await.expect("the informers sync");
    metadata
        .store()
        .add_index("app", |object: &PartialObjectMeta<ConfigMap>| {
            object
                .metadata
                .labels
                .iter()
                .filter_map(|labels| labels.get("app").cloned())
                .collect()
        });
    api.create(&PostParams::default(), &configmap("cache", &[("app", "cache")], &[]))
        .await
        .unwrap();
    eventually("the metadata informer to see a watched object", || async {
        metadata.store().get(Some(&namespace), "cache").is_some().then_some(())
    })
    .await;
    assert_eq!(
        stored_versions(&metadata.store().all()),
        server_versions(&api, SUITE).await
    );
    // A metadata informer is not the typed one of the same scope: each has a store.
    eventually("the typed informer to see the watched object", || async {
        full.store().get(Some(&namespace), "cache").is_some().then_some(())
    })
    .await;
    assert_eq!(full.store().len(), 3);
    let web = metadata.store().get(Some(&namespace), "web").expect("web stored");
    assert_eq!(
        web.metadata.labels,
        Some(BTreeMap::from([
            ("app".to_owned(), "web".to_owned()),
            ("suite".to_owned(), "informers".to_owned())
        ]))
    );
    assert_eq!(web.metadata.managed_fields, None, "the default transform runs");
    let by_selector = metadata.store().list(&ListOptions {
        label_selector: Some("app in (web,db)".into()),
        ..Default::default()
    });
    assert_eq!(
        stored_versions(&by_selector.unwrap()),
        server_versions(&api, "app in (web,db)").await
    );
    let by_index = metadata.store().list(&ListOptions {
        index: Some(("app".into(), "cache".into())),
        ..Default::default()
    });
    assert_eq!(
        stored_versions(&by_index.unwrap()),
        server_versions(&api, "app=cache").await
    );
    assert!(metadata.store().check_indexes().is_empty());
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dynamic_informer_watches_a_resource_known_at_run_time() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let api: Api<ConfigMap> = Api::namespaced(env.client(), &namespace);
    api.create(
        &PostParams::default(),
        &configmap("listed", &[("app", "web")], &[("k", "v")]),
    )
    .await
    .unwrap();
    let cache = Cache::new(env.client());
    let resource = ApiResource::erase::<ConfigMap>(&());
    let informer = cache.dynamic_informer(&resource, scope(&namespace));
    assert!(informer.name().contains("configmaps"), "name: {}", informer.name());
    let again = cache.dynamic_informer(&resource, scope(&namespace));
    assert_eq!(again.name(), informer.name());
    cache.start();
    cache.wait_for_sync(TIMEOUT).await.expect("the informer syncs");
    let mut subscription = informer.subscribe();
    let listed = api.get("listed").await.unwrap();
    assert_eq!(
        describe(&next_event(&mut subscription).await),
        event_of("Added", &listed)
    );
    let watched = api
        .create(&PostParams::default(), &configmap("watched", &[], &[("k", "w")]))
        .await
        .unwrap();
    assert_eq!(
        describe(&next_event(&mut subscription).await),
        event_of("Added", &watched)
    );
    let stored = informer.store().get(Some(&namespace), "watched").expect("stored");
    assert_eq!(stored.data["data"]["k"], "w");
    assert_eq!(stored.metadata.managed_fields, None);
    assert_eq!(
        stored_versions(&informer.store().all()),
        server_versions(&api, SUITE).await
    );
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_periodic_resync_redelivers_every_object_as_updated() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let api: Api<ConfigMap> = Api::namespaced(env.client(), &namespace);
    let first = api
        .create(&PostParams::default(), &configmap("first", &[], &[]))
        .await
        .unwrap();
    let second = api
        .create(&PostParams::default(), &configmap("second", &[], &[]))
        .await
        .unwrap();
    let cache = Cache::new(env.client());
    let options = InformerOptions {
        resync: Some(Duration::from_millis(200)),
        ..Default::default()
    };
    let informer = cache.informer_with::<ConfigMap>(scope(&namespace), options);
    let mut subscription = informer.subscribe();
    cache.start();
    let mut added = vec![
        describe(&next_event(&mut subscription).await),
        describe(&next_event(&mut subscription).await),
    ];
    added.sort();
    assert_eq!(added, [event_of("Added", &first), event_of("Added", &second)]);
    // Two rounds, each with both objects, old and new the same stored object.
    for round in 0..2 {
        let mut names = Vec::new();
        for _ in 0..2 {
            match next_event(&mut subscription).await {
                Event::Updated { old, new } => {
                    assert!(Arc::ptr_eq(&old, &new), "a resync re-delivers the stored object");
                    names.push(new.metadata.name.clone().unwrap());
                }
                other => panic!("round {round}: expected a resync Updated, got {}", describe(&other)),
            }
        }
        names.sort();
        assert_eq!(names, ["first", "second"], "round {round}");
    }
    env.stop().await;
}
