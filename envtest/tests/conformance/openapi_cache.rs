//! The `OpenAPI` documents are cached by clients as kube-openapi's handlers let them:
//! each document (not the v3 index) has an `ETag` (the SHA-512 of the document) that `If-None-Match` turns
//! into 304; a v3 group version asked for by its hashed URL is `public, immutable`,
//! and a stale hash is redirected (301) to the current one.

use wheelhouse_envtest::TestEnv;

use crate::common::start;
use crate::raw::{Answer, send_request};
use crate::served::at_least;

/// GETs `path` as JSON, with `If-None-Match` if given.
async fn get(env: &TestEnv, path: &str, if_none_match: Option<&str>) -> Answer {
    let mut request = http::Request::builder()
        .method(http::Method::GET)
        .uri(path)
        .header(http::header::ACCEPT, "application/json");
    if let Some(etag) = if_none_match {
        request = request.header(http::header::IF_NONE_MATCH, etag);
    }
    let request = request.body(kube::client::Body::empty()).expect("a valid request");
    send_request(&env.client(), request).await
}

fn header(answer: &Answer, name: http::header::HeaderName) -> String {
    answer
        .headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

/// A quoted upper-case SHA-512, as `computeETag` writes it.
fn assert_etag(etag: &str) {
    let hash = etag.trim_matches('"');
    assert!(
        etag.starts_with('"')
            && hash.len() == 128
            && hash.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_lowercase()),
        "a quoted SHA-512: {etag}"
    );
}

#[tokio::test]
async fn openapi_v2_answers_if_none_match_with_304() {
    let env = start().await;
    // Other tests add CRDs, whose definitions a real server adds to the document: a
    // 200 to `If-None-Match` must then carry another ETag, and a few tries meet a
    // quiet moment.
    let mut answered = Vec::new();
    for _ in 0..20 {
        let first = get(&env, "/openapi/v2", None).await;
        assert_eq!(first.code, 200);
        let etag = header(&first, http::header::ETAG);
        assert_etag(&etag);
        let again = get(&env, "/openapi/v2", Some(&etag)).await;
        if again.code == 200 {
            assert_ne!(
                header(&again, http::header::ETAG),
                etag,
                "a 200 means the document changed"
            );
            continue;
        }
        assert_eq!(again.code, 304);
        assert_eq!(header(&again, http::header::ETAG), etag);
        answered.push(etag);
        break;
    }
    assert_eq!(answered.len(), 1, "If-None-Match with the current ETag is 304");
    assert_eq!(get(&env, "/openapi/v2", Some("\"0\"")).await.code, 200);
    env.stop().await;
}

#[tokio::test]
async fn openapi_v3_hashed_urls_are_immutable_and_stale_hashes_redirected() {
    let env = start().await;
    if !at_least(&env, 27, "/openapi/v3 (GA in 1.27)").await {
        env.stop().await;
        return;
    }
    let index = get(&env, "/openapi/v3", None).await;
    assert_eq!(index.code, 200, "{}", index.body);

    let url = index.body["paths"]["apis/apps/v1"]["serverRelativeURL"]
        .as_str()
        .expect("apps/v1 in the index")
        .to_owned();
    let (path, hash) = url.split_once("?hash=").expect("a hashed URL");
    let hashed = get(&env, &url, None).await;
    assert_eq!(hashed.code, 200, "{}", hashed.body);
    assert_eq!(header(&hashed, http::header::ETAG), format!("\"{hash}\""));
    assert_eq!(header(&hashed, http::header::CACHE_CONTROL), "public, immutable");
    assert!(!header(&hashed, http::header::EXPIRES).is_empty());
    assert!(header(&hashed, http::header::VARY).contains("Accept"));
    let cached = get(&env, &url, Some(&format!("\"{hash}\""))).await;
    assert_eq!(cached.code, 304);

    let stale = get(&env, &format!("{path}?hash=0123"), None).await;
    assert_eq!(stale.code, 301);
    assert_eq!(header(&stale, http::header::LOCATION), url);

    let plain = get(&env, path, None).await;
    assert_eq!(plain.code, 200);
    assert_eq!(header(&plain, http::header::ETAG), format!("\"{hash}\""));
    assert_ne!(header(&plain, http::header::CACHE_CONTROL), "public, immutable");
    env.stop().await;
}
