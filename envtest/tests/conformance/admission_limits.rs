//! The `LimitRanger` admission plugin's checks, beyond its defaults (in `plugins`):
//! the ratio of a container's limit to its request, init containers held to the
//! container bounds, a Pod's totals held to `Pod` items, and claims' storage requests
//! held to `PersistentVolumeClaim` items, each refused in kube's words.

use k8s_openapi::api::core::v1::{LimitRange, PersistentVolumeClaim, Pod};
use kube::api::{Api, PostParams};
use serde_json::{Value, json};
use wheelhouse_envtest::TestEnv;

use crate::common::{IMAGE, api_error, from_json, start};

async fn limit_range(env: &TestEnv, name: &str, limits: Value) {
    let ranges: Api<LimitRange> = Api::namespaced(env.client(), env.namespace());
    let range =
        json!({"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": name}, "spec": {"limits": limits}});
    ranges
        .create(&PostParams::default(), &from_json(range))
        .await
        .expect("the range is created");
}

fn pod(name: &str, containers: &[(&str, Value)], init: &[(&str, Value)]) -> Pod {
    let list = |items: &[(&str, Value)]| -> Vec<Value> {
        items
            .iter()
            .map(|(name, resources)| json!({"name": name, "image": IMAGE, "resources": resources}))
            .collect()
    };
    let mut spec = json!({"containers": list(containers)});
    if !init.is_empty() {
        spec["initContainers"] = json!(list(init));
    }
    from_json(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name}, "spec": spec}))
}

/// The message of the refusal of creating `pod`.
async fn refusal(env: &TestEnv, pod: &Pod) -> String {
    let pods: Api<Pod> = Api::namespaced(env.client(), env.namespace());
    let status = api_error(pods.create(&PostParams::default(), pod).await);
    assert_eq!(
        (status.code, status.reason.as_str()),
        (403, "Forbidden"),
        "{}",
        status.message
    );
    status.message
}

#[tokio::test]
async fn containers_keep_their_limit_within_a_ratio_of_their_request() {
    let env = start().await;
    limit_range(
        &env,
        "ratio",
        json!([{"type": "Container", "maxLimitRequestRatio": {"cpu": "2"}}]),
    )
    .await;
    let wide = json!({"requests": {"cpu": "250m"}, "limits": {"cpu": "1"}});
    assert_eq!(
        refusal(&env, &pod("wide", &[("app", wide)], &[])).await,
        "pods \"wide\" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000"
    );
    assert_eq!(
        refusal(&env, &pod("bare", &[("app", json!({}))], &[])).await,
        "pods \"bare\" is forbidden: cpu max limit to request ratio per Container is 2, but no request is specified or request is 0"
    );
    let pods: Api<Pod> = Api::namespaced(env.client(), env.namespace());
    let close = json!({"requests": {"cpu": "500m"}, "limits": {"cpu": "1"}});
    pods.create(&PostParams::default(), &pod("close", &[("app", close)], &[]))
        .await
        .expect("a ratio of 2 is allowed");
    env.stop().await;
}

#[tokio::test]
async fn init_containers_are_held_to_the_container_bounds() {
    let env = start().await;
    limit_range(&env, "bounds", json!([{"type": "Container", "max": {"cpu": "1"}}])).await;
    let small = json!({"limits": {"cpu": "500m"}});
    let big = json!({"limits": {"cpu": "2"}});
    assert_eq!(
        refusal(&env, &pod("init", &[("app", small)], &[("setup", big)])).await,
        "pods \"init\" is forbidden: maximum cpu usage per Container is 1, but limit is 2"
    );
    env.stop().await;
}

#[tokio::test]
async fn pods_are_held_to_their_totals() {
    let env = start().await;
    limit_range(&env, "pod", json!([{"type": "Pod", "max": {"cpu": "1"}}])).await;
    let part = json!({"limits": {"cpu": "600m"}});
    assert_eq!(
        refusal(&env, &pod("sum", &[("a", part.clone()), ("b", part.clone())], &[])).await,
        "pods \"sum\" is forbidden: maximum cpu usage per Pod is 1, but limit is 1200m"
    );
    // A Pod item sets no default: a Pod without a limit is refused.
    assert_eq!(
        refusal(&env, &pod("unbounded", &[("a", json!({}))], &[])).await,
        "pods \"unbounded\" is forbidden: maximum cpu usage per Pod is 1.  No limit is specified"
    );
    let pods: Api<Pod> = Api::namespaced(env.client(), env.namespace());
    pods.create(&PostParams::default(), &pod("one", &[("a", part)], &[]))
        .await
        .expect("within the Pod's bound");
    env.stop().await;
}

#[tokio::test]
async fn claims_request_storage_within_their_bounds() {
    let env = start().await;
    let item = json!([{"type": "PersistentVolumeClaim", "min": {"storage": "1Gi"}, "max": {"storage": "2Gi"}}]);
    limit_range(&env, "storage", item).await;
    let claims: Api<PersistentVolumeClaim> = Api::namespaced(env.client(), env.namespace());
    let claim = |name: &str, storage: &str| -> PersistentVolumeClaim {
        from_json(
            json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": name},
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": storage}}}}),
        )
    };
    for (name, storage, message) in [
        (
            "large",
            "3Gi",
            "persistentvolumeclaims \"large\" is forbidden: maximum storage usage per PersistentVolumeClaim is 2Gi, but request is 3Gi",
        ),
        (
            "small",
            "500Mi",
            "persistentvolumeclaims \"small\" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi",
        ),
    ] {
        let status = api_error(claims.create(&PostParams::default(), &claim(name, storage)).await);
        assert_eq!((status.code, status.message.as_str()), (403, message));
    }
    claims
        .create(&PostParams::default(), &claim("fits", "1536Mi"))
        .await
        .expect("within the bounds");
    env.stop().await;
}
