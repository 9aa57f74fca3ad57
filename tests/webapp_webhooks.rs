//! The WebApp's admission webhooks: their decisions in process, end to end through
//! `TestEnv::start()` (the embedded API server, or with `USE_EXISTING_CLUSTER=true` a
//! real one on this machine, calls them over HTTPS at 127.0.0.1), kubectl's view of a
//! denial, and `deploy/webhook.yaml` kept equal to what the code generates.

use std::collections::BTreeMap;
use std::time::Duration;

use base64::Engine as _;
use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use k8s_openapi::api::core::v1::Namespace;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use kube::api::{Api, Patch, PatchParams, PostParams};
use kube::{CustomResourceExt, ResourceExt};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use webapp::{WebApp, WebAppSpec};
use wheelhouse::webhook::{Configurations, WebhookOptions, WebhookServer};
use wheelhouse_envtest::{TestEnv, eventually};
use wheelhouse_examples::webapp;
use wheelhouse_examples::webapp::webhooks;
use wheelhouse_manager::Manager;

const VALIDATE: &str = "/validate-example-com-v1-webapp";
const MUTATE: &str = "/mutate-example-com-v1-webapp";

fn spec(image: &str, replicas: Option<i32>, port: Option<i32>) -> WebAppSpec {
    WebAppSpec {
        image: image.into(),
        replicas,
        port,
    }
}

fn review(operation: &str, object: &Value, old: &Value) -> Bytes {
    let name = object["metadata"]["name"].as_str().unwrap_or("web");
    let review = json!({
        "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
        "request": {
            "uid": "uid-1",
            "kind": {"group": "example.com", "version": "v1", "kind": "WebApp"},
            "resource": {"group": "example.com", "version": "v1", "resource": "webapps"},
            "name": name, "namespace": "shop", "operation": operation,
            "userInfo": {"username": "alice"}, "object": object, "oldObject": old,
        }
    });
    Bytes::from(review.to_string())
}

/// The `response` of a review sent to the WebApp's webhooks in process.
async fn decide(path: &str, body: Bytes) -> Value {
    let server = webhooks::webhook_server(WebhookOptions::default());
    let request = http::Request::post(path)
        .header("content-type", "application/json")
        .body(Full::new(body))
        .unwrap();
    let answer = server.handle(request).await;
    assert_eq!(answer.status(), 200);
    let body = answer.into_body().collect().await.unwrap().to_bytes();
    let mut answer: Value = serde_json::from_slice(&body).unwrap();
    answer["response"].take()
}

fn webapp_json(spec: &WebAppSpec) -> Value {
    serde_json::to_value(WebApp::new("web", spec.clone())).unwrap()
}

/// The message of a denial, which must be one.
fn denial(response: &Value) -> String {
    assert_eq!(response["allowed"], false, "{response}");
    assert_eq!(response["status"]["code"], 422, "{response}");
    assert_eq!(response["status"]["reason"], "Invalid", "{response}");
    response["status"]["message"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn the_validator_says_what_to_do_instead() {
    let cases = [
        (
            spec("nginx", None, None),
            r#"spec.image: Invalid value: "nginx": the image has no tag"#,
        ),
        (spec("nginx:latest", None, None), r#""latest" moves with every release"#),
        (
            spec("registry.local:5000/team/nginx", None, None),
            "pin a version, such as registry.local:5000/team/nginx:1.27",
        ),
        (
            spec("", None, None),
            "spec.image: Required value: name the container image",
        ),
        (
            spec("nginx:1.27", Some(0), None),
            "spec.replicas: Invalid value: 0: must be between 1 and 50",
        ),
        (spec("nginx:1.27", Some(51), None), "spec.replicas: Invalid value: 51"),
        // References that only look pinned: the distribution grammar decides.
        (spec("nginx@", None, None), "not an image reference"),
        (spec("@", None, None), "not an image reference"),
        (spec("nginx@latest", None, None), "not an image reference"),
        (spec("nginx@sha256:0123abcd", None, None), "not an image reference"),
        (spec("nginx:1.27 ", None, None), "not an image reference"),
        (spec("nginx:latest ", None, None), "not an image reference"),
        (spec("nginx:1.27\n", None, None), "not an image reference"),
        (spec("nginx:1.27\u{200b}", None, None), "not an image reference"),
        (spec("NGINX:1.27", None, None), "not an image reference"),
        (
            spec("nginx:1.27", None, Some(70000)),
            "spec.port: Invalid value: 70000: must be a TCP port, between 1 and 65535",
        ),
        (spec("nginx:1.27", None, Some(0)), "spec.port: Invalid value: 0"),
    ];
    for (spec, expected) in cases {
        let message = denial(&decide(VALIDATE, review("CREATE", &webapp_json(&spec), &Value::Null)).await);
        assert!(
            message.starts_with(r#"WebApp.example.com "web" is invalid: "#),
            "{message}"
        );
        assert!(message.contains(expected), "{message:?} should contain {expected:?}");
    }
    for fine in [
        spec("nginx:1.27", None, None),
        spec(&format!("nginx@sha256:{}", "0123abcd".repeat(8)), Some(50), Some(8080)),
        spec(
            &format!("ghcr.io/team/app:2.1@sha256:{}", "ab".repeat(32)),
            Some(50),
            Some(65535),
        ),
        spec("registry.local:5000/nginx:1.27", Some(1), None),
    ] {
        let response = decide(VALIDATE, review("CREATE", &webapp_json(&fine), &Value::Null)).await;
        assert_eq!(response["allowed"], true, "{fine:?}: {response}");
    }
    // Both problems at once, so the user fixes them in one go.
    let message = denial(
        &decide(
            VALIDATE,
            review("CREATE", &webapp_json(&spec("nginx", Some(0), None)), &Value::Null),
        )
        .await,
    );
    assert!(
        message.contains("[spec.image") && message.contains(", spec.replicas"),
        "{message}"
    );
}

#[tokio::test]
async fn the_port_cannot_change_on_update() {
    let old = webapp_json(&spec("nginx:1.27", Some(2), None));
    let moved = webapp_json(&spec("nginx:1.27", Some(2), Some(8080)));
    let message = denial(&decide(VALIDATE, review("UPDATE", &moved, &old)).await);
    assert!(
        message.contains("spec.port: Invalid value: 8080: the port cannot change once the WebApp exists (it is 80); create a new WebApp on port 8080"),
        "{message}"
    );
    let defaulted = webapp_json(&spec("nginx:1.28", Some(3), Some(80)));
    let response = decide(VALIDATE, review("UPDATE", &defaulted, &old)).await;
    assert_eq!(
        response["allowed"], true,
        "80 written in is the default it was: {response}"
    );
    // A port that was never valid can be corrected (and only to a valid one).
    let broken = webapp_json(&spec("nginx:1.27", Some(2), Some(70000)));
    let response = decide(VALIDATE, review("UPDATE", &moved, &broken)).await;
    assert_eq!(response["allowed"], true, "{response}");
    let still_broken = webapp_json(&spec("nginx:1.27", Some(2), Some(70001)));
    let message = denial(&decide(VALIDATE, review("UPDATE", &still_broken, &broken)).await);
    assert!(message.contains("must be a TCP port"), "{message}");
}

#[tokio::test]
async fn a_webapp_being_deleted_can_always_lose_its_finalizers() {
    // Stored before the webhooks were registered, with a spec they refuse.
    let mut old = webapp_json(&spec("nginx", Some(0), Some(70000)));
    old["metadata"]["deletionTimestamp"] = json!("2026-01-01T00:00:00Z");
    old["metadata"]["finalizers"] = json!(["example.com/cleanup"]);
    let mut released = old.clone();
    released["metadata"]["finalizers"] = json!([]);
    let response = decide(VALIDATE, review("UPDATE", &released, &old)).await;
    assert_eq!(response["allowed"], true, "{response}");
    // Nor is it defaulted (its spec lacks the defaults): no patch to see as a change.
    let mut bare = released.clone();
    bare["spec"].as_object_mut().unwrap().remove("port");
    let response = decide(MUTATE, review("UPDATE", &bare, &old)).await;
    assert_eq!(response["allowed"], true, "{response}");
    assert!(response.get("patch").is_none(), "{response}");

    // A spec change is still validated while deleting, and so is any update before.
    let mut changed = released.clone();
    changed["spec"]["replicas"] = json!(3);
    assert_eq!(
        decide(VALIDATE, review("UPDATE", &changed, &old)).await["allowed"],
        false
    );
    let mut alive = old.clone();
    alive["metadata"].as_object_mut().unwrap().remove("deletionTimestamp");
    let mut relabelled = alive.clone();
    relabelled["metadata"]["labels"] = json!({"team": "x"});
    assert_eq!(
        decide(VALIDATE, review("UPDATE", &relabelled, &alive)).await["allowed"],
        false
    );
}

#[tokio::test]
async fn a_review_whose_object_or_resource_is_another_is_refused() {
    let web = webapp_json(&spec("nginx:1.27", None, None));
    let mut pod_shaped = web.clone();
    pod_shaped["kind"] = json!("Pod");
    pod_shaped["apiVersion"] = json!("v1");
    for path in [VALIDATE, MUTATE] {
        let response = decide(path, review("CREATE", &pod_shaped, &Value::Null)).await;
        assert_eq!(response["allowed"], false, "{response}");
        assert_eq!(response["status"]["code"], 400);
        let message = response["status"]["message"].as_str().unwrap();
        assert!(
            message.contains(r#"request.object says apiVersion "v1" kind "Pod""#),
            "{message}"
        );
    }
    let mut for_pods: Value = serde_json::from_slice(&review("CREATE", &web, &Value::Null)).unwrap();
    for_pods["request"]["resource"] = json!({"group": "", "version": "v1", "resource": "pods"});
    let response = decide(VALIDATE, Bytes::from(for_pods.to_string())).await;
    assert_eq!(response["allowed"], false, "{response}");
    assert!(
        response["status"]["message"]
            .as_str()
            .unwrap()
            .contains("but the request is for resource /v1 pods"),
        "{response}"
    );
}

#[tokio::test]
async fn the_defaulter_fills_in_and_keeps_what_it_does_not_know() {
    let mut object = webapp_json(&spec("nginx:1.27", None, None));
    object["metadata"]["labels"] = json!({"team": "shop"});
    object["metadata"]["annotations"] = json!({"note": "kept"});
    object["spec"]["fromANewerVersion"] = json!({"x": 1});
    let response = decide(MUTATE, review("CREATE", &object, &Value::Null)).await;
    assert_eq!(response["allowed"], true);
    assert_eq!(response["patchType"], "JSONPatch");
    let patch = base64::engine::general_purpose::STANDARD
        .decode(response["patch"].as_str().unwrap())
        .unwrap();
    let mut patched = object.clone();
    let patch: json_patch::Patch = serde_json::from_slice(&patch).unwrap();
    json_patch::patch(&mut patched, &patch).unwrap();
    let mut expected = object.clone();
    expected["spec"]["replicas"] = json!(1);
    expected["spec"]["port"] = json!(80);
    expected["metadata"]["labels"]["app.kubernetes.io/managed-by"] = json!("wheelhouse");
    assert_eq!(patched, expected);

    let already = decide(MUTATE, review("CREATE", &expected, &Value::Null)).await;
    assert!(already.get("patch").is_none(), "nothing to default: {already}");
}

/// The environment, and the label selecting its namespace; None when the API server
/// cannot call a webhook on this machine's loopback (a remote cluster).
async fn environment() -> Option<(TestEnv, LabelSelector)> {
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
    // The configurations are cluster-wide: on a shared cluster they must only see
    // this test's namespace.
    let key = "wheelhouse.rs/webhook-test";
    let namespaces: Api<Namespace> = Api::all(env.client());
    let labels = json!({"metadata": {"labels": {key: env.namespace()}}});
    namespaces
        .patch(env.namespace(), &PatchParams::default(), &Patch::Merge(&labels))
        .await
        .unwrap();
    let selector = LabelSelector {
        match_labels: Some(BTreeMap::from([(key.to_owned(), env.namespace().to_owned())])),
        ..LabelSelector::default()
    };
    env.install_crd(&WebApp::crd()).await.expect("the CRD installs");
    Some((env, selector))
}

/// The WebApp webhooks run by a manager, registered with the environment's API server.
struct Served {
    configurations: Configurations,
    shutdown: CancellationToken,
    running: tokio::task::JoinHandle<Result<(), wheelhouse_manager::Error>>,
}

async fn serve(env: &TestEnv, selector: LabelSelector) -> Served {
    let name = format!("{}-webapp", env.namespace());
    let (server, configurations): (WebhookServer, Configurations) =
        webhooks::serve_locally(&env.client(), &name, Some(selector))
            .await
            .expect("the webhooks register");
    let shutdown = CancellationToken::new();
    let manager = Manager::builder(env.client())
        .shutdown_signal(shutdown.clone())
        .build()
        .unwrap();
    manager.add(server).unwrap();
    let running = tokio::spawn(manager.run());
    // A real API server takes configurations into account asynchronously: probe
    // with dry runs until both webhooks answer.
    let webapps: Api<WebApp> = Api::namespaced(env.client(), env.namespace());
    let dry = PostParams {
        dry_run: true,
        ..PostParams::default()
    };
    eventually("both webhooks to take effect", || async {
        let defaulted = webapps
            .create(&dry, &WebApp::new("probe", spec("nginx:1.27", None, None)))
            .await
            .ok()?;
        let denied = webapps
            .create(&dry, &WebApp::new("probe", spec("nginx", None, None)))
            .await;
        (defaulted.spec.replicas == Some(1) && denied.is_err()).then_some(())
    })
    .await;
    Served {
        configurations,
        shutdown,
        running,
    }
}

impl Served {
    async fn stop(self, env: TestEnv) {
        self.configurations.delete(&env.client()).await.unwrap();
        self.shutdown.cancel();
        tokio::time::timeout(Duration::from_secs(30), self.running)
            .await
            .expect("the manager stops")
            .unwrap()
            .unwrap();
        env.stop().await;
    }
}

fn status_of<T: std::fmt::Debug>(result: Result<T, kube::Error>) -> kube::core::Status {
    match result {
        Err(kube::Error::Api(status)) => *status,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_server_calls_the_webhooks() {
    let Some((env, selector)) = environment().await else {
        return;
    };
    let served = serve(&env, selector).await;
    let webapps: Api<WebApp> = Api::namespaced(env.client(), env.namespace());

    let status = status_of(
        webapps
            .create(&PostParams::default(), &WebApp::new("bad", spec("nginx", None, None)))
            .await,
    );
    assert_eq!(status.code, 422);
    assert!(
        status.message.starts_with(
            r#"admission webhook "vwebapp-v1.kb.io" denied the request: WebApp.example.com "bad" is invalid: spec.image: Invalid value: "nginx": the image has no tag"#
        ),
        "{}",
        status.message
    );
    assert!(webapps.get_opt("bad").await.unwrap().is_none());

    let created = webapps
        .create(
            &PostParams::default(),
            &WebApp::new("web", spec("nginx:1.27", None, None)),
        )
        .await
        .expect("a pinned image is allowed");
    assert_eq!(created.spec.replicas, Some(1));
    assert_eq!(created.spec.port, Some(80));
    assert_eq!(
        created.labels().get("app.kubernetes.io/managed-by").map(String::as_str),
        Some("wheelhouse")
    );
    let stored = webapps.get("web").await.unwrap();
    assert_eq!(stored.spec, created.spec, "the defaults are stored");

    let moved = json!({"spec": {"port": 8080}});
    let status = status_of(
        webapps
            .patch("web", &PatchParams::default(), &Patch::Merge(&moved))
            .await,
    );
    assert!(
        status
            .message
            .contains("the port cannot change once the WebApp exists (it is 80)"),
        "{}",
        status.message
    );
    let scaled = json!({"spec": {"replicas": 3}});
    webapps
        .patch("web", &PatchParams::default(), &Patch::Merge(&scaled))
        .await
        .expect("scaling is allowed");
    let too_many = json!({"spec": {"replicas": 500}});
    let status = status_of(
        webapps
            .patch("web", &PatchParams::default(), &Patch::Merge(&too_many))
            .await,
    );
    assert!(
        status.message.contains("spec.replicas: Invalid value: 500"),
        "{}",
        status.message
    );
    served.stop(env).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_webapp_stored_before_the_webhooks_can_still_be_deleted() {
    let Some((env, selector)) = environment().await else {
        return;
    };
    let webapps: Api<WebApp> = Api::namespaced(env.client(), env.namespace());
    // Stored before the webhooks exist, with a finalizer an operator would remove.
    let mut broken = WebApp::new("broken", spec("nginx", Some(1), Some(70000)));
    broken.metadata.finalizers = Some(vec!["example.com/cleanup".into()]);
    webapps.create(&PostParams::default(), &broken).await.unwrap();
    let served = serve(&env, selector).await;

    webapps
        .delete("broken", &kube::api::DeleteParams::default())
        .await
        .unwrap();
    let deleting = webapps.get("broken").await.unwrap();
    assert!(deleting.metadata.deletion_timestamp.is_some());
    // A spec change is still refused while it is deleted...
    let status = status_of(
        webapps
            .patch(
                "broken",
                &PatchParams::default(),
                &Patch::Merge(&json!({"spec": {"replicas": 2}})),
            )
            .await,
    );
    assert!(status.message.contains("spec.image"), "{}", status.message);
    // ...but the finalizer's removal goes through, and the object is gone.
    let release = json!({"metadata": {"finalizers": null}});
    webapps
        .patch("broken", &PatchParams::default(), &Patch::Merge(&release))
        .await
        .expect("the finalizer can be removed from an invalid WebApp being deleted");
    eventually("the WebApp to be gone", || async {
        webapps.get_opt("broken").await.unwrap().is_none().then_some(())
    })
    .await;
    served.stop(env).await;
}

/// Stored before the webhooks existed, so without the defaults and invalid: the
/// defaulter must not add `spec.port` on the update that removes the finalizer, or
/// the validator would see a spec change and refuse it for ever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_webapp_without_defaults_being_deleted_can_lose_its_finalizers() {
    let Some((env, selector)) = environment().await else {
        return;
    };
    let webapps: Api<WebApp> = Api::namespaced(env.client(), env.namespace());
    let mut bare = WebApp::new("bare", spec("nginx", None, None));
    bare.metadata.finalizers = Some(vec!["example.com/cleanup".into()]);
    webapps.create(&PostParams::default(), &bare).await.unwrap();
    let served = serve(&env, selector).await;

    webapps
        .delete("bare", &kube::api::DeleteParams::default())
        .await
        .unwrap();
    let deleting = webapps.get("bare").await.unwrap();
    assert!(deleting.metadata.deletion_timestamp.is_some());
    assert_eq!(deleting.spec.port, None, "stored without its defaults");
    let release = json!({"metadata": {"finalizers": null}});
    webapps
        .patch("bare", &PatchParams::default(), &Patch::Merge(&release))
        .await
        .expect("the finalizer can be removed from a WebApp without defaults being deleted");
    eventually("the WebApp to be gone", || async {
        webapps.get_opt("bare").await.unwrap().is_none().then_some(())
    })
    .await;
    served.stop(env).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_apply_of_a_bad_webapp_prints_our_message() {
    if std::process::Command::new("kubectl")
        .arg("version")
        .arg("--client")
        .output()
        .is_err()
    {
        eprintln!("skipped: kubectl is not on the PATH");
        return;
    }
    let Some((mut env, selector)) = environment().await else {
        return;
    };
    let kubeconfig = if env.is_embedded() {
        env.serve_http(([127, 0, 0, 1], 0).into()).await.unwrap();
        env.kubeconfig().unwrap()
    } else {
        env.kubeconfig().unwrap()
    };
    let served = serve(&env, selector).await;
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("bad.yaml");
    std::fs::write(
        &manifest,
        "apiVersion: example.com/v1\nkind: WebApp\nmetadata:\n  name: bad\nspec:\n  image: nginx:latest\n  replicas: 2\n",
    )
    .unwrap();
    let namespace = env.namespace().to_owned();
    let output = tokio::task::spawn_blocking(move || {
        std::process::Command::new("kubectl")
            .arg("--kubeconfig")
            .arg(&kubeconfig)
            .args(["apply", "-n", &namespace, "-f"])
            .arg(&manifest)
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("kubectl apply said: {stderr}");
    assert!(!output.status.success(), "kubectl apply succeeded: {stderr}");
    // The denial is a 422 Invalid with causes, as apimachinery's NewInvalid makes it,
    // and kubectl prints such a status from its causes, as it prints the API server's
    // own validation errors.
    assert!(
        stderr.contains(r#"The WebApp "bad" is invalid: spec.image: Invalid value: "nginx:latest": "latest" moves with every release"#),
        "{stderr}"
    );
    served.stop(env).await;
}

#[test]
fn deploy_webhook_yaml_is_what_the_code_generates() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/webhook.yaml");
    let generated = webhooks::deploy_manifests().unwrap();
    if std::env::var_os("WHEELHOUSE_UPDATE_DEPLOY").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "deploy/webhook.yaml differs from examples/src/webapp/webhooks.rs's deploy_manifests(); \
         regenerate it with WHEELHOUSE_UPDATE_DEPLOY=1 cargo test --test webapp_webhooks deploy"
    );
    assert!(
        generated.contains("kind: MutatingWebhookConfiguration")
            && generated.contains("kind: ValidatingWebhookConfiguration")
    );
    assert!(generated.contains("cert-manager.io/inject-ca-from: webapp-system/webapp-serving-cert"));
}

#[test]
fn deploy_fencing_yaml_is_what_the_code_generates() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/fencing.yaml");
    let generated = wheelhouse_examples::webapp::fencing::deploy_manifests().unwrap();
    if std::env::var_os("WHEELHOUSE_UPDATE_DEPLOY").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "deploy/fencing.yaml differs from examples/src/webapp/fencing.rs's deploy_manifests(); \
         regenerate it with WHEELHOUSE_UPDATE_DEPLOY=1 cargo test --test webapp_webhooks deploy"
    );
    assert!(generated.contains("kind: ValidatingAdmissionPolicyBinding"));
    assert!(generated.contains("system:serviceaccount:webapp-system:webapp-operator"));
}

#[test]
fn deploy_fencing_webhook_yaml_is_what_the_code_generates() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/fencing-webhook.yaml");
    let generated = wheelhouse_examples::webapp::fencing::deploy_webhook_manifests().unwrap();
    if std::env::var_os("WHEELHOUSE_UPDATE_DEPLOY").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "deploy/fencing-webhook.yaml differs from examples/src/webapp/fencing.rs's deploy_webhook_manifests(); \
         regenerate it with WHEELHOUSE_UPDATE_DEPLOY=1 cargo test --test webapp_webhooks deploy"
    );
    assert!(generated.contains("kind: ValidatingWebhookConfiguration"));
    assert!(generated.contains("path: /fence-webapp-operator-fencing"));
    assert!(generated.contains("wheelhouse.dev/fenced-by: webapp-operator-fencing"));
}
