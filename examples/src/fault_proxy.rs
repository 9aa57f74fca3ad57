//! A TCP proxy on 127.0.0.1 in front of the embedded API server's HTTP listener, one
//! per replica, that misbehaves on request as a network does: it holds bytes and
//! delivers them later (a partition that heals: TCP hands over what was sent), delays
//! one direction or both, stalls only the watches, refuses new connections and resets
//! open ones (a partition that drops, or an API server restart).
//!
//! Held bytes stay in the kernel's socket buffers and the proxy's, exactly as bytes a
//! replica wrote before a partition: its client may give up on the request, but the
//! server still receives it once the proxy lets it through. That is what tests of late
//! renewals need, and what the in-memory transport of [`ApiServer::as_user`] cannot
//! show (a request its client drops there never arrives).
//!
//! [`ApiServer::as_user`]: wheelhouse_envtest::ApiServer::as_user

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use parking_lot::Mutex;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio_util::task::AbortOnDropHandle;

/// Which bytes a fault applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// From the replica to the API server (requests).
    ToServer,
    /// From the API server to the replica (answers and watch events).
    ToClient,
    /// Both ways.
    Both,
}

impl Direction {
    fn includes(self, other: Self) -> bool {
        self == Self::Both || self == other
    }
}

/// What the proxy does now; connections read it before each chunk they forward.
struct Faults {
    /// Per direction (to the server, to the client): hold bytes until released.
    held: [watch::Sender<bool>; 2],
    /// Per direction: wait this long before forwarding each chunk.
    delay: Mutex<[Duration; 2]>,
    /// Hold the bytes to the client of watch requests only.
    watches_stalled: watch::Sender<bool>,
    /// Refuse new connections (they are closed at once).
    refusing: AtomicBool,
    /// Bumped to reset every open connection.
    resets: watch::Sender<u64>,
}

/// A fault-injecting TCP proxy; dropping it stops it and closes its connections.
pub struct FaultProxy {
    address: SocketAddr,
    faults: Arc<Faults>,
    _accepting: AbortOnDropHandle<()>,
}

impl FaultProxy {
    /// Listens on an ephemeral port of 127.0.0.1 and forwards every connection to
    /// `upstream` (the embedded server's HTTP address, from `TestEnv::serve_http`).
    ///
    /// # Errors
    /// When it cannot listen.
    pub async fn start(upstream: SocketAddr) -> std::io::Result<Self> {
        let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
        let address = listener.local_addr()?;
        let faults = Arc::new(Faults {
            held: [watch::Sender::new(false), watch::Sender::new(false)],
            delay: Mutex::new([Duration::ZERO; 2]),
            watches_stalled: watch::Sender::new(false),
            refusing: AtomicBool::new(false),
            resets: watch::Sender::new(0),
        });
        let accepting = tokio::spawn(accept(listener, upstream, faults.clone()));
        Ok(Self {
            address,
            faults,
            _accepting: AbortOnDropHandle::new(accepting),
        })
    }

    /// Where replicas connect.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// A client of the API server through this proxy, whose requests the embedded
    /// server attributes to `user` (its bearer token).
    ///
    /// # Panics
    /// Never: the proxy's address is a valid URI, and a user name a valid header.
    pub fn client(&self, user: &str, namespace: &str) -> kube::Client {
        let url: http::Uri = format!("http://{}", self.address).parse().expect("an address is a URI");
        let mut config = kube::Config::new(url);
        namespace.clone_into(&mut config.default_namespace);
        let token = http::HeaderValue::from_str(&format!("Bearer {user}")).expect("a user name is a header value");
        config.headers.push((http::header::AUTHORIZATION, token));
        kube::Client::try_from(config).expect("a plain HTTP client needs no TLS")
    }

    /// Holds the bytes going `direction` until [`release`](Self::release): they wait
    /// in the socket buffers and are delivered, in order, when released.
    pub fn hold(&self, direction: Direction) {
        self.set_held(direction, true);
    }

    /// Delivers what was held going `direction`, and lets later bytes through.
    pub fn release(&self, direction: Direction) {
        self.set_held(direction, false);
    }

    /// A partition that will heal: both directions held.
    pub fn partition(&self) {
        self.hold(Direction::Both);
    }

    /// Ends a partition: what was held on both sides is delivered.
    pub fn heal(&self) {
        self.release(Direction::Both);
    }

    /// Delays each chunk going `direction` by `delay` (zero turns it off).
    pub fn set_delay(&self, direction: Direction, delay: Duration) {
        let mut delays = self.faults.delay.lock();
        for (index, way) in [Direction::ToServer, Direction::ToClient].into_iter().enumerate() {
            if direction.includes(way) {
                delays[index] = delay;
            }
        }
    }

    /// Holds what the server sends on watch connections only (requests and other
    /// answers flow): informers and the elector's watch fall behind, writes do not.
    pub fn stall_watches(&self, stalled: bool) {
        self.faults.watches_stalled.send_replace(stalled);
    }

    /// Resets every open connection, dropping what they held: a partition that loses
    /// packets, or an API server that restarts.
    pub fn reset_connections(&self) {
        self.faults.resets.send_modify(|resets| *resets += 1);
    }

    /// Refuses (closes at once) every new connection while `refusing`: with
    /// [`reset_connections`](Self::reset_connections), an API server that is down.
    pub fn refuse(&self, refusing: bool) {
        self.faults.refusing.store(refusing, Ordering::SeqCst);
    }

    fn set_held(&self, direction: Direction, held: bool) {
        for (index, way) in [Direction::ToServer, Direction::ToClient].into_iter().enumerate() {
            if direction.includes(way) {
                self.faults.held[index].send_replace(held);
            }
        }
    }
}

async fn accept(listener: TcpListener, upstream: SocketAddr, faults: Arc<Faults>) {
    let mut connections = tokio::task::JoinSet::new();
    loop {
        let Ok((client, _)) = listener.accept().await else {
            continue;
        };
        while connections.try_join_next().is_some() {}
        if faults.refusing.load(Ordering::SeqCst) {
            drop(client);
            continue;
        }
        connections.spawn(forward(client, upstream, faults.clone()));
    }
}

/// One connection: two pumps, until either side closes or the connection is reset.
async fn forward(client: TcpStream, upstream: SocketAddr, faults: Arc<Faults>) {
    let mut resets = faults.resets.subscribe();
    resets.mark_unchanged();
    let Ok(server) = TcpStream::connect(upstream).await else {
        return;
    };
    let _ = client.set_nodelay(true);
    let _ = server.set_nodelay(true);
    let (mut client_read, mut client_write) = client.into_split();
    let (mut server_read, mut server_write) = server.into_split();
    let is_watch = AtomicBool::new(false);
    let up = pump(&mut client_read, &mut server_write, 0, &faults, &is_watch);
    let down = pump(&mut server_read, &mut client_write, 1, &faults, &is_watch);
    // The replica's end closing does not close the server's: a request it sent before
    // it gave up is still served, as kube-apiserver serves it.
    tokio::select! {
        () = async { tokio::join!(up, down); } => {}
        _ = resets.changed() => {}
    }
}

/// Forwards bytes one way (`index` 0: to the server, 1: to the client), honouring
/// the faults before reading and again before writing each chunk.
async fn pump(
    from: &mut (impl AsyncRead + Unpin),
    to: &mut (impl AsyncWrite + Unpin),
    index: usize,
    faults: &Faults,
    is_watch: &AtomicBool,
) {
    let mut held = faults.held[index].subscribe();
    let mut stalled = faults.watches_stalled.subscribe();
    let mut buffer = vec![0_u8; 16 * 1024];
    loop {
        wait_open(&mut held, &mut stalled, index, is_watch).await;
        let read = match from.read(&mut buffer).await {
            Ok(0) | Err(_) => return,
            Ok(read) => read,
        };
        if index == 0 && is_watch_request(&buffer[..read]) {
            is_watch.store(true, Ordering::SeqCst);
        }
        let delay = faults.delay.lock()[index];
        if !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
        wait_open(&mut held, &mut stalled, index, is_watch).await;
        if to.write_all(&buffer[..read]).await.is_err() {
            return;
        }
    }
}

async fn wait_open(
    held: &mut watch::Receiver<bool>,
    stalled: &mut watch::Receiver<bool>,
    index: usize,
    is_watch: &AtomicBool,
) {
    let _ = held.wait_for(|held| !held).await;
    if index == 1 && is_watch.load(Ordering::SeqCst) {
        let _ = stalled.wait_for(|stalled| !stalled).await;
    }
}

/// Whether a chunk to the server starts a watch request (its request line asks for
/// `watch=true` or `watch=1`).
fn is_watch_request(chunk: &[u8]) -> bool {
    let line = chunk.split(|&b| b == b'\n').next().unwrap_or_default();
    let line = String::from_utf8_lossy(line);
    line.starts_with("GET ") && (line.contains("watch=true") || line.contains("watch=1"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watch_requests_are_told_from_others() {
        assert!(is_watch_request(
            b"GET /api/v1/namespaces/a/pods?watch=true&resourceVersion=1 HTTP/1.1\r\n"
        ));
        assert!(!is_watch_request(b"GET /api/v1/namespaces/a/pods HTTP/1.1\r\n"));
        assert!(!is_watch_request(b"PATCH /api/v1/namespaces/a/pods/x HTTP/1.1\r\n"));
    }
}
