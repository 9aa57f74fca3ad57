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

/// The listener's task, which owns every connection's task: dropping it stops
/// accepting and ends every open connection, so a stopped environment's port answers
/// nothing and its server's memory can go.
pub(crate) struct Serving(Option<tokio::task::JoinHandle<()>>);

impl Serving {
    /// Stops accepting and ends every open connection, and returns once the listener
    /// is closed: the task runs on the server's own threads, so an abort alone would
    /// leave the port open for a moment after it returns.
    pub(crate) async fn stop(mut self) {
        if let Some(task) = self.0.take() {
            task.abort();
            // Cancelled (or ended before): either way the listener has been dropped.
            let _ = task.await;
        }
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        if let Some(task) = &self.0 {
            task.abort();
        }
    }
}

/// Listens on `addr` and serves `server` on its own threads until the returned
/// [`Serving`] is dropped (or the server ends); returns the address bound (useful with port 0). Refuses any
/// address but loopback: the server has no authentication, so whoever reaches the port
/// can do anything.
pub(crate) async fn serve(server: ApiServer, addr: SocketAddr) -> std::io::Result<(SocketAddr, Serving)> {
    if !addr.ip().is_loopback() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("the embedded API server has no authentication, so it only listens on loopback, not {addr}"),
        ));
    }
    // Bound and served on the server's own threads, whose I/O driver then owns it.
    let runtime = server.shared.runtime.handle().clone();
    let listener = runtime
        .spawn(tokio::net::TcpListener::bind(addr))
        .await
        .map_err(std::io::Error::other)??;
    let bound = listener.local_addr()?;
    let accepting = runtime.spawn(async move {
        // Dropped with this task: every connection ends with the listener.
        let mut connections = tokio::task::JoinSet::new();
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
            while connections.try_join_next().is_some() {}
            let server = server.clone();
            connections.spawn(async move {
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
    Ok((bound, Serving(Some(accepting))))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    #[tokio::test]
    async fn dropping_the_listener_closes_its_port_and_its_open_connections() {
        let server = ApiServer::new(crate::ServerOptions::default());
        let (address, serving) = serve(server, ([127, 0, 0, 1], 0).into()).await.unwrap();
        let mut open = tokio::net::TcpStream::connect(address).await.unwrap();
        open.write_all(b"GET /version HTTP/1.1\r\nHost: envtest\r\n\r\n")
            .await
            .unwrap();
        let mut status = [0_u8; 12];
        open.read_exact(&mut status).await.unwrap();
        assert_eq!(&status, b"HTTP/1.1 200");

        drop(serving);
        // The kept-alive connection ends: the rest of the answer, then the end.
        let mut rest = Vec::new();
        tokio::time::timeout(Duration::from_secs(5), open.read_to_end(&mut rest))
            .await
            .expect("the connection is closed")
            .expect("read");
        let refused = tokio::time::timeout(Duration::from_secs(5), async {
            loop {
                if tokio::net::TcpStream::connect(address).await.is_err() {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        });
        refused.await.expect("the port no longer accepts connections");
    }
}
