//! Every built-in resource is served, not only the first sixteen:
//! workloads (Jobs, `CronJobs`, `DaemonSets`, `ControllerRevisions`), nodes, endpoints,
//! volumes and claims, quotas, RBAC, disruption budgets, autoscalers, network policies,
//! priority and storage classes, CSRs; with kube-apiserver's discovery (short names,
//! subresources, verbs), the rules operators commonly break, and the subresources that
//! act (`pods/binding`, `pods/eviction`) and the reviews.
//!
//! The real server these run against may be older than the resources: each resource a
//! server does not serve is skipped with the server's version, read from discovery.

use k8s_openapi::api::core::v1::Pod;
use kube::api::{
    Api, ApiResource, DeleteParams, DynamicObject, EvictParams, GroupVersionKind, ListParams, Patch, PatchParams,
    PostParams,
};
use serde_json::{Value, json};

use crate::common::{IMAGE, api_error, client_without_retries, from_json, start};
use crate::raw::send;
use crate::served::{require, serves};

/// A resource the issue names, with a valid object of it.
struct Resource {
    group_version: &'static str,
    kind: &'static str,
    plural: &'static str,
    namespaced: bool,
    body: Value,
}

impl Resource {
    fn api_resource(&self) -> ApiResource {
        let (group, version) = self.group_version.split_once('/').unwrap_or(("", self.group_version));
        ApiResource::from_gvk_with_plural(&GroupVersionKind::gvk(group, version, self.kind), self.plural)
    }
}

fn pod_template(restart: &str) -> Value {
    json!({"metadata": {"labels": {"app": "web"}}, "spec": {"restartPolicy": restart, "containers": [{"name": "app", "image": IMAGE}]}})
}

/// A certificate signing request (PEM) the real server accepts.
pub(crate) fn csr_pem() -> String {
    let key = rcgen::KeyPair::generate().expect("a key pair");
    let params = rcgen::CertificateParams::new(vec!["conformance.example.com".to_owned()]).expect("parameters");
    params.serialize_request(&key).expect("a CSR").pem().expect("PEM")
}

fn resource(
    group_version: &'static str,
    kind: &'static str,
    plural: &'static str,
    namespaced: bool,
    body: Value,
) -> Resource {
    Resource {
        group_version,
        kind,
        plural,
        namespaced,
        body,
    }
}

fn resources(namespace: &str) -> Vec<Resource> {
    let mut all = workloads();
    all.extend(everything_else(namespace));
    all
}

/// Workloads, and what pods use (endpoints, volumes, quotas).
fn workloads() -> Vec<Resource> {
    let selector = json!({"matchLabels": {"app": "web"}});
    vec![
        resource(
            "batch/v1",
            "Job",
            "jobs",
            true,
            json!({"spec": {"template": pod_template("Never")}}),
        ),
        resource(
            "batch/v1",
            "CronJob",
            "cronjobs",
            true,
            json!({"spec": {"schedule": "*/5 * * * *", "jobTemplate": {"spec": {"template": pod_template("OnFailure")}}}}),
        ),
        resource(
            "apps/v1",
            "DaemonSet",
            "daemonsets",
            true,
            json!({"spec": {"selector": selector, "template": pod_template("Always")}}),
        ),
        resource(
            "apps/v1",
            "ControllerRevision",
            "controllerrevisions",
            true,
            json!({"revision": 1, "data": {"spec": {"template": {}}}}),
        ),
        resource("v1", "Node", "nodes", false, json!({"spec": {"unschedulable": true}})),
        resource(
            "v1",
            "Endpoints",
            "endpoints",
            true,
            json!({"subsets": [{"addresses": [{"ip": "10.0.0.1"}], "ports": [{"port": 80}]}]}),
        ),
        resource(
            "discovery.k8s.io/v1",
            "EndpointSlice",
            "endpointslices",
            true,
            json!({"addressType": "IPv4", "endpoints": [{"addresses": ["10.0.0.1"]}], "ports": [{"port": 80}]}),
        ),
        resource(
            "v1",
            "PersistentVolume",
            "persistentvolumes",
            false,
            json!({"spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "hostPath": {"path": "/tmp/conformance"}}}),
        ),
        resource(
            "v1",
            "PersistentVolumeClaim",
            "persistentvolumeclaims",
            true,
            json!({"spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}),
        ),
        resource(
            "v1",
            "ResourceQuota",
            "resourcequotas",
            true,
            json!({"spec": {"hard": {"pods": "10"}}}),
        ),
        resource(
            "v1",
            "LimitRange",
            "limitranges",
            true,
            json!({"spec": {"limits": [{"type": "Container", "default": {"cpu": "100m"}}]}}),
        ),
        resource(
            "v1",
            "ReplicationController",
            "replicationcontrollers",
            true,
            json!({"spec": {"replicas": 0, "selector": {"app": "web"}, "template": pod_template("Always")}}),
        ),
        resource(
            "v1",
            "PodTemplate",
            "podtemplates",
            true,
            json!({"template": pod_template("Always")}),
        ),
    ]
}

/// Access control, policies, classes and certificates.
fn everything_else(namespace: &str) -> Vec<Resource> {
    let selector = json!({"matchLabels": {"app": "web"}});
    let rule = json!([{"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get", "list"]}]);
    let target = json!({"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"});
    vec![
        resource(
            "rbac.authorization.k8s.io/v1",
            "Role",
            "roles",
            true,
            json!({"rules": rule}),
        ),
        resource(
            "rbac.authorization.k8s.io/v1",
            "ClusterRole",
            "clusterroles",
            false,
            json!({"rules": rule}),
        ),
        resource(
            "rbac.authorization.k8s.io/v1",
            "RoleBinding",
            "rolebindings",
            true,
            json!({"roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "reader"},
                "subjects": [{"kind": "ServiceAccount", "name": "default", "namespace": namespace}]}),
        ),
        resource(
            "rbac.authorization.k8s.io/v1",
            "ClusterRoleBinding",
            "clusterrolebindings",
            false,
            json!({"roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "reader"},
                "subjects": [{"kind": "ServiceAccount", "name": "default", "namespace": namespace}]}),
        ),
        resource(
            "policy/v1",
            "PodDisruptionBudget",
            "poddisruptionbudgets",
            true,
            json!({"spec": {"minAvailable": 1, "selector": selector}}),
        ),
        resource(
            "autoscaling/v1",
            "HorizontalPodAutoscaler",
            "horizontalpodautoscalers",
            true,
            json!({"spec": {"scaleTargetRef": target, "maxReplicas": 3}}),
        ),
        resource(
            "autoscaling/v2",
            "HorizontalPodAutoscaler",
            "horizontalpodautoscalers",
            true,
            json!({"spec": {"scaleTargetRef": target, "minReplicas": 1, "maxReplicas": 3}}),
        ),
        resource(
            "networking.k8s.io/v1",
            "NetworkPolicy",
            "networkpolicies",
            true,
            json!({"spec": {"podSelector": {}}}),
        ),
        resource(
            "networking.k8s.io/v1",
            "IngressClass",
            "ingressclasses",
            false,
            json!({"spec": {"controller": "example.com/ingress"}}),
        ),
        resource(
            "scheduling.k8s.io/v1",
            "PriorityClass",
            "priorityclasses",
            false,
            json!({"value": 1000}),
        ),
        resource(
            "storage.k8s.io/v1",
            "StorageClass",
            "storageclasses",
            false,
            json!({"provisioner": "example.com/none"}),
        ),
        resource(
            "node.k8s.io/v1",
            "RuntimeClass",
            "runtimeclasses",
            false,
            json!({"handler": "runc"}),
        ),
        resource(
            "certificates.k8s.io/v1",
            "CertificateSigningRequest",
            "certificatesigningrequests",
            false,
            json!({"spec": {"request": base64_encode(&csr_pem()), "signerName": "example.com/conformance", "usages": ["digital signature"]}}),
        ),
    ]
}

fn base64_encode(text: &str) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(text)
}

/// Create, get, list and delete an object of each resource; the server must store
/// what was sent (under the kind and version asked for) and delete it.
#[tokio::test]
async fn every_named_resource_supports_create_get_list_delete() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let mut tried = 0;
    for resource in resources(&namespace) {
        let what = format!("{} {}", resource.group_version, resource.plural);
        if !require(&env, resource.group_version, resource.plural, &what).await {
            continue;
        }
        tried += 1;
        let api_resource = resource.api_resource();
        let api: Api<DynamicObject> = if resource.namespaced {
            Api::namespaced_with(env.client(), &namespace, &api_resource)
        } else {
            Api::all_with(env.client(), &api_resource)
        };
        let name = if resource.namespaced {
            "conformance".to_owned()
        } else {
            format!("{namespace}-conformance")
        };
        let mut object =
            json!({"apiVersion": api_resource.api_version, "kind": resource.kind, "metadata": {"name": name}});
        if let (Some(object), Some(body)) = (object.as_object_mut(), resource.body.as_object()) {
            object.extend(body.clone());
        }
        let created = api
            .create(&PostParams::default(), &from_json(object))
            .await
            .unwrap_or_else(|e| panic!("{what}: create failed: {e}"));
        assert!(created.metadata.uid.is_some(), "{what}: the server set a uid");
        let read = api
            .get(&name)
            .await
            .unwrap_or_else(|e| panic!("{what}: get failed: {e}"));
        let types = read.types.clone().expect("the object carries its type");
        assert_eq!(
            (types.api_version.as_str(), types.kind.as_str()),
            (api_resource.api_version.as_str(), resource.kind),
            "{what}"
        );
        let listed = api
            .list(&ListParams::default().fields(&format!("metadata.name={name}")))
            .await
            .unwrap_or_else(|e| panic!("{what}: list failed: {e}"));
        assert_eq!(listed.items.len(), 1, "{what}: the list has the object");
        api.delete(&name, &DeleteParams::background())
            .await
            .unwrap_or_else(|e| panic!("{what}: delete failed: {e}"));
        // Claims and volumes may be held by the storage protection finalizers.
        let after = api.get_opt(&name).await.unwrap();
        assert!(
            after.is_none_or(|o| o.metadata.deletion_timestamp.is_some()),
            "{what}: deleted or being deleted"
        );
    }
    assert!(tried >= 15, "most of the resources are served ({tried} were)");
    env.stop().await;
}

/// What discovery says of a resource: group version, resource, short name, whether
/// namespaced, and subresources.
struct Discovered(
    &'static str,
    &'static str,
    Option<&'static str>,
    bool,
    &'static [&'static str],
);

/// Discovery lists the new resources with kube-apiserver's short names, scope and
/// subresources, and the `all` category grows with the workloads.
#[tokio::test]
async fn discovery_describes_the_new_resources() {
    let env = start().await;
    let client = env.client();
    let expected: [Discovered; 12] = [
        Discovered("batch/v1", "jobs", None, true, &["status"]),
        Discovered("batch/v1", "cronjobs", Some("cj"), true, &["status"]),
        Discovered("apps/v1", "daemonsets", Some("ds"), true, &["status"]),
        Discovered("v1", "nodes", Some("no"), false, &["status"]),
        Discovered("v1", "persistentvolumeclaims", Some("pvc"), true, &["status"]),
        Discovered("v1", "replicationcontrollers", Some("rc"), true, &["status", "scale"]),
        Discovered("v1", "pods", Some("po"), true, &["status", "binding", "eviction"]),
        Discovered("v1", "resourcequotas", Some("quota"), true, &["status"]),
        Discovered("policy/v1", "poddisruptionbudgets", Some("pdb"), true, &["status"]),
        Discovered("networking.k8s.io/v1", "networkpolicies", Some("netpol"), true, &[]),
        Discovered("scheduling.k8s.io/v1", "priorityclasses", Some("pc"), false, &[]),
        Discovered("storage.k8s.io/v1", "storageclasses", Some("sc"), false, &[]),
    ];
    for Discovered(group_version, plural, short, namespaced, subresources) in expected {
        if !require(&env, group_version, plural, &format!("discovery of {plural}")).await {
            continue;
        }
        let list = if group_version.contains('/') {
            client.list_api_group_resources(group_version).await
        } else {
            client.list_core_api_resources(group_version).await
        }
        .expect("the group version is listed");
        let found = list.resources.iter().find(|r| r.name == plural).expect("listed");
        assert_eq!(found.namespaced, namespaced, "{plural}");
        if let Some(short) = short {
            assert!(
                found.short_names.iter().flatten().any(|s| s == short),
                "{plural} has short name {short}: {:?}",
                found.short_names
            );
        }
        for verb in ["create", "delete", "get", "list", "patch", "update", "watch"] {
            assert!(found.verbs.iter().any(|v| v == verb), "{plural} allows {verb}");
        }
        for sub in subresources {
            let name = format!("{plural}/{sub}");
            assert!(list.resources.iter().any(|r| r.name == name), "{name} is listed");
        }
    }
    let batch = client.list_api_group_resources("batch/v1").await.expect("batch/v1");
    let jobs = batch.resources.iter().find(|r| r.name == "jobs").expect("jobs");
    assert!(
        jobs.categories.iter().flatten().any(|c| c == "all"),
        "jobs are in the all category"
    );
    let reviews = client
        .list_api_group_resources("authorization.k8s.io/v1")
        .await
        .expect("authorization.k8s.io/v1");
    let review = reviews
        .resources
        .iter()
        .find(|r| r.name == "selfsubjectaccessreviews")
        .expect("selfsubjectaccessreviews");
    assert_eq!(review.verbs, ["create"], "reviews can only be created");
    env.stop().await;
}

/// POSTs `body` to `path`.
async fn post(env: &wheelhouse_envtest::TestEnv, path: String, body: Value) -> crate::raw::Answer {
    send(&env.client(), http::Method::POST, &path, Some(&body)).await
}

/// The path of a namespaced collection (`/apis/batch/v1/namespaces/ns/jobs`).
fn collection(namespace: &str, group_version: &str, plural: &str) -> String {
    let prefix = if group_version.contains('/') { "apis" } else { "api" };
    format!("/{prefix}/{group_version}/namespaces/{namespace}/{plural}")
}

fn meta(name: &str) -> Value {
    json!({"name": name})
}

/// Rules of the built-in types that operators commonly break are enforced (422).
#[tokio::test]
async fn the_rules_operators_commonly_break_are_enforced() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let create = |path: String, body: Value| post(&env, path, body);
    let ns_path = |group_version: &str, plural: &str| collection(&namespace, group_version, plural);
    // (what, path, body, field the real server names)
    let refused = vec![
        (
            "a Job whose pods restart Always",
            ns_path("batch/v1", "jobs"),
            json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": meta("always"), "spec": {"template": pod_template("Always")}}),
            "spec.template.spec.restartPolicy",
        ),
        (
            "a Role rule without verbs",
            ns_path("rbac.authorization.k8s.io/v1", "roles"),
            json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": meta("verbless"),
                "rules": [{"apiGroups": [""], "resources": ["pods"], "verbs": []}]}),
            "rules[0].verbs",
        ),
        (
            "a RoleBinding to a kind that is not a role",
            ns_path("rbac.authorization.k8s.io/v1", "rolebindings"),
            json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": meta("bad-ref"),
                "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Secret", "name": "x"}}),
            "roleRef.kind",
        ),
        (
            "a ConfigMap key with a space",
            ns_path("v1", "configmaps"),
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta("bad-key"), "data": {"bad key": "v"}}),
            "data[bad key]",
        ),
        (
            "a label value with a space",
            ns_path("v1", "configmaps"),
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "bad-label", "labels": {"app": "my app"}}}),
            "metadata.labels",
        ),
        (
            "a Service name starting with a digit",
            ns_path("v1", "services"),
            json!({"apiVersion": "v1", "kind": "Service", "metadata": meta("1web"), "spec": {"ports": [{"port": 80}]}}),
            "metadata.name",
        ),
        (
            "a claim without access modes",
            ns_path("v1", "persistentvolumeclaims"),
            json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": meta("no-modes"),
                "spec": {"resources": {"requests": {"storage": "1Gi"}}}}),
            "spec.accessModes",
        ),
    ];
    for (what, path, body, field) in refused {
        let answer = create(path, body).await;
        assert_eq!(answer.code, 422, "{what}: {}", answer.body);
        let causes = answer.body["details"]["causes"].as_array().cloned().unwrap_or_default();
        assert!(
            causes.iter().any(|c| c["field"] == field),
            "{what}: the causes name {field}: {}",
            answer.body
        );
    }
    if serves(&env, "batch/v1", "cronjobs").await {
        let answer = create(
            ns_path("batch/v1", "cronjobs"),
            json!({"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta("bad-schedule"),
                "spec": {"schedule": "every day", "jobTemplate": {"spec": {"template": pod_template("Never")}}}}),
        )
        .await;
        assert_eq!(answer.code, 422, "a CronJob with a bad schedule: {}", answer.body);
    }
    env.stop().await;
}

/// Fields kube-apiserver keeps as they were: an immutable `ConfigMap`'s data, a
/// binding's role; and the selector a Job gets of its own.
#[tokio::test]
async fn immutable_fields_and_job_selectors() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let create = |path: String, body: Value| post(&env, path, body);
    let ns_path = |group_version: &str, plural: &str| collection(&namespace, group_version, plural);
    let configmaps = ns_path("v1", "configmaps");
    let frozen = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta("frozen"), "immutable": true, "data": {"a": "1"}});
    assert_eq!(create(configmaps.clone(), frozen).await.code, 201);
    let change = json!({"data": {"a": "2"}});
    let answer = send_patch(&env, &format!("{configmaps}/frozen"), &change).await;
    assert_eq!(
        answer.code, 422,
        "an immutable ConfigMap's data changed: {}",
        answer.body
    );
    let bindings = ns_path("rbac.authorization.k8s.io/v1", "rolebindings");
    let binding = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": meta("reader"),
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "reader"}});
    assert_eq!(create(bindings.clone(), binding).await.code, 201);
    let change = json!({"roleRef": {"name": "writer"}});
    let answer = send_patch(&env, &format!("{bindings}/reader"), &change).await;
    assert_eq!(answer.code, 422, "a RoleBinding's roleRef changed: {}", answer.body);

    // A Job gets a selector of its own and its template the matching labels.
    let jobs: Api<k8s_openapi::api::batch::v1::Job> = Api::namespaced(env.client(), &namespace);
    let job = jobs
        .create(
            &PostParams::default(),
            &from_json(json!({"metadata": {"name": "selected"}, "spec": {"template": pod_template("Never")}})),
        )
        .await
        .expect("a valid Job is created");
    let spec = job.spec.expect("spec");
    let selector = serde_json::to_value(spec.selector.expect("the server chose a selector")).unwrap();
    let labels = serde_json::to_value(spec.template.metadata.and_then(|m| m.labels)).unwrap();
    for (key, value) in selector["matchLabels"].as_object().expect("matchLabels") {
        assert_eq!(&labels[key], value, "the template carries the selector's {key}");
    }
    assert_eq!(spec.backoff_limit, Some(6), "backoffLimit defaults to 6");
    jobs.delete("selected", &DeleteParams::background()).await.unwrap();
    env.stop().await;
}

async fn send_patch(env: &wheelhouse_envtest::TestEnv, path: &str, merge: &Value) -> crate::raw::Answer {
    let bytes = serde_json::to_vec(merge).unwrap();
    let request = http::Request::builder()
        .method(http::Method::PATCH)
        .uri(path)
        .header(http::header::CONTENT_TYPE, "application/merge-patch+json")
        .body(kube::client::Body::from(bytes))
        .unwrap();
    crate::raw::send_request(&env.client(), request).await
}

/// `pods/binding` places a pod on a node once; `pods/eviction` deletes a pod unless
/// its disruption budget forbids it (a budget the disruption controller has not
/// computed allows nothing).
#[tokio::test]
async fn pods_are_bound_and_evicted_through_subresources() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let pods: Api<Pod> = Api::namespaced(env.client(), &namespace);
    let pod = |name: &str| -> Pod {
        from_json(json!({"metadata": {"name": name, "labels": {"app": "guarded"}},
            "spec": {"containers": [{"name": "app", "image": IMAGE}]}}))
    };
    pods.create(&PostParams::default(), &pod("bound")).await.unwrap();
    let binding_path = format!("/api/v1/namespaces/{namespace}/pods/bound/binding");
    let binding = json!({"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "bound"},
        "target": {"apiVersion": "v1", "kind": "Node", "name": "node-a"}});
    let answer = send(&env.client(), http::Method::POST, &binding_path, Some(&binding)).await;
    assert_eq!(answer.code, 201, "{}", answer.body);
    assert_eq!(answer.body["status"], "Success");
    let bound = pods.get("bound").await.unwrap();
    assert_eq!(bound.spec.and_then(|s| s.node_name).as_deref(), Some("node-a"));
    let again = send(&env.client(), http::Method::POST, &binding_path, Some(&binding)).await;
    assert_eq!(again.code, 409, "a pod is bound once: {}", again.body);

    // A running pod covered by a budget that allows no disruption stays.
    pods.create(&PostParams::default(), &pod("guarded")).await.unwrap();
    pods.patch_status(
        "guarded",
        &PatchParams::default(),
        &Patch::Merge(json!({"status": {"phase": "Running"}})),
    )
    .await
    .unwrap();
    let budget_path = if serves(&env, "policy/v1", "poddisruptionbudgets").await {
        "policy/v1"
    } else {
        "policy/v1beta1"
    };
    let budget = json!({"apiVersion": budget_path, "kind": "PodDisruptionBudget", "metadata": {"name": "guard"},
        "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": "guarded"}}}});
    let created = send(
        &env.client(),
        http::Method::POST,
        &format!("/apis/{budget_path}/namespaces/{namespace}/poddisruptionbudgets"),
        Some(&budget),
    )
    .await;
    assert_eq!(created.code, 201, "{}", created.body);
    // kube's client for a real cluster retries a 429 for minutes; this one does not.
    let once: Api<Pod> = Api::namespaced(client_without_retries(&env).await, &namespace);
    let status = api_error(once.evict("guarded", &EvictParams::default()).await);
    assert_eq!(status.code, 429, "{}", status.message);
    assert!(pods.get_opt("guarded").await.unwrap().is_some());

    // An uncovered pod is evicted.
    pods.create(
        &PostParams::default(),
        &from_json(json!({"metadata": {"name": "free"},
        "spec": {"containers": [{"name": "app", "image": IMAGE}]}})),
    )
    .await
    .unwrap();
    pods.evict("free", &EvictParams::default())
        .await
        .expect("an eviction without a budget succeeds");
    let after = pods.get_opt("free").await.unwrap();
    assert!(
        after.is_none_or(|p| p.metadata.deletion_timestamp.is_some()),
        "the pod is going"
    );
    // No kubelet stops the bound pod: it goes with no grace period.
    pods.delete("bound", &DeleteParams::default().grace_period(0))
        .await
        .unwrap();
    env.stop().await;
}

/// Access reviews are answered (allowed: the test's own client is an administrator,
/// `system:masters` on the embedded server) and never stored.
#[tokio::test]
async fn access_reviews_are_answered() {
    let env = start().await;
    let review = json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SelfSubjectAccessReview",
        "spec": {"resourceAttributes": {"verb": "get", "resource": "pods", "namespace": env.namespace()}}});
    let path = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
    let answer = send(&env.client(), http::Method::POST, path, Some(&review)).await;
    assert_eq!(answer.code, 201, "{}", answer.body);
    assert!(answer.body["status"]["allowed"].is_boolean(), "{}", answer.body);
    if env.is_embedded() {
        assert_eq!(answer.body["status"]["allowed"], true);
    }
    let listed = send(&env.client(), http::Method::GET, path, None).await;
    assert_eq!(listed.code, 405, "reviews cannot be listed: {}", listed.body);
    env.stop().await;
}

/// A `ReplicationController`'s scale subresource reads and writes its replicas, with
/// its (map) selector as the Scale's.
#[tokio::test]
async fn replication_controllers_scale() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let path = collection(&namespace, "v1", "replicationcontrollers");
    let controller = json!({"apiVersion": "v1", "kind": "ReplicationController", "metadata": meta("legacy"),
        "spec": {"replicas": 0, "selector": {"app": "web"}, "template": pod_template("Always")}});
    let created = post(&env, path.clone(), controller).await;
    assert_eq!(created.code, 201, "{}", created.body);
    let scale = send(&env.client(), http::Method::GET, &format!("{path}/legacy/scale"), None).await;
    assert_eq!(scale.code, 200, "{}", scale.body);
    assert_eq!(scale.body["kind"], "Scale");
    assert_eq!(scale.body["status"]["selector"], "app=web", "{}", scale.body);
    let mut scaled = scale.body.clone();
    scaled["spec"]["replicas"] = json!(0);
    let answer = send(
        &env.client(),
        http::Method::PUT,
        &format!("{path}/legacy/scale"),
        Some(&scaled),
    )
    .await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    env.stop().await;
}
