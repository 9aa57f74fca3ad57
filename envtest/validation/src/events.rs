//! The validation of `events.k8s.io` Events: core's `ValidateEventCreate` and
//! `ValidateEventUpdate` (`pkg/apis/core/validation/events.go`), which kube runs on the
//! internal (core) Event whichever API wrote it, so the paths name the core fields
//! (`involvedObject`, `message`, `source`...). An events.k8s.io/v1 object is read
//! through its core field names here ([`Fields`]); for a core/v1 Event (`legacy`
//! rules only) the same functions apply with the identity mapping.

use serde_json::Value;

use crate::common::fields::{IMMUTABLE, validate_qualified_name};
use crate::common::go_syntax::{GoStruct, raw, string};
use crate::common::names::{dns1123_subdomain, name_is_dns_subdomain};
use crate::common::read::{int, is_set, text};
use crate::core::{validate_object_meta, validate_object_meta_update};
use crate::field::{ErrorList, Path};
use crate::{Kind, Write};

const REPORTING_INSTANCE_LIMIT: usize = 128;
const ACTION_LIMIT: usize = 128;
const REASON_LIMIT: usize = 128;
const NOTE_LIMIT: usize = 1024;

/// Where an API version keeps each core Event field.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fields {
    involved_object: &'static str,
    message: &'static str,
    source: &'static str,
    first_timestamp: &'static str,
    last_timestamp: &'static str,
    count: &'static str,
    reporting_controller: &'static str,
}

/// events.k8s.io/v1's names (`pkg/apis/events/v1/conversion.go`).
pub(crate) const EVENTS_V1: Fields = Fields {
    involved_object: "regarding",
    message: "note",
    source: "deprecatedSource",
    first_timestamp: "deprecatedFirstTimestamp",
    last_timestamp: "deprecatedLastTimestamp",
    count: "deprecatedCount",
    reporting_controller: "reportingController",
};

/// The errors in `object`, an events.k8s.io kind written as `write` says.
pub(crate) fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    if kind.kind != "Event" {
        return ErrorList::new();
    }
    match write.old() {
        None => validate_event_create(object, EVENTS_V1, false),
        Some(old) => validate_event_update(object, old, EVENTS_V1, false),
    }
}

/// Whether a timestamp field is Go's zero time.
fn is_zero_time(value: &Value) -> bool {
    let text = text(value);
    text.is_empty() || text.starts_with("0001-01-01T00:00:00")
}

/// `ValidateEventCreate`; `core_v1` when the request came through core/v1, which
/// checks only the legacy rules.
pub(crate) fn validate_event_create(event: &Value, fields: Fields, core_v1: bool) -> ErrorList {
    let mut errors = legacy_validate_event(event, fields, core_v1);
    if core_v1 {
        return errors;
    }
    errors.extend(validate_object_meta(
        &event["metadata"],
        true,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    ));
    errors.extend(validate_series(event));
    if is_zero_time(&event["eventTime"]) {
        errors.push(Path::new("eventTime").required(""));
    }
    let kind = text(&event["type"]);
    if kind != "Normal" && kind != "Warning" {
        errors.push(Path::new("type").invalid("", &format!("has invalid value: {kind}")));
    }
    if !is_zero_time(&event[fields.first_timestamp]) {
        errors.push(Path::new("firstTimestamp").invalid("", "needs to be unset"));
    }
    if !is_zero_time(&event[fields.last_timestamp]) {
        errors.push(Path::new("lastTimestamp").invalid("", "needs to be unset"));
    }
    if int(&event[fields.count]) != 0 {
        errors.push(Path::new("count").invalid("", "needs to be unset"));
    }
    let source = &event[fields.source];
    if !text(&source["component"]).is_empty() || !text(&source["host"]).is_empty() {
        errors.push(Path::new("source").invalid("", "needs to be unset"));
    }
    errors
}

/// `validateV1EventSeries`.
fn validate_series(event: &Value) -> ErrorList {
    let series = &event["series"];
    let mut errors = ErrorList::new();
    if is_set(series) {
        if int(&series["count"]) < 2 {
            errors.push(Path::new("series.count").invalid("", "should be at least 2"));
        }
        if is_zero_time(&series["lastObservedTime"]) {
            errors.push(Path::new("series.lastObservedTime").required(""));
        }
    }
    errors
}

/// `legacyValidateEvent`: the rules every Event keeps.
fn legacy_validate_event(event: &Value, fields: Fields, core_v1: bool) -> ErrorList {
    let mut errors = ErrorList::new();
    let namespace = text(&event["metadata"]["namespace"]);
    let involved = text(&event[fields.involved_object]["namespace"]);
    let involved_path = Path::from_parts(&["involvedObject", "namespace"]);
    if is_zero_time(&event["eventTime"]) {
        let mismatch = if involved.is_empty() {
            !namespace.is_empty() && namespace != "default"
        } else {
            namespace != involved
        };
        if mismatch {
            errors.push(involved_path.invalid(involved, "does not match event.namespace"));
        }
    } else {
        if involved.is_empty() && namespace != "default" && namespace != "kube-system" {
            errors.push(involved_path.invalid(involved, "does not match event.namespace"));
        }
        let controller_path = Path::new(if core_v1 {
            "reportingComponent"
        } else {
            "reportingController"
        });
        let controller = text(&event[fields.reporting_controller]);
        if controller.is_empty() {
            errors.push(controller_path.required(""));
        }
        errors.extend(validate_qualified_name(controller, &controller_path));
        for (field, limit) in [
            ("reportingInstance", REPORTING_INSTANCE_LIMIT),
            ("action", ACTION_LIMIT),
            ("reason", REASON_LIMIT),
        ] {
            let value = text(&event[field]);
            if value.is_empty() {
                errors.push(Path::new(field).required(""));
            }
            if value.len() > limit {
                errors.push(Path::new(field).invalid("", &format!("can have at most {limit} characters")));
            }
        }
        if text(&event[fields.message]).len() > NOTE_LIMIT {
            errors.push(Path::new("message").invalid("", &format!("can have at most {NOTE_LIMIT} characters")));
        }
    }
    for message in dns1123_subdomain(namespace) {
        errors.push(Path::new("namespace").invalid(namespace, &message));
    }
    errors
}

/// `ValidateEventUpdate`: the legacy rules, then (but through core/v1) what an Event
/// may not change.
#[expect(clippy::too_many_lines, reason = "one Go function, ported whole in its order")]
pub(crate) fn validate_event_update(event: &Value, old: &Value, fields: Fields, core_v1: bool) -> ErrorList {
    let mut errors = legacy_validate_event(event, fields, core_v1);
    if core_v1 {
        return errors;
    }
    errors.extend(validate_object_meta_update(
        &event["metadata"],
        &old["metadata"],
        &Path::new("metadata"),
    ));
    if event["series"] != old["series"] {
        errors.extend(validate_series(event));
    }
    let reference = |value: &Value| {
        GoStruct::new("core.ObjectReference")
            .field("Kind", string(&value["kind"]))
            .field("Namespace", string(&value["namespace"]))
            .field("Name", string(&value["name"]))
            .field("UID", string(&value["uid"]))
            .field("APIVersion", string(&value["apiVersion"]))
            .field("ResourceVersion", string(&value["resourceVersion"]))
            .field("FieldPath", string(&value["fieldPath"]))
            .end()
    };
    let mut immutable = |path: &str, new: &Value, before: &Value, shown: String| {
        if !crate::common::read::semantic_eq(new, before) {
            errors.push(Path::new(path).invalid(raw(shown), IMMUTABLE));
        }
    };
    let field = |object: &'_ Value, name: &str| object[name].clone();
    let involved = field(event, fields.involved_object);
    immutable(
        "involvedObject",
        &involved,
        &old[fields.involved_object],
        reference(&involved),
    );
    immutable("reason", &event["reason"], &old["reason"], string(&event["reason"]));
    immutable(
        "message",
        &event[fields.message],
        &old[fields.message],
        string(&event[fields.message]),
    );
    let source = &event[fields.source];
    let shown_source = GoStruct::new("core.EventSource")
        .field("Component", string(&source["component"]))
        .field("Host", string(&source["host"]))
        .end();
    immutable("source", source, &old[fields.source], shown_source);
    immutable(
        "firstTimestamp",
        &event[fields.first_timestamp],
        &old[fields.first_timestamp],
        time_string(&event[fields.first_timestamp]),
    );
    immutable(
        "lastTimestamp",
        &event[fields.last_timestamp],
        &old[fields.last_timestamp],
        time_string(&event[fields.last_timestamp]),
    );
    immutable(
        "count",
        &event[fields.count],
        &old[fields.count],
        int(&event[fields.count]).to_string(),
    );
    immutable("reason", &event["reason"], &old["reason"], string(&event["reason"]));
    immutable("type", &event["type"], &old["type"], string(&event["type"]));
    // Event times compare at microseconds.
    let micros = |value: &Value| {
        value
            .as_str()
            .and_then(|t| t.parse::<jiff::Timestamp>().ok())
            .map(jiff::Timestamp::as_microsecond)
    };
    if micros(&event["eventTime"]) != micros(&old["eventTime"]) {
        immutable(
            "eventTime",
            &event["eventTime"],
            &old["eventTime"],
            time_string(&event["eventTime"]),
        );
    }
    immutable("action", &event["action"], &old["action"], string(&event["action"]));
    let related = &event["related"];
    let shown_related = if related.is_null() {
        "\"null\"".to_owned()
    } else {
        reference(related)
    };
    immutable("related", related, &old["related"], shown_related);
    immutable(
        "reportingController",
        &event[fields.reporting_controller],
        &old[fields.reporting_controller],
        string(&event[fields.reporting_controller]),
    );
    immutable(
        "reportingInstance",
        &event["reportingInstance"],
        &old["reportingInstance"],
        string(&event["reportingInstance"]),
    );
    errors
}

/// A `metav1.Time` as Go's `Time.String()` prints it (in UTC).
fn time_string(value: &Value) -> String {
    value
        .as_str()
        .and_then(|text| text.parse::<jiff::Timestamp>().ok())
        .map_or_else(
            || "0001-01-01 00:00:00 +0000 UTC".to_owned(),
            |time| time.strftime("%Y-%m-%d %H:%M:%S%.f +0000 UTC").to_string(),
        )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::Write;
    use crate::testing::errors;

    #[test]
    fn events_need_their_reporting_fields() {
        let event = json!({"metadata": {"name": "e", "namespace": "n"}, "eventTime": "2024-01-01T00:00:00.000000Z",
            "reportingController": "ctl", "reportingInstance": "i", "action": "A", "reason": "R", "type": "Normal",
            "regarding": {"namespace": "other"}, "deprecatedCount": 2});
        assert_eq!(
            errors("events.k8s.io", "v1", "Event", &event, Write::Create),
            ["count: Invalid value: \"\": needs to be unset",]
        );
        let without_time =
            json!({"metadata": {"name": "e", "namespace": "n"}, "regarding": {"namespace": "other"}, "type": "Bogus"});
        assert_eq!(
            errors("events.k8s.io", "v1", "Event", &without_time, Write::Create),
            [
                "involvedObject.namespace: Invalid value: \"other\": does not match event.namespace",
                "eventTime: Required value",
                "type: Invalid value: \"\": has invalid value: Bogus",
            ]
        );
        let mut changed = event.clone();
        changed["note"] = json!("new");
        assert_eq!(
            errors("events.k8s.io", "v1", "Event", &changed, Write::Update { old: &event }),
            ["message: Invalid value: \"new\": field is immutable"]
        );
    }
}
