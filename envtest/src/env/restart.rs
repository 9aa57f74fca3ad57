//! Stopping and starting the API server's serving process with its state kept, as a
//! restart of kube-apiserver in front of the same etcd: on the embedded server, its
//! HTTP listener closes (connections reset, new ones refused) and opens again on the
//! same address; on an existing cluster, the commands `ENVTEST_APISERVER_STOP` and
//! `ENVTEST_APISERVER_START` do it (run with `sh -c`), and the start waits for
//! `/readyz`; not on the control plane of `KUBEBUILDER_ASSETS`, which the process's
//! tests share.
//!
//! A restarted kube-apiserver's watch cache starts at the storage's current revision:
//! a watch from an older resourceVersion is answered 410 Gone, and informers relist.
//! The embedded server does the same: the stop forgets its event history.

use std::time::Duration;

use super::{Error, TestEnv};

/// The command that stops an existing cluster's API server (its process, not its
/// storage), for [`TestEnv::stop_api_server`].
pub const STOP_COMMAND: &str = "ENVTEST_APISERVER_STOP";
/// The command that starts it again, on the same address and storage.
pub const START_COMMAND: &str = "ENVTEST_APISERVER_START";

/// How long [`TestEnv::start_api_server`] waits for `/readyz` on an existing cluster.
const READY_WITHIN: Duration = Duration::from_mins(2);

impl TestEnv {
    /// Whether this environment can stop and start its API server: always on the
    /// embedded server once served over HTTP ([`serve_http`](Self::serve_http)); on an
    /// existing cluster when both `ENVTEST_APISERVER_STOP` and `ENVTEST_APISERVER_START`
    /// are set (the reason why not is on stderr otherwise).
    pub fn can_restart_api_server(&self) -> bool {
        if self.server.is_some() {
            return self.served_at.is_some();
        }
        if self.audit_log.is_some() {
            eprintln!(
                "no restart of the KUBEBUILDER_ASSETS control plane: the test process's tests share it, \
                 and a restart would disturb the others"
            );
            return false;
        }
        let set = std::env::var_os(STOP_COMMAND).is_some() && std::env::var_os(START_COMMAND).is_some();
        if !set {
            eprintln!(
                "no restart of an existing cluster's API server without {STOP_COMMAND} and {START_COMMAND} \
                 (shell commands that stop and start its process on the same address and storage)"
            );
        }
        set
    }

    /// Stops the API server's serving process, keeping its state: the embedded
    /// server's HTTP listener closes, its connections (watches included) end, and its
    /// event history is forgotten, as a restarted kube-apiserver's watch cache starts
    /// empty. Requests through [`client`](Self::client) still reach the embedded server
    /// in process (as another API server in front of the same storage would answer).
    ///
    /// # Errors
    /// On the embedded server before `serve_http`; on an existing cluster without the
    /// stop command, or when it fails.
    pub async fn stop_api_server(&mut self) -> Result<(), Error> {
        if let Some(server) = &self.server {
            if self.served_at.is_none() {
                return Err(Error::NotEmbedded("stop_api_server (call serve_http first)"));
            }
            if let Some(serving) = self.serving.take() {
                serving.stop().await;
            }
            server.drop_watches();
            server.compact();
            return Ok(());
        }
        if self.audit_log.is_some() {
            return Err(Error::Assets(
                "the control plane is shared by the process's tests: no restart".into(),
            ));
        }
        run_command(STOP_COMMAND).await
    }

    /// Starts the API server's serving process again, on the address it served
    /// before, and returns once it is ready (on an existing cluster, once `/readyz`
    /// answers `ok`).
    ///
    /// # Errors
    /// As [`stop_api_server`](Self::stop_api_server); when the address cannot be bound
    /// again, or the cluster is not ready within two minutes.
    pub async fn start_api_server(&mut self) -> Result<(), Error> {
        if let Some(server) = self.server.clone() {
            let address = self
                .served_at
                .ok_or(Error::NotEmbedded("start_api_server (call serve_http first)"))?;
            // The port was ours a moment ago; it may take a moment to be free again.
            let mut tries = 0;
            let serving = loop {
                match super::http::serve(server.clone(), address).await {
                    Ok((_, serving)) => break serving,
                    Err(error) if tries < 100 => {
                        tries += 1;
                        tracing::debug!(%address, %error, "binding the API server's address again");
                        tokio::time::sleep(Duration::from_millis(20)).await;
                    }
                    Err(error) => return Err(error.into()),
                }
            };
            self.serving = Some(serving);
            return Ok(());
        }
        if self.audit_log.is_some() {
            return Err(Error::Assets(
                "the control plane is shared by the process's tests: no restart".into(),
            ));
        }
        run_command(START_COMMAND).await?;
        let deadline = tokio::time::Instant::now() + READY_WITHIN;
        loop {
            let ready = self
                .client
                .request_text(
                    http::Request::get("/readyz")
                        .body(Vec::new())
                        .map_err(|e| Error::Config(e.to_string()))?,
                )
                .await;
            if ready.is_ok_and(|body| body.trim() == "ok") {
                return Ok(());
            }
            if tokio::time::Instant::now() > deadline {
                return Err(Error::Timeout {
                    what: "the restarted API server's /readyz".into(),
                    seconds: READY_WITHIN.as_secs(),
                });
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// Runs the shell command in the environment variable `variable`.
async fn run_command(variable: &str) -> Result<(), Error> {
    let command = std::env::var(variable).map_err(|_| Error::Config(format!("{variable} is not set")))?;
    let status = tokio::process::Command::new("sh")
        .arg("-c")
        .arg(&command)
        .status()
        .await?;
    if status.success() {
        Ok(())
    } else {
        Err(Error::Config(format!("{variable} ({command:?}) failed: {status}")))
    }
}

#[cfg(test)]
mod tests {
    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::api::{Api, ListParams, PostParams, WatchParams};

    use super::*;

    #[tokio::test]
    async fn a_restart_refuses_connections_keeps_state_and_ends_old_watches_with_410() {
        let mut env = TestEnv::embedded().await.expect("an embedded server");
        let address = env.serve_http(([127, 0, 0, 1], 0).into()).await.expect("served");
        let http = kube::Client::try_from(env.config_for("tester").expect("a config")).expect("a client");
        let configs: Api<ConfigMap> = Api::namespaced(http.clone(), env.namespace());
        let mut config = ConfigMap::default();
        config.metadata.name = Some("kept".into());
        configs.create(&PostParams::default(), &config).await.expect("create");
        let version = configs
            .list(&ListParams::default())
            .await
            .expect("list")
            .metadata
            .resource_version
            .expect("a resourceVersion");
        // Written after that version: the restarted server's history starts past it.
        config.metadata.name = Some("later".into());
        configs.create(&PostParams::default(), &config).await.expect("create");

        env.stop_api_server().await.expect("stopped");
        let refused = tokio::net::TcpStream::connect(address).await;
        assert!(refused.is_err(), "the port is closed while stopped");
        env.start_api_server().await.expect("started");
        // A new client: the old one's pooled connection was closed by the stop, and it
        // may not have noticed yet (its connection task not yet run on a busy machine),
        // so its next request could meet the reset any client of a restarted server may.
        let http = kube::Client::try_from(env.config_for("tester").expect("a config")).expect("a client");
        let configs: Api<ConfigMap> = Api::namespaced(http.clone(), env.namespace());

        assert!(configs.get_opt("kept").await.expect("get").is_some(), "state kept");
        let gone = configs.watch(&WatchParams::default(), &version).await.map(|_| ()).err();
        // kube answers a watch's 410 as an error event or an error: either says Gone.
        let events = if gone.is_none() {
            use futures::StreamExt;
            let stream = configs.watch(&WatchParams::default(), &version).await.expect("a watch");
            let first = Box::pin(stream).next().await;
            format!("{first:?}")
        } else {
            format!("{gone:?}")
        };
        assert!(
            events.contains("410") || events.contains("Expired") || events.contains("Gone"),
            "{events}"
        );
    }
}
