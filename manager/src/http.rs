//! The metrics and health-probe server: `/metrics` (Prometheus text), `/healthz` and
//! `/readyz`, on the manager's [serving layer](crate::serve) with their own limits
//! ([`ServeLimits::metrics`], [`ServeLimits::probes`]): header, body and idle
//! timeouts, a connection cap with the longest-silent connection closed past it, and
//! an accept loop that backs off. Probes are plain HTTP, for the kubelet. Metrics are
//! HTTPS with every request authenticated and authorized by the API server
//! ([`metrics_auth`](crate::metrics_auth)) when secure, as kubebuilder scaffolds them;
//! else plain HTTP, and then they may share the probes' address.

use std::net::SocketAddr;
use std::sync::Arc;

use http::{Method, Request, Response, StatusCode, header};
use prometheus::{Encoder, Registry, TextEncoder};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::Error;
use crate::cert_watcher::CertWatcher;
use crate::health::Checks;
use crate::metrics_auth::{Decision, MetricsAuth};
use crate::serve::{Answer, AnswerBody, RequestBody, ServeLimits, Service, Tls, serve};

/// HTTPS with authentication and authorization: what a secure metrics listener adds.
pub(crate) struct Secure {
    pub acceptor: tokio_rustls::TlsAcceptor,
    /// Reloads the certificate from a directory; None for one held in memory.
    pub watcher: Option<CertWatcher>,
    pub auth: Arc<MetricsAuth>,
}

/// What one listener serves.
#[derive(Clone)]
pub(crate) struct Routes {
    pub metrics: Option<Registry>,
    pub probes: Option<(Checks, Checks)>,
}

/// A bound listener, not yet serving.
pub(crate) struct Listener {
    socket: std::net::TcpListener,
    routes: Routes,
    secure: Option<Secure>,
    what: &'static str,
    /// The serving limits; None for the table's (metrics' or probes').
    limits: Option<ServeLimits>,
}

impl Listener {
    /// Binds now, so a taken port fails the manager's build with the address named.
    pub(crate) fn bind(address: SocketAddr, what: &'static str, routes: Routes) -> Result<Self, Error> {
        let bind = |address| {
            let listener = std::net::TcpListener::bind(address)?;
            listener.set_nonblocking(true)?;
            Ok(listener)
        };
        let listener = bind(address).map_err(|source| Error::Bind { what, address, source })?;
        Ok(Self {
            socket: listener,
            routes,
            secure: None,
            what,
            limits: None,
        })
    }

    /// Serves with `limits` instead of the table's.
    #[cfg(test)]
    fn with_limits(mut self, limits: ServeLimits) -> Self {
        self.limits = Some(limits);
        self
    }

    /// Serves over HTTPS, every request authenticated and authorized.
    pub(crate) fn secure(mut self, secure: Secure) -> Self {
        self.secure = Some(secure);
        self
    }

    pub(crate) fn local_addr(&self) -> Option<SocketAddr> {
        self.socket.local_addr().ok()
    }

    /// Serves until `stop` is cancelled; then finishes the requests in flight.
    pub(crate) async fn serve(self, stop: CancellationToken) -> Result<(), std::io::Error> {
        let listener = TcpListener::from_std(self.socket)?;
        let limits = self.limits.unwrap_or_else(|| {
            if self.routes.metrics.is_some() {
                ServeLimits::metrics()
            } else {
                ServeLimits::probes()
            }
        });
        let (tls, auth) = match self.secure {
            Some(secure) => (
                Some(Tls {
                    acceptor: secure.acceptor,
                    watcher: secure.watcher,
                }),
                Some(secure.auth),
            ),
            None => (None, None),
        };
        let service = Arc::new(Endpoints {
            routes: self.routes,
            auth,
        });
        serve(self.what, listener, tls, service, limits, stop.cancelled_owned()).await;
        Ok(())
    }
}

/// The routes of one listener, each request reviewed first when metrics are secure.
struct Endpoints {
    routes: Routes,
    auth: Option<Arc<MetricsAuth>>,
}

impl Service for Endpoints {
    async fn call(&self, request: Request<RequestBody>) -> Answer {
        let Some(auth) = &self.auth else {
            return self.routes.answer(&request);
        };
        let authorization = request
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|value| value.to_str().ok());
        match auth
            .decide(authorization, request.method().as_str(), request.uri().path())
            .await
        {
            Decision::Allowed => self.routes.answer(&request),
            Decision::Unauthenticated => text(StatusCode::UNAUTHORIZED, "Unauthorized\n".into()),
            Decision::Forbidden { user } => {
                tracing::debug!(%user, path = request.uri().path(), "metrics: authorization denied");
                text(StatusCode::FORBIDDEN, format!("Authorization denied for user {user}\n"))
            }
            Decision::Failed(why) => {
                tracing::warn!(%why, "metrics: could not review a request");
                text(StatusCode::INTERNAL_SERVER_ERROR, format!("{why}\n"))
            }
        }
    }
}

impl Routes {
    fn answer<B>(&self, request: &Request<B>) -> Answer {
        if request.method() != Method::GET && request.method() != Method::HEAD {
            return text(StatusCode::METHOD_NOT_ALLOWED, "only GET is served\n".into());
        }
        let path = request.uri().path();
        let query = request.uri().query().unwrap_or("");
        if path == "/metrics"
            && let Some(registry) = &self.metrics
        {
            return metrics(registry);
        }
        if let Some((healthz, readyz)) = &self.probes {
            let (endpoint, checks, rest) = if let Some(rest) = path.strip_prefix("/healthz") {
                ("healthz", healthz, rest)
            } else if let Some(rest) = path.strip_prefix("/readyz") {
                ("readyz", readyz, rest)
            } else {
                return not_found();
            };
            let only = match rest {
                "" | "/" => None,
                name => match name.strip_prefix('/') {
                    Some(name) => Some(name),
                    None => return not_found(),
                },
            };
            let mut verbose = false;
            let mut excluded = Vec::new();
            for (key, value) in form_pairs(query) {
                match key {
                    "verbose" => verbose = value != "false",
                    "exclude" => excluded.push(value),
                    _ => {}
                }
            }
            return match checks.answer(endpoint, only, verbose, &excluded) {
                Some(answer) if answer.healthy => text(StatusCode::OK, answer.body),
                Some(answer) => text(StatusCode::INTERNAL_SERVER_ERROR, answer.body),
                None => not_found(),
            };
        }
        not_found()
    }
}

/// `key=value` pairs of a query string (no percent-decoding: check names are plain).
fn form_pairs(query: &str) -> impl Iterator<Item = (&str, &str)> {
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| pair.split_once('=').unwrap_or((pair, "")))
}

fn metrics(registry: &Registry) -> Answer {
    let encoder = TextEncoder::new();
    let mut body = Vec::new();
    match encoder.encode(&registry.gather(), &mut body) {
        Ok(()) => Response::builder()
            .status(StatusCode::OK)
            .header(header::CONTENT_TYPE, encoder.format_type())
            .body(AnswerBody::new(body))
            .unwrap_or_else(|_| text(StatusCode::INTERNAL_SERVER_ERROR, String::new())),
        Err(error) => text(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("encoding metrics failed: {error}\n"),
        ),
    }
}

fn not_found() -> Answer {
    text(StatusCode::NOT_FOUND, "404 page not found\n".into())
}

fn text(status: StatusCode, body: String) -> Answer {
    let mut response = Response::new(AnswerBody::new(body));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response.headers_mut().insert(
        header::X_CONTENT_TYPE_OPTIONS,
        header::HeaderValue::from_static("nosniff"),
    );
    response
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    use tokio::net::TcpStream;

    use super::*;

    const HUNG: Duration = Duration::from_secs(30);

    /// Reads until the peer closes (or `HUNG` passes): true when it closed.
    async fn closed_by_server(stream: &mut TcpStream) -> bool {
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

    async fn get(address: SocketAddr, path: &str) -> String {
        let asking = async {
            let mut tcp = TcpStream::connect(address).await.unwrap();
            let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            tcp.write_all(request.as_bytes()).await.unwrap();
            let mut answer = String::new();
            tcp.read_to_string(&mut answer).await.unwrap();
            answer
        };
        tokio::time::timeout(HUNG, asking).await.expect("answered")
    }

    /// Slowloris headers and idle connections, past the connection bound, on the
    /// metrics and the probe listener alike: each is closed at its timer, and a
    /// fresh request is answered throughout.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn slowloris_and_idle_connections_are_closed_and_fresh_requests_answered() {
        let limits = ServeLimits {
            max_connections: 32,
            max_connections_per_peer: 16,
            header_read_timeout: Duration::from_millis(300),
            idle_timeout: Duration::from_millis(500),
            ..ServeLimits::probes()
        };
        let routes = [
            (
                "/metrics",
                Routes {
                    metrics: Some(Registry::new()),
                    probes: None,
                },
            ),
            (
                "/healthz",
                Routes {
                    metrics: None,
                    probes: Some((Checks::default(), Checks::default())),
                },
            ),
        ];
        for (path, routes) in routes {
            let listener = Listener::bind(SocketAddr::from(([127, 0, 0, 1], 0)), "test", routes)
                .unwrap()
                .with_limits(limits);
            let address = listener.local_addr().unwrap();
            let stop = CancellationToken::new();
            let serving = tokio::spawn(listener.serve(stop.clone()));

            let mut slowloris = Vec::new();
            for _ in 0..100 {
                let mut tcp = TcpStream::connect(address).await.unwrap();
                let _ = tcp.write_all(format!("GET {path} HTTP/1.1\r\n").as_bytes()).await;
                slowloris.push(tcp);
            }
            let mut idle = TcpStream::connect(address).await.unwrap();
            for _ in 0..5 {
                assert!(get(address, path).await.starts_with("HTTP/1.1 200"), "{path}");
            }
            assert!(
                closed_by_server(&mut idle).await,
                "{path}: an idle connection is closed"
            );
            let mut last = slowloris.pop().unwrap();
            let _ = last.write_all(b"X-Slow: 1\r\n").await;
            assert!(closed_by_server(&mut last).await, "{path}: a slow header is closed");
            drop(slowloris);
            stop.cancel();
            serving.await.unwrap().unwrap();
        }
    }

    /// A header that goes on past the server's bound is refused there, on the metrics
    /// and the probe listener alike (not buffered to hyper's 400 KiB default); fresh
    /// requests are answered after. (A little past the bound: a server that closes with
    /// much unread resets the connection, and the client may lose the answer.)
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_header_that_never_ends_is_refused_at_its_bound() {
        for (path, routes, bound) in [
            (
                "/metrics",
                Routes {
                    metrics: Some(Registry::new()),
                    probes: None,
                },
                ServeLimits::metrics().max_header_bytes,
            ),
            (
                "/healthz",
                Routes {
                    metrics: None,
                    probes: Some((Checks::default(), Checks::default())),
                },
                ServeLimits::probes().max_header_bytes,
            ),
        ] {
            let listener = Listener::bind(SocketAddr::from(([127, 0, 0, 1], 0)), "test", routes).unwrap();
            let address = listener.local_addr().unwrap();
            let stop = CancellationToken::new();
            let serving = tokio::spawn(listener.serve(stop.clone()));
            let mut tcp = TcpStream::connect(address).await.unwrap();
            let sending = async {
                tcp.write_all(format!("GET {path} HTTP/1.1\r\nX-Padding: ").as_bytes())
                    .await?;
                tcp.write_all(&vec![b'a'; bound + 4096]).await
            };
            let _ = tokio::time::timeout(HUNG, sending).await;
            let mut answer = Vec::new();
            let _ = tokio::time::timeout(HUNG, tcp.read_to_end(&mut answer)).await;
            assert!(
                answer.starts_with(b"HTTP/1.1 431"),
                "{path}: {}",
                String::from_utf8_lossy(&answer)
            );
            assert!(get(address, path).await.starts_with("HTTP/1.1 200"), "{path}");
            stop.cancel();
            serving.await.unwrap().unwrap();
        }
    }
}
