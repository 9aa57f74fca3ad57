//! Where reconciles come from: updates of the primary type as the predicate allows,
//! owned children, other watched types, and deletion (only through a finalizer).
//!
//! These tests run one worker, so that the queue serves keys in the order their
//! events arrived: once a marker object created later has been reconciled, every
//! earlier event has been dealt with, and what was not reconciled never will be.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::{ConfigMap, Secret};
use kube::ResourceExt;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use serde_json::json;
use wheelhouse_cache::{Cache, Scope};
use wheelhouse_controller::{Action, Context, Error, ObjectKey, Reconciler, finalizer, owner, predicate};
use wheelhouse_envtest::TestEnv;

use crate::common::{Calls, Running, configmap, controller, eventually, fast_backoff, key, start};

/// Counts reconciles per object and asks for nothing more.
struct Count(Calls);

impl<K: kube::Resource + Send + Sync + 'static> Reconciler<K> for Count {
    async fn reconcile(&self, object: Arc<K>, _: &Context) -> Result<Action, Error> {
        self.0.record(object.meta().name.as_deref().unwrap_or_default());
        Ok(Action::done())
    }
}

/// A one-replica Deployment of a pause container.
fn deployment(name: &str) -> Deployment {
    serde_json::from_value(json!({
        "metadata": {"name": name},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": "main", "image": "registry.k8s.io/pause:3.10"}]},
            },
        },
    }))
    .expect("a valid Deployment")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn generation_changed_ignores_status_only_updates() {
    let env = start().await;
    let api: Api<Deployment> = Api::namespaced(env.client(), env.namespace());
    let cache = Cache::new(env.client());
    let (filtered, unfiltered) = (Calls::default(), Calls::default());
    let with_predicate = controller::<Deployment>(&env, &cache)
        .name("filtered")
        .predicate(predicate::generation_changed())
        .build(Count(filtered.clone()));
    // The control: the same events without the predicate, to show the status update
    // did reach the controller's informer.
    let without_predicate = controller::<Deployment>(&env, &cache)
        .name("unfiltered")
        .build(Count(unfiltered.clone()));
    let with_predicate = Running::start(&cache, with_predicate).await;
    let without_predicate = Running::start(&cache, without_predicate).await;

    let created = api
        .create(&PostParams::default(), &deployment("web"))
        .await
        .expect("created");
    filtered.wait_for("web", 1).await;
    let seen_before = unfiltered.wait_for("web", 1).await;

    let status = json!({"status": {"observedGeneration": created.metadata.generation, "collisionCount": 7}});
    let updated = api
        .patch_status("web", &PatchParams::default(), &Patch::Merge(&status))
        .await
        .expect("status patched");
    assert_eq!(
        updated.metadata.generation, created.metadata.generation,
        "a status update bumped the generation"
    );
    unfiltered.wait_for("web", seen_before + 1).await;
    api.create(&PostParams::default(), &deployment("marker"))
        .await
        .expect("created");
    filtered.wait_for("marker", 1).await;
    assert_eq!(filtered.of("web"), 1, "a status-only update passed generation_changed");

    let spec = json!({"spec": {"replicas": 2}});
    api.patch("web", &PatchParams::default(), &Patch::Merge(&spec))
        .await
        .expect("spec patched");
    filtered.wait_for("web", 2).await;
    with_predicate.stop().await;
    without_predicate.stop().await;
    env.stop().await;
}

/// A Secret in the test's namespace, owned as `owner` says.
fn secret(name: &str, owner: Option<k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference>) -> Secret {
    let mut secret = Secret::default();
    secret.metadata.name = Some(name.to_owned());
    secret.metadata.owner_references = owner.map(|owner| vec![owner]);
    secret.string_data = Some(BTreeMap::from([("token".to_owned(), "x".to_owned())]));
    secret
}

/// Records, on every reconcile of a parent, the `touched` label of the Secret
/// `child-a` as the controller's cached store of its children (from the reconcile's
/// context) holds it at that moment.
struct SeesChild {
    calls: Calls,
    seen: Arc<parking_lot::Mutex<Vec<Option<String>>>>,
}

impl Reconciler<ConfigMap> for SeesChild {
    async fn reconcile(&self, object: Arc<ConfigMap>, context: &Context) -> Result<Action, Error> {
        let secrets = context.owned::<Secret>()?;
        let not_owned = context
            .owned::<Deployment>()
            .expect_err("Deployments are not cached whole by this controller");
        assert!(
            not_owned.to_string().contains(".owns_full::<Deployment>()"),
            "{not_owned}"
        );
        let child = secrets.get(object.namespace().as_deref(), "child-a");
        let touched = child.and_then(|c| c.labels().get("touched").cloned());
        self.seen.lock().push(touched);
        self.calls.record(&object.name_any());
        Ok(Action::done())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn owns_full_caches_whole_children_before_their_change_reconciles_the_owner() {
    let env = start().await;
    let configmaps: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let secrets: Api<Secret> = Api::namespaced(env.client(), env.namespace());
    let cache = Cache::new(env.client());
    let calls = Calls::default();
    let seen = Arc::new(parking_lot::Mutex::new(Vec::new()));
    let built = controller::<ConfigMap>(&env, &cache)
        .owns_full::<Secret>()
        .build(SeesChild {
            calls: calls.clone(),
            seen: seen.clone(),
        });
    let running = Running::start(&cache, built).await;

    let parent = configmaps
        .create(&PostParams::default(), &configmap("parent-a", &[]))
        .await
        .expect("created");
    calls.wait_for("parent-a", 1).await;
    let controller_ref = owner::controller_ref(&parent).expect("a created object has a uid");
    secrets
        .create(&PostParams::default(), &secret("child-a", Some(controller_ref)))
        .await
        .expect("created");
    calls.wait_for("parent-a", 2).await;
    let labels = json!({"metadata": {"labels": {"touched": "yes"}}});
    secrets
        .patch("child-a", &PatchParams::default(), &Patch::Merge(&labels))
        .await
        .expect("patched");
    calls.wait_for("parent-a", 3).await;
    assert_eq!(
        seen.lock().last().cloned().flatten().as_deref(),
        Some("yes"),
        "the reconcile the change caused did not find it in the cache"
    );
    // The controller's trigger and the reconciler's reads (its context's store) are one
    // informer: one watch of Secrets, not a metadata-only one or a second scope beside it.
    match env.server() {
        Some(server) => assert_eq!(
            server.request_count(wheelhouse_envtest::Verb::Watch, "secrets"),
            1,
            "owns_full opened a watch of its own"
        ),
        None => eprintln!("skipping the watch count: it needs the embedded server"),
    }
    running.stop().await;
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_of_an_owned_child_reconciles_its_controller_owner() {
    let env = start().await;
    let configmaps: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let secrets: Api<Secret> = Api::namespaced(env.client(), env.namespace());
    let cache = Cache::new(env.client());
    let calls = Calls::default();
    let built = controller::<ConfigMap>(&env, &cache)
        .owns::<Secret>()
        .build(Count(calls.clone()));
    let running = Running::start(&cache, built).await;

    let parent_a = configmaps
        .create(&PostParams::default(), &configmap("parent-a", &[]))
        .await
        .expect("created");
    let parent_b = configmaps
        .create(&PostParams::default(), &configmap("parent-b", &[]))
        .await
        .expect("created");
    calls.wait_for("parent-a", 1).await;
    calls.wait_for("parent-b", 1).await;

    let controller_of_a = owner::controller_ref(&parent_a).expect("a created object has a uid");
    secrets
        .create(
            &PostParams::default(),
            &secret("child-a", Some(controller_of_a.clone())),
        )
        .await
        .expect("created");
    calls.wait_for("parent-a", 2).await;
    let labels = json!({"metadata": {"labels": {"touched": "yes"}}});
    secrets
        .patch("child-a", &PatchParams::default(), &Patch::Merge(&labels))
        .await
        .expect("patched");
    calls.wait_for("parent-a", 3).await;

    // An owner that is not the controller is not reconciled; child-b's owner, whose
    // event comes after, is.
    let mut not_controller = controller_of_a;
    not_controller.controller = Some(false);
    not_controller.block_owner_deletion = None;
    secrets
        .create(&PostParams::default(), &secret("stranger", Some(not_controller)))
        .await
        .expect("created");
    let controller_of_b = owner::controller_ref(&parent_b).expect("a created object has a uid");
    secrets
        .create(&PostParams::default(), &secret("child-b", Some(controller_of_b)))
        .await
        .expect("created");
    calls.wait_for("parent-b", 2).await;
    assert_eq!(
        calls.of("parent-a"),
        3,
        "a child without a controller reference reconciled its owner"
    );

    secrets
        .delete("child-a", &DeleteParams::default())
        .await
        .expect("deleted");
    calls.wait_for("parent-a", 4).await;
    running.stop().await;
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watches_maps_another_types_events_to_requests() {
    let env = start().await;
    let configmaps: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let secrets: Api<Secret> = Api::namespaced(env.client(), env.namespace());
    let cache = Cache::new(env.client());
    let calls = Calls::default();
    // A Secret labelled `config=<name>` concerns the ConfigMap of that name.
    let built = controller::<ConfigMap>(&env, &cache)
        .watches::<Secret>(|secret| {
            secret
                .labels()
                .get("config")
                .map(|name| ObjectKey::new(secret.namespace().as_deref(), name))
                .into_iter()
                .collect()
        })
        .build(Count(calls.clone()));
    let running = Running::start(&cache, built).await;

    configmaps
        .create(&PostParams::default(), &configmap("settings", &[]))
        .await
        .expect("created");
    calls.wait_for("settings", 1).await;
    let mut labelled = secret("credentials", None);
    labelled.metadata.labels = Some(BTreeMap::from([("config".to_owned(), "settings".to_owned())]));
    secrets
        .create(&PostParams::default(), &labelled)
        .await
        .expect("created");
    calls.wait_for("settings", 2).await;
    let data = json!({"stringData": {"token": "rotated"}});
    secrets
        .patch("credentials", &PatchParams::default(), &Patch::Merge(&data))
        .await
        .expect("patched");
    calls.wait_for("settings", 3).await;
    secrets
        .delete("credentials", &DeleteParams::default())
        .await
        .expect("deleted");
    calls.wait_for("settings", 4).await;
    running.stop().await;
    env.stop().await;
}

/// Asks to come back every 20 ms, so that a deleted object is always about to be
/// handed out again.
struct Poll(Calls);

impl Reconciler<ConfigMap> for Poll {
    async fn reconcile(&self, object: Arc<ConfigMap>, _: &Context) -> Result<Action, Error> {
        self.0.record(&object.name_any());
        Ok(Action::requeue_after(Duration::from_millis(20)))
    }
}

/// Waits until the controller's cache no longer holds `name`.
async fn wait_uncached(env: &TestEnv, cache: &Cache, name: &str) {
    let informer = cache.informer::<ConfigMap>(Scope::namespace(env.namespace()));
    eventually(&format!("{name} to leave the cache"), || async {
        informer
            .store()
            .get(Some(env.namespace()), name)
            .is_none()
            .then_some(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_object_without_finalizers_is_not_reconciled() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let cache = Cache::new(env.client());
    let calls = Calls::default();
    let built = controller::<ConfigMap>(&env, &cache).build(Poll(calls.clone()));
    let running = Running::start(&cache, built).await;

    api.create(&PostParams::default(), &configmap("doomed", &[]))
        .await
        .expect("created");
    calls.wait_for("doomed", 3).await;
    api.delete("doomed", &DeleteParams::default()).await.expect("deleted");
    wait_uncached(&env, &cache, "doomed").await;
    // One reconcile may have been handed the object just before it left the cache.
    let at_deletion = calls.of("doomed") + 1;
    api.create(&PostParams::default(), &configmap("marker", &[]))
        .await
        .expect("created");
    // Five marker periods cover several of the deleted object's 20 ms requeues and
    // its delete event.
    calls.wait_for("marker", 5).await;
    let total = calls.of("doomed");
    assert!(
        total <= at_deletion,
        "a deleted object was reconciled after it left the cache: {total} reconciles, at most {at_deletion} allowed"
    );
    running.stop().await;
    env.stop().await;
}

/// Fails every time.
struct AlwaysFail;

impl Reconciler<ConfigMap> for AlwaysFail {
    async fn reconcile(&self, _: Arc<ConfigMap>, _: &Context) -> Result<Action, Error> {
        Err(Error::new(std::io::Error::other("never works")))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_failures_of_a_deleted_object_are_forgotten() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let cache = Cache::new(env.client());
    let built = controller::<ConfigMap>(&env, &cache)
        .rate_limiter(fast_backoff())
        .build(AlwaysFail);
    let running = Running::start(&cache, built).await;
    let requeues = || running.queue().num_requeues(&key(&env, "broken"));

    api.create(&PostParams::default(), &configmap("broken", &[]))
        .await
        .expect("created");
    eventually("failures to pile up", || async { (requeues() >= 3).then_some(()) }).await;
    api.delete("broken", &DeleteParams::default()).await.expect("deleted");
    // The delete event brings the key back at once, whatever its backoff.
    eventually("the deleted object's failures to be forgotten", || async {
        (requeues() == 0).then_some(())
    })
    .await;
    running.stop().await;
    env.stop().await;
}

const FINALIZER: &str = "test.wheelhouse.rs/cleanup";

/// Holds its objects with a finalizer and lets them go once it has seen them deleting.
struct Finalize {
    calls: Calls,
    saw_deletion: Arc<AtomicBool>,
}

impl Reconciler<ConfigMap> for Finalize {
    async fn reconcile(&self, object: Arc<ConfigMap>, context: &Context) -> Result<Action, Error> {
        self.calls.record(&object.name_any());
        let api: Api<ConfigMap> = Api::namespaced(context.client().clone(), &object.namespace().unwrap_or_default());
        if finalizer::is_deleting(object.as_ref()) {
            self.saw_deletion.store(true, Ordering::SeqCst);
            finalizer::remove(&api, &object, FINALIZER).await?;
        } else {
            finalizer::ensure(&api, &object, FINALIZER).await?;
        }
        Ok(Action::done())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finalizer_brings_a_deleted_object_to_the_reconciler_until_removed() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let cache = Cache::new(env.client());
    let calls = Calls::default();
    let saw_deletion = Arc::new(AtomicBool::new(false));
    let built = controller::<ConfigMap>(&env, &cache).build(Finalize {
        calls: calls.clone(),
        saw_deletion: saw_deletion.clone(),
    });
    let running = Running::start(&cache, built).await;

    api.create(&PostParams::default(), &configmap("guarded", &[]))
        .await
        .expect("created");
    eventually("the finalizer to be added", || async {
        let object = api.get("guarded").await.expect("exists");
        finalizer::has(&object, FINALIZER).then_some(())
    })
    .await;
    assert!(!saw_deletion.load(Ordering::SeqCst));
    api.delete("guarded", &DeleteParams::default())
        .await
        .expect("deletion requested");
    eventually("the finalizer to let the object go", || async {
        api.get_opt("guarded")
            .await
            .expect("get succeeds")
            .is_none()
            .then_some(())
    })
    .await;
    assert!(
        saw_deletion.load(Ordering::SeqCst),
        "the reconciler never saw the deletionTimestamp"
    );
    wait_uncached(&env, &cache, "guarded").await;
    let at_deletion = calls.of("guarded");
    api.create(&PostParams::default(), &configmap("marker", &[]))
        .await
        .expect("created");
    eventually("the marker's finalizer", || async {
        let object = api.get("marker").await.expect("exists");
        finalizer::has(&object, FINALIZER).then_some(())
    })
    .await;
    assert_eq!(
        calls.of("guarded"),
        at_deletion,
        "the object was reconciled after it was gone"
    );
    running.stop().await;
    // Nothing will remove the marker's finalizer now; a real cluster's namespace
    // deletion would wait for it forever.
    let release = json!({"metadata": {"finalizers": null}});
    api.patch("marker", &PatchParams::default(), &Patch::Merge(&release))
        .await
        .expect("finalizer removed");
    env.stop().await;
}

/// The controller keeps its informers running when the caller drops its cache handle.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_controller_keeps_the_cache_alive() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    struct Count(Arc<AtomicUsize>);
    impl wheelhouse_controller::Reconciler<k8s_openapi::api::core::v1::ConfigMap> for Count {
        async fn reconcile(
            &self,
            _: Arc<k8s_openapi::api::core::v1::ConfigMap>,
            _: &wheelhouse_controller::Context,
        ) -> Result<wheelhouse_controller::Action, wheelhouse_controller::Error> {
            self.0.fetch_add(1, Ordering::SeqCst);
            Ok(wheelhouse_controller::Action::done())
        }
    }

    let env = wheelhouse_envtest::TestEnv::start().await.unwrap();
    let calls = Arc::new(AtomicUsize::new(0));
    let controller = {
        let cache = wheelhouse_cache::Cache::new(env.client());
        wheelhouse_controller::Controller::for_::<k8s_openapi::api::core::v1::ConfigMap>(&cache)
            .namespace(env.namespace())
            .build(Count(calls.clone()))
    }; // the only cache handle left is the controller's
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(controller.run(async {
        let _ = stopped.await;
    }));
    let api: kube::Api<k8s_openapi::api::core::v1::ConfigMap> = kube::Api::namespaced(env.client(), env.namespace());
    let config: k8s_openapi::api::core::v1::ConfigMap =
        serde_json::from_value(serde_json::json!({"metadata": {"name": "alive"}})).unwrap();
    api.create(&kube::api::PostParams::default(), &config).await.unwrap();
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
    while calls.load(Ordering::SeqCst) == 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no reconcile: the informers stopped with the cache handle"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let _ = stop.send(());
    running.await.unwrap();
    env.stop().await;
}

/// The index of Secrets by the name of their controller owner.
const SECRET_OWNER: &str = "secret-owner";

/// Records, on every reconcile of a parent, how many Secrets the index holds under
/// its name.
struct ListsByIndex {
    calls: Calls,
    children: Arc<parking_lot::Mutex<Vec<usize>>>,
}

impl Reconciler<ConfigMap> for ListsByIndex {
    async fn reconcile(&self, object: Arc<ConfigMap>, context: &Context) -> Result<Action, Error> {
        let options = wheelhouse_cache::ListOptions {
            namespace: object.namespace(),
            index: Some((SECRET_OWNER.to_owned(), object.name_any())),
            ..wheelhouse_cache::ListOptions::default()
        };
        let children = context.owned::<Secret>()?.list(&options)?;
        self.children.lock().push(children.len());
        self.calls.record(&object.name_any());
        Ok(Action::done())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_index_declared_at_setup_serves_the_reconciles_lists() {
    let env = start().await;
    let configmaps: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let secrets: Api<Secret> = Api::namespaced(env.client(), env.namespace());
    let cache = Cache::new(env.client());
    let calls = Calls::default();
    let children = Arc::new(parking_lot::Mutex::new(Vec::new()));
    let built = controller::<ConfigMap>(&env, &cache)
        .owns_full::<Secret>()
        .index(SECRET_OWNER, |secret: &Secret| {
            secret
                .owner_references()
                .iter()
                .filter(|o| o.controller == Some(true))
                .map(|o| o.name.clone())
                .collect()
        })
        .index("has-data", |config: &ConfigMap| vec![config.data.is_some().to_string()])
        .build(ListsByIndex {
            calls: calls.clone(),
            children: children.clone(),
        });
    // Declared on the informers the controller reads, before it starts.
    let primary = cache.informer::<ConfigMap>(Scope::namespace(env.namespace()));
    assert!(primary.store().index_values("has-data").is_ok(), "the primary's index");
    let owned = cache.informer::<Secret>(Scope::namespace(env.namespace()));
    assert!(owned.store().index_values(SECRET_OWNER).is_ok(), "the children's index");
    let running = Running::start(&cache, built).await;

    let parent = configmaps
        .create(&PostParams::default(), &configmap("parent", &[]))
        .await
        .expect("created");
    calls.wait_for("parent", 1).await;
    let controller_ref = owner::controller_ref(&parent).expect("a created object has a uid");
    for name in ["first", "second"] {
        secrets
            .create(&PostParams::default(), &secret(name, Some(controller_ref.clone())))
            .await
            .expect("created");
    }
    // Someone else's Secret is not listed under the parent.
    secrets
        .create(&PostParams::default(), &secret("unowned", None))
        .await
        .expect("created");
    eventually("a reconcile to list both children by the index", || async {
        children.lock().contains(&2).then_some(())
    })
    .await;
    assert!(children.lock().iter().all(|&n| n <= 2), "{:?}", children.lock());
    running.stop().await;
    env.stop().await;
}
