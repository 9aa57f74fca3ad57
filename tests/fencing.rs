//! Leader fencing of the WebApp operator, witnessed by the server (who held the Lease
//! when each write arrived):
//! - chaos: three replicas per Lease, two Leases side by side, ≥ 100 leader pauses
//!   mid-reconcile (the leader's requests held at the server until another replica
//!   has taken over), mixed with kills and graceful handovers; no write may arrive from
//!   a replica outside its term, and every WebApp converges;
//! - processes: three `webapp --cluster --leader-elect` processes on the embedded
//!   server over HTTP; the leader is stopped (`SIGSTOP`) mid-reconcile and continued
//!   (`SIGCONT`) after another took over (Linux);
//! - freezes: ≥ 200 `SIGSTOP`s of writer processes (this binary run again) caught in
//!   the middle of their requests, each held past the end of the term; no request the
//!   freeze caught may reach the server after it (Linux).
//!
//! The first two need the embedded server (it holds requests, and attributes a
//! process's writes by its bearer token), and skip with a message on an existing
//! cluster; the freezes run there too, witnessed by the API server's audit log
//! (`TestEnv::witness_lease`), and skip without one.

#[cfg(target_os = "linux")]
mod support;

use std::time::Duration;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::Namespace;
use kube::CustomResourceExt;
use kube::api::{Api, Patch, PatchParams, PostParams};
use replicas::{Replica, TIMEOUT, Timeline, leader, until};
use serde_json::json;
use tokio::time::Instant;
use webapp::WebApp;
use wheelhouse::manager::{LeaderElection, OnLeadershipLost};
use wheelhouse_envtest::{ApiServer, LeaseWitness, TestEnv};
use wheelhouse_examples::replicas;
use wheelhouse_examples::webapp;

const WEBAPPS: [&str; 3] = ["shop", "blog", "wiki"];

/// The shortest timings the Lease allows (it stores whole seconds): 1 s lease, 0.5 s
/// renew deadline, 0.1 s retry.
fn election(lease: &str) -> LeaderElection {
    LeaderElection::new(lease)
        .timings(
            Duration::from_secs(1),
            Duration::from_millis(500),
            Duration::from_millis(100),
        )
        .on_lost(OnLeadershipLost::Standby)
}

/// Three replicas electing on one Lease in one namespace, each its own user.
struct Group {
    server: ApiServer,
    namespace: String,
    lease: String,
    timeline: Timeline,
    replicas: Vec<Replica>,
    next: usize,
    /// Spec changes made so far: each one sends the leader into a reconcile that writes.
    changes: usize,
}

#[derive(Debug, Default)]
struct Tally {
    pauses: usize,
    kills: usize,
    handovers: usize,
}

impl Group {
    fn start(server: &ApiServer, namespace: &str, lease: &str) -> Self {
        let mut group = Self {
            server: server.clone(),
            namespace: namespace.to_owned(),
            lease: lease.to_owned(),
            timeline: Timeline::default(),
            replicas: Vec::new(),
            next: 0,
            changes: 0,
        };
        for _ in 0..3 {
            group.add();
        }
        group
    }

    fn add(&mut self) {
        let index = self.next;
        self.next += 1;
        let client = kube::Client::new(self.server.as_user(&self.user(index)), self.namespace.clone());
        let replica = Replica::webapp(
            &client,
            &self.namespace,
            index,
            election(&self.lease),
            &self.timeline,
            None,
        )
        .expect("a replica");
        self.replicas.push(replica);
    }

    /// Replica `index`'s user: its identity in the Lease, qualified by the Lease, as two
    /// groups share one server.
    fn user(&self, index: usize) -> String {
        format!("{}/replica-{index}", self.lease)
    }

    async fn leader(&self) -> usize {
        let mut found = None;
        until("a leader", || {
            found = leader(&self.replicas);
            found.is_some()
        })
        .await;
        found.expect("set above")
    }

    /// Changes a WebApp's spec and waits until `replica` is in the middle of the
    /// reconcile that follows (changing another if it was missed).
    async fn mid_reconcile(&mut self, replica: usize) {
        let client = kube::Client::new(self.server.clone(), self.namespace.clone());
        let webapps: Api<WebApp> = Api::namespaced(client, &self.namespace);
        let deadline = Instant::now() + TIMEOUT;
        loop {
            assert!(Instant::now() < deadline, "never caught a reconcile in flight");
            let name = WEBAPPS[self.changes % WEBAPPS.len()];
            let replicas = i32::try_from(self.changes / WEBAPPS.len() % 3 + 1).expect("small");
            self.changes += 1;
            let patch = json!({"spec": {"replicas": replicas}});
            webapps
                .patch(name, &PatchParams::default(), &Patch::Merge(&patch))
                .await
                .expect("change a WebApp");
            let caught = Instant::now() + Duration::from_millis(300);
            while Instant::now() < caught {
                if self.timeline.in_flight(replica) {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
        }
    }

    /// Waits until a replica other than `old` leads and has reconciled since `since`.
    async fn taken_over(&self, old: usize, since: Instant) -> usize {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(new) = self.timeline.replicas_since(since).into_iter().find(|&r| r != old) {
                return new;
            }
            if Instant::now() > deadline {
                let leases: Api<k8s_openapi::api::coordination::v1::Lease> = Api::namespaced(
                    kube::Client::new(self.server.clone(), self.namespace.clone()),
                    &self.namespace,
                );
                let lease = leases.get(&self.lease).await.ok().and_then(|l| l.spec);
                let states: Vec<_> = self
                    .replicas
                    .iter()
                    .map(|r| (r.index, r.is_running(), r.manager.is_leader()))
                    .collect();
                let recent: Vec<_> = self.timeline.snapshot().into_iter().rev().take(5).collect();
                panic!("no replica but {old} took over: replicas {states:?}, lease {lease:?}, recent {recent:#?}");
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }

    /// Freezes the leader's requests mid-reconcile until another replica has taken
    /// over; returns how long that took.
    async fn pause(&mut self) -> Duration {
        let old = self.leader().await;
        self.mid_reconcile(old).await;
        let user = self.user(old);
        self.server.hold_requests(&user);
        let paused = Instant::now();
        self.taken_over(old, paused).await;
        let took = paused.elapsed();
        self.server.release_requests(&user);
        took
    }

    async fn kill(&mut self) {
        let old = self.leader().await;
        self.mid_reconcile(old).await;
        let position = self.replicas.iter().position(|r| r.index == old).expect("the leader");
        let mut gone = self.replicas.remove(position);
        gone.kill().await;
        self.taken_over(old, Instant::now()).await;
        self.add();
    }

    async fn handover(&mut self) {
        let old = self.leader().await;
        self.mid_reconcile(old).await;
        let position = self.replicas.iter().position(|r| r.index == old).expect("the leader");
        let mut gone = self.replicas.remove(position);
        gone.stop().await.expect("a clean stop");
        self.taken_over(old, Instant::now()).await;
        self.add();
    }

    /// `pauses` pauses, with a kill and a graceful handover among every six events;
    /// each event strikes the leader in the middle of a reconcile.
    async fn chaos(&mut self, pauses: usize) -> Tally {
        let mut tally = Tally::default();
        for event in 0.. {
            if tally.pauses == pauses {
                break;
            }
            match event % 6 {
                5 => {
                    self.kill().await;
                    tally.kills += 1;
                }
                2 => {
                    self.handover().await;
                    tally.handovers += 1;
                }
                _ => {
                    self.pause().await;
                    tally.pauses += 1;
                }
            }
        }
        tally
    }

    /// Every WebApp's Deployment has the WebApp's replicas, and its status describes
    /// its latest generation.
    async fn converged(&self) {
        let client = kube::Client::new(self.server.clone(), self.namespace.clone());
        let webapps: Api<WebApp> = Api::namespaced(client.clone(), &self.namespace);
        let deployments: Api<Deployment> = Api::namespaced(client, &self.namespace);
        wheelhouse_envtest::eventually("every WebApp to converge", || async {
            for name in WEBAPPS {
                let webapp = webapps.get(name).await.ok()?;
                let deployment = deployments.get(name).await.ok()?;
                let observed = webapp.status.as_ref()?.observed_generation;
                let wanted = webapp.spec.replicas.unwrap_or(1);
                let deployed = deployment.spec.replicas;
                if observed != webapp.metadata.generation || deployed != Some(wanted) {
                    return None;
                }
            }
            Some(())
        })
        .await;
    }

    async fn stop(&mut self) {
        for replica in &mut self.replicas {
            replica.stop().await.expect("a clean stop");
        }
    }
}

/// No reconcile of one replica overlapped one of another (sorted by start, so each is
/// compared with the latest end of every other replica before it).
fn assert_no_overlap(timeline: &Timeline) {
    let mut reconciles = timeline.snapshot();
    reconciles.sort_by_key(|r| r.started);
    let now = Instant::now();
    let mut latest_end: std::collections::HashMap<usize, (Instant, usize)> = std::collections::HashMap::new();
    for (i, reconcile) in reconciles.iter().enumerate() {
        for (&replica, &(end, j)) in &latest_end {
            assert!(
                replica == reconcile.replica || end <= reconcile.started,
                "two replicas reconciled at once: {:?} and {reconcile:?}",
                reconciles[j]
            );
        }
        let end = reconcile.ended.unwrap_or(now);
        let entry = latest_end.entry(reconcile.replica).or_insert((end, i));
        if end > entry.0 {
            *entry = (end, i);
        }
    }
}

/// No write on `lease` arrived from a replica outside its term; and there were writes
/// (at least one per pause, each struck right after a spec change).
fn assert_fenced(witness: &LeaseWitness, lease: &str, pauses: usize) {
    let writes = witness.writes();
    let stale = witness.stale_writes();
    assert!(
        stale.is_empty(),
        "{} of {} writes on lease {lease} arrived from a replica outside its term; the first: {:#?}",
        stale.len(),
        writes.len(),
        &stale[..stale.len().min(5)]
    );
    assert!(writes.len() >= pauses, "the replicas wrote only {} times", writes.len());
    eprintln!("lease {lease}: {} writes witnessed, none stale", writes.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chaos_no_write_arrives_outside_its_senders_term_and_every_webapp_converges() {
    let env = TestEnv::start().await.expect("a test environment");
    let Some(server) = env.server().cloned() else {
        eprintln!("skipped: holding a replica's requests and the fencing witness need the embedded server");
        return;
    };
    let pauses: usize = std::env::var("CHAOS_PAUSES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    env.install_crd(&WebApp::crd()).await.expect("the CRD installs");
    let second = format!("{}-b", env.namespace());
    Api::<Namespace>::all(env.client())
        .create(
            &PostParams::default(),
            &serde_json::from_value(json!({"metadata": {"name": second}})).expect("a namespace"),
        )
        .await
        .expect("a second namespace");
    // Each request takes 2 ms, so a pause strikes writes in flight, not just reads.
    server.set_latency(Duration::from_millis(2));
    let started = Instant::now();
    let mut groups = Vec::new();
    let mut witnesses = Vec::new();
    for (namespace, lease) in [(env.namespace(), "chaos-a"), (second.as_str(), "chaos-b")] {
        replicas::create_webapps(&env.client(), namespace, 1)
            .await
            .expect("create");
        witnesses.push((server.witness_lease(namespace, lease), lease));
        groups.push(Group::start(&server, namespace, lease));
    }
    let (first, rest) = groups.split_at_mut(1);
    let (a, b) = tokio::join!(first[0].chaos(pauses / 2), rest[0].chaos(pauses - pauses / 2));
    eprintln!("chaos: {a:?} and {b:?} in {:?}", started.elapsed());
    let (a_pauses, b_pauses) = (a.pauses, b.pauses);
    assert_eq!(a_pauses + b_pauses, pauses);
    for group in &groups {
        group.converged().await;
        assert_no_overlap(&group.timeline);
    }
    for group in &mut groups {
        group.stop().await;
    }
    for ((witness, lease), tally) in witnesses.iter().zip([a, b]) {
        assert_fenced(witness, lease, tally.pauses);
    }
    env.stop().await;
}

/// Starts `webapp --cluster --leader-elect` with a kubeconfig whose bearer token is
/// `user`.
#[cfg(target_os = "linux")]
fn webapp_process(
    binary: &std::path::Path,
    kubeconfig: &str,
    dir: &std::path::Path,
    user: &str,
) -> support::frozen::Process {
    let config = dir.join(format!("{user}.kubeconfig"));
    let with_token = kubeconfig.replace("user: {}", &format!("user: {{token: {user}}}"));
    std::fs::write(&config, with_token).expect("write a kubeconfig");
    // The operator always serves its conversions, so it needs a serving certificate
    // (any port: this API server never calls it, the CRD here converts nothing).
    let certs = dir.join(format!("{user}-certs"));
    wheelhouse::manager::Certificates::self_signed(["127.0.0.1"])
        .and_then(|certificates| certificates.write_to(&certs))
        .expect("a serving certificate");
    let mut command = std::process::Command::new(binary);
    command
        .args(["--cluster", "--leader-elect", "--metrics-bind-address", "0"])
        .args(["--health-probe-bind-address", "0", "--webhook-port", "0"])
        .arg("--cert-dir")
        .arg(&certs)
        .env("KUBECONFIG", &config);
    support::frozen::Process::spawn(&mut command, dir, user)
}

/// Builds the WebApp example (if it is not fresh) and returns its path, beside this
/// test binary's profile directory.
#[cfg(target_os = "linux")]
fn webapp_binary() -> std::path::PathBuf {
    let mut build = std::process::Command::new(env!("CARGO"));
    build
        .args(["build", "--quiet", "--example", "webapp"])
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    if !cfg!(debug_assertions) {
        build.arg("--release");
    }
    assert!(
        build.status().expect("run cargo").success(),
        "cargo build --example webapp"
    );
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>/deps");
    profile.join("examples").join("webapp")
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sigstopped_leader_process_writes_nothing_after_it_is_resumed() {
    let mut env = TestEnv::start().await.expect("a test environment");
    let Some(server) = env.server().cloned() else {
        eprintln!("skipped: the fencing witness needs the embedded server");
        return;
    };
    let binary = webapp_binary();
    env.install_crd(&WebApp::crd()).await.expect("the CRD installs");
    replicas::create_webapps(&env.client(), env.namespace(), 1)
        .await
        .expect("create");
    env.serve_http(([127, 0, 0, 1], 0).into())
        .await
        .expect("serve over HTTP");
    let kubeconfig = std::fs::read_to_string(env.kubeconfig().expect("a kubeconfig")).expect("read it");
    let witness = server.witness_lease(env.namespace(), "webapp-operator.example.com");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut processes: Vec<support::frozen::Process> = (0..3)
        .map(|i| webapp_process(&binary, &kubeconfig, dir.path(), &format!("webapp-{i}")))
        .collect();
    // Keep the leader writing: a WebApp's spec changes every 20 ms.
    let webapps: Api<WebApp> = Api::namespaced(env.client(), env.namespace());
    let changes = tokio::spawn(async move {
        for change in 0_usize.. {
            let replicas = i32::try_from(change / WEBAPPS.len() % 3 + 1).expect("small");
            let patch = json!({"spec": {"replicas": replicas}});
            let _ = webapps
                .patch(
                    WEBAPPS[change % WEBAPPS.len()],
                    &PatchParams::default(),
                    &Patch::Merge(&patch),
                )
                .await;
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    });
    let leases: Api<k8s_openapi::api::coordination::v1::Lease> = Api::namespaced(env.client(), env.namespace());
    let holder_user = || async {
        let lease = leases.get_opt("webapp-operator.example.com").await.ok()??;
        let identity = lease.spec?.holder_identity.filter(|h| !h.is_empty())?;
        witness.user_of(&identity)
    };
    let old = wheelhouse_envtest::eventually("a process to lead and write", || async {
        let user = holder_user().await?;
        witness.writes().iter().any(|w| w.write.user == user).then_some(user)
    })
    .await;
    let frozen = processes
        .iter()
        .position(|p| p.user == old)
        .expect("the leader's process");
    processes[frozen].signal("-STOP");
    let stopped = Instant::now();
    // client-go's timings: the lease (15 s) expires as the others see it, one takes
    // over and writes; only then does the frozen leader resume.
    let new = wheelhouse_envtest::eventually_within(
        Duration::from_secs(40),
        "another process to take over and write",
        || async {
            let user = holder_user().await.filter(|user| *user != old)?;
            witness
                .writes()
                .iter()
                .any(|w| w.write.user == user && w.holder_user.as_deref() == Some(user.as_str()))
                .then_some(user)
        },
    )
    .await;
    let taken_over = stopped.elapsed();
    processes[frozen].signal("-CONT");
    let resumed = std::time::Instant::now();
    // The resumed process finds its term over: it must not write again, and by default
    // it stays up as a standby (its caches warm) instead of exiting.
    tokio::time::sleep(Duration::from_secs(3)).await;
    changes.abort();
    let stale = witness.stale_writes();
    let writes = witness.writes();
    eprintln!(
        "{old} stopped, {new} took over {taken_over:?} later; {} writes witnessed, {} stale",
        writes.len(),
        stale.len()
    );
    assert!(
        writes.iter().any(|w| w.write.user == old),
        "the frozen leader wrote before it was stopped"
    );
    assert!(
        stale.is_empty(),
        "writes arrived from a process outside its term (resumed at {resumed:?}): {stale:#?}"
    );
    let exited = processes[frozen].child.try_wait().expect("the process's state");
    assert!(exited.is_none(), "the resumed leader stays up as a standby: {exited:?}");
    drop(processes);
    env.stop().await;
}

/// The test that is a writer process when `support::frozen::WRITER` is set; in a
/// normal run it passes at once (only the freeze test runs it, as a child process).
#[cfg(target_os = "linux")]
const WRITER_TEST: &str = "a_writer_process_when_run_as_one";

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_writer_process_when_run_as_one() {
    if let Ok(spec) = std::env::var(support::frozen::WRITER) {
        support::frozen::run_writer(&spec).await;
    }
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_request_a_sigstop_caught_mid_flight_reaches_the_server_after_the_term() {
    let mut env = TestEnv::start().await.expect("a test environment");
    if env.witness_writes().is_none() {
        eprintln!("skipped: judging the writes needs a witness of who held the Lease");
        return;
    }
    let setting = |name: &str, default: usize| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let (stops, processes) = (setting("FROZEN_SIGSTOPS", 200), setting("FROZEN_PROCESSES", 5));
    let url = if env.is_embedded() {
        let address = env
            .serve_http(([127, 0, 0, 1], 0).into())
            .await
            .expect("serve over HTTP");
        format!("http://{address}")
    } else {
        let kubeconfig = env.kubeconfig().expect("the environment's kubeconfig");
        format!("{}{}", support::frozen::KUBECONFIG_PREFIX, kubeconfig.display())
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let started = Instant::now();
    let site = support::frozen::Site {
        env: &env,
        client: env.client(),
        prefix: env.namespace(),
        test: WRITER_TEST,
        url: &url,
        dir: dir.path(),
    };
    let runs = (0..processes).map(|index| {
        let share = stops / processes + usize::from(index < stops % processes);
        support::frozen::freeze_repeatedly(&site, index, share)
    });
    let freezes = futures::future::join_all(runs).await;
    let took = started.elapsed();
    let total = |count: fn(&support::frozen::Freezes) -> usize| freezes.iter().map(count).sum::<usize>();
    let mut after_stop: Vec<Duration> = freezes.iter().flat_map(|f| f.after_stop.clone()).collect();
    after_stop.sort();
    let stale: Vec<_> = freezes.iter().flat_map(|f| f.stale.clone()).collect();
    eprintln!(
        "{} SIGSTOPs of {processes} writer processes in {took:?}: {} writes witnessed, {} stale; {} cancelled in flight by the fence; {} arrived after a SIGSTOP was sent (bytes already in the kernel), the latest {:?} after it",
        total(|f| f.stops),
        total(|f| f.writes),
        stale.len(),
        total(|f| f.cancelled),
        after_stop.len(),
        after_stop.last()
    );
    assert_eq!(total(|f| f.stops), stops);
    // What no fence above the kernel can close: a freeze that lands between the
    // socket's term check and its write syscall sends those bytes at the resume. That
    // is a few instructions of a write's life, so at most one freeze in a hundred, and
    // the write arrives right after the resume; a fence that checks only above the
    // socket let one freeze in five through (the control, with
    // WHEELHOUSE_FROZEN_WRITER_CLIENT_ONLY).
    let after_resume: Vec<_> = freezes
        .iter()
        .flat_map(support::frozen::Freezes::stale_after_resume)
        .collect();
    if !stale.is_empty() {
        eprintln!("stale writes, each after the latest resume before it: {after_resume:?}");
    }
    assert!(
        stale.len() <= stops / 100
            && after_resume
                .iter()
                .all(|after| after.is_some_and(|after| after < Duration::from_millis(200))),
        "{} writes arrived after their sender's term, while another identity held the Lease (after a resume: {after_resume:?}); the first: {:#?}",
        stale.len(),
        &stale[..stale.len().min(5)]
    );
    assert!(
        total(|f| f.cancelled) > 0,
        "the freezes caught writes in flight, which the fence cancelled or refused at resume"
    );
    env.stop().await;
}
