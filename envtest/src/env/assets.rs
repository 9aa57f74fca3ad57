//! The control plane of `KUBEBUILDER_ASSETS`, controller-runtime's envtest convention:
//! the folder's `etcd` and `kube-apiserver` started once per test process, on free
//! loopback ports, and shared by the process's tests, which reach it as they reach an
//! existing cluster (a client of its generated kubeconfig, a namespace per test).
//!
//! kube-apiserver is started as the project's real test clusters are: HTTPS with a
//! certificate of a CA made for this start, a static token for an admin user in
//! `system:masters`, RBAC, no `ServiceAccount` admission (no controller makes the
//! `default` `ServiceAccount`s) and no endpoint reconciler (a loopback address is not a
//! valid Endpoints address). No kube-controller-manager runs, as in controller-runtime:
//! tests that need controllers skip ([`TestEnv::runs_controllers`](super::TestEnv::runs_controllers)).
//! It writes an audit log with [`AUDIT_POLICY`](crate::AUDIT_POLICY), from which the
//! write and Lease witnesses read ([`TestEnv::witness_writes`](super::TestEnv::witness_writes)).
//!
//! The processes and their temporary directory (etcd's data, credentials, logs) go
//! with the test process however it ends, killed included: a watchdog shell, in a
//! process group of its own, reads the children's pids from a pipe whose writing end
//! only this process holds; at its end (the process exited or was killed) it kills
//! them and removes the directory. Directories a killed watchdog left are removed at
//! the next start.
//!
//! Free ports are picked by binding port 0 and letting it go (etcd and kube-apiserver
//! cannot report a port they chose); a start that loses its port to another process
//! in between is retried on new ports.

mod pki;

use std::io::{Read as _, Write as _};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::Error;

/// The environment variable naming the folder of `etcd` and `kube-apiserver`.
pub const ASSETS: &str = "KUBEBUILDER_ASSETS";

/// The prefix of the control plane's temporary directory, by which a later start finds
/// the directories of processes that are gone.
const DIR_PREFIX: &str = "wheelhouse-envtest-assets-";
/// kube-apiserver's audit log and policy in that directory.
const AUDIT_LOG_FILE: &str = "audit.log";
const AUDIT_POLICY_FILE: &str = "audit-policy.yaml";
/// The file in that directory holding the owning process's id.
const OWNER_FILE: &str = "owner";
/// How long each server may take to get ready: generous, for a busy machine.
const READY_WITHIN: Duration = Duration::from_mins(2);
/// How many times a start is tried on new ports when another process took one.
const ATTEMPTS: usize = 4;

/// Reads pids, one a line, until its input ends (this process is gone), then kills
/// them, waits a moment for them to go, and removes the directory `$1`.
const WATCHDOG: &str = r#"
pids=""
while read -r pid; do pids="$pids $pid"; done
[ -n "$pids" ] && kill -KILL $pids 2>/dev/null
for pid in $pids; do
  i=0
  while [ $i -lt 50 ] && kill -0 "$pid" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
done
rm -rf "$1"
"#;

/// The running control plane of this process.
pub(super) struct ControlPlane {
    /// The admin's client configuration.
    pub(super) config: kube::Config,
    /// The admin's kubeconfig file.
    pub(super) kubeconfig: PathBuf,
    /// kube-apiserver's audit log, written with [`AUDIT_POLICY`](crate::AUDIT_POLICY).
    pub(super) audit_log: PathBuf,
    /// The writing end of the watchdog's pipe: held until the process ends, which the
    /// watchdog takes as the signal to clean up.
    _watchdog: Mutex<ChildStdin>,
}

/// Started once per process, by whichever test asks first; a failed start is kept, so
/// every test reports it at once instead of each trying again.
static PLANE: OnceLock<Result<ControlPlane, String>> = OnceLock::new();

/// The folder `KUBEBUILDER_ASSETS` names, when set and not empty.
pub(super) fn assets_dir() -> Option<PathBuf> {
    std::env::var_os(ASSETS)
        .filter(|value| !value.is_empty())
        .map(PathBuf::from)
}

/// This process's control plane, started on first use.
pub(super) async fn shared() -> Result<&'static ControlPlane, Error> {
    let dir = assets_dir().ok_or_else(|| Error::Assets(format!("{ASSETS} is not set")))?;
    if PLANE.get().is_none() {
        // Started on a thread of its own: the test's runtime is one of many (a runtime
        // per test), and the start blocks until kube-apiserver is ready.
        let (done, finished) = tokio::sync::oneshot::channel();
        std::thread::Builder::new()
            .name("envtest-assets".into())
            .spawn(move || {
                PLANE.get_or_init(|| ControlPlane::start(&dir));
                let _ = done.send(());
            })?;
        let _ = finished.await;
    }
    match PLANE.get() {
        Some(Ok(plane)) => Ok(plane),
        Some(Err(message)) => Err(Error::Assets(message.clone())),
        None => Err(Error::Assets("the control plane's start-up thread ended early".into())),
    }
}

impl ControlPlane {
    /// Starts etcd and kube-apiserver from `assets` and returns once `/readyz` is ok.
    fn start(assets: &Path) -> Result<Self, String> {
        let began = Instant::now();
        let etcd = binary(assets, "etcd")?;
        let apiserver = binary(assets, "kube-apiserver")?;
        remove_stale_dirs(&std::env::temp_dir());
        let dir = tempfile::Builder::new()
            .prefix(DIR_PREFIX)
            .tempdir()
            .map_err(|e| format!("could not make the control plane's directory: {e}"))?
            .keep();
        let write_failed = |e: std::io::Error| format!("could not write in {}: {e}", dir.display());
        std::fs::write(dir.join(OWNER_FILE), std::process::id().to_string()).map_err(write_failed)?;
        let mut watchdog = Watchdog::spawn(&dir)?;
        let credentials = pki::Credentials::write(&dir)?;
        let etcd_url = start_etcd(&etcd, &dir, &mut watchdog)?;
        let (port, config) = start_apiserver(&apiserver, &dir, &etcd_url, &credentials, &mut watchdog)?;
        eprintln!(
            "envtest: etcd and kube-apiserver of {ASSETS}={} ready on https://127.0.0.1:{port} in {:.1} s",
            assets.display(),
            began.elapsed().as_secs_f64()
        );
        Ok(Self {
            config,
            kubeconfig: dir.join("kubeconfig"),
            audit_log: dir.join(AUDIT_LOG_FILE),
            _watchdog: Mutex::new(watchdog.input),
        })
    }
}

fn binary(assets: &Path, name: &str) -> Result<PathBuf, String> {
    let path = assets.join(name);
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!("{ASSETS}={} holds no {name}", assets.display()))
    }
}

/// The watchdog process and the writing end of its pipe.
struct Watchdog {
    input: ChildStdin,
}

impl Watchdog {
    fn spawn(dir: &Path) -> Result<Self, String> {
        use std::os::unix::process::CommandExt as _;
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(WATCHDOG)
            .arg("envtest-watchdog")
            .arg(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // Out of the terminal's process group: a Ctrl-C ends the tests and the
            // servers, and the watchdog stays to remove the directory.
            .process_group(0)
            .spawn()
            .map_err(|e| format!("could not start the watchdog shell: {e}"))?;
        let input = child
            .stdin
            .take()
            .ok_or_else(|| "the watchdog shell has no input".to_owned())?;
        Ok(Self { input })
    }

    /// Has the watchdog kill `child` when this process ends. The pipe is close-on-exec,
    /// so no child holds it open after this process is gone.
    fn watch(&mut self, child: &Child) -> Result<(), String> {
        writeln!(self.input, "{}", child.id())
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("could not hand a pid to the watchdog: {e}"))
    }
}

/// Removes the control-plane directories in `temp` whose owning process is gone (its
/// watchdog killed with it).
fn remove_stale_dirs(temp: &Path) {
    let Ok(entries) = std::fs::read_dir(temp) else {
        return;
    };
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().starts_with(DIR_PREFIX) {
            continue;
        }
        // No owner file yet: a start under way in another process.
        let Ok(owner) = std::fs::read_to_string(entry.path().join(OWNER_FILE)) else {
            continue;
        };
        let alive = Path::new("/proc").join(owner.trim()).exists();
        if !alive && let Err(error) = std::fs::remove_dir_all(entry.path()) {
            tracing::debug!(path = %entry.path().display(), %error, "could not remove a stale control-plane directory");
        }
    }
}

/// A loopback port free a moment ago.
fn free_port() -> Result<u16, String> {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .map_err(|e| format!("could not find a free loopback port: {e}"))
}

/// Spawns `command` with its output in `log`, watched by the watchdog.
fn spawn(mut command: Command, log: &Path, watchdog: &mut Watchdog) -> Result<Child, String> {
    let file = std::fs::File::create(log).map_err(|e| format!("could not create {}: {e}", log.display()))?;
    let errors = file
        .try_clone()
        .map_err(|e| format!("could not open {}: {e}", log.display()))?;
    let child = command
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(errors)
        .spawn()
        .map_err(|e| format!("could not start {}: {e}", Path::new(command.get_program()).display()))?;
    watchdog.watch(&child)?;
    Ok(child)
}

/// What became of a server being started.
enum Started {
    Ready,
    /// It exited because its port was taken: try again on another.
    PortTaken,
}

/// Polls `ready` until it says so, the child exits, or time runs out.
fn await_ready(name: &str, child: &mut Child, log: &Path, mut ready: impl FnMut() -> bool) -> Result<Started, String> {
    let deadline = Instant::now() + READY_WITHIN;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            let output = std::fs::read_to_string(log).unwrap_or_default();
            if output.contains("address already in use") {
                return Ok(Started::PortTaken);
            }
            return Err(format!(
                "{name} exited ({status}) before it was ready:\n{}",
                tail(&output)
            ));
        }
        // Ready, and still ours: a server that lost its port exits at once.
        if ready() && matches!(child.try_wait(), Ok(None)) {
            return Ok(Started::Ready);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let output = std::fs::read_to_string(log).unwrap_or_default();
            return Err(format!(
                "{name} was not ready within {} s:\n{}",
                READY_WITHIN.as_secs(),
                tail(&output)
            ));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The last lines of a log, for an error.
fn tail(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    lines[lines.len().saturating_sub(20)..].join("\n")
}

/// Starts etcd (on a new port each try) and returns its client URL once healthy.
fn start_etcd(binary: &Path, dir: &Path, watchdog: &mut Watchdog) -> Result<String, String> {
    let data = dir.join("etcd");
    let log = dir.join("etcd.log");
    let no_fsync = supports_flag(binary, "unsafe-no-fsync");
    for _ in 0..ATTEMPTS {
        let port = free_port()?;
        let url = format!("http://127.0.0.1:{port}");
        let _ = std::fs::remove_dir_all(&data);
        let mut command = Command::new(binary);
        command.args([
            format!("--data-dir={}", data.display()),
            format!("--listen-client-urls={url}"),
            format!("--advertise-client-urls={url}"),
            // A single member talks to no peer: any free port, as controller-runtime does.
            "--listen-peer-urls=http://127.0.0.1:0".to_owned(),
        ]);
        if no_fsync {
            // A test's data need not survive a power cut; fsync is most of etcd's latency.
            command.arg("--unsafe-no-fsync=true");
        }
        let mut child = spawn(command, &log, watchdog)?;
        match await_ready("etcd", &mut child, &log, || etcd_healthy(port))? {
            Started::Ready => return Ok(url),
            Started::PortTaken => {}
        }
    }
    Err(format!("etcd lost its port to another process {ATTEMPTS} times"))
}

/// Whether `binary --help` mentions `flag` (etcd has `--unsafe-no-fsync` since 3.4.9;
/// other builds of it, such as a test server made of Kubernetes' vendored etcd, lack it).
fn supports_flag(binary: &Path, flag: &str) -> bool {
    Command::new(binary)
        .arg("--help")
        .stdin(Stdio::null())
        .output()
        .is_ok_and(|help| {
            String::from_utf8_lossy(&help.stdout).contains(flag) || String::from_utf8_lossy(&help.stderr).contains(flag)
        })
}

/// etcd's `/health` over plain HTTP/1.1.
fn etcd_healthy(port: u16) -> bool {
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let Ok(mut stream) = TcpStream::connect_timeout(&addr, Duration::from_secs(1)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let request = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    let mut answer = String::new();
    stream.write_all(request.as_bytes()).is_ok()
        && stream.read_to_string(&mut answer).is_ok()
        && answer.contains(r#""health":"true""#)
}

/// Starts kube-apiserver (on a new port each try) and returns its port and the
/// admin's configuration once `/readyz` answers ok.
fn start_apiserver(
    binary: &Path,
    dir: &Path,
    etcd: &str,
    credentials: &pki::Credentials,
    watchdog: &mut Watchdog,
) -> Result<(u16, kube::Config), String> {
    let log = dir.join("kube-apiserver.log");
    let policy = dir.join(AUDIT_POLICY_FILE);
    std::fs::write(&policy, crate::AUDIT_POLICY).map_err(|e| format!("could not write {}: {e}", policy.display()))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("could not make a runtime to poll /readyz: {e}"))?;
    for _ in 0..ATTEMPTS {
        let port = free_port()?;
        let path = |p: &Path| p.display().to_string();
        let mut command = Command::new(binary);
        command.args([
            format!("--etcd-servers={etcd}"),
            format!("--secure-port={port}"),
            "--bind-address=127.0.0.1".to_owned(),
            "--advertise-address=127.0.0.1".to_owned(),
            format!("--cert-dir={}", dir.display()),
            format!("--tls-cert-file={}", path(&credentials.cert_file)),
            format!("--tls-private-key-file={}", path(&credentials.key_file)),
            format!("--client-ca-file={}", path(&credentials.ca_file)),
            format!("--token-auth-file={}", path(&credentials.token_file)),
            "--authorization-mode=RBAC".to_owned(),
            "--service-cluster-ip-range=10.0.0.0/24".to_owned(),
            format!(
                "--service-account-key-file={}",
                path(&credentials.service_account_public)
            ),
            format!(
                "--service-account-signing-key-file={}",
                path(&credentials.service_account_private)
            ),
            "--service-account-issuer=https://kubernetes.default.svc".to_owned(),
            // No controller makes each namespace's `default` ServiceAccount.
            "--disable-admission-plugins=ServiceAccount".to_owned(),
            // The lease reconciler would write a loopback address into the `kubernetes`
            // Endpoints, which validation refuses, every ten seconds.
            "--endpoint-reconciler-type=none".to_owned(),
            format!("--audit-policy-file={}", policy.display()),
            format!("--audit-log-path={}", dir.join(AUDIT_LOG_FILE).display()),
        ]);
        let kubeconfig = dir.join("kubeconfig");
        std::fs::write(&kubeconfig, credentials.kubeconfig(port))
            .map_err(|e| format!("could not write {}: {e}", kubeconfig.display()))?;
        let config = runtime.block_on(async {
            let parsed = kube::config::Kubeconfig::read_from(&kubeconfig).map_err(|e| e.to_string())?;
            kube::Config::from_custom_kubeconfig(parsed, &kube::config::KubeConfigOptions::default())
                .await
                .map_err(|e| e.to_string())
        })?;
        let client = runtime
            .block_on(async { kube::Client::try_from(config.clone()) })
            .map_err(|e| format!("could not make a client for kube-apiserver: {e}"))?;
        let mut child = spawn(command, &log, watchdog)?;
        let ready = || runtime.block_on(readyz(&client));
        match await_ready("kube-apiserver", &mut child, &log, ready)? {
            Started::Ready => return Ok((port, config)),
            Started::PortTaken => {}
        }
    }
    Err(format!(
        "kube-apiserver lost its port to another process {ATTEMPTS} times"
    ))
}

/// Whether kube-apiserver's `/readyz` answers ok.
async fn readyz(client: &kube::Client) -> bool {
    let Ok(request) = http::Request::get("/readyz").body(Vec::new()) else {
        return false;
    };
    let answer = tokio::time::timeout(Duration::from_secs(2), client.request_text(request)).await;
    matches!(answer, Ok(Ok(body)) if body.trim() == "ok")
}

#[cfg(test)]
mod tests {
    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::api::{Api, PostParams};

    use super::*;
    use crate::TestEnv;

    /// Waits (bounded) for `done`.
    fn within(seconds: u64, mut done: impl FnMut() -> bool) -> bool {
        let deadline = Instant::now() + Duration::from_secs(seconds);
        while Instant::now() < deadline {
            if done() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        done()
    }

    #[test]
    fn the_watchdog_kills_its_children_and_removes_the_directory_when_its_pipe_closes() {
        let dir = tempfile::tempdir().expect("a directory").keep();
        std::fs::write(dir.join("data"), "kept until the end").expect("written");
        let mut watchdog = Watchdog::spawn(&dir).expect("a watchdog");
        let mut sleeper = Command::new("sleep").arg("600").spawn().expect("a child");
        watchdog.watch(&sleeper).expect("watched");
        std::thread::sleep(Duration::from_millis(200));
        assert!(matches!(sleeper.try_wait(), Ok(None)), "alive while the pipe is open");
        assert!(dir.exists());

        drop(watchdog);
        assert!(
            within(10, || matches!(sleeper.try_wait(), Ok(Some(_)))),
            "killed once the pipe closed"
        );
        assert!(within(10, || !dir.exists()), "the directory is removed");
    }

    #[test]
    fn a_start_removes_only_the_directories_of_processes_that_are_gone() {
        let temp = tempfile::tempdir().expect("a directory");
        let mut gone = Command::new("true").spawn().expect("a child");
        let gone_pid = gone.id();
        gone.wait().expect("ended");
        let stale = temp.path().join(format!("{DIR_PREFIX}stale"));
        let live = temp.path().join(format!("{DIR_PREFIX}live"));
        let starting = temp.path().join(format!("{DIR_PREFIX}starting"));
        let other = temp.path().join("someone-else");
        for dir in [&stale, &live, &starting, &other] {
            std::fs::create_dir(dir).expect("created");
        }
        std::fs::write(stale.join(OWNER_FILE), gone_pid.to_string()).expect("written");
        std::fs::write(live.join(OWNER_FILE), std::process::id().to_string()).expect("written");
        std::fs::write(other.join(OWNER_FILE), gone_pid.to_string()).expect("written");

        remove_stale_dirs(temp.path());
        assert!(!stale.exists(), "its owner is gone");
        assert!(live.exists() && starting.exists() && other.exists());
    }

    #[test]
    fn a_folder_without_the_binaries_is_refused_by_name() {
        let empty = tempfile::tempdir().expect("a directory");
        let refused = ControlPlane::start(empty.path()).err().expect("refused");
        assert!(refused.contains("holds no etcd"), "{refused}");
    }

    /// The backend itself, on the binaries `KUBEBUILDER_ASSETS` names.
    #[tokio::test]
    async fn the_assets_backend_serves_a_test_environment_and_is_shared_by_the_process() {
        if assets_dir().is_none() || crate::use_existing_cluster() {
            eprintln!("skipped: set {ASSETS} to a folder with etcd and kube-apiserver (and not USE_EXISTING_CLUSTER)");
            return;
        }
        let began = Instant::now();
        let mut env = TestEnv::start().await.expect("the control plane starts");
        eprintln!("first environment in {:.1} s", began.elapsed().as_secs_f64());
        assert!(!env.is_embedded() && env.server().is_none());
        assert_eq!(env.backend(), crate::Backend::Assets);
        assert!(!env.runs_controllers(), "no kube-controller-manager runs there");
        let configs: Api<ConfigMap> = Api::namespaced(env.client(), env.namespace());
        let mut config = ConfigMap::default();
        config.metadata.name = Some("settings".into());
        let created = configs.create(&PostParams::default(), &config).await.expect("created");
        assert!(created.metadata.uid.is_some());
        let version = env.client().apiserver_version().await.expect("/version");
        assert_eq!(version.major, "1");

        let kubeconfig = env.kubeconfig().expect("a kubeconfig");
        let text = std::fs::read_to_string(&kubeconfig).expect("readable");
        assert!(text.contains("https://127.0.0.1:"), "{text}");
        // The admin's token authenticates as the admin, in system:masters (a
        // TokenReview, which every version serves, unlike SelfSubjectReview).
        let token = text
            .lines()
            .find_map(|line| line.trim().strip_prefix("token: "))
            .expect("the kubeconfig holds a token");
        let body = serde_json::json!({
            "apiVersion": "authentication.k8s.io/v1",
            "kind": "TokenReview",
            "spec": {"token": token},
        });
        let review = env
            .client()
            .request_text(
                http::Request::post("/apis/authentication.k8s.io/v1/tokenreviews")
                    .header("content-type", "application/json")
                    .body(body.to_string().into_bytes())
                    .expect("a request"),
            )
            .await
            .expect("a review");
        assert!(
            review.contains(&format!(r#""username":"{}""#, pki::ADMIN)) && review.contains("system:masters"),
            "{review}"
        );

        // The witnesses read kube-apiserver's audit log: a named client's write is seen.
        let witness = env.witness_writes().expect("a write witness from the audit log");
        let named: Api<ConfigMap> = Api::namespaced(env.client_for("replica-a").expect("a client"), env.namespace());
        config.metadata.name = Some("written-by-a".into());
        named.create(&PostParams::default(), &config).await.expect("created");
        crate::eventually("the audit log to hold replica-a's create", || async {
            witness
                .writes()
                .iter()
                .any(|write| write.user == "replica-a" && write.resource == "configmaps")
                .then_some(())
        })
        .await;

        assert!(!env.can_restart_api_server(), "a shared control plane is not restarted");

        let mut second = TestEnv::start().await.expect("a second environment");
        assert_eq!(
            second.kubeconfig().expect("a kubeconfig"),
            kubeconfig,
            "one control plane"
        );
        assert_ne!(second.namespace(), env.namespace(), "a namespace per environment");
        second.stop().await;
        env.stop().await;
    }
}
