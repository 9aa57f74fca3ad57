//! Item 11: fault injection on the embedded server (dropped watches, compaction,
//! failed requests, latency, and their counters), and `kube::runtime::watcher`
//! surviving those faults without losing or duplicating any object's final state.
//!
//! A real cluster cannot be told to fail, so these tests skip there.

use std::time::{Duration, Instant};

use futures::StreamExt;
use http_body_util::BodyExt as _;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, DeleteParams, ListParams, Patch, PatchParams, PostParams, WatchParams};
use kube::runtime::watcher;
use serde_json::{Value, json};
use wheelhouse_envtest::{ApiServer, InjectedFailure, Verb};

use crate::common::{Mirror, TIMEOUT, api_error, configmap, eventually, list_version, skip_unless_embedded, start};

/// A request sent as is, without kube's error handling: code, headers and body.
async fn raw(client: &kube::Client, method: http::Method, path: &str) -> (u16, http::HeaderMap, Value) {
    let request = http::Request::builder()
        .method(method)
        .uri(path)
        .body(kube::client::Body::from(Vec::new()))
        .unwrap();
    let response = client.send(request).await.expect("the request reaches the server");
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.expect("the body is read").to_bytes();
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (parts.status.as_u16(), parts.headers, body)
}

/// Drops the open watches until at least one was open (a watcher may be between
/// its list and its watch).
async fn drop_a_watch(server: &ApiServer) {
    eventually("an open watch to drop", || async {
        (server.drop_watches() > 0).then_some(())
    })
    .await;
}

/// `fail_next` fails exactly the matching requests, with 500 or 429 + Retry-After,
/// as Status bodies; the failures are counted.
#[tokio::test]
async fn injected_failures_reach_the_client() {
    let env = start().await;
    if skip_unless_embedded(&env, "injecting request failures") {
        env.stop().await;
        return;
    }
    let server = env.server().unwrap().clone();
    let client = env.client();
    let api: Api<ConfigMap> = Api::namespaced(client.clone(), env.namespace());
    let collection = format!("/api/v1/namespaces/{}/configmaps", env.namespace());

    server.fail_next(1, InjectedFailure::server_error(Verb::List, "configmaps"));
    let (code, _, body) = raw(&client, http::Method::GET, &collection).await;
    assert_eq!(code, 500);
    assert_eq!(
        (body["kind"].as_str(), body["status"].as_str()),
        (Some("Status"), Some("Failure"))
    );
    assert_eq!(
        (body["code"].as_u64(), body["reason"].as_str()),
        (Some(500), Some("InternalError"))
    );
    let (code, _, body) = raw(&client, http::Method::GET, &collection).await;
    assert_eq!(code, 200, "only the next request fails");
    assert_eq!(body["kind"], "ConfigMapList");

    // A failure for one verb leaves the others alone.
    server.fail_next(2, InjectedFailure::too_many_requests(Verb::Get, "configmaps"));
    api.create(&PostParams::default(), &configmap("target", &[], &[]))
        .await
        .unwrap();
    assert_eq!(server.request_count(Verb::Create, "configmaps"), 1);
    let (code, headers, body) = raw(&client, http::Method::GET, &format!("{collection}/target")).await;
    assert_eq!(code, 429);
    assert_eq!(
        headers.get(http::header::RETRY_AFTER).and_then(|v| v.to_str().ok()),
        Some("1")
    );
    assert_eq!(body["reason"], "TooManyRequests");
    let status = api_error(api.get("target").await);
    assert_eq!(status.code, 429, "the second of two injected failures");
    api.get("target").await.expect("the third get succeeds");

    // Failures for other resources leave configmaps alone.
    server.fail_next(1, InjectedFailure::server_error(Verb::List, "secrets"));
    api.list(&ListParams::default()).await.unwrap();
    assert_eq!(server.fault_counts().failed_requests, 3);
    assert!(server.request_count(Verb::Get, "configmaps") >= 3);
    env.stop().await;
}

/// `set_latency` delays every request until it is set back to zero.
#[tokio::test]
async fn latency_delays_requests_until_turned_off() {
    let env = start().await;
    if skip_unless_embedded(&env, "injecting latency") {
        env.stop().await;
        return;
    }
    let server = env.server().unwrap().clone();
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    server.set_latency(Duration::from_millis(300));
    let started = Instant::now();
    api.list(&ListParams::default()).await.unwrap();
    assert!(
        started.elapsed() >= Duration::from_millis(300),
        "delayed: {:?}",
        started.elapsed()
    );
    let delayed = server.fault_counts().delayed_requests;
    assert!(delayed >= 1);
    server.set_latency(Duration::ZERO);
    api.list(&ListParams::default()).await.unwrap();
    assert_eq!(
        server.fault_counts().delayed_requests,
        delayed,
        "no latency once turned off"
    );
    env.stop().await;
}

/// `drop_watches` ends open watches; a watcher resumes from its last revision (no
/// relist while history is kept) and reaches the right state.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropped_watches_end_and_the_watcher_resumes() {
    let env = start().await;
    if skip_unless_embedded(&env, "dropping watches") {
        env.stop().await;
        return;
    }
    let server = env.server().unwrap().clone();
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let version = list_version(&api).await;
    let mut stream = api.watch(&WatchParams::default(), &version).await.unwrap().boxed();
    assert!(server.drop_watches() >= 1);
    let ended = tokio::time::timeout(TIMEOUT, async {
        while let Some(event) = stream.next().await {
            event.unwrap();
        }
    })
    .await;
    assert!(ended.is_ok(), "the dropped watch ended");

    let selector = "suite=dropped";
    for i in 0..5 {
        api.create(
            &PostParams::default(),
            &configmap(&format!("d{i}"), &[("suite", "dropped")], &[]),
        )
        .await
        .unwrap();
    }
    let mirror = Mirror::start(api.clone(), watcher::Config::default().labels(selector));
    mirror.wait_in_sync(&api, selector).await;
    drop_a_watch(&server).await;
    api.patch(
        "d0",
        &PatchParams::default(),
        &Patch::Merge(json!({"data": {"after": "drop"}})),
    )
    .await
    .unwrap();
    api.delete("d1", &DeleteParams::default()).await.unwrap();
    api.create(&PostParams::default(), &configmap("d5", &[("suite", "dropped")], &[]))
        .await
        .unwrap();
    mirror.wait_in_sync(&api, selector).await;
    assert_eq!(mirror.lists(), 1, "the watcher resumed without a relist");
    assert!(server.fault_counts().dropped_watches >= 2);
    assert!(
        server.request_count(Verb::Watch, "configmaps") >= 2,
        "the watcher watched again"
    );
    env.stop().await;
}

/// After a compaction a watcher resuming from an older revision gets 410, relists,
/// and reaches the right state with each object once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compaction_makes_the_watcher_relist() {
    let env = start().await;
    if skip_unless_embedded(&env, "compacting history on demand") {
        env.stop().await;
        return;
    }
    let server = env.server().unwrap().clone();
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let selector = "suite=compacted";
    for i in 0..10 {
        api.create(
            &PostParams::default(),
            &configmap(&format!("c{i}"), &[("suite", "compacted")], &[]),
        )
        .await
        .unwrap();
    }
    let mirror = Mirror::start(api.clone(), watcher::Config::default().labels(selector).page_size(3));
    mirror.wait_in_sync(&api, selector).await;
    let lists_before = server.request_count(Verb::List, "configmaps");

    // Hold the watcher off while history moves on: end its watch until a re-watch has
    // failed, then kube's backoff (at least 800 ms) keeps it away meanwhile.
    let failed = server.fault_counts().failed_requests;
    server.fail_next(1, InjectedFailure::server_error(Verb::Watch, "configmaps"));
    eventually("the watcher's re-watch to fail", || async {
        if server.fault_counts().failed_requests > failed {
            return Some(());
        }
        server.drop_watches();
        None
    })
    .await;
    api.patch(
        "c0",
        &PatchParams::default(),
        &Patch::Merge(json!({"data": {"after": "compaction"}})),
    )
    .await
    .unwrap();
    api.delete("c1", &DeleteParams::default()).await.unwrap();
    api.create(
        &PostParams::default(),
        &configmap("c10", &[("suite", "compacted")], &[]),
    )
    .await
    .unwrap();
    server.compact();

    mirror.wait_in_sync(&api, selector).await;
    assert!(mirror.lists() >= 2, "the watcher relisted after 410 Gone");
    assert!(server.request_count(Verb::List, "configmaps") > lists_before);
    assert_eq!(mirror.duplicates(), 0);
    assert_eq!(mirror.get("c0").unwrap().data.unwrap()["after"], "compaction");
    assert_eq!(server.fault_counts().compactions, 1);
    env.stop().await;
}

/// Ignores the outcomes a racing writer expects (the object is gone or exists).
fn tolerate<T>(result: Result<T, kube::Error>) {
    match result {
        Ok(_) => {}
        Err(kube::Error::Api(status)) if matches!(status.code, 404 | 409) => {}
        Err(error) => panic!("write failed: {error}"),
    }
}

/// Objects keep changing while watches are dropped, history is compacted and a
/// re-watch fails; the watcher still ends with every object's final state, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watcher_survives_faults_while_objects_change() {
    let env = start().await;
    if skip_unless_embedded(&env, "fault injection") {
        env.stop().await;
        return;
    }
    let server = env.server().unwrap().clone();
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let selector = "suite=churn";
    let name = |i: usize| format!("churn-{i:02}");
    for i in 0..20 {
        api.create(&PostParams::default(), &configmap(&name(i), &[("suite", "churn")], &[]))
            .await
            .unwrap();
    }
    let mirror = Mirror::start(api.clone(), watcher::Config::default().labels(selector).page_size(7));
    mirror.wait_in_sync(&api, selector).await;

    let writer = {
        let (api, server) = (api.clone(), server.clone());
        tokio::spawn(async move {
            for round in 0..150_usize {
                let target = name(round % 20);
                match round % 7 {
                    0 => tolerate(api.delete(&target, &DeleteParams::default()).await),
                    1 => tolerate(
                        api.create(&PostParams::default(), &configmap(&target, &[("suite", "churn")], &[]))
                            .await,
                    ),
                    // Leaving and re-entering the selector.
                    2 => tolerate(
                        api.patch(
                            &target,
                            &PatchParams::default(),
                            &Patch::Merge(json!({"metadata": {"labels": {"suite": "away"}}})),
                        )
                        .await,
                    ),
                    3 => tolerate(
                        api.patch(
                            &target,
                            &PatchParams::default(),
                            &Patch::Merge(json!({"metadata": {"labels": {"suite": "churn"}}})),
                        )
                        .await,
                    ),
                    _ => {
                        let patch = json!({"data": {"round": round.to_string()}});
                        tolerate(api.patch(&target, &PatchParams::default(), &Patch::Merge(patch)).await);
                    }
                }
                match round {
                    25 | 100 => {
                        server.drop_watches();
                    }
                    50 => server.compact(),
                    75 => {
                        server.fail_next(1, InjectedFailure::server_error(Verb::Watch, "configmaps"));
                        server.drop_watches();
                    }
                    125 => {
                        server.compact();
                        server.drop_watches();
                    }
                    _ => {}
                }
                tokio::task::yield_now().await;
            }
        })
    };
    writer.await.unwrap();
    // A last change after the faults, which the watcher must also see.
    api.create(
        &PostParams::default(),
        &configmap("churn-final", &[("suite", "churn")], &[]),
    )
    .await
    .unwrap();
    mirror.wait_in_sync(&api, selector).await;
    assert_eq!(mirror.duplicates(), 0, "no list reported an object twice");
    let counts = server.fault_counts();
    assert_eq!(counts.compactions, 2);
    assert!(counts.dropped_watches >= 1, "{counts:?}");
    env.stop().await;
}
