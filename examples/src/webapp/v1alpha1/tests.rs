//! The WebApp's conversions: a round trip through the other version is the identity
//! on generated objects, both ways, typed and through the webhook server's `/convert`.

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
    /// A v1alpha1 WebApp as a client or the conversion would write it: conditions
    /// kept in the annotation only beside a status.
    fn spoke()(
        metadata in metadata(),
        image in ".{0,30}",
        replicas in proptest::option::of(any::<i32>()),
        container_port in proptest::option::of(any::<i32>()),
        status in proptest::option::of((
            proptest::option::of(phase()),
            proptest::option::of(any::<i32>()),
            proptest::option::of(any::<i64>()),
            proptest::option::of(vec(condition(), 0..3)),
        )),
    ) -> WebApp {
        let mut spoke = WebApp::new("", WebAppSpec { image, replicas, container_port });
        spoke.metadata = metadata;
        if let Some((phase, available_replicas, observed_generation, conditions)) = status {
            spoke.status = Some(WebAppStatus { phase, available_replicas, observed_generation });
            if let Some(conditions) = conditions {
                conversion::stash(&mut spoke.metadata, &Lacking { conditions }).unwrap();
            }
        }
        spoke
    }
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
        prop_assert_eq!(json(&WebApp::try_from(hub).unwrap()), json(&spoke));
    }

    #[test]
    fn hub_to_spoke_to_hub_is_the_identity(hub in hub()) {
        let spoke = WebApp::try_from(hub.clone()).unwrap();
        prop_assert_eq!(json(&webapp::WebApp::from(spoke)), json(&hub));
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
        prop_assert_eq!(&back[0], &sent);
    }
}

#[test]
fn the_port_is_renamed_and_the_conditions_ride_in_the_annotation() {
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
        phase: Some(Phase::Ready),
        conditions: Some(Vec::new()),
        ..webapp::WebAppStatus::default()
    });
    let spoke = WebApp::try_from(hub.clone()).unwrap();
    assert_eq!(spoke.spec.container_port, Some(8080));
    let annotations = spoke.metadata.annotations.clone().unwrap();
    assert_eq!(
        annotations[conversion::CONVERSION_DATA_ANNOTATION],
        r#"{"conditions":[]}"#
    );
    assert_eq!(json(&webapp::WebApp::from(spoke)), json(&hub));
}
