//! What the conversion and CRD-version tests share: an HTTPS server on 127.0.0.1 for
//! conversion and admission webhooks (hyper and rustls, with a self-signed certificate
//! given as `caBundle`), which a kube-apiserver on the same machine reaches by `url` as
//! the embedded server does, and the tests' two-version `Widget` CRD, in a group named
//! after the test's namespace.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind};
use serde_json::{Value, json};
use wheelhouse_envtest::TestEnv;

use crate::common::{delete_quietly, from_json};

/// An HTTPS server for conversion and admission webhooks. `/convert` converts
/// `Widget`s between v1 (`spec.size`) and v2 (`spec.replicas`); `/fail` answers every
/// review with a failure; `/rename` renames what it converts; `/validate` allows
/// everything and `/mutate` sets `spec.replicas: 5` and the label `mutated=true` by
/// `JSONPatch`. Every review it receives is recorded with its path.
pub(crate) struct Webhooks {
    base: String,
    ca_bundle: String,
    reviews: crate::common::Reviews,
}

impl Webhooks {
    pub(crate) async fn start() -> Self {
        let (base, ca_bundle, reviews) = crate::common::serve_webhooks(answer).await;
        Self {
            base,
            ca_bundle,
            reviews,
        }
    }

    pub(crate) fn client_config(&self, path: &str) -> Value {
        json!({"url": format!("{}{path}", self.base), "caBundle": self.ca_bundle})
    }

    pub(crate) fn reviews(&self, path: &str) -> Vec<Value> {
        let reviews = self.reviews.lock().unwrap();
        reviews
            .iter()
            .filter(|(p, _)| p == path)
            .map(|(_, r)| r.clone())
            .collect()
    }
}

/// A `Widget` converted to `desired`: v1 keeps the size as `spec.size`, v2 as
/// `spec.replicas`.
fn convert_widget(object: &Value, desired: &str) -> Value {
    let mut converted = object.clone();
    let spec = object["spec"].as_object().cloned().unwrap_or_default();
    let size = spec.get("size").or_else(|| spec.get("replicas")).cloned();
    let mut new_spec = serde_json::Map::new();
    if let Some(size) = size {
        let field = if desired.ends_with("/v2") { "replicas" } else { "size" };
        new_spec.insert(field.to_owned(), size);
    }
    converted["spec"] = Value::Object(new_spec);
    converted["apiVersion"] = json!(desired);
    converted
}

/// The answer to `review`, received at `path`.
async fn answer(path: String, review: Value) -> Value {
    let uid = review["request"]["uid"].clone();
    let desired = review["request"]["desiredAPIVersion"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let objects = review["request"]["objects"].as_array().cloned().unwrap_or_default();
    match path.as_str() {
        "/convert" | "/rename" => {
            let converted: Vec<Value> = objects
                .iter()
                .map(|object| {
                    let mut converted = convert_widget(object, &desired);
                    if path == "/rename" {
                        converted["metadata"]["name"] = json!("renamed");
                    }
                    converted
                })
                .collect();
            let response = json!({"uid": uid, "result": {"status": "Success"}, "convertedObjects": converted});
            json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview", "response": response})
        }
        "/fail" => {
            let response =
                json!({"uid": uid, "result": {"status": "Failure", "message": "widgets cannot convert today"}});
            json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview", "response": response})
        }
        "/mutate" => {
            let operations = json!([
                {"op": "add", "path": "/spec/replicas", "value": 5},
                {"op": "add", "path": "/metadata/labels", "value": {"mutated": "true"}},
            ]);
            let response = json!({"uid": uid, "allowed": true, "patchType": "JSONPatch", "patch": STANDARD.encode(operations.to_string())});
            json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": response})
        }
        _ => {
            json!({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": {"uid": uid, "allowed": true}})
        }
    }
}

/// The test's `Widget` CRD: v1 (`spec.size`) and v2 (`spec.replicas`), in a group of
/// the test's own.
pub(crate) struct Widgets {
    pub(crate) group: String,
}

impl Widgets {
    pub(crate) fn new(env: &TestEnv) -> Self {
        Self {
            group: format!("{}.conversion.wheelhouse.rs", env.namespace()),
        }
    }

    pub(crate) fn name(&self) -> String {
        format!("widgets.{}", self.group)
    }

    pub(crate) fn version(name: &str, storage: bool, field: &str) -> Value {
        let spec = json!({"type": "object", "properties": {field: {"type": "integer"}}});
        json!({"name": name, "served": true, "storage": storage,
            "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": spec}}}})
    }

    /// The CRD with `versions` and `conversion` (omitted when null).
    pub(crate) fn crd(&self, versions: &[Value], conversion: &Value) -> CustomResourceDefinition {
        let mut crd = json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": self.name()},
            "spec": {
                "group": self.group,
                "scope": "Namespaced",
                "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
                "versions": versions,
            },
        });
        if !conversion.is_null() {
            crd["spec"]["conversion"] = conversion.clone();
        }
        from_json(crd)
    }

    /// v1 stored, v2 served, converted by the webhook at `path`.
    pub(crate) fn with_webhook(&self, webhooks: &Webhooks, path: &str) -> CustomResourceDefinition {
        let conversion = json!({"strategy": "Webhook", "webhook": {
            "clientConfig": webhooks.client_config(path), "conversionReviewVersions": ["v1"]}});
        self.crd(
            &[
                Self::version("v1", true, "size"),
                Self::version("v2", false, "replicas"),
            ],
            &conversion,
        )
    }

    pub(crate) fn api(&self, env: &TestEnv, version: &str) -> Api<DynamicObject> {
        let resource =
            ApiResource::from_gvk_with_plural(&GroupVersionKind::gvk(&self.group, version, "Widget"), "widgets");
        Api::namespaced_with(env.client(), env.namespace(), &resource)
    }

    pub(crate) fn object(&self, version: &str, name: &str, spec: &Value) -> DynamicObject {
        from_json(
            json!({"apiVersion": format!("{}/{version}", self.group), "kind": "Widget",
            "metadata": {"name": name}, "spec": spec}),
        )
    }

    pub(crate) async fn remove(&self, env: &TestEnv) {
        let crds: Api<CustomResourceDefinition> = Api::all(env.client());
        delete_quietly(&crds, &self.name()).await;
    }
}

pub(crate) fn spec_of(object: &DynamicObject) -> Value {
    object.data["spec"].clone()
}
