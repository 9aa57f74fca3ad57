//! The [`Reconciler`] an operator writes, and what it returns.

use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// What a successful reconcile asks for next.
///
/// ```
/// use std::time::Duration;
/// use wheelhouse_controller::Action;
///
/// assert_eq!(Action::done().requeue(), None);
/// assert_eq!(Action::requeue_after(Duration::from_secs(30)).requeue(), Some(Duration::from_secs(30)));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Action {
    requeue_after: Option<Duration>,
}

impl Action {
    /// Nothing more to do until the object (or something it watches) changes.
    pub fn done() -> Self {
        Self::default()
    }

    /// Reconcile again after `delay` even if nothing changes (to poll something outside
    /// the cluster, or to re-check a slow rollout).
    pub fn requeue_after(delay: Duration) -> Self {
        Self {
            requeue_after: Some(delay),
        }
    }

    /// The requested delay, if any.
    pub fn requeue(&self) -> Option<Duration> {
        self.requeue_after
    }
}

/// A failed reconcile. A plain error is retried with the rate limiter's backoff; a
/// [`terminal`](Error::terminal) one is not retried until the object changes. Any
/// `std::error::Error` converts with `?`.
///
/// ```
/// use wheelhouse_controller::Error;
///
/// let transient: Error = std::io::Error::other("connection reset").into();
/// assert!(!transient.is_terminal());
/// let invalid = Error::terminal("spec.replicas must be positive");
/// assert!(invalid.is_terminal());
/// assert_eq!(invalid.to_string(), "spec.replicas must be positive");
/// ```
pub struct Error {
    source: Box<dyn std::error::Error + Send + Sync>,
    terminal: bool,
}

impl Error {
    /// An error worth retrying.
    pub fn new(source: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Self {
            source: source.into(),
            terminal: false,
        }
    }

    /// An error retrying cannot fix (invalid spec, missing permission): logged and
    /// counted, not retried.
    pub fn terminal(source: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Self {
            source: source.into(),
            terminal: true,
        }
    }

    /// Whether the error is terminal.
    pub fn is_terminal(&self) -> bool {
        self.terminal
    }

    /// The underlying error.
    pub fn source(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        self.source.as_ref()
    }
}

impl<E: std::error::Error + Send + Sync + 'static> From<E> for Error {
    fn from(error: E) -> Self {
        Self::new(error)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // kube's own text for an API error repeats the whole Status in Debug form; the
        // message, code and reason are what a reader of the log needs.
        if let Some(kube::Error::Api(status)) = self.source.downcast_ref::<kube::Error>() {
            return write!(f, "{} ({} {})", status.message, status.code, status.reason);
        }
        fmt::Display::fmt(&self.source, f)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error")
            .field("source", &self.source)
            .field("terminal", &self.terminal)
            .finish()
    }
}

/// What a reconcile knows besides its object.
#[derive(Clone)]
pub struct Context {
    pub(crate) client: kube::Client,
    pub(crate) controller: Arc<str>,
    pub(crate) reconcile_id: String,
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("controller", &self.controller)
            .field("reconcile_id", &self.reconcile_id)
            .finish_non_exhaustive()
    }
}

impl Context {
    /// A context for calling a reconciler outside a controller (tests, benchmarks,
    /// another framework's loop).
    pub fn new(client: kube::Client, controller: &str) -> Self {
        Self {
            client,
            controller: controller.into(),
            reconcile_id: format!("{:016x}", rand::random::<u64>()),
        }
    }

    /// A client for the cluster the controller watches.
    pub fn client(&self) -> &kube::Client {
        &self.client
    }

    /// The controller's name.
    pub fn controller(&self) -> &str {
        &self.controller
    }

    /// An id unique to this reconcile, also on its tracing span.
    pub fn reconcile_id(&self) -> &str {
        &self.reconcile_id
    }
}

/// Brings the cluster in line with one object's spec: called with the object as the
/// cache holds it, level-triggered (it must not matter which change caused the call)
/// and never concurrently for the same object.
///
/// ```
/// use std::sync::Arc;
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use wheelhouse_controller::{Action, Context, Error, Reconciler};
///
/// struct Audit;
///
/// impl Reconciler<ConfigMap> for Audit {
///     async fn reconcile(&self, config: Arc<ConfigMap>, _: &Context) -> Result<Action, Error> {
///         if config.data.is_none() {
///             return Err(Error::terminal("a ConfigMap without data"));
///         }
///         Ok(Action::done())
///     }
/// }
/// ```
pub trait Reconciler<K>: Send + Sync + 'static {
    /// Reconciles `object`; see [`Action`] and [`Error`] for what the result does.
    fn reconcile(&self, object: Arc<K>, context: &Context) -> impl Future<Output = Result<Action, Error>> + Send;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_api_error_reads_as_its_message_code_and_reason() {
        let status = kube::core::Status::failure("the object has been modified", "Conflict").with_code(409);
        let error = Error::from(kube::Error::Api(Box::new(status)));
        assert_eq!(error.to_string(), "the object has been modified (409 Conflict)");
        let other = Error::from(std::io::Error::other("connection reset"));
        assert_eq!(other.to_string(), "connection reset");
    }
}
