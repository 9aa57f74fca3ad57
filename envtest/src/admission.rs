//! Admission, kube-apiserver's step between decoding a write and storing it: the
//! admission plugins a default kube-apiserver runs in process and that change objects
//! (`plugins`: priority, default tolerations, storage and ingress classes, limit
//! ranges...), calls to the registered mutating then validating admission webhooks
//! (`webhooks`, with their HTTPS client, rule matching and `AdmissionReview`s), and
//! between the two the `ValidatingAdmissionPolicies` bound to the request (`policies`),
//! and after the plugins, as kube runs its validating plugins, `ResourceQuota`
//! (`quota`: checks writes against the namespace's quotas and charges their usage).
//! With the plugins, under the server's lock, a Service's cluster IP and node ports are
//! allocated (`allocation`: kube's Service storage does it as it stores the object).
//!
//! May import: `core`, `resources`, `store`, `objects`.

mod allocation;
mod limits;
pub(crate) mod plugins;
pub(crate) mod policies;
pub(crate) mod quota;
mod webhooks;

pub(crate) use self::webhooks::{
    AdmissionAttributes, AdmissionError, Admitted, CallError, Converting, Operation, VersionConverter, Webhooks,
    new_uid,
};
