//! Status conditions (`metav1.Condition`), kept the way Kubernetes tools expect:
//! `lastTransitionTime` moves only when the status changes.
//!
//! [`ConditionBuilder`] names each part of a condition; [`set_condition`] is the same
//! with positional arguments.
//!
//! ```
//! use wheelhouse_controller::conditions::{self, ConditionBuilder, Status};
//!
//! let mut conditions = Vec::new();
//! ConditionBuilder::available()
//!     .status(false)
//!     .reason("Rollout")
//!     .message("0 of 3 replicas available")
//!     .observed_generation(Some(2))
//!     .set_in(&mut conditions);
//! let available = conditions::find(&conditions, "Available").expect("set");
//! assert_eq!(available.status, "False");
//! assert_eq!(Status::of(available), Some(Status::False));
//! ```

use std::fmt;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, Time};

/// A condition's status, as the API spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// The condition holds.
    True,
    /// The condition does not hold.
    False,
    /// The controller cannot tell.
    Unknown,
}

impl Status {
    /// The text the API stores.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::True => "True",
            Self::False => "False",
            Self::Unknown => "Unknown",
        }
    }

    /// The status of `condition`; None for text the API does not allow.
    pub fn of(condition: &Condition) -> Option<Self> {
        match condition.status.as_str() {
            "True" => Some(Self::True),
            "False" => Some(Self::False),
            "Unknown" => Some(Self::Unknown),
            _ => None,
        }
    }
}

impl From<bool> for Status {
    fn from(holds: bool) -> Self {
        if holds { Self::True } else { Self::False }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One condition, built by name instead of by position, then set in a list with
/// [`set_in`](Self::set_in) (`lastTransitionTime` moves only when the status changes).
/// The type's constructors are the types kubebuilder's scaffold and the API
/// conventions use; [`new`](Self::new) takes any other. The status starts `Unknown`,
/// the reason as the API's required placeholder until one is given.
///
/// ```
/// use wheelhouse_controller::conditions::{self, ConditionBuilder};
///
/// let mut conditions = Vec::new();
/// assert!(ConditionBuilder::ready().status(true).reason("AllReplicasAvailable").set_in(&mut conditions));
/// let first = conditions::find(&conditions, "Ready").expect("set").last_transition_time.clone();
/// // Another message, same status: changed, but the transition time stays.
/// assert!(ConditionBuilder::ready().status(true).reason("AllReplicasAvailable").message("3 of 3").set_in(&mut conditions));
/// assert_eq!(conditions[0].last_transition_time, first);
/// // The same again: nothing to write.
/// assert!(!ConditionBuilder::ready().status(true).reason("AllReplicasAvailable").message("3 of 3").set_in(&mut conditions));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use]
pub struct ConditionBuilder {
    type_: String,
    status: Status,
    reason: String,
    message: String,
    observed_generation: Option<i64>,
}

impl ConditionBuilder {
    /// A condition of type `type_` (CamelCase, such as `"BackupTaken"`).
    pub fn new(type_: impl Into<String>) -> Self {
        Self {
            type_: type_.into(),
            status: Status::Unknown,
            reason: "Unknown".to_owned(),
            message: String::new(),
            observed_generation: None,
        }
    }

    /// `Available`: the resource serves (kubebuilder's scaffold, Deployments).
    pub fn available() -> Self {
        Self::new("Available")
    }

    /// `Ready`: every part of the resource is in place.
    pub fn ready() -> Self {
        Self::new("Ready")
    }

    /// `Progressing`: a change is being rolled out.
    pub fn progressing() -> Self {
        Self::new("Progressing")
    }

    /// `Degraded`: the resource works, but not as its spec asks (kubebuilder's scaffold).
    pub fn degraded() -> Self {
        Self::new("Degraded")
    }

    /// The status: a [`Status`], or a bool for `True`/`False`.
    pub fn status(mut self, status: impl Into<Status>) -> Self {
        self.status = status.into();
        self
    }

    /// The reason, CamelCase, for machines (`"AllReplicasAvailable"`).
    pub fn reason(mut self, reason: impl Into<String>) -> Self {
        self.reason = reason.into();
        self
    }

    /// The message, for people.
    pub fn message(mut self, message: impl Into<String>) -> Self {
        self.message = message.into();
        self
    }

    /// The generation of the spec the condition describes (`metadata.generation`).
    pub fn observed_generation(mut self, generation: Option<i64>) -> Self {
        self.observed_generation = generation;
        self
    }

    /// Sets the condition in `conditions`, as [`set_condition`] does; returns true if
    /// anything changed.
    pub fn set_in(&self, conditions: &mut Vec<Condition>) -> bool {
        set_condition(
            conditions,
            &self.type_,
            self.status.as_str(),
            &self.reason,
            &self.message,
            self.observed_generation,
        )
    }
}

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
