//! `ServiceAccount` tokens as kube-apiserver signs and checks them: a `TokenRequest`
//! answers a JWT (RS256 with a `kid`) carrying kube's claims and, for a bound object,
//! its name and uid; the bound object is checked (its kind, that it exists, its uid, a
//! Pod's `ServiceAccount`); a `TokenReview` verifies the signature, the audiences and
//! that the bound object still exists, and names the pod and the token's id in
//! `user.extra`; the issuer's discovery documents list the key that signs.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

use crate::common::{IMAGE, start};
use crate::raw::{Answer, send};
use crate::reviews::{post, token_review as review};
use crate::schema_common::server_minor;

/// The review of `token` once it says `error`: a real server reads service accounts
/// and bound objects from its informers, a moment behind a deletion, and caches a
/// successful authentication for 10 s, so a review right after a change may still see
/// the old state; the embedded server answers so at once.
async fn review_until(env: &wheelhouse_envtest::TestEnv, token: &str, error: &str) -> Value {
    let wanted = json!({"user": {}, "error": error});
    let mut last = Value::Null;
    for _ in 0..300 {
        last = review(env, token, &[]).await;
        if last == wanted {
            return last;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    last
}

/// A JWT's header and claims, unverified.
fn decode(token: &str) -> (Value, Value) {
    let parts: Vec<&str> = token.split('.').collect();
    assert_eq!(parts.len(), 3, "a compact JWS: {token}");
    let part = |text: &str| -> Value {
        serde_json::from_slice(&URL_SAFE_NO_PAD.decode(text).expect("base64url")).expect("JSON")
    };
    (part(parts[0]), part(parts[1]))
}

/// A `ServiceAccount`, a Pod running as it (no token mounted: a real server's
/// `ServiceAccount` admission would want a token Secret no controller makes here) and
/// a Secret, in the test's namespace.
async fn objects(env: &wheelhouse_envtest::TestEnv, account: &str) -> (Value, Value, Value) {
    let namespace = env.namespace();
    let created = |answer: Answer| {
        assert_eq!(answer.code, 201, "{}", answer.body);
        answer.body
    };
    let account = created(
        post(
            env,
            &format!("/api/v1/namespaces/{namespace}/serviceaccounts"),
            &json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": account}}),
        )
        .await,
    );
    let name = account["metadata"]["name"].as_str().expect("a name");
    let pod = created(
        post(
            env,
            &format!("/api/v1/namespaces/{namespace}/pods"),
            &json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": format!("{name}-pod")},
                "spec": {"serviceAccountName": name, "automountServiceAccountToken": false,
                    "nodeName": "token-node", "containers": [{"name": "c", "image": IMAGE}]}}),
        )
        .await,
    );
    let secret = created(
        post(
            env,
            &format!("/api/v1/namespaces/{namespace}/secrets"),
            &json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": format!("{name}-secret")}}),
        )
        .await,
    );
    (account, pod, secret)
}

fn token_path(env: &wheelhouse_envtest::TestEnv, account: &str) -> String {
    format!("/api/v1/namespaces/{}/serviceaccounts/{account}/token", env.namespace())
}

fn token_request(spec: &Value) -> Value {
    json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest", "spec": spec})
}

#[tokio::test]
async fn a_token_request_answers_a_signed_jwt_with_kubes_claims() {
    let env = start().await;
    let minor = server_minor(&env).await;
    let namespace = env.namespace().to_owned();
    let (account, _, _) = objects(&env, "signer").await;
    let account_uid = account["metadata"]["uid"].clone();

    let plain = post(&env, &token_path(&env, "signer"), &token_request(&json!({}))).await;
    assert_eq!(plain.code, 201, "{}", plain.body);
    let token = plain.body["status"]["token"].as_str().expect("a token").to_owned();
    let (header, claims) = decode(&token);
    assert_eq!(header["alg"], "RS256", "{header}");
    let kid = header["kid"].as_str().expect("a kid").to_owned();
    assert_eq!(kid.len(), 43, "the base64url SHA-256 of the public key: {kid}");
    let issuer = claims["iss"].as_str().expect("an issuer").to_owned();
    // Without audiences, the API's own, which is the issuer unless configured.
    assert_eq!(claims["aud"], json!([issuer]), "{claims}");
    assert_eq!(plain.body["spec"]["audiences"], json!([issuer]), "{}", plain.body);
    assert_eq!(plain.body["spec"]["expirationSeconds"], 3600, "{}", plain.body);
    let iat = claims["iat"].as_i64().expect("iat");
    assert_eq!(claims["nbf"].as_i64(), Some(iat), "{claims}");
    assert_eq!(claims["exp"].as_i64(), Some(iat + 3600), "{claims}");
    assert_eq!(claims["sub"], format!("system:serviceaccount:{namespace}:signer"));
    assert_eq!(
        claims["kubernetes.io"],
        json!({"namespace": namespace, "serviceaccount": {"name": "signer", "uid": account_uid}}),
        "{claims}"
    );
    if minor >= 29 {
        assert!(claims["jti"].as_str().is_some_and(|jti| jti.len() == 36), "{claims}");
    }
    let expires: jiff::Timestamp = plain.body["status"]["expirationTimestamp"]
        .as_str()
        .expect("an expiration")
        .parse()
        .expect("RFC 3339");
    assert!((expires.as_second() - (iat + 3600)).abs() <= 1, "{}", plain.body);

    issuer_discovery(&env, minor, &issuer, &kid, &token).await;
    env.stop().await;
}

/// A token bound to a pod names it in its claims and in a `TokenReview`'s `user.extra`,
/// with the token's id; a review for another audience, of a changed signature or of
/// what is not this server's JWT fails as kube words it.
#[tokio::test]
async fn a_pod_bound_token_passes_a_token_review_with_the_pods_extras() {
    let env = start().await;
    let minor = server_minor(&env).await;
    let namespace = env.namespace().to_owned();
    let (account, pod, _) = objects(&env, "signer").await;
    let account_uid = account["metadata"]["uid"].clone();
    let bound = post(
        &env,
        &token_path(&env, "signer"),
        &token_request(&json!({"audiences": ["a", "b"],
            "boundObjectRef": {"kind": "Pod", "apiVersion": "v1", "name": "signer-pod"}})),
    )
    .await;
    assert_eq!(bound.code, 201, "{}", bound.body);
    let bound_token = bound.body["status"]["token"].as_str().expect("a token").to_owned();
    let (_, bound_claims) = decode(&bound_token);
    assert_eq!(bound_claims["aud"], json!(["a", "b"]));
    let pod_ref = json!({"name": "signer-pod", "uid": pod["metadata"]["uid"]});
    assert_eq!(bound_claims["kubernetes.io"]["pod"], pod_ref, "{bound_claims}");
    if minor >= 30 {
        // ServiceAccountTokenPodNodeInfo: the pod's node, by name alone when it does not exist.
        assert_eq!(bound_claims["kubernetes.io"]["node"], json!({"name": "token-node"}));
    }

    let status = review(&env, &bound_token, &["b"]).await;
    assert_eq!(status["authenticated"], true, "{status}");
    assert_eq!(status["audiences"], json!(["b"]), "{status}");
    assert_eq!(
        status["user"]["username"],
        format!("system:serviceaccount:{namespace}:signer")
    );
    assert_eq!(status["user"]["uid"], account_uid, "{status}");
    let extra = &status["user"]["extra"];
    assert_eq!(
        extra["authentication.kubernetes.io/pod-name"],
        json!(["signer-pod"]),
        "{status}"
    );
    assert_eq!(
        extra["authentication.kubernetes.io/pod-uid"],
        json!([pod["metadata"]["uid"]])
    );
    if minor >= 29 {
        let jti = bound_claims["jti"].as_str().expect("a jti");
        assert_eq!(
            extra["authentication.kubernetes.io/credential-id"],
            json!([format!("JTI={jti}")])
        );
    }
    if minor >= 30 {
        assert_eq!(extra["authentication.kubernetes.io/node-name"], json!(["token-node"]));
    }

    // The API's audience (the issuer) is not one the token was issued for.
    let issuer = bound_claims["iss"].as_str().expect("an issuer").to_owned();
    let elsewhere = review(&env, &bound_token, &[]).await;
    assert_ne!(elsewhere["authenticated"], true, "{elsewhere}");
    assert_eq!(
        elsewhere["error"],
        format!(
            "[invalid bearer token, token audiences [\"a\" \"b\"] is invalid for the target audiences [\"{issuer}\"]]"
        ),
    );
    // A changed signature.
    let token = bound_token;
    let tampered = format!("{}{}", &token[..token.len() - 4], "AAAA");
    let refused = review(&env, &tampered, &[]).await;
    assert_ne!(refused["authenticated"], true, "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .is_some_and(|error| error.starts_with("[invalid bearer token, ")),
        "{refused}"
    );
    // Not a JWT, or another issuer's: no authenticator claims it.
    let garbage = review(&env, "a.b.c", &[]).await;
    assert_eq!(garbage, json!({"user": {}, "error": "invalid bearer token"}));
    let (_, rest) = token.split_once('.').expect("a header");
    let foreign_claims = URL_SAFE_NO_PAD.encode(json!({"iss": "https://elsewhere"}).to_string());
    let foreign = format!(
        "{}.{foreign_claims}.{}",
        token.split('.').next().unwrap_or_default(),
        rest.split('.').nth(1).unwrap_or_default()
    );
    assert_eq!(
        review(&env, &foreign, &[]).await,
        json!({"user": {}, "error": "invalid bearer token"})
    );
    env.stop().await;
}

/// `/.well-known/openid-configuration` names the issuer, and `/openid/v1/jwks` holds the
/// key whose id the token carries and which verifies its signature.
async fn issuer_discovery(env: &wheelhouse_envtest::TestEnv, minor: u32, issuer: &str, kid: &str, token: &str) {
    if minor < 20 {
        eprintln!("skipped: service-account issuer discovery is served from Kubernetes 1.20; the server is 1.{minor}");
        return;
    }
    let configuration = send(
        &env.client(),
        http::Method::GET,
        "/.well-known/openid-configuration",
        None,
    )
    .await;
    assert_eq!(configuration.code, 200, "{}", configuration.body);
    assert_eq!(configuration.body["issuer"], issuer, "{}", configuration.body);
    assert_eq!(
        configuration.body["id_token_signing_alg_values_supported"],
        json!(["RS256"])
    );
    assert!(
        configuration.body["jwks_uri"]
            .as_str()
            .is_some_and(|uri| uri.ends_with("/openid/v1/jwks")),
        "{}",
        configuration.body
    );
    // The key set is served as its own media type only: asked for as JSON, 406.
    let as_json = send(&env.client(), http::Method::GET, "/openid/v1/jwks", None).await;
    assert_eq!(as_json.code, 406, "{}", as_json.body);
    assert_eq!(
        as_json.body["message"],
        "406: Not Acceptable\n\nAvailable representations: application/jwk-set+json"
    );
    let request = http::Request::get("/openid/v1/jwks")
        .header(http::header::ACCEPT, "application/jwk-set+json")
        .body(kube::client::Body::empty())
        .expect("a request");
    let keys = crate::raw::send_request(&env.client(), request).await;
    assert_eq!(keys.code, 200, "{}", keys.body);
    assert_eq!(
        keys.headers
            .get(http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok()),
        Some("application/jwk-set+json")
    );
    let keys = keys.body["keys"].as_array().cloned().unwrap_or_default();
    let key = keys
        .iter()
        .find(|key| key["kid"] == kid)
        .expect("the token's key is listed");
    assert_eq!(
        (&key["kty"], &key["alg"], &key["use"]),
        (&json!("RSA"), &json!("RS256"), &json!("sig"))
    );
    let component = |name: &str| {
        URL_SAFE_NO_PAD
            .decode(key[name].as_str().expect("a component"))
            .expect("base64url")
    };
    let public = ring::signature::RsaPublicKeyComponents {
        n: component("n"),
        e: component("e"),
    };
    let (signed, signature) = token.rsplit_once('.').expect("a signature");
    let signature = URL_SAFE_NO_PAD.decode(signature).expect("base64url");
    public
        .verify(
            &ring::signature::RSA_PKCS1_2048_8192_SHA256,
            signed.as_bytes(),
            &signature,
        )
        .expect("the listed key verifies the token");
}

#[tokio::test]
async fn a_token_is_bound_only_to_an_object_that_exists_with_its_uid() {
    let env = start().await;
    objects(&env, "binder").await;
    let path = token_path(&env, "binder");
    let bound_to = |reference: Value| token_request(&json!({"boundObjectRef": reference}));

    let wrong_uid = post(
        &env,
        &path,
        &bound_to(json!({"kind": "Pod", "apiVersion": "v1", "name": "binder-pod", "uid": "wrong"})),
    )
    .await;
    assert_eq!(wrong_uid.code, 409, "{}", wrong_uid.body);
    assert_eq!(
        wrong_uid.body["message"],
        "Operation cannot be fulfilled on Pod \"binder-pod\": the UID in the bound object reference (wrong) does not match the UID in record. The object might have been deleted and then recreated"
    );
    let config_map = post(
        &env,
        &path,
        &bound_to(json!({"kind": "ConfigMap", "apiVersion": "v1", "name": "x"})),
    )
    .await;
    assert_eq!(config_map.code, 400, "{}", config_map.body);
    assert_eq!(
        config_map.body["message"],
        "cannot bind token to object of type /v1, Kind=ConfigMap"
    );
    let missing = post(
        &env,
        &path,
        &bound_to(json!({"kind": "Pod", "apiVersion": "v1", "name": "nope"})),
    )
    .await;
    assert_eq!(missing.code, 404, "{}", missing.body);
    assert_eq!(missing.body["message"], "pods \"nope\" not found");
    let missing_secret = post(
        &env,
        &path,
        &bound_to(json!({"kind": "Secret", "apiVersion": "v1", "name": "nope"})),
    )
    .await;
    assert_eq!(missing_secret.code, 404, "{}", missing_secret.body);

    let other = objects(&env, "other").await;
    drop(other);
    let other_pod = post(
        &env,
        &path,
        &bound_to(json!({"kind": "Pod", "apiVersion": "v1", "name": "other-pod"})),
    )
    .await;
    assert_eq!(other_pod.code, 400, "{}", other_pod.body);
    assert_eq!(
        other_pod.body["message"],
        "cannot bind token for serviceaccount \"binder\" to pod running with different serviceaccount name."
    );

    let minor = server_minor(&env).await;
    let renamed = post(
        &env,
        &path,
        &json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest",
            "metadata": {"name": "someone-else"}, "spec": {}}),
    )
    .await;
    if minor > 19 {
        assert_eq!(renamed.code, 422, "{}", renamed.body);
        assert_eq!(
            renamed.body["message"],
            "TokenRequest.authentication.k8s.io \"binder\" is invalid: metadata.name: Invalid value: \"someone-else\": must match the service account name if specified"
        );
    } else {
        eprintln!("1.{minor} takes a TokenRequest's own name as given: not checked against the URL's");
    }
    let too_long = post(
        &env,
        &path,
        &token_request(&json!({"expirationSeconds": 5_000_000_000_i64})),
    )
    .await;
    assert_eq!(too_long.code, 422, "{}", too_long.body);
    assert_eq!(
        too_long.body["message"],
        "TokenRequest.authentication.k8s.io \"\" is invalid: spec.expirationSeconds: Invalid value: 5000000000: may not specify a duration larger than 2^32 seconds"
    );

    env.stop().await;
}

/// A token bound to a Secret or a Pod is invalidated once the object is gone.
#[tokio::test]
async fn a_bound_token_is_invalidated_with_its_object() {
    let env = start().await;
    let minor = server_minor(&env).await;
    let (_, _, secret) = objects(&env, "binder").await;
    let path = token_path(&env, "binder");
    let bound_to = |reference: Value| token_request(&json!({"boundObjectRef": reference}));
    let secret_ref =
        json!({"kind": "Secret", "apiVersion": "v1", "name": "binder-secret", "uid": secret["metadata"]["uid"]});
    let secret_token = post(&env, &path, &bound_to(secret_ref)).await;
    assert_eq!(secret_token.code, 201, "{}", secret_token.body);
    let pod_token = post(
        &env,
        &path,
        &bound_to(json!({"kind": "Pod", "apiVersion": "v1", "name": "binder-pod"})),
    )
    .await;
    assert_eq!(pod_token.code, 201, "{}", pod_token.body);
    let namespace = env.namespace().to_owned();
    let gone = send(
        &env.client(),
        http::Method::DELETE,
        &format!("/api/v1/namespaces/{namespace}/secrets/binder-secret"),
        None,
    )
    .await;
    assert_eq!(gone.code, 200, "{}", gone.body);
    let gone = send(
        &env.client(),
        http::Method::DELETE,
        &format!("/api/v1/namespaces/{namespace}/pods/binder-pod?gracePeriodSeconds=0"),
        None,
    )
    .await;
    assert_eq!(gone.code, 200, "{}", gone.body);
    crate::common::eventually("the pod to be gone", || async {
        let found = send(
            &env.client(),
            http::Method::GET,
            &format!("/api/v1/namespaces/{namespace}/pods/binder-pod"),
            None,
        )
        .await;
        (found.code == 404).then_some(())
    })
    .await;
    // 1.19 words it otherwise.
    let invalidated = if minor > 19 {
        "service account token has been invalidated"
    } else {
        "Token has been invalidated"
    };
    for issued in [secret_token, pod_token] {
        let token = issued.body["status"]["token"].as_str().expect("a token");
        let error = format!("[invalid bearer token, {invalidated}]");
        assert_eq!(
            review_until(&env, token, &error).await,
            json!({"user": {}, "error": error})
        );
    }
    env.stop().await;
}

/// A token outlives neither its `ServiceAccount` nor a new one of the same name: the
/// review names the account missing, then the uids that differ.
#[tokio::test]
async fn a_token_fails_once_its_service_account_is_gone_or_replaced() {
    let env = start().await;
    let minor = server_minor(&env).await;
    let namespace = env.namespace().to_owned();
    let accounts = format!("/api/v1/namespaces/{namespace}/serviceaccounts");
    let account = json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "fleeting"}});
    let first = post(&env, &accounts, &account).await;
    assert_eq!(first.code, 201, "{}", first.body);
    let issued = post(&env, &token_path(&env, "fleeting"), &token_request(&json!({}))).await;
    assert_eq!(issued.code, 201, "{}", issued.body);
    let token = issued.body["status"]["token"].as_str().expect("a token").to_owned();
    let deleted = send(
        &env.client(),
        http::Method::DELETE,
        &format!("{accounts}/fleeting"),
        None,
    )
    .await;
    assert_eq!(deleted.code, 200, "{}", deleted.body);
    assert_eq!(
        review_until(
            &env,
            &token,
            "[invalid bearer token, serviceaccounts \"fleeting\" not found]"
        )
        .await,
        json!({"user": {}, "error": "[invalid bearer token, serviceaccounts \"fleeting\" not found]"})
    );
    let second = post(&env, &accounts, &account).await;
    assert_eq!(second.code, 201, "{}", second.body);
    // 1.19 names the kind in Go's spelling.
    let subject = if minor > 19 {
        "service account"
    } else {
        "ServiceAccount"
    };
    let (new_uid, old_uid) = (&second.body["metadata"]["uid"], &first.body["metadata"]["uid"]);
    let expected = format!(
        "[invalid bearer token, {subject} UID ({}) does not match claim ({})]",
        new_uid.as_str().unwrap_or_default(),
        old_uid.as_str().unwrap_or_default()
    );
    assert_eq!(
        review_until(&env, &token, &expected).await,
        json!({"user": {}, "error": expected})
    );
    env.stop().await;
}
