//! The fence at the socket: fenced writes travel on connections of their own, whose
//! byte stream checks the leadership term on every write to the socket, so a request
//! frozen anywhere above it (kube's buffer, hyper's connection task) is refused when
//! the process resumes instead of being sent late.
//!
//! The checks above (in [`super::FencedService`]) refuse a write early and cancel it at
//! the term's end; this one is the last, where no queue or task lies between the check
//! and the kernel.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use http::Uri;
use hyper::rt::{Read, ReadBufCursor, Write};
use hyper_util::client::legacy::connect::{Connected, Connection, HttpConnector};
use hyper_util::rt::TokioExecutor;
use kube::client::ConfigExt;
use tower::ServiceBuilder;

use super::Fenced;
use crate::error::BoxError;
use crate::leader::Term;

/// A client of `config`'s API server for the writes of one term: its connections are
/// opened only while `term` is valid and refuse to write once it is over. A new term
/// gets a new client, so no connection carries writes of two terms.
///
/// It speaks HTTP/1.1 only, so one connection carries one request at a time and a
/// refused write fails that request alone.
pub(crate) fn write_client(config: &kube::Config, term: Arc<Term>, lease: String) -> Result<kube::Client, kube::Error> {
    let mut tcp = HttpConnector::new();
    tcp.enforce_http(false);
    tcp.set_nodelay(true);
    let connector = config.rustls_https_connector_with_connector(FencedConnector {
        inner: tcp,
        term,
        lease,
    })?;
    let hyper_client = hyper_util::client::legacy::Client::builder(TokioExecutor::new()).build(connector);
    let service = ServiceBuilder::new()
        .layer(config.base_uri_layer())
        .option_layer(config.auth_layer()?)
        .layer(config.extra_headers_layer()?)
        .map_err(BoxError::from)
        .service(hyper_client);
    Ok(kube::Client::new(service, config.default_namespace.clone()))
}

/// Opens connections for `term` while it is valid, and none after.
#[derive(Clone)]
struct FencedConnector {
    inner: HttpConnector,
    term: Arc<Term>,
    lease: String,
}

impl tower::Service<Uri> for FencedConnector {
    type Response = FencedStream<<HttpConnector as tower::Service<Uri>>::Response>;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, BoxError>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        self.inner.poll_ready(cx).map_err(BoxError::from)
    }

    fn call(&mut self, uri: Uri) -> Self::Future {
        let (term, lease) = (self.term.clone(), self.lease.clone());
        if !term.is_valid() {
            return Box::pin(std::future::ready(Err(Fenced::TermEnded { lease }.into())));
        }
        let connecting = self.inner.call(uri);
        Box::pin(async move {
            let stream = connecting.await?;
            Ok(FencedStream {
                inner: stream,
                term,
                lease,
            })
        })
    }
}

/// A connection's byte stream, bound to the term it was opened in: every write to the
/// socket (the TLS layer's included, which runs above it) checks that term first.
struct FencedStream<S> {
    inner: S,
    term: Arc<Term>,
    lease: String,
}

impl<S> FencedStream<S> {
    /// An error once the term is over; `Term::is_valid` reads the monotonic clock,
    /// which counts the time a `SIGSTOP` froze the process.
    fn check(&self) -> io::Result<()> {
        if self.term.is_valid() {
            Ok(())
        } else {
            Err(io::Error::other(Fenced::TermEnded {
                lease: self.lease.clone(),
            }))
        }
    }
}

impl<S: Write + Unpin> Write for FencedStream<S> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.check()?;
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.check()?;
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

impl<S: Read + Unpin> Read for FencedStream<S> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: ReadBufCursor<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: Connection> Connection for FencedStream<S> {
    fn connected(&self) -> Connected {
        self.inner.connected()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use hyper_util::rt::TokioIo;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::time::Instant;

    use super::*;

    #[tokio::test]
    async fn the_stream_writes_in_its_term_and_refuses_every_write_after() {
        let (near, mut far) = tokio::io::duplex(1024);
        let term = Term::new(1, Instant::now() + Duration::from_secs(10));
        // hyper's own traits, seen through tokio's as hyper and rustls drive them.
        let mut stream = TokioIo::new(FencedStream {
            inner: TokioIo::new(near),
            term: term.clone(),
            lease: "default/lease".into(),
        });
        stream.write_all(b"PATCH").await.expect("a write in the term");
        let mut received = [0; 5];
        far.read_exact(&mut received).await.expect("read");
        assert_eq!(&received, b"PATCH");

        term.end();
        let refused = stream.write_all(b"late").await.expect_err("refused after the term");
        let fenced = refused.get_ref().and_then(|e| e.downcast_ref::<Fenced>());
        assert!(matches!(fenced, Some(Fenced::TermEnded { .. })), "{refused}");
        let vectored = stream
            .write_vectored(&[io::IoSlice::new(b"late")])
            .await
            .expect_err("refused, vectored too");
        assert_eq!(vectored.kind(), io::ErrorKind::Other);
        drop(stream);
        let mut rest = Vec::new();
        far.read_to_end(&mut rest).await.expect("read to the end");
        assert!(rest.is_empty(), "nothing after the term reached the peer: {rest:?}");
    }

    #[tokio::test]
    async fn the_stream_refuses_once_its_deadline_passed_without_being_told() {
        let (near, _far) = tokio::io::duplex(1024);
        let term = Term::new(1, Instant::now() + Duration::from_millis(20));
        let mut stream = TokioIo::new(FencedStream {
            inner: TokioIo::new(near),
            term,
            lease: "default/lease".into(),
        });
        tokio::time::sleep(Duration::from_millis(30)).await;
        stream.write_all(b"late").await.expect_err("the deadline passed");
    }
}
