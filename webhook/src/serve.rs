//! The HTTPS side of the server: accepting connections up to a bound, TLS, HTTP/1.1
//! with keep-alive, closing idle connections, and the graceful stop that lets
//! requests in flight finish.

use std::convert::Infallible;
use std::future::pending;
use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use rustls::ServerConfig;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tokio_rustls::TlsAcceptor;
use tokio_util::sync::CancellationToken;
use wheelhouse_manager::Stop;

use crate::Error;
use crate::certs::provider;
use crate::dispatch::Dispatcher;
use crate::reload::{CertWatcher, ServingCertificate};

/// TLS 1.3 and 1.2, HTTP/1.1 only, the certificate chosen per handshake, no session
/// resumption.
///
/// HTTP/2 is not offered, as controller-runtime does not by default: its rapid-reset
/// attack (CVE-2023-44487) costs a server more than multiplexing gains an admission
/// webhook, whose client keeps a pool of HTTP/1.1 connections anyway. Sessions are not
/// resumed: a resumed session skips the certificate, so a client would go on trusting
/// the one from before a rotation, and kube-apiserver's client (Go's, with no session
/// cache) never resumes anyway.
pub(crate) fn tls_acceptor(serving: Arc<ServingCertificate>) -> Result<TlsAcceptor, Error> {
    let mut config = ServerConfig::builder_with_provider(provider())
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])?
        .with_no_client_auth()
        .with_cert_resolver(serving);
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    config.session_storage = Arc::new(rustls::server::NoServerSessionStorage {});
    config.send_tls13_tickets = 0;
    Ok(TlsAcceptor::from(Arc::new(config)))
}

/// How connections are held.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ConnectionLimits {
    pub max_connections: usize,
    pub idle_timeout: Duration,
    pub handshake_timeout: Duration,
    pub cert_poll_interval: Duration,
}

/// Serves until `stop`, then stops accepting, asks every connection to close after
/// its request in flight, and returns once they have. Every connection is a task of a
/// set this future owns: if the manager abandons the future, they end with it.
pub(crate) async fn serve(
    listener: TcpListener,
    acceptor: TlsAcceptor,
    dispatcher: Arc<Dispatcher>,
    watcher: Option<CertWatcher>,
    limits: ConnectionLimits,
    stop: Stop,
) {
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let closing = CancellationToken::new();
    let mut connections = JoinSet::new();
    let watching = async move {
        match watcher {
            Some(watcher) => watcher.run(limits.cert_poll_interval).await,
            None => pending().await,
        }
    };
    tokio::pin!(watching);
    loop {
        tokio::select! {
            () = stop.requested() => break,
            () = &mut watching => {}
            Some(_) = connections.join_next() => {}
            accepted = accept(&listener, &slots) => match accepted {
                Ok((tcp, slot)) => {
                    let connection = serve_connection(tcp, acceptor.clone(), dispatcher.clone(), limits, closing.clone(), slot);
                    connections.spawn(connection);
                }
                Err(error) => {
                    // Out of file descriptors, typically: wait rather than spin.
                    tracing::warn!(%error, "could not accept a webhook connection");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
        }
    }
    drop(listener);
    closing.cancel();
    tracing::info!(
        open = connections.len(),
        "webhook server stopping; finishing requests in flight"
    );
    while connections.join_next().await.is_some() {}
}

/// A connection, once one of the bounded slots is free: past the bound, connections
/// wait in the kernel's backlog rather than being served slowly.
async fn accept(listener: &TcpListener, slots: &Arc<Semaphore>) -> std::io::Result<(TcpStream, OwnedSemaphorePermit)> {
    let slot = slots
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| std::io::Error::other("the connection slots were closed"))?;
    let (tcp, _) = listener.accept().await?;
    Ok((tcp, slot))
}

async fn serve_connection(
    tcp: TcpStream,
    acceptor: TlsAcceptor,
    dispatcher: Arc<Dispatcher>,
    limits: ConnectionLimits,
    closing: CancellationToken,
    _slot: OwnedSemaphorePermit,
) {
    // Admission requests are small and latency-bound.
    let _ = tcp.set_nodelay(true);
    let tls = match tokio::time::timeout(limits.handshake_timeout, acceptor.accept(tcp)).await {
        Ok(Ok(tls)) => tls,
        Ok(Err(error)) => {
            tracing::debug!(%error, "TLS handshake failed");
            return;
        }
        Err(_) => {
            tracing::debug!("TLS handshake timed out");
            return;
        }
    };
    let service = service_fn(move |request| {
        let dispatcher = dispatcher.clone();
        async move { Ok::<_, Infallible>(dispatcher.serve(request).await) }
    });
    // hyper's header-read timer runs from the moment the connection waits for a
    // request, so it closes idle keep-alive connections as well as slow headers.
    let connection = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.idle_timeout)
        .keep_alive(true)
        .serve_connection(TokioIo::new(tls), service);
    tokio::pin!(connection);
    tokio::select! {
        result = connection.as_mut() => {
            if let Err(error) = result {
                tracing::debug!(%error, "webhook connection ended");
            }
        }
        () = closing.cancelled() => {
            connection.as_mut().graceful_shutdown();
            if let Err(error) = connection.await {
                tracing::debug!(%error, "webhook connection ended while stopping");
            }
        }
    }
}
