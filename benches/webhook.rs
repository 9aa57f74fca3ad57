//! `cargo bench --bench webhook`: validating admission requests for a realistic WebApp
//! over loopback HTTPS with keep-alive, at 1, 16 and 64 concurrent connections, sent to
//! the WebApp's webhook server (`examples/src/webapp/webhooks.rs`: routing, limits, metrics,
//! the typed validator) and, in the same process, to the anchor: a bare hyper + rustls
//! server (the same TLS configuration) whose handler decodes the review with kube's
//! `AdmissionReview<DynamicObject>` and answers `allowed: true`, with no framework.
//!
//! Each client connection sends its next request as soon as the last is answered. The
//! servers run on one tokio worker thread and the clients on another, as a webhook and
//! kube-apiserver run in processes of their own. For each: requests per second, and
//! p50 and p99 latency. Prints
//! `bench=webhook impl=wheelhouse|bare conns=N rps=.. p50_ms=.. p99_ms=..` and
//! `ratio bench=webhook conns=N throughput=X p99_latency=Y` (ours divided by bare).
//!
//! The machine is shared and noisy, so the two servers take turns in short slices
//! (`WEBHOOK_BENCH_SLICES`, default 4 each per run, of `WEBHOOK_BENCH_SLICE_MS`, default
//! 1000 ms, each after a warm-up of a quarter of it on new connections), and a slow
//! spell falls on both. `WEBHOOK_BENCH_RUNS` (default 5) such runs: the `ratio` line's
//! throughput is the median of the runs' ratios (each listed after `each=`), the other
//! figures are over all of a server's slices.
//! `WEBHOOK_BENCH_CONNS=16` runs one level only. `WEBHOOK_BENCH_FLOOR=1` serves, in place
//! of the WebApp's validator, a raw handler doing the anchor's own work (the floor: the
//! serving layer and the review's envelope against bare hyper).
//!
//! Then the server under hostile and heavy traffic (`webhook_abuse.rs`: idle and
//! slowloris floods, maximal bodies beside `/healthz`, a mutate's peak memory;
//! `webhook_silence.rs`: silent bodies, declared-but-silent budget, unread answers, a
//! mutate's RSS in a child process);
//! `webhook_slow.rs`: trickling bodies over HTTP/1.1 and HTTP/2, headers that never end
//! on the webhook, metrics and probe ports, with the child's RSS);
//! `WEBHOOK_BENCH_ABUSE_ONLY=1` runs only those, `WEBHOOK_BENCH_THROUGHPUT_ONLY=1` none,
//! `WEBHOOK_BENCH_SLOW_ONLY=1` only `webhook_slow.rs`'s. `WEBHOOK_BENCH_THROUGH_API=1`
//! runs the trickling bodies while an API server calls the webhooks instead
//! (`webhook_slow_api.rs`; a real one with `USE_EXISTING_CLUSTER=true`).
//!
//! Between the two, `webhook_conversion.rs`: a `ConversionReview` of 500 WebApps
//! (`v1alpha1` to `v1`) answered by our server's `/convert` against a bare hyper +
//! rustls handler doing the same serde conversion, `ratio bench=conversion objects=500
//! wheelhouse/bare=X`; `WEBHOOK_BENCH_CONVERSION_ONLY=1` runs only it.

mod webhook_abuse;
mod webhook_conversion;
mod webhook_silence;
mod webhook_slow;
mod webhook_slow_api;

#[allow(dead_code, reason = "each benchmark uses a part of the shared helpers")]
mod support;

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use kube::core::DynamicObject;
use kube::core::admission::{AdmissionRequest, AdmissionResponse, AdmissionReview};
use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use serde_json::json;
use support::{median, percentile, setting};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::{TlsAcceptor, TlsConnector};
use tokio_util::sync::CancellationToken;
use wheelhouse::webhook::{Certificates, WebhookMetrics, WebhookOptions};
use wheelhouse_examples::webapp::webhooks;
use wheelhouse_manager::{Runnable, Stop};

const PATH: &str = "/validate-example-com-v1-webapp";

/// Counts the bytes allocated, for the memory line.
#[global_allocator]
static PEAK: peak_alloc::PeakAlloc = peak_alloc::PeakAlloc;

/// A review of creating a WebApp as kubectl apply sends it: annotations with the last
/// applied configuration, managed fields, a user with groups (1.8 KB).
fn realistic_review() -> Bytes {
    let last_applied = json!({
        "apiVersion": "example.com/v1", "kind": "WebApp",
        "metadata": {"name": "storefront", "namespace": "shop", "labels": {"app": "storefront", "team": "payments"}},
        "spec": {"image": "registry.example.com/shop/storefront:2.14.3", "replicas": 3, "port": 8080},
    });
    let object = json!({
        "apiVersion": "example.com/v1", "kind": "WebApp",
        "metadata": {
            "name": "storefront", "namespace": "shop",
            "labels": {"app": "storefront", "team": "payments", "app.kubernetes.io/managed-by": "wheelhouse"},
            "annotations": {"kubectl.kubernetes.io/last-applied-configuration": last_applied.to_string()},
            "managedFields": [{
                "manager": "kubectl-client-side-apply", "operation": "Update", "apiVersion": "example.com/v1",
                "time": "2025-06-01T10:00:00Z", "fieldsType": "FieldsV1",
                "fieldsV1": {"f:metadata": {"f:annotations": {".": {}, "f:kubectl.kubernetes.io/last-applied-configuration": {}},
                    "f:labels": {".": {}, "f:app": {}, "f:team": {}}}, "f:spec": {".": {}, "f:image": {}, "f:port": {}, "f:replicas": {}}},
            }],
        },
        "spec": {"image": "registry.example.com/shop/storefront:2.14.3", "replicas": 3, "port": 8080},
    });
    let review = json!({
        "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
        "request": {
            "uid": "705ab4f5-6393-11e8-b7cc-42010a800002",
            "kind": {"group": "example.com", "version": "v1", "kind": "WebApp"},
            "resource": {"group": "example.com", "version": "v1", "resource": "webapps"},
            "requestKind": {"group": "example.com", "version": "v1", "kind": "WebApp"},
            "requestResource": {"group": "example.com", "version": "v1", "resource": "webapps"},
            "name": "storefront", "namespace": "shop", "operation": "CREATE",
            "userInfo": {"username": "alice@example.com", "uid": "0ca9d5b3", "groups": ["system:authenticated", "payments-admins"],
                "extra": {"iam.example.com/session": ["6f1c2a"]}},
            "object": object, "oldObject": null, "dryRun": false,
            "options": {"apiVersion": "meta.k8s.io/v1", "kind": "CreateOptions", "fieldManager": "kubectl-client-side-apply"},
        }
    });
    Bytes::from(review.to_string())
}

/// A server under test, stopped by its token.
struct Running {
    address: SocketAddr,
    stop: CancellationToken,
    task: tokio::task::JoinHandle<()>,
}

/// Starts our server; called on the servers' runtime.
fn start_wheelhouse(certificates: Certificates) -> Running {
    start_wheelhouse_with(certificates, false)
}

/// Starts our server, or with `floor` the same server with nothing at [`PATH`] but a raw
/// handler doing the anchor's work (kube's `DynamicObject` decoded, allowed): what
/// the serving layer and the review's envelope cost, whatever the validator.
fn start_wheelhouse_with(certificates: Certificates, floor: bool) -> Running {
    let options = WebhookOptions {
        host: [127, 0, 0, 1].into(),
        port: 0,
        certificates: Some(certificates),
        ..WebhookOptions::default()
    };
    let metrics = WebhookMetrics::register(&prometheus::Registry::new()).expect("metrics");
    let server = if floor {
        wheelhouse::webhook::WebhookServer::new(options)
            .handler(PATH, |request: AdmissionRequest<DynamicObject>| async move {
                AdmissionResponse::from(&request)
            })
    } else {
        webhooks::webhook_server(options)
    };
    let mut server = server.metrics(metrics);
    let address = server.bind().expect("the webhook server binds");
    let stop = CancellationToken::new();
    let signal = Stop::new(stop.clone());
    let task = tokio::spawn(async move {
        server.start(signal).await.expect("the webhook server runs");
    });
    Running { address, stop, task }
}

/// The anchor: hyper and rustls configured as the webhook server configures them, and
/// a handler that decodes the review and allows it.
async fn start_bare(certificates: Certificates) -> Running {
    start_bare_with(certificates, anchor_answer).await
}

/// The anchor's handler: the review decoded with kube's types and allowed (empty when
/// the body is not an admission review).
fn anchor_answer(body: &[u8]) -> Vec<u8> {
    serde_json::from_slice::<AdmissionReview<DynamicObject>>(body)
        .ok()
        .and_then(|review| TryInto::<AdmissionRequest<DynamicObject>>::try_into(review).ok())
        .map(|request| AdmissionResponse::from(&request).into_review())
        .and_then(|review| serde_json::to_vec(&review).ok())
        .unwrap_or_default()
}

/// hyper and rustls configured as the webhook server configures them, answering every
/// request with `answer` of its body: the anchors' server.
async fn start_bare_with(certificates: Certificates, answer: fn(&[u8]) -> Vec<u8>) -> Running {
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(certificates.cert_pem().as_bytes())
        .collect::<Result<_, _>>()
        .expect("a certificate");
    let key = PrivateKeyDer::from_pem_slice(certificates.key_pem().as_bytes()).expect("a key");
    let mut config = rustls::ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
        .expect("TLS versions")
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .expect("the certificate");
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    let acceptor = TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address");
    let stop = CancellationToken::new();
    let stopped = stop.clone();
    let task = tokio::spawn(async move {
        loop {
            let (tcp, _) = tokio::select! {
                () = stopped.cancelled() => return,
                accepted = listener.accept() => match accepted { Ok(a) => a, Err(_) => continue },
            };
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                let _ = tcp.set_nodelay(true);
                let Ok(tls) = acceptor.accept(tcp).await else { return };
                let service = service_fn(|request: http::Request<hyper::body::Incoming>| async move {
                    let body = request
                        .into_body()
                        .collect()
                        .await
                        .map(http_body_util::Collected::to_bytes);
                    let answer = body.map(|body| answer(&body)).unwrap_or_default();
                    Ok::<_, Infallible>(http::Response::new(Full::new(Bytes::from(answer))))
                });
                let _ = http1::Builder::new()
                    .timer(TokioTimer::new())
                    .serve_connection(TokioIo::new(tls), service)
                    .await;
            });
        }
    });
    Running { address, stop, task }
}

/// One client connection's loop: requests one after another until `until`, the
/// latency of each measured one (after `from`) in microseconds.
async fn client(connector: TlsConnector, address: SocketAddr, body: Bytes, from: Instant, until: Instant) -> Vec<u32> {
    let tcp = TcpStream::connect(address).await.expect("connect");
    let _ = tcp.set_nodelay(true);
    let server_name = ServerName::try_from("127.0.0.1").expect("a server name");
    let tls = connector.connect(server_name, tcp).await.expect("handshake");
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tls))
        .await
        .expect("HTTP handshake");
    tokio::spawn(connection);
    let mut latencies = Vec::with_capacity(16_384);
    loop {
        let started = Instant::now();
        if started >= until {
            return latencies;
        }
        let request = http::Request::post(PATH)
            .header("content-type", "application/json")
            .header("host", "127.0.0.1")
            .body(Full::new(body.clone()))
            .expect("a request");
        sender.ready().await.expect("the connection stays up");
        let response = sender.send_request(request).await.expect("an answer");
        assert_eq!(response.status(), 200);
        let answer = response.into_body().collect().await.expect("a body").to_bytes();
        assert!(answer.windows(14).any(|w| w == b"\"allowed\":true"), "{answer:?}");
        if started >= from {
            latencies.push(u32::try_from(started.elapsed().as_micros()).unwrap_or(u32::MAX));
        }
    }
}

/// Requests answered in a slice, and their latencies.
#[derive(Default)]
struct Sample {
    latencies: Vec<u32>,
    measured: Duration,
}

impl Sample {
    /// Runs `conns` clients against `address` for a slice: new connections, a warm-up of
    /// a quarter of the slice (handshakes, first requests), then `slice` measured.
    async fn add_slice(&mut self, address: SocketAddr, connector: &TlsConnector, conns: usize, slice: Duration) {
        let body = realistic_review();
        let from = Instant::now() + slice / 4;
        let until = from + slice;
        let clients: Vec<_> = (0..conns)
            .map(|_| tokio::spawn(client(connector.clone(), address, body.clone(), from, until)))
            .collect();
        for client in clients {
            self.latencies.extend(client.await.expect("a client"));
        }
        self.measured += slice;
    }

    /// Requests per second.
    fn rps(&self) -> f64 {
        crate::support::as_f64(self.latencies.len()) / self.measured.as_secs_f64()
    }

    /// Adds another run's requests to these.
    fn absorb(&mut self, other: Self) {
        self.latencies.extend(other.latencies);
        self.measured += other.measured;
    }

    /// Requests per second, p50 and p99 in milliseconds.
    fn figures(&mut self) -> (f64, f64, f64) {
        let answered = u32::try_from(self.latencies.len()).unwrap_or(u32::MAX);
        let mut at = |percent: usize| f64::from(percentile(&mut self.latencies, percent).unwrap_or(0)) / 1000.0;
        (f64::from(answered) / self.measured.as_secs_f64(), at(50), at(99))
    }
}

fn main() {
    let runtime = |name: &str| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name(name)
            .enable_all()
            .build()
            .expect("a runtime")
    };
    if std::env::var_os("WEBHOOK_BENCH_RSS_CHILD").is_some() {
        webhook_silence::rss_child();
        return;
    }
    if std::env::var_os("WEBHOOK_BENCH_HEADERS_CHILD").is_some() {
        webhook_slow::headers_child();
        return;
    }
    webhook_slow::raise_fd_limit();
    let (servers, clients) = (runtime("servers"), runtime("clients"));
    if std::env::var_os("WEBHOOK_BENCH_THROUGH_API").is_some() {
        clients.block_on(webhook_slow_api::through_api(servers.handle()));
        return;
    }
    if std::env::var_os("WEBHOOK_BENCH_SLOW_ONLY").is_some() {
        clients.block_on(webhook_slow::slow_bodies(servers.handle()));
        webhook_slow::headers(&clients);
        return;
    }
    if std::env::var_os("WEBHOOK_BENCH_CONVERSION_ONLY").is_some() {
        clients.block_on(webhook_conversion::run(servers.handle().clone()));
        return;
    }
    if std::env::var_os("WEBHOOK_BENCH_ABUSE_ONLY").is_none() {
        clients.block_on(run(servers.handle().clone()));
        clients.block_on(webhook_conversion::run(servers.handle().clone()));
    }
    if std::env::var_os("WEBHOOK_BENCH_THROUGHPUT_ONLY").is_some() {
        return;
    }
    webhook_abuse::memory();
    webhook_silence::rss();
    clients.block_on(async {
        let certificates = Certificates::self_signed(["127.0.0.1"]).expect("certificates");
        let connector = connector(&certificates);
        let review = realistic_review();
        webhook_abuse::idle_flood(servers.handle(), &connector, &certificates, &review).await;
        webhook_abuse::heavy(servers.handle(), &connector, &certificates).await;
        webhook_silence::silent_bodies(servers.handle(), &connector, &certificates, &review).await;
        webhook_silence::budget_starve(servers.handle(), &connector, &certificates, &review).await;
        webhook_silence::unread_answers(servers.handle(), &connector, &certificates, &review).await;
        webhook_slow::slow_bodies(servers.handle()).await;
    });
    webhook_slow::headers(&clients);
}

/// A TLS client that trusts `certificates`' CA.
fn connector(certificates: &Certificates) -> TlsConnector {
    let mut roots = rustls::RootCertStore::empty();
    for certificate in CertificateDer::pem_slice_iter(certificates.ca_bundle().as_bytes()) {
        roots.add(certificate.expect("the CA")).expect("the CA");
    }
    let client_config = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    TlsConnector::from(Arc::new(client_config))
}

async fn run(servers: tokio::runtime::Handle) {
    let (runs, slices) = (
        setting("WEBHOOK_BENCH_RUNS", 5).max(1),
        setting("WEBHOOK_BENCH_SLICES", 4).max(1),
    );
    let slice = Duration::from_millis(u64::try_from(setting("WEBHOOK_BENCH_SLICE_MS", 1000)).unwrap_or(1000));
    let levels: Vec<usize> = match std::env::var("WEBHOOK_BENCH_CONNS") {
        Ok(one) => vec![one.parse().expect("WEBHOOK_BENCH_CONNS is a number")],
        Err(_) => vec![1, 16, 64],
    };
    let certificates = Certificates::self_signed(["127.0.0.1"]).expect("certificates");
    let connector = connector(&certificates);
    let floor = std::env::var_os("WEBHOOK_BENCH_FLOOR").is_some();
    let ours = {
        let certificates = certificates.clone();
        servers
            .spawn(async move { start_wheelhouse_with(certificates, floor) })
            .await
    }
    .expect("our server starts");
    let bare = servers
        .spawn(start_bare(certificates.clone()))
        .await
        .expect("the bare server starts");
    println!(
        "bench=webhook review_bytes={} runs={runs} slices={slices} slice_ms={} handler={} (the two servers take turns, slice by slice)",
        realistic_review().len(),
        slice.as_millis(),
        if floor { "floor" } else { "validator" }
    );
    for conns in levels {
        let (mut our_sample, mut bare_sample) = (Sample::default(), Sample::default());
        let mut ratios = Vec::with_capacity(runs);
        for _ in 0..runs {
            let (mut our_run, mut bare_run) = (Sample::default(), Sample::default());
            for turn in 0..slices {
                let order = if turn % 2 == 0 { [true, false] } else { [false, true] };
                for wheelhouse in order {
                    let (address, sample) = if wheelhouse {
                        (ours.address, &mut our_run)
                    } else {
                        (bare.address, &mut bare_run)
                    };
                    sample.add_slice(address, &connector, conns, slice).await;
                }
            }
            ratios.push(our_run.rps() / bare_run.rps());
            our_sample.absorb(our_run);
            bare_sample.absorb(bare_run);
        }
        let (our_rps, our_p50, our_p99) = our_sample.figures();
        let (bare_rps, bare_p50, bare_p99) = bare_sample.figures();
        for (name, rps, p50, p99) in [
            ("wheelhouse", our_rps, our_p50, our_p99),
            ("bare", bare_rps, bare_p50, bare_p99),
        ] {
            println!("bench=webhook impl={name} conns={conns} rps={rps:.0} p50_ms={p50:.3} p99_ms={p99:.3}");
        }
        let each: Vec<String> = ratios.iter().map(|ratio| format!("{ratio:.2}")).collect();
        println!(
            "ratio bench=webhook conns={conns} throughput={:.2} p99_latency={:.2} runs={runs} each={}",
            median(ratios),
            our_p99 / bare_p99,
            each.join(",")
        );
    }
    for server in [ours, bare] {
        server.stop.cancel();
        let _ = server.task.await;
    }
}
