//! Before and after: two JSON reports of the same cases (the same seed and options,
//! so the same case ids) compared for one server: agreement over the cases both ran,
//! the cases fixed and broken, and the classes that disappeared, remain or appeared.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use super::Report;
use crate::outcome::{Outcome, percent};

/// The comparison as Markdown.
pub fn render(before: &Report, after: &Report, target: &str) -> String {
    let index_of = |report: &Report| report.meta.targets.iter().position(|t| t.name == target);
    let mut out = String::new();
    let (Some(before_index), Some(after_index)) = (index_of(before), index_of(after)) else {
        let _ = writeln!(out, "Both reports must name the server {target}.");
        return out;
    };
    let (old, new) = (by_id(before), by_id(after));
    let common: Vec<&str> = old.keys().filter(|id| new.contains_key(*id)).copied().collect();
    let agreeing = |cases: &BTreeMap<&str, &Outcome>, index: usize| {
        common
            .iter()
            .filter(|id| cases.get(*id).is_some_and(|o| o.agrees(index)))
            .count()
    };
    let (agreed_before, agreed_after) = (agreeing(&old, before_index), agreeing(&new, after_index));
    let fixed: Vec<&str> = common
        .iter()
        .filter(|id| !old[*id].agrees(before_index) && new[*id].agrees(after_index))
        .copied()
        .collect();
    let broken: Vec<&str> = common
        .iter()
        .filter(|id| old[*id].agrees(before_index) && !new[*id].agrees(after_index))
        .copied()
        .collect();
    let _ = writeln!(out, "# {target} before and after\n");
    let _ = writeln!(
        out,
        "{} cases in both reports ({} only before, {} only after).\n",
        common.len(),
        old.len() - common.len(),
        new.len() - common.len()
    );
    let _ = writeln!(out, "| | agree | rate |\n|---|---|---|");
    let _ = writeln!(
        out,
        "| before | {agreed_before} | {:.1}% |",
        percent(agreed_before, common.len())
    );
    let _ = writeln!(
        out,
        "| after | {agreed_after} | {:.1}% |",
        percent(agreed_after, common.len())
    );
    let _ = writeln!(
        out,
        "\nFixed: {} cases. Broken (agreed before, not after): {} cases.",
        fixed.len(),
        broken.len()
    );
    let class_of = |outcome: &Outcome, index: usize| {
        outcome
            .class(index)
            .map(|(key, _, _)| format!("{} `{}`: {}", key.kind, key.field, key.difference))
    };
    let classes = |cases: &BTreeMap<&str, &Outcome>, index: usize| -> BTreeMap<String, usize> {
        let mut counts = BTreeMap::new();
        for id in &common {
            if let Some(class) = cases.get(id).and_then(|o| class_of(o, index)) {
                *counts.entry(class).or_insert(0) += 1;
            }
        }
        counts
    };
    let (old_classes, new_classes) = (classes(&old, before_index), classes(&new, after_index));
    let names: BTreeSet<&String> = old_classes.keys().chain(new_classes.keys()).collect();
    let mut rows: Vec<(&String, usize, usize)> = names
        .into_iter()
        .map(|name| {
            (
                name,
                old_classes.get(name).copied().unwrap_or(0),
                new_classes.get(name).copied().unwrap_or(0),
            )
        })
        .collect();
    rows.sort_by(|a, b| (b.1.max(b.2)).cmp(&a.1.max(a.2)).then_with(|| a.0.cmp(b.0)));
    let _ = writeln!(out, "\n| class | before | after |\n|---|---|---|");
    for (name, was, is) in rows {
        let _ = writeln!(out, "| {} | {was} | {is} |", name.replace('|', "\\|"));
    }
    if !broken.is_empty() {
        let _ = writeln!(
            out,
            "\nBroken cases: {}",
            broken.iter().take(50).copied().collect::<Vec<_>>().join(", ")
        );
    }
    out
}

/// A report's cases by id.
fn by_id(report: &Report) -> BTreeMap<&str, &Outcome> {
    report.outcomes.iter().map(|o| (o.case.id.as_str(), o)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::{Aspect, Difference};
    use crate::outcome::{Header, Trace};
    use crate::report::{Meta, TargetInfo, summarise};

    fn report(agrees: &[(&str, bool)]) -> Report {
        let outcomes: Vec<Outcome> = agrees
            .iter()
            .map(|(id, agrees)| Outcome {
                case: Header {
                    id: (*id).into(),
                    kind: "Pod".into(),
                    operation: "create".into(),
                    family: "zero".into(),
                    field: "spec.x".into(),
                    type_field: "core.v1.PodSpec.x".into(),
                    description: "0".into(),
                },
                traces: vec![
                    Trace {
                        target: "1.32".into(),
                        codes: vec![422],
                        differences: vec![],
                        exchanges: vec![],
                    },
                    Trace {
                        target: "embedded".into(),
                        codes: vec![if *agrees { 422 } else { 201 }],
                        differences: if *agrees {
                            vec![]
                        } else {
                            vec![Difference {
                                step: 0,
                                label: "create".into(),
                                aspect: Aspect::Code,
                                path: String::new(),
                                reference: "422 Invalid".into(),
                                subject: "201".into(),
                            }]
                        },
                        exchanges: vec![],
                    },
                ],
            })
            .collect();
        let targets = vec![
            TargetInfo {
                name: "1.32".into(),
                version: String::new(),
                address: String::new(),
            },
            TargetInfo {
                name: "embedded".into(),
                version: String::new(),
                address: String::new(),
            },
        ];
        Report {
            summaries: summarise(&["1.32".into(), "embedded".into()], &outcomes),
            meta: Meta {
                tool: String::new(),
                command: String::new(),
                started: 0,
                seconds: 0,
                seed: 1,
                budget: None,
                generated: 0,
                selected: 0,
                targets,
                kinds: BTreeMap::new(),
                skipped: vec![],
            },
            outcomes,
        }
    }

    #[test]
    fn fixed_and_broken_cases_are_counted() {
        let before = report(&[("a", false), ("b", false), ("c", true), ("old", true)]);
        let after = report(&[("a", true), ("b", false), ("c", false), ("new", true)]);
        let text = render(&before, &after, "embedded");
        assert!(
            text.contains("3 cases in both reports (1 only before, 1 only after)."),
            "{text}"
        );
        assert!(text.contains("| before | 1 | 33.3% |"), "{text}");
        assert!(
            text.contains("Fixed: 1 cases. Broken (agreed before, not after): 1 cases."),
            "{text}"
        );
        assert!(
            text.contains("| Pod `spec.x`: code: 1.32 422 Invalid, embedded 201 | 2 | 2 |"),
            "{text}"
        );
    }
}
