//! The embedded server on a loopback port, over plain HTTP/1.1 and h2c, for kubectl.

use std::net::SocketAddr;

use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tower_service::Service;

use crate::server::ApiServer;

/// Listens on `addr` and serves `server` until the process ends; returns the address
/// bound (useful with port 0).
pub(crate) async fn serve(server: ApiServer, addr: SocketAddr) -> std::io::Result<SocketAddr> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    tokio::spawn(async move {
        loop {
            let (stream, _) = match listener.accept().await {
                Ok(accepted) => accepted,
                Err(error) => {
                    tracing::warn!(%error, "accepting a connection failed");
                    continue;
                }
            };
            let server = server.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |request: http::Request<Incoming>| {
                    let mut server = server.clone();
                    server.call(request)
                });
                let builder = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
                if let Err(error) = builder.serve_connection(TokioIo::new(stream), service).await {
                    tracing::debug!(%error, "connection ended with an error");
                }
            });
        }
    });
    Ok(bound)
}
