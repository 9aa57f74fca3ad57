//! Workers parked in `get` while nothing is queued.
//!
//! The list lives under the queue's lock, next to the state it waits on, so checking
//! "is anything queued?" and parking are one step and no wake-up is lost:
//! - every add that queues a key takes one parked worker off the list and wakes it;
//! - a worker on the list is one that found nothing queued; a woken worker is off it,
//!   and if it is dropped before it runs, it passes the wake-up on (see `Get`'s `Drop`);
//! - at most one parked worker, the *timer owner*, sleeps until the next deadline, so a
//!   deadline wakes one worker, not all of them.

use std::task::Waker;

#[derive(Default)]
pub(crate) struct Waiters {
    parked: Vec<(u64, Waker)>,
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

    /// Takes `id` off the list; false if it was not on it (it was woken).
    pub fn unpark(&mut self, id: u64) -> bool {
        match self.parked.iter().position(|(parked, _)| *parked == id) {
            Some(index) => {
                self.parked.swap_remove(index);
                true
            }
            None => false,
        }
    }

    /// Takes one parked worker off the list, to be woken.
    pub fn pop(&mut self) -> Option<Waker> {
        self.parked.pop().map(|(_, waker)| waker)
    }

    pub fn take_all(&mut self) -> Vec<Waker> {
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
    pub fn push(&mut self, waker: Option<Waker>) {
        let Some(waker) = waker else { return };
        if self.first.is_none() {
            self.first = Some(waker);
        } else {
            self.rest.push(waker);
        }
    }

    #[inline]
    pub fn wake(self) {
        // Most operations wake nobody: keep that path free of calls.
        if let Some(first) = self.first {
            first.wake();
            for waker in self.rest {
                waker.wake();
            }
        }
    }
}
