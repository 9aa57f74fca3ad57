//! Conversion reviews through the server's whole request pipeline (an integration test:
//! the server's module imports the conversions', so their tests live out here): hub and spokes,
//! metadata kept, the uid echoed, and every kind of bad review answered.

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use kube::CustomResource;
use prometheus::Registry;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use wheelhouse_webhook::conversion::*;
use wheelhouse_webhook::{ClientConfig, ConfigurationOptions, Error, WebhookMetrics, WebhookOptions, WebhookServer};

mod v1 {
    use super::*;

    /// The hub.
    #[derive(CustomResource, Deserialize, Serialize, Clone, Debug, PartialEq, JsonSchema)]
    #[kube(group = "test.wheelhouse.rs", version = "v1", kind = "Gadget", namespaced)]
    pub struct GadgetSpec {
        pub size: i64,
        pub colour: String,
    }
}

mod v1alpha1 {
    use super::*;

    /// `colour` was `color`.
    #[derive(CustomResource, Deserialize, Serialize, Clone, Debug, PartialEq, JsonSchema)]
    #[kube(group = "test.wheelhouse.rs", version = "v1alpha1", kind = "Gadget", namespaced)]
    pub struct GadgetSpec {
        pub size: i64,
        pub color: String,
    }
}

mod v2 {
    use super::*;

    /// `colour` moved into `paint`; sizes are unsigned.
    #[derive(CustomResource, Deserialize, Serialize, Clone, Debug, PartialEq, JsonSchema)]
    #[kube(group = "test.wheelhouse.rs", version = "v2", kind = "Gadget", namespaced)]
    pub struct GadgetSpec {
        pub size: u32,
        pub paint: Paint,
    }

    #[derive(Deserialize, Serialize, Clone, Debug, PartialEq, JsonSchema)]
    pub struct Paint {
        pub colour: String,
    }
}

impl From<v1alpha1::Gadget> for v1::Gadget {
    fn from(old: v1alpha1::Gadget) -> Self {
        assert!(old.spec.color != "panic", "the conversion fell over");
        let mut metadata = old.metadata;
        // A conversion that meddles with metadata: only its label survives.
        metadata.name = Some("renamed".into());
        metadata.resource_version = None;
        metadata
            .labels
            .get_or_insert_with(Default::default)
            .insert("converted".into(), "yes".into());
        let spec = v1::GadgetSpec {
            size: old.spec.size,
            colour: old.spec.color,
        };
        v1::Gadget { metadata, spec }
    }
}

impl From<v1::Gadget> for v1alpha1::Gadget {
    fn from(hub: v1::Gadget) -> Self {
        let spec = v1alpha1::GadgetSpec {
            size: hub.spec.size,
            color: hub.spec.colour,
        };
        v1alpha1::Gadget {
            metadata: hub.metadata,
            spec,
        }
    }
}

impl From<v2::Gadget> for v1::Gadget {
    fn from(new: v2::Gadget) -> Self {
        let spec = v1::GadgetSpec {
            size: i64::from(new.spec.size),
            colour: new.spec.paint.colour,
        };
        v1::Gadget {
            metadata: new.metadata,
            spec,
        }
    }
}

impl TryFrom<v1::Gadget> for v2::Gadget {
    type Error = String;

    fn try_from(hub: v1::Gadget) -> Result<Self, String> {
        let size = u32::try_from(hub.spec.size).map_err(|_| format!("size {} does not fit v2", hub.spec.size))?;
        let spec = v2::GadgetSpec {
            size,
            paint: v2::Paint {
                colour: hub.spec.colour,
            },
        };
        Ok(v2::Gadget {
            metadata: hub.metadata,
            spec,
        })
    }
}

fn gadgets() -> Conversion<v1::Gadget> {
    Conversion::hub::<v1::Gadget>()
        .spoke::<v1alpha1::Gadget>()
        .spoke::<v2::Gadget>()
}

const UID: &str = "0123abcd-0123-4567-89ab-0123456789ab";

fn gadget(version: &str, spec: &Value) -> Value {
    json!({
        "apiVersion": format!("test.wheelhouse.rs/{version}"), "kind": "Gadget",
        "metadata": {
            "name": "g", "namespace": "shop", "uid": "u-g", "resourceVersion": "7", "generation": 2,
            "creationTimestamp": "2026-01-01T00:00:00Z", "labels": {"team": "a"},
            "managedFields": [{"manager": "kubectl", "operation": "Apply", "apiVersion": format!("test.wheelhouse.rs/{version}")}],
        },
        "spec": spec,
    })
}

fn review(desired: &str, objects: &[Value]) -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
        "request": {"uid": UID, "desiredAPIVersion": desired, "objects": objects},
    })
}

struct Served {
    server: WebhookServer,
    registry: Registry,
}

fn served() -> Served {
    let registry = Registry::new();
    let server = WebhookServer::new(WebhookOptions::default())
        .conversion(gadgets())
        .metrics(WebhookMetrics::register(&registry).unwrap());
    Served { server, registry }
}

impl Served {
    async fn post(&self, body: impl Into<Bytes>) -> (u16, Bytes) {
        let request = http::Request::post(CONVERT_PATH)
            .header("content-type", "application/json")
            .body(Full::new(body.into()))
            .unwrap();
        let answer = self.server.handle(request).await;
        let status = answer.status().as_u16();
        (status, answer.into_body().collect().await.unwrap().to_bytes())
    }

    /// The review's `response`, which must come with a 200.
    async fn convert(&self, review: &Value) -> Value {
        let (status, body) = self.post(review.to_string()).await;
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
        let mut answer: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(answer["kind"], "ConversionReview");
        assert_eq!(answer["apiVersion"], "apiextensions.k8s.io/v1");
        assert_eq!(answer["response"]["uid"], UID, "the uid is echoed");
        answer["response"].take()
    }

    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "the series are counts, small whole numbers"
    )]
    fn metric(&self, name: &str, labels: &[(&str, &str)]) -> u64 {
        self.registry
            .gather()
            .iter()
            .filter(|family| family.name() == name)
            .flat_map(|family| family.get_metric().to_vec())
            .filter(|metric| {
                labels
                    .iter()
                    .all(|(k, v)| metric.get_label().iter().any(|l| l.name() == *k && l.value() == *v))
            })
            // A counter's value, or a histogram's count of observations.
            .map(|metric| metric.get_counter().get_value().round() as u64 + metric.get_histogram().get_sample_count())
            .sum()
    }
}

fn failure(response: &Value) -> String {
    assert_eq!(response["result"]["status"], "Failure", "{response}");
    assert_eq!(response["convertedObjects"], json!([]), "a failure converts nothing");
    response["result"]["message"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_spoke_converts_to_the_hub_keeping_metadata_but_labels() {
    let served = served();
    let old = gadget("v1alpha1", &json!({"size": 3, "color": "red"}));
    let response = served
        .convert(&review("test.wheelhouse.rs/v1", std::slice::from_ref(&old)))
        .await;
    assert_eq!(response["result"]["status"], "Success");
    let converted = &response["convertedObjects"][0];
    assert_eq!(converted["apiVersion"], "test.wheelhouse.rs/v1");
    assert_eq!(converted["spec"], json!({"size": 3, "colour": "red"}));
    let mut expected_metadata = old["metadata"].clone();
    expected_metadata["labels"]["converted"] = json!("yes");
    assert_eq!(
        converted["metadata"], expected_metadata,
        "name and resourceVersion restored, the label kept, managedFields untouched"
    );
    assert_eq!(
        served.metric(
            "controller_runtime_webhook_requests_total",
            &[("webhook", "/convert"), ("code", "200")]
        ),
        1
    );
    assert_eq!(
        served.metric("controller_runtime_webhook_latency_seconds", &[("webhook", "/convert")]),
        1
    );
}

#[tokio::test]
async fn the_hub_converts_to_a_spoke_and_a_spoke_to_another_through_the_hub() {
    let served = served();
    let hub = gadget("v1", &json!({"size": 4, "colour": "blue"}));
    let response = served
        .convert(&review("test.wheelhouse.rs/v2", std::slice::from_ref(&hub)))
        .await;
    let converted = &response["convertedObjects"][0];
    assert_eq!(converted["apiVersion"], "test.wheelhouse.rs/v2");
    assert_eq!(converted["spec"], json!({"size": 4, "paint": {"colour": "blue"}}));
    assert_eq!(converted["metadata"], hub["metadata"]);

    let old = gadget("v1alpha1", &json!({"size": 5, "color": "green"}));
    let response = served
        .convert(&review("test.wheelhouse.rs/v2", &[old, hub.clone()]))
        .await;
    let objects = response["convertedObjects"].as_array().unwrap();
    assert_eq!(objects.len(), 2);
    assert_eq!(objects[0]["spec"], json!({"size": 5, "paint": {"colour": "green"}}));
    assert_eq!(
        objects[0]["metadata"]["labels"]["converted"], "yes",
        "the hub's label rides along"
    );
    assert_eq!(objects[1]["spec"]["size"], 4, "in the order sent");

    let response = served
        .convert(&review("test.wheelhouse.rs/v1", std::slice::from_ref(&hub)))
        .await;
    assert_eq!(
        response["convertedObjects"][0], hub,
        "already in the desired version: as sent"
    );
}

#[tokio::test]
async fn a_thousand_objects_are_converted_in_order() {
    let served = served();
    let objects: Vec<Value> = (0..1000)
        .map(|i| gadget("v1alpha1", &json!({"size": i, "color": "red"})))
        .collect();
    let response = served.convert(&review("test.wheelhouse.rs/v1", &objects)).await;
    let converted = response["convertedObjects"].as_array().unwrap();
    assert_eq!(converted.len(), 1000);
    assert!(converted.iter().enumerate().all(|(i, o)| o["spec"]["size"] == i));
}

#[tokio::test]
async fn what_cannot_be_converted_fails_the_review_with_a_message() {
    let served = served();
    let red = gadget("v1alpha1", &json!({"size": 1, "color": "red"}));
    let cases = [
        (
            review("test.wheelhouse.rs/v9", std::slice::from_ref(&red)),
            "version v9 of Gadget.test.wheelhouse.rs is not registered (registered: v1, v1alpha1, v2)",
        ),
        (
            review(
                "test.wheelhouse.rs/v1",
                &[
                    red.clone(),
                    json!({"apiVersion": "example.com/v1", "kind": "WebApp", "metadata": {"name": "w"}}),
                ],
            ),
            r#"converting object 1 ("w") to test.wheelhouse.rs/v1: its kind "WebApp" of apiVersion "example.com/v1" has no conversion registered"#,
        ),
        (
            review("test.wheelhouse.rs/v1", &[gadget("v0", &json!({}))]),
            "its version v0 of Gadget.test.wheelhouse.rs is not registered",
        ),
        (
            review(
                "test.wheelhouse.rs/v2",
                &[gadget("v1", &json!({"size": -1, "colour": "red"}))],
            ),
            r#"converting object 0 ("shop/g") to test.wheelhouse.rs/v2: does not convert to test.wheelhouse.rs/v2: size -1 does not fit v2"#,
        ),
        (
            review("test.wheelhouse.rs/v1", &[gadget("v1alpha1", &json!({"size": "big"}))]),
            "does not decode as test.wheelhouse.rs/v1alpha1",
        ),
        (
            review("test.wheelhouse.rs/v1", &[json!([1, 2])]),
            "not a Kubernetes object",
        ),
        (
            review("other.group/v1", std::slice::from_ref(&red)),
            "conversion never changes the group",
        ),
        (review("", std::slice::from_ref(&red)), "is not a group/version"),
    ];
    for (review, expected) in cases {
        let message = failure(&served.convert(&review).await);
        assert!(message.contains(expected), "{message:?} should say {expected:?}");
    }
    let empty = served.convert(&review("test.wheelhouse.rs/v1", &[])).await;
    assert_eq!(empty["result"]["status"], "Success");
}

#[tokio::test]
async fn a_panicking_conversion_fails_the_review_and_is_counted() {
    let served = served();
    let panics = gadget("v1alpha1", &json!({"size": 1, "color": "panic"}));
    let message = failure(&served.convert(&review("test.wheelhouse.rs/v1", &[panics])).await);
    assert!(message.contains("a conversion panicked"), "{message}");
    assert_eq!(served.metric("controller_runtime_webhook_panics_total", &[]), 1);
    let fine = gadget("v1alpha1", &json!({"size": 1, "color": "red"}));
    let after = served.convert(&review("test.wheelhouse.rs/v1", &[fine])).await;
    assert_eq!(after["result"]["status"], "Success", "the server carries on");
}

#[tokio::test]
async fn what_is_not_a_conversion_review_is_a_400() {
    let served = served();
    let mut long_uid = review("test.wheelhouse.rs/v1", &[]);
    long_uid["request"]["uid"] = json!("u".repeat(37));
    let mut empty_uid = review("test.wheelhouse.rs/v1", &[]);
    empty_uid["request"]["uid"] = json!("");
    let mut wrong_version = review("test.wheelhouse.rs/v1", &[]);
    wrong_version["apiVersion"] = json!("apiextensions.k8s.io/v2");
    let mut admission = review("test.wheelhouse.rs/v1", &[]);
    admission["kind"] = json!("AdmissionReview");
    let mut no_objects_list = review("test.wheelhouse.rs/v1", &[]);
    no_objects_list["request"]["objects"] = json!({"a": 1});
    let cases: Vec<(Bytes, &str)> = vec![
        (Bytes::from_static(b"{"), "not a ConversionReview"),
        (Bytes::from_static(b"\xff"), "not UTF-8"),
        (
            Bytes::from_static(br#"{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview"}"#),
            "has no request",
        ),
        (long_uid.to_string().into(), "37 bytes long"),
        (empty_uid.to_string().into(), "empty uid"),
        (
            wrong_version.to_string().into(),
            r#"got kind "ConversionReview" of apiVersion "apiextensions.k8s.io/v2""#,
        ),
        (admission.to_string().into(), r#"got kind "AdmissionReview""#),
        (no_objects_list.to_string().into(), "not a ConversionReview"),
        (
            Bytes::from(format!("{}{}", "[".repeat(200), "]".repeat(200))),
            "more than 100 deep",
        ),
    ];
    for (body, expected) in cases {
        let (status, answer) = served.post(body).await;
        let answer = String::from_utf8_lossy(&answer);
        assert_eq!(status, 400, "{answer}");
        assert!(answer.contains(expected), "{answer:?} should say {expected:?}");
    }
    let mut v1beta1 = review("test.wheelhouse.rs/v1", &[]);
    v1beta1["apiVersion"] = json!("apiextensions.k8s.io/v1beta1");
    let (status, answer) = served.post(v1beta1.to_string()).await;
    assert_eq!(status, 200);
    let answer: Value = serde_json::from_slice(&answer).unwrap();
    assert_eq!(
        answer["apiVersion"], "apiextensions.k8s.io/v1beta1",
        "answered in the review's version"
    );
}

#[test]
fn registering_twice_is_an_error_at_bind() {
    let mut twice = WebhookServer::new(WebhookOptions::default())
        .conversion(gadgets())
        .conversion(Conversion::hub::<v1alpha1::Gadget>());
    assert!(matches!(twice.bind(), Err(Error::DuplicateConversion { .. })));
    let raw = |request: wheelhouse_webhook::AdmissionRequest<kube::core::DynamicObject>| async move {
        wheelhouse_webhook::AdmissionResponse::from(&request)
    };
    let mut clash = WebhookServer::new(WebhookOptions::default())
        .conversion(gadgets())
        .handler(CONVERT_PATH, raw);
    assert!(matches!(clash.bind(), Err(Error::DuplicatePath { .. })));
}

#[test]
#[should_panic(expected = "registered twice")]
fn a_version_is_a_spoke_once() {
    let _ = Conversion::hub::<v1::Gadget>()
        .spoke::<v1alpha1::Gadget>()
        .spoke::<v1alpha1::Gadget>();
}

#[test]
fn the_crd_stores_the_hub_and_calls_the_server() {
    let crd = gadgets().crd().unwrap();
    let versions: Vec<(&str, bool, bool)> = crd
        .spec
        .versions
        .iter()
        .map(|v| (v.name.as_str(), v.served, v.storage))
        .collect();
    assert_eq!(
        versions,
        [("v1", true, true), ("v1alpha1", true, false), ("v2", true, false)]
    );
    let stated = crd.spec.conversion.expect("the strategy is always stated");
    assert_eq!((stated.strategy.as_str(), stated.webhook), ("None", None));

    let client = ClientConfig::Service {
        namespace: "ops".into(),
        name: "hooks".into(),
        port: Some(443),
    };
    let mut options = ConfigurationOptions::new("gadgets", client);
    options.ca_bundle = Some("PEM".into());
    options
        .annotations
        .insert("cert-manager.io/inject-ca-from".into(), "ops/cert".into());
    let crd = gadgets().crd_with_webhook(&options).unwrap();
    let conversion = crd.spec.conversion.unwrap();
    assert_eq!(conversion.strategy, "Webhook");
    let webhook = conversion.webhook.unwrap();
    assert_eq!(webhook.conversion_review_versions, ["v1"]);
    let client = webhook.client_config.unwrap();
    let service = client.service.unwrap();
    assert_eq!(
        (
            service.namespace.as_str(),
            service.name.as_str(),
            service.path.as_deref(),
            service.port
        ),
        ("ops", "hooks", Some("/convert"), Some(443))
    );
    assert_eq!(client.ca_bundle.unwrap().0, b"PEM");
    assert_eq!(
        crd.metadata.annotations.unwrap()["cert-manager.io/inject-ca-from"],
        "ops/cert"
    );
}

/// The CRD without a webhook, server-side applied over the one with it, as a suite run
/// twice on one cluster does: every server takes it (kube-apiserver 1.19 refuses a
/// `spec.conversion` without its `strategy`), and the webhook is gone.
#[tokio::test]
async fn the_crd_without_a_webhook_applies_over_the_one_with_it() {
    use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
    let env = wheelhouse_envtest::TestEnv::start().await.expect("a test environment");
    let mut options = ConfigurationOptions::new("gadgets", ClientConfig::Url("https://127.0.0.1:9443".into()));
    options.ca_bundle = Some(
        wheelhouse_webhook::Certificates::self_signed(["127.0.0.1"])
            .expect("certificates")
            .ca_bundle()
            .to_owned(),
    );
    let with_webhook = gadgets().crd_with_webhook(&options).unwrap();
    env.install_crd(&with_webhook)
        .await
        .expect("the CRD with its webhook applies");
    env.install_crd(&gadgets().crd().unwrap())
        .await
        .expect("the CRD without a webhook applies over it");
    let crds: kube::Api<CustomResourceDefinition> = kube::Api::all(env.client());
    let name = with_webhook.metadata.name.clone().unwrap();
    let stored = crds
        .get(&name)
        .await
        .expect("the CRD")
        .spec
        .conversion
        .expect("a conversion");
    assert_eq!(stored.strategy, "None");
    assert!(stored.webhook.is_none(), "{stored:?}");
    crds.delete(&name, &kube::api::DeleteParams::default())
        .await
        .expect("delete the CRD");
    env.stop().await;
}
