//! The resource quota controller of kube-controller-manager
//! (`pkg/controller/resourcequota`): each quota's status gets `hard` from its spec and
//! `used` from what the objects of its namespace use (`admission::quota::usage_status`).
//! A quota is synced when it or any object of its namespace changes, which stands for
//! kube's replenishment on deletes and its periodic full resync; admission charges
//! usage between syncs, so the two agree once the write is stored.

use std::collections::BTreeSet;

use crate::admission::quota::{quotas_resource, usage_status};
use crate::state::State;

use super::{CONTROLLER_MANAGER, update};

/// Syncs the quotas of `namespace`.
pub(super) fn sync(state: &mut State, namespace: &str) {
    let resource = quotas_resource();
    let Some(quota_type) = state.registry.any_version(&resource) else {
        return;
    };
    let quotas: Vec<_> = state
        .store
        .values(&resource)
        .iter()
        .filter(|q| q["metadata"]["namespace"] == namespace && !super::is_deleting(q))
        .cloned()
        .collect();
    for quota in quotas {
        let status = {
            let registry = &state.registry;
            usage_status(&state.store, &quota, |r| registry.any_version(r).is_some())
        };
        if quota["status"] == status {
            continue;
        }
        let mut desired = (*quota).clone();
        desired["status"] = status;
        update(state, &quota_type, &quota, desired, Some("status"), CONTROLLER_MANAGER);
    }
}

/// The namespaces with quotas among `namespaces`.
pub(super) fn with_quotas(state: &State, namespaces: BTreeSet<String>) -> Vec<String> {
    let quotas = state.store.objects(&quotas_resource());
    namespaces
        .into_iter()
        .filter(|n| quotas.keys().any(|(namespace, _)| namespace == n))
        .collect()
}
