//! The report: agreement with the reference overall, per kind, per operation and per
//! mutation family; disagreements grouped into classes (kind + field pattern + the
//! first difference), biggest first, each with the area it belongs to and an example;
//! written as JSON (every case, with the exchanges of those that differ) and as
//! Markdown (`markdown`). `before_after` compares two JSON reports.

pub mod before_after;
pub mod markdown;

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use crate::compare::{Aspect, Difference};
use crate::outcome::{Header, Outcome};

/// A whole run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Report {
    /// How it was run.
    pub meta: Meta,
    /// Per server compared with the reference.
    pub summaries: Vec<Summary>,
    /// Every case run.
    pub outcomes: Vec<Outcome>,
}

/// How a run was made.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Meta {
    /// This tool's version.
    pub tool: String,
    /// The command line.
    pub command: String,
    /// Unix time of the start.
    pub started: u64,
    /// Seconds the cases took.
    pub seconds: u64,
    /// The sampling seed.
    pub seed: u64,
    /// The budget, if any.
    pub budget: Option<usize>,
    /// Cases generated (before filters and the budget).
    pub generated: usize,
    /// Cases selected.
    pub selected: usize,
    /// The servers, the reference first.
    pub targets: Vec<TargetInfo>,
    /// Kinds: label, and the number of cases each got.
    pub kinds: BTreeMap<String, usize>,
    /// Seeds left out, with why.
    pub skipped: Vec<String>,
}

/// One server.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TargetInfo {
    /// Its name in the report.
    pub name: String,
    /// `/version`'s gitVersion.
    pub version: String,
    /// Where it is.
    pub address: String,
}

/// Cases and agreement.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Cases run.
    pub cases: usize,
    /// Cases that agreed (every aspect of the steps after the seed was created).
    pub agreeing: usize,
    /// Cases where every aspect of every step agreed, the seed's too.
    pub strict: usize,
    /// Cases where every step's status code agreed.
    pub same_codes: usize,
}

impl Tally {
    fn add(&mut self, agrees: bool, strict: bool, same_codes: bool) {
        self.cases += 1;
        self.agreeing += usize::from(agrees);
        self.strict += usize::from(strict);
        self.same_codes += usize::from(same_codes);
    }
}

/// One server against the reference.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Summary {
    /// The server.
    pub target: String,
    /// All cases.
    pub overall: Tally,
    /// By kind.
    pub by_kind: BTreeMap<String, Tally>,
    /// By operation.
    pub by_operation: BTreeMap<String, Tally>,
    /// By mutation family.
    pub by_family: BTreeMap<String, Tally>,
    /// Disagreements grouped, biggest first.
    pub classes: Vec<Class>,
}

/// Disagreements of one kind, field and first difference.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Class {
    /// The kind.
    pub kind: String,
    /// The field pattern (`(seed)` when the seed itself was answered differently).
    pub field: String,
    /// The field within its type.
    pub type_field: String,
    /// The difference, in words.
    pub difference: String,
    /// Which part of the server it belongs to.
    pub area: String,
    /// The cases in it.
    pub cases: Vec<String>,
    /// Their mutation families.
    pub families: BTreeSet<String>,
    /// Their operations.
    pub operations: BTreeSet<String>,
    /// Their mutations, in words (at most 12).
    pub mutations: BTreeSet<String>,
}

/// The summaries of `outcomes` for each server after the reference.
pub fn summarise(target_names: &[String], outcomes: &[Outcome]) -> Vec<Summary> {
    target_names
        .iter()
        .enumerate()
        .skip(1)
        .map(|(index, name)| summary_of(index, name, outcomes))
        .collect()
}

fn summary_of(index: usize, name: &str, outcomes: &[Outcome]) -> Summary {
    let mut summary = Summary {
        target: name.to_owned(),
        overall: Tally::default(),
        by_kind: BTreeMap::new(),
        by_operation: BTreeMap::new(),
        by_family: BTreeMap::new(),
        classes: Vec::new(),
    };
    let mut classes: BTreeMap<(String, String, String), Class> = BTreeMap::new();
    for outcome in outcomes {
        let (Some(reference), Some(trace)) = (outcome.traces.first(), outcome.traces.get(index)) else {
            continue;
        };
        let agrees = outcome.agrees(index);
        let strict = outcome.agrees_strictly(index);
        let same_codes = reference.codes == trace.codes;
        let case = &outcome.case;
        summary.overall.add(agrees, strict, same_codes);
        for tally in [
            summary.by_kind.entry(case.kind.clone()).or_default(),
            summary.by_operation.entry(case.operation.clone()).or_default(),
            summary.by_family.entry(case.family.clone()).or_default(),
        ] {
            tally.add(agrees, strict, same_codes);
        }
        let Some((key, first, in_setup)) = outcome.class(index) else {
            continue;
        };
        let class = classes
            .entry((key.kind.clone(), key.field.clone(), key.difference.clone()))
            .or_insert_with(|| Class {
                kind: key.kind,
                type_field: if in_setup {
                    String::new()
                } else {
                    case.type_field.clone()
                },
                area: area(case, &first, in_setup),
                field: key.field,
                difference: key.difference,
                cases: Vec::new(),
                families: BTreeSet::new(),
                operations: BTreeSet::new(),
                mutations: BTreeSet::new(),
            });
        class.cases.push(case.id.clone());
        class.families.insert(case.family.clone());
        class.operations.insert(case.operation.clone());
        if class.mutations.len() < 12 {
            class.mutations.insert(case.description.clone());
        }
    }
    summary.classes = classes.into_values().collect();
    summary.classes.sort_by(|a, b| {
        b.cases
            .len()
            .cmp(&a.cases.len())
            .then_with(|| (&a.kind, &a.field).cmp(&(&b.kind, &b.field)))
    });
    summary
}

/// Which part of the server a class belongs to, for the people who fix it.
fn area(case: &Header, first: &Difference, in_setup: bool) -> String {
    let (family, operation, kind) = (case.family.as_str(), case.operation.as_str(), case.kind.as_str());
    if in_setup {
        return format!("the seed refused or accepted: {kind}");
    }
    let by_family = match family {
        "selector" | "list-options" => Some("selectors and list options"),
        "watch" => Some("watch"),
        "dry-run" => Some("dryRun"),
        "field-validation" => Some("fieldValidation"),
        "scale" => Some("scale subresource"),
        "status" => Some("status subresource"),
        "delete-options" => Some("delete"),
        "request-shape" => Some("generic request handling"),
        "bad-patch" if operation == "apply" => Some("server-side apply"),
        "bad-patch" => Some("patch"),
        _ => None,
    };
    if let Some(area) = by_family {
        return area.to_owned();
    }
    if first.aspect == Aspect::Stored || first.aspect == Aspect::Warnings {
        if first.path.contains("managedFields") {
            return "server-side apply (managedFields)".to_owned();
        }
        return if family == "seed" {
            format!("defaults and stored object: {kind}")
        } else {
            format!("stored object: {kind}")
        };
    }
    let what = if family == "seed" {
        "request handling"
    } else if case.field.starts_with("metadata") {
        "ObjectMeta validation"
    } else {
        "validation"
    };
    let direction = match (first.reference.chars().next(), first.subject.chars().next()) {
        (Some('4'), Some('2')) => " (false green: accepted here)",
        (Some('2'), Some('4')) => " (false red: refused here)",
        _ => "",
    };
    match operation {
        "apply" => format!("{what} via server-side apply: {kind}{direction}"),
        "create" | "put" | "merge-patch" | "strategic-patch" | "json-patch" | "status" => {
            format!("{what}: {kind}{direction}")
        }
        _ => format!("{what}: {kind} ({operation}){direction}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Trace;

    fn outcome(id: &str, kind: &str, field: &str, differences: Vec<Difference>, codes: (u16, u16)) -> Outcome {
        Outcome {
            case: Header {
                id: id.into(),
                kind: kind.into(),
                operation: "create".into(),
                family: "negative".into(),
                field: field.into(),
                type_field: format!("T.{field}"),
                description: "-1".into(),
            },
            traces: vec![
                Trace {
                    target: "1.32".into(),
                    codes: vec![codes.0],
                    differences: vec![],
                    exchanges: vec![],
                },
                Trace {
                    target: "embedded".into(),
                    codes: vec![codes.1],
                    differences,
                    exchanges: vec![],
                },
            ],
        }
    }

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
    fn disagreements_are_classed_and_counted() {
        let outcomes = vec![
            outcome("a", "Pod", "spec.x", vec![code("422 Invalid", "201")], (422, 201)),
            outcome("b", "Pod", "spec.x", vec![code("422 Invalid", "201")], (422, 201)),
            outcome("c", "Pod", "spec.y", vec![], (201, 201)),
        ];
        let summaries = summarise(&["1.32".into(), "embedded".into()], &outcomes);
        let summary = &summaries[0];
        assert_eq!(
            summary.overall,
            Tally {
                cases: 3,
                agreeing: 1,
                strict: 1,
                same_codes: 1
            }
        );
        assert_eq!(summary.classes.len(), 1);
        let class = &summary.classes[0];
        assert_eq!(class.cases, ["a", "b"]);
        assert_eq!(class.difference, "code: 1.32 422 Invalid, embedded 201");
        assert_eq!(class.area, "validation: Pod (false green: accepted here)");
    }
}
