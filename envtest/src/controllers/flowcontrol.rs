//! kube-apiserver's API Priority and Fairness configuration controller, the part
//! clients see (`k8s.io/apiserver/pkg/util/flowcontrol/apf_controller.go`): every
//! `FlowSchema` gets a `Dangling` condition saying whether the
//! `PriorityLevelConfiguration` it names exists, server-side applied to its status by
//! `api-priority-and-fairness-config-consumer-v1` whenever the condition it has says
//! otherwise. It runs inside kube-apiserver, so here beside the other controllers.
//!
//! | kube | here |
//! |---|---|
//! | `digestFlowSchemasLocked` (which level a schema names is "good") | [`FlowControl::digest`] |
//! | `presyncFlowSchemaStatus` (the condition wanted, and whether it differs) | [`wanted`], [`differs`] |
//! | `digestConfigObjects` + `apply` (`ApplyStatus`, force) | [`FlowControl::digest`] |
//! | `shouldDelayUpdate` (no more than 5 writes a minute to one schema, then a 30–75 s wait) | [`FlowControl::should_delay`] |
//!
//! Not ported: the request dispatching itself (queues, seats, borrowing), and the
//! mandatory and suggested configuration objects kube-apiserver creates at start.
//! A level counts as present whatever its spec (kube also drops a level whose queue
//! set cannot be built, which validation already prevents).

use std::collections::{BTreeSet, VecDeque};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::time::Instant;

use crate::core::GroupResource;
use crate::lifecycle::{controller_apply, now};
use crate::state::State;

/// The field manager of the controller's writes (`ConfigConsumerAsFieldManager`).
pub(super) const MANAGER: &str = "api-priority-and-fairness-config-consumer-v1";

const GROUP: &str = "flowcontrol.apiserver.k8s.io";
const DANGLING: &str = "Dangling";
/// Writes to one schema within a minute after which the controller waits.
const WRITES_PER_MINUTE: usize = 5;

fn flow_schemas() -> GroupResource {
    GroupResource {
        group: GROUP.into(),
        resource: "flowschemas".into(),
    }
}

fn priority_levels() -> GroupResource {
    GroupResource {
        group: GROUP.into(),
        resource: "prioritylevelconfigurations".into(),
    }
}

/// Whether `resource` is one the controller watches.
pub(super) fn watches(resource: &GroupResource) -> bool {
    *resource == flow_schemas() || *resource == priority_levels()
}

/// The controller's state: whether to digest the configuration again, and its recent
/// writes (newest first), which bound how often it writes one schema.
#[derive(Default)]
pub(super) struct FlowControl {
    dirty: bool,
    recent: VecDeque<(Instant, BTreeSet<String>)>,
    /// When a delayed write is due again.
    retry: Option<Instant>,
}

impl FlowControl {
    /// A flow schema or priority level changed: the whole configuration is digested
    /// again, as kube's informers' handlers queue one resync for any change.
    pub(super) fn observe(&mut self) {
        self.dirty = true;
    }

    /// When the controller wants to run again without an event.
    pub(super) fn next_deadline(&self) -> Option<Instant> {
        self.retry
    }

    /// Digests the configuration when something changed or a delayed write is due:
    /// each schema whose `Dangling` condition is not the one wanted gets it applied.
    pub(super) fn digest(&mut self, state: &mut State, now_instant: Instant) {
        let due = self.retry.is_some_and(|retry| retry <= now_instant);
        if !self.dirty && !due {
            return;
        }
        self.dirty = false;
        if due {
            self.retry = None;
        }
        let levels: BTreeSet<String> = state
            .store
            .values(&priority_levels())
            .iter()
            .filter_map(|level| level["metadata"]["name"].as_str().map(str::to_owned))
            .collect();
        let schemas: Vec<_> = state.store.values(&flow_schemas()).clone();
        let mut written = BTreeSet::new();
        for schema in schemas {
            let level = schema["spec"]["priorityLevelConfiguration"]["name"]
                .as_str()
                .unwrap_or_default();
            let condition = wanted(level, levels.contains(level));
            if !differs(&schema, &condition) {
                continue;
            }
            let name = schema["metadata"]["name"].as_str().unwrap_or_default().to_owned();
            if self.should_delay(&name, now_instant) {
                if self.retry.is_none() {
                    self.retry = Some(now_instant + retry_delay(&name));
                }
                continue;
            }
            written.insert(name.clone());
            apply_condition(state, &schema, &name, condition);
        }
        if !written.is_empty() {
            self.recent.push_front((now_instant, written));
        }
    }

    /// `shouldDelayUpdate`: more than five writes to `name` in the past minute.
    fn should_delay(&mut self, name: &str, now_instant: Instant) -> bool {
        let minute_ago = now_instant.checked_sub(Duration::from_mins(1));
        let mut writes = 0;
        for (index, (at, names)) in self.recent.iter().enumerate() {
            if minute_ago.is_some_and(|minute_ago| *at < minute_ago) {
                // This and the older attempts no longer count.
                self.recent.truncate(index);
                return false;
            }
            if names.contains(name) {
                writes += 1;
                if writes > WRITES_PER_MINUTE {
                    return true;
                }
            }
        }
        false
    }
}

/// kube waits a random 30 to 74 s before writing a busy schema again; here the wait
/// is spread over the same range by the schema's name, so a run is repeatable.
fn retry_delay(name: &str) -> Duration {
    let spread = name
        .bytes()
        .fold(0u64, |sum, byte| sum.wrapping_mul(31).wrapping_add(u64::from(byte)));
    Duration::from_secs(30 + spread % 45)
}

/// `presyncFlowSchemaStatus`'s condition for a schema naming `level`.
fn wanted(level: &str, found: bool) -> Value {
    let (status, reason, message) = if found {
        (
            "False",
            "Found",
            format!("This FlowSchema references the PriorityLevelConfiguration object named {level:?} and it exists"),
        )
    } else {
        (
            "True",
            "NotFound",
            format!(
                "This FlowSchema references the PriorityLevelConfiguration object named {level:?} but there is no such object"
            ),
        )
    };
    json!({"type": DANGLING, "status": status, "reason": reason, "message": message})
}

/// Whether the schema's first `Dangling` condition differs from `condition` in status,
/// reason or message (a missing one is empty in all three).
fn differs(schema: &Value, condition: &Value) -> bool {
    let current = schema["status"]["conditions"]
        .as_array()
        .and_then(|conditions| conditions.iter().find(|c| c["type"] == DANGLING));
    let field = |value: Option<&Value>, key: &str| value.and_then(|v| v[key].as_str()).unwrap_or_default().to_owned();
    ["status", "reason", "message"]
        .iter()
        .any(|key| field(current, key) != field(Some(condition), key))
}

/// `ApplyStatus` of the one condition, with force, as the controller's manager.
fn apply_condition(state: &mut State, schema: &Value, name: &str, mut condition: Value) {
    // The v1 client writes; a schema stored through an older version has the same
    // fields, so it is written as v1 when the server serves it.
    let api_version = schema["apiVersion"].as_str().unwrap_or_default();
    let Some(resource) = state
        .registry
        .get(GROUP, "v1", "flowschemas")
        .or_else(|| state.registry.by_kind(api_version, "FlowSchema"))
    else {
        return;
    };
    let mut current = schema.clone();
    current["apiVersion"] = json!(resource.api_version());
    condition["lastTransitionTime"] = json!(now());
    let applied = json!({
        "apiVersion": resource.api_version(), "kind": "FlowSchema",
        "metadata": {"name": name},
        "status": {"conditions": [condition]},
    });
    controller_apply(state, &resource, &current, &applied, Some("status"), MANAGER);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_condition_says_whether_the_level_exists() {
        let found = wanted("gold", true);
        assert_eq!(found["status"], "False");
        assert_eq!(
            found["message"],
            "This FlowSchema references the PriorityLevelConfiguration object named \"gold\" and it exists"
        );
        let missing = wanted("gold", false);
        assert_eq!(
            (missing["status"].as_str(), missing["reason"].as_str()),
            (Some("True"), Some("NotFound"))
        );
    }

    #[test]
    fn only_a_different_condition_is_written() {
        let condition = wanted("gold", true);
        let mut schema = json!({"status": {}});
        assert!(differs(&schema, &condition));
        schema["status"]["conditions"] = json!([{"type": "Other"}, condition.clone()]);
        assert!(!differs(&schema, &condition));
        schema["status"]["conditions"][1]["lastTransitionTime"] = json!("2000-01-01T00:00:00Z");
        assert!(!differs(&schema, &condition), "the time does not count");
        assert!(differs(&schema, &wanted("gold", false)));
    }

    #[test]
    fn a_schema_written_too_often_waits() {
        let mut controller = FlowControl::default();
        let start = Instant::now();
        for second in 0..6 {
            let at = start + Duration::from_secs(second);
            assert!(!controller.should_delay("busy", at));
            controller.recent.push_front((at, BTreeSet::from(["busy".to_owned()])));
        }
        assert!(controller.should_delay("busy", start + Duration::from_secs(6)));
        assert!(!controller.should_delay("calm", start + Duration::from_secs(6)));
        assert!(!controller.should_delay("busy", start + Duration::from_mins(2)));
        assert!((30..75).contains(&retry_delay("busy").as_secs()));
    }
}
