//! Item 9: admission webhooks, called over HTTPS by the API server, against a webhook
//! server this test runs on 127.0.0.1 with a self-signed certificate.
//!
//! Only the embedded server runs these: a remote API server cannot reach the test's
//! loopback address.

use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use k8s_openapi::api::admissionregistration::v1::{MutatingWebhookConfiguration, ValidatingWebhookConfiguration};
use k8s_openapi::api::core::v1::{ConfigMap, Namespace};
use kube::api::{Api, PostParams};
use serde_json::{Value, json};
use wheelhouse_envtest::TestEnv;

use crate::common::{api_error, configmap, eventually, from_json, skip_unless_loopback_reachable, start};

/// The message the denying webhook gives, which the client must receive.
const DENIAL: &str = "objects labelled deny=true are not allowed here";

/// A webhook server: `/mutate` adds the label `mutated=true` by `JSONPatch`,
/// `/validate` denies objects labelled `deny=true`, `/deny` denies everything,
/// `/break` adds a label whose value is invalid, `/repair` removes that label, and
/// `/slow` answers after 10 s. It records every `AdmissionReview` it receives.
struct WebhookServer {
    base: String,
    ca_bundle: String,
    reviews: crate::common::Reviews,
}

impl WebhookServer {
    async fn start() -> Self {
        let (base, ca_bundle, reviews) = crate::common::serve_webhooks(answer).await;
        Self {
            base,
            ca_bundle,
            reviews,
        }
    }

    /// A webhook entry calling `path` for configmap writes of objects with `selector`.
    fn hook(&self, name: &str, path: &str, selector: &Value, failure_policy: &str) -> Value {
        hook_at(
            &format!("{}{path}", self.base),
            &self.ca_bundle,
            name,
            selector,
            failure_policy,
        )
    }

    fn reviews(&self, path: &str) -> Vec<Value> {
        let reviews = self.reviews.lock().unwrap();
        reviews
            .iter()
            .filter(|(p, _)| p == path)
            .map(|(_, review)| review.clone())
            .collect()
    }
}

fn hook_at(url: &str, ca_bundle: &str, name: &str, selector: &Value, failure_policy: &str) -> Value {
    let mut hook = json!({
        "name": name,
        "clientConfig": {"url": url, "caBundle": ca_bundle},
        "rules": [{"operations": ["CREATE", "UPDATE"], "apiGroups": [""], "apiVersions": ["v1"], "resources": ["configmaps"], "scope": "Namespaced"}],
        "failurePolicy": failure_policy,
        "sideEffects": "None",
        "admissionReviewVersions": ["v1"],
        "timeoutSeconds": 2,
    });
    if let (Some(hook), Some(selector)) = (hook.as_object_mut(), selector.as_object()) {
        hook.extend(selector.clone());
    }
    hook
}

/// The answer to `review`, received at `path`.
async fn answer(path: String, review: Value) -> Value {
    let uid = review["request"]["uid"].clone();
    let labels = &review["request"]["object"]["metadata"]["labels"];
    let response = match path.as_str() {
        "/mutate" => {
            let operations = if labels.is_object() {
                json!([{"op": "add", "path": "/metadata/labels/mutated", "value": "true"}])
            } else {
                json!([{"op": "add", "path": "/metadata/labels", "value": {"mutated": "true"}}])
            };
            json!({"uid": uid, "allowed": true, "patchType": "JSONPatch", "patch": STANDARD.encode(operations.to_string())})
        }
        "/break" => {
            // A label value no object may carry: the server validates after mutating
            // admission, so the request fails.
            let operations = json!([{"op": "add", "path": "/metadata/labels/broken", "value": "not a label value!"}]);
            json!({"uid": uid, "allowed": true, "patchType": "JSONPatch", "patch": STANDARD.encode(operations.to_string())})
        }
        "/repair" => {
            let operations = json!([{"op": "remove", "path": "/metadata/labels/broken"}]);
            json!({"uid": uid, "allowed": true, "patchType": "JSONPatch", "patch": STANDARD.encode(operations.to_string())})
        }
        "/validate" if labels["deny"] == "true" => {
            json!({"uid": uid, "allowed": false, "status": {"code": 403, "message": DENIAL}})
        }
        "/deny" => {
            json!({"uid": uid, "allowed": false, "status": {"code": 403, "message": "this namespace is closed"}})
        }
        "/slow" => {
            tokio::time::sleep(Duration::from_secs(10)).await;
            json!({"uid": uid, "allowed": true})
        }
        _ => json!({"uid": uid, "allowed": true}),
    };
    json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": response})
}

async fn register_mutating(env: &TestEnv, name: &str, hooks: Vec<Value>) {
    let api: Api<MutatingWebhookConfiguration> = Api::all(env.client());
    let full_name = format!("{}-{name}", env.namespace());
    let config = from_json(json!({"metadata": {"name": full_name}, "webhooks": hooks}));
    api.create(&PostParams::default(), &config).await.unwrap();
    // Cluster-wide, and calling a server that ends with the test: it goes with the
    // environment, a failing test's too, or it would fail later tests' writes on a
    // shared server.
    env.on_stop(move |client| async move {
        let api: Api<MutatingWebhookConfiguration> = Api::all(client);
        let _ = api.delete(&full_name, &kube::api::DeleteParams::default()).await;
    });
}

async fn register_validating(env: &TestEnv, name: &str, hooks: Vec<Value>) {
    let api: Api<ValidatingWebhookConfiguration> = Api::all(env.client());
    let full_name = format!("{}-{name}", env.namespace());
    let config = from_json(json!({"metadata": {"name": full_name}, "webhooks": hooks}));
    api.create(&PostParams::default(), &config).await.unwrap();
    // Cluster-wide, and calling a server that ends with the test: it goes with the
    // environment, a failing test's too, or it would fail later tests' writes on a
    // shared server.
    env.on_stop(move |client| async move {
        let api: Api<ValidatingWebhookConfiguration> = Api::all(client);
        let _ = api.delete(&full_name, &kube::api::DeleteParams::default()).await;
    });
}

fn object_selector(key: &str, value: &str) -> Value {
    json!({"objectSelector": {"matchLabels": {key: value}}})
}

/// A test's webhook server with a mutating webhook at `path` (named after it) and, if
/// `validate`, the validating one at `/validate`, both for configmaps labelled
/// `admission=<label>`; None when the API server cannot call this test's loopback
/// address.
async fn hooked(env: &TestEnv, label: &str, path: &str, validate: bool) -> Option<WebhookServer> {
    if skip_unless_loopback_reachable(env, "calling a webhook on 127.0.0.1") {
        return None;
    }
    let webhooks = WebhookServer::start().await;
    let selector = object_selector("admission", label);
    let name = path.trim_start_matches('/');
    let hook = webhooks.hook(&format!("{name}.conformance.wheelhouse.rs"), path, &selector, "Fail");
    register_mutating(env, name, vec![hook]).await;
    if validate {
        let hook = webhooks.hook("validate.conformance.wheelhouse.rs", "/validate", &selector, "Fail");
        register_validating(env, "validate", vec![hook]).await;
    }
    Some(webhooks)
}

/// A mutating webhook's `JSONPatch` is applied, the validating webhook then sees the
/// mutated object, and its denial reaches the client with its message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhooks_mutate_then_validate() {
    let env = start().await;
    let Some(webhooks) = hooked(&env, "conformance", "/mutate", true).await else {
        env.stop().await;
        return;
    };
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());

    // Webhook configurations take effect asynchronously on a real server: probe.
    let created = eventually("the mutating webhook to take effect", || async {
        let probe: ConfigMap =
            from_json(json!({"metadata": {"generateName": "probe-", "labels": {"admission": "conformance"}}}));
        let created = api.create(&PostParams::default(), &probe).await.unwrap();
        created
            .metadata
            .labels
            .as_ref()
            .is_some_and(|l| l.get("mutated").is_some_and(|v| v == "true"))
            .then_some(created)
    })
    .await;
    assert_eq!(
        api.get(created.metadata.name.as_deref().unwrap())
            .await
            .unwrap()
            .metadata
            .labels
            .unwrap()["mutated"],
        "true"
    );

    let review = webhooks
        .reviews("/mutate")
        .pop()
        .expect("the mutating webhook was called");
    assert_eq!(review["apiVersion"], "admission.k8s.io/v1");
    assert_eq!(review["kind"], "AdmissionReview");
    let request = &review["request"];
    assert!(request["uid"].as_str().is_some_and(|uid| !uid.is_empty()));
    assert_eq!(request["operation"], "CREATE");
    assert_eq!(
        request["kind"],
        json!({"group": "", "version": "v1", "kind": "ConfigMap"})
    );
    assert_eq!(
        request["resource"],
        json!({"group": "", "version": "v1", "resource": "configmaps"})
    );
    assert_eq!(request["namespace"], env.namespace());
    // The request's options as the server decoded them, typed as kube-apiserver types them.
    assert_eq!(
        request["options"],
        json!({"kind": "CreateOptions", "apiVersion": "meta.k8s.io/v1"})
    );
    let validated = webhooks
        .reviews("/validate")
        .pop()
        .expect("the validating webhook was called");
    assert_eq!(
        validated["request"]["object"]["metadata"]["labels"]["mutated"], "true",
        "validation sees the mutation"
    );

    let denied = configmap("denied", &[("admission", "conformance"), ("deny", "true")], &[]);
    let params = PostParams {
        field_manager: Some("conformance".into()),
        ..PostParams::default()
    };
    let status = api_error(api.create(&params, &denied).await);
    assert_eq!(status.code, 403);
    assert_eq!(
        status.message,
        format!("admission webhook \"validate.conformance.wheelhouse.rs\" denied the request: {DENIAL}")
    );
    // The webhook's status passes through as it wrote it: it gave no reason.
    assert_eq!(status.reason, "");
    let options = &webhooks.reviews("/validate").pop().expect("called")["request"]["options"];
    assert_eq!(options["fieldManager"], "conformance");
    assert!(api.get_opt("denied").await.unwrap().is_none());

    // Objects the selectors do not match are not sent to the webhooks.
    let calls = webhooks.reviews("/mutate").len();
    let plain = api
        .create(&PostParams::default(), &configmap("plain", &[("deny", "true")], &[]))
        .await
        .unwrap();
    assert!(!plain.metadata.labels.unwrap().contains_key("mutated"));
    assert_eq!(webhooks.reviews("/mutate").len(), calls);
    env.stop().await;
}

/// What a mutating webhook makes is validated as the request's own object is: a
/// patch that breaks the object's rules is the request's 422, nothing is stored, and
/// the validating webhooks never see it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mutation_that_breaks_validation_is_refused() {
    let env = start().await;
    let Some(webhooks) = hooked(&env, "broken", "/break", true).await else {
        env.stop().await;
        return;
    };
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    // Webhook configurations take effect asynchronously on a real server: probe.
    let status = eventually("the mutating webhook to take effect", || async {
        let probe: ConfigMap =
            from_json(json!({"metadata": {"generateName": "probe-", "labels": {"admission": "broken"}}}));
        match api.create(&PostParams::default(), &probe).await {
            Err(kube::Error::Api(status)) => Some(status),
            Ok(_) => None,
            Err(other) => panic!("{other}"),
        }
    })
    .await;
    assert_eq!((status.code, status.reason.as_str()), (422, "Invalid"), "{status:?}");
    assert!(
        status.message.contains(
            "metadata.labels: Invalid value: \"not a label value!\": a valid label must be an empty string or consist of alphanumeric characters"
        ),
        "{}",
        status.message
    );
    assert!(
        webhooks.reviews("/validate").is_empty(),
        "the validating webhook saw an invalid object"
    );
    let listed = api
        .list(&kube::api::ListParams::default().labels("admission=broken"))
        .await
        .unwrap();
    assert!(listed.items.is_empty());
    env.stop().await;
}

/// A write is validated after the mutating webhooks, not before: an object sent with
/// an invalid label that a webhook removes is created (the webhook saw it as sent), and
/// an update adding one is stored without it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mutating_webhook_may_repair_what_was_sent() {
    let env = start().await;
    let Some(webhooks) = hooked(&env, "repaired", "/repair", false).await else {
        env.stop().await;
        return;
    };
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    // Webhook configurations take effect asynchronously on a real server: probe.
    let created = eventually("the mutating webhook to take effect", || async {
        let probe: ConfigMap = from_json(json!({"metadata": {"generateName": "probe-",
            "labels": {"admission": "repaired", "broken": "not a label value!"}}}));
        api.create(&PostParams::default(), &probe).await.ok()
    })
    .await;
    let labels = created.metadata.labels.unwrap_or_default();
    assert_eq!(labels.get("admission").map(String::as_str), Some("repaired"));
    assert!(!labels.contains_key("broken"));
    let review = webhooks.reviews("/repair").pop().expect("the webhook was called");
    assert_eq!(
        review["request"]["object"]["metadata"]["labels"]["broken"],
        "not a label value!"
    );
    // An update likewise: the label a patch adds, the webhook takes away.
    let name = created.metadata.name.clone().unwrap_or_default();
    let patch = json!({"metadata": {"labels": {"broken": "still not a label value!"}}});
    let patched = api
        .patch(
            &name,
            &kube::api::PatchParams::default(),
            &kube::api::Patch::Merge(&patch),
        )
        .await
        .unwrap();
    assert!(!patched.metadata.labels.unwrap_or_default().contains_key("broken"));
    // Without the webhook's repair, the same object is refused.
    let unrepaired: ConfigMap = from_json(json!({"metadata": {"name": "unrepaired",
        "labels": {"broken": "not a label value!"}}}));
    let status = api_error(api.create(&PostParams::default(), &unrepaired).await);
    assert_eq!((status.code, status.reason.as_str()), (422, "Invalid"));
    env.stop().await;
}

/// An unreachable webhook fails the request under `failurePolicy: Fail` and is
/// skipped under `Ignore`; so is one that exceeds its `timeoutSeconds`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failure_policy_and_timeout_are_honoured() {
    let env = start().await;
    if skip_unless_loopback_reachable(&env, "calling a webhook on 127.0.0.1") {
        env.stop().await;
        return;
    }
    let webhooks = WebhookServer::start().await;
    // A port that nothing listens on.
    let unreachable = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("https://{}/validate", listener.local_addr().unwrap())
    };
    let hooks = vec![
        hook_at(
            &unreachable,
            &webhooks.ca_bundle,
            "ignore.conformance.wheelhouse.rs",
            &object_selector("hook", "ignore"),
            "Ignore",
        ),
        hook_at(
            &unreachable,
            &webhooks.ca_bundle,
            "fail.conformance.wheelhouse.rs",
            &object_selector("hook", "fail"),
            "Fail",
        ),
        webhooks.hook(
            "slow-ignore.conformance.wheelhouse.rs",
            "/slow",
            &object_selector("hook", "slow-ignore"),
            "Ignore",
        ),
        webhooks.hook(
            "slow-fail.conformance.wheelhouse.rs",
            "/slow",
            &object_selector("hook", "slow-fail"),
            "Fail",
        ),
    ];
    register_validating(&env, "policies", hooks).await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());

    // Until the configuration takes effect every create succeeds; then "fail" fails.
    let status = eventually("the failing webhook to take effect", || async {
        let probe: ConfigMap = from_json(json!({"metadata": {"generateName": "probe-", "labels": {"hook": "fail"}}}));
        api.create(&PostParams::default(), &probe).await.err()
    })
    .await;
    let kube::Error::Api(status) = status else {
        panic!("expected a Status, got {status:?}")
    };
    assert_eq!(status.code, 500);
    assert_eq!(status.reason, "InternalError");
    assert!(
        status
            .message
            .contains("failed calling webhook \"fail.conformance.wheelhouse.rs\""),
        "message: {}",
        status.message
    );

    api.create(
        &PostParams::default(),
        &configmap("ignored", &[("hook", "ignore")], &[]),
    )
    .await
    .expect("an unreachable webhook with failurePolicy Ignore lets the request through");

    let started = Instant::now();
    api.create(
        &PostParams::default(),
        &configmap("slow-ignored", &[("hook", "slow-ignore")], &[]),
    )
    .await
    .expect("a webhook past its timeout with failurePolicy Ignore lets the request through");
    let status = api_error(
        api.create(
            &PostParams::default(),
            &configmap("slow-failed", &[("hook", "slow-fail")], &[]),
        )
        .await,
    );
    assert_eq!(status.code, 500);
    assert!(
        status
            .message
            .contains("failed calling webhook \"slow-fail.conformance.wheelhouse.rs\""),
        "message: {}",
        status.message
    );
    assert!(
        started.elapsed() < Duration::from_secs(9),
        "timeoutSeconds=2 cut both slow calls short: {:?}",
        started.elapsed()
    );
    env.stop().await;
}

/// `namespaceSelector` limits a webhook to the namespaces whose labels match.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn namespace_selector_limits_webhooks() {
    let env = start().await;
    if skip_unless_loopback_reachable(&env, "calling a webhook on 127.0.0.1") {
        env.stop().await;
        return;
    }
    let webhooks = WebhookServer::start().await;
    let namespaces: Api<Namespace> = Api::all(env.client());
    let closed: Namespace =
        from_json(json!({"metadata": {"generateName": "conformance-closed-", "labels": {"admission": "closed"}}}));
    let closed = namespaces
        .create(&PostParams::default(), &closed)
        .await
        .unwrap()
        .metadata
        .name
        .unwrap();
    let selector = json!({"namespaceSelector": {"matchLabels": {"admission": "closed"}}});
    register_validating(
        &env,
        "closed",
        vec![webhooks.hook("closed.conformance.wheelhouse.rs", "/deny", &selector, "Fail")],
    )
    .await;

    let in_closed: Api<ConfigMap> = Api::namespaced(env.client(), &closed);
    let status = eventually("the namespace webhook to take effect", || async {
        let probe: ConfigMap = from_json(json!({"metadata": {"generateName": "probe-"}}));
        in_closed.create(&PostParams::default(), &probe).await.err()
    })
    .await;
    let kube::Error::Api(status) = status else {
        panic!("expected a Status, got {status:?}")
    };
    assert_eq!(status.code, 403);
    assert!(
        status.message.ends_with("denied the request: this namespace is closed"),
        "message: {}",
        status.message
    );

    let open: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
    open.create(&PostParams::default(), &configmap("allowed", &[], &[]))
        .await
        .expect("the webhook does not apply to other namespaces");
    env.stop().await;
}
