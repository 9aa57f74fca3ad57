//! A witness of leader fencing: the server knows who sent each write and, for a Lease
//! it was asked to watch, who held that Lease when the write arrived, so a test can
//! ask for the writes that came from a replica that did not hold it. Also a gate that
//! holds a user's requests before they reach the server, as a frozen process or a
//! stalled network would.
//!
//! A replica is known by the user its requests are attributed to
//! ([`ApiServer::as_user`], or over HTTP the bearer token), and a Lease names its
//! holder by an identity. The witness learns which user is which identity from the
//! writes to the Lease itself: a user that writes `spec.holderIdentity: X` is `X`
//! (an identity never learned that way is taken to be the user of the same name).

mod audit;

pub use self::audit::POLICY as AUDIT_POLICY;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use parking_lot::Mutex;
use serde_json::Value;
use tokio::sync::Notify;

use crate::core::{GroupResource, Verb};
use crate::request::Target;
use crate::state::ApiServer;

/// Every witness and the request gate of one server.
#[derive(Default)]
pub(crate) struct Witnesses {
    leases: Mutex<Vec<Arc<LeaseRecord>>>,
    writes: Mutex<Vec<Arc<Mutex<Vec<ArrivedWrite>>>>>,
    held: Mutex<HashSet<Arc<str>>>,
    released: Notify,
}

/// What one witness saw.
struct LeaseRecord {
    namespace: String,
    name: String,
    started: Instant,
    state: Mutex<LeaseState>,
}

#[derive(Default)]
struct LeaseState {
    /// The users that sent any request for the Lease: the candidates. Only their
    /// writes are judged; other users (other elections, tests) have no term here.
    candidates: HashSet<String>,
    /// identity → the user that wrote it into the Lease as its holder.
    users: HashMap<String, String>,
    writes: Vec<WitnessedWrite>,
}

/// One write a named user sent, and who held the witnessed Lease when it arrived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WitnessedWrite {
    /// The write: who sent what, and when it arrived.
    pub write: ArrivedWrite,
    /// The Lease's holder identity when the write arrived (None: nobody held it).
    pub holder: Option<String>,
    /// The user the witness knows that holder as (None: nobody held it).
    pub holder_user: Option<String>,
    /// When it arrived, from the witness's start.
    pub at: Duration,
}

impl WitnessedWrite {
    /// True when its sender did not hold the Lease when it arrived.
    pub fn is_stale(&self) -> bool {
        self.holder_user.as_deref() != Some(self.write.user.as_str())
    }
}

/// Records, from its creation on, every write by a named user and who held one Lease
/// when it arrived; see [`ApiServer::witness_lease`], and
/// [`TestEnv::witness_lease`](crate::TestEnv::witness_lease) for an existing cluster.
/// Cheap to clone.
#[derive(Clone)]
pub struct LeaseWitness {
    source: LeaseSource,
}

#[derive(Clone)]
enum LeaseSource {
    /// The embedded server records as requests arrive.
    Server(Arc<LeaseRecord>),
    /// An existing cluster's audit log, read when asked.
    Audit { log: Arc<audit::AuditLog>, name: String },
}

impl std::fmt::Debug for LeaseWitness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (source, name) = match &self.source {
            LeaseSource::Server(record) => ("server", &record.name),
            LeaseSource::Audit { name, .. } => ("audit log", name),
        };
        f.debug_struct("LeaseWitness")
            .field("source", &source)
            .field("name", name)
            .finish_non_exhaustive()
    }
}

impl LeaseWitness {
    /// Witnesses the Lease `name` in `namespace` from an audit log (see
    /// [`audit::POLICY`]), from now on.
    pub(crate) fn from_audit_log(path: &Path, namespace: &str, name: &str) -> std::io::Result<Self> {
        Ok(Self {
            source: LeaseSource::Audit {
                log: Arc::new(audit::AuditLog::open(path, namespace)?),
                name: name.to_owned(),
            },
        })
    }

    /// Every write witnessed (writes to the Lease itself excepted: taking it from a
    /// holder whose lease expired is how leadership passes), in order of arrival.
    pub fn writes(&self) -> Vec<WitnessedWrite> {
        match &self.source {
            LeaseSource::Server(record) => record.state.lock().writes.clone(),
            LeaseSource::Audit { log, name } => log.lease(name).0,
        }
    }

    /// The user that wrote `identity` into the Lease as its holder, if one did: how a
    /// test finds which of its processes leads.
    pub fn user_of(&self, identity: &str) -> Option<String> {
        match &self.source {
            LeaseSource::Server(record) => record.state.lock().users.get(identity).cloned(),
            LeaseSource::Audit { log, name } => log.lease(name).1.get(identity).cloned(),
        }
    }

    /// The writes that arrived from a user that did not hold the Lease at the time:
    /// with correct fencing, none.
    pub fn stale_writes(&self) -> Vec<WitnessedWrite> {
        self.writes().into_iter().filter(WitnessedWrite::is_stale).collect()
    }
}

/// One write a named user sent, and when it arrived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArrivedWrite {
    /// The user who sent it.
    pub user: String,
    /// `create`, `update`, `patch`, `delete` or `deletecollection`.
    pub verb: Verb,
    /// The plural resource, like `deployments`.
    pub resource: String,
    /// The subresource, like `status`.
    pub subresource: Option<String>,
    /// The namespace, if any.
    pub namespace: Option<String>,
    /// The object's name (None for a create whose name is in the body).
    pub name: Option<String>,
    /// When it arrived, on this process's monotonic clock.
    pub arrived: Instant,
}

/// The writes named users sent since [`ApiServer::witness_writes`] (or, on an
/// existing cluster, [`TestEnv::witness_writes`](crate::TestEnv::witness_writes)).
#[derive(Clone)]
pub struct WriteWitness {
    source: WriteSource,
}

#[derive(Clone)]
enum WriteSource {
    /// The embedded server records as requests arrive.
    Server(Arc<Mutex<Vec<ArrivedWrite>>>),
    /// An existing cluster's audit log, read when asked.
    Audit(Arc<audit::AuditLog>),
}

impl std::fmt::Debug for WriteWitness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let source = match &self.source {
            WriteSource::Server(_) => "server",
            WriteSource::Audit(_) => "audit log",
        };
        f.debug_struct("WriteWitness")
            .field("source", &source)
            .finish_non_exhaustive()
    }
}

impl WriteWitness {
    /// Witnesses the writes in `namespace` from an audit log (see [`audit::POLICY`]),
    /// from now on; a write's user is its `User-Agent`.
    pub(crate) fn from_audit_log(path: &Path, namespace: &str) -> std::io::Result<Self> {
        Ok(Self {
            source: WriteSource::Audit(Arc::new(audit::AuditLog::open(path, namespace)?)),
        })
    }

    /// Every write so far, in the order it arrived.
    pub fn writes(&self) -> Vec<ArrivedWrite> {
        match &self.source {
            WriteSource::Server(writes) => writes.lock().clone(),
            WriteSource::Audit(log) => log.writes(),
        }
    }
}

impl ApiServer {
    /// Starts recording every create, update, patch or delete a named user
    /// ([`as_user`](Self::as_user), or a bearer token over HTTP) sends, with when it
    /// arrived: which replica wrote which object, and when, so a test can check that
    /// two replicas never worked on one object at once.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use k8s_openapi::api::core::v1::ConfigMap;
    /// use kube::api::{Api, PostParams};
    /// use wheelhouse_envtest::ApiServer;
    ///
    /// let server = ApiServer::new(wheelhouse_envtest::ServerOptions::default());
    /// let witness = server.witness_writes();
    /// let api: Api<ConfigMap> = Api::default_namespaced(kube::Client::new(server.as_user("replica-0"), "default"));
    /// let mut config = ConfigMap::default();
    /// config.metadata.name = Some("settings".into());
    /// api.create(&PostParams::default(), &config).await.unwrap();
    /// let writes = witness.writes();
    /// assert_eq!((writes.len(), writes[0].user.as_str(), writes[0].resource.as_str()), (1, "replica-0", "configmaps"));
    /// # }
    /// ```
    pub fn witness_writes(&self) -> WriteWitness {
        let writes = Arc::new(Mutex::new(Vec::new()));
        self.shared.witnesses.writes.lock().push(writes.clone());
        WriteWitness {
            source: WriteSource::Server(writes),
        }
    }

    /// Starts witnessing fencing on the Lease `namespace/name`: from now on, every
    /// create, update, patch or delete sent by a candidate — a named user ([`as_user`],
    /// or a bearer token over HTTP) that has sent any request for that Lease — is
    /// recorded with who held the Lease when it arrived, and
    /// [`LeaseWitness::stale_writes`] lists those whose sender did not hold it.
    /// Requests without a user (the test's own client, the simulated controllers) and
    /// users that never asked for the Lease are not recorded.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use k8s_openapi::api::coordination::v1::Lease;
    /// use k8s_openapi::api::core::v1::ConfigMap;
    /// use kube::api::{Api, PostParams};
    /// use wheelhouse_envtest::ApiServer;
    ///
    /// let server = ApiServer::new(wheelhouse_envtest::ServerOptions::default());
    /// let witness = server.witness_lease("default", "operator");
    /// let client = kube::Client::new(server.as_user("replica-0"), "default");
    /// // A candidate: it asks for the Lease (as an elector does first).
    /// let leases: Api<Lease> = Api::default_namespaced(client.clone());
    /// assert!(leases.get_opt("operator").await.unwrap().is_none());
    /// let replica: Api<ConfigMap> = Api::default_namespaced(client);
    /// let mut config = ConfigMap::default();
    /// config.metadata.name = Some("settings".into());
    /// replica.create(&PostParams::default(), &config).await.unwrap();
    /// // Nobody holds the Lease (it does not even exist): the write was not fenced.
    /// let stale = witness.stale_writes();
    /// assert_eq!((stale.len(), stale[0].write.user.as_str(), stale[0].holder.as_deref()), (1, "replica-0", None));
    /// # }
    /// ```
    ///
    /// [`as_user`]: ApiServer::as_user
    pub fn witness_lease(&self, namespace: &str, name: &str) -> LeaseWitness {
        let record = Arc::new(LeaseRecord {
            namespace: namespace.to_owned(),
            name: name.to_owned(),
            started: Instant::now(),
            state: Mutex::new(LeaseState::default()),
        });
        self.shared.witnesses.leases.lock().push(record.clone());
        LeaseWitness {
            source: LeaseSource::Server(record),
        }
    }

    /// Holds every request from `user` before the server sees it, until
    /// [`release_requests`](Self::release_requests): as if the replica were frozen
    /// before its requests left, or its network stalled. A request its client gives
    /// up on meanwhile never arrives, as one never written to the socket.
    pub fn hold_requests(&self, user: &str) {
        self.shared.witnesses.held.lock().insert(user.into());
    }

    /// Lets `user`'s held requests, and later ones, through.
    pub fn release_requests(&self, user: &str) {
        self.shared.witnesses.held.lock().remove(user);
        self.shared.witnesses.released.notify_waiters();
    }
}

impl Witnesses {
    /// Waits while `user`'s requests are held.
    pub(crate) async fn gate(&self, user: Option<&str>) {
        let Some(user) = user else {
            return;
        };
        loop {
            let released = self.released.notified();
            tokio::pin!(released);
            released.as_mut().enable();
            if !self.held.lock().contains(user) {
                return;
            }
            released.await;
        }
    }

    /// Shows a request arriving from `user` to every witness.
    pub(crate) fn arrive(&self, server: &ApiServer, user: Option<&str>, target: &Target, body: &Bytes) {
        let Some(user) = user else {
            return;
        };
        let leases = self.leases.lock().clone();
        let witnessed = !leases.is_empty() || !self.writes.lock().is_empty();
        let write = (witnessed && is_write(target.verb)).then(|| ArrivedWrite {
            user: user.to_owned(),
            verb: target.verb,
            resource: target.resource.plural.clone(),
            subresource: target.subresource.clone(),
            namespace: target.namespace.clone(),
            name: target.name.clone(),
            arrived: Instant::now(),
        });
        if let Some(write) = &write {
            for writes in self.writes.lock().iter() {
                writes.lock().push(write.clone());
            }
        }
        for record in leases {
            record.arrive(server, user, target, body, write.as_ref());
        }
    }
}

fn is_write(verb: Verb) -> bool {
    matches!(
        verb,
        Verb::Create | Verb::Update | Verb::Patch | Verb::Delete | Verb::DeleteCollection
    )
}

impl LeaseRecord {
    fn is_target(&self, target: &Target) -> bool {
        target.resource.group == "coordination.k8s.io"
            && target.resource.plural == "leases"
            && target.namespace.as_deref() == Some(self.namespace.as_str())
            && target.name.as_deref().is_none_or(|name| name == self.name)
    }

    /// `write` is the request, when it is a write.
    fn arrive(&self, server: &ApiServer, user: &str, target: &Target, body: &Bytes, write: Option<&ArrivedWrite>) {
        if self.is_target(target) {
            self.state.lock().candidates.insert(user.to_owned());
            if write.is_none() {
                return;
            }
            let claimed = serde_json::from_slice::<Value>(body).ok().and_then(|lease| {
                let holder = lease.pointer("/spec/holderIdentity")?.as_str()?.to_owned();
                (!holder.is_empty()).then_some(holder)
            });
            if let Some(identity) = claimed {
                self.state.lock().users.insert(identity, user.to_owned());
            }
            return;
        }
        let Some(write) = write else { return };
        if !self.state.lock().candidates.contains(user) {
            return;
        }
        let leases = GroupResource {
            group: "coordination.k8s.io".into(),
            resource: "leases".into(),
        };
        let lease = server
            .shared
            .state
            .lock()
            .store
            .get(&leases, &self.namespace, &self.name);
        let holder = lease
            .as_deref()
            .and_then(|lease| lease.pointer("/spec/holderIdentity")?.as_str())
            .filter(|holder| !holder.is_empty())
            .map(str::to_owned);
        let mut state = self.state.lock();
        let holder_user = holder
            .as_ref()
            .map(|identity| state.users.get(identity).cloned().unwrap_or_else(|| identity.clone()));
        state.writes.push(WitnessedWrite {
            write: write.clone(),
            holder,
            holder_user,
            at: self.started.elapsed(),
        });
    }
}

#[cfg(test)]
mod tests {
    use k8s_openapi::api::coordination::v1::{Lease, LeaseSpec};
    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::api::{Api, PostParams};

    use super::*;

    fn config_map(name: &str) -> ConfigMap {
        let mut config = ConfigMap::default();
        config.metadata.name = Some(name.into());
        config
    }

    fn lease(holder: &str) -> Lease {
        Lease {
            metadata: kube::api::ObjectMeta {
                name: Some("operator".into()),
                ..Default::default()
            },
            spec: Some(LeaseSpec {
                holder_identity: Some(holder.into()),
                ..LeaseSpec::default()
            }),
        }
    }

    #[tokio::test]
    async fn writes_are_judged_by_who_held_the_lease_when_they_arrived() {
        let server = ApiServer::new(crate::ServerOptions::default());
        let witness = server.witness_lease("default", "operator");
        let as_user = |user: &str| kube::Client::new(server.as_user(user), "default");
        let configs = |user: &str| Api::<ConfigMap>::default_namespaced(as_user(user));
        // The replica "a" takes the lease as identity "pod-a_1234": the witness learns it.
        let leases: Api<Lease> = Api::default_namespaced(as_user("a"));
        leases
            .create(&PostParams::default(), &lease("pod-a_1234"))
            .await
            .unwrap();
        configs("a")
            .create(&PostParams::default(), &config_map("by-a"))
            .await
            .unwrap();
        // "b" is a candidate (it asked for the Lease), "c" is not: only b's write counts.
        let _ = Api::<Lease>::default_namespaced(as_user("b"))
            .get_opt("operator")
            .await
            .unwrap();
        configs("b")
            .create(&PostParams::default(), &config_map("by-b"))
            .await
            .unwrap();
        configs("c")
            .create(&PostParams::default(), &config_map("by-c"))
            .await
            .unwrap();
        // The test's own client is nobody: not recorded.
        let test: Api<ConfigMap> = Api::default_namespaced(kube::Client::new(server.clone(), "default"));
        test.create(&PostParams::default(), &config_map("by-test"))
            .await
            .unwrap();

        let writes = witness.writes();
        assert_eq!(writes.len(), 2, "{writes:?}");
        assert!(!writes[0].is_stale(), "{:?}", writes[0]);
        assert_eq!(writes[0].holder.as_deref(), Some("pod-a_1234"));
        assert_eq!(writes[0].holder_user.as_deref(), Some("a"));
        assert_eq!(witness.user_of("pod-a_1234").as_deref(), Some("a"));
        let stale = witness.stale_writes();
        assert_eq!(stale.len(), 1);
        assert_eq!((stale[0].write.user.as_str(), stale[0].write.verb), ("b", Verb::Create));
        assert_eq!(stale[0].holder.as_deref(), Some("pod-a_1234"));
    }

    #[tokio::test]
    async fn a_held_request_arrives_only_when_released_and_never_if_abandoned() {
        let server = ApiServer::new(crate::ServerOptions::default());
        let witness = server.witness_lease("default", "operator");
        let leases: Api<Lease> = Api::default_namespaced(kube::Client::new(server.as_user("a"), "default"));
        let _ = leases.get_opt("operator").await.unwrap();
        server.hold_requests("a");
        let configs: Api<ConfigMap> = Api::default_namespaced(kube::Client::new(server.as_user("a"), "default"));
        let abandoned = tokio::time::timeout(
            Duration::from_millis(50),
            configs.create(&PostParams::default(), &config_map("given-up")),
        )
        .await;
        assert!(abandoned.is_err(), "held");
        let held = tokio::spawn({
            let configs = configs.clone();
            async move { configs.create(&PostParams::default(), &config_map("held")).await }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(witness.writes().is_empty(), "nothing arrived while held");
        server.release_requests("a");
        held.await.unwrap().unwrap();
        let writes = witness.writes();
        assert_eq!(writes.len(), 1, "only the request still wanted arrived: {writes:?}");
        assert_eq!(writes[0].write.name, None);
        assert!(configs.get_opt("given-up").await.unwrap().is_none());
    }
}
