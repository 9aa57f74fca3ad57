//! The witnesses on an existing cluster, read from its API server's audit log: who
//! sent each write (the request's `User-Agent`, which the witnessed replicas set to
//! their names), when it arrived (`requestReceivedTimestamp`), and who held a Lease
//! then (the Lease's own writes, logged with their request and response bodies).
//!
//! A write counts once the server has its whole request, as on the embedded server
//! (which records a write when its body has arrived): with writes logged at `Request`
//! level, a create, update or patch whose body never came (its sender's fence refused
//! the rest of it, and the server answered the abandoned request with a 504) has no
//! `requestObject` and is not counted.
//!
//! The server must be started with an audit policy that logs writes at `Request` or
//! above and Leases at `RequestResponse` ([`POLICY`]), and the log must be a file this
//! process can read; [`TestEnv::witness_writes`](crate::TestEnv::witness_writes) finds
//! it in `ENVTEST_AUDIT_LOG`. The API server and the test share a machine, so the log's
//! wall-clock times are mapped onto this process's monotonic clock by one reading of
//! both at the witness's start.

use std::collections::{HashMap, HashSet};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

use parking_lot::Mutex;
use serde::Deserialize;
use serde_json::Value;

use super::{ArrivedWrite, WitnessedWrite, is_write};
use crate::core::Verb;

/// An audit policy that gives the witnesses what they read, and nothing of reads but
/// the Leases' (a candidate is a user that asked for the Lease).
pub const POLICY: &str = "\
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived, ResponseStarted]
rules:
- level: RequestResponse
  resources: [{group: coordination.k8s.io, resources: [leases]}]
- level: None
  verbs: [get, list, watch]
- level: Request
";

/// One request the log recorded, as the witnesses need it.
#[derive(Debug, Clone)]
struct Recorded {
    user: String,
    verb: Verb,
    group: String,
    resource: String,
    subresource: Option<String>,
    namespace: Option<String>,
    name: Option<String>,
    received: Instant,
    completed: Instant,
    code: u16,
    /// The holder a write to a Lease asked for (its request body).
    claimed: Option<String>,
    /// The holder a Lease has after this request (its response body; None once deleted).
    holder: Option<String>,
}

/// The part of an audit event (`audit.k8s.io/v1`) the witnesses read.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Event {
    #[serde(default)]
    level: String,
    stage: String,
    verb: String,
    #[serde(default)]
    user_agent: String,
    object_ref: Option<ObjectRef>,
    response_status: Option<ResponseStatus>,
    request_received_timestamp: String,
    stage_timestamp: String,
    request_object: Option<Value>,
    response_object: Option<Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ObjectRef {
    #[serde(default)]
    resource: String,
    namespace: Option<String>,
    name: Option<String>,
    #[serde(default)]
    api_group: String,
    subresource: Option<String>,
}

#[derive(Deserialize)]
struct ResponseStatus {
    #[serde(default)]
    code: u16,
}

/// What was read of the log so far.
#[derive(Default)]
struct Tail {
    offset: u64,
    partial: Vec<u8>,
    recorded: Vec<Recorded>,
}

/// The audit log from the witness's start on, for the requests about one namespace.
pub(crate) struct AuditLog {
    path: PathBuf,
    namespace: String,
    wall: SystemTime,
    monotonic: Instant,
    tail: Mutex<Tail>,
}

impl AuditLog {
    /// Follows `path` from its current end, for requests in `namespace`.
    pub(crate) fn open(path: &Path, namespace: &str) -> std::io::Result<Self> {
        let offset = std::fs::metadata(path)?.len();
        Ok(Self {
            path: path.to_owned(),
            namespace: namespace.to_owned(),
            wall: SystemTime::now(),
            monotonic: Instant::now(),
            tail: Mutex::new(Tail {
                offset,
                ..Tail::default()
            }),
        })
    }

    /// Every write by a named user (a `User-Agent`), in order of arrival.
    pub(crate) fn writes(&self) -> Vec<ArrivedWrite> {
        self.with_recorded(|recorded| {
            let mut writes: Vec<ArrivedWrite> = recorded
                .iter()
                .filter(|r| !r.user.is_empty() && is_write(r.verb))
                .map(arrived)
                .collect();
            writes.sort_by_key(|w| w.arrived);
            writes
        })
    }

    /// The writes of the Lease `name`'s candidates, each with who held the Lease when
    /// it arrived, and the users by identity they claimed.
    pub(crate) fn lease(&self, name: &str) -> (Vec<WitnessedWrite>, HashMap<String, String>) {
        self.with_recorded(|recorded| self.judge(recorded, name))
    }

    fn judge(&self, recorded: &[Recorded], name: &str) -> (Vec<WitnessedWrite>, HashMap<String, String>) {
        let is_lease = |r: &Recorded| {
            r.group == "coordination.k8s.io" && r.resource == "leases" && r.name.as_deref().is_none_or(|n| n == name)
        };
        let mut candidates = HashSet::new();
        let mut users = HashMap::new();
        for r in recorded.iter().filter(|r| is_lease(r) && !r.user.is_empty()) {
            candidates.insert(r.user.as_str());
            if let Some(identity) = &r.claimed {
                users.insert(identity.clone(), r.user.clone());
            }
        }
        // The Lease's holder after each of its successful writes, in the order they took
        // effect (a write takes effect before its answer is complete).
        let mut holders: Vec<(Instant, Option<&String>)> = recorded
            .iter()
            .filter(|r| is_lease(r) && r.name.is_some() && is_write(r.verb) && (200..300).contains(&r.code))
            .map(|r| (r.completed, r.holder.as_ref()))
            .collect();
        holders.sort_by_key(|(at, _)| *at);
        let mut writes: Vec<WitnessedWrite> = recorded
            .iter()
            .filter(|r| !is_lease(r) && is_write(r.verb) && candidates.contains(r.user.as_str()))
            .map(|r| {
                let before = holders.partition_point(|(at, _)| *at <= r.received);
                let holder = before.checked_sub(1).and_then(|last| holders[last].1.cloned());
                let holder_user = holder
                    .as_ref()
                    .map(|identity| users.get(identity).cloned().unwrap_or_else(|| identity.clone()));
                WitnessedWrite {
                    write: arrived(r),
                    holder,
                    holder_user,
                    at: r.received.saturating_duration_since(self.monotonic),
                }
            })
            .collect();
        writes.sort_by_key(|w| w.write.arrived);
        (writes, users)
    }

    /// Reads what the log gained since the last call, and hands `f` all recorded.
    fn with_recorded<T>(&self, f: impl FnOnce(&[Recorded]) -> T) -> T {
        let mut tail = self.tail.lock();
        let mut fresh = Vec::new();
        if let Ok(mut file) = std::fs::File::open(&self.path)
            && file.seek(SeekFrom::Start(tail.offset)).is_ok()
            && let Ok(read) = file.read_to_end(&mut fresh)
        {
            tail.offset += read as u64;
        }
        let mut bytes = std::mem::take(&mut tail.partial);
        bytes.extend_from_slice(&fresh);
        let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |end| end + 1);
        tail.partial = bytes.split_off(complete);
        let quoted = format!("\"{}\"", self.namespace);
        for line in bytes.split(|&b| b == b'\n') {
            // Most of a shared cluster's log is about other namespaces: skip it unparsed.
            if !line.windows(quoted.len()).any(|w| w == quoted.as_bytes()) {
                continue;
            }
            if let Some(recorded) = self.parse(line) {
                tail.recorded.push(recorded);
            }
        }
        f(&tail.recorded)
    }

    fn parse(&self, line: &[u8]) -> Option<Recorded> {
        let event: Event = serde_json::from_slice(line).ok()?;
        if event.stage != "ResponseComplete" && event.stage != "Panic" {
            return None;
        }
        let object = event.object_ref?;
        if object.namespace.as_deref() != Some(self.namespace.as_str()) {
            return None;
        }
        let holder_of = |body: Option<&Value>| {
            body?
                .pointer("/spec/holderIdentity")?
                .as_str()
                .filter(|h| !h.is_empty())
                .map(str::to_owned)
        };
        let verb = verb(&event.verb)?;
        let has_body = matches!(verb, Verb::Create | Verb::Update | Verb::Patch);
        if has_body && event.level != "Metadata" && event.request_object.is_none() {
            // Its body never arrived: the request was abandoned before it was whole.
            return None;
        }
        Some(Recorded {
            user: event.user_agent,
            verb,
            group: object.api_group,
            resource: object.resource,
            subresource: object.subresource,
            namespace: object.namespace,
            name: object.name,
            received: self.instant(&event.request_received_timestamp)?,
            completed: self.instant(&event.stage_timestamp)?,
            code: event.response_status.map_or(0, |s| s.code),
            claimed: holder_of(event.request_object.as_ref()),
            holder: (verb != Verb::Delete)
                .then(|| holder_of(event.response_object.as_ref()))
                .flatten(),
        })
    }

    /// A wall-clock time of the log on this process's monotonic clock.
    fn instant(&self, time: &str) -> Option<Instant> {
        let time: SystemTime = time.parse::<jiff::Timestamp>().ok()?.into();
        Some(match time.duration_since(self.wall) {
            Ok(after) => self.monotonic + after,
            Err(before) => self.monotonic.checked_sub(before.duration()).unwrap_or(self.monotonic),
        })
    }
}

fn arrived(r: &Recorded) -> ArrivedWrite {
    ArrivedWrite {
        user: r.user.clone(),
        verb: r.verb,
        resource: r.resource.clone(),
        subresource: r.subresource.clone(),
        namespace: r.namespace.clone(),
        name: r.name.clone(),
        arrived: r.received,
    }
}

fn verb(name: &str) -> Option<Verb> {
    Some(match name {
        "get" => Verb::Get,
        "list" => Verb::List,
        "watch" => Verb::Watch,
        "create" => Verb::Create,
        "update" => Verb::Update,
        "patch" => Verb::Patch,
        "delete" => Verb::Delete,
        "deletecollection" => Verb::DeleteCollection,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::time::Duration;

    use serde_json::json;

    use super::*;

    /// An audit event as kube-apiserver writes it, `ms` milliseconds after `start`.
    fn event(
        start: jiff::Timestamp,
        ms: i64,
        agent: &str,
        verb: &str,
        resource: &str,
        name: &str,
        body: Option<&Value>,
    ) -> String {
        let at = |ms: i64| (start + jiff::SignedDuration::from_millis(ms)).to_string();
        let group = if resource == "leases" {
            "coordination.k8s.io"
        } else {
            ""
        };
        json!({
            "kind": "Event", "apiVersion": "audit.k8s.io/v1", "level": "Request", "stage": "ResponseComplete",
            "verb": verb, "userAgent": agent, "sourceIPs": ["127.0.0.1"],
            "objectRef": {"resource": resource, "namespace": "test", "name": name, "apiGroup": group, "apiVersion": "v1"},
            "responseStatus": {"metadata": {}, "code": 200},
            "requestReceivedTimestamp": at(ms), "stageTimestamp": at(ms + 1),
            "requestObject": body.cloned().unwrap_or_else(|| json!({"data": {}})), "responseObject": body,
        })
        .to_string()
    }

    /// A patch whose body never arrived: its sender stopped writing after the headers,
    /// and the server answered the abandoned request with a 504.
    fn abandoned(start: jiff::Timestamp, ms: i64, agent: &str, name: &str) -> String {
        let mut event: Value =
            serde_json::from_str(&event(start, ms, agent, "patch", "configmaps", name, None)).unwrap();
        let fields = event.as_object_mut().unwrap();
        fields.remove("requestObject");
        fields.insert("responseStatus".into(), json!({"code": 504, "reason": "Timeout"}));
        event.to_string()
    }

    #[test]
    fn writes_are_attributed_to_their_user_agent_and_judged_by_the_lease_holder_when_they_arrived() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.log");
        std::fs::write(&path, "{\"stage\": \"ResponseComplete\", \"before\": \"test\"}\n").unwrap();
        let log = AuditLog::open(&path, "test").unwrap();
        let start = jiff::Timestamp::now();
        let holder = |h: &str| Some(json!({"spec": {"holderIdentity": h}}));
        let lines = [
            event(start, 10, "a", "create", "leases", "op", holder("pod-a").as_ref()),
            event(start, 20, "a", "patch", "configmaps", "x", None),
            event(start, 30, "b", "get", "leases", "op", None),
            event(start, 40, "b", "patch", "configmaps", "x", None),
            event(start, 50, "", "delete", "leases", "op", None),
            event(start, 60, "a", "patch", "configmaps", "x", None),
            event(start, 70, "b", "create", "leases", "op", holder("pod-b").as_ref()),
            event(start, 80, "b", "patch", "configmaps", "x", None),
            abandoned(start, 85, "a", "x"),
            // Another namespace's write is not this witness's.
            event(start, 90, "a", "patch", "configmaps", "x", None).replace("\"test\"", "\"other\""),
        ];
        let mut file = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
        // Half a line first: it is read once complete.
        let (first, rest) = lines[0].split_at(40);
        write!(file, "{first}").unwrap();
        assert!(log.writes().is_empty());
        write!(file, "{rest}\n{}\n", lines[1..].join("\n")).unwrap();

        let writes = log.writes();
        let summary: Vec<_> = writes
            .iter()
            .map(|w| (w.user.as_str(), w.verb, w.resource.as_str()))
            .collect();
        assert_eq!(
            summary,
            [
                ("a", Verb::Create, "leases"),
                ("a", Verb::Patch, "configmaps"),
                ("b", Verb::Patch, "configmaps"),
                ("a", Verb::Patch, "configmaps"),
                ("b", Verb::Create, "leases"),
                ("b", Verb::Patch, "configmaps"),
            ]
        );
        let gap = writes[2].arrived - writes[1].arrived;
        assert!(
            gap > Duration::from_millis(15) && gap < Duration::from_millis(25),
            "{gap:?}"
        );

        let (judged, users) = log.lease("op");
        assert_eq!(users.get("pod-a").map(String::as_str), Some("a"));
        let verdicts: Vec<_> = judged
            .iter()
            .map(|w| (w.write.user.as_str(), w.holder_user.as_deref(), w.is_stale()))
            .collect();
        assert_eq!(
            verdicts,
            [
                ("a", Some("a"), false),
                ("b", Some("a"), true),
                ("a", None, true),
                ("b", Some("b"), false),
            ]
        );
    }
}
