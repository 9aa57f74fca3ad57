//! [`ByteBudget`]: the request bytes a server holds in memory at once, across all its
//! connections, counted as they arrive and held until the answer is written; and whose
//! bytes give way when a request finds no room.
//!
//! Bytes are bounded across connections because a per-request limit alone lets memory
//! grow with the number of connections (a hundred connections each holding a maximal
//! body is seven hundred megabytes). They are counted as they arrive, never from a
//! declared `Content-Length`: a client that declares seven megabytes and sends
//! nothing holds nothing. The budget has two shares: bodies under [`SMALL_BODY`]
//! (every ordinary object) draw on a share of their own, so that large bodies never
//! delay them; a body declared at least that long starts in the large share.
//!
//! **Room is taken from slow bodies, never queued for.** A bound that slow clients can
//! fill turns a memory attack into an outage: seventy connections that each send most
//! of a body and then a byte every few seconds would hold the whole share while every
//! other request waited behind them. So a request that finds its share full *evicts*
//! a slow body, one whose client has been sending for at least [`STALLED`] and has
//! either sent nothing for that long or sends under [`FAST`] bytes a second on average;
//! the evicted body's reader is told ([`NoRoom::Evicted`], and
//! [`Reserved::evicted`] resolves) and its bytes go to the newcomer at once, under the
//! same lock. A request waits (up to the budget's wait, then [`NoRoom::Full`]) only
//! when nothing held is evictable: every byte belongs to a request being decided or
//! answered, one waiting for room itself, or one arriving fast. When every other
//! holder is itself waiting for room (each holds part of a body and waits for the rest,
//! so none will give any back: many bodies that began at once), the waiter of the
//! address and connection holding the most is evicted instead.
//!
//! **Fair shares** decide whose slow body is taken. Every address holding bytes (the
//! requester's counted) has an equal share of the budget: a slow body of another
//! address is taken only while its address holds at least that share, so a modest
//! client never loses its body to another's request. Among the bodies that may be
//! taken, the one taken is of the address holding the most, of its connection
//! holding the most (an HTTP/2 connection's streams are one connection), the slowest.
//! So one address with many slow connections loses its bodies before any other does,
//! and a client whose connections all come from one address (kube-apiserver) still
//! wins room from that address's slow connections, whose bodies are slow and whose
//! connections each hold more.
//!
//! Invariant, under each share's lock: `used` is the sum of the holders' bytes, and
//! each address's and connection's bytes the sum of their holders'; an evicted holder
//! is out of all of them at once, and its [`Reserved`] then gives nothing back twice.

mod ledger;

use std::net::{IpAddr, Ipv6Addr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use parking_lot::Mutex;
use tokio::sync::Notify;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use self::ledger::Ledger;

/// The size under which a body draws on the small share.
pub const SMALL_BODY: usize = 64 * 1024;

/// A body is judged slow only once it has been arriving this long, and then when
/// nothing arrived for this long: long enough for a packet lost on a real network to
/// be sent again, short next to a review's deadline.
pub const STALLED: Duration = Duration::from_millis(200);

/// Bytes a second under which a body that has been arriving for [`STALLED`] counts as
/// slow, on average since it began: any client on a network sends faster; a client
/// sending slower holds its bytes for seconds, which is the attack.
pub const FAST: u64 = 1024 * 1024;

/// Where a request came from: its client's address and its connection (unique in the
/// process). The serving layer puts it in each request's extensions; the budget
/// shares room fairly between addresses, and between connections of one address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Origin {
    /// The client's address.
    pub peer: IpAddr,
    /// The connection, numbered in the process.
    pub connection: u64,
}

static NEXT_CONNECTION: AtomicU64 = AtomicU64::new(1);

impl Origin {
    /// A new connection from `peer`.
    pub fn new(peer: IpAddr) -> Self {
        Self {
            peer,
            connection: NEXT_CONNECTION.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// A request that did not come through a socket (one answered in process): a
    /// connection of its own from the unspecified address.
    pub fn in_process() -> Self {
        Self::new(IpAddr::V6(Ipv6Addr::UNSPECIFIED))
    }

    /// Where `request` came from, as the serving layer recorded it, or
    /// [`in_process`](Self::in_process).
    pub fn of<B>(request: &http::Request<B>) -> Self {
        request
            .extensions()
            .get::<Self>()
            .copied()
            .unwrap_or_else(Self::in_process)
    }
}

/// Request (and answer) bytes in memory across all connections of a server.
#[derive(Debug)]
pub struct ByteBudget {
    large: Arc<Share>,
    small: Arc<Share>,
    wait: Duration,
    health: BudgetHealth,
}

#[derive(Debug)]
struct Share {
    total: usize,
    ledger: Mutex<Ledger>,
    /// Wakes the requests waiting for room when bytes are given back.
    room: Notify,
    health: BudgetHealth,
}

impl Share {
    fn new(total: usize, health: &BudgetHealth) -> Arc<Self> {
        Arc::new(Self {
            total: total.max(1),
            ledger: Mutex::new(Ledger::default()),
            room: Notify::new(),
            health: health.clone(),
        })
    }

    /// Adds `bytes` to what `holder` holds here: at once when there is room, else by
    /// evicting slow bodies, else by waiting until `until`.
    async fn take(&self, holder: &Arc<Holder>, bytes: usize, until: Instant) -> Result<(), NoRoom> {
        let started = Instant::now();
        loop {
            let mut notified = {
                let mut ledger = self.ledger.lock();
                if holder.evicted.is_cancelled() {
                    return Err(NoRoom::Evicted);
                }
                // One request larger than the share takes the whole share.
                let want = bytes.min(self.total.saturating_sub(ledger.held_by(holder.id)));
                if ledger.used() + want <= self.total {
                    ledger.add(holder, want);
                    return Ok(());
                }
                if let Some((origin, freed)) = ledger.evict_slowest(holder, self.total, Instant::now()) {
                    tracing::debug!(peer = %origin.peer, freed, "evicted a slow body to make room");
                    continue;
                }
                if let Some((origin, freed)) = ledger.break_deadlock(holder) {
                    tracing::debug!(peer = %origin.peer, freed, "every body held waits for room; evicted the largest");
                    continue;
                }
                self.health.exhausted();
                let notified = Box::pin(self.room.notified());
                ledger.waiting += 1;
                holder.state.store(WAITING, Ordering::Release);
                notified
            };
            notified.as_mut().enable();
            let waiting = Waiting { share: self, holder };
            // Bytes are given back with a notification, but a body becomes evictable
            // by time alone (it stalls): read the ledger again every STALLED, or a
            // waiter sleeps to its deadline while newcomers evict the stalled bodies
            // it could have taken and keep the share full.
            let recheck = Instant::now() + STALLED;
            let woken = tokio::select! {
                () = &mut notified => true,
                () = tokio::time::sleep_until(recheck.min(until)), if recheck < until => true,
                () = tokio::time::sleep_until(until) => false,
                () = holder.evicted.cancelled() => false,
            };
            drop(waiting);
            if !woken {
                if holder.evicted.is_cancelled() {
                    return Err(NoRoom::Evicted);
                }
                return Err(NoRoom::Full {
                    total: self.total,
                    waited: started.elapsed(),
                });
            }
        }
    }

    fn give_back(&self, holder: u64) {
        let mut ledger = self.ledger.lock();
        if ledger.remove(holder).is_some() && ledger.waiting > 0 {
            self.room.notify_waiters();
        }
    }
}

/// A request waiting for room: counted while it waits, reading again after.
struct Waiting<'a> {
    share: &'a Share,
    holder: &'a Holder,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.share.ledger.lock().waiting -= 1;
        self.holder.state.store(READING, Ordering::Release);
    }
}

/// The reader of a body waits on its client.
const READING: u8 = 0;
/// The reader waits for room in the budget: not its client's fault.
const WAITING: u8 = 1;
/// The body is read whole: its request is being decided or answered.
const READ: u8 = 2;

static NEXT_HOLDER: AtomicU64 = AtomicU64::new(1);

/// One request's claim on the budget, shared between its [`Reserved`] and the shares'
/// ledgers (which read how it is doing to choose whom to evict).
#[derive(Debug)]
pub(crate) struct Holder {
    id: u64,
    origin: Origin,
    started: Instant,
    /// Bytes that arrived, and when the last did (nanoseconds since `started`).
    received: AtomicUsize,
    last_byte: AtomicU64,
    state: AtomicU8,
    evicted: CancellationToken,
}

impl Holder {
    fn new(origin: Origin, state: u8) -> Arc<Self> {
        Arc::new(Self {
            id: NEXT_HOLDER.fetch_add(1, Ordering::Relaxed),
            origin,
            started: Instant::now(),
            received: AtomicUsize::new(0),
            last_byte: AtomicU64::new(0),
            state: AtomicU8::new(state),
            evicted: CancellationToken::new(),
        })
    }

    fn arrived(&self, bytes: usize, now: Instant) {
        self.received.fetch_add(bytes, Ordering::Relaxed);
        let since = u64::try_from(now.saturating_duration_since(self.started).as_nanos()).unwrap_or(u64::MAX);
        self.last_byte.store(since, Ordering::Relaxed);
    }

    /// Bytes a second since the body began (None before [`STALLED`]: too soon to
    /// judge), and whether nothing arrived for [`STALLED`]; None also when the
    /// reader is not waiting on its client.
    fn pace(&self, now: Instant) -> Option<(u64, bool)> {
        if self.state.load(Ordering::Acquire) != READING {
            return None;
        }
        let age = now.saturating_duration_since(self.started);
        if age < STALLED {
            return None;
        }
        let age_nanos = age.as_nanos().max(1);
        let received = self.received.load(Ordering::Relaxed) as u128;
        let rate = u64::try_from(received * 1_000_000_000 / age_nanos).unwrap_or(u64::MAX);
        let last = Duration::from_nanos(self.last_byte.load(Ordering::Relaxed));
        Some((rate, age.saturating_sub(last) >= STALLED))
    }
}

/// Bytes held for one request, given back on drop: keep it until the answer is
/// written (see [`AnswerBody::holding`](super::AnswerBody::holding)).
///
/// Invariant: `bytes` is what the ledger of `share` holds for it (until it is
/// evicted); while they are under [`SMALL_BODY`] they are the small share's (unless
/// the body was declared large), and from then on the large share's.
#[derive(Debug)]
pub struct Reserved {
    holder: Arc<Holder>,
    share: Option<Arc<Share>>,
    large: bool,
    bytes: usize,
}

impl Default for Reserved {
    fn default() -> Self {
        Self::none()
    }
}

impl Reserved {
    /// Nothing held yet, for a request answered in process.
    pub fn none() -> Self {
        Self::new(Origin::in_process(), None)
    }

    /// Nothing held yet, for a request from `origin` whose body declares `declared`
    /// bytes: one declared at least [`SMALL_BODY`] long draws on the large share from
    /// its first byte (the length only chooses the share; nothing is counted until it
    /// arrives).
    pub fn new(origin: Origin, declared: Option<u64>) -> Self {
        Self {
            holder: Holder::new(origin, READING),
            share: None,
            large: declared.is_some_and(|declared| declared >= SMALL_BODY as u64),
            bytes: 0,
        }
    }

    /// A reservation of its own for more bytes of the same request, read whole (an
    /// answer larger than its request): never evicted.
    #[must_use]
    pub fn beside(&self) -> Self {
        Self {
            holder: Holder::new(self.holder.origin, READ),
            share: None,
            large: self.large,
            bytes: 0,
        }
    }

    /// The bytes held.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The body is read whole: from now on the request is decided and answered, and
    /// its bytes are never evicted. (A request read whole is what tells the budget's
    /// health that requests get room.)
    pub fn read_whole(&self) {
        self.holder.state.store(READ, Ordering::Release);
        if let Some(share) = &self.share {
            share.health.granted();
        }
    }

    /// Resolves when the body's bytes were taken for another request: its reader
    /// stops and refuses the request.
    pub async fn evicted(&self) {
        self.holder.evicted.cancelled().await;
    }

    /// True once the body's bytes were taken for another request.
    pub fn is_evicted(&self) -> bool {
        self.holder.evicted.is_cancelled()
    }
}

impl Drop for Reserved {
    fn drop(&mut self) {
        if let Some(share) = &self.share {
            share.give_back(self.holder.id);
        }
    }
}

/// Why the budget gave no room.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoRoom {
    /// Nothing in the share could be evicted and none was given back in time.
    Full {
        /// The share's size in bytes.
        total: usize,
        /// How long the request waited.
        waited: Duration,
    },
    /// This request's body was slow, and its bytes were taken for another request.
    Evicted,
}

impl ByteBudget {
    /// `large` bytes at once for bodies of [`SMALL_BODY`] or more and `small` bytes
    /// for smaller ones; a request waits at most `wait` for room when nothing can be
    /// evicted.
    pub fn new(large: usize, small: usize, wait: Duration) -> Self {
        Self::with_health(large, small, wait, BudgetHealth::default())
    }

    fn with_health(large: usize, small: usize, wait: Duration, health: BudgetHealth) -> Self {
        Self {
            large: Share::new(large, &health),
            small: Share::new(small.max(SMALL_BODY), &health),
            wait,
            health,
        }
    }

    /// Reports to `health` (shared with a readiness check) instead of a health of its own.
    #[must_use]
    pub fn reporting_to(self, health: BudgetHealth) -> Self {
        Self::with_health(self.large.total, self.small.total, self.wait, health)
    }

    /// Whether requests have found no room for long: see [`BudgetHealth`].
    pub fn health(&self) -> &BudgetHealth {
        &self.health
    }

    /// Adds `bytes` that arrived to `reserved`, evicting slow bodies for room or
    /// waiting, until the earlier of `deadline` and this budget's wait. A request
    /// whose bytes reach [`SMALL_BODY`] moves to the large share with all it holds.
    pub async fn reserve(&self, reserved: &mut Reserved, bytes: usize, deadline: Instant) -> Result<(), NoRoom> {
        if bytes == 0 {
            return Ok(());
        }
        let now = Instant::now();
        reserved.holder.arrived(bytes, now);
        let until = deadline.min(now + self.wait);
        let after = reserved.bytes.saturating_add(bytes);
        if !reserved.large && after >= SMALL_BODY {
            // Moving: the whole body from the large share, then the small given back.
            self.large.take(&reserved.holder, after, until).await?;
            if let Some(small) = reserved.share.replace(self.large.clone()) {
                small.give_back(reserved.holder.id);
            }
            reserved.large = true;
            reserved.bytes = after;
            return Ok(());
        }
        let share = if reserved.large { &self.large } else { &self.small };
        share.take(&reserved.holder, bytes, until).await?;
        if reserved.share.is_none() {
            reserved.share = Some(share.clone());
        }
        reserved.bytes = after;
        Ok(())
    }
}

/// Whether a budget's requests find room: a budget on which requests began to wait
/// and none was read whole since, for longer than a review may take, serves nobody,
/// and the readiness check built on this says so (`/readyz` takes the replica out of
/// its Service until the budget frees).
#[derive(Debug, Clone)]
pub struct BudgetHealth {
    epoch: Instant,
    /// Nanoseconds since `epoch`, plus one, since which requests have waited for room
    /// with none read whole; 0 while requests are read whole.
    exhausted_since: Arc<AtomicU64>,
}

impl Default for BudgetHealth {
    fn default() -> Self {
        Self {
            epoch: Instant::now(),
            exhausted_since: Arc::new(AtomicU64::new(0)),
        }
    }
}

impl BudgetHealth {
    fn exhausted(&self) {
        let now = u64::try_from(self.epoch.elapsed().as_nanos()).unwrap_or(u64::MAX - 1) + 1;
        let _ = self
            .exhausted_since
            .compare_exchange(0, now, Ordering::AcqRel, Ordering::Acquire);
    }

    fn granted(&self) {
        if self.exhausted_since.load(Ordering::Relaxed) != 0 {
            self.exhausted_since.store(0, Ordering::Release);
        }
    }

    /// How long requests have waited for room with none read whole since (None while
    /// requests are read whole).
    pub fn exhausted_for(&self) -> Option<Duration> {
        match self.exhausted_since.load(Ordering::Acquire) {
            0 => None,
            since => Some(self.epoch.elapsed().saturating_sub(Duration::from_nanos(since - 1))),
        }
    }

    /// A readiness check: fails once requests have found no room for longer than
    /// `longest` (a review's timeout).
    pub fn check(&self, longest: Duration) -> Result<(), String> {
        match self.exhausted_for() {
            Some(exhausted) if exhausted > longest => Err(format!(
                "the server's request bytes in flight have had no room for {:.1} s: every byte is held by requests being decided or answered",
                exhausted.as_secs_f64()
            )),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests;
