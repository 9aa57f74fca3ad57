//! What a reconcile writes through its `Context`: the status in one call, Events from
//! the controller's own recorder, and an immediate requeue.

use std::sync::Arc;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use k8s_openapi::api::events::v1::Event;
use kube::ResourceExt;
use kube::api::{Api, ListParams, Patch, PatchParams, PostParams};
use parking_lot::Mutex;
use prometheus::Registry;
use serde_json::json;
use wheelhouse_cache::Cache;
use wheelhouse_controller::{Action, Context, ControllerMetrics, Error, EventType, Reconciler, finalizer};

use crate::common::{Running, configmap, controller, eventually, key, metric, start};

fn deployment(name: &str) -> Deployment {
    serde_json::from_value(json!({
        "metadata": {"name": name},
        "spec": {
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": "web", "image": "nginx:1.27"}]},
            },
        },
    }))
    .expect("a valid Deployment")
}

#[tokio::test]
async fn patch_status_writes_over_a_stale_object_and_returns_the_fresh_one() {
    let env = start().await;
    let api: Api<Deployment> = Api::namespaced(env.client(), env.namespace());
    let stale = api
        .create(&PostParams::default(), &deployment("web"))
        .await
        .expect("created");
    // Someone else changes the object after the reconcile read it.
    let labels = json!({"metadata": {"labels": {"team": "shop"}}});
    api.patch("web", &PatchParams::default(), &Patch::Merge(&labels))
        .await
        .expect("relabelled");

    let context = Context::new(env.client(), "web-controller");
    let status = json!({"collisionCount": 3});
    let fresh = context
        .patch_status(&stale, &status)
        .await
        .expect("no 409 on a stale object");
    assert_eq!(fresh.status.as_ref().and_then(|s| s.collision_count), Some(3));
    assert_eq!(
        fresh.labels().get("team").map(String::as_str),
        Some("shop"),
        "the other change kept"
    );
    assert_ne!(fresh.resource_version(), stale.resource_version());

    // A helper with a resourceVersion precondition succeeds on the object returned, as
    // long as nothing else writes it meanwhile: a real cluster's deployment controller
    // writes the Deployment's status whenever it likes.
    if !env.is_embedded() {
        eprintln!(
            "skipped the precondition step: a real deployment controller may write the Deployment between the calls"
        );
        env.stop().await;
        return;
    }
    let held = finalizer::ensure(&api, &fresh, "example.com/hold")
        .await
        .expect("the fresh version");
    finalizer::remove(&api, &held, "example.com/hold")
        .await
        .expect("released");
    env.stop().await;
}

/// Publishes one Event per reconcile, and asks to come back at once twice.
struct Announce(Arc<Mutex<usize>>);

impl Reconciler<ConfigMap> for Announce {
    async fn reconcile(&self, config: Arc<ConfigMap>, context: &Context) -> Result<Action, Error> {
        let calls = {
            let mut calls = self.0.lock();
            *calls += 1;
            *calls
        };
        context
            .publish(config.as_ref(), EventType::Normal, "Seen", format!("call {calls}"))
            .await?;
        Ok(if calls < 3 { Action::requeue() } else { Action::done() })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn publish_records_as_the_controller_and_requeue_comes_back_at_once() {
    let env = start().await;
    let cache = Cache::new(env.client());
    let registry = Registry::new();
    let metrics = ControllerMetrics::register(&registry).expect("metrics register");
    let calls = Arc::new(Mutex::new(0));
    let built = controller::<ConfigMap>(&env, &cache)
        .name("announcer")
        .metrics(&metrics)
        .build(Announce(calls.clone()));
    let running = Running::start(&cache, built).await;
    let configs: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    configs
        .create(&PostParams::default(), &configmap("noted", &[]))
        .await
        .expect("created");

    eventually("three reconciles of an unchanged object", || async {
        (*calls.lock() >= 3).then_some(())
    })
    .await;
    assert_eq!(
        running.queue().num_requeues(&key(&env, "noted")),
        0,
        "an immediate requeue is not a failure"
    );
    let requeued = metric(
        &registry,
        "controller_runtime_reconcile_total",
        &[("controller", "announcer"), ("result", "requeue")],
    );
    assert!(
        requeued >= 2.0,
        "immediate requeues counted as controller-runtime's result=requeue: {requeued}"
    );
    let events: Api<Event> = Api::namespaced(env.client(), env.namespace());
    let seen = eventually("the Events", || async {
        let list = events.list(&ListParams::default()).await.ok()?;
        let seen: Vec<Event> = list
            .items
            .into_iter()
            .filter(|e| e.reason.as_deref() == Some("Seen"))
            .collect();
        (!seen.is_empty()).then_some(seen)
    })
    .await;
    for event in &seen {
        assert_eq!(event.reporting_controller.as_deref(), Some("announcer"));
        assert_eq!(event.action.as_deref(), Some("Seen"));
        assert_eq!(event.regarding.as_ref().and_then(|r| r.name.as_deref()), Some("noted"));
    }
    running.stop().await;
    env.stop().await;
}

#[tokio::test]
async fn a_context_made_outside_a_controller_has_no_cached_children() {
    let env = start().await;
    let context = Context::new(env.client(), "outside");
    let error = context
        .owned::<ConfigMap>()
        .expect_err("no controller caches anything for this context");
    assert!(error.to_string().contains(".owns_full::<ConfigMap>()"), "{error}");
    env.stop().await;
}
