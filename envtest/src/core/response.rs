//! How responses are made: the body type every handler answers with, JSON, plain-text
//! and error responses, and list documents assembled from already encoded items.

use std::convert::Infallible;

use bytes::Bytes;
use http::{HeaderValue, Response, StatusCode, header};
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt, Full};
use serde_json::Value;

use super::ApiError;

/// The body of every response: whole for most, streamed for watches.
pub type ResponseBody = UnsyncBoxBody<Bytes, Infallible>;

/// SHA-512 in upper-case hex, as kube's discovery and `OpenAPI` handlers write `ETags`
/// (`fmt.Sprintf("%X", sha512.Sum512(data))`).
pub(crate) fn sha512_hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let digest = ring::digest::digest(&ring::digest::SHA512, bytes);
    digest
        .as_ref()
        .iter()
        .fold(String::with_capacity(128), |mut hex, byte| {
            let _ = write!(hex, "{byte:02X}");
            hex
        })
}

pub(crate) fn full_body(bytes: impl Into<Bytes>) -> ResponseBody {
    Full::new(bytes.into()).boxed_unsync()
}

pub(crate) fn json_response(status: StatusCode, value: &Value) -> Response<ResponseBody> {
    let bytes = serde_json::to_vec(value).unwrap_or_default();
    bytes_response(status, bytes)
}

pub(crate) fn bytes_response(status: StatusCode, bytes: Vec<u8>) -> Response<ResponseBody> {
    let mut response = Response::new(full_body(bytes));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

pub(crate) fn text_response(status: StatusCode, text: &'static str) -> Response<ResponseBody> {
    let mut response = Response::new(full_body(text));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

pub(crate) fn error_response(error: &ApiError) -> Response<ResponseBody> {
    if error.plain_text {
        return text_response(StatusCode::NOT_FOUND, "404 page not found\n");
    }
    let status = StatusCode::from_u16(error.code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = json_response(status, &error.to_status());
    if let Some(seconds) = error.retry_after {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    response
}

/// A JSON object: the fields of `head`, then `key` holding the already encoded `items`.
pub(crate) fn document(head: &Value, key: &str, items: &[Bytes]) -> Vec<u8> {
    let head = serde_json::to_string(head).unwrap_or_default();
    let size: usize = items.iter().map(|i| i.len() + 1).sum();
    let mut body = Vec::with_capacity(head.len() + key.len() + size + 8);
    body.extend_from_slice(&head.as_bytes()[..head.len().saturating_sub(1)]);
    body.extend_from_slice(b",\"");
    body.extend_from_slice(key.as_bytes());
    body.extend_from_slice(b"\":[");
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            body.push(b',');
        }
        body.extend_from_slice(item);
    }
    body.extend_from_slice(b"]}");
    body
}
