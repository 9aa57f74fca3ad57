//! One admission or conversion request, from bytes to answer, in four steps: the HTTP checks, the
//! body read within the byte budget (counted as bytes arrive, small bodies on a share
//! of their own), the decision on a pool thread within the deadline, and the answer's
//! metrics and span. The body's bytes stay counted until the answer is written.
//!
//! What each kind of bad input gets, and never an accidental allow:
//! - unknown path → 404; not a POST → 405; not `application/json` → 415;
//! - a body over the limit → 413; a body that does not arrive in time → 408; no room
//!   in the byte budget for it (or for an answer larger than it) in time → 429;
//! - not JSON, nested deeper than the limit, not an `AdmissionReview` of
//!   admission.k8s.io/v1, no request → 400;
//! - an object that does not decode as the webhook's type, or whose kind or
//!   resource is not the webhook's → denied, code 400;
//! - a handler that panics → denied, code 500, counted (never allowed, whatever the
//!   configuration's `failurePolicy`);
//! - at `/convert`, a body that is not a `ConversionReview` → 400; a conversion that
//!   fails or panics (counted) → the review's `result.status: Failure`;
//! - no decision by the request's deadline → HTTP 504, counted as such: kube-apiserver
//!   then applies the webhook's `failurePolicy`, exactly as if no answer had come.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use futures::FutureExt as _;
use http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use http::{Method, Response, StatusCode};
use http_body_util::BodyExt as _;
use hyper::body::Body;
use tokio::time::Instant;
use tracing::Instrument as _;
use tracing::field::Empty;
use wheelhouse_manager::serve::{
    AnswerBody, BodyError, BudgetHealth, ByteBudget, NoRoom, Origin, RequestBody, Reserved, Service, panic_message,
};

use crate::conversion::{self, Conversions};
use crate::limits::{DecisionPool, Undecided};
use crate::metrics::{RouteMetrics, WebhookMetrics};
use crate::review::{self, Verdict};

mod route;

pub(crate) use route::Route;

/// The answer to one HTTP request.
pub(crate) type Answer = wheelhouse_manager::serve::Answer;

/// A request refused before a decision: its status and the message that says why.
struct Refusal {
    status: StatusCode,
    message: String,
}

impl Refusal {
    fn new(status: StatusCode, message: String) -> Self {
        Self { status, message }
    }

    fn into_answer(self) -> Answer {
        let mut answer = text(self.status, self.message);
        if self.status == StatusCode::METHOD_NOT_ALLOWED {
            answer
                .headers_mut()
                .insert(http::header::ALLOW, http::HeaderValue::from_static("POST"));
        }
        answer
    }
}

/// What the body reader knows of a request besides its body.
struct BodyOf {
    origin: Origin,
    /// The request line's and fields' bytes, counted with the body's.
    header_bytes: usize,
    declared: Option<usize>,
}

/// The bytes a request's header holds in memory (hyper keeps the fields as slices of
/// what it read): the fields, their separators, and the request line.
fn header_bytes<B>(request: &http::Request<B>) -> usize {
    let fields: usize = request
        .headers()
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + 4)
        .sum();
    let target = request.uri().path_and_query().map_or(1, |target| target.as_str().len());
    fields + target + request.method().as_str().len() + 12
}

/// What every request is held to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RequestLimits {
    pub max_body_bytes: usize,
    pub request_timeout: Duration,
    pub max_nesting_depth: usize,
    pub max_in_flight_bytes: usize,
    pub in_flight_wait: Duration,
    pub decision_threads: usize,
    pub inline_decision_bytes: usize,
}

/// The registered webhooks, the limits every request is held to, and the shared
/// budget and threads they draw on.
pub(crate) struct Dispatcher {
    endpoints: HashMap<String, Endpoint>,
    limits: RequestLimits,
    budget: ByteBudget,
    pool: DecisionPool,
}

#[derive(Clone)]
struct Endpoint {
    handling: Handling,
    metrics: Option<RouteMetrics>,
}

/// What a path answers: admission reviews for one webhook, or conversion reviews
/// for every registered conversion.
#[derive(Clone)]
enum Handling {
    Admission(Arc<dyn Route>),
    Conversion(Arc<Conversions>),
}

impl Dispatcher {
    pub fn new(
        routes: &[(String, Arc<dyn Route>)],
        conversions: &Conversions,
        metrics: Option<&WebhookMetrics>,
        limits: RequestLimits,
        health: BudgetHealth,
    ) -> Self {
        let admission = routes
            .iter()
            .map(|(path, route)| (path.clone(), Handling::Admission(route.clone())));
        let conversion = (!conversions.is_empty()).then(|| {
            (
                conversion::CONVERT_PATH.to_owned(),
                Handling::Conversion(Arc::new(conversions.clone())),
            )
        });
        let endpoints = admission
            .chain(conversion)
            .map(|(path, handling)| {
                let endpoint = Endpoint {
                    handling,
                    metrics: metrics.map(|m| m.for_webhook(&path)),
                };
                (path, endpoint)
            })
            .collect();
        Self {
            endpoints,
            // One maximal body always fits, however small the budget is set; bodies
            // under 64 KiB have an eighth as much again of their own.
            budget: ByteBudget::new(
                limits.max_in_flight_bytes.max(limits.max_body_bytes),
                limits.max_in_flight_bytes / 8,
                limits.in_flight_wait,
            )
            .reporting_to(health),
            pool: DecisionPool::new(limits.decision_threads, limits.inline_decision_bytes),
            limits,
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
        let span = match endpoint.handling {
            Handling::Admission(_) => tracing::info_span!(
                "admission",
                webhook = path,
                uid = Empty,
                kind = Empty,
                operation = Empty,
                allowed = Empty
            ),
            Handling::Conversion(_) => tracing::info_span!(
                "conversion",
                webhook = path,
                uid = Empty,
                desired = Empty,
                objects = Empty,
                converted = Empty
            ),
        };
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
        let declared = match self.check(&request) {
            Ok(declared) => declared,
            Err(refused) => return refused.into_answer(),
        };
        let timeout = request
            .uri()
            .query()
            .and_then(apiserver_timeout)
            .map_or(self.limits.request_timeout, |asked| {
                asked.min(self.limits.request_timeout)
            });
        let deadline = Instant::now() + timeout;
        let of = BodyOf {
            origin: Origin::of(&request),
            header_bytes: header_bytes(&request),
            declared,
        };
        let (body, reserved) = match self.read_body(request.into_body(), of, deadline, timeout).await {
            Ok(read) => read,
            Err(refused) => return refused.into_answer(),
        };
        self.decide(endpoint, body, reserved, deadline, timeout).await
    }

    /// The HTTP checks: a JSON POST whose declared length is within the limit.
    /// Returns the declared length.
    fn check<B>(&self, request: &http::Request<B>) -> Result<Option<usize>, Refusal> {
        if request.method() != Method::POST {
            return Err(Refusal::new(
                StatusCode::METHOD_NOT_ALLOWED,
                format!("webhook requests are POSTed, not sent with {}", request.method()),
            ));
        }
        let content_type = request.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok());
        if !content_type.is_some_and(is_json) {
            return Err(Refusal::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!(
                    "expected Content-Type application/json, got {}",
                    content_type.map_or_else(|| "none".to_owned(), |t| format!("{t:?}"))
                ),
            ));
        }
        let declared = request
            .headers()
            .get(CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        match declared {
            Some(length) if length > self.limits.max_body_bytes as u64 => Err(self.too_large()),
            Some(length) => Ok(usize::try_from(length).ok()),
            None => Ok(None),
        }
    }

    /// Reads the body by `deadline`, holding its bytes (and the header's) in the budget
    /// as they arrive: never from the declared length, which a client may declare and
    /// not send, and which is neither counted nor allocated until the bytes come.
    async fn read_body<B>(
        &self,
        body: B,
        request: BodyOf,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<(Bytes, Reserved), Refusal>
    where
        B: Body<Data = Bytes> + Send,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let declared = request.declared;
        let mut reserved = Reserved::new(request.origin, declared.map(|length| length as u64));
        let refused = |refused: NoRoom| {
            match refused {
            NoRoom::Full { total, waited } => Refusal::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "the webhook server holds its limit of {total} request bytes in flight and had no room for this request within {waited:?}; retry later"
                ),
            ),
            NoRoom::Evicted => Refusal::new(
                StatusCode::REQUEST_TIMEOUT,
                "the request body arrived too slowly while requests waited for room among the webhook server's bytes in flight; it gave its room to them".to_owned(),
            ),
        }
        };
        let late = || {
            Refusal::new(
                StatusCode::REQUEST_TIMEOUT,
                format!("the request body did not arrive within {timeout:?}"),
            )
        };
        let mut buffer = BytesMut::new();
        let reading = async {
            self.budget
                .reserve(&mut reserved, request.header_bytes, deadline)
                .await
                .map_err(refused)?;
            tokio::pin!(body);
            loop {
                let frame = tokio::select! {
                    biased;
                    frame = body.frame() => frame,
                    () = reserved.evicted() => return Err(refused(NoRoom::Evicted)),
                };
                let Some(frame) = frame else { break };
                let frame = frame.map_err(|error| {
                    let error = error.into();
                    let status = if error
                        .downcast_ref::<BodyError>()
                        .is_some_and(|e| matches!(e, BodyError::TooSlow(_)))
                    {
                        StatusCode::REQUEST_TIMEOUT
                    } else {
                        StatusCode::BAD_REQUEST
                    };
                    Refusal::new(status, format!("could not read the request body: {error}"))
                })?;
                let Ok(data) = frame.into_data() else { continue };
                let length = buffer.len() + data.len();
                if length > self.limits.max_body_bytes {
                    return Err(self.too_large());
                }
                self.budget
                    .reserve(&mut reserved, data.len(), deadline)
                    .await
                    .map_err(refused)?;
                if length > buffer.capacity() {
                    // Doubling as bytes arrive, to the declared length at most.
                    let grown = length.max(buffer.capacity() * 2);
                    let grown = declared
                        .filter(|declared| *declared >= length)
                        .map_or(grown, |d| grown.min(d));
                    buffer.reserve(grown - buffer.len());
                }
                buffer.extend_from_slice(&data);
            }
            Ok(())
        };
        tokio::time::timeout_at(deadline, reading).await.map_err(|_| late())??;
        reserved.read_whole();
        Ok((buffer.freeze(), reserved))
    }

    /// Decides on a pool thread: decode, admit, encode, all within `deadline`.
    async fn decide(
        &self,
        endpoint: &Endpoint,
        body: Bytes,
        reserved: Reserved,
        deadline: Instant,
        timeout: Duration,
    ) -> Answer {
        let endpoint = endpoint.clone();
        let body_bytes = body.len();
        let max_depth = self.limits.max_nesting_depth;
        let span = tracing::Span::current();
        // The body's bytes stay counted until both the decision is done with them
        // (it may run on past a 504) and the answer is written.
        let reserved = Arc::new(reserved);
        let held = reserved.clone();
        let decision = async move {
            let _held = held;
            decide(&endpoint, &body, max_depth).await
        };
        match self.pool.run(deadline, body_bytes, decision.instrument(span)).await {
            Ok(answer) => self.held_until_written(answer, reserved, deadline).await,
            Err(Undecided::Panicked(panic)) => {
                tracing::error!(panic, "decoding or encoding a review panicked");
                text(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal error while decoding the review; see the webhook server's log".to_owned(),
                )
            }
            Err(Undecided::Late) => {
                tracing::warn!(
                    ?timeout,
                    threads = self.pool.size(),
                    "the webhook did not decide in time; answered 504"
                );
                text(
                    StatusCode::GATEWAY_TIMEOUT,
                    format!("the webhook did not decide within {timeout:?}"),
                )
            }
            Err(Undecided::Lost) => text(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal error: the decision ended without an answer".to_owned(),
            ),
        }
    }

    /// `answer`, holding the request's bytes, and its own beyond them, until it is
    /// written: a client that does not read its answers holds budget, so it cannot
    /// make memory grow past the budget. An answer larger than its request for which
    /// the budget has no room by the deadline is dropped for a 429.
    async fn held_until_written(&self, answer: Answer, reserved: Arc<Reserved>, deadline: Instant) -> Answer {
        let mut beyond = reserved.beside();
        let extra = answer.body().bytes().len().saturating_sub(reserved.bytes());
        if let Err(refused) = self.budget.reserve(&mut beyond, extra, deadline).await {
            let why = match refused {
                NoRoom::Full { total, waited } => format!(
                    "holds its limit of {total} bytes in flight and had no room for this answer within {waited:?}"
                ),
                NoRoom::Evicted => "gave this answer's room to another request".to_owned(),
            };
            return text(
                StatusCode::TOO_MANY_REQUESTS,
                format!("the webhook server {why}; retry later"),
            );
        }
        answer.map(|body| body.holding((reserved, beyond)))
    }

    fn too_large(&self) -> Refusal {
        Refusal::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request body is over the limit of {} bytes",
                self.limits.max_body_bytes
            ),
        )
    }
}

/// The decision on one body: the review decoded, the route's verdict (or the
/// conversions), the answer encoded.
async fn decide(endpoint: &Endpoint, body: &[u8], max_depth: usize) -> Answer {
    if let Err(message) = review::check_nesting(body, max_depth) {
        return text(StatusCode::BAD_REQUEST, message);
    }
    match &endpoint.handling {
        Handling::Admission(route) => admit(route.as_ref(), endpoint.metrics.as_ref(), body).await,
        Handling::Conversion(conversions) => match conversion::answer(conversions, body, endpoint.metrics.as_ref()) {
            Ok(answer) => json(answer),
            Err(message) => text(StatusCode::BAD_REQUEST, message),
        },
    }
}

/// An admission review decided by `route`. A webhook that panics is caught here, so
/// its answer is a denial naming the request (never an allow, whatever the
/// `failurePolicy`), and counted.
async fn admit(route: &dyn Route, metrics: Option<&RouteMetrics>, body: &[u8]) -> Answer {
    let review = match review::decode(body) {
        Ok(review) => review,
        Err(message) => return text(StatusCode::BAD_REQUEST, message),
    };
    let span = tracing::Span::current();
    let request = &review.request;
    span.record("uid", request.uid.as_str());
    span.record("kind", request.kind.kind.as_str());
    span.record("operation", tracing::field::debug(&request.operation));
    let admitted = AssertUnwindSafe(route.admit(request, review.object, review.old_object))
        .catch_unwind()
        .await;
    let verdict = admitted.unwrap_or_else(|panic| {
        if let Some(metrics) = metrics {
            metrics.panicked();
        }
        tracing::error!(
            panic = %panic_message(&*panic),
            "the webhook panicked; the request is denied"
        );
        Verdict::internal_error(&format!(
            "internal error: the webhook panicked while deciding (request uid {}; see the webhook server's log)",
            request.uid
        ))
    });
    span.record("allowed", verdict.allowed);
    match review::encode(review.api_version, &request.uid, &verdict) {
        Ok(body) => json(body),
        Err(error) => text(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("could not encode the answer: {error}"),
        ),
    }
}

fn json(body: Vec<u8>) -> Answer {
    let mut answer = Response::new(AnswerBody::new(body));
    answer
        .headers_mut()
        .insert(CONTENT_TYPE, http::HeaderValue::from_static("application/json"));
    answer
}

fn is_json(content_type: &str) -> bool {
    let media_type = content_type.split(';').next().unwrap_or_default().trim();
    media_type.eq_ignore_ascii_case("application/json")
}

/// The longest message a refusal carries: decoders' messages may quote what was
/// sent, and an answer must not grow with the request.
const MAX_MESSAGE_BYTES: usize = 4096;

fn text(status: StatusCode, mut message: String) -> Answer {
    if message.len() > MAX_MESSAGE_BYTES {
        let mut cut = MAX_MESSAGE_BYTES;
        while !message.is_char_boundary(cut) {
            cut -= 1;
        }
        message.truncate(cut);
        message.push_str("...");
    }
    let mut answer = Response::new(AnswerBody::new(message));
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

impl Service for Dispatcher {
    async fn call(&self, request: http::Request<RequestBody>) -> Answer {
        self.serve(request).await
    }
}

#[cfg(test)]
mod tests;
