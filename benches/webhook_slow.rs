//! The webhook server under clients that send slowly, with valid reviews sent as
//! kube-apiserver sends them when its pool is empty (a fresh TLS connection each, from
//! 127.0.0.1, `?timeout=10s`, its default): a small admission review (1.8 KB), one of
//! 100 KiB and a `ConversionReview` of five `v1alpha1` WebApps, in turn. The server has
//! the defaults an operator runs with (bodies under 64 KiB share 4 MiB, bodies held to
//! 4 KiB/s over each 2 s).
//!
//! - `bench=webhook-abuse kind=slow-bodies conns=N from=1|40 p99_ms=X quiet_p99_ms=Y
//!   admission_p99_ms=.. conversion_p99_ms=.. failed=F of=R`: N TLS connections from
//!   127.0.0.1 (the reviews' own address) or from 40 others (127.0.0.2-41), each
//!   sending 64,000 bytes of a declared 65,000-byte body and then a byte every 3 s; a
//!   connection the server closes is opened again at once, so N trickle all along.
//!   `attack_opened=` counts the attacking connections opened, `attack_mib_s=` their
//!   upload. For N of 70, 200 and 400.
//! - `kind=slow-bodies http2_streams=99 ...`: one HTTP/2 connection whose 99 streams
//!   each do the same (a stream the server refuses is opened again).
//! - `bench=webhook-abuse kind=headers port=webhook|metrics|health conns=1100
//!   before_rss_mib=.. peak_rss_mib=.. after_rss_mib=..`: a fresh process serving the
//!   WebApp's webhooks, secure metrics and the health probes (a child, this bench run
//!   with `WEBHOOK_BENCH_HEADERS_CHILD=1`), and 1,100 connections from 40 addresses
//!   that each send up to 400 KiB of a header that never ends to one of its ports;
//!   the child's resident set before, its peak, and 3 s after the connections close.
//!
//! The floor, for comparison: `WEBHOOK_BENCH_SLOW_BARE=1` runs the same cases against the
//! bench's bare hyper + rustls server (no budget, no rate, no bounds: nothing is ever
//! closed, so nothing reconnects), and `WEBHOOK_BENCH_SLOW_CHURN_MS=N` makes each
//! attacker close its own connection N ms after its burst and open the next (the churn
//! our server's closes cause, imposed on either server). The line then says `impl=bare`
//! and `churn_ms=N`.
//!
//! Traffic goes to 127.0.0.0/8 only; each case lasts a few seconds.

use std::io::{BufRead as _, BufReader, Write as _};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::body::{Body, Frame};
use hyper_util::rt::{TokioExecutor, TokioIo};
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject as _;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpSocket;
use tokio::sync::mpsc;
use tokio_rustls::TlsConnector;
use tokio_util::sync::CancellationToken;
use wheelhouse::webhook::{Certificates, WebhookMetrics, WebhookOptions};

#[path = "../tests/shared/reviews.rs"]
mod reviews;
use reviews::{admission, conversion};
use wheelhouse_manager::{Runnable as _, Stop};

use crate::support::{millis, percentile};
use crate::webhook_abuse::connect;
use crate::{Running, webhooks};

const VALIDATE: &str = "/validate-example-com-v1-webapp?timeout=10s";
const CONVERT: &str = "/convert?timeout=10s";
/// The attackers send no timeout: the server's own deadline applies.
const ATTACKED: &str = "/validate-example-com-v1-webapp";
/// What each trickling body declares, and what it sends at once.
const DECLARED: usize = 65_000;
const BURST: usize = 64_000;
/// How often a trickling body sends its next byte.
const TRICKLE: Duration = Duration::from_secs(3);
/// kube-apiserver's default timeout for a webhook call.
const REVIEW_TIMEOUT: Duration = Duration::from_secs(10);
/// Rounds of the three reviews measured under each attack, and on the quiet server.
const ROUNDS: usize = 40;
const QUIET_ROUNDS: usize = 10;
/// The attack runs this long before the reviews begin: the bursts have arrived.
const SETTLE: Duration = Duration::from_millis(1500);

/// Raises this process's soft limit of open files to its hard limit: the attacks hold
/// a few thousand sockets (both ends of each in this process). Through util-linux's
/// `prlimit`, since the workspace forbids the `unsafe` a direct `setrlimit` needs; a
/// machine without it keeps its limit (the bench then says so when connections fail).
pub fn raise_fd_limit() {
    let pid = std::process::id().to_string();
    let hard = std::process::Command::new("prlimit")
        .args(["--pid", &pid, "--nofile", "--output", "HARD", "--noheadings"])
        .output()
        .ok()
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned())
        .filter(|hard| !hard.is_empty());
    if let Some(hard) = hard {
        let _ = std::process::Command::new("prlimit")
            .args(["--pid", &pid, &format!("--nofile={hard}:{hard}")])
            .status();
    }
}

/// A TLS client of the bench's CA offering `alpn`.
pub fn connector(certificates: &Certificates, alpn: &[&[u8]]) -> TlsConnector {
    let mut roots = rustls::RootCertStore::empty();
    for certificate in CertificateDer::pem_slice_iter(certificates.ca_bundle().as_bytes()) {
        roots.add(certificate.expect("the CA")).expect("the CA");
    }
    let mut config = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    TlsConnector::from(Arc::new(config))
}

/// One review on a fresh HTTP/1.1 connection from 127.0.0.1: its time and the time its
/// TLS handshake took (connected), or why it failed (not answered 200 within
/// kube-apiserver's timeout).
async fn review(
    connector: &TlsConnector,
    address: SocketAddr,
    path: &str,
    body: &Bytes,
) -> Result<(Duration, Duration), String> {
    let started = Instant::now();
    let mut connected = Duration::ZERO;
    let sending = async {
        let tls = connect(connector, address, None).await.map_err(|e| e.to_string())?;
        connected = started.elapsed();
        let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tls))
            .await
            .map_err(|e| e.to_string())?;
        tokio::spawn(connection);
        let request = http::Request::post(path)
            .header("content-type", "application/json")
            .header("host", "127.0.0.1")
            .body(Full::new(body.clone()))
            .map_err(|e| e.to_string())?;
        let answer = sender.send_request(request).await.map_err(|e| e.to_string())?;
        let status = answer.status();
        let body = answer
            .into_body()
            .collect()
            .await
            .map_err(|e| e.to_string())?
            .to_bytes();
        let answered = status == 200
            && (body.windows(14).any(|w| w == b"\"allowed\":true") || body.windows(9).any(|w| w == b"\"Success\""));
        if answered {
            Ok(())
        } else {
            Err(format!("{status}: {}", String::from_utf8_lossy(&body)))
        }
    };
    tokio::time::timeout(REVIEW_TIMEOUT, sending)
        .await
        .map_err(|_| "no answer within 10 s".to_owned())??;
    Ok((started.elapsed(), connected))
}

/// The reviews' latencies, admission and conversion apart, and their failures.
#[derive(Default)]
struct Measured {
    admission: Vec<Duration>,
    /// The 100 KiB admission reviews' (also in `admission`): the large share's.
    large: Vec<Duration>,
    conversion: Vec<Duration>,
    /// Every review's TLS handshake (connect to handshake done): the part of its
    /// time spent before the server read a byte of it.
    handshake: Vec<Duration>,
    failed: usize,
    first_failure: Option<String>,
}

impl Measured {
    fn of(&self) -> usize {
        self.admission.len() + self.conversion.len() + self.failed
    }

    /// The p99 of all, of admission, of the 100 KiB admission, of conversion and of
    /// the handshakes.
    fn p99(&self) -> (f64, f64, f64, f64, f64) {
        let mut all: Vec<Duration> = self.admission.iter().chain(&self.conversion).copied().collect();
        let p99 = |samples: &mut [Duration]| percentile(samples, 99).map_or(0.0, millis);
        (
            p99(&mut all),
            p99(&mut self.admission.clone()),
            p99(&mut self.large.clone()),
            p99(&mut self.conversion.clone()),
            p99(&mut self.handshake.clone()),
        )
    }
}

/// `rounds` rounds of a small admission review, one of 100 KiB and a conversion, each
/// 50 ms after the last answer.
async fn reviews(connector: &TlsConnector, address: SocketAddr, rounds: usize) -> Measured {
    let kinds = [
        (VALIDATE, crate::realistic_review(), false),
        (VALIDATE, admission("padded", 100 * 1024), false),
        (CONVERT, conversion(), true),
    ];
    let mut measured = Measured::default();
    for _ in 0..rounds {
        for (path, body, converts) in &kinds {
            match review(connector, address, path, body).await {
                Ok((time, handshake)) if *converts => {
                    measured.handshake.push(handshake);
                    measured.conversion.push(time);
                }
                Ok((time, handshake)) => {
                    measured.handshake.push(handshake);
                    measured.admission.push(time);
                    if body.len() > 64 * 1024 {
                        measured.large.push(time);
                    }
                }
                Err(error) => {
                    measured.failed += 1;
                    measured.first_failure.get_or_insert(error);
                }
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    measured
}

/// What the attackers did.
#[derive(Default)]
pub struct Attack {
    opened: AtomicU64,
    sent: AtomicU64,
}

impl Attack {
    /// Attacking connections opened.
    pub fn opened(&self) -> u64 {
        self.opened.load(Ordering::Relaxed)
    }
}

/// Keeps one trickling HTTP/1.1 body going from `from` until `stop`: a connection sends
/// its burst, then a byte every [`TRICKLE`]; when the server answers or closes it, the
/// next is opened.
async fn trickler(
    connector: TlsConnector,
    address: SocketAddr,
    from: IpAddr,
    stop: CancellationToken,
    attack: Arc<Attack>,
) {
    let header = format!(
        "POST {ATTACKED} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {DECLARED}\r\n\r\n"
    );
    let burst = vec![b' '; BURST];
    let churn = churn();
    while !stop.is_cancelled() {
        let Ok(mut tls) = connect(&connector, address, Some(from)).await else {
            tokio::select! {
                () = stop.cancelled() => return,
                () = tokio::time::sleep(Duration::from_millis(100)) => continue,
            }
        };
        attack.opened.fetch_add(1, Ordering::Relaxed);
        let sending = async {
            tls.write_all(header.as_bytes()).await?;
            tls.write_all(&burst).await
        };
        tokio::select! {
            () = stop.cancelled() => return,
            sent = sending => if sent.is_err() { continue },
        }
        attack
            .sent
            .fetch_add(u64::try_from(header.len() + BURST).unwrap_or(0), Ordering::Relaxed);
        let mut buffer = [0_u8; 512];
        let closing = tokio::time::sleep(churn.unwrap_or(Duration::MAX / 4));
        tokio::pin!(closing);
        loop {
            tokio::select! {
                () = stop.cancelled() => return,
                // The attacker closes it itself (the imposed churn): the next one.
                () = &mut closing, if churn.is_some() => break,
                // An answer (the server refuses the body) or the close: the next one.
                read = tls.read(&mut buffer) => if !matches!(read, Ok(n) if n > 0) || buffer.contains(&b'\n') { break },
                () = tokio::time::sleep(TRICKLE) => {
                    if tls.write_all(b" ").await.is_err() {
                        break;
                    }
                    attack.sent.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    }
}

/// `WEBHOOK_BENCH_SLOW_CHURN_MS`: how long an attacker keeps a connection after its
/// burst before closing it itself, if set.
fn churn() -> Option<Duration> {
    std::env::var("WEBHOOK_BENCH_SLOW_CHURN_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map(Duration::from_millis)
}

/// The bare server's answer to the slow-bodies reviews: the anchor's admission answer,
/// or for anything else (the conversion) a bare success.
fn bare_answer(body: &[u8]) -> Vec<u8> {
    let admission = crate::anchor_answer(body);
    if admission.is_empty() {
        br#"{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","response":{"result":{"status":"Success"}}}"#.to_vec()
    } else {
        admission
    }
}

/// A request body fed from a channel: a frame per message, ended when the sender drops.
struct Fed(mpsc::Receiver<Bytes>);

impl Body for Fed {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        self.0
            .poll_recv(cx)
            .map(|piece| piece.map(|piece| Ok(Frame::data(piece))))
    }
}

/// Keeps `streams` trickling streams going on one HTTP/2 connection until `stop`
/// (another connection when the server closes it).
async fn trickling_streams(
    connector: TlsConnector,
    address: SocketAddr,
    streams: usize,
    stop: CancellationToken,
    attack: Arc<Attack>,
) {
    while !stop.is_cancelled() {
        let Ok(tls) = connect(&connector, address, None).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        attack.opened.fetch_add(1, Ordering::Relaxed);
        let Ok((sender, connection)) =
            hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(tls)).await
        else {
            continue;
        };
        let connection = tokio::spawn(connection);
        let mut tasks = Vec::with_capacity(streams);
        for _ in 0..streams {
            let (mut sender, stop, attack) = (sender.clone(), stop.clone(), attack.clone());
            tasks.push(tokio::spawn(async move {
                // Each stream refused is opened again, while the connection lasts.
                while !stop.is_cancelled() && sender.ready().await.is_ok() {
                    let (feed, body) = mpsc::channel(4);
                    let Ok(request) = http::Request::post(ATTACKED)
                        .header("content-type", "application/json")
                        .header("content-length", DECLARED)
                        .body(Fed(body))
                    else {
                        return;
                    };
                    let answered = sender.send_request(request);
                    tokio::pin!(answered);
                    let _ = feed.send(Bytes::from(vec![b' '; BURST])).await;
                    attack
                        .sent
                        .fetch_add(u64::try_from(BURST).unwrap_or(0), Ordering::Relaxed);
                    loop {
                        tokio::select! {
                            _ = &mut answered => break,
                            () = tokio::time::sleep(TRICKLE) => {
                                let _ = feed.send(Bytes::from_static(b" ")).await;
                                attack.sent.fetch_add(1, Ordering::Relaxed);
                            }
                            () = stop.cancelled() => return,
                        }
                    }
                }
            }));
        }
        for task in tasks {
            let _ = task.await;
        }
        connection.abort();
    }
}

/// Our server with the defaults, HTTP/2 offered when `http2`.
async fn start(servers: &tokio::runtime::Handle, certificates: &Certificates, http2: bool) -> Running {
    let certificates = certificates.clone();
    servers
        .spawn(async move {
            let options = WebhookOptions {
                host: [127, 0, 0, 1].into(),
                port: 0,
                certificates: Some(certificates),
                http2,
                ..WebhookOptions::default()
            };
            let metrics = WebhookMetrics::register(&prometheus::Registry::new()).expect("metrics");
            let mut server = webhooks::webhook_server(options).metrics(metrics);
            let address = server.bind().expect("the webhook server binds");
            let stop = CancellationToken::new();
            let signal = Stop::new(stop.clone());
            let task = tokio::spawn(async move {
                server.start(signal).await.expect("the webhook server runs");
            });
            Running { address, stop, task }
        })
        .await
        .expect("our server starts")
}

/// How one slow-bodies case attacks.
#[derive(Clone, Copy)]
pub enum Attacker {
    /// HTTP/1.1 connections, from this many addresses (1: the reviews' own).
    Http1 { conns: usize, addresses: u8 },
    /// Streams of one HTTP/2 connection from the reviews' own address.
    Http2 { streams: usize },
}

/// Starts `case`'s attackers against `address` until `stop`: what they are, for the
/// line, and their tasks.
pub fn launch(
    case: Attacker,
    address: SocketAddr,
    http1: &TlsConnector,
    h2: &TlsConnector,
    stop: &CancellationToken,
    attack: &Arc<Attack>,
) -> (String, Vec<tokio::task::JoinHandle<()>>) {
    let mut attackers = Vec::new();
    let what = match case {
        Attacker::Http1 { conns, addresses } => {
            for i in 0..conns {
                let from = if addresses == 1 {
                    IpAddr::V4(Ipv4Addr::LOCALHOST)
                } else {
                    let last = 2 + u8::try_from(i % usize::from(addresses)).unwrap_or(0);
                    IpAddr::V4(Ipv4Addr::new(127, 0, 0, last))
                };
                attackers.push(tokio::spawn(trickler(
                    http1.clone(),
                    address,
                    from,
                    stop.clone(),
                    attack.clone(),
                )));
            }
            format!("conns={conns} from={addresses}")
        }
        Attacker::Http2 { streams } => {
            attackers.push(tokio::spawn(trickling_streams(
                h2.clone(),
                address,
                streams,
                stop.clone(),
                attack.clone(),
            )));
            format!("http2_streams={streams} from=1")
        }
    };
    (what, attackers)
}

/// The attacks: 70, 200 and 400 connections from one address and from 40, and 99
/// HTTP/2 streams; `WEBHOOK_BENCH_SLOW_CASES=200/40,h2` keeps only those
/// (conns/addresses, h2).
pub fn cases() -> Vec<Attacker> {
    let mut cases: Vec<Attacker> = Vec::new();
    for addresses in [1, 40] {
        for conns in [70, 200, 400] {
            cases.push(Attacker::Http1 { conns, addresses });
        }
    }
    cases.push(Attacker::Http2 { streams: 99 });
    let only = std::env::var("WEBHOOK_BENCH_SLOW_CASES").ok();
    cases.retain(|case| {
        let key = match case {
            Attacker::Http1 { conns, addresses } => format!("{conns}/{addresses}"),
            Attacker::Http2 { .. } => "h2".to_owned(),
        };
        only.as_deref().is_none_or(|only| only.split(',').any(|one| one == key))
    });
    cases
}

pub async fn slow_bodies(servers: &tokio::runtime::Handle) {
    let certificates = Certificates::self_signed(["127.0.0.1"]).expect("certificates");
    let (http1, h2) = (
        connector(&certificates, &[b"http/1.1"]),
        connector(&certificates, &[b"h2"]),
    );
    let bare = std::env::var_os("WEBHOOK_BENCH_SLOW_BARE").is_some();
    let floor = match (bare, churn()) {
        (false, None) => String::new(),
        (bare, churn) => format!(
            "impl={} churn_ms={} ",
            if bare { "bare" } else { "wheelhouse" },
            churn.map_or_else(|| "none".to_owned(), |churn| churn.as_millis().to_string())
        ),
    };
    for case in cases() {
        if bare && matches!(case, Attacker::Http2 { .. }) {
            // The bare server speaks HTTP/1.1 only.
            continue;
        }
        let ours = if bare {
            let certificates = certificates.clone();
            servers
                .spawn(async move { crate::start_bare_with(certificates, bare_answer).await })
                .await
                .expect("the bare server starts")
        } else {
            start(servers, &certificates, matches!(case, Attacker::Http2 { .. })).await
        };
        let quiet = reviews(&http1, ours.address, QUIET_ROUNDS).await;
        let stop = CancellationToken::new();
        let attack = Arc::new(Attack::default());
        let (what, attackers) = launch(case, ours.address, &http1, &h2, &stop, &attack);
        let started = Instant::now();
        tokio::time::sleep(SETTLE).await;
        let measured = reviews(&http1, ours.address, ROUNDS).await;
        let attacked = started.elapsed();
        stop.cancel();
        for attacker in attackers {
            let _ = attacker.await;
        }
        let (p99, admission_p99, large_p99, conversion_p99, handshake_p99) = measured.p99();
        let (quiet_p99, _, _, _, _) = quiet.p99();
        #[expect(clippy::cast_precision_loss, reason = "megabytes")]
        let upload = attack.sent.load(Ordering::Relaxed) as f64 / 1_048_576.0 / attacked.as_secs_f64();
        println!(
            "bench=webhook-abuse kind=slow-bodies {floor}{what} p99_ms={p99:.2} quiet_p99_ms={quiet_p99:.2} admission_p99_ms={admission_p99:.2} admission_100k_p99_ms={large_p99:.2} conversion_p99_ms={conversion_p99:.2} handshake_p99_ms={handshake_p99:.2} failed={} of={} attack_opened={} attack_mib_s={upload:.1}",
            measured.failed,
            measured.of(),
            attack.opened(),
        );
        if let Some(failure) = measured.first_failure {
            println!("  first failure: {}", failure.chars().take(200).collect::<String>());
        }
        ours.stop.cancel();
        let _ = ours.task.await;
    }
}

/// In the child: the WebApp's webhook server, secure metrics and the health probes of
/// one manager (on the embedded API server), their addresses printed on one line;
/// serves until its standard input closes.
pub fn headers_child() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let env = wheelhouse_envtest::TestEnv::embedded()
            .await
            .expect("an embedded API server");
        let certificates = Certificates::self_signed(["127.0.0.1"]).expect("certificates");
        let options = WebhookOptions {
            host: [127, 0, 0, 1].into(),
            port: 0,
            certificates: Some(certificates.clone()),
            ..WebhookOptions::default()
        };
        let mut server = webhooks::webhook_server(options);
        let webhook = server.bind().expect("the webhook server binds");
        let loopback = Some(SocketAddr::from(([127, 0, 0, 1], 0)));
        let manager = wheelhouse_manager::Manager::builder(env.client())
            .health_probe_address(loopback)
            .metrics_address(loopback)
            .metrics_secure(true)
            .metrics_certificates(certificates)
            .build()
            .expect("a manager");
        let (metrics, health) = (
            manager.metrics_address().expect("metrics"),
            manager.health_probe_address().expect("probes"),
        );
        manager.add(server).expect("the webhook server");
        let shutdown = manager.shutdown_token();
        let managing = tokio::spawn(manager.run());
        println!("webhook={webhook} metrics={metrics} health={health}");
        let _ = std::io::stdout().flush();
        let _ = tokio::task::spawn_blocking(|| {
            let mut rest = Vec::new();
            let _ = std::io::Read::read_to_end(&mut std::io::stdin(), &mut rest);
        })
        .await;
        shutdown.cancel();
        let _ = managing.await;
        env.stop().await;
    });
}

/// A field of `/proc/<pid>/status` in MiB.
fn status_mib(pid: u32, field: &str) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|kib| kib.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kib| kib / 1024.0)
}

/// One connection sending up to 400 KiB of a header that never ends, TLS or not; held
/// open until `stop`.
async fn endless_header(tls: Option<TlsConnector>, address: SocketAddr, from: IpAddr, stop: CancellationToken) {
    let socket = async {
        let socket = TcpSocket::new_v4()?;
        socket.bind(SocketAddr::new(from, 0))?;
        socket.connect(address).await
    };
    let Ok(tcp) = socket.await else { return };
    let mut stream: Pin<Box<dyn tokio::io::AsyncWrite + Send>> = match tls {
        Some(connector) => {
            let name = rustls::pki_types::ServerName::try_from("127.0.0.1").expect("a name");
            match connector.connect(name, tcp).await {
                Ok(tls) => Box::pin(tls),
                Err(_) => return,
            }
        }
        None => Box::pin(tcp),
    };
    let piece = vec![b'a'; 16 * 1024];
    let sending = async {
        stream
            .write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Padding: ")
            .await?;
        for _ in 0..25 {
            stream.write_all(&piece).await?;
        }
        Ok::<_, std::io::Error>(())
    };
    let _ = tokio::time::timeout(Duration::from_secs(10), sending).await;
    stop.cancelled().await;
}

pub fn headers(clients: &tokio::runtime::Runtime) {
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    for port in ["webhook", "metrics", "health"] {
        let Ok(mut child) = std::process::Command::new(&exe)
            .env("WEBHOOK_BENCH_HEADERS_CHILD", "1")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
        else {
            return;
        };
        let mut line = String::new();
        if let Some(stdout) = child.stdout.take() {
            let _ = BufReader::new(stdout).read_line(&mut line);
        }
        let address = line
            .split_whitespace()
            .find_map(|pair| pair.strip_prefix(&format!("{port}=")))
            .and_then(|address| address.parse::<SocketAddr>().ok());
        let Some(address) = address else {
            println!("bench=webhook-abuse kind=headers port={port} the child did not start: {line:?}");
            let _ = child.kill();
            let _ = child.wait();
            continue;
        };
        let pid = child.id();
        // The child settles (the embedded API server's first writes) before the baseline.
        std::thread::sleep(Duration::from_secs(2));
        let before = status_mib(pid, "VmRSS:");
        let conns = 1100;
        let (peak, after) = clients.block_on(async {
            // The webhook and metrics ports are HTTPS (with the child's own CA, which an
            // attacker has no need to check); the probes are plain HTTP.
            let tls = (port != "health").then(insecure_connector);
            let stop = CancellationToken::new();
            let tasks: Vec<_> = (0..conns)
                .map(|i| {
                    let from = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2 + u8::try_from(i % 40).unwrap_or(0)));
                    tokio::spawn(endless_header(tls.clone(), address, from, stop.clone()))
                })
                .collect();
            // Every connection has sent what it could (bounded by its 10 s).
            let mut peak_seen = 0.0_f64;
            let until = Instant::now() + Duration::from_secs(11);
            while Instant::now() < until {
                peak_seen = peak_seen.max(status_mib(pid, "VmRSS:"));
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            stop.cancel();
            for task in tasks {
                let _ = task.await;
            }
            tokio::time::sleep(Duration::from_secs(3)).await;
            (peak_seen.max(status_mib(pid, "VmHWM:")), status_mib(pid, "VmRSS:"))
        });
        println!(
            "bench=webhook-abuse kind=headers port={port} conns={conns} header_kib=400 before_rss_mib={before:.0} peak_rss_mib={peak:.0} after_rss_mib={after:.0}"
        );
        drop(child.stdin.take());
        let _ = child.wait();
    }
}

/// A TLS client that accepts any certificate: the attackers of the headers case do not
/// know the child's CA.
fn insecure_connector() -> TlsConnector {
    #[derive(Debug)]
    struct AnyCertificate(Arc<rustls::crypto::CryptoProvider>);
    impl rustls::client::danger::ServerCertVerifier for AnyCertificate {
        fn verify_server_cert(
            &self,
            _: &CertificateDer<'_>,
            _: &[CertificateDer<'_>],
            _: &rustls::pki_types::ServerName<'_>,
            _: &[u8],
            _: rustls::pki_types::UnixTime,
        ) -> Result<rustls::client::danger::ServerCertVerified, rustls::Error> {
            Ok(rustls::client::danger::ServerCertVerified::assertion())
        }
        fn verify_tls12_signature(
            &self,
            message: &[u8],
            cert: &CertificateDer<'_>,
            dss: &rustls::DigitallySignedStruct,
        ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
            rustls::crypto::verify_tls12_signature(message, cert, dss, &self.0.signature_verification_algorithms)
        }
        fn verify_tls13_signature(
            &self,
            message: &[u8],
            cert: &CertificateDer<'_>,
            dss: &rustls::DigitallySignedStruct,
        ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
            rustls::crypto::verify_tls13_signature(message, cert, dss, &self.0.signature_verification_algorithms)
        }
        fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
            self.0.signature_verification_algorithms.supported_schemes()
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(AnyCertificate(provider)))
        .with_no_client_auth();
    TlsConnector::from(Arc::new(config))
}
