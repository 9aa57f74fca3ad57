//! [`ByteBudget`]: the request bytes a server holds in memory at once, across all its
//! connections, counted as they arrive and held until the answer is written.
//!
//! Bytes are bounded across connections because a per-request limit alone lets memory
//! grow with the number of connections (a hundred connections each holding a maximal
//! body is seven hundred megabytes). They are counted as they arrive, never from a
//! declared `Content-Length`: a client that declares seven megabytes and sends
//! nothing holds nothing. And the budget has two shares: bodies under
//! [`SMALL_BODY`] (every ordinary object) draw on a share of their own, so a queue of
//! large bodies waiting for room never delays them.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

/// The size under which a body draws on the small share.
pub const SMALL_BODY: usize = 64 * 1024;

/// Request (and answer) bytes in memory across all connections of a server.
#[derive(Debug)]
pub struct ByteBudget {
    large: Share,
    small: Share,
    wait: Duration,
}

#[derive(Debug)]
struct Share {
    bytes: Arc<Semaphore>,
    total: usize,
}

impl Share {
    fn new(total: usize) -> Self {
        let total = total.clamp(1, Semaphore::MAX_PERMITS);
        Self {
            bytes: Arc::new(Semaphore::new(total)),
            total,
        }
    }
}

/// Bytes held for one request, given back on drop: keep it until the answer is
/// written (see [`AnswerBody::holding`](super::AnswerBody::holding)).
///
/// Invariant: `bytes` is the sum of the permits held; while it is under
/// [`SMALL_BODY`] they are all of the small share, and from then on all of the large.
#[derive(Debug, Default)]
pub struct Reserved {
    permit: Option<OwnedSemaphorePermit>,
    bytes: usize,
    large: bool,
}

impl Reserved {
    /// Nothing held yet.
    pub fn none() -> Self {
        Self::default()
    }

    /// The bytes held.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    fn add(&mut self, more: OwnedSemaphorePermit, bytes: usize) {
        match &mut self.permit {
            Some(held) => held.merge(more),
            None => self.permit = Some(more),
        }
        self.bytes += bytes;
    }
}

/// The budget had no room in time.
#[derive(Debug)]
pub struct NoRoom {
    /// The share's size in bytes.
    pub total: usize,
    /// How long the request waited.
    pub waited: Duration,
}

impl ByteBudget {
    /// `large` bytes at once for bodies of [`SMALL_BODY`] or more and `small` bytes
    /// for smaller ones; a request waits at most `wait` for room.
    pub fn new(large: usize, small: usize, wait: Duration) -> Self {
        Self {
            large: Share::new(large),
            small: Share::new(small.max(SMALL_BODY)),
            wait,
        }
    }

    /// Adds `bytes` that arrived to `reserved`, waiting until the earlier of
    /// `deadline` and this budget's wait. A request whose bytes reach
    /// [`SMALL_BODY`] moves to the large share with all it holds.
    pub async fn reserve(&self, reserved: &mut Reserved, bytes: usize, deadline: Instant) -> Result<(), NoRoom> {
        if bytes == 0 {
            return Ok(());
        }
        let after = reserved.bytes.saturating_add(bytes);
        if !reserved.large && after >= SMALL_BODY {
            // Moving: the whole body from the large share, then the small given back.
            let permit = self.acquire(&self.large, after, deadline).await?;
            *reserved = Reserved {
                permit: Some(permit),
                bytes: after,
                large: true,
            };
            return Ok(());
        }
        let share = if reserved.large { &self.large } else { &self.small };
        let permit = self.acquire(share, bytes, deadline).await?;
        reserved.add(permit, bytes);
        Ok(())
    }

    async fn acquire(&self, share: &Share, bytes: usize, deadline: Instant) -> Result<OwnedSemaphorePermit, NoRoom> {
        let no_room = || NoRoom {
            total: share.total,
            waited: self.wait,
        };
        // One request larger than the share takes the whole share.
        let count = u32::try_from(bytes.min(share.total)).map_err(|_| no_room())?;
        if let Ok(permit) = share.bytes.clone().try_acquire_many_owned(count) {
            return Ok(permit);
        }
        let until = deadline.min(Instant::now() + self.wait);
        match tokio::time::timeout_at(until, share.bytes.clone().acquire_many_owned(count)).await {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(no_room()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_budget_waits_then_refuses_and_gives_back_on_drop() {
        let budget = ByteBudget::new(100 * 1024, SMALL_BODY, Duration::from_millis(50));
        let far = Instant::now() + Duration::from_secs(10);
        let mut first = Reserved::none();
        budget.reserve(&mut first, 60 * 1024, far).await.unwrap();
        budget.reserve(&mut first, 30 * 1024, far).await.unwrap();
        assert_eq!(first.bytes(), 90 * 1024);
        let mut second = Reserved::none();
        budget.reserve(&mut second, 1024, far).await.unwrap();
        let refused = budget.reserve(&mut second, 70 * 1024, far).await.unwrap_err();
        assert_eq!(refused.total, 100 * 1024);
        drop(first);
        budget.reserve(&mut second, 70 * 1024, far).await.unwrap();
    }

    #[tokio::test]
    async fn small_bodies_never_wait_behind_large_ones() {
        let budget = ByteBudget::new(SMALL_BODY * 2, SMALL_BODY, Duration::from_millis(50));
        let far = Instant::now() + Duration::from_secs(10);
        let mut large = Reserved::none();
        budget.reserve(&mut large, SMALL_BODY * 2, far).await.unwrap();
        let mut waiting = Reserved::none();
        assert!(
            budget.reserve(&mut waiting, SMALL_BODY, far).await.is_err(),
            "the large share is full"
        );
        for _ in 0..8 {
            let mut small = Reserved::none();
            budget.reserve(&mut small, 4096, far).await.unwrap();
            budget.reserve(&mut small, 4096, far).await.unwrap();
        }
        // A small body that grows past the bound moves to the large share.
        let mut growing = Reserved::none();
        budget.reserve(&mut growing, SMALL_BODY - 1, far).await.unwrap();
        assert!(budget.reserve(&mut growing, 1, far).await.is_err());
        drop(large);
        budget.reserve(&mut growing, 1, far).await.unwrap();
        assert_eq!(growing.bytes(), SMALL_BODY);
        let mut small = Reserved::none();
        budget.reserve(&mut small, SMALL_BODY - 1, far).await.unwrap();
    }
}
