//! How reconciles are scheduled: never two at once for one object, several at once
//! for different ones, and a shutdown that lets the reconcile in flight finish and
//! starts no other.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::ResourceExt;
use kube::api::{Api, Patch, PatchParams, PostParams};
use parking_lot::Mutex;
use serde_json::json;
use tokio::sync::Semaphore;
use wheelhouse_cache::Cache;
use wheelhouse_controller::{Action, Context, Error, Reconciler};

use crate::common::{Calls, Running, configmap, controller, eventually, start};

/// Records how many reconciles run at once, per object and in all.
#[derive(Default)]
struct Overlaps {
    in_flight: Mutex<HashMap<String, usize>>,
    max_per_object: AtomicUsize,
    total: AtomicUsize,
    max_total: AtomicUsize,
    /// The last `round` each object was reconciled at.
    rounds: Mutex<HashMap<String, String>>,
}

struct RecordOverlaps(Arc<Overlaps>);

impl Reconciler<ConfigMap> for RecordOverlaps {
    async fn reconcile(&self, object: Arc<ConfigMap>, _: &Context) -> Result<Action, Error> {
        let state = &self.0;
        let name = object.name_any();
        let here = {
            let mut in_flight = state.in_flight.lock();
            let count = in_flight.entry(name.clone()).or_default();
            *count += 1;
            *count
        };
        state.max_per_object.fetch_max(here, Ordering::SeqCst);
        let total = state.total.fetch_add(1, Ordering::SeqCst) + 1;
        state.max_total.fetch_max(total, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(10)).await;
        let round = object
            .data
            .as_ref()
            .and_then(|d| d.get("round"))
            .cloned()
            .unwrap_or_default();
        state.rounds.lock().insert(name.clone(), round);
        state.total.fetch_sub(1, Ordering::SeqCst);
        *state.in_flight.lock().get_mut(&name).expect("counted above") -= 1;
        Ok(Action::done())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_reconcile_per_object_at_a_time_under_concurrency() {
    const OBJECTS: usize = 16;
    const ROUNDS: usize = 5;
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let cache = Cache::new(env.client());
    let state = Arc::new(Overlaps::default());
    let built = controller::<ConfigMap>(&env, &cache)
        .concurrency(8)
        .build(RecordOverlaps(state.clone()));
    let running = Running::start(&cache, built).await;

    let names: Vec<String> = (0..OBJECTS).map(|i| format!("object-{i}")).collect();
    let (create, objects) = (
        PostParams::default(),
        names.iter().map(|name| configmap(name, &[("round", "0")])),
    );
    let objects: Vec<ConfigMap> = objects.collect();
    futures::future::try_join_all(objects.iter().map(|object| api.create(&create, object)))
        .await
        .expect("objects created");
    let update = PatchParams::default();
    // Updates arrive while earlier ones are being reconciled: each object comes back
    // to the queue while one of its reconciles is in flight.
    for round in 1..=ROUNDS {
        let patch = Patch::Merge(json!({"data": {"round": round.to_string()}}));
        futures::future::try_join_all(names.iter().map(|name| api.patch(name, &update, &patch)))
            .await
            .expect("objects updated");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let last = ROUNDS.to_string();
    eventually("every object reconciled at its last round", || async {
        let rounds = state.rounds.lock();
        names.iter().all(|name| rounds.get(name) == Some(&last)).then_some(())
    })
    .await;

    assert_eq!(
        state.max_per_object.load(Ordering::SeqCst),
        1,
        "an object was reconciled by two workers at once"
    );
    assert!(
        state.max_total.load(Ordering::SeqCst) > 1,
        "with 8 workers and {OBJECTS} busy objects, reconciles never overlapped"
    );
    running.stop().await;
    env.stop().await;
}

/// Holds the reconcile of `slow` until the test releases it; counts every reconcile.
struct HoldSlow {
    calls: Calls,
    release: Arc<Semaphore>,
    slow_finished: Arc<AtomicBool>,
}

impl Reconciler<ConfigMap> for HoldSlow {
    async fn reconcile(&self, object: Arc<ConfigMap>, _: &Context) -> Result<Action, Error> {
        let name = object.name_any();
        self.calls.record(&name);
        if name == "slow" {
            let _permit = self.release.acquire().await.expect("the semaphore stays open");
            self.slow_finished.store(true, Ordering::SeqCst);
        }
        Ok(Action::done())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_finishes_the_reconcile_in_flight_and_starts_no_other() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let cache = Cache::new(env.client());
    let calls = Calls::default();
    let release = Arc::new(Semaphore::new(0));
    let slow_finished = Arc::new(AtomicBool::new(false));
    let built = controller::<ConfigMap>(&env, &cache).build(HoldSlow {
        calls: calls.clone(),
        release: release.clone(),
        slow_finished: slow_finished.clone(),
    });
    let mut running = Running::start(&cache, built).await;

    api.create(&PostParams::default(), &configmap("slow", &[]))
        .await
        .expect("created");
    calls.wait_for("slow", 1).await;
    for name in ["queued-1", "queued-2"] {
        api.create(&PostParams::default(), &configmap(name, &[]))
            .await
            .expect("created");
    }
    // The only worker is busy: both wait in the queue.
    eventually("both objects queued behind the slow reconcile", || async {
        (running.queue().len() == 2).then_some(())
    })
    .await;

    assert!(!running.has_returned(), "run returned before shutdown was asked for");
    running.request_shutdown();
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        !running.has_returned(),
        "run returned while a reconcile was still in flight"
    );
    release.add_permits(1);
    running.stop().await;

    assert!(
        slow_finished.load(Ordering::SeqCst),
        "the reconcile in flight was not allowed to finish"
    );
    assert_eq!(
        (calls.of("queued-1"), calls.of("queued-2")),
        (0, 0),
        "objects still queued at shutdown were reconciled after it"
    );
    env.stop().await;
}

/// Objects from the initial list wait behind live changes: a change made while the
/// initial list is being worked through is served next, not after the whole list.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_changes_are_served_before_the_initial_list() {
    struct Record(Arc<parking_lot::Mutex<Vec<String>>>);
    impl wheelhouse_controller::Reconciler<ConfigMap> for Record {
        async fn reconcile(
            &self,
            object: Arc<ConfigMap>,
            _: &wheelhouse_controller::Context,
        ) -> Result<wheelhouse_controller::Action, wheelhouse_controller::Error> {
            self.0.lock().push(object.metadata.name.clone().unwrap_or_default());
            tokio::time::sleep(Duration::from_millis(20)).await;
            Ok(wheelhouse_controller::Action::done())
        }
    }

    let env = crate::common::start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    for n in 0..40 {
        api.create(
            &PostParams::default(),
            &crate::common::configmap(&format!("initial-{n}"), &[]),
        )
        .await
        .unwrap();
    }
    let order = Arc::new(parking_lot::Mutex::new(Vec::new()));
    let cache = wheelhouse_cache::Cache::new(env.client());
    let controller = wheelhouse_controller::Controller::for_::<ConfigMap>(&cache)
        .namespace(env.namespace())
        .build(Record(order.clone()));
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(controller.run(async {
        let _ = stopped.await;
    }));
    crate::common::eventually("the first reconcile", || async {
        (order.lock().len() > 1).then_some(())
    })
    .await;
    api.create(&PostParams::default(), &crate::common::configmap("live", &[]))
        .await
        .unwrap();
    // Count from the moment the change reached the controller's informer (it is queued
    // right after it is stored), not from the create: how long the server takes to send
    // the event is not the queue's doing, and a loaded machine or a real server takes
    // several reconciles' worth of it.
    let store = cache
        .informer::<ConfigMap>(wheelhouse_cache::Scope::namespace(env.namespace()))
        .store()
        .clone();
    let served_before = loop {
        if store.get(Some(env.namespace()), "live").is_some() {
            break order.lock().len();
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    };
    let position = crate::common::eventually("the live change", || async {
        order.lock().iter().position(|name| name == "live")
    })
    .await;
    // The worker finishes what it holds, may already have taken the next key, then
    // serves the live change; FIFO would put it after all 40. (The loop above may see
    // the change a poll late, which only makes the bound looser by what began meanwhile.)
    assert!(
        position <= served_before + 3,
        "the live change was served at {position}, after {served_before} reconciles had begun: {:?}",
        order.lock()
    );
    assert!(
        order.lock().len() < 40,
        "the initial list was not done yet when the live change was served"
    );
    let _ = stop.send(());
    running.await.unwrap();
    env.stop().await;
}
