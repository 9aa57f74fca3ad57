//! `cargo bench --bench envtest`: the embedded API server under the load of a test
//! suite: start-up, 10,000 creates, a paginated list of them, and their watch events
//! delivered to 10 concurrent watchers; then the two paths kubectl takes: 10,000 creates
//! sent as protobuf (against the same creates sent as JSON) and a Table list of 10,000
//! Deployments (against the same list as JSON).
//!
//! Targets: start-up under 20 ms, so a suite can start hundreds of servers,
//! and a list of 10,000 objects under 50 ms. Each figure is printed beside an anchor
//! from the same run: for start-up, building a bare `kube::Client` over an in-memory
//! service (what any in-process server costs at least); for the list, decoding the
//! same 10,000 `ConfigMaps` from JSON with serde alone (what the client's own decoding
//! costs, which no server can go below).
//!
//! `ENVTEST_BENCH_OBJECTS` changes the object count (default 10,000).

#[allow(dead_code, reason = "each benchmark uses a part of the shared helpers")]
mod support;

use std::time::{Duration, Instant};

use futures::{StreamExt, TryStreamExt};
use http_body_util::BodyExt;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, ListParams, PostParams, WatchEvent, WatchParams};
use prost::Message;
use support::{median, millis, per_second, runtime, setting};
use wheelhouse_envtest::{ApiServer, ServerOptions, TestEnv};

const WATCHERS: usize = 10;
const STARTUP_RUNS: usize = 50;

fn objects() -> usize {
    setting("ENVTEST_BENCH_OBJECTS", 10_000)
}

fn configmap(n: usize) -> ConfigMap {
    let mut config = ConfigMap::default();
    config.metadata.name = Some(format!("object-{n}"));
    config.metadata.labels = Some([("app".to_owned(), "bench".to_owned())].into());
    config.data = Some([("key".to_owned(), "x".repeat(64))].into());
    config
}

async fn startup() {
    let mut ours = Vec::new();
    let mut anchor = Vec::new();
    for _ in 0..STARTUP_RUNS {
        let start = Instant::now();
        let env = TestEnv::embedded().await.expect("the embedded server starts");
        ours.push(start.elapsed());
        env.stop().await;
        let start = Instant::now();
        let client = kube::Client::new(ApiServer::new(ServerOptions::default()), "default");
        anchor.push(start.elapsed());
        drop(client);
    }
    let (ours, anchor) = (median(ours), median(anchor));
    println!("bench=startup impl=wheelhouse ms={:.3} target_ms=20", millis(ours));
    println!("bench=startup impl=bare-client-over-server ms={:.3}", millis(anchor));
    println!(
        "ratio bench=startup wheelhouse/bare-client={:.2}",
        ours.as_secs_f64() / anchor.as_secs_f64()
    );
}

async fn load(count: usize) {
    let env = TestEnv::embedded().await.expect("the embedded server starts");
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let from = api
        .list(&ListParams::default())
        .await
        .expect("list")
        .metadata
        .resource_version
        .expect("a revision");

    // Watchers first, from the revision before the creates, so each sees every create.
    let watchers: Vec<_> = (0..WATCHERS)
        .map(|_| {
            let api = api.clone();
            let from = from.clone();
            tokio::spawn(async move {
                let mut events = api.watch(&WatchParams::default(), &from).await.expect("watch").boxed();
                let mut seen = 0;
                while seen < count {
                    match events.try_next().await.expect("a watch event") {
                        Some(WatchEvent::Added(_)) => seen += 1,
                        Some(_) => {}
                        None => panic!("the watch ended after {seen} events"),
                    }
                }
                Instant::now()
            })
        })
        .collect();

    let start = Instant::now();
    let mut creates = futures::stream::iter(0..count)
        .map(|n| {
            let api = api.clone();
            async move { api.create(&PostParams::default(), &configmap(n)).await.expect("create") }
        })
        .buffer_unordered(16);
    while creates.next().await.is_some() {}
    let create_time = start.elapsed();
    println!(
        "bench=create impl=wheelhouse objects={count} objects_per_s={:.0}",
        per_second(count, create_time)
    );

    let mut last = start;
    for watcher in watchers {
        last = last.max(watcher.await.expect("watcher"));
    }
    let delivered = last - start;
    println!(
        "bench=watch impl=wheelhouse watchers={WATCHERS} events_per_s={:.0} (all {} events delivered {:.0} ms after the first create)",
        per_second(count * WATCHERS, delivered),
        count * WATCHERS,
        millis(delivered)
    );

    let mut lists = Vec::new();
    let mut decodes = Vec::new();
    let mut body = Vec::new();
    for _ in 0..7 {
        let start = Instant::now();
        let mut params = ListParams::default().limit(500);
        let mut items = 0;
        loop {
            let page = api.list(&params).await.expect("list page");
            items += page.items.len();
            match page.metadata.continue_ {
                Some(token) if !token.is_empty() => params = params.continue_token(&token),
                _ => break,
            }
        }
        assert_eq!(items, count, "the paginated list lost or repeated objects");
        lists.push(start.elapsed());

        let all = api.list(&ListParams::default()).await.expect("list");
        body = serde_json::to_vec(&all.items).expect("encode");
        let start = Instant::now();
        let items: Vec<ConfigMap> = serde_json::from_slice(&body).expect("decode");
        decodes.push(start.elapsed());
        assert_eq!(items.len(), count);
    }
    let (list_time, decode_time) = (median(lists), median(decodes));
    println!(
        "bench=list impl=wheelhouse objects={count} pages_of=500 ms={:.1} objects_per_s={:.0} target_ms=50",
        millis(list_time),
        per_second(count, list_time)
    );
    println!(
        "bench=list impl=serde-decode-only objects={count} bytes={} ms={:.1}",
        body.len(),
        millis(decode_time)
    );
    println!(
        "ratio bench=list wheelhouse/serde-decode={:.2}",
        list_time.as_secs_f64() / decode_time.as_secs_f64()
    );
    env.stop().await;
}

/// A `ConfigMap` as `kubectl create configmap` sends it: protobuf in the `k8s\0` envelope.
fn protobuf_configmap(n: usize) -> Vec<u8> {
    use k8s_pb::apimachinery::pkg::runtime::{TypeMeta, Unknown};
    let config = k8s_pb::api::core::v1::ConfigMap {
        metadata: Some(k8s_pb::apimachinery::pkg::apis::meta::v1::ObjectMeta {
            name: Some(format!("object-{n}")),
            labels: [("app".to_owned(), "bench".to_owned())].into(),
            ..Default::default()
        }),
        data: [("key".to_owned(), "x".repeat(64))].into(),
        ..Default::default()
    };
    let unknown = Unknown {
        type_meta: Some(TypeMeta {
            api_version: Some("v1".to_owned()),
            kind: Some("ConfigMap".to_owned()),
        }),
        raw: Some(config.encode_to_vec()),
        content_encoding: Some(String::new()),
        content_type: Some(String::new()),
    };
    [b"k8s\0".as_slice(), &unknown.encode_to_vec()].concat()
}

/// Sends one raw request and reads its whole body; the body's size.
async fn send(client: &kube::Client, method: &str, path: &str, headers: [(&str, &str); 2], body: Vec<u8>) -> usize {
    let mut request = http::Request::builder().method(method).uri(path);
    for (name, value) in headers {
        request = request.header(name, value);
    }
    let request = request.body(kube::client::Body::from(body)).expect("a request");
    let response = client.send(request).await.expect("the server answers");
    assert!(response.status().is_success(), "{method} {path}: {}", response.status());
    let body = response.into_body().collect().await.expect("a body").to_bytes();
    body.len()
}

/// `count` creates of pre-encoded bodies, 16 at a time, into a fresh server.
async fn timed_creates(content_type: &str, bodies: Vec<Vec<u8>>) -> Duration {
    let env = TestEnv::embedded().await.expect("the embedded server starts");
    let client = env.client();
    let path = format!("/api/v1/namespaces/{}/configmaps", env.namespace());
    let start = Instant::now();
    let mut creates = futures::stream::iter(bodies)
        .map(|body| {
            let (client, path) = (client.clone(), path.clone());
            async move {
                let headers = [("content-type", content_type), ("accept", "application/json")];
                send(&client, "POST", &path, headers, body).await
            }
        })
        .buffer_unordered(16);
    while creates.next().await.is_some() {}
    let elapsed = start.elapsed();
    env.stop().await;
    elapsed
}

/// 10,000 creates sent as protobuf, as kubectl sends built-in objects, against the
/// same objects sent as JSON: both pre-encoded, so the figures are the server's.
async fn protobuf_creates(count: usize) {
    let mut protobuf = Vec::new();
    let mut json = Vec::new();
    for _ in 0..3 {
        let bodies = (0..count).map(protobuf_configmap).collect();
        protobuf.push(timed_creates("application/vnd.kubernetes.protobuf", bodies).await);
        let mut bodies = Vec::with_capacity(count);
        for n in 0..count {
            let mut object = serde_json::to_value(configmap(n)).expect("JSON");
            object["apiVersion"] = "v1".into();
            object["kind"] = "ConfigMap".into();
            bodies.push(serde_json::to_vec(&object).expect("JSON"));
        }
        json.push(timed_creates("application/json", bodies).await);
    }
    let (protobuf, json) = (median(protobuf), median(json));
    println!(
        "bench=create-protobuf impl=wheelhouse objects={count} objects_per_s={:.0}",
        per_second(count, protobuf)
    );
    println!(
        "bench=create-protobuf impl=same-creates-as-json objects={count} objects_per_s={:.0}",
        per_second(count, json)
    );
    println!(
        "ratio bench=create-protobuf protobuf/json={:.2}",
        protobuf.as_secs_f64() / json.as_secs_f64()
    );
}

/// A Table list of 10,000 Deployments (what `kubectl get deploy` asks for, rows with
/// each object's metadata) against the same list as plain JSON.
async fn table_list(count: usize) {
    let env = TestEnv::embedded().await.expect("the embedded server starts");
    let api: Api<Deployment> = Api::namespaced(env.client(), env.namespace());
    let containers = serde_json::json!([{"name": "web", "image": "registry.k8s.io/pause:3.10"}]);
    let mut creates = futures::stream::iter(0..count)
        .map(|n| {
            let api = api.clone();
            let name = format!("web-{n}");
            let deployment: Deployment = serde_json::from_value(serde_json::json!({
                "metadata": {"name": name},
                "spec": {"replicas": 2, "selector": {"matchLabels": {"app": name}},
                    "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": containers}}},
            }))
            .expect("a Deployment");
            async move { api.create(&PostParams::default(), &deployment).await.expect("create") }
        })
        .buffer_unordered(16);
    while creates.next().await.is_some() {}
    let client = env.client();
    let path = format!("/apis/apps/v1/namespaces/{}/deployments", env.namespace());
    let table = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
    let (mut tables, mut lists) = (Vec::new(), Vec::new());
    let (mut table_bytes, mut list_bytes) = (0, 0);
    for _ in 0..7 {
        let start = Instant::now();
        table_bytes = send(
            &client,
            "GET",
            &path,
            [("accept", table), ("x-bench", "table")],
            Vec::new(),
        )
        .await;
        tables.push(start.elapsed());
        let start = Instant::now();
        list_bytes = send(
            &client,
            "GET",
            &path,
            [("accept", "application/json"), ("x-bench", "json")],
            Vec::new(),
        )
        .await;
        lists.push(start.elapsed());
    }
    let (table_time, list_time) = (median(tables), median(lists));
    println!(
        "bench=table-list impl=wheelhouse objects={count} bytes={table_bytes} ms={:.1}",
        millis(table_time)
    );
    println!(
        "bench=table-list impl=same-list-as-json objects={count} bytes={list_bytes} ms={:.1}",
        millis(list_time)
    );
    println!(
        "ratio bench=table-list table/json={:.2}",
        table_time.as_secs_f64() / list_time.as_secs_f64()
    );
    env.stop().await;
}

fn main() {
    let runtime = runtime();
    println!(
        "envtest bench: {} tokio worker threads",
        runtime.metrics().num_workers()
    );
    runtime.block_on(async {
        startup().await;
        load(objects()).await;
        protobuf_creates(objects()).await;
        table_list(objects()).await;
    });
}
