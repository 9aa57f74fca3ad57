//! Running cases: a namespace of the run's own and the example CRDs on every server,
//! then each case's steps on every server at once (servers in parallel, cases one
//! after another, so quotas, limit ranges, priority classes and webhooks one case
//! creates never touch another), its objects deleted after it, answers normalised and
//! compared with the reference's; progress on stderr; and at the end everything the
//! run created removed again.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::compare::compare;
use crate::mutate::{self, Edit};
use crate::normalise::{Made, Sent, normalise};
use crate::outcome::{ClassKey, Exchange, Header, Outcome, Trace, percent};
use crate::plan::{Body, Case, Step};
use crate::seeds::{fill, instantiate};
use crate::target::Target;
use crate::wire::{Answer, Request, abbreviate};

/// How many cases of each class keep their requests and answers as examples.
const EXAMPLES: usize = 3;

/// How long to wait for a CRD to be established and served.
const CRD_WAIT: Duration = Duration::from_mins(1);

/// A run's servers, names and what it installed.
pub struct Runner<'a> {
    targets: &'a [Target],
    /// The run's namespace, the same name on every server.
    pub namespace: String,
    /// What every object name of the run starts with.
    pub prefix: String,
    /// CRDs this run installed, per server (deleted at the end).
    installed: Vec<Vec<String>>,
}

impl<'a> Runner<'a> {
    /// Makes the run's namespace on every server and installs `crds` where they are
    /// missing, waiting until they are served.
    pub async fn prepare(targets: &'a [Target], token: &str, crds: &[Value]) -> Result<Self, String> {
        let namespace = format!("dfz-{token}");
        let mut installed = Vec::new();
        for target in targets {
            let created = target
                .send(&json_request(
                    "POST",
                    "/api/v1/namespaces",
                    &json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace}}),
                ))
                .await;
            if !created.succeeded() {
                return Err(format!(
                    "{} refused the run's namespace {namespace}: {}",
                    target.name,
                    created.status_text("message")
                ));
            }
            let mut ours = Vec::new();
            for crd in crds {
                let name = crd
                    .pointer("/metadata/name")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned();
                let answer = target
                    .send(&json_request(
                        "POST",
                        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                        crd,
                    ))
                    .await;
                match answer.code {
                    201 => ours.push(name.clone()),
                    409 => {}
                    _ => {
                        return Err(format!(
                            "{} refused the CRD {name}: {}",
                            target.name,
                            answer.status_text("message")
                        ));
                    }
                }
                wait_served(target, crd).await?;
            }
            installed.push(ours);
        }
        Ok(Self {
            targets,
            prefix: format!("{namespace}-"),
            namespace,
            installed,
        })
    }

    /// Runs `cases` until they are done, `deadline` passes or `stop` is set; prints
    /// progress every ten seconds.
    pub async fn run(&self, cases: &[Case], deadline: Option<Instant>, stop: &AtomicBool) -> Vec<Outcome> {
        let started = Instant::now();
        let mut last_report = Instant::now();
        let mut outcomes: Vec<Outcome> = Vec::with_capacity(cases.len());
        let mut examples: BTreeMap<ClassKey, usize> = BTreeMap::new();
        for (index, case) in cases.iter().enumerate() {
            if stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
                eprintln!(
                    "stopping after {index} of {} cases (time budget or interrupt)",
                    cases.len()
                );
                break;
            }
            let mut outcome = self.run_case(case, index + 1).await;
            // The first few cases of each class keep their exchanges, as examples; the
            // rest keep their codes and differences (a run's memory and report stay
            // in bounds however many cases disagree).
            let mut keep = false;
            for target in 1..outcome.traces.len() {
                if let Some((key, _, _)) = outcome.class(target) {
                    let seen = examples.entry(key).or_insert(0);
                    *seen += 1;
                    keep |= *seen <= EXAMPLES;
                }
            }
            if !keep {
                outcome.traces.iter_mut().for_each(|trace| trace.exchanges.clear());
            }
            outcomes.push(outcome);
            if last_report.elapsed() >= Duration::from_secs(10) || index + 1 == cases.len() {
                last_report = Instant::now();
                eprintln!("{}", progress(self.targets, &outcomes, cases.len(), started.elapsed()));
            }
        }
        outcomes
    }

    /// One case on every server at once, compared.
    async fn run_case(&self, case: &Case, ordinal: usize) -> Outcome {
        let name = format!("{}{ordinal}", self.prefix);
        let runs = futures::future::join_all(
            self.targets
                .iter()
                .map(|target| run_steps(target, &case.steps, &name, &self.namespace)),
        )
        .await;
        let normalised: Vec<Vec<Exchange>> = runs
            .iter()
            .map(|(exchanges, made)| {
                exchanges
                    .iter()
                    .map(|exchange| {
                        let sent = exchange
                            .request
                            .as_ref()
                            .and_then(|request| serde_json::from_str::<Value>(&request.body).ok())
                            .map(|body| Sent::of(&body))
                            .unwrap_or_default();
                        let mut answer = exchange.answer.clone();
                        answer.body = normalise(&answer.body, made, &sent, &self.prefix);
                        Exchange {
                            request: exchange.request.clone(),
                            answer,
                        }
                    })
                    .collect()
            })
            .collect();
        let mut traces: Vec<Trace> = self
            .targets
            .iter()
            .zip(&normalised)
            .enumerate()
            .map(|(index, (target, exchanges))| {
                let differences = if index == 0 {
                    Vec::new()
                } else {
                    exchanges
                        .iter()
                        .zip(&normalised[0])
                        .zip(&case.steps)
                        .enumerate()
                        .flat_map(|(step, ((theirs, ours), spec))| {
                            compare(step, &spec.label, &ours.answer, &theirs.answer)
                        })
                        .collect()
                };
                Trace {
                    target: target.name.clone(),
                    codes: exchanges.iter().map(|e| e.answer.code).collect(),
                    differences,
                    exchanges: Vec::new(),
                }
            })
            .collect();
        if traces.iter().any(|trace| !trace.differences.is_empty()) {
            let differing: BTreeSet<usize> = traces
                .iter()
                .flat_map(|trace| trace.differences.iter().map(|d| d.step))
                .collect();
            let reference: Vec<Option<Request>> = normalised[0].iter().map(|e| e.request.clone()).collect();
            for (index, (trace, exchanges)) in traces.iter_mut().zip(normalised).enumerate() {
                trace.exchanges = exchanges
                    .into_iter()
                    .enumerate()
                    .map(|(step, exchange)| {
                        let same_request = index > 0 && reference.get(step).is_some_and(|r| *r == exchange.request);
                        let same_answer = index > 0 && !differing.contains(&step);
                        kept(exchange, same_request, same_answer)
                    })
                    .collect();
            }
        }
        futures::future::join_all(
            self.targets
                .iter()
                .zip(&runs)
                .map(|(target, (exchanges, _))| clean_up(target, &case.steps, exchanges, &self.prefix)),
        )
        .await;
        Outcome {
            case: Header::from(case),
            traces,
        }
    }

    /// Deletes the run's namespace and the CRDs the run installed, on every server;
    /// then frees what controllers made in the namespace and left with finalizers no
    /// controller there removes (a `StatefulSet`'s claims keep `pvc-protection`), so
    /// the namespace can go.
    pub async fn finish(&self) {
        for (target, crds) in self.targets.iter().zip(&self.installed) {
            for crd in crds {
                let path = format!("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{crd}");
                target.send(&empty_request("DELETE", &path)).await;
            }
            let answer = target
                .send(&empty_request(
                    "DELETE",
                    &format!("/api/v1/namespaces/{}", self.namespace),
                ))
                .await;
            if !answer.succeeded() {
                eprintln!(
                    "warning: {} did not delete the namespace {}: {}",
                    target.name,
                    self.namespace,
                    answer.status_text("message")
                );
            }
            sweep(target, &self.namespace).await;
        }
    }
}

/// One case's steps on one server, with what it made up; raw answers.
async fn run_steps(target: &Target, steps: &[Step], name: &str, namespace: &str) -> (Vec<Exchange>, Made) {
    let mut made = Made::default();
    let mut exchanges: Vec<Exchange> = Vec::new();
    for step in steps {
        let previous = exchanges.last().map(|e| &e.answer);
        let request = request_for(step, name, namespace, previous);
        let answer = match &request {
            Some(request) => target.send(request).await,
            None => Answer::none("not sent: the step whose answer it edits failed"),
        };
        let generate_name = request
            .as_ref()
            .and_then(|r| serde_json::from_str::<Value>(&r.body).ok())
            .and_then(|body| {
                body.pointer("/metadata/generateName")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            });
        made.learn(&answer.body, generate_name.as_deref());
        exchanges.push(Exchange { request, answer });
    }
    (exchanges, made)
}

/// The request of `step` for one server: placeholders filled, and for an edit of the
/// previous answer, that answer edited (None when it was not an object).
fn request_for(step: &Step, name: &str, namespace: &str, previous: Option<&Answer>) -> Option<Request> {
    let body = match &step.body {
        Body::Empty => String::new(),
        Body::Json(value) => instantiate(value, name, namespace).to_string(),
        Body::Text(text) => fill(text, name, namespace),
        Body::EditAnswer(edits) => {
            let previous = previous.filter(|answer| answer.succeeded() && answer.status().is_none())?;
            let edits: Vec<Edit> = edits
                .iter()
                .map(|edit| match edit {
                    Edit::Set { pointer, value } => Edit::Set {
                        pointer: fill(pointer, name, namespace),
                        value: instantiate(value, name, namespace),
                    },
                    other => other.clone(),
                })
                .collect();
            mutate::apply(&previous.body, &edits).to_string()
        }
    };
    Some(Request {
        method: step.method.clone(),
        path: fill(&step.path, name, namespace),
        content_type: step.content_type.clone(),
        body,
    })
}

/// Deletes what a case created on one server: every object a creating step answered,
/// at once (grace period 0, so pods on no kubelet go too), with finalizers removed
/// when they hold it.
async fn clean_up(target: &Target, steps: &[Step], exchanges: &[Exchange], prefix: &str) {
    let mut paths = BTreeSet::new();
    for (step, exchange) in steps.iter().zip(exchanges) {
        let (Some(collection), Some(request)) = (&step.creates_in, &exchange.request) else {
            continue;
        };
        if !exchange.answer.succeeded() {
            continue;
        }
        if let Some(name) = exchange.answer.object_name() {
            // The collection's namespace placeholder is filled in the request's path.
            let filled = collection_of(&request.path, collection);
            paths.insert(format!("{filled}/{name}"));
        }
    }
    for path in paths {
        if !path.contains(prefix) && !path.contains("/namespaces/dfz-") {
            continue;
        }
        let answer = target
            .send(&empty_request("DELETE", &format!("{path}?gracePeriodSeconds=0")))
            .await;
        let finalizers = answer
            .body
            .pointer("/metadata/finalizers")
            .and_then(Value::as_array)
            .is_some_and(|list| !list.is_empty());
        if answer.succeeded() && finalizers {
            target
                .send(&Request {
                    method: "PATCH".into(),
                    path,
                    content_type: Some("application/merge-patch+json".into()),
                    body: json!({"metadata": {"finalizers": null}}).to_string(),
                })
                .await;
        }
    }
}

/// Removes the finalizers of every object left in `namespace`, found through the
/// server's discovery (every namespaced resource it lists).
async fn sweep(target: &Target, namespace: &str) {
    let mut bases = vec!["/api/v1".to_owned()];
    if let Some(groups) = target.get_json("/apis").await {
        for group in groups.get("groups").and_then(Value::as_array).into_iter().flatten() {
            if let Some(version) = group.pointer("/preferredVersion/groupVersion").and_then(Value::as_str) {
                bases.push(format!("/apis/{version}"));
            }
        }
    }
    for base in bases {
        let Some(document) = target.get_json(&base).await else {
            continue;
        };
        for resource in document
            .get("resources")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = resource.get("name").and_then(Value::as_str).unwrap_or("");
            let namespaced = resource.get("namespaced").and_then(Value::as_bool).unwrap_or(false);
            let lists = resource
                .get("verbs")
                .and_then(Value::as_array)
                .is_some_and(|verbs| verbs.iter().any(|v| v == "list"));
            if name.contains('/') || !namespaced || !lists {
                continue;
            }
            let collection = format!("{base}/namespaces/{namespace}/{name}");
            let Some(list) = target.get_json(&collection).await else {
                continue;
            };
            for item in list.get("items").and_then(Value::as_array).into_iter().flatten() {
                let held = item
                    .pointer("/metadata/finalizers")
                    .and_then(Value::as_array)
                    .is_some_and(|f| !f.is_empty());
                if let (true, Some(object)) = (held, item.pointer("/metadata/name").and_then(Value::as_str)) {
                    target
                        .send(&Request {
                            method: "PATCH".into(),
                            path: format!("{collection}/{object}"),
                            content_type: Some("application/merge-patch+json".into()),
                            body: json!({"metadata": {"finalizers": null}}).to_string(),
                        })
                        .await;
                }
            }
        }
    }
}

/// The filled-in collection path: the request's path up to where the collection
/// template's last segment (the resource) ends.
fn collection_of(request_path: &str, collection: &str) -> String {
    let resource = collection.rsplit('/').next().unwrap_or("");
    let path = request_path.split('?').next().unwrap_or("");
    let marker = format!("/{resource}");
    match path
        .find(&format!("{marker}/"))
        .or_else(|| path.ends_with(&marker).then(|| path.len() - marker.len()))
    {
        Some(at) => path[..at + marker.len()].to_owned(),
        None => path.to_owned(),
    }
}

/// What a report keeps of an exchange: long strings cut; for a server other than the
/// reference, no request when it sent the reference's own, and no body for a step
/// where every server agreed (the reference's says it).
fn kept(exchange: Exchange, same_request: bool, same_answer: bool) -> Exchange {
    const REQUEST_LIMIT: usize = 2000;
    let mut request = if same_request { None } else { exchange.request };
    if let Some(request) = &mut request
        && request.body.chars().count() > REQUEST_LIMIT
    {
        let total = request.body.chars().count();
        request.body = format!(
            "{}... ({total} characters)",
            request.body.chars().take(REQUEST_LIMIT).collect::<String>()
        );
    }
    let body = if same_answer {
        Value::String(SAME_AS_REFERENCE.to_owned())
    } else {
        abbreviate(&exchange.answer.body, 200)
    };
    Exchange {
        request,
        answer: Answer {
            body,
            ..exchange.answer
        },
    }
}

/// The body a report keeps of an answer every server gave alike.
pub const SAME_AS_REFERENCE: &str = "(as the reference answered)";

/// Waits until `crd` is established on `target` and its resource is in discovery.
async fn wait_served(target: &Target, crd: &Value) -> Result<(), String> {
    let name = crd.pointer("/metadata/name").and_then(Value::as_str).unwrap_or("");
    let group = crd.pointer("/spec/group").and_then(Value::as_str).unwrap_or("");
    let plural = crd.pointer("/spec/names/plural").and_then(Value::as_str).unwrap_or("");
    let versions: Vec<&str> = crd
        .pointer("/spec/versions")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|v| v.get("name").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default();
    let deadline = Instant::now() + CRD_WAIT;
    loop {
        let established = target
            .get_json(&format!(
                "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{name}"
            ))
            .await
            .and_then(|crd| crd.pointer("/status/conditions").cloned())
            .and_then(|conditions| conditions.as_array().cloned())
            .is_some_and(|conditions| {
                conditions
                    .iter()
                    .any(|c| c.get("type") == Some(&json!("Established")) && c.get("status") == Some(&json!("True")))
            });
        let mut served = established;
        for version in &versions {
            if !served {
                break;
            }
            served = target
                .get_json(&format!("/apis/{group}/{version}"))
                .await
                .and_then(|document| document.get("resources").cloned())
                .and_then(|resources| resources.as_array().cloned())
                .is_some_and(|resources| resources.iter().any(|r| r.get("name") == Some(&json!(plural))));
        }
        if served {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!(
                "{}: the CRD {name} was not served within {} s",
                target.name,
                CRD_WAIT.as_secs()
            ));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn json_request(method: &str, path: &str, body: &Value) -> Request {
    Request {
        method: method.to_owned(),
        path: path.to_owned(),
        content_type: Some("application/json".into()),
        body: body.to_string(),
    }
}

fn empty_request(method: &str, path: &str) -> Request {
    Request {
        method: method.to_owned(),
        path: path.to_owned(),
        content_type: None,
        body: String::new(),
    }
}

/// `[1200/3000] 2m13s  embedded agrees 61.2%  1.19 agrees 80.1%`.
fn progress(targets: &[Target], outcomes: &[Outcome], total: usize, elapsed: Duration) -> String {
    let mut line = format!(
        "[{}/{total}] {}m{:02}s",
        outcomes.len(),
        elapsed.as_secs() / 60,
        elapsed.as_secs() % 60
    );
    for (index, target) in targets.iter().enumerate().skip(1) {
        let agreeing = outcomes.iter().filter(|o| o.agrees(index)).count();
        let _ = write!(
            line,
            "  {} agrees {:.1}%",
            target.name,
            percent(agreeing, outcomes.len())
        );
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_collection_is_found_in_the_request_path() {
        assert_eq!(
            collection_of(
                "/api/v1/namespaces/dfz-a/pods?fieldManager=x",
                "/api/v1/namespaces/$NAMESPACE/pods"
            ),
            "/api/v1/namespaces/dfz-a/pods"
        );
        assert_eq!(
            collection_of(
                "/apis/apps/v1/namespaces/dfz-a/deployments/dfz-a-1/status",
                "/apis/apps/v1/namespaces/$NAMESPACE/deployments"
            ),
            "/apis/apps/v1/namespaces/dfz-a/deployments"
        );
        assert_eq!(collection_of("/api/v1/nodes/dfz-a-3", "/api/v1/nodes"), "/api/v1/nodes");
    }

    #[test]
    fn an_edit_needs_an_object_to_edit() {
        let step = Step {
            label: "the mutation".into(),
            method: "PUT".into(),
            path: "/api/v1/namespaces/$NAMESPACE/configmaps/$NAME".into(),
            content_type: Some("application/json".into()),
            body: Body::EditAnswer(vec![Edit::Set {
                pointer: "/metadata/labels/owner".into(),
                value: json!("$NAME"),
            }]),
            creates_in: None,
        };
        let refused = Answer {
            code: 422,
            body: json!({"kind": "Status"}),
            warnings: vec![],
        };
        assert!(request_for(&step, "n", "ns", Some(&refused)).is_none());
        let created = Answer {
            code: 201,
            body: json!({"kind": "ConfigMap", "metadata": {"name": "n", "resourceVersion": "5"}}),
            warnings: vec![],
        };
        let request = request_for(&step, "n", "ns", Some(&created)).expect("a request");
        assert_eq!(request.path, "/api/v1/namespaces/ns/configmaps/n");
        let body: Value = serde_json::from_str(&request.body).expect("JSON");
        assert_eq!(
            body["metadata"],
            json!({"name": "n", "resourceVersion": "5", "labels": {"owner": "n"}})
        );
    }

    #[test]
    fn percentages_of_nothing_are_zero() {
        assert!((percent(1, 4) - 25.0).abs() < f64::EPSILON);
        assert!(percent(0, 0).abs() < f64::EPSILON);
    }
}
