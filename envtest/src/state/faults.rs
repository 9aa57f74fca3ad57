//! Fault injection: failed and delayed requests, dropped watches and compaction, and
//! the counts a test asserts on to know they happened.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::ApiServer;
use crate::core::{ApiError, Verb};
use crate::request::Target;

/// A request failure to inject; see [`ApiServer::fail_next`].
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use kube::api::{Api, ListParams};
/// use wheelhouse_envtest::{ApiServer, FaultCounts, InjectedFailure, Verb};
///
/// let server = ApiServer::new(Default::default());
/// server.fail_next(1, InjectedFailure::too_many_requests(Verb::List, "configmaps"));
/// let api: Api<ConfigMap> = Api::default_namespaced(kube::Client::new(server.clone(), "default"));
/// let error = api.list(&ListParams::default()).await.unwrap_err();
/// assert!(matches!(error, kube::Error::Api(status) if status.code == 429));
/// assert!(api.list(&ListParams::default()).await.is_ok()); // only the next one failed
/// assert_eq!(server.fault_counts(), FaultCounts { failed_requests: 1, ..Default::default() });
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InjectedFailure {
    /// Only requests with this verb (any verb when None).
    pub verb: Option<Verb>,
    /// Only requests for this plural resource name, like `configmaps` (any when None).
    pub resource: Option<String>,
    /// The HTTP code: 500, 503, 429...
    pub code: u16,
    /// For 429 and 503, the `Retry-After` the client is told (seconds).
    pub retry_after: Option<u64>,
}

impl InjectedFailure {
    /// 500 Internal Server Error for `verb` on `resource`.
    pub fn server_error(verb: Verb, resource: &str) -> Self {
        Self {
            verb: Some(verb),
            resource: Some(resource.to_owned()),
            code: 500,
            retry_after: None,
        }
    }

    /// 429 Too Many Requests with `Retry-After: 1` for `verb` on `resource`.
    pub fn too_many_requests(verb: Verb, resource: &str) -> Self {
        Self {
            code: 429,
            retry_after: Some(1),
            ..Self::server_error(verb, resource)
        }
    }
}

#[derive(Default)]
pub(crate) struct Faults {
    failures: Vec<(InjectedFailure, u32)>,
    latency: Duration,
}

/// How many faults the server has injected, so tests can assert they happened (see
/// the example of [`InjectedFailure`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FaultCounts {
    /// Watches ended by [`ApiServer::drop_watches`].
    pub dropped_watches: u64,
    /// Calls of [`ApiServer::compact`].
    pub compactions: u64,
    /// Requests failed by [`ApiServer::fail_next`].
    pub failed_requests: u64,
    /// Requests delayed by [`ApiServer::set_latency`].
    pub delayed_requests: u64,
}

#[derive(Default)]
pub(crate) struct FaultCounters {
    dropped_watches: AtomicU64,
    compactions: AtomicU64,
    failed_requests: AtomicU64,
    delayed_requests: AtomicU64,
}

impl ApiServer {
    /// Ends every open watch now, as when the API server restarts or a load balancer
    /// cuts connections; clients must re-watch. Returns how many were open.
    pub fn drop_watches(&self) -> usize {
        let dropped = self.shared.state.lock().store.drop_watches();
        self.shared
            .counters
            .dropped_watches
            .fetch_add(dropped as u64, Ordering::Relaxed);
        dropped
    }

    /// Forgets the event history, as an etcd compaction does: a watch or list
    /// continuation from an older resourceVersion gets 410 Gone.
    pub fn compact(&self) {
        self.shared.state.lock().store.compact();
        self.shared.counters.compactions.fetch_add(1, Ordering::Relaxed);
    }

    /// Fails the next `count` requests that match `failure` with its code.
    pub fn fail_next(&self, count: u32, failure: InjectedFailure) {
        self.shared.faults.lock().failures.push((failure, count));
    }

    /// Delays every request by `latency` (zero turns it off).
    pub fn set_latency(&self, latency: Duration) {
        self.shared.faults.lock().latency = latency;
    }

    /// The faults injected so far.
    pub fn fault_counts(&self) -> FaultCounts {
        let counters = &self.shared.counters;
        FaultCounts {
            dropped_watches: counters.dropped_watches.load(Ordering::Relaxed),
            compactions: counters.compactions.load(Ordering::Relaxed),
            failed_requests: counters.failed_requests.load(Ordering::Relaxed),
            delayed_requests: counters.delayed_requests.load(Ordering::Relaxed),
        }
    }

    /// Applies injected latency and failures to a request.
    pub(crate) async fn inject(&self, target: &Target) -> Option<ApiError> {
        let (latency, failure) = {
            let mut faults = self.shared.faults.lock();
            let index = faults.failures.iter().position(|(f, _)| {
                f.verb.is_none_or(|v| v == target.verb)
                    && f.resource.as_ref().is_none_or(|r| *r == target.resource.plural)
            });
            let failure = index.map(|i| {
                let failure = faults.failures[i].0.clone();
                faults.failures[i].1 -= 1;
                if faults.failures[i].1 == 0 {
                    faults.failures.remove(i);
                }
                failure
            });
            (faults.latency, failure)
        };
        if !latency.is_zero() {
            self.shared.counters.delayed_requests.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep(latency).await;
        }
        let failure = failure?;
        self.shared.counters.failed_requests.fetch_add(1, Ordering::Relaxed);
        let mut error = match failure.code {
            429 => ApiError::new(
                429,
                "TooManyRequests",
                "the server has received too many requests and has asked us to try again later",
            ),
            503 => ApiError::new(
                503,
                "ServiceUnavailable",
                "the server is currently unable to handle the request",
            ),
            code => ApiError::new(code, "InternalError", "Internal error occurred: injected by envtest"),
        };
        error.retry_after = failure.retry_after;
        Some(error)
    }
}
