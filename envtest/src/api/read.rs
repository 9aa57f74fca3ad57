//! The read verbs: get, list (selectors, pagination at a consistent revision) and
//! watch (resume from a revision, bookmarks, streaming initial lists, 410 Gone).
//!
//! # Which revision a read sees
//!
//! The store has one global revision, and every object carries the revision of the
//! write that made it as its `resourceVersion` (`crate::store`). A read takes what it
//! needs under the server's lock and lets go of it before encoding anything: the
//! objects of a resource are a persistent map (`imbl`), so taking a snapshot is a
//! clone of a pointer, and a list of thousands of objects never blocks writers.
//!
//! - **get** reads the current object. kube-apiserver reads from etcd unless the client
//!   asks for `resourceVersion=0`; here there is no cache to lag behind, so both are
//!   the current object.
//! - **list** reads one of three snapshots ([`snapshot`]): the current objects (no
//!   `resourceVersion`, `0`, or `NotOlderThan`: the current state is never older than
//!   anything the client saw); the objects as they were at a revision
//!   (`resourceVersionMatch=Exact`, and every page after the first of a paged list), which
//!   the store rebuilds by undoing the events after it, and which is 410 Gone once the
//!   history no longer reaches back that far. The list's `metadata.resourceVersion` is
//!   the revision it read, so a watch started from it misses nothing and repeats
//!   nothing: the informer's list-then-watch contract.
//! - **Pagination** walks the objects in key order (namespace, name). The `continue`
//!   token carries the revision of the first page and the last key served, so every
//!   page reads the same snapshot, as etcd's paging does. `remainingItemCount` is sent
//!   only when no selector filters the list, as kube-apiserver does: counting what a
//!   selector matches would mean filtering the rest.
//! - **watch** starts at a revision and then follows live writes ([`watch`]): with a
//!   `resourceVersion`, the history after it is replayed (a compacted revision is an
//!   in-stream `ERROR` event with a 410 `Status`, as kube-apiserver sends it, so
//!   clients relist); without one (or `0`), the current objects come first as `ADDED`
//!   (unless `sendInitialEvents=false`);
//!   with `sendInitialEvents=true`, the same, ended by a bookmark annotated
//!   `k8s.io/initial-events-end` at the snapshot's revision. The replay and the
//!   subscription to live writes happen under one lock, so no write falls between
//!   them.
//!
//! Bodies are written from the bytes each object was encoded to when it was stored
//! (the store keeps nothing else of it, `crate::store`), whenever the requested version
//! is the stored one, so a get, a list or a watch event costs a copy of bytes, not a
//! serialization; a multi-version CRD or a metadata-only or Table request decodes and
//! converts per object. Selectors read the labels and names the store keeps beside the
//! bytes; a field selector on other fields decodes the objects it looks at. A CRD version with a conversion webhook has its
//! objects converted by the webhook after the lock is released (`crate::conversion`):
//! a page of a list in one review, a watch's initial events in one, then each event.

mod continuation;

use std::ops::Bound;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use bytes::Bytes;
use futures::StreamExt;
use http::{HeaderValue, Response, StatusCode, header};
use http_body_util::{BodyExt, StreamBody};
use serde_json::{Value, json};

use crate::core::{ApiError, GroupResource, ResourceType, ResponseBody, bytes_response, document, json_response};
use crate::request::Target;
use crate::state::ApiServer;
use crate::store::{Event, EventType, ObjectKey, Objects, Store, Stored, head_api_version};
use wheelhouse_selector::{FieldSelector, LabelSelector};

#[cfg(feature = "kubectl")]
use crate::kubectl::tables::Table;

/// Without the `kubectl` feature nothing is served as a Table (such requests are
/// refused before they get here); an uninhabited stand-in keeps the read paths one.
#[cfg(not(feature = "kubectl"))]
enum Table {}

#[cfg(not(feature = "kubectl"))]
impl Table {
    fn for_target(_: &ApiServer, _: &ResourceType, _: &Target) -> Option<Self> {
        None
    }

    fn of_object(&self, _: &Value, _: impl FnOnce() -> Bytes) -> Vec<u8> {
        match *self {}
    }

    fn row(&self, _: &Value, _: impl FnOnce() -> Bytes) -> Bytes {
        match *self {}
    }

    fn document(&self, _: &Value, _: &[Bytes], _: bool) -> Vec<u8> {
        match *self {}
    }

    fn of_watched(&self, _: &Value, _: impl FnOnce() -> Bytes) -> Bytes {
        match *self {}
    }
}

/// The annotation on the bookmark that ends a streamed initial list.
const INITIAL_EVENTS_END: &str = "k8s.io/initial-events-end";

/// `GET` of one object (or its `/scale`): at the requested version, as a Table, or as
/// `PartialObjectMetadata`, as the client's `Accept` asks; 404 when absent.
pub(crate) async fn get(server: &ApiServer, target: &Target) -> Result<Response<ResponseBody>, ApiError> {
    let resource = &target.resource;
    let name = target.name.as_deref().unwrap_or_default();
    let stored = server.shared.state.lock().store.get_stored(
        &resource.group_resource(),
        target.namespace.as_deref().unwrap_or_default(),
        name,
    );
    let stored = stored.ok_or_else(|| ApiError::not_found(resource, name))?;
    let table = Table::for_target(server, resource, target);
    if target.subresource.as_deref() != Some("scale")
        && table.is_none()
        && !target.metadata_only
        && !crate::conversion::by_webhook(resource)
        && let Some(json) = as_stored(resource, &stored)
    {
        return Ok(bytes_response(StatusCode::OK, json.to_vec()));
    }
    let object = crate::conversion::for_read(&server.shared.webhooks, resource, stored.decode()).await?;
    if target.subresource.as_deref() == Some("scale") {
        return Ok(json_response(
            StatusCode::OK,
            &crate::api::scale::to_scale(resource, &object),
        ));
    }
    if let Some(table) = table {
        let body = table.of_object(&object, || encode(resource, &object));
        return Ok(bytes_response(StatusCode::OK, body));
    }
    if target.metadata_only {
        return Ok(json_response(StatusCode::OK, &metadata_of(&object)));
    }
    Ok(json_response(StatusCode::OK, &at_version(resource, &object)))
}

/// An object as `PartialObjectMetadata`, what metadata-only clients ask for.
fn metadata_of(object: &Value) -> Value {
    json!({"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": object["metadata"]})
}

/// What a list or watch sends of an object: all of it, or its metadata.
fn encode_for(target: &Target, object: &Arc<Value>) -> Bytes {
    if target.metadata_only {
        return Bytes::from(serde_json::to_vec(&metadata_of(object)).unwrap_or_default());
    }
    encode(&target.resource, object)
}

/// What a list or watch sends of a stored version: its bytes when the whole object is
/// asked for at the version it is stored in, else it decoded and converted.
fn encode_stored(target: &Target, stored: &Stored) -> Bytes {
    if !target.metadata_only
        && let Some(json) = as_stored(&target.resource, stored)
    {
        return json;
    }
    encode_for(target, &stored.decode())
}

/// The JSON of `stored` when `resource` serves it as it is stored (the version
/// [`at_version`] leaves as it is), which the head of its JSON tells when it can.
fn as_stored(resource: &ResourceType, stored: &Stored) -> Option<Bytes> {
    let json = stored.json();
    let served = match head_api_version(&json) {
        Some(version) => version == resource.api_version(),
        None => stored.decode()["apiVersion"] == resource.api_version().as_str(),
    };
    served.then_some(json)
}

/// An object as served at the requested version (objects of multi-version CRDs are
/// stored once; events.k8s.io Events are core Events).
fn at_version<'a>(resource: &ResourceType, object: &'a Arc<Value>) -> std::borrow::Cow<'a, Value> {
    crate::resources::catalogue::to_view(resource, object)
}

/// The filters of a list or watch: the namespace of the path, label and field
/// selectors, and a shard selector when the server honours them.
struct Filter {
    namespace: Option<String>,
    labels: LabelSelector,
    fields: FieldSelector,
    shard: Option<crate::api::shard::ShardSelector>,
}

impl Filter {
    fn new(server: &ApiServer, target: &Target) -> Result<Self, ApiError> {
        let labels = LabelSelector::parse(target.param("labelSelector").unwrap_or_default())
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let fields = FieldSelector::parse_for(
            target.param("fieldSelector").unwrap_or_default(),
            &target.resource.selectable_fields(),
        )
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
        Ok(Self {
            namespace: target.namespace.clone(),
            labels,
            fields,
            shard: crate::api::shard::requested(server.options(), target)?,
        })
    }

    /// Whether the list or watch includes the version `stored`: from the names and
    /// labels kept beside its bytes, and `object` (it decoded) only for a field selector
    /// on other fields than its name and namespace.
    fn matches(&self, stored: &Stored, object: impl FnOnce() -> Arc<Value>) -> bool {
        let names = || {
            let mut metadata = json!({"name": stored.name()});
            if !stored.namespace().is_empty() {
                metadata["namespace"] = json!(stored.namespace());
            }
            json!({"metadata": metadata})
        };
        self.namespace.as_deref().is_none_or(|ns| stored.namespace() == ns)
            && self.labels.matches_with(|key| stored.label(key))
            && (self.fields.is_empty()
                || if self.fields_read_names_only(stored) {
                    self.fields.matches(&names())
                } else {
                    self.fields.matches(&object())
                })
            && self.shard.as_ref().is_none_or(|shard| {
                shard.matches(&json!({"metadata": {"uid": stored.uid(), "namespace": stored.namespace()}}))
            })
    }

    /// Whether the field selector reads nothing but the object's name and namespace.
    fn fields_read_names_only(&self, stored: &Stored) -> bool {
        self.fields
            .fields()
            .all(|field| field == "metadata.name" || (field == "metadata.namespace" && !stored.namespace().is_empty()))
    }

    /// Whether no selector narrows the resource (the namespace aside), so the
    /// remaining count of a paged list is known without filtering.
    fn selects_all(&self) -> bool {
        self.labels.is_empty() && self.fields.is_empty() && self.shard.is_none()
    }
}

/// The 410 of a `continue` token whose revision the history no longer reaches.
fn expired_continue() -> ApiError {
    ApiError::gone(
        "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.",
    )
}

/// `LIST`: the objects of a snapshot (see the module docs) that the filters match, in
/// key order, a page of them when `limit` asks, with the revision read and the token
/// of the next page. The snapshot is taken under the lock; filtering and encoding run
/// after it is released.
pub(crate) async fn list(server: &ApiServer, target: &Target) -> Result<Response<ResponseBody>, ApiError> {
    let resource = &target.resource;
    let filter = Filter::new(server, target)?;
    // `limit` is an int64 of ListOptions: not a number is the parameter codec's 400; zero
    // or less is no limit.
    let limit = match target.param("limit") {
        Some(limit) => Some(limit.parse::<i64>().map_err(|_| {
            ApiError::bad_request(format!(
                "strconv.ParseInt: parsing {}: invalid syntax",
                wheelhouse_envtest_schema::errors::go_quote(limit)
            ))
        })?),
        None => None,
    }
    .and_then(|l| usize::try_from(l).ok())
    .filter(|l| *l > 0);
    parse_resource_version(resource, target.param("resourceVersion"))?;
    let group_resource = resource.group_resource();
    let table = Table::for_target(server, resource, target);
    let (objects, revision, start) = {
        let state = server.shared.state.lock();
        snapshot(&state.store, &group_resource, target)?
    };
    let mut page: Vec<(&ObjectKey, Arc<Stored>)> = Vec::new();
    let mut continue_from = None;
    {
        let range: Box<dyn Iterator<Item = (&ObjectKey, &Arc<Stored>)>> = match &start {
            Some(after) => Box::new(objects.range((after.clone(), Bound::Unbounded))),
            None => Box::new(objects.iter()),
        };
        let mut range = range.filter(|(_, o)| filter.matches(o, || o.decode())).peekable();
        while let Some((key, object)) = range.next() {
            page.push((key, object.clone()));
            if limit.is_some_and(|l| page.len() >= l) && range.peek().is_some() {
                continue_from = Some(key.clone());
                break;
            }
        }
    }
    let page = converted_page(server, resource, page).await?;
    let mut items: Vec<Bytes> = Vec::with_capacity(page.len());
    // A built-in list's items carry no kind or apiVersion (the typed list's items are
    // bare structs); a custom resource's keep theirs.
    let typeless = !resource.custom && !target.metadata_only;
    for (stored, converted) in page {
        items.push(match (&table, converted) {
            (Some(table), converted) => {
                let object = converted.unwrap_or_else(|| stored.decode());
                table.row(&object, || encode(resource, &object))
            }
            (None, Some(object)) if typeless => without_type_meta(&encode_for(target, &object)),
            (None, Some(object)) => encode_for(target, &object),
            (None, None) if typeless => without_type_meta(&encode_stored(target, &stored)),
            (None, None) => encode_stored(target, &stored),
        });
    }
    let mut metadata = json!({"resourceVersion": revision.to_string()});
    if let Some(shard) = &filter.shard {
        metadata["shardInfo"] = shard.info();
    }
    if let Some(start) = continue_from {
        let remaining = filter.selects_all().then(|| remaining_after(&objects, &start));
        let token = continuation::encode(resource, target.namespace.as_deref(), revision, &start);
        metadata["continue"] = json!(token);
        if let Some(remaining) = remaining {
            metadata["remainingItemCount"] = json!(remaining);
        }
    }
    if let Some(table) = table {
        return Ok(bytes_response(StatusCode::OK, table.document(&metadata, &items, true)));
    }
    let (kind, api_version) = if target.metadata_only {
        ("PartialObjectMetadataList".to_owned(), "meta.k8s.io/v1".to_owned())
    } else {
        (format!("{}List", resource.kind), resource.api_version())
    };
    Ok(bytes_response(
        StatusCode::OK,
        list_body(&kind, &api_version, &metadata, &items),
    ))
}

/// A page of stored objects as the requested version serves them: those of a CRD
/// version with a conversion webhook converted in one call (`crate::conversion`),
/// each with the object it was converted to, if it was (its bytes encoded at write
/// time are then of no use).
async fn converted_page(
    server: &ApiServer,
    resource: &ResourceType,
    page: Vec<(&ObjectKey, Arc<Stored>)>,
) -> Result<Vec<(Arc<Stored>, Option<Arc<Value>>)>, ApiError> {
    if !crate::conversion::by_webhook(resource) {
        return Ok(page.into_iter().map(|(_, stored)| (stored, None)).collect());
    }
    let stored: Vec<Arc<Stored>> = page.into_iter().map(|(_, stored)| stored).collect();
    let decoded: Vec<Arc<Value>> = stored.iter().map(|s| s.decode()).collect();
    let objects = crate::conversion::list_for_read(&server.shared.webhooks, resource, decoded.clone()).await?;
    Ok(stored
        .into_iter()
        .zip(objects)
        .zip(decoded)
        .map(|((stored, object), decoded)| {
            let converted = !Arc::ptr_eq(&object, &decoded);
            (stored, Some(object).filter(|_| converted))
        })
        .collect())
}

/// The objects a list reads, the revision it reads them at and, for a continuation,
/// the key it continues after: the token's revision for a later page, the exact
/// revision asked for, or else the current objects at the current revision. A revision
/// older than the history is 410 Gone.
fn snapshot(
    store: &Store,
    resource: &GroupResource,
    target: &Target,
) -> Result<(Objects, u64, Option<Bound<ObjectKey>>), ApiError> {
    if let Some(token) = target.param("continue") {
        let (revision, start) = continuation::decode(&target.resource, target.namespace.as_deref(), token)?;
        let objects = store.objects_at(resource, revision).ok_or_else(expired_continue)?;
        return Ok((objects, revision, Some(start)));
    }
    if let (Some(version), Some("Exact")) = (target.param("resourceVersion"), target.param("resourceVersionMatch")) {
        let revision: u64 = version
            .parse()
            .map_err(|_| ApiError::bad_request(format!("invalid resource version: {version}")))?;
        let objects = store
            .objects_at(resource, revision)
            .ok_or_else(|| ApiError::gone("The resourceVersion for the provided list is too old."))?;
        return Ok((objects, revision, None));
    }
    Ok((store.objects(resource), store.revision(), None))
}

/// The JSON of a decoded object as served at `resource`'s version.
fn encode(resource: &ResourceType, object: &Arc<Value>) -> Bytes {
    Bytes::from(serde_json::to_vec(at_version(resource, object).as_ref()).unwrap_or_default())
}

/// The `resourceVersion` of a list or watch, as a number. One that is not is refused
/// as the layer that reads it refuses it: the watch cache's plain error (a 500) for
/// most resources, the storage's 400 for Events, which kube-apiserver does not cache.
fn parse_resource_version(resource: &ResourceType, version: Option<&str>) -> Result<Option<u64>, ApiError> {
    let Some(version) = version.filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    crate::core::parse_uint(version).map(Some).map_err(|why| {
        let quoted = wheelhouse_envtest_schema::errors::go_quote(version);
        let message = format!("resourceVersion: Invalid value: {quoted}: {why}");
        if resource.plural == "events" && matches!(resource.group.as_str(), "" | "events.k8s.io") {
            ApiError::bad_request(format!("invalid resource version: {message}"))
        } else {
            ApiError::new(500, "", message)
        }
    })
}

/// An encoded object without its top-level `apiVersion` and `kind` members, cut from
/// the compact JSON as it is (nothing decoded): how kube-apiserver's typed lists write
/// their items.
fn without_type_meta(json: &[u8]) -> Bytes {
    let mut out = Vec::with_capacity(json.len());
    let mut depth = 0usize;
    let mut i = 0;
    while i < json.len() {
        let byte = json[i];
        match byte {
            b'{' | b'[' => {
                depth += 1;
                out.push(byte);
                i += 1;
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                out.push(byte);
                i += 1;
            }
            b'"' => {
                let end = string_end(json, i);
                let is_key = depth == 1 && json.get(end) == Some(&b':');
                if is_key && matches!(&json[i..end], b"\"apiVersion\"" | b"\"kind\"") {
                    // Skip the key, the colon, the value and one comma.
                    let mut next = value_end(json, end + 1);
                    if json.get(next) == Some(&b',') {
                        next += 1;
                    } else if out.last() == Some(&b',') {
                        out.pop(); // the last member: drop the comma before it
                    }
                    i = next;
                    continue;
                }
                out.extend_from_slice(&json[i..end]);
                i = end;
            }
            _ => {
                out.push(byte);
                i += 1;
            }
        }
    }
    Bytes::from(out)
}

/// The index just past the JSON string that starts at `start` (a quote).
fn string_end(json: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < json.len() {
        match json[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    json.len()
}

/// The index just past the JSON value that starts at `start`.
fn value_end(json: &[u8], start: usize) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    while i < json.len() {
        match json[i] {
            b'"' => {
                i = string_end(json, i);
                if depth == 0 {
                    return i;
                }
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                if depth == 0 {
                    return i;
                }
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            b',' if depth == 0 => return i,
            _ => {}
        }
        i += 1;
    }
    json.len()
}

/// How many objects follow `start`, for `remainingItemCount`.
fn remaining_after(objects: &Objects, start: &(String, String)) -> usize {
    objects
        .range((std::ops::Bound::Excluded(start.clone()), std::ops::Bound::Unbounded))
        .count()
}

/// Writes the list document from the items' JSON, without decoding anything.
fn list_body(kind: &str, api_version: &str, metadata: &Value, items: &[Bytes]) -> Vec<u8> {
    let head = json!({"kind": kind, "apiVersion": api_version, "metadata": metadata});
    document(&head, "items", items)
}

/// One line of a watch stream: `{"type":...,"object":...}` and a newline, the
/// framing of kube-apiserver's JSON watch.
fn watch_line(kind: &str, object: &Value) -> Bytes {
    let json = serde_json::to_vec(object).unwrap_or_default();
    watch_line_of(kind, &json)
}

/// [`watch_line`] around an object already encoded.
fn watch_line_of(kind: &str, json: &[u8]) -> Bytes {
    let mut line = Vec::with_capacity(json.len() + 32);
    line.extend_from_slice(b"{\"type\":\"");
    line.extend_from_slice(kind.as_bytes());
    line.extend_from_slice(b"\",\"object\":");
    line.extend_from_slice(json);
    line.extend_from_slice(b"}\n");
    Bytes::from(line)
}

/// The watch line of an event, from the bytes encoded at its write when the version fits.
fn event_line(resource: &ResourceType, kind: &str, event: &Event) -> Bytes {
    if let Some(json) = as_stored(resource, &event.stored) {
        return watch_line_of(kind, &json);
    }
    watch_line(kind, at_version(resource, event.object()).as_ref())
}

/// A `BOOKMARK` event: the revision a watch has reached, with no object but its kind
/// and `resourceVersion`, so a client that resumes later starts there rather than from
/// a revision the history may have dropped.
///
/// As kube-apiserver's watch cache writes it: an empty object of the type (a built-in
/// one as Go encodes its zero value), and at the end of the initial events the
/// `kubernetes.io/initial-events-list-blueprint` of an empty list of the type (its
/// encoding in base64), from which a client builds the list it streamed.
fn bookmark(resource: &ResourceType, revision: u64, initial_events_end: bool) -> Bytes {
    let mut metadata = json!({"resourceVersion": revision.to_string()});
    if initial_events_end {
        metadata["annotations"] = json!({
            INITIAL_EVENTS_END: "true",
            LIST_BLUEPRINT: base64::engine::general_purpose::STANDARD.encode(list_blueprint(resource)),
        });
    }
    let mut object = json!({"kind": resource.kind, "apiVersion": resource.api_version(), "metadata": metadata});
    crate::resources::go_encoding::encode_as_go(resource, &mut object);
    watch_line("BOOKMARK", &object)
}

/// The annotation of the initial events' bookmark holding the list's blueprint.
const LIST_BLUEPRINT: &str = "kubernetes.io/initial-events-list-blueprint";

/// An empty list of `resource` as kube-apiserver encodes it for the blueprint: a
/// built-in list's Go struct (kind first, no items: null), a custom resource's
/// unstructured map (keys sorted, items empty); each with the encoder's newline.
fn list_blueprint(resource: &ResourceType) -> String {
    let kind = format!("{}List", resource.kind);
    let api_version = resource.api_version();
    let quote = |text: &str| Value::from(text).to_string();
    if resource.custom {
        format!(
            "{{\"apiVersion\":{},\"items\":[],\"kind\":{}}}\n",
            quote(&api_version),
            quote(&kind)
        )
    } else {
        format!(
            "{{\"kind\":{},\"apiVersion\":{},\"metadata\":{{}},\"items\":null}}\n",
            quote(&kind),
            quote(&api_version)
        )
    }
}

/// What a watch event becomes for a filtered watch: an object that starts or stops
/// matching is ADDED or DELETED, as the real server's watch cache reports it.
fn filtered(filter: &Filter, event: &Event) -> Option<&'static str> {
    let now = filter.matches(&event.stored, || event.object().clone());
    let before = event
        .before
        .as_ref()
        .is_some_and(|b| filter.matches(b, || event.previous().cloned().unwrap_or_else(|| b.decode())));
    match event.kind {
        EventType::Added => now.then_some("ADDED"),
        EventType::Deleted => before.then_some("DELETED"),
        EventType::Modified => match (before, now) {
            (true, true) => Some("MODIFIED"),
            (false, true) => Some("ADDED"),
            (true, false) => Some("DELETED"),
            (false, false) => None,
        },
    }
}

/// What a watch asked for, kept by the task that streams it.
struct WatchRequest {
    resource: Arc<ResourceType>,
    metadata_only: bool,
    table: Option<Table>,
    filter: Filter,
    bookmarks: bool,
    timeout: Option<Duration>,
    interval: Duration,
    /// The server, when the watched version converts through a CRD's webhook: each
    /// object is converted before it is sent (`crate::conversion`).
    converter: Option<ApiServer>,
}

impl WatchRequest {
    /// The watch line of an event for this watch.
    fn line(&self, kind: &str, event: &Event) -> Bytes {
        if let Some(table) = &self.table {
            let object = table.of_watched(event.object(), || encode(&self.resource, event.object()));
            return watch_line_of(kind, &object);
        }
        if self.metadata_only {
            return watch_line(kind, &metadata_of(event.object()));
        }
        event_line(&self.resource, kind, event)
    }

    /// The watch line of an object already converted to the watched version.
    fn converted_line(&self, kind: &str, object: &Arc<Value>) -> Bytes {
        if let Some(table) = &self.table {
            let object = table.of_watched(object, || encode(&self.resource, object));
            return watch_line_of(kind, &object);
        }
        if self.metadata_only {
            return watch_line(kind, &metadata_of(object));
        }
        watch_line(kind, object)
    }

    /// The lines of `events` (kind, stored object) through the CRD's conversion
    /// webhook, or the in-stream `ERROR` that ends the watch when conversion fails.
    async fn convert(&self, server: &ApiServer, events: Vec<(&'static str, Arc<Value>)>) -> Result<Vec<Bytes>, Bytes> {
        let (kinds, objects): (Vec<&'static str>, Vec<Arc<Value>>) = events.into_iter().unzip();
        match crate::conversion::list_for_read(&server.shared.webhooks, &self.resource, objects).await {
            Ok(objects) => Ok(kinds
                .into_iter()
                .zip(objects)
                .map(|(kind, object)| self.converted_line(kind, &object))
                .collect()),
            Err(error) => Err(watch_line("ERROR", &error.to_status())),
        }
    }
}

/// `WATCH`: checks what the request asks (`sendInitialEvents` needs
/// `resourceVersionMatch=NotOlderThan`, as kube-apiserver requires), takes its starting
/// lines and subscribes to live writes in one critical section (see the module docs),
/// then streams from a task of its own. The task sends through a bounded channel, so a
/// client that reads slowly holds back only its own stream; events wait in the
/// subscription meanwhile.
pub(crate) fn watch(server: &ApiServer, target: &Target) -> Result<Response<ResponseBody>, ApiError> {
    let resource = target.resource.clone();
    // `crate::api::versions` has checked the parameters go together.
    let send_initial_events = target.param("sendInitialEvents").map(|v| v == "true");
    let version = parse_resource_version(&resource, target.param("resourceVersion"))?;
    let from = match (send_initial_events, target.param("resourceVersion")) {
        (_, None | Some("0")) | (Some(true), Some(_)) => None,
        (_, Some(_)) => version,
    };
    let request = WatchRequest {
        filter: Filter::new(server, target)?,
        bookmarks: target.flag("allowWatchBookmarks"),
        timeout: target
            .param("timeoutSeconds")
            .and_then(|t| t.parse::<u64>().ok())
            .map(Duration::from_secs),
        interval: server.options().bookmark_interval,
        metadata_only: target.metadata_only,
        table: Table::for_target(server, &resource, target),
        converter: crate::conversion::by_webhook(&resource).then(|| server.clone()),
        resource,
    };
    let group_resource = request.resource.group_resource();
    let mut initial: Vec<Bytes> = Vec::new();
    // What a converting watch sends first, converted once the lock is released.
    let mut unconverted: Vec<(&'static str, Arc<Value>)> = Vec::new();
    let converts = request.converter.is_some();
    let (changes, start_revision) = {
        let mut state = server.shared.state.lock();
        let store = &mut state.store;
        let revision = store.revision();
        if let Some(from) = from {
            let Some(events) = store.events_since(&group_resource, from) else {
                let floor = store.floor(&group_resource);
                let gone = ApiError::gone(format!("too old resource version: {from} ({floor})"));
                let line = watch_line("ERROR", &gone.to_status());
                let stream = futures::stream::iter([Ok(http_body::Frame::data(line))]);
                return Ok(stream_response(StreamBody::new(stream).boxed_unsync()));
            };
            for event in events {
                if let Some(kind) = filtered(&request.filter, &event) {
                    if converts {
                        unconverted.push((kind, event.object().clone()));
                    } else {
                        initial.push(request.line(kind, &event));
                    }
                }
            }
        } else if send_initial_events != Some(false) {
            // No revision, or a streamed initial list: the current objects as ADDED.
            for stored in store
                .objects(&group_resource)
                .values()
                .filter(|s| request.filter.matches(s, || s.decode()))
            {
                if converts {
                    unconverted.push(("ADDED", stored.decode()));
                    continue;
                }
                let line = match &request.table {
                    Some(table) => {
                        let object = stored.decode();
                        table.of_watched(&object, || encode(&request.resource, &object))
                    }
                    None => encode_stored(target, stored),
                };
                initial.push(watch_line_of("ADDED", &line));
            }
        }
        if send_initial_events == Some(true) {
            initial.push(bookmark(&request.resource, revision, true));
        }
        // A watch from a revision the server has not reached starts there, as the
        // watch cache's does: the writes up to it are not sent.
        (store.subscribe(&group_resource), revision.max(from.unwrap_or(0)))
    };
    let (line_sender, lines) = tokio::sync::mpsc::channel::<Bytes>(64);
    let initial = Initial {
        unconverted,
        lines: initial,
    };
    tokio::spawn(stream_events(request, initial, changes, start_revision, line_sender));
    let stream = futures::stream::unfold(lines, |mut lines| async move {
        let line = lines.recv().await?;
        Some((Ok(http_body::Frame::data(line)), lines))
    });
    Ok(stream_response(StreamBody::new(stream).boxed_unsync()))
}

/// What a watch sends before live events: the events a converting watch still has to
/// convert, then the lines ready to send (ended by the initial-events bookmark).
struct Initial {
    unconverted: Vec<(&'static str, Arc<Value>)>,
    lines: Vec<Bytes>,
}

/// Sends a watch's initial lines, then its live events and bookmarks, until the
/// client goes, the timeout passes or the server ends the watch.
async fn stream_events(
    request: WatchRequest,
    initial: Initial,
    mut changes: futures::channel::mpsc::UnboundedReceiver<Arc<Event>>,
    start_revision: u64,
    sender: tokio::sync::mpsc::Sender<Bytes>,
) {
    let mut lines = initial.lines;
    if let Some(server) = &request.converter
        && !initial.unconverted.is_empty()
    {
        match request.convert(server, initial.unconverted).await {
            Ok(converted) => lines.splice(0..0, converted).for_each(drop),
            Err(error) => {
                let _ = sender.send(error).await;
                return;
            }
        }
    }
    for line in lines {
        if sender.send(line).await.is_err() {
            return;
        }
    }
    let mut last_revision = start_revision;
    let deadline = request.timeout.map(|t| tokio::time::Instant::now() + t);
    let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + request.interval, request.interval);
    loop {
        let timed_out = async {
            match deadline {
                Some(deadline) => tokio::time::sleep_until(deadline).await,
                None => std::future::pending().await,
            }
        };
        let line = tokio::select! {
            event = changes.next() => {
                let Some(event) = event else { return };
                if event.revision <= start_revision {
                    continue;
                }
                last_revision = event.revision;
                match (filtered(&request.filter, &event), &request.converter) {
                    (Some(kind), Some(server)) => match request.convert(server, vec![(kind, event.object().clone())]).await {
                        Ok(mut converted) => converted.pop(),
                        Err(error) => {
                            let _ = sender.send(error).await;
                            return;
                        }
                    },
                    (kind, _) => kind.map(|kind| request.line(kind, &event)),
                }
            }
            _ = ticker.tick(), if request.bookmarks => Some(bookmark(&request.resource, last_revision, false)),
            () = timed_out => return,
            () = sender.closed() => return,
        };
        if let Some(line) = line
            && sender.send(line).await.is_err()
        {
            return;
        }
    }
}

/// A streamed `200 OK` with a JSON body, the head of every watch.
fn stream_response(body: ResponseBody) -> Response<ResponseBody> {
    let mut response = Response::new(body);
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    *response.status_mut() = StatusCode::OK;
    response
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::without_type_meta;

    fn strip(object: &Value) -> Value {
        let json = serde_json::to_vec(object).expect("encodes");
        serde_json::from_slice(&without_type_meta(&json)).expect("still JSON")
    }

    #[test]
    fn list_items_lose_only_their_top_level_type() {
        let object = json!({"action": "x", "apiVersion": "v1", "data": {"kind": "kept", "apiVersion": "kept"},
            "kind": "ConfigMap", "metadata": {"name": "a\"kind\":"}});
        assert_eq!(
            strip(&object),
            json!({"action": "x", "data": {"kind": "kept", "apiVersion": "kept"}, "metadata": {"name": "a\"kind\":"}})
        );
        assert_eq!(strip(&json!({"kind": "Pod"})), json!({}));
        assert_eq!(
            strip(&json!({"a": [1, {"kind": 2}], "zkind": "x", "kind": "K"})),
            json!({"a": [1, {"kind": 2}], "zkind": "x"})
        );
    }
}
