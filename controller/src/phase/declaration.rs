//! The phases of a resource: the [`Phase`] trait an enum implements to declare its
//! initial phase, its final phases and the transitions each phase allows, and the
//! checks the scheduler runs on that declaration before it builds a controller.

use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::Hash;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// The phases of a custom resource, as an enum: which one a new resource starts in,
/// which ones are final (nothing more is done), and where each may go next.
///
/// The enum is stored in `status.phase` under its serde name, which is also the value
/// of the `wheelhouse.rs/phase` label on outputs and the `phase` label of metrics, so
/// it must be a valid label value (letters, digits, `-`, `_`, `.`; at most 63).
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use wheelhouse_controller::phase::{Phase, Phases};
///
/// #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
/// enum RoutePhase { Initializing, Syncing, Ready }
///
/// impl Phase for RoutePhase {
///     fn phases() -> Phases<Self> {
///         Phases::new()
///             .initial(Self::Initializing, [Self::Syncing])
///             .phase(Self::Syncing, [Self::Ready])
///             .phase(Self::Ready, [Self::Syncing])
///     }
/// }
/// ```
pub trait Phase: Copy + Eq + Hash + Debug + Serialize + DeserializeOwned + Send + Sync + 'static {
    /// The declaration: checked when the controller is built (see [`DeclarationError`]).
    fn phases() -> Phases<Self>;
}

/// A declaration of phases and their transitions; see [`Phase`]. Staying in the same
/// phase is always allowed and need not be declared.
#[derive(Debug, Clone)]
pub struct Phases<P> {
    entries: Vec<Entry<P>>,
}

#[derive(Debug, Clone)]
struct Entry<P> {
    phase: P,
    initial: bool,
    is_final: bool,
    next: Vec<P>,
}

impl<P: Phase> Default for Phases<P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P: Phase> Phases<P> {
    /// An empty declaration.
    pub fn new() -> Self {
        Self { entries: Vec::new() }
    }

    /// Declares the phase a new resource starts in (a resource without a status is in
    /// it), and the phases its worker may move to.
    #[must_use]
    pub fn initial(self, phase: P, next: impl IntoIterator<Item = P>) -> Self {
        self.entry(phase, true, false, next.into_iter().collect())
    }

    /// Declares a phase with a worker, and the phases that worker may move to.
    #[must_use]
    pub fn phase(self, phase: P, next: impl IntoIterator<Item = P>) -> Self {
        self.entry(phase, false, false, next.into_iter().collect())
    }

    /// Declares a final phase: it has no worker, and a resource in it is left alone
    /// (until it is deleted, when the finalizer worker runs).
    #[must_use]
    pub fn final_phase(self, phase: P) -> Self {
        self.entry(phase, false, true, Vec::new())
    }

    fn entry(mut self, phase: P, initial: bool, is_final: bool, next: Vec<P>) -> Self {
        self.entries.push(Entry {
            phase,
            initial,
            is_final,
            next,
        });
        self
    }
}

/// A declaration of phases the scheduler refuses, or a set of workers that does not
/// fit it. Phases are named by their serde name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeclarationError {
    /// No phase was declared with `Phases::initial`.
    #[error("no initial phase: declare the phase new resources start in with Phases::initial")]
    NoInitialPhase,
    /// More than one phase was declared with `Phases::initial`.
    #[error("{} initial phases ({}): exactly one phase may be initial", .0.len(), .0.join(", "))]
    SeveralInitialPhases(Vec<String>),
    /// The same phase was declared twice.
    #[error("phase {0} is declared twice; declare each phase once, with all its transitions")]
    DeclaredTwice(String),
    /// A transition leads to a phase that is not declared.
    #[error("phase {from} may move to {to}, which is not declared; declare {to} (as a phase or a final phase)")]
    UndeclaredTarget {
        /// The phase the transition leaves.
        from: String,
        /// The phase it leads to.
        to: String,
    },
    /// A phase that is not final has no worker.
    #[error("phase {0} is not final but has no worker; add one with .worker({0}, ..) or declare it final")]
    MissingWorker(String),
    /// A worker was given for a final phase, which never runs one.
    #[error(
        "phase {0} is final, so its worker would never run; remove the worker or declare the phase with Phases::phase"
    )]
    WorkerForFinalPhase(String),
    /// A worker was given for a phase the declaration does not list.
    #[error("a worker was given for phase {0}, which Phase::phases does not declare")]
    WorkerForUndeclaredPhase(String),
    /// Two workers were given for one phase.
    #[error("two workers were given for phase {0}; a phase has one worker")]
    WorkerGivenTwice(String),
    /// A phase's serde name cannot be stored as a label value.
    #[error("phase {phase} cannot be used: {reason}")]
    InvalidName {
        /// The phase, as `Debug` prints it.
        phase: String,
        /// What is wrong with its name.
        reason: String,
    },
}

/// A checked declaration: what the scheduler consults on every sync.
#[derive(Debug)]
pub(crate) struct Declared<P> {
    initial: P,
    phases: HashMap<P, DeclaredPhase<P>>,
}

#[derive(Debug)]
struct DeclaredPhase<P> {
    name: String,
    is_final: bool,
    next: Vec<P>,
}

/// The serde name of `phase`, as stored in `status.phase`.
pub(crate) fn name_of<P: Serialize + Debug>(phase: &P) -> Result<String, DeclarationError> {
    let invalid = |reason: String| DeclarationError::InvalidName {
        phase: format!("{phase:?}"),
        reason,
    };
    match serde_json::to_value(phase) {
        Ok(serde_json::Value::String(name)) => {
            check_label_value(&name).map_err(invalid)?;
            Ok(name)
        }
        Ok(other) => Err(invalid(format!(
            "it serializes as {other}, not as a string (use a fieldless enum)"
        ))),
        Err(error) => Err(invalid(format!("it does not serialize: {error}"))),
    }
}

/// Kubernetes' rule for label values: at most 63 characters, alphanumerics at both
/// ends, `-`, `_` and `.` inside.
fn check_label_value(value: &str) -> Result<(), String> {
    let alphanumeric_ends = value.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && value.chars().last().is_some_and(|c| c.is_ascii_alphanumeric());
    let allowed = value
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if value.len() > 63 || !alphanumeric_ends || !allowed {
        return Err(format!(
            "its name {value:?} is not a valid label value (at most 63 letters, digits, '-', '_' or '.', beginning and ending with a letter or digit)"
        ));
    }
    Ok(())
}

fn display<P: Serialize + Debug + Copy>(phase: P) -> String {
    name_of(&phase).unwrap_or_else(|_| format!("{phase:?}"))
}

impl<P: Phase> Declared<P> {
    /// Checks `declaration` against the phases that have a worker: exactly one initial
    /// phase, each phase declared once, every transition target declared, a worker for
    /// every phase that is not final and for no other.
    pub(crate) fn check(declaration: Phases<P>, workers: &[P]) -> Result<Self, DeclarationError> {
        let mut phases = HashMap::new();
        let mut initial = Vec::new();
        for entry in declaration.entries {
            let name = name_of(&entry.phase)?;
            if entry.initial {
                initial.push(entry.phase);
            }
            let declared = DeclaredPhase {
                name: name.clone(),
                is_final: entry.is_final,
                next: entry.next,
            };
            if phases.insert(entry.phase, declared).is_some() {
                return Err(DeclarationError::DeclaredTwice(name));
            }
        }
        let initial = match initial[..] {
            [] => return Err(DeclarationError::NoInitialPhase),
            [one] => one,
            _ => {
                return Err(DeclarationError::SeveralInitialPhases(
                    initial.into_iter().map(display).collect(),
                ));
            }
        };
        for declared in phases.values() {
            if let Some(target) = declared.next.iter().find(|to| !phases.contains_key(to)) {
                return Err(DeclarationError::UndeclaredTarget {
                    from: declared.name.clone(),
                    to: display(*target),
                });
            }
        }
        for (index, phase) in workers.iter().enumerate() {
            match phases.get(phase) {
                None => return Err(DeclarationError::WorkerForUndeclaredPhase(display(*phase))),
                Some(declared) if declared.is_final => {
                    return Err(DeclarationError::WorkerForFinalPhase(declared.name.clone()));
                }
                Some(declared) if workers[..index].contains(phase) => {
                    return Err(DeclarationError::WorkerGivenTwice(declared.name.clone()));
                }
                Some(_) => {}
            }
        }
        // Sorted by name, so that which missing worker is reported does not depend on
        // the hash map's order.
        let mut missing: Vec<&DeclaredPhase<P>> = phases
            .iter()
            .filter(|(phase, declared)| !declared.is_final && !workers.contains(phase))
            .map(|(_, declared)| declared)
            .collect();
        missing.sort_by(|a, b| a.name.cmp(&b.name));
        if let Some(declared) = missing.first() {
            return Err(DeclarationError::MissingWorker(declared.name.clone()));
        }
        Ok(Self { initial, phases })
    }

    /// The phase a resource without one is in.
    pub(crate) fn initial(&self) -> P {
        self.initial
    }

    /// The serde name of a declared phase; `None` for one the declaration lacks.
    pub(crate) fn name(&self, phase: P) -> Option<&str> {
        self.phases.get(&phase).map(|p| p.name.as_str())
    }

    /// Every declared phase, with its name.
    pub(crate) fn names(&self) -> impl Iterator<Item = (P, &str)> {
        self.phases
            .iter()
            .map(|(phase, declared)| (*phase, declared.name.as_str()))
    }

    /// Whether `phase` is declared final.
    pub(crate) fn is_final(&self, phase: P) -> bool {
        self.phases.get(&phase).is_some_and(|p| p.is_final)
    }

    /// Whether a worker in `from` may move the resource to `to`.
    pub(crate) fn allows(&self, from: P, to: P) -> bool {
        from == to || self.phases.get(&from).is_some_and(|p| p.next.contains(&to))
    }

    /// The phases `from` may move to, by name, for error messages.
    pub(crate) fn allowed_names(&self, from: P) -> Vec<&str> {
        self.phases
            .get(&from)
            .into_iter()
            .flat_map(|p| &p.next)
            .filter_map(|to| self.name(*to))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    use super::{DeclarationError, Declared, Phase, Phases};

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    enum Light {
        Red,
        Green,
        Amber,
        Off,
    }

    impl Phase for Light {
        fn phases() -> Phases<Self> {
            Phases::new()
                .initial(Self::Red, [Self::Green, Self::Off])
                .phase(Self::Green, [Self::Amber])
                .phase(Self::Amber, [Self::Red])
                .final_phase(Self::Off)
        }
    }

    use Light::{Amber, Green, Off, Red};

    #[test]
    fn a_sound_declaration_answers_what_the_scheduler_asks() {
        let declared = Declared::check(Light::phases(), &[Red, Green, Amber]).expect("valid");
        assert_eq!(declared.initial(), Red);
        assert_eq!(declared.name(Amber), Some("Amber"));
        assert!(
            declared.allows(Red, Green) && declared.allows(Green, Green),
            "staying is allowed"
        );
        assert!(!declared.allows(Green, Red), "not declared");
        assert!(declared.is_final(Off) && !declared.is_final(Red));
        assert_eq!(declared.allowed_names(Red), ["Green", "Off"]);
    }

    #[test]
    fn each_broken_rule_is_named() {
        let check = |phases: Phases<Light>, workers: &[Light]| Declared::check(phases, workers).unwrap_err();
        assert_eq!(
            check(Phases::new().phase(Red, []).final_phase(Off), &[Red]),
            DeclarationError::NoInitialPhase
        );
        assert_eq!(
            check(Phases::new().initial(Red, []).initial(Green, []), &[Red, Green]),
            DeclarationError::SeveralInitialPhases(vec!["Red".into(), "Green".into()])
        );
        assert_eq!(
            check(Phases::new().initial(Red, [Green]), &[Red]),
            DeclarationError::UndeclaredTarget {
                from: "Red".into(),
                to: "Green".into()
            }
        );
        assert_eq!(
            check(Light::phases(), &[Red, Green]),
            DeclarationError::MissingWorker("Amber".into())
        );
        assert_eq!(
            check(Light::phases(), &[Red, Green, Amber, Off]),
            DeclarationError::WorkerForFinalPhase("Off".into())
        );
        assert_eq!(
            check(Light::phases(), &[Red, Green, Amber, Green]),
            DeclarationError::WorkerGivenTwice("Green".into())
        );
        assert_eq!(
            check(Phases::new().initial(Red, []), &[Red, Amber]),
            DeclarationError::WorkerForUndeclaredPhase("Amber".into())
        );
        assert_eq!(
            check(Phases::new().initial(Red, []).phase(Red, []), &[Red]),
            DeclarationError::DeclaredTwice("Red".into())
        );
        let message = check(Light::phases(), &[Red, Green]).to_string();
        assert!(message.contains("Amber") && message.contains(".worker("), "{message}");
    }

    #[test]
    fn a_name_that_is_not_a_label_value_is_refused() {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        enum Odd {
            #[serde(rename = "waiting for review")]
            Waiting,
        }
        impl Phase for Odd {
            fn phases() -> Phases<Self> {
                Phases::new().initial(Self::Waiting, [])
            }
        }
        let error = Declared::check(Odd::phases(), &[Odd::Waiting]).unwrap_err();
        assert!(
            matches!(&error, DeclarationError::InvalidName { reason, .. } if reason.contains("label value")),
            "{error}"
        );
    }
}
