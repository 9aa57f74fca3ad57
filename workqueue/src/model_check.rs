//! A bounded model check of the state machine in `state.rs`.
//!
//! The reference is client-go's queue written the obvious way (a list, a dirty set, a
//! processing set, a map of deadlines), extended with our priority and earliest-deadline
//! rules. Every sequence of up to `DEPTH` operations over two keys is run on both, and
//! after every step their answers, their view of each key and the state's invariants
//! must agree. Long random walks then go deeper than the exhaustive search can.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use tokio::time::Instant;

use crate::state::{Added, Now, State};

const KEYS: [u8; 2] = [0, 1];
const DEPTH: usize = 5;
/// So large that priorities are strict within a model run; aging is tested elsewhere.
const AGING: Duration = Duration::from_secs(1_000_000);

#[derive(Debug, Clone, Copy)]
enum Op {
    Add(u8, i32),
    AddAfter(u8, u64),
    Get,
    Done(u8),
    Tick,
    Shutdown,
}

fn alphabet() -> Vec<Op> {
    let mut ops = vec![Op::Get, Op::Tick, Op::Shutdown];
    for key in KEYS {
        ops.extend([
            Op::Add(key, 0),
            Op::Add(key, 1),
            Op::AddAfter(key, 1),
            Op::AddAfter(key, 2),
            Op::Done(key),
        ]);
    }
    ops
}

/// What the reference's `get` does.
enum Got {
    Key(u8),
    ShutDown,
    WouldPark,
}

/// The reference: plainly written sets, no tickets, no stale items.
#[derive(Clone, Default)]
struct Model {
    /// (key, priority, order of arrival at that priority)
    queue: Vec<(u8, i32, u64)>,
    dirty: HashMap<u8, i32>,
    processing: HashSet<u8>,
    /// key → (tick due, priority, order asked)
    deadlines: HashMap<u8, (u64, i32, u64)>,
    shutting_down: bool,
    now: u64,
    seq: u64,
}

impl Model {
    fn next_seq(&mut self) -> u64 {
        self.seq += 1;
        self.seq
    }

    fn add(&mut self, key: u8, priority: i32) {
        if self.shutting_down {
            return;
        }
        self.deadlines.remove(&key);
        if self.processing.contains(&key) {
            let dirty = self.dirty.entry(key).or_insert(priority);
            *dirty = (*dirty).max(priority);
            return;
        }
        let seq = self.next_seq();
        match self.queue.iter_mut().find(|(k, ..)| *k == key) {
            Some(queued) if priority > queued.1 => *queued = (key, priority, seq),
            Some(_) => {}
            None => self.queue.push((key, priority, seq)),
        }
    }

    fn add_after(&mut self, key: u8, ticks: u64) {
        let queued = self.queue.iter().any(|(k, ..)| *k == key);
        if self.shutting_down || queued || self.dirty.contains_key(&key) {
            return;
        }
        let at = self.now + ticks;
        let seq = self.next_seq();
        match self.deadlines.get_mut(&key) {
            Some(current) if current.0 <= at => current.1 = current.1.max(0),
            Some(current) => *current = (at, current.1.max(0), seq),
            None => {
                self.deadlines.insert(key, (at, 0, seq));
            }
        }
    }

    fn tick(&mut self) {
        self.now += 1;
        let mut due: Vec<_> = self
            .deadlines
            .iter()
            .filter(|(_, d)| d.0 <= self.now)
            .map(|(k, d)| (*k, *d))
            .collect();
        due.sort_by_key(|(_, (at, _, seq))| (*at, *seq));
        for (key, (_, priority, _)) in due {
            self.deadlines.remove(&key);
            self.add(key, priority);
        }
    }

    fn get(&mut self) -> Got {
        let best = self
            .queue
            .iter()
            .enumerate()
            .min_by_key(|(_, (_, priority, seq))| (-priority, *seq));
        match best.map(|(index, _)| index) {
            Some(index) => {
                let (key, ..) = self.queue.remove(index);
                self.processing.insert(key);
                Got::Key(key)
            }
            None if self.shutting_down => Got::ShutDown,
            None => Got::WouldPark,
        }
    }

    fn done(&mut self, key: u8) {
        if !self.processing.remove(&key) {
            return;
        }
        if let Some(priority) = self.dirty.remove(&key) {
            let seq = self.next_seq();
            self.queue.push((key, priority, seq));
        }
    }

    fn shutdown(&mut self) {
        self.shutting_down = true;
        self.deadlines.clear();
    }
}

#[derive(Clone)]
struct Subject {
    state: State<u8>,
    start: Instant,
    now: Instant,
}

impl Subject {
    /// `track_time` is what metrics turn on: every key stamped, the clock read eagerly.
    fn new(track_time: bool) -> Self {
        let start = Instant::now();
        Self {
            state: State::new(AGING, track_time),
            start,
            now: start,
        }
    }
}

/// One hash for every key, so the table must tell keys apart by equality.
fn hash(_key: u8) -> u64 {
    0
}

fn step(op: Op, model: &mut Model, subject: &mut Subject, trace: &[Op]) {
    let state = &mut subject.state;
    match op {
        Op::Add(key, priority) => {
            let added = state.add(key, hash(key), priority, &mut Now::at(subject.now));
            if added == Added::Queued {
                assert!(!model.queue.iter().any(|(k, ..)| *k == key), "{trace:?}: queued twice");
            }
            model.add(key, priority);
        }
        Op::AddAfter(key, ticks) => {
            let at = subject.now + Duration::from_secs(ticks);
            state.add_at(key, hash(key), 0, at);
            model.add_after(key, ticks);
        }
        Op::Get => {
            let got = state.pop(&mut Now::at(subject.now)).map(|p| p.key);
            let expected = model.get();
            match expected {
                Got::Key(key) => assert_eq!(got, Some(key), "{trace:?}: get"),
                Got::ShutDown => {
                    assert_eq!(got, None, "{trace:?}: get after shutdown");
                    assert!(state.is_shutting_down());
                }
                Got::WouldPark => assert_eq!(got, None, "{trace:?}: get on an empty queue"),
            }
        }
        Op::Done(key) => {
            state.done(&key, hash(key));
            model.done(key);
        }
        Op::Tick => {
            subject.now += Duration::from_secs(1);
            state.promote_due(&mut Now::at(subject.now));
            model.tick();
        }
        Op::Shutdown => {
            state.shutdown(&mut Now::at(subject.now));
            model.shutdown();
        }
    }
    compare(model, subject, trace);
}

fn compare(model: &Model, subject: &Subject, trace: &[Op]) {
    let state = &subject.state;
    state.check_invariants();
    assert_eq!(state.len(), model.queue.len(), "{trace:?}: len");
    assert_eq!(state.depth(), model.queue.len() + model.dirty.len(), "{trace:?}: depth");
    assert_eq!(state.processing(), model.processing.len(), "{trace:?}: processing");
    assert_eq!(
        state.is_shutting_down(),
        model.shutting_down,
        "{trace:?}: shutting down"
    );
    for key in KEYS {
        let view = state.view(&key, hash(key)).unwrap_or_default();
        let queued = model.queue.iter().find(|(k, ..)| *k == key).map(|q| q.1);
        assert_eq!(view.queued, queued, "{trace:?}: key {key} queued");
        assert_eq!(
            view.processing,
            model.processing.contains(&key),
            "{trace:?}: key {key} processing"
        );
        assert_eq!(view.dirty, model.dirty.get(&key).copied(), "{trace:?}: key {key} dirty");
        let deadline = view
            .deadline
            .map(|(at, priority)| (at.duration_since(subject.start).as_secs(), priority));
        let expected = model.deadlines.get(&key).map(|d| (d.0, d.1));
        assert_eq!(deadline, expected, "{trace:?}: key {key} deadline");
    }
    let keys = KEYS.iter().filter(|k| state.view(k, hash(**k)).is_some()).count();
    assert_eq!(state.keys(), keys, "{trace:?}: table holds keys the model does not");
}

fn explore(model: &Model, subject: &Subject, trace: &mut Vec<Op>, ops: &[Op], visited: &mut usize) {
    if trace.len() == DEPTH {
        return;
    }
    for op in ops {
        let (mut model, mut subject) = (model.clone(), subject.clone());
        trace.push(*op);
        step(*op, &mut model, &mut subject, trace);
        *visited += 1;
        explore(&model, &subject, trace, ops, visited);
        trace.pop();
    }
}

#[test]
fn every_short_sequence_matches_the_reference() {
    let ops = alphabet();
    let mut visited = 0;
    explore(
        &Model::default(),
        &Subject::new(false),
        &mut Vec::new(),
        &ops,
        &mut visited,
    );
    let expected: usize = (1..=DEPTH).map(|d| ops.len().pow(u32::try_from(d).unwrap())).sum();
    assert_eq!(visited, expected, "the search must cover every sequence");
}

#[test]
fn a_slot_fits_in_a_cache_line() {
    assert!(
        State::<String>::slot_size() <= 64,
        "{} bytes",
        State::<String>::slot_size()
    );
}

/// Two keys never grow the table; this does. A queued item remembers where its key's
/// slot was, and growing the table moves slots, so `pop` must find them again.
#[test]
fn keys_queued_before_the_table_grows_are_all_served_in_order() {
    let mut state = State::new(AGING, false);
    let mut now = Now::at(Instant::now());
    // Scattered hashes, so that growing the table moves slots.
    let scattered = |key: u8| u64::from(key).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for key in 0..=200_u8 {
        assert_eq!(state.add(key, scattered(key), 0, &mut now), Added::Queued);
    }
    let served: Vec<u8> = std::iter::from_fn(|| state.pop(&mut now).map(|p| p.key)).collect();
    assert_eq!(served, (0..=200).collect::<Vec<u8>>());
    state.check_invariants();
}

#[test]
fn long_random_walks_match_the_reference() {
    let ops = alphabet();
    // xorshift: reproducible without a dependency; the seed is in the failure message.
    for seed in 1..=400u64 {
        let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let (mut model, mut subject) = (Model::default(), Subject::new(true));
        let mut trace = Vec::new();
        for _ in 0..80 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let op = ops[usize::try_from(rng % ops.len() as u64).unwrap()];
            // Shutting down ends a walk's interest early; make it rare.
            if matches!(op, Op::Shutdown) && rng % 8 != 0 {
                continue;
            }
            trace.push(op);
            step(op, &mut model, &mut subject, &trace);
        }
    }
}
