//! The embedded server on a loopback port, over plain HTTP/1.1 and h2c, for kubectl.

use std::net::SocketAddr;
use std::time::Duration;

use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tower_service::Service;

use crate::state::ApiServer;

/// The bearer token of a request: over HTTP the server attributes a request to the
/// `ServiceAccount` of a token it issued, else to the user the token names (it refuses
/// nothing, as it authorizes everyone).
fn bearer_token<B>(request: &http::Request<B>) -> Option<&str> {
    let value = request.headers().get(http::header::AUTHORIZATION)?.to_str().ok()?;
    value
        .strip_prefix("Bearer ")
        .map(str::trim)
        .filter(|token| !token.is_empty())
}

/// Listens on `addr` and serves `server` until the runtime ends; returns the address
/// bound (useful with port 0). Refuses any address but loopback: the server has no
/// authentication, so whoever reaches the port can do anything.
pub(crate) async fn serve(server: ApiServer, addr: SocketAddr) -> std::io::Result<SocketAddr> {
    if !addr.ip().is_loopback() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("the embedded API server has no authentication, so it only listens on loopback, not {addr}"),
        ));
    }
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    tokio::spawn(async move {
        loop {
            let (stream, _) = match listener.accept().await {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors and the like: back off instead of spinning.
                    tracing::warn!(%error, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let server = server.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |request: http::Request<Incoming>| {
                    let mut server = match bearer_token(&request) {
                        Some(token) => match server.user_of_token(token) {
                            Some(user) => server.as_user(&user),
                            None => server.as_user(token),
                        },
                        None => server.clone(),
                    };
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
