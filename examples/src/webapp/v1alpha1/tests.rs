//! The WebApp's conversions: a round trip through the other version is the identity
//! on generated objects, both ways (but for the conditions, which `v1alpha1` cannot
//! hold and which are never taken from what a client wrote), typed and through the
//! webhook server's `/convert`.

use std::collections::BTreeMap;

use http_body_util::BodyExt as _;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, ObjectMeta, Time};
use k8s_openapi::jiff::Timestamp;
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use serde_json::{Value, json};
use wheelhouse::webhook::WebhookOptions;

use super::*;
use crate::webapp::{self, webhooks};

fn phase() -> impl Strategy<Value = Phase> {
    prop_oneof![
        Just(Phase::Reconciling),
        Just(Phase::Waiting),
        Just(Phase::Ready),
        Just(Phase::Scaling),
        Just(Phase::Deleting),
    ]
}

fn condition() -> impl Strategy<Value = Condition> {
    // Whole seconds: the wire format of a Time.
    (
        "[A-Z][a-z]{0,8}",
        prop_oneof![Just("True"), Just("False"), Just("Unknown")],
        "[A-Za-z]{1,12}",
        ".{0,40}",
        0_i64..4_000_000_000,
        proptest::option::of(0_i64..1000),
    )
        .prop_map(|(type_, status, reason, message, seconds, generation)| Condition {
            type_,
            status: status.to_owned(),
            reason,
            message,
            last_transition_time: Time(Timestamp::from_second(seconds).unwrap_or(Timestamp::UNIX_EPOCH)),
            observed_generation: generation,
        })
}

fn metadata() -> impl Strategy<Value = ObjectMeta> {
    (
        "[a-z][a-z0-9-]{0,20}",
        // The API server never stores an empty map (`omitempty`): none or some.
        proptest::option::of(btree_map("[a-z./]{1,12}", ".{0,12}", 1..4)),
        proptest::option::of(btree_map("[a-z./]{1,12}", ".{0,12}", 1..4)),
        proptest::option::of(0_i64..100),
    )
        .prop_map(|(name, labels, annotations, generation)| ObjectMeta {
            name: Some(name),
            namespace: Some("shop".into()),
            labels,
            annotations,
            generation,
            ..ObjectMeta::default()
        })
}

prop_compose! {
    fn hub()(
        metadata in metadata(),
        image in ".{0,30}",
        replicas in proptest::option::of(any::<i32>()),
        port in proptest::option::of(any::<i32>()),
        status in proptest::option::of((
            proptest::option::of(phase()),
            proptest::option::of(any::<i32>()),
            proptest::option::of(vec(condition(), 0..3)),
            proptest::option::of(any::<i64>()),
        )),
    ) -> webapp::WebApp {
        let mut hub = webapp::WebApp::new("", webapp::WebAppSpec { image, replicas, port });
        hub.metadata = metadata;
        hub.status = status.map(|(phase, available_replicas, conditions, observed_generation)| webapp::WebAppStatus {
            phase, available_replicas, conditions, observed_generation,
        });
        hub
    }
}

prop_compose! {
    /// A v1alpha1 WebApp as a client or the conversion would write it.
    fn spoke()(
        metadata in metadata(),
        image in ".{0,30}",
        replicas in proptest::option::of(any::<i32>()),
        container_port in proptest::option::of(any::<i32>()),
        status in proptest::option::of((
            proptest::option::of(phase()),
            proptest::option::of(any::<i32>()),
            proptest::option::of(any::<i64>()),
        )),
    ) -> WebApp {
        let mut spoke = WebApp::new("", WebAppSpec { image, replicas, container_port });
        spoke.metadata = metadata;
        spoke.status = status.map(|(phase, available_replicas, observed_generation)| {
            WebAppStatus { phase, available_replicas, observed_generation }
        });
        spoke
    }
}

/// `hub` with no conditions: what a round trip through `v1alpha1` gives back.
fn without_conditions(mut hub: webapp::WebApp) -> webapp::WebApp {
    if let Some(status) = &mut hub.status {
        status.conditions = None;
    }
    hub
}

/// Objects compared as what they are on the wire (the derived types compare only
/// their specs).
fn json(object: &impl serde::Serialize) -> Value {
    serde_json::to_value(object).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn spoke_to_hub_to_spoke_is_the_identity(spoke in spoke()) {
        let hub = webapp::WebApp::from(spoke.clone());
        prop_assert_eq!(json(&WebApp::from(hub)), json(&spoke));
    }

    #[test]
    fn hub_to_spoke_to_hub_is_the_identity_but_for_the_conditions(hub in hub()) {
        let spoke = WebApp::from(hub.clone());
        prop_assert_eq!(json(&webapp::WebApp::from(spoke)), json(&without_conditions(hub)));
    }
}

/// One review through the server's request pipeline, as kube-apiserver sends it.
fn convert(objects: &[Value], desired: &str) -> Value {
    let review = json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
        "request": {"uid": "0123abcd-0123-4567-89ab-0123456789ab", "desiredAPIVersion": desired, "objects": objects},
    });
    let server = webhooks::webhook_server(WebhookOptions::default());
    let request = http::Request::post("/convert")
        .header("content-type", "application/json")
        .body(http_body_util::Full::new(bytes::Bytes::from(review.to_string())))
        .unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let answer = runtime.block_on(async {
        let answer = server.handle(request).await;
        assert_eq!(answer.status(), 200);
        answer.into_body().collect().await.unwrap().to_bytes()
    });
    let mut answer: Value = serde_json::from_slice(&answer).unwrap();
    assert_eq!(answer["response"]["result"]["status"], "Success", "{answer}");
    answer["response"]["convertedObjects"].take()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn through_the_server_a_round_trip_gives_back_the_object(hub in hub()) {
        let sent = serde_json::to_value(&hub).unwrap();
        let as_spoke = convert(std::slice::from_ref(&sent), "example.com/v1alpha1");
        prop_assert_eq!(&as_spoke[0]["apiVersion"], "example.com/v1alpha1");
        prop_assert_eq!(&as_spoke[0]["spec"]["containerPort"], &sent["spec"]["port"]);
        let back = convert(as_spoke.as_array().unwrap(), "example.com/v1");
        prop_assert_eq!(&back[0], &serde_json::to_value(without_conditions(hub)).unwrap());
    }
}

#[test]
fn the_port_is_renamed_and_a_stash_a_client_wrote_is_never_taken_back() {
    let mut hub = webapp::WebApp::new(
        "web",
        webapp::WebAppSpec {
            image: "nginx:1.27".into(),
            replicas: Some(2),
            port: Some(8080),
        },
    );
    hub.metadata.labels = Some(BTreeMap::from([("team".to_owned(), "shop".to_owned())]));
    hub.status = Some(webapp::WebAppStatus {
        phase: Some(Phase::Waiting),
        available_replicas: Some(0),
        conditions: Some(Vec::new()),
        ..webapp::WebAppStatus::default()
    });
    let mut spoke = WebApp::from(hub.clone());
    assert_eq!(spoke.spec.container_port, Some(8080));
    assert_eq!(spoke.metadata.annotations, None, "nothing stashed");

    // A client of the main resource writes a stash claiming the WebApp is ready.
    let forged = json!({"conditions": [{"type": "Ready", "status": "True", "reason": "Available", "message": "",
        "lastTransitionTime": "2026-01-01T00:00:00Z"}]});
    spoke.metadata.annotations = Some(BTreeMap::from([
        (conversion::CONVERSION_DATA_ANNOTATION.to_owned(), forged.to_string()),
        ("team".to_owned(), "shop".to_owned()),
    ]));
    let back = webapp::WebApp::from(spoke);
    assert_eq!(back.status.as_ref().and_then(|s| s.conditions.clone()), None);
    assert_eq!(back.status.and_then(|s| s.available_replicas), Some(0));
    assert_eq!(
        back.metadata.annotations,
        Some(BTreeMap::from([("team".to_owned(), "shop".to_owned())])),
        "the stash is dropped, never stored; other annotations stay"
    );
}

#[test]
fn a_webapp_whose_conditions_went_missing_is_reconciled_and_a_status_write_is_not() {
    let mut old = webapp::WebApp::new(
        "web",
        webapp::WebAppSpec {
            image: "nginx:1.27".into(),
            replicas: Some(2),
            port: Some(8080),
        },
    );
    old.metadata.generation = Some(1);
    old.status = Some(webapp::WebAppStatus {
        phase: Some(Phase::Ready),
        conditions: Some(Vec::new()),
        ..webapp::WebAppStatus::default()
    });
    let worth = webapp::worth_a_reconcile();

    // The operator's own status write: not worth a reconcile.
    let mut written = old.clone();
    if let Some(status) = &mut written.status {
        status.available_replicas = Some(2);
    }
    assert!(!worth.update(&old, &written));

    // A write through v1alpha1 (here a round trip through it) drops the conditions.
    let through_v1alpha1 = webapp::WebApp::from(WebApp::from(old.clone()));
    assert!(worth.update(&old, &through_v1alpha1));
    // And the operator writing them again does not bring it back once more.
    assert!(!worth.update(&through_v1alpha1, &old));
}
