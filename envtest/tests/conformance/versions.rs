//! What lists and watches may ask of resourceVersions: the window of history a watch
//! can resume from (older is 410 Expired, as from kube-apiserver's watch cache), the
//! `resourceVersionMatch` combinations `ValidateListOptions` refuses (422), and a
//! list from a revision the server has not reached (504 `ResourceVersionTooLarge`
//! after a wait).

use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, ListParams, PostParams, VersionMatch, WatchEvent, WatchParams};
use serde_json::Value;
use wheelhouse_envtest::{ServerOptions, TestEnv, WatchWindow};

use crate::common::{TIMEOUT, api_error, configmap, list_version, skip_unless_embedded, start};
use crate::raw::send;
use crate::served::server_version;

/// The first non-bookmark event of a watch from `version`, or None when a real server
/// stays silent for a while (its history still reaches back that far).
async fn first_event(env: &TestEnv, api: &Api<ConfigMap>, version: &str) -> Option<WatchEvent<ConfigMap>> {
    let stream = api
        .watch(&WatchParams::default(), version)
        .await
        .expect("the watch starts");
    let mut stream = stream.boxed();
    let wait = if env.is_embedded() {
        TIMEOUT
    } else {
        Duration::from_secs(5)
    };
    loop {
        let next = tokio::time::timeout(wait, stream.next()).await.ok()?;
        match next.expect("the watch stays open").expect("the stream does not fail") {
            WatchEvent::Bookmark(_) => {}
            event => return Some(event),
        }
    }
}

/// A watch from revision 1, older than any watch cache's start (kube-apiserver's
/// begins at the list it makes when it starts, after its own objects exist), gets an
/// in-stream ERROR with a 410 Expired `Status` naming the oldest revision it has.
#[tokio::test]
async fn a_watch_from_before_the_history_is_expired_in_the_stream() {
    let env = start().await;
    // 1.19 answered this watch with events in our runs and 1.32 with the ERROR event;
    // the versions between were not probed.
    if crate::schema_common::skip_before(&env, 20, "an ERROR event for a watch from before the window").await {
        env.stop().await;
        return;
    }
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    api.create(&PostParams::default(), &configmap("marker", &[], &[]))
        .await
        .unwrap();
    let Some(event) = first_event(&env, &api, "1").await else {
        eprintln!("skipped: this server's watch cache still holds revision 1");
        env.stop().await;
        return;
    };
    let status = match event {
        WatchEvent::Error(status) => status,
        // A real server started moments ago may still hold revision 1 in its watch
        // cache, and then sends the objects written since as events; the embedded
        // server's history never reaches back that far.
        event if !env.is_embedded() && matches!(event, WatchEvent::Added(_)) => {
            eprintln!("skipped: this server's watch cache still holds revision 1 ({event:?})");
            env.stop().await;
            return;
        }
        event => panic!("expected an ERROR event, got {event:?}"),
    };
    assert_eq!((status.code, status.reason.as_str()), (410, "Expired"));
    assert!(
        status.message.starts_with("too old resource version: 1 ("),
        "message: {}",
        status.message
    );
    env.stop().await;
}

/// An exact list from a revision the server no longer keeps is 410 Expired with
/// etcd's message. A real server keeps revisions until its next etcd compaction
/// (every 5 minutes), so revision 1 is gone from a server older than that.
#[tokio::test]
async fn an_exact_list_from_before_the_history_is_expired() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let params = ListParams::default().at("1").matching(VersionMatch::Exact);
    match api.list(&params).await {
        Ok(_) if !env.is_embedded() => {
            eprintln!("skipped: this cluster's etcd has not compacted revision 1 yet (a young server)");
        }
        result => {
            let status = api_error(result);
            assert_eq!((status.code, status.reason.as_str()), (410, "Expired"));
            assert_eq!(status.message, "The resourceVersion for the provided list is too old.");
        }
    }
    env.stop().await;
}

/// The window is per resource and bounded ([`WatchWindow`]): once a resource has had
/// more events than it keeps, a watch or an exact list from before them is 410, and
/// one from inside the window replays what followed. Embedded only: a real server's
/// window is its own, and minutes long.
#[tokio::test]
async fn history_beyond_the_window_expires() {
    let probe = start().await;
    if skip_unless_embedded(&probe, "a watch window of a chosen size") {
        probe.stop().await;
        return;
    }
    probe.stop().await;
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
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let before = list_version(&api).await;
    for name in ["w1", "w2", "w3", "w4", "w5"] {
        api.create(&PostParams::default(), &configmap(name, &[], &[]))
            .await
            .unwrap();
    }
    let Some(WatchEvent::Error(status)) = first_event(&env, &api, &before).await else {
        panic!("a watch from before the window is refused");
    };
    assert_eq!((status.code, status.reason.as_str()), (410, "Expired"));
    let exact = ListParams::default().at(&before).matching(VersionMatch::Exact);
    assert_eq!(api_error(api.list(&exact).await).code, 410);

    let inside = api.get("w3").await.unwrap().metadata.resource_version.unwrap();
    let Some(WatchEvent::Added(next)) = first_event(&env, &api, &inside).await else {
        panic!("a watch from inside the window replays what followed");
    };
    assert_eq!(next.metadata.name.as_deref(), Some("w4"));
    let exact = ListParams::default().at(&inside).matching(VersionMatch::Exact);
    assert_eq!(api.list(&exact).await.unwrap().items.len(), 3);
    env.stop().await;
}

/// The answer to `GET path` as (code, reason, message).
async fn refused(env: &TestEnv, path: &str) -> (u16, String, String) {
    let answer = send(&env.client(), http::Method::GET, path, None).await;
    let text = |field: &str| answer.body[field].as_str().unwrap_or_default().to_owned();
    (answer.code, text("reason"), text("message"))
}

/// `resourceVersionMatch` without a resourceVersion, `Exact` with 0, a value that is
/// not a match, and a match on a watch: 422 for `ListOptions.meta.k8s.io`, with
/// `ValidateListOptions`' messages (the watch's as 1.27+ words it: 1.19 says only
/// "forbidden for watch").
#[tokio::test]
async fn list_options_that_do_not_go_together_are_invalid() {
    let env = start().await;
    let path = format!("/api/v1/namespaces/{}/configmaps", env.namespace());
    let current = list_version(&Api::namespaced(env.client(), env.namespace())).await;
    let invalid = |detail: &str| {
        (
            422,
            "Invalid".to_owned(),
            format!("ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: {detail}"),
        )
    };
    assert_eq!(
        refused(&env, &format!("{path}?resourceVersionMatch=NotOlderThan")).await,
        invalid("Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided")
    );
    assert_eq!(
        refused(&env, &format!("{path}?resourceVersionMatch=Exact&resourceVersion=0")).await,
        invalid("Forbidden: resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"")
    );
    assert_eq!(
        refused(
            &env,
            &format!("{path}?resourceVersionMatch=Newest&resourceVersion={current}")
        )
        .await,
        invalid("Unsupported value: \"Newest\": supported values: \"Exact\", \"NotOlderThan\", \"\"")
    );
    let watch = refused(
        &env,
        &format!("{path}?watch=true&resourceVersionMatch=Exact&resourceVersion={current}"),
    )
    .await;
    assert_eq!((watch.0, watch.1.as_str()), (422, "Invalid"), "{watch:?}");
    let minor: u32 = server_version(&env)
        .await
        .split('.')
        .nth(1)
        .and_then(|m| m.parse().ok())
        .unwrap_or(0);
    if minor >= 27 {
        assert_eq!(
            watch.2,
            "ListOptions.meta.k8s.io \"\" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided, resourceVersionMatch: Unsupported value: \"Exact\": supported values: \"NotOlderThan\"]"
        );
    }
    env.stop().await;
}

/// A list from a resourceVersion the server has not reached waits for it (the watch
/// cache waits 3 s), then answers 504 `Timeout` with the `ResourceVersionTooLarge`
/// cause and a retry after 1 s; a paged list, which kube-apiserver reads from etcd,
/// answers at once.
#[tokio::test]
async fn a_list_from_a_future_resource_version_times_out() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let current: u64 = list_version(&api).await.parse().expect("a numeric resourceVersion");
    let future = (current + 1_000_000).to_string();
    // kube's default client retries a 504 up to 15 times, for minutes: this test reads
    // the answer itself.
    let client = if env.is_embedded() {
        env.client()
    } else {
        let mut config = env.config_for("conformance").expect("the cluster's configuration");
        config.default_retry = false;
        kube::Client::try_from(config).expect("a client")
    };
    let path = format!("/api/v1/namespaces/{}/configmaps", env.namespace());
    let modern = env.is_embedded() || crate::schema_common::server_minor(&env).await >= 32;
    // Served from the watch cache: a wait for the revision, then a 504 to retry after 1 s
    // (a page too on 1.32; 1.19 gives a page's 504 no retry advice).
    for (query, retry) in [
        (
            format!("resourceVersion={future}&resourceVersionMatch=NotOlderThan"),
            Some(1),
        ),
        (format!("resourceVersion={future}"), Some(1)),
        (
            format!("resourceVersion={future}&resourceVersionMatch=NotOlderThan&limit=10"),
            modern.then_some(1),
        ),
    ] {
        let answer = send(&client, http::Method::GET, &format!("{path}?{query}"), None).await;
        let body = &answer.body;
        assert_eq!(
            (answer.code, body["reason"].as_str()),
            (504, Some("Timeout")),
            "{query}: {body}"
        );
        let message = body["message"].as_str().unwrap_or_default();
        assert!(
            message.starts_with(&format!("Timeout: Too large resource version: {future}, current: ")),
            "{query}: {message}"
        );
        assert_eq!(
            body["details"]["causes"][0]["reason"],
            Value::from("ResourceVersionTooLarge"),
            "{query}"
        );
        assert_eq!(body["details"]["retryAfterSeconds"].as_u64(), retry, "{query}");
    }
    // Read from etcd at that exact revision: refused at once (1.19 and 1.32 alike).
    for query in [
        format!("resourceVersion={future}&resourceVersionMatch=Exact"),
        format!("resourceVersion={future}&limit=10"),
    ] {
        let answer = send(&client, http::Method::GET, &format!("{path}?{query}"), None).await;
        assert_eq!(
            (answer.code, answer.body["message"].as_str()),
            (500, Some("etcdserver: mvcc: required revision is a future revision")),
            "{query}: {}",
            answer.body
        );
    }
    env.stop().await;
}
