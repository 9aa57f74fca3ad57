//! What an object's body must be before it is stored, as kube-apiserver's type
//! strategies decide it: the defaults of built-in types (`defaults`, `core_defaults`),
//! the names admission policies declare (`registrations`), a custom resource's scale
//! paths (`custom_scale`), core/v1's conversions on the way to the internal types
//! and back (`core_v1`), and the checks of `validate`: a built-in object decodes as its Go type would, is valid as kube's
//! `pkg/apis/*/validation` says (the `wheelhouse-envtest-validation` crate), CRDs and
//! custom resources pass their schemas (the `wheelhouse-envtest-schema` crate), and
//! fields a type does not declare are reported (`fieldValidation`). It looks at one
//! object (and the stored one on an update), never at the server's state.
//!
//! May import: `core`, `resources`.

mod core_defaults;
mod core_v1;
mod custom_scale;
mod defaults;
mod go_zero;
mod group_defaults;
mod pod_gates;
mod registrations;
mod validate;

#[cfg(test)]
mod tests;

pub(crate) use self::core_defaults::label_namespace;
pub(crate) use self::defaults::{after_pod_admission, apply as apply_defaults, prepare_for_create, prepare_for_update};
pub(crate) use self::go_zero::fill as fill_go_zero_values;
pub(crate) use self::registrations::declared_names as policy_names;
pub(crate) use self::validate::{Decoding, decode, decode_as, duplicate_fields, field_validation, validate};
