//! Item 1: the built-in resources, CRDs with their subresources, and discovery.

use k8s_openapi::api::core::v1::Namespace;
use kube::api::{
    Api, ApiResource, DeleteParams, DynamicObject, GroupVersionKind, ListParams, Patch, PatchParams, PostParams,
};
use serde_json::{Value, json};

use crate::common::{CustomType, IMAGE, api_error, from_json, is_gone, start, wait_gone};

/// One built-in type: where it lives and a valid object of it.
struct Builtin {
    group: &'static str,
    kind: &'static str,
    plural: &'static str,
    namespaced: bool,
    body: Value,
}

fn builtins(namespace: &str) -> Vec<Builtin> {
    let pod_spec = json!({"containers": [{"name": "app", "image": IMAGE}]});
    let workload = json!({
        "replicas": 0,
        "selector": {"matchLabels": {"app": "web"}},
        "template": {"metadata": {"labels": {"app": "web"}}, "spec": pod_spec},
    });
    let regarding = json!({"apiVersion": "v1", "kind": "ConfigMap", "name": "settings", "namespace": namespace});
    let mut stateful = workload.clone();
    stateful["serviceName"] = json!("web");
    let builtin = |group, kind, plural, namespaced, body| Builtin {
        group,
        kind,
        plural,
        namespaced,
        body,
    };
    vec![
        builtin("", "Namespace", "namespaces", false, json!({})),
        builtin("", "Pod", "pods", true, json!({"spec": pod_spec})),
        builtin(
            "",
            "Service",
            "services",
            true,
            json!({"spec": {"ports": [{"port": 80, "targetPort": 8080}], "selector": {"app": "web"}}}),
        ),
        builtin("", "ConfigMap", "configmaps", true, json!({"data": {"key": "value"}})),
        builtin(
            "",
            "Secret",
            "secrets",
            true,
            json!({"type": "Opaque", "data": {"key": "dmFsdWU="}}),
        ),
        builtin("", "ServiceAccount", "serviceaccounts", true, json!({})),
        builtin(
            "",
            "Event",
            "events",
            true,
            json!({"involvedObject": regarding, "reason": "Conformance", "message": "core/v1 event", "type": "Normal", "source": {"component": "conformance"}}),
        ),
        builtin("apps", "Deployment", "deployments", true, json!({"spec": workload})),
        builtin("apps", "ReplicaSet", "replicasets", true, json!({"spec": workload})),
        builtin("apps", "StatefulSet", "statefulsets", true, json!({"spec": stateful})),
        builtin(
            "coordination.k8s.io",
            "Lease",
            "leases",
            true,
            json!({"spec": {"holderIdentity": "conformance", "leaseDurationSeconds": 15}}),
        ),
        builtin(
            "events.k8s.io",
            "Event",
            "events",
            true,
            json!({
                "eventTime": "2025-01-01T00:00:00.000000Z", "reportingController": "wheelhouse.rs/conformance",
                "reportingInstance": "conformance-1", "action": "Testing", "reason": "Conformance", "type": "Normal",
                "note": "events.k8s.io/v1 event", "regarding": regarding,
            }),
        ),
        builtin(
            "networking.k8s.io",
            "Ingress",
            "ingresses",
            true,
            json!({"spec": {"rules": [{"host": "web.example.com", "http": {"paths": [
                {"path": "/", "pathType": "Prefix", "backend": {"service": {"name": "web", "port": {"number": 80}}}}
            ]}}]}}),
        ),
        builtin(
            "admissionregistration.k8s.io",
            "ValidatingWebhookConfiguration",
            "validatingwebhookconfigurations",
            false,
            json!({}),
        ),
        builtin(
            "admissionregistration.k8s.io",
            "MutatingWebhookConfiguration",
            "mutatingwebhookconfigurations",
            false,
            json!({}),
        ),
    ]
}

/// Create, get, list and delete one object of every built-in type the issue lists,
/// through the dynamic API as kubectl uses it.
#[tokio::test]
async fn builtin_types_support_create_get_list_delete() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    for builtin in builtins(&namespace) {
        let gvk = GroupVersionKind::gvk(builtin.group, "v1", builtin.kind);
        let resource = ApiResource::from_gvk_with_plural(&gvk, builtin.plural);
        let api: Api<DynamicObject> = if builtin.namespaced {
            Api::namespaced_with(env.client(), &namespace, &resource)
        } else {
            Api::all_with(env.client(), &resource)
        };
        // Cluster-scoped names carry the namespace so parallel tests on a cluster differ.
        let name = if builtin.namespaced {
            "conformance".to_owned()
        } else {
            format!("{namespace}-conformance")
        };
        let mut object = json!({"apiVersion": resource.api_version, "kind": builtin.kind, "metadata": {"name": name}});
        if let (Some(object), Some(body)) = (object.as_object_mut(), builtin.body.as_object()) {
            object.extend(body.clone());
        }
        let what = format!("{} {}", resource.api_version, builtin.kind);
        let created = api
            .create(&PostParams::default(), &from_json(object))
            .await
            .unwrap_or_else(|e| panic!("create {what}: {e}"));
        assert_eq!(created.metadata.name.as_deref(), Some(name.as_str()), "{what}");
        assert!(created.metadata.uid.is_some(), "{what} has a uid");
        assert_eq!(
            created.metadata.namespace.is_some(),
            builtin.namespaced,
            "{what} namespace set iff namespaced"
        );
        let fetched = api.get(&name).await.unwrap_or_else(|e| panic!("get {what}: {e}"));
        assert_eq!(fetched.metadata.uid, created.metadata.uid, "{what}");
        assert_eq!(
            fetched.types.as_ref().map(|t| t.kind.as_str()),
            Some(builtin.kind),
            "{what} kind"
        );
        let listed = api
            .list(&ListParams::default())
            .await
            .unwrap_or_else(|e| panic!("list {what}: {e}"));
        assert!(
            listed.items.iter().any(|o| o.metadata.uid == created.metadata.uid),
            "{what} appears in its list"
        );
        let delete = DeleteParams {
            grace_period_seconds: Some(0),
            ..DeleteParams::default()
        };
        api.delete(&name, &delete)
            .await
            .unwrap_or_else(|e| panic!("delete {what}: {e}"));
        if builtin.plural == "namespaces" {
            // A namespace only goes once the namespace controller emptied it.
            let terminating = api
                .get_opt(&name)
                .await
                .unwrap()
                .is_none_or(|ns| ns.metadata.deletion_timestamp.is_some());
            assert!(terminating, "a deleted namespace is gone or terminating");
            if env.runs_controllers() {
                wait_gone(&api, &name).await;
            }
        } else {
            wait_gone(&api, &name).await;
        }
    }
    env.stop().await;
}

/// The API server labels every namespace with its name, which namespaceSelectors use.
#[tokio::test]
async fn namespaces_carry_their_name_label() {
    let env = start().await;
    if !crate::served::at_least(&env, 21, "the kubernetes.io/metadata.name namespace label").await {
        env.stop().await;
        return;
    }
    let namespaces: Api<Namespace> = Api::all(env.client());
    let namespace = namespaces.get(env.namespace()).await.unwrap();
    let labels = namespace.metadata.labels.unwrap_or_default();
    assert_eq!(
        labels.get("kubernetes.io/metadata.name").map(String::as_str),
        Some(env.namespace())
    );
    assert_eq!(namespace.status.and_then(|s| s.phase).as_deref(), Some("Active"));
    env.stop().await;
}

/// `/api`, `/apis`, group resource lists and `/version`, as kubectl discovers them.
#[tokio::test]
async fn discovery_lists_groups_resources_and_version() {
    let env = start().await;
    let client = env.client();
    let groups = client.list_api_groups().await.unwrap();
    for group in [
        "apps",
        "coordination.k8s.io",
        "events.k8s.io",
        "networking.k8s.io",
        "apiextensions.k8s.io",
        "admissionregistration.k8s.io",
    ] {
        let found = groups
            .groups
            .iter()
            .find(|g| g.name == group)
            .unwrap_or_else(|| panic!("group {group} is listed"));
        assert!(
            found.versions.iter().any(|v| v.group_version == format!("{group}/v1")),
            "{group}/v1 is served"
        );
        let preferred = found.preferred_version.as_ref().map(|v| v.group_version.clone());
        assert_eq!(preferred, Some(format!("{group}/v1")), "{group} prefers v1");
    }
    let core = client.list_core_api_versions().await.unwrap();
    assert!(core.versions.contains(&"v1".to_owned()));

    let core_resources = client.list_core_api_resources("v1").await.unwrap();
    let pods = core_resources
        .resources
        .iter()
        .find(|r| r.name == "pods")
        .expect("pods are listed");
    assert!(pods.namespaced);
    assert_eq!(pods.kind, "Pod");
    for verb in ["create", "delete", "get", "list", "patch", "update", "watch"] {
        assert!(pods.verbs.iter().any(|v| v == verb), "pods support {verb}");
    }
    assert!(core_resources.resources.iter().any(|r| r.name == "pods/status"));
    let namespaces = core_resources
        .resources
        .iter()
        .find(|r| r.name == "namespaces")
        .expect("namespaces are listed");
    assert!(!namespaces.namespaced);
    assert!(namespaces.short_names.iter().flatten().any(|s| s == "ns"));

    let apps = client.list_api_group_resources("apps/v1").await.unwrap();
    assert_eq!(apps.group_version, "apps/v1");
    let deployments = apps
        .resources
        .iter()
        .find(|r| r.name == "deployments")
        .expect("deployments are listed");
    assert!(deployments.namespaced);
    assert!(deployments.short_names.iter().flatten().any(|s| s == "deploy"));
    for sub in ["deployments/status", "deployments/scale"] {
        assert!(apps.resources.iter().any(|r| r.name == sub), "{sub} is listed");
    }
    let leases = client.list_api_group_resources("coordination.k8s.io/v1").await.unwrap();
    assert!(leases.resources.iter().any(|r| r.name == "leases" && r.namespaced));

    let version = client.apiserver_version().await.unwrap();
    assert_eq!(version.major, "1");
    assert!(
        version.minor.trim_end_matches('+').parse::<u32>().is_ok(),
        "minor {} is a number",
        version.minor
    );
    assert!(
        version.git_version.starts_with("v1."),
        "gitVersion {}",
        version.git_version
    );

    for path in ["/healthz", "/readyz"] {
        let request = http::Request::get(path).body(Vec::new()).unwrap();
        let body = client.request_text(request).await.unwrap();
        assert_eq!(body, "ok", "{path}");
    }
    env.stop().await;
}

/// A namespaced and a cluster-scoped CRD become served resources with their status
/// and scale subresources, listed in discovery.
#[tokio::test]
async fn crds_serve_namespaced_and_cluster_scoped_types() {
    let env = start().await;
    let widgets = CustomType::new(&env, "Widget", "widgets", true);
    let gadgets = CustomType::new(&env, "Gadget", "gadgets", false);
    widgets.install(&env).await;
    gadgets.install(&env).await;

    let discovery = env
        .client()
        .list_api_group_resources(&widgets.resource.api_version)
        .await
        .unwrap();
    for (name, namespaced) in [("widgets", true), ("gadgets", false)] {
        let listed = discovery
            .resources
            .iter()
            .find(|r| r.name == name)
            .unwrap_or_else(|| panic!("{name} listed"));
        assert_eq!(listed.namespaced, namespaced, "{name} scope");
        for sub in ["status", "scale"] {
            assert!(
                discovery.resources.iter().any(|r| r.name == format!("{name}/{sub}")),
                "{name}/{sub} listed"
            );
        }
    }

    let namespace = env.namespace().to_owned();
    let gadget_name = format!("{namespace}-gadget");
    for (custom, api, name) in [
        (&widgets, widgets.namespaced(&env), "widget".to_owned()),
        (&gadgets, gadgets.all(&env), gadget_name),
    ] {
        let object = custom.object(
            &name,
            &json!({"spec": {"replicas": 2, "color": "blue"}, "status": {"phase": "Set by the client"}}),
        );
        let created = api.create(&PostParams::default(), &object).await.unwrap();
        assert_eq!(created.metadata.generation, Some(1));
        assert!(
            created.data.get("status").is_none(),
            "status is dropped on create behind a status subresource"
        );
        let fetched = api.get(&name).await.unwrap();
        assert_eq!(fetched.data["spec"]["replicas"], 2);
        let listed = api.list(&ListParams::default()).await.unwrap();
        assert!(
            listed
                .items
                .iter()
                .any(|o| o.metadata.name.as_deref() == Some(name.as_str()))
        );

        let status = json!({"status": {"replicas": 2, "phase": "Ready"}});
        let patched = api
            .patch_status(&name, &PatchParams::default(), &Patch::Merge(&status))
            .await
            .unwrap();
        assert_eq!(patched.data["status"]["phase"], "Ready");

        let scale = api.get_scale(&name).await.unwrap();
        assert_eq!(scale.spec.and_then(|s| s.replicas), Some(2));
        assert_eq!(scale.status.map(|s| s.replicas), Some(2));
        let scaled = api
            .patch_scale(
                &name,
                &PatchParams::default(),
                &Patch::Merge(&json!({"spec": {"replicas": 5}})),
            )
            .await
            .unwrap();
        assert_eq!(scaled.spec.and_then(|s| s.replicas), Some(5));
        let after = api.get(&name).await.unwrap();
        assert_eq!(after.data["spec"]["replicas"], 5, "scale writes spec.replicas");
        assert_eq!(after.metadata.generation, Some(2), "a scale changes the spec");

        api.delete(&name, &DeleteParams::default()).await.unwrap();
        wait_gone(&api, &name).await;
    }
    widgets.remove(&env).await;
    gadgets.remove(&env).await;
    env.stop().await;
}

/// Requests for a type the server does not serve are 404 with a Status.
#[tokio::test]
async fn unknown_resources_are_not_found() {
    let env = start().await;
    let unknown = CustomType::new(&env, "Missing", "missings", true);
    let error = api_error(unknown.namespaced(&env).list(&ListParams::default()).await);
    assert_eq!(error.code, 404);
    // A group the server does not serve has no handler: kube-apiserver (1.19 and 1.32
    // alike) answers Go's plain-text 404, which kube's client cannot read as a Status.
    for path in [
        format!(
            "/apis/{}/v1/namespaces/{}/missings",
            unknown.resource.group,
            env.namespace()
        ),
        format!("/apis/{}/v1", unknown.resource.group),
    ] {
        let answer = crate::raw::get_text(&env.client(), &path).await;
        let expected = (
            404,
            "text/plain; charset=utf-8".to_owned(),
            "404 page not found\n".to_owned(),
        );
        assert_eq!(answer, expected, "{path}");
    }
    // A served group with an unknown resource is a `Status`.
    let status = api_error(
        Api::<DynamicObject>::namespaced_with(
            env.client(),
            env.namespace(),
            &ApiResource::from_gvk_with_plural(&GroupVersionKind::gvk("apps", "v1", "Nothing"), "nothings"),
        )
        .list(&ListParams::default())
        .await,
    );
    assert_eq!((status.code, status.reason.as_str()), (404, "NotFound"));
    assert!(
        is_gone(
            &Api::<Namespace>::all(env.client()),
            "conformance-namespace-that-does-not-exist"
        )
        .await
    );
    env.stop().await;
}

/// Custom resources are checked against the CRD's structural schema: a wrong type is
/// 422 `Invalid` naming the field, and fields the schema does not declare are pruned.
#[tokio::test]
async fn custom_resources_follow_their_schema() {
    let env = start().await;
    let widgets = CustomType::new(&env, "Widget", "widgets", true);
    widgets.install(&env).await;
    let api = widgets.namespaced(&env);
    let wrong = widgets.object("wrong", &json!({"spec": {"replicas": "three"}}));
    let status = api_error(api.create(&PostParams::default(), &wrong).await);
    assert_eq!(
        (status.code, status.reason.as_str()),
        (422, "Invalid"),
        "{}",
        status.message
    );
    let causes = status.details.expect("Invalid has details").causes;
    assert!(causes.iter().any(|c| c.field == "spec.replicas"), "causes {causes:?}");

    let stray = widgets.object(
        "stray",
        &json!({"spec": {"replicas": 1, "kept": true}, "stray": "pruned"}),
    );
    let created = api.create(&PostParams::default(), &stray).await.unwrap();
    assert!(
        created.data.get("stray").is_none(),
        "an undeclared top-level field is pruned"
    );
    assert_eq!(created.data["spec"]["kept"], true, "spec preserves unknown fields");
    widgets.remove(&env).await;
    env.stop().await;
}

/// The real server fills in defaults of built-in types on create, which clients then
/// read back (and which server-side apply and diffs must live with).
#[tokio::test]
async fn builtin_objects_get_the_real_servers_defaults() {
    let env = start().await;
    let deployments: Api<k8s_openapi::api::apps::v1::Deployment> = Api::namespaced(env.client(), env.namespace());
    let created = deployments
        .create(
            &PostParams::default(),
            &crate::common::deployment("defaults", 0, &json!([{"name": "app", "image": IMAGE}])),
        )
        .await
        .unwrap();
    let spec = created.spec;
    assert_eq!(spec.strategy.and_then(|s| s.type_).as_deref(), Some("RollingUpdate"));
    assert_eq!(spec.revision_history_limit, Some(10));
    assert_eq!(spec.progress_deadline_seconds, Some(600));
    let pod = spec.template.spec.expect("a pod template");
    assert_eq!(pod.restart_policy.as_deref(), Some("Always"));
    assert_eq!(pod.dns_policy.as_deref(), Some("ClusterFirst"));
    assert_eq!(pod.termination_grace_period_seconds, Some(30));
    let container = &pod.containers[0];
    assert_eq!(container.image_pull_policy.as_deref(), Some("IfNotPresent"));
    assert_eq!(
        container.termination_message_path.as_deref(),
        Some("/dev/termination-log")
    );

    let services: Api<k8s_openapi::api::core::v1::Service> = Api::namespaced(env.client(), env.namespace());
    let service =
        from_json(json!({"metadata": {"name": "web"}, "spec": {"ports": [{"port": 80}], "selector": {"app": "web"}}}));
    let created = services.create(&PostParams::default(), &service).await.unwrap();
    let spec = created.spec.expect("a service spec");
    assert_eq!(spec.type_.as_deref(), Some("ClusterIP"));
    assert!(
        spec.cluster_ip.is_some_and(|ip| !ip.is_empty()),
        "a cluster IP is allocated"
    );
    let port = &spec.ports.expect("ports")[0];
    assert_eq!(port.protocol.as_deref(), Some("TCP"));
    assert_eq!(
        port.target_port,
        Some(k8s_openapi::apimachinery::pkg::util::intstr::IntOrString::Int(80)),
        "targetPort defaults to port"
    );

    // A Secret's stringData is write-only: it lands in data, encoded, over any entry
    // of the same key.
    let secrets: Api<k8s_openapi::api::core::v1::Secret> = Api::namespaced(env.client(), env.namespace());
    let secret = from_json(json!({
        "metadata": {"name": "token"},
        "data": {"user": "b2xk", "kept": "aw=="},
        "stringData": {"user": "admin"},
    }));
    let created = secrets.create(&PostParams::default(), &secret).await.unwrap();
    assert!(created.string_data.is_none(), "stringData was stored");
    assert_eq!(created.type_.as_deref(), Some("Opaque"));
    let data = created.data.expect("data");
    let text = |key: &str| data.get(key).map(|b| String::from_utf8_lossy(&b.0).into_owned());
    assert_eq!(text("user").as_deref(), Some("admin"));
    assert_eq!(text("kept").as_deref(), Some("k"));
    env.stop().await;
}
