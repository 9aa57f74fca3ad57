//! Replicas of an operator on one API server, each its own [`Manager`], identity and
//! cache, electing a leader on one Lease or sharing the work in a ring, and a
//! [`Timeline`] of the leader-only work each replica did, to check that no two
//! replicas ever worked at once (or, sharded, on one object at once). One harness for
//! the `ha` and `sharded` demos, the high-availability, fencing and sharding tests
//! (the facade's and the manager's) and the failover benchmark.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use kube::ResourceExt;
use parking_lot::Mutex;
use tokio::task::JoinHandle;
use tokio::time::Instant;
use wheelhouse::cache::{Shards, SlotSet};
use wheelhouse::controller::{Action, Context, Error, Reconciler};
use wheelhouse::manager::{CancellationToken, LeaderElection, Manager, Sharding};
use wheelhouse_envtest::{ArrivedWrite, TestEnv};

use crate::webapp::{self, WebApp, WebAppReconciler, WebAppSpec};

/// How long [`until`] waits, and how long a test gives a replica to stop.
pub const TIMEOUT: Duration = Duration::from_mins(1);

/// One stretch of leader-only work: which replica did it, on what (a WebApp's name for
/// a reconcile), from when to when. The end is set when the work returns or is
/// dropped, so aborted work counts.
#[derive(Debug, Clone)]
pub struct Work {
    /// The replica's index.
    pub replica: usize,
    /// What it worked on.
    pub what: String,
    /// When it started, on the monotonic clock.
    pub started: Instant,
    /// When it started, on the wall clock (to compare with Lease timestamps).
    pub started_at: SystemTime,
    /// When it ended; `None` while it runs.
    pub ended: Option<Instant>,
}

/// Where a replica's write fell against the work it was sent from ([`Timeline::judge`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arrival {
    /// While the work ran.
    Inside,
    /// After the work ended (a request cancelled with its bytes already sent), before
    /// another replica began the same work.
    Late {
        /// How long after the work ended.
        after_end: Duration,
    },
    /// After another replica began the same work, or with no work of its sender's
    /// before it.
    Stale {
        /// How long after the work it was sent from ended, if there was one.
        after_end: Option<Duration>,
    },
}

/// Every replica's work, in the order it started.
#[derive(Clone, Default)]
pub struct Timeline(Arc<Mutex<Vec<Work>>>);

impl Timeline {
    /// Records that `replica` starts working on `what`, until the returned guard drops.
    #[must_use = "the work ends when the guard is dropped"]
    pub fn begin(&self, replica: usize, what: impl Into<String>) -> Ending {
        let mut work = self.0.lock();
        work.push(Work {
            replica,
            what: what.into(),
            started: Instant::now(),
            started_at: SystemTime::now(),
            ended: None,
        });
        Ending(self.clone(), work.len() - 1)
    }

    /// All work so far.
    pub fn snapshot(&self) -> Vec<Work> {
        self.0.lock().clone()
    }

    /// The first work `replica` started at or after `since`.
    pub fn first_by(&self, replica: usize, since: SystemTime) -> Option<Work> {
        self.0
            .lock()
            .iter()
            .find(|w| w.replica == replica && w.started_at >= since)
            .cloned()
    }

    /// True while `replica` is in the middle of recent work.
    pub fn in_flight(&self, replica: usize) -> bool {
        self.0
            .lock()
            .iter()
            .rev()
            .take(16)
            .any(|w| w.replica == replica && w.ended.is_none())
    }

    /// A replica that is working now, if any.
    pub fn working(&self) -> Option<usize> {
        self.0.lock().iter().find(|w| w.ended.is_none()).map(|w| w.replica)
    }

    /// How many times `replica` started work.
    pub fn count(&self, replica: usize) -> usize {
        self.0.lock().iter().filter(|w| w.replica == replica).count()
    }

    /// The replicas that started work since `since`.
    pub fn replicas_since(&self, since: Instant) -> Vec<usize> {
        let mut replicas: Vec<usize> = self
            .0
            .lock()
            .iter()
            .filter(|w| w.started >= since)
            .map(|w| w.replica)
            .collect();
        replicas.sort_unstable();
        replicas.dedup();
        replicas
    }

    /// Where a write that `replica` sent about `what` (None: any of its work) fell, by
    /// when it `arrived` at the server: inside that replica's work, late (after the
    /// work it was sent from ended, bytes already on their way when the work was
    /// stopped, but before any other replica began work on the same thing), or stale
    /// (after another replica began: two writers).
    pub fn judge(&self, replica: usize, what: Option<&str>, arrived: std::time::Instant) -> Arrival {
        let work = self.0.lock();
        let same = |w: &&Work| what.is_none_or(|what| w.what == what);
        let sent_from = work
            .iter()
            .filter(same)
            .filter(|w| w.replica == replica && w.started.into_std() <= arrived)
            .max_by_key(|w| w.started);
        let Some(sent_from) = sent_from else {
            return Arrival::Stale { after_end: None };
        };
        let Some(ended) = sent_from.ended.map(Instant::into_std).filter(|&ended| ended < arrived) else {
            return Arrival::Inside;
        };
        let taken_over = work
            .iter()
            .filter(same)
            .any(|w| w.replica != replica && w.started > sent_from.started && w.started.into_std() <= arrived);
        let after_end = arrived - ended;
        if taken_over {
            Arrival::Stale {
                after_end: Some(after_end),
            }
        } else {
            Arrival::Late { after_end }
        }
    }

    /// Asserts that every write of a replica (user `replica-<index>`) that `about`
    /// selects was fenced: it arrived inside the work it was sent from ([`judge`]; `about`
    /// names the object, `Some(None)` meaning any of the replica's work, and skips a
    /// write with `None`), or, where `late_allowed` (a real server reached over TCP,
    /// where a cancelled request's bytes may be on their way), late but before another
    /// replica began the same work. Says on stderr how many were late; returns how many
    /// were checked.
    ///
    /// # Panics
    /// On a write outside its work (stale, or late where that is not allowed), or when
    /// no write was checked: for tests.
    ///
    /// [`judge`]: Self::judge
    pub fn assert_writes_fenced(
        &self,
        writes: &[ArrivedWrite],
        about: impl Fn(&ArrivedWrite) -> Option<Option<String>>,
        late_allowed: bool,
    ) -> usize {
        let mut checked = 0;
        let mut late = Vec::new();
        for write in writes {
            let replica = write.user.strip_prefix("replica-").and_then(|r| r.parse().ok());
            let (Some(replica), Some(what)) = (replica, about(write)) else {
                continue;
            };
            match self.judge(replica, what.as_deref(), write.arrived) {
                Arrival::Inside => {}
                Arrival::Late { after_end } if late_allowed => late.push(after_end),
                arrival => panic!("a write arrived outside the work it was sent from: {write:?}, {arrival:?}"),
            }
            checked += 1;
        }
        assert!(checked > 0, "the witness saw the replicas' writes");
        if let Some(latest) = late.iter().max() {
            eprintln!(
                "{} of {checked} writes arrived after the work they were sent from ended, before another replica began it; the latest {latest:?} after",
                late.len()
            );
        }
        checked
    }

    /// How many of the replicas' writes that `about` selects (as for
    /// [`assert_writes_fenced`](Self::assert_writes_fenced)) arrived stale: after another
    /// replica began the same work, or with no work of their sender's before them.
    pub fn stale_writes(
        &self,
        writes: &[ArrivedWrite],
        about: impl Fn(&ArrivedWrite) -> Option<Option<String>>,
    ) -> usize {
        writes
            .iter()
            .filter(|write| {
                let replica = write.user.strip_prefix("replica-").and_then(|r| r.parse().ok());
                let (Some(replica), Some(what)) = (replica, about(write)) else {
                    return false;
                };
                matches!(
                    self.judge(replica, what.as_deref(), write.arrived),
                    Arrival::Stale { .. }
                )
            })
            .count()
    }

    /// The position (in [`snapshot`](Self::snapshot)) of the work `replica` is doing
    /// now, if any.
    pub fn current(&self, replica: usize) -> Option<usize> {
        self.0
            .lock()
            .iter()
            .rposition(|w| w.replica == replica && w.ended.is_none())
    }

    /// Whether the work at `position` has ended.
    pub fn has_ended(&self, position: usize) -> bool {
        self.0.lock().get(position).is_some_and(|w| w.ended.is_some())
    }

    /// The replica doing work that started after `position`, if any.
    pub fn working_after(&self, position: usize) -> Option<usize> {
        self.0
            .lock()
            .iter()
            .skip(position + 1)
            .find(|w| w.ended.is_none())
            .map(|w| w.replica)
    }

    /// Two stretches of work of different replicas that overlapped in time, if any.
    pub fn overlap(&self) -> Option<(Work, Work)> {
        let work = self.snapshot();
        let now = Instant::now();
        for (i, a) in work.iter().enumerate() {
            for b in &work[i + 1..] {
                let (a_end, b_end) = (a.ended.unwrap_or(now), b.ended.unwrap_or(now));
                if a.replica != b.replica && a.started < b_end && b.started < a_end {
                    return Some((a.clone(), b.clone()));
                }
            }
        }
        None
    }

    /// Every pair of stretches of work of different replicas on the same thing that
    /// overlapped in time: what sharded replicas must never do.
    pub fn overlaps_on_one_object(&self) -> Vec<(Work, Work)> {
        let mut work = self.snapshot();
        work.sort_by(|a, b| a.what.cmp(&b.what).then(a.started.cmp(&b.started)));
        let now = Instant::now();
        let mut overlaps = Vec::new();
        for (i, a) in work.iter().enumerate() {
            for b in work[i + 1..].iter().take_while(|b| b.what == a.what) {
                if b.started >= a.ended.unwrap_or(now) {
                    break;
                }
                if a.replica != b.replica {
                    overlaps.push((a.clone(), b.clone()));
                }
            }
        }
        overlaps
    }

    /// The first of [`overlaps_on_one_object`](Self::overlaps_on_one_object), if any.
    pub fn overlap_on_one_object(&self) -> Option<(Work, Work)> {
        self.overlaps_on_one_object().into_iter().next()
    }

    /// How many different things were worked on since `since`.
    pub fn objects_since(&self, since: Instant) -> usize {
        let mut what: Vec<String> = self
            .0
            .lock()
            .iter()
            .filter(|w| w.started >= since)
            .map(|w| w.what.clone())
            .collect();
        what.sort_unstable();
        what.dedup();
        what.len()
    }

    /// Fails the test when two replicas' work overlapped.
    ///
    /// # Panics
    /// When [`overlap`](Self::overlap) finds a pair, naming both.
    pub fn assert_disjoint(&self) {
        if let Some((a, b)) = self.overlap() {
            panic!("two replicas worked at once: {a:?} and {b:?}");
        }
    }
}

/// Ends a stretch of recorded work when dropped.
pub struct Ending(Timeline, usize);

impl Drop for Ending {
    fn drop(&mut self) {
        self.0.0.lock()[self.1].ended = Some(Instant::now());
    }
}

/// How a replica's manager shares the work with the others.
#[derive(Debug, Clone)]
pub enum Membership {
    /// It does not: the only replica (a baseline to compare with).
    Alone,
    /// One leader at a time, elected on this Lease.
    Leader(LeaderElection),
    /// Every replica a member of this ring, each with its share of the objects.
    Ring(Sharding),
}

impl From<LeaderElection> for Membership {
    fn from(election: LeaderElection) -> Self {
        Self::Leader(election)
    }
}

impl From<Sharding> for Membership {
    fn from(sharding: Sharding) -> Self {
        Self::Ring(sharding)
    }
}

/// What a replica's manager reaches the API server through.
#[derive(Clone)]
pub enum Connection {
    /// A client as given ([`Manager::builder`]): kube's stack as the caller built it.
    Client(kube::Client),
    /// A configuration the manager makes its own client of
    /// ([`Manager::builder_from_config`]), as an operator's binary does: a 429, 503 or
    /// 504 retried within a second rather than after the server's `Retry-After`, and
    /// fenced writes checked at the socket.
    Config(Box<kube::Config>),
}

impl From<&kube::Client> for Connection {
    fn from(client: &kube::Client) -> Self {
        Self::Client(client.clone())
    }
}

impl From<kube::Config> for Connection {
    fn from(config: kube::Config) -> Self {
        Self::Config(Box::new(config))
    }
}

/// A replica: a manager with leader election or in a ring, running on its own task.
pub struct Replica {
    /// Its index; its identity in the Lease is `replica-<index>`.
    pub index: usize,
    /// Its manager.
    pub manager: Manager,
    shutdown: CancellationToken,
    task: Option<JoinHandle<Result<(), wheelhouse::manager::Error>>>,
}

impl Replica {
    /// Starts replica `index` (identity `replica-<index>`) on `connection` (a client,
    /// or a configuration the manager makes its own client of), electing on a Lease or
    /// joining a ring in `namespace`, after `add` has added its runnables to its
    /// manager.
    ///
    /// # Errors
    /// When the manager cannot be built (its client of a configuration included), or
    /// `add` fails.
    pub fn start(
        connection: impl Into<Connection>,
        namespace: &str,
        index: usize,
        membership: impl Into<Membership>,
        add: impl FnOnce(&Manager) -> Result<(), wheelhouse::manager::Error>,
    ) -> Result<Self, wheelhouse::manager::Error> {
        let shutdown = CancellationToken::new();
        let identity = format!("replica-{index}");
        let builder = match connection.into() {
            Connection::Client(client) => Manager::builder(client),
            Connection::Config(config) => Manager::builder_from_config(*config)?,
        };
        let builder = builder.shutdown_signal(shutdown.clone());
        let builder = match membership.into() {
            Membership::Alone => builder.metrics_address(None).health_probe_address(None),
            Membership::Leader(election) => builder.leader_election(election.namespace(namespace).identity(identity)),
            Membership::Ring(sharding) => builder
                .sharding(sharding.namespace(namespace).identity(identity))
                .metrics_address(None)
                .health_probe_address(None),
        };
        let manager = builder.build()?;
        add(&manager)?;
        let task = tokio::spawn(manager.clone().run());
        Ok(Self {
            index,
            manager,
            shutdown,
            task: Some(task),
        })
    }

    /// Starts a replica of the WebApp operator reconciling the WebApps of `namespace`
    /// on `connection` (as [`start`](Self::start)), recording every reconcile on
    /// `timeline`; `requeue` (when set) brings every WebApp back that soon, so a leader
    /// reconciles all the time.
    ///
    /// # Errors
    /// As [`start`](Self::start).
    ///
    /// # Panics
    /// Never: the operator's builder owns Deployments and Services whole, as
    /// [`WebAppReconciler::cached`] needs.
    pub fn webapp(
        connection: impl Into<Connection>,
        namespace: &str,
        index: usize,
        membership: impl Into<Membership>,
        timeline: &Timeline,
        requeue: Option<Duration>,
    ) -> Result<Self, wheelhouse::manager::Error> {
        Self::start(connection, namespace, index, membership, |manager| {
            let builder = webapp::builder(manager.cache(), Some(namespace));
            let reconciler = Recording {
                inner: WebAppReconciler::cached(&builder).expect("builder() owns Deployments and Services whole"),
                replica: index,
                timeline: timeline.clone(),
                requeue,
            };
            manager.add(builder.build(reconciler))
        })
    }

    /// The slots this replica serves (sharded; every slot otherwise).
    pub fn serving(&self) -> SlotSet {
        self.manager.shards().map_or(SlotSet::ALL, Shards::serving)
    }

    /// The primary objects in this replica's sharded caches.
    pub fn cached(&self) -> i64 {
        self.manager.shards().map_or(0, Shards::objects)
    }

    /// True while this replica's manager runs.
    pub fn is_running(&self) -> bool {
        self.task.as_ref().is_some_and(|t| !t.is_finished())
    }

    /// Stops gracefully (the lease is released) and returns what `run` returned.
    pub async fn stop(&mut self) -> Result<(), wheelhouse::manager::Error> {
        self.shutdown.cancel();
        self.exited().await
    }

    /// Waits for the manager's `run` to return by itself (after a lost lease, say),
    /// and returns what it returned; `Ok` at once if it was stopped or killed before.
    pub async fn exited(&mut self) -> Result<(), wheelhouse::manager::Error> {
        match self.task.take() {
            Some(task) => task
                .await
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic.into_panic())),
            None => Ok(()),
        }
    }

    /// Kills the replica as a crash would: its manager's future is dropped and nothing
    /// is released.
    pub async fn kill(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
            let _ = task.await;
        }
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        if let Some(task) = &self.task {
            task.abort();
        }
    }
}

/// The WebApp reconciler, recording each call on a [`Timeline`].
struct Recording {
    inner: WebAppReconciler,
    replica: usize,
    timeline: Timeline,
    requeue: Option<Duration>,
}

impl Reconciler<WebApp> for Recording {
    async fn reconcile(&self, webapp: Arc<WebApp>, context: &Context) -> Result<Action, Error> {
        let _ending = self.timeline.begin(self.replica, webapp.name_any());
        let action = self.inner.reconcile(webapp, context).await?;
        Ok(self.requeue.map_or(action, Action::requeue_after))
    }
}

/// The index of the replica that leads now, if one does.
pub fn leader(replicas: &[Replica]) -> Option<usize> {
    replicas
        .iter()
        .find(|r| r.is_running() && r.manager.is_leader())
        .map(|r| r.index)
}

/// `election` with short timings, so tests take seconds: 2 s lease, 1.5 s renew
/// deadline, 0.4 s retry (client-go's defaults are 15 s, 10 s and 2 s).
pub fn short(election: LeaderElection) -> LeaderElection {
    election.timings(
        Duration::from_secs(2),
        Duration::from_millis(1500),
        Duration::from_millis(400),
    )
}

/// `sharding` with the same short timings as [`short`].
pub fn short_ring(sharding: Sharding) -> Sharding {
    sharding.timings(
        Duration::from_secs(2),
        Duration::from_millis(1500),
        Duration::from_millis(400),
    )
}

/// Whether `replicas` serve disjoint slots that cover the whole hash space, each
/// within one slot of its share.
///
/// # Panics
/// When two serve one slot: the ring's invariant is broken.
pub fn balanced(replicas: &[&Replica]) -> bool {
    let mut all = SlotSet::EMPTY;
    for replica in replicas {
        let set = replica.serving();
        assert!(
            all.intersection(set).is_empty(),
            "two replicas serve one slot: replica-{} serves {set:?}",
            replica.index
        );
        all = all.union(set);
    }
    let fair = 64 / u32::try_from(replicas.len().max(1)).unwrap_or(1);
    all == SlotSet::ALL && replicas.iter().all(|r| (fair..=fair + 1).contains(&r.serving().len()))
}

/// Replica `index`'s client, whose requests witnesses attribute to the user
/// `replica-<index>`, its identity in the Lease (`TestEnv::client_for`), so a witness
/// can tell who wrote.
///
/// # Panics
/// When an existing cluster's client cannot be built: for tests.
pub fn client_of(env: &TestEnv, index: usize) -> kube::Client {
    env.client_for(&format!("replica-{index}")).expect("a replica's client")
}

/// Waits until `check` holds, and returns how long that took.
///
/// # Panics
/// After [`TIMEOUT`], naming `what`: for tests.
pub async fn until(what: &str, mut check: impl FnMut() -> bool) -> Duration {
    let started = Instant::now();
    while !check() {
        assert!(started.elapsed() < TIMEOUT, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    started.elapsed()
}

/// `count` WebApps named `webapp-<i>`, one pod each, created 16 at a time.
pub async fn create_many_webapps(client: &kube::Client, namespace: &str, count: usize) -> Result<(), kube::Error> {
    use futures::{StreamExt, TryStreamExt};
    let webapps: kube::Api<WebApp> = kube::Api::namespaced(client.clone(), namespace);
    futures::stream::iter(0..count)
        .map(|i| {
            let webapps = webapps.clone();
            async move {
                let spec = WebAppSpec {
                    image: "nginx:1.27".into(),
                    replicas: Some(1),
                    port: Some(80),
                };
                webapps
                    .create(
                        &kube::api::PostParams::default(),
                        &WebApp::new(&format!("webapp-{i}"), spec),
                    )
                    .await
                    .map(drop)
            }
        })
        .buffer_unordered(16)
        .try_collect::<()>()
        .await
}

/// The WebApps the replicas share: `shop`, `blog` and `wiki`, `replicas` each.
pub async fn create_webapps(client: &kube::Client, namespace: &str, replicas: i32) -> Result<(), kube::Error> {
    let webapps: kube::Api<WebApp> = kube::Api::namespaced(client.clone(), namespace);
    for name in ["shop", "blog", "wiki"] {
        let spec = WebAppSpec {
            image: "nginx:1.27".into(),
            replicas: Some(replicas),
            port: Some(80),
        };
        webapps
            .create(&kube::api::PostParams::default(), &WebApp::new(name, spec))
            .await?;
    }
    Ok(())
}
