//! The WebApp's webhook server under clients that send slowly, over real sockets on
//! 127.0.0.0/8: bodies that arrive mostly at once and then a byte now and then (from
//! kube-apiserver's own address, from forty others, and as 99 streams of one HTTP/2
//! connection), and headers that never end. Each test checks behaviour, not speed:
//! valid reviews, admission and conversion, small and of 100 KiB, are all answered
//! though the trickling bodies alone would hold the server's bytes in flight for
//! minutes and a review that waited for room would be refused; and the trickling
//! bodies are the ones refused. Latency under the same attacks is not measured here
//! (no timed tests): that belongs to a bench.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::body::{Body, Frame};
use hyper_util::rt::{TokioExecutor, TokioIo};
use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, ServerName};
use serde_json::Value;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::mpsc;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;
use tokio_util::sync::CancellationToken;
use wheelhouse::webhook::{Certificates, MinDataRate, WebhookOptions};
use wheelhouse_examples::webapp::webhooks;

#[path = "shared/reviews.rs"]
mod reviews;
use reviews::{admission, conversion};
use wheelhouse_manager::{Runnable as _, Stop};

const VALIDATE: &str = "/validate-example-com-v1-webapp?timeout=30s";
/// The attackers send no timeout: their deadline is the server's own, ten minutes here.
const ATTACKED: &str = "/validate-example-com-v1-webapp";
const CONVERT: &str = "/convert?timeout=30s";
/// What each trickling body declares, and what it sends at once.
const DECLARED: usize = 65_000;
const BURST: usize = 64_000;
/// Generous bound on anything that should happen at once; failing it means hung.
const HUNG: Duration = Duration::from_mins(1);

/// The server as an operator runs it (bodies under 64 KiB share 4 MiB), but that a
/// trickling body is never closed for its rate nor its deadline while the test lasts,
/// and that a review waits 20 s for room before it is refused. Seventy trickling bodies
/// of 64,000 bytes fill the share to within a piece of one (hyper reads a burst in
/// pieces of at most 32 KiB), so a review of 60 KB finds room only by eviction.
fn start(certificates: &Certificates, http2: bool) -> (SocketAddr, CancellationToken) {
    let options = WebhookOptions {
        host: [127, 0, 0, 1].into(),
        port: 0,
        certificates: Some(certificates.clone()),
        http2,
        min_body_rate: MinDataRate {
            bytes_per_second: 1,
            grace: Duration::from_mins(10),
        },
        request_timeout: Duration::from_mins(10),
        in_flight_wait: Duration::from_secs(20),
        ..WebhookOptions::default()
    };
    let mut server = webhooks::webhook_server(options);
    let address = server.bind().expect("the server binds");
    let stop = CancellationToken::new();
    let signal = Stop::new(stop.clone());
    tokio::spawn(async move { server.start(signal).await.expect("the server runs") });
    (address, stop)
}

fn connector(certificates: &Certificates, alpn: &[&[u8]]) -> TlsConnector {
    let mut roots = rustls::RootCertStore::empty();
    for certificate in CertificateDer::pem_slice_iter(certificates.ca_bundle().as_bytes()) {
        roots.add(certificate.unwrap()).unwrap();
    }
    let mut config = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    TlsConnector::from(Arc::new(config))
}

async fn tls_from(
    connector: &TlsConnector,
    address: SocketAddr,
    from: Ipv4Addr,
) -> std::io::Result<TlsStream<TcpStream>> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(IpAddr::V4(from), 0))?;
    let tcp = socket.connect(address).await?;
    connector.connect(ServerName::try_from("127.0.0.1").unwrap(), tcp).await
}

/// One review on a fresh HTTP/1.1 connection from 127.0.0.1, as kube-apiserver
/// sends it: the answer's JSON, or why there was none.
async fn review(connector: &TlsConnector, address: SocketAddr, path: &str, body: Bytes) -> Result<Value, String> {
    let tls = tls_from(connector, address, Ipv4Addr::LOCALHOST)
        .await
        .map_err(|e| e.to_string())?;
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tls))
        .await
        .map_err(|e| e.to_string())?;
    tokio::spawn(connection);
    let request = http::Request::post(path)
        .header("content-type", "application/json")
        .header("host", "127.0.0.1")
        .body(Full::new(body))
        .map_err(|e| e.to_string())?;
    let answer = sender.send_request(request).await.map_err(|e| e.to_string())?;
    let status = answer.status();
    let body = answer
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    if status != 200 {
        return Err(format!("{status}: {}", String::from_utf8_lossy(&body)));
    }
    serde_json::from_slice(&body).map_err(|e| e.to_string())
}

/// Valid reviews of each kind, one after another: every one answered as it should be.
async fn reviews_all_answered(connector: &TlsConnector, address: SocketAddr, what: &str) {
    for i in 0..10 {
        let sizes = [("small", 0), ("60 KB", 60_000), ("100 KiB", 100 * 1024)];
        for (kind, padding) in sizes {
            let answered = review(connector, address, VALIDATE, admission(&format!("review-{i}"), padding)).await;
            let answer = answered.unwrap_or_else(|error| panic!("{what}: {kind} review {i} failed: {error}"));
            assert_eq!(
                answer["response"]["allowed"], true,
                "{what}: {kind} review {i}: {answer}"
            );
        }
        let converted = review(connector, address, CONVERT, conversion())
            .await
            .unwrap_or_else(|error| panic!("{what}: conversion {i} failed: {error}"));
        assert_eq!(
            converted["response"]["result"]["status"], "Success",
            "{what}: {converted}"
        );
        assert_eq!(converted["response"]["convertedObjects"][4]["spec"]["port"], 8080);
    }
}

/// A body that sends `BURST` of its `DECLARED` bytes and then a byte a second, until
/// answered: the status line of its answer (empty when closed without one).
async fn trickle_http1(mut tls: TlsStream<TcpStream>, stop: CancellationToken) -> String {
    let header = format!(
        "POST {ATTACKED} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {DECLARED}\r\n\r\n"
    );
    if tls.write_all(header.as_bytes()).await.is_err() || tls.write_all(&vec![b' '; BURST]).await.is_err() {
        return String::new();
    }
    let mut answer = Vec::new();
    loop {
        let mut buffer = [0_u8; 256];
        tokio::select! {
            read = tls.read(&mut buffer) => match read {
                Ok(0) | Err(_) => break,
                Ok(read) => {
                    answer.extend_from_slice(&buffer[..read]);
                    if answer.contains(&b'\n') {
                        break;
                    }
                }
            },
            () = tokio::time::sleep(Duration::from_secs(1)) => {
                if tls.write_all(b" ").await.is_err() {
                    break;
                }
            }
            () = stop.cancelled() => break,
        }
    }
    String::from_utf8_lossy(&answer)
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// Runs `reviews_all_answered` under `count` trickling HTTP/1.1 bodies from `sources`.
async fn under_trickling_http1(sources: &[Ipv4Addr], count: usize, what: &str) {
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let (address, server) = start(&certificates, false);
    let connector = connector(&certificates, &[b"http/1.1"]);
    let stop = CancellationToken::new();
    let mut trickles = Vec::new();
    for i in 0..count {
        let tls = tls_from(&connector, address, sources[i % sources.len()])
            .await
            .expect("an attacking connection");
        trickles.push(tokio::spawn(trickle_http1(tls, stop.clone())));
    }
    // The bursts arrive and the bodies begin to trickle.
    tokio::time::sleep(Duration::from_millis(500)).await;
    tokio::time::timeout(HUNG, reviews_all_answered(&connector, address, what))
        .await
        .unwrap_or_else(|_| panic!("{what}: the reviews hung"));
    stop.cancel();
    let mut evicted = 0;
    for trickle in trickles {
        let status = trickle.await.unwrap();
        assert!(
            !status.starts_with("HTTP/1.1 200"),
            "{what}: a trickling body was answered: {status}"
        );
        evicted += usize::from(status.starts_with("HTTP/1.1 408"));
    }
    assert!(
        evicted > 0,
        "{what}: the reviews' room came from trickling bodies, which were refused"
    );
    server.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trickling_bodies_from_the_clients_own_address_give_way_to_its_reviews() {
    under_trickling_http1(&[Ipv4Addr::LOCALHOST], 70, "70 from 127.0.0.1").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn trickling_bodies_from_forty_addresses_give_way_to_the_reviews_of_another() {
    let sources: Vec<Ipv4Addr> = (10..50).map(|last| Ipv4Addr::new(127, 0, 0, last)).collect();
    under_trickling_http1(&sources, 70, "70 from 40 addresses").await;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ninety_nine_trickling_streams_of_one_http2_connection_give_way_to_reviews() {
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let (address, server) = start(&certificates, true);
    let attacker = connector(&certificates, &[b"h2"]);
    let tls = tls_from(&attacker, address, Ipv4Addr::LOCALHOST).await.unwrap();
    assert_eq!(tls.get_ref().1.alpn_protocol(), Some(&b"h2"[..]));
    let (sender, connection) = hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(tls))
        .await
        .expect("HTTP/2");
    tokio::spawn(connection);
    let stop = CancellationToken::new();
    let mut streams = Vec::new();
    for _ in 0..99 {
        let (feed, body) = mpsc::channel(4);
        let request = http::Request::post(ATTACKED)
            .header("content-type", "application/json")
            .header("content-length", DECLARED)
            .body(Fed(body))
            .unwrap();
        let mut sender = sender.clone();
        let stop = stop.clone();
        streams.push(tokio::spawn(async move {
            let answered = sender.send_request(request);
            tokio::pin!(answered);
            let _ = feed.send(Bytes::from(vec![b' '; BURST])).await;
            loop {
                tokio::select! {
                    answer = &mut answered => return answer.map_or(0, |a| a.status().as_u16()),
                    () = tokio::time::sleep(Duration::from_secs(1)) => {
                        let _ = feed.send(Bytes::from_static(b" ")).await;
                    }
                    () = stop.cancelled() => return 0,
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let connector = connector(&certificates, &[b"http/1.1"]);
    tokio::time::timeout(HUNG, reviews_all_answered(&connector, address, "99 HTTP/2 streams"))
        .await
        .expect("the reviews hung");
    stop.cancel();
    let mut evicted = 0;
    for stream in streams {
        let status = stream.await.unwrap();
        assert_ne!(status, 200, "a trickling stream was answered");
        evicted += usize::from(status == 408);
    }
    assert!(evicted > 0, "the streams' bodies gave way, and were refused");
    server.cancel();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_header_that_never_ends_is_refused_at_its_bound() {
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let (address, server) = start(&certificates, false);
    let connector = connector(&certificates, &[b"http/1.1"]);
    let mut tls = tls_from(&connector, address, Ipv4Addr::LOCALHOST).await.unwrap();
    let sending = async {
        tls.write_all(b"POST /convert HTTP/1.1\r\nX-Padding: ").await?;
        // A field past the 16 KiB bound, never ended (hyper's own buffer would take
        // 400 KiB of it): a little past, as a server that closes with much unread
        // resets the connection, and the answer may be lost.
        tls.write_all(&vec![b'a'; 20 * 1024]).await
    };
    let _ = tokio::time::timeout(HUNG, sending).await;
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(HUNG, tls.read_to_end(&mut answer)).await;
    assert!(
        answer.starts_with(b"HTTP/1.1 431"),
        "{}",
        String::from_utf8_lossy(&answer)
    );
    // And the server goes on answering.
    let answer = review(&connector, address, VALIDATE, admission("after", 0))
        .await
        .unwrap();
    assert_eq!(answer["response"]["allowed"], true);
    server.cancel();
}
