//! The server under clients that are busy but silent, over real sockets on
//! 127.0.0.0/8: headers whose bodies never come (from many addresses, and from
//! kube-apiserver's own), bodies declared and never sent, answers never read, and a
//! certificate file that never reads. Each test asserts that kube-apiserver's reviews
//! are still all answered (functional checks; latency figures are in `benches/`).

mod common;

use std::net::Ipv4Addr;
use std::time::Duration;

use common::{AllowAll, Client, HUNG, VALIDATE, local, review, review_of, start};
use k8s_openapi::api::core::v1::ConfigMap;
use serde_json::json;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use wheelhouse_webhook::{Certificates, Defaulter, Denied, MinDataRate, Request, WebhookOptions, WebhookServer};

/// kube-apiserver's address in these tests; attackers also come from 127.0.0.2...
const CLIENT: Ipv4Addr = Ipv4Addr::LOCALHOST;

/// A header that announces `length` bytes of body, and none of the body.
fn silent_header(length: usize) -> Vec<u8> {
    format!("POST {VALIDATE} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n")
        .into_bytes()
}

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

/// `count` fresh connections from `CLIENT`, each with one review: every one allowed.
async fn reviews_all_answered(client: &Client, address: std::net::SocketAddr, count: usize, what: &str) {
    for i in 0..count {
        let review = async {
            let mut connection = client.connect(address).await.map_err(|e| e.to_string())?;
            connection.allowed(&format!("valid-{i}")).await
        };
        let answered = tokio::time::timeout(HUNG, review)
            .await
            .unwrap_or_else(|_| panic!("review {i} hung {what}"));
        if let Err(error) = answered {
            panic!("review {i} failed {what}: {error}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_bodies_from_many_addresses_and_from_the_clients_own_never_lock_it_out() {
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let options = WebhookOptions {
        max_connections: 48,
        max_connections_per_peer: 12,
        // Long enough that only eviction can make room during the test.
        min_body_rate: MinDataRate {
            bytes_per_second: 1,
            grace: Duration::from_mins(1),
        },
        request_timeout: Duration::from_mins(1),
        ..local(&certificates)
    };
    let (address, stop, running) = start(WebhookServer::new(options).validator::<ConfigMap>(AllowAll));
    let client = Client::trusting(certificates.ca_bundle());

    // Twice the server's bound from eight other addresses, each at its own bound,
    // and the client's own address's bound: all headers with no body.
    let mut silent = Vec::new();
    for source in (2..10).map(|last| Ipv4Addr::new(127, 0, 0, last)).chain([CLIENT]) {
        for _ in 0..12 {
            if let Ok(mut tls) = client.tls_from(address, source).await {
                let _ = tls.write_all(&silent_header(100)).await;
                silent.push(tls);
            }
        }
    }
    assert!(silent.len() >= 96, "the attack opened {} connections", silent.len());
    // Every header read: the connections are busy, waiting for their bodies.
    tokio::time::sleep(Duration::from_millis(300)).await;
    reviews_all_answered(&client, address, 20, "under silent bodies").await;
    drop(silent);
    stop.cancel();
    running.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_under_the_minimum_rate_is_closed_well_before_the_request_deadline() {
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let options = WebhookOptions {
        min_body_rate: MinDataRate {
            bytes_per_second: 100,
            grace: Duration::from_millis(300),
        },
        request_timeout: Duration::from_mins(1),
        ..local(&certificates)
    };
    let (address, stop, running) = start(WebhookServer::new(options).validator::<ConfigMap>(AllowAll));
    let client = Client::trusting(certificates.ca_bundle());
    let mut stalled = client.tls(address).await.unwrap();
    stalled.write_all(&silent_header(100)).await.unwrap();
    stalled.write_all(b"{\"apiVersion\":").await.unwrap();
    assert!(closed_by_server(&mut stalled).await, "a stalled body is closed");

    // Most of a body at once, then a byte every 200 ms: under 30 bytes a period,
    // however much came first. Answered 408, and closed.
    let mut trickle = client.tls(address).await.unwrap();
    trickle.write_all(&silent_header(5000)).await.unwrap();
    trickle.write_all(&[b' '; 4900]).await.unwrap();
    let started = std::time::Instant::now();
    let mut answer = Vec::new();
    let answered = async {
        loop {
            let mut byte = [0_u8; 1];
            tokio::select! {
                read = trickle.read(&mut byte) => match read {
                    Ok(0) | Err(_) => return,
                    Ok(_) => answer.push(byte[0]),
                },
                () = tokio::time::sleep(Duration::from_millis(200)) => {
                    if trickle.write_all(b" ").await.is_err() {
                        return;
                    }
                }
            }
        }
    };
    tokio::time::timeout(HUNG, answered)
        .await
        .expect("the trickle is closed");
    assert!(
        String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 408"),
        "{}",
        String::from_utf8_lossy(&answer)
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "closed within a period or so, not at the deadline"
    );

    // A body that keeps arriving, if slowly, is read whole and answered.
    let body = review("slow");
    let mut slow = client.tls(address).await.unwrap();
    slow.write_all(&silent_header(body.len())).await.unwrap();
    for piece in body.chunks(body.len() / 4 + 1) {
        tokio::time::sleep(Duration::from_millis(100)).await;
        slow.write_all(piece).await.unwrap();
    }
    let mut answer = vec![0_u8; 12];
    slow.read_exact(&mut answer).await.unwrap();
    assert_eq!(&answer, b"HTTP/1.1 200");
    stop.cancel();
    running.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_declared_and_never_sent_hold_no_budget() {
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let options = WebhookOptions {
        max_body_bytes: 1024 * 1024,
        max_in_flight_bytes: 1024 * 1024,
        in_flight_wait: Duration::from_millis(200),
        ..local(&certificates)
    };
    let (address, stop, running) = start(WebhookServer::new(options).validator::<ConfigMap>(AllowAll));
    let client = Client::trusting(certificates.ca_bundle());
    let mut declared = Vec::new();
    for _ in 0..8 {
        let mut tls = client.tls(address).await.unwrap();
        tls.write_all(&silent_header(1024 * 1024)).await.unwrap();
        declared.push(tls);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    // With kube-apiserver's shortest timeout, every review is answered at once.
    for i in 0..10 {
        let mut connection = client.connect(address).await.unwrap();
        let path = format!("{VALIDATE}?timeout=1s");
        let (status, body) = connection.post(&path, review(&format!("r-{i}"))).await.unwrap();
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    }
    // And so is a large one: the declared megabytes were never counted.
    let large = review_of(
        "large",
        &json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "large"}, "data": {"k": "v".repeat(512 * 1024)}}),
    );
    let mut connection = client.connect(address).await.unwrap();
    let (status, _) = connection.post(VALIDATE, large).await.unwrap();
    assert_eq!(status, 200);
    drop(declared);
    stop.cancel();
    running.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_body_that_stalls_gives_its_room_to_a_review_and_small_bodies_never_wait() {
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let options = WebhookOptions {
        max_body_bytes: 1024 * 1024,
        max_in_flight_bytes: 1024 * 1024,
        // The stalled body would hold its bytes for minutes, and a review that waited
        // for them would be refused first: only eviction answers it.
        in_flight_wait: Duration::from_secs(20),
        request_timeout: Duration::from_mins(1),
        min_body_rate: MinDataRate {
            bytes_per_second: 1,
            grace: Duration::from_mins(1),
        },
        ..local(&certificates)
    };
    let (address, stop, running) = start(WebhookServer::new(options).validator::<ConfigMap>(AllowAll));
    let client = Client::trusting(certificates.ca_bundle());

    // A body that sends all but its last bytes, holding the large share, and stalls.
    let mut holding = client.tls(address).await.unwrap();
    holding.write_all(&silent_header(1024 * 1024)).await.unwrap();
    holding.write_all(&vec![b' '; 1024 * 1024 - 10]).await.unwrap();
    // Small bodies have a share of their own meanwhile.
    reviews_all_answered(&client, address, 5, "while a large body holds the large share").await;

    let large = review_of(
        "large",
        &json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "large"}, "data": {"k": "v".repeat(200 * 1024)}}),
    );
    let mut served = client.connect(address).await.unwrap();
    let (status, body) = served.post(VALIDATE, large).await.unwrap();
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(HUNG, holding.read_to_end(&mut answer)).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("gave it"), "{answer}");
    stop.cancel();
    running.await.unwrap();
}

/// Adds a large value to every `ConfigMap`, so answers are larger than requests.
struct Padding;

impl Defaulter<ConfigMap> for Padding {
    async fn apply_defaults(&self, map: &mut ConfigMap, _: &Request) -> Result<(), Denied> {
        map.data
            .get_or_insert_default()
            .insert("padding".into(), "p".repeat(256 * 1024));
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_that_never_read_their_answers_leave_reviews_answered() {
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    let options = WebhookOptions {
        max_in_flight_bytes: 8 * 1024 * 1024,
        in_flight_wait: Duration::from_millis(200),
        ..local(&certificates)
    };
    let server = WebhookServer::new(options)
        .validator::<ConfigMap>(AllowAll)
        .defaulter::<ConfigMap>(Padding);
    let (address, stop, running) = start(server);
    let client = Client::trusting(certificates.ca_bundle());
    let mut unread = Vec::new();
    for i in 0..40 {
        let source = Ipv4Addr::new(127, 0, 0, 2 + (i % 8));
        let Ok(mut tls) = client.tls_from(address, source).await else {
            continue;
        };
        for j in 0..4 {
            let body = review(&format!("unread-{i}-{j}"));
            let header = format!(
                "POST /mutate--v1-configmap HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
                body.len()
            );
            let _ = tls.write_all(header.as_bytes()).await;
            let _ = tls.write_all(&body).await;
        }
        unread.push(tls);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    reviews_all_answered(&client, address, 10, "while answers go unread").await;
    drop(unread);
    stop.cancel();
    running.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_certificate_file_that_never_reads_leaves_handshakes_served() {
    let dir = tempfile::tempdir().unwrap();
    let certificates = Certificates::self_signed(["127.0.0.1"]).unwrap();
    certificates.write_to(dir.path()).unwrap();
    let options = WebhookOptions {
        certificates: None,
        cert_dir: dir.path().to_owned(),
        cert_poll_interval: Duration::from_millis(50),
        ..local(&certificates)
    };
    let (address, stop, running) = start(WebhookServer::new(options).validator::<ConfigMap>(AllowAll));
    let client = Client::trusting(certificates.ca_bundle());
    reviews_all_answered(&client, address, 1, "before the FIFO").await;

    let fifo = dir.path().join(wheelhouse_webhook::CERT_FILE);
    std::fs::remove_file(&fifo).unwrap();
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    // Several polls: each finds the read from before still hanging.
    tokio::time::sleep(Duration::from_millis(500)).await;
    reviews_all_answered(&client, address, 10, "while tls.crt is a FIFO").await;

    // Release the hanging read (the runtime waits for it when dropped): a writer
    // opens the FIFO without waiting for a reader, the files are put back, and the
    // writer closes, so the read sees the end of the FIFO and no new one hangs.
    let writer = {
        use std::os::unix::fs::OpenOptionsExt as _;
        std::fs::OpenOptions::new().write(true).custom_flags(0o4000).open(&fifo)
    };
    std::fs::remove_file(&fifo).unwrap();
    certificates.write_to(dir.path()).unwrap();
    drop(writer);
    stop.cancel();
    running.await.unwrap();
}
