//! `autoscaling/v1` and `autoscaling/v2` autoscalers are one store: v2 objects, seen
//! at v1 with the CPU utilization target as `targetCPUUtilizationPercentage` and what
//! v1 cannot say kept in annotations, so that a v1 client's update loses nothing.
//! Ported from kube-apiserver's `pkg/apis/autoscaling/v1/conversion.go`:
//!
//! | kube | here |
//! |---|---|
//! | `Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler` (and its spec and status) | [`to_v1`] |
//! | `Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler` (and its spec and status) | [`from_v1`] |
//! | `Convert_autoscaling_MetricSpec_To_v1_MetricSpec` and the metric sources' | `metric_to_v1` |
//! | `Convert_v1_MetricSpec_To_autoscaling_MetricSpec` and the metric sources' | `metric_from_v1` |
//! | `Convert_autoscaling_MetricStatus_To_v1_MetricStatus` and the metric statuses' | `metric_to_v1` (`Side::Status`) |
//! | `Convert_v1_MetricStatus_To_autoscaling_MetricStatus` and the metric statuses' | `status_from_v1` |
//! | `DropRoundTripHorizontalPodAutoscalerAnnotations` | `drop_round_trip_annotations` |
//!
//! The annotations hold what kube writes: v1's metric shapes (`targetAverageUtilization`,
//! `metricName`, ...) and conditions as Go encodes them (fields in declaration order,
//! `omitempty` left out), and the behavior as the internal Go type, which has no JSON
//! names (`{"ScaleUp":{"StabilizationWindowSeconds":...}}`). Reading them back is
//! Go's: field names match without regard to case, and an annotation that does not
//! decode is ignored.

use serde_json::{Map, Value, json};

const METRICS: &str = "autoscaling.alpha.kubernetes.io/metrics";
const CURRENT_METRICS: &str = "autoscaling.alpha.kubernetes.io/current-metrics";
const CONDITIONS: &str = "autoscaling.alpha.kubernetes.io/conditions";
const BEHAVIOR: &str = "autoscaling.alpha.kubernetes.io/behavior";

/// `autoscaling.DefaultCPUUtilization`: the target of a v1 autoscaler that names none.
const DEFAULT_CPU_UTILIZATION: i64 = 80;

/// A JSON object written in Go's field order: `(name, encoded value, omission)`, a
/// value given as its JSON text (see [`text`]) or as an object already written this way.
fn go_object(fields: &[(&str, Option<String>, Omit)]) -> String {
    let mut out = String::from("{");
    for (name, value, omit) in fields {
        let value = value.as_deref().filter(|v| !(*omit == Omit::Empty && *v == "\"\""));
        let text = match (value, omit) {
            (Some(value), _) => value,
            (None, Omit::Never(zero)) => zero,
            (None, _) => continue,
        };
        if out.len() > 1 {
            out.push(',');
        }
        out.push_str(&Value::from(*name).to_string());
        out.push(':');
        out.push_str(text);
    }
    out.push('}');
    out
}

/// How Go leaves a field out: never (written as the given zero when absent), when
/// absent (a nil pointer, slice or map), or also when empty (an `omitempty` string).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Omit {
    Never(&'static str),
    Absent,
    Empty,
}

/// A plain value's JSON text; None for an absent or null one (Go's nil).
fn text(value: Option<&Value>) -> Option<String> {
    value.filter(|v| !v.is_null()).map(Value::to_string)
}

fn list(items: impl Iterator<Item = String>) -> String {
    format!("[{}]", items.collect::<Vec<_>>().join(","))
}

/// A label selector as Go writes `metav1.LabelSelector` (match labels first).
fn selector(value: Option<&Value>) -> Option<String> {
    let value = value.filter(|v| v.is_object())?;
    let expressions = value["matchExpressions"].as_array().map(|expressions| {
        list(expressions.iter().map(|e| {
            go_object(&[
                ("key", text(e.get("key")), Omit::Never("\"\"")),
                ("operator", text(e.get("operator")), Omit::Never("\"\"")),
                ("values", text(e.get("values")), Omit::Absent),
            ])
        }))
    });
    Some(go_object(&[
        ("matchLabels", text(value.get("matchLabels")), Omit::Absent),
        ("matchExpressions", expressions, Omit::Absent),
    ]))
}

/// A `CrossVersionObjectReference` as v1 writes it.
fn reference(value: &Value) -> String {
    go_object(&[
        ("kind", text(value.get("kind")), Omit::Never("\"\"")),
        ("name", text(value.get("name")), Omit::Never("\"\"")),
        ("apiVersion", text(value.get("apiVersion")), Omit::Empty),
    ])
}

/// `Convert_autoscaling_MetricSpec_To_v1_MetricSpec` and
/// `Convert_autoscaling_MetricStatus_To_v1_MetricStatus`, with their metric sources'
/// converters: a spec's `target` becomes `target*` fields, a status's `current`
/// becomes `current*` fields, which v1 writes even at zero where the spec's are
/// pointers.
fn metric_to_v1(metric: &Value, side: Side) -> String {
    let (values, prefix, status) = match side {
        Side::Spec => ("target", "target", false),
        Side::Status => ("current", "current", true),
    };
    let named = |suffix: &str| format!("{prefix}{suffix}");
    let (value, average, utilization) = (named("Value"), named("AverageValue"), named("AverageUtilization"));
    // The status's value fields are held by value; the spec's are pointers.
    let by_value = if status { Omit::Never("\"0\"") } else { Omit::Absent };
    let source = |key: &str| metric.get(key).filter(|v| v.is_object());
    let object = source("object").map(|o| {
        go_object(&[
            ("target", Some(reference(&o["describedObject"])), Omit::Absent),
            ("metricName", text(o["metric"].get("name")), Omit::Never("\"\"")),
            (&value, text(o[values].get("value")), Omit::Never("\"0\"")),
            ("selector", selector(o["metric"].get("selector")), Omit::Absent),
            ("averageValue", text(o[values].get("averageValue")), Omit::Absent),
        ])
    });
    let pods = source("pods").map(|p| {
        go_object(&[
            ("metricName", text(p["metric"].get("name")), Omit::Never("\"\"")),
            (&average, text(p[values].get("averageValue")), Omit::Never("\"0\"")),
            ("selector", selector(p["metric"].get("selector")), Omit::Absent),
        ])
    });
    let resource = |r: &Value, container: bool| {
        go_object(&[
            ("name", text(r.get("name")), Omit::Never("\"\"")),
            (&utilization, text(r[values].get("averageUtilization")), Omit::Absent),
            (&average, text(r[values].get("averageValue")), by_value),
            (
                "container",
                text(r.get("container")).filter(|_| container),
                if container { Omit::Never("\"\"") } else { Omit::Absent },
            ),
        ])
    };
    let external = source("external").map(|e| {
        go_object(&[
            ("metricName", text(e["metric"].get("name")), Omit::Never("\"\"")),
            ("metricSelector", selector(e["metric"].get("selector")), Omit::Absent),
            (&value, text(e[values].get("value")), by_value),
            (&average, text(e[values].get("averageValue")), Omit::Absent),
        ])
    });
    go_object(&[
        ("type", text(metric.get("type")), Omit::Never("\"\"")),
        ("object", object, Omit::Absent),
        ("pods", pods, Omit::Absent),
        ("resource", source("resource").map(|r| resource(r, false)), Omit::Absent),
        (
            "containerResource",
            source("containerResource").map(|r| resource(r, true)),
            Omit::Absent,
        ),
        ("external", external, Omit::Absent),
    ])
}

/// Which half of an autoscaler a metric is of: its spec's targets or its status's
/// current values.
#[derive(Clone, Copy)]
enum Side {
    Spec,
    Status,
}

/// A condition as v1 writes it (its time is a struct: null when unset).
fn condition_to_v1(condition: &Value) -> String {
    go_object(&[
        ("type", text(condition.get("type")), Omit::Never("\"\"")),
        ("status", text(condition.get("status")), Omit::Never("\"\"")),
        (
            "lastTransitionTime",
            text(condition.get("lastTransitionTime")),
            Omit::Never("null"),
        ),
        ("reason", text(condition.get("reason")), Omit::Empty),
        ("message", text(condition.get("message")), Omit::Empty),
    ])
}

/// The behavior as the internal Go type writes it: no JSON names, nothing omitted.
fn behavior_to_internal(behavior: &Value) -> String {
    let rules = |rules: Option<&Value>| {
        rules.filter(|r| r.is_object()).map(|r| {
            let policies = r["policies"].as_array().map(|policies| {
                list(policies.iter().map(|p| {
                    go_object(&[
                        ("Type", text(p.get("type")), Omit::Never("\"\"")),
                        ("Value", text(p.get("value")), Omit::Never("0")),
                        ("PeriodSeconds", text(p.get("periodSeconds")), Omit::Never("0")),
                    ])
                }))
            });
            go_object(&[
                (
                    "StabilizationWindowSeconds",
                    text(r.get("stabilizationWindowSeconds")),
                    Omit::Never("null"),
                ),
                ("SelectPolicy", text(r.get("selectPolicy")), Omit::Never("null")),
                ("Policies", policies, Omit::Never("null")),
            ])
        })
    };
    go_object(&[
        ("ScaleUp", rules(behavior.get("scaleUp")), Omit::Never("null")),
        ("ScaleDown", rules(behavior.get("scaleDown")), Omit::Never("null")),
    ])
}

/// A field of a Go-decoded object: names match without regard to case.
fn go_field<'a>(object: &'a Value, name: &str) -> Option<&'a Value> {
    object
        .as_object()?
        .iter()
        .find(|(key, _)| key.eq_ignore_ascii_case(name))
        .map(|(_, value)| value)
        .filter(|value| !value.is_null())
}

/// Puts `value` at `key` when there is one.
fn put(map: &mut Map<String, Value>, key: &str, value: Option<&Value>) {
    if let Some(value) = value {
        map.insert(key.to_owned(), value.clone());
    }
}

fn identifier(object: &Value, name: &str, selector: &str) -> Value {
    let mut metric = Map::new();
    put(&mut metric, "name", Some(go_field(object, name).unwrap_or(&json!(""))));
    put(&mut metric, "selector", go_field(object, selector));
    Value::Object(metric)
}

fn described_object(object: &Value) -> Value {
    let reference = go_field(object, "target").cloned().unwrap_or_else(|| json!({}));
    let mut out = Map::new();
    for field in ["kind", "name"] {
        put(&mut out, field, Some(go_field(&reference, field).unwrap_or(&json!(""))));
    }
    put(
        &mut out,
        "apiVersion",
        go_field(&reference, "apiVersion").filter(|v| *v != ""),
    );
    Value::Object(out)
}

/// A target or current value: the type, then the values present.
fn target(kind: Option<&str>, values: &[(&str, Option<&Value>)]) -> Value {
    let mut out = Map::new();
    if let Some(kind) = kind {
        out.insert("type".into(), json!(kind));
    }
    for (key, value) in values {
        put(&mut out, key, *value);
    }
    Value::Object(out)
}

/// `Convert_v1_MetricSpec_To_autoscaling_MetricSpec`.
fn metric_from_v1(metric: &Value) -> Value {
    let mut out = Map::new();
    put(&mut out, "type", Some(go_field(metric, "type").unwrap_or(&json!(""))));
    let zero = json!("0");
    if let Some(o) = go_field(metric, "object") {
        let average = go_field(o, "averageValue");
        let kind = if average.is_none() { "Value" } else { "AverageValue" };
        let value = go_field(o, "targetValue").unwrap_or(&zero);
        out.insert(
            "object".into(),
            json!({
                "describedObject": described_object(o),
                "metric": identifier(o, "metricName", "selector"),
                "target": target(Some(kind), &[("value", Some(value)), ("averageValue", average)]),
            }),
        );
    }
    if let Some(p) = go_field(metric, "pods") {
        let average = go_field(p, "targetAverageValue").unwrap_or(&zero);
        out.insert(
            "pods".into(),
            json!({
                "metric": identifier(p, "metricName", "selector"),
                "target": target(Some("AverageValue"), &[("averageValue", Some(average))]),
            }),
        );
    }
    for key in ["resource", "containerResource"] {
        if let Some(r) = go_field(metric, key) {
            let utilization = go_field(r, "targetAverageUtilization");
            let kind = if utilization.is_none() {
                "AverageValue"
            } else {
                "Utilization"
            };
            let mut source = Map::new();
            put(&mut source, "name", Some(go_field(r, "name").unwrap_or(&json!(""))));
            if key == "containerResource" {
                put(
                    &mut source,
                    "container",
                    Some(go_field(r, "container").unwrap_or(&json!(""))),
                );
            }
            source.insert(
                "target".into(),
                target(
                    Some(kind),
                    &[
                        ("averageValue", go_field(r, "targetAverageValue")),
                        ("averageUtilization", utilization),
                    ],
                ),
            );
            out.insert(key.into(), Value::Object(source));
        }
    }
    if let Some(e) = go_field(metric, "external") {
        let value = go_field(e, "targetValue");
        let kind = if value.is_none() { "AverageValue" } else { "Value" };
        out.insert(
            "external".into(),
            json!({
                "metric": identifier(e, "metricName", "metricSelector"),
                "target": target(Some(kind), &[("value", value), ("averageValue", go_field(e, "targetAverageValue"))]),
            }),
        );
    }
    Value::Object(out)
}

/// `Convert_v1_MetricStatus_To_autoscaling_MetricStatus`.
fn status_from_v1(metric: &Value) -> Value {
    let mut out = Map::new();
    put(&mut out, "type", Some(go_field(metric, "type").unwrap_or(&json!(""))));
    let zero = json!("0");
    if let Some(o) = go_field(metric, "object") {
        let value = go_field(o, "currentValue").unwrap_or(&zero);
        out.insert(
            "object".into(),
            json!({
                "describedObject": described_object(o),
                "metric": identifier(o, "metricName", "selector"),
                "current": target(None, &[("value", Some(value)), ("averageValue", go_field(o, "averageValue"))]),
            }),
        );
    }
    if let Some(p) = go_field(metric, "pods") {
        let average = go_field(p, "currentAverageValue").unwrap_or(&zero);
        out.insert(
            "pods".into(),
            json!({
                "metric": identifier(p, "metricName", "selector"),
                "current": target(None, &[("averageValue", Some(average))]),
            }),
        );
    }
    for key in ["resource", "containerResource"] {
        if let Some(r) = go_field(metric, key) {
            let average = go_field(r, "currentAverageValue").unwrap_or(&zero);
            let mut source = Map::new();
            put(&mut source, "name", Some(go_field(r, "name").unwrap_or(&json!(""))));
            if key == "containerResource" {
                put(
                    &mut source,
                    "container",
                    Some(go_field(r, "container").unwrap_or(&json!(""))),
                );
            }
            source.insert(
                "current".into(),
                target(
                    None,
                    &[
                        ("averageValue", Some(average)),
                        ("averageUtilization", go_field(r, "currentAverageUtilization")),
                    ],
                ),
            );
            out.insert(key.into(), Value::Object(source));
        }
    }
    if let Some(e) = go_field(metric, "external") {
        let value = go_field(e, "currentValue").unwrap_or(&zero);
        out.insert("external".into(), json!({
            "metric": identifier(e, "metricName", "metricSelector"),
            "current": target(None, &[("value", Some(value)), ("averageValue", go_field(e, "currentAverageValue"))]),
        }));
    }
    Value::Object(out)
}

/// The behavior from its internal Go encoding (names in any case), unless empty.
fn behavior_from_internal(behavior: &Value) -> Option<Value> {
    let rules = |rules: &Value| {
        let mut out = Map::new();
        put(
            &mut out,
            "stabilizationWindowSeconds",
            go_field(rules, "stabilizationWindowSeconds"),
        );
        put(&mut out, "selectPolicy", go_field(rules, "selectPolicy"));
        if let Some(policies) = go_field(rules, "policies").and_then(Value::as_array) {
            let policies = policies
                .iter()
                .map(|p| {
                    json!({
                        "type": go_field(p, "type").cloned().unwrap_or_else(|| json!("")),
                        "value": go_field(p, "value").cloned().unwrap_or_else(|| json!(0)),
                        "periodSeconds": go_field(p, "periodSeconds").cloned().unwrap_or_else(|| json!(0)),
                    })
                })
                .collect();
            out.insert("policies".into(), Value::Array(policies));
        }
        Value::Object(out)
    };
    let mut out = Map::new();
    for (key, name) in [("scaleUp", "ScaleUp"), ("scaleDown", "ScaleDown")] {
        if let Some(found) = go_field(behavior, name).filter(|r| r.is_object()) {
            out.insert(key.into(), rules(found));
        }
    }
    (!out.is_empty()).then_some(Value::Object(out))
}

/// `DropRoundTripHorizontalPodAutoscalerAnnotations`: the four annotations removed
/// (and the annotations with them when nothing else is left); what they held.
fn drop_round_trip_annotations(object: &mut Value) -> [Option<String>; 4] {
    let mut taken = [None, None, None, None];
    let Some(annotations) = object
        .get_mut("metadata")
        .and_then(|m| m.get_mut("annotations"))
        .and_then(Value::as_object_mut)
    else {
        return taken;
    };
    for (slot, key) in taken.iter_mut().zip([METRICS, BEHAVIOR, CURRENT_METRICS, CONDITIONS]) {
        *slot = annotations.remove(key).and_then(|v| v.as_str().map(str::to_owned));
    }
    if annotations.is_empty()
        && let Some(metadata) = object["metadata"].as_object_mut()
    {
        metadata.remove("annotations");
    }
    taken
}

fn annotate(object: &mut Value, key: &str, text: &str) {
    let Some(metadata) = object.get_mut("metadata").and_then(Value::as_object_mut) else {
        return;
    };
    let annotations = metadata.entry("annotations").or_insert_with(|| json!({}));
    if !annotations.is_object() {
        *annotations = json!({});
    }
    annotations[key] = json!(text);
}

/// Whether a v2 metric is a CPU utilization (`target` or `current`).
fn is_cpu_utilization(metric: &Value, target: &str) -> bool {
    metric["type"] == "Resource"
        && metric["resource"]["name"] == "cpu"
        && metric["resource"][target]["averageUtilization"].is_i64()
}

/// Removes `object.field.key` (without creating `field` when it is absent).
fn remove(object: &mut Value, field: &str, key: &str) -> Option<Value> {
    object.get_mut(field)?.as_object_mut()?.remove(key)
}

fn array(value: Option<Value>) -> Vec<Value> {
    match value {
        Some(Value::Array(items)) => items,
        _ => Vec::new(),
    }
}

/// A stored (v2) autoscaler as `autoscaling/v1` shows it.
pub fn to_v1(mut object: Value) -> Value {
    drop_round_trip_annotations(&mut object);
    let metrics = array(remove(&mut object, "spec", "metrics"));
    let behavior = remove(&mut object, "spec", "behavior").filter(Value::is_object);
    if let Some(cpu) = metrics.iter().find(|m| is_cpu_utilization(m, "target")) {
        object["spec"]["targetCPUUtilizationPercentage"] = cpu["resource"]["target"]["averageUtilization"].clone();
    }
    let others: Vec<&Value> = metrics.iter().filter(|m| !is_cpu_utilization(m, "target")).collect();
    let current = array(remove(&mut object, "status", "currentMetrics"));
    let conditions = array(remove(&mut object, "status", "conditions"));
    if let Some(status) = object.get_mut("status").and_then(Value::as_object_mut) {
        // v1's status writes its replica counts even at zero.
        status.entry("currentReplicas").or_insert_with(|| json!(0));
        status.entry("desiredReplicas").or_insert_with(|| json!(0));
        let cpu = current
            .iter()
            .rfind(|m| is_cpu_utilization(m, "current"))
            .map(|m| m["resource"]["current"]["averageUtilization"].clone());
        if let Some(cpu) = cpu {
            status.insert("currentCPUUtilizationPercentage".into(), cpu);
        }
    }
    if !others.is_empty() {
        annotate(
            &mut object,
            METRICS,
            &list(others.into_iter().map(|m| metric_to_v1(m, Side::Spec))),
        );
    }
    if !current.is_empty() {
        annotate(
            &mut object,
            CURRENT_METRICS,
            &list(current.iter().map(|m| metric_to_v1(m, Side::Status))),
        );
    }
    if let Some(behavior) = behavior {
        annotate(&mut object, BEHAVIOR, &behavior_to_internal(&behavior));
    }
    if !conditions.is_empty() {
        annotate(&mut object, CONDITIONS, &list(conditions.iter().map(condition_to_v1)));
    }
    object
}

/// An `autoscaling/v1` autoscaler as stored (v2).
pub fn from_v1(mut object: Value) -> Value {
    let [metrics, behavior, current, conditions] = drop_round_trip_annotations(&mut object);
    let decoded = |text: Option<String>| text.and_then(|t| serde_json::from_str::<Value>(&t).ok());
    let mut spec_metrics: Vec<Value> = Vec::new();
    if let Some(Value::Array(others)) = decoded(metrics) {
        spec_metrics.extend(others.iter().map(metric_from_v1));
    }
    if let Some(target) = remove(&mut object, "spec", "targetCPUUtilizationPercentage").filter(|t| !t.is_null()) {
        spec_metrics.push(cpu_target(&target));
    }
    if spec_metrics.is_empty() {
        spec_metrics.push(cpu_target(&json!(DEFAULT_CPU_UTILIZATION)));
    }
    if object["spec"].is_object() {
        object["spec"]["metrics"] = json!(spec_metrics);
        if let Some(behavior) = decoded(behavior).as_ref().and_then(behavior_from_internal) {
            object["spec"]["behavior"] = behavior;
        }
    }
    let cpu = remove(&mut object, "status", "currentCPUUtilizationPercentage").filter(|c| !c.is_null());
    if let Some(status) = object.get_mut("status").and_then(Value::as_object_mut) {
        match decoded(current) {
            Some(Value::Array(current)) => {
                status.insert("currentMetrics".into(), current.iter().map(status_from_v1).collect());
            }
            _ => {
                if let Some(cpu) = cpu {
                    status.insert(
                        "currentMetrics".into(),
                        json!([{"type": "Resource", "resource": {"name": "cpu", "current": {"averageUtilization": cpu}}}]),
                    );
                }
            }
        }
        if let Some(Value::Array(conditions)) = decoded(conditions) {
            let conditions: Vec<Value> = conditions.iter().map(condition_from_v1).collect();
            status.insert("conditions".into(), Value::Array(conditions));
        }
    }
    object
}

fn cpu_target(utilization: &Value) -> Value {
    json!({"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": utilization}}})
}

fn condition_from_v1(condition: &Value) -> Value {
    let mut out = Map::new();
    for field in ["type", "status", "lastTransitionTime", "reason", "message"] {
        put(&mut out, field, go_field(condition, field));
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v2_autoscalers_round_trip_through_v1() {
        let v2 = json!({"metadata": {"name": "web"}, "spec": {
            "scaleTargetRef": {"kind": "Deployment", "name": "web"}, "minReplicas": 1, "maxReplicas": 5,
            "metrics": [
                {"type": "Pods", "pods": {"metric": {"name": "qps"}, "target": {"type": "AverageValue", "averageValue": "10"}}},
                {"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}},
            ],
            "behavior": {"scaleDown": {"stabilizationWindowSeconds": 60, "selectPolicy": "Max",
                "policies": [{"type": "Percent", "value": 100, "periodSeconds": 15}]}},
        }, "status": {"currentReplicas": 2, "desiredReplicas": 2,
            "currentMetrics": [{"type": "Resource", "resource": {"name": "cpu", "current": {"averageUtilization": 40, "averageValue": "100m"}}}],
            "conditions": [{"type": "AbleToScale", "status": "True", "lastTransitionTime": "2026-01-01T00:00:00Z", "reason": "Ready"}]}});
        let v1 = to_v1(v2.clone());
        assert_eq!(v1["spec"]["targetCPUUtilizationPercentage"], 70);
        assert!(v1["spec"].get("metrics").is_none());
        assert_eq!(v1["status"]["currentCPUUtilizationPercentage"], 40);
        let annotations = &v1["metadata"]["annotations"];
        assert_eq!(
            annotations[METRICS],
            r#"[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]"#
        );
        assert_eq!(
            annotations[CURRENT_METRICS],
            r#"[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":40,"currentAverageValue":"100m"}}]"#
        );
        assert_eq!(
            annotations[BEHAVIOR],
            r#"{"ScaleUp":null,"ScaleDown":{"StabilizationWindowSeconds":60,"SelectPolicy":"Max","Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}]}}"#
        );
        assert_eq!(
            annotations[CONDITIONS],
            r#"[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z","reason":"Ready"}]"#
        );
        // Back: the other metrics first, then the CPU target, as kube orders them.
        assert_eq!(from_v1(v1), v2);
    }

    #[test]
    fn a_v1_autoscaler_without_metrics_targets_80_percent_cpu_and_writes_no_empty_annotation() {
        let plain = json!({"metadata": {"name": "a"}, "spec": {"maxReplicas": 3}, "status": {"desiredReplicas": 0}});
        let stored = from_v1(plain);
        assert_eq!(stored["spec"]["metrics"], json!([cpu_target(&json!(80))]));
        let v1 = to_v1(stored);
        assert_eq!(v1["spec"]["targetCPUUtilizationPercentage"], 80);
        assert!(v1["metadata"].get("annotations").is_none(), "{v1}");
        assert_eq!(v1["status"], json!({"currentReplicas": 0, "desiredReplicas": 0}));
    }

    /// A status's value fields are written even at zero, a spec's pointers left out.
    #[test]
    fn a_status_writes_its_values_where_a_spec_leaves_them_out() {
        let external = |side: &str| json!({"type": "External", "external": {"metric": {"name": "q"}, side: {"averageValue": "3"}}});
        assert_eq!(
            metric_to_v1(&external("target"), Side::Spec),
            r#"{"type":"External","external":{"metricName":"q","targetAverageValue":"3"}}"#
        );
        assert_eq!(
            metric_to_v1(&external("current"), Side::Status),
            r#"{"type":"External","external":{"metricName":"q","currentValue":"0","currentAverageValue":"3"}}"#
        );
    }

    #[test]
    fn annotations_are_read_back_as_go_reads_them() {
        let v1 = json!({"metadata": {"name": "a", "annotations": {
            METRICS: r#"[{"TYPE":"External","external":{"metricName":"queue","targetAverageValue":"5"}}]"#,
            BEHAVIOR: "not json",
            "keep": "me",
        }}, "spec": {"maxReplicas": 3}});
        let stored = from_v1(v1);
        assert_eq!(
            stored["spec"]["metrics"],
            json!([{"type": "External", "external": {"metric": {"name": "queue"},
                "target": {"type": "AverageValue", "averageValue": "5"}}}])
        );
        assert!(stored["spec"].get("behavior").is_none());
        assert_eq!(stored["metadata"]["annotations"], json!({"keep": "me"}));
    }
}
