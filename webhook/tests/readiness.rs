//! `/readyz` under a manager tells when the server's bytes in flight have had no room
//! for longer than a review may take: reviews sent to such a replica could only be
//! refused, so it is taken out of its Service until the room comes back.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{Client, HUNG, VALIDATE, local, review, review_of};
use k8s_openapi::api::core::v1::ConfigMap;
use serde_json::json;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio_util::sync::CancellationToken;
use wheelhouse_envtest::{TestEnv, eventually};
use wheelhouse_manager::Manager;
use wheelhouse_webhook::{Certificates, Denied, Request, Validator, Warnings, WebhookOptions, WebhookServer};

/// Allows every `ConfigMap`, but decides on one named `stuck` for three seconds
/// without an await point: its deadline cannot stop it, so its bytes stay held.
struct StuckOnOne;

impl Validator<ConfigMap> for StuckOnOne {
    async fn validate_create(&self, map: &ConfigMap, _: &Request) -> Result<Warnings, Denied> {
        if map.metadata.name.as_deref() == Some("stuck") {
            std::thread::sleep(Duration::from_secs(3));
        }
        Ok(Vec::new())
    }
    async fn validate_update(&self, _: &ConfigMap, new: &ConfigMap, request: &Request) -> Result<Warnings, Denied> {
        self.validate_create(new, request).await
    }
}

fn padded(name: &str, bytes: usize) -> bytes::Bytes {
    review_of(
        name,
        &json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"k": "v".repeat(bytes)}}),
    )
}

async fn get(address: SocketAddr, path: &str) -> String {
    let mut tcp = tokio::net::TcpStream::connect(address).await.unwrap();
    tcp.write_all(format!("GET {path} HTTP/1.1\r\nhost: probe\r\nconnection: close\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let mut answer = String::new();
    tcp.read_to_string(&mut answer).await.unwrap();
    answer
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_budget_with_no_room_for_longer_than_a_review_fails_readyz_until_it_has_room() {
    let env = TestEnv::embedded().await.unwrap();
    let shutdown = CancellationToken::new();
    let manager = Manager::builder(env.client())
        .shutdown_signal(shutdown.clone())
        .health_probe_address(Some(([127, 0, 0, 1], 0).into()))
        .build()
        .unwrap();
    let probes = manager.health_probe_address().unwrap();
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let options = WebhookOptions {
        // Bodies under 64 KiB share 64 KiB; decisions go to their threads.
        max_in_flight_bytes: 512 * 1024,
        request_timeout: Duration::from_millis(500),
        in_flight_wait: Duration::from_millis(200),
        inline_decision_bytes: 0,
        decision_threads: 2,
        ..local(&certificates)
    };
    let mut server = WebhookServer::new(options).validator::<ConfigMap>(StuckOnOne);
    let port = server.bind().unwrap().port();
    manager.add(server).unwrap();
    let running = tokio::spawn(manager.run());
    let address = SocketAddr::from(([127, 0, 0, 1], port));
    let check = format!("/readyz/webhook-budget-{port}");
    let ready = || async { get(probes, &check).await.starts_with("HTTP/1.1 200") };
    eventually("the budget's check to pass at start", || async {
        ready().await.then_some(())
    })
    .await;

    // 50 KB decided for three seconds, answered 504 at its half-second deadline but
    // held until the decision ends; a review of 30 KB then finds no room.
    let client = Client::trusting(certificates.ca_bundle());
    let mut stuck = eventually("the server to accept", || async { client.connect(address).await.ok() }).await;
    let (status, _) = stuck.post(VALIDATE, padded("stuck", 50_000)).await.unwrap();
    assert_eq!(status, 504);
    let mut waiting = client.connect(address).await.unwrap();
    let (status, body) = waiting.post(VALIDATE, padded("waiting", 30_000)).await.unwrap();
    assert_eq!(status, 429, "{}", String::from_utf8_lossy(&body));
    eventually("/readyz to fail once no room came for longer than a review", || async {
        (!ready().await).then_some(())
    })
    .await;
    assert!(get(probes, "/readyz?verbose").await.contains("[-]webhook-budget-"));

    // The decision ends and gives its room back: a review is served, and the check passes.
    tokio::time::timeout(HUNG, async {
        loop {
            let mut connection = client.connect(address).await.unwrap();
            if connection.post(VALIDATE, review("after")).await.unwrap().0 == 200 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await
    .expect("served once the room is back");
    assert!(ready().await);
    shutdown.cancel();
    tokio::time::timeout(HUNG, running)
        .await
        .expect("the manager stops")
        .unwrap()
        .unwrap();
    env.stop().await;
}
