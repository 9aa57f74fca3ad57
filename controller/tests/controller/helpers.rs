//! The helpers a reconciler calls: status conditions, server-side apply and
//! finalizers.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::ConfigMap;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, Time};
use kube::ResourceExt;
use kube::api::{Api, Patch, PatchParams, PostParams};
use serde_json::json;
use wheelhouse_cache::{Cache, Scope};
use wheelhouse_controller::conditions::{find, set_condition};
use wheelhouse_controller::{Applier, apply, finalizer, owner};

use crate::common::{configmap, eventually, start};

/// A condition set long ago, so that a new transition time is always different.
fn old_condition(type_: &str, status: &str) -> Condition {
    Condition {
        type_: type_.to_owned(),
        status: status.to_owned(),
        reason: "Before".to_owned(),
        message: "set long ago".to_owned(),
        observed_generation: Some(1),
        last_transition_time: Time("2020-01-01T00:00:00Z".parse().expect("a timestamp")),
    }
}

#[test]
fn set_condition_moves_the_transition_time_only_when_the_status_changes() {
    let long_ago = old_condition("Ready", "False").last_transition_time;
    let mut conditions = vec![old_condition("Ready", "False")];

    // Reason, message and generation change; the status does not.
    assert!(set_condition(
        &mut conditions,
        "Ready",
        "False",
        "Scaling",
        "2 of 3 ready",
        Some(2)
    ));
    let ready = find(&conditions, "Ready").expect("still there");
    assert_eq!(
        (ready.reason.as_str(), ready.message.as_str()),
        ("Scaling", "2 of 3 ready")
    );
    assert_eq!(ready.observed_generation, Some(2));
    assert_eq!(
        ready.last_transition_time, long_ago,
        "same status, same transition time"
    );

    // Only the observed generation changes: still a change, still the same time.
    assert!(set_condition(
        &mut conditions,
        "Ready",
        "False",
        "Scaling",
        "2 of 3 ready",
        Some(3)
    ));
    assert_eq!(conditions[0].last_transition_time, long_ago);

    assert!(set_condition(
        &mut conditions,
        "Ready",
        "True",
        "Available",
        "3 of 3 ready",
        Some(3)
    ));
    assert!(
        conditions[0].last_transition_time.0 > long_ago.0,
        "a status change moves the transition time"
    );
    assert_eq!(conditions.len(), 1, "a condition is updated in place, never duplicated");
}

#[test]
fn set_condition_leaves_other_types_alone() {
    let mut conditions = vec![old_condition("Ready", "False"), old_condition("Progressing", "True")];
    let before = conditions[1].clone();
    assert!(set_condition(
        &mut conditions,
        "Ready",
        "True",
        "Available",
        "ok",
        Some(1)
    ));
    assert_eq!(conditions[1], before, "another type was touched");

    assert!(set_condition(&mut conditions, "Degraded", "False", "Healthy", "", None));
    assert_eq!(conditions.len(), 3, "a new type is appended");
    assert_eq!(find(&conditions, "Degraded").map(|c| c.status.as_str()), Some("False"));
    assert!(find(&conditions, "Missing").is_none());
}

fn data_of(object: &ConfigMap) -> BTreeMap<String, String> {
    object.data.clone().unwrap_or_default()
}

fn data(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn apply_creates_updates_and_prunes_what_it_stopped_applying() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let parent = api
        .create(&PostParams::default(), &configmap("parent", &[]))
        .await
        .expect("created");
    let manager = "wheelhouse-test";

    let mut desired = configmap("child", &[("mode", "fast"), ("level", "3")]);
    desired.metadata.owner_references = Some(vec![owner::controller_ref(&parent).expect("has a uid")]);
    let created = apply(&api, &desired, manager).await.expect("apply creates");
    assert_eq!(data_of(&created), data(&[("mode", "fast"), ("level", "3")]));
    assert_eq!(owner::controller_of(&created).map(|r| r.name.as_str()), Some("parent"));

    // Applying the same configuration again changes nothing: a level-triggered
    // reconciler applies on every pass and must not wake itself up.
    let again = apply(&api, &desired, manager).await.expect("apply is idempotent");
    assert_eq!(
        again.resource_version(),
        created.resource_version(),
        "a no-op apply wrote the object"
    );

    // Another manager's field survives; the field this manager stopped applying goes.
    let theirs = PatchParams {
        field_manager: Some("someone-else".to_owned()),
        ..PatchParams::default()
    };
    api.patch("child", &theirs, &Patch::Merge(&json!({"data": {"note": "theirs"}})))
        .await
        .expect("patched by another manager");
    desired.data = Some(data(&[("mode", "slow")]));
    let updated = apply(&api, &desired, manager).await.expect("apply updates");
    assert_eq!(data_of(&updated), data(&[("mode", "slow"), ("note", "theirs")]));
    assert_eq!(data_of(&api.get("child").await.expect("exists")), data_of(&updated));
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn applier_skips_an_apply_only_when_the_cache_shows_it_in_place() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let cache = Cache::new(env.client());
    let informer = cache.informer::<ConfigMap>(Scope::namespace(env.namespace()));
    cache.start();
    informer.wait_for_sync().await;
    let applier = Applier::new(&informer, "wheelhouse-test");
    // Waits until the cache holds `child` with `data` (and, if given, another uid).
    let cached = |data: BTreeMap<String, String>, not_uid: Option<String>| {
        let store = informer.store().clone();
        let namespace = env.namespace().to_owned();
        eventually("the cache to catch up", move || {
            let found = store
                .get(Some(&namespace), "child")
                .filter(|c| data_of(c) == data && not_uid.as_ref().is_none_or(|uid| c.uid().as_ref() != Some(uid)));
            async move { found }
        })
    };

    let desired = configmap("child", &[("mode", "fast"), ("level", "3")]);
    let created = applier.apply(&api, &desired).await.expect("apply creates");
    assert_eq!((applier.sent(), applier.skipped()), (1, 0));
    cached(data(&[("mode", "fast"), ("level", "3")]), None).await;
    let again = applier.apply(&api, &desired).await.expect("skipped");
    assert_eq!(
        (applier.sent(), applier.skipped()),
        (1, 1),
        "an apply in place was sent"
    );
    assert_eq!(again.resource_version(), created.resource_version());
    // Another replica's applier, or this one after a restart, remembers nothing it sent,
    // yet the object itself says which configuration this manager applied there.
    let restarted = Applier::new(&informer, "wheelhouse-test");
    restarted.apply(&api, &desired).await.expect("skipped");
    assert_eq!(
        (restarted.sent(), restarted.skipped()),
        (0, 1),
        "a new applier sent an apply in place"
    );

    // Someone else changes a field this manager sets: the next apply is sent and
    // puts it back.
    let theirs = PatchParams {
        field_manager: Some("someone-else".to_owned()),
        ..PatchParams::default()
    };
    api.patch("child", &theirs, &Patch::Merge(&json!({"data": {"mode": "slow"}})))
        .await
        .expect("patched by another manager");
    cached(data(&[("mode", "slow"), ("level", "3")]), None).await;
    let restored = applier.apply(&api, &desired).await.expect("apply restores");
    assert_eq!(applier.sent(), 2, "a changed field was not applied back");
    assert_eq!(data_of(&restored), data(&[("mode", "fast"), ("level", "3")]));

    // A field this manager stops setting is still in the cache, yet the apply is sent,
    // so that the server removes it.
    cached(data(&[("mode", "fast"), ("level", "3")]), None).await;
    let fewer = configmap("child", &[("mode", "fast")]);
    let pruned = applier.apply(&api, &fewer).await.expect("apply prunes");
    assert_eq!(applier.sent(), 3, "a dropped field was skipped");
    assert_eq!(data_of(&pruned), data(&[("mode", "fast")]));

    // The same content in a new object (deleted and made again by someone else) is
    // applied again, so that this manager owns its fields there too.
    cached(data(&[("mode", "fast")]), None).await;
    let old_uid = pruned.uid();
    api.delete("child", &kube::api::DeleteParams::default())
        .await
        .expect("deleted");
    api.create(&PostParams::default(), &fewer).await.expect("made again");
    cached(data(&[("mode", "fast")]), old_uid).await;
    let stored = applier.apply(&api, &fewer).await.expect("apply to the new object");
    assert_eq!(applier.sent(), 4, "an apply to a new object was skipped");

    // Another field manager has applied nothing there: its apply of the very same
    // configuration is sent, so that it owns the fields too.
    let version = stored.resource_version();
    let store = informer.store().clone();
    let namespace = env.namespace().to_owned();
    eventually("the cache to hold the apply", move || {
        let found = store
            .get(Some(&namespace), "child")
            .filter(|c| c.resource_version() == version);
        async move { found }
    })
    .await;
    let stranger = Applier::new(&informer, "another-manager");
    stranger.apply(&api, &fewer).await.expect("applied");
    assert_eq!(stranger.sent(), 1, "another manager's apply was skipped");
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finalizer_helpers_add_remove_and_refuse_a_stale_object() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let original = api
        .create(&PostParams::default(), &configmap("held", &[]))
        .await
        .expect("created");

    let held = finalizer::ensure(&api, &original, "test.wheelhouse.rs/a")
        .await
        .expect("added");
    assert_eq!(held.finalizers(), ["test.wheelhouse.rs/a"]);
    let same = finalizer::ensure(&api, &held, "test.wheelhouse.rs/a")
        .await
        .expect("already there");
    assert_eq!(
        same.resource_version(),
        held.resource_version(),
        "ensure wrote an unchanged list"
    );

    // The original copy predates the first finalizer: patching from it would drop
    // that finalizer, so the resourceVersion precondition refuses it.
    match finalizer::ensure(&api, &original, "test.wheelhouse.rs/b").await {
        Err(kube::Error::Api(status)) => assert_eq!(status.code, 409, "{status:?}"),
        other => panic!("a stale object was patched: {other:?}"),
    }
    assert_eq!(
        api.get("held").await.expect("exists").finalizers(),
        ["test.wheelhouse.rs/a"]
    );

    let both = finalizer::ensure(&api, &held, "test.wheelhouse.rs/b")
        .await
        .expect("added");
    assert_eq!(both.finalizers(), ["test.wheelhouse.rs/a", "test.wheelhouse.rs/b"]);
    let one = finalizer::remove(&api, &both, "test.wheelhouse.rs/a")
        .await
        .expect("removed");
    assert_eq!(one.finalizers(), ["test.wheelhouse.rs/b"]);
    let none = finalizer::remove(&api, &one, "test.wheelhouse.rs/b")
        .await
        .expect("removed");
    assert!(none.finalizers().is_empty());
    env.stop().await;
}
