//! The metrics and health-probe server: `/metrics` (Prometheus text), `/healthz` and
//! `/readyz`, on hyper. Probes are plain HTTP, for the kubelet. Metrics are HTTPS with
//! every request authenticated and authorized by the API server
//! ([`metrics_auth`](crate::metrics_auth)) when secure, as kubebuilder scaffolds them;
//! else plain HTTP, and then they may share the probes' address.

use std::convert::Infallible;
use std::future::pending;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{Method, Request, Response, StatusCode, header};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use prometheus::{Encoder, Registry, TextEncoder};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;
use tokio_rustls::TlsAcceptor;
use tokio_util::sync::CancellationToken;

use crate::Error;
use crate::cert_watcher::CertWatcher;
use crate::health::Checks;
use crate::metrics_auth::{Decision, MetricsAuth};

/// How long a client may take over its TLS handshake.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How often a certificate directory is checked for a renewed certificate.
const CERT_POLL_INTERVAL: Duration = Duration::from_secs(10);

/// HTTPS with authentication and authorization: what a secure metrics listener adds.
pub(crate) struct Secure {
    pub acceptor: TlsAcceptor,
    /// Reloads the certificate from a directory; None for one held in memory.
    pub watcher: Option<CertWatcher>,
    pub auth: Arc<MetricsAuth>,
    /// HTTP/2 is offered (ALPN) only when asked for: `--enable-http2`.
    pub http2: bool,
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
        })
    }

    /// Serves over HTTPS, every request authenticated and authorized.
    pub(crate) fn secure(mut self, secure: Secure) -> Self {
        self.secure = Some(secure);
        self
    }

    pub(crate) fn local_addr(&self) -> Option<SocketAddr> {
        self.socket.local_addr().ok()
    }

    /// Serves until `stop` is cancelled; open connections are closed then.
    pub(crate) async fn serve(self, stop: CancellationToken) -> Result<(), std::io::Error> {
        let listener = TcpListener::from_std(self.socket)?;
        let (tls, watcher) = match self.secure {
            Some(secure) => (Some((secure.acceptor, secure.auth, secure.http2)), secure.watcher),
            None => (None, None),
        };
        let watching = async move {
            match watcher {
                Some(watcher) => watcher.run(CERT_POLL_INTERVAL).await,
                None => pending().await,
            }
        };
        tokio::pin!(watching);
        let mut connections = JoinSet::new();
        loop {
            let accepted = tokio::select! {
                () = stop.cancelled() => break,
                () = &mut watching => continue,
                accepted = listener.accept() => accepted,
                Some(_) = connections.join_next(), if !connections.is_empty() => continue,
            };
            let Ok((stream, _)) = accepted else {
                // Out of file descriptors or a reset before accept: keep serving.
                continue;
            };
            let routes = self.routes.clone();
            match &tls {
                Some((acceptor, auth, http2)) => {
                    connections.spawn(serve_tls(stream, acceptor.clone(), routes, auth.clone(), *http2));
                }
                None => {
                    connections.spawn(async move {
                        let service = service_fn(move |request| {
                            let routes = routes.clone();
                            async move { Ok::<_, Infallible>(routes.answer(&request)) }
                        });
                        let _ = hyper::server::conn::http1::Builder::new()
                            .serve_connection(TokioIo::new(stream), service)
                            .await;
                    });
                }
            }
        }
        connections.shutdown().await;
        Ok(())
    }
}

/// One HTTPS connection: the handshake within its deadline, then HTTP/2 when both
/// sides chose it, else HTTP/1.1; each request reviewed before it is answered.
async fn serve_tls(stream: TcpStream, acceptor: TlsAcceptor, routes: Routes, auth: Arc<MetricsAuth>, http2: bool) {
    let tls = match tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(stream)).await {
        Ok(Ok(tls)) => tls,
        Ok(Err(error)) => {
            tracing::debug!(%error, "metrics: TLS handshake failed");
            return;
        }
        Err(_) => {
            tracing::debug!("metrics: TLS handshake timed out");
            return;
        }
    };
    let h2 = http2 && tls.get_ref().1.alpn_protocol() == Some(b"h2".as_slice());
    let service = service_fn(move |request: Request<Incoming>| {
        let routes = routes.clone();
        let auth = auth.clone();
        async move {
            let authorization = request
                .headers()
                .get(header::AUTHORIZATION)
                .and_then(|value| value.to_str().ok());
            let decision = auth
                .decide(authorization, request.method().as_str(), request.uri().path())
                .await;
            let answer = match decision {
                Decision::Allowed => routes.answer(&request),
                Decision::Unauthenticated => text(StatusCode::UNAUTHORIZED, "Unauthorized\n".into()),
                Decision::Forbidden { user } => {
                    tracing::debug!(%user, path = request.uri().path(), "metrics: authorization denied");
                    text(StatusCode::FORBIDDEN, format!("Authorization denied for user {user}\n"))
                }
                Decision::Failed(why) => {
                    tracing::warn!(%why, "metrics: could not review a request");
                    text(StatusCode::INTERNAL_SERVER_ERROR, format!("{why}\n"))
                }
            };
            Ok::<_, Infallible>(answer)
        }
    });
    let io = TokioIo::new(tls);
    let served = if h2 {
        hyper::server::conn::http2::Builder::new(TokioExecutor::new())
            .serve_connection(io, service)
            .await
    } else {
        hyper::server::conn::http1::Builder::new()
            .serve_connection(io, service)
            .await
    };
    if let Err(error) = served {
        tracing::debug!(%error, "metrics: connection ended with an error");
    }
}

impl Routes {
    fn answer(&self, request: &Request<Incoming>) -> Response<Full<Bytes>> {
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

fn metrics(registry: &Registry) -> Response<Full<Bytes>> {
    let encoder = TextEncoder::new();
    let mut body = Vec::new();
    match encoder.encode(&registry.gather(), &mut body) {
        Ok(()) => Response::builder()
            .status(StatusCode::OK)
            .header(header::CONTENT_TYPE, encoder.format_type())
            .body(Full::new(Bytes::from(body)))
            .unwrap_or_else(|_| text(StatusCode::INTERNAL_SERVER_ERROR, String::new())),
        Err(error) => text(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("encoding metrics failed: {error}\n"),
        ),
    }
}

fn not_found() -> Response<Full<Bytes>> {
    text(StatusCode::NOT_FOUND, "404 page not found\n".into())
}

fn text(status: StatusCode, body: String) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
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
