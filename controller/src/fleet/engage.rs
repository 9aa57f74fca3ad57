//! Engaging one cluster: the controller's informers made in the cluster's own cache,
//! its sources, and workers that reconcile with the cluster's client and stores.

use std::any::TypeId;
use std::fmt::Debug;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use kube::Resource;
use serde::de::DeserializeOwned;
use tokio::sync::Semaphore;
use wheelhouse_cache::{Informer, Scope, ScopeKind};
use wheelhouse_manager::fleet::Cluster;

use super::shard::Admission;
use crate::cluster::{ClusterSeries, InCluster, Members};
use crate::controller::{MakeIndex, MakeSource};
use crate::metrics::Series;
use crate::predicate::Predicate;
use crate::reconciler::{OwnedStores, Reconciler, recorder};
use crate::settled::Settled;
use crate::source::{self, Source};
use crate::worker::{Work, Worker};

/// How to engage a cluster, whatever the controller's object type.
pub(crate) trait Plan: Send + Sync {
    fn engage(&self, cluster: &Cluster, shared: Shared) -> Engaged;
}

/// What every cluster's workers share.
pub(crate) struct Shared {
    pub members: Members,
    pub gate: Arc<Semaphore>,
    pub waiting: Arc<AtomicUsize>,
    pub series: Option<Series>,
    pub cluster_series: Option<ClusterSeries>,
    /// Whether the cluster's reconciles may still write to it.
    pub admission: Admission,
}

/// A cluster engaged: the sources to subscribe, the work to run, and how it is doing.
pub(crate) struct Engaged {
    pub sources: Vec<Source>,
    pub work: Arc<dyn Work>,
    pub probe: Arc<dyn Probe>,
}

/// How a cluster's primary informer is doing.
pub(crate) trait Probe: Send + Sync {
    /// Synced, the watch's last error, and the objects cached.
    fn probe(&self) -> (bool, Option<String>, usize);
}

impl<K> Probe for Informer<K>
where
    K: Resource + Clone + Debug + Send + Sync + 'static,
{
    fn probe(&self) -> (bool, Option<String>, usize) {
        (self.has_synced(), self.last_error(), self.store().len())
    }
}

/// The builder's declarations, kept to be replayed in each cluster that joins.
pub(crate) struct PlanOf<K: Resource, R> {
    pub name: Arc<str>,
    pub scope: Scope,
    pub predicate: Option<Predicate<K>>,
    pub sources: Vec<MakeSource>,
    pub indexes: Vec<MakeIndex>,
    pub owned_full: Vec<TypeId>,
    pub timeout: Option<Duration>,
    pub reconciler: Arc<R>,
}

impl<K, R> Plan for PlanOf<K, R>
where
    K: Resource + Clone + Debug + DeserializeOwned + Send + Sync + 'static,
    K::DynamicType: Default,
    K::Scope: ScopeKind,
    R: Reconciler<K>,
{
    fn engage(&self, cluster: &Cluster, shared: Shared) -> Engaged {
        let cache = cluster.cache();
        let primary = cache.informer::<K>(self.scope.clone());
        let settled = Settled::default();
        let mut sources = vec![source::primary(
            primary.clone(),
            self.predicate.clone(),
            settled.clone(),
        )];
        for make in &self.sources {
            sources.push(make(cache, &self.scope));
        }
        for declare in &self.indexes {
            declare(cache, &self.scope, &self.owned_full);
        }
        let series = OnceLock::new();
        if let Some(controller) = shared.series {
            let _ = series.set(controller);
        }
        let client = shared.admission.client(cluster.client().clone());
        let work = Arc::new(Worker {
            name: self.name.clone(),
            recorder: recorder(&client, &self.name),
            client,
            cache: cache.clone(),
            reconciler: self.reconciler.clone(),
            cluster: Some(InCluster {
                name: cluster.name_arc(),
                members: shared.members,
                gate: shared.gate,
                waiting: shared.waiting,
                series: shared.cluster_series,
            }),
            owned: Arc::new(OwnedStores {
                cache: cache.clone(),
                scope: self.scope.clone(),
                types: self.owned_full.clone(),
            }),
            shards: None,
            primary: primary.clone(),
            settled,
            timeout: self.timeout,
            series,
        });
        cache.start();
        Engaged {
            sources,
            work,
            probe: Arc::new(primary),
        }
    }
}
