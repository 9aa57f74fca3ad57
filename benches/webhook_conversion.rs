//! CRD conversion at `/convert`: a `ConversionReview` of 500 WebApps (`v1alpha1`, as a
//! list read in the old version sends them, to `v1`) answered by the WebApp's webhook
//! server (the same server, limits and metrics as admission; the objects converted by
//! the `From` impls of `examples/src/webapp/v1alpha1.rs`, metadata restored) and by the
//! anchor: the bench's bare hyper + rustls server whose handler decodes the review
//! typed, converts each object with the same `From` impl and encodes the answer.
//!
//! Two connections send reviews back to back; the servers take turns in slices, as
//! the admission throughput does, in `WEBHOOK_BENCH_RUNS` (default 5) runs. Prints
//! `bench=conversion impl=wheelhouse|bare objects=500 review_bytes=.. rps=.. p50_ms=..`
//! and `ratio bench=conversion objects=500 wheelhouse/bare=X runs=5 each=..` (throughput,
//! ours over bare, the median of the runs' ratios; higher is better).

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper_util::rt::TokioIo;
use rustls::pki_types::ServerName;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use wheelhouse::webhook::Certificates;
use wheelhouse_examples::webapp::{self, v1alpha1};

use crate::support::{median, percentile, setting};
use crate::{connector, start_bare_with, start_wheelhouse};

const OBJECTS: usize = 500;
const CONNS: usize = 2;
const UID: &str = "5f1c2a6e-0c9d-4b3a-9e21-7d0c3f4b8a11";

/// One WebApp as a list in `v1alpha1` carries it: labels, an annotation, managed fields.
fn webapp(index: usize) -> Value {
    json!({
        "apiVersion": "example.com/v1alpha1", "kind": "WebApp",
        "metadata": {
            "name": format!("storefront-{index}"), "namespace": "shop",
            "uid": format!("1e9f3c52-8a4b-4d6e-9f21-{index:012}"), "resourceVersion": format!("{}", 48_213 + index),
            "generation": 3, "creationTimestamp": "2026-11-02T09:14:27Z",
            "labels": {"app.kubernetes.io/name": "storefront", "app.kubernetes.io/managed-by": "wheelhouse", "team": "payments"},
            "annotations": {"example.com/owner": "payments-oncall@example.com"},
            "finalizers": ["example.com/webapp-cleanup"],
            "managedFields": [{
                "manager": "kubectl-client-side-apply", "operation": "Update", "apiVersion": "example.com/v1alpha1",
                "time": "2026-11-02T09:14:27Z", "fieldsType": "FieldsV1",
                "fieldsV1": {"f:spec": {".": {}, "f:containerPort": {}, "f:image": {}, "f:replicas": {}}},
            }],
        },
        "spec": {"image": "registry.example.com/shop/storefront:2.14.1", "replicas": 3, "containerPort": 8080},
        "status": {"phase": "Ready", "availableReplicas": 3, "observedGeneration": 3},
    })
}

fn review() -> Bytes {
    let objects: Vec<Value> = (0..OBJECTS).map(webapp).collect();
    let review = json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
        "request": {"uid": UID, "desiredAPIVersion": "example.com/v1", "objects": objects},
    });
    Bytes::from(review.to_string())
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct BareReview {
    request: BareRequest,
}

#[derive(Deserialize)]
struct BareRequest {
    uid: String,
    objects: Vec<v1alpha1::WebApp>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BareAnswer {
    api_version: &'static str,
    kind: &'static str,
    response: BareResponse,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BareResponse {
    uid: String,
    converted_objects: Vec<webapp::WebApp>,
    result: Value,
}

/// The anchor's handler: the review decoded typed, each object converted with the
/// same `From` impl, the answer encoded; no checks, no metadata restored.
fn bare_conversion(body: &[u8]) -> Vec<u8> {
    let Ok(review) = serde_json::from_slice::<BareReview>(body) else {
        return Vec::new();
    };
    let answer = BareAnswer {
        api_version: "apiextensions.k8s.io/v1",
        kind: "ConversionReview",
        response: BareResponse {
            uid: review.request.uid,
            converted_objects: review.request.objects.into_iter().map(webapp::WebApp::from).collect(),
            result: json!({"status": "Success"}),
        },
    };
    serde_json::to_vec(&answer).unwrap_or_default()
}

/// One connection's reviews until `until`; the latency of each one sent after `from`,
/// in microseconds.
async fn client(connector: TlsConnector, address: SocketAddr, body: Bytes, from: Instant, until: Instant) -> Vec<u32> {
    let tcp = TcpStream::connect(address).await.expect("connect");
    let _ = tcp.set_nodelay(true);
    let server_name = ServerName::try_from("127.0.0.1").expect("a server name");
    let tls = connector.connect(server_name, tcp).await.expect("handshake");
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tls))
        .await
        .expect("HTTP handshake");
    tokio::spawn(connection);
    let mut latencies = Vec::new();
    loop {
        let started = Instant::now();
        if started >= until {
            return latencies;
        }
        let request = http::Request::post("/convert")
            .header("content-type", "application/json")
            .header("host", "127.0.0.1")
            .body(Full::new(body.clone()))
            .expect("a request");
        sender.ready().await.expect("the connection stays up");
        let response = sender.send_request(request).await.expect("an answer");
        assert_eq!(response.status(), 200);
        let answer = response.into_body().collect().await.expect("a body").to_bytes();
        let tail = &answer[answer.len().saturating_sub(64)..];
        assert!(
            tail.windows(19).any(|w| w == b"\"status\":\"Success\"}"),
            "{}",
            String::from_utf8_lossy(tail)
        );
        if started >= from {
            latencies.push(u32::try_from(started.elapsed().as_micros()).unwrap_or(u32::MAX));
        }
    }
}

/// Reviews answered over the slices, and their latencies.
#[derive(Default)]
struct Sample {
    latencies: Vec<u32>,
    measured: Duration,
}

impl Sample {
    async fn add_slice(&mut self, address: SocketAddr, connector: &TlsConnector, body: &Bytes, slice: Duration) {
        let from = Instant::now() + slice / 4;
        let until = from + slice;
        let clients: Vec<_> = (0..CONNS)
            .map(|_| tokio::spawn(client(connector.clone(), address, body.clone(), from, until)))
            .collect();
        for client in clients {
            self.latencies.extend(client.await.expect("a client"));
        }
        self.measured += slice;
    }

    /// Reviews per second.
    fn rps(&self) -> f64 {
        crate::support::as_f64(self.latencies.len()) / self.measured.as_secs_f64()
    }

    /// Adds another run's reviews to these.
    fn absorb(&mut self, other: Self) {
        self.latencies.extend(other.latencies);
        self.measured += other.measured;
    }

    /// Reviews per second and the median latency in milliseconds.
    fn figures(&mut self) -> (f64, f64) {
        let answered = u32::try_from(self.latencies.len()).unwrap_or(u32::MAX);
        let p50 = f64::from(percentile(&mut self.latencies, 50).unwrap_or(0)) / 1000.0;
        (f64::from(answered) / self.measured.as_secs_f64(), p50)
    }
}

/// Runs the comparison with the servers on `servers`.
pub async fn run(servers: tokio::runtime::Handle) {
    let (runs, slices) = (
        setting("WEBHOOK_BENCH_RUNS", 5).max(1),
        setting("WEBHOOK_BENCH_SLICES", 4).max(1),
    );
    let slice = Duration::from_millis(u64::try_from(setting("WEBHOOK_BENCH_SLICE_MS", 1000)).unwrap_or(1000));
    let certificates = Certificates::self_signed(["127.0.0.1"]).expect("certificates");
    let connector = connector(&certificates);
    let ours = {
        let certificates = certificates.clone();
        servers.spawn(async move { start_wheelhouse(certificates) }).await
    }
    .expect("our server starts");
    let bare = servers
        .spawn(start_bare_with(certificates.clone(), bare_conversion))
        .await
        .expect("the bare server starts");
    let body = review();
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
                sample.add_slice(address, &connector, &body, slice).await;
            }
        }
        ratios.push(our_run.rps() / bare_run.rps());
        our_sample.absorb(our_run);
        bare_sample.absorb(bare_run);
    }
    let (our_rps, our_p50) = our_sample.figures();
    let (bare_rps, bare_p50) = bare_sample.figures();
    for (name, rps, p50) in [("wheelhouse", our_rps, our_p50), ("bare", bare_rps, bare_p50)] {
        println!(
            "bench=conversion impl={name} objects={OBJECTS} review_bytes={} conns={CONNS} rps={rps:.1} p50_ms={p50:.2}",
            body.len()
        );
    }
    let each: Vec<String> = ratios.iter().map(|ratio| format!("{ratio:.2}")).collect();
    println!(
        "ratio bench=conversion objects={OBJECTS} wheelhouse/bare={:.2} runs={runs} each={}",
        median(ratios),
        each.join(",")
    );
    for server in [ours, bare] {
        server.stop.cancel();
        let _ = server.task.await;
    }
}
