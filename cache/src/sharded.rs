//! The sharded watch: the events of the objects in this replica's accepted slots,
//! asked of the API server with KEP-5866's `shardSelector` where it filters, and
//! filtered here where it does not.
//!
//! Each time slots are gained, one more watch starts for just those slots (a *group*),
//! so a range change lists only what changed hands; a slot belongs to one group at a
//! time, and a group's events for slots it does not own are dropped, so no object is
//! delivered twice. Lost slots are forgotten at once, and a group left with no slot is
//! stopped. A group that has lost more than half of the slots it watches is replaced
//! by one for the slots it still owns (a list of those), so the events received for
//! other replicas' objects stay under what is received for this one's. Where the server ignores the selector (before 1.36, or without the
//! `ShardedListAndWatch` gate: a probe at start tells, from the list's `shardInfo`),
//! and for children routed by their owner's uid (which no selector can name), there is
//! one unfiltered watch whose objects are filtered by hash here, restarted with a
//! fresh list when slots are gained.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use futures::future::{AbortHandle, Abortable, BoxFuture};
use futures::stream::{BoxStream, SelectAll};
use futures::{FutureExt, StreamExt};
use http::{Request, Response};
use kube::Resource;
use kube::client::Body;
use kube::runtime::watcher;
use serde::Deserialize;
use tokio::sync::mpsc;

use crate::shard::{Route, ServerFiltering, ShardKey, Shards, SlotSet};
use crate::source::Source;
use crate::subscription::Origin;

/// Builds a watch (with backoff) of the informer's objects, with a `shardSelector`
/// when given one.
pub(crate) type MakeWatch<K> = Arc<dyn Fn(Option<String>) -> Source<K> + Send + Sync>;

/// Asks the server for one object with a `shardSelector`: true when the answer's
/// `shardInfo` says it filtered.
pub(crate) type Probe = Arc<dyn Fn(String) -> BoxFuture<'static, Result<bool, kube::Error>> + Send + Sync>;

/// What the sharded watch tells its informer.
pub(crate) enum ShardEvent<K> {
    Apply(K, Origin),
    Delete(K),
    /// These slots are no longer kept: their objects leave the store.
    Forget(SlotSet),
    /// A list of these slots finished: stored objects of theirs it did not list were
    /// deleted meanwhile.
    Listed {
        slots: SlotSet,
        listed: HashSet<(String, String)>,
    },
    Failed(watcher::Error),
}

/// The parts a sharded informer is made of.
pub(crate) struct ShardedWatch<K> {
    pub make: MakeWatch<K>,
    pub probe: Probe,
    pub shards: Shards,
    pub route: Route,
    pub name: String,
}

fn key_of<K: Resource>(object: &K) -> (String, String) {
    let meta = object.meta();
    (
        meta.namespace.clone().unwrap_or_default(),
        meta.name.clone().unwrap_or_default(),
    )
}

impl<K: Resource + Send + 'static> ShardedWatch<K> {
    /// Runs until the receiver is dropped.
    pub(crate) async fn run(self, events: mpsc::Sender<ShardEvent<K>>) {
        let server_side = match (self.route, self.shards.key()) {
            (Route::ControllerOwner, ShardKey::Uid) => false,
            _ => self.server_filters().await,
        };
        let mut state = Groups::new(self, server_side);
        let mut accepted = state.watch.shards.watch_accepted();
        let initial = *accepted.borrow_and_update();
        if !state.change(initial, &events).await {
            return;
        }
        loop {
            tokio::select! {
                changed = accepted.changed() => {
                    if changed.is_err() {
                        return;
                    }
                    let next = *accepted.borrow_and_update();
                    if !state.change(next, &events).await {
                        return;
                    }
                }
                Some((group, item)) = state.streams.next(), if !state.streams.is_empty() => {
                    if !state.handle(group, item, &events).await {
                        return;
                    }
                }
            }
        }
    }

    /// Whether the server honours `shardSelector`, asked until it answers.
    async fn server_filters(&self) -> bool {
        let selector = SlotSet::ALL.selector(self.shards.key());
        let mut delay = Duration::from_millis(200);
        loop {
            match (self.probe)(selector.clone()).await {
                Ok(filters) => {
                    let filtering = if filters {
                        tracing::info!(informer = %self.name, "the API server filters by shardSelector");
                        ServerFiltering::Yes
                    } else {
                        tracing::info!(informer = %self.name, "the API server ignores shardSelector (KEP-5866 needs 1.36+ with the ShardedListAndWatch gate); filtering here");
                        ServerFiltering::No
                    };
                    self.shards.record_server_filtering(filtering);
                    return filters;
                }
                Err(error) => {
                    tracing::warn!(informer = %self.name, error = %crate::error_chain(&error), "could not ask whether the API server filters by shardSelector; retrying");
                    tokio::time::sleep(delay).await;
                    delay = (delay * 2).min(Duration::from_secs(10));
                }
            }
        }
    }
}

type GroupItem<K> = (u64, Result<watcher::Event<K>, watcher::Error>);

/// The running watches and which slots each owns.
///
/// Invariant: `owner[s]` is the only group whose events for slot `s` reach the
/// informer (0: none, the slot is not kept).
struct Groups<K> {
    watch: ShardedWatch<K>,
    server_side: bool,
    current: SlotSet,
    owner: [u64; 64],
    next_group: u64,
    streams: SelectAll<BoxStream<'static, GroupItem<K>>>,
    handles: HashMap<u64, AbortHandle>,
    /// The slots each group's selector names.
    watched: HashMap<u64, SlotSet>,
    listing: HashMap<u64, HashSet<(String, String)>>,
}

impl<K: Resource + Send + 'static> Groups<K> {
    fn new(watch: ShardedWatch<K>, server_side: bool) -> Self {
        Self {
            watch,
            server_side,
            current: SlotSet::EMPTY,
            owner: [0; 64],
            next_group: 1,
            streams: SelectAll::new(),
            handles: HashMap::new(),
            watched: HashMap::new(),
            listing: HashMap::new(),
        }
    }

    /// Starts a group watching `watched`, owning `owned` (with the server filtering,
    /// the same slots; without, every kept slot and no selector).
    fn start_group(&mut self, selector: Option<String>, watched: SlotSet, owned: SlotSet) {
        let group = self.next_group;
        self.next_group += 1;
        for slot in owned.iter() {
            self.owner[usize::from(slot)] = group;
        }
        tracing::debug!(informer = %self.watch.name, ?owned, "watching slots");
        let (handle, registration) = AbortHandle::new_pair();
        let stream = (self.watch.make)(selector).map(move |item| (group, item));
        self.streams.push(Abortable::new(stream, registration).boxed());
        self.handles.insert(group, handle);
        self.watched.insert(group, watched);
    }

    fn owned_by(&self, group: u64) -> SlotSet {
        let mut slots = SlotSet::EMPTY;
        for (slot, owner) in (0_u8..).zip(self.owner) {
            if owner == group {
                slots = slots.union(SlotSet::one(slot));
            }
        }
        slots
    }

    /// Moves to keeping `next`; false once the informer is gone.
    async fn change(&mut self, next: SlotSet, events: &mpsc::Sender<ShardEvent<K>>) -> bool {
        let lost = self.current.minus(next);
        let gained = next.minus(self.current);
        if !lost.is_empty() {
            for slot in lost.iter() {
                self.owner[usize::from(slot)] = 0;
            }
            if events.send(ShardEvent::Forget(lost)).await.is_err() {
                return false;
            }
        }
        if !gained.is_empty() {
            if self.server_side {
                self.start_group(Some(gained.selector(self.watch.shards.key())), gained, gained);
            } else {
                self.start_group(None, SlotSet::ALL, next);
            }
        }
        if self.server_side && !lost.is_empty() {
            let wasteful: Vec<(u64, SlotSet)> = self
                .watched
                .iter()
                .map(|(&group, &watched)| (group, watched, self.owned_by(group)))
                .filter(|(_, watched, owned)| !owned.is_empty() && watched.len() > 2 * owned.len())
                .map(|(group, _, owned)| (group, owned))
                .collect();
            for (_, owned) in wasteful {
                self.start_group(Some(owned.selector(self.watch.shards.key())), owned, owned);
            }
        }
        let owners: HashSet<u64> = self.owner.iter().copied().collect();
        self.handles.retain(|group, handle| {
            let keep = owners.contains(group);
            if !keep {
                handle.abort();
            }
            keep
        });
        self.watched.retain(|group, _| owners.contains(group));
        self.listing.retain(|group, _| owners.contains(group));
        self.current = next;
        true
    }

    fn owns(&self, group: u64, object: &K) -> bool {
        self.watch
            .shards
            .slot_of(object.meta(), self.watch.route)
            .is_some_and(|slot| self.owner[usize::from(slot)] == group)
    }

    /// Passes on what `group`'s watch saw, if it owns it; false once the informer is gone.
    async fn handle(
        &mut self,
        group: u64,
        item: Result<watcher::Event<K>, watcher::Error>,
        events: &mpsc::Sender<ShardEvent<K>>,
    ) -> bool {
        let event = match item {
            Err(error) => ShardEvent::Failed(error),
            Ok(watcher::Event::Init) => {
                if self.handles.contains_key(&group) {
                    self.listing.insert(group, HashSet::new());
                }
                return true;
            }
            Ok(watcher::Event::InitApply(object)) => {
                if !self.owns(group, &object) {
                    return true;
                }
                if let Some(listed) = self.listing.get_mut(&group) {
                    listed.insert(key_of(&object));
                }
                ShardEvent::Apply(object, Origin::List)
            }
            Ok(watcher::Event::Apply(object)) => {
                if !self.owns(group, &object) {
                    return true;
                }
                ShardEvent::Apply(object, Origin::Live)
            }
            Ok(watcher::Event::Delete(object)) => {
                if !self.owns(group, &object) {
                    return true;
                }
                ShardEvent::Delete(object)
            }
            Ok(watcher::Event::InitDone) => match self.listing.remove(&group) {
                Some(listed) => ShardEvent::Listed {
                    slots: self.owned_by(group),
                    listed,
                },
                None => return true,
            },
        };
        events.send(event).await.is_ok()
    }
}

/// `client`, with `shardSelector=<selector>` added to every request: the one a
/// group's watch lists and watches through.
pub(crate) fn with_selector(client: &kube::Client, selector: &str) -> kube::Client {
    let namespace = client.default_namespace().to_owned();
    let parameter: String = form_urlencoded::Serializer::new(String::new())
        .append_pair("shardSelector", selector)
        .finish();
    kube::Client::new(
        SelectorService {
            inner: client.clone(),
            parameter: parameter.into(),
        },
        namespace,
    )
}

#[derive(Clone)]
struct SelectorService {
    inner: kube::Client,
    parameter: Arc<str>,
}

impl tower_service::Service<Request<Body>> for SelectorService {
    type Response = Response<Body>;
    type Error = kube::Error;
    type Future = BoxFuture<'static, Result<Response<Body>, kube::Error>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), kube::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut request: Request<Body>) -> Self::Future {
        let uri = request.uri();
        let with = match uri.query() {
            Some(query) if !query.is_empty() => format!("{}?{query}&{}", uri.path(), self.parameter),
            _ => format!("{}?{}", uri.path(), self.parameter),
        };
        let client = self.inner.clone();
        match with.parse() {
            Ok(uri) => {
                *request.uri_mut() = uri;
                async move { client.send(request).await }.boxed()
            }
            Err(error) => {
                let error = kube::Error::HttpError(http::Error::from(error));
                async move { Err(error) }.boxed()
            }
        }
    }
}

/// The head of a list answer: whether it carries `metadata.shardInfo`.
#[derive(Deserialize)]
struct ListHead {
    #[serde(default)]
    metadata: ListMeta,
}

#[derive(Deserialize, Default)]
struct ListMeta {
    #[serde(rename = "shardInfo")]
    shard_info: Option<serde::de::IgnoredAny>,
}

/// The probe for the collection at `url`: one object, with a selector.
pub(crate) fn probe(client: kube::Client, url: String) -> Probe {
    Arc::new(move |selector: String| {
        let client = client.clone();
        let query: String = form_urlencoded::Serializer::new(String::new())
            .append_pair("limit", "1")
            .append_pair("shardSelector", &selector)
            .finish();
        let url = format!("{url}?{query}");
        async move {
            let request = Request::get(url).body(Vec::new()).map_err(kube::Error::HttpError)?;
            let head: ListHead = client.request(request).await?;
            Ok(head.metadata.shard_info.is_some())
        }
        .boxed()
    })
}
