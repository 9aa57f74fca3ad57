//! Sharding: which replica keeps and reconciles which objects.
//!
//! An object's shard key is the 64-bit FNV-1a hash of its `metadata.uid` (or of its
//! `metadata.namespace`), as kube-apiserver's `shardSelector` (KEP-5866) computes it.
//! The hash space is cut into [`SLOTS`] equal slots; slot `i` holds the hashes
//! `[i << 58, (i + 1) << 58)`, so a set of slots is a `u64` and its runs of adjacent
//! slots are the contiguous hash ranges a `shardRange(...)` selector names. A child
//! follows its controller owner: its slot is the hash of the owner's uid.
//!
//! [`Shards`] is one replica's view: the slots its caches keep (`accepted`, which the
//! ring assigns it) and the slots its controllers reconcile (`serving`, granted only
//! once every previous owner stopped). The manager's ring membership writes both; the
//! cache's sharded informers and the controllers read them.

use std::fmt;
use std::hash::Hasher;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU8, AtomicUsize, Ordering};

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use tokio::sync::{Notify, watch};

/// How many slots the hash space is cut into: the unit in which ranges move.
pub const SLOTS: u32 = 64;

/// How many bits of the hash a slot number takes.
const SLOT_SHIFT: u32 = 64 - SLOTS.trailing_zeros();

/// The 64-bit FNV-1a hash of `bytes`: kube-apiserver's hash for `shardRange`.
///
/// ```
/// use wheelhouse_cache::shard::fnv1a64;
///
/// assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
/// assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
/// ```
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hasher = fnv::FnvHasher::default();
    hasher.write(bytes);
    hasher.finish()
}

/// Which field of the primary objects is hashed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ShardKey {
    /// `metadata.uid` (the default): objects spread evenly whatever their namespaces.
    #[default]
    Uid,
    /// `metadata.namespace`: a namespace's objects stay together (cluster-scoped
    /// objects hash the empty string).
    Namespace,
}

impl ShardKey {
    /// The field as a `shardRange` selector names it.
    pub fn field(self) -> &'static str {
        match self {
            Self::Uid => "object.metadata.uid",
            Self::Namespace => "object.metadata.namespace",
        }
    }
}

/// Whose hash routes an object to a shard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Route {
    /// The object's own (a controller's primary objects).
    Own,
    /// Its controller owner's (a controller's children: a child's events reach the
    /// shard that reconciles its owner). With [`ShardKey::Namespace`] that is the
    /// child's own namespace.
    ControllerOwner,
}

/// A set of slots: bit `i` is slot `i`.
///
/// ```
/// use wheelhouse_cache::shard::{ShardKey, SlotSet};
///
/// let low_half = SlotSet::from_bits(0x0000_0000_ffff_ffff);
/// assert_eq!(low_half.len(), 32);
/// assert_eq!(
///     low_half.selector(ShardKey::Uid),
///     "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')"
/// );
/// assert_eq!(
///     SlotSet::ALL.selector(ShardKey::Uid),
///     "shardRange(object.metadata.uid, '0x0000000000000000', '0x10000000000000000')"
/// );
/// assert!(low_half.contains(SlotSet::slot_of_hash(0x7fff_ffff_ffff_ffff)));
/// assert_eq!(low_half.to_string().parse::<SlotSet>(), Ok(low_half));
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SlotSet(u64);

impl SlotSet {
    /// No slot.
    pub const EMPTY: Self = Self(0);
    /// Every slot: the whole hash space.
    pub const ALL: Self = Self(u64::MAX);

    /// The set whose bit `i` is slot `i`.
    pub const fn from_bits(bits: u64) -> Self {
        Self(bits)
    }

    /// The bits.
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The slot a hash falls in.
    pub const fn slot_of_hash(hash: u64) -> u8 {
        // SLOT_SHIFT is 58: the result is below 64, so it fits.
        (hash >> SLOT_SHIFT) as u8
    }

    /// The set of one slot.
    pub const fn one(slot: u8) -> Self {
        Self(1 << (slot as u32 % SLOTS))
    }

    /// Whether `slot` is in the set.
    pub const fn contains(self, slot: u8) -> bool {
        slot < 64 && self.0 & (1 << slot) != 0
    }

    /// The slots in either set.
    #[must_use]
    pub const fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// The slots in both sets.
    #[must_use]
    pub const fn intersection(self, other: Self) -> Self {
        Self(self.0 & other.0)
    }

    /// The slots of `self` not in `other`.
    #[must_use]
    pub const fn minus(self, other: Self) -> Self {
        Self(self.0 & !other.0)
    }

    /// How many slots.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether there is no slot.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The share of the hash space, 0.0 to 1.0.
    pub fn fraction(self) -> f64 {
        f64::from(self.len()) / f64::from(SLOTS)
    }

    /// The slots, in order.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        (0..64_u8).filter(move |&slot| self.contains(slot))
    }

    /// The contiguous hash ranges `[start, end)` the set covers, runs of adjacent
    /// slots merged (an `end` of 2^64 is the top of the space).
    pub fn ranges(self) -> Vec<(u64, u128)> {
        let mut ranges = Vec::new();
        let mut slot = 0_u32;
        while slot < SLOTS {
            if self.0 & (1 << slot) == 0 {
                slot += 1;
                continue;
            }
            let start = slot;
            while slot < SLOTS && self.0 & (1 << slot) != 0 {
                slot += 1;
            }
            ranges.push((u64::from(start) << SLOT_SHIFT, u128::from(slot) << SLOT_SHIFT));
        }
        ranges
    }

    /// KEP-5866's `shardSelector` for these slots: one `shardRange` per contiguous
    /// range, joined with `||` (empty for the empty set).
    pub fn selector(self, key: ShardKey) -> String {
        self.ranges()
            .iter()
            .map(|(start, end)| format!("shardRange({}, '0x{start:016x}', '0x{end:016x}')", key.field()))
            .collect::<Vec<_>>()
            .join(" || ")
    }
}

impl fmt::Debug for SlotSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SlotSet({:016x})", self.0)
    }
}

/// Sixteen hex digits, as a Lease annotation carries it.
impl fmt::Display for SlotSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl FromStr for SlotSet {
    type Err = std::num::ParseIntError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        u64::from_str_radix(text, 16).map(Self)
    }
}

/// Whether the API server filtered by `shardSelector` when a sharded informer asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerFiltering {
    /// Not asked yet.
    Unknown,
    /// It echoed the selector in `shardInfo`: it sends only our objects.
    Yes,
    /// It ignored the selector (before 1.36, or without the `ShardedListAndWatch`
    /// gate): the informers filter what they receive.
    No,
}

struct Inner {
    key: ShardKey,
    accepted: watch::Sender<SlotSet>,
    serving: watch::Sender<SlotSet>,
    /// Reconciles running per slot: a slot stops being served only once its count
    /// is back to zero.
    in_flight: [AtomicUsize; SLOTS as usize],
    idle: Notify,
    server_filtering: AtomicU8,
    /// Primary objects in the sharded caches (summed over their informers).
    objects: AtomicI64,
}

/// One replica's share of a sharded controller's objects; cheap to clone.
///
/// Invariant: a reconcile of an object in slot `s` runs only inside an
/// [`InFlight`] for `s`, taken while `s` was served; [`stop_serving`](Self::stop_serving)
/// returns only once no such reconcile is left. So once it returns, this replica
/// touches none of those objects until the slots are served again.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use wheelhouse_cache::shard::{Shards, ShardKey, SlotSet};
///
/// let shards = Shards::new(ShardKey::Uid);
/// shards.serve(SlotSet::one(3));
/// let reconcile = shards.enter(3).expect("slot 3 is served");
/// assert!(shards.enter(4).is_none());
/// drop(reconcile);
/// shards.stop_serving(SlotSet::one(3)).await; // returns: nothing in flight
/// assert!(shards.enter(3).is_none());
/// # }
/// ```
#[derive(Clone)]
pub struct Shards {
    inner: Arc<Inner>,
}

impl fmt::Debug for Shards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Shards")
            .field("key", &self.inner.key)
            .field("accepted", &self.accepted())
            .field("serving", &self.serving())
            .finish()
    }
}

impl Shards {
    /// A replica's shards over `key`, keeping and serving nothing yet.
    pub fn new(key: ShardKey) -> Self {
        Self {
            inner: Arc::new(Inner {
                key,
                accepted: watch::Sender::new(SlotSet::EMPTY),
                serving: watch::Sender::new(SlotSet::EMPTY),
                in_flight: std::array::from_fn(|_| AtomicUsize::new(0)),
                idle: Notify::new(),
                server_filtering: AtomicU8::new(0),
                objects: AtomicI64::new(0),
            }),
        }
    }

    /// The hashed field.
    pub fn key(&self) -> ShardKey {
        self.inner.key
    }

    /// The hash that routes an object with `meta`: None for a child without a
    /// controller owner (no shard reconciles it on its behalf).
    pub fn hash_of(&self, meta: &ObjectMeta, route: Route) -> Option<u64> {
        match (self.inner.key, route) {
            (ShardKey::Namespace, _) => Some(fnv1a64(meta.namespace.as_deref().unwrap_or_default().as_bytes())),
            (ShardKey::Uid, Route::Own) => meta.uid.as_deref().map(|uid| fnv1a64(uid.as_bytes())),
            (ShardKey::Uid, Route::ControllerOwner) => meta
                .owner_references
                .iter()
                .flatten()
                .find(|owner| owner.controller == Some(true))
                .map(|owner| fnv1a64(owner.uid.as_bytes())),
        }
    }

    /// The slot that routes an object with `meta`.
    pub fn slot_of(&self, meta: &ObjectMeta, route: Route) -> Option<u8> {
        self.hash_of(meta, route).map(SlotSet::slot_of_hash)
    }

    /// The slots the caches keep.
    pub fn accepted(&self) -> SlotSet {
        *self.inner.accepted.borrow()
    }

    /// Follows [`accepted`](Self::accepted).
    pub fn watch_accepted(&self) -> watch::Receiver<SlotSet> {
        self.inner.accepted.subscribe()
    }

    /// Sets the slots the caches keep: they drop the objects of slots no longer in
    /// it, and fetch those of new ones.
    pub fn set_accepted(&self, slots: SlotSet) {
        self.inner.accepted.send_if_modified(|current| {
            let changed = *current != slots;
            *current = slots;
            changed
        });
    }

    /// The slots the controllers reconcile.
    pub fn serving(&self) -> SlotSet {
        *self.inner.serving.borrow()
    }

    /// Follows [`serving`](Self::serving): controllers queue the objects of slots
    /// that start being served.
    pub fn watch_serving(&self) -> watch::Receiver<SlotSet> {
        self.inner.serving.subscribe()
    }

    /// Starts serving `slots` too.
    pub fn serve(&self, slots: SlotSet) {
        self.inner.serving.send_if_modified(|current| {
            let next = current.union(slots);
            let changed = next != *current;
            *current = next;
            changed
        });
    }

    /// Stops serving `slots`, and waits until no reconcile of theirs is in flight.
    pub async fn stop_serving(&self, slots: SlotSet) {
        self.inner.serving.send_if_modified(|current| {
            let next = current.minus(slots);
            let changed = next != *current;
            *current = next;
            changed
        });
        loop {
            let idle = self.inner.idle.notified();
            if slots
                .iter()
                .all(|slot| self.inner.in_flight[usize::from(slot)].load(Ordering::SeqCst) == 0)
            {
                return;
            }
            idle.await;
        }
    }

    /// Stops serving every slot at once, without waiting: for a term that ended,
    /// whose reconciles are being cancelled and whose writes are fenced.
    pub fn clear_serving(&self) {
        self.inner.serving.send_if_modified(|current| {
            let changed = !current.is_empty();
            *current = SlotSet::EMPTY;
            changed
        });
    }

    /// Marks a reconcile of an object in `slot` as running, if the slot is served.
    pub fn enter(&self, slot: u8) -> Option<InFlight> {
        let count = self.inner.in_flight.get(usize::from(slot))?;
        // Counted first, checked second: `stop_serving` clears the slot first and
        // counts second, so one of the two always sees the other.
        count.fetch_add(1, Ordering::SeqCst);
        let guard = InFlight {
            shards: self.clone(),
            slot,
        };
        self.serving().contains(slot).then_some(guard)
    }

    /// Whether the API server filters by `shardSelector`, as last seen.
    pub fn server_filtering(&self) -> ServerFiltering {
        match self.inner.server_filtering.load(Ordering::Relaxed) {
            1 => ServerFiltering::Yes,
            2 => ServerFiltering::No,
            _ => ServerFiltering::Unknown,
        }
    }

    /// Primary objects in this replica's sharded caches.
    pub fn objects(&self) -> i64 {
        self.inner.objects.load(Ordering::Relaxed)
    }

    pub(crate) fn add_objects(&self, delta: i64) {
        self.inner.objects.fetch_add(delta, Ordering::Relaxed);
    }

    pub(crate) fn record_server_filtering(&self, filtering: ServerFiltering) {
        let value = match filtering {
            ServerFiltering::Unknown => 0,
            ServerFiltering::Yes => 1,
            ServerFiltering::No => 2,
        };
        self.inner.server_filtering.store(value, Ordering::Relaxed);
    }
}

/// A reconcile in flight in a served slot; see [`Shards::enter`].
#[derive(Debug)]
pub struct InFlight {
    shards: Shards,
    slot: u8,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let count = &self.shards.inner.in_flight[usize::from(self.slot)];
        if count.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.shards.inner.idle.notify_waiters();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_reference_vectors() {
        // From the FNV reference test suite (FNV-1a, 64 bits).
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn ranges_merge_adjacent_slots_and_reach_the_top() {
        let set = SlotSet::from_bits(0b1011 | (1 << 63));
        assert_eq!(
            set.ranges(),
            vec![(0, 2 << 58), (3 << 58, 4 << 58), (63 << 58, 1 << 64),]
        );
        assert_eq!(SlotSet::EMPTY.selector(ShardKey::Uid), "");
        assert_eq!(
            SlotSet::one(1).selector(ShardKey::Namespace),
            "shardRange(object.metadata.namespace, '0x0400000000000000', '0x0800000000000000')"
        );
    }

    #[test]
    fn every_hash_falls_in_the_slot_whose_range_holds_it() {
        for hash in [0, 1, (1 << 58) - 1, 1 << 58, u64::MAX / 2, u64::MAX] {
            let slot = SlotSet::slot_of_hash(hash);
            let (start, end) = SlotSet::one(slot).ranges()[0];
            assert!(start <= hash && u128::from(hash) < end, "{hash:x} in slot {slot}");
        }
    }

    #[test]
    fn children_follow_their_controller_owner() {
        use k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference;
        let shards = Shards::new(ShardKey::Uid);
        let owner = ObjectMeta {
            uid: Some("0b4b9c2e-7f5e-4a43-9d55-1a6f4c1e2d3b".into()),
            ..ObjectMeta::default()
        };
        let child = ObjectMeta {
            uid: Some("another".into()),
            owner_references: Some(vec![
                OwnerReference {
                    uid: "not-the-controller".into(),
                    ..OwnerReference::default()
                },
                OwnerReference {
                    uid: "0b4b9c2e-7f5e-4a43-9d55-1a6f4c1e2d3b".into(),
                    controller: Some(true),
                    ..OwnerReference::default()
                },
            ]),
            ..ObjectMeta::default()
        };
        assert_eq!(
            shards.slot_of(&child, Route::ControllerOwner),
            shards.slot_of(&owner, Route::Own)
        );
        assert_eq!(shards.slot_of(&ObjectMeta::default(), Route::ControllerOwner), None);
    }

    #[tokio::test]
    async fn stop_serving_waits_for_reconciles_in_flight() {
        let shards = Shards::new(ShardKey::Uid);
        shards.serve(SlotSet::from_bits(0b11));
        let in_flight = shards.enter(1).expect("served");
        let stopping = tokio::spawn({
            let shards = shards.clone();
            async move { shards.stop_serving(SlotSet::one(1)).await }
        });
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert!(!stopping.is_finished(), "a reconcile of slot 1 is still running");
        assert!(shards.enter(1).is_none(), "no new reconcile starts in a stopping slot");
        assert!(shards.enter(0).is_some(), "other slots go on");
        drop(in_flight);
        stopping.await.expect("returns once the reconcile ended");
    }
}
