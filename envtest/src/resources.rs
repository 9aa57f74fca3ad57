//! The resource types the server serves, and the documents that describe them: the
//! built-in catalogue generated from k8s-openapi (`catalogue`), the registry of every
//! served type with the types `CustomResourceDefinitions` add (`registry`), the
//! discovery documents, legacy and aggregated (`discovery`), and the `/openapi/v3` documents kubectl reads (`openapi`).
//!
//! May import: `core`. Everything that needs to know what a resource is imports this.

pub(crate) mod catalogue;
pub(crate) mod discovery;
pub(crate) mod go_encoding;
/// Facts about Kubernetes' Go types that its API documents do not carry (which fields
/// Go leaves out at zero, ...), generated from its source beside the protobuf
/// transcoder's descriptors (`envtest/tools/protobuf-descriptors`).
#[cfg_attr(not(feature = "kubectl"), allow(dead_code, reason = "the transcoder's tables"))]
#[path = "kubectl/protobuf/go_facts.rs"]
pub(crate) mod go_facts;
pub(crate) mod openapi;
pub(crate) mod registry;
