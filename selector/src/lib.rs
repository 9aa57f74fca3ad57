//! Kubernetes label and field selectors, as kube-apiserver reads them: the query-string
//! syntax of list and watch (`app=web,tier in (a,b),!legacy`), parsed token for token
//! as apimachinery's `labels.Parse` and `fields.ParseSelector` parse it and refused with
//! the same messages; the structured `LabelSelector` of webhooks and workloads
//! (`matchLabels` + `matchExpressions`); and the field labels each resource can be
//! selected by ([`Fields`]), as kube's conversion functions and registries list them.
//!
//! - [`LabelSelector`] (`labels`): the selector, its lexer and parser (`labels::parser`).
//! - [`FieldSelector`] and [`Fields`] (`fields`): the syntax, and which fields each
//!   resource exposes (`fields::labels`, with the table of what is ported).
//! - `validation`: the label key and value rules both check, in apimachinery's words.

mod fields;
mod labels;
mod validation;

pub use crate::fields::{FieldSelector, Fields};
pub use crate::labels::LabelSelector;

/// A selector the server cannot parse or does not support; the message is the one
/// kube-apiserver answers it with (in a 400).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SelectorError(String);
