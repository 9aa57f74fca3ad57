//! What each reconcile outcome does next: errors are retried with a backoff that
//! grows and resets on success, terminal errors are not retried, panics and timeouts
//! count as errors and are retried, and `requeue_after` brings an object back.

#![expect(
    clippy::float_cmp,
    reason = "the metrics compared are counters of a few events, exact in f64"
)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::ConfigMap;
use kube::ResourceExt;
use kube::api::{Api, Patch, PatchParams, PostParams};
use parking_lot::Mutex;
use prometheus::Registry;
use serde_json::json;
use wheelhouse_cache::Cache;
use wheelhouse_controller::{Action, Context, ControllerMetrics, Error, ObjectKey, Reconciler};
use wheelhouse_envtest::TestEnv;
use wheelhouse_workqueue::WorkQueue;

use crate::common::{Calls, Running, configmap, controller, eventually, fast_backoff, key, metric, start};

/// What every test here starts from: an environment, its `ConfigMap`s, a cache, and
/// controller metrics in a registry of their own.
async fn setup() -> (TestEnv, Api<ConfigMap>, Cache, Registry, ControllerMetrics) {
    let env = start().await;
    let api = Api::namespaced(env.client(), env.namespace());
    let cache = Cache::new(env.client());
    let registry = Registry::new();
    let metrics = ControllerMetrics::register(&registry).expect("metrics register");
    (env, api, cache, registry, metrics)
}

/// A metric of the controller named `controller`.
fn of(registry: &Registry, name: &str, controller: &str) -> f64 {
    metric(registry, name, &[("controller", controller)])
}

/// Panics on the first reconcile of each object; succeeds afterwards.
struct PanicOnce(Calls);

impl Reconciler<ConfigMap> for PanicOnce {
    async fn reconcile(&self, object: Arc<ConfigMap>, _: &Context) -> Result<Action, Error> {
        let name = object.name_any();
        assert!(
            self.0.record(&name) > 1,
            "the first reconcile of {name} panics (on purpose)"
        );
        Ok(Action::done())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_reconcile_is_counted_and_retried() {
    let (env, api, cache, registry, metrics) = setup().await;
    let calls = Calls::default();
    let built = controller::<ConfigMap>(&env, &cache)
        .name("panics")
        .rate_limiter(fast_backoff())
        .metrics(&metrics)
        .build(PanicOnce(calls.clone()));
    let running = Running::start(&cache, built).await;

    api.create(&PostParams::default(), &configmap("fragile", &[]))
        .await
        .expect("created");
    calls.wait_for("fragile", 2).await;
    eventually("the retry to succeed", || async {
        (of(&registry, "controller_runtime_reconcile_total", "panics") >= 2.0).then_some(())
    })
    .await;
    assert_eq!(
        of(&registry, "controller_runtime_reconcile_panics_total", "panics"),
        1.0
    );
    assert_eq!(
        of(&registry, "controller_runtime_reconcile_errors_total", "panics"),
        1.0
    );
    let success = metric(
        &registry,
        "controller_runtime_reconcile_total",
        &[("controller", "panics"), ("result", "success")],
    );
    assert_eq!(success, 1.0, "the retry after the panic succeeded");
    assert_eq!(
        running.queue().num_requeues(&key(&env, "fragile")),
        0,
        "success forgets the panic"
    );

    // The workers survived: another object is served as usual (its first call panics too).
    api.create(&PostParams::default(), &configmap("next", &[]))
        .await
        .expect("created");
    calls.wait_for("next", 2).await;
    running.stop().await;
    env.stop().await;
}

/// `terminal` always fails terminally; `transient` fails twice, then succeeds.
struct TerminalOrTransient(Calls);

impl Reconciler<ConfigMap> for TerminalOrTransient {
    async fn reconcile(&self, object: Arc<ConfigMap>, _: &Context) -> Result<Action, Error> {
        let name = object.name_any();
        let call = self.0.record(&name);
        match name.as_str() {
            "terminal" => Err(Error::terminal("spec cannot work")),
            _ if call <= 2 => Err(Error::new(std::io::Error::other("connection reset"))),
            _ => Ok(Action::done()),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_terminal_error_is_not_retried_but_a_plain_one_is() {
    let (env, api, cache, registry, metrics) = setup().await;
    let calls = Calls::default();
    let built = controller::<ConfigMap>(&env, &cache)
        .name("terminal")
        .rate_limiter(fast_backoff())
        .metrics(&metrics)
        .build(TerminalOrTransient(calls.clone()));
    let running = Running::start(&cache, built).await;
    let terminal_errors = || {
        of(
            &registry,
            "controller_runtime_terminal_reconcile_errors_total",
            "terminal",
        )
    };

    api.create(&PostParams::default(), &configmap("terminal", &[]))
        .await
        .expect("created");
    eventually("the terminal error to be counted", || async {
        (terminal_errors() >= 1.0).then_some(())
    })
    .await;
    assert_eq!(
        running.queue().num_requeues(&key(&env, "terminal")),
        0,
        "a terminal error is not a requeue"
    );

    // The transient object's two retries (5 ms, then 10 ms after its errors) take
    // longer than a retry of the terminal one would have: had it been requeued with
    // backoff, it would have been called again by then.
    api.create(&PostParams::default(), &configmap("transient", &[]))
        .await
        .expect("created");
    calls.wait_for("transient", 3).await;
    eventually("the transient object's failures to be forgotten", || async {
        (running.queue().num_requeues(&key(&env, "transient")) == 0).then_some(())
    })
    .await;
    assert_eq!(calls.of("terminal"), 1, "a terminal error was retried");
    assert_eq!(terminal_errors(), 1.0);
    assert_eq!(
        of(&registry, "controller_runtime_reconcile_errors_total", "terminal"),
        3.0
    );

    // A change of the object is worth another try.
    let patch = json!({"data": {"fixed": "maybe"}});
    api.patch("terminal", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .expect("patched");
    calls.wait_for("terminal", 2).await;
    eventually("the second terminal error to be counted", || async {
        (terminal_errors() >= 2.0).then_some(())
    })
    .await;
    assert_eq!(running.queue().num_requeues(&key(&env, "terminal")), 0);
    running.stop().await;
    env.stop().await;
}

/// Sets a flag when dropped before it is disarmed: the future holding it was cancelled.
struct CancelGuard {
    cancelled: Arc<AtomicBool>,
    armed: bool,
}

impl Drop for CancelGuard {
    fn drop(&mut self) {
        if self.armed {
            self.cancelled.store(true, Ordering::SeqCst);
        }
    }
}

/// The first reconcile sleeps 10 s; later ones return at once.
struct SleepFirst {
    calls: Calls,
    cancelled: Arc<AtomicBool>,
    completed: Arc<AtomicBool>,
}

impl Reconciler<ConfigMap> for SleepFirst {
    async fn reconcile(&self, object: Arc<ConfigMap>, _: &Context) -> Result<Action, Error> {
        if self.calls.record(&object.name_any()) == 1 {
            let mut guard = CancelGuard {
                cancelled: self.cancelled.clone(),
                armed: true,
            };
            tokio::time::sleep(Duration::from_secs(10)).await;
            guard.armed = false;
            self.completed.store(true, Ordering::SeqCst);
        }
        Ok(Action::done())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconcile_past_its_timeout_is_cancelled_counted_and_retried() {
    let (env, api, cache, registry, metrics) = setup().await;
    let calls = Calls::default();
    let (cancelled, completed) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(false)));
    let built = controller::<ConfigMap>(&env, &cache)
        .name("timeouts")
        .rate_limiter(fast_backoff())
        .reconcile_timeout(Duration::from_millis(50))
        .metrics(&metrics)
        .build(SleepFirst {
            calls: calls.clone(),
            cancelled: cancelled.clone(),
            completed: completed.clone(),
        });
    let running = Running::start(&cache, built).await;

    let started = Instant::now();
    api.create(&PostParams::default(), &configmap("slow", &[]))
        .await
        .expect("created");
    calls.wait_for("slow", 2).await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "the retry came only after {:?}: the slow reconcile was not cut short",
        started.elapsed()
    );
    assert!(
        cancelled.load(Ordering::SeqCst),
        "the timed-out reconcile's future was not dropped"
    );
    assert!(
        !completed.load(Ordering::SeqCst),
        "the timed-out reconcile ran to completion"
    );
    eventually("the retry's success to be counted", || async {
        let success = metric(
            &registry,
            "controller_runtime_reconcile_total",
            &[("controller", "timeouts"), ("result", "success")],
        );
        (success >= 1.0).then_some(())
    })
    .await;
    assert_eq!(
        of(&registry, "controller_runtime_reconcile_errors_total", "timeouts"),
        1.0
    );
    let errors = metric(
        &registry,
        "controller_runtime_reconcile_total",
        &[("controller", "timeouts"), ("result", "error")],
    );
    assert_eq!(errors, 1.0, "a timeout counts as an error");
    running.stop().await;
    env.stop().await;
}

/// Fails the calls whose numbers (from 1) are in `failing`; records, at the start of
/// each call, how many failures the queue remembered for the object.
struct FailSome {
    calls: Calls,
    failing: &'static [usize],
    queue: Arc<OnceLock<WorkQueue<ObjectKey>>>,
    requeues_seen: Arc<Mutex<Vec<u32>>>,
}

impl Reconciler<ConfigMap> for FailSome {
    async fn reconcile(&self, object: Arc<ConfigMap>, _: &Context) -> Result<Action, Error> {
        let key = ObjectKey::of(object.as_ref());
        let queue = self
            .queue
            .get()
            .expect("the test sets the queue before creating objects");
        self.requeues_seen.lock().push(queue.num_requeues(&key));
        let call = self.calls.record(&key.name);
        if self.failing.contains(&call) {
            return Err(Error::new(std::io::Error::other(format!("failure {call}"))));
        }
        Ok(Action::done())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn backoff_grows_with_each_error_and_resets_on_success() {
    let (env, api, cache, ..) = setup().await;
    let calls = Calls::default();
    let queue = Arc::new(OnceLock::new());
    let requeues_seen = Arc::new(Mutex::new(Vec::new()));
    let built = controller::<ConfigMap>(&env, &cache)
        .rate_limiter(fast_backoff())
        .build(FailSome {
            calls: calls.clone(),
            failing: &[1, 2, 3, 5],
            queue: queue.clone(),
            requeues_seen: requeues_seen.clone(),
        });
    queue.set(built.queue().clone()).expect("set once");
    let running = Running::start(&cache, built).await;
    let requeues = || running.queue().num_requeues(&key(&env, "flaky"));

    api.create(&PostParams::default(), &configmap("flaky", &[]))
        .await
        .expect("created");
    calls.wait_for("flaky", 4).await;
    eventually("the success to forget the failures", || async {
        (requeues() == 0).then_some(())
    })
    .await;
    assert_eq!(
        *requeues_seen.lock(),
        [0, 1, 2, 3],
        "failures remembered at the start of each call"
    );

    // A later failure starts the backoff over.
    let patch = json!({"data": {"touched": "yes"}});
    api.patch("flaky", &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .expect("patched");
    calls.wait_for("flaky", 6).await;
    eventually("the second success to forget the failure", || async {
        (requeues() == 0).then_some(())
    })
    .await;
    assert_eq!(*requeues_seen.lock(), [0, 1, 2, 3, 0, 1]);
    running.stop().await;
    env.stop().await;
}

/// Asks to come back after 100 ms every time; records when each call started.
struct Poll(Arc<Mutex<Vec<Instant>>>);

impl Reconciler<ConfigMap> for Poll {
    async fn reconcile(&self, _: Arc<ConfigMap>, _: &Context) -> Result<Action, Error> {
        self.0.lock().push(Instant::now());
        Ok(Action::requeue_after(Duration::from_millis(100)))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requeue_after_brings_an_unchanged_object_back_after_its_delay() {
    let (env, api, cache, registry, metrics) = setup().await;
    let starts = Arc::new(Mutex::new(Vec::new()));
    let built = controller::<ConfigMap>(&env, &cache)
        .name("polls")
        .metrics(&metrics)
        .build(Poll(starts.clone()));
    let running = Running::start(&cache, built).await;

    let created = api
        .create(&PostParams::default(), &configmap("polled", &[]))
        .await
        .expect("created");
    eventually("three reconciles", || async {
        (starts.lock().len() >= 3).then_some(())
    })
    .await;
    let starts = starts.lock().clone();
    for pair in starts.windows(2) {
        let gap = pair[1] - pair[0];
        assert!(
            gap >= Duration::from_millis(95),
            "came back after {gap:?}, before the 100 ms asked for"
        );
    }
    let now = api.get("polled").await.expect("still there");
    assert_eq!(
        now.resource_version(),
        created.resource_version(),
        "the object was never changed"
    );
    assert_eq!(
        running.queue().num_requeues(&key(&env, "polled")),
        0,
        "requeue_after is not a failure"
    );
    let requeued = metric(
        &registry,
        "controller_runtime_reconcile_total",
        &[("controller", "polls"), ("result", "requeue_after")],
    );
    assert!(requeued >= 3.0, "requeue_after results counted: {requeued}");
    running.stop().await;
    env.stop().await;
}
