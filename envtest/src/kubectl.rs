//! What kubectl asks for beyond JSON (feature `kubectl`): protobuf request bodies,
//! answers and watch streams (`protobuf`), and Table output with kube-apiserver's
//! columns (`tables`).
//!
//! May import: `core`, `resources`, `request`, `state`, `store`.

pub(crate) mod protobuf;
pub(crate) mod tables;
