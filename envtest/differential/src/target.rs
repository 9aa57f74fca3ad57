//! The servers a run compares: the embedded API server in this process, and real
//! kube-apiservers reached through a kubeconfig (loopback only), each answering the
//! same [`Request`]s.

use std::path::Path;
use std::time::Duration;

use std::convert::Infallible;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures::FutureExt;
use http_body_util::BodyExt;
use kube::config::{KubeConfigOptions, Kubeconfig};
use wheelhouse_envtest::{ApiServer, ResponseBody, ServerOptions};

use crate::loopback;
use crate::wire::{Answer, Request, warning_text};

/// How long one request may take before it counts as unanswered: far above any real
/// answer (a slow create takes tens of milliseconds), so it only ends a hung one.
const REQUEST_TIMEOUT: Duration = Duration::from_mins(1);

/// Why a server could not be used.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The kubeconfig could not be read or used.
    #[error("kubeconfig {path}: {message}")]
    Kubeconfig {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// The kubeconfig's server is not on a loopback address.
    #[error("kubeconfig {path}: {source}")]
    NotLoopback {
        /// The file.
        path: String,
        /// Why.
        source: loopback::NotLoopback,
    },
    /// The server did not answer `/version`.
    #[error("{name} did not answer /version: {message}")]
    Version {
        /// The server.
        name: String,
        /// What went wrong.
        message: String,
    },
}

/// One server a run sends its requests to.
pub struct Target {
    /// Its name in the report: `embedded`, or the Kubernetes version (`1.32`).
    pub name: String,
    /// What `/version` says (`v1.32.0-beta.0+cd13ec4ae44e`).
    pub version: String,
    /// Where it is: `in-process`, or the server URL.
    pub address: String,
    client: kube::Client,
    /// The embedded server, kept for as long as the run.
    _embedded: Option<ApiServer>,
}

impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Target")
            .field("name", &self.name)
            .field("version", &self.version)
            .field("address", &self.address)
            .finish_non_exhaustive()
    }
}

impl Target {
    /// A fresh embedded API server in this process, with its default options (the
    /// garbage collector and namespace cleanup on, as on the real servers).
    pub async fn embedded() -> Result<Self, Error> {
        let server = ApiServer::new(ServerOptions::default());
        let client = kube::Client::new(Guarded(server.clone()), "default");
        let version = version_of(&client, "embedded").await?;
        Ok(Self {
            name: "embedded".to_owned(),
            version,
            address: "in-process".to_owned(),
            client,
            _embedded: Some(server),
        })
    }

    /// The server of a kubeconfig's current context, refused unless it is on a loopback
    /// address. Its client never retries (a 429 is an answer to compare) and never uses
    /// a proxy.
    pub async fn from_kubeconfig(path: &Path) -> Result<Self, Error> {
        let shown = path.display().to_string();
        let problem = |message: String| Error::Kubeconfig {
            path: shown.clone(),
            message,
        };
        let kubeconfig = Kubeconfig::read_from(path).map_err(|e| problem(e.to_string()))?;
        let mut config = kube::Config::from_custom_kubeconfig(kubeconfig, &KubeConfigOptions::default())
            .await
            .map_err(|e| problem(e.to_string()))?;
        loopback::check(&config.cluster_url).map_err(|source| Error::NotLoopback {
            path: shown.clone(),
            source,
        })?;
        config.proxy_url = None;
        config.default_retry = false;
        config.read_timeout = Some(REQUEST_TIMEOUT);
        let address = config.cluster_url.to_string();
        let client = kube::Client::try_from(config).map_err(|e| problem(e.to_string()))?;
        let version = version_of(&client, &address).await?;
        Ok(Self {
            name: short_version(&version),
            version,
            address,
            client,
            _embedded: None,
        })
    }

    /// Sends `request` and reads the whole answer; a transport failure or a timeout is
    /// an answer with code 0 that says so.
    pub async fn send(&self, request: &Request) -> Answer {
        let mut builder = http::Request::builder()
            .method(request.method.as_str())
            .uri(&request.path)
            .header(http::header::ACCEPT, "application/json")
            // The same field manager on every server, when a request names none.
            .header(
                http::header::USER_AGENT,
                concat!("envtest-differential/", env!("CARGO_PKG_VERSION")),
            );
        if let Some(content_type) = &request.content_type {
            builder = builder.header(http::header::CONTENT_TYPE, content_type);
        }
        let Ok(http_request) = builder.body(kube::client::Body::from(request.body.clone().into_bytes())) else {
            return Answer::none(format!(
                "the request {} {} could not be built",
                request.method, request.path
            ));
        };
        let response = match tokio::time::timeout(REQUEST_TIMEOUT, self.client.send(http_request)).await {
            Err(_) => return Answer::none(format!("no answer within {} s", REQUEST_TIMEOUT.as_secs())),
            Ok(Err(error)) => return Answer::none(format!("the request failed: {error}")),
            Ok(Ok(response)) => response,
        };
        let code = response.status().as_u16();
        let warnings = response
            .headers()
            .get_all(http::header::WARNING)
            .iter()
            .map(|value| warning_text(&String::from_utf8_lossy(value.as_bytes())))
            .collect();
        let body = match tokio::time::timeout(REQUEST_TIMEOUT, response.into_body().collect_bytes()).await {
            Err(_) => {
                return Answer::none(format!(
                    "the body did not arrive within {} s",
                    REQUEST_TIMEOUT.as_secs()
                ));
            }
            Ok(Err(error)) => return Answer::none(format!("the body could not be read: {error}")),
            Ok(Ok(bytes)) => bytes,
        };
        Answer {
            code,
            body: parse_body(&body),
            warnings,
        }
    }

    /// GETs `path` and returns its JSON body when the answer is 200.
    pub async fn get_json(&self, path: &str) -> Option<serde_json::Value> {
        let answer = self
            .send(&Request {
                method: "GET".to_owned(),
                path: path.to_owned(),
                content_type: None,
                body: String::new(),
            })
            .await;
        (answer.code == 200).then_some(answer.body)
    }
}

/// The reason of the 500 that stands for a panic of the embedded server.
pub const PANICKED: &str = "EmbeddedServerPanicked";

/// The embedded server with its panics caught: a panic while answering becomes a 500
/// whose reason is [`PANICKED`], so a crash is one finding of the run, not its end.
#[derive(Clone)]
struct Guarded<S>(S);

impl<S> tower_service::Service<http::Request<kube::client::Body>> for Guarded<S>
where
    S: tower_service::Service<
            http::Request<kube::client::Body>,
            Response = http::Response<ResponseBody>,
            Error = Infallible,
        > + Clone
        + Send
        + 'static,
    S::Future: Send,
{
    type Response = http::Response<ResponseBody>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<kube::client::Body>) -> Self::Future {
        let mut server = self.0.clone();
        Box::pin(async move {
            let answer = AssertUnwindSafe(async move { server.call(request).await })
                .catch_unwind()
                .await;
            answer.unwrap_or_else(|panic| {
                let message = panic
                    .downcast_ref::<&str>()
                    .map(|m| (*m).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                let status = serde_json::json!({
                    "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "code": 500,
                    "reason": PANICKED, "message": format!("the embedded server panicked: {message}"),
                });
                let body = http_body_util::Full::new(bytes::Bytes::from(status.to_string())).boxed_unsync();
                let mut response = http::Response::new(body);
                *response.status_mut() = http::StatusCode::INTERNAL_SERVER_ERROR;
                Ok(response)
            })
        })
    }
}

/// A body as JSON; a watch stream (JSON values one after another) as
/// `{"stream": [...]}`; anything else as a JSON string of its text.
fn parse_body(body: &[u8]) -> serde_json::Value {
    if let Ok(value) = serde_json::from_slice(body) {
        return value;
    }
    let events: Result<Vec<serde_json::Value>, _> = serde_json::Deserializer::from_slice(body).into_iter().collect();
    match events {
        Ok(events) if !events.is_empty() => serde_json::json!({ "stream": events }),
        _ => serde_json::Value::String(String::from_utf8_lossy(body).into_owned()),
    }
}

async fn version_of(client: &kube::Client, name: &str) -> Result<String, Error> {
    tokio::time::timeout(REQUEST_TIMEOUT, client.apiserver_version())
        .await
        .map_err(|_| Error::Version {
            name: name.to_owned(),
            message: "no answer".to_owned(),
        })?
        .map(|info| info.git_version)
        .map_err(|e| Error::Version {
            name: name.to_owned(),
            message: e.to_string(),
        })
}

/// `1.32` from `v1.32.0-beta.0+cd13ec4ae44e`.
fn short_version(version: &str) -> String {
    let trimmed = version.trim_start_matches('v');
    let mut parts = trimmed.split(['.', '-', '+']);
    match (parts.next(), parts.next()) {
        (Some(major), Some(minor)) => format!("{major}.{minor}"),
        _ => trimmed.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_json_streams_or_text() {
        assert_eq!(parse_body(br#"{"a":1}"#), serde_json::json!({"a": 1}));
        assert_eq!(
            parse_body(b"{\"type\":\"ADDED\"}\n{\"type\":\"BOOKMARK\"}\n"),
            serde_json::json!({"stream": [{"type": "ADDED"}, {"type": "BOOKMARK"}]})
        );
        assert_eq!(
            parse_body(b"404 page not found"),
            serde_json::json!("404 page not found")
        );
        assert_eq!(parse_body(b""), serde_json::json!(""));
    }

    #[tokio::test]
    async fn a_panic_of_the_embedded_server_is_an_answer() {
        use tower_service::Service;
        // A service that always panics stands for a server bug.
        #[derive(Clone)]
        struct Panics;
        impl tower_service::Service<http::Request<kube::client::Body>> for Panics {
            type Response = http::Response<ResponseBody>;
            type Error = Infallible;
            type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;
            fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
                Poll::Ready(Ok(()))
            }
            fn call(&mut self, _: http::Request<kube::client::Body>) -> Self::Future {
                Box::pin(async { panic!("boom") })
            }
        }
        let mut guarded = Guarded(Panics);
        let request = || {
            http::Request::get("/version")
                .body(kube::client::Body::empty())
                .expect("a request")
        };
        let answer = guarded.call(request()).await.expect("infallible");
        assert_eq!(answer.status(), 500);
        let body = answer.into_body().collect().await.expect("a body").to_bytes();
        let status: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
        assert_eq!(status["reason"], PANICKED);
        assert_eq!(status["message"], "the embedded server panicked: boom");
        // The guard around a real server passes its answers through.
        let mut guarded = Guarded(ApiServer::new(ServerOptions::default()));
        let answer = guarded.call(request()).await.expect("infallible");
        assert_eq!(answer.status(), 200);
    }

    #[test]
    fn a_server_is_named_by_its_minor_version() {
        assert_eq!(short_version("v1.32.0-beta.0+cd13ec4ae44e"), "1.32");
        assert_eq!(short_version("v1.19.16"), "1.19");
        assert_eq!(short_version("odd"), "odd");
    }
}
