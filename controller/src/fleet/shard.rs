//! A fleet spread across a sharded manager's ring: each cluster, with every object in
//! it, is served by one replica, and changes hands by the ring's protocol.
//!
//! A cluster's slot is the FNV-1a hash of its name, in the same hash space the ring
//! splits for objects ([`wheelhouse_cache::shard`]). A replica engages a cluster only
//! while it serves that slot, and holds the slot's [`InFlight`] for as long as the
//! cluster is engaged. When the ring takes the slot away, `Shards::stop_serving` waits
//! for that guard: the fleet controller disengages the cluster first (its queue
//! dropped, its workers and their reconciles aborted and awaited, its informers
//! stopped), and only then does the ring publish that the slot is free and let the
//! new owner start. So the old owner has stopped before the new one starts, as for
//! objects.
//!
//! The writes a cluster's reconciles send through [`Context::client`](crate::Context::client)
//! are checked just before they are handed to the client, as the manager's fence does
//! for the home cluster: refused once the leadership term is over, or once the cluster
//! is no longer served here, so a reconcile the abort has not reached yet writes
//! nothing ([`ClusterFenced`]).

use std::sync::Arc;
use std::task::{Context, Poll};

use futures::future::BoxFuture;
use http::{Method, Request, Response};
use kube::client::Body;
use wheelhouse_cache::shard::{Shards, SlotSet, fnv1a64};
use wheelhouse_manager::{BoxError, Stop};

/// The ring slot that carries the cluster `name`, and every object in it.
///
/// The name's FNV-1a hash is mixed (`MurmurHash3`'s 64-bit finaliser) before its top
/// bits pick the slot: FNV-1a's last multiplication moves a change in the last byte
/// only into the low 48 bits, so `member-0` to `member-9` would all share one slot.
///
/// ```
/// use std::collections::BTreeSet;
/// use wheelhouse_controller::fleet::cluster_slot;
///
/// assert_eq!(cluster_slot("eu-1"), cluster_slot("eu-1"));
/// let slots: BTreeSet<u8> = (0..10).map(|i| cluster_slot(&format!("member-{i}"))).collect();
/// assert!(slots.len() > 5, "names that differ in one character spread: {slots:?}");
/// ```
pub fn cluster_slot(name: &str) -> u8 {
    SlotSet::slot_of_hash(mix(fnv1a64(name.as_bytes())))
}

/// `MurmurHash3`'s `fmix64`: every input bit reaches every output bit.
fn mix(mut hash: u64) -> u64 {
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    hash ^ (hash >> 33)
}

/// Why a write to a member cluster was not sent: the replica may no longer act on
/// that cluster. A reconcile sees it as `kube::Error::Service`; [`ClusterFenced::of`]
/// finds it there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClusterFenced {
    /// The leadership (or ring membership) term the fleet controller runs in is over.
    #[error("cluster {cluster}: this replica's leadership term is over; the write was not sent")]
    TermEnded {
        /// The member cluster.
        cluster: String,
    },
    /// The ring handed the cluster to another replica.
    #[error("cluster {cluster}: the ring handed this cluster to another replica; the write was not sent")]
    HandedOver {
        /// The member cluster.
        cluster: String,
    },
}

impl ClusterFenced {
    /// The refusal inside `error`, if that is what it is.
    pub fn of(error: &kube::Error) -> Option<&Self> {
        let kube::Error::Service(source) = error else {
            return None;
        };
        let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(source.as_ref());
        while let Some(error) = cause {
            if let Some(fenced) = error.downcast_ref::<Self>() {
                return Some(fenced);
            }
            cause = error.source();
        }
        None
    }
}

/// Whether a cluster's reconciles may still write to it.
#[derive(Clone)]
pub(crate) struct Admission {
    cluster: Arc<str>,
    stop: Stop,
    /// The ring's shards and the cluster's slot, in a sharded manager.
    served: Option<(Shards, u8)>,
}

impl Admission {
    pub(crate) fn new(cluster: Arc<str>, stop: Stop, shards: Option<&Shards>) -> Self {
        let served = shards.map(|shards| (shards.clone(), cluster_slot(&cluster)));
        Self { cluster, stop, served }
    }

    fn check(&self) -> Result<(), ClusterFenced> {
        if !self.stop.in_term() {
            return Err(ClusterFenced::TermEnded {
                cluster: self.cluster.to_string(),
            });
        }
        match &self.served {
            Some((shards, slot)) if !shards.serving().contains(*slot) => Err(ClusterFenced::HandedOver {
                cluster: self.cluster.to_string(),
            }),
            _ => Ok(()),
        }
    }

    /// `client` with its writes checked by this admission just before they are sent.
    pub(crate) fn client(&self, client: kube::Client) -> kube::Client {
        let namespace = client.default_namespace().to_owned();
        kube::Client::new(
            Admitted {
                inner: client,
                admission: self.clone(),
            },
            namespace,
        )
    }
}

#[derive(Clone)]
struct Admitted {
    inner: kube::Client,
    admission: Admission,
}

impl tower_service::Service<Request<Body>> for Admitted {
    type Response = Response<Body>;
    type Error = BoxError;
    type Future = BoxFuture<'static, Result<Response<Body>, BoxError>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        let client = self.inner.clone();
        let admission = self.admission.clone();
        let write = matches!(
            *request.method(),
            Method::POST | Method::PUT | Method::PATCH | Method::DELETE
        );
        // Checked when first polled: kube's buffer may call `call` well before.
        Box::pin(async move {
            if write {
                admission.check()?;
            }
            client.send(request).await.map_err(BoxError::from)
        })
    }
}

#[cfg(test)]
mod tests {
    use k8s_openapi::api::core::v1::ConfigMap;
    use kube::api::{Api, PostParams};
    use wheelhouse_cache::shard::ShardKey;
    use wheelhouse_envtest::{ApiServer, ServerOptions, Verb};
    use wheelhouse_manager::CancellationToken;

    use super::*;

    fn config_map(name: &str) -> ConfigMap {
        let mut config = ConfigMap::default();
        config.metadata.name = Some(name.into());
        config
    }

    #[tokio::test]
    async fn writes_to_a_cluster_pass_only_while_it_is_served_here() {
        let server = ApiServer::new(ServerOptions::default());
        let client = kube::Client::new(server.clone(), "default");
        let shards = Shards::new(ShardKey::Uid);
        let admission = Admission::new("eu-1".into(), Stop::new(CancellationToken::new()), Some(&shards));
        let api: Api<ConfigMap> = Api::default_namespaced(admission.client(client));

        let refused = api.create(&PostParams::default(), &config_map("a")).await.unwrap_err();
        assert_eq!(
            ClusterFenced::of(&refused),
            Some(&ClusterFenced::HandedOver { cluster: "eu-1".into() }),
            "{refused}"
        );
        assert_eq!(server.request_count(Verb::Create, "configmaps"), 0, "never sent");
        api.get_opt("a").await.expect("reads always pass");

        shards.serve(SlotSet::one(cluster_slot("eu-1")));
        api.create(&PostParams::default(), &config_map("b"))
            .await
            .expect("a write while the cluster is served");
        shards.stop_serving(SlotSet::one(cluster_slot("eu-1"))).await;
        let refused = api.create(&PostParams::default(), &config_map("c")).await.unwrap_err();
        assert!(ClusterFenced::of(&refused).is_some(), "{refused}");
        assert_eq!(server.request_count(Verb::Create, "configmaps"), 1);
    }
}
