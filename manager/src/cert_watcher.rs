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

use std::fmt::{self, Debug};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use parking_lot::RwLock;
use rustls::ServerConfig;
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;

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
}

impl CertWatcher {
    /// Loads the pair in `dir`; fails when it cannot be served, so a server never
    /// starts without a certificate.
    pub fn load(dir: &Path) -> Result<Self, Error> {
        let (cert, key) = read_pair(dir)?;
        let serving = ServingCertificate::new(certified_key(&cert, &key)?);
        Ok(Self {
            dir: dir.to_owned(),
            serving,
            seen: (cert, key),
        })
    }

    /// What the TLS configuration resolves certificates with.
    pub fn serving(&self) -> Arc<ServingCertificate> {
        self.serving.clone()
    }

    /// Checks the files once; true when a new certificate is now served.
    pub fn check(&mut self) -> bool {
        let (cert, key) = match read_pair(&self.dir) {
            Ok(pair) => pair,
            Err(error) => {
                tracing::warn!(%error, "keeping the current serving certificate");
                return false;
            }
        };
        if (&cert, &key) == (&self.seen.0, &self.seen.1) {
            return false;
        }
        let loaded = certified_key(&cert, &key);
        self.seen = (cert, key);
        match loaded {
            Ok(key) => {
                self.serving.replace(key);
                tracing::info!(dir = %self.dir.display(), "serving a renewed certificate");
                true
            }
            Err(error) => {
                tracing::warn!(%error, dir = %self.dir.display(), "the certificate files changed into an unusable pair; keeping the current one until they change again");
                false
            }
        }
    }

    /// Checks every `interval` until the future is dropped.
    pub async fn run(mut self, interval: Duration) {
        let mut ticks = tokio::time::interval(interval);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        ticks.tick().await;
        loop {
            ticks.tick().await;
            self.check();
        }
    }
}

fn read_pair(dir: &Path) -> Result<(Vec<u8>, Vec<u8>), Error> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read(&path).map_err(|source| Error::Read { path, source })
    };
    Ok((read(CERT_FILE)?, read(KEY_FILE)?))
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
        std::fs::write(dir.path().join(CERT_FILE), second.cert_pem()).unwrap();
        assert!(watcher.check());
        assert_eq!(served(&watcher), der(&second));
    }

    #[test]
    fn missing_files_keep_the_current_certificate() {
        let dir = tempfile::tempdir().unwrap();
        let first = Certificates::self_signed(["localhost"]).unwrap();
        first.write_to(dir.path()).unwrap();
        let mut watcher = CertWatcher::load(dir.path()).unwrap();
        std::fs::remove_file(dir.path().join(CERT_FILE)).unwrap();
        assert!(!watcher.check());
        assert_eq!(served(&watcher), der(&first));
        let error = CertWatcher::load(dir.path()).err().unwrap();
        assert!(error.to_string().contains(CERT_FILE), "{error}");
    }
}
