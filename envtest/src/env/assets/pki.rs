//! The credentials of the `KUBEBUILDER_ASSETS` control plane, made fresh for each start
//! as `start-modern.sh`-style test clusters make them: a CA, kube-apiserver's serving
//! certificate for the loopback address and the in-cluster names, the service-account
//! signing key, and a static bearer token for an admin user in `system:masters`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa, KeyPair,
    KeyUsagePurpose,
};

/// The name of the admin user the token authenticates, and its group.
pub(super) const ADMIN: &str = crate::core::ADMIN;
const ADMIN_GROUP: &str = "system:masters";

/// The names kube-apiserver's certificate answers to: the loopback address it listens
/// on, and the names and first service address (of `--service-cluster-ip-range`) that
/// pods and webhooks' callers use.
const SERVING_NAMES: [&str; 7] = [
    "127.0.0.1",
    "localhost",
    "10.0.0.1",
    "kubernetes",
    "kubernetes.default",
    "kubernetes.default.svc",
    "kubernetes.default.svc.cluster.local",
];

/// The files kube-apiserver is started with, and what a client needs.
pub(super) struct Credentials {
    pub(super) ca_file: PathBuf,
    pub(super) cert_file: PathBuf,
    pub(super) key_file: PathBuf,
    pub(super) service_account_public: PathBuf,
    pub(super) service_account_private: PathBuf,
    pub(super) token_file: PathBuf,
    /// The CA's certificate, PEM: what a client trusts.
    pub(super) ca_pem: String,
    /// The admin user's bearer token.
    pub(super) token: String,
}

impl Credentials {
    /// Makes new credentials and writes them into `dir` (private to this process: a
    /// temporary directory is created mode 0700).
    pub(super) fn write(dir: &Path) -> Result<Self, String> {
        let failed = |e: rcgen::Error| format!("could not make the control plane's certificates: {e}");
        let mut ca = CertificateParams::new(Vec::<String>::new()).map_err(failed)?;
        ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        ca.distinguished_name.push(DnType::CommonName, "wheelhouse-envtest-ca");
        let ca = CertifiedIssuer::self_signed(ca, KeyPair::generate().map_err(failed)?).map_err(failed)?;

        let names: Vec<String> = SERVING_NAMES.iter().map(|name| (*name).to_owned()).collect();
        let mut serving = CertificateParams::new(names).map_err(failed)?;
        serving.distinguished_name.push(DnType::CommonName, "kube-apiserver");
        serving.key_usages = vec![KeyUsagePurpose::DigitalSignature, KeyUsagePurpose::KeyEncipherment];
        serving.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        let serving_key = KeyPair::generate().map_err(failed)?;
        let serving_cert = serving.signed_by(&serving_key, &ca).map_err(failed)?;
        let (service_account_private, service_account_public) = service_account_key()?;

        let token = rand::random::<[u8; 24]>()
            .iter()
            .fold(String::new(), |mut token, byte| {
                let _ = write!(token, "{byte:02x}");
                token
            });
        let credentials = Self {
            ca_file: dir.join("ca.crt"),
            cert_file: dir.join("apiserver.crt"),
            key_file: dir.join("apiserver.key"),
            service_account_public: dir.join("sa.pub"),
            service_account_private: dir.join("sa.key"),
            token_file: dir.join("tokens.csv"),
            ca_pem: ca.pem(),
            token,
        };
        let files = [
            (&credentials.ca_file, credentials.ca_pem.clone()),
            (&credentials.cert_file, serving_cert.pem()),
            (&credentials.key_file, serving_key.serialize_pem()),
            (&credentials.service_account_public, service_account_public),
            (&credentials.service_account_private, service_account_private),
            (
                &credentials.token_file,
                format!("{},{ADMIN},{ADMIN},{ADMIN_GROUP}\n", credentials.token),
            ),
        ];
        for (path, contents) in files {
            std::fs::write(path, contents).map_err(|e| format!("could not write {}: {e}", path.display()))?;
        }
        Ok(credentials)
    }

    /// A kubeconfig for the admin user of the API server at `port` on loopback.
    pub(super) fn kubeconfig(&self, port: u16) -> String {
        use base64::Engine as _;
        let ca = base64::engine::general_purpose::STANDARD.encode(&self.ca_pem);
        format!(
            "apiVersion: v1\nkind: Config\nclusters:\n- name: envtest\n  cluster:\n    server: https://127.0.0.1:{port}\n    certificate-authority-data: {ca}\ncontexts:\n- name: envtest\n  context:\n    cluster: envtest\n    user: {ADMIN}\n    namespace: default\ncurrent-context: envtest\nusers:\n- name: {ADMIN}\n  user:\n    token: {token}\n",
            token = self.token
        )
    }
}

/// The service-account signing key, RSA 2048 as kubeadm and kind make it (so tokens
/// are RS256, as on the clusters operators meet; an rcgen key would be ECDSA and its
/// tokens ES256): its private key (PKCS#8) and public key, PEM.
fn service_account_key() -> Result<(String, String), String> {
    use rsa::pkcs8::{EncodePrivateKey as _, EncodePublicKey as _};
    let private = rsa::RsaPrivateKey::new(&mut rsa::rand_core::OsRng, 2048)
        .map_err(|e| format!("could not make the service-account key: {e}"))?;
    let private_der = private
        .to_pkcs8_der()
        .map_err(|e| format!("could not encode the service-account key: {e}"))?;
    let public_der = private
        .to_public_key()
        .to_public_key_der()
        .map_err(|e| format!("could not encode the service-account public key: {e}"))?;
    Ok((
        pem("PRIVATE KEY", private_der.as_bytes()),
        pem("PUBLIC KEY", public_der.as_bytes()),
    ))
}

/// DER as PEM: base64 in lines of 64, between the label's lines.
fn pem(label: &str, der: &[u8]) -> String {
    use base64::Engine as _;
    let encoded = base64::engine::general_purpose::STANDARD.encode(der);
    let mut out = format!("-----BEGIN {label}-----\n");
    for line in encoded.as_bytes().chunks(64) {
        out.push_str(&String::from_utf8_lossy(line));
        out.push('\n');
    }
    let _ = writeln!(out, "-----END {label}-----");
    out
}
