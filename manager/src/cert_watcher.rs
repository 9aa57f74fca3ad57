//! The serving certificate as TLS sees it, the TLS configuration the HTTPS servers
//! share (webhooks, secure metrics), and its reloading from a directory (`--cert-dir`,
//! `--metrics-cert-path`) while the server runs, so a certificate that cert-manager
//! renews is served without a restart.
//!
//! The directory is polled: every interval both files are read and compared with what
//! was last seen. Why polling rather than file-system events: a Secret mounted by the
//! kubelet changes by an atomic swap of the `..data` symlink that `tls.crt` and
//! `tls.key` point through, so an inotify watch on the files keeps watching the old,
//! deleted targets and must be re-armed on every swap (controller-runtime's certwatcher
//! does that and still added polling for the events it misses). Reading two small files
//! every ten seconds costs nothing, sees symlink swaps, renames and in-place writes
//! alike, needs no new dependency, and renewal (a third of a certificate's life before
//! it expires) is never urgent to the second.
//!
//! The files are read on a blocking thread, never on the runtime's I/O workers, and
//! waited for with a timeout: a read that never returns (`tls.crt` replaced by a
//! FIFO, a hung network file system) parks that one thread, not the accept loop,
//! and is not started again while it hangs. A watcher whose last check could not
//! read or load the pair, or whose read hangs, reports it through [`CertHealth`]
//! (the servers add it to `/readyz`), while the certificate loaded last goes on
//! being served.

use std::fmt::{self, Debug};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use parking_lot::{Mutex, RwLock};
use rustls::ServerConfig;
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;
use tokio::task::JoinHandle;

use crate::certs::{CERT_FILE, CertificateError as Error, KEY_FILE, certified_key, provider};

/// The certificate every new TLS handshake gets; swapped whole when files change, so
/// connections already open keep theirs and new ones get the new one.
pub struct ServingCertificate {
    current: RwLock<Arc<CertifiedKey>>,
}

impl Debug for ServingCertificate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServingCertificate").finish_non_exhaustive()
    }
}

impl ServingCertificate {
    /// Serves `key` until [`CertWatcher`] swaps it.
    pub fn new(key: Arc<CertifiedKey>) -> Arc<Self> {
        Arc::new(Self {
            current: RwLock::new(key),
        })
    }

    fn replace(&self, key: Arc<CertifiedKey>) {
        *self.current.write() = key;
    }
}

impl ResolvesServerCert for ServingCertificate {
    fn resolve(&self, _: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.current.read().clone())
    }
}

const H2: &[u8] = b"h2";
const HTTP1: &[u8] = b"http/1.1";

/// TLS 1.3 and 1.2, HTTP/1.1 (and HTTP/2 when `http2`), the certificate chosen per
/// handshake from `serving`, no session resumption.
///
/// HTTP/2 is off by default, as in controller-runtime since its rapid-reset attack
/// (CVE-2023-44487): multiplexing gains an admission webhook or a scrape little, and
/// their clients keep pools of HTTP/1.1 connections anyway. Sessions are not resumed: a
/// resumed session skips the certificate, so a client would go on trusting the one
/// from before a rotation, and Go's clients (kube-apiserver's, Prometheus's) never
/// resume anyway.
pub fn tls_server_config(serving: Arc<ServingCertificate>, http2: bool) -> Result<ServerConfig, Error> {
    let mut config = ServerConfig::builder_with_provider(provider())
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])?
        .with_no_client_auth()
        .with_cert_resolver(serving);
    config.alpn_protocols = if http2 {
        vec![H2.to_vec(), HTTP1.to_vec()]
    } else {
        vec![HTTP1.to_vec()]
    };
    config.session_storage = Arc::new(rustls::server::NoServerSessionStorage {});
    config.send_tls13_tickets = 0;
    Ok(config)
}

/// The bytes of `tls.crt` and `tls.key`.
type Pair = (Vec<u8>, Vec<u8>);

/// How long reading the two files may take, at start-up and at each check.
const READ_TIMEOUT: Duration = Duration::from_secs(5);

/// Watches `tls.crt` and `tls.key` in a directory and swaps the serving certificate
/// when both have changed into a pair that belongs together.
///
/// Invariant: `seen` holds the bytes of the last pair tried, loaded or not. A pair that
/// fails (the key written before the certificate, say) is tried again only once either
/// file changes again, so a half-written pair is logged once and never served.
pub struct CertWatcher {
    dir: PathBuf,
    serving: Arc<ServingCertificate>,
    seen: (Vec<u8>, Vec<u8>),
    /// Whether `seen` loaded (and so is what is served).
    seen_loaded: bool,
    health: CertHealth,
    /// A read that has not returned yet: awaited again rather than started anew.
    reading: Option<JoinHandle<Result<Pair, Error>>>,
}

/// Whether a [`CertWatcher`]'s last check read and loaded its files: for a readiness
/// check. Cloned handles share the state.
#[derive(Debug, Clone, Default)]
pub struct CertHealth(Arc<Mutex<Option<String>>>);

impl CertHealth {
    /// `Ok` when the last check read a usable pair (or nothing changed), else why not.
    pub fn check(&self) -> Result<(), String> {
        match &*self.0.lock() {
            None => Ok(()),
            Some(problem) => Err(problem.clone()),
        }
    }

    fn set(&self, problem: Option<String>) {
        *self.0.lock() = problem;
    }
}

impl CertWatcher {
    /// Loads the pair in `dir`; fails when it cannot be served, or cannot be read
    /// within 5 s, so a server never starts without a certificate.
    pub fn load(dir: &Path) -> Result<Self, Error> {
        let (cert, key) = read_pair_within(dir, READ_TIMEOUT)?;
        let serving = ServingCertificate::new(certified_key(&cert, &key)?);
        Ok(Self {
            dir: dir.to_owned(),
            serving,
            seen: (cert, key),
            seen_loaded: true,
            health: CertHealth::default(),
            reading: None,
        })
    }

    /// What the TLS configuration resolves certificates with.
    pub fn serving(&self) -> Arc<ServingCertificate> {
        self.serving.clone()
    }

    /// Whether the last check succeeded, for `/readyz`.
    pub fn health(&self) -> CertHealth {
        self.health.clone()
    }

    /// Checks the files once, reading them on this thread; true when a new
    /// certificate is now served.
    pub fn check(&mut self) -> bool {
        let read = read_pair(&self.dir);
        self.consider(read)
    }

    /// Checks the files once, reading them on a blocking thread for at most
    /// `timeout` (a read still hanging from before is waited for instead of started
    /// again); true when a new certificate is now served.
    pub async fn check_off_thread(&mut self, timeout: Duration) -> bool {
        let mut reading = self.reading.take().unwrap_or_else(|| {
            let dir = self.dir.clone();
            tokio::task::spawn_blocking(move || read_pair(&dir))
        });
        match tokio::time::timeout(timeout, &mut reading).await {
            Ok(Ok(read)) => self.consider(read),
            Ok(Err(error)) => {
                self.problem(format!("reading the certificate files failed: {error}"));
                false
            }
            Err(_) => {
                self.reading = Some(reading);
                self.problem(format!(
                    "reading {} has not returned within {timeout:?}; serving the certificate loaded before",
                    self.dir.display()
                ));
                false
            }
        }
    }

    fn consider(&mut self, read: Result<Pair, Error>) -> bool {
        let (cert, key) = match read {
            Ok(pair) => pair,
            Err(error) => {
                self.problem(format!("{error}; serving the certificate loaded before"));
                return false;
            }
        };
        if (&cert, &key) == (&self.seen.0, &self.seen.1) {
            if self.seen_loaded {
                self.health.set(None);
            }
            return false;
        }
        let loaded = certified_key(&cert, &key);
        self.seen = (cert, key);
        self.seen_loaded = loaded.is_ok();
        match loaded {
            Ok(key) => {
                self.serving.replace(key);
                self.health.set(None);
                tracing::info!(dir = %self.dir.display(), "serving a renewed certificate");
                true
            }
            Err(error) => {
                self.problem(format!(
                    "{error}: the certificate files changed into an unusable pair; serving the one loaded before until they change again"
                ));
                false
            }
        }
    }

    fn problem(&self, problem: String) {
        tracing::warn!(dir = %self.dir.display(), %problem, "certificate watcher");
        self.health.set(Some(problem));
    }

    /// Checks every `interval` (off the I/O threads) until the future is dropped.
    pub async fn run(mut self, interval: Duration) {
        let mut ticks = tokio::time::interval(interval);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        ticks.tick().await;
        loop {
            ticks.tick().await;
            self.check_off_thread(READ_TIMEOUT.min(interval)).await;
        }
    }
}

fn read_pair(dir: &Path) -> Result<Pair, Error> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read(&path).map_err(|source| Error::Read { path, source })
    };
    let pair = (read(CERT_FILE)?, read(KEY_FILE)?);
    Ok(pair)
}

/// [`read_pair`] on a thread of its own, given up after `timeout` (the thread is left
/// to its read): for start-up, which may run on a runtime's worker.
fn read_pair_within(dir: &Path, timeout: Duration) -> Result<Pair, Error> {
    let (sender, receiver) = std::sync::mpsc::channel();
    let owned = dir.to_owned();
    std::thread::Builder::new()
        .name("cert-read".to_owned())
        .spawn(move || {
            let _ = sender.send(read_pair(&owned));
        })
        .map_err(|source| Error::Read {
            path: dir.to_owned(),
            source,
        })?;
    receiver.recv_timeout(timeout).unwrap_or_else(|_| {
        Err(Error::Read {
            path: dir.join(CERT_FILE),
            source: std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("reading the certificate files did not return within {timeout:?}"),
            ),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Certificates;

    fn served(watcher: &CertWatcher) -> Vec<u8> {
        watcher.serving.current.read().cert[0].to_vec()
    }

    fn der(certificates: &Certificates) -> Vec<u8> {
        certificates.certified_key().unwrap().cert[0].to_vec()
    }

    #[test]
    fn a_rewritten_pair_is_served_and_a_mismatched_one_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let first = Certificates::self_signed(["localhost"]).unwrap();
        first.write_to(dir.path()).unwrap();
        let mut watcher = CertWatcher::load(dir.path()).unwrap();
        assert_eq!(served(&watcher), der(&first));
        assert!(!watcher.check(), "nothing changed");

        // Half-way through a rotation: the new key beside the old certificate.
        let second = first.reissue(["localhost"]).unwrap();
        std::fs::write(dir.path().join(KEY_FILE), second.key_pem()).unwrap();
        assert!(!watcher.check());
        assert_eq!(served(&watcher), der(&first), "a mismatched pair is never served");
        assert!(
            watcher.health().check().is_err(),
            "not ready while the pair is unusable"
        );
        std::fs::write(dir.path().join(CERT_FILE), second.cert_pem()).unwrap();
        assert!(watcher.check());
        assert_eq!(served(&watcher), der(&second));
        assert_eq!(watcher.health().check(), Ok(()));
    }

    #[test]
    fn missing_files_keep_the_current_certificate() {
        let dir = tempfile::tempdir().unwrap();
        let first = Certificates::self_signed(["localhost"]).unwrap();
        first.write_to(dir.path()).unwrap();
        let mut watcher = CertWatcher::load(dir.path()).unwrap();
        let health = watcher.health();
        std::fs::remove_file(dir.path().join(CERT_FILE)).unwrap();
        assert!(!watcher.check());
        assert_eq!(served(&watcher), der(&first));
        assert!(
            health.check().unwrap_err().contains(CERT_FILE),
            "not ready while unreadable"
        );
        let error = CertWatcher::load(dir.path()).err().unwrap();
        assert!(error.to_string().contains(CERT_FILE), "{error}");
        first.write_to(dir.path()).unwrap();
        assert!(!watcher.check());
        assert_eq!(health.check(), Ok(()), "ready again once the served pair reads");
    }

    /// `tls.crt` replaced by a FIFO that nobody writes: opening it never returns.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_certificate_file_that_never_reads_keeps_the_old_one_and_is_not_ready() {
        let dir = tempfile::tempdir().unwrap();
        let first = Certificates::self_signed(["localhost"]).unwrap();
        first.write_to(dir.path()).unwrap();
        let mut watcher = CertWatcher::load(dir.path()).unwrap();
        let health = watcher.health();
        let fifo = dir.path().join(CERT_FILE);
        std::fs::remove_file(&fifo).unwrap();
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());

        let short = Duration::from_millis(200);
        assert!(!watcher.check_off_thread(short).await);
        assert!(health.check().unwrap_err().contains("has not returned"));
        assert_eq!(served(&watcher), der(&first), "the old certificate keeps serving");
        // The runtime's workers stay free: timers and tasks run.
        assert_eq!(tokio::spawn(async { 1 }).await.unwrap(), 1);
        // The hanging read is waited for again, not started anew.
        assert!(!watcher.check_off_thread(short).await);
        assert!(watcher.reading.is_some());
        // Loading from it at start-up fails within its timeout.
        let error = read_pair_within(dir.path(), short).unwrap_err();
        assert!(error.to_string().contains("did not return"), "{error}");

        // Release the readers: a writer opens the FIFO (without waiting for a
        // reader, O_NONBLOCK) and closes it, and every blocked open returns.
        let writer = {
            use std::os::unix::fs::OpenOptionsExt as _;
            std::fs::OpenOptions::new().write(true).custom_flags(0o4000).open(&fifo)
        };
        std::fs::remove_file(&fifo).unwrap();
        first.write_to(dir.path()).unwrap();
        drop(writer);
        let _ = watcher.check_off_thread(Duration::from_secs(5)).await;
        let _ = watcher.check_off_thread(Duration::from_secs(5)).await;
        assert_eq!(health.check(), Ok(()), "ready again once the files read");
    }
}
