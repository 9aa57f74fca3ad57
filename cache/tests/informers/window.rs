//! An informer whose resume point has left the server's watch window gets 410 Expired
//! on its next watch, as from kube-apiserver's watch cache, and lists again: what
//! changed meanwhile reaches subscribers, deletes included, with no compaction forced.

use std::collections::BTreeSet;
use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use serde_json::json;
use wheelhouse_cache::Cache;
use wheelhouse_envtest::{Backend, ServerOptions, TestEnv, Verb, WatchWindow};

use crate::common::{TIMEOUT, configmap, describe, disconnect, event_of, next_event, next_events, scope};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_informer_relists_when_the_watch_window_has_moved_past_it() {
    let backend = Backend::from_environment();
    if backend != Backend::Embedded {
        eprintln!(
            "skipped: a watch window of a chosen size needs the embedded API server, not {}",
            backend.describe()
        );
        return;
    }
    // Three events of history per resource: a few writes outrun it.
    let options = ServerOptions {
        watch_window: WatchWindow {
            min_events: 3,
            max_events: 3,
            fresh_for: Duration::ZERO,
        },
        ..ServerOptions::default()
    };
    let env = TestEnv::embedded_with(options)
        .await
        .expect("the embedded server starts");
    let server = env.server().expect("embedded");
    let namespace = env.namespace().to_owned();
    let api: Api<ConfigMap> = Api::namespaced(env.client(), &namespace);
    let keep = api
        .create(&PostParams::default(), &configmap("keep", &[], &[("v", "0")]))
        .await
        .unwrap();
    let gone = api
        .create(&PostParams::default(), &configmap("gone", &[], &[]))
        .await
        .unwrap();
    let cache = Cache::new(env.client());
    let informer = cache.informer::<ConfigMap>(scope(&namespace));
    cache.start();
    cache.wait_for_sync(TIMEOUT).await.expect("the informer syncs");
    let mut subscription = informer.subscribe();
    let initial: BTreeSet<String> = next_events(&mut subscription, 2).await.into_iter().collect();
    assert_eq!(
        initial,
        BTreeSet::from([event_of("Added", &keep), event_of("Added", &gone)])
    );
    let lists = server.request_count(Verb::List, "configmaps");

    disconnect(server).await;
    api.delete("gone", &DeleteParams::default()).await.unwrap();
    let added = api
        .create(&PostParams::default(), &configmap("added", &[], &[]))
        .await
        .unwrap();
    let mut changed = keep.clone();
    for value in ["1", "2", "3"] {
        changed = api
            .patch(
                "keep",
                &PatchParams::default(),
                &Patch::Merge(json!({"data": {"v": value}})),
            )
            .await
            .unwrap();
    }

    let events: BTreeSet<String> = next_events(&mut subscription, 3).await.into_iter().collect();
    let updated = format!(
        "Updated keep@{} -> keep@{}",
        keep.metadata.resource_version.as_deref().unwrap(),
        changed.metadata.resource_version.as_deref().unwrap()
    );
    assert_eq!(
        events,
        BTreeSet::from([event_of("Deleted", &gone), event_of("Added", &added), updated])
    );
    assert!(
        server.request_count(Verb::List, "configmaps") > lists,
        "the informer relisted after its watch was expired"
    );
    assert_eq!(server.fault_counts().compactions, 0, "the window alone expired it");
    let fence = api
        .create(&PostParams::default(), &configmap("fence", &[], &[]))
        .await
        .unwrap();
    assert_eq!(
        describe(&next_event(&mut subscription).await),
        event_of("Added", &fence)
    );
    env.stop().await;
}
