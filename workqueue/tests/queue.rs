//! The queue's contract, one rule per test, through the public API.

use std::future::Future;
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use futures::task::ArcWake;
use futures::{FutureExt, poll};
use tokio::time::{Instant, advance, timeout};
use wheelhouse_workqueue::{AddOptions, ExponentialBackoff, FastSlow, Priority, WorkQueue};

const MS: Duration = Duration::from_millis(1);

/// `get` must park: nothing is ready now (time does not move while we look).
async fn assert_parks<K: wheelhouse_workqueue::Key + std::fmt::Debug>(queue: &WorkQueue<K>) {
    let mut get = pin!(queue.get());
    assert_eq!(poll!(get.as_mut()), Poll::Pending, "get should have parked");
}

/// The next `n` keys, in the order they are handed out.
async fn take<K: wheelhouse_workqueue::Key>(queue: &WorkQueue<K>, n: usize) -> Vec<K> {
    let mut keys = Vec::new();
    for _ in 0..n {
        keys.push(queue.get().await.expect("the queue was shut down"));
    }
    keys
}

fn with_priority(priority: Priority) -> AddOptions {
    AddOptions {
        priority,
        ..AddOptions::default()
    }
}

#[tokio::test]
async fn duplicate_adds_are_one_key() {
    let queue = WorkQueue::new();
    queue.add("a");
    queue.add("a");
    queue.add("a");
    assert_eq!(queue.len(), 1);
    assert_eq!(queue.get().await, Some("a"));
    assert_parks(&queue).await;
}

#[tokio::test]
async fn keys_are_served_first_in_first_out() {
    let queue = WorkQueue::new();
    for key in ["c", "a", "b"] {
        queue.add(key);
    }
    queue.add("c");
    assert_eq!(take(&queue, 3).await, ["c", "a", "b"]);
}

#[tokio::test]
async fn add_during_processing_requeues_exactly_once_after_done() {
    let queue = WorkQueue::new();
    queue.add("a");
    let key = queue.get().await.unwrap();
    queue.add("a");
    queue.add("a");
    assert_eq!(queue.len(), 0, "a key being processed is not queued");
    assert_parks(&queue).await;
    queue.done(&key);
    assert_eq!(queue.len(), 1);
    assert_eq!(queue.get().await, Some("a"));
    queue.done(&"a");
    assert_eq!(queue.len(), 0, "re-queued exactly once");
    assert_parks(&queue).await;
}

#[tokio::test]
async fn done_without_get_changes_nothing() {
    let queue = WorkQueue::new();
    queue.add("a");
    queue.done(&"a");
    queue.done(&"b");
    assert_eq!(queue.len(), 1);
    assert_eq!(queue.get().await, Some("a"));
}

#[tokio::test]
async fn a_parked_worker_is_woken_by_an_add() {
    let queue = WorkQueue::new();
    let worker = tokio::spawn({
        let queue = queue.clone();
        async move { queue.get().await }
    });
    tokio::task::yield_now().await;
    queue.add("a");
    assert_eq!(
        timeout(Duration::from_secs(5), worker).await.unwrap().unwrap(),
        Some("a")
    );
}

#[tokio::test(start_paused = true)]
async fn add_after_serves_the_key_at_its_deadline() {
    let queue = WorkQueue::new();
    let start = Instant::now();
    queue.add_after("a", 100 * MS);
    assert_eq!(queue.len(), 0);
    assert_eq!(queue.get().await, Some("a"));
    assert_eq!(start.elapsed(), 100 * MS);
}

#[tokio::test(start_paused = true)]
async fn earliest_deadline_wins_either_way_round() {
    for (first, second) in [(1000 * MS, 100 * MS), (100 * MS, 1000 * MS)] {
        let queue = WorkQueue::new();
        let start = Instant::now();
        queue.add_after("a", first);
        queue.add_after("a", second);
        assert_eq!(queue.get().await, Some("a"));
        assert_eq!(start.elapsed(), 100 * MS);
        queue.done(&"a");
        advance(2000 * MS).await;
        assert_eq!(queue.len(), 0, "the later deadline must not bring the key back");
    }
}

#[tokio::test(start_paused = true)]
async fn a_plain_add_overrides_a_pending_deadline() {
    let queue = WorkQueue::new();
    queue.add_after("a", 1000 * MS);
    queue.add("a");
    assert_eq!(queue.get().await, Some("a"));
    queue.done(&"a");
    advance(2000 * MS).await;
    assert_eq!(queue.len(), 0, "the deadline was consumed by the earlier add");
}

#[tokio::test]
async fn zero_delay_is_a_plain_add() {
    let queue = WorkQueue::new();
    queue.add_after("a", Duration::ZERO);
    assert_eq!(queue.len(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_deadline_reached_while_processing_marks_the_key_dirty() {
    let queue = WorkQueue::new();
    queue.add("a");
    let key = queue.get().await.unwrap();
    queue.add_after("a", 10 * MS);
    advance(20 * MS).await;
    assert_eq!(queue.len(), 0, "still processing");
    queue.done(&key);
    assert_eq!(queue.get().await, Some("a"));
}

#[tokio::test(start_paused = true)]
async fn len_counts_delayed_keys_once_due() {
    let queue = WorkQueue::new();
    queue.add_after("a", 10 * MS);
    queue.add_after("b", 30 * MS);
    advance(20 * MS).await;
    assert_eq!(queue.len(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_new_earlier_deadline_rearms_a_parked_worker() {
    let queue = WorkQueue::new();
    queue.add_after("late", 1000 * MS);
    let worker = tokio::spawn({
        let queue = queue.clone();
        async move { (queue.get().await, Instant::now()) }
    });
    tokio::task::yield_now().await;
    let start = Instant::now();
    queue.add_after("early", 10 * MS);
    let (key, at) = worker.await.unwrap();
    assert_eq!(key, Some("early"));
    assert_eq!(at - start, 10 * MS);
}

#[tokio::test(start_paused = true)]
async fn many_keys_due_at_once_wake_many_workers() {
    let queue = WorkQueue::new();
    let workers: Vec<_> = (0..3)
        .map(|_| {
            let queue = queue.clone();
            tokio::spawn(async move { queue.get().await })
        })
        .collect();
    tokio::task::yield_now().await;
    for key in ["a", "b", "c"] {
        queue.add_after(key, 10 * MS);
    }
    let mut got = Vec::new();
    for worker in workers {
        got.push(timeout(Duration::from_secs(1), worker).await.unwrap().unwrap().unwrap());
    }
    got.sort_unstable();
    assert_eq!(got, ["a", "b", "c"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_adds_reaches_every_parked_worker() {
    let queue = WorkQueue::new();
    let (got, mut received) = tokio::sync::mpsc::unbounded_channel();
    // Workers that keep their key (no `done`): each key needs a worker of its own.
    let workers: Vec<_> = (0..4)
        .map(|_| {
            let (queue, got) = (queue.clone(), got.clone());
            tokio::spawn(async move {
                let key = queue.get().await;
                got.send(key).unwrap();
                std::future::pending::<()>().await;
            })
        })
        .collect();
    tokio::time::sleep(20 * MS).await; // let them park
    for key in ["a", "b", "c", "d"] {
        queue.add(key);
    }
    let mut keys = Vec::new();
    for _ in 0..4 {
        let key = timeout(Duration::from_secs(5), received.recv())
            .await
            .expect("a parked worker was never woken");
        keys.push(key.unwrap().unwrap());
    }
    keys.sort_unstable();
    assert_eq!(keys, ["a", "b", "c", "d"]);
    for worker in workers {
        worker.abort();
    }
}

#[tokio::test(start_paused = true)]
async fn rate_limited_adds_back_off_and_forget_resets() {
    let queue = WorkQueue::builder()
        .rate_limiter(ExponentialBackoff::new(10 * MS, Duration::from_secs(1)))
        .build();
    let mut waits = Vec::new();
    for _ in 0..3 {
        let start = Instant::now();
        queue.add_rate_limited("a");
        let key = queue.get().await.unwrap();
        waits.push(start.elapsed());
        queue.done(&key);
    }
    assert_eq!(waits, [10 * MS, 20 * MS, 40 * MS]);
    assert_eq!(queue.num_requeues(&"a"), 3);
    queue.forget(&"a");
    assert_eq!(queue.num_requeues(&"a"), 0);
    let start = Instant::now();
    queue.add_rate_limited("a");
    queue.get().await.unwrap();
    assert_eq!(start.elapsed(), 10 * MS);
}

#[tokio::test(start_paused = true)]
async fn add_with_takes_the_longer_of_delay_and_rate_limit() {
    let queue = WorkQueue::builder()
        .rate_limiter(FastSlow::new(50 * MS, 50 * MS, 0))
        .build();
    let start = Instant::now();
    queue.add_with(
        "a",
        AddOptions {
            after: Some(10 * MS),
            rate_limited: true,
            ..AddOptions::default()
        },
    );
    queue.get().await.unwrap();
    assert_eq!(start.elapsed(), 50 * MS);
}

#[tokio::test]
async fn higher_priority_is_served_first() {
    let queue = WorkQueue::new();
    queue.add_with("low", with_priority(Priority::LOW));
    queue.add("normal");
    queue.add_with("high", with_priority(Priority::HIGH));
    assert_eq!(take(&queue, 3).await, ["high", "normal", "low"]);
}

#[tokio::test]
async fn a_duplicate_add_keeps_the_highest_priority() {
    let queue = WorkQueue::new();
    queue.add_with("a", with_priority(Priority::LOW));
    queue.add_with("b", with_priority(Priority::LOW));
    queue.add("c");
    queue.add("a"); // raises a
    queue.add_with("c", with_priority(Priority::LOW)); // does not lower c
    assert_eq!(take(&queue, 3).await, ["c", "a", "b"]);
    assert_eq!(queue.len(), 0, "the raised key is not served twice");
}

#[tokio::test(start_paused = true)]
async fn low_priority_keys_age_and_do_not_starve() {
    let queue = WorkQueue::builder().aging_interval(MS).build();
    queue.add("first"); // two priorities in use from the start
    queue.add_with("old-low", with_priority(Priority::LOW)); // a 100 ms handicap
    assert_eq!(queue.get().await, Some("first"));
    advance(150 * MS).await;
    // A steady stream of normal keys must not hold it back once it waited out its handicap.
    for n in 0..10 {
        queue.add(format!("fresh-{n}").leak() as &str);
    }
    assert_eq!(queue.get().await, Some("old-low"));

    queue.add_with("new-low", with_priority(Priority::LOW));
    queue.add("fresh-normal");
    assert_eq!(
        queue.get().await,
        Some("fresh-0"),
        "within its handicap a low key waits"
    );
}

#[tokio::test(start_paused = true)]
async fn keys_queued_before_priorities_compete_age_from_then() {
    let queue = WorkQueue::builder().aging_interval(MS).build();
    // An initial list at low priority, alone in the queue for a long time...
    queue.add_with("listed", with_priority(Priority::LOW));
    advance(5000 * MS).await;
    // ...must still let the first live change go first: it ages from now on.
    queue.add("live");
    assert_eq!(queue.get().await, Some("live"));
    advance(150 * MS).await;
    queue.add("later");
    assert_eq!(
        queue.get().await,
        Some("listed"),
        "past its 100 ms handicap it is served"
    );
}

#[tokio::test]
async fn shutdown_releases_parked_workers() {
    let queue: WorkQueue<&str> = WorkQueue::new();
    let workers: Vec<_> = (0..3)
        .map(|_| {
            let queue = queue.clone();
            tokio::spawn(async move { queue.get().await })
        })
        .collect();
    tokio::task::yield_now().await;
    queue.shutdown();
    assert!(queue.is_shutting_down());
    for worker in workers {
        assert_eq!(timeout(Duration::from_secs(5), worker).await.unwrap().unwrap(), None);
    }
}

#[tokio::test]
async fn shutdown_hands_out_what_is_queued_then_none_and_ignores_adds() {
    let queue = WorkQueue::new();
    queue.add("a");
    queue.add("b");
    queue.shutdown();
    queue.add("c");
    assert_eq!(queue.get().await, Some("a"));
    assert_eq!(queue.get().await, Some("b"));
    assert_eq!(queue.get().await, None);
}

#[tokio::test]
async fn shutdown_does_not_hang_on_delayed_keys() {
    let queue = WorkQueue::new();
    queue.add_after("a", Duration::from_hours(1));
    timeout(Duration::from_secs(5), queue.shutdown_with_drain())
        .await
        .expect("drain hung on a delayed key");
    assert_eq!(queue.get().await, None);
}

#[tokio::test(start_paused = true)]
async fn shutdown_keeps_keys_whose_deadline_already_passed() {
    let queue = WorkQueue::new();
    queue.add_after("due", 10 * MS);
    queue.add_after("later", 1000 * MS);
    advance(20 * MS).await;
    queue.shutdown();
    assert_eq!(queue.get().await, Some("due"));
    assert_eq!(queue.get().await, None);
}

#[tokio::test]
async fn drain_waits_for_done_and_for_dirty_keys() {
    let queue = WorkQueue::new();
    queue.add("a");
    let key = queue.get().await.unwrap();
    queue.add("a"); // dirty: must be processed again before the drain completes
    let mut drain = pin!(queue.shutdown_with_drain());
    assert_eq!(poll!(drain.as_mut()), Poll::Pending);
    queue.done(&key);
    assert_eq!(poll!(drain.as_mut()), Poll::Pending, "the dirty key was re-queued");
    assert_eq!(queue.get().await, Some("a"));
    assert_eq!(poll!(drain.as_mut()), Poll::Pending, "the key is held again");
    queue.done(&"a");
    timeout(Duration::from_secs(5), drain)
        .await
        .expect("drain did not complete after done");
    assert_eq!(queue.get().await, None);
}

/// A waker that records that it was woken, to tell a real wake-up from a re-poll.
struct Flag(AtomicBool);

impl ArcWake for Flag {
    fn wake_by_ref(flag: &Arc<Self>) {
        flag.0.store(true, Ordering::SeqCst);
    }
}

fn poll_with<F: Future + Unpin>(future: &mut F, flag: &Arc<Flag>) -> Poll<F::Output> {
    let waker = futures::task::waker(flag.clone());
    Pin::new(future).poll(&mut Context::from_waker(&waker))
}

fn woken(flag: &Arc<Flag>) -> bool {
    flag.0.load(Ordering::SeqCst)
}

#[tokio::test]
async fn a_dropped_woken_get_passes_its_wakeup_on() {
    for drop_first in [true, false] {
        let queue = WorkQueue::new();
        let (mut first, mut second) = (Box::pin(queue.get()), Box::pin(queue.get()));
        let flags = [
            Arc::new(Flag(AtomicBool::new(false))),
            Arc::new(Flag(AtomicBool::new(false))),
        ];
        assert!(poll_with(&mut first, &flags[0]).is_pending());
        assert!(poll_with(&mut second, &flags[1]).is_pending());
        queue.add("a");
        // Whichever of the two was woken, dropping one must wake the other.
        let (mut survivor, flag) = if drop_first {
            drop(first);
            (second, &flags[1])
        } else {
            drop(second);
            (first, &flags[0])
        };
        assert!(woken(flag), "the surviving worker was never woken");
        assert_eq!(poll_with(&mut survivor, flag), Poll::Ready(Some("a")));
    }
}

#[tokio::test(start_paused = true)]
async fn a_dropped_timer_owner_hands_the_timer_on() {
    for drop_first in [true, false] {
        let queue = WorkQueue::new();
        let (mut first, mut second) = (Box::pin(queue.get()), Box::pin(queue.get()));
        let flags = [
            Arc::new(Flag(AtomicBool::new(false))),
            Arc::new(Flag(AtomicBool::new(false))),
        ];
        assert!(poll_with(&mut first, &flags[0]).is_pending());
        assert!(poll_with(&mut second, &flags[1]).is_pending());
        queue.add_after("a", 10 * MS);
        for (get, flag) in [(&mut first, &flags[0]), (&mut second, &flags[1])] {
            if woken(flag) {
                flag.0.store(false, Ordering::SeqCst);
                assert!(poll_with(get, flag).is_pending());
            }
        }
        let (mut survivor, flag) = if drop_first {
            drop(first);
            (second, &flags[1])
        } else {
            drop(second);
            (first, &flags[0])
        };
        if woken(flag) {
            // It was asked to take the timer over: let it arm it.
            assert!(poll_with(&mut survivor, flag).is_pending());
        }
        advance(20 * MS).await;
        assert!(woken(flag), "nobody woke up at the deadline");
        assert_eq!(poll_with(&mut survivor, flag), Poll::Ready(Some("a")));
    }
}

#[tokio::test]
async fn a_cancelled_get_leaves_no_stale_parking_behind() {
    let queue = WorkQueue::new();
    let flag = Arc::new(Flag(AtomicBool::new(false)));
    let mut parked = Box::pin(queue.get());
    assert!(poll_with(&mut parked, &flag).is_pending());
    // Parked after the first, then cancelled: had it stayed on the list, the add would wake it.
    assert!(queue.get().now_or_never().is_none());
    queue.add("a");
    assert!(woken(&flag), "the add woke a cancelled get instead of the parked one");
    assert_eq!(poll_with(&mut parked, &flag), Poll::Ready(Some("a")));
}

#[tokio::test]
async fn handles_share_one_queue() {
    let queue = WorkQueue::builder().name("shared").build();
    let other = queue.clone();
    other.add(1);
    assert_eq!(queue.get().await, Some(1));
    assert_eq!(other.name(), "shared");
    assert_eq!(format!("{other:?}"), r#"WorkQueue { name: "shared", .. }"#);
}
