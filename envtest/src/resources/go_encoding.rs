//! Go's JSON encoding of the built-in types where it leaves fields out: a field that is
//! `omitempty` and held by value is not written at its zero value (`"minReadySeconds":
//! 0`, `"unschedulable": false`, `"hostname": ""`), from the facts generated from
//! Kubernetes' Go source ([`super::go_facts`]).

use serde_json::Value;

use crate::core::ResourceType;

/// Drops from a built-in object every field Go leaves out at the zero value it holds.
pub(crate) fn omit_zero_fields(resource: &ResourceType, object: &mut Value) {
    let Some(builtin) = resource.catalogue().filter(|_| !resource.custom) else {
        return;
    };
    super::openapi::visit_typed(builtin, object, &mut |definition, fields| {
        let Some(omitted) = omitted_at_zero(definition) else {
            return;
        };
        fields.retain(|field, value| !(omitted.contains(&field.as_str()) && is_zero(value)));
    });
}

/// The fields of a type (by its schema's definition name, `io.k8s.api.apps.v1.
/// DeploymentSpec`) that Go leaves out at zero, from the generated facts (keyed by proto
/// message, `k8s.io.api.apps.v1.DeploymentSpec`).
fn omitted_at_zero(definition: &str) -> Option<&'static [&'static str]> {
    use std::collections::HashMap;
    use std::sync::LazyLock;
    static BY_MESSAGE: LazyLock<HashMap<&'static str, &'static [&'static str]>> =
        LazyLock::new(|| super::go_facts::OMIT_ZERO.iter().copied().collect());
    let message = format!("k8s.io.{}", definition.strip_prefix("io.k8s.")?);
    BY_MESSAGE.get(message.as_str()).copied()
}

/// A scalar at Go's zero value: 0, "", false.
fn is_zero(value: &Value) -> bool {
    match value {
        Value::Number(number) => number.as_f64() == Some(0.0),
        Value::String(text) => text.is_empty(),
        Value::Bool(flag) => !flag,
        _ => false,
    }
}
