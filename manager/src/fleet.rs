//! Fleets: the clusters an operator reconciles across, as a set that changes while it
//! runs.
//!
//! A [`Provider`] announces clusters joining and leaving ([`ClusterEvent`]); each
//! joined [`Cluster`] carries its own client and its own [`Cache`], so its informers,
//! its watch backoff and its memory are its own. Every controller that watches the same
//! provider shares a cluster's cache (one watch per type and cluster, however many
//! controllers read it). When a cluster leaves, the controllers drop their handles and
//! its informers stop with the last one; nothing else stops.
//!
//! Providers here:
//! - [`InProcess`]: clusters the program joins and leaves itself (embedded
//!   `TestEnv`s in a test, clusters it discovers by its own means);
//! - [`KubeconfigContexts`]: a static list of contexts of a kubeconfig;
//! - [`KubeconfigSecrets`]: kubeconfig Secrets in the home cluster, watched (Cluster
//!   API's `<cluster>-kubeconfig` convention).
//!
//! Unlike multicluster-runtime's providers, which call back into every "aware"
//! component to engage a cluster, a provider here is only a stream of membership
//! changes: whoever wants the fleet subscribes ([`Provider::watch`]), first receiving
//! every current member as joined, then each change in order. A provider needs no
//! knowledge of controllers, and a controller added late misses nothing.

mod kubeconfig;
mod secrets;

use std::collections::BTreeMap;
use std::fmt::{self, Debug};
use std::sync::Arc;

use futures::StreamExt;
use futures::stream::BoxStream;
use parking_lot::Mutex;
use tokio::sync::mpsc;
use wheelhouse_cache::Cache;

pub use self::kubeconfig::{KubeconfigContexts, KubeconfigError};
pub use self::secrets::{KUBECONFIG_SECRET_KEY, KubeconfigSecrets, cluster_of_secret};

/// A member of a fleet: its name, a client for its API server, and its cache.
///
/// Cheap to clone; clones share the cache, whose informers stop when the last clone
/// (with the last informer handle) is gone.
#[derive(Clone)]
pub struct Cluster {
    name: Arc<str>,
    client: kube::Client,
    cache: Cache,
}

impl Debug for Cluster {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cluster")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Cluster {
    /// The cluster `name` reached through `client`, with a fresh cache of its own.
    pub fn new(name: impl Into<Arc<str>>, client: kube::Client) -> Self {
        Self {
            name: name.into(),
            cache: Cache::new(client.clone()),
            client,
        }
    }

    /// The cluster's name, unique in its fleet.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The name, shared.
    pub fn name_arc(&self) -> Arc<str> {
        self.name.clone()
    }

    /// A client for the cluster's API server.
    pub fn client(&self) -> &kube::Client {
        &self.client
    }

    /// The cluster's cache, shared by every controller that reads it.
    pub fn cache(&self) -> &Cache {
        &self.cache
    }
}

/// A change in a fleet's membership.
#[derive(Debug, Clone)]
pub enum ClusterEvent {
    /// A cluster joined (or joined again with another client: its old self left first).
    Joined(Cluster),
    /// The cluster of this name left.
    Left(Arc<str>),
}

/// Announces the clusters of a fleet: every current member as [`ClusterEvent::Joined`],
/// then each change, in order. Each call is a new, independent subscription.
///
/// ```
/// use futures::StreamExt;
/// use wheelhouse_manager::fleet::{ClusterEvent, InProcess, Provider};
///
/// # async fn example(client: kube::Client) {
/// let fleet = InProcess::new();
/// fleet.join("member-1", client);
/// let mut events = fleet.watch();
/// assert!(matches!(events.next().await, Some(ClusterEvent::Joined(c)) if c.name() == "member-1"));
/// fleet.leave("member-1");
/// assert!(matches!(events.next().await, Some(ClusterEvent::Left(name)) if &*name == "member-1"));
/// # }
/// ```
pub trait Provider: Send + Sync + 'static {
    /// A new subscription to the fleet's membership.
    fn watch(&self) -> BoxStream<'static, ClusterEvent>;
}

impl<P: Provider + ?Sized> Provider for Arc<P> {
    fn watch(&self) -> BoxStream<'static, ClusterEvent> {
        (**self).watch()
    }
}

/// A fleet whose members the program joins and leaves itself: embedded `TestEnv`s in
/// a test, or clusters it finds by its own means. The other providers are built on it.
///
/// Cheap to clone; clones are the same fleet.
#[derive(Clone, Default)]
pub struct InProcess {
    inner: Arc<Mutex<Members>>,
}

#[derive(Default)]
struct Members {
    clusters: BTreeMap<Arc<str>, Cluster>,
    /// One per subscription; a closed one is dropped at the next change.
    watchers: Vec<mpsc::UnboundedSender<ClusterEvent>>,
}

impl Members {
    fn announce(&mut self, event: &ClusterEvent) {
        self.watchers.retain(|watcher| watcher.send(event.clone()).is_ok());
    }
}

impl Debug for InProcess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InProcess").field("clusters", &self.names()).finish()
    }
}

impl InProcess {
    /// An empty fleet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the cluster `name`, reached through `client`, with a cache of its own, and
    /// returns it. A member of that name already there leaves first.
    pub fn join(&self, name: impl Into<Arc<str>>, client: kube::Client) -> Cluster {
        let cluster = Cluster::new(name, client);
        self.join_cluster(cluster.clone());
        cluster
    }

    /// Adds `cluster`; a member of its name already there leaves first.
    pub fn join_cluster(&self, cluster: Cluster) {
        let mut members = self.inner.lock();
        if members.clusters.remove(&cluster.name).is_some() {
            members.announce(&ClusterEvent::Left(cluster.name.clone()));
        }
        members.clusters.insert(cluster.name.clone(), cluster.clone());
        members.announce(&ClusterEvent::Joined(cluster));
    }

    /// Removes the cluster `name`; false if it was not a member.
    pub fn leave(&self, name: &str) -> bool {
        let mut members = self.inner.lock();
        let Some((name, _)) = members.clusters.remove_entry(name) else {
            return false;
        };
        members.announce(&ClusterEvent::Left(name));
        true
    }

    /// The member named `name`.
    pub fn get(&self, name: &str) -> Option<Cluster> {
        self.inner.lock().clusters.get(name).cloned()
    }

    /// The members' names, sorted.
    pub fn names(&self) -> Vec<Arc<str>> {
        self.inner.lock().clusters.keys().cloned().collect()
    }

    /// How many subscriptions are open (closed ones are counted until the next change).
    pub fn watchers(&self) -> usize {
        self.inner.lock().watchers.len()
    }
}

impl Provider for InProcess {
    fn watch(&self) -> BoxStream<'static, ClusterEvent> {
        let (sender, receiver) = mpsc::unbounded_channel();
        let mut members = self.inner.lock();
        // Under the lock: no change can slip between the snapshot and the subscription.
        for cluster in members.clusters.values() {
            let _ = sender.send(ClusterEvent::Joined(cluster.clone()));
        }
        members.watchers.push(sender);
        futures::stream::unfold(receiver, |mut receiver| async move {
            receiver.recv().await.map(|event| (event, receiver))
        })
        .boxed()
    }
}
