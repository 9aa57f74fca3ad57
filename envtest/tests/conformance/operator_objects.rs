//! The objects operators create besides their own resources, refused as
//! kube-apiserver refuses them: webhook configurations (v1 requires `sideEffects` and
//! `admissionReviewVersions`; a URL must be https), Leases (no negative duration or
//! transitions) and events.k8s.io/v1 Events (the strict rules of the events API).

use k8s_openapi::api::admissionregistration::v1::ValidatingWebhookConfiguration;
use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::events::v1::Event;
use kube::api::{Api, PostParams};
use serde_json::json;

use crate::common::{api_error, from_json, start};

/// A webhook configuration without `sideEffects` or `admissionReviewVersions`, or with
/// an http URL, is 422 with each field's cause.
#[tokio::test]
async fn webhook_configurations_need_side_effects_versions_and_https() {
    let env = start().await;
    let api: Api<ValidatingWebhookConfiguration> = Api::all(env.client());
    let name = format!("checks-{}", env.namespace());
    let configuration: ValidatingWebhookConfiguration = from_json(json!({
        "metadata": {"name": name},
        "webhooks": [{
            "name": "check.conformance.wheelhouse.rs",
            "clientConfig": {"url": "http://127.0.0.1:9443/validate"},
            "rules": [{"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"], "resources": ["configmaps"]}],
        }],
    }));
    let status = api_error(api.create(&PostParams::default(), &configuration).await);
    assert_eq!((status.code, status.reason.as_str()), (422, "Invalid"));
    for cause in [
        // k8s-openapi always sends `sideEffects` (a String), so it is "" rather than absent.
        "webhooks[0].sideEffects: Unsupported value: \"\": supported values: \"None\", \"NoneOnDryRun\"",
        "webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1",
        "webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
    ] {
        assert!(
            status.message.contains(cause),
            "missing {cause:?} in {}",
            status.message
        );
    }
    let mut unknown_side_effects = configuration.clone();
    unknown_side_effects.webhooks.as_mut().unwrap()[0].side_effects = "Some".into();
    unknown_side_effects.webhooks.as_mut().unwrap()[0].admission_review_versions = vec!["v1".into()];
    unknown_side_effects.webhooks.as_mut().unwrap()[0].client_config.url =
        Some("https://127.0.0.1:9443/validate".into());
    let status = api_error(api.create(&PostParams::default(), &unknown_side_effects).await);
    assert_eq!(
        status.message,
        format!(
            "ValidatingWebhookConfiguration.admissionregistration.k8s.io \"{name}\" is invalid: webhooks[0].sideEffects: Unsupported value: \"Some\": supported values: \"None\", \"NoneOnDryRun\""
        )
    );
    env.stop().await;
}

/// A Lease with a negative duration or transition count is 422.
#[tokio::test]
async fn leases_refuse_negative_durations_and_transitions() {
    let env = start().await;
    let api: Api<Lease> = Api::namespaced(env.client(), env.namespace());
    let lease: Lease = from_json(json!({
        "metadata": {"name": "leader"},
        "spec": {"holderIdentity": "a", "leaseDurationSeconds": -1, "leaseTransitions": -1},
    }));
    let status = api_error(api.create(&PostParams::default(), &lease).await);
    // 1.19 words the second rule "must to greater or equal than 0"; 1.32 (and the
    // embedded server) as below. The versions between were not probed.
    let transitions = if crate::schema_common::server_minor(&env).await <= 19 {
        "must to greater or equal than 0"
    } else {
        "must be greater than or equal to 0"
    };
    assert_eq!(
        status.message,
        format!(
            "Lease.coordination.k8s.io \"leader\" is invalid: [spec.leaseDurationSeconds: Invalid value: -1: must be greater than 0, spec.leaseTransitions: Invalid value: -1: {transitions}]"
        )
    );
    env.stop().await;
}

/// An events.k8s.io/v1 Event must leave the deprecated core fields unset and have a
/// type of `Normal` or `Warning`, worded with the core Event's field names.
#[tokio::test]
async fn events_k8s_io_events_keep_the_strict_rules() {
    let env = start().await;
    let api: Api<Event> = Api::namespaced(env.client(), env.namespace());
    let event: Event = from_json(json!({
        "metadata": {"name": "strict"},
        "eventTime": "2026-01-01T00:00:00.000000Z",
        "reportingController": "wheelhouse.rs/conformance",
        "reportingInstance": "conformance-0",
        "action": "Reconcile",
        "reason": "Testing",
        "type": "Bogus",
        "regarding": {"kind": "ConfigMap", "name": "x", "namespace": env.namespace(), "apiVersion": "v1"},
        "deprecatedCount": 3,
    }));
    let status = api_error(api.create(&PostParams::default(), &event).await);
    assert_eq!(status.code, 422);
    for cause in [
        "type: Invalid value: \"\": has invalid value: Bogus",
        "count: Invalid value: \"\": needs to be unset",
    ] {
        assert!(
            status.message.contains(cause),
            "missing {cause:?} in {}",
            status.message
        );
    }
    env.stop().await;
}
