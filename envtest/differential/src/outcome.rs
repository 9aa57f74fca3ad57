//! What a case found: each server's trace (codes, differences from the reference,
//! and the exchanges when there were any), which differences count for the case, and
//! the class a disagreement falls in (kind, field, first difference), which the
//! runner uses to keep a few examples per class and the report to group them.

use serde::{Deserialize, Serialize};

use crate::compare::{Aspect, Difference};
use crate::plan::Case;
use crate::wire::{Answer, Request};

/// One request and its (normalised) answer, as a report keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Exchange {
    /// The request; None when it was not sent (the step it edits failed) or, for a
    /// server other than the reference, when it was the reference's own.
    pub request: Option<Request>,
    /// The answer, normalised, long strings cut.
    pub answer: Answer,
}

/// What one server did in one case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// The server.
    pub target: String,
    /// Each step's status code.
    pub codes: Vec<u16>,
    /// How its answers differ from the reference's (empty for the reference).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub differences: Vec<Difference>,
    /// The exchanges, kept when some server disagreed in this case.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exchanges: Vec<Exchange>,
}

/// A case and what every server did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// The case, without its steps (the exchanges hold the requests).
    #[serde(flatten)]
    pub case: Header,
    /// One trace per server, the reference first.
    pub traces: Vec<Trace>,
}

/// A case's identity and meaning.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Stable id.
    pub id: String,
    /// Kind label.
    pub kind: String,
    /// How the mutation was sent.
    pub operation: String,
    /// What it changed.
    pub family: String,
    /// The field's path pattern.
    pub field: String,
    /// The field within its type.
    pub type_field: String,
    /// The mutation in words.
    pub description: String,
}

impl From<&Case> for Header {
    fn from(case: &Case) -> Self {
        Self {
            id: case.id.clone(),
            kind: case.kind.clone(),
            operation: case.operation.name(),
            family: case.family.name(),
            field: case.field.clone(),
            type_field: case.type_field.clone(),
            description: case.description.clone(),
        }
    }
}

impl Outcome {
    /// The differences of the server at `index` that count for this case: those of
    /// the steps after the seed was created, and a seed refused or accepted where the
    /// reference did otherwise. How the stored seed differs is counted once, by the
    /// cases of the seed itself (family `seed`), not again in every case built on it.
    pub fn counted(&self, index: usize) -> Vec<&Difference> {
        let Some(trace) = self.traces.get(index) else {
            return Vec::new();
        };
        trace
            .differences
            .iter()
            .filter(|d| !is_setup(&self.case.family, &d.label) || d.aspect == Aspect::Code)
            .collect()
    }

    /// Whether the server at `index` agreed with the reference (see [`counted`](Self::counted)).
    pub fn agrees(&self, index: usize) -> bool {
        self.counted(index).is_empty()
    }

    /// Whether the server at `index` agreed in every aspect of every step, the seed's
    /// too.
    pub fn agrees_strictly(&self, index: usize) -> bool {
        self.traces.get(index).is_some_and(|trace| trace.differences.is_empty())
    }
}

/// Whether a step of a case of `family` only set the case up (created or applied the
/// seed the mutation then changes).
pub fn is_setup(family: &str, label: &str) -> bool {
    family != "seed" && label.contains("the seed")
}

/// Where a case's disagreement falls: the key of its class and what it shows.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ClassKey {
    /// The kind.
    pub kind: String,
    /// The field (`(seed)` when the seed was refused or accepted where the reference
    /// did otherwise; `field: what` for request-level cases).
    pub field: String,
    /// The first difference, in words.
    pub difference: String,
}

impl Outcome {
    /// The class of the disagreement of the server at `index`, with the difference it
    /// is named by and whether that was in the seed's own step; None when it agreed.
    pub fn class(&self, index: usize) -> Option<(ClassKey, Difference, bool)> {
        let reference = self.traces.first()?.target.clone();
        let subject = self.traces.get(index)?.target.clone();
        let first = first_difference(self.counted(index))?.clone();
        let in_setup = is_setup(&self.case.family, &first.label);
        let field = if in_setup {
            "(seed)".to_owned()
        } else if self.case.type_field.is_empty() {
            // Request-level cases are each their own request: the description says which.
            if self.case.field.is_empty() {
                self.case.description.clone()
            } else {
                format!("{}: {}", self.case.field, self.case.description)
            }
        } else {
            self.case.field.clone()
        };
        let key = ClassKey {
            kind: self.case.kind.clone(),
            field,
            difference: describe(&first, &reference, &subject),
        };
        Some((key, first, in_setup))
    }
}

/// The difference a case is classed by: the most telling aspect, earliest step.
pub fn first_difference<'a>(differences: impl IntoIterator<Item = &'a Difference>) -> Option<&'a Difference> {
    differences.into_iter().min_by_key(|d| (d.step, d.aspect))
}

/// A difference in words, naming both servers.
pub fn describe(difference: &Difference, reference: &str, subject: &str) -> String {
    let both = || format!("{reference} {}, {subject} {}", difference.reference, difference.subject);
    match difference.aspect {
        Aspect::Code => format!("code: {}", both()),
        Aspect::Reason => format!("reason: {}", both()),
        Aspect::Causes => format!(
            "causes differ at {}",
            if difference.path.is_empty() {
                "-"
            } else {
                &difference.path
            }
        ),
        Aspect::Message => "message differs".to_owned(),
        Aspect::CauseOrder => "causes in another order".to_owned(),
        Aspect::Details => "details differ".to_owned(),
        Aspect::Body => format!("body: {}", both()),
        Aspect::Warnings => "warnings differ".to_owned(),
        Aspect::Stored => {
            let how = match (difference.reference.as_str(), difference.subject.as_str()) {
                (_, "absent") => format!("missing on {subject}"),
                ("absent", _) => format!("only on {subject}"),
                _ => "differs".to_owned(),
            };
            format!("stored {}: {how}", difference.path)
        }
    }
}

/// `part` of `whole` in percent (0 when there is no whole).
#[expect(clippy::cast_precision_loss, reason = "case counts are far below 2^52")]
pub fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(reference: &str, subject: &str) -> Difference {
        Difference {
            step: 0,
            label: "create the mutated object".into(),
            aspect: Aspect::Code,
            path: String::new(),
            reference: reference.into(),
            subject: subject.into(),
        }
    }

    #[test]
    fn the_first_difference_is_the_earliest_most_telling() {
        let mut stored = code("1", "2");
        stored.aspect = Aspect::Stored;
        stored.step = 0;
        let mut later = code("422", "201");
        later.step = 1;
        let differences = [later, stored.clone()];
        let found = first_difference(&differences).expect("one");
        assert_eq!(found, &stored);
    }

    #[test]
    fn differences_of_the_seed_count_only_in_the_seed_cases_unless_refused() {
        let mut stored = code("1", "2");
        stored.aspect = Aspect::Stored;
        stored.label = "create the seed".into();
        let outcome = |family: &str, differences: Vec<Difference>| Outcome {
            case: Header {
                id: "x".into(),
                kind: "Pod".into(),
                operation: "put".into(),
                family: family.into(),
                field: "spec.x".into(),
                type_field: "core.v1.PodSpec.x".into(),
                description: "-1".into(),
            },
            traces: vec![
                Trace {
                    target: "1.32".into(),
                    codes: vec![201],
                    differences: vec![],
                    exchanges: vec![],
                },
                Trace {
                    target: "embedded".into(),
                    codes: vec![201],
                    differences,
                    exchanges: vec![],
                },
            ],
        };
        let quiet = outcome("negative", vec![stored.clone()]);
        assert!(quiet.agrees(1) && !quiet.agrees_strictly(1));
        assert!(quiet.class(1).is_none());
        let seed = outcome("seed", vec![stored]);
        assert!(!seed.agrees(1));
        let mut refused = code("201", "422 Invalid");
        refused.label = "create the seed".into();
        let (key, _, in_setup) = outcome("negative", vec![refused]).class(1).expect("a class");
        assert!(in_setup);
        assert_eq!(key.field, "(seed)");
        assert_eq!(key.difference, "code: 1.32 201, embedded 422 Invalid");
    }
}
