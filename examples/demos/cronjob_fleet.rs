//! The `CronJob` controller over a fleet: the walkthrough of `examples/src/cronjob.rs`
//! run on embedded API servers. A hub runs the manager; three member clusters join
//! (each an embedded server whose simulated kubelet completes Jobs), each with a
//! `CronJob` `@every 1s`; the fleet controller, the single-cluster reconciler unchanged,
//! starts their Jobs in every member. A fourth member joins while it runs and the
//! second leaves; each is printed as it joins and leaves, and each member's Jobs as
//! they are started.
//!
//! `cargo run --example cronjob-fleet`

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use k8s_openapi::api::batch::v1::{CronJob, Job};
use kube::api::{Api, ListParams, PostParams};
use wheelhouse::controller::FleetView;
use wheelhouse::manager::Manager;
use wheelhouse::manager::fleet::InProcess;
use wheelhouse_envtest::{ServerOptions, TestEnv, WorkloadSimulation};
use wheelhouse_examples::cronjob::{self, CRONJOB_LABEL};

type Failure = Box<dyn std::error::Error + Send + Sync>;

#[tokio::main]
async fn main() -> Result<(), Failure> {
    let hub = TestEnv::embedded().await?;
    let manager = Manager::builder(hub.client())
        .metrics_address(None)
        .health_probe_address(None)
        .build()?;
    let fleet = InProcess::new();
    // Step 2 of the walkthrough: the single-cluster builder and reconciler, `.fleet(...)`.
    let controller = cronjob::fleet_controller(manager.cache(), fleet.clone());
    let view = controller.view();
    manager.add(controller)?;
    let shutdown = manager.shutdown_token();
    let running = tokio::spawn(manager.run());

    let mut members: BTreeMap<String, TestEnv> = BTreeMap::new();
    for index in 1..=3 {
        let name = format!("member-{index}");
        members.insert(name.clone(), join(&fleet, &name).await?);
    }
    view.wait_for(|names| names.len() == 3).await;
    print_members(&view);
    for (name, env) in &members {
        jobs_started(name, env, 2).await?;
    }

    let fourth = join(&fleet, "member-4").await?;
    view.wait_for(|names| names.len() == 4).await;
    print_members(&view);
    jobs_started("member-4", &fourth, 2).await?;
    members.insert("member-4".into(), fourth);

    fleet.leave("member-2");
    println!("left: member-2");
    view.wait_for(|names| !names.iter().any(|name| &**name == "member-2"))
        .await;
    print_members(&view);
    for (name, env) in members.iter().filter(|(name, _)| *name != "member-2") {
        jobs_started(name, env, 3).await?;
    }

    shutdown.cancel();
    running.await??;
    for (_, env) in members {
        env.stop().await;
    }
    hub.stop().await;
    Ok(())
}

/// Starts a member cluster with a `CronJob` `@every 1s`, and joins it to the fleet.
async fn join(fleet: &InProcess, name: &str) -> Result<TestEnv, Failure> {
    let options = ServerOptions {
        workloads: Some(WorkloadSimulation::pods_start_after(Duration::from_millis(100))),
        ..ServerOptions::default()
    };
    let env = TestEnv::embedded_with(options).await?;
    let cronjobs: Api<CronJob> = Api::namespaced(env.client(), env.namespace());
    cronjobs
        .create(&PostParams::default(), &cronjob::cronjob("tick", "@every 1s"))
        .await?;
    fleet.join(name, env.client());
    println!("joined: {name}");
    Ok(env)
}

fn print_members(view: &FleetView) {
    let names: Vec<String> = view.names().iter().map(ToString::to_string).collect();
    println!("engaged: {}", names.join(", "));
}

/// Waits until the `CronJob` `tick` of `member` has started at least `count` Jobs
/// (finished ones past the history limit are deleted, so the names seen are counted).
async fn jobs_started(name: &str, env: &TestEnv, count: usize) -> Result<(), Failure> {
    let jobs: Api<Job> = Api::namespaced(env.client(), env.namespace());
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    let mut seen = BTreeSet::new();
    loop {
        let listed = jobs
            .list(&ListParams::default().labels(&format!("{CRONJOB_LABEL}=tick")))
            .await?;
        seen.extend(listed.items.iter().filter_map(|job| job.metadata.name.clone()));
        if seen.len() >= count {
            let newest = seen.iter().next_back().cloned().unwrap_or_default();
            println!(
                "  {name}: {} Jobs started, newest {newest}, {} kept",
                seen.len(),
                listed.items.len()
            );
            return Ok(());
        }
        if tokio::time::Instant::now() > deadline {
            return Err(format!("{name}: fewer than {count} Jobs after 30 s").into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
