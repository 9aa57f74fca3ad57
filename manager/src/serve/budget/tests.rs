use std::net::Ipv4Addr;
use std::sync::Arc;

use super::*;

fn origin(peer: u8) -> Origin {
    Origin::new(IpAddr::V4(Ipv4Addr::new(10, 0, 0, peer)))
}

fn far() -> Instant {
    Instant::now() + Duration::from_mins(1)
}

/// A reservation from `from` holding `bytes`.
async fn holding(budget: &ByteBudget, from: Origin, bytes: usize) -> Reserved {
    let mut reserved = Reserved::new(from, None);
    budget.reserve(&mut reserved, bytes, far()).await.unwrap();
    reserved
}

#[tokio::test(start_paused = true)]
async fn a_budget_waits_then_refuses_and_gives_back_on_drop() {
    let budget = ByteBudget::new(100 * 1024, SMALL_BODY, Duration::from_millis(50));
    let mut first = holding(&budget, origin(1), 60 * 1024).await;
    budget.reserve(&mut first, 30 * 1024, far()).await.unwrap();
    assert_eq!(first.bytes(), 90 * 1024);
    first.read_whole();
    let mut second = holding(&budget, origin(2), 1024).await;
    second.read_whole();
    let refused = budget.reserve(&mut second, 70 * 1024, far()).await.unwrap_err();
    assert_eq!(
        refused,
        NoRoom::Full {
            total: 100 * 1024,
            waited: Duration::from_millis(50)
        },
        "a body being decided is never evicted"
    );
    drop(first);
    budget.reserve(&mut second, 70 * 1024, far()).await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn small_bodies_never_wait_behind_large_ones() {
    let budget = ByteBudget::new(SMALL_BODY * 2, SMALL_BODY, Duration::from_millis(50));
    let large = holding(&budget, origin(1), SMALL_BODY * 2).await;
    large.read_whole();
    let mut waiting = Reserved::new(origin(2), Some(SMALL_BODY as u64));
    assert!(
        budget.reserve(&mut waiting, 1, far()).await.is_err(),
        "a body declared large draws on the large share, which is full"
    );
    for _ in 0..8 {
        let mut small = holding(&budget, origin(3), 4096).await;
        budget.reserve(&mut small, 4096, far()).await.unwrap();
    }
    // A small body that grows past the bound moves to the large share.
    let mut growing = holding(&budget, origin(4), SMALL_BODY - 1).await;
    assert!(budget.reserve(&mut growing, 1, far()).await.is_err());
    drop(large);
    budget.reserve(&mut growing, 1, far()).await.unwrap();
    assert_eq!(growing.bytes(), SMALL_BODY);
    let _small = holding(&budget, origin(5), SMALL_BODY - 1).await;
}

#[tokio::test(start_paused = true)]
async fn a_slow_body_gives_its_room_to_a_newcomer_at_once() {
    let budget = ByteBudget::new(SMALL_BODY, SMALL_BODY, Duration::from_secs(2));
    let slow = holding(&budget, origin(2), 60_000).await;
    let decided = holding(&budget, origin(3), 4_000).await;
    decided.read_whole();
    // Still young: nobody judges a body before STALLED, so the newcomer waits.
    let mut early = Reserved::new(origin(1), None);
    let waited = budget
        .reserve(&mut early, 2_000, Instant::now() + Duration::from_millis(100))
        .await;
    assert!(matches!(waited, Err(NoRoom::Full { .. })), "{waited:?}");

    tokio::time::advance(STALLED).await;
    let started = Instant::now();
    let _newcomer = holding(&budget, origin(1), 2_000).await;
    assert_eq!(started.elapsed(), Duration::ZERO, "room was made, not waited for");
    assert!(slow.is_evicted(), "the body that stopped arriving gave way");
    assert!(!decided.is_evicted(), "a body read whole is never taken");
    let mut slow = slow;
    assert_eq!(budget.reserve(&mut slow, 1, far()).await, Err(NoRoom::Evicted));
    slow.evicted().await;
    drop(slow);
    assert_eq!(
        budget.small.ledger.lock().used(),
        6_000,
        "evicted bytes are given back once"
    );
}

#[tokio::test(start_paused = true)]
async fn a_waiter_takes_a_body_that_stalls_while_it_waits() {
    let budget = ByteBudget::new(SMALL_BODY, SMALL_BODY, Duration::from_secs(2));
    let slow = holding(&budget, origin(2), 60_000).await;
    // Young when the newcomer arrives, so it waits; the body stalls meanwhile, and the
    // waiter takes it then, not at the end of the budget's 2 s wait (no byte was given
    // back to wake it).
    let started = Instant::now();
    let _newcomer = holding(&budget, origin(1), 8_000).await;
    assert!(slow.is_evicted(), "the body that stalled gave way");
    assert!(
        started.elapsed() <= STALLED * 2,
        "taken once stalled, not at the wait's end: {:?}",
        started.elapsed()
    );
}

#[tokio::test(start_paused = true)]
async fn a_body_arriving_fast_keeps_its_room() {
    // The newcomer waits less than STALLED: the fast body has not stalled by then.
    let budget = ByteBudget::new(1024 * 1024, SMALL_BODY, Duration::from_millis(150));
    let mut fast = Reserved::new(origin(2), Some(2 * 1024 * 1024));
    for _ in 0..8 {
        // 100 KB every 50 ms: 2 MB a second, never silent for STALLED.
        budget.reserve(&mut fast, 100_000, far()).await.unwrap();
        tokio::time::advance(Duration::from_millis(50)).await;
    }
    let mut newcomer = Reserved::new(origin(1), Some(SMALL_BODY as u64));
    let waited = budget.reserve(&mut newcomer, 300_000, far()).await;
    assert!(matches!(waited, Err(NoRoom::Full { .. })), "{waited:?}");
    assert!(!fast.is_evicted(), "a body arriving fast is not slow, however long");
    // Once it stops for STALLED, it is.
    tokio::time::advance(STALLED).await;
    budget.reserve(&mut newcomer, 300_000, far()).await.unwrap();
    assert!(fast.is_evicted());
}

#[tokio::test(start_paused = true)]
async fn an_address_over_its_share_loses_its_slow_bodies_before_any_other() {
    let budget = ByteBudget::new(SMALL_BODY, SMALL_BODY, Duration::from_millis(100));
    // The slowest body of all is the other address's, under its share.
    let modest = holding(&budget, origin(3), 14_000).await;
    tokio::time::advance(Duration::from_millis(100)).await;
    let flood: Vec<Reserved> = {
        let mut flood = Vec::new();
        for _ in 0..3 {
            flood.push(holding(&budget, origin(2), 16_000).await);
        }
        flood
    };
    tokio::time::advance(STALLED).await;
    // Three addresses with the newcomer's: a share is 21,845 bytes; the flood's
    // address holds 48,000.
    let _newcomer = holding(&budget, origin(1), 8_000).await;
    assert!(!modest.is_evicted(), "an address under its share keeps its body");
    assert_eq!(flood.iter().filter(|r| r.is_evicted()).count(), 1);

    // A fresh connection from the flood's own address (kube-apiserver shares its
    // address with what attacks it): the address's slow bodies give way to it too,
    // and still not the other address's.
    let mut same_address = Reserved::new(Origin::new(flood[0].holder.origin.peer), None);
    budget.reserve(&mut same_address, 20_000, far()).await.unwrap();
    assert_eq!(flood.iter().filter(|r| r.is_evicted()).count(), 2);
    assert!(!modest.is_evicted());
}

#[tokio::test(start_paused = true)]
async fn streams_of_one_connection_give_way_to_each_other_but_not_to_another_address_under_share() {
    let budget = ByteBudget::new(SMALL_BODY, SMALL_BODY, Duration::from_millis(100));
    let connection = origin(2);
    let slow_stream = holding(&budget, connection, 30_000).await;
    let other = holding(&budget, origin(3), 30_000).await;
    tokio::time::advance(STALLED).await;
    // Another stream of the same connection takes its sibling's room.
    let _stream = holding(&budget, connection, 20_000).await;
    assert!(slow_stream.is_evicted() && !other.is_evicted());
}

#[tokio::test(start_paused = true)]
async fn the_connection_holding_the_most_loses_first() {
    let budget = ByteBudget::new(SMALL_BODY, SMALL_BODY, Duration::from_millis(100));
    let address = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2));
    // Three connections of one address: one alone, one with four streams.
    let lone = holding(&budget, Origin::new(address), 12_000).await;
    let multiplexed = Origin::new(address);
    let mut streams = Vec::new();
    for _ in 0..4 {
        streams.push(holding(&budget, multiplexed, 12_000).await);
    }
    tokio::time::advance(STALLED * 2).await;
    // The lone connection's body is the slowest of all (it came first).
    let _first = holding(&budget, Origin::new(address), 8_000).await;
    assert!(!lone.is_evicted(), "the connection holding the most gives way first");
    assert_eq!(streams.iter().filter(|s| s.is_evicted()).count(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_budget_with_no_room_for_long_fails_its_readiness_check() {
    let budget = ByteBudget::new(SMALL_BODY, SMALL_BODY, Duration::from_secs(1));
    let health = budget.health().clone();
    assert_eq!(health.exhausted_for(), None);
    let held = holding(&budget, origin(2), SMALL_BODY - 1).await;
    held.read_whole();
    let review = Duration::from_secs(10);
    for _ in 0..11 {
        let mut waiting = Reserved::new(origin(1), None);
        assert!(budget.reserve(&mut waiting, 2, far()).await.is_err());
    }
    assert!(health.exhausted_for().is_some_and(|d| d >= Duration::from_secs(10)));
    let failed = health.check(review).unwrap_err();
    assert!(failed.contains("no room for 11.0 s"), "{failed}");
    // Room for a header is not a request served; a body read whole is.
    let granted = holding(&budget, origin(1), 1).await;
    assert!(health.exhausted_for().is_some());
    granted.read_whole();
    assert_eq!(health.exhausted_for(), None);
    drop(held);
    assert!(health.check(review).is_ok());
}

#[tokio::test(start_paused = true)]
async fn bodies_that_all_wait_for_room_do_not_wait_for_ever() {
    let budget = Arc::new(ByteBudget::new(SMALL_BODY, SMALL_BODY, Duration::from_mins(1)));
    // Three bodies that began at once: each holds part of itself and needs more, and
    // none is slow (all young).
    let held = [
        holding(&budget, origin(2), 22_000).await,
        holding(&budget, origin(3), 22_000).await,
        holding(&budget, origin(4), 21_000).await,
    ];
    let mut asking = Vec::new();
    for mut body in held {
        let budget = budget.clone();
        asking.push(tokio::spawn(async move {
            budget.reserve(&mut body, 10_000, far()).await.map(|()| body)
        }));
        tokio::task::yield_now().await;
    }
    let [first, second, third] = <[_; 3]>::try_from(asking).ok().unwrap();
    // The last to find no room finds every other waiting, and evicts the largest.
    let last = third.await.unwrap().expect("the last one breaks the deadlock");
    assert_eq!(first.await.unwrap().err(), Some(NoRoom::Evicted));
    drop(last);
    assert!(
        second.await.unwrap().is_ok(),
        "the other waiter gets the room given back"
    );
}
