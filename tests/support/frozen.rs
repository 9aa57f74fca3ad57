//! Processes a test freezes with `SIGSTOP`: an operator process on the embedded server
//! over HTTP, its requests attributed to the user its bearer token names; and the
//! writer process (this test binary run again, see [`run_writer`]) whose leader-only
//! work writes all the time, so a freeze catches it mid-request, on the embedded
//! server or on an existing cluster (named by its `User-Agent` there).

use std::path::Path;
use std::process::{Child, Command};
use std::time::Duration;

use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::{ConfigMap, Namespace};
use kube::api::{Api, Patch, PatchParams};
use serde_json::json;
use wheelhouse::manager::{Fenced, LeaderElection, Manager, OnLeadershipLost, Stop, runnable_fn};
use wheelhouse_envtest::{TestEnv, WitnessedWrite};

/// One child process, killed when dropped.
pub struct Process {
    /// The user its requests are attributed to (its bearer token).
    pub user: String,
    /// The process.
    pub child: Child,
}

impl Process {
    /// Starts `command` as `user`, logging to `<user>.log` in `dir`.
    pub fn spawn(command: &mut Command, dir: &Path, user: &str) -> Self {
        let log = std::fs::File::create(dir.join(format!("{user}.log"))).expect("a log file");
        let child = command
            .stdout(log.try_clone().expect("the log"))
            .stderr(log)
            .spawn()
            .expect("start a child process");
        Self {
            user: user.to_owned(),
            child,
        }
    }

    /// Sends `signal` (`-STOP`, `-CONT`) to the process.
    pub fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(status.success(), "kill {signal} {}", self.child.id());
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The environment variable that makes the writer test a writer process: the API
/// server's URL (`-`: the ambient kubeconfig's cluster), the namespace, the Lease and
/// the user, separated by spaces.
pub const WRITER: &str = "WHEELHOUSE_FROZEN_WRITER";

/// Set (to anything) with [`WRITER`]: the writer fences at the client only
/// (`Manager::builder(client)`), the control that shows the freezes catch requests
/// in flight.
pub const WRITER_FENCED_AT_THE_CLIENT: &str = "WHEELHOUSE_FROZEN_WRITER_CLIENT_ONLY";

/// What a writer process logs for each write its fence cancelled or refused after the
/// write was handed to the client (its term ended while the write was in flight).
pub const CANCELLED: &str = "fenced: cancelled in flight";

/// How many writes a writer keeps in flight.
const WRITERS: usize = 4;

/// How a writer's spec names a kubeconfig file instead of the embedded server's URL.
pub const KUBECONFIG_PREFIX: &str = "kubeconfig:";

/// This test binary, run again as a writer process for `lease`, whose writes the
/// server attributes to `user` (also its identity in the Lease); `test` is the name of
/// the test that calls [`run_writer`]; `url` is the embedded server's, or
/// [`KUBECONFIG_PREFIX`] and the path of a real server's kubeconfig.
pub fn writer_command(test: &str, url: &str, namespace: &str, lease: &str, user: &str) -> Command {
    let mut command = Command::new(std::env::current_exe().expect("the test binary"));
    command
        .args(["--exact", test, "--nocapture", "--test-threads", "1"])
        .env(WRITER, format!("{url} {namespace} {lease} {user}"));
    command
}

/// The writer process: a manager electing on the Lease with the shortest timings
/// (1 s lease, 0.5 s renew deadline, 0.1 s retry), rejoining when its term ends,
/// whose leader-only work keeps [`WRITERS`] patches of `ConfigMap`s in flight. Runs
/// until killed.
pub async fn run_writer(spec: &str) {
    let [url, namespace, lease, user] = spec.split(' ').collect::<Vec<_>>()[..] else {
        panic!("{WRITER} is `url namespace lease user`, not {spec:?}");
    };
    let mut config = if let Some(path) = url.strip_prefix(KUBECONFIG_PREFIX) {
        // The test's own API server (a cluster's, or the KUBEBUILDER_ASSETS control
        // plane the test process started), not whatever the ambient kubeconfig names.
        let kubeconfig = kube::config::Kubeconfig::read_from(path).expect("the test environment's kubeconfig");
        let mut config = kube::Config::from_custom_kubeconfig(kubeconfig, &kube::config::KubeConfigOptions::default())
            .await
            .expect("a configuration from the kubeconfig");
        let agent = http::HeaderValue::from_str(user).expect("a header value");
        config.headers.push((http::header::USER_AGENT, agent));
        config
    } else {
        let mut config = kube::Config::new(url.parse().expect("a URL"));
        let token = http::HeaderValue::from_str(&format!("Bearer {user}")).expect("a header value");
        config.headers.push((http::header::AUTHORIZATION, token));
        config
    };
    namespace.clone_into(&mut config.default_namespace);
    let builder = if std::env::var_os(WRITER_FENCED_AT_THE_CLIENT).is_some() {
        Manager::builder(kube::Client::try_from(config).expect("an HTTP client"))
    } else {
        Manager::builder_from_config(config).expect("a client")
    };
    let manager = builder
        .metrics_address(None)
        .health_probe_address(None)
        .leader_election(
            LeaderElection::new(lease)
                .namespace(namespace)
                .identity(user)
                .timings(
                    Duration::from_secs(1),
                    Duration::from_millis(500),
                    Duration::from_millis(100),
                )
                .on_lost(OnLeadershipLost::Standby),
        )
        .build()
        .expect("a manager");
    let (client, user) = (manager.client(), user.to_owned());
    manager
        .add(runnable_fn("writers", true, move |stop: Stop| {
            let api: Api<ConfigMap> = Api::default_namespaced(client.clone());
            let loops: Vec<_> = (0..WRITERS)
                .map(|i| write_until_stopped(api.clone(), format!("{user}-{i}"), stop.clone()))
                .collect();
            async move {
                futures::future::join_all(loops).await;
                Ok(())
            }
        }))
        .expect("add the writers");
    manager.run().await.expect("the manager runs until killed");
}

async fn write_until_stopped(api: Api<ConfigMap>, name: String, stop: Stop) {
    for count in 0_u64.. {
        if stop.is_requested() {
            break;
        }
        let config = json!({
            "apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name},
            "data": {"count": count.to_string()},
        });
        let written = api
            .patch(&name, &PatchParams::apply("writer").force(), &Patch::Apply(&config))
            .await;
        if let Err(error) = written
            && matches!(Fenced::of(&error), Some(Fenced::TermEnded { .. }))
        {
            println!("{CANCELLED}");
        }
        // No pause: the more of its time a write spends in the client, the likelier a
        // freeze catches it between the fence's first check and the socket.
        tokio::task::yield_now().await;
    }
}

/// What freezing one writer process over and over showed.
#[derive(Debug, Default)]
pub struct Freezes {
    /// `SIGSTOP`s sent, each while the process led and wrote.
    pub stops: usize,
    /// Writes witnessed from the process.
    pub writes: usize,
    /// Writes that arrived while another identity held the Lease.
    pub stale: Vec<WitnessedWrite>,
    /// For each write that arrived after a `SIGSTOP` was sent (bytes already in the
    /// kernel when the process stopped), how long after.
    pub after_stop: Vec<Duration>,
    /// Writes the process's fence cancelled or refused in flight (from its log).
    pub cancelled: usize,
    /// When each `SIGCONT` was sent.
    pub resumed: Vec<std::time::Instant>,
}

impl Freezes {
    /// How long after the latest resume before it each stale write arrived.
    pub fn stale_after_resume(&self) -> Vec<Option<Duration>> {
        self.stale
            .iter()
            .map(|w| {
                let resumed = self.resumed.iter().rev().find(|&&r| r <= w.write.arrived)?;
                Some(w.write.arrived - *resumed)
            })
            .collect()
    }
}

/// Where the writer processes run: the environment (and an admin client of it), its
/// URL, the test binary's writer test, and a directory for their logs.
pub struct Site<'a> {
    /// The environment, whose Lease witness judges the writes.
    pub env: &'a TestEnv,
    /// An admin client of it.
    pub client: kube::Client,
    /// The namespaces' prefix.
    pub prefix: &'a str,
    /// The name of the test that calls [`run_writer`].
    pub test: &'a str,
    /// The server's URL over HTTP, or `-` for the ambient kubeconfig's cluster.
    pub url: &'a str,
    /// Where the processes log.
    pub dir: &'a Path,
}

/// Starts writer process `index` (user and identity `writer-<index>`, Lease
/// `frozen-<index>` in namespace `<prefix>-<index>`) and freezes it `stops` times while it leads and writes: each
/// freeze lasts past the end of its term (0.8 s: the term ends at most the renew
/// deadline, 0.5 s, after the last renew it sent), then another identity takes the
/// Lease, the process is continued, and 0.3 s later the Lease is released for it to
/// take again. A request the freeze caught anywhere above the socket goes out at the
/// resume or never; the witness sees it arrive stale if it does.
pub async fn freeze_repeatedly(site: &Site<'_>, index: usize, stops: usize) -> Freezes {
    let Site {
        env,
        client,
        prefix,
        test,
        url,
        dir,
    } = site;
    // A namespace per process: the witness counts whoever watches a namespace's Leases
    // as a candidate for each of them.
    let namespace = format!("{prefix}-{index}");
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let created = serde_json::from_value(json!({"metadata": {"name": namespace}})).expect("a namespace");
    namespaces
        .create(&kube::api::PostParams::default(), &created)
        .await
        .expect("create the process's namespace");
    let (lease, user) = (format!("frozen-{index}"), format!("writer-{index}"));
    let witness = env.witness_lease(&namespace, &lease).expect("a Lease witness");
    let process = Process::spawn(&mut writer_command(test, url, &namespace, &lease, &user), dir, &user);
    let leases: Api<Lease> = Api::namespaced(client.clone(), &namespace);
    let mut freezes = Freezes::default();
    for stop in 0..stops {
        let before = witness.writes().len();
        wheelhouse_envtest::eventually(&format!("{user} to lead and write"), || async {
            let lease = leases.get_opt(&lease).await.ok()??;
            let holder = lease.spec?.holder_identity?;
            (holder == user && witness.writes().len() >= before + WRITERS).then_some(())
        })
        .await;
        // A few milliseconds more or less of writing, so the freezes fall at every
        // point of a request.
        let jitter = (stop * 7 + index * 3) % 11;
        tokio::time::sleep(Duration::from_millis(u64::try_from(jitter).expect("small"))).await;
        let stopping = std::time::Instant::now();
        process.signal("-STOP");
        freezes.stops += 1;
        // The term ended 0.5 s after the freeze at the latest; the rest is room for
        // what the kernel had already taken to reach the server on a busy machine.
        tokio::time::sleep(Duration::from_millis(800)).await;
        set_holder(&leases, &lease, &format!("usurper-{index}")).await;
        freezes.resumed.push(std::time::Instant::now());
        process.signal("-CONT");
        tokio::time::sleep(Duration::from_millis(300)).await;
        freezes.after_stop.extend(
            witness
                .writes()
                .iter()
                .filter(|w| w.write.arrived > stopping && !w.is_stale())
                .map(|w| w.write.arrived - stopping),
        );
        set_holder(&leases, &lease, "").await;
    }
    let writes = witness.writes();
    freezes.writes = writes.len();
    freezes.stale = witness.stale_writes();
    drop(process);
    let log = std::fs::read_to_string(dir.join(format!("{user}.log"))).unwrap_or_default();
    freezes.cancelled = log.lines().filter(|line| *line == CANCELLED).count();
    if let Err(error) = namespaces.delete(&namespace, &kube::api::DeleteParams::default()).await {
        eprintln!("could not delete {namespace}: {error}");
    }
    freezes
}

/// Makes `identity` the Lease's holder (empty: releases it), as the server's admin.
async fn set_holder(leases: &Api<Lease>, lease: &str, identity: &str) {
    let patch = json!({"spec": {"holderIdentity": identity}});
    leases
        .patch(lease, &PatchParams::default(), &Patch::Merge(&patch))
        .await
        .expect("set the Lease's holder");
}
