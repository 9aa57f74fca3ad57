//! Events (`pkg/apis/core/validation/events.go`): the legacy rules every Event keeps,
//! and the strict ones of events.k8s.io/v1, on the core Event's fields. The
//! events.k8s.io group reaches these through its conversion to the core shape
//! (`regarding` is `involvedObject`, `note` is `message`, `deprecatedCount` is
//! `count`, ...).

use serde_json::Value;

use super::{validate_object_meta, validate_object_meta_update, validate_qualified_name};
use crate::field::{BadValue, ErrorList, Path};
use crate::json::{int, is_set, text};
use crate::meta;

/// The API an Event was written through, which picks the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EventApi {
    /// core/v1: the legacy rules only, `reportingComponent` named as in core.
    CoreV1,
    /// events.k8s.io/v1beta1: the legacy rules only.
    #[allow(dead_code, reason = "the events.k8s.io group's validation picks it")]
    EventsV1Beta1,
    /// events.k8s.io/v1: the legacy rules and the strict ones.
    EventsV1,
}

const LIMIT: usize = 128;
const NOTE_LIMIT: usize = 1024;

/// `ValidateEventCreate`, on an Event in the core shape.
pub(crate) fn validate_event_create(event: &Value, api: EventApi) -> ErrorList {
    let mut errors = legacy_validate_event(event, api);
    if api != EventApi::EventsV1 {
        return errors;
    }
    errors.extend(validate_object_meta(
        &event["metadata"],
        true,
        meta::name_is_dns_subdomain,
        &Path::new("metadata"),
    ));
    errors.extend(validate_series(event));
    if text(&event["eventTime"]).is_empty() {
        errors.push(Path::new("eventTime").required(""));
    }
    let kind = text(&event["type"]);
    if kind != "Normal" && kind != "Warning" {
        errors.push(Path::new("type").invalid("", &format!("has invalid value: {kind}")));
    }
    for field in ["firstTimestamp", "lastTimestamp"] {
        if !text(&event[field]).is_empty() {
            errors.push(Path::new(field).invalid("", "needs to be unset"));
        }
    }
    if int(&event["count"]) != 0 {
        errors.push(Path::new("count").invalid("", "needs to be unset"));
    }
    let source = &event["source"];
    if !text(&source["component"]).is_empty() || !text(&source["host"]).is_empty() {
        errors.push(Path::new("source").invalid("", "needs to be unset"));
    }
    errors
}

/// `ValidateEventUpdate`, on Events in the core shape.
pub(crate) fn validate_event_update(new: &Value, old: &Value, api: EventApi) -> ErrorList {
    let mut errors = legacy_validate_event(new, api);
    if api != EventApi::EventsV1 {
        return errors;
    }
    errors.extend(validate_object_meta_update(
        &new["metadata"],
        &old["metadata"],
        &Path::new("metadata"),
    ));
    if !crate::json::same(&new["series"], &old["series"]) {
        errors.extend(validate_series(new));
    }
    for field in [
        "involvedObject",
        "reason",
        "message",
        "source",
        "firstTimestamp",
        "lastTimestamp",
        "count",
        "reason",
        "type",
    ] {
        errors.extend(immutable(new, old, field));
    }
    if truncated_time(&new["eventTime"]) != truncated_time(&old["eventTime"]) {
        errors.extend(immutable(new, old, "eventTime"));
    }
    for field in ["action", "related", "reportingComponent", "reportingInstance"] {
        errors.extend(immutable(new, old, field));
    }
    errors
}

/// An event time to the microsecond (sub-microsecond changes are tolerated).
fn truncated_time(value: &Value) -> String {
    let stamp = text(value);
    match stamp.split_once('.') {
        Some((seconds, fraction)) => {
            let digits: String = fraction.chars().take_while(char::is_ascii_digit).take(6).collect();
            format!("{seconds}.{digits:0<6}")
        }
        None => stamp.trim_end_matches('Z').to_owned(),
    }
}

fn immutable(new: &Value, old: &Value, field: &str) -> ErrorList {
    // `reportingController` is `reportingComponent` in the core JSON.
    let shown = if new[field].is_string() || new[field].is_number() {
        BadValue::from(&new[field])
    } else {
        BadValue::Json(new[field].clone())
    };
    let path_name = if field == "reportingComponent" {
        "reportingController"
    } else {
        field
    };
    meta::validate_immutable_field(&new[field], &old[field], shown, &Path::new(path_name))
}

/// `validateV1EventSeries`.
fn validate_series(event: &Value) -> ErrorList {
    let series = &event["series"];
    let mut errors = ErrorList::new();
    if is_set(series) {
        if int(&series["count"]) < 2 {
            errors.push(Path::new("series.count").invalid("", "should be at least 2"));
        }
        if text(&series["lastObservedTime"]).is_empty() {
            errors.push(Path::new("series.lastObservedTime").required(""));
        }
    }
    errors
}

/// `legacyValidateEvent`.
fn legacy_validate_event(event: &Value, api: EventApi) -> ErrorList {
    let mut errors = ErrorList::new();
    let reporting_field = if api == EventApi::CoreV1 {
        "reportingComponent"
    } else {
        "reportingController"
    };
    let namespace = text(&event["metadata"]["namespace"]);
    let involved = text(&event["involvedObject"]["namespace"]);
    let involved_path = Path::new("involvedObject").child("namespace");
    if text(&event["eventTime"]).is_empty() {
        let matches = if involved.is_empty() {
            namespace.is_empty() || namespace == "default"
        } else {
            namespace == involved
        };
        if !matches {
            errors.push(involved_path.invalid(involved, "does not match event.namespace"));
        }
    } else {
        if involved.is_empty() && namespace != "default" && namespace != "kube-system" {
            errors.push(involved_path.invalid(involved, "does not match event.namespace"));
        }
        let controller = text(&event["reportingComponent"]);
        if controller.is_empty() {
            errors.push(Path::new(reporting_field).required(""));
        }
        errors.extend(validate_qualified_name(controller, &Path::new(reporting_field)));
        for (field, limit) in [
            ("reportingInstance", LIMIT),
            ("action", LIMIT),
            ("reason", LIMIT),
            ("message", NOTE_LIMIT),
        ] {
            let value = text(&event[field]);
            if value.is_empty() && field != "message" {
                errors.push(Path::new(field).required(""));
            }
            if value.len() > limit {
                errors.push(Path::new(field).invalid("", &format!("can have at most {limit} characters")));
            }
        }
    }
    errors.extend(super::invalid_each(
        &Path::new("namespace"),
        namespace,
        &crate::util::is_dns1123_subdomain(namespace),
    ));
    errors
}
