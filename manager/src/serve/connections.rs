//! The open connections of one server, and which to close when there are too many.
//!
//! Accepting never waits for a free slot: a server that stopped accepting while slow or
//! idle peers held every slot would let them starve kube-apiserver's fresh connections
//! (the kernel's backlog fills, and its calls time out). Instead every accepted
//! connection is admitted, and when the server-wide bound or the peer's own bound is
//! reached, the connection that has been *silent* longest is closed to make room:
//! a TLS handshake not yet finished, a connection waiting for its next request, one
//! whose request header is still arriving, or one whose every request is still
//! waiting for its body (silent since its last byte arrived). A connection with a
//! request whose body is read whole (being decided, or answered) is never chosen, so
//! no request that arrived is lost; when every connection of the bound is such, the
//! newcomer is the one refused. So a client's fresh connection always wins over
//! connections from its own address (or any other) that send a header and then
//! nothing: the per-peer bound cannot lock out kube-apiserver, whose connections
//! all come from one address.
//!
//! The invariant, kept under the one lock: `open` holds every admitted connection not
//! yet closed or evicted, and `per_peer[ip]` counts exactly the entries of `open` from
//! `ip`, so both bounds are checked against the truth.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use parking_lot::Mutex;
use tokio::sync::Notify;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::Origin;

/// What a connection is doing, shared between its task (which updates it) and the
/// registry (which reads it to choose whom to close).
#[derive(Debug)]
pub(crate) struct Activity {
    epoch: Instant,
    /// Requests being answered on this connection (HTTP/2 multiplexes several).
    in_flight: AtomicUsize,
    /// When the connection last became idle, in nanoseconds since `epoch`.
    idle_since: AtomicU64,
    /// When the first byte of the next request arrived while idle, in nanoseconds
    /// since `epoch` plus one (0: none yet), so a slow header is timed from there.
    request_started: AtomicU64,
    /// Requests of `in_flight` whose body is still being read. While it equals
    /// `in_flight` (and is not 0) the connection only waits for bytes: silent
    /// since `last_byte`, and evictable as an idle one is.
    reading: AtomicUsize,
    /// When the last byte arrived, in nanoseconds since `epoch`.
    last_byte: AtomicU64,
    /// Wakes the connection's timer when a request begins, so that it switches from
    /// the idle timeout to the header timeout.
    began: Notify,
}

impl Activity {
    fn new(epoch: Instant) -> Self {
        let activity = Self {
            epoch,
            in_flight: AtomicUsize::new(0),
            idle_since: AtomicU64::new(0),
            request_started: AtomicU64::new(0),
            reading: AtomicUsize::new(0),
            last_byte: AtomicU64::new(0),
            began: Notify::new(),
        };
        activity.idle_since.store(activity.now(), Ordering::Relaxed);
        activity.last_byte.store(activity.now(), Ordering::Relaxed);
        activity
    }

    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }

    fn at(&self, nanos: u64) -> Instant {
        self.epoch + Duration::from_nanos(nanos)
    }

    /// A request's header has been read: the connection is busy until
    /// [`Busy`] drops.
    pub fn busy(self: &Arc<Self>) -> Busy {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        self.request_started.store(0, Ordering::Relaxed);
        Busy(self.clone())
    }

    /// A request's body is being read: the connection counts as silent while every
    /// request on it waits for its body, until [`Reading`] drops.
    pub fn reading_body(self: &Arc<Self>) -> Reading {
        self.reading.fetch_add(1, Ordering::AcqRel);
        self.last_byte.store(self.now(), Ordering::Relaxed);
        self.began.notify_one();
        Reading(self.clone())
    }

    /// Bytes arrived: if the connection was idle, a request has begun.
    pub fn bytes_arrived(&self) {
        self.last_byte.store(self.now(), Ordering::Relaxed);
        if self.in_flight.load(Ordering::Acquire) == 0 && self.request_started.load(Ordering::Relaxed) == 0 {
            self.request_started
                .store(self.now().saturating_add(1), Ordering::Relaxed);
            self.began.notify_one();
        }
    }

    /// Resolves when a request (or a request's body) has begun since the last call
    /// (at once if one began while nobody waited), so the connection's timer is reset.
    pub async fn request_began(&self) {
        self.began.notified().await;
    }

    pub fn is_busy(&self) -> bool {
        self.in_flight.load(Ordering::Acquire) > 0
    }

    /// True while every request on the connection waits for its body: closing it
    /// loses no request that arrived whole.
    pub fn only_reading(&self) -> bool {
        let in_flight = self.in_flight.load(Ordering::Acquire);
        in_flight > 0 && self.reading.load(Ordering::Acquire) >= in_flight
    }

    /// When the connection is to be closed for silence, or None while a request on
    /// it is being decided or answered: `header` after the first byte of a request
    /// header not read whole, `idle` after the last answer when nothing has arrived
    /// since, `body` after the last byte while every request waits for its body.
    pub fn deadline(&self, timeouts: &Timeouts) -> Option<Instant> {
        if self.only_reading() {
            return Some(self.at(self.last_byte.load(Ordering::Relaxed)) + timeouts.body);
        }
        if self.is_busy() {
            return None;
        }
        match self.request_started.load(Ordering::Relaxed) {
            0 => Some(self.at(self.idle_since.load(Ordering::Relaxed)) + timeouts.idle),
            started => Some(self.at(started - 1) + timeouts.header),
        }
    }

    /// Nanoseconds since `epoch` since which this connection has been silent, or
    /// None while a request on it is decided or answered. A request header still
    /// arriving counts from the idling before it (a slowloris header is as old as
    /// that); a connection waiting only for bodies, from its last byte.
    fn silent_since(&self) -> Option<u64> {
        if self.only_reading() {
            return Some(self.last_byte.load(Ordering::Relaxed));
        }
        (!self.is_busy()).then(|| self.idle_since.load(Ordering::Relaxed))
    }
}

/// The timers a connection is held to (see [`ServeLimits`](super::ServeLimits)).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Timeouts {
    pub idle: Duration,
    pub header: Duration,
    pub body: Duration,
}

/// A request body being read; the request counts as deciding once it drops.
pub(crate) struct Reading(Arc<Activity>);

impl Drop for Reading {
    fn drop(&mut self) {
        self.0.reading.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A request being answered; the connection is idle again once every one has dropped.
pub(crate) struct Busy(Arc<Activity>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.idle_since.store(self.0.now(), Ordering::Relaxed);
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The bounds the registry keeps.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bounds {
    pub max_connections: usize,
    pub max_per_peer: usize,
}

/// Every open connection of a server.
pub(crate) struct Connections {
    bounds: Bounds,
    epoch: Instant,
    registry: Mutex<Registry>,
}

#[derive(Default)]
struct Registry {
    next_id: u64,
    open: HashMap<u64, Entry>,
    per_peer: HashMap<IpAddr, usize>,
}

struct Entry {
    peer: IpAddr,
    activity: Arc<Activity>,
    close: CancellationToken,
}

/// An admitted connection: its activity, the signal that asks it to close, and its
/// place in the registry, given back on drop.
pub(crate) struct Admitted {
    /// The client's address and the connection, which its requests carry.
    pub origin: Origin,
    pub activity: Arc<Activity>,
    pub close: CancellationToken,
    connections: Arc<Connections>,
    id: u64,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        self.connections.forget(self.id);
    }
}

/// Why a connection was refused: every connection of the bound it hit is busy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refused {
    ServerFull,
    PeerFull,
}

impl Connections {
    pub fn new(bounds: Bounds) -> Arc<Self> {
        Arc::new(Self {
            bounds: Bounds {
                max_connections: bounds.max_connections.max(1),
                max_per_peer: bounds.max_per_peer.max(1),
            },
            epoch: Instant::now(),
            registry: Mutex::new(Registry::default()),
        })
    }

    /// Admits a connection from `peer`, closing the longest-silent connection of the
    /// bound it would pass (the peer's own first, then the server's).
    pub fn admit(self: &Arc<Self>, peer: IpAddr) -> Result<Admitted, Refused> {
        let mut registry = self.registry.lock();
        if registry.per_peer.get(&peer).copied().unwrap_or(0) >= self.bounds.max_per_peer
            && !registry.evict_longest_silent(Some(peer))
        {
            return Err(Refused::PeerFull);
        }
        if registry.open.len() >= self.bounds.max_connections && !registry.evict_longest_silent(None) {
            return Err(Refused::ServerFull);
        }
        let id = registry.next_id;
        registry.next_id += 1;
        let activity = Arc::new(Activity::new(self.epoch));
        let close = CancellationToken::new();
        registry.open.insert(
            id,
            Entry {
                peer,
                activity: activity.clone(),
                close: close.clone(),
            },
        );
        *registry.per_peer.entry(peer).or_default() += 1;
        Ok(Admitted {
            origin: Origin::new(peer),
            activity,
            close,
            connections: self.clone(),
            id,
        })
    }

    /// Closes the longest-silent connection to free a file descriptor (accept
    /// failed for want of one). False when every connection is busy.
    pub fn evict_one(&self) -> bool {
        self.registry.lock().evict_longest_silent(None)
    }

    /// Connections open now.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.registry.lock().open.len()
    }

    fn forget(&self, id: u64) {
        self.registry.lock().remove(id);
    }
}

impl Registry {
    /// Asks the longest-silent connection (of `peer`, or of anyone) to close, and
    /// forgets it at once so that its slot is free. False when none is silent.
    fn evict_longest_silent(&mut self, peer: Option<IpAddr>) -> bool {
        let victim = self
            .open
            .iter()
            .filter(|(_, entry)| peer.is_none_or(|peer| entry.peer == peer))
            .filter_map(|(id, entry)| entry.activity.silent_since().map(|since| (since, *id)))
            .min();
        let Some((_, id)) = victim else {
            return false;
        };
        if let Some(entry) = self.remove(id) {
            entry.close.cancel();
        }
        true
    }

    fn remove(&mut self, id: u64) -> Option<Entry> {
        let entry = self.open.remove(&id)?;
        if let Some(count) = self.per_peer.get_mut(&entry.peer) {
            *count -= 1;
            if *count == 0 {
                self.per_peer.remove(&entry.peer);
            }
        }
        Some(entry)
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;

    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_body_that_stops_arriving_is_timed_from_its_last_byte_and_evictable() {
        let connections = Connections::new(Bounds {
            max_connections: 10,
            max_per_peer: 2,
        });
        let timeouts = Timeouts {
            idle: Duration::from_secs(30),
            header: Duration::from_secs(10),
            body: Duration::from_secs(3),
        };
        // The client's address: one connection deciding, one whose body stalls.
        let deciding = connections.admit(peer(1)).unwrap();
        let _deciding = deciding.activity.busy();
        let silent = connections.admit(peer(1)).unwrap();
        let _busy = silent.activity.busy();
        let reading = silent.activity.reading_body();
        tokio::time::advance(Duration::from_secs(1)).await;
        silent.activity.bytes_arrived();
        let last_byte = Instant::now();
        assert_eq!(silent.activity.deadline(&timeouts), Some(last_byte + timeouts.body));
        assert_eq!(deciding.activity.deadline(&timeouts), None);

        // A fresh connection from the same address wins over the silent one.
        tokio::time::advance(Duration::from_secs(1)).await;
        let fresh = connections.admit(peer(1)).unwrap();
        assert!(silent.close.is_cancelled(), "the silent body makes room");
        assert!(!deciding.close.is_cancelled(), "a request read whole is never lost");

        // Once its body is read, a request is being decided: not evictable.
        let _fresh_busy = fresh.activity.busy();
        let fresh_reading = fresh.activity.reading_body();
        drop(fresh_reading);
        assert!(!fresh.activity.only_reading());
        assert_eq!(connections.admit(peer(1)).err(), Some(Refused::PeerFull));
        drop(reading);
    }

    fn peer(last: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(10, 0, 0, last))
    }

    #[tokio::test(start_paused = true)]
    async fn the_longest_idle_connection_makes_room_and_busy_ones_are_kept() {
        let connections = Connections::new(Bounds {
            max_connections: 3,
            max_per_peer: 3,
        });
        let oldest = connections.admit(peer(1)).unwrap();
        tokio::time::advance(Duration::from_secs(1)).await;
        let busy_one = connections.admit(peer(2)).unwrap();
        let _busy = busy_one.activity.busy();
        tokio::time::advance(Duration::from_secs(1)).await;
        let newer = connections.admit(peer(3)).unwrap();

        let fourth = connections.admit(peer(4)).unwrap();
        assert!(oldest.close.is_cancelled(), "the longest idle is closed");
        assert!(!busy_one.close.is_cancelled() && !newer.close.is_cancelled());
        assert_eq!(connections.len(), 3);

        // Everything busy: the newcomer is refused, nobody is closed.
        let _busy_newer = newer.activity.busy();
        let _busy_fourth = fourth.activity.busy();
        assert_eq!(connections.admit(peer(5)).err(), Some(Refused::ServerFull));
        drop(oldest);
        assert_eq!(connections.len(), 3, "an evicted connection's drop frees nothing twice");
    }

    #[tokio::test(start_paused = true)]
    async fn a_peer_over_its_bound_loses_its_own_idle_connection_not_anothers() {
        let connections = Connections::new(Bounds {
            max_connections: 10,
            max_per_peer: 2,
        });
        let other = connections.admit(peer(9)).unwrap();
        tokio::time::advance(Duration::from_secs(1)).await;
        let first = connections.admit(peer(1)).unwrap();
        tokio::time::advance(Duration::from_secs(1)).await;
        let second = connections.admit(peer(1)).unwrap();
        let third = connections.admit(peer(1)).unwrap();
        assert!(first.close.is_cancelled());
        assert!(
            !other.close.is_cancelled(),
            "the older connection of another peer stays"
        );
        assert!(!second.close.is_cancelled());

        let _busy = second.activity.busy();
        let _busy_third = third.activity.busy();
        assert_eq!(connections.admit(peer(1)).err(), Some(Refused::PeerFull));
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_header_is_timed_from_its_first_byte_and_idling_from_the_last_answer() {
        let connections = Connections::new(Bounds {
            max_connections: 1,
            max_per_peer: 1,
        });
        let admitted = connections.admit(peer(1)).unwrap();
        let activity = &admitted.activity;
        let timeouts = Timeouts {
            idle: Duration::from_secs(30),
            header: Duration::from_secs(10),
            body: Duration::from_secs(3),
        };
        let start = Instant::now();
        assert_eq!(activity.deadline(&timeouts), Some(start + timeouts.idle));
        tokio::time::advance(Duration::from_secs(5)).await;
        activity.bytes_arrived();
        assert_eq!(activity.deadline(&timeouts), Some(start + Duration::from_secs(15)));
        let busy = activity.busy();
        assert_eq!(activity.deadline(&timeouts), None);
        tokio::time::advance(Duration::from_mins(1)).await;
        drop(busy);
        assert_eq!(activity.deadline(&timeouts), Some(Instant::now() + timeouts.idle));
    }
}
