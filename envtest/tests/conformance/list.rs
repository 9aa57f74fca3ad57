//! Item 3: list with label and field selectors, pagination, and the namespaced and
//! all-namespaces paths.
//!
//! Every object here carries a `suite` label and every query selects on it, because a
//! real cluster puts objects of its own in new namespaces (`kube-root-ca.crt`).

use std::collections::BTreeSet;

use k8s_openapi::api::core::v1::{ConfigMap, Namespace};
use kube::api::{Api, DeleteParams, ListParams, PostParams};
use serde_json::json;

use crate::common::{api_error, configmap, from_json, start};

async fn names(api: &Api<ConfigMap>, params: &ListParams) -> BTreeSet<String> {
    let list = api
        .list(params)
        .await
        .unwrap_or_else(|e| panic!("list with {params:?}: {e}"));
    list.items.into_iter().map(|cm| cm.metadata.name.unwrap()).collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| (*n).to_owned()).collect()
}

/// `=`, `==`, `!=`, `in`, `notin`, exists and `!exists`, alone and combined.
#[tokio::test]
async fn label_selectors_select_by_equality_sets_and_existence() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let objects = [
        ("a", vec![("env", "prod"), ("tier", "web")]),
        ("b", vec![("env", "dev"), ("tier", "web")]),
        ("c", vec![("env", "prod")]),
        ("d", vec![]),
    ];
    for (name, labels) in &objects {
        let mut labels = labels.clone();
        labels.push(("suite", "selectors"));
        api.create(&PostParams::default(), &configmap(name, &labels, &[]))
            .await
            .unwrap();
    }
    let cases: [(&str, &[&str]); 10] = [
        ("env=prod", &["a", "c"]),
        ("env==prod", &["a", "c"]),
        ("env!=prod", &["b", "d"]),
        ("env in (prod,dev)", &["a", "b", "c"]),
        ("env in (dev)", &["b"]),
        ("env notin (prod)", &["b", "d"]),
        ("tier", &["a", "b"]),
        ("!tier", &["c", "d"]),
        ("env=prod,tier=web", &["a"]),
        ("env,!tier", &["c"]),
    ];
    for (selector, expected) in cases {
        let params = ListParams::default().labels(&format!("suite=selectors,{selector}"));
        assert_eq!(names(&api, &params).await, set(expected), "labelSelector {selector}");
    }
    let status = api_error(api.list(&ListParams::default().labels("env in prod")).await);
    assert_eq!(
        (status.code, status.reason.as_str()),
        (400, "BadRequest"),
        "a malformed selector"
    );
    env.stop().await;
}

/// `metadata.name` and `metadata.namespace` field selectors, with `=`, `==` and `!=`.
#[tokio::test]
async fn field_selectors_select_by_name_and_namespace() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    for name in ["one", "two", "three"] {
        api.create(&PostParams::default(), &configmap(name, &[("suite", "fields")], &[]))
            .await
            .unwrap();
    }
    let labelled = ListParams::default().labels("suite=fields");
    assert_eq!(
        names(&api, &labelled.clone().fields("metadata.name=two")).await,
        set(&["two"])
    );
    assert_eq!(
        names(&api, &labelled.clone().fields("metadata.name==two")).await,
        set(&["two"])
    );
    assert_eq!(
        names(&api, &labelled.clone().fields("metadata.name!=two")).await,
        set(&["one", "three"])
    );

    let everywhere: Api<ConfigMap> = Api::all(env.client());
    let ours = labelled
        .clone()
        .fields(&format!("metadata.namespace={}", env.namespace()));
    let list = everywhere.list(&ours).await.unwrap();
    assert_eq!(list.items.len(), 3);
    assert!(
        list.items
            .iter()
            .all(|cm| cm.metadata.namespace.as_deref() == Some(env.namespace()))
    );
    let elsewhere = ListParams::default().fields(&format!("metadata.namespace!={}", env.namespace()));
    let list = everywhere.list(&elsewhere.labels("suite=fields")).await.unwrap();
    assert!(
        list.items
            .iter()
            .all(|cm| cm.metadata.namespace.as_deref() != Some(env.namespace()))
    );

    let status = api_error(api.list(&ListParams::default().fields("data.key=x")).await);
    assert_eq!(status.code, 400, "an unsupported field selector: {}", status.message);
    env.stop().await;
}

/// `limit` + `continue`: 25 objects in pages of 10 are 3 pages, each object once.
#[tokio::test]
async fn pagination_returns_every_object_exactly_once() {
    let env = start().await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let mut expected = BTreeSet::new();
    for i in 0..25 {
        let name = format!("page-{i:02}");
        api.create(&PostParams::default(), &configmap(&name, &[("suite", "pages")], &[]))
            .await
            .unwrap();
        expected.insert(name);
    }
    let mut seen = Vec::new();
    let mut pages = Vec::new();
    let mut params = ListParams::default().labels("suite=pages").limit(10);
    let mut revisions = BTreeSet::new();
    loop {
        let page = api.list(&params).await.unwrap();
        pages.push(page.items.len());
        revisions.insert(page.metadata.resource_version.clone().unwrap_or_default());
        seen.extend(page.items.into_iter().map(|cm| cm.metadata.name.unwrap()));
        match page.metadata.continue_.filter(|c| !c.is_empty()) {
            Some(token) => params = params.continue_token(&token),
            None => break,
        }
        // An object written between pages must not show up: pages read one revision.
        if pages.len() == 1 {
            api.create(
                &PostParams::default(),
                &configmap("page-late", &[("suite", "pages")], &[]),
            )
            .await
            .unwrap();
        }
    }
    assert_eq!(pages, vec![10, 10, 5]);
    assert_eq!(seen.len(), 25, "no object twice: {seen:?}");
    assert_eq!(seen.iter().cloned().collect::<BTreeSet<_>>(), expected);
    assert_eq!(
        revisions.len(),
        1,
        "all pages report the revision of the first: {revisions:?}"
    );

    let status = api_error(
        api.list(&ListParams::default().limit(10).continue_token("not-a-token"))
            .await,
    );
    assert_eq!(
        (status.code, status.reason.as_str()),
        (400, "BadRequest"),
        "a garbage continue token"
    );
    env.stop().await;
}

/// The namespaced path lists one namespace; the all-namespaces path lists all.
#[tokio::test]
async fn namespaced_and_all_namespaces_lists() {
    let env = start().await;
    let namespaces: Api<Namespace> = Api::all(env.client());
    let other: Namespace = from_json(json!({"metadata": {"generateName": "conformance-other-"}}));
    let other = namespaces
        .create(&PostParams::default(), &other)
        .await
        .unwrap()
        .metadata
        .name
        .unwrap();
    let here: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let there: Api<ConfigMap> = Api::namespaced(env.client(), &other);
    let labels = [("suite", "scopes"), ("run", env.namespace())];
    here.create(&PostParams::default(), &configmap("same-name", &labels, &[]))
        .await
        .unwrap();
    there
        .create(&PostParams::default(), &configmap("same-name", &labels, &[]))
        .await
        .unwrap();
    let selector = format!("suite=scopes,run={}", env.namespace());

    let local = here.list(&ListParams::default().labels(&selector)).await.unwrap();
    assert_eq!(local.items.len(), 1);
    assert_eq!(local.items[0].metadata.namespace.as_deref(), Some(env.namespace()));
    let everywhere: Api<ConfigMap> = Api::all(env.client());
    let all = everywhere.list(&ListParams::default().labels(&selector)).await.unwrap();
    let found: BTreeSet<String> = all
        .items
        .iter()
        .map(|cm| cm.metadata.namespace.clone().unwrap())
        .collect();
    assert_eq!(found, set(&[env.namespace(), &other]));

    namespaces.delete(&other, &DeleteParams::default()).await.unwrap();
    env.stop().await;
}
