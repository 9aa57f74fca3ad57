//! One autoscaler, two versions: what `autoscaling/v1` cannot say of an
//! `autoscaling/v2` object (other metrics, current metrics, behavior, conditions) is
//! shown in the round-trip annotations exactly as kube-apiserver writes them (v1's
//! metric shapes, the behavior as the internal Go type), and an update through v1
//! that carries them back loses nothing.

use http::Method;
use serde_json::{Value, json};

use crate::common::start;
use crate::raw::send;
use crate::schema_common::server_minor;

const METRICS: &str = "autoscaling.alpha.kubernetes.io/metrics";
const BEHAVIOR: &str = "autoscaling.alpha.kubernetes.io/behavior";

#[tokio::test]
async fn a_v2_autoscaler_round_trips_through_v1_annotations() {
    let env = start().await;
    if server_minor(&env).await < 23 {
        eprintln!("skipped: autoscaling/v2 is served from 1.23");
        env.stop().await;
        return;
    }
    let client = env.client();
    let v2 = format!(
        "/apis/autoscaling/v2/namespaces/{}/horizontalpodautoscalers",
        env.namespace()
    );
    let v1 = format!(
        "/apis/autoscaling/v1/namespaces/{}/horizontalpodautoscalers",
        env.namespace()
    );
    let body = json!({"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "web"},
        "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}, "maxReplicas": 5,
            "metrics": [
                {"type": "Pods", "pods": {"metric": {"name": "qps", "selector": {"matchLabels": {"a": "b"},
                    "matchExpressions": [{"key": "k", "operator": "In", "values": ["v"]}]}},
                    "target": {"type": "AverageValue", "averageValue": "10"}}},
                {"type": "Object", "object": {"describedObject": {"kind": "Service", "name": "s"}, "metric": {"name": "m"},
                    "target": {"type": "Value", "value": "2"}}},
                {"type": "External", "external": {"metric": {"name": "q"}, "target": {"type": "AverageValue", "averageValue": "3"}}},
                {"type": "ContainerResource", "containerResource": {"name": "memory", "container": "app",
                    "target": {"type": "AverageValue", "averageValue": "100Mi"}}},
                {"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 50}}},
            ],
            "behavior": {"scaleDown": {"stabilizationWindowSeconds": 60}}}});
    let created = send(&client, Method::POST, &v2, Some(&body)).await;
    assert_eq!(created.code, 201, "{}", created.body);
    let read = send(&client, Method::GET, &format!("{v1}/web"), None).await;
    assert_eq!(read.code, 200, "{}", read.body);
    let annotations = &read.body["metadata"]["annotations"];
    assert_eq!(
        annotations[METRICS],
        concat!(
            r#"[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10","selector":{"matchLabels":{"a":"b"},"#,
            r#""matchExpressions":[{"key":"k","operator":"In","values":["v"]}]}}},"#,
            r#"{"type":"Object","object":{"target":{"kind":"Service","name":"s"},"metricName":"m","targetValue":"2"}},"#,
            r#"{"type":"External","external":{"metricName":"q","targetAverageValue":"3"}},"#,
            r#"{"type":"ContainerResource","containerResource":{"name":"memory","targetAverageValue":"100Mi","container":"app"}}]"#,
        )
    );
    assert_eq!(
        annotations[BEHAVIOR],
        concat!(
            r#"{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15},"#,
            r#"{"Type":"Percent","Value":100,"PeriodSeconds":15}]},"ScaleDown":{"StabilizationWindowSeconds":60,"SelectPolicy":"Max","#,
            r#""Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}]}}"#,
        )
    );
    assert_eq!(read.body["spec"]["targetCPUUtilizationPercentage"], 50);
    assert_eq!(read.body["status"], json!({"currentReplicas": 0, "desiredReplicas": 0}));

    // Written back through v1 with a new bound: the metrics come back from the
    // annotation, the CPU target after them, and the annotations are not stored.
    let before = send(&client, Method::GET, &format!("{v2}/web"), None).await.body;
    let mut update = read.body.clone();
    update["spec"]["maxReplicas"] = json!(6);
    let updated = send(&client, Method::PUT, &format!("{v1}/web"), Some(&update)).await;
    assert_eq!(updated.code, 200, "{}", updated.body);
    let after = send(&client, Method::GET, &format!("{v2}/web"), None).await.body;
    assert_eq!(after["spec"]["maxReplicas"], 6);
    assert_eq!(after["spec"]["metrics"], before["spec"]["metrics"]);
    assert_eq!(after["spec"]["behavior"], before["spec"]["behavior"]);
    assert_eq!(after["metadata"].get("annotations"), None::<&Value>);

    // A v1 autoscaler without a target gets kube's default of 80% CPU.
    let plain = json!({"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "plain"},
        "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "web"}, "maxReplicas": 2}});
    let created = send(&client, Method::POST, &v1, Some(&plain)).await;
    assert_eq!(created.code, 201, "{}", created.body);
    assert_eq!(created.body["spec"]["targetCPUUtilizationPercentage"], 80);
    assert_eq!(created.body["metadata"].get("annotations"), None::<&Value>);
    env.stop().await;
}
