//! The WebApp operator sharded across replicas: each replica holds its own Lease in a
//! ring, and the WebApps are split among the live members by the hash of their uid,
//! so every replica works instead of one.
//!
//! `cargo run --example sharded` starts an embedded API server with KEP-5866's sharded
//! list and watch on (so each replica's informers receive only its WebApps), creates
//! 300 WebApps, and starts three replicas. After each change it prints every
//! replica's share: one leaves gracefully (the others take its slots at once), one is
//! killed (the others take over once its Lease expires), a new one joins. Throughout,
//! every reconcile is recorded, and the demo checks that no WebApp was ever reconciled
//! by two replicas at once. `--webapps N` changes the count.

use std::time::Duration;

use clap::Parser;
use kube::CustomResourceExt;
use tokio::time::Instant;
use wheelhouse::manager::{OnLeadershipLost, Sharding};
use wheelhouse_envtest::{ServerOptions, TestEnv};
use wheelhouse_examples::replicas::{Replica, Timeline, balanced, client_of, create_many_webapps, short_ring};
use wheelhouse_examples::webapp::WebApp;

#[derive(Parser)]
#[command(about = "Three replicas of the WebApp operator sharing its WebApps in a ring")]
struct Args {
    /// How many WebApps to create.
    #[arg(long, default_value_t = 300)]
    webapps: usize,
}

type Failure = Box<dyn std::error::Error + Send + Sync>;

/// Waits until `check` holds, for at most a minute.
async fn until(what: &str, mut check: impl FnMut() -> bool) -> Result<Duration, Failure> {
    let started = Instant::now();
    while !check() {
        if started.elapsed() > Duration::from_mins(1) {
            return Err(format!("timed out waiting for {what}").into());
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    Ok(started.elapsed())
}

/// Waits until the replicas' caches hold `total` WebApps between them (the lists of
/// the slots they gained have arrived).
async fn cached(replicas: &[&Replica], total: usize) -> Result<Duration, Failure> {
    let total = i64::try_from(total)?;
    until("the caches to fill", || {
        replicas.iter().map(|r| r.cached()).sum::<i64>() == total
    })
    .await
}

fn print_shares(title: &str, replicas: &[&Replica], timeline: &Timeline) {
    println!("\n{title}");
    for replica in replicas {
        let serving = replica.serving();
        println!(
            "  replica-{}: {:>2}/64 slots ({:>3.0}% of the hash space), {:>3} WebApps in its cache, {:>4} reconciles so far",
            replica.index,
            serving.len(),
            serving.fraction() * 100.0,
            replica.cached(),
            timeline.count(replica.index),
        );
    }
}

#[tokio::main]
async fn main() -> Result<(), Failure> {
    let args = Args::parse();
    let options = ServerOptions {
        sharded_list_and_watch: true,
        ..ServerOptions::default()
    };
    let env = TestEnv::embedded_with(options).await?;
    env.install_crd(&WebApp::crd()).await?;
    create_many_webapps(&env.client(), env.namespace(), args.webapps).await?;
    println!(
        "{} WebApps on an embedded API server that filters watches by shardSelector",
        args.webapps
    );

    let timeline = Timeline::default();
    let ring = short_ring(Sharding::new("webapp-operator")).on_lost(OnLeadershipLost::Standby);
    let start = |index: usize| {
        Replica::webapp(
            &client_of(&env, index),
            env.namespace(),
            index,
            ring.clone(),
            &timeline,
            None,
        )
    };
    let first = start(0)?;
    let mut second = start(1)?;
    let mut third = start(2)?;
    let began = Instant::now();
    let formed = until("three replicas to split the slots", || {
        balanced(&[&first, &second, &third])
    })
    .await?;
    until("every WebApp to be reconciled", || {
        timeline.objects_since(began) >= args.webapps
    })
    .await?;
    cached(&[&first, &second, &third], args.webapps).await?;
    print_shares(
        &format!(
            "three replicas split the slots in {} ms and reconciled every WebApp:",
            formed.as_millis()
        ),
        &[&first, &second, &third],
        &timeline,
    );

    let stopping = second.stop();
    let (stopped, took) = futures::join!(stopping, until("two replicas", || balanced(&[&first, &third])));
    stopped?;
    cached(&[&first, &third], args.webapps).await?;
    print_shares(
        &format!(
            "replica-1 left gracefully; the other two took its slots in {} ms:",
            took?.as_millis()
        ),
        &[&first, &third],
        &timeline,
    );

    third.kill().await;
    let took = until("one replica", || balanced(&[&first])).await?;
    cached(&[&first], args.webapps).await?;
    print_shares(
        &format!(
            "replica-2 was killed; replica-0 took its slots {} ms later, once its 2 s Lease expired:",
            took.as_millis()
        ),
        &[&first],
        &timeline,
    );

    let fourth = start(3)?;
    let took = until("two replicas again", || balanced(&[&first, &fourth])).await?;
    cached(&[&first, &fourth], args.webapps).await?;
    print_shares(
        &format!(
            "replica-3 joined; the ring was balanced again in {} ms:",
            took.as_millis()
        ),
        &[&first, &fourth],
        &timeline,
    );

    match timeline.overlap_on_one_object() {
        None => println!(
            "\n{} reconciles recorded; no WebApp was ever reconciled by two replicas at once.",
            timeline.snapshot().len()
        ),
        Some((a, b)) => return Err(format!("{} was reconciled by two replicas at once: {a:?}, {b:?}", a.what).into()),
    }
    drop((first, fourth));
    env.stop().await;
    Ok(())
}
