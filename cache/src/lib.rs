//! wheelhouse-cache: shared informers with an indexed store.

mod store;

pub use crate::store::{BY_NAMESPACE, IndexFn, ListOptions, Store, StoreError};
