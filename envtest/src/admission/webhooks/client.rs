//! The HTTPS side of a webhook call: one hyper client per CA bundle, trusting exactly
//! that bundle, and a POST bounded by the webhook's timeout.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use base64::Engine as _;
use bytes::Bytes;
use http::Uri;
use http::header::{ACCEPT, CONTENT_TYPE};
use http_body_util::{BodyExt as _, Full, Limited};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::{Connected, Connection};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use parking_lot::Mutex;
use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, ServerName};
use serde_json::Value;
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;

type HttpsClient = Client<Connector, Full<Bytes>>;

/// Past this many distinct CA bundles the cache starts over, so rotating certificates in
/// a long test run cannot grow it without bound.
const MAX_CACHED_CLIENTS: usize = 32;
/// An `AdmissionReview` answer larger than this is refused rather than buffered.
const MAX_RESPONSE_BYTES: usize = 3 * 1024 * 1024;

/// HTTPS clients keyed by the `caBundle` text: webhooks that share a CA share a
/// connection pool, and a changed bundle gets a fresh client, so no invalidation is needed.
#[derive(Default)]
pub(super) struct Clients {
    by_ca_bundle: Mutex<HashMap<String, HttpsClient>>,
}

/// Why a webhook could not be called, in the words of the client-go errors behind
/// kube-apiserver's messages; each caller adds its own prefix.
#[derive(Debug)]
pub(crate) enum CallError {
    /// No client could be built for the configuration (`could not get REST client`).
    Client(String),
    /// The request failed or the answer was not a success (`Post "<url>": ...`).
    Call(String),
}

impl Clients {
    /// POSTs `body` to the webhook of `client_config` and returns the answer's body. The
    /// error is the reason of a failed call, worded as kube-apiserver words it.
    pub async fn post(&self, client_config: &Value, body: Vec<u8>, timeout: Duration) -> Result<Bytes, String> {
        self.send(client_config, body, timeout)
            .await
            .map_err(|error| match error {
                CallError::Client(message) => format!("could not get REST client: {message}"),
                CallError::Call(message) => format!("failed to call webhook: {message}"),
            })
    }

    /// [`Self::post`], its error without the admission dispatcher's prefix: the same
    /// client serves conversion webhooks, whose errors are worded differently.
    pub async fn send(&self, client_config: &Value, body: Vec<u8>, timeout: Duration) -> Result<Bytes, CallError> {
        let url = webhook_url(client_config, timeout)?;
        let uri: Uri = url
            .parse()
            .map_err(|e| CallError::Call(format!("parse {url:?}: {e}")))?;
        if uri.scheme_str() != Some("https") {
            return Err(CallError::Call(format!(
                "webhook URL {url:?} must use the https scheme"
            )));
        }
        let client = self.client_for(client_config).map_err(CallError::Client)?;
        let request = http::Request::post(uri)
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json, */*")
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| CallError::Call(e.to_string()))?;
        let exchange = async {
            let response = client.request(request).await.map_err(|e| error_chain(&e))?;
            let status = response.status();
            let body = Limited::new(response.into_body(), MAX_RESPONSE_BYTES)
                .collect()
                .await
                .map_err(|e| e.to_string())?
                .to_bytes();
            Ok::<_, String>((status, body))
        };
        // The deadline covers connecting, the TLS handshake and reading the answer, as
        // the context deadline does upstream; Go words its expiry this way.
        let (status, body) = tokio::time::timeout(timeout, exchange)
            .await
            .unwrap_or_else(|_| Err("context deadline exceeded".to_owned()))
            .map_err(|e| CallError::Call(format!("Post {url:?}: {e}")))?;
        // client-go accepts 200 to 206 before decoding the body.
        if !(200..=206).contains(&status.as_u16()) {
            let text = String::from_utf8_lossy(&body);
            let excerpt: String = text.chars().take(256).collect();
            return Err(CallError::Call(format!(
                "the server responded with the status code {}: {excerpt:?}",
                status.as_u16()
            )));
        }
        Ok(body)
    }

    fn client_for(&self, client_config: &Value) -> Result<HttpsClient, String> {
        let ca_bundle = client_config
            .get("caBundle")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .trim();
        if ca_bundle.is_empty() {
            return Err(
                "clientConfig.caBundle is empty: the envtest API server trusts only the CA bundle a \
                        webhook gives, never the system roots"
                    .to_owned(),
            );
        }
        let mut clients = self.by_ca_bundle.lock();
        if let Some(client) = clients.get(ca_bundle) {
            return Ok(client.clone());
        }
        let client = build_client(ca_bundle)?;
        if clients.len() >= MAX_CACHED_CLIENTS {
            clients.clear();
        }
        clients.insert(ca_bundle.to_owned(), client.clone());
        Ok(client)
    }
}

/// The webhook's `url` with the `timeout` parameter kube-apiserver adds to tell the
/// webhook its deadline. A `service` cannot be reached: there is no cluster network.
fn webhook_url(client_config: &Value, timeout: Duration) -> Result<String, CallError> {
    if let Some(url) = client_config.get("url").and_then(Value::as_str) {
        let separator = if url.contains('?') { '&' } else { '?' };
        return Ok(format!("{url}{separator}timeout={}s", timeout.as_secs()));
    }
    if let Some(service) = client_config.get("service") {
        let field = |name: &str| service.get(name).and_then(Value::as_str).unwrap_or_default();
        return Err(CallError::Call(format!(
            "clientConfig.service {}/{} cannot be reached from the in-process envtest \
             API server, which has no cluster network: give the webhook a clientConfig.url instead",
            field("namespace"),
            field("name"),
        )));
    }
    Err(CallError::Client("clientConfig has neither url nor service".to_owned()))
}

/// A client that trusts exactly the certificates of `ca_bundle` (base64 of PEM, as the
/// API serializes bytes; bare PEM is accepted too).
fn build_client(ca_bundle: &str) -> Result<HttpsClient, String> {
    let pem = if ca_bundle.starts_with("-----BEGIN") {
        ca_bundle.as_bytes().to_vec()
    } else {
        base64::engine::general_purpose::STANDARD
            .decode(ca_bundle)
            .map_err(|e| format!("clientConfig.caBundle is not base64: {e}"))?
    };
    let mut roots = rustls::RootCertStore::empty();
    for certificate in CertificateDer::pem_slice_iter(&pem) {
        let certificate = certificate.map_err(|e| format!("clientConfig.caBundle: {e}"))?;
        roots
            .add(certificate)
            .map_err(|e| format!("clientConfig.caBundle: {e}"))?;
    }
    if roots.is_empty() {
        return Err("clientConfig.caBundle holds no PEM certificate".to_owned());
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    let connector = Connector {
        tls: TlsConnector::from(Arc::new(config)),
    };
    Ok(Client::builder(TokioExecutor::new())
        .pool_timer(TokioTimer::new())
        .pool_idle_timeout(Duration::from_secs(90))
        .build(connector))
}

/// The causes of a client error, without hyper-util's generic "client error (Connect)".
fn error_chain(error: &hyper_util::client::legacy::Error) -> String {
    let mut causes = Vec::new();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        causes.push(cause.to_string());
        source = cause.source();
    }
    if causes.is_empty() {
        error.to_string()
    } else {
        causes.join(": ")
    }
}

/// Opens TCP then TLS to the URL's host, checking the certificate against the CA bundle
/// for that host name or IP address.
#[derive(Clone)]
struct Connector {
    tls: TlsConnector,
}

impl tower_service::Service<Uri> for Connector {
    type Response = TlsConnection;
    type Error = io::Error;
    type Future = Pin<Box<dyn Future<Output = io::Result<TlsConnection>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, uri: Uri) -> Self::Future {
        let tls = self.tls.clone();
        Box::pin(async move {
            let host = uri
                .host()
                .unwrap_or_default()
                .trim_start_matches('[')
                .trim_end_matches(']')
                .to_owned();
            let port = uri.port_u16().unwrap_or(443);
            let tcp = TcpStream::connect((host.as_str(), port))
                .await
                .map_err(|e| io::Error::new(e.kind(), format!("dial tcp {host}:{port}: {e}")))?;
            // Admission requests are small and latency-bound.
            let _ = tcp.set_nodelay(true);
            let server_name = ServerName::try_from(host.clone())
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, format!("server name {host:?}: {e}")))?;
            let stream = tls
                .connect(server_name, tcp)
                .await
                .map_err(|e| io::Error::new(e.kind(), format!("tls: {e}")))?;
            Ok(TlsConnection(TokioIo::new(stream)))
        })
    }
}

/// A TLS stream in hyper's I/O traits, which hyper-util's pool needs as a `Connection`.
struct TlsConnection(TokioIo<TlsStream<TcpStream>>);

impl Connection for TlsConnection {
    fn connected(&self) -> Connected {
        Connected::new()
    }
}

impl hyper::rt::Read for TlsConnection {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: hyper::rt::ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        hyper::rt::Read::poll_read(Pin::new(&mut self.get_mut().0), cx, buf)
    }
}

impl hyper::rt::Write for TlsConnection {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        hyper::rt::Write::poll_write(Pin::new(&mut self.get_mut().0), cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        hyper::rt::Write::poll_flush(Pin::new(&mut self.get_mut().0), cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        hyper::rt::Write::poll_shutdown(Pin::new(&mut self.get_mut().0), cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        hyper::rt::Write::poll_write_vectored(Pin::new(&mut self.get_mut().0), cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        hyper::rt::Write::is_write_vectored(&self.0)
    }
}
