//! Nobody can write through the conversion what they could not write through the
//! endpoint itself: the `wheelhouse.rs/conversion-data` annotation is the client's to
//! write (it is metadata), so the WebApp's conversion never restores from it what a
//! client of the main resource could not set, its status. A merge patch of the
//! annotation through `v1alpha1` with a forged `Ready=True` changes no status field in
//! either version; and (on an API server with RBAC) a user who may update WebApps but
//! not `webapps/status` changes no status field through any version, however it
//! writes. On the embedded server, or with `USE_EXISTING_CLUSTER=true` a real one on
//! this machine, which calls the webhook at 127.0.0.1.

use std::collections::BTreeMap;
use std::time::Duration;

use k8s_openapi::api::core::v1::Namespace;
use k8s_openapi::api::rbac::v1::{PolicyRule, Role, RoleBinding, RoleRef, Subject};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use kube::api::{Api, ObjectMeta, Patch, PatchParams, PostParams};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use wheelhouse::webhook::conversion::CONVERSION_DATA_ANNOTATION;
use wheelhouse_envtest::{TestEnv, eventually};
use wheelhouse_examples::webapp::{WebApp, WebAppSpec, v1alpha1, webhooks};
use wheelhouse_manager::Manager;

/// Takes the conversion webhook out of the WebApp CRD, so later tests on the same
/// cluster, whose server is gone, still read and write WebApps.
async fn stop_converting(client: &kube::Client) {
    let none = json!({"spec": {"conversion": {"strategy": "None", "webhook": null}}});
    Api::<CustomResourceDefinition>::all(client.clone())
        .patch("webapps.example.com", &PatchParams::default(), &Patch::Merge(&none))
        .await
        .expect("take the conversion webhook out of the CRD");
}

/// The test's namespace labelled, the WebApp's webhooks served by a manager and
/// registered for it, and the two-version CRD installed: with a guard that undoes it.
struct Converting {
    configurations: wheelhouse::webhook::Configurations,
    shutdown: CancellationToken,
    running: tokio::task::JoinHandle<Result<(), wheelhouse_manager::Error>>,
}

impl Converting {
    async fn start(env: &TestEnv) -> Self {
        let (client, namespace) = (env.client(), env.namespace().to_owned());
        let key = "wheelhouse.rs/conversion-test";
        let labels = json!({"metadata": {"labels": {key: namespace}}});
        Api::<Namespace>::all(client.clone())
            .patch(&namespace, &PatchParams::default(), &Patch::Merge(&labels))
            .await
            .expect("label the namespace");
        let selector = LabelSelector {
            match_labels: Some(BTreeMap::from([(key.to_owned(), namespace.clone())])),
            ..LabelSelector::default()
        };
        let (server, configurations, crd) =
            webhooks::serve_locally_converting(&client, &format!("{namespace}-stash"), Some(selector))
                .await
                .expect("the webhooks register");
        let shutdown = CancellationToken::new();
        let manager = Manager::builder(client.clone())
            .shutdown_signal(shutdown.clone())
            .build()
            .expect("a manager");
        manager.add(server).expect("add the webhook server");
        let running = tokio::spawn(manager.run());
        env.install_crd(&crd).await.expect("the two-version CRD installs");
        Self {
            configurations,
            shutdown,
            running,
        }
    }

    async fn stop(self, client: &kube::Client) {
        self.configurations
            .delete(client)
            .await
            .expect("remove the configurations");
        stop_converting(client).await;
        self.shutdown.cancel();
        tokio::time::timeout(Duration::from_secs(30), self.running)
            .await
            .expect("the manager stops")
            .expect("the manager's task")
            .expect("the manager ran");
    }
}

/// None when the API server is not on this machine (it could not call the webhook).
async fn environment() -> Option<TestEnv> {
    let env = TestEnv::start().await.expect("a test environment");
    if !env.is_embedded() {
        let config = env
            .config_for("wheelhouse-loopback-probe")
            .expect("the environment's configuration");
        let host = config.cluster_url.host().unwrap_or_default().to_owned();
        if !matches!(host.as_str(), "127.0.0.1" | "localhost" | "[::1]") {
            eprintln!("skipped: the API server at {host} cannot call a webhook on this machine's 127.0.0.1");
            env.stop().await;
            return None;
        }
    }
    Some(env)
}

/// The status the operator wrote: not ready.
fn operator_status() -> Value {
    json!({"status": {"phase": "Waiting", "availableReplicas": 0, "observedGeneration": 1, "conditions": [{
        "type": "Ready", "status": "False", "reason": "Progressing", "message": "0 of 2 pods",
        "lastTransitionTime": "2026-01-01T00:00:00Z",
    }]}})
}

/// The stash a client forges: ready, and a condition of its own.
fn forged_stash() -> String {
    json!({"conditions": [
        {"type": "Ready", "status": "True", "reason": "Available", "message": "2 of 2 pods", "lastTransitionTime": "2026-01-01T00:00:00Z"},
        {"type": "Forged", "status": "True", "reason": "Forged", "message": "planted", "lastTransitionTime": "2026-01-01T00:00:00Z"},
    ]})
    .to_string()
}

/// The WebApp `name`'s status as `v1` reads it, and as `v1alpha1` reads it.
async fn statuses(client: &kube::Client, namespace: &str, name: &str) -> (Value, Value) {
    let current: Api<WebApp> = Api::namespaced(client.clone(), namespace);
    let older: Api<v1alpha1::WebApp> = Api::namespaced(client.clone(), namespace);
    let v1 = serde_json::to_value(current.get(name).await.expect("read as v1").status).unwrap();
    let old = serde_json::to_value(older.get(name).await.expect("read as v1alpha1").status).unwrap();
    (v1, old)
}

/// Asserts that a write left the WebApp's status as `before`, in both versions, but
/// for `v1`'s conditions, which a write through `v1alpha1` drops (that version cannot
/// hold them, and they are never taken from a stash) for the operator to compute
/// again: never a condition or field the writer chose.
fn assert_unforged(after: &(Value, Value), before: &(Value, Value), context: &str) {
    assert_eq!(after.1, before.1, "{context}: the v1alpha1 status changed");
    let conditions = &after.0["conditions"];
    assert!(
        conditions.is_null() || *conditions == before.0["conditions"],
        "{context}: the conditions are the operator's or none: {conditions}"
    );
    let without_conditions = |status: &Value| {
        let mut status = status.clone();
        if let Some(fields) = status.as_object_mut() {
            fields.remove("conditions");
        }
        status
    };
    assert_eq!(
        without_conditions(&after.0),
        without_conditions(&before.0),
        "{context}: a v1 status field changed"
    );
}

async fn create_with_status(client: &kube::Client, namespace: &str, name: &str) -> (Value, Value) {
    let current: Api<WebApp> = Api::namespaced(client.clone(), namespace);
    let older: Api<v1alpha1::WebApp> = Api::namespaced(client.clone(), namespace);
    let spec = WebAppSpec {
        image: "nginx:1.27".into(),
        replicas: Some(2),
        port: Some(8080),
    };
    current
        .create(&PostParams::default(), &WebApp::new(name, spec))
        .await
        .expect("create in v1");
    current
        .patch_status(name, &PatchParams::default(), &Patch::Merge(&operator_status()))
        .await
        .expect("the operator's status");
    // A real server takes a CRD's conversion into account asynchronously.
    eventually("v1alpha1 reads to be converted", || async {
        older
            .get(name)
            .await
            .ok()
            .filter(|old| old.spec.container_port.is_some())
    })
    .await;
    statuses(client, namespace, name).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_conversion_stash_changes_no_status_field() {
    let Some(env) = environment().await else { return };
    let (client, namespace) = (env.client(), env.namespace().to_owned());
    let converting = Converting::start(&env).await;
    let before = create_with_status(&client, &namespace, "shop").await;
    assert_eq!(before.0["conditions"][0]["status"], "False");

    // The annotation merged in through v1alpha1, as `kubectl patch webapps.v1alpha1...`.
    let older: Api<v1alpha1::WebApp> = Api::namespaced(client.clone(), &namespace);
    let forged = json!({"metadata": {"annotations": {CONVERSION_DATA_ANNOTATION: forged_stash()}}});
    let _ = older
        .patch("shop", &PatchParams::default(), &Patch::Merge(&forged))
        .await
        .expect("the main resource takes any annotation");
    let after = statuses(&client, &namespace, "shop").await;
    assert_unforged(&after, &before, "a merge patch of the stash");

    // A whole object written back through v1alpha1 with the forged stash and status.
    let mut object = older.get("shop").await.expect("read as v1alpha1");
    object
        .metadata
        .annotations
        .get_or_insert_default()
        .insert(CONVERSION_DATA_ANNOTATION.to_owned(), forged_stash());
    if let Some(status) = &mut object.status {
        status.available_replicas = Some(2);
    }
    older
        .replace("shop", &PostParams::default(), &object)
        .await
        .expect("an update through v1alpha1");
    let after = statuses(&client, &namespace, "shop").await;
    assert_unforged(&after, &before, "an update through v1alpha1");
    converting.stop(&client).await;
    env.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_user_who_may_not_write_status_changes_none_through_any_version() {
    let Some(env) = environment().await else { return };
    let (client, namespace) = (env.client(), env.namespace().to_owned());
    // RBAC needs an API server that enforces it: not the embedded one, nor a 1.19
    // running without authorization.
    let user = "webapp-editor";
    let Some(editor) = impersonating(&env, user).await else {
        eprintln!("skipped: this API server does not enforce RBAC for impersonated users");
        env.stop().await;
        return;
    };
    let converting = Converting::start(&env).await;
    let roles: Api<Role> = Api::namespaced(client.clone(), &namespace);
    let role = Role {
        metadata: ObjectMeta {
            name: Some(user.to_owned()),
            ..ObjectMeta::default()
        },
        rules: Some(vec![PolicyRule {
            api_groups: Some(vec!["example.com".into()]),
            resources: Some(vec!["webapps".into()]),
            verbs: ["get", "list", "watch", "update", "patch"].map(String::from).to_vec(),
            ..PolicyRule::default()
        }]),
    };
    roles
        .create(&PostParams::default(), &role)
        .await
        .expect("the editor's Role");
    let binding = RoleBinding {
        metadata: ObjectMeta {
            name: Some(user.to_owned()),
            ..ObjectMeta::default()
        },
        role_ref: RoleRef {
            api_group: Some("rbac.authorization.k8s.io".into()),
            kind: "Role".into(),
            name: user.to_owned(),
        },
        subjects: Some(vec![Subject {
            kind: "User".into(),
            name: user.to_owned(),
            api_group: Some("rbac.authorization.k8s.io".into()),
            ..Subject::default()
        }]),
    };
    Api::<RoleBinding>::namespaced(client.clone(), &namespace)
        .create(&PostParams::default(), &binding)
        .await
        .expect("the editor's RoleBinding");
    let before = create_with_status(&client, &namespace, "cart").await;

    let ready = json!({"status": {"phase": "Ready", "availableReplicas": 2, "observedGeneration": 9}});
    let stash = json!({"metadata": {"annotations": {CONVERSION_DATA_ANNOTATION: forged_stash()}}});
    let mut both = ready.clone();
    both["metadata"] = stash["metadata"].clone();
    for version in ["v1", "v1alpha1"] {
        let webapps = Api::<kube::api::DynamicObject>::namespaced_with(
            editor.clone(),
            &namespace,
            &kube::api::ApiResource {
                group: "example.com".into(),
                version: version.into(),
                api_version: format!("example.com/{version}"),
                kind: "WebApp".into(),
                plural: "webapps".into(),
            },
        );
        // Every way the editor may write: merge patches of the status, the stash and
        // both on the main resource, and the status subresource, which it may not.
        for patch in [&ready, &stash, &both] {
            webapps
                .patch("cart", &PatchParams::default(), &Patch::Merge(patch))
                .await
                .unwrap_or_else(|error| panic!("{version}: the editor may patch WebApps: {error}"));
            let after = statuses(&client, &namespace, "cart").await;
            assert_unforged(&after, &before, &format!("{version}: {patch}"));
        }
        let refused = webapps
            .patch_status("cart", &PatchParams::default(), &Patch::Merge(&ready))
            .await
            .expect_err("the editor may not write webapps/status");
        assert!(
            matches!(refused, kube::Error::Api(ref status) if status.code == 403),
            "{refused:?}"
        );
        let after = statuses(&client, &namespace, "cart").await;
        assert_unforged(&after, &before, &format!("{version}: the status subresource"));
    }
    converting.stop(&client).await;
    env.stop().await;
}

/// A client of the same API server acting as `user` (with no groups but
/// `system:authenticated`), or None when the server lets that user do what no role
/// allows it (no RBAC).
async fn impersonating(env: &TestEnv, user: &str) -> Option<kube::Client> {
    if env.is_embedded() {
        return None;
    }
    let mut config = env
        .config_for("wheelhouse-impersonating")
        .expect("the environment's configuration");
    config.auth_info.impersonate = Some(user.to_owned());
    config.auth_info.impersonate_groups = Some(vec!["system:authenticated".to_owned()]);
    let client = kube::Client::try_from(config).expect("an impersonating client");
    let denied = Api::<Namespace>::all(client.clone())
        .list(&kube::api::ListParams::default())
        .await;
    matches!(denied, Err(kube::Error::Api(ref status)) if status.code == 403).then_some(client)
}
