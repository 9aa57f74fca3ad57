//! Cases: each mutation written as the requests that carry it (create the seed, then
//! send the mutated update; or create the mutated object; or list with a bad
//! selector...), the same requests for every server. `writes` makes the cases of
//! field and metadata mutations (with the patch bodies of `patches`), `requests`
//! those of request-level write mutations, `reads` those of selectors, list options
//! and watches, `subresources` those of `/scale`, `/status` and deletes. [`select`]
//! samples a budget of them, evenly across kinds and reproducibly from a seed.

mod patches;
mod reads;
mod requests;
mod subresources;
mod writes;

use std::collections::{BTreeMap, BTreeSet};

use clap::ValueEnum;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::discovery::Resource;
use crate::mutate::walk::Site;
use crate::mutate::{Edit, Family};
use crate::prng::{Rng, stable_hash};

/// The field manager of every write, and the start of the `User-Agent`.
pub const MANAGER: &str = "envtest-differential";

/// How a mutation reaches the server: the first axis of the agreement figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Operation {
    /// `POST` of the mutated object.
    Create,
    /// The seed created, then `PUT` of what the server answered, mutated.
    Put,
    /// The seed created, then a JSON merge patch.
    MergePatch,
    /// The seed created, then a strategic merge patch.
    StrategicPatch,
    /// The seed created, then a JSON patch.
    JsonPatch,
    /// The seed applied, then the mutated object applied (server-side apply).
    Apply,
    /// The seed created, then its `/status` written.
    Status,
    /// The seed created, then its `/scale` read and written.
    Scale,
    /// A list, with selectors or options.
    List,
    /// A watch that ends after a second.
    Watch,
    /// A delete or a collection delete.
    Delete,
}

impl Operation {
    /// The operation's name as the command line and the report write it.
    pub fn name(self) -> String {
        self.to_possible_value()
            .map(|value| value.get_name().to_owned())
            .unwrap_or_default()
    }
}

/// A step's body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Body {
    /// No body.
    Empty,
    /// A JSON body.
    Json(Value),
    /// Any text (bad JSON is a mutation too).
    Text(String),
    /// The object the previous step answered on the same server, edited: how a client
    /// updates (read, change, write back), so each server gets its own resourceVersion.
    EditAnswer(Vec<Edit>),
}

/// One request of a case, with `$NAME` and `$NAMESPACE` still to fill in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// What the step is for (`create the seed`, `the mutation`, `read back`).
    pub label: String,
    /// The HTTP method.
    pub method: String,
    /// Path and query.
    pub path: String,
    /// The body's media type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// The body.
    pub body: Body,
    /// The collection an object this step creates lives in, so it is deleted after the
    /// case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creates_in: Option<String>,
}

/// A mutation and the requests that carry it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Case {
    /// Stable across runs: a hash of what the case does.
    pub id: String,
    /// The kind's label (`Deployment`, or `Event (events.k8s.io/v1)` when two seeds
    /// share a kind).
    pub kind: String,
    /// How the mutation is sent.
    pub operation: Operation,
    /// What it changes.
    pub family: Family,
    /// The field's path with `[*]` for list items; empty for request-level cases.
    pub field: String,
    /// The field within its named type (`core.v1.Container.image`).
    pub type_field: String,
    /// The mutation in words.
    pub description: String,
    /// The requests.
    pub steps: Vec<Step>,
}

/// A kind to fuzz: its seed, where it is served, and its fields.
#[derive(Debug, Clone)]
pub struct Kind {
    /// Its label in the report.
    pub label: String,
    /// Where the reference serves it.
    pub resource: Resource,
    /// The seed, with placeholders.
    pub seed: Value,
    /// Built in (strategic merge patches apply), not a custom resource.
    pub builtin: bool,
    /// The seed's fields, walked with the schema.
    pub sites: Vec<Site>,
}

impl Kind {
    /// The collection, with the namespace placeholder.
    pub fn collection(&self) -> String {
        self.resource.collection("$NAMESPACE")
    }

    /// The case object's path, with placeholders.
    pub fn object(&self) -> String {
        self.resource.object("$NAMESPACE", "$NAME")
    }

    /// Whether the resource serves `verb`.
    pub fn serves(&self, verb: &str) -> bool {
        self.resource.serves(verb)
    }
}

/// A case under construction: the parts an id is made of, and the steps.
pub(crate) struct Draft {
    pub operation: Operation,
    pub family: Family,
    pub field: String,
    pub type_field: String,
    pub description: String,
    pub steps: Vec<Step>,
}

/// Every case of every kind, with ids unique within the run.
pub fn generate(kinds: &[Kind]) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut seen = BTreeSet::new();
    for kind in kinds {
        let mut drafts = writes::cases(kind);
        drafts.extend(requests::cases(kind));
        drafts.extend(reads::cases(kind));
        drafts.extend(subresources::cases(kind));
        for draft in drafts {
            let key = format!(
                "{}|{}|{}|{}|{}",
                kind.label,
                draft.operation.name(),
                draft.family.name(),
                draft.field,
                draft.description
            );
            let mut id = format!("{:016x}", stable_hash(&key));
            let mut n = 2;
            while seen.contains(&id) {
                id = format!("{:016x}", stable_hash(&format!("{key}#{n}")));
                n += 1;
            }
            seen.insert(id.clone());
            cases.push(Case {
                id,
                kind: kind.label.clone(),
                operation: draft.operation,
                family: draft.family,
                field: draft.field,
                type_field: draft.type_field,
                description: draft.description,
                steps: draft.steps,
            });
        }
    }
    cases
}

/// At most `budget` cases, sampled evenly across kinds: each kind's cases shuffled
/// from `seed`, then taken one kind at a time in turn, so a run cut short by its time
/// budget has still covered every kind.
pub fn select(cases: Vec<Case>, budget: Option<usize>, seed: u64) -> Vec<Case> {
    let mut by_kind: BTreeMap<String, Vec<Case>> = BTreeMap::new();
    for case in cases {
        by_kind.entry(case.kind.clone()).or_default().push(case);
    }
    let mut rng = Rng::new(seed);
    let mut queues: Vec<std::vec::IntoIter<Case>> = by_kind
        .into_values()
        .map(|mut list| {
            rng.shuffle(&mut list);
            list.into_iter()
        })
        .collect();
    let limit = budget.unwrap_or(usize::MAX);
    let mut out = Vec::new();
    while out.len() < limit {
        let mut took = false;
        for queue in &mut queues {
            if out.len() >= limit {
                break;
            }
            if let Some(case) = queue.next() {
                out.push(case);
                took = true;
            }
        }
        if !took {
            break;
        }
    }
    out
}

/// A step without a body.
pub(crate) fn step(label: &str, method: &str, path: String) -> Step {
    Step {
        label: label.to_owned(),
        method: method.to_owned(),
        path,
        content_type: None,
        body: Body::Empty,
        creates_in: None,
    }
}

/// A step with a JSON body.
pub(crate) fn json_step(label: &str, method: &str, path: String, content_type: &str, body: Value) -> Step {
    Step {
        content_type: Some(content_type.to_owned()),
        body: Body::Json(body),
        ..step(label, method, path)
    }
}

/// `path` with `query` appended (`?` or `&`).
pub(crate) fn with_query(path: &str, query: &str) -> String {
    if query.is_empty() {
        path.to_owned()
    } else if path.contains('?') {
        format!("{path}&{query}")
    } else {
        format!("{path}?{query}")
    }
}

/// The `POST` that creates `object` in the kind's collection.
pub(crate) fn create(kind: &Kind, label: &str, object: Value) -> Step {
    Step {
        creates_in: Some(kind.collection()),
        ..json_step(
            label,
            "POST",
            with_query(&kind.collection(), &format!("fieldManager={MANAGER}")),
            "application/json",
            object,
        )
    }
}

/// The server-side apply of `object` to the case object.
pub(crate) fn apply(kind: &Kind, label: &str, object: Value) -> Step {
    Step {
        creates_in: Some(kind.collection()),
        ..json_step(
            label,
            "PATCH",
            with_query(&kind.object(), &format!("fieldManager={MANAGER}")),
            "application/apply-patch+yaml",
            object,
        )
    }
}

/// A read of the case object.
pub(crate) fn read_back(kind: &Kind) -> Step {
    step("read back", "GET", kind.object())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(kind: &str, n: usize) -> Case {
        Case {
            id: format!("{kind}{n}"),
            kind: kind.to_owned(),
            operation: Operation::Create,
            family: Family::Null,
            field: String::new(),
            type_field: String::new(),
            description: String::new(),
            steps: Vec::new(),
        }
    }

    #[test]
    fn a_budget_is_shared_evenly_and_reproducibly() {
        let cases: Vec<Case> = (0..10)
            .map(|n| case("A", n))
            .chain((0..2).map(|n| case("B", n)))
            .collect();
        let picked = select(cases.clone(), Some(4), 1);
        let kinds: Vec<&str> = picked.iter().map(|c| c.kind.as_str()).collect();
        assert_eq!(kinds, ["A", "B", "A", "B"]);
        assert_eq!(picked, select(cases.clone(), Some(4), 1));
        assert_eq!(select(cases, None, 1).len(), 12);
    }

    #[test]
    fn queries_are_appended() {
        assert_eq!(with_query("/p", "a=1"), "/p?a=1");
        assert_eq!(with_query("/p?a=1", "b=2"), "/p?a=1&b=2");
        assert_eq!(with_query("/p", ""), "/p");
    }
}
