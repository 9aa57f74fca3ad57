//! KEP-5866 server-side sharded list and watch (`shardSelector`, Kubernetes 1.36+ with
//! the alpha `ShardedListAndWatch` gate): lists, watches and deletecollection keep
//! exactly the objects whose 64-bit FNV-1a hash of the uid (or namespace) falls in the
//! requested ranges, and lists say so in `metadata.shardInfo`.
//!
//! On an existing cluster the tests run where the server honours the parameter (it
//! echoes `shardInfo`) and skip, saying why, where it ignores it. The embedded server
//! is started with the gate on; that it ignores the parameter with the gate off is
//! embedded-only.

use std::collections::{BTreeMap, BTreeSet};

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, ListParams, PostParams};
use serde_json::Value;
use wheelhouse_envtest::{Backend, ServerOptions, TestEnv};

use crate::common::{configmap, list_version, skip_unless_embedded};
use crate::raw::{get_text, send};

const TOP: u128 = 1 << 64;

/// 64-bit FNV-1a, written out here so the test does not trust the server's own.
fn fnv1a64(value: &str) -> u64 {
    value.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn bound(value: u128) -> String {
    if value == TOP {
        "0x10000000000000000".to_owned()
    } else {
        format!("0x{value:016x}")
    }
}

/// Range `index` of `total` equal ranges of the hash space.
fn range(index: u128, total: u128) -> (u128, u128) {
    let span = TOP / total;
    let end = if index + 1 == total { TOP } else { span * (index + 1) };
    (span * index, end)
}

fn selector(field: &str, (start, end): (u128, u128)) -> String {
    format!(
        "shardRange(object.metadata.{field}, '{}', '{}')",
        bound(start),
        bound(end)
    )
}

fn in_range(value: &str, (start, end): (u128, u128)) -> bool {
    let hash = u128::from(fnv1a64(value));
    start <= hash && hash < end
}

/// The environment: an existing cluster as it is, or the embedded server with the
/// gate on.
async fn start_sharded() -> TestEnv {
    if Backend::from_environment() == Backend::Embedded {
        let options = ServerOptions {
            sharded_list_and_watch: true,
            ..ServerOptions::default()
        };
        TestEnv::embedded_with(options)
            .await
            .expect("the embedded server starts")
    } else {
        TestEnv::start().await.expect("the test environment starts")
    }
}

fn query(pairs: &[(&str, &str)]) -> String {
    let mut query = form_urlencoded::Serializer::new(String::new());
    for (key, value) in pairs {
        query.append_pair(key, value);
    }
    query.finish()
}

fn configmaps(env: &TestEnv, pairs: &[(&str, &str)]) -> String {
    format!("/api/v1/namespaces/{}/configmaps?{}", env.namespace(), query(pairs))
}

/// A list of the env's `ConfigMaps`: its JSON, which must be a success.
async fn list(env: &TestEnv, pairs: &[(&str, &str)]) -> Value {
    let answer = send(&env.client(), http::Method::GET, &configmaps(env, pairs), None).await;
    assert_eq!(answer.code, 200, "list {pairs:?}: {}", answer.body);
    answer.body
}

/// Whether the server honours `shardSelector`; says why the test skips when not.
async fn honours_shards(env: &TestEnv) -> bool {
    let everything = selector("uid", (0, TOP));
    let list = list(env, &[("shardSelector", &everything)]).await;
    if list["metadata"]["shardInfo"]["selector"] == everything.as_str() {
        return true;
    }
    eprintln!("skipped: server ignores shardSelector (KEP-5866 needs 1.36+ with ShardedListAndWatch)");
    false
}

/// Creates `count` `ConfigMaps` labelled `suite=<suite>`; their uids by name.
async fn create(env: &TestEnv, suite: &str, count: usize) -> BTreeMap<String, String> {
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let mut uids = BTreeMap::new();
    for i in 0..count {
        let name = format!("{suite}-{i:02}");
        let created = api
            .create(&PostParams::default(), &configmap(&name, &[("suite", suite)], &[]))
            .await
            .expect("create");
        uids.insert(name, created.metadata.uid.expect("a uid"));
    }
    uids
}

fn names(list: &Value) -> BTreeSet<String> {
    list["items"]
        .as_array()
        .expect("a list has items")
        .iter()
        .map(|item| item["metadata"]["name"].as_str().expect("a name").to_owned())
        .collect()
}

fn expected(uids: &BTreeMap<String, String>, range: (u128, u128)) -> BTreeSet<String> {
    uids.iter()
        .filter(|(_, uid)| in_range(uid, range))
        .map(|(name, _)| name.clone())
        .collect()
}

/// 2 and 4 ranges of the uid hash partition a list exactly, each list echoes its
/// selector in `shardInfo`, and paging through a range (limit and continue) gives the
/// same objects with `shardInfo` on every page and no `remainingItemCount`.
#[tokio::test]
async fn uid_ranges_partition_lists_and_pages() {
    let env = start_sharded().await;
    if !honours_shards(&env).await {
        return env.stop().await;
    }
    let uids = create(&env, "partition", 16).await;
    for total in [2, 4] {
        let mut seen = BTreeSet::new();
        for index in 0..total {
            let range = range(index, total);
            let shard = selector("uid", range);
            let whole = list(&env, &[("labelSelector", "suite=partition"), ("shardSelector", &shard)]).await;
            assert_eq!(whole["metadata"]["shardInfo"]["selector"], shard.as_str());
            let got = names(&whole);
            assert_eq!(got, expected(&uids, range), "range {index} of {total}");
            assert!(got.is_disjoint(&seen), "ranges overlap");
            seen.extend(got.iter().cloned());

            let mut paged = BTreeSet::new();
            let mut token = String::new();
            loop {
                let mut pairs = vec![
                    ("labelSelector", "suite=partition"),
                    ("shardSelector", shard.as_str()),
                    ("limit", "2"),
                ];
                if !token.is_empty() {
                    pairs.push(("continue", token.as_str()));
                }
                let page = list(&env, &pairs).await;
                assert_eq!(page["metadata"]["shardInfo"]["selector"], shard.as_str());
                assert!(page["metadata"].get("remainingItemCount").is_none());
                paged.extend(names(&page));
                token = page["metadata"]["continue"].as_str().unwrap_or_default().to_owned();
                if token.is_empty() {
                    break;
                }
            }
            assert_eq!(paged, got, "paging range {index} of {total}");
        }
        assert_eq!(seen.len(), uids.len(), "the {total} ranges cover every object");
    }
    env.stop().await;
}

/// Ranges joined with `||` select the union of what each selects.
#[tokio::test]
async fn ranges_joined_with_or_select_the_union() {
    let env = start_sharded().await;
    if !honours_shards(&env).await {
        return env.stop().await;
    }
    let uids = create(&env, "union", 12).await;
    let (first, third) = (range(0, 4), range(2, 4));
    let union = format!("{} || {}", selector("uid", first), selector("uid", third));
    let list = list(&env, &[("labelSelector", "suite=union"), ("shardSelector", &union)]).await;
    assert_eq!(list["metadata"]["shardInfo"]["selector"], union.as_str());
    let mut want = expected(&uids, first);
    want.extend(expected(&uids, third));
    assert_eq!(names(&list), want);
    env.stop().await;
}

/// A namespace range keeps all of a namespace's objects or none of them.
#[tokio::test]
async fn namespace_ranges_keep_a_namespace_whole() {
    let env = start_sharded().await;
    if !honours_shards(&env).await {
        return env.stop().await;
    }
    let uids = create(&env, "namespace", 4).await;
    let all: BTreeSet<String> = uids.keys().cloned().collect();
    for index in 0..2 {
        let range = range(index, 2);
        let shard = selector("namespace", range);
        let list = list(&env, &[("labelSelector", "suite=namespace"), ("shardSelector", &shard)]).await;
        let want = if in_range(env.namespace(), range) {
            all.clone()
        } else {
            BTreeSet::new()
        };
        assert_eq!(names(&list), want, "namespace range {index} of 2");
    }
    env.stop().await;
}

/// The events of a watch per range: each object's ADDED, MODIFIED and DELETED go to
/// the watch of its range and to no other.
#[tokio::test]
async fn watches_send_only_their_ranges_events() {
    let env = start_sharded().await;
    if !honours_shards(&env).await {
        return env.stop().await;
    }
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let from = list_version(&api).await;
    let uids = create(&env, "watched", 10).await;
    for name in uids.keys() {
        let patch = serde_json::json!({"data": {"step": "modified"}});
        api.patch(
            name,
            &kube::api::PatchParams::default(),
            &kube::api::Patch::Merge(&patch),
        )
        .await
        .expect("patch");
        api.delete(name, &kube::api::DeleteParams::default())
            .await
            .expect("delete");
    }
    let mut seen = BTreeSet::new();
    for index in 0..2 {
        let range = range(index, 2);
        let shard = selector("uid", range);
        let path = configmaps(
            &env,
            &[
                ("watch", "true"),
                ("resourceVersion", &from),
                ("labelSelector", "suite=watched"),
                ("shardSelector", &shard),
                ("timeoutSeconds", "2"),
            ],
        );
        let (code, _, body) = get_text(&env.client(), &path).await;
        assert_eq!(code, 200, "{body}");
        let mut events: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for line in body.lines().filter(|l| !l.trim().is_empty()) {
            let event: Value = serde_json::from_str(line).expect("a watch line is JSON");
            let kind = event["type"].as_str().expect("an event type").to_owned();
            if kind == "BOOKMARK" {
                continue;
            }
            let name = event["object"]["metadata"]["name"].as_str().expect("a name").to_owned();
            events.entry(name).or_default().push(kind);
        }
        let want = expected(&uids, range);
        assert_eq!(
            events.keys().cloned().collect::<BTreeSet<_>>(),
            want,
            "range {index} of 2"
        );
        for (name, kinds) in &events {
            assert_eq!(kinds, &["ADDED", "MODIFIED", "DELETED"], "events of {name}");
        }
        seen.extend(want);
    }
    assert_eq!(seen.len(), uids.len());
    env.stop().await;
}

/// deletecollection deletes the objects of the range and leaves the others.
#[tokio::test]
async fn deletecollection_deletes_only_the_range() {
    let env = start_sharded().await;
    if !honours_shards(&env).await {
        return env.stop().await;
    }
    let uids = create(&env, "collected", 10).await;
    let low = range(0, 2);
    let path = configmaps(
        &env,
        &[
            ("labelSelector", "suite=collected"),
            ("shardSelector", &selector("uid", low)),
        ],
    );
    let answer = send(&env.client(), http::Method::DELETE, &path, None).await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let left: BTreeSet<String> = api
        .list(&ListParams::default().labels("suite=collected"))
        .await
        .expect("list")
        .items
        .into_iter()
        .filter_map(|cm| cm.metadata.name)
        .collect();
    assert_eq!(left, expected(&uids, range(1, 2)));
    env.stop().await;
}

/// A malformed selector is a 400 that says what is wrong with it.
#[tokio::test]
async fn malformed_selectors_are_bad_requests() {
    let env = start_sharded().await;
    if !honours_shards(&env).await {
        return env.stop().await;
    }
    let cases = [
        (
            "shardRange(object.metadata.uid, '0x8000000000000000', '0x0000000000000000')",
            "must be less than end",
        ),
        (
            "shardRange(object.metadata.uid, '0', '0x8000000000000000')",
            "must have '0x' prefix",
        ),
        (
            "shardRange(object.metadata.uid, '0x0', '0x8000000000000000')",
            "16-digit hex value",
        ),
        (
            "shardRange(object.metadata.uid, '0x00000000000000AA', '0x8000000000000000')",
            "invalid hex character",
        ),
        (
            "shardRange(object.metadata.name, '0x0000000000000000', '0x8000000000000000')",
            "unsupported field path",
        ),
        ("labels(app)", "unsupported function"),
    ];
    for (shard, says) in cases {
        for watch in ["false", "true"] {
            let path = configmaps(&env, &[("shardSelector", shard), ("watch", watch)]);
            let answer = send(&env.client(), http::Method::GET, &path, None).await;
            assert_eq!(answer.code, 400, "{shard} (watch {watch}): {}", answer.body);
            assert_eq!(answer.body["reason"], "BadRequest");
            let message = answer.body["message"].as_str().unwrap_or_default();
            assert!(message.contains(says), "{shard}: {message:?} says {says:?}");
        }
    }
    env.stop().await;
}

/// With the gate off (the default) the embedded server ignores the parameter, as an
/// older kube-apiserver does: everything is sent, with no `shardInfo`, and even a
/// malformed selector is no error.
#[tokio::test]
async fn with_the_gate_off_the_parameter_is_ignored() {
    let env = TestEnv::start().await.expect("the test environment starts");
    if skip_unless_embedded(&env, "the ShardedListAndWatch gate off") {
        return env.stop().await;
    }
    let uids = create(&env, "ignored", 6).await;
    let half = selector("uid", range(0, 2));
    for shard in [half.as_str(), "shardRange(nonsense"] {
        let list = list(&env, &[("labelSelector", "suite=ignored"), ("shardSelector", shard)]).await;
        assert!(list["metadata"].get("shardInfo").is_none());
        assert_eq!(names(&list).len(), uids.len());
    }
    env.stop().await;
}
