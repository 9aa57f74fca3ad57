//! Item 4: watches from a resourceVersion, synthetic ADDED events, bookmarks,
//! `timeoutSeconds`, 410 Gone, and `kube::runtime::watcher` in both initial-list modes.

use std::time::Duration;

use futures::{Stream, StreamExt};
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams, WatchEvent, WatchParams};
use kube::runtime::watcher;
use serde_json::json;

use crate::common::{Mirror, TIMEOUT, configmap, list_version, revision, skip_unless_embedded, start};

/// One watch event reduced to what the tests compare: type, name, resourceVersion.
type Seen = (&'static str, String, u64);

fn seen(event: &WatchEvent<ConfigMap>) -> Option<Seen> {
    let (kind, object) = match event {
        WatchEvent::Added(o) => ("ADDED", o),
        WatchEvent::Modified(o) => ("MODIFIED", o),
        WatchEvent::Deleted(o) => ("DELETED", o),
        WatchEvent::Bookmark(_) => return None,
        WatchEvent::Error(status) => panic!("unexpected watch error: {status:?}"),
    };
    Some((
        kind,
        object.metadata.name.clone().unwrap_or_default(),
        revision(&object.metadata),
    ))
}

/// The next event of a watch, within [`TIMEOUT`]; None when the watch ended.
async fn next_event<S>(stream: &mut S) -> Option<WatchEvent<ConfigMap>>
where
    S: Stream<Item = kube::Result<WatchEvent<ConfigMap>>> + Unpin,
{
    let next = tokio::time::timeout(TIMEOUT, stream.next())
        .await
        .expect("a watch event within the timeout");
    next.map(|event| event.expect("the watch stream does not fail"))
}

/// The next `count` non-bookmark events.
async fn next_changes<S>(stream: &mut S, count: usize) -> Vec<Seen>
where
    S: Stream<Item = kube::Result<WatchEvent<ConfigMap>>> + Unpin,
{
    let mut changes = Vec::new();
    while changes.len() < count {
        let event = next_event(stream).await.expect("the watch stays open");
        changes.extend(seen(&event));
    }
    changes
}

/// From a resourceVersion, a watch replays the later changes and then follows new
/// ones: ADDED, MODIFIED, DELETED in revision order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_from_a_resource_version_sends_changes_in_order() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let start_version = list_version(&api).await;
    api.create(
        &PostParams::default(),
        &configmap("w", &[("suite", "watch")], &[("v", "1")]),
    )
    .await
    .unwrap();
    api.patch("w", &PatchParams::default(), &Patch::Merge(json!({"data": {"v": "2"}})))
        .await
        .unwrap();
    let params = WatchParams::default().labels("suite=watch");
    let mut stream = api.watch(&params, &start_version).await.unwrap().boxed();
    let replayed = next_changes(&mut stream, 2).await;
    api.delete("w", &DeleteParams::default()).await.unwrap();
    let live = next_changes(&mut stream, 1).await;
    let events: Vec<Seen> = replayed.into_iter().chain(live).collect();
    let kinds: Vec<(&str, &str)> = events.iter().map(|(kind, name, _)| (*kind, name.as_str())).collect();
    assert_eq!(kinds, [("ADDED", "w"), ("MODIFIED", "w"), ("DELETED", "w")]);
    assert!(
        events.windows(2).all(|w| w[0].2 < w[1].2),
        "revisions increase: {events:?}"
    );
    assert!(events[0].2 > start_version.parse().unwrap());
    env.stop().await;
}

/// Without a resourceVersion a watch starts with an ADDED event per existing object,
/// then follows changes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_without_a_resource_version_starts_with_synthetic_added_events() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    for name in ["x", "y"] {
        api.create(&PostParams::default(), &configmap(name, &[("suite", "synthetic")], &[]))
            .await
            .unwrap();
    }
    let mut stream = api
        .watch(&WatchParams::default().labels("suite=synthetic"), "")
        .await
        .unwrap()
        .boxed();
    let mut initial = next_changes(&mut stream, 2).await;
    initial.sort();
    let kinds: Vec<(&str, &str)> = initial.iter().map(|(kind, name, _)| (*kind, name.as_str())).collect();
    assert_eq!(kinds, [("ADDED", "x"), ("ADDED", "y")]);
    api.create(&PostParams::default(), &configmap("z", &[("suite", "synthetic")], &[]))
        .await
        .unwrap();
    let live = next_changes(&mut stream, 1).await;
    assert_eq!((live[0].0, live[0].1.as_str()), ("ADDED", "z"));
    env.stop().await;
}

/// With `allowWatchBookmarks` the server sends BOOKMARK events carrying a revision.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bookmarks_arrive_when_allowed() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let start_version = list_version(&api).await;
    let mut stream = api
        .watch(&WatchParams::default(), &start_version)
        .await
        .unwrap()
        .boxed();
    // The embedded server sends one each second; a real one about once a minute.
    let wait = if env.is_embedded() {
        TIMEOUT
    } else {
        Duration::from_secs(90)
    };
    let bookmark = tokio::time::timeout(wait, async {
        loop {
            match stream.next().await {
                Some(Ok(WatchEvent::Bookmark(bookmark))) => return bookmark,
                Some(Ok(_)) => {}
                other => panic!("the watch ended before a bookmark: {other:?}"),
            }
        }
    })
    .await
    .expect("a bookmark arrives");
    let version: u64 = bookmark
        .metadata
        .resource_version
        .parse()
        .expect("the bookmark's resourceVersion is a revision");
    assert!(version >= start_version.parse().unwrap());
    assert_eq!(bookmark.types.kind, "ConfigMap");
    env.stop().await;
}

/// `timeoutSeconds` ends the watch stream.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timeout_seconds_ends_the_watch() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let start_version = list_version(&api).await;
    let mut stream = api
        .watch(&WatchParams::default().timeout(1), &start_version)
        .await
        .unwrap()
        .boxed();
    let ended = tokio::time::timeout(TIMEOUT, async {
        while let Some(event) = stream.next().await {
            event.expect("the watch ends cleanly");
        }
    })
    .await;
    assert!(ended.is_ok(), "the watch ended after timeoutSeconds=1");
    env.stop().await;
}

/// A watch from a revision older than the kept history is 410 Gone (Expired), as an
/// ERROR event or as the response status.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_from_a_compacted_revision_is_gone() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let old = match env.server() {
        Some(server) => {
            let created = api
                .create(&PostParams::default(), &configmap("old", &[], &[("v", "1")]))
                .await
                .unwrap();
            api.patch(
                "old",
                &PatchParams::default(),
                &Patch::Merge(json!({"data": {"v": "2"}})),
            )
            .await
            .unwrap();
            server.compact();
            created.metadata.resource_version.unwrap()
        }
        // A real cluster's watch cache keeps minutes of history; revision 1 is older.
        None => "1".to_owned(),
    };
    let status = match api.watch(&WatchParams::default(), &old).await {
        Err(kube::Error::Api(status)) => *status,
        Err(other) => panic!("the watch failed without a Status: {other}"),
        Ok(stream) => {
            let mut stream = stream.boxed();
            loop {
                if env.server().is_none() {
                    // A real server answers at once when revision 1 is out of its watch
                    // cache; silence means its history still reaches back that far (a
                    // young etcd), and a client cannot force a compaction.
                    let quiet = tokio::time::timeout(Duration::from_secs(5), stream.next()).await;
                    let Ok(next) = quiet else {
                        eprintln!(
                            "skipping: this cluster's watch cache still holds revision 1 (a young etcd), so no watch is too old yet"
                        );
                        env.stop().await;
                        return;
                    };
                    match next {
                        Some(Ok(WatchEvent::Error(status))) => break *status,
                        Some(Ok(WatchEvent::Bookmark(_))) => continue,
                        other => panic!("expected 410 Gone, got {other:?}"),
                    }
                }
                match next_event(&mut stream).await {
                    Some(WatchEvent::Error(status)) => break *status,
                    Some(WatchEvent::Bookmark(_)) => {}
                    other => panic!("expected 410 Gone, got {other:?}"),
                }
            }
        }
    };
    assert_eq!(status.code, 410);
    assert_eq!(status.reason, "Expired");
    assert!(
        status.message.contains("too old resource version"),
        "message: {}",
        status.message
    );
    env.stop().await;
}

/// A list continuation from before a compaction is 410 Expired (embedded only: a
/// real cluster compacts on its own schedule).
#[tokio::test]
async fn list_continuation_after_compaction_is_gone() {
    let env = start().await;
    if skip_unless_embedded(&env, "compacting history on demand") {
        env.stop().await;
        return;
    }
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    for name in ["p1", "p2", "p3"] {
        api.create(&PostParams::default(), &configmap(name, &[], &[]))
            .await
            .unwrap();
    }
    let first = api.list(&ListParams::default().limit(1)).await.unwrap();
    let token = first.metadata.continue_.expect("a continue token");
    api.create(&PostParams::default(), &configmap("p4", &[], &[]))
        .await
        .unwrap();
    env.server().unwrap().compact();
    let result = api.list(&ListParams::default().limit(1).continue_token(&token)).await;
    let status = crate::common::api_error(result);
    assert_eq!((status.code, status.reason.as_str()), (410, "Expired"));
    env.stop().await;
}

/// `kube::runtime::watcher` reaches the server's state, and follows changes made
/// after its initial list, with the list+watch strategy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watcher_with_list_and_watch_reaches_the_state() {
    watcher_reaches_the_state(watcher::Config::default().page_size(2)).await;
}

/// The same with streaming lists (`sendInitialEvents`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watcher_with_streaming_lists_reaches_the_state() {
    let env = start().await;
    let supported = crate::served::at_least(&env, 27, "streaming lists (sendInitialEvents)").await;
    env.stop().await;
    if supported {
        watcher_reaches_the_state(watcher::Config::default().streaming_lists()).await;
    }
}

async fn watcher_reaches_the_state(config: watcher::Config) {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let selector = "suite=watcher";
    for name in ["a", "b", "c", "d", "e"] {
        api.create(
            &PostParams::default(),
            &configmap(name, &[("suite", "watcher")], &[("v", "1")]),
        )
        .await
        .unwrap();
    }
    let mirror = Mirror::start(api.clone(), config.labels(selector));
    mirror.wait_in_sync(&api, selector).await;
    api.patch("a", &PatchParams::default(), &Patch::Merge(json!({"data": {"v": "2"}})))
        .await
        .unwrap();
    api.delete("b", &DeleteParams::default()).await.unwrap();
    api.create(&PostParams::default(), &configmap("f", &[("suite", "watcher")], &[]))
        .await
        .unwrap();
    // Leaving the selector is a deletion for the watcher.
    api.patch(
        "c",
        &PatchParams::default(),
        &Patch::Merge(json!({"metadata": {"labels": {"suite": "other"}}})),
    )
    .await
    .unwrap();
    mirror.wait_in_sync(&api, selector).await;
    assert_eq!(mirror.get("a").unwrap().data.unwrap()["v"], "2");
    assert!(mirror.get("b").is_none() && mirror.get("c").is_none());
    assert_eq!(mirror.duplicates(), 0);
    drop(mirror);
    env.stop().await;
}

/// A filtered watch reports an object that stops matching as DELETED and one that
/// starts matching as ADDED, as the watch cache does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn filtered_watch_reports_objects_entering_and_leaving_the_selector() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let start_version = list_version(&api).await;
    let params = WatchParams::default().labels("suite=filtered");
    let mut stream = api.watch(&params, &start_version).await.unwrap().boxed();
    let relabel = |value: &str| Patch::Merge(json!({"metadata": {"labels": {"suite": value}}}));
    api.create(&PostParams::default(), &configmap("f", &[("suite", "filtered")], &[]))
        .await
        .unwrap();
    api.patch("f", &PatchParams::default(), &relabel("elsewhere"))
        .await
        .unwrap();
    api.patch(
        "f",
        &PatchParams::default(),
        &Patch::Merge(json!({"data": {"unseen": "yes"}})),
    )
    .await
    .unwrap();
    api.patch("f", &PatchParams::default(), &relabel("filtered"))
        .await
        .unwrap();
    let events = next_changes(&mut stream, 3).await;
    let kinds: Vec<&str> = events.iter().map(|(kind, _, _)| *kind).collect();
    assert_eq!(kinds, ["ADDED", "DELETED", "ADDED"], "{events:?}");
    env.stop().await;
}

/// The bookmark ending a streaming list's initial events is an empty object of the
/// type as Go encodes it, annotated with the end of the initial events and the
/// blueprint of the list (an empty list of the type, its encoding in base64).
#[tokio::test]
async fn the_initial_events_end_with_a_bookmark_carrying_the_list_blueprint() {
    use base64::Engine as _;
    let env = start().await;
    if !crate::served::at_least(&env, 32, "the initial events' list blueprint").await {
        env.stop().await;
        return;
    }
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    api.create(&PostParams::default(), &configmap("streamed", &[], &[("v", "1")]))
        .await
        .unwrap();
    let path = format!(
        "/api/v1/namespaces/{}/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=1",
        env.namespace()
    );
    let (code, _, text) = crate::raw::get_text(&env.client(), &path).await;
    assert_eq!(code, 200, "{text}");
    let events: Vec<serde_json::Value> = text
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect();
    let end = events
        .iter()
        .find(|e| e["type"] == "BOOKMARK")
        .unwrap_or_else(|| panic!("a bookmark in {text}"));
    let object = &end["object"];
    assert_eq!(
        (&object["kind"], &object["apiVersion"]),
        (&json!("ConfigMap"), &json!("v1"))
    );
    assert_eq!(object["metadata"]["creationTimestamp"], serde_json::Value::Null);
    assert!(object["metadata"].get("creationTimestamp").is_some(), "{object}");
    let annotations = &object["metadata"]["annotations"];
    assert_eq!(annotations["k8s.io/initial-events-end"], "true");
    let blueprint = base64::engine::general_purpose::STANDARD
        .decode(
            annotations["kubernetes.io/initial-events-list-blueprint"]
                .as_str()
                .unwrap_or_default(),
        )
        .expect("base64");
    assert_eq!(
        String::from_utf8_lossy(&blueprint),
        "{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",\"metadata\":{},\"items\":null}\n"
    );
    env.stop().await;
}
