//! Core/v1 and events.k8s.io/v1 Events are one store seen two ways,
//! with kube-apiserver's field conversions, so an Event kube's `Recorder` publishes
//! (events.k8s.io) is what `kubectl get events` and `describe` (core) show. Also
//! `autoscaling/v1` and `v2` autoscalers, the other resource served at two versions
//! whose shapes differ.

use k8s_openapi::api::autoscaling::{v1 as autoscaling_v1, v2 as autoscaling_v2};
use k8s_openapi::api::core::v1::{ConfigMap, Event as CoreEvent, ObjectReference};
use k8s_openapi::api::events::v1::Event as NewEvent;
use kube::api::{Api, ListParams, PostParams};
use kube::runtime::events::{Event, EventType, Recorder, Reporter};
use serde_json::json;

use crate::common::{api_error, configmap, from_json, start};
use crate::served::require;

#[tokio::test]
async fn core_events_are_seen_as_events_k8s_io_events() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let core: Api<CoreEvent> = Api::namespaced(env.client(), &namespace);
    let new: Api<NewEvent> = Api::namespaced(env.client(), &namespace);
    core.create(
        &PostParams::default(),
        &from_json(json!({
            "metadata": {"name": "pulled"},
            "involvedObject": {"apiVersion": "v1", "kind": "Pod", "name": "web-1", "namespace": namespace},
            "reason": "Pulled", "message": "image pulled", "type": "Normal", "count": 3,
            "source": {"component": "kubelet", "host": "node-a"},
            "firstTimestamp": "2026-01-01T00:00:00Z", "lastTimestamp": "2026-01-01T00:05:00Z",
        })),
    )
    .await
    .unwrap();
    let seen = new
        .get("pulled")
        .await
        .expect("the core Event is an events.k8s.io Event");
    assert_eq!(seen.regarding.as_ref().and_then(|r| r.name.as_deref()), Some("web-1"));
    assert_eq!(seen.note.as_deref(), Some("image pulled"));
    assert_eq!(seen.reason.as_deref(), Some("Pulled"));
    assert_eq!(seen.deprecated_count, Some(3));
    assert_eq!(
        seen.deprecated_source.as_ref().and_then(|s| s.component.as_deref()),
        Some("kubelet")
    );
    assert!(seen.deprecated_last_timestamp.is_some());

    // The field selectors of each view, on the one store.
    let by_regarding = new
        .list(&ListParams::default().fields("regarding.name=web-1"))
        .await
        .unwrap();
    assert_eq!(by_regarding.items.len(), 1);
    let by_involved = core
        .list(&ListParams::default().fields("involvedObject.name=web-1"))
        .await
        .unwrap();
    assert_eq!(by_involved.items.len(), 1);
    env.stop().await;
}

/// What kube's `Recorder` publishes (events.k8s.io) is a core Event too.
#[tokio::test]
async fn recorded_events_are_seen_as_core_events() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let configmaps: Api<ConfigMap> = Api::namespaced(env.client(), &namespace);
    let subject = configmaps
        .create(&PostParams::default(), &configmap("subject", &[], &[]))
        .await
        .unwrap();
    let reporter = Reporter {
        controller: "wheelhouse.rs/conformance".into(),
        instance: Some("conformance-0".into()),
    };
    let recorder = Recorder::new(env.client(), reporter);
    let reference = ObjectReference {
        api_version: Some("v1".into()),
        kind: Some("ConfigMap".into()),
        name: subject.metadata.name.clone(),
        namespace: Some(namespace.clone()),
        uid: subject.metadata.uid.clone(),
        ..ObjectReference::default()
    };
    let event = Event {
        type_: EventType::Warning,
        reason: "Drifted".into(),
        note: Some("the config drifted".into()),
        action: "Reconcile".into(),
        secondary: None,
    };
    recorder
        .publish(&event, &reference)
        .await
        .expect("the Recorder publishes");
    let core: Api<CoreEvent> = Api::namespaced(env.client(), &namespace);
    let listed = core
        .list(&ListParams::default().fields("involvedObject.name=subject"))
        .await
        .unwrap();
    let found = listed.items.first().expect("the recorded Event is a core Event");
    assert_eq!(found.message.as_deref(), Some("the config drifted"));
    assert_eq!(found.reason.as_deref(), Some("Drifted"));
    assert_eq!(found.type_.as_deref(), Some("Warning"));
    assert_eq!(found.reporting_component.as_deref(), Some("wheelhouse.rs/conformance"));
    assert_eq!(found.involved_object.uid, subject.metadata.uid);
    // `source` is a struct in the Go type: an empty one, never absent.
    assert!(found.source.is_some(), "source reads as {{}}, not null");
    env.stop().await;
}

/// events.k8s.io Events need what recorders must send (`eventTime`,
/// `reportingController`, ...), as kube-apiserver's `ValidateEventCreate` asks.
#[tokio::test]
async fn events_k8s_io_events_are_validated() {
    let env = start().await;
    let new: Api<NewEvent> = Api::namespaced(env.client(), env.namespace());
    let incomplete: NewEvent =
        from_json(json!({"metadata": {"name": "incomplete"}, "reason": "Testing", "type": "Normal"}));
    let status = api_error(new.create(&PostParams::default(), &incomplete).await);
    assert_eq!(status.code, 422, "{}", status.message);
    assert!(status.message.contains("eventTime"), "{}", status.message);
    env.stop().await;
}

/// An autoscaler written at v2 reads at v1 with its CPU target, and one written at v1
/// reads at v2 as a CPU utilization metric.
#[tokio::test]
async fn autoscalers_are_one_store_at_v1_and_v2() {
    let env = start().await;
    if !require(
        &env,
        "autoscaling/v2",
        "horizontalpodautoscalers",
        "autoscaling v1/v2 conversion",
    )
    .await
    {
        env.stop().await;
        return;
    }
    let namespace = env.namespace().to_owned();
    let v1: Api<autoscaling_v1::HorizontalPodAutoscaler> = Api::namespaced(env.client(), &namespace);
    let v2: Api<autoscaling_v2::HorizontalPodAutoscaler> = Api::namespaced(env.client(), &namespace);
    let target = json!({"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"});
    v2.create(
        &PostParams::default(),
        &from_json(json!({"metadata": {"name": "by-v2"}, "spec": {"scaleTargetRef": target, "maxReplicas": 4, "metrics": [
            {"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 65}}}]}})),
    )
    .await
    .unwrap();
    let seen = v1.get("by-v2").await.unwrap();
    assert_eq!(seen.spec.target_cpu_utilization_percentage, Some(65));

    v1.create(
        &PostParams::default(),
        &from_json(
            json!({"metadata": {"name": "by-v1"}, "spec": {"scaleTargetRef": target, "maxReplicas": 4,
            "targetCPUUtilizationPercentage": 55}}),
        ),
    )
    .await
    .unwrap();
    let seen = v2.get("by-v1").await.unwrap();
    let metrics = serde_json::to_value(seen.spec.metrics).unwrap();
    assert_eq!(metrics[0]["resource"]["name"], "cpu", "{metrics}");
    assert_eq!(metrics[0]["resource"]["target"]["averageUtilization"], 55, "{metrics}");
    env.stop().await;
}
