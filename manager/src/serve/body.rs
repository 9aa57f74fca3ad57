//! The bodies a [`Service`](super::Service) reads and answers with: [`RequestBody`]
//! holds its client to the server's [`MinDataRate`] (failing with
//! [`BodyError::TooSlow`]) and tells the connection while it waits for body bytes (so a
//! body that stops arriving makes the connection silent, and evictable), and
//! [`AnswerBody`] writes an answer in pieces and holds what it was given (a
//! [`Reserved`](super::Reserved)) until the last piece is handed to the connection.

use std::any::Any;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::body::{Body, Frame, Incoming, SizeHint};

use super::connections::{Activity, Reading};
use super::rate::{MinDataRate, RateWatch};

/// A request's body as it arrives, no slower than the server's [`MinDataRate`].
pub struct RequestBody {
    inner: Incoming,
    /// Held while the body is being read; dropped at its end.
    reading: Option<Reading>,
    /// The rate the body is held to, while it is being read.
    rate: Option<RateWatch>,
    /// Set once the body was too slow: it stays failed.
    too_slow: Option<MinDataRate>,
}

impl RequestBody {
    pub(super) fn new(inner: Incoming, activity: &Arc<Activity>, rate: MinDataRate) -> Self {
        let ended = inner.is_end_stream();
        let reading = (!ended).then(|| activity.reading_body());
        let rate = (!ended).then(|| RateWatch::new(rate, inner.size_hint().exact()));
        Self {
            inner,
            reading,
            rate,
            too_slow: None,
        }
    }

    fn ended(&mut self) {
        self.reading = None;
        self.rate = None;
    }
}

/// Why a request body could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    /// The connection failed, or the client sent something that is not HTTP.
    #[error(transparent)]
    Read(#[from] hyper::Error),
    /// The body arrived slower than the server's minimum rate.
    #[error(
        "the request body arrived slower than {} bytes a second (judged over {:?})",
        .0.bytes_per_second,
        .0.grace
    )]
    TooSlow(MinDataRate),
}

impl std::fmt::Debug for RequestBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestBody").finish_non_exhaustive()
    }
}

impl Body for RequestBody {
    type Data = Bytes;
    type Error = BodyError;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, BodyError>>> {
        if let Some(rate) = self.too_slow {
            return Poll::Ready(Some(Err(BodyError::TooSlow(rate))));
        }
        if let Some(rate) = &mut self.rate {
            rate.asked();
        }
        match Pin::new(&mut self.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let (Some(rate), Some(data)) = (&mut self.rate, frame.data_ref()) {
                    rate.arrived(data.len() as u64);
                }
                if self.inner.is_end_stream() {
                    self.ended();
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(ended) => {
                self.ended();
                Poll::Ready(ended.map(|failed| failed.map_err(BodyError::Read)))
            }
            Poll::Pending => {
                let Some(rate) = &mut self.rate else {
                    return Poll::Pending;
                };
                if rate.poll_too_slow(cx).is_pending() {
                    return Poll::Pending;
                }
                let rate = rate.rate();
                self.ended();
                self.too_slow = Some(rate);
                Poll::Ready(Some(Err(BodyError::TooSlow(rate))))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// How much of an answer is handed to the connection at once: a connection whose
/// client does not read takes no more pieces once its write buffer is full, so the
/// answer (and what it holds) stays counted until it is nearly all written.
const PIECE: usize = 16 * 1024;

/// An answer's bytes, handed over in pieces, holding something (a budget
/// reservation) until the last piece is taken.
#[derive(Default)]
pub struct AnswerBody {
    rest: Bytes,
    held: Option<Box<dyn Any + Send + Sync>>,
}

impl std::fmt::Debug for AnswerBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnswerBody")
            .field("rest", &self.rest.len())
            .finish_non_exhaustive()
    }
}

impl AnswerBody {
    /// An answer of `bytes`.
    pub fn new(bytes: impl Into<Bytes>) -> Self {
        Self {
            rest: bytes.into(),
            held: None,
        }
    }

    /// Keeps `held` until the answer is written (or dropped unwritten).
    #[must_use]
    pub fn holding(mut self, held: impl Any + Send + Sync) -> Self {
        self.held = Some(Box::new(held));
        self
    }

    /// The answer's bytes not yet handed over (all of them, before serving).
    pub fn bytes(&self) -> &Bytes {
        &self.rest
    }

    /// The bytes, letting go of what is held.
    pub fn into_bytes(self) -> Bytes {
        self.rest
    }
}

impl From<String> for AnswerBody {
    fn from(text: String) -> Self {
        Self::new(text)
    }
}

impl From<Vec<u8>> for AnswerBody {
    fn from(bytes: Vec<u8>) -> Self {
        Self::new(bytes)
    }
}

impl Body for AnswerBody {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if self.rest.is_empty() {
            self.held = None;
            return Poll::Ready(None);
        }
        let piece = self.rest.len().min(PIECE);
        let piece = self.rest.split_to(piece);
        if self.rest.is_empty() {
            self.held = None;
        }
        Poll::Ready(Some(Ok(Frame::data(piece))))
    }

    fn is_end_stream(&self) -> bool {
        self.rest.is_empty()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.rest.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};

    use http_body_util::BodyExt as _;

    use super::*;

    struct Flag(Arc<AtomicBool>);

    impl Drop for Flag {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }

    #[tokio::test]
    async fn an_answer_holds_until_its_last_piece_is_taken() {
        let dropped = Arc::new(AtomicBool::new(false));
        let mut body = AnswerBody::new(vec![7u8; PIECE * 2 + 1]).holding(Flag(dropped.clone()));
        assert_eq!(body.size_hint().exact(), Some(PIECE as u64 * 2 + 1));
        let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!(first.len(), PIECE);
        body.frame().await.unwrap().unwrap();
        assert!(!dropped.load(Ordering::SeqCst), "held while pieces remain");
        let last = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!(last.len(), 1);
        assert!(dropped.load(Ordering::SeqCst), "let go with the last piece");
        assert!(body.frame().await.is_none());
    }
}
