//! The webhook server under hostile and heavy traffic, beside the same measure on a
//! quiet server from the same run:
//!
//! - `bench=webhook-abuse kind=idle-flood conns=2000 p99_ms=X quiet_p99_ms=Y`: valid
//!   reviews, each on a fresh connection (TCP, TLS, one request) as kube-apiserver
//!   opens them, while 2,000 TLS connections that send nothing and 200 that send a
//!   header a byte a second are held from ten other addresses (127.0.0.2-11);
//! - `bench=webhook-heavy clients=8 healthz_p99_ms=X quiet_healthz_p99_ms=Y`: the
//!   manager's `/healthz` while 8 clients send maximal (7 MiB) mutate bodies back to
//!   back, on the servers' one I/O thread and one decision thread;
//! - `bench=webhook-memory shape=S body_mib=7 peak_extra_mib=X factor=F`: the peak of
//!   bytes allocated while one maximal mutate is answered (the body's copy, the typed
//!   object, its two encodings, the patch), over the body's size, for bodies whose
//!   bulk the type does not model, models as one string, and models as a map; and
//!   `type_floor=G`, the peak of nothing but decoding the same object into the WebApp
//!   type (no framework at all), so `F - G` is what the framework adds and `G` is the
//!   type's own cost, which no webhook that hands the defaulter a typed object can avoid.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper_util::rt::{TokioExecutor, TokioIo};
use rustls::pki_types::ServerName;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt as _;
use tokio::net::{TcpSocket, TcpStream};
use tokio_rustls::TlsConnector;
use tokio_util::sync::CancellationToken;
use wheelhouse::webhook::{Certificates, WebhookOptions};

use crate::support::{millis, percentile};
use crate::{PEAK, webhooks};

const MUTATE: &str = "/mutate-example-com-v1-webapp";
const VALIDATE: &str = "/validate-example-com-v1-webapp";
const MAXIMAL: usize = 7 * 1024 * 1024 - 16 * 1024;

/// p99 of `samples`, in milliseconds.
fn p99_ms(samples: &mut [Duration]) -> f64 {
    percentile(samples, 99).map_or(0.0, millis)
}

/// A review of creating a WebApp whose `bulk` makes the body `bytes` long.
fn review_with(shape: &str, bytes: usize) -> Bytes {
    let mut object = json!({
        "apiVersion": "example.com/v1", "kind": "WebApp",
        "metadata": {"name": "bulky", "namespace": "shop"},
        "spec": {"image": "nginx:1.27"},
    });
    match shape {
        // Fields the WebApp type does not know, as an attacker sends them.
        "unknown-fields" => object["spec"]["extra"] = Value::Array((0..bytes / 8).map(|i| json!(i % 1000)).collect()),
        // One string the type keeps.
        "one-string" => object["metadata"]["annotations"] = json!({"note": "x".repeat(bytes)}),
        // A map of short strings the type keeps, entry by entry.
        _ => {
            object["metadata"]["annotations"] =
                Value::Object((0..bytes / 24).map(|i| (format!("k{i:09}"), json!("value"))).collect());
        }
    }
    Bytes::from(
        json!({
            "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
            "request": {
                "uid": "bulky-uid",
                "kind": {"group": "example.com", "version": "v1", "kind": "WebApp"},
                "resource": {"group": "example.com", "version": "v1", "resource": "webapps"},
                "name": "bulky", "namespace": "shop", "operation": "CREATE",
                "userInfo": {"username": "alice"}, "object": object,
            }
        })
        .to_string(),
    )
}

/// A maximal body of `shape`, trimmed to just under the 7 MiB limit.
pub fn maximal(shape: &str) -> Bytes {
    let first = review_with(shape, MAXIMAL);
    let scaled = MAXIMAL * MAXIMAL / first.len();
    review_with(shape, scaled)
}

pub fn memory() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    for shape in ["unknown-fields", "one-string", "map-of-strings"] {
        let body = maximal(shape);
        let server = webhooks::webhook_server(WebhookOptions::default());
        let extra = runtime.block_on(async {
            let request = http::Request::post(MUTATE)
                .header("content-type", "application/json")
                .body(Full::new(body.clone()))
                .expect("a request");
            PEAK.reset_peak_usage();
            let before = PEAK.current_usage();
            let answer = server.handle(request).await;
            assert_eq!(answer.status(), 200, "{shape}");
            PEAK.peak_usage().saturating_sub(before)
        });
        let floor = type_floor(&body);
        #[expect(clippy::cast_precision_loss, reason = "sizes of a few MiB")]
        let (extra_mib, factor, floor) = (
            extra as f64 / 1_048_576.0,
            extra as f64 / body.len() as f64,
            floor as f64 / body.len() as f64,
        );
        #[expect(clippy::cast_precision_loss, reason = "sizes of a few MiB")]
        let body_mib = body.len() as f64 / 1_048_576.0;
        println!(
            "bench=webhook-memory shape={shape} body_mib={body_mib:.1} peak_extra_mib={extra_mib:.1} factor={factor:.2} type_floor={floor:.2}"
        );
    }
}

/// The peak of bytes allocated by decoding the review's object, already cut out of the
/// body, into the WebApp type: what the type itself costs, with no framework around it.
fn type_floor(body: &Bytes) -> usize {
    let review: Value = serde_json::from_slice(body).expect("the bench's own review");
    let object = serde_json::to_vec(&review["request"]["object"]).expect("a JSON value");
    drop(review);
    PEAK.reset_peak_usage();
    let before = PEAK.current_usage();
    let typed: wheelhouse_examples::webapp::WebApp = serde_json::from_slice(&object).expect("a WebApp");
    let peak = PEAK.peak_usage().saturating_sub(before);
    drop(typed);
    peak
}

/// A TLS client of the bench's CA.
pub async fn connect(
    connector: &TlsConnector,
    address: SocketAddr,
    from: Option<IpAddr>,
) -> std::io::Result<tokio_rustls::client::TlsStream<TcpStream>> {
    let tcp = match from {
        Some(ip) => {
            let socket = TcpSocket::new_v4()?;
            socket.bind(SocketAddr::new(ip, 0))?;
            socket.connect(address).await?
        }
        None => TcpStream::connect(address).await?,
    };
    let _ = tcp.set_nodelay(true);
    connector
        .connect(ServerName::try_from("127.0.0.1").expect("a name"), tcp)
        .await
}

/// One review on a fresh connection, as kube-apiserver sends one when its pool has
/// no idle connection: the time to its answer.
async fn fresh_review(connector: &TlsConnector, address: SocketAddr, body: &Bytes) -> Duration {
    let started = Instant::now();
    let tls = connect(connector, address, None).await.expect("a connection");
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tls))
        .await
        .expect("HTTP");
    tokio::spawn(connection);
    let request = http::Request::post(VALIDATE)
        .header("content-type", "application/json")
        .header("host", "127.0.0.1")
        .body(Full::new(body.clone()))
        .expect("a request");
    let answer = sender.send_request(request).await.expect("an answer");
    assert_eq!(answer.status(), 200);
    let _ = answer.into_body().collect().await;
    started.elapsed()
}

pub async fn idle_flood(
    servers: &tokio::runtime::Handle,
    connector: &TlsConnector,
    certificates: &Certificates,
    review: &Bytes,
) {
    let ours = {
        let certificates = certificates.clone();
        servers
            .spawn(async move { crate::start_wheelhouse(certificates) })
            .await
    }
    .expect("our server starts");
    let rounds = 200;
    let mut quiet = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        quiet.push(fresh_review(connector, ours.address, review).await);
    }

    let attackers: Vec<IpAddr> = (2..12).map(|last| IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))).collect();
    let (idle, slow) = (2000, 200);
    let stop = CancellationToken::new();
    let mut held = Vec::with_capacity(idle);
    for i in 0..idle {
        if let Ok(tls) = connect(connector, ours.address, Some(attackers[i % attackers.len()])).await {
            held.push(tls);
        }
    }
    let trickling = Arc::new(AtomicBool::new(true));
    let mut slowloris = Vec::new();
    for i in 0..slow {
        let (connector, address, from) = (connector.clone(), ours.address, attackers[i % attackers.len()]);
        let (stop, trickling) = (stop.clone(), trickling.clone());
        slowloris.push(tokio::spawn(async move {
            let Ok(mut tls) = connect(&connector, address, Some(from)).await else {
                return;
            };
            let _ = tls
                .write_all(b"POST /validate-example-com-v1-webapp HTTP/1.1\r\n")
                .await;
            while trickling.load(Ordering::Relaxed) {
                tokio::select! {
                    () = stop.cancelled() => return,
                    () = tokio::time::sleep(Duration::from_secs(1)) => {}
                }
                if tls.write_all(b"X").await.is_err() {
                    return;
                }
            }
        }));
    }
    let mut flooded = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        flooded.push(fresh_review(connector, ours.address, review).await);
    }
    trickling.store(false, Ordering::Relaxed);
    stop.cancel();
    for task in slowloris {
        let _ = task.await;
    }
    drop(held);
    println!(
        "bench=webhook-abuse kind=idle-flood conns={idle} slowloris={slow} p99_ms={:.2} quiet_p99_ms={:.2}",
        p99_ms(&mut flooded),
        p99_ms(&mut quiet)
    );
    ours.stop.cancel();
    let _ = ours.task.await;
}

pub async fn heavy(servers: &tokio::runtime::Handle, connector: &TlsConnector, certificates: &Certificates) {
    let certificates_for_server = certificates.clone();
    let (address, health, shutdown, managing) = servers
        .spawn(async move {
            let env = wheelhouse_envtest::TestEnv::embedded()
                .await
                .expect("an embedded API server");
            let options = WebhookOptions {
                host: [127, 0, 0, 1].into(),
                port: 0,
                certificates: Some(certificates_for_server),
                decision_threads: 1,
                ..WebhookOptions::default()
            };
            let mut server = webhooks::webhook_server(options);
            let address = server.bind().expect("the webhook server binds");
            let manager = wheelhouse_manager::Manager::builder(env.client())
                .health_probe_address(Some(SocketAddr::from(([127, 0, 0, 1], 0))))
                .metrics_address(None)
                .build()
                .expect("a manager");
            let health = manager.health_probe_address().expect("probes");
            manager.add(server).expect("the webhook server");
            let shutdown = manager.shutdown_token();
            let managing = tokio::spawn(async move {
                let _env = env;
                manager.run().await
            });
            (address, health, shutdown, managing)
        })
        .await
        .expect("the manager starts");
    let probe = hyper_util::client::legacy::Client::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    let healthz: http::Uri = format!("http://{health}/healthz").parse().expect("a URI");
    let sample = |count: usize| {
        let (probe, healthz) = (probe.clone(), healthz.clone());
        async move {
            let mut samples = Vec::with_capacity(count);
            for _ in 0..count {
                let started = Instant::now();
                let answer = probe.get(healthz.clone()).await;
                samples.push(started.elapsed());
                assert!(answer.is_ok_and(|a| a.status() == 200), "/healthz answers");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            samples
        }
    };
    let mut quiet = sample(100).await;

    let clients = 8;
    let body = maximal("map-of-strings");
    let loading = Arc::new(AtomicBool::new(true));
    let senders: Vec<_> = (0..clients)
        .map(|_| {
            let (connector, body, loading) = (connector.clone(), body.clone(), loading.clone());
            tokio::spawn(async move {
                let mut answered = 0_u32;
                while loading.load(Ordering::Relaxed) {
                    let Ok(tls) = connect(&connector, address, None).await else {
                        continue;
                    };
                    let Ok((mut sender, connection)) = hyper::client::conn::http1::handshake(TokioIo::new(tls)).await
                    else {
                        continue;
                    };
                    tokio::spawn(connection);
                    let request = http::Request::post(MUTATE)
                        .header("content-type", "application/json")
                        .header("host", "127.0.0.1")
                        .body(Full::new(body.clone()))
                        .expect("a request");
                    if let Ok(answer) = sender.send_request(request).await {
                        let _ = answer.into_body().collect().await;
                        answered += 1;
                    }
                }
                answered
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut loaded = sample(150).await;
    loading.store(false, Ordering::Relaxed);
    let mut answered = 0;
    for sender in senders {
        answered += sender.await.unwrap_or(0);
    }
    println!(
        "bench=webhook-heavy clients={clients} body_mib=7 mutates_answered={answered} healthz_p99_ms={:.2} quiet_healthz_p99_ms={:.2}",
        p99_ms(&mut loaded),
        p99_ms(&mut quiet)
    );
    shutdown.cancel();
    let _ = managing.await;
}
