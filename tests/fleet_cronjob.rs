//! The `CronJob` walkthrough (`examples/src/cronjob.rs`) holds: the single-cluster
//! reconciler, made a fleet controller with `.fleet(provider)` alone, starts each
//! member's Jobs on schedule (owned by their `CronJob`, recorded in its status), and a
//! member that leaves gets no more. The first member is `TestEnv::start()`'s, so
//! `USE_EXISTING_CLUSTER=true` makes it a real API server (where no kubelet completes
//! the Jobs: they stay active, which the status then lists).

use std::collections::BTreeSet;
use std::time::Duration;

use k8s_openapi::api::batch::v1::{CronJob, Job};
use kube::api::{Api, ListParams, PostParams};
use wheelhouse::manager::Manager;
use wheelhouse::manager::fleet::InProcess;
use wheelhouse_envtest::{ServerOptions, TestEnv, WorkloadSimulation};
use wheelhouse_examples::cronjob::{self, CRONJOB_LABEL};

async fn member(first: bool) -> TestEnv {
    let env = if first {
        TestEnv::start().await
    } else {
        let options = ServerOptions {
            workloads: Some(WorkloadSimulation::pods_start_after(Duration::from_millis(100))),
            ..ServerOptions::default()
        };
        TestEnv::embedded_with(options).await
    };
    let env = env.expect("a member starts");
    let cronjobs: Api<CronJob> = Api::namespaced(env.client(), env.namespace());
    cronjobs
        .create(&PostParams::default(), &cronjob::cronjob("tick", "@every 1s"))
        .await
        .expect("the CronJob is created");
    env
}

/// The names of the Jobs the `CronJob` `tick` of `env` has now.
async fn jobs(env: &TestEnv) -> Vec<Job> {
    let jobs: Api<Job> = Api::namespaced(env.client(), env.namespace());
    jobs.list(&ListParams::default().labels(&format!("{CRONJOB_LABEL}=tick")))
        .await
        .expect("the Jobs list")
        .items
}

/// The scheduled second a Job of `tick` stands for (`tick-<unix seconds>`).
fn second_of(job: &Job) -> Option<i64> {
    job.metadata.name.as_deref()?.strip_prefix("tick-")?.parse().ok()
}

/// Waits until `env`'s `CronJob` has started `count` Jobs, and checks what it wrote.
async fn runs(env: &TestEnv, count: usize) {
    let mut seen = BTreeSet::new();
    let deadline = tokio::time::Instant::now() + Duration::from_mins(1);
    // Finished Jobs past the history limit are deleted: count every one seen.
    while seen.len() < count {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{count} Jobs in {} within a minute: {seen:?}",
            env.namespace()
        );
        seen.extend(jobs(env).await.iter().filter_map(second_of));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let cronjobs: Api<CronJob> = Api::namespaced(env.client(), env.namespace());
    let tick = cronjobs.get("tick").await.expect("the CronJob");
    let status = tick.status.expect("a status");
    let last = status.last_schedule_time.expect("the last run recorded");
    // Its Job was created before the status said so, and is the newest: never deleted.
    seen.extend(jobs(env).await.iter().filter_map(second_of));
    assert!(
        seen.contains(&last.0.as_second()),
        "the last run is one started: {last:?} in {seen:?}"
    );
    for job in jobs(env).await {
        let owner = job
            .metadata
            .owner_references
            .iter()
            .flatten()
            .find(|owner| owner.controller == Some(true));
        assert_eq!(
            owner.map(|o| (o.kind.as_str(), o.uid.as_str())),
            Some(("CronJob", tick.metadata.uid.as_deref().unwrap_or_default())),
            "{job:?}"
        );
    }
}

/// Whether the server serves `batch/v1` `CronJobs` (GA in 1.21; 1.19 has only v1beta1).
async fn serves_batch_v1_cronjobs(client: &kube::Client) -> bool {
    client
        .list_api_group_resources("batch/v1")
        .await
        .is_ok_and(|list| list.resources.iter().any(|resource| resource.name == "cronjobs"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fleet_cronjob_walkthrough_runs_every_members_jobs_and_stops_for_one_that_left() {
    let probe = TestEnv::start().await.expect("the first member's server");
    let served = serves_batch_v1_cronjobs(&probe.client()).await;
    probe.stop().await;
    if !served {
        eprintln!(
            "skipped: this server predates batch/v1 CronJobs (GA in Kubernetes 1.21), which the walkthrough's controller reconciles"
        );
        return;
    }
    let hub = TestEnv::embedded().await.expect("the hub starts");
    let manager = Manager::builder(hub.client())
        .metrics_address(None)
        .health_probe_address(None)
        .build()
        .expect("a manager");
    let fleet = InProcess::new();
    let controller = cronjob::fleet_controller(manager.cache(), fleet.clone());
    let view = controller.view();
    manager.add(controller).expect("added");
    let shutdown = manager.shutdown_token();
    let running = tokio::spawn(manager.run());

    let members = [member(true).await, member(false).await, member(false).await];
    for (index, env) in members.iter().enumerate() {
        fleet.join(format!("member-{index}"), env.client());
    }
    view.wait_for(|names| names.len() == members.len()).await;
    for env in &members {
        runs(env, 3).await;
    }

    // A member that leaves is disengaged: no Job is started there after that.
    fleet.leave("member-2");
    view.wait_for(|names| names.len() == 2).await;
    let left = &members[2];
    let latest = jobs(left).await.iter().filter_map(second_of).max();
    for env in &members[..2] {
        runs(env, 5).await;
    }
    let after = jobs(left).await.iter().filter_map(second_of).max();
    assert_eq!(after, latest, "no Job started in a member after it left");

    shutdown.cancel();
    running.await.expect("no panic").expect("a clean stop");
    for env in members {
        env.stop().await;
    }
    hub.stop().await;
}
