//! What the cache reports when the API server cannot be reached: a sync that times out
//! names each informer's last watch error, with the URL the request went to and every
//! cause (refused, timed out, TLS), not kube's bare `client error (Connect)`.
//!
//! The "servers" are sockets on 127.0.0.1 this test opens (or closes); no API server is
//! involved, so the tests are the same with `USE_EXISTING_CLUSTER=true`.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use wheelhouse_cache::{Cache, Scope, name_request_urls};

/// How long a request may take to connect (TCP and TLS) before it fails.
const CONNECT_TIMEOUT: Duration = Duration::from_millis(300);

/// The message of the cache's sync error once its one informer's watch has failed
/// against `url`.
async fn sync_error(url: &str) -> String {
    let cluster_url: http::Uri = url.parse().expect("a URL");
    let mut config = kube::Config::new(cluster_url.clone());
    config.connect_timeout = Some(CONNECT_TIMEOUT);
    config.read_timeout = Some(CONNECT_TIMEOUT);
    let client = name_request_urls(kube::Client::try_from(config).expect("a client"), Some(&cluster_url));
    let cache = Cache::new(client);
    let informer = cache.informer::<ConfigMap>(Scope::namespace("default"));
    cache.start();
    // Bounded: the first list fails within the connect timeout, or at once.
    for _ in 0..600 {
        if informer.last_error().is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(informer.last_error().is_some(), "the watch never failed against {url}");
    let error = cache
        .wait_for_sync(Duration::ZERO)
        .await
        .expect_err("nothing to sync from");
    assert_eq!(error.informers.len(), 1, "{error}");
    assert_eq!(error.failures.len(), 1, "{error}");
    error.to_string()
}

fn assert_names(message: &str, url: &str, cause: &str) {
    let request = format!("GET {url}/api/v1/namespaces/default/configmaps");
    assert!(message.contains(&request), "no {request:?} in: {message}");
    assert!(
        message.to_lowercase().contains(&cause.to_lowercase()),
        "no {cause:?} in: {message}"
    );
}

#[tokio::test]
async fn a_refused_connection_names_the_url_and_the_refusal() {
    // A port that was just free, and is closed now.
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port();
    let url = format!("https://127.0.0.1:{port}");
    let message = sync_error(&url).await;
    assert_names(&message, &url, "Connection refused");
    assert!(message.contains("tcp connect error"), "{message}");
}

#[tokio::test]
async fn a_server_that_never_answers_names_the_url_and_the_timeout() {
    // The kernel accepts connections into the backlog; nothing ever reads or answers,
    // so the TLS handshake waits until the connect timeout.
    let listener = TcpListener::bind("127.0.0.1:0").expect("a listener");
    let url = format!("https://{}", listener.local_addr().expect("its address"));
    let message = sync_error(&url).await;
    assert_names(&message, &url, "timed out (deadline has elapsed)");
    assert!(message.contains("client error (Connect)"), "{message}");
    drop(listener);
}

#[tokio::test]
async fn a_server_that_does_not_speak_tls_names_the_url_and_the_tls_failure() {
    // Plain HTTP where the client expects TLS: each connection is answered with an
    // HTTP response instead of a ServerHello.
    let listener = TcpListener::bind("127.0.0.1:0").expect("a listener");
    let url = format!("https://{}", listener.local_addr().expect("its address"));
    std::thread::spawn(move || {
        for stream in listener.incoming().take(64) {
            let Ok(mut stream) = stream else { continue };
            let mut hello = [0_u8; 512];
            let _ = stream.read(&mut hello);
            let _ = stream.write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
        }
    });
    let message = sync_error(&url).await;
    assert_names(&message, &url, "corrupt message");
}
