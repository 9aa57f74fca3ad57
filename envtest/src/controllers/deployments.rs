//! A stand-in for the deployment controller (`ServerOptions::simulate_deployments`):
//! a fixed delay after each create or spec change, a Deployment reports the status it
//! would have once all its pods were ready. No `ReplicaSets` or `Pods` are made.

use std::collections::HashMap;
use std::time::Duration;

use serde_json::{Map, Value, json};
use tokio::time::Instant;

use super::{is_deleting, update};
use crate::registry::GroupResource;
use crate::rules::now;
use crate::server::State;
use crate::store::{Event, EventType, object_key};

/// The field manager of the deployment controller's status writes.
const MANAGER: &str = "deployment-controller";

fn deployments() -> GroupResource {
    GroupResource {
        group: "apps".into(),
        resource: "deployments".into(),
    }
}

/// A Deployment whose pods "become ready" at `ready_at`.
struct Rollout {
    uid: String,
    /// The generation the rollout is for: a newer one restarts the delay.
    generation: i64,
    ready_at: Instant,
}

/// Rollouts in progress, by (namespace, name).
pub(super) struct Deployments {
    delay: Duration,
    rollouts: HashMap<(String, String), Rollout>,
}

impl Deployments {
    pub fn new(delay: Duration) -> Self {
        Self {
            delay,
            rollouts: HashMap::new(),
        }
    }

    /// Starts a rollout for a Deployment whose status lags its spec, unless one for
    /// that generation is already under way.
    pub fn observe(&mut self, event: &Event) {
        if event.resource != deployments() {
            return;
        }
        let key = object_key(&event.object);
        let object = &event.object;
        if event.kind == EventType::Deleted || is_deleting(object) {
            self.rollouts.remove(&key);
            return;
        }
        let generation = generation(object);
        if generation <= observed_generation(object) {
            return;
        }
        let uid = object["metadata"]["uid"].as_str().unwrap_or_default();
        if self
            .rollouts
            .get(&key)
            .is_some_and(|r| r.uid == uid && r.generation == generation)
        {
            return;
        }
        let rollout = Rollout {
            uid: uid.to_owned(),
            generation,
            ready_at: Instant::now() + self.delay,
        };
        self.rollouts.insert(key, rollout);
    }

    /// When the next rollout completes.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.rollouts.values().map(|r| r.ready_at).min()
    }

    /// Writes the available status of every Deployment whose delay has passed.
    pub fn roll_out_due(&mut self, state: &mut State, at: Instant) {
        let due: Vec<(String, String)> = self
            .rollouts
            .iter()
            .filter(|(_, r)| r.ready_at <= at)
            .map(|(key, _)| key.clone())
            .collect();
        for key in due {
            let Some(rollout) = self.rollouts.remove(&key) else {
                continue;
            };
            let Some(current) = state.store.get(&deployments(), &key.0, &key.1) else {
                continue;
            };
            if current["metadata"]["uid"] != rollout.uid.as_str() || is_deleting(&current) {
                continue;
            }
            let generation = generation(&current);
            if generation <= observed_generation(&current) {
                continue;
            }
            // The spec changed again and its event is still on the way: that change
            // gets its own delay.
            if generation != rollout.generation {
                let ready_at = at + self.delay;
                self.rollouts.insert(
                    key,
                    Rollout {
                        generation,
                        ready_at,
                        ..rollout
                    },
                );
                continue;
            }
            let Some(resource) = state.registry.get("apps", "v1", "deployments") else {
                continue;
            };
            let mut desired = current.as_ref().clone();
            desired["status"] = available_status(&current, &now());
            update(state, &resource, &current, desired, Some("status"), MANAGER);
        }
    }
}

fn generation(object: &Value) -> i64 {
    object["metadata"]["generation"].as_i64().unwrap_or(1)
}

fn observed_generation(object: &Value) -> i64 {
    object["status"]["observedGeneration"].as_i64().unwrap_or(0)
}

/// The status the deployment controller writes once every replica is ready and
/// available. Counts of zero are left out, as the real status omits them; unchanged
/// conditions keep their lastTransitionTime.
fn available_status(deployment: &Value, now: &str) -> Value {
    let replicas = deployment["spec"]["replicas"].as_i64().unwrap_or(1).max(0);
    let mut status = deployment["status"].as_object().cloned().unwrap_or_default();
    status.insert("observedGeneration".into(), json!(generation(deployment)));
    for field in ["replicas", "updatedReplicas", "readyReplicas", "availableReplicas"] {
        if replicas == 0 {
            status.remove(field);
        } else {
            status.insert(field.into(), json!(replicas));
        }
    }
    status.remove("unavailableReplicas");
    let name = deployment["metadata"]["name"].as_str().unwrap_or_default();
    let old = status
        .get("conditions")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let conditions = vec![
        condition(
            &old,
            "Available",
            "MinimumReplicasAvailable",
            "Deployment has minimum availability.",
            now,
        ),
        condition(
            &old,
            "Progressing",
            "NewReplicaSetAvailable",
            &format!("ReplicaSet \"{name}\" has successfully progressed."),
            now,
        ),
    ];
    status.insert("conditions".into(), Value::Array(conditions));
    Value::Object(status)
}

/// A `True` condition of `kind`, keeping the times of the old one when it says the same.
fn condition(old: &[Value], kind: &str, reason: &str, message: &str, now: &str) -> Value {
    let previous = old.iter().find(|c| c["type"] == kind);
    let unchanged = previous.filter(|c| c["status"] == "True");
    let transition = unchanged.map_or(json!(now), |c| c["lastTransitionTime"].clone());
    let same_reason = unchanged.filter(|c| c["reason"] == reason && c["message"] == message);
    let updated = same_reason.map_or(json!(now), |c| c["lastUpdateTime"].clone());
    let mut condition = Map::new();
    condition.insert("type".into(), json!(kind));
    condition.insert("status".into(), json!("True"));
    condition.insert("lastUpdateTime".into(), updated);
    condition.insert("lastTransitionTime".into(), transition);
    condition.insert("reason".into(), json!(reason));
    condition.insert("message".into(), json!(message));
    Value::Object(condition)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use k8s_openapi::api::apps::v1::Deployment;
    use kube::api::{Api, Patch, PatchParams, PostParams};
    use serde_json::json;

    use super::super::tests::eventually;
    use super::*;
    use crate::server::{ApiServer, ServerOptions};

    fn simulating(delay: Duration) -> Api<Deployment> {
        let options = ServerOptions {
            simulate_deployments: Some(delay),
            ..ServerOptions::default()
        };
        let server = ApiServer::new(options);
        Api::default_namespaced(kube::Client::new(server, "default"))
    }

    fn deployment(name: &str, replicas: Option<i32>) -> Deployment {
        serde_json::from_value(json!({
            "metadata": {"name": name},
            "spec": {
                "replicas": replicas,
                "selector": {"matchLabels": {"app": name}},
                "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": [{"name": "app", "image": "nginx"}]}},
            },
        }))
        .expect("a Deployment")
    }

    /// Whether the status reports `replicas` available at the current generation.
    fn available(deployment: &Deployment, replicas: i32) -> bool {
        let Some(status) = &deployment.status else {
            return false;
        };
        let count = |field: Option<i32>| field.unwrap_or(0) == replicas;
        let condition = |kind: &str| {
            status
                .conditions
                .iter()
                .flatten()
                .any(|c| c.type_.as_deref() == Some(kind) && c.status.as_deref() == Some("True"))
        };
        status.observed_generation == deployment.metadata.generation
            && count(status.replicas)
            && count(status.updated_replicas)
            && count(status.ready_replicas)
            && count(status.available_replicas)
            && condition("Available")
            && condition("Progressing")
    }

    #[tokio::test]
    async fn a_deployment_becomes_available_after_the_delay() {
        let api = simulating(Duration::from_millis(50));
        let created = api
            .create(&PostParams::default(), &deployment("web", Some(3)))
            .await
            .expect("create");
        assert!(created.status.is_none_or(|s| s.available_replicas.is_none()));
        eventually("web is available", || async {
            available(&api.get("web").await.expect("get"), 3)
        })
        .await;
        let defaulted = api
            .create(&PostParams::default(), &deployment("one", None))
            .await
            .expect("create");
        assert_eq!(defaulted.metadata.generation, Some(1));
        eventually("one has its default replica", || async {
            available(&api.get("one").await.expect("get"), 1)
        })
        .await;
        api.create(&PostParams::default(), &deployment("none", Some(0)))
            .await
            .expect("create");
        eventually("none is available with none", || async {
            available(&api.get("none").await.expect("get"), 0)
        })
        .await;
    }

    #[tokio::test]
    async fn a_deployment_follows_a_scale_up() {
        let api = simulating(Duration::from_millis(20));
        api.create(&PostParams::default(), &deployment("web", Some(1)))
            .await
            .expect("create");
        eventually("web is available", || async {
            available(&api.get("web").await.expect("get"), 1)
        })
        .await;
        let before = api.get("web").await.expect("get");
        let patch = Patch::Merge(json!({"spec": {"replicas": 4}}));
        let scaled = api.patch("web", &PatchParams::default(), &patch).await.expect("scale");
        assert_eq!(scaled.metadata.generation, Some(2));
        eventually("web has four replicas", || async {
            available(&api.get("web").await.expect("get"), 4)
        })
        .await;
        let after = api.get("web").await.expect("get");
        let transition = |d: &Deployment| {
            d.status.as_ref().and_then(|s| s.conditions.clone()).unwrap_or_default()[0]
                .last_transition_time
                .clone()
        };
        assert_eq!(
            transition(&before),
            transition(&after),
            "an unchanged condition keeps its transition time"
        );
        assert_eq!(
            after.metadata.generation,
            Some(2),
            "a status write leaves generation alone"
        );
    }

    #[tokio::test]
    async fn quick_spec_changes_end_at_the_latest_generation() {
        let api = simulating(Duration::from_millis(100));
        api.create(&PostParams::default(), &deployment("web", Some(1)))
            .await
            .expect("create");
        for replicas in 2..=5 {
            let patch = Patch::Merge(json!({"spec": {"replicas": replicas}}));
            api.patch("web", &PatchParams::default(), &patch).await.expect("scale");
        }
        eventually("web reflects the last change", || async {
            available(&api.get("web").await.expect("get"), 5)
        })
        .await;
        assert_eq!(api.get("web").await.expect("get").metadata.generation, Some(5));
    }

    #[test]
    fn the_status_keeps_unchanged_conditions_and_other_fields() {
        let deployment = json!({
            "metadata": {"name": "web", "generation": 3},
            "spec": {"replicas": 2},
            "status": {"observedGeneration": 2, "collisionCount": 1, "unavailableReplicas": 1, "conditions": [
                {"type": "Available", "status": "True", "reason": "MinimumReplicasAvailable",
                 "message": "Deployment has minimum availability.", "lastUpdateTime": "t0", "lastTransitionTime": "t0"},
                {"type": "Progressing", "status": "False", "reason": "ProgressDeadlineExceeded",
                 "message": "stuck", "lastUpdateTime": "t0", "lastTransitionTime": "t0"},
            ]},
        });
        let status = available_status(&deployment, "t1");
        assert_eq!(status["observedGeneration"], 3);
        assert_eq!(status["availableReplicas"], 2);
        assert_eq!(status["collisionCount"], 1);
        assert!(status.get("unavailableReplicas").is_none());
        assert_eq!(status["conditions"][0]["lastTransitionTime"], "t0");
        assert_eq!(status["conditions"][0]["lastUpdateTime"], "t0");
        assert_eq!(status["conditions"][1]["status"], "True");
        assert_eq!(status["conditions"][1]["lastTransitionTime"], "t1");
    }

    #[test]
    fn a_malformed_deployment_gets_a_status_without_panicking() {
        let status = available_status(&json!({"spec": {"replicas": "many"}, "status": "bad"}), "t1");
        assert_eq!(status["availableReplicas"], 1);
    }
}
