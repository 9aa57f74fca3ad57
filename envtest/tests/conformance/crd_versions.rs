//! A CRD's versions as kube-apiserver keeps them: `status.storedVersions`, deprecation
//! warnings, the update rules for versions and conversion, and the unique webhook names
//! of an admission configuration. Every test runs on both servers.

use k8s_openapi::api::admissionregistration::v1::{MutatingWebhookConfiguration, ValidatingWebhookConfiguration};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, Patch, PatchParams, PostParams};
use serde_json::{Value, json};

use crate::common::{api_error, eventually, from_json, start};
use crate::conversion_common::{Webhooks, Widgets};

/// Switching the storage version appends it to `status.storedVersions`, after the
/// versions objects may still be stored in; such a version cannot leave
/// `spec.versions` (a 422 naming it) until a migration removes it from the status.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stored_versions_are_kept_and_appended() {
    let env = start().await;
    let widgets = Widgets::new(&env);
    let alpha = |storage: bool| Widgets::version("v1alpha1", storage, "size");
    let v1 = |storage: bool| Widgets::version("v1", storage, "size");
    env.install_crd(&widgets.crd(&[alpha(true), v1(false)], &Value::Null))
        .await
        .unwrap();
    let crds: Api<CustomResourceDefinition> = Api::all(env.client());
    let stored = |crd: CustomResourceDefinition| crd.status.and_then(|s| s.stored_versions).unwrap_or_default();
    assert_eq!(stored(crds.get(&widgets.name()).await.unwrap()), ["v1alpha1"]);

    let objects = widgets.api(&env, "v1");
    let old = objects
        .create(
            &PostParams::default(),
            &widgets.object("v1", "old", &json!({"size": 1})),
        )
        .await
        .unwrap();
    env.install_crd(&widgets.crd(&[alpha(false), v1(true)], &Value::Null))
        .await
        .unwrap();
    assert_eq!(stored(crds.get(&widgets.name()).await.unwrap()), ["v1alpha1", "v1"]);

    // An unchanged update rewrites an object stored in the old version (a new
    // resourceVersion); once it is in the storage version, the same update is a no-op.
    // (A real server's handler moves to the new storage version a moment after the CRD.)
    let rewritten = eventually("an unchanged update to rewrite the object", || async {
        let current = objects.get("old").await.unwrap();
        let rewritten = objects.replace("old", &PostParams::default(), &current).await.unwrap();
        (rewritten.metadata.resource_version != old.metadata.resource_version).then_some(rewritten)
    })
    .await;
    let again = objects
        .replace("old", &PostParams::default(), &rewritten)
        .await
        .unwrap();
    assert_eq!(again.metadata.resource_version, rewritten.metadata.resource_version);

    let result = env.install_crd(&widgets.crd(&[v1(true)], &Value::Null)).await;
    let status = match result {
        Err(wheelhouse_envtest::Error::Kube(error)) => api_error::<()>(Err(error)),
        other => panic!("removing a stored version must be refused, got {other:?}"),
    };
    assert_eq!(status.code, 422);
    assert!(
        status.message.starts_with(&format!(
            "CustomResourceDefinition.apiextensions.k8s.io \"{}\" is invalid: status.storedVersions[0]: Invalid value: \"v1alpha1\": ",
            widgets.name()
        )),
        "{}",
        status.message
    );
    // 1.19 says "must appear in spec.versions"; newer servers explain the migration.
    assert!(
        status.message.ends_with("must appear in spec.versions")
            || status
                .message
                .contains("missing from spec.versions; v1alpha1 was previously a storage version"),
        "{}",
        status.message
    );

    // What a storage migration does once no object is stored in v1alpha1: it trims the
    // status, and then the version may go.
    let migrated = json!({"status": {"storedVersions": ["v1"]}});
    crds.patch_status(&widgets.name(), &PatchParams::default(), &Patch::Merge(&migrated))
        .await
        .unwrap();
    assert_eq!(stored(crds.get(&widgets.name()).await.unwrap()), ["v1"]);
    env.install_crd(&widgets.crd(&[v1(true)], &Value::Null)).await.unwrap();
    assert_eq!(stored(crds.get(&widgets.name()).await.unwrap()), ["v1"]);
    widgets.remove(&env).await;
    env.stop().await;
}

/// A request of a deprecated version carries a `Warning: 299` header: the CRD's
/// `deprecationWarning`, else kube-apiserver's default naming the version to use.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deprecated_versions_warn() {
    let env = start().await;
    let widgets = Widgets::new(&env);
    let mut alpha = Widgets::version("v1alpha1", false, "size");
    alpha["deprecated"] = json!(true);
    let mut beta = Widgets::version("v1beta1", false, "size");
    beta["deprecated"] = json!(true);
    beta["deprecationWarning"] = json!("widgets/v1beta1 goes away in March");
    let versions = [alpha, beta, Widgets::version("v1", true, "size")];
    env.install_crd(&widgets.crd(&versions, &Value::Null)).await.unwrap();

    let warnings = |version: &'static str| {
        let path = format!(
            "/apis/{}/{version}/namespaces/{}/widgets",
            widgets.group,
            env.namespace()
        );
        let client = env.client();
        async move {
            let request = http::Request::get(path).body(kube::client::Body::empty()).unwrap();
            let response = client.send(request).await.unwrap();
            assert_eq!(response.status(), 200);
            response
                .headers()
                .get_all(http::header::WARNING)
                .iter()
                .map(|v| v.to_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(
        warnings("v1alpha1").await,
        [format!(
            "299 - \"{}/v1alpha1 Widget is deprecated; use {}/v1 Widget\"",
            widgets.group, widgets.group
        )]
    );
    assert_eq!(
        warnings("v1beta1").await,
        ["299 - \"widgets/v1beta1 goes away in March\""]
    );
    assert!(warnings("v1").await.is_empty());
    widgets.remove(&env).await;
    env.stop().await;
}

/// What kube-apiserver refuses of a CRD's versions and conversion, with its 422; and a
/// CRD that had a conversion webhook re-installed without `spec.conversion`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crd_version_and_conversion_rules() {
    let env = start().await;
    let webhooks = Webhooks::start().await;
    let widgets = Widgets::new(&env);
    let crds: Api<CustomResourceDefinition> = Api::all(env.client());
    let refused = |crd: CustomResourceDefinition| {
        let crds = crds.clone();
        async move { api_error(crds.create(&PostParams::default(), &crd).await) }
    };
    let prefix = format!(
        "CustomResourceDefinition.apiextensions.k8s.io \"{}\" is invalid: ",
        widgets.name()
    );
    let two = [
        Widgets::version("v1", true, "size"),
        Widgets::version("v2", false, "replicas"),
    ];

    let both_stored = [
        Widgets::version("v1", true, "size"),
        Widgets::version("v2", true, "replicas"),
    ];
    let status = refused(widgets.crd(&both_stored, &Value::Null)).await;
    assert_eq!(status.code, 422);
    assert!(
        status.message.contains("spec.versions: Invalid value: "),
        "{}",
        status.message
    );
    assert!(
        status
            .message
            .contains("must have exactly one version marked as storage version")
    );

    let none_stored = [
        Widgets::version("v1", false, "size"),
        Widgets::version("v2", false, "replicas"),
    ];
    let status = refused(widgets.crd(&none_stored, &Value::Null)).await;
    assert!(
        status
            .message
            .contains("must have exactly one version marked as storage version")
    );

    let no_client = json!({"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1"]}});
    let status = refused(widgets.crd(&two, &no_client)).await;
    assert_eq!(
        status.message,
        format!(
            "{prefix}spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook"
        )
    );

    let unknown_review = json!({"strategy": "Webhook", "webhook": {
        "clientConfig": webhooks.client_config("/convert"), "conversionReviewVersions": ["v3"]}});
    let status = refused(widgets.crd(&two, &unknown_review)).await;
    // Go prints the list as `[]string{"v3"}` (1.19) or as JSON (newer servers).
    let field = format!("{prefix}spec.conversion.conversionReviewVersions: Invalid value: ");
    assert!(status.message.starts_with(&field), "{}", status.message);
    assert!(
        status.message.ends_with(": must include at least one of v1, v1beta1"),
        "{}",
        status.message
    );

    // Installed with a webhook, then patched to strategy None: the webhook stays, and
    // kube-apiserver refuses it where the strategy is not Webhook.
    env.install_crd(&widgets.with_webhook(&webhooks, "/convert"))
        .await
        .unwrap();
    let none = json!({"spec": {"conversion": {"strategy": "None"}}});
    let status = api_error(
        crds.patch(&widgets.name(), &PatchParams::default(), &Patch::Merge(&none))
            .await,
    );
    assert_eq!(status.code, 422);
    assert_eq!(
        status.message,
        format!(
            "{prefix}[spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook, spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook]"
        )
    );

    // Re-installed (server-side apply, same field manager) without spec.conversion: on
    // 1.32 (and here) the webhook fields the manager owned go and defaulting makes the
    // strategy None; 1.19 removes the strategy the manager owned too and refuses the
    // result (422, strategy required). The versions between were not probed; they are
    // taken to answer as 1.32.
    let reinstalled = env.install_crd(&widgets.crd(&two, &Value::Null)).await;
    if crate::schema_common::server_minor(&env).await <= 19 {
        let Err(wheelhouse_envtest::Error::Kube(kube::Error::Api(status))) = reinstalled else {
            panic!("1.19 refuses a CRD whose conversion lost its strategy: {reinstalled:?}");
        };
        assert_eq!(status.code, 422);
        assert!(
            status.message.ends_with("spec.conversion.strategy: Required value"),
            "{}",
            status.message
        );
    } else {
        reinstalled.unwrap();
        let conversion = crds.get(&widgets.name()).await.unwrap().spec.conversion.unwrap();
        assert_eq!(conversion.strategy, "None");
        assert!(conversion.webhook.is_none());
    }
    widgets.remove(&env).await;
    env.stop().await;
}

/// Webhooks named per resource rather than per version (one name for the v1 and the v2
/// webhook) make a configuration kube-apiserver refuses: names are unique within one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhook_names_are_unique_within_a_configuration() {
    let env = start().await;
    let webhooks = Webhooks::start().await;
    let widgets = Widgets::new(&env);
    let name = format!("vwidget.{}", widgets.group);
    let hook = |version: &str| {
        json!({"name": name, "clientConfig": webhooks.client_config(&format!("/validate-{version}")),
            "rules": [{"operations": ["CREATE", "UPDATE"], "apiGroups": [widgets.group], "apiVersions": [version], "resources": ["widgets"]}],
            "sideEffects": "None", "admissionReviewVersions": ["v1"]})
    };
    let configuration = format!("{}-per-resource", env.namespace());
    let validating: Api<ValidatingWebhookConfiguration> = Api::all(env.client());
    let body = from_json(json!({"metadata": {"name": configuration}, "webhooks": [hook("v1"), hook("v2")]}));
    let status = api_error(validating.create(&PostParams::default(), &body).await);
    assert_eq!(status.code, 422);
    assert_eq!(
        status.message,
        format!(
            "ValidatingWebhookConfiguration.admissionregistration.k8s.io \"{configuration}\" is invalid: webhooks[1].name: Duplicate value: \"{name}\""
        )
    );
    let mutating: Api<MutatingWebhookConfiguration> = Api::all(env.client());
    let body = from_json(json!({"metadata": {"name": configuration}, "webhooks": [hook("v1"), hook("v2")]}));
    let status = api_error(mutating.create(&PostParams::default(), &body).await);
    assert_eq!(status.code, 422);
    assert!(
        status
            .message
            .ends_with(&format!("webhooks[1].name: Duplicate value: \"{name}\"")),
        "{}",
        status.message
    );
    env.stop().await;
}
