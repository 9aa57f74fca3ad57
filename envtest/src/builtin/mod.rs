//! What the server does to an object's body before storing it, as kube-apiserver does:
//! fill in the defaults of built-in types, check that a built-in object decodes as its
//! Go type would and keeps the validation rules operators commonly trip over, check
//! CRDs and custom resources against their schemas (through `schema`), and report the
//! fields a type does not declare (`fieldValidation`).

mod defaults;
mod rules;
mod validate;

#[cfg(test)]
mod tests;

pub(crate) use self::defaults::{after_pod_admission, apply as apply_defaults};
pub(crate) use self::rules::immutable_changes;
pub(crate) use self::validate::{field_validation, validate};
