//! `autoscaling/v1` and `autoscaling/v2` autoscalers are one store: v2
//! objects, seen at v1 with the CPU utilization target as
//! `targetCPUUtilizationPercentage` and what v1 cannot say (other metrics, behavior,
//! current metrics, conditions) kept in annotations, so that a v1 client's update
//! loses nothing. kube-apiserver: `pkg/apis/autoscaling/v1/conversion.go` (it keeps the
//! same annotations, with v1's older metric shape inside; here they hold v2's).

use serde_json::{Value, json};

const METRICS: &str = "autoscaling.alpha.kubernetes.io/metrics";
const CURRENT_METRICS: &str = "autoscaling.alpha.kubernetes.io/current-metrics";
const CONDITIONS: &str = "autoscaling.alpha.kubernetes.io/conditions";
const BEHAVIOR: &str = "autoscaling.alpha.kubernetes.io/behavior";

/// Whether a v2 metric is the CPU utilization target v1 has a field for.
fn is_cpu_utilization(metric: &Value, target: &str) -> bool {
    metric["type"] == "Resource"
        && metric["resource"]["name"] == "cpu"
        && metric["resource"][target]["averageUtilization"].is_i64()
}

fn annotate(object: &mut Value, key: &str, value: &Value) {
    if !object["metadata"]["annotations"].is_object() {
        object["metadata"]["annotations"] = json!({});
    }
    object["metadata"]["annotations"][key] = json!(value.to_string());
}

/// Removes an annotation and returns the JSON it held.
fn take_annotation(object: &mut Value, key: &str) -> Option<Value> {
    let annotations = object
        .get_mut("metadata")
        .and_then(|m| m.get_mut("annotations"))
        .and_then(Value::as_object_mut)?;
    let text = annotations.remove(key)?;
    if annotations.is_empty()
        && let Some(metadata) = object["metadata"].as_object_mut()
    {
        metadata.remove("annotations");
    }
    serde_json::from_str(text.as_str()?).ok()
}

/// Removes `object.field.key` (without creating `field` when it is absent).
fn remove(object: &mut Value, field: &str, key: &str) -> Option<Value> {
    object.get_mut(field)?.as_object_mut()?.remove(key)
}

/// A stored (v2) autoscaler as `autoscaling/v1` shows it.
pub(super) fn to_v1(mut object: Value) -> Value {
    let metrics: Vec<Value> = remove(&mut object, "spec", "metrics")
        .and_then(|m| m.as_array().cloned())
        .unwrap_or_default();
    let (cpu, others): (Vec<Value>, Vec<Value>) = metrics.into_iter().partition(|m| is_cpu_utilization(m, "target"));
    if let Some(cpu) = cpu.first() {
        object["spec"]["targetCPUUtilizationPercentage"] = cpu["resource"]["target"]["averageUtilization"].clone();
    }
    if !others.is_empty() {
        annotate(&mut object, METRICS, &json!(others));
    }
    if let Some(behavior) = remove(&mut object, "spec", "behavior") {
        annotate(&mut object, BEHAVIOR, &behavior);
    }
    if object["status"].is_object() {
        if let Some(current) = remove(&mut object, "status", "currentMetrics") {
            let cpu = current
                .as_array()
                .into_iter()
                .flatten()
                .find(|m| is_cpu_utilization(m, "current"))
                .map(|m| m["resource"]["current"]["averageUtilization"].clone());
            if let Some(cpu) = cpu {
                object["status"]["currentCPUUtilizationPercentage"] = cpu;
            }
            annotate(&mut object, CURRENT_METRICS, &current);
        }
        if let Some(conditions) = remove(&mut object, "status", "conditions") {
            annotate(&mut object, CONDITIONS, &conditions);
        }
    }
    object
}

/// An `autoscaling/v1` autoscaler as stored (v2).
pub(super) fn from_v1(mut object: Value) -> Value {
    let mut metrics = Vec::new();
    if let Some(target) = remove(&mut object, "spec", "targetCPUUtilizationPercentage") {
        metrics.push(json!({"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": target}}}));
    }
    if let Some(Value::Array(others)) = take_annotation(&mut object, METRICS) {
        metrics.extend(others);
    }
    if !metrics.is_empty() {
        object["spec"]["metrics"] = json!(metrics);
    }
    if let Some(behavior) = take_annotation(&mut object, BEHAVIOR) {
        object["spec"]["behavior"] = behavior;
    }
    let current = take_annotation(&mut object, CURRENT_METRICS);
    let conditions = take_annotation(&mut object, CONDITIONS);
    if object["status"].is_object() {
        let cpu = remove(&mut object, "status", "currentCPUUtilizationPercentage");
        match (current, cpu) {
            (Some(current), _) => object["status"]["currentMetrics"] = current,
            (None, Some(cpu)) => {
                object["status"]["currentMetrics"] =
                    json!([{"type": "Resource", "resource": {"name": "cpu", "current": {"averageUtilization": cpu}}}]);
            }
            (None, None) => {}
        }
        if let Some(conditions) = conditions {
            object["status"]["conditions"] = conditions;
        }
    }
    object
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v2_autoscalers_round_trip_through_v1() {
        let v2 = json!({"metadata": {"name": "web"}, "spec": {
            "scaleTargetRef": {"kind": "Deployment", "name": "web"}, "minReplicas": 1, "maxReplicas": 5,
            "metrics": [
                {"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 70}}},
                {"type": "Pods", "pods": {"metric": {"name": "qps"}, "target": {"type": "AverageValue", "averageValue": "10"}}},
            ],
            "behavior": {"scaleDown": {"stabilizationWindowSeconds": 60}},
        }, "status": {"currentReplicas": 2, "desiredReplicas": 2,
            "currentMetrics": [{"type": "Resource", "resource": {"name": "cpu", "current": {"averageUtilization": 40}}}],
            "conditions": [{"type": "AbleToScale", "status": "True"}]}});
        let v1 = to_v1(v2.clone());
        assert_eq!(v1["spec"]["targetCPUUtilizationPercentage"], 70);
        assert!(v1["spec"].get("metrics").is_none());
        assert_eq!(v1["status"]["currentCPUUtilizationPercentage"], 40);
        assert!(v1["metadata"]["annotations"][METRICS].is_string());
        assert_eq!(from_v1(v1), v2);
        let plain =
            json!({"metadata": {"name": "a"}, "spec": {"maxReplicas": 3, "targetCPUUtilizationPercentage": 50}});
        let stored = from_v1(plain.clone());
        assert_eq!(
            stored["spec"]["metrics"][0]["resource"]["target"]["averageUtilization"],
            50
        );
        assert_eq!(to_v1(stored), plain);
    }
}
