//! A watch that starts over from a fresh list once the API server was seen to go away.
//!
//! kube's `watcher` resumes a broken watch from the last resourceVersion it saw, and
//! lists again only when the server answers that watch 410 Gone. After a restart of
//! kube-apiserver that answer is certain (its watch cache starts at the storage's
//! current revision) but not quick: the restarted server holds the watch until its
//! watch cache is ready, and 1.19 sent a custom resource watch's 410 4-7 s after
//! `/readyz`, seconds in which the cache stayed as it was before the outage. A
//! refused (or reset) connection when a watch is restarted says the server went away;
//! the next attempt is then a fresh watcher, which lists at once (a list with no
//! resourceVersion is read from storage, not from the watch cache), and delivers what
//! changed in the outage as soon as the server answers.
//!
//! A watch that merely broke (an idle timeout, a proxy's reset) and is resumed at once
//! keeps kube's resume from its resourceVersion: no list is spent on it.

use std::pin::Pin;
use std::task::{Context, Poll};

use futures::Stream;
use futures::stream::BoxStream;
use kube::runtime::watcher;

/// The stream of a watcher, made again by `make` after a refused reconnect.
pub(crate) struct Relisting<K> {
    make: Box<dyn Fn() -> BoxStream<'static, Result<watcher::Event<K>, watcher::Error>> + Send>,
    current: BoxStream<'static, Result<watcher::Event<K>, watcher::Error>>,
    /// The last restart of the watch was refused: start over on the next poll.
    start_over: bool,
}

impl<K> Relisting<K> {
    pub(crate) fn new(
        make: impl Fn() -> BoxStream<'static, Result<watcher::Event<K>, watcher::Error>> + Send + 'static,
    ) -> Self {
        let current = make();
        Self {
            make: Box::new(make),
            current,
            start_over: false,
        }
    }
}

impl<K> Stream for Relisting<K> {
    type Item = Result<watcher::Event<K>, watcher::Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if std::mem::take(&mut this.start_over) {
            this.current = (this.make)();
        }
        let item = this.current.as_mut().poll_next(cx);
        if let Poll::Ready(Some(Err(watcher::Error::WatchStartFailed(error)))) = &item
            && went_away(error)
        {
            this.start_over = true;
        }
        item
    }
}

/// Whether `error` is a connection the server refused or reset: it is down, or was.
pub(crate) fn went_away(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(error) = cause {
        if let Some(io) = error.downcast_ref::<std::io::Error>()
            && matches!(
                io.kind(),
                std::io::ErrorKind::ConnectionRefused
                    | std::io::ErrorKind::ConnectionReset
                    | std::io::ErrorKind::ConnectionAborted
            )
        {
            return true;
        }
        cause = error.source();
    }
    // Some layers keep only the message of the cause.
    let text = crate::error_chain(error).to_string().to_lowercase();
    text.contains("connection refused") || text.contains("connection reset")
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use futures::StreamExt;
    use k8s_openapi::api::core::v1::ConfigMap;

    use super::*;

    fn refused() -> watcher::Error {
        let io = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        watcher::Error::WatchStartFailed(kube::Error::Service(Box::new(io)))
    }

    fn timed_out() -> watcher::Error {
        let io = std::io::Error::from(std::io::ErrorKind::TimedOut);
        watcher::Error::WatchStartFailed(kube::Error::Service(Box::new(io)))
    }

    #[test]
    fn refusals_and_resets_are_told_from_other_failures() {
        let io = |kind| kube::Error::Service(Box::new(std::io::Error::from(kind)));
        assert!(went_away(&io(std::io::ErrorKind::ConnectionRefused)));
        assert!(went_away(&io(std::io::ErrorKind::ConnectionReset)));
        assert!(!went_away(&io(std::io::ErrorKind::TimedOut)));
        let message = kube::Error::Service("tcp connect error: Connection refused (os error 111)".into());
        assert!(went_away(&message));
    }

    #[tokio::test]
    async fn a_refused_restart_starts_a_new_watcher_and_nothing_else_does() {
        let made = Arc::new(AtomicUsize::new(0));
        let mut stream = Relisting::<ConfigMap>::new({
            let made = made.clone();
            move || {
                let round = made.fetch_add(1, Ordering::SeqCst);
                let items: Vec<Result<watcher::Event<ConfigMap>, watcher::Error>> = match round {
                    0 => vec![Ok(watcher::Event::Init), Err(timed_out()), Err(refused())],
                    _ => vec![Ok(watcher::Event::Init), Ok(watcher::Event::InitDone)],
                };
                futures::stream::iter(items).boxed()
            }
        });
        assert!(matches!(stream.next().await, Some(Ok(watcher::Event::Init))));
        assert!(matches!(stream.next().await, Some(Err(_))));
        assert_eq!(made.load(Ordering::SeqCst), 1, "a timeout resumes as kube does");
        assert!(matches!(stream.next().await, Some(Err(_))));
        assert!(
            matches!(stream.next().await, Some(Ok(watcher::Event::Init))),
            "a fresh list"
        );
        assert_eq!(made.load(Ordering::SeqCst), 2);
        assert!(matches!(stream.next().await, Some(Ok(watcher::Event::InitDone))));
    }
}
