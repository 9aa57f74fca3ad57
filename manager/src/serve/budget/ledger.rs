//! One share's ledger: who holds how many bytes, summed by address and by connection,
//! and which slow body gives way to a request that finds no room (the rules are the
//! [budget's](super)).

use std::cmp::Reverse;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use tokio::time::Instant;

use super::{Holder, Origin};

/// Bytes held by an address or a connection, and (for an address) by how many of its
/// connections.
#[derive(Debug, Default, Clone, Copy)]
struct Group {
    bytes: usize,
    connections: usize,
}

#[derive(Debug)]
struct Held {
    holder: Arc<Holder>,
    bytes: usize,
}

/// Invariant: `used` is the sum of `holders`' bytes; `peers[ip].bytes` and
/// `connections[id].bytes` the sums over the holders of that address and connection,
/// `peers[ip].connections` the number of entries of `connections` from `ip`; no
/// entry of any of the three maps holds zero bytes.
#[derive(Debug, Default)]
pub(super) struct Ledger {
    used: usize,
    holders: HashMap<u64, Held>,
    peers: HashMap<IpAddr, Group>,
    connections: HashMap<u64, Group>,
    /// Requests waiting for room (so that giving back wakes them only when some wait).
    pub waiting: usize,
}

impl Ledger {
    pub fn used(&self) -> usize {
        self.used
    }

    pub fn held_by(&self, holder: u64) -> usize {
        self.holders.get(&holder).map_or(0, |held| held.bytes)
    }

    pub fn add(&mut self, holder: &Arc<Holder>, bytes: usize) {
        if bytes == 0 {
            return;
        }
        self.used += bytes;
        self.holders
            .entry(holder.id)
            .or_insert_with(|| Held {
                holder: holder.clone(),
                bytes: 0,
            })
            .bytes += bytes;
        let connection = self.connections.entry(holder.origin.connection).or_default();
        let new_connection = connection.bytes == 0;
        connection.bytes += bytes;
        let peer = self.peers.entry(holder.origin.peer).or_default();
        peer.bytes += bytes;
        peer.connections += usize::from(new_connection);
    }

    /// Forgets what `holder` holds; its bytes, or None when it held none here.
    pub fn remove(&mut self, holder: u64) -> Option<usize> {
        let held = self.holders.remove(&holder)?;
        let (bytes, origin) = (held.bytes, held.holder.origin);
        self.used -= bytes;
        let mut connection_gone = false;
        if let Entry::Occupied(mut connection) = self.connections.entry(origin.connection) {
            connection.get_mut().bytes -= bytes;
            if connection.get().bytes == 0 {
                connection.remove();
                connection_gone = true;
            }
        }
        if let Entry::Occupied(mut peer) = self.peers.entry(origin.peer) {
            let group = peer.get_mut();
            group.bytes -= bytes;
            group.connections -= usize::from(connection_gone);
            if group.bytes == 0 {
                peer.remove();
            }
        }
        Some(bytes)
    }

    /// Evicts a slow body that `requester` may take room from (see the budget's
    /// rules): of the address holding the most, its connection holding the most, the
    /// slowest; its reader is told. Where it came from and the bytes freed, or None
    /// when no body may be taken.
    pub fn evict_slowest(&mut self, requester: &Holder, total: usize, now: Instant) -> Option<(Origin, usize)> {
        let asking = requester.origin;
        let addresses = self.peers.len() + usize::from(!self.peers.contains_key(&asking.peer));
        let address_share = total / addresses.max(1);
        let (_, _, _, id) = self
            .holders
            .values()
            .filter(|held| held.holder.id != requester.id)
            .filter_map(|held| {
                let origin = held.holder.origin;
                let address = self.peers.get(&origin.peer).map_or(0, |group| group.bytes);
                // Another address's body is safe while that address holds under its share.
                if origin.peer != asking.peer && address < address_share {
                    return None;
                }
                let (rate, stalled) = held.holder.pace(now)?;
                let slow = stalled || rate < super::FAST;
                let connection = self.connections.get(&origin.connection).map_or(0, |group| group.bytes);
                slow.then_some((Reverse(address), Reverse(connection), rate, held.holder.id))
            })
            .min()?;
        self.evict(id)
    }

    /// When every other holder waits for room (so none will ever give any back: each
    /// holds part of a body and waits for the rest), evicts the waiter of the address
    /// holding the most, of its connection holding the most, holding the most itself.
    pub fn break_deadlock(&mut self, requester: &Holder) -> Option<(Origin, usize)> {
        let others = || self.holders.values().filter(|held| held.holder.id != requester.id);
        if others().any(|held| held.holder.state.load(Ordering::Acquire) != super::WAITING) {
            return None;
        }
        let (_, _, _, id) = others()
            .map(|held| {
                let origin = held.holder.origin;
                let address = self.peers.get(&origin.peer).map_or(0, |group| group.bytes);
                let connection = self.connections.get(&origin.connection).map_or(0, |group| group.bytes);
                (
                    Reverse(address),
                    Reverse(connection),
                    Reverse(held.bytes),
                    held.holder.id,
                )
            })
            .min()?;
        self.evict(id)
    }

    fn evict(&mut self, id: u64) -> Option<(Origin, usize)> {
        let holder = self.holders.get(&id).map(|held| held.holder.clone())?;
        let freed = self.remove(id)?;
        holder.evicted.cancel();
        Some((holder.origin, freed))
    }
}
