//! `OpenAPI`, both ways: the `/openapi/v3` documents the server publishes for every
//! resource it serves (`documents`, which `kubectl explain` reads and which tell a
//! built-in object's unknown fields), and the check of a value against the keywords of
//! an `OpenAPI` schema, as kube-openapi's validator makes it (`keywords`).

mod documents;
mod keywords;

pub(crate) use self::documents::{group_version, index, unknown_fields};
pub(crate) use self::keywords::{pattern, validate};
