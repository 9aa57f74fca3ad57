//! Objects as served at the version a request names. Events are one store seen two
//! ways: `events.k8s.io/v1` Events are core `v1` Events with fields renamed, as
//! kube-apiserver converts them (`pkg/apis/events/v1/conversion.go`:
//! `regarding` is `involvedObject`, `note` is `message`, `reportingController` is
//! `reportingComponent`, and the `deprecated*` fields are the core ones). Autoscalers
//! are stored at `autoscaling/v2` and converted for v1 (see `autoscaling`). Other
//! resources' versions differ only in `apiVersion` here (a limitation where their
//! schemas differ, as `resource.k8s.io`'s betas do).

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use crate::core::ResourceType;

/// (core v1 field, events.k8s.io/v1 field) for every field that is renamed.
const RENAMED: [(&str, &str); 7] = [
    ("involvedObject", "regarding"),
    ("message", "note"),
    ("source", "deprecatedSource"),
    ("firstTimestamp", "deprecatedFirstTimestamp"),
    ("lastTimestamp", "deprecatedLastTimestamp"),
    ("count", "deprecatedCount"),
    ("reportingComponent", "reportingController"),
];

fn is_events_view(resource: &ResourceType) -> bool {
    !resource.custom && resource.group == "events.k8s.io" && resource.plural == "events"
}

fn is_autoscaling_v1(resource: &ResourceType) -> bool {
    !resource.custom && resource.group == "autoscaling" && resource.version == "v1"
}

/// `object` (as stored) as served at `resource`'s version.
pub(crate) fn to_view<'a>(resource: &ResourceType, object: &'a Value) -> Cow<'a, Value> {
    let api_version = resource.api_version();
    if object["apiVersion"] == api_version.as_str() {
        return Cow::Borrowed(object);
    }
    let mut converted = if is_events_view(resource) && object["apiVersion"] == "v1" {
        // Written as Go writes the events.k8s.io type: its reporting fields are
        // `omitempty` where the core type's are not.
        let mut events = rename(object, |(core, events)| (core, events));
        omit_events_zero_fields(&mut events);
        events
    } else if is_autoscaling_v1(resource) && object["apiVersion"] == "autoscaling/v2" {
        wheelhouse_envtest_validation::autoscaling_conversion::to_v1(object.clone())
    } else {
        object.clone()
    };
    converted["apiVersion"] = json!(api_version);
    Cow::Owned(converted)
}

/// The top-level fields of an events.k8s.io Event that Go leaves out at zero (the
/// generated Go facts), dropped where the core Event's same field is written at zero.
fn omit_events_zero_fields(event: &mut Value) {
    let omitted = crate::resources::go_facts::OMIT_ZERO
        .iter()
        .find(|(message, _)| *message == "k8s.io.api.events.v1.Event")
        .map_or(&[][..], |(_, fields)| *fields);
    if let Some(fields) = event.as_object_mut() {
        fields.retain(|field, value| {
            let zero = value == &json!("") || value == &json!(0) || value == &json!(false);
            !(zero && omitted.contains(&field.as_str()))
        });
    }
}

/// `object` (as `resource` serves it) as stored: events.k8s.io Events become core
/// ones, `autoscaling/v1` autoscalers v2 ones.
pub(crate) fn to_storage(resource: &ResourceType, object: Value) -> Value {
    if is_autoscaling_v1(resource) {
        let mut converted = wheelhouse_envtest_validation::autoscaling_conversion::from_v1(object);
        converted["apiVersion"] = json!("autoscaling/v2");
        return converted;
    }
    if !is_events_view(resource) {
        return object;
    }
    let mut converted = rename(&object, |(core, events)| (events, core));
    converted["apiVersion"] = json!("v1");
    converted
}

/// A copy of an Event with the fields of `RENAMED` moved from the first name that
/// `direction` gives to the second.
fn rename(object: &Value, direction: impl Fn((&'static str, &'static str)) -> (&'static str, &'static str)) -> Value {
    let Some(fields) = object.as_object() else {
        return object.clone();
    };
    let mut converted = Map::with_capacity(fields.len());
    for (key, value) in fields {
        let renamed = RENAMED
            .iter()
            .map(|pair| direction(*pair))
            .find(|(from, _)| from == key)
            .map_or(key.as_str(), |(_, to)| to);
        converted.insert(renamed.to_owned(), value.clone());
    }
    Value::Object(converted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::catalogue::resource_types;

    fn resource_type(group: &str, plural: &str) -> &'static ResourceType {
        resource_types()
            .iter()
            .find(|t| t.group == group && t.version == "v1" && t.plural == plural)
            .expect("a built-in type")
    }

    #[test]
    fn events_convert_both_ways_as_kube_apiserver_does() {
        let view = resource_type("events.k8s.io", "events");
        let core = json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e"},
            "involvedObject": {"kind": "Pod", "name": "web"}, "message": "pulled", "reason": "Pulled",
            "source": {"component": "kubelet"}, "count": 2, "reportingComponent": "kubelet", "reportingInstance": "node-1",
            "firstTimestamp": "2026-01-01T00:00:00Z", "lastTimestamp": "2026-01-01T00:01:00Z", "type": "Normal"});
        let seen = to_view(view, &core).into_owned();
        assert_eq!(
            seen,
            json!({"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": {"name": "e"},
                "regarding": {"kind": "Pod", "name": "web"}, "note": "pulled", "reason": "Pulled",
                "deprecatedSource": {"component": "kubelet"}, "deprecatedCount": 2, "reportingController": "kubelet",
                "reportingInstance": "node-1", "deprecatedFirstTimestamp": "2026-01-01T00:00:00Z",
                "deprecatedLastTimestamp": "2026-01-01T00:01:00Z", "type": "Normal"})
        );
        assert_eq!(to_storage(view, seen), core);
        let core_type = resource_type("", "events");
        assert!(matches!(to_view(core_type, &core), Cow::Borrowed(_)));
    }
}
