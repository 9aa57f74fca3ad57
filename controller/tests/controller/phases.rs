//! The phase scheduler's own rules, on a small `Task` resource: declarations it
//! refuses to build, a transition the phase does not allow (recorded, not retried),
//! a failing worker (recorded, retried), and its metrics. The operators built on it
//! are tested end to end in the workspace's `tests/`.

#![expect(
    clippy::float_cmp,
    reason = "the metrics compared are counters of a few events, exact in f64"
)]

use kube::api::{Api, ListParams, PostParams};
use kube::{CustomResource, CustomResourceExt};
use prometheus::Registry;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use wheelhouse_cache::Cache;
use wheelhouse_controller::phase::{
    DeclarationError, Outcome, Phase, PhaseMetrics, PhaseScheduler, PhaseStatus, Phases, Worker,
};
use wheelhouse_controller::{Context, Controller, Error};
use wheelhouse_envtest::TestEnv;

use crate::common::{Calls, Running, controller, eventually, key, metric, start};

/// A unit of work, moved along by scripted workers.
#[derive(CustomResource, Deserialize, Serialize, Clone, Debug, PartialEq, JsonSchema)]
#[kube(
    group = "test.wheelhouse.rs",
    version = "v1",
    kind = "Task",
    namespaced,
    status = "TaskStatus"
)]
pub struct TaskSpec {
    /// What the Pending worker does: `run`, `jump` (to Done, which Pending does not
    /// allow) or `fail` (an error worth retrying).
    pub script: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum TaskPhase {
    Pending,
    Running,
    Done,
}

impl Phase for TaskPhase {
    fn phases() -> Phases<Self> {
        Phases::new()
            .initial(Self::Pending, [Self::Running])
            .phase(Self::Running, [Self::Done])
            .final_phase(Self::Done)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct TaskInfo {
    /// Set by the Running worker.
    pub finished: bool,
}

type TaskStatus = PhaseStatus<TaskPhase, TaskInfo>;

/// The Pending worker: does what the spec's script says.
struct Start(Calls);

impl Worker<Task> for Start {
    type Inputs = ();
    type Outputs = ();

    async fn sync(&self, task: &Task, (): (), _: &Context) -> Result<Outcome<Task>, Error> {
        self.0.record(task.metadata.name.as_deref().unwrap_or_default());
        match task.spec.script.as_str() {
            "jump" => Ok(Outcome::next(TaskPhase::Done)),
            "fail" => Err(Error::new(std::io::Error::other("the script says fail"))),
            _ => Ok(Outcome::next(TaskPhase::Running)),
        }
    }
}

/// The Running worker: finishes.
struct Finish;

impl Worker<Task> for Finish {
    type Inputs = ();
    type Outputs = ();

    async fn sync(&self, _: &Task, (): (), _: &Context) -> Result<Outcome<Task>, Error> {
        Ok(Outcome::next(TaskPhase::Done).with_info(TaskInfo { finished: true }))
    }
}

fn task(name: &str, script: &str) -> Task {
    Task::new(
        name,
        TaskSpec {
            script: script.to_owned(),
        },
    )
}

async fn setup() -> (TestEnv, Api<Task>, Cache) {
    let env = start().await;
    env.install_crd(&Task::crd()).await.expect("the CRD installs");
    let api = Api::namespaced(env.client(), env.namespace());
    let cache = Cache::new(env.client());
    (env, api, cache)
}

async fn status(api: &Api<Task>, name: &str) -> TaskStatus {
    api.get(name).await.expect("get").status.unwrap_or_default()
}

#[tokio::test]
async fn build_phases_refuses_a_declaration_it_cannot_run() {
    let env = TestEnv::start().await.expect("an environment");
    let cache = Cache::new(env.client());
    let missing = Controller::for_::<Task>(&cache)
        .build_phases(PhaseScheduler::new().worker(TaskPhase::Pending, Start(Calls::default())))
        .expect_err("Running has no worker");
    assert_eq!(missing, DeclarationError::MissingWorker("Running".into()));
    assert!(missing.to_string().contains(".worker(Running"), "{missing}");
    let on_final = Controller::for_::<Task>(&cache)
        .build_phases(
            PhaseScheduler::new()
                .worker(TaskPhase::Pending, Start(Calls::default()))
                .worker(TaskPhase::Running, Finish)
                .worker(TaskPhase::Done, Finish),
        )
        .expect_err("Done is final");
    assert_eq!(on_final, DeclarationError::WorkerForFinalPhase("Done".into()));
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_transition_the_phase_does_not_allow_is_recorded_and_not_retried() {
    let (env, api, cache) = setup().await;
    let calls = Calls::default();
    // One worker: keys are served in the order their events arrived.
    let controller = controller::<Task>(&env, &cache)
        .concurrency(1)
        .build_phases(
            PhaseScheduler::new()
                .worker(TaskPhase::Pending, Start(calls.clone()))
                .worker(TaskPhase::Running, Finish),
        )
        .expect("a valid declaration");
    let queue = controller.queue().clone();
    let running = Running::start(&cache, controller).await;

    api.create(&PostParams::default(), &task("jumper", "jump"))
        .await
        .expect("created");
    eventually("the refusal in the status", || async {
        let status = status(&api, "jumper").await;
        let refused = status
            .last_error
            .as_deref()
            .is_some_and(|e| e.contains("moved to Done, which Pending does not allow (allowed: Running)"));
        (refused && status.phase == Some(TaskPhase::Pending)).then_some(())
    })
    .await;
    api.create(&PostParams::default(), &task("marker", "run"))
        .await
        .expect("created");
    eventually("the marker finished", || async {
        (status(&api, "marker").await.phase == Some(TaskPhase::Done)).then_some(())
    })
    .await;
    assert_eq!(calls.of("jumper"), 1, "a refused transition is not retried");
    assert_eq!(queue.num_requeues(&key(&env, "jumper")), 0);
    let events = Api::<k8s_openapi::api::events::v1::Event>::namespaced(env.client(), env.namespace());
    let refused = events
        .list(&ListParams::default())
        .await
        .expect("list")
        .items
        .iter()
        .any(|e| e.reason.as_deref() == Some("TransitionRefused") && e.type_.as_deref() == Some("Warning"));
    assert!(refused, "a Warning Event says so");

    // A failing worker, by contrast, is retried, its error in the status meanwhile.
    api.create(&PostParams::default(), &task("flaky", "fail"))
        .await
        .expect("created");
    calls.wait_for("flaky", 3).await;
    let status = status(&api, "flaky").await;
    assert_eq!(status.last_error.as_deref(), Some("the script says fail"));
    running.stop().await;
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_transitions_worker_time_and_resources_per_phase() {
    let (env, api, cache) = setup().await;
    let registry = Registry::new();
    let metrics = PhaseMetrics::register(&registry).expect("metrics register");
    let controller = controller::<Task>(&env, &cache)
        .name("tasks")
        .build_phases(
            PhaseScheduler::new()
                .worker(TaskPhase::Pending, Start(Calls::default()))
                .worker(TaskPhase::Running, Finish)
                .metrics(&metrics),
        )
        .expect("a valid declaration");
    let running = Running::start(&cache, controller).await;
    for name in ["one", "two"] {
        api.create(&PostParams::default(), &task(name, "run"))
            .await
            .expect("created");
    }
    api.create(&PostParams::default(), &task("stuck", "fail"))
        .await
        .expect("created");
    for name in ["one", "two"] {
        eventually(&format!("{name} done"), || async {
            let status = status(&api, name).await;
            (status.phase == Some(TaskPhase::Done) && status.info.finished).then_some(())
        })
        .await;
    }
    eventually("the gauge by phase", || async {
        let count = |phase: &str| {
            metric(
                &registry,
                "wheelhouse_phase_resources",
                &[("controller", "tasks"), ("phase", phase)],
            )
        };
        (count("Done") == 2.0 && count("Pending") == 1.0 && count("Running") == 0.0).then_some(())
    })
    .await;
    let transitions = |from: &str, to: &str| {
        metric(
            &registry,
            "wheelhouse_phase_transitions_total",
            &[("controller", "tasks"), ("from", from), ("to", to)],
        )
    };
    assert_eq!(transitions("Pending", "Running"), 2.0);
    assert_eq!(transitions("Running", "Done"), 2.0);
    let calls: u64 = registry
        .gather()
        .iter()
        .filter(|family| family.name() == "wheelhouse_phase_sync_seconds")
        .flat_map(prometheus::proto::MetricFamily::get_metric)
        .filter(|sample| {
            sample
                .get_label()
                .iter()
                .any(|l| l.name() == "phase" && l.value() == "Running")
        })
        .map(|sample| sample.get_histogram().get_sample_count())
        .sum();
    assert!(calls >= 2, "each Running worker call is timed: {calls}");
    running.stop().await;
    env.stop().await;
}

#[test]
fn the_status_schema_lists_the_phases_without_null() {
    // kube-apiserver 1.19 refuses a CRD whose enum lists null, which an Option of an
    // undocumented enum would; the embedded server accepts it, so this checks the schema.
    let crd = serde_json::to_value(Task::crd()).expect("the CRD serializes");
    let phase = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["status"]["properties"]["phase"];
    assert_eq!(
        phase["enum"],
        serde_json::json!(["Pending", "Running", "Done"]),
        "{phase}"
    );
    let status = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["status"];
    assert!(
        status["properties"]["finished"].is_object(),
        "the workers' fields sit beside the scheduler's"
    );
}
