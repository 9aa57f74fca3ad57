//! Go's JSON encoding of the built-in types, from the facts generated from Kubernetes'
//! Go source ([`super::go_facts`]): a field that is `omitempty` and held by value is
//! not written at its zero value (`"minReadySeconds": 0`, `"unschedulable": false`,
//! `"hostname": ""`), a field that is not `omitempty` is written at its zero (`""`, `0`,
//! `false`, null for a nil pointer, slice or map), and a struct held by value is always
//! written (`"status": {}`, `"resources": {}`, a template's `"metadata":
//! {"creationTimestamp": null}`), as its own fields say or as its `MarshalJSON` writes
//! its zero (a `metav1.Time` as null).
//!
//! The same facts give the value server-side apply compares: kube-apiserver reads a
//! built-in object's Go value through reflection (`FromStructured`), which keeps and
//! drops fields as the encoder does, so the stored object written this way is that
//! value, and the value of a type's `New()` is an empty object written this way.

use std::collections::HashMap;
use std::sync::LazyLock;

use serde_json::{Map, Value};

use crate::core::{Builtin, ResourceType};

/// Writes a built-in object as Go's encoder writes it: drops the fields Go leaves out
/// at the zero value they hold, and adds those Go always writes that are not there
/// (or are null where Go writes something else). Fields the served schema does not
/// declare are never added. Other resources are left as they are.
pub(crate) fn encode_as_go(resource: &ResourceType, object: &mut Value) {
    if let Some(builtin) = resource.catalogue().filter(|_| !resource.custom) {
        encode_builtin(builtin, object);
    }
}

/// Drops from a built-in object the fields Go leaves out at the zero value they hold
/// (a decoded object, before its defaults, which treat such a field as not sent).
pub(crate) fn omit_zero_fields(resource: &ResourceType, object: &mut Value) {
    if let Some(builtin) = resource.catalogue().filter(|_| !resource.custom) {
        super::openapi::visit_typed(builtin, object, &mut |definition, _, fields| {
            if let Some(facts) = facts(definition) {
                facts.omit(fields);
            }
        });
    }
}

/// [`encode_as_go`] for a built-in type.
pub(crate) fn encode_builtin(builtin: &'static Builtin, object: &mut Value) {
    super::openapi::visit_typed(builtin, object, &mut |definition, schema, fields| {
        let Some(facts) = facts(definition) else {
            return;
        };
        facts.omit(fields);
        let declared = schema["properties"].as_object();
        for (field, zero) in &facts.present {
            if !declared.is_some_and(|declared| declared.contains_key(*field)) {
                continue;
            }
            match fields.get_mut(*field) {
                None => {
                    fields.insert((*field).to_owned(), zero.clone());
                }
                // Go decodes null as the zero value, and writes that.
                Some(value) if value.is_null() => *value = zero.clone(),
                // Stored as protobuf, an empty list or map comes back nil: written as null.
                Some(value) if zero.is_null() && empty_collection(value, &schema["properties"][*field]) => {
                    *value = Value::Null;
                }
                Some(_) => {}
            }
        }
    });
}

/// Whether `value` is an empty slice or map (by its property's schema: a struct held
/// by pointer survives storage empty, a map does not).
fn empty_collection(value: &Value, property: &Value) -> bool {
    match value {
        Value::Array(items) => items.is_empty(),
        Value::Object(entries) => entries.is_empty() && property.get("additionalProperties").is_some(),
        _ => false,
    }
}

/// A built-in object as kube-apiserver's encoder writes its Go value: each struct's
/// fields in declaration order (the generated facts' order), maps sorted; what a patch
/// added that the type does not declare, after. The objects at the paths `sorted`
/// accepts are written with sorted keys instead (those a patch re-encoded).
pub(crate) fn go_struct_json(builtin: &'static Builtin, object: &Value, sorted: &dyn Fn(&[String]) -> bool) -> String {
    static ORDER: LazyLock<HashMap<&'static str, &'static [(&'static str, &'static str)]>> =
        LazyLock::new(|| super::go_facts::GO_TYPES.iter().copied().collect());
    let order = |definition: &str| ORDER.get(message_name(definition)?.as_str()).copied();
    super::openapi::ordered_json(builtin, object, &order, sorted)
}

/// The generated facts' key of a type (`k8s.io.api.apps.v1.DeploymentSpec`) by its
/// schema's definition name (`io.k8s.api.apps.v1.DeploymentSpec`).
fn message_name(definition: &str) -> Option<String> {
    Some(
        format!("k8s.io.{}", definition.strip_prefix("io.k8s.")?)
            .replace("k8s.io.apiextensions-apiserver.", "k8s.io.apiextensions_apiserver."),
    )
}

/// What the generated facts say of one Go type.
#[derive(Default)]
struct Facts {
    /// Scalars left out at their zero value.
    omitted: &'static [&'static str],
    /// Slices and maps left out when empty.
    omitted_empty: &'static [&'static str],
    /// Fields always written, with their zero.
    present: Vec<(&'static str, Value)>,
}

impl Facts {
    /// Drops the fields Go leaves out at the value they hold.
    fn omit(&self, fields: &mut Map<String, Value>) {
        fields.retain(|field, value| {
            let field = field.as_str();
            !(self.omitted.contains(&field) && is_zero(value) || self.omitted_empty.contains(&field) && is_empty(value))
        });
    }
}

/// The facts of a type by its schema's definition name (`io.k8s.api.apps.v1.
/// DeploymentSpec`); the generated facts are keyed by proto message
/// (`k8s.io.api.apps.v1.DeploymentSpec`).
fn facts(definition: &str) -> Option<&'static Facts> {
    static BY_MESSAGE: LazyLock<HashMap<&'static str, Facts>> = LazyLock::new(|| {
        let mut facts: HashMap<&'static str, Facts> = HashMap::new();
        for (message, omitted) in super::go_facts::OMIT_ZERO {
            facts.entry(message).or_default().omitted = omitted;
        }
        for (message, omitted) in super::go_facts::OMIT_EMPTY {
            facts.entry(message).or_default().omitted_empty = omitted;
        }
        for (message, present) in super::go_facts::PRESENT_AT_ZERO
            .iter()
            .chain(AGGREGATOR_PRESENT_AT_ZERO)
        {
            facts.entry(message).or_default().present = present
                .iter()
                .map(|(field, zero)| (*field, serde_json::from_str(zero).unwrap_or(Value::Null)))
                .collect();
        }
        for (message, omitted) in AGGREGATOR_OMIT_ZERO {
            facts.entry(message).or_default().omitted = omitted;
        }
        facts
    });
    BY_MESSAGE.get(message_name(definition)?.as_str())
}

/// The `APIService`'s Go types are kube-aggregator's, whose source the facts generator
/// does not read: the same facts, transcribed from `apiregistration/v1/types.go`.
const AGGREGATOR_PRESENT_AT_ZERO: &[(&str, &[(&str, &str)])] = &[
    (
        "k8s.io.kube-aggregator.pkg.apis.apiregistration.v1.APIService",
        &[("metadata", "{}"), ("spec", "{}"), ("status", "{}")],
    ),
    (
        "k8s.io.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceSpec",
        &[("groupPriorityMinimum", "0"), ("versionPriority", "0")],
    ),
    (
        "k8s.io.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceCondition",
        &[("type", "\"\""), ("status", "\"\""), ("lastTransitionTime", "null")],
    ),
];

/// The kube-aggregator fields left out at zero (`omitempty` scalars).
const AGGREGATOR_OMIT_ZERO: &[(&str, &[&str])] = &[(
    "k8s.io.kube-aggregator.pkg.apis.apiregistration.v1.APIServiceSpec",
    &["group", "version", "insecureSkipTLSVerify", "caBundle"],
)];

/// An empty slice or map.
fn is_empty(value: &Value) -> bool {
    match value {
        // null decodes as a nil slice or map, which `omitempty` leaves out.
        Value::Null => true,
        Value::Array(items) => items.is_empty(),
        Value::Object(fields) => fields.is_empty(),
        _ => false,
    }
}

/// A scalar at Go's zero value: 0, "", false.
fn is_zero(value: &Value) -> bool {
    match value {
        // null leaves a Go scalar at its zero.
        Value::Null => true,
        Value::Number(number) => number.as_f64() == Some(0.0),
        Value::String(text) => text.is_empty(),
        Value::Bool(flag) => !flag,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn objects_are_written_in_go_struct_order_with_sorted_maps() {
        let builtin = crate::resources::catalogue::builtins()
            .iter()
            .find(|b| b.group == "networking.k8s.io" && b.kind == "NetworkPolicy")
            .expect("a served type");
        let policy = json!({
            "spec": {"podSelector": {}, "policyTypes": ["Ingress"]},
            "metadata": {"uid": "u", "name": "p", "labels": {"z": "1", "a": "<2>"}, "namespace": "n"},
            "kind": "NetworkPolicy",
            "apiVersion": "networking.k8s.io/v1",
            "extra": true,
        });
        assert_eq!(
            go_struct_json(builtin, &policy, &|path| path.len() == 1 && path[0] == "spec"),
            r#"{"kind":"NetworkPolicy","apiVersion":"networking.k8s.io/v1","metadata":{"name":"p","namespace":"n","uid":"u","labels":{"a":"\u003c2\u003e","z":"1"}},"spec":{"podSelector":{},"policyTypes":["Ingress"]},"extra":true}"#
        );
        // The top level re-encoded by a patch: sorted.
        assert!(
            go_struct_json(builtin, &policy, &|path| path.is_empty())
                .starts_with(r#"{"apiVersion":"networking.k8s.io/v1","extra":true,"kind""#)
        );
    }
}
