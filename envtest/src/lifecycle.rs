//! An object's life in the store, whatever the verb or caller: what every write does
//! to it before and after storing (`steps`: the fields set on a new object, the side
//! effects of storing CRDs and namespaces; `update_rules`: what an update may change,
//! generation, finalizers; `namespace_strategy`: what each namespace endpoint keeps) and
//! how it is deleted (`deletion`: preconditions, graceful deletion, propagation,
//! finalizers), and who a write is for managed fields (`ownership`: its manager,
//! subresource and reset fields). Client requests (`api`) and the simulated controllers
//! (`controllers`) both go through here, so both keep kube-apiserver's rules.
//!
//! May import: `core`, `options`, `resources`, `store`, `request`, `objects`,
//! `admission`, `patch`, `state`.

pub(crate) mod deletion;
mod namespace_strategy;
mod ownership;
mod steps;
mod update_rules;

pub(crate) use self::ownership::writer;
pub(crate) use self::steps::{
    CRD_CLEANUP_FINALIZER, QuotaOperation, after_delete, charge_quota, check_body_type, check_precondition, check_type,
    commit_create, commit_update, controller_apply, controller_update, dedup_owner_references, has_finalizers,
    namespaces, now, prepare_new, prepare_new_as, prepare_new_validated_later, prepare_update_validated_later,
    record_create, revalidate, scheme,
};
