//! Authentication and authorization reviews as kube-apiserver answers them: a
//! `ServiceAccount`'s token (`serviceaccounts/token`) passes a `TokenReview` for its
//! audiences while the `ServiceAccount` lives, and `SubjectAccessReviews` follow the RBAC
//! objects (a `RoleBinding` grants in its namespace only).

use serde_json::{Value, json};

use crate::common::start;
use crate::raw::{Answer, send};

pub(crate) async fn post(env: &wheelhouse_envtest::TestEnv, path: &str, body: &Value) -> Answer {
    send(&env.client(), http::Method::POST, path, Some(body)).await
}

/// The status a `TokenReview` of `token` for `audiences` (the server's when empty) gets.
pub(crate) async fn token_review(env: &wheelhouse_envtest::TestEnv, token: &str, audiences: &[&str]) -> Value {
    let mut review = json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenReview", "spec": {"token": token}});
    if !audiences.is_empty() {
        review["spec"]["audiences"] = json!(audiences);
    }
    let answer = post(env, "/apis/authentication.k8s.io/v1/tokenreviews", &review).await;
    assert_eq!(answer.code, 201, "{}", answer.body);
    answer.body["status"].clone()
}

#[tokio::test]
async fn service_account_tokens_pass_token_reviews_while_the_account_lives() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let accounts = format!("/api/v1/namespaces/{namespace}/serviceaccounts");
    let created = post(
        &env,
        &accounts,
        &json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "reader"}}),
    )
    .await;
    assert_eq!(created.code, 201, "{}", created.body);
    let request = json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest",
        "spec": {"audiences": ["metrics"], "expirationSeconds": 3600}});
    let issued = post(&env, &format!("{accounts}/reader/token"), &request).await;
    assert_eq!(issued.code, 201, "{}", issued.body);
    let token = issued.body["status"]["token"].as_str().expect("a token").to_owned();
    assert!(
        issued.body["status"]["expirationTimestamp"].is_string(),
        "{}",
        issued.body
    );

    let status = token_review(&env, &token, &["metrics"]).await;
    assert_eq!(status["authenticated"], true, "{status}");
    assert_eq!(
        status["user"]["username"],
        format!("system:serviceaccount:{namespace}:reader")
    );
    assert_eq!(status["user"]["uid"], created.body["metadata"]["uid"]);
    let groups = status["user"]["groups"].as_array().expect("groups");
    for group in [
        "system:serviceaccounts",
        &format!("system:serviceaccounts:{namespace}"),
        "system:authenticated",
    ] {
        assert!(groups.iter().any(|g| g == group), "{group} in {groups:?}");
    }
    assert_eq!(status["audiences"], json!(["metrics"]));

    let other_audience = token_review(&env, &token, &["somewhere-else"]).await;
    assert_ne!(other_audience["authenticated"], true, "{other_audience}");
    let unknown = token_review(&env, "not-a-token-anyone-issued", &[]).await;
    assert_ne!(unknown["authenticated"], true, "{unknown}");
    assert!(unknown["error"].is_string(), "{unknown}");

    let too_short = post(
        &env,
        &format!("{accounts}/reader/token"),
        &json!({"apiVersion": "authentication.k8s.io/v1",
        "kind": "TokenRequest", "spec": {"expirationSeconds": 60}}),
    )
    .await;
    assert_eq!(too_short.code, 422, "{}", too_short.body);
    let nobody = post(&env, &format!("{accounts}/nobody/token"), &request).await;
    assert_eq!(nobody.code, 404, "{}", nobody.body);

    let deleted = send(&env.client(), http::Method::DELETE, &format!("{accounts}/reader"), None).await;
    assert_eq!(deleted.code, 200, "{}", deleted.body);
    // A deleted ServiceAccount's tokens fail; kube-apiserver caches a successful token
    // authentication for 10 s, so a real server may take that long to say so.
    let mut gone = Value::Null;
    for _ in 0..200 {
        gone = token_review(&env, &token, &["metrics"]).await;
        if gone["authenticated"] != true {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_ne!(gone["authenticated"], true, "{gone}");
    env.stop().await;
}

async fn allowed(env: &wheelhouse_envtest::TestEnv, path: &str, spec: Value) -> Answer {
    let kind = if path.contains("/namespaces/") {
        "LocalSubjectAccessReview"
    } else {
        "SubjectAccessReview"
    };
    let review = json!({"apiVersion": "authorization.k8s.io/v1", "kind": kind, "spec": spec});
    post(env, path, &review).await
}

#[tokio::test]
async fn subject_access_reviews_follow_roles_and_bindings() {
    let env = start().await;
    let namespace = env.namespace().to_owned();
    let rbac = format!("/apis/rbac.authorization.k8s.io/v1/namespaces/{namespace}");
    let role = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "pod-reader"},
        "rules": [{"apiGroups": [""], "resources": ["pods", "pods/log"], "verbs": ["get", "list"]}]});
    assert_eq!(post(&env, &format!("{rbac}/roles"), &role).await.code, 201);
    let binding = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": {"name": "alice-reads-pods"},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "pod-reader"},
        "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "User", "name": "wheelhouse-test-alice"}]});
    assert_eq!(post(&env, &format!("{rbac}/rolebindings"), &binding).await.code, 201);

    let sar = "/apis/authorization.k8s.io/v1/subjectaccessreviews";
    let ask = |user: &str, namespace: &str, verb: &str, subresource: &str| {
        json!({"user": user, "groups": ["system:authenticated"], "resourceAttributes":
            {"namespace": namespace, "verb": verb, "resource": "pods", "subresource": subresource, "version": "v1"}})
    };
    // A server started with --authorization-mode=AlwaysAllow allows a user nobody bound.
    let nobody = allowed(&env, sar, ask("wheelhouse-test-nobody", "kube-system", "delete", "")).await;
    if nobody.body["status"]["allowed"] == true {
        eprintln!(
            "skipped: this server allows everyone everything (--authorization-mode=AlwaysAllow), so no review can be denied"
        );
        env.stop().await;
        return;
    }
    let alice = "wheelhouse-test-alice";
    // RBAC takes a moment to see new bindings on a real cluster.
    let mut answer = allowed(&env, sar, ask(alice, &namespace, "get", "")).await;
    for _ in 0..50 {
        if answer.body["status"]["allowed"] == true {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        answer = allowed(&env, sar, ask(alice, &namespace, "get", "")).await;
    }
    assert_eq!(
        (answer.code, &answer.body["status"]["allowed"]),
        (201, &json!(true)),
        "{}",
        answer.body
    );
    let log = allowed(&env, sar, ask(alice, &namespace, "list", "log")).await;
    assert_eq!(
        log.body["status"]["allowed"], true,
        "a subresource's rule: {}",
        log.body
    );
    for (why, spec) in [
        ("another verb", ask(alice, &namespace, "delete", "")),
        ("another namespace", ask(alice, "kube-system", "get", "")),
        ("another user", ask("wheelhouse-test-bob", &namespace, "get", "")),
        ("a subresource not granted", ask(alice, &namespace, "get", "exec")),
    ] {
        let answer = allowed(&env, sar, spec).await;
        assert_eq!(answer.code, 201, "{}", answer.body);
        assert_ne!(answer.body["status"]["allowed"], true, "{why}: {}", answer.body);
    }

    let local = format!("/apis/authorization.k8s.io/v1/namespaces/{namespace}/localsubjectaccessreviews");
    let answer = allowed(&env, &local, ask(alice, &namespace, "get", "")).await;
    assert_eq!(answer.body["status"]["allowed"], true, "{}", answer.body);
    let elsewhere = allowed(&env, &local, ask(alice, "kube-system", "get", "")).await;
    assert_eq!(
        elsewhere.code, 422,
        "a local review of another namespace: {}",
        elsewhere.body
    );

    let nobody = allowed(
        &env,
        sar,
        json!({"nonResourceAttributes": {"path": "/metrics", "verb": "get"}}),
    )
    .await;
    assert_eq!(nobody.code, 422, "a review needs a user or a group: {}", nobody.body);
    env.stop().await;
}

/// Over HTTP, a request carrying an issued token is the `ServiceAccount`'s: a
/// `SelfSubjectReview` names it, and `requests()` counts its requests under it.
#[tokio::test]
async fn an_issued_token_is_its_service_accounts_identity_over_http() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let mut env = start().await;
    let Some(server) = env.server().cloned() else {
        eprintln!("skipped: serve_http and requests() need the embedded API server");
        return;
    };
    let address = env
        .serve_http("127.0.0.1:0".parse().expect("an address"))
        .await
        .expect("serving over HTTP");
    let namespace = env.namespace().to_owned();
    let accounts = format!("/api/v1/namespaces/{namespace}/serviceaccounts");
    let created = post(
        &env,
        &accounts,
        &json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "robot"}}),
    )
    .await;
    assert_eq!(created.code, 201, "{}", created.body);
    let request = json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest", "spec": {}});
    let issued = post(&env, &format!("{accounts}/robot/token"), &request).await;
    let token = issued.body["status"]["token"].as_str().expect("a token").to_owned();

    let review = r#"{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}"#;
    let mut stream = tokio::net::TcpStream::connect(address).await.expect("connect");
    let http = format!(
        "POST /apis/authentication.k8s.io/v1/selfsubjectreviews HTTP/1.1\r\nHost: envtest\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{review}",
        review.len()
    );
    stream.write_all(http.as_bytes()).await.expect("send");
    let mut response = String::new();
    stream.read_to_string(&mut response).await.expect("read");
    let body: Value = serde_json::from_str(response.split_once("\r\n\r\n").expect("a body").1).expect("JSON");
    let user = format!("system:serviceaccount:{namespace}:robot");
    assert_eq!(body["status"]["userInfo"]["username"], user, "{response}");
    assert!(
        server
            .requests()
            .iter()
            .any(|r| r.user.as_deref() == Some(user.as_str())),
        "the request is counted under the ServiceAccount"
    );
    env.stop().await;
}

/// A review is created as any object is: decoded as its Go type (an empty group is
/// left out) and its requester's fields recorded in managed fields, with the status
/// the server computed owned by nobody.
#[tokio::test]
async fn a_review_answer_carries_its_requesters_managed_fields() {
    let env = start().await;
    let review = json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SubjectAccessReview",
        "spec": {"user": "jane", "groups": ["devs"],
            "resourceAttributes": {"group": "", "namespace": env.namespace(), "resource": "pods", "verb": "get"}}});
    let answer = post(
        &env,
        "/apis/authorization.k8s.io/v1/subjectaccessreviews?fieldManager=conformance-reviews",
        &review,
    )
    .await;
    assert_eq!(answer.code, 201, "{}", answer.body);
    assert_eq!(
        answer.body["spec"]["resourceAttributes"],
        json!({"namespace": env.namespace(), "resource": "pods", "verb": "get"})
    );
    let managed = &answer.body["metadata"]["managedFields"];
    assert_eq!(managed[0]["manager"], "conformance-reviews", "{managed}");
    assert_eq!(managed[0]["operation"], "Update");
    assert_eq!(
        managed[0]["fieldsV1"],
        json!({"f:spec": {"f:groups": {}, "f:resourceAttributes": {".": {}, "f:namespace": {}, "f:resource": {}, "f:verb": {}}, "f:user": {}}})
    );
    env.stop().await;
}

/// An invalid access review is refused naming no kind: the review's REST handler
/// names the decoded object's kind, which decoding leaves empty; one that does not
/// decode is refused with Go's decoder's words.
#[tokio::test]
async fn an_invalid_access_review_is_refused_without_a_kind() {
    let env = start().await;
    let review =
        json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SubjectAccessReview", "spec": {"user": "jane"}});
    let answer = post(&env, "/apis/authorization.k8s.io/v1/subjectaccessreviews", &review).await;
    assert_eq!(answer.code, 422, "{}", answer.body);
    let why = "exactly one of nonResourceAttributes or resourceAttributes must be specified";
    assert_eq!(
        answer.body["message"],
        format!(r#".authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": {why}"#)
    );
    assert_eq!(
        answer.body["details"],
        json!({"group": "authorization.k8s.io", "causes": [{
        "reason": "FieldValueInvalid", "field": "spec.resourceAttributes",
        "message": format!("Invalid value: \"null\": {why}")}]})
    );
    // A field of the wrong type is Go's decoder's to refuse (1.19's decoder was
    // json-iterator, whose words differ).
    if crate::schema_common::server_minor(&env).await >= 32 {
        let typed = json!({"apiVersion": "authorization.k8s.io/v1", "kind": "SubjectAccessReview",
            "spec": {"user": "jane", "groups": "devs"}});
        let answer = post(&env, "/apis/authorization.k8s.io/v1/subjectaccessreviews", &typed).await;
        assert_eq!(answer.code, 400, "{}", answer.body);
        assert_eq!(
            answer.body["message"],
            "SubjectAccessReview in version \"v1\" cannot be handled as a SubjectAccessReview: json: cannot unmarshal string into Go struct field SubjectAccessReviewSpec.spec.groups of type []string"
        );
    }
    env.stop().await;
}
