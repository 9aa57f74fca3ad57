//! [`KubeconfigSecrets`]: a fleet of the clusters whose kubeconfig Secrets are in the
//! home cluster, watched, as Cluster API writes them.

use std::collections::HashMap;
use std::fmt::{self, Debug};
use std::sync::Arc;

use futures::stream::BoxStream;
use k8s_openapi::api::core::v1::Secret;
use kube::ResourceExt;
use kube::config::Kubeconfig;
use tokio_util::task::AbortOnDropHandle;
use wheelhouse_cache::{Cache, Event, Scope};

use super::kubeconfig::client_for;
use super::{ClusterEvent, InProcess, Provider};

/// The key of a kubeconfig Secret's data that holds the kubeconfig (Cluster API's).
pub const KUBECONFIG_SECRET_KEY: &str = "value";

/// Cluster API's label naming the cluster a Secret belongs to.
const CLUSTER_NAME_LABEL: &str = "cluster.x-k8s.io/cluster-name";

/// The suffix of a kubeconfig Secret's name (Cluster API's `<cluster>-kubeconfig`).
const SECRET_SUFFIX: &str = "-kubeconfig";

/// The cluster a kubeconfig Secret stands for: `<cluster>` of its name
/// `<cluster>-kubeconfig`, as Cluster API names them; other Secrets stand for none.
///
/// ```
/// use k8s_openapi::api::core::v1::Secret;
/// use wheelhouse_manager::fleet::cluster_of_secret;
///
/// let mut secret = Secret::default();
/// secret.metadata.name = Some("workload-1-kubeconfig".into());
/// assert_eq!(cluster_of_secret(&secret).as_deref(), Some("workload-1"));
/// secret.metadata.name = Some("registry-credentials".into());
/// assert_eq!(cluster_of_secret(&secret), None);
/// ```
pub fn cluster_of_secret(secret: &Secret) -> Option<String> {
    let name = secret.metadata.name.as_deref()?;
    let cluster = name.strip_suffix(SECRET_SUFFIX).filter(|c| !c.is_empty())?;
    // Cluster API labels the Secret with its cluster; a Secret labelled for another
    // cluster than its name says is not one to trust.
    match secret.labels().get(CLUSTER_NAME_LABEL) {
        Some(label) if label != cluster => None,
        _ => Some(cluster.to_owned()),
    }
}

/// A fleet read from the home cluster: every `<cluster>-kubeconfig` Secret of a
/// namespace is a member named `<cluster>`, reached with the kubeconfig in its data's
/// `value` (its current context). A Secret created joins its cluster, one changed joins
/// it again with the new client, one deleted (or no longer usable) makes it leave.
///
/// ```no_run
/// # async fn example(manager: &wheelhouse_manager::Manager) {
/// use wheelhouse_manager::fleet::KubeconfigSecrets;
///
/// // The members' Secrets are in the namespace `fleet` of the home cluster.
/// let fleet = KubeconfigSecrets::new(manager.cache(), "fleet");
/// # let _ = fleet;
/// # }
/// ```
#[derive(Clone)]
pub struct KubeconfigSecrets {
    members: InProcess,
    _task: Arc<AbortOnDropHandle<()>>,
}

impl Debug for KubeconfigSecrets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KubeconfigSecrets")
            .field("members", &self.members)
            .finish_non_exhaustive()
    }
}

impl KubeconfigSecrets {
    /// Watches the Secrets of `namespace` through `home` (the home cluster's cache,
    /// usually the manager's) on the current tokio runtime, until the last clone is
    /// dropped.
    pub fn new(home: &Cache, namespace: &str) -> Self {
        let informer = home.informer::<Secret>(Scope::namespace(namespace));
        informer.start();
        let members = InProcess::new();
        let joined = members.clone();
        let mut subscription = informer.subscribe();
        let task = tokio::spawn(async move {
            // The Secret's version each member was joined from: an update that changes
            // nothing else (a resync) keeps the client.
            let mut versions: HashMap<String, Option<String>> = HashMap::new();
            while let Some(event) = subscription.recv().await {
                match event {
                    Event::Added(secret) | Event::Updated { new: secret, .. } => {
                        let Some(cluster) = cluster_of_secret(&secret) else {
                            continue;
                        };
                        let version = secret.metadata.resource_version.clone();
                        if versions.get(&cluster) == Some(&version) {
                            continue;
                        }
                        match client_of(&secret, &cluster).await {
                            Ok(client) => {
                                tracing::info!(cluster = %cluster, secret = %secret.name_any(), "fleet member joins from its kubeconfig Secret");
                                versions.insert(cluster.clone(), version);
                                joined.join(Arc::<str>::from(cluster.as_str()), client);
                            }
                            Err(error) => {
                                tracing::warn!(cluster = %cluster, error = %error, "kubeconfig Secret unusable; the cluster is not a member");
                                versions.remove(&cluster);
                                joined.leave(&cluster);
                            }
                        }
                    }
                    Event::Deleted(secret) => {
                        if let Some(cluster) = cluster_of_secret(&secret)
                            && versions.remove(&cluster).is_some()
                        {
                            tracing::info!(cluster = %cluster, "fleet member leaves: its kubeconfig Secret was deleted");
                            joined.leave(&cluster);
                        }
                    }
                    Event::Lagged => {}
                }
            }
        });
        Self {
            members,
            _task: Arc::new(AbortOnDropHandle::new(task)),
        }
    }

    /// The members now, to look one up by name.
    pub fn clusters(&self) -> &InProcess {
        &self.members
    }
}

/// A client from the kubeconfig in `secret`'s data.
async fn client_of(secret: &Secret, cluster: &str) -> Result<kube::Client, String> {
    let data = secret
        .data
        .as_ref()
        .and_then(|data| data.get(KUBECONFIG_SECRET_KEY))
        .ok_or_else(|| format!("no data key {KUBECONFIG_SECRET_KEY:?}"))?;
    let text = std::str::from_utf8(&data.0).map_err(|error| format!("the kubeconfig is not UTF-8: {error}"))?;
    let kubeconfig = Kubeconfig::from_yaml(text).map_err(|error| error.to_string())?;
    client_for(kubeconfig, None, cluster)
        .await
        .map_err(|error| error.to_string())
}

impl Provider for KubeconfigSecrets {
    fn watch(&self) -> BoxStream<'static, ClusterEvent> {
        self.members.watch()
    }
}
