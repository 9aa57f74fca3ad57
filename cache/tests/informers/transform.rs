//! The transform runs before objects are stored: by default it drops managedFields.

use std::sync::Arc;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, PostParams};
use wheelhouse_cache::{Cache, InformerOptions, Scope, drop_managed_fields};

use crate::common::{TIMEOUT, configmap, eventually, start};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_transform_drops_managed_fields() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let api: Api<ConfigMap> = Api::namespaced(env.client(), &namespace);
    let listed = api
        .create(&PostParams::default(), &configmap("listed", &[], &[("k", "v")]))
        .await
        .unwrap();
    assert!(
        listed
            .metadata
            .managed_fields
            .as_ref()
            .is_some_and(|fields| !fields.is_empty()),
        "the server records managedFields"
    );
    let cache = Cache::new(env.client());
    let informer = cache.informer::<ConfigMap>(Scope::namespace(&namespace));
    cache.start();
    cache.wait_for_sync(TIMEOUT).await.expect("the informer syncs");
    let watched = api
        .create(&PostParams::default(), &configmap("watched", &[], &[("k", "v")]))
        .await
        .unwrap();
    assert!(watched.metadata.managed_fields.is_some());
    let stored = eventually("the watched object to be stored", || async {
        informer.store().get(Some(&namespace), "watched")
    })
    .await;
    assert_eq!(stored.metadata.managed_fields, None, "dropped from a watched object");
    let stored = informer
        .store()
        .get(Some(&namespace), "listed")
        .expect("listed object stored");
    assert_eq!(stored.metadata.managed_fields, None, "dropped from a listed object");
    assert_eq!(stored.data, listed.data, "the rest is kept");
    assert_eq!(stored.metadata.resource_version, listed.metadata.resource_version);
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_custom_transform_is_applied_before_storing() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let api: Api<ConfigMap> = Api::namespaced(env.client(), &namespace);
    api.create(&PostParams::default(), &configmap("listed", &[], &[("k", "v")]))
        .await
        .unwrap();
    let cache = Cache::new(env.client());
    let options = InformerOptions {
        transform: Some(Arc::new(|config: &mut ConfigMap| {
            drop_managed_fields(config);
            config
                .metadata
                .annotations
                .get_or_insert_default()
                .insert("seen-by".into(), "cache".into());
            config.data = None;
        })),
        ..Default::default()
    };
    let informer = cache.informer_with::<ConfigMap>(Scope::namespace(&namespace), options);
    cache.start();
    cache.wait_for_sync(TIMEOUT).await.expect("the informer syncs");
    api.create(&PostParams::default(), &configmap("watched", &[], &[("k", "v")]))
        .await
        .unwrap();
    eventually("the watched object to be stored", || async {
        informer.store().get(Some(&namespace), "watched")
    })
    .await;
    for name in ["listed", "watched"] {
        let stored = informer.store().get(Some(&namespace), name).unwrap();
        assert_eq!(
            stored.metadata.annotations.as_ref().unwrap()["seen-by"],
            "cache",
            "{name}"
        );
        assert_eq!(stored.data, None, "{name}");
        assert_eq!(stored.metadata.managed_fields, None, "{name}");
        let served = api.get(name).await.unwrap();
        assert!(
            !served.metadata.annotations.unwrap_or_default().contains_key("seen-by"),
            "the server's copy is untouched"
        );
    }
    env.stop().await;
}
