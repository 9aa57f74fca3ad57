//! The store and its indexes equal the server's objects after every kind of change,
//! including a dropped watch and a compaction that forces a relist.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::ResourceExt;
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use prometheus::Registry;
use serde_json::json;
use wheelhouse_cache::{Cache, CacheMetrics, Informer, ListOptions, Scope};
use wheelhouse_envtest::Verb;

use crate::common::{
    TIMEOUT, configmap, converge, disconnect, embedded, metric, server_versions, start, stored_versions,
};

fn by_tier(config: &ConfigMap) -> Vec<String> {
    config.labels().get("tier").cloned().into_iter().collect()
}

/// Every key of `app` and `tier` labels, so one object sits under several values.
fn by_label_key(config: &ConfigMap) -> Vec<String> {
    config
        .labels()
        .keys()
        .filter(|key| matches!(key.as_str(), "app" | "tier"))
        .cloned()
        .collect()
}

/// Compares the store with the server: everything, each query, and the indexes.
async fn difference(informer: &Informer<ConfigMap>, api: &Api<ConfigMap>, namespace: &str) -> Result<(), String> {
    let store = informer.store();
    let problems = store.check_indexes();
    if !problems.is_empty() {
        return Err(format!("indexes differ from a recomputation: {problems:?}"));
    }
    let list = |options: ListOptions| stored_versions(&store.list(&options).expect("the query is valid"));
    let queries = [
        ("everything", String::new(), ListOptions::default()),
        (
            "the namespace",
            String::new(),
            ListOptions {
                namespace: Some(namespace.to_owned()),
                ..ListOptions::default()
            },
        ),
        (
            "tier=a by selector",
            "tier=a".to_owned(),
            ListOptions {
                label_selector: Some("tier=a".into()),
                ..ListOptions::default()
            },
        ),
        (
            "tier=b by index",
            "tier=b".to_owned(),
            ListOptions {
                index: Some(("tier".into(), "b".into())),
                ..ListOptions::default()
            },
        ),
        (
            "tier=a by index, app=web by selector, in the namespace",
            "tier=a,app=web".to_owned(),
            ListOptions {
                namespace: Some(namespace.to_owned()),
                label_selector: Some("app=web".into()),
                index: Some(("tier".into(), "a".into())),
            },
        ),
        (
            "objects with a tier label, by the label-key index",
            "tier".to_owned(),
            ListOptions {
                index: Some(("label-key".into(), "tier".into())),
                ..ListOptions::default()
            },
        ),
        (
            "objects without a tier label",
            "!tier".to_owned(),
            ListOptions {
                label_selector: Some("!tier".into()),
                ..ListOptions::default()
            },
        ),
    ];
    for (what, selector, options) in queries {
        let (stored, served) = (list(options), server_versions(api, &selector).await);
        if stored != served {
            return Err(format!("{what}: store {stored:?}, server {served:?}"));
        }
    }
    let elsewhere = store.list(&ListOptions {
        namespace: Some("elsewhere".into()),
        ..ListOptions::default()
    });
    if !elsewhere.expect("the query is valid").is_empty() {
        return Err("objects listed under another namespace".into());
    }
    let mut tiers: Vec<(String, usize)> = store.index_values("tier").expect("the index exists");
    tiers.sort();
    let mut served_tiers = BTreeMap::<String, usize>::new();
    for tier in ["a", "b"] {
        let count = server_versions(api, &format!("tier={tier}")).await.len();
        if count > 0 {
            served_tiers.insert(tier.to_owned(), count);
        }
    }
    if tiers != served_tiers.into_iter().collect::<Vec<_>>() {
        return Err(format!("index values {tiers:?} differ from the server's tiers"));
    }
    Ok(())
}

async fn wait_exact(step: &str, informer: &Informer<ConfigMap>, api: &Api<ConfigMap>, namespace: &str) {
    converge(&format!("the store to equal the server after {step}"), || {
        difference(informer, api, namespace)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn store_and_indexes_stay_exact_through_changes_and_faults() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let api: Api<ConfigMap> = Api::namespaced(env.client(), &namespace);
    let create = |name: &str, labels: &[(&str, &str)]| {
        let config = configmap(name, labels, &[("k", "v")]);
        let api = api.clone();
        async move { api.create(&PostParams::default(), &config).await.unwrap() }
    };
    let relabel = |name: &'static str, labels: serde_json::Value| {
        let api = api.clone();
        async move {
            api.patch(
                name,
                &PatchParams::default(),
                &Patch::Merge(json!({"metadata": {"labels": labels}})),
            )
            .await
            .unwrap()
        }
    };
    let delete = |name: &'static str| {
        let api = api.clone();
        async move { api.delete(name, &DeleteParams::default()).await.unwrap() }
    };
    for i in 0..6 {
        let tier = if i % 2 == 0 { "a" } else { "b" };
        let app = if i < 3 { "web" } else { "db" };
        create(&format!("c{i}"), &[("tier", tier), ("app", app)]).await;
    }
    let registry = Registry::new();
    let metrics = CacheMetrics::register(&registry).expect("the metrics register");
    let cache = Cache::with_metrics(env.client(), Some(metrics));
    let informer = cache.informer::<ConfigMap>(Scope::namespace(&namespace));
    informer.store().add_index("tier", by_tier);
    cache.start();
    cache.wait_for_sync(TIMEOUT).await.expect("the informer syncs");
    // An index added to a filled store is filled from it.
    informer.store().add_index("label-key", by_label_key);
    wait_exact("the initial list", &informer, &api, &namespace).await;

    create("c6", &[("tier", "a"), ("app", "web")]).await;
    create("c7", &[]).await;
    wait_exact("creates", &informer, &api, &namespace).await;

    relabel("c0", json!({"tier": "b"})).await; // moves between index values
    relabel("c1", json!({"tier": null})).await; // leaves the index
    relabel("c7", json!({"tier": "a", "app": "web"})).await; // joins it
    api.patch(
        "c2",
        &PatchParams::default(),
        &Patch::Merge(json!({"data": {"k": "changed"}})),
    )
    .await
    .unwrap();
    wait_exact("updates", &informer, &api, &namespace).await;

    delete("c3").await;
    delete("c6").await;
    wait_exact("deletes", &informer, &api, &namespace).await;

    let Some(server) = embedded(&env, "dropping watches and compacting history") else {
        env.stop().await;
        return;
    };
    // The server's list count includes the test's own lists: count the informer's.
    let name = informer.name().to_owned();
    let relists = || metric(&registry, "wheelhouse_cache_relists_total", &[("informer", &name)]).unwrap_or_default();
    let watches = server.request_count(Verb::Watch, "configmaps");
    assert_eq!(server.drop_watches(), 1);
    create("c8", &[("tier", "b")]).await;
    delete("c4").await;
    relabel("c5", json!({"tier": "a"})).await;
    wait_exact("a dropped watch", &informer, &api, &namespace).await;
    assert!(
        server.request_count(Verb::Watch, "configmaps") > watches,
        "the informer watched again"
    );
    assert!(relists() == 0, "a dropped watch resumes without a relist");

    disconnect(server).await;
    create("c9", &[("tier", "a"), ("app", "web")]).await;
    delete("c0").await;
    relabel("c5", json!({"tier": "b", "app": "web"})).await;
    relabel("c2", json!({"tier": null})).await;
    server.compact();
    wait_exact("a compaction", &informer, &api, &namespace).await;
    assert!(relists() > 0, "the informer relisted after 410 Gone");
    env.stop().await;
}
