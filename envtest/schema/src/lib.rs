//! wheelhouse-envtest-schema: custom resources against their CRD's structural schema,
//! and CRDs against what the apiextensions server accepts, with kube-apiserver's 422
//! messages and field paths. The embedded API server of `wheelhouse-envtest` calls it
//! on every write of a CRD or a custom resource; it knows nothing of the server (no
//! request, storage or state), only JSON values and their schemas.
//!
//! Reading order, from the entry points down:
//!
//! - [`admit()`] (`admit.rs`): a custom resource's write, in apiextensions-apiserver's
//!   order: prune, default, validate; [`unknown_fields`] for `fieldValidation`.
//! - [`definition`]: a CRD when it is written, its definition field by field; its
//!   schemas through `crd` (with `structural` for the structural rules and
//!   `default_values` for their defaults).
//! - The checks a value goes through: `prune` (unknown fields, defaults, `null`s),
//!   `keywords` (kube-openapi's value constraints, with [`formats`]), `embedded`
//!   (embedded resources), `listtype` (`x-kubernetes-list-type`) and `cel`
//!   (`x-kubernetes-validations`, with Kubernetes' CEL libraries).
//! - What they share: [`errors`] (apimachinery's field errors, printed as Go prints
//!   them), `walk` (the walk over a value and its schema) and [`names`]
//!   (apimachinery's name checks, also used by the server for built-in objects).
//!
//! Nothing here imports the server: `tests/module_graph.rs` at the workspace root checks
//! it, so the schema rules can be read, tested and changed on their own.

mod admit;
mod cel;
mod crd;
mod default_values;
pub mod definition;
mod embedded;
pub mod errors;
pub mod formats;
pub mod go_syntax;
mod keywords;
mod listtype;
pub mod names;
mod prune;
mod structural;
mod walk;

pub use crate::admit::{Write, admit, admit_applied, decode, decode_applied, unknown_fields};
pub use crate::cel::policy::{PolicyExpression, PolicyType, PolicyValue, Returns};
pub use crate::cel::quantity::Quantity;
