//! The report as Markdown, for people: how the run was made, agreement tables, the
//! classes biggest first with an example request and every server's answer, and the
//! same disagreements gathered by type field across kinds.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde_json::Value;

use super::{Class, Report, Summary, Tally};
use crate::outcome::{Exchange, Outcome, percent};

/// How many classes get a section with an example.
const DETAILED: usize = 80;

/// How many classes the table lists (the JSON report has them all).
const LISTED: usize = 1500;

/// The whole report.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let meta = &report.meta;
    let reference = meta.targets.first().map_or("?", |t| t.name.as_str());
    let _ = writeln!(out, "# Differential fuzzing against kube-apiserver {reference}\n");
    let _ = writeln!(
        out,
        "{} cases run of {} selected ({} generated), seed {}, budget {}, in {} min {} s; started at Unix time {}.\n",
        report.outcomes.len(),
        meta.selected,
        meta.generated,
        meta.seed,
        meta.budget.map_or_else(|| "none".to_owned(), |b| b.to_string()),
        meta.seconds / 60,
        meta.seconds % 60,
        meta.started,
    );
    let _ = writeln!(out, "Command: `{}` ({})\n", meta.command, meta.tool);
    let _ = writeln!(out, "| server | version | where |\n|---|---|---|");
    for (index, target) in meta.targets.iter().enumerate() {
        let role = if index == 0 { " (reference)" } else { "" };
        let _ = writeln!(
            out,
            "| {}{role} | {} | {} |",
            target.name, target.version, target.address
        );
    }
    if !meta.skipped.is_empty() {
        let _ = writeln!(out, "\nSeeds left out: {}.", meta.skipped.join("; "));
    }
    let _ = writeln!(out, "\n## Agreement with {reference}\n");
    let _ = writeln!(
        out,
        "A case agrees when, in the steps after the seed was created, every status code, reason, cause, message, \
         detail, warning and (for successes) normalised object agrees, and the seed was accepted by both or \
         refused by both (how the stored seed differs is counted by the seed's own cases). \"All steps\" also \
         counts the seed's stored object in every case; \"same codes\" counts the status codes alone.\n"
    );
    let _ = writeln!(
        out,
        "| server | cases | agree | all steps | same codes |\n|---|---|---|---|---|"
    );
    for summary in &report.summaries {
        let _ = writeln!(out, "| {} | {} |", summary.target, tally_cells(summary.overall));
    }
    for summary in &report.summaries {
        tables(&mut out, summary);
        themes(&mut out, summary);
        classes(&mut out, summary, &report.outcomes, reference);
    }
    out
}

fn tally_cells(tally: Tally) -> String {
    format!(
        "{} | {} ({:.1}%) | {} ({:.1}%) | {} ({:.1}%)",
        tally.cases,
        tally.agreeing,
        percent(tally.agreeing, tally.cases),
        tally.strict,
        percent(tally.strict, tally.cases),
        tally.same_codes,
        percent(tally.same_codes, tally.cases)
    )
}

fn tables(out: &mut String, summary: &Summary) {
    let table = |out: &mut String, title: &str, rows: &BTreeMap<String, Tally>, worst_first: bool| {
        let _ = writeln!(
            out,
            "\n### {} by {title}\n\n| {title} | cases | agree | all steps | same codes |\n|---|---|---|---|---|",
            summary.target
        );
        let mut rows: Vec<(&String, &Tally)> = rows.iter().collect();
        if worst_first {
            rows.sort_by(|a, b| {
                percent(a.1.agreeing, a.1.cases)
                    .total_cmp(&percent(b.1.agreeing, b.1.cases))
                    .then_with(|| a.0.cmp(b.0))
            });
        }
        for (name, tally) in rows {
            let _ = writeln!(out, "| {name} | {} |", tally_cells(*tally));
        }
    };
    table(out, "operation", &summary.by_operation, false);
    table(out, "family", &summary.by_family, false);
    table(out, "kind", &summary.by_kind, true);
}

fn classes(out: &mut String, summary: &Summary, outcomes: &[Outcome], reference: &str) {
    let _ = writeln!(
        out,
        "\n## Classes: {} against {reference} ({} classes, biggest first)\n",
        summary.target,
        summary.classes.len()
    );
    let _ = writeln!(
        out,
        "| # | cases | kind | field | difference | area |\n|---|---|---|---|---|---|"
    );
    for (index, class) in summary.classes.iter().take(LISTED).enumerate() {
        let _ = writeln!(
            out,
            "| {} | {} | {} | `{}` | {} | {} |",
            index + 1,
            class.cases.len(),
            class.kind,
            class.field,
            cell(&class.difference),
            class.area
        );
    }
    if summary.classes.len() > LISTED {
        let _ = writeln!(
            out,
            "\n{} more classes, of {} cases, are in the JSON report.",
            summary.classes.len() - LISTED,
            summary
                .classes
                .iter()
                .skip(LISTED)
                .map(|c| c.cases.len())
                .sum::<usize>()
        );
    }
    let by_id: BTreeMap<&str, &Outcome> = outcomes.iter().map(|o| (o.case.id.as_str(), o)).collect();
    for (index, class) in summary.classes.iter().take(DETAILED).enumerate() {
        example(out, index + 1, class, &by_id, &summary.target);
    }
}

fn example(out: &mut String, number: usize, class: &Class, by_id: &BTreeMap<&str, &Outcome>, subject: &str) {
    let _ = writeln!(
        out,
        "\n### {number}. {} `{}`: {} ({} cases)\n",
        class.kind,
        class.field,
        class.difference,
        class.cases.len()
    );
    let _ = writeln!(
        out,
        "Area: {}. Families: {}. Operations: {}. Mutations: {}.",
        class.area,
        class.families.iter().cloned().collect::<Vec<_>>().join(", "),
        class.operations.iter().cloned().collect::<Vec<_>>().join(", "),
        class.mutations.iter().cloned().collect::<Vec<_>>().join("; "),
    );
    let Some(outcome) = class.cases.first().and_then(|id| by_id.get(id.as_str())) else {
        return;
    };
    let _ = writeln!(
        out,
        "\nExample `{}`: {} {} `{}`, {}.\n",
        outcome.case.id, outcome.case.kind, outcome.case.operation, outcome.case.field, outcome.case.description
    );
    let Some(subject_trace) = outcome.traces.iter().find(|t| t.target == subject) else {
        return;
    };
    let Some(reference_trace) = outcome.traces.first() else {
        return;
    };
    for (step, (ours, theirs)) in reference_trace
        .exchanges
        .iter()
        .zip(&subject_trace.exchanges)
        .enumerate()
    {
        let Some(request) = &ours.request else { continue };
        let _ = writeln!(
            out,
            "{}. `{} {}`{}",
            step + 1,
            request.method,
            request.path,
            body_excerpt(&request.body)
        );
        let _ = writeln!(out, "   - {}: {}", reference_trace.target, answer_excerpt(ours));
        let _ = writeln!(out, "   - {}: {}", subject_trace.target, answer_excerpt(theirs));
    }
    for difference in &subject_trace.differences {
        let _ = writeln!(
            out,
            "\n   - step {} {}{}: {} `{}` / {} `{}`",
            difference.step + 1,
            difference.aspect.name(),
            if difference.path.is_empty() {
                String::new()
            } else {
                format!(" at `{}`", difference.path)
            },
            reference_trace.target,
            cut(&difference.reference, 300),
            subject_trace.target,
            cut(&difference.subject, 300),
        );
    }
}

/// How many themes the table lists.
const THEMES: usize = 250;

/// The classes gathered across kinds: the same field of the same type (or the same
/// request-level field) with the same difference, whatever kind carries it.
fn themes(out: &mut String, summary: &Summary) {
    let mut rows: BTreeMap<(String, String), (usize, Vec<String>, String)> = BTreeMap::new();
    for class in &summary.classes {
        let field = if class.type_field.is_empty() {
            &class.field
        } else {
            &class.type_field
        };
        let row = rows
            .entry((field.clone(), class.difference.clone()))
            .or_insert_with(|| (0, Vec::new(), theme_area(&class.area)));
        row.0 += class.cases.len();
        if !row.1.contains(&class.kind) {
            row.1.push(class.kind.clone());
        }
    }
    let mut rows: Vec<_> = rows.into_iter().collect();
    rows.sort_by(|a, b| {
        b.1.0
            .cmp(&a.1.0)
            .then_with(|| b.1.1.len().cmp(&a.1.1.len()))
            .then_with(|| a.0.cmp(&b.0))
    });
    let _ = writeln!(
        out,
        "\n## Themes: {} against the reference, the same field and difference across kinds ({} themes{})\n\n\
         | # | cases | field | difference | area | kinds |\n|---|---|---|---|---|---|",
        summary.target,
        rows.len(),
        if rows.len() > THEMES {
            format!(", the first {THEMES}")
        } else {
            String::new()
        }
    );
    for (index, ((field, difference), (count, kinds, area))) in rows.into_iter().take(THEMES).enumerate() {
        let shown = if kinds.len() > 8 {
            format!("{} and {} more", kinds[..8].join(", "), kinds.len() - 8)
        } else {
            kinds.join(", ")
        };
        let _ = writeln!(
            out,
            "| {} | {count} | `{field}` | {} | {area} | {shown} |",
            index + 1,
            cell(&difference)
        );
    }
}

/// An area without the kind it was found in: `validation (false green)`.
fn theme_area(area: &str) -> String {
    let general = area.split(": ").next().unwrap_or(area);
    if area.contains("false green") {
        format!("{general} (false green)")
    } else if area.contains("false red") {
        format!("{general} (false red)")
    } else {
        general.to_owned()
    }
}

fn body_excerpt(body: &str) -> String {
    if body.is_empty() {
        String::new()
    } else {
        format!(" with `{}`", cut(body, 400).replace('`', "'"))
    }
}

fn answer_excerpt(exchange: &Exchange) -> String {
    let answer = &exchange.answer;
    if answer.code == 0 {
        return format!("no answer ({})", cut(answer.body.as_str().unwrap_or(""), 200));
    }
    if let Some(status) = answer.status() {
        let text = |field: &str| status.get(field).and_then(Value::as_str).unwrap_or("").to_owned();
        let causes: Vec<String> = answer
            .body
            .pointer("/details/causes")
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .map(|c| {
                        let field = |name: &str| c.get(name).and_then(Value::as_str).unwrap_or("").to_owned();
                        format!("{} {}", field("field"), field("reason"))
                    })
                    .collect()
            })
            .unwrap_or_default();
        return format!(
            "{} {} \"{}\"{}",
            answer.code,
            text("reason"),
            cut(&text("message"), 300).replace('`', "'"),
            if causes.is_empty() {
                String::new()
            } else {
                format!(" causes [{}]", causes.join("; "))
            }
        );
    }
    format!(
        "{} `{}`",
        answer.code,
        cut(&answer.body.to_string(), 300).replace('`', "'")
    )
}

/// `text` cut to `limit` characters.
fn cut(text: &str, limit: usize) -> String {
    if text.chars().count() > limit {
        format!("{}...", text.chars().take(limit).collect::<String>())
    } else {
        text.to_owned()
    }
}

/// Text fit for a table cell.
fn cell(text: &str) -> String {
    cut(text, 160).replace('|', "\\|").replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Meta, TargetInfo};

    #[test]
    fn an_empty_run_renders() {
        let report = Report {
            meta: Meta {
                tool: "t".into(),
                command: "c".into(),
                started: 0,
                seconds: 61,
                seed: 1,
                budget: Some(5),
                generated: 10,
                selected: 5,
                targets: vec![
                    TargetInfo {
                        name: "1.32".into(),
                        version: "v1.32.0".into(),
                        address: "https://127.0.0.1:6443".into(),
                    },
                    TargetInfo {
                        name: "embedded".into(),
                        version: "v1.37.0".into(),
                        address: "in-process".into(),
                    },
                ],
                kinds: BTreeMap::new(),
                skipped: vec![],
            },
            summaries: crate::report::summarise(&["1.32".into(), "embedded".into()], &[]),
            outcomes: vec![],
        };
        let text = render(&report);
        assert!(text.starts_with("# Differential fuzzing against kube-apiserver 1.32"));
        assert!(text.contains("| embedded | 0 | 0 (0.0%) | 0 (0.0%) | 0 (0.0%) |"));
        assert!(text.contains("in 1 min 1 s"));
    }

    #[test]
    fn theme_areas_drop_the_kind_but_keep_the_direction() {
        assert_eq!(
            theme_area("validation: Pod (false green: accepted here)"),
            "validation (false green)"
        );
        assert_eq!(theme_area("selectors and list options"), "selectors and list options");
    }

    #[test]
    fn cells_escape_pipes() {
        assert_eq!(cell("a|b"), "a\\|b");
        assert_eq!(cut("abcdef", 3), "abc...");
    }
}
