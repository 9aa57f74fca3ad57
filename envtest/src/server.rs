//! The request dispatcher: [`ApiServer`] as a tower service that kube's `Client` calls
//! in memory (and that `serve_http` also puts on a loopback port), which reads each
//! request, parses what it asks for, applies injected faults and hands it to the read,
//! write or discovery handlers. Also where a new server is put together.
//!
//! May import: every other module; nothing imports it.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http::{Request, Response, header};
use http_body_util::BodyExt;
use parking_lot::Mutex;
use serde_json::{Value, json};

use crate::admission::Webhooks;
use crate::core::{ApiError, ResponseBody, Verb, error_response};
use crate::options::ServerOptions;
use crate::request;
use crate::resources::registry::Registry;
use crate::state::{ApiServer, FaultCounters, Faults, ServerRuntime, Shared, State, Witnesses};
use crate::store::Store;

/// Requests larger than this are refused with 413, as kube-apiserver refuses bodies
/// over its limit (3 MiB objects in etcd, with headroom for JSON).
const MAX_BODY_BYTES: usize = 8 * 1024 * 1024;

impl ApiServer {
    /// A new, empty server with the namespaces every cluster has (`default`,
    /// `kube-system`, `kube-public`, `kube-node-lease`).
    pub fn new(options: ServerOptions) -> Self {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                store: Store::new(options.watch_window),
                registry: Registry::default(),
            }),
            options,
            webhooks: Webhooks::default(),
            faults: Mutex::new(Faults::default()),
            counters: FaultCounters::default(),
            requests: Mutex::new(HashMap::new()),
            non_resource_requests: Mutex::new(BTreeSet::new()),
            authorization_checks: Mutex::new(HashSet::new()),
            witnesses: Witnesses::default(),
            runtime: ServerRuntime::new(),
        });
        let server = Self { shared, user: None };
        for namespace in ["default", "kube-system", "kube-public", "kube-node-lease"] {
            let namespace = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace}});
            server.create_system_object("", "v1", "namespaces", namespace);
        }
        for class in crate::admission::plugins::system_priority_classes() {
            server.create_system_object("scheduling.k8s.io", "v1", "priorityclasses", class);
        }
        server.register_local_apiservices();
        // The history starts after what the server created for itself, as a watch
        // cache's starts at the list it begins with: a watch from before is 410.
        server.shared.state.lock().store.compact();
        crate::controllers::start(&server);
        server
    }

    /// The user a bearer token authenticates as: a `ServiceAccount`'s, for a token the
    /// server issued (`serviceaccounts/token`) that is still valid for the API's audience.
    pub(crate) fn user_of_token(&self, token: &str) -> Option<String> {
        let audiences = [crate::authz::ISSUER.to_owned()];
        crate::authz::authenticate_token(self, token, &audiences)
            .ok()
            .map(|user| user.subject.user)
    }

    /// The local `APIService`s kube-apiserver registers for its built-in group
    /// versions (available from the start, as the strategy makes a local one).
    fn register_local_apiservices(&self) {
        let apis = self.shared.state.lock().registry.local_apiservices();
        for api in apis {
            self.create_system_object("apiregistration.k8s.io", "v1", "apiservices", api);
        }
    }

    fn create_system_object(&self, group: &str, version: &str, plural: &str, object: Value) {
        let mut state = self.shared.state.lock();
        let Some(resource) = state.registry.get(group, version, plural) else {
            return;
        };
        let name = object["metadata"]["name"].as_str().unwrap_or_default().to_owned();
        if let Ok((object, _)) = crate::lifecycle::prepare_new(&resource, None, object, "kube-apiserver") {
            state
                .store
                .write(&resource.group_resource(), (String::new(), name), Some(object));
        }
    }

    /// Handles one request (the whole body already read): protobuf bodies are read as
    /// the JSON they hold, and a client that accepts only protobuf gets protobuf.
    #[cfg(feature = "kubectl")]
    pub(crate) async fn handle(&self, request: Request<Bytes>) -> Response<ResponseBody> {
        let protobuf_answer = crate::kubectl::protobuf::accepts_only_protobuf(request.headers());
        let watch = request::is_watch(request.uri().query());
        let path = request.uri().path().to_owned();
        let response = match crate::kubectl::protobuf::decode_request(request) {
            Ok(request) => self.handle_json(request).await,
            Err(error) => error_response(&error),
        };
        if protobuf_answer {
            return crate::kubectl::protobuf::encode_response(&path, watch, response).await;
        }
        response
    }

    /// Handles one request (the whole body already read). Without the `kubectl` feature
    /// the server speaks JSON only, as a kube-apiserver without the protobuf serializer:
    /// a protobuf body is refused with 415, and a client that accepts only protobuf or
    /// Tables gets 406 (kubectl, which also accepts JSON, gets JSON).
    #[cfg(not(feature = "kubectl"))]
    pub(crate) async fn handle(&self, request: Request<Bytes>) -> Response<ResponseBody> {
        if let Some(error) = request::refuse_kubectl_media(&request) {
            return error_response(&error);
        }
        self.handle_json(request).await
    }

    /// Counts the request and shows it to the witnesses: it arrives here, unless its
    /// client gave it up first (`state::runtime`), when the answer is an error nobody
    /// reads and nothing is done.
    async fn arrive(&self, target: &request::Target, body: &Bytes) -> Result<(), Response<ResponseBody>> {
        let arrived = crate::state::arrive(|| {
            self.count(target);
            self.shared.witnesses.arrive(self, self.user.as_deref(), target, body);
        })
        .await;
        arrived.ok_or_else(|| {
            let message = "the client gave the request up before it arrived".to_owned();
            error_response(&ApiError::new(503, "ServiceUnavailable", message))
        })
    }

    async fn handle_json(&self, request: Request<Bytes>) -> Response<ResponseBody> {
        let (parts, body) = request.into_parts();
        let query = request::parse_query(parts.uri.query());
        let path = parts.uri.path().to_owned();
        let parsed = {
            let state = self.shared.state.lock();
            request::parse(&state.registry, &parts.method, &path, query)
        };
        let mut target = match parsed {
            Ok(Some(mut target)) => {
                target.dry_run = request::query_values(parts.uri.query(), "dryRun");
                target
            }
            Ok(None) => {
                let method = parts.method.as_str().to_ascii_lowercase();
                let key = (self.user.clone(), method, path.clone());
                self.shared.non_resource_requests.lock().insert(key);
                // A copy of the registry (its types are shared): documents are built,
                // `/openapi/v2`'s once per change, without holding the server's lock.
                let registry = self.shared.state.lock().registry.clone();
                return crate::api::discovery::serve(&registry, &parts);
            }
            Err(error) => return error_response(&error),
        };
        let accept = parts
            .headers
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        // No acceptable clause is 406 before anything is done, as kube-apiserver
        // negotiates the answer first (a Table of an unknown version, say).
        let Some(negotiated) = request::negotiation::negotiate(accept, request::negotiation::resource_allows) else {
            return error_response(&request::negotiation::not_acceptable());
        };
        target.metadata_only = negotiated
            .convert
            .is_some_and(|convert| convert.kind.starts_with("PartialObjectMetadata"));
        #[cfg(feature = "kubectl")]
        if matches!(target.verb, Verb::Get | Verb::List | Verb::Watch) {
            target.table = match request::requested(accept, &target.query) {
                Ok(table) => table,
                Err(error) => return error_response(&error),
            };
        }
        if let Err(gone) = self.arrive(&target, &body).await {
            return gone;
        }
        if let Some(error) = self.inject(&target).await {
            return error_response(&error);
        }
        let result = match target.verb {
            Verb::Get => crate::api::read::get(self, &target).await,
            Verb::List => {
                let checked = match crate::api::versions::validate(&target, false) {
                    Ok(()) => crate::api::versions::wait_for_revision(self, &target).await,
                    Err(error) => Err(error),
                };
                match checked {
                    Ok(()) => crate::api::read::list(self, &target).await,
                    Err(error) => Err(error),
                }
            }
            Verb::Watch => {
                crate::api::versions::validate(&target, true).and_then(|()| crate::api::read::watch(self, &target))
            }
            Verb::Create | Verb::Update | Verb::Patch | Verb::Delete | Verb::DeleteCollection => {
                let content_type = parts
                    .headers
                    .get(header::CONTENT_TYPE)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("application/json")
                    .to_owned();
                let user_agent = parts
                    .headers
                    .get(header::USER_AGENT)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or_default()
                    .to_owned();
                let write = crate::api::write::Write {
                    server: self,
                    target: &target,
                    body: &body,
                    content_type: &content_type,
                    user_agent: &user_agent,
                };
                write.run().await
            }
        };
        let mut response = match result {
            Ok(response) => response,
            Err(error) => error_response(&error),
        };
        // A CRD version marked deprecated warns on every request, as kube-apiserver's
        // custom resource handler does before serving it.
        if let Some(warning) = &target.resource.deprecation {
            let escaped = warning.replace('\\', "\\\\").replace('"', "\\\"");
            if let Ok(value) = http::HeaderValue::from_str(&format!("299 - \"{escaped}\"")) {
                response.headers_mut().append(header::WARNING, value);
            }
        }
        response
    }
}

impl<B> tower_service::Service<Request<B>> for ApiServer
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Response = Response<ResponseBody>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    /// The request is handled on the server's own threads (the client's runtime only
    /// waits for the answer), so the test's runtime cannot starve the server; dropping
    /// the returned future cancels the handling, as a client giving up would: a request
    /// given up before it arrived never arrives (`state::runtime`).
    fn call(&mut self, request: Request<B>) -> Self::Future {
        let server = self.clone();
        let handling = self.shared.runtime.spawn(async move {
            server.shared.witnesses.gate(server.user.as_deref()).await;
            let (parts, body) = request.into_parts();
            let limited = http_body_util::Limited::new(body, MAX_BODY_BYTES);
            let bytes = match limited.collect().await {
                Ok(collected) => collected.to_bytes(),
                Err(error) => {
                    let message = format!("the request body could not be read: {error}");
                    let code = if message.contains("length limit") { 413 } else { 400 };
                    let reason = if code == 413 {
                        "RequestEntityTooLarge"
                    } else {
                        "BadRequest"
                    };
                    return error_response(&ApiError::new(code, reason, message));
                }
            };
            server.handle(Request::from_parts(parts, bytes)).await
        });
        Box::pin(async move {
            Ok(handling.await.unwrap_or_else(|error| {
                let message = format!("the embedded API server stopped before answering: {error}");
                error_response(&ApiError::new(503, "ServiceUnavailable", message))
            }))
        })
    }
}

#[cfg(test)]
mod tests;
