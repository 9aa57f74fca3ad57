//! The Events the simulated components record, as client-go's event recorder writes
//! them (`staging/src/k8s.io/client-go/tools/record/event.go`, `events_cache.go`): a
//! core/v1 Event named `<object>.<unique hex>`, and a repeat of the same event raising
//! the first one's `count` and `lastTimestamp` instead of making another.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::fields::{name_of, namespace_of, uid_of};
use crate::lifecycle::{commit_create, now, prepare_new};
use crate::state::State;

/// How many distinct events the recorder remembers for aggregation (client-go's LRU
/// holds 4096).
const REMEMBERED: usize = 4096;

/// One thing that happened to an object.
pub(super) struct Occurrence<'a> {
    pub involved: &'a Value,
    pub warning: bool,
    pub reason: &'a str,
    pub message: &'a str,
    pub component: &'a str,
    pub host: Option<&'a str>,
}

/// The events already recorded, by what makes two events the same (object, reason,
/// message, source), with the name they were stored under.
#[derive(Default)]
pub(super) struct Recorder {
    recorded: HashMap<(String, String, String, String), String>,
    sequence: u64,
}

impl Recorder {
    /// Stores the event, or counts it again when it happened before.
    pub fn record(&mut self, state: &mut State, occurrence: &Occurrence<'_>) {
        let Some(resource) = state.registry.get("", "v1", "events") else {
            return;
        };
        let involved = occurrence.involved;
        let namespace = match namespace_of(involved) {
            "" => "default",
            namespace => namespace,
        }
        .to_owned();
        let key = (
            uid_of(involved).to_owned(),
            occurrence.reason.to_owned(),
            occurrence.message.to_owned(),
            occurrence.component.to_owned(),
        );
        let now = now();
        if let Some(name) = self.recorded.get(&key)
            && let Some(current) = state.store.get(&resource.group_resource(), &namespace, name)
        {
            let mut desired = current.as_ref().clone();
            desired["count"] = json!(current["count"].as_i64().unwrap_or(1) + 1);
            desired["lastTimestamp"] = json!(now);
            crate::lifecycle::controller_update(state, &resource, &current, desired, None, occurrence.component);
            return;
        }
        self.sequence += 1;
        let unique = jiff::Timestamp::now().as_nanosecond().unsigned_abs() + u128::from(self.sequence);
        let name = format!("{}.{unique:x}", name_of(involved));
        let mut source = json!({"component": occurrence.component});
        if let Some(host) = occurrence.host {
            source["host"] = json!(host);
        }
        let event = json!({
            "apiVersion": "v1",
            "kind": "Event",
            "metadata": {"name": name, "namespace": namespace},
            "involvedObject": reference(involved),
            "reason": occurrence.reason,
            "message": occurrence.message,
            "source": source,
            "firstTimestamp": now,
            "lastTimestamp": now,
            "count": 1,
            "type": if occurrence.warning { "Warning" } else { "Normal" },
            "eventTime": null,
            "reportingComponent": "",
            "reportingInstance": "",
        });
        let stored = prepare_new(&resource, Some(&namespace), event, occurrence.component)
            .and_then(|(event, _)| commit_create(state, &resource, event, false));
        match stored {
            Ok(_) => {
                if self.recorded.len() >= REMEMBERED {
                    self.recorded.clear();
                }
                self.recorded.insert(key, name);
            }
            Err(error) => tracing::debug!(?error, "a simulated event was refused"),
        }
    }
}

/// The `involvedObject` of an event about `object` (`ref.GetReference`).
fn reference(object: &Value) -> Value {
    let mut reference = json!({
        "apiVersion": object["apiVersion"],
        "kind": object["kind"],
        "name": object["metadata"]["name"],
        "uid": object["metadata"]["uid"],
        "resourceVersion": object["metadata"]["resourceVersion"],
    });
    if let Some(namespace) = object["metadata"]["namespace"].as_str() {
        reference["namespace"] = json!(namespace);
    }
    reference
}
