//! [`PhaseStatus`]: the status a phased resource carries (its phase, the generation it
//! describes, conditions, when it last moved, the last error, and the information its
//! workers share), and how the scheduler writes it: only what changed, as a merge
//! patch conditioned on the resourceVersion it was computed from.

use std::fmt::Debug;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, Time};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The status of a resource the phase scheduler runs: make it the CRD's status type
/// and the scheduler keeps it. `I` is what the workers share (for example the names
/// of the Deployments a route was synced with); its fields appear directly under
/// `status` beside the scheduler's own, so give it `#[serde(default)]`: a status the
/// scheduler wrote before any worker set them must still read.
///
/// ```
/// use kube::CustomResource;
/// use schemars::JsonSchema;
/// use serde::{Deserialize, Serialize};
/// use wheelhouse_controller::phase::{Phase, PhaseStatus, Phases};
///
/// #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
/// pub enum BuildPhase { Queued, Running, Done }
/// # impl Phase for BuildPhase {
/// #     fn phases() -> Phases<Self> {
/// #         Phases::new().initial(Self::Queued, [Self::Running]).phase(Self::Running, [Self::Done]).final_phase(Self::Done)
/// #     }
/// # }
///
/// #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
/// #[serde(default, rename_all = "camelCase")]
/// pub struct BuildInfo { pub attempts: u32 }
///
/// pub type BuildStatus = PhaseStatus<BuildPhase, BuildInfo>;
///
/// #[derive(CustomResource, Clone, Debug, Serialize, Deserialize, JsonSchema)]
/// #[kube(group = "example.com", version = "v1", kind = "Build", namespaced, status = "BuildStatus")]
/// pub struct BuildSpec { pub image: String }
///
/// let status: BuildStatus = serde_json::from_value(serde_json::json!({
///     "phase": "Running", "observedGeneration": 2, "attempts": 1
/// })).unwrap();
/// assert_eq!((status.phase, status.info.attempts), (Some(BuildPhase::Running), 1));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(
    rename_all = "camelCase",
    bound(
        serialize = "P: Serialize, I: Serialize",
        deserialize = "P: Deserialize<'de>, I: Deserialize<'de>"
    )
)]
#[schemars(
    description = "The status the phase scheduler keeps: the phase, the generation it describes, conditions, the last transition and error, and what the workers share."
)]
pub struct PhaseStatus<P, I> {
    /// The phase the resource is in; none until its first sync (it is then in the
    /// initial phase).
    // The schema is the phase enum's own, without the `null` an `Option` adds to its
    // values: kube-apiserver 1.19 refuses a CRD whose enum lists `null`. The field is
    // optional anyway, and never written as null.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "P")]
    pub phase: Option<P>,
    /// The generation of the spec the last sync saw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    /// Conditions the workers set (see `Outcome::condition`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// When the phase last changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<Time>,
    /// Why the last sync failed; cleared by the next that succeeds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_error: Option<String>,
    /// What the workers share.
    #[serde(flatten)]
    pub info: I,
}

impl<P, I: Default> Default for PhaseStatus<P, I> {
    fn default() -> Self {
        Self {
            phase: None,
            observed_generation: None,
            conditions: Vec::new(),
            last_transition_time: None,
            last_error: None,
            info: I::default(),
        }
    }
}

/// The JSON merge patch (RFC 7386) that turns `old` into `new`: the keys whose values
/// differ, `null` for the keys `new` lacks, recursing into objects present in both.
/// Lists are replaced whole, as merge patch does.
pub(crate) fn merge_patch(old: &Value, new: &Value) -> Value {
    let (Value::Object(old), Value::Object(new)) = (old, new) else {
        return new.clone();
    };
    let mut patch = Map::new();
    for (key, value) in new {
        match old.get(key) {
            Some(before) if before == value => {}
            Some(before) => {
                patch.insert(key.clone(), merge_patch(before, value));
            }
            None => {
                patch.insert(key.clone(), value.clone());
            }
        }
    }
    for key in old.keys().filter(|key| !new.contains_key(*key)) {
        patch.insert(key.clone(), Value::Null);
    }
    Value::Object(patch)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::merge_patch;

    #[test]
    fn the_patch_holds_what_changed_and_nulls_what_went() {
        let old =
            json!({"phase": "Syncing", "lastError": "boom", "synced": ["a", "b"], "nested": {"keep": 1, "drop": 2}});
        let new = json!({"phase": "Ready", "synced": ["a"], "nested": {"keep": 1, "add": 3}});
        assert_eq!(
            merge_patch(&old, &new),
            json!({"phase": "Ready", "lastError": null, "synced": ["a"], "nested": {"drop": null, "add": 3}})
        );
        assert_eq!(merge_patch(&new, &new), json!({}));
        assert_eq!(merge_patch(&json!(null), &new), new, "no status yet: all of it");
    }

    #[test]
    fn applying_the_patch_gives_the_new_value() {
        let old = json!({"a": {"b": [1, 2], "c": "x"}, "d": true});
        let new = json!({"a": {"b": [2], "e": {"f": 1}}, "g": 0});
        let patch = merge_patch(&old, &new);
        let mut patched = old.clone();
        apply(&mut patched, &patch);
        assert_eq!(patched, new);
    }

    /// RFC 7386's `MergePatch` function, to check the patches against.
    fn apply(target: &mut serde_json::Value, patch: &serde_json::Value) {
        let Some(patch) = patch.as_object() else {
            *target = patch.clone();
            return;
        };
        if !target.is_object() {
            *target = json!({});
        }
        let object = target.as_object_mut().expect("made an object above");
        for (key, value) in patch {
            if value.is_null() {
                object.remove(key);
            } else {
                apply(object.entry(key.clone()).or_insert(serde_json::Value::Null), value);
            }
        }
    }
}
