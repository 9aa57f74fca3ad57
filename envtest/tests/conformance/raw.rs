//! Requests written out by hand, for what typed clients never send (a body naming
//! another object, options in the query instead of the body) and to read answers as
//! they come (a `Status` where kube would turn it into an `Either`).

use http_body_util::BodyExt as _;
use serde_json::Value;

/// What the server answered: code and JSON body (Null when the body is not JSON).
pub(crate) struct Answer {
    pub(crate) code: u16,
    pub(crate) headers: http::HeaderMap,
    pub(crate) body: Value,
}

/// Sends `method path` with a JSON body (none when `body` is None).
pub(crate) async fn send(client: &kube::Client, method: http::Method, path: &str, body: Option<&Value>) -> Answer {
    let bytes = body
        .map(|b| serde_json::to_vec(b).expect("JSON encodes"))
        .unwrap_or_default();
    let request = http::Request::builder()
        .method(method)
        .uri(path)
        .header(http::header::CONTENT_TYPE, "application/json")
        .header(http::header::ACCEPT, "application/json")
        .body(kube::client::Body::from(bytes))
        .expect("a valid request");
    send_request(client, request).await
}

/// Sends a request as built and reads the answer.
pub(crate) async fn send_request(client: &kube::Client, request: http::Request<kube::client::Body>) -> Answer {
    let response = client.send(request).await.expect("the request reaches the server");
    let code = response.status().as_u16();
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.expect("the body is read").to_bytes();
    Answer {
        code,
        headers: parts.headers,
        body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    }
}

/// GETs `path` and reads the answer as text: code, content type and body.
pub(crate) async fn get_text(client: &kube::Client, path: &str) -> (u16, String, String) {
    let request = http::Request::builder()
        .method(http::Method::GET)
        .uri(path)
        .body(kube::client::Body::empty())
        .expect("a valid request");
    let response = client.send(request).await.expect("the request reaches the server");
    let code = response.status().as_u16();
    let content_type = response
        .headers()
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("the body is read")
        .to_bytes();
    (code, content_type, String::from_utf8_lossy(&bytes).into_owned())
}
