//! wheelhouse-cache: shared informers with an indexed store.
//!
//! - [`Store`]: the objects of one informer, as `Arc<K>` (reads never copy), with a
//!   namespace index and any custom indexes, kept exact on every change.
//! - [`Informer`]: one watch (kube's `watcher`: list, watch, resume, relist on 410,
//!   backoff of 0.2 s doubling to at most 2 s, so a cache is fresh again within 2 s
//!   of its API server coming back) feeding a store and any number of [`Subscription`]s, which receive
//!   [`Event::Added`], [`Event::Updated`] and [`Event::Deleted`] in order, including
//!   deletes a relist discovers.
//! - [`Cache`]: the shared informer factory a manager holds: asking twice for the same
//!   type and scope returns the same informer, so one watch serves every reader.
//!   Which of its options to use at which scale (the transform that drops
//!   managedFields, metadata-only informers, the list page size) is on
//!   [`InformerOptions`]; the figures behind it are in the repository's
//!   `benches/README.md`, section "Scale".
//! - [`shard`]: sharding a controller across replicas: an object's slot by the FNV-1a
//!   hash of its uid (or namespace), and [`Shards`], the slots a replica keeps and
//!   serves. A scope marked [`Scope::sharded`] in a cache made with shards keeps only
//!   this replica's objects, asking the API server for them with KEP-5866's
//!   `shardSelector` where it filters, and filtering them itself where not.
//! - [`error_chain`] and [`name_request_urls`]: errors that say what could not be
//!   reached and why (the URL and every cause), for logs and for [`SyncError`];
//!   [`Outage`]: a run of failures logged once when it starts, summed up every 30 s,
//!   and once when it ends (an informer's watch failing while its API server is away
//!   logs that, not every retry).

mod backoff;
mod cache;
mod decode;
mod informer;
mod metrics;
mod outage;
mod relist;
mod report;
pub mod shard;
mod sharded;
mod source;
mod store;
mod subscription;

pub use crate::cache::{Cache, Scope, ScopeKind, SyncError};
pub use crate::informer::{Informer, InformerOptions, Transform, drop_managed_fields};
pub use crate::metrics::CacheMetrics;
pub use crate::outage::{Outage, SUMMARY_EVERY};
pub use crate::report::{BoxError, ErrorChain, RequestError, error_chain, name_request_urls};
pub use crate::shard::{Route, ShardKey, Shards, SlotSet};
pub use crate::source::Source;
pub use crate::store::{BY_NAMESPACE, IndexFn, ListOptions, Store, StoreError, Writer};
pub use crate::subscription::{Event, Origin, Subscription};
