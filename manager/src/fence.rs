//! Fencing: the manager's client lets a write through only while this replica's
//! leadership term is valid, checked as the request is handed to the HTTP stack and,
//! when the manager was built from a `kube::Config`, again on every write to the
//! socket (`socket`); it cancels a write if the term ends before the answer comes.
//!
//! Only writes are fenced (`POST`, `PUT`, `PATCH`, `DELETE`): reads change nothing
//! another replica could be confused by, and the standbys' informers read through the
//! same client to keep their caches warm. What fencing cannot do is on [`Fenced`].

use std::fmt;
use std::sync::Arc;
use std::task::{Context, Poll};

use futures::future::BoxFuture;
use http::{Method, Request, Response};
use kube::client::Body;
use parking_lot::Mutex;

use crate::error::BoxError;
use crate::leader::Term;

pub(crate) mod server;
mod socket;
mod stamp;
pub(crate) mod webhook;

/// Why the manager's client refused or cancelled a write. A reconcile sees it as
/// `kube::Error::Service`; [`Fenced::of`] finds it there.
///
/// Only writes are fenced (`POST`, `PUT`, `PATCH`, `DELETE`); reads always pass, as
/// the standbys' informers read through the same client.
///
/// # Where the term is checked, and the window that remains
///
/// A write is checked when it is handed to the HTTP stack, and cancelled if the term
/// ends before the answer. A manager built with
/// [`Manager::builder_from_config`](crate::Manager::builder_from_config) checks it
/// again where its bytes are written: fenced writes go out on connections of their
/// own, opened per term, whose every write to the socket (TLS records included) is
/// refused once that term is over. The term is judged on the monotonic clock, which
/// counts the time a `SIGSTOP` froze the process, so a request frozen anywhere above
/// the socket (kube's buffer task, hyper's connection task, a TLS buffer) is refused
/// when the process resumes, not sent late. Reads never take these connections.
///
/// What remains is what the process had already handed the kernel: the bytes in a
/// socket's send buffer (at most the one request a connection carries at a time)
/// leave even while the process is stopped. They were let through within the term,
/// so they arrive late only if the network holds them for longer than the margin
/// between the term's end and the earliest takeover (`lease_duration -
/// renew_deadline`, 5 s with the defaults). Measured over loopback in
/// `tests/fencing.rs` (200 `SIGSTOP`s of writer processes in the middle of their
/// requests, debug build): the writes that reached the server after a `SIGSTOP` was
/// sent arrived at most 62 ms after it when the test ran alone, 240 ms beside the
/// other fencing tests on two busy cores (both include starting `kill` and the
/// server's own queue); none arrived stale.
///
/// A manager built with [`Manager::builder`](crate::Manager::builder) from a
/// `kube::Client` has only the first check: a request frozen after it, in the
/// client's buffers, is sent at resume, possibly after another replica took over
/// (the same test, fenced that way, let 8 stale writes through in 40 `SIGSTOP`s).
/// `cargo bench --bench failover` measures the span between the two (its
/// `kind=fence-window` line: from handing a write to the client to its arrival at the
/// server); `benches/README.md` records the figures.
///
/// Nothing in the client can stop bytes a network holds past a takeover; for the
/// resources that matter, [`ServerFencing`](crate::ServerFencing) has the API server
/// refuse a write whose term is over.
///
/// A Lease deleted under its leader ends the term as soon as the leader sees it (its
/// watch, or a renew answered 404), while the other replicas wait a whole lease
/// duration from the last change they saw, as for an expiry: the same margin holds.
///
/// ```
/// use wheelhouse_manager::Fenced;
///
/// let refused = kube::Error::Service(Box::new(Fenced::NotLeading { lease: "ops/webapp".into() }));
/// assert!(matches!(Fenced::of(&refused), Some(Fenced::NotLeading { .. })));
/// assert!(Fenced::of(&kube::Error::LinesCodecMaxLineLengthExceeded).is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Fenced {
    /// No leadership term of this replica is valid now: the write was not sent.
    #[error("write refused: this replica does not hold lease {lease} now, so it may not write")]
    NotLeading {
        /// namespace/name of the Lease.
        lease: String,
    },
    /// The term ended while the write was in flight: it was cancelled (if its bytes had
    /// already reached the server, the server may still have applied it).
    #[error("write cancelled: this replica's leadership term on lease {lease} ended before the server answered")]
    TermEnded {
        /// namespace/name of the Lease.
        lease: String,
    },
}

impl Fenced {
    /// The fencing error inside a client error, if that is why the request failed.
    pub fn of(error: &kube::Error) -> Option<&Self> {
        match error {
            kube::Error::Service(source) => source.downcast_ref::<Self>(),
            _ => None,
        }
    }
}

/// The term writes are checked against: set while leader-only runnables run in it.
///
/// Invariant: the lifecycle sets a new term only after every runnable of the previous
/// one has stopped, so a write let through under a term was sent by that term's work.
pub(crate) struct Fence {
    lease: String,
    term: Mutex<Option<Arc<Term>>>,
    /// Where writes go: one client for all, or one per term checked at the socket.
    writes: Writes,
    /// Server-side fencing: which writes are stamped with their term.
    server: std::sync::OnceLock<server::ServerFencing>,
}

/// The clients the fenced writes go out on.
enum Writes {
    /// The client reads go through too: fenced where a write is handed to it.
    Shared(kube::Client),
    /// A client per term of the manager's `kube::Config`, made at the term's first
    /// write, whose connections check the term on every write to the socket.
    PerTerm {
        config: Box<kube::Config>,
        wrap: Box<dyn Fn(kube::Client) -> kube::Client + Send + Sync>,
        /// The current term's number and client.
        current: Mutex<Option<(u64, kube::Client)>>,
    },
}

impl Fence {
    /// A fence whose writes go out on `client`, checked where they are handed to it.
    pub(crate) fn new(lease: String, client: kube::Client) -> Arc<Self> {
        Arc::new(Self {
            lease,
            term: Mutex::new(None),
            writes: Writes::Shared(client),
            server: std::sync::OnceLock::new(),
        })
    }

    /// A fence whose writes go out on a client of `config` per term, `wrap`ped, whose
    /// connections check the term on every write to the socket.
    pub(crate) fn to_the_socket(
        lease: String,
        config: kube::Config,
        wrap: impl Fn(kube::Client) -> kube::Client + Send + Sync + 'static,
    ) -> Arc<Self> {
        Arc::new(Self {
            lease,
            term: Mutex::new(None),
            writes: Writes::PerTerm {
                config: Box::new(config),
                wrap: Box::new(wrap),
                current: Mutex::new(None),
            },
            server: std::sync::OnceLock::new(),
        })
    }

    /// The client `term`'s writes go out on.
    fn writes_of(&self, term: &Arc<Term>) -> Result<kube::Client, kube::Error> {
        match &self.writes {
            Writes::Shared(client) => Ok(client.clone()),
            Writes::PerTerm { config, wrap, current } => {
                let mut current = current.lock();
                if let Some((number, client)) = &*current
                    && *number == term.number()
                {
                    return Ok(client.clone());
                }
                let client = wrap(socket::write_client(config, term.clone(), self.lease.clone())?);
                *current = Some((term.number(), client.clone()));
                Ok(client)
            }
        }
    }

    /// Stamps the writes `fencing` names with their term from now on.
    pub(crate) fn stamp_with(&self, fencing: server::ServerFencing) {
        let _ = self.server.set(fencing);
    }

    /// What the server fences, if server-side fencing was asked for.
    pub(crate) fn server_fencing(&self) -> Option<&server::ServerFencing> {
        self.server.get()
    }

    /// Whether the manager has begun `term` here: its writes are let through.
    pub(crate) fn has_entered(&self, term: &Term) -> bool {
        self.term
            .lock()
            .as_ref()
            .is_some_and(|current| current.number() == term.number() && current.is_valid())
    }

    pub(crate) fn enter(&self, term: Arc<Term>) {
        *self.term.lock() = Some(term);
    }

    pub(crate) fn leave(&self) {
        *self.term.lock() = None;
    }

    /// The term a write may be sent in, checked now.
    fn admit(&self) -> Result<Arc<Term>, Fenced> {
        match &*self.term.lock() {
            Some(term) if term.is_valid() => Ok(term.clone()),
            _ => Err(Fenced::NotLeading {
                lease: self.lease.clone(),
            }),
        }
    }

    /// A client reading through `reads`, its writes fenced by this fence.
    pub(crate) fn client(self: &Arc<Self>, reads: kube::Client) -> kube::Client {
        let namespace = reads.default_namespace().to_owned();
        kube::Client::new(
            FencedService {
                reads,
                fence: self.clone(),
            },
            namespace,
        )
    }
}

impl fmt::Debug for Fence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fence")
            .field("lease", &self.lease)
            .finish_non_exhaustive()
    }
}

/// The tower service in front of the manager's client: kube's `Client` is built on it.
/// Reads go to `reads`, writes to the fence's clients.
#[derive(Clone)]
struct FencedService {
    reads: kube::Client,
    fence: Arc<Fence>,
}

fn is_write(method: &Method) -> bool {
    matches!(*method, Method::POST | Method::PUT | Method::PATCH | Method::DELETE)
}

impl tower_service::Service<Request<Body>> for FencedService {
    type Response = Response<Body>;
    type Error = BoxError;
    type Future = BoxFuture<'static, Result<Response<Body>, BoxError>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        let fence = self.fence.clone();
        if !is_write(request.method()) {
            let client = self.reads.clone();
            return Box::pin(async move { client.send(request).await.map_err(BoxError::from) });
        }
        // The check runs when the future is first polled, not here: kube's buffer
        // calls `call` on its own task, possibly well before the caller polls.
        Box::pin(async move {
            let term = fence.admit()?;
            let client = fence.writes_of(&term)?;
            let request = match (fence.server.get(), term.token()) {
                (Some(fencing), Some(token)) if stamp::applies(fencing, &request) => {
                    stamp::stamp(request, &format!("{}/{token}", fence.lease), &fencing.label_value()).await?
                }
                _ => request,
            };
            let ended = || Fenced::TermEnded {
                lease: fence.lease.clone(),
            };
            tokio::select! {
                biased;
                () = term.over() => Err(ended().into()),
                answer = client.send(request) => match answer {
                    // Refused at the socket (or failed as the term ended): say why.
                    Err(_) if !term.is_valid() => Err(ended().into()),
                    answer => answer.map_err(BoxError::from),
                },
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::api::{Api, ListParams, PostParams};
    use tokio::time::Instant;
    use wheelhouse_envtest::{ApiServer, Verb};

    use super::*;

    fn config_map(name: &str) -> ConfigMap {
        let mut config = ConfigMap::default();
        config.metadata.name = Some(name.into());
        config
    }

    #[tokio::test]
    async fn writes_pass_only_in_a_valid_term_and_reads_always() {
        let server = ApiServer::new(wheelhouse_envtest::ServerOptions::default());
        let client = kube::Client::new(server.clone(), "default");
        let fence = Fence::new("default/lease".into(), client.clone());
        let client = fence.client(client);
        let api: Api<ConfigMap> = Api::default_namespaced(client);

        let refused = api.create(&PostParams::default(), &config_map("a")).await.unwrap_err();
        assert!(
            matches!(Fenced::of(&refused), Some(Fenced::NotLeading { .. })),
            "{refused}"
        );
        assert_eq!(server.request_count(Verb::Create, "configmaps"), 0, "never sent");
        api.list(&ListParams::default())
            .await
            .expect("reads pass without a term");

        let term = Term::new(1, Instant::now() + Duration::from_secs(10));
        fence.enter(term.clone());
        api.create(&PostParams::default(), &config_map("b"))
            .await
            .expect("a write in the term");
        term.end();
        let refused = api.create(&PostParams::default(), &config_map("c")).await.unwrap_err();
        assert!(Fenced::of(&refused).is_some(), "{refused}");
        fence.leave();
        assert_eq!(server.request_count(Verb::Create, "configmaps"), 1);
    }

    #[tokio::test]
    async fn a_write_in_flight_is_cancelled_when_the_term_ends() {
        let server = ApiServer::new(wheelhouse_envtest::ServerOptions::default());
        server.set_latency(Duration::from_secs(5));
        let client = kube::Client::new(server, "default");
        let fence = Fence::new("default/lease".into(), client.clone());
        let term = Term::new(1, Instant::now() + Duration::from_millis(100));
        fence.enter(term);
        let api: Api<ConfigMap> = Api::default_namespaced(fence.client(client));
        let started = Instant::now();
        let error = api
            .create(&PostParams::default(), &config_map("slow"))
            .await
            .unwrap_err();
        assert!(matches!(Fenced::of(&error), Some(Fenced::TermEnded { .. })), "{error}");
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "cancelled at the term's end"
        );
    }
}
