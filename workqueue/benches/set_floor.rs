//! The set alone, variant by variant: what a deduplicating table costs per add of the
//! scale bench's W1 (2 producers adding `keys` distinct strings round-robin, 64 adds
//! each in turn, 4 adds per key, each add an owned copy of the key), holding every key
//! at once, then every key taken out in the order it came. One variant per process, so
//! that `valgrind --tool=cachegrind` or `perf stat` can count one variant's
//! instructions and cache misses:
//!
//! ```sh
//! cargo bench -p wheelhouse-workqueue --bench set_floor --no-run
//! target/release/deps/set_floor-* <variant> <keys> [runs]
//! valgrind --tool=cachegrind --cache-sim=yes target/release/deps/set_floor-* <variant> <keys> 1
//! ```
//!
//! Variants (`all` runs each in turn, in this process):
//! - `clone-only`: the bench's own cost per add, copying the key and dropping it;
//! - `set-sip`, `set-foldhash`, `set-ahash`, `set-fx`: a `hashbrown::HashSet<String>`
//!   with that hasher and a `VecDeque<String>` of the order (the scale bench's set-alone
//!   floor is `set-foldhash`): a key hashed at each add and again at each growth and
//!   removal, and copied once more for the order;
//! - `table`: a `HashTable` of (hash, ticket, key), as the queue's state holds it: a key
//!   hashed once per add, never again on growth, found at removal by its bucket and
//!   ticket without reading its bytes, and no second copy for the order;
//! - `table-presized`: the same, its table and order sized for every key first;
//! - `table-inline`: the same with keys of up to 22 bytes stored in the slot itself,
//!   so a duplicate add compares bytes it has already fetched.

use std::collections::VecDeque;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};
use std::time::{Duration, Instant};

use hashbrown::hash_set::Entry as SetEntry;
use hashbrown::hash_table::Entry;
use hashbrown::{HashSet, HashTable};

const PRODUCERS: usize = 2;
const ADDS_PER_KEY: usize = 4;
const YIELD_EVERY: usize = 64;

const VARIANTS: [&str; 9] = [
    "clone-only",
    "set-sip",
    "set-foldhash",
    "set-ahash",
    "set-fx",
    "table",
    "table-presized",
    "table-inline",
    "table-fx",
];

/// The keys in the order the producers add them: each producer adds
/// `keys × ADDS_PER_KEY / PRODUCERS` keys round-robin, `YIELD_EVERY` at a time in turn.
fn add_order(keys: &[String]) -> Vec<&String> {
    let per_producer = keys.len() * ADDS_PER_KEY / PRODUCERS;
    let mut order = Vec::with_capacity(per_producer * PRODUCERS);
    for start in (0..per_producer).step_by(YIELD_EVERY) {
        for _ in 0..PRODUCERS {
            for n in start..(start + YIELD_EVERY).min(per_producer) {
                order.push(&keys[n % keys.len()]);
            }
        }
    }
    order
}

/// rustc-hash 1.x's Fx algorithm (a multiply and a rotate per word), for the
/// measurement only: it is not keyed, so a client choosing keys could collide them.
#[derive(Default)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        for byte in chunks.remainder() {
            self.add(u64::from(*byte));
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type Fx = BuildHasherDefault<FxHasher>;

fn clone_only(order: &[&String]) -> Duration {
    let start = Instant::now();
    for key in order {
        drop(std::hint::black_box((*key).clone()));
    }
    start.elapsed()
}

/// The scale bench's floor, with any hasher.
fn set<S: BuildHasher + Default>(order: &[&String]) -> Duration {
    let mut keys: HashSet<String, S> = HashSet::default();
    let mut queued = VecDeque::new();
    let start = Instant::now();
    for key in order {
        if let SetEntry::Vacant(vacant) = keys.entry((*key).clone()) {
            queued.push_back(vacant.get().clone());
            vacant.insert();
        }
    }
    while let Some(key) = queued.pop_front() {
        keys.remove(&key);
    }
    start.elapsed()
}

/// A key of up to `INLINE` bytes held in place, a longer one on the heap.
enum SmallKey {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(Box<str>),
}

const INLINE: usize = 22;

impl SmallKey {
    fn new(key: &str) -> Self {
        match u8::try_from(key.len()) {
            Ok(len) if key.len() <= INLINE => {
                let mut bytes = [0; INLINE];
                bytes[..key.len()].copy_from_slice(key.as_bytes());
                Self::Inline { len, bytes }
            }
            _ => Self::Heap(key.into()),
        }
    }

    fn as_bytes(&self) -> &[u8] {
        match self {
            Self::Inline { len, bytes } => &bytes[..usize::from(*len)],
            Self::Heap(key) => key.as_bytes(),
        }
    }
}

/// What the table holds of a key: a way to store it and to compare it with a new one.
trait Stored {
    fn store(key: String) -> Self;
    fn matches(&self, key: &str) -> bool;
}

impl Stored for String {
    fn store(key: String) -> Self {
        key
    }
    fn matches(&self, key: &str) -> bool {
        self == key
    }
}

impl Stored for SmallKey {
    fn store(key: String) -> Self {
        Self::new(&key)
    }
    fn matches(&self, key: &str) -> bool {
        self.as_bytes() == key.as_bytes()
    }
}

struct Slot<K> {
    hash: u64,
    ticket: u64,
    key: K,
}

/// The queue's layout: (hash, ticket, key) slots, the order as (hash, bucket, ticket).
fn table<K: Stored, S: BuildHasher + Default>(order: &[&String], presize: bool) -> Duration {
    let hasher = S::default();
    let (mut slots, mut queued) = if presize {
        let distinct = order.len() / ADDS_PER_KEY;
        (HashTable::with_capacity(distinct), VecDeque::with_capacity(distinct))
    } else {
        (HashTable::new(), VecDeque::new())
    };
    let mut next_ticket = 0;
    let start = Instant::now();
    for key in order {
        let key = (*key).clone();
        let hash = hasher.hash_one(&key);
        let entry = slots.entry(hash, |s: &Slot<K>| s.hash == hash && s.key.matches(&key), |s| s.hash);
        if let Entry::Vacant(vacant) = entry {
            next_ticket += 1;
            let slot = Slot {
                hash,
                ticket: next_ticket,
                key: K::store(key),
            };
            let bucket = vacant.insert(slot).bucket_index();
            queued.push_back((hash, bucket, next_ticket));
        }
    }
    while let Some((hash, bucket, ticket)) = queued.pop_front() {
        let entry = match slots.get_bucket_entry(bucket) {
            Ok(entry) if entry.get().ticket == ticket => Ok(entry),
            _ => slots.find_entry(hash, |s| s.ticket == ticket),
        };
        if let Ok(entry) = entry {
            drop(std::hint::black_box(entry.remove().0.key));
        }
    }
    start.elapsed()
}

fn run(variant: &str, order: &[&String]) -> Option<Duration> {
    Some(match variant {
        "clone-only" => clone_only(order),
        "set-sip" => set::<std::hash::RandomState>(order),
        "set-foldhash" => set::<foldhash::fast::RandomState>(order),
        "set-ahash" => set::<ahash::RandomState>(order),
        "set-fx" => set::<Fx>(order),
        "table" => table::<String, foldhash::fast::RandomState>(order, false),
        "table-presized" => table::<String, foldhash::fast::RandomState>(order, true),
        "table-inline" => table::<SmallKey, foldhash::fast::RandomState>(order, false),
        "table-fx" => table::<String, Fx>(order, false),
        _ => return None,
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let variant = args.first().map_or("all", String::as_str);
    let count: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(1_000_000);
    let runs: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(5);
    let keys: Vec<String> = (0..count).map(|n| format!("default/object-{n}")).collect();
    let order = add_order(&keys);
    let variants: Vec<&str> = if variant == "all" {
        VARIANTS.to_vec()
    } else {
        vec![variant]
    };
    for variant in variants {
        let mut times = Vec::with_capacity(runs);
        for _ in 0..runs {
            let Some(elapsed) = run(variant, &order) else {
                eprintln!("unknown variant {variant}; one of all, {}", VARIANTS.join(", "));
                std::process::exit(2);
            };
            #[allow(clippy::cast_precision_loss)]
            times.push(elapsed.as_secs_f64() * 1e9 / order.len() as f64);
        }
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        println!("bench=set_floor variant={variant} keys={count} ns_per_add={median:.1} runs={times:.0?}");
    }
}
