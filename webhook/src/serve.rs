//! The HTTPS side of the server: accepting every connection (the registry in
//! [`connections`](crate::connections) decides whom to close), TLS with its own
//! deadline, HTTP/1.1 (and HTTP/2 when asked), the idle and header timers, and the
//! graceful stop that lets requests in flight finish.

use std::convert::Infallible;
use std::future::{Future, pending};
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper::server::conn::{http1, http2};
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;
use tokio::time::Instant;
use tokio_rustls::TlsAcceptor;
use tokio_util::sync::CancellationToken;
use wheelhouse_manager::{CertWatcher, ServingCertificate, Stop, tls_server_config};

use crate::Error;
use crate::connections::{Activity, Admitted, Bounds, Connections};
use crate::dispatch::Dispatcher;

const H2: &[u8] = b"h2";

/// The TLS configuration every HTTPS server of the manager shares (see
/// [`wheelhouse_manager::tls_server_config`]), as a tokio acceptor.
pub(crate) fn tls_acceptor(serving: Arc<ServingCertificate>, http2: bool) -> Result<TlsAcceptor, Error> {
    Ok(TlsAcceptor::from(Arc::new(tls_server_config(serving, http2)?)))
}

/// How connections are held.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ConnectionLimits {
    pub bounds: Bounds,
    pub handshake_timeout: Duration,
    pub header_timeout: Duration,
    pub idle_timeout: Duration,
    pub cert_poll_interval: Duration,
    /// Streams one HTTP/2 connection may have open; None when HTTP/2 is off.
    pub http2_max_streams: Option<u32>,
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
    let registry = Connections::new(limits.bounds);
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
            accepted = listener.accept() => match accepted {
                Ok((tcp, peer)) => {
                    if let Some(admitted) = admit(&registry, peer) {
                        let connection = Connection { acceptor: acceptor.clone(), dispatcher: dispatcher.clone(), limits, closing: closing.clone() };
                        connections.spawn(connection.serve(tcp, admitted));
                    }
                }
                Err(error) if out_of_descriptors(&error) => {
                    // Close an idle connection for a descriptor rather than leave
                    // kube-apiserver's connection waiting in the backlog.
                    if registry.evict_one() {
                        // Let the evicted connection's task run and free its descriptor
                        // before accepting again, so one shortage closes one connection.
                        tokio::time::sleep(Duration::from_millis(1)).await;
                    } else {
                        tracing::warn!(%error, "could not accept a webhook connection, and every open one is busy");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                }
                Err(error) => {
                    tracing::warn!(%error, "could not accept a webhook connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
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

fn admit(registry: &Arc<Connections>, peer: SocketAddr) -> Option<Admitted> {
    match registry.admit(peer.ip().to_canonical()) {
        Ok(admitted) => Some(admitted),
        Err(refused) => {
            tracing::debug!(%peer, ?refused, "refused a webhook connection: every connection of its bound is busy");
            None
        }
    }
}

fn out_of_descriptors(error: &io::Error) -> bool {
    // EMFILE and ENFILE.
    matches!(error.raw_os_error(), Some(23 | 24))
}

/// What every connection shares.
struct Connection {
    acceptor: TlsAcceptor,
    dispatcher: Arc<Dispatcher>,
    limits: ConnectionLimits,
    closing: CancellationToken,
}

impl Connection {
    async fn serve(self, tcp: TcpStream, admitted: Admitted) {
        // Admission requests are small and latency-bound.
        let _ = tcp.set_nodelay(true);
        let handshake = tokio::time::timeout(self.limits.handshake_timeout, self.acceptor.accept(tcp));
        let tls = tokio::select! {
            handshaken = handshake => match handshaken {
                Ok(Ok(tls)) => tls,
                Ok(Err(error)) => {
                    tracing::debug!(%error, "TLS handshake failed");
                    return;
                }
                Err(_) => {
                    tracing::debug!("TLS handshake timed out");
                    return;
                }
            },
            () = admitted.close.cancelled() => return,
            () = self.closing.cancelled() => return,
        };
        let http2 = self.limits.http2_max_streams.is_some() && tls.get_ref().1.alpn_protocol() == Some(H2);
        let activity = admitted.activity.clone();
        let io = TokioIo::new(Watched {
            inner: tls,
            activity: activity.clone(),
        });
        let dispatcher = self.dispatcher.clone();
        let service = service_fn(move |request| {
            let busy = activity.busy();
            let dispatcher = dispatcher.clone();
            async move {
                let answer = dispatcher.serve(request).await;
                drop(busy);
                Ok::<_, Infallible>(answer)
            }
        });
        if http2 {
            let mut builder = http2::Builder::new(TokioExecutor::new());
            builder
                .timer(TokioTimer::new())
                .max_concurrent_streams(self.limits.http2_max_streams)
                // The rapid-reset defences: streams reset before they are served,
                // and streams the server had to reset, are bounded per connection.
                .max_pending_accept_reset_streams(Some(20))
                .max_local_error_reset_streams(Some(256))
                .max_header_list_size(64 * 1024);
            self.drive(builder.serve_connection(io, service), &admitted).await;
        } else {
            // The header and idle timers are ours (below): hyper's own header timer
            // also runs while a keep-alive connection idles, which would close it
            // as soon as a slow header.
            let mut builder = http1::Builder::new();
            builder.keep_alive(true).header_read_timeout(None);
            self.drive(builder.serve_connection(io, service), &admitted).await;
        }
    }

    /// Runs `connection` until it ends, it idles past its timer, it is evicted, or
    /// the server stops. A connection with no request being answered is simply
    /// dropped; a busy one is asked to close after its answer.
    async fn drive<C: GracefulConnection>(&self, connection: C, admitted: &Admitted) {
        let (idle, header) = (self.limits.idle_timeout, self.limits.header_timeout);
        let activity = &admitted.activity;
        // Made once and polled in place: requests come many to a connection, and
        // remaking these at each one costs a lock on shared wait lists per request.
        let next = || {
            activity
                .deadline(idle, header)
                .unwrap_or_else(|| Instant::now() + header)
        };
        let timer = tokio::time::sleep_until(next());
        let evicted = admitted.close.cancelled();
        let stopping = self.closing.cancelled();
        tokio::pin!(connection, timer, evicted, stopping);
        let mut closing = false;
        let mut shutdown_sent = false;
        loop {
            tokio::select! {
                biased;
                ended = connection.as_mut() => {
                    if let Err(error) = ended {
                        tracing::debug!(%error, "webhook connection ended");
                    }
                    return;
                }
                () = &mut evicted, if !closing => {
                    tracing::debug!("closing the longest-idle webhook connection to make room");
                    closing = true;
                }
                () = &mut stopping, if !closing => closing = true,
                () = activity.request_began() => timer.as_mut().reset(next()),
                () = &mut timer => {
                    if activity.deadline(idle, header).is_some_and(|d| d <= Instant::now()) {
                        tracing::debug!("closing a webhook connection that idled or sent its header too slowly");
                        return;
                    }
                    timer.as_mut().reset(next());
                }
            }
            if closing {
                if !activity.is_busy() {
                    return;
                }
                if !shutdown_sent {
                    connection.as_mut().graceful_shutdown();
                    shutdown_sent = true;
                }
            }
        }
    }
}

/// A served connection of either HTTP version.
trait GracefulConnection: Future<Output = Result<(), hyper::Error>> {
    fn graceful_shutdown(self: Pin<&mut Self>);
}

impl<I, S, B> GracefulConnection for http1::Connection<I, S>
where
    Self: Future<Output = Result<(), hyper::Error>>,
    S: hyper::service::HttpService<hyper::body::Incoming, ResBody = B>,
    I: hyper::rt::Read + hyper::rt::Write + Unpin,
    B: hyper::body::Body + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    fn graceful_shutdown(self: Pin<&mut Self>) {
        http1::Connection::graceful_shutdown(self);
    }
}

impl<I, S, B, E> GracefulConnection for http2::Connection<I, S, E>
where
    Self: Future<Output = Result<(), hyper::Error>>,
    S: hyper::service::HttpService<hyper::body::Incoming, ResBody = B>,
    I: hyper::rt::Read + hyper::rt::Write + Unpin,
    B: hyper::body::Body + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    E: hyper::rt::bounds::Http2ServerConnExec<S::Future, B>,
{
    fn graceful_shutdown(self: Pin<&mut Self>) {
        http2::Connection::graceful_shutdown(self);
    }
}

/// The decrypted stream, telling the connection's [`Activity`] when bytes of a new
/// request arrive, so that a header is timed from its first byte (as Go's
/// `ReadHeaderTimeout`) and waiting for it from the last answer (`IdleTimeout`).
struct Watched<T> {
    inner: T,
    activity: Arc<Activity>,
}

impl<T: AsyncRead + Unpin> AsyncRead for Watched<T> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.bytes_arrived();
        }
        polled
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Watched<T> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}
