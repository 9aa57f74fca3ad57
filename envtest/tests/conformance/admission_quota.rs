//! The `ResourceQuota` admission plugin of a default kube-apiserver: creates beyond a
//! quota's `hard` are refused in kube's words, pods must specify the compute
//! resources a quota limits, a quota whose status lacks usage refuses what it would
//! count, usage is charged to `status.used` as objects are admitted (not for dry
//! runs), services are charged their node ports on update too, and a quota's scopes
//! select the pods it counts. With the workload simulation, the quota controller fills
//! in a new quota's status and gives back the usage of deleted objects.
//!
//! Admission reads a quota's *status*, which kube-controller-manager's quota controller
//! writes; the real servers these tests run on do not run that controller, so each
//! test writes the status the controller would write (`hard` from the spec, nothing
//! used yet in its fresh namespace), then waits until admission sees it. The
//! assertions hold whether or not a quota controller runs too (it computes the same
//! status), except that a missing usage cannot be observed where one fills it in.

use std::time::Duration;

use k8s_openapi::api::core::v1::{ConfigMap, Pod, PodTemplate, ResourceQuota, Secret, Service};
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use serde_json::{Value, json};
use wheelhouse_envtest::{Backend, ServerOptions, TestEnv, WorkloadSimulation};

use crate::common::{IMAGE, api_error, configmap, eventually, from_json, skip_unless_embedded, start};
use crate::schema_common::server_minor;

/// The quota that tells the test when admission sees the statuses it wrote: it allows
/// no pod templates, so a refused probe means it, and every status written before it,
/// reached admission's cache.
const SENTINEL: &str = "zz-sentinel";

fn quotas(env: &TestEnv) -> Api<ResourceQuota> {
    Api::namespaced(env.client(), env.namespace())
}

/// Creates a quota with `spec` and writes the status the quota controller gives it in
/// an empty namespace: `hard` from the spec and zero of each used, except the
/// resources named in `unknown`.
async fn create_quota(env: &TestEnv, name: &str, spec: Value, unknown: &[&str]) {
    let hard = spec["hard"].clone();
    let quota = json!({"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": name}, "spec": spec});
    quotas(env)
        .create(&PostParams::default(), &from_json(quota))
        .await
        .expect("the quota is created");
    let used: serde_json::Map<String, Value> = hard
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(resource, _)| !unknown.contains(&resource.as_str()))
        .map(|(resource, _)| (resource.clone(), json!("0")))
        .collect();
    let status = json!({"status": {"hard": hard, "used": used}});
    quotas(env)
        .patch_status(name, &PatchParams::default(), &Patch::Merge(&status))
        .await
        .expect("the quota's status is written");
}

/// Waits until quota admission sees the statuses written so far (see [`SENTINEL`]).
async fn wait_for_admission(env: &TestEnv) {
    create_quota(env, SENTINEL, json!({"hard": {"count/podtemplates": "0"}}), &[]).await;
    let templates: Api<PodTemplate> = Api::namespaced(env.client(), env.namespace());
    let probe = from_json(
        json!({"apiVersion": "v1", "kind": "PodTemplate", "metadata": {"generateName": "probe-"},
        "template": {"spec": {"containers": [{"name": "app", "image": IMAGE}]}}}),
    );
    eventually("quota admission to see the quotas' status", || async {
        match templates.create(&PostParams::default(), &probe).await {
            Ok(_) => None,
            Err(kube::Error::Api(status)) if status.code == 403 => Some(()),
            Err(other) => panic!("the probe failed otherwise: {other:?}"),
        }
    })
    .await;
}

/// `status.used` of a quota.
async fn used(env: &TestEnv, name: &str) -> Value {
    let quota = quotas(env).get(name).await.expect("the quota is read");
    serde_json::to_value(quota.status.and_then(|s| s.used)).expect("JSON")
}

fn pod(name: &str, resources: &Value, spec: &Value) -> Pod {
    let mut spec = spec.clone();
    spec["containers"] = json!([{"name": "app", "image": IMAGE, "resources": resources}]);
    from_json(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name}, "spec": spec}))
}

fn forbidden(status: &kube::core::Status) -> (u16, &str) {
    (status.code, status.reason.as_str())
}

#[tokio::test]
async fn object_counts_are_charged_and_enforced() {
    let env = start().await;
    create_quota(
        &env,
        "counts",
        json!({"hard": {"count/configmaps": "2", "secrets": "1"}}),
        &[],
    )
    .await;
    wait_for_admission(&env).await;
    let configmaps: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    // A dry run is checked but not charged.
    let dry_run = PostParams {
        dry_run: true,
        ..PostParams::default()
    };
    configmaps
        .create(&dry_run, &configmap("dry", &[], &[]))
        .await
        .expect("a dry run within the quota is allowed");
    assert_eq!(used(&env, "counts").await["count/configmaps"], "0");
    for name in ["a", "b"] {
        configmaps
            .create(&PostParams::default(), &configmap(name, &[], &[]))
            .await
            .expect("within the quota");
    }
    assert_eq!(
        used(&env, "counts").await,
        json!({"count/configmaps": "2", "secrets": "0"})
    );
    for params in [&PostParams::default(), &dry_run] {
        let status = api_error(configmaps.create(params, &configmap("c", &[], &[])).await);
        assert_eq!(forbidden(&status), (403, "Forbidden"));
        assert_eq!(
            status.message,
            "configmaps \"c\" is forbidden: exceeded quota: counts, requested: count/configmaps=1, used: count/configmaps=2, limited: count/configmaps=2"
        );
    }
    // The legacy name `secrets` counts secrets as `count/secrets` would.
    let secrets: Api<Secret> = Api::namespaced(env.client(), env.namespace());
    let secret = |name: &str| from_json(json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": name}}));
    secrets
        .create(&PostParams::default(), &secret("s1"))
        .await
        .expect("within the quota");
    let status = api_error(secrets.create(&PostParams::default(), &secret("s2")).await);
    assert_eq!(
        status.message,
        "secrets \"s2\" is forbidden: exceeded quota: counts, requested: secrets=1, used: secrets=1, limited: secrets=1"
    );
    // Updates of counted objects are not charged again.
    configmaps
        .patch("a", &PatchParams::default(), &Patch::Merge(json!({"data": {"k": "v"}})))
        .await
        .expect("an update is not counted");
    assert_eq!(
        used(&env, "counts").await,
        json!({"count/configmaps": "2", "secrets": "1"})
    );
    env.stop().await;
}

#[tokio::test]
async fn pods_must_specify_what_a_quota_limits_and_are_charged_their_resources() {
    let env = start().await;
    let hard = json!({"hard": {"requests.cpu": "1", "limits.memory": "1Gi", "pods": "2"}});
    create_quota(&env, "compute", hard, &[]).await;
    wait_for_admission(&env).await;
    let pods: Api<Pod> = Api::namespaced(env.client(), env.namespace());
    // 1.19 named the resources only; later releases name the containers lacking each.
    let names_containers = server_minor(&env).await > 19;
    let missing = |container: &str| {
        if names_containers {
            format!("limits.memory for: {container}; requests.cpu for: {container}")
        } else {
            "limits.memory,requests.cpu".to_owned()
        }
    };
    let status = api_error(
        pods.create(&PostParams::default(), &pod("bare", &json!({}), &json!({})))
            .await,
    );
    assert_eq!(forbidden(&status), (403, "Forbidden"));
    assert_eq!(
        status.message,
        format!(
            "pods \"bare\" is forbidden: failed quota: compute: must specify {}",
            missing("app")
        )
    );
    // Init containers must specify them too.
    let sized = json!({"requests": {"cpu": "0.5"}, "limits": {"memory": "512Mi"}});
    let with_init = json!({"initContainers": [{"name": "init", "image": IMAGE}]});
    let status = api_error(
        pods.create(&PostParams::default(), &pod("init", &sized, &with_init))
            .await,
    );
    assert_eq!(
        status.message,
        format!(
            "pods \"init\" is forbidden: failed quota: compute: must specify {}",
            missing("init")
        )
    );
    pods.create(&PostParams::default(), &pod("first", &sized, &json!({})))
        .await
        .expect("within the quota");
    assert_eq!(
        used(&env, "compute").await,
        json!({"limits.memory": "512Mi", "pods": "1", "requests.cpu": "500m"})
    );
    let greedy = json!({"requests": {"cpu": "600m"}, "limits": {"memory": "256Mi"}});
    let status = api_error(
        pods.create(&PostParams::default(), &pod("greedy", &greedy, &json!({})))
            .await,
    );
    assert_eq!(
        status.message,
        "pods \"greedy\" is forbidden: exceeded quota: compute, requested: requests.cpu=600m, used: requests.cpu=500m, limited: requests.cpu=1"
    );
    let modest = json!({"requests": {"cpu": "500m"}, "limits": {"memory": "512Mi"}});
    pods.create(&PostParams::default(), &pod("second", &modest, &json!({})))
        .await
        .expect("exactly at the quota");
    assert_eq!(
        used(&env, "compute").await,
        json!({"limits.memory": "1Gi", "pods": "2", "requests.cpu": "1"})
    );
    env.stop().await;
}

#[tokio::test]
async fn a_quota_without_usage_refuses_what_it_would_count() {
    let env = start().await;
    let hard = json!({"hard": {"count/configmaps": "5", "count/secrets": "5"}});
    create_quota(&env, "unknown", hard, &["count/configmaps"]).await;
    wait_for_admission(&env).await;
    let configmaps: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    let created = configmaps
        .create(&PostParams::default(), &configmap("a", &[], &[]))
        .await;
    if created.is_ok() && !env.is_embedded() {
        // Only a quota controller writing the missing usage meanwhile lets this in.
        assert!(
            used(&env, "unknown").await.get("count/configmaps").is_some(),
            "admitted against a quota without usage"
        );
        eprintln!("skipped: a resourcequota controller runs on this cluster and filled in the usage first");
        env.stop().await;
        return;
    }
    let status = api_error(created);
    assert_eq!(forbidden(&status), (403, "Forbidden"));
    assert_eq!(
        status.message,
        "configmaps \"a\" is forbidden: status unknown for quota: unknown, resources: count/configmaps"
    );
    // What it does know is charged as usual.
    let secrets: Api<Secret> = Api::namespaced(env.client(), env.namespace());
    let secret = from_json(json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}}));
    secrets
        .create(&PostParams::default(), &secret)
        .await
        .expect("known usage");
    assert_eq!(used(&env, "unknown").await, json!({"count/secrets": "1"}));
    env.stop().await;
}

#[tokio::test]
async fn services_are_charged_their_node_ports_on_create_and_update() {
    let env = start().await;
    let hard = json!({"hard": {"services": "5", "services.nodeports": "1"}});
    create_quota(&env, "ports", hard, &[]).await;
    wait_for_admission(&env).await;
    let services: Api<Service> = Api::namespaced(env.client(), env.namespace());
    let service = |name: &str, kind: &str, ports: &[i32]| -> Service {
        let ports: Vec<Value> = ports
            .iter()
            .map(|p| json!({"name": format!("p{p}"), "port": p}))
            .collect();
        from_json(
            json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": name}, "spec": {"type": kind, "ports": ports}}),
        )
    };
    let status = api_error(
        services
            .create(&PostParams::default(), &service("wide", "NodePort", &[80, 81]))
            .await,
    );
    assert_eq!(
        status.message,
        "services \"wide\" is forbidden: exceeded quota: ports, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1"
    );
    services
        .create(&PostParams::default(), &service("inner", "ClusterIP", &[80]))
        .await
        .expect("within the quota");
    assert_eq!(
        used(&env, "ports").await,
        json!({"services": "1", "services.nodeports": "0"})
    );
    // An update is charged what it adds.
    services
        .patch(
            "inner",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"type": "NodePort"}})),
        )
        .await
        .expect("within the quota");
    assert_eq!(
        used(&env, "ports").await,
        json!({"services": "1", "services.nodeports": "1"})
    );
    let status = api_error(
        services
            .create(&PostParams::default(), &service("more", "NodePort", &[90]))
            .await,
    );
    assert_eq!(
        status.message,
        "services \"more\" is forbidden: exceeded quota: ports, requested: services.nodeports=1, used: services.nodeports=1, limited: services.nodeports=1"
    );
    env.stop().await;
}

#[tokio::test]
async fn scopes_select_the_pods_a_quota_counts() {
    let env = start().await;
    create_quota(
        &env,
        "best-effort",
        json!({"hard": {"pods": "1"}, "scopes": ["BestEffort"]}),
        &[],
    )
    .await;
    let terminating = json!({"hard": {"pods": "1"}, "scopeSelector": {"matchExpressions": [{"scopeName": "Terminating", "operator": "Exists"}]}});
    create_quota(&env, "terminating", terminating, &[]).await;
    wait_for_admission(&env).await;
    let pods: Api<Pod> = Api::namespaced(env.client(), env.namespace());
    let none = json!({});
    pods.create(&PostParams::default(), &pod("a", &none, &none))
        .await
        .expect("the first best-effort pod");
    let status = api_error(pods.create(&PostParams::default(), &pod("b", &none, &none)).await);
    assert_eq!(
        status.message,
        "pods \"b\" is forbidden: exceeded quota: best-effort, requested: pods=1, used: pods=1, limited: pods=1"
    );
    // A pod with resources is outside the best-effort scope, and without a deadline
    // outside the terminating one.
    let sized = json!({"requests": {"cpu": "100m"}});
    pods.create(&PostParams::default(), &pod("sized", &sized, &none))
        .await
        .expect("outside both scopes");
    let deadline = json!({"activeDeadlineSeconds": 60});
    pods.create(&PostParams::default(), &pod("timed", &sized, &deadline))
        .await
        .expect("the first terminating pod");
    let status = api_error(
        pods.create(&PostParams::default(), &pod("timed-2", &sized, &deadline))
            .await,
    );
    assert_eq!(
        status.message,
        "pods \"timed-2\" is forbidden: exceeded quota: terminating, requested: pods=1, used: pods=1, limited: pods=1"
    );
    assert_eq!(used(&env, "best-effort").await, json!({"pods": "1"}));
    env.stop().await;
}

/// With the workload simulation, the quota controller writes a new quota's status and
/// recounts when objects go. Embedded only: the real servers these tests run on do
/// not run kube-controller-manager's `resourcequota` controller.
#[tokio::test]
async fn the_controller_fills_in_status_and_gives_back_usage() {
    let backend = Backend::from_environment();
    if backend != Backend::Embedded {
        eprintln!(
            "skipped: the quota controller's status needs kube-controller-manager's resourcequota controller, which {} does not run",
            backend.describe()
        );
        return;
    }
    let options = ServerOptions {
        workloads: Some(WorkloadSimulation::pods_start_after(Duration::from_millis(100))),
        ..ServerOptions::default()
    };
    let env = TestEnv::embedded_with(options).await.expect("the server starts");
    if skip_unless_embedded(&env, "the simulated quota controller") {
        return;
    }
    let configmaps: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    configmaps
        .create(&PostParams::default(), &configmap("before", &[], &[]))
        .await
        .expect("no quota yet");
    let pods: Api<Pod> = Api::namespaced(env.client(), env.namespace());
    let sized = json!({"requests": {"cpu": "0.5"}, "limits": {"memory": "512Mi"}});
    pods.create(&PostParams::default(), &pod("sized", &sized, &json!({})))
        .await
        .expect("no quota yet");
    // What kube-controller-manager's resourcequota controller (1.32) writes for the
    // same objects and quota.
    let hard = json!({"count/configmaps": "2", "count/deployments.apps": "1", "limits.memory": "1Gi",
        "pods": "3", "requests.cpu": "1", "services.nodeports": "2"});
    let quota = json!({"apiVersion": "v1", "kind": "ResourceQuota", "metadata": {"name": "counted"},
        "spec": {"hard": hard}});
    quotas(&env)
        .create(&PostParams::default(), &from_json(quota))
        .await
        .expect("created");
    let expected = json!({"hard": hard, "used": {"count/configmaps": "1", "count/deployments.apps": "0",
        "limits.memory": "512Mi", "pods": "1", "requests.cpu": "500m", "services.nodeports": "0"}});
    eventually("the controller to fill in the status", || async {
        let quota = quotas(&env).get("counted").await.expect("read");
        let status = serde_json::to_value(quota.status?).expect("JSON");
        (status == expected).then_some(())
    })
    .await;
    configmaps
        .create(&PostParams::default(), &configmap("second", &[], &[]))
        .await
        .expect("within the quota");
    let status = api_error(
        configmaps
            .create(&PostParams::default(), &configmap("third", &[], &[]))
            .await,
    );
    assert_eq!(forbidden(&status), (403, "Forbidden"));
    configmaps
        .delete("before", &DeleteParams::default())
        .await
        .expect("deleted");
    eventually("the controller to give back the deleted object's usage", || async {
        (used(&env, "counted").await["count/configmaps"] == "1").then_some(())
    })
    .await;
    configmaps
        .create(&PostParams::default(), &configmap("third", &[], &[]))
        .await
        .expect("room again");
    env.stop().await;
}

/// A ReplicaSet whose pods go beyond a quota creates what fits, and reports the
/// quota's refusal in its `ReplicaFailure` condition: the workload controllers create
/// pods through quota admission as clients do.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replica_sets_create_only_the_pods_a_quota_allows() {
    let env = if Backend::from_environment() == Backend::Embedded {
        let options = ServerOptions {
            workloads: Some(WorkloadSimulation::pods_start_after(Duration::from_millis(100))),
            ..ServerOptions::default()
        };
        TestEnv::embedded_with(options).await.expect("the server starts")
    } else {
        start().await
    };
    if crate::common::skip_without_controllers(&env, "the replicaset controller") {
        env.stop().await;
        return;
    }
    create_quota(&env, "two", json!({"hard": {"pods": "2"}}), &[]).await;
    wait_for_admission(&env).await;
    let sets: Api<k8s_openapi::api::apps::v1::ReplicaSet> = Api::namespaced(env.client(), env.namespace());
    let set = json!({"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "web"},
        "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "app", "image": IMAGE}]}}}});
    sets.create(&PostParams::default(), &from_json(set))
        .await
        .expect("created");
    let condition = eventually("the ReplicaFailure condition", || async {
        let set = serde_json::to_value(sets.get("web").await.expect("read")).expect("JSON");
        let conditions = set["status"]["conditions"].as_array()?.clone();
        conditions.into_iter().find(|c| c["type"] == "ReplicaFailure")
    })
    .await;
    assert_eq!(condition["reason"], "FailedCreate");
    let message = condition["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("pods \"web-")
            && message
                .ends_with("\" is forbidden: exceeded quota: two, requested: pods=1, used: pods=2, limited: pods=2"),
        "{message}"
    );
    let pods: Api<Pod> = Api::namespaced(env.client(), env.namespace());
    let listed = pods.list(&kube::api::ListParams::default()).await.expect("listed");
    assert_eq!(listed.items.len(), 2);
    assert_eq!(used(&env, "two").await, json!({"pods": "2"}));
    env.stop().await;
}
