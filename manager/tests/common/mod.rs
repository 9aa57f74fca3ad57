//! Helpers shared by the manager's tests: HTTP requests to the probe server, and
//! replicas (the examples' replica harness) whose leader-only work records when it ran.

#![allow(dead_code, reason = "each test binary uses a part")]

use std::net::SocketAddr;
use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams, PostParams};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use wheelhouse_envtest::{TestEnv, WriteWitness};
use wheelhouse_examples::replicas::{Replica, Timeline, client_of};
use wheelhouse_manager::{LeaderElection, Runnable, Stop, runnable_fn};

/// Status code and body of `GET path` on `address`.
pub async fn get(address: SocketAddr, path: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(address).await.expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut response = String::new();
    stream.read_to_string(&mut response).await.expect("read");
    status_and_body(&response)
}

/// The status code and body of a whole HTTP/1.1 response.
pub fn status_and_body(response: &str) -> (u16, String) {
    let status = response
        .split(' ')
        .nth(1)
        .and_then(|code| code.parse().ok())
        .expect("a status line");
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_owned())
        .unwrap_or_default();
    (status, body)
}

/// Starts replica `index`, whose only leader-only work records on `timeline` while it
/// runs (it runs until asked to stop).
pub fn worker(env: &TestEnv, index: usize, election: LeaderElection, timeline: &Timeline) -> Replica {
    let timeline = timeline.clone();
    Replica::start(&client_of(env, index), env.namespace(), index, election, |manager| {
        manager.add(runnable_fn("work", true, move |stop: Stop| {
            let timeline = timeline.clone();
            async move {
                let _ending = timeline.begin(index, "work");
                while !stop.is_requested() {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
                Ok(())
            }
        }))
    })
    .expect("a replica")
}

/// Leader-only work for replica `index`: creates the `ConfigMap` `written-by-<index>`
/// and patches it every `pause` until asked to stop, recorded on `timeline` while it
/// runs. Once its term ends, the fence refuses its writes and the loop sees the stop.
pub fn config_map_writer(
    client: kube::Client,
    namespace: &str,
    index: usize,
    timeline: &Timeline,
    pause: Duration,
) -> impl Runnable {
    let timeline = timeline.clone();
    let namespace = namespace.to_owned();
    runnable_fn("writer", true, move |stop: Stop| {
        let timeline = timeline.clone();
        let api: Api<ConfigMap> = Api::namespaced(client.clone(), &namespace);
        async move {
            let _ending = timeline.begin(index, "write");
            let name = format!("written-by-{index}");
            let mut config = ConfigMap::default();
            config.metadata.name = Some(name.clone());
            let _ = api.create(&PostParams::default(), &config).await;
            for count in 0_u64.. {
                if stop.is_requested() {
                    break;
                }
                let patch = json!({"data": {"count": count.to_string()}});
                let _ = api.patch(&name, &PatchParams::default(), &Patch::Merge(&patch)).await;
                tokio::time::sleep(pause).await;
            }
            Ok(())
        }
    })
}

/// Every `ConfigMap` write a replica (user `replica-<index>`) sent arrived while its
/// leader-only work ran; or, where `late_allowed` (an existing cluster, reached over
/// TCP: a request cancelled when its term ended may have had its bytes on the way),
/// at least before another replica's term began. Returns how many were checked.
pub fn assert_writes_fenced(witness: &WriteWitness, timeline: &Timeline, late_allowed: bool) -> usize {
    timeline.assert_writes_fenced(
        &witness.writes(),
        |write| (write.resource == "configmaps").then_some(None),
        late_allowed,
    )
}
