//! What the informer tests share: the environment, bounded waiting, objects to write,
//! and the server's view of them to compare a store with.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, ListParams};
use prometheus::Registry;
use prometheus::proto::MetricType;
use serde_json::json;
use wheelhouse_cache::{Event, Scope, Subscription};
use wheelhouse_envtest::{ApiServer, InjectedFailure, TestEnv, Verb};

/// How long any condition may take: generous, so a busy real cluster passes too.
pub(crate) const TIMEOUT: Duration = Duration::from_secs(30);

/// How often a waiting test checks again.
const POLL: Duration = Duration::from_millis(20);

/// The environment `USE_EXISTING_CLUSTER` asks for, with a fresh namespace.
pub(crate) async fn start() -> TestEnv {
    TestEnv::start().await.expect("the test environment starts")
}

pub(crate) use wheelhouse_envtest::eventually;

/// Waits until `check` returns `Ok`; on timeout, fails with the last `Err` it gave.
pub(crate) async fn converge<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<(), String>>,
{
    let deadline = tokio::time::Instant::now() + TIMEOUT;
    loop {
        match check().await {
            Ok(()) => return,
            Err(difference) => assert!(
                tokio::time::Instant::now() < deadline,
                "timed out after {TIMEOUT:?} waiting for {what}: {difference}"
            ),
        }
        tokio::time::sleep(POLL).await;
    }
}

/// Tests of what only the embedded server offers skip that part on a real cluster.
pub(crate) fn embedded<'a>(env: &'a TestEnv, what: &str) -> Option<&'a ApiServer> {
    let server = env.server();
    if server.is_none() {
        eprintln!(
            "skipped: {what} needs the embedded API server, not a real one (USE_EXISTING_CLUSTER=true or KUBEBUILDER_ASSETS)"
        );
    }
    server
}

/// The label of every object the tests write, so that a scope can leave out what a
/// real cluster adds to each namespace (the `kube-root-ca.crt` `ConfigMap`).
pub(crate) const SUITE: &str = "suite=informers";

/// The test's objects in its namespace: what informers watch when a test expects
/// exact contents.
pub(crate) fn scope(namespace: &str) -> Scope {
    Scope::namespace(namespace).labels(SUITE)
}

/// A `ConfigMap` with labels (and the [`SUITE`] label) and data.
pub(crate) fn configmap(name: &str, labels: &[(&str, &str)], data: &[(&str, &str)]) -> ConfigMap {
    let mut labels: BTreeMap<&str, &str> = labels.iter().copied().collect();
    labels.insert("suite", "informers");
    let data: BTreeMap<&str, &str> = data.iter().copied().collect();
    serde_json::from_value(json!({"metadata": {"name": name, "labels": labels}, "data": data}))
        .expect("the test's JSON is a ConfigMap")
}

/// name → resourceVersion of objects.
pub(crate) fn versions<'a, K: kube::Resource + 'a>(
    objects: impl IntoIterator<Item = &'a K>,
) -> BTreeMap<String, String> {
    objects
        .into_iter()
        .map(|object| {
            let meta = object.meta();
            (
                meta.name.clone().unwrap_or_default(),
                meta.resource_version.clone().unwrap_or_default(),
            )
        })
        .collect()
}

/// name → resourceVersion of stored objects.
pub(crate) fn stored_versions<K: kube::Resource>(objects: &[Arc<K>]) -> BTreeMap<String, String> {
    versions(objects.iter().map(AsRef::as_ref))
}

/// name → resourceVersion of the `ConfigMaps` matching `selector` on the server.
pub(crate) async fn server_versions(api: &Api<ConfigMap>, selector: &str) -> BTreeMap<String, String> {
    let list = api
        .list(&ListParams::default().labels(selector))
        .await
        .expect("list succeeds");
    versions(&list.items)
}

/// An event as `Kind name@resourceVersion`, to compare sequences; an update shows
/// both versions.
pub(crate) fn describe<K: kube::Resource>(event: &Event<K>) -> String {
    let at = |object: &K| {
        let meta = object.meta();
        format!(
            "{}@{}",
            meta.name.as_deref().unwrap_or_default(),
            meta.resource_version.as_deref().unwrap_or_default()
        )
    };
    match event {
        Event::Added(object) => format!("Added {}", at(object)),
        Event::Updated { old, new } => format!("Updated {} -> {}", at(old), at(new)),
        Event::Deleted(object) => format!("Deleted {}", at(object)),
        Event::Lagged => "Lagged".to_owned(),
    }
}

/// `Kind name@resourceVersion` of an object, as [`describe`] writes it.
pub(crate) fn event_of(kind: &str, object: &ConfigMap) -> String {
    format!(
        "{kind} {}@{}",
        object.metadata.name.as_deref().unwrap_or_default(),
        object.metadata.resource_version.as_deref().unwrap_or_default()
    )
}

/// The next event, waiting at most [`TIMEOUT`].
pub(crate) async fn next_event<K: kube::Resource>(subscription: &mut Subscription<K>) -> Event<K> {
    tokio::time::timeout(TIMEOUT, subscription.recv())
        .await
        .unwrap_or_else(|_| panic!("no event within {TIMEOUT:?}"))
        .expect("the informer is running")
}

/// The next `count` events, described.
pub(crate) async fn next_events<K: kube::Resource>(subscription: &mut Subscription<K>, count: usize) -> Vec<String> {
    let mut events = Vec::with_capacity(count);
    for _ in 0..count {
        events.push(describe(&next_event(subscription).await));
    }
    events
}

/// Ends the informers' watches and holds them off: a re-watch fails with 500, after
/// which kube's backoff (at least 800 ms) keeps the watcher away while the test changes
/// objects and compacts history, so the watcher must relist when it returns.
pub(crate) async fn disconnect(server: &ApiServer) {
    let failed = server.fault_counts().failed_requests;
    server.fail_next(1, InjectedFailure::server_error(Verb::Watch, "configmaps"));
    eventually("the informer's re-watch to fail", || async {
        if server.fault_counts().failed_requests > failed {
            return Some(());
        }
        server.drop_watches();
        None
    })
    .await;
}

/// The value of the series of `family` whose labels include all of `labels`.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "the cache's series are counts, small whole numbers"
)]
pub(crate) fn metric(registry: &Registry, family: &str, labels: &[(&str, &str)]) -> Option<u64> {
    let families = registry.gather();
    let family = families.iter().find(|f| f.name() == family)?;
    let metric = family.get_metric().iter().find(|metric| {
        labels.iter().all(|(name, value)| {
            metric
                .get_label()
                .iter()
                .any(|l| l.name() == *name && l.value() == *value)
        })
    })?;
    let value = match family.get_field_type() {
        MetricType::GAUGE => metric.get_gauge().get_value(),
        _ => metric.get_counter().get_value(),
    };
    Some(value.round() as u64)
}
