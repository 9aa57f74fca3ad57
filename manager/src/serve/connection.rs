//! One accepted connection: TLS within its deadline (or plain HTTP), HTTP/1.1 (and
//! HTTP/2 when both sides chose it), the silence timers, eviction, and the graceful
//! close that lets requests in flight finish.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use hyper::server::conn::{http1, http2};
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_rustls::TlsAcceptor;
use tokio_util::sync::CancellationToken;

use super::connections::{Activity, Admitted, Timeouts};
use super::{RequestBody, ServeLimits, Service};

const H2: &[u8] = b"h2";
/// The most an HTTP/1.1 connection reads ahead of its service: four TLS records.
const READ_BUFFER: usize = 64 * 1024;

/// What every connection of a server shares.
pub(super) struct Connection<S> {
    pub tls: Option<TlsAcceptor>,
    pub service: Arc<S>,
    pub limits: ServeLimits,
    /// Cancelled when the server stops.
    pub closing: CancellationToken,
    /// Which server, for the log.
    pub name: &'static str,
}

impl<S> Clone for Connection<S> {
    fn clone(&self) -> Self {
        Self {
            tls: self.tls.clone(),
            service: self.service.clone(),
            limits: self.limits,
            closing: self.closing.clone(),
            name: self.name,
        }
    }
}

impl<S: Service> Connection<S> {
    pub async fn serve(self, tcp: TcpStream, admitted: Admitted) {
        // Requests here are small and latency-bound.
        let _ = tcp.set_nodelay(true);
        let Some(acceptor) = self.tls.clone() else {
            self.serve_http(tcp, false, &admitted).await;
            return;
        };
        let handshake = tokio::time::timeout(self.limits.handshake_timeout, acceptor.accept(tcp));
        let tls = tokio::select! {
            handshaken = handshake => match handshaken {
                Ok(Ok(tls)) => tls,
                Ok(Err(error)) => {
                    tracing::debug!(server = self.name, %error, "TLS handshake failed");
                    return;
                }
                Err(_) => {
                    tracing::debug!(server = self.name, "TLS handshake timed out");
                    return;
                }
            },
            () = admitted.close.cancelled() => return,
            () = self.closing.cancelled() => return,
        };
        let http2 = tls.get_ref().1.alpn_protocol() == Some(H2);
        self.serve_http(tls, http2, &admitted).await;
    }

    async fn serve_http<I>(&self, io: I, http2: bool, admitted: &Admitted)
    where
        I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        let activity = admitted.activity.clone();
        let io = TokioIo::new(Watched {
            inner: io,
            activity: activity.clone(),
        });
        let service = self.service.clone();
        let (origin, rate) = (admitted.origin, self.limits.min_body_rate);
        let service = service_fn(move |request: http::Request<hyper::body::Incoming>| {
            let busy = activity.busy();
            let service = service.clone();
            let mut request = request.map(|body| RequestBody::new(body, &activity, rate));
            request.extensions_mut().insert(origin);
            async move {
                let answer = service.call(request).await;
                drop(busy);
                Ok::<_, Infallible>(answer)
            }
        });
        if http2 {
            let mut builder = http2::Builder::new(TokioExecutor::new());
            builder
                .timer(TokioTimer::new())
                .max_concurrent_streams(self.limits.http2_max_concurrent_streams)
                // The rapid-reset defences: streams reset before they are served,
                // and streams the server had to reset, are bounded per connection.
                .max_pending_accept_reset_streams(Some(20))
                .max_local_error_reset_streams(Some(256))
                .max_header_list_size(u32::try_from(self.limits.max_header_bytes).unwrap_or(u32::MAX));
            self.drive(builder.serve_connection(io, service), admitted).await;
        } else {
            // The header and idle timers are ours (below): hyper's own header timer
            // also runs while a keep-alive connection idles, which would close it
            // as soon as a slow header.
            let mut builder = http1::Builder::new();
            builder
                .keep_alive(true)
                .header_read_timeout(None)
                .max_header_size(self.limits.max_header_bytes)
                // The read buffer also holds body bytes not yet taken: bounded, so a
                // thousand connections cannot each buffer hyper's default 400 KiB.
                .max_buf_size(READ_BUFFER.max(self.limits.max_header_bytes));
            self.drive(builder.serve_connection(io, service), admitted).await;
        }
    }

    /// Runs `connection` until it ends, it is silent past its timer, it is evicted,
    /// or the server stops. A connection with no request being decided or answered
    /// is simply dropped; one with such a request is asked to close after its answer.
    async fn drive<C: GracefulConnection>(&self, connection: C, admitted: &Admitted) {
        let timeouts = Timeouts {
            idle: self.limits.idle_timeout,
            header: self.limits.header_read_timeout,
            body: self.limits.min_body_rate.grace,
        };
        let recheck = timeouts.header.min(timeouts.body);
        let activity = &admitted.activity;
        // Made once and polled in place: requests come many to a connection, and
        // remaking these at each one costs a lock on shared wait lists per request.
        let next = || activity.deadline(&timeouts).unwrap_or_else(|| Instant::now() + recheck);
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
                        tracing::debug!(server = self.name, %error, "connection ended");
                    }
                    return;
                }
                () = &mut evicted, if !closing => {
                    tracing::debug!(server = self.name, "closing the longest-silent connection to make room");
                    closing = true;
                }
                () = &mut stopping, if !closing => closing = true,
                () = activity.request_began() => timer.as_mut().reset(next()),
                () = &mut timer => {
                    if activity.deadline(&timeouts).is_some_and(|d| d <= Instant::now()) {
                        tracing::debug!(server = self.name, "closing a connection that idled, or sent its header or body too slowly");
                        return;
                    }
                    timer.as_mut().reset(next());
                }
            }
            if closing {
                if !activity.is_busy() || activity.only_reading() {
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

/// The stream (decrypted, or plain), telling the connection's [`Activity`] when bytes
/// arrive: a header is timed from its first byte (as Go's `ReadHeaderTimeout`),
/// waiting for it from the last answer (`IdleTimeout`), and a body from its last byte.
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
