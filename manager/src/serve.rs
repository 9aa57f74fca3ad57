//! The serving layer every HTTP(S) server of a manager shares (the metrics and
//! health-probe servers here, the webhook server in wheelhouse-webhook): the accept
//! loop, TLS, the registry of open connections and whom to close, the silence timers,
//! HTTP/2's settings, and the [`ByteBudget`] a server that reads bodies draws on. Each
//! server brings a [`Service`] and its own [`ServeLimits`].
//!
//! What it holds against, whatever the server:
//! - **Accepting never stops and never spins.** Every accepted connection is admitted;
//!   past the connection bounds (server-wide and per client address) the connection
//!   silent longest is closed to make room. An accept that fails (out of file
//!   descriptors, say) closes one silent connection for a descriptor, or else backs
//!   off (5 ms doubling to 1 s, as Go's `net/http`) before accepting again.
//! - **Silence is timed, and silent connections are evictable**: a TLS handshake, a
//!   request header from its first byte, and the wait for the next request after an
//!   answer. A connection is *silent* when no request on it has been read whole:
//!   idle, still sending a header, or waiting only for bodies. Silent connections are
//!   the ones evicted, the longest-silent first, so a client's fresh connection wins
//!   over silent connections from its own address: the per-address bound cannot lock
//!   kube-apiserver out, though all its connections share one.
//! - **Bodies arrive at a minimum rate** ([`MinDataRate`], as Kestrel's): every period
//!   of its grace must bring the rate's bytes (or the rest of the body), so a body that
//!   sends most of itself and then trickles is closed within one period, not held to
//!   the request's deadline; a connection whose every request waits for a body and that
//!   received nothing for a period is closed with them.
//! - **Headers are small**: a request header (HTTP/1.1's buffer, HTTP/2's header list)
//!   is at most `max_header_bytes`, 16 KiB by default, so a thousand connections that
//!   never finish theirs hold a few megabytes; a header read whole is counted with its
//!   request's bytes where the server counts them.
//! - **Requests read whole are never lost**: a connection with a request being
//!   decided or answered is never evicted; at a stop it is asked to close after its
//!   answers, and the server returns once they are written.
//! - **HTTP/2** (offered over TLS when asked): a bound on concurrent streams, and
//!   the rapid-reset bounds (streams reset before they are served, streams the server
//!   had to reset).
//! - **Bytes in flight** ([`ByteBudget`]): counted as they arrive, never from a
//!   declared length; small bodies on a share of their own; held until the answer is
//!   written ([`AnswerBody::holding`]); a request that finds no room takes it from the
//!   slowest body of a client holding more than its fair share (per address, then per
//!   connection), never waits behind slow bodies. Each request carries its [`Origin`].

mod body;
mod budget;
mod connection;
mod connections;
mod rate;

use std::any::Any;
use std::future::{Future, pending};
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::task::JoinSet;
use tokio_rustls::TlsAcceptor;
use tokio_util::sync::CancellationToken;

pub use self::body::{AnswerBody, BodyError, RequestBody};
pub use self::budget::{BudgetHealth, ByteBudget, FAST, NoRoom, Origin, Reserved, SMALL_BODY, STALLED};
use self::connection::Connection;
use self::connections::{Admitted, Bounds, Connections};
pub use self::rate::MinDataRate;
use crate::cert_watcher::CertWatcher;

/// An answer to one request.
pub type Answer = http::Response<AnswerBody>;

/// What a server answers requests with.
pub trait Service: Send + Sync + 'static {
    /// Answers one request. The connection counts as silent while the request's
    /// body is being read, and as busy from when the body is read whole until this
    /// returns.
    fn call(&self, request: http::Request<RequestBody>) -> impl Future<Output = Answer> + Send;
}

/// How one server holds its connections. Each server has its own table:
///
/// | limit | webhook | metrics | probes |
/// |---|---|---|---|
/// | `max_connections` | 1024 | 256 | 256 |
/// | `max_connections_per_peer` | 256 | 64 | 128 |
/// | `handshake_timeout` | 5 s | 10 s | (plain HTTP) |
/// | `header_read_timeout` | 10 s | 10 s | 5 s |
/// | `max_header_bytes` | 16 KiB | 32 KiB | 16 KiB |
/// | `min_body_rate` | 4 KiB/s over 2 s | 4 KiB/s over 2 s | 4 KiB/s over 2 s |
/// | `idle_timeout` | 30 s | 30 s | 30 s |
/// | `http2_max_concurrent_streams` | 100 | 100 | (plain HTTP/1.1) |
///
/// Past `max_connections` (or `max_connections_per_peer` from one IP address) the
/// longest-silent connection is closed to make room, and a newcomer is refused only
/// when every connection of the bound has a request read whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServeLimits {
    /// Connections held open at once.
    pub max_connections: usize,
    /// Connections held open at once from one IP address.
    pub max_connections_per_peer: usize,
    /// How long a TLS handshake may take.
    pub handshake_timeout: Duration,
    /// A request header must arrive whole within this of its first byte.
    pub header_read_timeout: Duration,
    /// The longest request header (the request line and every field; HTTP/2's header
    /// list): a longer one is answered 431 (HTTP/1.1) or reset (HTTP/2).
    pub max_header_bytes: usize,
    /// The slowest a request body may arrive: a body short of it is failed with
    /// [`BodyError::TooSlow`], and a connection whose every request waits for its
    /// body, with nothing arriving for the rate's grace, is closed.
    pub min_body_rate: MinDataRate,
    /// A connection that has sent no byte of a new request for this long after its
    /// last answer is closed.
    pub idle_timeout: Duration,
    /// Streams one HTTP/2 connection may have open at once.
    pub http2_max_concurrent_streams: u32,
    /// How often a certificate directory is checked for a renewed certificate.
    pub cert_poll_interval: Duration,
}

impl ServeLimits {
    /// The webhook server's: kube-apiserver's reviews answered while hostile clients
    /// hold connections and send slowly.
    pub fn webhook() -> Self {
        Self {
            max_connections: 1024,
            max_connections_per_peer: 256,
            handshake_timeout: Duration::from_secs(5),
            header_read_timeout: Duration::from_secs(10),
            max_header_bytes: 16 * 1024,
            min_body_rate: MinDataRate {
                bytes_per_second: 4 * 1024,
                grace: Duration::from_secs(2),
            },
            idle_timeout: Duration::from_secs(30),
            http2_max_concurrent_streams: 100,
            cert_poll_interval: Duration::from_secs(10),
        }
    }

    /// The metrics server's: a few scrapers, each with a connection or two, and a
    /// bearer token in its header.
    pub fn metrics() -> Self {
        Self {
            max_connections: 256,
            max_connections_per_peer: 64,
            handshake_timeout: Duration::from_secs(10),
            max_header_bytes: 32 * 1024,
            ..Self::webhook()
        }
    }

    /// The health-probe server's: the kubelet, from the node's address.
    pub fn probes() -> Self {
        Self {
            max_connections: 256,
            max_connections_per_peer: 128,
            header_read_timeout: Duration::from_secs(5),
            ..Self::webhook()
        }
    }
}

/// TLS for a server: the acceptor, and the watcher that reloads its certificate.
pub struct Tls {
    /// The TLS configuration (see [`tls_server_config`](crate::tls_server_config)).
    pub acceptor: TlsAcceptor,
    /// Reloads the certificate from a directory; None for one held in memory.
    pub watcher: Option<CertWatcher>,
}

/// Serves `service` on `listener` until `stop` resolves, then stops accepting, asks
/// every connection to close after its requests in flight, and returns once they
/// have. Every connection is a task of a set this future owns: if the future is
/// dropped, they end with it. `name` names the server in the log.
pub async fn serve<S: Service>(
    name: &'static str,
    listener: TcpListener,
    tls: Option<Tls>,
    service: Arc<S>,
    limits: ServeLimits,
    stop: impl Future<Output = ()>,
) {
    let registry = Connections::new(Bounds {
        max_connections: limits.max_connections,
        max_per_peer: limits.max_connections_per_peer,
    });
    let (acceptor, watcher) = match tls {
        Some(tls) => (Some(tls.acceptor), tls.watcher),
        None => (None, None),
    };
    let connection = Connection {
        tls: acceptor,
        service,
        limits,
        closing: CancellationToken::new(),
        name,
    };
    let mut connections = JoinSet::new();
    let watching = async move {
        match watcher {
            Some(watcher) => watcher.run(limits.cert_poll_interval).await,
            None => pending().await,
        }
    };
    tokio::pin!(watching, stop);
    let mut backoff = Backoff::default();
    loop {
        tokio::select! {
            () = &mut stop => break,
            () = &mut watching => {}
            Some(_) = connections.join_next() => {}
            accepted = listener.accept() => match accepted {
                Ok((tcp, peer)) => {
                    backoff.reset();
                    if let Some(admitted) = admit(name, &registry, peer) {
                        connections.spawn(connection.clone().serve(tcp, admitted));
                    }
                }
                Err(error) if out_of_descriptors(&error) && registry.evict_one() => {
                    // Close a silent connection for a descriptor rather than leave
                    // kube-apiserver's connection waiting in the backlog; let its task
                    // run and free the descriptor before accepting again.
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
                Err(error) => {
                    let delay = backoff.next();
                    tracing::warn!(server = name, %error, ?delay, "could not accept a connection; backing off");
                    tokio::time::sleep(delay).await;
                }
            },
        }
    }
    drop(listener);
    connection.closing.cancel();
    tracing::info!(
        server = name,
        open = connections.len(),
        "stopping; finishing requests in flight"
    );
    while connections.join_next().await.is_some() {}
}

fn admit(name: &str, registry: &Arc<Connections>, peer: SocketAddr) -> Option<Admitted> {
    match registry.admit(peer.ip().to_canonical()) {
        Ok(admitted) => Some(admitted),
        Err(refused) => {
            tracing::debug!(server = name, %peer, ?refused, "refused a connection: every connection of its bound has a request in flight");
            None
        }
    }
}

fn out_of_descriptors(error: &io::Error) -> bool {
    // EMFILE and ENFILE.
    matches!(error.raw_os_error(), Some(23 | 24))
}

/// Go's `net/http` accept backoff: 5 ms, doubling to 1 s, reset by a success.
#[derive(Default)]
struct Backoff(Option<Duration>);

impl Backoff {
    const FIRST: Duration = Duration::from_millis(5);
    const MAX: Duration = Duration::from_secs(1);

    fn next(&mut self) -> Duration {
        let delay = self.0.map_or(Self::FIRST, |last| (last * 2).min(Self::MAX));
        self.0 = Some(delay);
        delay
    }

    fn reset(&mut self) {
        self.0 = None;
    }
}

/// The message a panic was raised with (`panic!("...")` with or without arguments),
/// or a placeholder for a panic with a payload of another type: for logging a
/// caught panic and for the error that reports it.
pub fn panic_message(panic: &(dyn Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|message| (*message).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepting_backs_off_from_5_ms_to_a_second() {
        let mut backoff = Backoff::default();
        let delays: Vec<Duration> = (0..10).map(|_| backoff.next()).collect();
        assert_eq!(delays[0], Duration::from_millis(5));
        assert_eq!(delays[1], Duration::from_millis(10));
        assert_eq!(delays[9], Duration::from_secs(1));
        backoff.reset();
        assert_eq!(backoff.next(), Duration::from_millis(5));
    }

    #[test]
    fn a_panic_says_what_it_said() {
        let caught = std::panic::catch_unwind(|| panic!("at {}", 3)).unwrap_err();
        assert_eq!(panic_message(&*caught), "at 3");
        let caught = std::panic::catch_unwind(|| panic!("plain")).unwrap_err();
        assert_eq!(panic_message(&*caught), "plain");
        let caught = std::panic::catch_unwind(|| std::panic::panic_any(7)).unwrap_err();
        assert_eq!(panic_message(&*caught), "a panic without a message");
    }
}
