//! The client the manager makes from a `kube::Config`: kube's, except that a 429, 503
//! or 504 is retried on a short backoff of its own instead of after the server's
//! `Retry-After`.
//!
//! kube's default retry sleeps inside the request for as long as `Retry-After` says.
//! A restarting kube-apiserver answers requests for custom resources `503 server is
//! starting` with `Retry-After: 10` until its CRD informer has synced (1.19's
//! apiextensions handler, `serverStartingError`), which is shortly before `/readyz`:
//! an informer whose list arrived then slept 10 s inside it, and its cache stayed as
//! before the outage for seconds after the server was ready (2.9-5.4 s after `/readyz`
//! here). Retrying a few times within a second, and then leaving it to the caller's own
//! backoff (the informers' from 0.2 s to 2 s, the workqueue's, the elector's retry
//! period), brings the caches back within about 2 s of readiness at worst.

use std::time::Duration;

use kube::client::ClientBuilder;
use kube::client::retry::RetryPolicy;
use tower::buffer::BufferLayer;
use tower::retry::RetryLayer;

/// The first retry's wait; each next one doubles, jittered.
const FIRST_RETRY: Duration = Duration::from_millis(100);
/// The longest wait between two retries.
const LONGEST_RETRY: Duration = Duration::from_secs(1);
/// How many times a 429, 503 or 504 is retried before the caller sees it.
const RETRIES: u32 = 3;

/// kube's client for `config`, its retries as the [module](self) says.
pub(crate) fn client_of(config: &kube::Config) -> Result<kube::Client, kube::Error> {
    let mut config = config.clone();
    config.default_retry = false;
    let policy = RetryPolicy::new(FIRST_RETRY, LONGEST_RETRY, RETRIES, false)
        .map_err(|error| kube::Error::Service(Box::new(error)))?;
    // The retry clones the service it retries; kube's stack is boxed, so it goes
    // behind a buffer (as kube's own `Client` puts its stack).
    Ok(ClientBuilder::try_from(config)?
        .with_layer(&BufferLayer::new(1024))
        .with_layer(&RetryLayer::new(policy))
        .build())
}

#[cfg(test)]
mod tests {
    use std::convert::Infallible;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use http_body_util::Full;
    use hyper::service::service_fn;
    use hyper_util::rt::TokioIo;
    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::Api;
    use tokio::net::TcpListener;

    use super::*;

    /// A server that answers `503 server is starting` with `Retry-After: 10` to every
    /// request, counting them.
    async fn starting_server() -> (String, Arc<AtomicUsize>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let address = listener.local_addr().expect("an address");
        let count = Arc::new(AtomicUsize::new(0));
        let counted = count.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let counted = counted.clone();
                tokio::spawn(async move {
                    let service = service_fn(move |_request| {
                        counted.fetch_add(1, Ordering::SeqCst);
                        async move {
                            let body = r#"{"kind":"Status","apiVersion":"v1","status":"Failure","message":"server is starting","reason":"ServiceUnavailable","details":{"retryAfterSeconds":10},"code":503}"#;
                            Ok::<_, Infallible>(
                                http::Response::builder()
                                    .status(503)
                                    .header("Retry-After", "10")
                                    .header("Content-Type", "application/json")
                                    .body(Full::new(bytes::Bytes::from(body)))
                                    .expect("a response"),
                            )
                        }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        (format!("http://{address}"), count)
    }

    #[tokio::test]
    async fn a_starting_server_is_retried_briefly_not_after_its_retry_after() {
        let (url, count) = starting_server().await;
        let config = kube::Config::new(url.parse().expect("a URL"));
        let maps: Api<ConfigMap> = Api::namespaced(client_of(&config).expect("a client"), "default");
        let started = tokio::time::Instant::now();
        let answer = maps.list(&kube::api::ListParams::default()).await;
        assert!(
            matches!(&answer, Err(kube::Error::Api(status)) if status.code == 503),
            "{answer:?}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "the caller saw the 503 after {:?}, not after Retry-After's 10 s",
            started.elapsed()
        );
        assert_eq!(
            count.load(Ordering::SeqCst),
            1 + RETRIES as usize,
            "retried {RETRIES} times"
        );
    }
}
