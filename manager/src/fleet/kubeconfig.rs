//! [`KubeconfigContexts`]: a fleet of the contexts of a kubeconfig, fixed at start.

use std::sync::Arc;

use futures::stream::BoxStream;
use kube::config::{KubeConfigOptions, Kubeconfig};

use super::{ClusterEvent, InProcess, Provider};

/// Why a kubeconfig could not become a fleet's member.
#[derive(Debug, thiserror::Error)]
pub enum KubeconfigError {
    /// The kubeconfig could not be read or parsed, or names no such context.
    #[error("kubeconfig for cluster {cluster:?}: {source}")]
    Config {
        /// The cluster (context) concerned.
        cluster: String,
        /// kube's reason.
        source: kube::config::KubeconfigError,
    },
    /// No client could be made from the configuration (TLS material, proxy).
    #[error("client for cluster {cluster:?}: {source}")]
    Client {
        /// The cluster (context) concerned.
        cluster: String,
        /// kube's reason.
        source: kube::Error,
    },
    /// The kubeconfig has no context of that name.
    #[error("the kubeconfig has no context {0:?}")]
    NoSuchContext(String),
}

/// A client for `context` of `kubeconfig` (its current context when `None`).
pub(crate) async fn client_for(
    kubeconfig: Kubeconfig,
    context: Option<&str>,
    cluster: &str,
) -> Result<kube::Client, KubeconfigError> {
    let options = KubeConfigOptions {
        context: context.map(str::to_owned),
        ..KubeConfigOptions::default()
    };
    let config = kube::Config::from_custom_kubeconfig(kubeconfig, &options)
        .await
        .map_err(|source| KubeconfigError::Config {
            cluster: cluster.to_owned(),
            source,
        })?;
    let url = config.cluster_url.clone();
    let client = kube::Client::try_from(config).map_err(|source| KubeconfigError::Client {
        cluster: cluster.to_owned(),
        source,
    })?;
    // Errors then name the URL that could not be reached, in logs and on `/readyz`.
    Ok(wheelhouse_cache::name_request_urls(client, Some(&url)))
}

/// A static fleet: each named context of a kubeconfig is a member, named as the
/// context. Nothing joins or leaves after it is made.
///
/// ```no_run
/// # async fn example() -> Result<(), Box<dyn std::error::Error>> {
/// use kube::config::Kubeconfig;
/// use wheelhouse_manager::fleet::KubeconfigContexts;
///
/// let kubeconfig = Kubeconfig::read_from("fleet.kubeconfig")?;
/// let fleet = KubeconfigContexts::new(kubeconfig, &["eu-1", "us-1"]).await?;
/// assert_eq!(fleet.clusters().names().len(), 2);
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct KubeconfigContexts {
    members: InProcess,
}

impl KubeconfigContexts {
    /// The members `contexts` of `kubeconfig` (every context it has when empty).
    pub async fn new(kubeconfig: Kubeconfig, contexts: &[&str]) -> Result<Self, KubeconfigError> {
        let names: Vec<String> = if contexts.is_empty() {
            kubeconfig.contexts.iter().map(|c| c.name.clone()).collect()
        } else {
            contexts.iter().map(|&c| c.to_owned()).collect()
        };
        let members = InProcess::new();
        for name in names {
            if !kubeconfig.contexts.iter().any(|c| c.name == name) {
                return Err(KubeconfigError::NoSuchContext(name));
            }
            let client = client_for(kubeconfig.clone(), Some(&name), &name).await?;
            members.join(Arc::<str>::from(name.as_str()), client);
        }
        Ok(Self { members })
    }

    /// The members, to look one up by name.
    pub fn clusters(&self) -> &InProcess {
        &self.members
    }
}

impl Provider for KubeconfigContexts {
    fn watch(&self) -> BoxStream<'static, ClusterEvent> {
        self.members.watch()
    }
}
