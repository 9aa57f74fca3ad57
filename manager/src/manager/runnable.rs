//! [`Runnable`]: the one thing a [`Manager`](crate::Manager) knows how to start and
//! stop, and [`Stop`], the signal it stops it with.

use std::fmt::{self, Debug};
use std::future::Future;
use std::sync::Arc;

use futures::future::BoxFuture;
use tokio_util::sync::CancellationToken;

use crate::error::BoxError;
use crate::leader::Term;
use crate::manager::Manager;

/// Work a [`Manager`] starts, in order, and stops, in reverse: controllers, servers,
/// webhooks, anything with a lifetime.
///
/// A leader-only runnable (controllers) is started each time its replica becomes the
/// leader, so `start` takes `&self` and may be called again after a previous run ended.
/// It is stopped in one of two ways:
/// - **gracefully** (shutdown, or another runnable failed): [`Stop::requested`]
///   resolves; finish what is in flight and return;
/// - **at once** (its leadership term ended): [`Stop::term_over`] resolves; cancel
///   what is in flight, wait until it is gone (abort the tasks you spawned and await
///   them) and return. The manager's client already refuses this runnable's writes. A
///   runnable that has not returned within half the margin between the term's end and
///   the earliest takeover (`(lease_duration - renew_deadline) / 2`) has its future
///   dropped and is named as abandoned: tie every task you spawn to that future too
///   (abort them in a guard's `Drop`), so nothing keeps running after the lease could
///   belong to another replica.
///
/// ```
/// use futures::future::BoxFuture;
/// use wheelhouse_manager::{BoxError, Runnable, Stop};
///
/// /// Logs a heartbeat on every replica until the manager stops.
/// struct Heartbeat;
///
/// impl Runnable for Heartbeat {
///     fn name(&self) -> &str {
///         "heartbeat"
///     }
///     fn needs_leader_election(&self) -> bool {
///         false
///     }
///     fn start(&self, stop: Stop) -> BoxFuture<'_, Result<(), BoxError>> {
///         Box::pin(async move {
///             let mut tick = tokio::time::interval(std::time::Duration::from_secs(60));
///             loop {
///                 tokio::select! {
///                     () = stop.requested() => return Ok(()),
///                     _ = tick.tick() => tracing::info!("alive"),
///                 }
///             }
///         })
///     }
/// }
/// ```
pub trait Runnable: Send + Sync + 'static {
    /// The name logs, metrics and errors use.
    fn name(&self) -> &str;

    /// True for work only the leader may do (controllers); false for what every
    /// replica runs (servers, webhooks).
    fn needs_leader_election(&self) -> bool;

    /// Called once by [`Manager::add`], before anything starts: register metrics in
    /// [`Manager::registry`] and informers in [`Manager::cache`] here, so that standbys
    /// keep the caches warm and `/metrics` shows the families from the start.
    fn register(&mut self, manager: &Manager) -> Result<(), BoxError> {
        let _ = manager;
        Ok(())
    }

    /// Runs until `stop` is requested (then returns `Ok`) or until the work fails.
    fn start(&self, stop: Stop) -> BoxFuture<'_, Result<(), BoxError>>;
}

/// Why and when a runnable must stop; cheap to clone.
///
/// A leader-only runnable's `Stop` also knows its leadership term: once the term has
/// ended (the lease was not renewed within the renew deadline), [`is_requested`]
/// answers true even if the manager has not yet dropped the runnable's future, so a
/// loop that checks it before each unit of work never starts work it may no longer do.
///
/// [`is_requested`]: Stop::is_requested
#[derive(Clone)]
pub struct Stop {
    token: CancellationToken,
    term: Option<Arc<Term>>,
}

impl Debug for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Stop")
            .field("requested", &self.is_requested())
            .field("token", &self.token)
            .field("leader_only", &self.term.is_some())
            .finish()
    }
}

impl Stop {
    /// A signal that stops when `token` is cancelled: to run a runnable without a
    /// manager (in a test, say).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use tokio_util::sync::CancellationToken;
    /// use wheelhouse_manager::Stop;
    ///
    /// let token = CancellationToken::new();
    /// let stop = Stop::new(token.clone());
    /// assert!(!stop.is_requested());
    /// token.cancel();
    /// stop.requested().await;
    /// assert!(stop.is_requested());
    /// # }
    /// ```
    pub fn new(token: CancellationToken) -> Self {
        Self { token, term: None }
    }

    pub(crate) fn for_term(token: CancellationToken, term: Arc<Term>) -> Self {
        Self {
            token,
            term: Some(term),
        }
    }

    /// Resolves once a graceful stop is requested.
    pub async fn requested(&self) {
        self.token.cancelled().await;
    }

    /// Resolves once the leadership term this runnable runs in has ended (never for a
    /// runnable that runs without leader election): stop at once, cancelling work in
    /// flight, and return once it is gone.
    pub async fn term_over(&self) {
        match &self.term {
            Some(term) => term.over().await,
            None => std::future::pending().await,
        }
    }

    /// True once a stop is requested, or once the leadership term this runnable runs
    /// in has ended.
    pub fn is_requested(&self) -> bool {
        self.token.is_cancelled() || self.term.as_ref().is_some_and(|term| !term.is_valid())
    }

    /// False once the leadership term this runnable runs in has ended (always true for
    /// a runnable that runs without leader election), whether or not a graceful stop
    /// was requested: work draining after a graceful stop may still write; work whose
    /// term is over may not.
    pub fn in_term(&self) -> bool {
        self.term.as_ref().is_none_or(|term| term.is_valid())
    }

    /// The cancellation token behind the graceful stop, for APIs that take one.
    pub fn token(&self) -> &CancellationToken {
        &self.token
    }
}

/// A runnable made of a name and a closure, started anew each time it starts.
///
/// ```
/// use wheelhouse_manager::{Stop, runnable_fn};
///
/// let every_replica = runnable_fn("warm-up", false, |stop: Stop| async move {
///     stop.requested().await;
///     Ok(())
/// });
/// # let _ = every_replica;
/// ```
pub fn runnable_fn<F, Fut>(name: impl Into<String>, needs_leader_election: bool, start: F) -> impl Runnable
where
    F: Fn(Stop) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<(), BoxError>> + Send + 'static,
{
    FnRunnable {
        name: name.into(),
        needs_leader_election,
        start,
    }
}

struct FnRunnable<F> {
    name: String,
    needs_leader_election: bool,
    start: F,
}

impl<F, Fut> Runnable for FnRunnable<F>
where
    F: Fn(Stop) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<(), BoxError>> + Send + 'static,
{
    fn name(&self) -> &str {
        &self.name
    }

    fn needs_leader_election(&self) -> bool {
        self.needs_leader_election
    }

    fn start(&self, stop: Stop) -> BoxFuture<'_, Result<(), BoxError>> {
        Box::pin((self.start)(stop))
    }
}
