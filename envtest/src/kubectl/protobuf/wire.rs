//! The protobuf envelope and stream framing, and where they meet the server: request
//! bodies are turned into JSON before the server reads them, and answers into protobuf
//! for clients that accept nothing else (kube-apiserver's content negotiation lives in
//! `k8s.io/apiserver/pkg/endpoints/handlers/negotiation`).

use bytes::{BufMut, Bytes, BytesMut};
use futures::StreamExt;
use http::{HeaderValue, Request, Response, StatusCode, header};
use http_body_util::{BodyExt, StreamBody};
use prost::Message;
use prost_reflect::{DynamicMessage, ReflectMessage, Value as Proto};
use serde_json::{Value, json};

use super::schema::{Schema, special};
use super::to_json::{MAGIC, decode_object};
use super::{MEDIA_TYPE, ProtobufError, from_json};
use crate::core::{ApiError, ResponseBody, error_response, full_body};

/// The media type of a protobuf watch stream.
const WATCH_MEDIA_TYPE: &str = "application/vnd.kubernetes.protobuf;stream=watch";

/// Whether a `Content-Type` or `Accept` clause names protobuf.
fn is_protobuf(media_type: &str) -> bool {
    media_type.split(';').next().is_some_and(|t| t.trim() == MEDIA_TYPE)
}

/// True when the client's `Accept` allows protobuf and nothing the server would
/// otherwise answer with (JSON, YAML, any type): such clients get protobuf. Clients
/// that accept both, as kubectl does, get JSON, which they read as well.
pub(crate) fn accepts_only_protobuf(headers: &http::HeaderMap) -> bool {
    let accept = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let clauses: Vec<&str> = accept.split(',').map(str::trim).filter(|c| !c.is_empty()).collect();
    clauses.iter().any(|c| is_protobuf(c) && !c.contains("as="))
        && !clauses.iter().any(|c| {
            let media_type = c.split(';').next().unwrap_or_default().trim();
            matches!(
                media_type,
                "application/json" | "application/yaml" | "*/*" | "application/*"
            )
        })
}

/// A POST or PUT with a protobuf body, as the same request with the JSON object the
/// body holds; any other request unchanged.
pub(crate) fn decode_request(request: Request<Bytes>) -> Result<Request<Bytes>, ApiError> {
    let protobuf = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(is_protobuf);
    let writes = matches!(
        *request.method(),
        http::Method::POST | http::Method::PUT | http::Method::DELETE
    );
    if !protobuf || !writes || request.body().is_empty() {
        return Ok(request);
    }
    let schema = Schema::get().map_err(|e| ApiError::new(500, "InternalError", e.to_string()))?;
    if !schema.serves_path(request.uri().path()) {
        return Err(unsupported_media_type());
    }
    let (mut parts, body) = request.into_parts();
    let object = decode_object(schema, &body)
        .map_err(|e| ApiError::bad_request(format!("the object provided is unrecognized: {e}")))?;
    let json = serde_json::to_vec(&object).map_err(|e| ApiError::bad_request(e.to_string()))?;
    parts
        .headers
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    Ok(Request::from_parts(parts, Bytes::from(json)))
}

/// The answer kube-apiserver gives a protobuf body where it takes JSON only (custom
/// resources, which have no protobuf form).
fn unsupported_media_type() -> ApiError {
    ApiError::new(
        415,
        "UnsupportedMediaType",
        "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml",
    )
}

/// A JSON object (with apiVersion and kind) in a protobuf envelope.
pub(super) fn encode_object(schema: &Schema, object: &Value) -> Result<Vec<u8>, ProtobufError> {
    let text = |name: &str| object.get(name).and_then(Value::as_str).unwrap_or_default();
    let (api_version, kind) = (text("apiVersion"), text("kind"));
    let descriptor = schema.message_of(api_version, kind)?;
    let message = from_json::message(schema, &descriptor, object)?;
    let unknown_descriptor = schema
        .message(special::UNKNOWN)
        .ok_or_else(|| ProtobufError::Descriptors(format!("{} is missing", special::UNKNOWN)))?;
    let mut unknown = DynamicMessage::new(unknown_descriptor);
    let type_meta = json!({"apiVersion": api_version, "kind": kind});
    if let Some(field) = unknown.descriptor().get_field_by_name("typeMeta")
        && let prost_reflect::Kind::Message(type_meta_descriptor) = field.kind()
    {
        let type_meta = from_json::message(schema, &type_meta_descriptor, &type_meta)?;
        unknown.set_field(&field, Proto::Message(type_meta));
    }
    unknown.set_field_by_name("raw", Proto::Bytes(Bytes::from(message.encode_to_vec())));
    let mut body = MAGIC.to_vec();
    unknown
        .encode(&mut body)
        .map_err(|e| ProtobufError::bad_value(special::UNKNOWN, e.to_string()))?;
    Ok(body)
}

/// One watch event (`{"type": ..., "object": ...}`) as a length-prefixed `WatchEvent`
/// frame whose object is an envelope, as kube-apiserver streams them.
pub(super) fn encode_watch_event(schema: &Schema, event: &Value) -> Result<Bytes, ProtobufError> {
    let event_type = event["type"].as_str().unwrap_or_default();
    let object = encode_object(schema, &event["object"])?;
    let descriptor = schema
        .message(special::WATCH_EVENT)
        .ok_or_else(|| ProtobufError::Descriptors(format!("{} is missing", special::WATCH_EVENT)))?;
    let mut message = DynamicMessage::new(descriptor);
    message.set_field_by_name("type", Proto::String(event_type.to_owned()));
    if let Some(field) = message.descriptor().get_field_by_name("object")
        && let prost_reflect::Kind::Message(raw_extension) = field.kind()
    {
        let mut raw = DynamicMessage::new(raw_extension);
        raw.set_field_by_name("raw", Proto::Bytes(Bytes::from(object)));
        message.set_field(&field, Proto::Message(raw));
    }
    let encoded = message.encode_to_vec();
    let length = u32::try_from(encoded.len())
        .map_err(|_| ProtobufError::bad_value(special::WATCH_EVENT, "larger than a frame can say"))?;
    let mut frame = BytesMut::with_capacity(encoded.len() + 4);
    frame.put_u32(length);
    frame.put_slice(&encoded);
    Ok(frame.freeze())
}

/// The server's JSON answer in protobuf, for a client that accepts nothing else: a
/// whole body becomes one envelope, a watch stream a stream of `WatchEvent` frames. What
/// has no protobuf form (custom resources) is refused with 406, as kube-apiserver does.
pub(crate) async fn encode_response(
    path: &str,
    watch: bool,
    response: Response<ResponseBody>,
) -> Response<ResponseBody> {
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !json {
        return response;
    }
    let schema = match Schema::get() {
        Ok(schema) => schema,
        Err(error) => return error_response(&ApiError::new(500, "InternalError", error.to_string())),
    };
    let (mut parts, body) = response.into_parts();
    if !schema.serves_path(path) {
        return not_acceptable(schema, parts);
    }
    if watch && parts.status == StatusCode::OK {
        let frames = body
            .into_data_stream()
            .map(move |chunk| {
                let chunk = chunk.unwrap_or_else(|never| match never {});
                serde_json::from_slice::<Value>(&chunk)
                    .map_err(|e| ProtobufError::bad_value("watch event", e.to_string()))
                    .and_then(|event| encode_watch_event(schema, &event))
                    .inspect_err(
                        |error| tracing::debug!(%error, "a watch event has no protobuf form; ending the watch"),
                    )
                    .ok()
            })
            .take_while(|frame| std::future::ready(frame.is_some()))
            .filter_map(|frame| std::future::ready(frame.map(|f| Ok(http_body::Frame::data(f)))));
        parts
            .headers
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(WATCH_MEDIA_TYPE));
        return Response::from_parts(parts, StreamBody::new(frames).boxed_unsync());
    }
    let bytes = match body.collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(never) => match never {},
    };
    let encoded = serde_json::from_slice::<Value>(&bytes)
        .map_err(|e| ProtobufError::bad_value("response", e.to_string()))
        .and_then(|object| encode_object(schema, &object));
    match encoded {
        Ok(encoded) => protobuf_response(parts, encoded),
        Err(error) => {
            tracing::debug!(%error, "an answer has no protobuf form");
            not_acceptable(schema, parts)
        }
    }
}

fn protobuf_response(mut parts: http::response::Parts, encoded: Vec<u8>) -> Response<ResponseBody> {
    parts
        .headers
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(MEDIA_TYPE));
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, full_body(encoded))
}

/// kube-apiserver's refusal of a custom resource asked for as protobuf: a 406 whose
/// Status is itself protobuf, so the client can read it.
fn not_acceptable(schema: &Schema, mut parts: http::response::Parts) -> Response<ResponseBody> {
    let refusal = ApiError::new(
        406,
        "NotAcceptable",
        "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf",
    );
    match encode_object(schema, &refusal.to_status()) {
        Ok(encoded) => {
            parts.status = StatusCode::NOT_ACCEPTABLE;
            protobuf_response(parts, encoded)
        }
        Err(_) => error_response(&refusal),
    }
}
