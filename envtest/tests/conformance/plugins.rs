//! What the admission plugins of a default kube-apiserver add to the objects operators
//! create: Pods tolerate not-ready and unreachable nodes for 300 s, carry their
//! priority and the service-link default; an unknown priority class is refused; a
//! claim without a class gets the default `StorageClass`, an Ingress the default
//! `IngressClass`; `LimitRange` defaults fill in Pod resources; the namespaces the cluster
//! needs may not be deleted; claims and volumes carry their protection finalizers, and
//! a claim a scheduled pod uses outlives its deletion until the pod is gone.

use k8s_openapi::api::core::v1::{PersistentVolume, PersistentVolumeClaim, Pod};
use k8s_openapi::api::storage::v1::StorageClass;
use kube::api::{Api, DeleteParams, PostParams};
use serde_json::{Value, json};

use std::time::Duration;

use wheelhouse_envtest::{ServerOptions, TestEnv, WorkloadSimulation};

use crate::common::{IMAGE, api_error, delete_quietly, eventually, from_json, is_gone, start, wait_gone};

fn pod(name: &str, spec: &Value) -> Pod {
    let mut spec = spec.clone();
    spec["containers"] = json!([{"name": "app", "image": IMAGE}]);
    from_json(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name}, "spec": spec}))
}

fn tolerations(pod: &Pod) -> Vec<Value> {
    let spec = serde_json::to_value(pod.spec.as_ref().expect("a spec")).expect("a spec encodes");
    spec["tolerations"].as_array().cloned().unwrap_or_default()
}

#[tokio::test]
async fn pods_get_default_tolerations_priority_and_service_links() {
    let env = start().await;
    let pods: Api<Pod> = Api::namespaced(env.client(), env.namespace());
    let created = pods
        .create(&PostParams::default(), &pod("plain", &json!({})))
        .await
        .expect("created");
    let toleration = |key: &str, seconds: i64| json!({"key": key, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": seconds});
    assert_eq!(
        tolerations(&created),
        vec![
            toleration("node.kubernetes.io/not-ready", 300),
            toleration("node.kubernetes.io/unreachable", 300)
        ]
    );
    let spec = created.spec.as_ref().expect("a spec");
    assert_eq!(spec.priority, Some(0));
    assert_eq!(spec.preemption_policy.as_deref(), Some("PreemptLowerPriority"));
    assert_eq!(spec.priority_class_name, None);
    assert_eq!(spec.enable_service_links, Some(true));

    // A toleration of its own for one key keeps its seconds; the other is added.
    let own = json!({"tolerations": [toleration("node.kubernetes.io/not-ready", 5)]});
    let created = pods
        .create(&PostParams::default(), &pod("own", &own))
        .await
        .expect("created");
    assert_eq!(
        tolerations(&created),
        vec![
            toleration("node.kubernetes.io/not-ready", 5),
            toleration("node.kubernetes.io/unreachable", 300)
        ]
    );
    // A toleration of every taint covers both.
    let all = json!({"tolerations": [{"operator": "Exists"}]});
    let created = pods
        .create(&PostParams::default(), &pod("all", &all))
        .await
        .expect("created");
    assert_eq!(tolerations(&created), vec![json!({"operator": "Exists"})]);
    env.stop().await;
}

#[tokio::test]
async fn pods_take_the_priority_of_their_class() {
    let env = start().await;
    let pods: Api<Pod> = Api::namespaced(env.client(), env.namespace());
    let critical = json!({"priorityClassName": "system-cluster-critical"});
    let created = pods
        .create(&PostParams::default(), &pod("critical", &critical))
        .await
        .expect("created");
    assert_eq!(created.spec.as_ref().and_then(|s| s.priority), Some(2_000_000_000));

    let unknown = json!({"priorityClassName": "no-such-class"});
    let status = api_error(pods.create(&PostParams::default(), &pod("unknown", &unknown)).await);
    assert_eq!((status.code, status.reason.as_str()), (403, "Forbidden"));
    assert_eq!(
        status.message,
        "pods \"unknown\" is forbidden: no PriorityClass with name no-such-class was found"
    );
    let given = json!({"priority": 7});
    let status = api_error(pods.create(&PostParams::default(), &pod("given", &given)).await);
    assert_eq!(
        status.message,
        "pods \"given\" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name"
    );
    env.stop().await;
}

#[tokio::test]
async fn claims_without_a_class_get_the_default_storage_class() {
    let env = start().await;
    let classes: Api<StorageClass> = Api::all(env.client());
    let name = format!("{}-default", env.namespace());
    let class: StorageClass = from_json(json!({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
        "metadata": {"name": name, "annotations": {"storageclass.kubernetes.io/is-default-class": "true"}},
        "provisioner": "example.com/none"}));
    classes
        .create(&PostParams::default(), &class)
        .await
        .expect("class created");
    let claims: Api<PersistentVolumeClaim> = Api::namespaced(env.client(), env.namespace());
    let claim = |name: &str, class: Option<&str>| -> PersistentVolumeClaim {
        let mut spec = json!({"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}});
        if let Some(class) = class {
            spec["storageClassName"] = json!(class);
        }
        from_json(
            json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": name}, "spec": spec}),
        )
    };
    // A real server's plugin reads classes from its informer, which sees a new class a
    // moment later: claims made before then get none, so the test makes new ones until
    // the class is seen.
    let attempt = std::sync::atomic::AtomicUsize::new(0);
    let class_name = eventually("a claim to get the default class", || async {
        let plain = format!("plain-{}", attempt.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
        let created = claims
            .create(&PostParams::default(), &claim(&plain, None))
            .await
            .expect("created");
        created.spec.and_then(|s| s.storage_class_name)
    })
    .await;
    assert_eq!(class_name, name);
    let explicit = claims
        .create(&PostParams::default(), &claim("empty", Some("")))
        .await
        .expect("created");
    assert_eq!(
        explicit.spec.and_then(|s| s.storage_class_name).as_deref(),
        Some(""),
        "an empty class asks for none"
    );
    delete_quietly(&classes, &name).await;
    env.stop().await;
}

#[tokio::test]
async fn the_namespaces_a_cluster_needs_may_not_be_deleted() {
    let env = start().await;
    let namespaces: Api<k8s_openapi::api::core::v1::Namespace> = Api::all(env.client());
    for name in ["default", "kube-system", "kube-public"] {
        let status = api_error(namespaces.delete(name, &kube::api::DeleteParams::default()).await);
        assert_eq!((status.code, status.reason.as_str()), (403, "Forbidden"));
        assert_eq!(
            status.message,
            format!("namespaces \"{name}\" is forbidden: this namespace may not be deleted")
        );
    }
    env.stop().await;
}

#[tokio::test]
async fn limit_ranges_default_the_resources_of_new_pods() {
    let env = start().await;
    let ranges: Api<k8s_openapi::api::core::v1::LimitRange> = Api::namespaced(env.client(), env.namespace());
    let range = from_json(
        json!({"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": "defaults"},
        "spec": {"limits": [{"type": "Container", "default": {"cpu": "500m"}, "defaultRequest": {"cpu": "100m"}, "max": {"memory": "1Gi"}}]}}),
    );
    ranges.create(&PostParams::default(), &range).await.expect("created");
    let pods: Api<Pod> = Api::namespaced(env.client(), env.namespace());
    let own = json!({"containers": [{"name": "app", "image": IMAGE, "resources": {"limits": {"memory": "256Mi"}}}]});
    let created = pods
        .create(
            &PostParams::default(),
            &from_json(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "limited"}, "spec": own})),
        )
        .await
        .expect("created");
    let spec = serde_json::to_value(created.spec.as_ref().expect("a spec")).expect("JSON");
    let resources = &spec["containers"][0]["resources"];
    // The limit the Pod set stays; its request defaulted to it; the rest from the range
    // (memory's default limit and request come from its max).
    assert_eq!(resources["limits"], json!({"cpu": "500m", "memory": "256Mi"}));
    assert_eq!(resources["requests"], json!({"cpu": "100m", "memory": "256Mi"}));
    let annotations = created.metadata.annotations.unwrap_or_default();
    assert_eq!(
        annotations.get("kubernetes.io/limit-ranger").map(String::as_str),
        Some("LimitRanger plugin set: cpu request for container app; cpu limit for container app")
    );
    assert_eq!(created.status.and_then(|s| s.qos_class).as_deref(), Some("Burstable"));
    env.stop().await;
}

#[tokio::test]
async fn ingresses_without_a_class_get_the_default_ingress_class() {
    let env = start().await;
    let classes: Api<k8s_openapi::api::networking::v1::IngressClass> = Api::all(env.client());
    let name = format!("{}-default", env.namespace());
    let class = from_json(json!({"apiVersion": "networking.k8s.io/v1", "kind": "IngressClass",
        "metadata": {"name": name, "annotations": {"ingressclass.kubernetes.io/is-default-class": "true"}},
        "spec": {"controller": "example.com/none"}}));
    classes
        .create(&PostParams::default(), &class)
        .await
        .expect("class created");
    let ingresses: Api<k8s_openapi::api::networking::v1::Ingress> = Api::namespaced(env.client(), env.namespace());
    let backend = json!({"service": {"name": "web", "port": {"number": 80}}});
    // As with claims, a real server's plugin sees the new class a moment later.
    let attempt = std::sync::atomic::AtomicUsize::new(0);
    let class_name = eventually("an Ingress to get the default class", || async {
        let plain = format!("plain-{}", attempt.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
        let ingress = from_json(json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress",
            "metadata": {"name": plain}, "spec": {"defaultBackend": backend}}));
        let created = ingresses
            .create(&PostParams::default(), &ingress)
            .await
            .expect("created");
        created.spec.and_then(|s| s.ingress_class_name)
    })
    .await;
    assert_eq!(class_name, name);
    delete_quietly(&classes, &name).await;
    env.stop().await;
}

#[tokio::test]
async fn limit_ranges_refuse_containers_beyond_their_bounds() {
    let env = start().await;
    let ranges: Api<k8s_openapi::api::core::v1::LimitRange> = Api::namespaced(env.client(), env.namespace());
    let range = from_json(
        json!({"apiVersion": "v1", "kind": "LimitRange", "metadata": {"name": "bounds"},
        "spec": {"limits": [{"type": "Container", "max": {"cpu": "1"}}]}}),
    );
    ranges.create(&PostParams::default(), &range).await.expect("created");
    let pods: Api<Pod> = Api::namespaced(env.client(), env.namespace());
    let greedy = json!({"containers": [{"name": "app", "image": IMAGE, "resources": {"limits": {"cpu": "2"}}}]});
    let pod = from_json(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "greedy"}, "spec": greedy}));
    let status = api_error(pods.create(&PostParams::default(), &pod).await);
    assert_eq!((status.code, status.reason.as_str()), (403, "Forbidden"));
    assert_eq!(
        status.message,
        "pods \"greedy\" is forbidden: maximum cpu usage per Container is 1, but limit is 2"
    );
    // Within bounds, the max is the default limit (and request).
    let modest = json!({"containers": [{"name": "app", "image": IMAGE}]});
    let pod = from_json(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "modest"}, "spec": modest}));
    let created = pods.create(&PostParams::default(), &pod).await.expect("created");
    let spec = serde_json::to_value(created.spec.as_ref().expect("a spec")).expect("JSON");
    assert_eq!(spec["containers"][0]["resources"]["limits"], json!({"cpu": "1"}));
    env.stop().await;
}

fn claim(name: &str) -> PersistentVolumeClaim {
    from_json(
        json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": name},
        "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "", "resources": {"requests": {"storage": "1Gi"}}}}),
    )
}

fn volume(name: &str, finalizers: &[&str]) -> PersistentVolume {
    from_json(json!({"apiVersion": "v1", "kind": "PersistentVolume",
        "metadata": {"name": name, "finalizers": finalizers},
        "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "hostPath": {"path": "/tmp/protected"}}}))
}

fn finalizers(meta: &kube::api::ObjectMeta) -> Vec<String> {
    meta.finalizers.clone().unwrap_or_default()
}

#[tokio::test]
async fn claims_and_volumes_get_their_protection_finalizers() {
    let env = start().await;
    let claims: Api<PersistentVolumeClaim> = Api::namespaced(env.client(), env.namespace());
    let created = claims
        .create(&PostParams::default(), &claim("data"))
        .await
        .expect("claim created");
    assert_eq!(finalizers(&created.metadata), ["kubernetes.io/pvc-protection"]);
    let volumes: Api<PersistentVolume> = Api::all(env.client());
    let name = format!("{}-protected", env.namespace());
    let given = volume(&name, &["example.com/keep", "kubernetes.io/pv-protection"]);
    let created = volumes
        .create(&PostParams::default(), &given)
        .await
        .expect("volume created");
    assert_eq!(
        finalizers(&created.metadata),
        ["example.com/keep", "kubernetes.io/pv-protection"],
        "a finalizer given is not added twice"
    );
    let plain = format!("{}-plain", env.namespace());
    let created = volumes
        .create(&PostParams::default(), &volume(&plain, &[]))
        .await
        .expect("volume created");
    assert_eq!(finalizers(&created.metadata), ["kubernetes.io/pv-protection"]);
    // Neither volume may keep a finalizer nobody removes.
    for name in [name, plain] {
        let mut kept = volumes.get(&name).await.expect("the volume");
        kept.metadata.finalizers = None;
        volumes
            .replace(&name, &PostParams::default(), &kept)
            .await
            .expect("finalizers removed");
        delete_quietly(&volumes, &name).await;
    }
    let mut kept = claims.get("data").await.expect("the claim");
    kept.metadata.finalizers = None;
    claims
        .replace("data", &PostParams::default(), &kept)
        .await
        .expect("finalizers removed");
    env.stop().await;
}

#[tokio::test]
async fn a_claim_in_use_outlives_its_deletion_until_its_pod_is_gone() {
    let options = ServerOptions {
        workloads: Some(WorkloadSimulation::default()),
        ..ServerOptions::default()
    };
    let env = TestEnv::start_with(options).await.expect("the server starts");
    let claims: Api<PersistentVolumeClaim> = Api::namespaced(env.client(), env.namespace());
    // Whether the controllers run is the cluster's to say: an unused claim deleted
    // goes within seconds where kube-controller-manager runs `pvc-protection`.
    claims
        .create(&PostParams::default(), &claim("unused"))
        .await
        .expect("claim created");
    claims
        .delete("unused", &DeleteParams::default())
        .await
        .expect("claim deleted");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let mut released = is_gone(&claims, "unused").await;
    while !released && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
        released = is_gone(&claims, "unused").await;
    }
    if !released {
        eprintln!(
            "skipped: a deleted claim stays terminating here; the cluster's kube-controller-manager does not run the pvc-protection controller"
        );
        let mut kept = claims.get("unused").await.expect("the claim");
        kept.metadata.finalizers = None;
        let _ = claims.replace("unused", &PostParams::default(), &kept).await;
        env.stop().await;
        return;
    }
    let pods: Api<Pod> = Api::namespaced(env.client(), env.namespace());
    claims
        .create(&PostParams::default(), &claim("data"))
        .await
        .expect("claim created");
    let user = pod(
        "user",
        &json!({"nodeName": "nowhere", "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "data"}}]}),
    );
    pods.create(&PostParams::default(), &user).await.expect("pod created");
    claims
        .delete("data", &DeleteParams::default())
        .await
        .expect("claim deleted");
    // The controller has had its look at the deletion once a claim deleted after it
    // is gone (it handles claims one at a time, in order).
    claims
        .create(&PostParams::default(), &claim("later"))
        .await
        .expect("claim created");
    claims
        .delete("later", &DeleteParams::default())
        .await
        .expect("claim deleted");
    wait_gone(&claims, "later").await;
    let held = claims.get("data").await.expect("the claim in use is still there");
    assert!(held.metadata.deletion_timestamp.is_some(), "the claim is terminating");
    assert_eq!(finalizers(&held.metadata), ["kubernetes.io/pvc-protection"]);
    // Gone at once: no kubelet answers for the node.
    pods.delete("user", &DeleteParams::default().grace_period(0))
        .await
        .expect("pod deleted");
    wait_gone(&claims, "data").await;
    env.stop().await;
}

/// The `RuntimeClass` plugin: a new pod must name a class that exists, takes its
/// overhead and merges its node selector (a conflicting one is refused) and its
/// tolerations; overhead without a class that defines one is refused.
#[tokio::test]
async fn pods_take_the_overhead_and_scheduling_of_their_runtime_class() {
    let env = start().await;
    if crate::schema_common::skip_before(&env, 20, "node.k8s.io/v1 runtime classes").await {
        return;
    }
    let client = env.client();
    let class_name = format!("rc-{}", env.namespace());
    let class = json!({"apiVersion": "node.k8s.io/v1", "kind": "RuntimeClass", "metadata": {"name": class_name}, "handler": "runc",
        "overhead": {"podFixed": {"cpu": "100m"}},
        "scheduling": {"nodeSelector": {"sandbox": "yes"}, "tolerations": [{"key": "sandbox", "operator": "Exists"}]}});
    let created = crate::raw::send(
        &client,
        http::Method::POST,
        "/apis/node.k8s.io/v1/runtimeclasses",
        Some(&class),
    )
    .await;
    assert_eq!(created.code, 201, "{}", created.body);
    let pods: Api<Pod> = Api::namespaced(client.clone(), env.namespace());
    let spec = |extra: Value| {
        let mut spec = json!({"containers": [{"name": "app", "image": IMAGE}]});
        if let (Some(spec), Value::Object(extra)) = (spec.as_object_mut(), extra) {
            spec.extend(extra);
        }
        spec
    };
    let missing = api_error(
        pods.create(
            &PostParams::default(),
            &pod("missing", &spec(json!({"runtimeClassName": "no-such-class"}))),
        )
        .await,
    );
    assert_eq!(
        (missing.code, missing.message.as_str()),
        (
            403,
            "pods \"missing\" is forbidden: pod rejected: RuntimeClass \"no-such-class\" not found"
        )
    );
    let conflicting = api_error(
        pods.create(
            &PostParams::default(),
            &pod(
                "conflict",
                &spec(json!({"runtimeClassName": class_name, "nodeSelector": {"sandbox": "no"}})),
            ),
        )
        .await,
    );
    assert_eq!(
        conflicting.message,
        "pods \"conflict\" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = yes; pod.spec.nodeSelector[sandbox] = no"
    );
    let unclassed = api_error(
        pods.create(
            &PostParams::default(),
            &pod("unclassed", &spec(json!({"overhead": {"cpu": "1"}}))),
        )
        .await,
    );
    assert_eq!(
        unclassed.message,
        "pods \"unclassed\" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead"
    );
    let created = pods
        .create(
            &PostParams::default(),
            &pod(
                "classed",
                &spec(json!({"runtimeClassName": class_name, "nodeSelector": {"zone": "a"}})),
            ),
        )
        .await
        .expect("a pod of the class");
    let created = serde_json::to_value(created).expect("JSON");
    assert_eq!(created["spec"]["overhead"], json!({"cpu": "100m"}));
    assert_eq!(created["spec"]["nodeSelector"], json!({"sandbox": "yes", "zone": "a"}));
    assert!(
        tolerations(&serde_json::from_value(created.clone()).expect("a pod"))
            .contains(&json!({"key": "sandbox", "operator": "Exists"})),
        "{created}"
    );
    crate::raw::send(
        &client,
        http::Method::DELETE,
        &format!("/apis/node.k8s.io/v1/runtimeclasses/{class_name}"),
        None,
    )
    .await;
    env.stop().await;
}
