//! The validation of the `autoscaling` API group's kinds
//! (`pkg/apis/autoscaling/validation`): `HorizontalPodAutoscalers`, read as kube's
//! internal type (v2's shape) whichever version was written — an autoscaling/v1
//! object's CPU target and the metrics and behavior it keeps in annotations are
//! converted as `pkg/apis/autoscaling/v1/conversion.go` converts them ([`conversion`],
//! which the server's store uses too) — with v2's
//! defaults for what the object leaves out (`pkg/apis/autoscaling/v2/defaults.go`).

pub mod conversion;

use serde_json::{Value, json};
use wheelhouse_envtest_schema::Quantity;

use crate::common::fields::{nonnegative, validate_dns1123_label};
use crate::common::go_syntax::{quantity, raw};
use crate::common::names::{name_is_dns_subdomain, path_segment_name};
use crate::common::read::{int, is_set, items, opt_int, opt_text, text};
use crate::core::{validate_object_meta, validate_object_meta_update};
use crate::field::{ErrorList, Path};
use crate::{Kind, Write};

/// The longest scaling policy period (`MaxPeriodSeconds`).
const MAX_PERIOD_SECONDS: i64 = 1800;
/// The longest stabilization window (`MaxStabilizationWindowSeconds`).
const MAX_STABILIZATION_WINDOW_SECONDS: i64 = 3600;

/// The errors in `object`, an `autoscaling` kind written as `write` says.
pub(crate) fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    if kind.kind != "HorizontalPodAutoscaler" {
        return ErrorList::new();
    }
    let spec = internal_spec(kind, object);
    let metadata = Path::new("metadata");
    let spec_path = Path::new("spec");
    match write {
        Write::Create => {
            // Autoscalers share the ReplicationController's name rule; scale to zero is
            // the `HPAScaleToZero` gate's, off in 1.32.
            let mut errors = validate_object_meta(&object["metadata"], true, name_is_dns_subdomain, &metadata);
            errors.extend(validate_spec(&spec, &spec_path, 1));
            errors
        }
        Write::Update { old } => {
            // `ValidateHorizontalPodAutoscalerUpdate`: an autoscaler already at zero
            // may stay there.
            let mut errors = validate_object_meta_update(&object["metadata"], &old["metadata"], &metadata);
            let lower = i64::from(opt_int(&internal_spec(kind, old)["minReplicas"]) != Some(0));
            errors.extend(validate_spec(&spec, &spec_path, lower));
            errors
        }
        Write::Subresource { name: "status", old } => {
            // `ValidateHorizontalPodAutoscalerStatusUpdate`.
            let mut errors = validate_object_meta_update(&object["metadata"], &old["metadata"], &metadata);
            let status = &object["status"];
            for field in ["currentReplicas", "desiredReplicas"] {
                errors.extend(nonnegative(int(&status[field]), &Path::from_parts(&["status", field])));
            }
            errors
        }
        Write::Subresource { .. } => ErrorList::new(),
    }
}

/// The spec as kube's internal type holds it: v1 converted (with its round-trip
/// annotations, as [`conversion::from_v1`] reads them), v2's defaults filled.
fn internal_spec(kind: &Kind, object: &Value) -> Value {
    let mut spec = if kind.version == "v1" {
        conversion::from_v1(object.clone())["spec"].take()
    } else {
        object["spec"].clone()
    };
    if !spec.is_object() {
        spec = json!({});
    }
    if items(&spec["metrics"]).is_empty() {
        spec["metrics"] = json!([{"type": "Resource", "resource": {"name": "cpu",
            "target": {"type": "Utilization", "averageUtilization": 80}}}]);
    }
    if spec["minReplicas"].is_null() {
        spec["minReplicas"] = json!(1);
    }
    spec
}

/// `validateHorizontalPodAutoscalerSpec`.
fn validate_spec(spec: &Value, path: &Path, min_replicas_lower_bound: i64) -> ErrorList {
    let mut errors = ErrorList::new();
    let min = opt_int(&spec["minReplicas"]);
    let max = int(&spec["maxReplicas"]);
    if let Some(min) = min.filter(|m| *m < min_replicas_lower_bound) {
        errors.push(path.child("minReplicas").invalid(
            &Value::from(min),
            &format!("must be greater than or equal to {min_replicas_lower_bound}"),
        ));
    }
    if max < 1 {
        errors.push(
            path.child("maxReplicas")
                .invalid(&Value::from(max), "must be greater than 0"),
        );
    }
    if min.is_some_and(|min| max < min) {
        errors.push(
            path.child("maxReplicas")
                .invalid(&Value::from(max), "must be greater than or equal to `minReplicas`"),
        );
    }
    errors.extend(validate_cross_version_object_reference(
        &spec["scaleTargetRef"],
        &path.child("scaleTargetRef"),
    ));
    errors.extend(validate_metrics(items(&spec["metrics"]), &path.child("metrics"), min));
    let behavior = &spec["behavior"];
    if is_set(behavior) {
        let behavior_path = path.child("behavior");
        errors.extend(validate_scaling_rules(
            &behavior["scaleUp"],
            &behavior_path.child("scaleUp"),
        ));
        errors.extend(validate_scaling_rules(
            &behavior["scaleDown"],
            &behavior_path.child("scaleDown"),
        ));
    }
    errors
}

/// `ValidateCrossVersionObjectReference`: a kind and a name, each a path segment.
fn validate_cross_version_object_reference(reference: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    for field in ["kind", "name"] {
        let value = text(&reference[field]);
        if value.is_empty() {
            errors.push(path.child(field).required(""));
        } else {
            for message in path_segment_name(value) {
                errors.push(path.child(field).invalid(value, &message));
            }
        }
    }
    errors
}

/// `validateMetrics`: each metric, and an Object or External one to scale to zero.
fn validate_metrics(metrics: &[Value], path: &Path, min_replicas: Option<i64>) -> ErrorList {
    let mut errors = ErrorList::new();
    let mut scales_to_zero = false;
    for (index, metric) in metrics.iter().enumerate() {
        errors.extend(validate_metric_spec(metric, &path.index(index)));
        scales_to_zero |= matches!(text(&metric["type"]), "Object" | "External");
    }
    if min_replicas == Some(0) && !scales_to_zero {
        errors.push(
            path.forbidden("must specify at least one Object or External metric to support scaling to zero replicas"),
        );
    }
    errors
}

/// `validScalingRules`' rules: a window and a select policy within bounds, and at
/// least one policy. A rule set the object leaves out is v2's default, and a field of
/// one it gives in part is filled from the default (`GenerateHPAScale*Rules`).
fn validate_scaling_rules(rules: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if !is_set(rules) {
        return errors;
    }
    if let Some(window) = opt_int(&rules["stabilizationWindowSeconds"]) {
        let window_path = path.child("stabilizationWindowSeconds");
        if window < 0 {
            errors.push(window_path.invalid(&Value::from(window), "must be greater than or equal to zero"));
        }
        if window > MAX_STABILIZATION_WINDOW_SECONDS {
            errors.push(window_path.invalid(
                &Value::from(window),
                &format!("must be less than or equal to {MAX_STABILIZATION_WINDOW_SECONDS}"),
            ));
        }
    }
    if let Some(policy) = opt_text(&rules["selectPolicy"])
        && !matches!(policy, "Max" | "Min" | "Disabled")
    {
        errors.push(
            path.child("selectPolicy")
                .not_supported(policy, &["Disabled", "Max", "Min"]),
        );
    }
    let policies_path = path.child("policies");
    if rules["policies"].as_array().is_some_and(Vec::is_empty) {
        errors.push(policies_path.required("must specify at least one Policy"));
    }
    for (index, policy) in items(&rules["policies"]).iter().enumerate() {
        errors.extend(validate_scaling_policy(policy, &policies_path.index(index)));
    }
    errors
}

/// `validateScalingPolicy`.
fn validate_scaling_policy(policy: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let kind = text(&policy["type"]);
    if kind != "Pods" && kind != "Percent" {
        errors.push(path.child("type").not_supported(kind, &["Percent", "Pods"]));
    }
    let value = int(&policy["value"]);
    if value <= 0 {
        errors.push(
            path.child("value")
                .invalid(&Value::from(value), "must be greater than zero"),
        );
    }
    let period = int(&policy["periodSeconds"]);
    if period <= 0 {
        errors.push(
            path.child("periodSeconds")
                .invalid(&Value::from(period), "must be greater than zero"),
        );
    }
    if period > MAX_PERIOD_SECONDS {
        errors.push(path.child("periodSeconds").invalid(
            &Value::from(period),
            &format!("must be less than or equal to {MAX_PERIOD_SECONDS}"),
        ));
    }
    errors
}

/// The metric source types, sorted as `sets.List` returns them.
const METRIC_SOURCE_TYPES: [&str; 5] = ["ContainerResource", "External", "Object", "Pods", "Resource"];

/// `validateMetricSpec`: a known type, its source given, and no other source.
fn validate_metric_spec(metric: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let kind = text(&metric["type"]);
    if kind.is_empty() {
        errors.push(path.child("type").required("must specify a metric source type"));
    }
    if !METRIC_SOURCE_TYPES.contains(&kind) {
        errors.push(path.child("type").not_supported(kind, &METRIC_SOURCE_TYPES));
    }
    // Only the first source present is validated, in Go's order.
    let sources = ["object", "external", "pods", "resource", "containerResource"];
    let present: Vec<&str> = sources.iter().copied().filter(|s| is_set(&metric[*s])).collect();
    if let Some(first) = present.first() {
        let source = &metric[*first];
        let source_path = path.child(first);
        errors.extend(match *first {
            "object" => validate_object_source(source, &source_path),
            "external" => validate_external_source(source, &source_path),
            "pods" => validate_pods_source(source, &source_path),
            "resource" => validate_resource_source(source, &source_path),
            _ => validate_container_resource_source(source, &source_path),
        });
    }
    let expected = match kind {
        "Object" => "object",
        "Pods" => "pods",
        "Resource" => "resource",
        "External" => "external",
        "ContainerResource" => "containerResource",
        _ => {
            errors.push(path.child("type").not_supported(kind, &METRIC_SOURCE_TYPES));
            ""
        }
    };
    if !expected.is_empty() && !is_set(&metric[expected]) {
        errors.push(
            path.child(expected)
                .required("must populate information for the given metric source"),
        );
    }
    if present.len() != 1 {
        for source in present.iter().filter(|s| **s != expected) {
            errors.push(
                path.child(source)
                    .forbidden("must populate the given metric source only"),
            );
        }
    }
    errors
}

/// `validateObjectSource`.
fn validate_object_source(source: &Value, path: &Path) -> ErrorList {
    let mut errors =
        validate_cross_version_object_reference(&source["describedObject"], &path.child("describedObject"));
    errors.extend(validate_metric_identifier(&source["metric"], &path.child("metric")));
    let target = &source["target"];
    errors.extend(validate_metric_target(target, &path.child("target")));
    if !is_set(&target["value"]) && !is_set(&target["averageValue"]) {
        errors.push(
            path.child("target")
                .child("averageValue")
                .required("must set either a target value or averageValue"),
        );
    }
    errors
}

/// `validateExternalSource`.
fn validate_external_source(source: &Value, path: &Path) -> ErrorList {
    let mut errors = validate_metric_identifier(&source["metric"], &path.child("metric"));
    let target = &source["target"];
    errors.extend(validate_metric_target(target, &path.child("target")));
    let (value, average) = (is_set(&target["value"]), is_set(&target["averageValue"]));
    if !value && !average {
        errors.push(
            path.child("target")
                .child("averageValue")
                .required("must set either a target value for metric or a per-pod target"),
        );
    }
    if value && average {
        errors.push(
            path.child("target")
                .child("value")
                .forbidden("may not set both a target value for metric and a per-pod target"),
        );
    }
    errors
}

/// `validatePodsSource`.
fn validate_pods_source(source: &Value, path: &Path) -> ErrorList {
    let mut errors = validate_metric_identifier(&source["metric"], &path.child("metric"));
    let target = &source["target"];
    errors.extend(validate_metric_target(target, &path.child("target")));
    if !is_set(&target["averageValue"]) {
        errors.push(
            path.child("target")
                .child("averageValue")
                .required("must specify a positive target averageValue"),
        );
    }
    errors
}

/// `validateContainerResourceSource`.
fn validate_container_resource_source(source: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let name = text(&source["name"]);
    if name.is_empty() {
        errors.push(path.child("name").required("must specify a resource name"));
    } else {
        errors.extend(crate::common::resources::validate_container_resource_name(
            name,
            &path.child("name"),
        ));
    }
    let container = text(&source["container"]);
    if container.is_empty() {
        errors.push(path.child("container").required("must specify a container"));
    } else {
        errors.extend(validate_dns1123_label(container, &path.child("container")));
    }
    errors.extend(validate_utilization_target(&source["target"], path));
    errors
}

/// `validateResourceSource`.
fn validate_resource_source(source: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    if text(&source["name"]).is_empty() {
        errors.push(path.child("name").required("must specify a resource name"));
    }
    errors.extend(validate_utilization_target(&source["target"], path));
    errors
}

/// The target rules resource sources share: one of a utilization or a raw value.
fn validate_utilization_target(target: &Value, path: &Path) -> ErrorList {
    let mut errors = validate_metric_target(target, &path.child("target"));
    let (utilization, average) = (is_set(&target["averageUtilization"]), is_set(&target["averageValue"]));
    if !utilization && !average {
        errors.push(
            path.child("target")
                .child("averageUtilization")
                .required("must set either a target raw value or a target utilization"),
        );
    }
    if utilization && average {
        errors.push(
            path.child("target")
                .child("averageValue")
                .forbidden("may not set both a target raw value and a target utilization"),
        );
    }
    errors
}

/// `validateMetricTarget`.
fn validate_metric_target(target: &Value, path: &Path) -> ErrorList {
    let mut errors = ErrorList::new();
    let kind = text(&target["type"]);
    if kind.is_empty() {
        errors.push(path.child("type").required("must specify a metric target type"));
    }
    if !matches!(kind, "Utilization" | "Value" | "AverageValue") {
        errors.push(
            path.child("type")
                .invalid(kind, "must be either Utilization, Value, or AverageValue"),
        );
    }
    for field in ["value", "averageValue"] {
        if let Some(amount) = opt_text(&target[field])
            && !is_positive(amount)
        {
            errors.push(path.child(field).invalid(raw(quantity(amount)), "must be positive"));
        }
    }
    if let Some(utilization) = opt_int(&target["averageUtilization"]).filter(|u| *u < 1) {
        errors.push(
            path.child("averageUtilization")
                .invalid(&Value::from(utilization), "must be greater than 0"),
        );
    }
    errors
}

/// `Quantity.Sign() == 1`.
fn is_positive(amount: &str) -> bool {
    match (Quantity::parse(amount), Quantity::parse("0")) {
        (Ok(amount), Ok(zero)) => amount > zero,
        _ => false,
    }
}

/// `validateMetricIdentifier`.
fn validate_metric_identifier(identifier: &Value, path: &Path) -> ErrorList {
    let name = text(&identifier["name"]);
    if name.is_empty() {
        return vec![path.child("name").required("must specify a metric name")];
    }
    path_segment_name(name)
        .iter()
        .map(|message| path.child("name").invalid(name, message))
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::Write;
    use crate::testing::errors;

    fn autoscaler(spec: &Value) -> Value {
        let mut object = json!({"metadata": {"name": "h"}, "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "web"}, "maxReplicas": 3}});
        for (key, value) in spec.as_object().into_iter().flatten() {
            object["spec"][key] = value.clone();
        }
        object
    }

    #[test]
    fn scale_to_zero_is_gated_off() {
        let zero = autoscaler(&json!({"minReplicas": 0}));
        assert_eq!(
            errors("autoscaling", "v2", "HorizontalPodAutoscaler", &zero, Write::Create),
            [
                "spec.minReplicas: Invalid value: 0: must be greater than or equal to 1",
                "spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas",
            ]
        );
        // An autoscaler stored at zero may stay there.
        assert!(
            errors(
                "autoscaling",
                "v2",
                "HorizontalPodAutoscaler",
                &zero,
                Write::Update { old: &zero }
            )
            .len()
                == 1
        );
    }

    #[test]
    fn v1_targets_convert_to_metrics() {
        let v1 = autoscaler(&json!({"targetCPUUtilizationPercentage": 0}));
        assert_eq!(
            errors("autoscaling", "v1", "HorizontalPodAutoscaler", &v1, Write::Create),
            ["spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0"]
        );
    }

    #[test]
    fn metric_sources_and_targets() {
        let metrics = json!([{"type": "Object", "object": {"describedObject": {"kind": "D", "name": "x"}, "metric": {"name": "m%"},
            "target": {"type": "Value", "value": "-1"}}}, {"type": "Pods", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 50}}}]);
        assert_eq!(
            errors(
                "autoscaling",
                "v2",
                "HorizontalPodAutoscaler",
                &autoscaler(&json!({"metrics": metrics})),
                Write::Create
            ),
            [
                "spec.metrics[0].object.metric.name: Invalid value: \"m%\": may not contain '%'",
                "spec.metrics[0].object.target.value: Invalid value: resource.Quantity{i:resource.int64Amount{value:-1, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:\"-1\", Format:\"DecimalSI\"}: must be positive",
                "spec.metrics[1].pods: Required value: must populate information for the given metric source",
            ]
        );
    }

    #[test]
    fn scaling_rules_default_their_policies() {
        let behavior = json!({"scaleUp": {"stabilizationWindowSeconds": 60}, "scaleDown": {"policies": []}});
        assert_eq!(
            errors(
                "autoscaling",
                "v2",
                "HorizontalPodAutoscaler",
                &autoscaler(&json!({"behavior": behavior})),
                Write::Create
            ),
            ["spec.behavior.scaleDown.policies: Required value: must specify at least one Policy"]
        );
    }
}

/// `ValidateScale`: a `Scale` written through a built-in resource's `/scale`
/// subresource (its metadata as any object's, and no negative replicas). Custom
/// resources' scales are checked by their CRD's scale paths instead.
pub fn validate_scale(scale: &Value) -> ErrorList {
    let mut errors = crate::core::validate_object_meta(
        &scale["metadata"],
        true,
        crate::meta::name_is_dns_subdomain,
        &crate::field::Path::new("metadata"),
    );
    let replicas = scale["spec"]["replicas"].as_i64().unwrap_or(0);
    if replicas < 0 {
        errors.push(
            crate::field::Path::new("spec")
                .child("replicas")
                .invalid(&serde_json::json!(replicas), "must be greater than or equal to 0"),
        );
    }
    errors
}

#[cfg(test)]
mod scale_tests {
    use serde_json::json;

    use super::validate_scale;

    #[test]
    fn negative_replicas_are_refused_as_validate_scale_refuses_them() {
        assert!(
            validate_scale(&json!({"metadata": {"name": "web", "namespace": "n"}, "spec": {"replicas": 0}})).is_empty()
        );
        let errors = validate_scale(&json!({"metadata": {"name": "web", "namespace": "n"}, "spec": {"replicas": -1}}));
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].field, "spec.replicas");
        assert_eq!(
            errors[0].body(),
            "Invalid value: -1: must be greater than or equal to 0"
        );
    }
}
