//! [`Error`]: why a webhook server could not be set up, start or register its
//! configurations. Bad requests are never errors of the server: they are answered.

use std::net::SocketAddr;
use std::path::PathBuf;

/// What went wrong setting up or running a webhook server.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Two webhooks were registered at one path.
    #[error("two webhooks are registered at {path}; give one of them another path")]
    DuplicatePath {
        /// The path registered twice.
        path: String,
    },
    /// Two conversions were registered for one group and kind.
    #[error("two conversions are registered for {kind}.{group}; register each version once, as a spoke of one hub")]
    DuplicateConversion {
        /// The group.
        group: String,
        /// The kind.
        kind: String,
    },
    /// The versions' CRDs do not merge into one.
    #[error("the versions' CRDs do not merge: {0}")]
    Crd(String),
    /// A raw handler's path is not an absolute URL path.
    #[error("webhook path {path:?} must start with '/'")]
    InvalidPath {
        /// The path given.
        path: String,
    },
    /// The listening socket could not be bound.
    #[error("could not listen on {address} for the webhook server: {source} (is --webhook-port in use?)")]
    Bind {
        /// The address asked for.
        address: SocketAddr,
        /// Why binding failed.
        source: std::io::Error,
    },
    /// A certificate or key file could not be read.
    #[error("could not read {}: {source} (is --cert-dir right, and is the certificate mounted?)", path.display())]
    ReadCertificate {
        /// The file.
        path: PathBuf,
        /// Why reading failed.
        source: std::io::Error,
    },
    /// The certificate or key does not parse, or they do not belong together.
    #[error("the serving certificate is unusable: {0}")]
    InvalidCertificate(String),
    /// rcgen could not generate a certificate.
    #[error("could not generate a self-signed certificate: {0}")]
    Generate(#[from] rcgen::Error),
    /// Writing certificate files failed.
    #[error("could not write {}: {source}", path.display())]
    WriteCertificate {
        /// The file.
        path: PathBuf,
        /// Why writing failed.
        source: std::io::Error,
    },
    /// TLS could not be configured.
    #[error("TLS configuration: {0}")]
    Tls(#[from] rustls::Error),
    /// Registering the webhook configurations with the API server failed.
    #[error("could not register the webhook configurations: {0}")]
    Kube(#[from] kube::Error),
    /// The configurations could not be written as YAML.
    #[error("could not write the webhook configurations as YAML: {0}")]
    Yaml(String),
    /// A test environment did not take what `envtest::serve` registered (a CRD that
    /// does not install, configurations not in effect in time), or its threads did
    /// not start.
    #[error("the test environment: {0}")]
    TestEnv(String),
}

/// Certificate failures keep the variants this crate had before the manager's secure
/// metrics server came to share the certificate code.
impl From<wheelhouse_manager::CertificateError> for Error {
    fn from(error: wheelhouse_manager::CertificateError) -> Self {
        use wheelhouse_manager::CertificateError;
        match error {
            CertificateError::Read { path, source } => Self::ReadCertificate { path, source },
            CertificateError::Invalid(why) => Self::InvalidCertificate(why),
            CertificateError::Generate(error) => Self::Generate(error),
            CertificateError::Write { path, source } => Self::WriteCertificate { path, source },
            CertificateError::Tls(error) => Self::Tls(error),
            other => Self::InvalidCertificate(other.to_string()),
        }
    }
}
