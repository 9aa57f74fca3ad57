//! envtest-differential: a differential fuzzer for the embedded API server. It starts
//! from a valid object of every kind (the seeds), mutates one thing at a time, sends
//! the same requests to the embedded server in this process and to a real
//! kube-apiserver (and optionally more), and reports every answer that differs in
//! status code, reason, causes, message, warnings or stored object, grouped into
//! classes, with agreement rates overall, per kind, per operation and per mutation
//! family. See the README beside this crate for how to run it.
//!
//! The modules, from the bottom up: what goes on the wire (`wire`), determinism
//! (`prng`), the servers (`loopback`, `target`), what they serve (`discovery`,
//! `openapi`), seeds and kinds (`seeds`, `kinds`), mutations (`mutate`), cases
//! (`plan`), running and comparing them (`normalise`, `compare`, `runner`), and the
//! report (`report`).

mod compare;
mod discovery;
mod kinds;
mod loopback;
mod mutate;
mod normalise;
mod openapi;
mod outcome;
mod plan;
mod prng;
mod report;
mod runner;
mod seeds;
mod target;
mod wire;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clap::{Parser, Subcommand};
use serde_json::Value;

use crate::mutate::Family;
use crate::outcome::percent;
use crate::plan::Operation;
use crate::prng::stable_hash;
use crate::report::{Meta, Report, TargetInfo};
use crate::runner::Runner;
use crate::target::Target;

/// The same mutated requests to the embedded API server and to real kube-apiservers,
/// and a report of every answer that differs.
#[derive(Debug, Parser)]
#[command(name = "envtest-differential", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Generate the cases, run them on every server, write the report.
    Run(RunArgs),
    /// Compare two JSON reports of the same cases (before and after a change).
    Compare(CompareArgs),
}

#[derive(Debug, clap::Args)]
struct RunArgs {
    /// The reference server's kubeconfig (a real kube-apiserver on a loopback
    /// address; its current context is used).
    #[arg(long)]
    kubeconfig: PathBuf,
    /// More servers to compare with the reference (kubeconfigs, loopback only).
    #[arg(long = "also")]
    also: Vec<PathBuf>,
    /// The folder of seed YAML files.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/seeds"))]
    seeds: PathBuf,
    /// The sampling seed: the same seed, options and servers give the same cases.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// At most this many cases, shared evenly across kinds (all when absent).
    #[arg(long)]
    budget: Option<usize>,
    /// Stop starting cases after this many minutes (the report covers those run).
    #[arg(long)]
    minutes: Option<u64>,
    /// Only these kinds (kind names or report labels, comma-separated).
    #[arg(long, value_delimiter = ',')]
    kinds: Vec<String>,
    /// Only these operations.
    #[arg(long, value_delimiter = ',', value_enum)]
    operations: Vec<Operation>,
    /// Only these mutation families.
    #[arg(long, value_delimiter = ',', value_enum)]
    families: Vec<Family>,
    /// Where the report goes: `<out>.md` and `<out>.json`.
    #[arg(long, default_value = "differential-report")]
    out: PathBuf,
    /// List the selected cases and stop, sending nothing but discovery.
    #[arg(long)]
    list: bool,
}

#[derive(Debug, clap::Args)]
struct CompareArgs {
    /// The earlier JSON report.
    before: PathBuf,
    /// The later JSON report.
    after: PathBuf,
    /// The server whose agreement is compared.
    #[arg(long, default_value = "embedded")]
    target: String,
}

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run(args) => run(args).await,
        Command::Compare(args) => compare_reports(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("envtest-differential: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn run(args: RunArgs) -> Result<(), String> {
    // A panic of the embedded server is caught and reported as an answer; one line
    // each on stderr is enough.
    std::panic::set_hook(Box::new(|info| eprintln!("panic: {info}")));
    let mut targets = vec![
        Target::from_kubeconfig(&args.kubeconfig)
            .await
            .map_err(|e| e.to_string())?,
        Target::embedded().await.map_err(|e| e.to_string())?,
    ];
    for kubeconfig in &args.also {
        let mut target = Target::from_kubeconfig(kubeconfig).await.map_err(|e| e.to_string())?;
        while targets.iter().any(|t| t.name == target.name) {
            target.name.push('\'');
        }
        targets.push(target);
    }
    for target in &targets {
        eprintln!("server {}: {} at {}", target.name, target.version, target.address);
    }
    let started = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    let token = format!(
        "{:06x}",
        stable_hash(&format!("{}-{}", started.as_nanos(), std::process::id())) & 0xff_ffff
    );
    let seeds = seeds::load(&args.seeds).map_err(|e| e.to_string())?;
    let seeds: Vec<_> = seeds
        .into_iter()
        .filter(|seed| {
            let labels = [
                seed.kind.clone(),
                format!("{} ({})", seed.kind, seed.api_version),
                format!("{} ({})", seed.kind, seed.variant.as_deref().unwrap_or("")),
            ];
            args.kinds.is_empty()
                || args
                    .kinds
                    .iter()
                    .any(|k| labels.iter().any(|l| l.eq_ignore_ascii_case(k)))
        })
        .collect();
    let crds = seeds::example_crds();
    let custom_groups: BTreeSet<String> = crds
        .iter()
        .filter_map(|crd| crd.pointer("/spec/group").and_then(Value::as_str).map(str::to_owned))
        .collect();
    let runner = Runner::prepare(&targets, &token, &crds).await?;
    let result = run_cases(&args, &targets, &runner, seeds, &custom_groups, started.as_secs()).await;
    runner.finish().await;
    result
}

async fn run_cases(
    args: &RunArgs,
    targets: &[Target],
    runner: &Runner<'_>,
    seeds: Vec<seeds::Seed>,
    custom_groups: &BTreeSet<String>,
    started: u64,
) -> Result<(), String> {
    let (kinds, skipped) = kinds::build(&targets[0], seeds, custom_groups).await;
    for reason in &skipped {
        eprintln!("left out: {reason}");
    }
    let all = plan::generate(&kinds);
    let generated = all.len();
    let filtered: Vec<_> = all
        .into_iter()
        .filter(|case| args.operations.is_empty() || args.operations.contains(&case.operation))
        .filter(|case| args.families.is_empty() || args.families.contains(&case.family))
        .collect();
    let cases = plan::select(filtered, args.budget, args.seed);
    eprintln!(
        "{} kinds, {generated} cases generated, {} selected",
        kinds.len(),
        cases.len()
    );
    if args.list {
        for case in &cases {
            println!(
                "{}\t{}\t{}\t{}\t{}\t{}",
                case.id,
                case.kind,
                case.operation.name(),
                case.family.name(),
                case.field,
                case.description
            );
        }
        return Ok(());
    }
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            eprintln!("interrupted: finishing the current case, then cleaning up");
            flag.store(true, Ordering::Relaxed);
        }
    });
    let deadline = args.minutes.map(|m| Instant::now() + Duration::from_secs(m * 60));
    let clock = Instant::now();
    let outcomes = runner.run(&cases, deadline, &stop).await;
    let names: Vec<String> = targets.iter().map(|t| t.name.clone()).collect();
    let mut per_kind = std::collections::BTreeMap::new();
    for outcome in &outcomes {
        *per_kind.entry(outcome.case.kind.clone()).or_insert(0) += 1;
    }
    let report = Report {
        meta: Meta {
            tool: concat!("envtest-differential ", env!("CARGO_PKG_VERSION")).to_owned(),
            command: std::env::args().collect::<Vec<_>>().join(" "),
            started,
            seconds: clock.elapsed().as_secs(),
            seed: args.seed,
            budget: args.budget,
            generated,
            selected: cases.len(),
            targets: targets
                .iter()
                .map(|t| TargetInfo {
                    name: t.name.clone(),
                    version: t.version.clone(),
                    address: t.address.clone(),
                })
                .collect(),
            kinds: per_kind,
            skipped,
        },
        summaries: report::summarise(&names, &outcomes),
        outcomes,
    };
    write_report(&report, &args.out)?;
    for summary in &report.summaries {
        println!(
            "{}: {} of {} cases agree with {} ({:.1}%), same status codes in {:.1}%, {} classes",
            summary.target,
            summary.overall.agreeing,
            summary.overall.cases,
            names[0],
            percent(summary.overall.agreeing, summary.overall.cases),
            percent(summary.overall.same_codes, summary.overall.cases),
            summary.classes.len()
        );
    }
    Ok(())
}

fn write_report(report: &Report, out: &std::path::Path) -> Result<(), String> {
    let with = |extension: &str| {
        let mut path = out.as_os_str().to_owned();
        path.push(extension);
        PathBuf::from(path)
    };
    let json = serde_json::to_string(report).map_err(|e| format!("the report does not serialise: {e}"))?;
    let (json_path, markdown_path) = (with(".json"), with(".md"));
    std::fs::write(&json_path, json).map_err(|e| format!("cannot write {}: {e}", json_path.display()))?;
    std::fs::write(&markdown_path, report::markdown::render(report))
        .map_err(|e| format!("cannot write {}: {e}", markdown_path.display()))?;
    eprintln!("report: {} and {}", markdown_path.display(), json_path.display());
    Ok(())
}

fn compare_reports(args: &CompareArgs) -> Result<(), String> {
    let read = |path: &PathBuf| -> Result<Report, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{} is not a report: {e}", path.display()))
    };
    let (before, after) = (read(&args.before)?, read(&args.after)?);
    print!("{}", report::before_after::render(&before, &after, &args.target));
    Ok(())
}
