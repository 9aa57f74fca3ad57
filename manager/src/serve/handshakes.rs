//! TLS handshakes: a bounded number at once, taken in turn by client address.
//!
//! A handshake is the dearest thing a client can ask of the server before it has sent
//! a byte of a request (key agreement and a signature), and it runs on the I/O worker
//! that also reads every request. Clients that reconnect the moment they are closed (a
//! slow body closed for its rate or evicted for room, a connection evicted past its
//! address's bound) make the server do hundreds a second. Run all at once, every
//! newcomer's handshake, kube-apiserver's included, shares the worker with all of
//! theirs. Here at most `max_in_flight` run at once; the others wait in one queue per
//! client address, and a freed turn goes to the next address with a waiter (round
//! robin), so a connection from another address waits behind at most about one
//! handshake of each address that has waiters, however many connections those
//! addresses open. Within an address, first come first served.
//!
//! Nobody is refused here: a waiting connection is already admitted (it counts against
//! the connection bounds, can be evicted as a silent one, and its wait counts against
//! the handshake timeout). The queues are bounded by the connection bounds, and a
//! waiter that gives up (evicted, timed out, the server stopping) leaves its queue at
//! once, or passes on the turn it was given and did not use.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Arc;

use parking_lot::Mutex;
use tokio::sync::oneshot;

/// The handshakes of one server.
pub(crate) struct Handshakes {
    max_in_flight: usize,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Turns held: handshakes running (or given to a waiter about to run one).
    in_flight: usize,
    next_id: u64,
    /// Each address's waiters, oldest first; an address is here only while it has any.
    waiting: HashMap<IpAddr, VecDeque<Waiter>>,
    /// The addresses with waiters, in the order their next turn comes.
    turns: VecDeque<IpAddr>,
}

struct Waiter {
    id: u64,
    given: oneshot::Sender<()>,
}

/// A turn to run one handshake; the next waiter's once dropped.
pub(crate) struct Turn(Arc<Handshakes>);

impl Drop for Turn {
    fn drop(&mut self) {
        self.0.state.lock().pass_on();
    }
}

impl Handshakes {
    pub fn new(max_in_flight: usize) -> Arc<Self> {
        Arc::new(Self {
            max_in_flight: max_in_flight.max(1),
            state: Mutex::new(State::default()),
        })
    }

    /// Waits for a turn for a connection from `peer`. Dropping the future before it
    /// resolves leaves the queue (or passes on a turn given meanwhile).
    pub async fn turn(self: &Arc<Self>, peer: IpAddr) -> Turn {
        let mut waiting = {
            let mut state = self.state.lock();
            // Waiters exist only while every turn is held (a freed turn goes to one).
            if state.in_flight < self.max_in_flight && state.turns.is_empty() {
                state.in_flight += 1;
                return Turn(self.clone());
            }
            let id = state.next_id;
            state.next_id += 1;
            let (given, receiver) = oneshot::channel();
            state.enqueue(peer, Waiter { id, given });
            Waiting {
                handshakes: self.clone(),
                peer,
                id,
                receiver: Some(receiver),
            }
        };
        if let Some(receiver) = waiting.receiver.as_mut() {
            // The sender is dropped unsent only by a `pass_on` that found this waiter
            // gone, which cannot happen while it is here: either way it holds a turn.
            let _ = receiver.await;
        }
        waiting.receiver = None;
        Turn(self.clone())
    }

    /// Handshakes running now and connections waiting for a turn.
    #[cfg(test)]
    fn counts(&self) -> (usize, usize) {
        let state = self.state.lock();
        (state.in_flight, state.waiting.values().map(VecDeque::len).sum())
    }
}

impl State {
    fn enqueue(&mut self, peer: IpAddr, waiter: Waiter) {
        let queue = self.waiting.entry(peer).or_default();
        if queue.is_empty() {
            self.turns.push_back(peer);
        }
        queue.push_back(waiter);
    }

    /// A turn is free: the next address's oldest waiter gets it, or nobody waits.
    fn pass_on(&mut self) {
        while let Some(peer) = self.turns.pop_front() {
            let Some(queue) = self.waiting.get_mut(&peer) else {
                continue;
            };
            let waiter = queue.pop_front();
            if queue.is_empty() {
                self.waiting.remove(&peer);
            } else {
                self.turns.push_back(peer);
            }
            if let Some(waiter) = waiter
                && waiter.given.send(()).is_ok()
            {
                return;
            }
        }
        self.in_flight = self.in_flight.saturating_sub(1);
    }

    /// A waiter gave up before its turn: out of its address's queue.
    fn leave(&mut self, peer: IpAddr, id: u64) {
        if let Some(queue) = self.waiting.get_mut(&peer) {
            queue.retain(|waiter| waiter.id != id);
            if queue.is_empty() {
                self.waiting.remove(&peer);
                self.turns.retain(|turn| *turn != peer);
            }
        }
    }
}

/// A connection waiting for its turn; leaves the queue when dropped unserved.
struct Waiting {
    handshakes: Arc<Handshakes>,
    peer: IpAddr,
    id: u64,
    /// None once the turn is taken.
    receiver: Option<oneshot::Receiver<()>>,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        let Some(mut receiver) = self.receiver.take() else {
            return;
        };
        // Under the lock, as turns are given: either it is still queued, or it was
        // given a turn it will not use.
        let mut state = self.handshakes.state.lock();
        if receiver.try_recv().is_ok() {
            state.pass_on();
        } else {
            state.leave(self.peer, self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;
    use std::time::Duration;

    use super::*;

    fn peer(last: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(10, 0, 0, last))
    }

    /// Starts a task waiting for a turn for `peer`, holding it until told; returns when
    /// the task is queued (or holds its turn).
    fn waiter(
        handshakes: &Arc<Handshakes>,
        peer: IpAddr,
        order: &Arc<Mutex<Vec<IpAddr>>>,
    ) -> (tokio::task::JoinHandle<()>, oneshot::Sender<()>) {
        let (done, finish) = oneshot::channel::<()>();
        let (handshakes, order) = (handshakes.clone(), order.clone());
        let task = tokio::spawn(async move {
            let _turn = handshakes.turn(peer).await;
            order.lock().push(peer);
            let _ = finish.await;
        });
        (task, done)
    }

    async fn settle() {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }

    #[tokio::test(start_paused = true)]
    async fn at_most_the_bound_run_at_once_and_a_freed_turn_goes_to_a_waiter() {
        let handshakes = Handshakes::new(2);
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut held = Vec::new();
        for _ in 0..5 {
            held.push(waiter(&handshakes, peer(1), &order));
        }
        settle().await;
        assert_eq!(handshakes.counts(), (2, 3));
        let (first, done) = held.remove(0);
        let _ = done.send(());
        first.await.unwrap();
        settle().await;
        assert_eq!(handshakes.counts(), (2, 2), "the freed turn was passed on");
        for (task, done) in held {
            let _ = done.send(());
            settle().await;
            task.await.unwrap();
        }
        assert_eq!(handshakes.counts(), (0, 0));
        assert_eq!(order.lock().len(), 5);
    }

    #[tokio::test(start_paused = true)]
    async fn another_address_waits_behind_one_handshake_of_a_flooding_address_not_all() {
        let handshakes = Handshakes::new(1);
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut held: VecDeque<_> = (0..20).map(|_| waiter(&handshakes, peer(1), &order)).collect();
        settle().await;
        let (other, other_done) = waiter(&handshakes, peer(2), &order);
        settle().await;
        // The flooder's first holds the turn; its second goes next, then the other
        // address, though eighteen more of the flooder's came first.
        for _ in 0..2 {
            let (task, done) = held.pop_front().unwrap();
            let _ = done.send(());
            task.await.unwrap();
            settle().await;
        }
        assert_eq!(order.lock().as_slice(), [peer(1), peer(1), peer(2)]);
        let _ = other_done.send(());
        other.await.unwrap();
        for (task, done) in held {
            let _ = done.send(());
            settle().await;
            task.await.unwrap();
        }
        assert_eq!(handshakes.counts(), (0, 0));
    }

    #[tokio::test(start_paused = true)]
    async fn a_waiter_that_gives_up_leaves_its_queue_and_loses_no_turn() {
        let handshakes = Handshakes::new(1);
        let order = Arc::new(Mutex::new(Vec::new()));
        let (running, running_done) = waiter(&handshakes, peer(1), &order);
        let (gives_up, _gives_up_done) = waiter(&handshakes, peer(2), &order);
        settle().await;
        assert_eq!(handshakes.counts(), (1, 1));
        gives_up.abort();
        let _ = gives_up.await;
        assert_eq!(handshakes.counts(), (1, 0), "the evicted waiter left its queue");
        let _ = running_done.send(());
        running.await.unwrap();
        assert_eq!(handshakes.counts(), (0, 0));
        // The turn is free again: a newcomer runs at once.
        let _turn = tokio::time::timeout(Duration::from_secs(1), handshakes.turn(peer(3)))
            .await
            .expect("a turn at once");
    }

    #[tokio::test(start_paused = true)]
    async fn a_turn_given_to_a_waiter_that_is_gone_is_passed_on() {
        let handshakes = Handshakes::new(1);
        let first = handshakes.turn(peer(1)).await;
        let mut given_then_dropped = Box::pin(handshakes.turn(peer(2)));
        // Polled once, so it is queued.
        assert!(!poll_once(&mut given_then_dropped).await);
        let order = Arc::new(Mutex::new(Vec::new()));
        let (next, next_done) = waiter(&handshakes, peer(3), &order);
        settle().await;
        assert_eq!(handshakes.counts(), (1, 2));
        // The turn goes to peer 2's waiter, which is dropped without taking it.
        drop(first);
        drop(given_then_dropped);
        settle().await;
        assert_eq!(order.lock().as_slice(), [peer(3)], "the unused turn went on");
        let _ = next_done.send(());
        next.await.unwrap();
        assert_eq!(handshakes.counts(), (0, 0));
    }

    /// Polls `future` once: whether it was ready.
    async fn poll_once<F: std::future::Future + Unpin>(future: &mut F) -> bool {
        std::future::poll_fn(|cx| std::task::Poll::Ready(std::pin::Pin::new(&mut *future).poll(cx).is_ready())).await
    }
}
