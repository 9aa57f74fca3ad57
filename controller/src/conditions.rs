//! Status conditions (`metav1.Condition`), kept the way Kubernetes tools expect:
//! `lastTransitionTime` moves only when the status changes.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, Time};

/// Sets the condition `type_` in `conditions`; returns true if anything changed.
/// `lastTransitionTime` is kept when the status is the same as before, so an
/// unchanged condition does not make every reconcile write the status.
///
/// ```
/// use wheelhouse_controller::conditions::set_condition;
///
/// let mut conditions = Vec::new();
/// assert!(set_condition(&mut conditions, "Ready", "False", "Deploying", "waiting for pods", Some(1)));
/// let first = conditions[0].last_transition_time.clone();
/// assert!(set_condition(&mut conditions, "Ready", "False", "Deploying", "1 of 3 pods ready", Some(1)));
/// assert_eq!(conditions[0].last_transition_time, first, "same status: same transition time");
/// assert!(!set_condition(&mut conditions, "Ready", "False", "Deploying", "1 of 3 pods ready", Some(1)));
/// ```
pub fn set_condition(
    conditions: &mut Vec<Condition>,
    type_: &str,
    status: &str,
    reason: &str,
    message: &str,
    observed_generation: Option<i64>,
) -> bool {
    let now = Time(jiff::Timestamp::now());
    let Some(condition) = conditions.iter_mut().find(|c| c.type_ == type_) else {
        conditions.push(Condition {
            type_: type_.to_owned(),
            status: status.to_owned(),
            reason: reason.to_owned(),
            message: message.to_owned(),
            observed_generation,
            last_transition_time: now,
        });
        return true;
    };
    let unchanged = condition.status == status
        && condition.reason == reason
        && condition.message == message
        && condition.observed_generation == observed_generation;
    if unchanged {
        return false;
    }
    if condition.status != status {
        condition.last_transition_time = now;
    }
    status.clone_into(&mut condition.status);
    reason.clone_into(&mut condition.reason);
    message.clone_into(&mut condition.message);
    condition.observed_generation = observed_generation;
    true
}

/// The condition `type_`, if set.
pub fn find<'a>(conditions: &'a [Condition], type_: &str) -> Option<&'a Condition> {
    conditions.iter().find(|c| c.type_ == type_)
}
