//! The webhook server under clients that are busy but silent, beside the same
//! measure on the quiet server from the same run. Valid reviews are sent as
//! kube-apiserver sends them when its pool is empty (a fresh TLS connection each,
//! from 127.0.0.1) with `?timeout=1s`; each line gives their p99 and how many failed:
//!
//! - `bench=webhook-abuse kind=silent-bodies conns=N own=M p99_ms=X quiet_p99_ms=Y
//!   failed=F of=R`: N connections from 49 other addresses (127.0.0.2-50) and M from
//!   the client's own, each sending a header with `Content-Length: 100` and no body;
//! - `kind=budget-starve bodies=8 ...`: 8 connections that declare 7 MiB bodies and
//!   send nothing;
//! - `kind=unread-answers clients=N ...`: N clients that send reviews with a 7 MiB
//!   invalid image (whose denial once echoed it twice) and never read the answers;
//!   with the process's RSS growth during the attack.
//!
//! And `bench=webhook-memory shape=map-of-strings body_mib=7 rss_mib=X rss_factor=F`:
//! the RSS growth of a child process (this bench run as `WEBHOOK_BENCH_RSS_CHILD=1`)
//! answering one maximal map-of-strings mutate, over the body's size.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper_util::rt::TokioIo;
use tokio::io::AsyncWriteExt as _;
use tokio_rustls::TlsConnector;
use wheelhouse::webhook::{Certificates, WebhookOptions};

use crate::support::{millis, percentile};
use crate::webhook_abuse::{connect, maximal};
use crate::webhooks;

const VALIDATE: &str = "/validate-example-com-v1-webapp?timeout=1s";
const MUTATE: &str = "/mutate-example-com-v1-webapp";
const VALIDATE_PLAIN: &str = "/validate-example-com-v1-webapp";

/// A review of a WebApp whose image is 7 MiB of letters: invalid.
fn invalid_image() -> Bytes {
    let object = serde_json::json!({
        "apiVersion": "example.com/v1", "kind": "WebApp",
        "metadata": {"name": "huge", "namespace": "shop"},
        "spec": {"image": "x".repeat(7 * 1024 * 1024 - 4096)},
    });
    Bytes::from(
        serde_json::json!({
            "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
            "request": {
                "uid": "0123abcd-0123-4567-89ab-0123456789ab",
                "kind": {"group": "example.com", "version": "v1", "kind": "WebApp"},
                "resource": {"group": "example.com", "version": "v1", "resource": "webapps"},
                "name": "huge", "namespace": "shop", "operation": "CREATE",
                "userInfo": {"username": "mallory"}, "object": object,
            }
        })
        .to_string(),
    )
}

/// One review on a fresh connection: its time, or why it failed.
async fn fresh_review(connector: &TlsConnector, address: SocketAddr, body: &Bytes) -> Result<Duration, String> {
    let started = Instant::now();
    let review = async {
        let tls = connect(connector, address, None).await.map_err(|e| e.to_string())?;
        let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tls))
            .await
            .map_err(|e| e.to_string())?;
        tokio::spawn(connection);
        let request = http::Request::post(VALIDATE)
            .header("content-type", "application/json")
            .header("host", "127.0.0.1")
            .body(Full::new(body.clone()))
            .map_err(|e| e.to_string())?;
        let answer = sender.send_request(request).await.map_err(|e| e.to_string())?;
        let status = answer.status();
        let _ = answer.into_body().collect().await;
        if status == 200 {
            Ok(())
        } else {
            Err(format!("status {status}"))
        }
    };
    tokio::time::timeout(Duration::from_secs(2), review)
        .await
        .map_err(|_| "no answer within 2 s".to_owned())??;
    Ok(started.elapsed())
}

/// `rounds` reviews, one every 20 ms: their p99 and the failures.
async fn reviews(connector: &TlsConnector, address: SocketAddr, body: &Bytes, rounds: usize) -> (f64, usize) {
    let mut times = Vec::with_capacity(rounds);
    let mut failed = 0;
    for _ in 0..rounds {
        match fresh_review(connector, address, body).await {
            Ok(time) => times.push(time),
            Err(_) => failed += 1,
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    (percentile(&mut times, 99).map_or(0.0, millis), failed)
}

fn header(path: &str, length: usize) -> Vec<u8> {
    format!("POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n")
        .into_bytes()
}

async fn start(servers: &tokio::runtime::Handle, certificates: &Certificates) -> crate::Running {
    let certificates = certificates.clone();
    servers
        .spawn(async move { crate::start_wheelhouse(certificates) })
        .await
        .expect("our server starts")
}

pub async fn silent_bodies(
    servers: &tokio::runtime::Handle,
    connector: &TlsConnector,
    certificates: &Certificates,
    review: &Bytes,
) {
    let ours = start(servers, certificates).await;
    let rounds = 100;
    let (quiet, _) = reviews(connector, ours.address, review, rounds).await;
    let attackers: Vec<IpAddr> = (2..51).map(|last| IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))).collect();
    let (others, own) = (1100, 300);
    let mut held = Vec::with_capacity(others + own);
    for i in 0..others + own {
        let from = if i < others {
            attackers[i % attackers.len()]
        } else {
            IpAddr::V4(Ipv4Addr::LOCALHOST)
        };
        if let Ok(mut tls) = connect(connector, ours.address, Some(from)).await {
            let _ = tls.write_all(&header(VALIDATE, 100)).await;
            held.push(tls);
        }
    }
    let (p99, failed) = reviews(connector, ours.address, review, rounds).await;
    drop(held);
    println!(
        "bench=webhook-abuse kind=silent-bodies conns={others} own={own} p99_ms={p99:.2} quiet_p99_ms={quiet:.2} failed={failed} of={rounds}"
    );
    ours.stop.cancel();
    let _ = ours.task.await;
}

pub async fn budget_starve(
    servers: &tokio::runtime::Handle,
    connector: &TlsConnector,
    certificates: &Certificates,
    review: &Bytes,
) {
    let ours = start(servers, certificates).await;
    let rounds = 100;
    let (quiet, _) = reviews(connector, ours.address, review, rounds).await;
    let mut held = Vec::new();
    for _ in 0..8 {
        if let Ok(mut tls) = connect(connector, ours.address, None).await {
            let _ = tls.write_all(&header(MUTATE, 7 * 1024 * 1024 - 1024)).await;
            held.push(tls);
        }
    }
    let (p99, failed) = reviews(connector, ours.address, review, rounds).await;
    drop(held);
    println!(
        "bench=webhook-abuse kind=budget-starve bodies=8 p99_ms={p99:.2} quiet_p99_ms={quiet:.2} failed={failed} of={rounds}"
    );
    ours.stop.cancel();
    let _ = ours.task.await;
}

pub async fn unread_answers(
    servers: &tokio::runtime::Handle,
    connector: &TlsConnector,
    certificates: &Certificates,
    review: &Bytes,
) {
    let ours = start(servers, certificates).await;
    let rounds = 100;
    let (quiet, _) = reviews(connector, ours.address, review, rounds).await;
    let rss_before = rss_mib();
    let body = invalid_image();
    let clients = 250;
    let mut held = Vec::with_capacity(clients);
    for i in 0..clients {
        let from = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2 + u8::try_from(i % 40).unwrap_or(0)));
        if let Ok(mut tls) = connect(connector, ours.address, Some(from)).await {
            // The write may stall once the server stops reading: bounded.
            let sending = async {
                tls.write_all(&header(VALIDATE_PLAIN, body.len())).await?;
                tls.write_all(&body).await
            };
            let _ = tokio::time::timeout(Duration::from_millis(100), sending).await;
            held.push(tls);
        }
    }
    let (p99, failed) = reviews(connector, ours.address, review, rounds).await;
    let rss_peak = rss_mib();
    drop(held);
    println!(
        "bench=webhook-abuse kind=unread-answers clients={clients} p99_ms={p99:.2} quiet_p99_ms={quiet:.2} failed={failed} of={rounds} rss_growth_mib={:.0}",
        rss_peak - rss_before
    );
    ours.stop.cancel();
    let _ = ours.task.await;
}

/// This process's resident set, in MiB (0 where /proc is not there).
fn rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|kib| kib.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kib| kib / 1024.0)
}

/// The peak RSS of this process, in MiB.
fn peak_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|kib| kib.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kib| kib / 1024.0)
}

/// In the child: answers one maximal map-of-strings mutate and prints the peak RSS
/// growth it caused.
pub fn rss_child() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let body = maximal("map-of-strings");
    let server = webhooks::webhook_server(WebhookOptions::default());
    let before = peak_rss_mib();
    runtime.block_on(async {
        let request = http::Request::post(MUTATE)
            .header("content-type", "application/json")
            .body(Full::new(body.clone()))
            .expect("a request");
        let answer = server.handle(request).await;
        assert_eq!(answer.status(), 200);
    });
    println!(
        "rss_growth_mib={:.2} body_mib={:.2}",
        peak_rss_mib() - before,
        crate::support::as_f64(body.len()) / 1_048_576.0
    );
}

/// Runs [`rss_child`] in a child process and prints its line.
pub fn rss() {
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let Ok(output) = std::process::Command::new(exe)
        .env("WEBHOOK_BENCH_RSS_CHILD", "1")
        .output()
    else {
        return;
    };
    let text = String::from_utf8_lossy(&output.stdout);
    let field = |name: &str| {
        text.split_whitespace()
            .find_map(|pair| pair.strip_prefix(name))
            .and_then(|value| value.parse::<f64>().ok())
    };
    if let (Some(rss), Some(body)) = (field("rss_growth_mib="), field("body_mib=")) {
        println!(
            "bench=webhook-memory shape=map-of-strings body_mib={body:.1} rss_mib={rss:.1} rss_factor={:.2}",
            rss / body
        );
    }
}
