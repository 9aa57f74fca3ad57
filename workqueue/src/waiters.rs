//! Workers parked in `get` while nothing is queued.
//!
//! The list lives under the queue's lock, next to the state it waits on, so checking
//! "is anything queued?" and parking are one step and no wake-up is lost:
//! - a worker on the list is one that found nothing queued; a woken worker is off it,
//!   and if it is dropped before it runs, it passes the wake-up on (`Waiter`'s `Drop`);
//! - an add that queues a key wakes a parked worker only if fewer are already *waking*
//!   (woken and not yet running) than keys are queued; a worker that gets a key and
//!   sees more queued wakes the next one on the same rule. A burst of adds so costs its
//!   producer at most one wake-up per parked worker, not one per key. One waking worker
//!   for the whole burst is not enough: tokio runs a task woken from one of its threads
//!   next on that thread (its LIFO slot, which other threads do not steal), so the
//!   first woken worker drained the queue alone while the one it woke waited behind it,
//!   and producers on the other core ran ahead: the queue grew to most of its keys (up
//!   to 857,000 of 1,000,000 in the scale bench's W1), and every add, get and done
//!   missed the cache. Waking one per queued key moves the earlier ones out of that
//!   slot, where the idle core takes them. No key is stranded: while keys are queued,
//!   a worker is waking, or every worker is busy and will come back for them. (A woken
//!   `get` future leaked with `mem::forget`, never dropped, counts as waking for ever:
//!   adds then wake one worker fewer than keys are queued, and a single queued key
//!   waits until a busy worker comes back. Dropping it, as cancellation does, is fine.);
//! - at most one parked worker, the *timer owner*, sleeps until the next deadline, so a
//!   deadline wakes one worker, not all of them.

use std::task::Waker;

#[derive(Default)]
pub(crate) struct Waiters {
    parked: Vec<(u64, Waker)>,
    /// Workers taken off the list to be woken and not yet running.
    waking: usize,
    next_id: u64,
    timer_owner: Option<u64>,
}

impl Waiters {
    pub fn new_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    pub fn park(&mut self, id: u64, waker: &Waker) {
        self.parked.push((id, waker.clone()));
    }

    /// Takes `id` off the list; false if it was not on it: it was woken, and runs now
    /// (or is being dropped), so it no longer counts as waking.
    pub fn unpark(&mut self, id: u64) -> bool {
        if let Some(index) = self.parked.iter().position(|(parked, _)| *parked == id) {
            self.parked.swap_remove(index);
            return true;
        }
        self.waking = self.waking.saturating_sub(1);
        false
    }

    /// A worker to wake because `queued` keys are queued, unless as many are already on
    /// their way.
    #[inline]
    pub fn wake_for_work(&mut self, queued: usize) -> Option<Waker> {
        if self.waking >= queued {
            return None;
        }
        self.pop()
    }

    /// Takes one parked worker off the list, to be woken whatever else is waking.
    pub fn pop(&mut self) -> Option<Waker> {
        let (_, waker) = self.parked.pop()?;
        self.waking += 1;
        Some(waker)
    }

    pub fn take_all(&mut self) -> Vec<Waker> {
        self.waking += self.parked.len();
        self.parked.drain(..).map(|(_, waker)| waker).collect()
    }

    /// Makes `id` the timer owner unless another worker is; true if `id` owns it now.
    pub fn claim_timer(&mut self, id: u64) -> bool {
        *self.timer_owner.get_or_insert(id) == id
    }

    /// Gives up the timer if `id` owned it; true if it did.
    pub fn release_timer(&mut self, id: u64) -> bool {
        let owned = self.timer_owner == Some(id);
        if owned {
            self.timer_owner = None;
        }
        owned
    }

    /// The worker that must re-arm its timer because the first deadline moved: the
    /// owner if it is parked, or any parked worker if nobody owns the timer.
    pub fn take_timer_owner(&mut self) -> Option<Waker> {
        match self.timer_owner {
            None => self.pop(),
            Some(owner) => {
                let index = self.parked.iter().position(|(id, _)| *id == owner)?;
                self.waking += 1;
                Some(self.parked.swap_remove(index).1)
            }
        }
    }
}

/// Wakers collected under the lock, woken after it is released.
#[derive(Default)]
pub(crate) struct Wakeups {
    first: Option<Waker>,
    rest: Vec<Waker>,
}

impl Wakeups {
    #[inline]
    pub fn push(&mut self, waker: Option<Waker>) {
        let Some(waker) = waker else { return };
        if self.first.is_none() {
            self.first = Some(waker);
        } else {
            self.rest.push(waker);
        }
    }

    /// True when there is nobody to wake.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.first.is_none()
    }

    pub fn wake(self) {
        if let Some(first) = self.first {
            first.wake();
        }
        for waker in self.rest {
            waker.wake();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parked(count: u64) -> Waiters {
        let mut waiters = Waiters::default();
        for _ in 0..count {
            let id = waiters.new_id();
            waiters.park(id, Waker::noop());
        }
        waiters
    }

    #[test]
    fn one_worker_wakes_per_queued_key_up_to_the_parked_ones() {
        let mut waiters = parked(3);
        assert!(waiters.wake_for_work(1).is_some(), "one key, nobody waking");
        assert!(waiters.wake_for_work(1).is_none(), "one key, one worker already waking");
        assert!(waiters.wake_for_work(3).is_some(), "three keys, one waking");
        assert!(waiters.wake_for_work(3).is_some(), "three keys, two waking");
        assert!(waiters.wake_for_work(64).is_none(), "every parked worker is waking");
        assert_eq!(waiters.waking, 3);
    }

    #[test]
    fn a_woken_worker_that_runs_no_longer_counts_as_waking() {
        let mut waiters = parked(2);
        assert!(waiters.wake_for_work(1).is_some());
        // The woken one (the last parked, id 2) runs: it is no longer on its way.
        assert!(!waiters.unpark(2));
        assert!(
            waiters.wake_for_work(1).is_some(),
            "the key still queued gets the other worker"
        );
    }
}
