//! The metrics and health-probe server: `/metrics` (Prometheus text), `/healthz` and
//! `/readyz`, on hyper. Metrics and probes may share an address or use two.

use std::convert::Infallible;
use std::net::SocketAddr;

use bytes::Bytes;
use http::{Method, Request, Response, StatusCode, header};
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use prometheus::{Encoder, Registry, TextEncoder};
use tokio::net::TcpListener;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::Error;
use crate::health::Checks;

/// What one listener serves.
#[derive(Clone)]
pub(crate) struct Routes {
    pub metrics: Option<Registry>,
    pub probes: Option<(Checks, Checks)>,
}

/// A bound listener, not yet serving.
pub(crate) struct Listener {
    listener: std::net::TcpListener,
    routes: Routes,
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
        Ok(Self { listener, routes })
    }

    pub(crate) fn local_addr(&self) -> Option<SocketAddr> {
        self.listener.local_addr().ok()
    }

    /// Serves until `stop` is cancelled; open connections are closed then.
    pub(crate) async fn serve(self, stop: CancellationToken) -> Result<(), std::io::Error> {
        let listener = TcpListener::from_std(self.listener)?;
        let mut connections = JoinSet::new();
        loop {
            let accepted = tokio::select! {
                () = stop.cancelled() => break,
                accepted = listener.accept() => accepted,
                Some(_) = connections.join_next(), if !connections.is_empty() => continue,
            };
            let Ok((stream, _)) = accepted else {
                // Out of file descriptors or a reset before accept: keep serving.
                continue;
            };
            let routes = self.routes.clone();
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
        connections.shutdown().await;
        Ok(())
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
