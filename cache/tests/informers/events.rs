//! Subscribers receive exactly the changes, in order, including deletes a relist finds
//! and, for a late subscriber, the current contents first.

use std::collections::BTreeSet;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use serde_json::json;
use wheelhouse_cache::Cache;
use wheelhouse_envtest::Verb;

use crate::common::{
    TIMEOUT, configmap, describe, disconnect, embedded, event_of, eventually, next_event, next_events, scope, start,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscribers_receive_added_updated_deleted_in_order() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let api: Api<ConfigMap> = Api::namespaced(env.client(), &namespace);
    let cache = Cache::new(env.client());
    let informer = cache.informer::<ConfigMap>(scope(&namespace));
    let mut early = informer.subscribe();
    cache.start();
    cache.wait_for_sync(TIMEOUT).await.expect("the informer syncs");
    let mut second = informer.subscribe();

    let created = api
        .create(&PostParams::default(), &configmap("a", &[], &[("v", "1")]))
        .await
        .unwrap();
    let updated = api
        .patch("a", &PatchParams::default(), &Patch::Merge(json!({"data": {"v": "2"}})))
        .await
        .unwrap();
    api.delete("a", &DeleteParams::default()).await.unwrap();
    // The next write is a fence: an extra event would come before it.
    let fence = api
        .create(&PostParams::default(), &configmap("fence", &[], &[]))
        .await
        .unwrap();
    let expected = vec![
        event_of("Added", &created),
        format!(
            "Updated a@{} -> a@{}",
            created.metadata.resource_version.as_deref().unwrap(),
            updated.metadata.resource_version.as_deref().unwrap()
        ),
        // The last state the informer stored, whatever version the deletion carries.
        event_of("Deleted", &updated),
        event_of("Added", &fence),
    ];
    for subscription in [&mut early, &mut second] {
        assert_eq!(next_events(subscription, 4).await, expected);
        assert!(subscription.try_recv().is_none(), "nothing after the fence");
    }
    assert!(informer.store().get(Some(&namespace), "a").is_none());

    // A subscriber that joins late first receives what is stored, then what changes.
    let b = api
        .create(&PostParams::default(), &configmap("b", &[], &[]))
        .await
        .unwrap();
    eventually("the informer to store b", || async {
        informer.store().get(Some(&namespace), "b").is_some().then_some(())
    })
    .await;
    let mut late = informer.subscribe();
    let initial: BTreeSet<String> = next_events(&mut late, 2).await.into_iter().collect();
    assert_eq!(
        initial,
        BTreeSet::from([event_of("Added", &fence), event_of("Added", &b)])
    );
    let c = api
        .create(&PostParams::default(), &configmap("c", &[], &[]))
        .await
        .unwrap();
    assert_eq!(describe(&next_event(&mut late).await), event_of("Added", &c));
    env.stop().await;
}

/// Objects deleted while the informer could not watch, after a compaction that makes
/// it relist, reach subscribers as `Deleted`; a change made meanwhile as `Updated`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deletes_while_disconnected_are_delivered_after_the_relist() {
    let env = start().await;
    let Some(server) = embedded(&env, "holding off the watch and compacting history") else {
        env.stop().await;
        return;
    };
    let namespace = env.namespace().to_owned();
    let api: Api<ConfigMap> = Api::namespaced(env.client(), &namespace);
    let mut created = Vec::new();
    for name in ["keep", "changed", "gone-1", "gone-2", "gone-3"] {
        created.push(
            api.create(&PostParams::default(), &configmap(name, &[], &[]))
                .await
                .unwrap(),
        );
    }
    let cache = Cache::new(env.client());
    let informer = cache.informer::<ConfigMap>(scope(&namespace));
    cache.start();
    cache.wait_for_sync(TIMEOUT).await.expect("the informer syncs");
    let mut subscription = informer.subscribe();
    let initial: BTreeSet<String> = next_events(&mut subscription, 5).await.into_iter().collect();
    assert_eq!(initial, created.iter().map(|c| event_of("Added", c)).collect());
    let lists = server.request_count(Verb::List, "configmaps");

    disconnect(server).await;
    for name in ["gone-1", "gone-2", "gone-3"] {
        api.delete(name, &DeleteParams::default()).await.unwrap();
    }
    let changed = api
        .patch(
            "changed",
            &PatchParams::default(),
            &Patch::Merge(json!({"data": {"v": "2"}})),
        )
        .await
        .unwrap();
    server.compact();

    let events: BTreeSet<String> = next_events(&mut subscription, 4).await.into_iter().collect();
    let expected: BTreeSet<String> = created[2..]
        .iter()
        .map(|c| event_of("Deleted", c))
        .chain([format!(
            "Updated changed@{} -> changed@{}",
            created[1].metadata.resource_version.as_deref().unwrap(),
            changed.metadata.resource_version.as_deref().unwrap()
        )])
        .collect();
    assert_eq!(events, expected);
    assert!(
        server.request_count(Verb::List, "configmaps") > lists,
        "the deletes were found by a relist"
    );
    let fence = api
        .create(&PostParams::default(), &configmap("fence", &[], &[]))
        .await
        .unwrap();
    assert_eq!(
        describe(&next_event(&mut subscription).await),
        event_of("Added", &fence)
    );
    let mut stored: Vec<String> = informer
        .store()
        .all()
        .iter()
        .map(|c| c.metadata.name.clone().unwrap())
        .collect();
    stored.sort();
    assert_eq!(stored, ["changed", "fence", "keep"]);
    assert!(subscription.try_recv().is_none(), "nothing after the fence");
    env.stop().await;
}
