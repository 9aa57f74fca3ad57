//! The resource types the server serves, and the documents that describe them: the
//! built-in catalogue generated from k8s-openapi (`catalogue`), the registry of every
//! served type with the types `CustomResourceDefinitions` add (`registry`), the
//! discovery documents, legacy and aggregated (`discovery`), and the `/openapi/v3` documents kubectl reads (`openapi`).
//!
//! May import: `core`. Everything that needs to know what a resource is imports this.

pub(crate) mod catalogue;
pub(crate) mod discovery;
pub(crate) mod openapi;
pub(crate) mod registry;
