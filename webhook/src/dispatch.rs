//! One admission request, from bytes to answer: routing by path, the limits that keep
//! bad input from taking the server down (body size, time, panics), metrics and the
//! request's tracing span.
//!
//! What each kind of bad input gets, and never an accidental allow:
//! - unknown path → 404; not a POST → 405; not `application/json` → 415;
//! - a body over the limit → 413; a body that does not arrive in time → 408;
//! - not JSON, not an `AdmissionReview` of admission.k8s.io/v1, no request → 400;
//! - an object that does not decode as the webhook's type → denied, code 400;
//! - a handler that panics → denied, code 500, counted; one that takes longer than
//!   the request's time → denied, code 504.

use std::any::Any;
use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use futures::FutureExt as _;
use http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use http::{Method, Response, StatusCode};
use http_body_util::{BodyExt as _, Full, LengthLimitError, Limited};
use hyper::body::Body;
use kube::core::Status;
use tokio::time::Instant;
use tracing::Instrument as _;
use tracing::field::Empty;

use crate::handler::Route;
use crate::metrics::{RouteMetrics, WebhookMetrics};
use crate::review::{self, Verdict};

/// The answer to one HTTP request.
pub(crate) type Answer = Response<Full<Bytes>>;

/// The registered webhooks and the limits every request is held to.
pub(crate) struct Dispatcher {
    endpoints: HashMap<String, Endpoint>,
    max_body_bytes: usize,
    request_timeout: Duration,
}

struct Endpoint {
    route: Arc<dyn Route>,
    metrics: Option<RouteMetrics>,
}

impl Dispatcher {
    pub fn new(
        routes: &[(String, Arc<dyn Route>)],
        metrics: Option<&WebhookMetrics>,
        max_body_bytes: usize,
        request_timeout: Duration,
    ) -> Self {
        let endpoints = routes
            .iter()
            .map(|(path, route)| {
                let endpoint = Endpoint {
                    route: route.clone(),
                    metrics: metrics.map(|m| m.for_webhook(path)),
                };
                (path.clone(), endpoint)
            })
            .collect();
        Self {
            endpoints,
            max_body_bytes,
            request_timeout,
        }
    }

    /// Answers one request.
    pub async fn serve<B>(&self, request: http::Request<B>) -> Answer
    where
        B: Body<Data = Bytes> + Send,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let path = request.uri().path();
        let Some(endpoint) = self.endpoints.get(path) else {
            return text(StatusCode::NOT_FOUND, format!("no webhook is served at {path}"));
        };
        let span = tracing::info_span!(
            "admission",
            webhook = path,
            uid = Empty,
            kind = Empty,
            operation = Empty,
            allowed = Empty
        );
        let started = Instant::now();
        let _in_flight = endpoint.metrics.as_ref().map(RouteMetrics::in_flight);
        let answer = self.answer(endpoint, request).instrument(span).await;
        if let Some(metrics) = &endpoint.metrics {
            metrics.answered(answer.status().as_u16(), started.elapsed());
        }
        answer
    }

    async fn answer<B>(&self, endpoint: &Endpoint, request: http::Request<B>) -> Answer
    where
        B: Body<Data = Bytes> + Send,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        if request.method() != Method::POST {
            let mut answer = text(
                StatusCode::METHOD_NOT_ALLOWED,
                format!("admission requests are POSTed, not sent with {}", request.method()),
            );
            answer
                .headers_mut()
                .insert(http::header::ALLOW, http::HeaderValue::from_static("POST"));
            return answer;
        }
        let content_type = request.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok());
        if !content_type.is_some_and(is_json) {
            return text(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!(
                    "expected Content-Type application/json, got {}",
                    content_type.map_or_else(|| "none".to_owned(), |t| format!("{t:?}"))
                ),
            );
        }
        let declared = request
            .headers()
            .get(CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|length| length > self.max_body_bytes as u64) {
            return self.too_large();
        }
        let timeout = request
            .uri()
            .query()
            .and_then(apiserver_timeout)
            .map_or(self.request_timeout, |asked| asked.min(self.request_timeout));
        let deadline = Instant::now() + timeout;

        let body = Limited::new(request.into_body(), self.max_body_bytes).collect();
        let body = match tokio::time::timeout_at(deadline, body).await {
            Ok(Ok(collected)) => collected.to_bytes(),
            Ok(Err(error)) if error.downcast_ref::<LengthLimitError>().is_some() => return self.too_large(),
            Ok(Err(error)) => {
                return text(
                    StatusCode::BAD_REQUEST,
                    format!("could not read the request body: {error}"),
                );
            }
            Err(_) => {
                return text(
                    StatusCode::REQUEST_TIMEOUT,
                    format!("the request body did not arrive within {timeout:?}"),
                );
            }
        };
        let review = match review::decode(&body) {
            Ok(review) => review,
            Err(message) => return text(StatusCode::BAD_REQUEST, message),
        };
        let span = tracing::Span::current();
        let request = &review.request;
        span.record("uid", request.uid.as_str());
        span.record("kind", request.kind.kind.as_str());
        span.record("operation", tracing::field::debug(&request.operation));

        let decided = AssertUnwindSafe(endpoint.route.admit(request, review.object, review.old_object)).catch_unwind();
        let verdict = match tokio::time::timeout_at(deadline, decided).await {
            Ok(Ok(verdict)) => verdict,
            Ok(Err(panic)) => {
                if let Some(metrics) = &endpoint.metrics {
                    metrics.panicked();
                }
                tracing::error!(
                    panic = panic_message(&*panic),
                    "the webhook panicked; the request is denied"
                );
                Verdict::internal_error(&format!(
                    "internal error: the webhook panicked while deciding (request uid {}; see the webhook server's log)",
                    request.uid
                ))
            }
            Err(_) => {
                tracing::warn!(?timeout, "the webhook did not decide in time; the request is denied");
                Verdict::denied(
                    Status::failure(&format!("the webhook did not decide within {timeout:?}"), "Timeout")
                        .with_code(504),
                )
            }
        };
        span.record("allowed", verdict.allowed);
        match review::encode(review.api_version, &request.uid, &verdict) {
            Ok(body) => {
                let mut answer = Response::new(Full::new(Bytes::from(body)));
                answer
                    .headers_mut()
                    .insert(CONTENT_TYPE, http::HeaderValue::from_static("application/json"));
                answer
            }
            Err(error) => text(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("could not encode the answer: {error}"),
            ),
        }
    }

    fn too_large(&self) -> Answer {
        text(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is over the limit of {} bytes", self.max_body_bytes),
        )
    }
}

fn is_json(content_type: &str) -> bool {
    let media_type = content_type.split(';').next().unwrap_or_default().trim();
    media_type.eq_ignore_ascii_case("application/json")
}

fn text(status: StatusCode, message: String) -> Answer {
    let mut answer = Response::new(Full::new(Bytes::from(message)));
    *answer.status_mut() = status;
    answer.headers_mut().insert(
        CONTENT_TYPE,
        http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    answer
}

/// The `timeout` kube-apiserver adds to the webhook's URL (a Go duration: `10s`,
/// `1m30s`, `500ms`): the webhook answers before the API server stops waiting.
fn apiserver_timeout(query: &str) -> Option<Duration> {
    let value = form_pairs(query).find(|(key, _)| *key == "timeout")?.1;
    parse_go_duration(value)
}

fn form_pairs(query: &str) -> impl Iterator<Item = (&str, &str)> {
    query.split('&').filter_map(|pair| pair.split_once('='))
}

fn parse_go_duration(text: &str) -> Option<Duration> {
    let mut total = Duration::ZERO;
    let mut rest = text;
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(rest.len());
        let number: f64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let unit = rest.find(|c: char| c.is_ascii_digit()).unwrap_or(rest.len());
        let seconds = match &rest[..unit] {
            "h" => 3600.0,
            "m" => 60.0,
            "s" => 1.0,
            "ms" => 1e-3,
            "us" | "µs" => 1e-6,
            "ns" => 1e-9,
            _ => return None,
        };
        rest = &rest[unit..];
        total += Duration::try_from_secs_f64(number * seconds).ok()?;
    }
    Some(total)
}

fn panic_message(panic: &(dyn Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without a message")
}

#[cfg(test)]
mod tests;
