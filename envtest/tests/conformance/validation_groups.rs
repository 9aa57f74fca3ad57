//! Built-in validation of the API groups beside core, as kube-apiserver 1.32's
//! `pkg/apis/<group>/validation` answers it: each case sends one write (after the
//! writes it needs) and compares the code and every cause (field, reason, message) with
//! 1.32's answer. Values kube prints that differ on each run (uids, pointer addresses)
//! are masked on both sides.
//!
//! On 1.19 a case states what that version answers instead, detected from `/version`:
//! the same, other causes (older wording or rules), an acceptance (the rule is newer),
//! or a skip with the reason (the kind or field is newer).

use http::Method;
use serde_json::Value;
use wheelhouse_envtest::TestEnv;

use crate::raw::{Answer, send, send_request};
use crate::schema_common::server_minor;

/// One request of a case: `{ns}` in its path and body is the test's namespace, `{p}`
/// a prefix for the names of cluster-scoped objects (also the namespace).
pub(crate) struct Req {
    method: Method,
    path: &'static str,
    body: Value,
}

/// A create.
pub(crate) fn post(path: &'static str, body: Value) -> Req {
    Req {
        method: Method::POST,
        path,
        body,
    }
}

/// A JSON merge patch.
pub(crate) fn patch(path: &'static str, body: Value) -> Req {
    Req {
        method: Method::PATCH,
        path,
        body,
    }
}

/// Causes as (field, reason, message).
pub(crate) type Causes = &'static [(&'static str, &'static str, &'static str)];

/// What 1.32 answers.
pub(crate) enum Expect {
    /// The write succeeds.
    Accepted,
    /// A 422 with exactly these causes, in this order.
    Invalid(Causes),
}

/// What 1.19 answers.
pub(crate) enum Older {
    /// As 1.32.
    Same,
    /// Accepted: the rule is newer than 1.19 (why).
    Accepts(&'static str),
    /// A 422 with these causes (older wording or rules).
    Causes(Causes),
    /// A 422 with causes of these fields and reasons (messages whose Go dump of a
    /// whole struct differs between versions).
    Fields(&'static [(&'static str, &'static str)]),
    /// Not asked: the kind or field is newer than 1.19 (why).
    Skip(&'static str),
}

/// One case: the writes it needs, the write it checks, and the answers.
pub(crate) struct Case {
    pub(crate) name: &'static str,
    pub(crate) setup: Vec<Req>,
    pub(crate) request: Req,
    pub(crate) expect: Expect,
    pub(crate) older: Older,
}

/// A case without setup whose answer 1.19 shares.
pub(crate) fn case(name: &'static str, request: Req, expect: Expect) -> Case {
    Case {
        name,
        setup: Vec::new(),
        request,
        expect,
        older: Older::Same,
    }
}

impl Case {
    /// The writes that come first.
    #[must_use]
    pub(crate) fn after(mut self, setup: Vec<Req>) -> Self {
        self.setup = setup;
        self
    }

    /// What 1.19 answers instead.
    #[must_use]
    pub(crate) fn on_119(mut self, older: Older) -> Self {
        self.older = older;
        self
    }
}

/// The placeholders of a case filled in.
fn fill(text: &str, env: &TestEnv) -> String {
    text.replace("{ns}", env.namespace()).replace("{p}", env.namespace())
}

fn fill_value(value: &Value, env: &TestEnv) -> Value {
    match value {
        Value::String(text) => Value::String(fill(text, env)),
        Value::Array(items) => Value::Array(items.iter().map(|v| fill_value(v, env)).collect()),
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (fill(k, env), fill_value(v, env))).collect()),
        other => other.clone(),
    }
}

/// Sends one request of a case.
async fn send_req(env: &TestEnv, req: &Req) -> Answer {
    let path = fill(req.path, env);
    let body = fill_value(&req.body, env);
    if req.method == Method::PATCH {
        let bytes = serde_json::to_vec(&body).expect("JSON encodes");
        let request = http::Request::builder()
            .method(Method::PATCH)
            .uri(path)
            .header(http::header::CONTENT_TYPE, "application/merge-patch+json")
            .header(http::header::ACCEPT, "application/json")
            .body(kube::client::Body::from(bytes))
            .expect("a valid request");
        return send_request(&env.client(), request).await;
    }
    send(&env.client(), req.method.clone(), &path, Some(&body)).await
}

/// A message with what differs on each run masked: uids and Go pointer addresses.
fn mask(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("(0x") {
            let digits = after.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(after.len());
            if after[digits..].starts_with(')') {
                out.push_str("(<addr>)");
                rest = &after[digits + 1..];
                continue;
            }
        }
        if is_uid(rest) {
            out.push_str("<uid>");
            rest = &rest[36..];
            continue;
        }
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            out.push(c);
        }
        rest = chars.as_str();
    }
    out
}

/// Whether `text` starts with a uid (8-4-4-4-12 hexadecimal digits).
fn is_uid(text: &str) -> bool {
    let Some(head) = text.get(..36) else {
        return false;
    };
    head.char_indices().all(|(index, c)| {
        if [8, 13, 18, 23].contains(&index) {
            c == '-'
        } else {
            c.is_ascii_hexdigit() && !c.is_ascii_uppercase()
        }
    })
}

/// The causes of an answer, masked.
fn causes_of(answer: &Answer) -> Vec<(String, String, String)> {
    answer.body["details"]["causes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|cause| {
            let text = |field: &str| cause[field].as_str().unwrap_or_default().to_owned();
            (text("field"), text("reason"), mask(&text("message")))
        })
        .collect()
}

/// Runs the cases in order, then deletes the cluster-scoped objects they made.
pub(crate) async fn run(env: &TestEnv, cases: Vec<Case>) {
    let minor = server_minor(env).await;
    let mut created: Vec<String> = Vec::new();
    let mut failures: Vec<String> = Vec::new();
    for case in cases {
        let mut only_fields: Option<&'static [(&'static str, &'static str)]> = None;
        let expect = if minor < 20 {
            match &case.older {
                Older::Skip(why) => {
                    eprintln!("skipped on 1.{minor}: {}: {why}", case.name);
                    continue;
                }
                Older::Accepts(why) => {
                    eprintln!("accepted on 1.{minor}: {}: {why}", case.name);
                    Expect::Accepted
                }
                Older::Causes(expected) => Expect::Invalid(expected),
                Older::Fields(fields) => {
                    only_fields = Some(fields);
                    Expect::Invalid(&[])
                }
                Older::Same => case.expect,
            }
        } else {
            case.expect
        };
        for req in case.setup.iter().chain(std::iter::once(&case.request)) {
            if req.method == Method::POST && !req.path.contains("/namespaces/") {
                let name = fill(req.body["metadata"]["name"].as_str().unwrap_or_default(), env);
                created.push(format!("{}/{name}", fill(req.path, env)));
            }
        }
        for req in &case.setup {
            let answer = send_req(env, req).await;
            assert!(
                answer.code < 300,
                "{}: setup {} {}: {}",
                case.name,
                req.method,
                req.path,
                answer.body
            );
        }
        let answer = send_req(env, &case.request).await;
        let found = (answer.code, causes_of(&answer));
        let wanted = match expect {
            Expect::Accepted => None,
            Expect::Invalid(expected) => Some(
                expected
                    .iter()
                    .map(|(f, r, m)| (fill(f, env), (*r).to_owned(), mask(&fill(m, env))))
                    .collect::<Vec<_>>(),
            ),
        };
        let invalid = answer.code == 422 && answer.body["reason"] == "Invalid";
        let matches = match (&wanted, only_fields) {
            (_, Some(fields)) => {
                let pairs: Vec<(&str, &str)> = found.1.iter().map(|(f, r, _)| (f.as_str(), r.as_str())).collect();
                invalid && pairs == fields
            }
            (None, None) => answer.code < 300,
            (Some(wanted_causes), None) => invalid && found.1 == *wanted_causes,
        };
        if !matches {
            failures.push(format!(
                "{}:\n  wanted {wanted:?}\n  found  {found:?}\n  body   {}",
                case.name, answer.body
            ));
        }
    }
    for path in created {
        let _ = send(&env.client(), Method::DELETE, &path, None).await;
    }
    assert!(
        failures.is_empty(),
        "answers other than kube's:\n{}",
        failures.join("\n")
    );
}

#[test]
fn messages_are_masked_where_runs_differ() {
    assert_eq!(
        mask("x{Partition:(*int32)(0xc00012ab40)} uid 0d9a7e3c-2b4f-4c6e-9a8b-1f2e3d4c5b6a."),
        "x{Partition:(*int32)(<addr>)} uid <uid>."
    );
    assert_eq!(mask("(0xzz) and (nil)"), "(0xzz) and (nil)");
}
