//! Three replicas of the WebApp operator (each its own Manager, identity and cache)
//! against one embedded API server, electing a leader on a Lease with client-go's
//! default timings (15 s lease, 10 s renew deadline, 2 s retry).
//!
//! `cargo run --example ha` prints who leads, kills the leader's task without a release
//! (a crash: the others must wait for its lease to expire) and shows the takeover
//! time, then stops the next leader gracefully (it releases the lease; a standby
//! watching the Lease takes it at once) and shows the handover time. Throughout, every
//! WebApp is reconciled by exactly one replica at a time: the example checks every
//! recorded reconcile and says so. `--fast` uses 2 s / 1.5 s / 0.4 s timings.

use std::time::{Duration, SystemTime};

use clap::Parser;
use k8s_openapi::api::coordination::v1::Lease;
use kube::CustomResourceExt;
use kube::api::Api;
use replicas::{Replica, Timeline, leader};
use webapp::WebApp;
use wheelhouse::manager::LeaderElection;
use wheelhouse_envtest::{ServerOptions, TestEnv, WorkloadSimulation};
use wheelhouse_examples::{replicas, webapp};

const LEASE: &str = "webapp-operator.example.com";

#[derive(Parser)]
#[command(about = "Leader election among three replicas of the WebApp operator")]
struct Args {
    /// Short timings (2 s lease, 1.5 s renew deadline, 0.4 s retry) instead of client-go's.
    #[arg(long)]
    fast: bool,
}

type Failure = Box<dyn std::error::Error + Send + Sync>;

#[tokio::main]
async fn main() -> Result<(), Failure> {
    let args = Args::parse();
    let election = || {
        let election = LeaderElection::new(LEASE);
        if args.fast {
            election.timings(
                Duration::from_secs(2),
                Duration::from_millis(1500),
                Duration::from_millis(400),
            )
        } else {
            election
        }
    };
    let options = ServerOptions {
        workloads: Some(WorkloadSimulation::pods_start_after(Duration::from_millis(300))),
        ..ServerOptions::default()
    };
    let env = TestEnv::embedded_with(options).await?;
    env.install_crd(&WebApp::crd()).await?;
    let (client, namespace) = (env.client(), env.namespace().to_owned());
    replicas::create_webapps(&client, &namespace, 2).await?;
    println!("3 WebApps in namespace {namespace}; starting 3 replicas of the operator");

    let timeline = Timeline::default();
    // Each WebApp comes back every 200 ms, so the leader is always at work.
    let requeue = Some(Duration::from_millis(200));
    let mut replicas = (0..3)
        .map(|i| Replica::webapp(&client, &namespace, i, election(), &timeline, requeue))
        .collect::<Result<Vec<_>, _>>()?;
    let first = wait_for_leader(&replicas, None).await?;
    println!("replica-{first} leads ({})", holder(&client, &namespace).await?);

    println!("killing replica-{first} without a release (as a crash would)");
    let last_renew = renew_time(&client, &namespace).await?;
    replicas[first].kill().await;
    let second = wait_for_leader(&replicas, Some(first)).await?;
    let takeover = wait_for_first_reconcile(&timeline, last_renew, second).await?;
    println!(
        "replica-{second} took over {:.1} s after the dead leader's last renew (its first reconcile)",
        takeover.as_secs_f64()
    );

    println!("stopping replica-{second} gracefully (it releases the lease)");
    replicas[second].stop().await?;
    let released = renew_time(&client, &namespace).await?;
    let third = wait_for_leader(&replicas, Some(second)).await?;
    let handover = wait_for_first_reconcile(&timeline, released, third).await?;
    println!(
        "replica-{third} took over {:.0} ms after the release (its first reconcile)",
        handover.as_secs_f64() * 1000.0
    );

    let reconciles = timeline.snapshot().len();
    match timeline.overlap() {
        None => println!("{reconciles} reconciles recorded; never two replicas at once"),
        Some((a, b)) => return Err(format!("replicas overlapped: {a:?} and {b:?}").into()),
    }
    replicas[third].stop().await?;
    env.stop().await;
    Ok(())
}

/// Waits until a replica other than `not` leads.
async fn wait_for_leader(replicas: &[Replica], not: Option<usize>) -> Result<usize, Failure> {
    for _ in 0..6000 {
        if let Some(index) = leader(replicas).filter(|&i| Some(i) != not) {
            return Ok(index);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    Err("no replica took the lease within 60 s".into())
}

/// How long after `since` replica `replica` started its first reconcile.
async fn wait_for_first_reconcile(timeline: &Timeline, since: SystemTime, replica: usize) -> Result<Duration, Failure> {
    for _ in 0..6000 {
        if let Some(first) = timeline.first_by(replica, since) {
            return Ok(first.started_at.duration_since(since)?);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    Err(format!("replica-{replica} did not reconcile within 60 s").into())
}

async fn lease(client: &kube::Client, namespace: &str) -> Result<Lease, Failure> {
    Ok(Api::<Lease>::namespaced(client.clone(), namespace).get(LEASE).await?)
}

async fn holder(client: &kube::Client, namespace: &str) -> Result<String, Failure> {
    let spec = lease(client, namespace).await?.spec.unwrap_or_default();
    Ok(format!(
        "holder {}, {} transitions",
        spec.holder_identity.unwrap_or_default(),
        spec.lease_transitions.unwrap_or(0)
    ))
}

/// The lease's renewTime: the last renew, or the release.
async fn renew_time(client: &kube::Client, namespace: &str) -> Result<SystemTime, Failure> {
    let spec = lease(client, namespace).await?.spec.unwrap_or_default();
    let renewed = spec.renew_time.ok_or("the lease has no renewTime")?;
    Ok(SystemTime::from(renewed.0))
}
