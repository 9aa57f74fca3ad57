//! The server under hostile and heavy traffic, over real sockets: floods of idle,
//! handshake-stalling and slowloris connections, maximal bodies from many clients at
//! once, and HTTP/2 only when asked. Each test asserts that kube-apiserver's reviews
//! are still answered (functional checks; the latency figures are in `benches/`).

mod common;

use std::time::Duration;

use bytes::Bytes;
use common::{AllowAll, Client, HUNG, VALIDATE, local, review, review_of, start};
use http_body_util::{BodyExt as _, Full};
use hyper_util::rt::{TokioExecutor, TokioIo};
use k8s_openapi::api::core::v1::ConfigMap;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;
use wheelhouse_webhook::{Certificates, Defaulter, Denied, Request, WebhookOptions, WebhookServer};

/// Reads until the peer closes (or `HUNG` passes): true when it closed.
async fn closed_by_server<S: tokio::io::AsyncRead + Unpin>(stream: &mut S) -> bool {
    let mut buffer = [0_u8; 1024];
    let reading = async {
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    };
    tokio::time::timeout(HUNG, reading).await.is_ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_bound_the_longest_idle_connection_makes_room() {
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let options = WebhookOptions {
        max_connections: 2,
        ..local(&certificates)
    };
    let (address, stop, running) = start(WebhookServer::new(options).validator::<ConfigMap>(AllowAll));
    let client = Client::trusting(certificates.ca_bundle());
    let mut oldest = client.tls(address).await.unwrap();
    tokio::time::sleep(Duration::from_millis(20)).await;
    let mut newer = client.connect(address).await.unwrap();
    newer.allowed("newer").await.unwrap();

    // A third connection is served at once, and the one idle longest is closed for it.
    let mut third = tokio::time::timeout(HUNG, client.connect(address))
        .await
        .expect("accepting never waits for a slot")
        .unwrap();
    third.allowed("third").await.unwrap();
    assert!(
        closed_by_server(&mut oldest).await,
        "the longest-idle connection was closed"
    );
    stop.cancel();
    running.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reviews_are_answered_while_idle_stalled_and_slowloris_connections_are_held() {
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let options = WebhookOptions {
        max_connections: 64,
        max_connections_per_peer: 64,
        ..local(&certificates)
    };
    let (address, stop, running) = start(WebhookServer::new(options).validator::<ConfigMap>(AllowAll));
    let client = Client::trusting(certificates.ca_bundle());

    // Five times the bound: TCP connections that never start TLS, TLS connections
    // that never send a request, and ones that send a header a byte at a time.
    let mut held = Vec::new();
    for _ in 0..120 {
        held.push(TcpStream::connect(address).await.unwrap());
    }
    let mut idle_tls = Vec::new();
    for _ in 0..100 {
        if let Ok(tls) = client.tls(address).await {
            idle_tls.push(tls);
        }
    }
    let mut slowloris = Vec::new();
    for _ in 0..100 {
        if let Ok(mut tls) = client.tls(address).await {
            let _ = tls
                .write_all(b"POST /validate--v1-configmap HTTP/1.1\r\nHost: x\r\n")
                .await;
            slowloris.push(tls);
        }
    }
    let trickle = tokio::spawn(async move {
        for _ in 0..20 {
            for tls in &mut slowloris {
                let _ = tls.write_all(b"X").await;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        slowloris
    });

    // kube-apiserver's fresh connections are served throughout.
    for i in 0..20 {
        let review = async {
            let mut connection = client.connect(address).await.map_err(|e| e.to_string())?;
            connection.allowed(&format!("valid-{i}")).await
        };
        tokio::time::timeout(HUNG, review)
            .await
            .expect("a review was answered during the flood")
            .unwrap();
    }
    drop(trickle.await.unwrap());
    drop((held, idle_tls));
    stop.cancel();
    running.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_handshake_and_a_slow_header_are_closed_but_an_idle_connection_waits_its_turn() {
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let options = WebhookOptions {
        handshake_timeout: Duration::from_millis(200),
        header_read_timeout: Duration::from_millis(300),
        idle_timeout: Duration::from_mins(1),
        ..local(&certificates)
    };
    let (address, stop, running) = start(WebhookServer::new(options).validator::<ConfigMap>(AllowAll));
    let client = Client::trusting(certificates.ca_bundle());

    let mut stalled = TcpStream::connect(address).await.unwrap();
    assert!(
        closed_by_server(&mut stalled).await,
        "a handshake that never came is closed"
    );

    let idle = client.tls(address).await.unwrap();
    let mut slow = client.tls(address).await.unwrap();
    slow.write_all(b"POST /validate--v1-configmap HTTP/1.1\r\n")
        .await
        .unwrap();
    assert!(
        closed_by_server(&mut slow).await,
        "a header not whole in time is closed"
    );
    // The idle one is timed from its last answer by the longer idle timeout: it is
    // still open, and serves a request.
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(idle)).await.unwrap();
    let driver = tokio::spawn(connection);
    let request = http::Request::post(VALIDATE)
        .header("content-type", "application/json")
        .header("host", "127.0.0.1")
        .body(Full::new(review("idle")))
        .unwrap();
    let answer = sender
        .send_request(request)
        .await
        .expect("the idle connection was kept");
    assert_eq!(answer.status(), 200);
    drop(sender);
    let _ = driver.await;
    stop.cancel();
    running.await.unwrap();
}

/// Labels every `ConfigMap`, after reading all of it.
struct Label;

impl Defaulter<ConfigMap> for Label {
    async fn apply_defaults(&self, map: &mut ConfigMap, _: &Request) -> Result<(), Denied> {
        map.metadata.labels.get_or_insert_with(Default::default).insert(
            "seen".into(),
            map.data.as_ref().map_or(0, std::collections::BTreeMap::len).to_string(),
        );
        Ok(())
    }
}

/// A review of a `ConfigMap` whose data makes the body about `bytes` long.
fn large_review(name: &str, bytes: usize) -> Bytes {
    let entries = bytes / 30;
    let data: serde_json::Map<String, serde_json::Value> =
        (0..entries).map(|i| (format!("key-{i:012}"), "value".into())).collect();
    review_of(
        name,
        &serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": data}),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn maximal_bodies_from_many_clients_leave_the_probes_and_other_reviews_answering() {
    let env = wheelhouse_envtest::TestEnv::embedded().await.unwrap();
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let options = WebhookOptions {
        decision_threads: 1,
        ..local(&certificates)
    };
    let mut server = WebhookServer::new(options)
        .defaulter::<ConfigMap>(Label)
        .validator::<ConfigMap>(AllowAll);
    let address = server.bind().unwrap();
    let manager = wheelhouse_manager::Manager::builder(env.client().clone())
        .health_probe_address(Some("127.0.0.1:0".parse().unwrap()))
        .metrics_address(None)
        .build()
        .unwrap();
    let health = manager.health_probe_address().expect("the probe server is bound");
    manager.add(server).unwrap();
    let shutdown = manager.shutdown_token();
    let managing = tokio::spawn(async move { manager.run().await });
    let probe = hyper_util::client::legacy::Client::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    tokio::time::timeout(HUNG, async {
        while probe
            .get(format!("http://{health}/readyz").parse().unwrap())
            .await
            .map_or(true, |answer| answer.status() != 200)
        {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the manager got ready");

    let client = Client::trusting(certificates.ca_bundle());
    let body = large_review("large", 7 * 1024 * 1024 - 4096);
    let heavy: Vec<_> = (0..4)
        .map(|_| {
            let (client, body) = (client.clone(), body.clone());
            tokio::spawn(async move {
                let mut answered = 0;
                for _ in 0..2 {
                    let mut connection = client.connect(address).await.unwrap();
                    let (status, _) = connection.post("/mutate--v1-configmap", body.clone()).await.unwrap();
                    assert!(status == 200 || status == 504 || status == 429, "{status}");
                    answered += 1;
                }
                answered
            })
        })
        .collect();

    for _ in 0..20 {
        let answer = tokio::time::timeout(HUNG, probe.get(format!("http://{health}/healthz").parse().unwrap()))
            .await
            .expect("/healthz answered while decisions ran")
            .unwrap();
        assert_eq!(answer.status(), 200);
        let mut connection = client.connect(address).await.unwrap();
        connection.allowed("small").await.unwrap();
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for client in heavy {
        assert_eq!(client.await.unwrap(), 2);
    }
    shutdown.cancel();
    managing.await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http2_is_offered_only_when_enabled() {
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let h2_only = Client::with_alpn(certificates.ca_bundle(), &[b"h2"]);

    let (address, stop, running) = start(WebhookServer::new(local(&certificates)).validator::<ConfigMap>(AllowAll));
    let refused = h2_only.tls(address).await;
    assert!(
        refused.is_err(),
        "a client that speaks only HTTP/2 finds no protocol by default"
    );
    let mut http1 = Client::trusting(certificates.ca_bundle())
        .connect(address)
        .await
        .unwrap();
    http1.allowed("http1").await.unwrap();
    stop.cancel();
    running.await.unwrap();

    let options = WebhookOptions {
        http2: true,
        ..local(&certificates)
    };
    let (address, stop, running) = start(WebhookServer::new(options).validator::<ConfigMap>(AllowAll));
    let tls = h2_only.tls(address).await.unwrap();
    assert_eq!(tls.get_ref().1.alpn_protocol(), Some(&b"h2"[..]));
    let (mut sender, connection) = hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(tls))
        .await
        .unwrap();
    let driver = tokio::spawn(connection);
    let requests: Vec<_> = (0..8)
        .map(|i| {
            http::Request::post(VALIDATE)
                .header("content-type", "application/json")
                .body(Full::new(review(&format!("h2-{i}"))))
                .unwrap()
        })
        .collect();
    let answers = futures::future::join_all(requests.into_iter().map(|r| sender.send_request(r))).await;
    for answer in answers {
        let answer = answer.unwrap();
        assert_eq!(answer.status(), 200);
        let body = answer.into_body().collect().await.unwrap().to_bytes();
        assert!(String::from_utf8_lossy(&body).contains("\"allowed\":true"));
    }
    drop(sender);
    let _ = driver.await;
    stop.cancel();
    running.await.unwrap();
}
