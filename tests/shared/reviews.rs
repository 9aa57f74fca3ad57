//! The reviews a trickling-bodies test and benchmark send to the WebApp example's
//! webhooks: included by path from `tests/slow_clients.rs` and `benches/webhook_slow.rs`.

use bytes::Bytes;
use serde_json::{Value, json};

/// A review of creating a valid WebApp `name`, its annotation `padding` bytes long.
pub fn admission(name: &str, padding: usize) -> Bytes {
    let object = json!({
        "apiVersion": "example.com/v1", "kind": "WebApp",
        "metadata": {"name": name, "namespace": "shop", "annotations": {"padding": "x".repeat(padding)}},
        "spec": {"image": "nginx:1.27", "replicas": 2, "port": 8080},
    });
    Bytes::from(
        json!({
            "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
            "request": {
                "uid": "0123abcd-0123-4567-89ab-0123456789ab",
                "kind": {"group": "example.com", "version": "v1", "kind": "WebApp"},
                "resource": {"group": "example.com", "version": "v1", "resource": "webapps"},
                "name": name, "namespace": "shop", "operation": "CREATE",
                "userInfo": {"username": "alice"}, "object": object,
            }
        })
        .to_string(),
    )
}

/// A review converting five `v1alpha1` WebApps to `v1`, as a list in the old version sends.
pub fn conversion() -> Bytes {
    let objects: Vec<Value> = (0..5)
        .map(|i| {
            json!({
                "apiVersion": "example.com/v1alpha1", "kind": "WebApp",
                "metadata": {"name": format!("shop-{i}"), "namespace": "shop", "uid": format!("uid-{i}")},
                "spec": {"image": "nginx:1.27", "replicas": 2, "containerPort": 8080},
            })
        })
        .collect();
    Bytes::from(
        json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
            "request": {"uid": "0123abcd-0123-4567-89ab-0123456789ab", "desiredAPIVersion": "example.com/v1", "objects": objects},
        })
        .to_string(),
    )
}
