//! The read verbs: get, list (selectors, pagination at a consistent revision) and
//! watch (resume from a revision, bookmarks, streaming initial lists, 410 Gone).

use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use bytes::Bytes;
use futures::StreamExt;
use http::{HeaderValue, Response, StatusCode, header};
use http_body_util::{BodyExt, StreamBody};
use serde_json::{Value, json};

use crate::registry::ResourceType;
use crate::request::Target;
use crate::selector::{FieldSelector, LabelSelector};
use crate::server::{ApiServer, ResponseBody, bytes_response, json_response};
use crate::status::ApiError;
use crate::store::{Event, EventType, Objects};

/// The annotation on the bookmark that ends a streamed initial list.
const INITIAL_EVENTS_END: &str = "k8s.io/initial-events-end";

pub(crate) fn get(server: &ApiServer, target: &Target) -> Result<Response<ResponseBody>, ApiError> {
    let resource = &target.resource;
    let name = target.name.as_deref().unwrap_or_default();
    let object = server.shared.state.lock().store.get(
        &resource.group_resource(),
        target.namespace.as_deref().unwrap_or_default(),
        name,
    );
    let object = object.ok_or_else(|| ApiError::not_found(resource, name))?;
    if target.subresource.as_deref() == Some("scale") {
        return Ok(json_response(StatusCode::OK, &crate::write::to_scale(&object)));
    }
    Ok(json_response(StatusCode::OK, &at_version(resource, &object)))
}

/// An object as served at the requested version (objects of multi-version CRDs are
/// stored once).
fn at_version<'a>(resource: &ResourceType, object: &'a Arc<Value>) -> std::borrow::Cow<'a, Value> {
    let api_version = resource.api_version();
    if object["apiVersion"] == api_version.as_str() {
        return std::borrow::Cow::Borrowed(object.as_ref());
    }
    let mut converted = object.as_ref().clone();
    converted["apiVersion"] = json!(api_version);
    std::borrow::Cow::Owned(converted)
}

/// The filters of a list or watch.
struct Filter {
    namespace: Option<String>,
    labels: LabelSelector,
    fields: FieldSelector,
}

impl Filter {
    fn new(target: &Target) -> Result<Self, ApiError> {
        let labels = LabelSelector::parse(target.param("labelSelector").unwrap_or_default())
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let fields = FieldSelector::parse(target.param("fieldSelector").unwrap_or_default())
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        Ok(Self {
            namespace: target.namespace.clone(),
            labels,
            fields,
        })
    }

    fn matches(&self, object: &Value) -> bool {
        self.namespace
            .as_deref()
            .is_none_or(|ns| object["metadata"]["namespace"] == ns)
            && self.labels.matches(object["metadata"].get("labels"))
            && self.fields.matches(object)
    }

    fn selects_all(&self) -> bool {
        self.labels.is_empty() && self.fields == FieldSelector::default()
    }
}

/// Where a paged list continues: the revision it reads at and the last key served.
#[derive(serde::Serialize, serde::Deserialize)]
struct Continue {
    v: String,
    rv: u64,
    start: (String, String),
}

fn expired_continue() -> ApiError {
    ApiError::gone(
        "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.",
    )
}

pub(crate) fn list(server: &ApiServer, target: &Target) -> Result<Response<ResponseBody>, ApiError> {
    let resource = &target.resource;
    let filter = Filter::new(target)?;
    let limit = match target.param("limit") {
        Some(limit) => Some(
            limit
                .parse::<usize>()
                .map_err(|_| ApiError::bad_request(format!("invalid limit: {limit}")))?,
        ),
        None => None,
    }
    .filter(|l| *l > 0);
    let group_resource = resource.group_resource();
    let (objects, revision, start) = {
        let state = server.shared.state.lock();
        match target.param("continue") {
            Some(token) => {
                let token = base64::engine::general_purpose::STANDARD
                    .decode(token)
                    .ok()
                    .and_then(|bytes| serde_json::from_slice::<Continue>(&bytes).ok())
                    .ok_or_else(|| ApiError::bad_request("continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)"))?;
                let objects = state
                    .store
                    .objects_at(&group_resource, token.rv)
                    .ok_or_else(expired_continue)?;
                (objects, token.rv, Some(token.start))
            }
            None => match (target.param("resourceVersion"), target.param("resourceVersionMatch")) {
                (Some(version), Some("Exact")) => {
                    let revision: u64 = version
                        .parse()
                        .map_err(|_| ApiError::bad_request(format!("invalid resource version: {version}")))?;
                    let objects = state.store.objects_at(&group_resource, revision).ok_or_else(|| {
                        ApiError::gone(format!(
                            "too old resource version: {revision} ({})",
                            state.store.compacted()
                        ))
                    })?;
                    (objects, revision, None)
                }
                _ => (state.store.objects(&group_resource), state.store.revision(), None),
            },
        }
    };
    let mut items: Vec<&Arc<Value>> = Vec::new();
    let mut continue_from = None;
    let range: Box<dyn Iterator<Item = (&(String, String), &Arc<Value>)>> = match &start {
        Some(after) => Box::new(objects.range((std::ops::Bound::Excluded(after.clone()), std::ops::Bound::Unbounded))),
        None => Box::new(objects.iter()),
    };
    let mut range = range.filter(|(_, o)| filter.matches(o)).peekable();
    while let Some((key, object)) = range.next() {
        items.push(object);
        if limit.is_some_and(|l| items.len() >= l) && range.peek().is_some() {
            continue_from = Some(key.clone());
            break;
        }
    }
    let mut metadata = json!({"resourceVersion": revision.to_string()});
    if let Some(start) = continue_from {
        let remaining = filter.selects_all().then(|| remaining_after(&objects, &start));
        let token = Continue {
            v: "meta.k8s.io/v1".into(),
            rv: revision,
            start,
        };
        let token = base64::engine::general_purpose::STANDARD.encode(serde_json::to_vec(&token).unwrap_or_default());
        metadata["continue"] = json!(token);
        if let Some(remaining) = remaining {
            metadata["remainingItemCount"] = json!(remaining);
        }
    }
    Ok(bytes_response(StatusCode::OK, list_body(resource, &metadata, &items)))
}

fn remaining_after(objects: &Objects, start: &(String, String)) -> usize {
    objects
        .range((std::ops::Bound::Excluded(start.clone()), std::ops::Bound::Unbounded))
        .count()
}

/// Writes the list document without copying the items into a new `Value`.
fn list_body(resource: &ResourceType, metadata: &Value, items: &[&Arc<Value>]) -> Vec<u8> {
    let mut body = Vec::with_capacity(64 + items.len() * 512);
    let head =
        json!({"kind": format!("{}List", resource.kind), "apiVersion": resource.api_version(), "metadata": metadata});
    let head = serde_json::to_string(&head).unwrap_or_default();
    body.extend_from_slice(&head.as_bytes()[..head.len() - 1]);
    body.extend_from_slice(b",\"items\":[");
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            body.push(b',');
        }
        let _ = serde_json::to_writer(&mut body, at_version(resource, item).as_ref());
    }
    body.extend_from_slice(b"]}");
    body
}

/// One line of a watch stream.
fn watch_line(kind: &str, object: &Value) -> Bytes {
    let mut line = serde_json::to_vec(&json!({"type": kind, "object": object})).unwrap_or_default();
    line.push(b'\n');
    Bytes::from(line)
}

fn bookmark(resource: &ResourceType, revision: u64, initial_events_end: bool) -> Bytes {
    let mut metadata = json!({"resourceVersion": revision.to_string()});
    if initial_events_end {
        metadata["annotations"] = json!({INITIAL_EVENTS_END: "true"});
    }
    watch_line(
        "BOOKMARK",
        &json!({"kind": resource.kind, "apiVersion": resource.api_version(), "metadata": metadata}),
    )
}

/// What a watch event becomes for a filtered watch: an object that starts or stops
/// matching is ADDED or DELETED, as the real server's watch cache reports it.
fn filtered(filter: &Filter, event: &Event) -> Option<&'static str> {
    let now = filter.matches(&event.object);
    let before = event.previous.as_deref().is_some_and(|p| filter.matches(p));
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

pub(crate) fn watch(server: &ApiServer, target: &Target) -> Result<Response<ResponseBody>, ApiError> {
    let resource = target.resource.clone();
    let filter = Filter::new(target)?;
    let bookmarks = target.flag("allowWatchBookmarks");
    let send_initial_events = target.param("sendInitialEvents").map(|v| v == "true");
    if send_initial_events.is_some() && target.param("resourceVersionMatch") != Some("NotOlderThan") {
        return Err(ApiError::invalid(
            &resource,
            "",
            &[(
                "resourceVersionMatch",
                "FieldValueForbidden",
                "Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan".into(),
            )],
        ));
    }
    let timeout = target
        .param("timeoutSeconds")
        .and_then(|t| t.parse::<u64>().ok())
        .map(Duration::from_secs);
    let group_resource = resource.group_resource();
    let mut initial: Vec<Bytes> = Vec::new();
    let (live, start_revision) = {
        let mut state = server.shared.state.lock();
        let store = &mut state.store;
        let revision = store.revision();
        let synthetic = match (send_initial_events, target.param("resourceVersion")) {
            (Some(true), _) | (None, None | Some("0")) => true,
            (Some(false), None | Some("0")) => false,
            (_, Some(version)) => {
                let from: u64 = version
                    .parse()
                    .map_err(|_| ApiError::bad_request(format!("invalid resource version: {version}")))?;
                match store.events_since(&group_resource, from) {
                    Some(events) => {
                        for event in events {
                            if let Some(kind) = filtered(&filter, &event) {
                                initial.push(watch_line(kind, &at_version(&resource, &event.object)));
                            }
                        }
                    }
                    None => {
                        let gone = ApiError::gone(format!("too old resource version: {from} ({})", store.compacted()));
                        initial.push(watch_line("ERROR", &gone.to_status()));
                        let stream = futures::stream::iter(initial.into_iter().map(|b| Ok(http_body::Frame::data(b))));
                        return Ok(stream_response(StreamBody::new(stream).boxed_unsync()));
                    }
                }
                false
            }
        };
        if synthetic {
            for object in store.objects(&group_resource).values().filter(|o| filter.matches(o)) {
                initial.push(watch_line("ADDED", &at_version(&resource, object)));
            }
        }
        if send_initial_events == Some(true) {
            initial.push(bookmark(&resource, revision, true));
        }
        (store.subscribe(&group_resource), revision)
    };
    let (sender, receiver) = tokio::sync::mpsc::channel::<Bytes>(64);
    let interval = server.options().bookmark_interval;
    tokio::spawn(async move {
        for line in initial {
            if sender.send(line).await.is_err() {
                return;
            }
        }
        let mut live = live;
        let mut last_revision = start_revision;
        let deadline = timeout.map(|t| tokio::time::Instant::now() + t);
        let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + interval, interval);
        loop {
            let timed_out = async {
                match deadline {
                    Some(deadline) => tokio::time::sleep_until(deadline).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                event = live.next() => {
                    let Some(event) = event else { return };
                    last_revision = event.revision;
                    if let Some(kind) = filtered(&filter, &event)
                        && sender.send(watch_line(kind, &at_version(&resource, &event.object))).await.is_err()
                    {
                        return;
                    }
                }
                _ = ticker.tick(), if bookmarks => {
                    if sender.send(bookmark(&resource, last_revision, false)).await.is_err() {
                        return;
                    }
                }
                () = timed_out => return,
                () = sender.closed() => return,
            }
        }
    });
    let stream = futures::stream::unfold(receiver, |mut receiver| async move {
        let line = receiver.recv().await?;
        Some((Ok(http_body::Frame::data(line)), receiver))
    });
    Ok(stream_response(StreamBody::new(stream).boxed_unsync()))
}

fn stream_response(body: ResponseBody) -> Response<ResponseBody> {
    let mut response = Response::new(body);
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    *response.status_mut() = StatusCode::OK;
    response
}
