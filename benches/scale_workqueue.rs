//! The workqueue series of `cargo bench --bench scale`: W1 (dedup churn) and W2 (unique
//! keys), as in `benches/workqueue.rs`, at each size, against an unbounded flume
//! channel, in nanoseconds per add; and, for W1, against the floor of any
//! deduplicating queue (`support::dedup_floor`: a minimal queue of a set and an order
//! under the same producers and workers, and the set alone on one thread): the share of
//! W1's growth with the number of keys that any dedup table's reads would show too.
//! client-go's workqueue and a Go channel run as processes of their own, one run each
//! between two of ours, so that both sides of a ratio see the same load on a shared
//! machine; each of ours has an untimed warm-up run first, as each Go process does.

use std::sync::Arc;
use std::time::Duration;

use crate::Curves;
use crate::support::dedup_floor;
use crate::support::queues::{self, Keys};
use crate::support::{as_f64, median};

/// Adds between yields to the runtime, as `benches/workqueue.rs` by default.
const YIELD_EVERY: usize = 64;
const W1_PRODUCERS: usize = 2;
const W1_ADDS_PER_KEY: usize = 4;
/// Runs of each implementation at each size, alternating (ours, then Go's, and so on).
const QUEUE_RUNS: usize = 5;

/// The producers' keys: for W1 (`keys` shared, each producer adding every key
/// `W1_ADDS_PER_KEY / W1_PRODUCERS` times, round-robin), cloned per add as a handler
/// turning an event into a key would; a single producer of `keys` once each for W2.
fn producer_keys(keys: &Arc<Vec<String>>) -> Vec<Keys> {
    (0..W1_PRODUCERS)
        .map(|_| {
            let keys = keys.clone();
            let adds = keys.len() * W1_ADDS_PER_KEY / W1_PRODUCERS;
            Box::new((0..adds).map(move |n| keys[n % keys.len()].clone())) as Keys
        })
        .collect()
}

/// W2's one producer, adding each key once.
fn single(keys: Vec<String>) -> Vec<Keys> {
    vec![Box::new(keys.into_iter())]
}

fn queue_keys(count: usize) -> Vec<String> {
    (0..count).map(|n| format!("default/object-{n}")).collect()
}

/// One run of `benches/clientgo` (built by `go_build`) at `count` keys, of one
/// `workload` (`W1`: `count` distinct keys, `count × W1_ADDS_PER_KEY / W1_PRODUCERS`
/// adds per producer; `W2`: `count` keys) on one `implementation` (`client-go` or
/// `go-channel`): a process of its own, one warm-up run then one timed run, started
/// between two of ours so that both see the same load. Nanoseconds per add.
fn client_go(binary: &std::path::Path, count: usize, workload: &str, implementation: &str) -> Result<f64, String> {
    let output = std::process::Command::new(binary)
        .env("WQ_BENCH_RUNS", "1")
        .env("WQ_BENCH_ONLY", format!("{workload}/{implementation}"))
        .env("WQ_BENCH_W1_KEYS", count.to_string())
        .env(
            "WQ_BENCH_W1_ADDS_PER_PRODUCER",
            (count * W1_ADDS_PER_KEY / W1_PRODUCERS).to_string(),
        )
        .env("WQ_BENCH_W2_KEYS", count.to_string())
        .output()
        .map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).trim().to_owned());
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|line| {
            let per_second: f64 = line
                .split_whitespace()
                .find_map(|pair| pair.strip_prefix("adds_per_s="))?
                .parse()
                .ok()?;
            Some(1e9 / per_second)
        })
        .ok_or_else(|| "no adds_per_s line".to_owned())
}

/// The Go anchors' figures at one size, in ns per add by workload (`W1`, `W2`) and
/// implementation (`client-go`, `go-channel`): the median of their runs.
#[derive(Default)]
struct GoFigures(Vec<(String, String, f64)>);

impl GoFigures {
    fn get(&self, workload: &str, implementation: &str) -> Option<f64> {
        self.0
            .iter()
            .find(|(w, i, _)| w == workload && i == implementation)
            .map(|(_, _, ns)| *ns)
    }
}

/// Go's runs at one size, gathered run by run, alternating with ours.
struct GoRuns<'a> {
    binary: Option<&'a std::path::Path>,
    count: usize,
    runs: Vec<(String, String, Vec<f64>)>,
}

impl GoRuns<'_> {
    /// One run of `workload` on `implementation`, kept unless it fails (then said once).
    fn run(&mut self, workload: &str, implementation: &str) {
        let Some(binary) = self.binary else {
            return;
        };
        match client_go(binary, self.count, workload, implementation) {
            Ok(ns) => match self
                .runs
                .iter_mut()
                .find(|(w, i, _)| w == workload && i == implementation)
            {
                Some((_, _, runs)) => runs.push(ns),
                None => self
                    .runs
                    .push((workload.to_owned(), implementation.to_owned(), vec![ns])),
            },
            Err(why) => {
                println!("client-go workqueue anchor failed at {}: {why}", self.count);
                self.binary = None;
            }
        }
    }

    fn figures(self) -> Option<GoFigures> {
        self.binary?;
        Some(GoFigures(
            self.runs
                .into_iter()
                .map(|(workload, implementation, runs)| (workload, implementation, median(runs)))
                .collect(),
        ))
    }
}

/// The `ratio bench=scale kind=workqueue` line of each workload at `count` keys: our
/// time per add over client-go's from the same run (≤ 1.0 is as fast or faster), with
/// W1's set-alone floor beside it.
fn print_ratios(count: usize, figures: &GoFigures, curves: &Curves, set_alone: f64) {
    for workload in ["W1", "W2"] {
        let ours = curves.last(&format!("workqueue-{workload}-wheelhouse"));
        if let (Some(ours), Some(theirs)) = (ours, figures.get(workload, "client-go")) {
            let floor = if workload == "W1" {
                format!(" set_alone_ns_per_add={set_alone:.0}")
            } else {
                String::new()
            };
            println!(
                "ratio bench=scale kind=workqueue workload={workload} size={count} wheelhouse_ns_per_add={ours:.0} client_go_ns_per_add={theirs:.0}{floor} wheelhouse/client-go={:.2}",
                ours / theirs
            );
        }
    }
}

pub fn workqueue(runtime: &tokio::runtime::Runtime, sizes: &[usize]) {
    let mut curves = Curves::default();
    let go = crate::go_build("main.go", "workqueue")
        .map_err(|why| println!("client-go workqueue anchor skipped: {why}"))
        .ok();
    for &count in sizes {
        curves.at(count);
        let mut go_runs = GoRuns {
            binary: go.as_deref(),
            count,
            runs: Vec::new(),
        };
        let nanos = |elapsed: Duration, operations: usize| elapsed.as_secs_f64() * 1e9 / as_f64(operations);
        let (mut w1_ours, mut w1_anchor, mut w2_ours, mut w2_anchor) = (vec![], vec![], vec![], vec![]);
        let (mut w1_minimal, mut w1_set) = (vec![], vec![]);
        let shared = Arc::new(queue_keys(count));
        // A warm-up of each of ours, untimed: the first run of a size pays for the
        // allocator's growth and the runtime's idle threads waking, which Go's warm-up
        // run leaves out of its figures too.
        runtime.block_on(queues::wheelhouse(producer_keys(&shared), YIELD_EVERY));
        runtime.block_on(queues::wheelhouse(single(queue_keys(count)), YIELD_EVERY));
        for _ in 0..QUEUE_RUNS {
            w1_ours.push(nanos(
                runtime.block_on(queues::wheelhouse(producer_keys(&shared), YIELD_EVERY)),
                count * W1_ADDS_PER_KEY,
            ));
            go_runs.run("W1", "client-go");
            w1_anchor.push(nanos(
                runtime.block_on(queues::flume_channel(producer_keys(&shared), YIELD_EVERY)),
                count * W1_ADDS_PER_KEY,
            ));
            go_runs.run("W1", "go-channel");
            w1_minimal.push(nanos(
                runtime.block_on(dedup_floor::minimal_queue(producer_keys(&shared), YIELD_EVERY)),
                count * W1_ADDS_PER_KEY,
            ));
            w1_set.push(nanos(
                dedup_floor::set_alone(producer_keys(&shared), YIELD_EVERY),
                count * W1_ADDS_PER_KEY,
            ));
            w2_ours.push(nanos(
                runtime.block_on(queues::wheelhouse(single(queue_keys(count)), YIELD_EVERY)),
                count,
            ));
            go_runs.run("W2", "client-go");
            w2_anchor.push(nanos(
                runtime.block_on(queues::flume_channel(single(queue_keys(count)), YIELD_EVERY)),
                count,
            ));
            go_runs.run("W2", "go-channel");
        }
        let go_figures = go_runs.figures();
        let w1_ours_again = w1_ours.clone();
        for (workload, ours, anchor) in [("W1", w1_ours, w1_anchor), ("W2", w2_ours, w2_anchor)] {
            let (ours, anchor) = (median(ours), median(anchor));
            let go = go_figures.as_ref().map_or_else(String::new, |figures| {
                let (queue, channel) = (figures.get(workload, "client-go"), figures.get(workload, "go-channel"));
                if let (Some(queue), Some(channel)) = (queue, channel) {
                    curves.record(&format!("workqueue-{workload}-client-go"), queue);
                    curves.record(&format!("workqueue-{workload}-go-channel"), channel);
                }
                let shown = |figure: Option<f64>| figure.map_or_else(|| "?".to_owned(), |ns| format!("{ns:.0}"));
                format!(
                    " | client-go ns_per_object={} | go-channel ns_per_object={} | ratio wheelhouse/client-go={}",
                    shown(queue),
                    shown(channel),
                    queue.map_or_else(|| "?".to_owned(), |queue| format!("{:.2}", ours / queue))
                )
            });
            println!(
                "scale series=workqueue-{workload} size={count} wheelhouse ns_per_object={ours:.0} | flume ns_per_object={anchor:.0} | ratio={:.2}{go}",
                ours / anchor
            );
            curves.record(&format!("workqueue-{workload}-wheelhouse"), ours);
            curves.record(&format!("workqueue-{workload}-flume"), anchor);
        }
        let (ours, minimal, set) = (median(w1_ours_again), median(w1_minimal), median(w1_set));
        println!(
            "scale series=workqueue-W1-floor size={count} wheelhouse ns_per_object={ours:.0} | minimal-dedup-queue ns_per_object={minimal:.0} | set-alone ns_per_object={set:.0} | ratio wheelhouse/minimal={:.2} wheelhouse/set-alone={:.2}",
            ours / minimal,
            ours / set
        );
        curves.record("workqueue-W1-minimal-dedup-queue", minimal);
        curves.record("workqueue-W1-set-alone", set);
        if let Some(figures) = &go_figures {
            print_ratios(count, figures, &curves, set);
        }
    }
    curves.summarize();
}
