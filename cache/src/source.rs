//! [`Source`]: the stream of watch events an informer consumes. Its own module because
//! the plain informer, the sharded watch groups and the cache that builds them all name it.

use futures::stream::BoxStream;
use kube::runtime::watcher;

/// The watcher events an informer consumes (already with backoff on errors).
pub type Source<K> = BoxStream<'static, Result<watcher::Event<K>, watcher::Error>>;
