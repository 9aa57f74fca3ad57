//! What the server tests share: an HTTPS client that trusts one CA bundle and tells
//! which certificate it was served, and a validator to call.

#![allow(dead_code, reason = "each test binary uses a part")]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::StatusCode;
use http_body_util::{BodyExt as _, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use k8s_openapi::api::core::v1::ConfigMap;
use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, ServerName};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_util::sync::CancellationToken;
use wheelhouse_manager::{Runnable as _, Stop};
use wheelhouse_webhook::{Certificates, Denied, Request, Validator, Warnings, WebhookOptions, WebhookServer};

/// Allows every `ConfigMap`.
pub struct AllowAll;

impl Validator<ConfigMap> for AllowAll {
    async fn validate_create(&self, _: &ConfigMap, _: &Request) -> Result<Warnings, Denied> {
        Ok(Vec::new())
    }
    async fn validate_update(&self, _: &ConfigMap, _: &ConfigMap, _: &Request) -> Result<Warnings, Denied> {
        Ok(Vec::new())
    }
}

pub const VALIDATE: &str = "/validate--v1-configmap";

/// Generous bound on anything that should happen at once; failing it means hung.
pub const HUNG: Duration = Duration::from_secs(30);

/// Options for a server on 127.0.0.1 (a free port) serving `certificates`.
pub fn local(certificates: &Certificates) -> WebhookOptions {
    WebhookOptions {
        host: [127, 0, 0, 1].into(),
        port: 0,
        certificates: Some(certificates.clone()),
        ..WebhookOptions::default()
    }
}

/// Starts `server` until the returned token is cancelled.
pub fn start(mut server: WebhookServer) -> (SocketAddr, CancellationToken, tokio::task::JoinHandle<()>) {
    let address = server.bind().expect("the server binds");
    let token = CancellationToken::new();
    let stop = Stop::new(token.clone());
    let running = tokio::spawn(async move { server.start(stop).await.expect("the server runs") });
    (address, token, running)
}

/// A review of creating the `ConfigMap` `name`.
pub fn review(name: &str) -> Bytes {
    review_of(
        name,
        &json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name}, "data": {"k": "v"}}),
    )
}

/// A review of creating `object`, a `ConfigMap` named `name`.
pub fn review_of(name: &str, object: &Value) -> Bytes {
    Bytes::from(
        json!({
            "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
            "request": {
                "uid": format!("uid-{name}"),
                "kind": {"group": "", "version": "v1", "kind": "ConfigMap"},
                "resource": {"group": "", "version": "v1", "resource": "configmaps"},
                "name": name, "namespace": "default", "operation": "CREATE",
                "userInfo": {"username": "test"}, "object": object, "dryRun": false,
            }
        })
        .to_string(),
    )
}

/// An HTTPS client trusting exactly `ca_pem`.
#[derive(Clone)]
pub struct Client {
    tls: TlsConnector,
    config: Arc<rustls::ClientConfig>,
}

impl Client {
    pub fn trusting(ca_pem: &str) -> Self {
        Self::with_versions(ca_pem, &[&rustls::version::TLS13, &rustls::version::TLS12])
    }

    /// A client that offers only the ALPN protocols `protocols`.
    pub fn with_alpn(ca_pem: &str, protocols: &[&[u8]]) -> Self {
        let mut client = Self::trusting(ca_pem);
        let mut config = (*client.config).clone();
        config.alpn_protocols = protocols.iter().map(|p| p.to_vec()).collect();
        client.tls = TlsConnector::from(Arc::new(config.clone()));
        client.config = Arc::new(config);
        client
    }

    pub fn with_versions(ca_pem: &str, versions: &[&'static rustls::SupportedProtocolVersion]) -> Self {
        let mut roots = rustls::RootCertStore::empty();
        for certificate in CertificateDer::pem_slice_iter(ca_pem.as_bytes()) {
            roots.add(certificate.unwrap()).unwrap();
        }
        let config = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_protocol_versions(versions)
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
        let config = Arc::new(config);
        Self {
            tls: TlsConnector::from(config.clone()),
            config,
        }
    }

    /// A TLS connection (not yet HTTP).
    pub async fn tls(&self, address: SocketAddr) -> std::io::Result<tokio_rustls::client::TlsStream<TcpStream>> {
        let tcp = TcpStream::connect(address).await?;
        self.tls.connect(ServerName::try_from("127.0.0.1").unwrap(), tcp).await
    }

    /// A TLS connection from `source` (an address of 127.0.0.0/8), as another client
    /// on this machine would open it.
    pub async fn tls_from(
        &self,
        address: SocketAddr,
        source: std::net::Ipv4Addr,
    ) -> std::io::Result<tokio_rustls::client::TlsStream<TcpStream>> {
        let socket = tokio::net::TcpSocket::new_v4()?;
        socket.bind(SocketAddr::new(source.into(), 0))?;
        let tcp = socket.connect(address).await?;
        self.tls.connect(ServerName::try_from("127.0.0.1").unwrap(), tcp).await
    }

    /// A keep-alive HTTP/1.1 connection.
    pub async fn connect(&self, address: SocketAddr) -> std::io::Result<Connection> {
        let tls = self.tls(address).await?;
        let (_, session) = tls.get_ref();
        let certificate = session
            .peer_certificates()
            .and_then(|chain| chain.first())
            .map(|c| c.to_vec())
            .unwrap_or_default();
        let version = session.protocol_version();
        let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tls))
            .await
            .map_err(std::io::Error::other)?;
        let driver = tokio::spawn(connection);
        Ok(Connection {
            sender,
            certificate,
            version,
            driver,
        })
    }
}

pub struct Connection {
    sender: SendRequest<Full<Bytes>>,
    /// The serving certificate (DER) this connection was given.
    pub certificate: Vec<u8>,
    pub version: Option<rustls::ProtocolVersion>,
    /// Ends when the connection closes.
    pub driver: tokio::task::JoinHandle<Result<(), hyper::Error>>,
}

impl Connection {
    pub async fn post(&mut self, path: &str, body: Bytes) -> Result<(StatusCode, Bytes), hyper::Error> {
        self.sender.ready().await?;
        let request = http::Request::post(path)
            .header("content-type", "application/json")
            .header("host", "127.0.0.1")
            .body(Full::new(body))
            .unwrap();
        let response = self.sender.send_request(request).await?;
        let status = response.status();
        Ok((status, response.into_body().collect().await?.to_bytes()))
    }

    /// POSTs a review and returns its `response`, which must be allowed.
    pub async fn allowed(&mut self, name: &str) -> Result<Value, String> {
        let (status, body) = self.post(VALIDATE, review(name)).await.map_err(|e| e.to_string())?;
        if status != StatusCode::OK {
            return Err(format!("{status}: {}", String::from_utf8_lossy(&body)));
        }
        let answer: Value = serde_json::from_slice(&body).map_err(|e| e.to_string())?;
        if answer["response"]["allowed"] != true {
            return Err(format!("not allowed: {answer}"));
        }
        Ok(answer["response"].clone())
    }
}

/// The DER of a PEM certificate's first block.
pub fn der(pem: &str) -> Vec<u8> {
    CertificateDer::pem_slice_iter(pem.as_bytes())
        .next()
        .unwrap()
        .unwrap()
        .to_vec()
}
