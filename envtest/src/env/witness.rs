//! Telling replicas apart on either server, and witnessing their writes there: on the
//! embedded server by the user a bearer token names and the server's own records; on
//! an existing cluster by the `User-Agent` each replica sends and the API server's
//! audit log, named by `ENVTEST_AUDIT_LOG` (or written by the control plane of
//! `KUBEBUILDER_ASSETS`, which the environment started).

use std::path::PathBuf;

use super::{Error, TestEnv};
use crate::state::{LeaseWitness, WriteWitness};

/// The environment variable naming an existing cluster's audit log (written with
/// [`AUDIT_POLICY`](crate::AUDIT_POLICY)), for the witnesses.
pub const AUDIT_LOG: &str = "ENVTEST_AUDIT_LOG";

impl TestEnv {
    /// A client whose requests witnesses attribute to `user`: on the embedded server,
    /// the user its requests come from ([`ApiServer::as_user`](crate::ApiServer::as_user));
    /// on an existing cluster, the cluster's credentials with `user` as the
    /// `User-Agent`, which the API server's audit log records.
    ///
    /// # Errors
    /// When `user` is not a valid header value, or the cluster's client cannot be built.
    pub fn client_for(&self, user: &str) -> Result<kube::Client, Error> {
        match &self.server {
            Some(server) => Ok(kube::Client::new(server.as_user(user), self.namespace.clone())),
            None => Ok(kube::Client::try_from(self.config_for(user)?)?),
        }
    }

    /// The configuration of a client, of its own HTTP stack, whose requests witnesses
    /// attribute to `user` (see [`client_for`](Self::client_for)): on the embedded
    /// server its HTTP listener (call [`serve_http`](Self::serve_http) first) with
    /// `user` as the bearer token; on an existing cluster its configuration with `user`
    /// as the `User-Agent`.
    ///
    /// # Errors
    /// On the embedded server before `serve_http`, or when `user` is not a valid header
    /// value.
    pub fn config_for(&self, user: &str) -> Result<kube::Config, Error> {
        let invalid = |e: http::header::InvalidHeaderValue| Error::Config(format!("user {user:?}: {e}"));
        let mut config = match (&self.cluster, self.served_at) {
            (Some(cluster), _) => {
                let mut config = cluster.clone();
                let agent = http::HeaderValue::from_str(user).map_err(invalid)?;
                config.headers.push((http::header::USER_AGENT, agent));
                config
            }
            (None, Some(addr)) => {
                let url = format!("http://{addr}")
                    .parse()
                    .map_err(|e: http::uri::InvalidUri| Error::Config(e.to_string()))?;
                let mut config = kube::Config::new(url);
                let token = http::HeaderValue::from_str(&format!("Bearer {user}")).map_err(invalid)?;
                config.headers.push((http::header::AUTHORIZATION, token));
                config
            }
            (None, None) => return Err(Error::NotEmbedded("config_for (call serve_http first)")),
        };
        self.namespace.clone_into(&mut config.default_namespace);
        Ok(config)
    }

    /// Starts recording the writes of named users ([`client_for`](Self::client_for)) in
    /// this test's namespace: on the embedded server from its own records
    /// ([`ApiServer::witness_writes`](crate::ApiServer::witness_writes), every
    /// namespace); on an existing cluster from the audit log named by
    /// `ENVTEST_AUDIT_LOG`, or None (and the reason on stderr) without one.
    pub fn witness_writes(&self) -> Option<WriteWitness> {
        if let Some(server) = &self.server {
            return Some(server.witness_writes());
        }
        let log = self.audit_log()?;
        WriteWitness::from_audit_log(&log, &self.namespace)
            .inspect_err(|e| eprintln!("no write witness: cannot read {}: {e}", log.display()))
            .ok()
    }

    /// Starts witnessing fencing on the Lease `namespace/name` (see
    /// [`ApiServer::witness_lease`](crate::ApiServer::witness_lease)): on an existing
    /// cluster from the audit log named by `ENVTEST_AUDIT_LOG`, or None without one.
    pub fn witness_lease(&self, namespace: &str, name: &str) -> Option<LeaseWitness> {
        if let Some(server) = &self.server {
            return Some(server.witness_lease(namespace, name));
        }
        let log = self.audit_log()?;
        LeaseWitness::from_audit_log(&log, namespace, name)
            .inspect_err(|e| eprintln!("no lease witness: cannot read {}: {e}", log.display()))
            .ok()
    }
}

impl TestEnv {
    /// The audit log of the API server this environment started (the control plane of
    /// `KUBEBUILDER_ASSETS`), else the one `ENVTEST_AUDIT_LOG` names, else None with
    /// the reason on stderr.
    fn audit_log(&self) -> Option<PathBuf> {
        if let Some(log) = &self.audit_log {
            return Some(log.clone());
        }
        let log = std::env::var_os(AUDIT_LOG).map(PathBuf::from);
        if log.is_none() {
            eprintln!(
                "no witness on an existing cluster without its audit log: start the API server with \
                 an audit policy (wheelhouse_envtest::AUDIT_POLICY) and set {AUDIT_LOG} to the log's path"
            );
        }
        log
    }
}
