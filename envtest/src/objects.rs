//! What an object's body must be before it is stored, as kube-apiserver's type
//! strategies decide it: the defaults of built-in types (`defaults`), the rules each
//! built-in type keeps that operators commonly trip over (`builtin_rules`; admission
//! policies and webhook configurations in `registrations`, Events and Leases in
//! `records`), and the
//! checks of `validate`: a built-in object decodes as its Go type would, CRDs and
//! custom resources pass their schemas (the `wheelhouse-envtest-schema` crate), and
//! fields a type does not declare are reported (`fieldValidation`). It looks at one
//! object (and the stored one on an update), never at the server's state.
//!
//! May import: `core`, `resources`.

mod builtin_rules;
mod core_defaults;
mod defaults;
mod records;
mod registrations;
mod validate;

#[cfg(test)]
mod tests;

pub(crate) use self::builtin_rules::immutable_changes;
pub(crate) use self::defaults::{after_pod_admission, apply as apply_defaults};
pub(crate) use self::registrations::declared_names as policy_names;
pub(crate) use self::validate::{field_validation, validate};
