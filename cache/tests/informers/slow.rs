//! A subscriber that does not read lags on its own: the others get every event in
//! time, and it re-syncs from the store when it reads again.

use std::collections::BTreeSet;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, PostParams};
use wheelhouse_cache::{Cache, Event, InformerOptions};

use crate::common::{TIMEOUT, configmap, describe, event_of, next_events, scope, start};

const CAPACITY: usize = 4;
const OBJECTS: usize = 24;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_subscriber_lags_without_blocking_the_others() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let api: Api<ConfigMap> = Api::namespaced(env.client(), &namespace);
    let cache = Cache::new(env.client());
    let options = InformerOptions {
        subscriber_capacity: CAPACITY,
        ..Default::default()
    };
    let informer = cache.informer_with::<ConfigMap>(scope(&namespace), options);
    cache.start();
    cache.wait_for_sync(TIMEOUT).await.expect("the informer syncs");
    let mut slow = informer.subscribe();
    let mut fast = informer.subscribe();

    let reader = tokio::spawn(async move {
        let events = next_events(&mut fast, OBJECTS).await;
        (events, fast)
    });
    let mut created = Vec::new();
    for i in 0..OBJECTS {
        created.push(
            api.create(&PostParams::default(), &configmap(&format!("c{i:02}"), &[], &[]))
                .await
                .unwrap(),
        );
    }
    let expected: Vec<String> = created.iter().map(|c| event_of("Added", c)).collect();
    let (events, mut fast) = tokio::time::timeout(TIMEOUT, reader)
        .await
        .expect("the fast reader is not held up")
        .unwrap();
    assert_eq!(events, expected, "the fast subscriber got every event in order");
    assert!(fast.try_recv().is_none());

    // The slow one holds no more than its capacity: its queue became one `Lagged`.
    assert!(slow.pending() <= CAPACITY, "{} events queued", slow.pending());
    assert!(
        matches!(slow.try_recv(), Some(Event::Lagged)),
        "the slow subscriber is told it lagged"
    );
    let mut resynced = BTreeSet::new();
    while let Some(event) = slow.try_recv() {
        resynced.insert(describe(&event));
    }
    assert_eq!(
        resynced,
        expected.into_iter().collect(),
        "then it receives the store's contents as Added"
    );
    assert_eq!(resynced.len(), informer.store().len());

    // After re-syncing it receives live events again.
    let last = api
        .create(&PostParams::default(), &configmap("last", &[], &[]))
        .await
        .unwrap();
    assert_eq!(next_events(&mut slow, 1).await, [event_of("Added", &last)]);
    env.stop().await;
}
