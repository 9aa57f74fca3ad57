//! The API verbs, one module each: `read` (get, list, watch), `write` (create, update,
//! patch, delete, deletecollection), `actions` (creates that act instead of storing:
//! binding, eviction, reviews, tokens), `scale` (the `/scale` subresource), `shard`
//! (KEP-5866's `shardSelector` on list, watch and deletecollection), `versions` (what a
//! list or watch may ask of resourceVersions) and `discovery`
//! (the documents describing the API). The dispatcher (`crate::server`) picks one for
//! each request; each takes the parsed request (`crate::request`) and the server.
//!
//! May import every folder below it: `core`, `options`, `resources`, `store`,
//! `request`, `objects`, `admission`, `conversion`, `state`, `patch`, `lifecycle`, `authz`,
//! `kubectl`.

pub(crate) mod actions;
pub(crate) mod discovery;
pub(crate) mod read;
pub(crate) mod scale;
pub(crate) mod shard;
pub(crate) mod versions;
pub(crate) mod write;
