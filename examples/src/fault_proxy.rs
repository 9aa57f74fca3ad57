//! A TCP proxy on 127.0.0.1 in front of the API server (the embedded server's HTTP
//! listener, or an existing cluster's loopback address, TLS passing through), one per
//! replica, that misbehaves on request as a network does: it holds bytes and
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
use wheelhouse_envtest::TestEnv;

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
    /// Refuse new connections: the listening port is closed, so a connect fails at once
    /// (ECONNREFUSED), as when no server listens.
    refusing: watch::Sender<bool>,
    /// Bumped to reset every open connection.
    resets: watch::Sender<u64>,
}

/// A fault-injecting TCP proxy; dropping it stops it and closes its connections.
pub struct FaultProxy {
    address: SocketAddr,
    faults: Arc<Faults>,
    /// An existing cluster's configuration, which this proxy's clients take with the
    /// cluster's address replaced by the proxy's; None in front of the embedded server.
    cluster: Option<kube::Config>,
    _accepting: AbortOnDropHandle<()>,
}

impl FaultProxy {
    /// Listens on an ephemeral port of 127.0.0.1 and forwards every connection to
    /// `upstream` (the embedded server's HTTP address, from `TestEnv::serve_http`).
    ///
    /// # Errors
    /// When `upstream` is not a loopback address, or it cannot listen.
    pub async fn start(upstream: SocketAddr) -> std::io::Result<Self> {
        if !upstream.ip().is_loopback() {
            return Err(std::io::Error::other(format!(
                "fault proxies reach loopback addresses only, not {upstream}"
            )));
        }
        let listener = TcpListener::bind(SocketAddr::from(([127, 0, 0, 1], 0))).await?;
        let address = listener.local_addr()?;
        let faults = Arc::new(Faults {
            held: [watch::Sender::new(false), watch::Sender::new(false)],
            delay: Mutex::new([Duration::ZERO; 2]),
            watches_stalled: watch::Sender::new(false),
            refusing: watch::Sender::new(false),
            resets: watch::Sender::new(0),
        });
        let accepting = tokio::spawn(accept(listener, address, upstream, faults.clone()));
        Ok(Self {
            address,
            faults,
            cluster: None,
            _accepting: AbortOnDropHandle::new(accepting),
        })
    }

    /// A proxy in front of `env`'s API server: the embedded server's HTTP listener
    /// (call `TestEnv::serve_http` first), or an existing cluster's address, which must
    /// be a loopback one (fault traffic stays on this machine). TLS passes through: a
    /// cluster whose certificate names 127.0.0.1 is reached as itself.
    ///
    /// # Errors
    /// When the embedded server is not served over HTTP, the cluster is not on
    /// loopback, or the proxy cannot listen.
    pub async fn in_front_of(env: &TestEnv) -> std::io::Result<Self> {
        let config = env.config_for("fault-proxy").map_err(std::io::Error::other)?;
        let upstream = loopback_address(&config.cluster_url)?;
        let mut proxy = Self::start(upstream).await?;
        if !env.is_embedded() {
            let mut cluster = config;
            cluster.headers.retain(|(name, _)| name != http::header::USER_AGENT);
            proxy.cluster = Some(cluster);
        }
        Ok(proxy)
    }

    /// Where replicas connect.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// A client of the API server through this proxy, whose requests witnesses
    /// attribute to `user`: its bearer token on the embedded server, its `User-Agent`
    /// on an existing cluster (as `TestEnv::client_for`).
    ///
    /// # Panics
    /// When `user` is not a valid header value, or the cluster's client cannot be
    /// built: for tests.
    pub fn client(&self, user: &str, namespace: &str) -> kube::Client {
        kube::Client::try_from(self.config(user, namespace)).expect("a client through the proxy")
    }

    /// The configuration of [`client`](Self::client), for a client of its own stack
    /// (`Manager::builder_from_config`).
    ///
    /// # Panics
    /// When `user` is not a valid header value: for tests.
    pub fn config(&self, user: &str, namespace: &str) -> kube::Config {
        let mut config = if let Some(cluster) = &self.cluster {
            let mut config = cluster.clone();
            let mut url = config.cluster_url.clone().into_parts();
            url.authority = Some(self.address.to_string().parse().expect("an address is an authority"));
            config.cluster_url = http::Uri::from_parts(url).expect("the cluster's URL, moved to the proxy");
            let agent = http::HeaderValue::from_str(user).expect("a user name is a header value");
            config.headers.push((http::header::USER_AGENT, agent));
            config
        } else {
            let url: http::Uri = format!("http://{}", self.address).parse().expect("an address is a URI");
            let mut config = kube::Config::new(url);
            let token = http::HeaderValue::from_str(&format!("Bearer {user}")).expect("a user name is a header value");
            config.headers.push((http::header::AUTHORIZATION, token));
            config
        };
        namespace.clone_into(&mut config.default_namespace);
        config
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

    /// Refuses every new connection while `refusing`: the proxy closes its listening
    /// port, so a connect fails at once with "connection refused", as when nothing
    /// listens; it listens on the same address again when `refusing` ends. With
    /// [`reset_connections`](Self::reset_connections), an API server that is down.
    pub fn refuse(&self, refusing: bool) {
        self.faults.refusing.send_replace(refusing);
    }

    fn set_held(&self, direction: Direction, held: bool) {
        for (index, way) in [Direction::ToServer, Direction::ToClient].into_iter().enumerate() {
            if direction.includes(way) {
                self.faults.held[index].send_replace(held);
            }
        }
    }
}

/// The loopback address of a cluster URL (`localhost` is 127.0.0.1); any other host
/// is refused.
fn loopback_address(url: &http::Uri) -> std::io::Result<SocketAddr> {
    let refused = || std::io::Error::other(format!("fault proxies reach loopback addresses only, not {url}"));
    let host = url
        .host()
        .ok_or_else(refused)?
        .trim_start_matches('[')
        .trim_end_matches(']');
    let ip: std::net::IpAddr = if host == "localhost" {
        [127, 0, 0, 1].into()
    } else {
        host.parse().map_err(|_| refused())?
    };
    let default_port = if url.scheme_str() == Some("https") { 443 } else { 80 };
    let address = SocketAddr::new(ip, url.port_u16().unwrap_or(default_port));
    if !ip.is_loopback() {
        return Err(refused());
    }
    Ok(address)
}

/// Accepts connections on `address` and forwards them, until dropped; while the faults
/// say to refuse, the port is closed, and opened again on the same address after.
async fn accept(listener: TcpListener, address: SocketAddr, upstream: SocketAddr, faults: Arc<Faults>) {
    let mut connections = tokio::task::JoinSet::new();
    let mut refusing = faults.refusing.subscribe();
    let mut listener = Some(listener);
    loop {
        let Some(open) = listener.as_ref() else {
            let _ = refusing.wait_for(|refusing| !refusing).await;
            // Rebinding a port just closed can fail for a moment; the address is ours.
            while listener.is_none() {
                match TcpListener::bind(address).await {
                    Ok(bound) => listener = Some(bound),
                    Err(_) => tokio::time::sleep(Duration::from_millis(10)).await,
                }
            }
            continue;
        };
        tokio::select! {
            accepted = open.accept() => {
                let Ok((client, _)) = accepted else { continue };
                while connections.try_join_next().is_some() {}
                connections.spawn(forward(client, upstream, faults.clone()));
            }
            changed = refusing.changed() => {
                if changed.is_err() {
                    return;
                }
                if *refusing.borrow_and_update() {
                    listener = None;
                }
            }
        }
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
    let up = pump(
        &mut client_read,
        &mut server_write,
        0,
        &faults,
        &is_watch,
        resets.clone(),
    );
    let down = pump(
        &mut server_read,
        &mut client_write,
        1,
        &faults,
        &is_watch,
        resets.clone(),
    );
    // The replica's end closing does not close the server's: a request it sent before
    // it gave up is still served, as kube-apiserver serves it.
    tokio::select! {
        () = async { tokio::join!(up, down); } => {}
        _ = resets.changed() => {}
    }
}

/// Forwards bytes one way (`index` 0: to the server, 1: to the client), honouring
/// the faults before reading and again before writing each chunk. After a reset
/// (`resets` changed) nothing more is written: a chunk held when the connection was
/// reset is lost with it, even if a release wakes this pump before the reset ends
/// the connection.
async fn pump(
    from: &mut (impl AsyncRead + Unpin),
    to: &mut (impl AsyncWrite + Unpin),
    index: usize,
    faults: &Faults,
    is_watch: &AtomicBool,
    resets: watch::Receiver<u64>,
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
        if resets.has_changed().unwrap_or(true) || to.write_all(&buffer[..read]).await.is_err() {
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

    #[test]
    fn only_loopback_upstreams_are_reached() {
        let address = |url: &str| loopback_address(&url.parse().unwrap()).map_err(|e| e.to_string());
        assert_eq!(address("https://127.0.0.1:6543"), Ok(([127, 0, 0, 1], 6543).into()));
        assert_eq!(address("http://localhost"), Ok(([127, 0, 0, 1], 80).into()));
        assert_eq!(
            address("https://[::1]"),
            Ok((std::net::Ipv6Addr::LOCALHOST, 443).into())
        );
        assert!(
            address("https://169.254.169.254")
                .unwrap_err()
                .contains("loopback addresses only")
        );
        assert!(address("https://kubernetes.default.svc").is_err());
    }

    #[tokio::test]
    async fn a_proxy_to_another_address_is_refused() {
        let refused = FaultProxy::start(([10, 0, 0, 1], 443).into())
            .await
            .err()
            .expect("refused");
        assert!(refused.to_string().contains("loopback addresses only"), "{refused}");
    }
}
