//! Which layer of kube-apiserver refuses a request, told by its answer: the patch
//! handler (a patch that does not decode is a 422 of `patch`; a JSON patch operation
//! that fails is the generic 422; the strategic merge's own errors are plain 500s), the
//! registry's update (a PUT's uid is a storage precondition, an unconditional PUT is
//! refused where the type's strategy says so, a resourceVersion that is not a number is
//! the versioner's 500), the storage's create, and the delete handler's decoder. Found
//! by the differential fuzzer; 1.19's answers differ where it read patches less strictly.

use serde_json::{Value, json};

use crate::common::start;
use crate::raw::{Answer, send, send_request};
use crate::schema_common::server_minor;

/// Sends `body` (text) with `method` and `content_type` to `path`.
pub(crate) async fn send_text(
    client: &kube::Client,
    method: http::Method,
    path: &str,
    content_type: &str,
    body: &str,
) -> Answer {
    let request = http::Request::builder()
        .method(method)
        .uri(path)
        .header(http::header::CONTENT_TYPE, content_type)
        .header(http::header::ACCEPT, "application/json")
        .body(kube::client::Body::from(body.as_bytes().to_vec()))
        .expect("a valid request");
    send_request(client, request).await
}

/// A patch of the object at `path` with the patch type's media type.
pub(crate) async fn patch(client: &kube::Client, path: &str, media: &str, body: &str) -> Answer {
    send_text(client, http::Method::PATCH, path, media, body).await
}

pub(crate) const MERGE: &str = "application/merge-patch+json";
const JSON_PATCH: &str = "application/json-patch+json";
pub(crate) const STRATEGIC: &str = "application/strategic-merge-patch+json";

fn code_and_reason(answer: &Answer) -> (u16, &str) {
    (answer.code, answer.body["reason"].as_str().unwrap_or_default())
}

/// Creates the `ConfigMap` `name` in the test's namespace; its path.
async fn config_map(client: &kube::Client, namespace: &str, name: &str) -> String {
    let collection = format!("/api/v1/namespaces/{namespace}/configmaps");
    let body = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "labels": {"app": "a"}}, "data": {"k": "v"}});
    let created = send(client, http::Method::POST, &collection, Some(&body)).await;
    assert_eq!(created.code, 201, "{}", created.body);
    format!("{collection}/{name}")
}

/// A merge, JSON or strategic merge patch whose result does not decode as the type (a
/// label that is not a string, labels that are not a map, another kind) is the patch
/// handler's 422 of the field `patch`, quoting what it patched (the patched JSON, or the
/// strategic merge patch as Go prints a map); nothing is stored.
#[tokio::test]
async fn a_patch_that_does_not_decode_is_the_handler_s_422_of_patch() {
    let env = start().await;
    let client = env.client();
    let full_paths = server_minor(&env).await >= 25;
    let path = config_map(&client, env.namespace(), "undecodable").await;
    let cases = [
        (MERGE, r#"{"metadata":{"labels":"text"}}"#),
        (MERGE, r#"{"metadata":{"labels":{"a":1}}}"#),
        (MERGE, r#"{"kind":"Other"}"#),
        (JSON_PATCH, r#"[{"op":"add","path":"/metadata/labels/k","value":1}]"#),
        (STRATEGIC, r#"{"metadata":{"labels":{"k":1}}}"#),
    ];
    for (media, body) in cases {
        let answer = patch(&client, &path, media, body).await;
        assert_eq!(
            code_and_reason(&answer),
            (422, "Invalid"),
            "{media} {body}: {}",
            answer.body
        );
        let cause = &answer.body["details"]["causes"][0];
        assert_eq!(cause["field"], "patch", "{media} {body}: {}", answer.body);
        assert_eq!(cause["reason"], "FieldValueInvalid");
        let message = answer.body["message"].as_str().unwrap_or_default();
        assert!(
            message.starts_with(" \"\" is invalid: patch: Invalid value: \""),
            "{message}"
        );
        // The merged JSON keeps the stored object's field order, an entry of its
        // managed fields in its own (manager first, apiVersion in its place).
        if media == MERGE {
            assert!(message.contains(r#"\"managedFields\":[{\"manager\":"#), "{message}");
        }
        if media == STRATEGIC {
            let shown = cause["message"].as_str().unwrap_or_default();
            assert!(
                shown.starts_with("Invalid value: \"map[metadata:map[labels:map[k:1]]]\": "),
                "{shown}"
            );
        }
        // Why, in the words of what refused it: the JSON decoder for a merge or JSON
        // patch's result, the unstructured converter for a strategic merge's (1.19's
        // decoder named only the last field).
        let why = match (media, body) {
            (STRATEGIC, _) => Some("cannot convert int64 to string"),
            (MERGE, r#"{"metadata":{"labels":{"a":1}}}"#) | (JSON_PATCH, _) => {
                Some("json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string")
            }
            _ => None,
        };
        if let Some(why) = why.filter(|_| full_paths) {
            assert!(message.ends_with(why), "{media} {body}: {message}");
        }
    }
    let read = send(&client, http::Method::GET, &path, None).await;
    assert_eq!(read.body["metadata"]["labels"], json!({"app": "a"}), "nothing stored");
    env.stop().await;
}

/// A JSON patch operation that cannot apply (an unknown op, a path that is missing, a
/// failing test) is the generic 422, whose message says no more; an `add` without a
/// value adds null, which a string field decodes as "".
#[tokio::test]
async fn a_json_patch_that_cannot_apply_is_the_generic_422() {
    let env = start().await;
    let client = env.client();
    let path = config_map(&client, env.namespace(), "json-patched").await;
    for body in [
        r#"[{"op":"bogus","path":"/metadata/labels"}]"#,
        r#"[{"op":"remove","path":"/metadata/missing"}]"#,
        r#"[{"op":"test","path":"/metadata/name","value":"other"}]"#,
        r#"[{"op":"add","path":"/metadata/missing/x","value":1}]"#,
    ] {
        let answer = patch(&client, &path, JSON_PATCH, body).await;
        assert_eq!(code_and_reason(&answer), (422, "Invalid"), "{body}: {}", answer.body);
        assert_eq!(
            answer.body["message"], "the server rejected our request due to an error in our request",
            "{body}"
        );
    }
    let answer = patch(
        &client,
        &path,
        JSON_PATCH,
        r#"[{"op":"add","path":"/metadata/labels/x"}]"#,
    )
    .await;
    assert_eq!(answer.code, 200, "{}", answer.body);
    assert_eq!(answer.body["metadata"]["labels"]["x"], "");
    env.stop().await;
}

/// A patch body of the wrong shape is a 400 before anything is patched: a merge patch
/// that is not an object (`null` is the merge library's own complaint), a JSON patch
/// that is not a list. 1.32 reads the body strictly first (its default field
/// validation is Warn), so it names the Go type it could not fill; 1.19 did not (its
/// patch handler's 422 answered them), and the test skips there.
#[tokio::test]
async fn a_patch_body_of_the_wrong_shape_is_a_bad_request() {
    let env = start().await;
    let client = env.client();
    if server_minor(&env).await < 25 {
        eprintln!(
            "skipped: before 1.25 kube-apiserver did not read a patch strictly first; its patch handler answered these with its 422 of `patch`"
        );
        env.stop().await;
        return;
    }
    let path = config_map(&client, env.namespace(), "shapes").await;
    for (media, body, message) in [
        (
            MERGE,
            "[1]",
            "error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}",
        ),
        (
            MERGE,
            r#""text""#,
            "error decoding patch: json: cannot unmarshal string into Go value of type map[string]interface {}",
        ),
        (MERGE, "null", "Invalid JSON Patch"),
        (
            JSON_PATCH,
            "{}",
            "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp",
        ),
    ] {
        let answer = patch(&client, &path, media, body).await;
        assert_eq!(
            code_and_reason(&answer),
            (400, "BadRequest"),
            "{media} {body}: {}",
            answer.body
        );
        assert_eq!(answer.body["message"], message, "{media} {body}");
    }
    env.stop().await;
}

/// The strategic merge's own errors are plain errors, a 500 without a reason: a
/// `$patch` it does not know (`merge` included, in a map), a list item without its merge
/// key (a deletion included), a `$deleteFromPrimitiveList` of a list of objects.
#[tokio::test]
async fn the_strategic_merge_s_own_errors_are_500s() {
    let env = start().await;
    let client = env.client();
    let ns = env.namespace().to_owned();
    let path = config_map(&client, &ns, "strategic").await;
    let answer = patch(&client, &path, STRATEGIC, r#"{"$patch":"bogus"}"#).await;
    assert_eq!(code_and_reason(&answer), (500, ""), "{}", answer.body);
    assert_eq!(
        answer.body["message"],
        "unknown patch type: bogus in map: map[$patch:bogus]"
    );

    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "strategic"},
        "spec": {"containers": [{"name": "app", "image": crate::common::IMAGE}]}});
    let pods = format!("/api/v1/namespaces/{ns}/pods");
    let created = send(&client, http::Method::POST, &pods, Some(&pod)).await;
    assert_eq!(created.code, 201, "{}", created.body);
    let pod_path = format!("{pods}/strategic");
    for (body, message) in [
        (
            r#"{"spec":{"containers":[{"$patch":"delete"}]}}"#,
            "map: map[$patch:delete] does not contain declared merge key: name".to_owned(),
        ),
        (
            r#"{"spec":{"containers":[{"image":"x"}]}}"#,
            "map: map[image:x] does not contain declared merge key: name".to_owned(),
        ),
    ] {
        let answer = patch(&client, &pod_path, STRATEGIC, body).await;
        assert_eq!(code_and_reason(&answer), (500, ""), "{body}: {}", answer.body);
        assert_eq!(answer.body["message"], Value::String(message), "{body}");
    }
    let answer = patch(
        &client,
        &pod_path,
        STRATEGIC,
        r#"{"spec":{"$deleteFromPrimitiveList/containers":["x"]}}"#,
    )
    .await;
    assert_eq!(code_and_reason(&answer), (500, ""), "{}", answer.body);
    let message = answer.body["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("list element types are not identical: [[map[image:"),
        "{message}"
    );
    assert!(message.ends_with("] [x]]"), "{message}");
    env.stop().await;
}

/// A PUT is checked as the registry's `Store.Update` checks it: a uid other than the
/// stored one is a storage precondition (409), a resourceVersion that is not a number is
/// the versioner's 500, and a PUT without one is refused (422 naming the resource) where
/// the type's strategy does not allow unconditional updates, as a Lease's; a config map's
/// does. A patch that sets another uid is the immutable field's 422 instead.
#[tokio::test]
async fn a_put_is_checked_as_the_registry_checks_it() {
    let env = start().await;
    let client = env.client();
    let ns = env.namespace().to_owned();
    let path = config_map(&client, &ns, "preconditions").await;
    let read = send(&client, http::Method::GET, &path, None).await;
    let stored = read.body.clone();

    let mut other_uid = stored.clone();
    other_uid["metadata"]["uid"] = json!("00000000-0000-4000-8000-000000000001");
    let answer = send(&client, http::Method::PUT, &path, Some(&other_uid)).await;
    assert_eq!(code_and_reason(&answer), (409, "Conflict"), "{}", answer.body);
    let message = answer.body["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(&format!(
            "StorageError: invalid object, Code: 4, Key: /registry/configmaps/{ns}/preconditions, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: 00000000-0000-4000-8000-000000000001, UID in object meta: {}",
            stored["metadata"]["uid"].as_str().unwrap_or_default()
        )),
        "{message}"
    );
    let answer = patch(
        &client,
        &path,
        MERGE,
        r#"{"metadata":{"uid":"00000000-0000-4000-8000-000000000001"}}"#,
    )
    .await;
    assert_eq!(code_and_reason(&answer), (422, "Invalid"), "{}", answer.body);

    let mut not_a_number = stored.clone();
    not_a_number["metadata"]["resourceVersion"] = json!("abc");
    let answer = send(&client, http::Method::PUT, &path, Some(&not_a_number)).await;
    assert_eq!(code_and_reason(&answer), (500, ""), "{}", answer.body);
    assert_eq!(
        answer.body["message"],
        "strconv.ParseUint: parsing \"abc\": invalid syntax"
    );

    let mut unconditional = stored.clone();
    if let Some(metadata) = unconditional["metadata"].as_object_mut() {
        metadata.remove("resourceVersion");
    }
    unconditional["data"] = json!({"k": "w"});
    let answer = send(&client, http::Method::PUT, &path, Some(&unconditional)).await;
    assert_eq!(
        answer.code, 200,
        "a ConfigMap may be updated unconditionally: {}",
        answer.body
    );

    let leases = format!("/apis/coordination.k8s.io/v1/namespaces/{ns}/leases");
    let lease = json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": "conditional"},
        "spec": {"holderIdentity": "a"}});
    let created = send(&client, http::Method::POST, &leases, Some(&lease)).await;
    assert_eq!(created.code, 201, "{}", created.body);
    let answer = send(
        &client,
        http::Method::PUT,
        &format!("{leases}/conditional"),
        Some(&lease),
    )
    .await;
    assert_eq!(code_and_reason(&answer), (422, "Invalid"), "{}", answer.body);
    assert_eq!(
        answer.body["message"],
        "leases.coordination.k8s.io \"conditional\" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update"
    );
    env.stop().await;
}

/// The storage refuses a new object that names a resourceVersion with a plain error (a
/// 500), after everything else passed; a dry run never reaches the storage.
#[tokio::test]
async fn a_create_that_names_a_resource_version_is_the_storage_s_500() {
    let env = start().await;
    let client = env.client();
    let collection = format!("/api/v1/namespaces/{}/configmaps", env.namespace());
    let body =
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "versioned", "resourceVersion": "1"}});
    let answer = send(&client, http::Method::POST, &collection, Some(&body)).await;
    assert_eq!(code_and_reason(&answer), (500, ""), "{}", answer.body);
    assert_eq!(
        answer.body["message"],
        "resourceVersion should not be set on objects to be created"
    );
    let read = send(&client, http::Method::GET, &format!("{collection}/versioned"), None).await;
    assert_eq!(read.code, 404, "nothing stored");
    let dry = send(
        &client,
        http::Method::POST,
        &format!("{collection}?dryRun=All"),
        Some(&body),
    )
    .await;
    assert_eq!(dry.code, 201, "{}", dry.body);
    env.stop().await;
}

/// A list or watch from a resourceVersion that is not a number is refused by the layer
/// that reads it: the watch cache's 500 for most resources, the storage's 400 for
/// Events (not cached). A list with a negative limit has no limit; one that is not a
/// number is the parameter codec's 400.
#[tokio::test]
async fn list_options_are_read_as_their_layers_read_them() {
    let env = start().await;
    let client = env.client();
    let ns = env.namespace().to_owned();
    config_map(&client, &ns, "listed").await;
    let expected = "resourceVersion: Invalid value: \"abc\": strconv.ParseUint: parsing \"abc\": invalid syntax";
    for query in ["resourceVersion=abc", "watch=1&resourceVersion=abc&timeoutSeconds=1"] {
        let answer = send(
            &client,
            http::Method::GET,
            &format!("/api/v1/namespaces/{ns}/configmaps?{query}"),
            None,
        )
        .await;
        assert_eq!(code_and_reason(&answer), (500, ""), "{query}: {}", answer.body);
        assert_eq!(answer.body["message"], expected, "{query}");
    }
    let events = send(
        &client,
        http::Method::GET,
        &format!("/api/v1/namespaces/{ns}/events?resourceVersion=abc"),
        None,
    )
    .await;
    if server_minor(&env).await >= 25 {
        assert_eq!(code_and_reason(&events), (400, "BadRequest"), "{}", events.body);
        assert_eq!(events.body["message"], format!("invalid resource version: {expected}"));
    } else {
        // 1.19 answered Events as the watch cache does.
        assert_eq!(code_and_reason(&events), (500, ""), "{}", events.body);
    }

    let unlimited = send(
        &client,
        http::Method::GET,
        &format!("/api/v1/namespaces/{ns}/configmaps?limit=-1"),
        None,
    )
    .await;
    assert_eq!(unlimited.code, 200, "{}", unlimited.body);
    assert!(unlimited.body["metadata"].get("continue").is_none());
    let answer = send(
        &client,
        http::Method::GET,
        &format!("/api/v1/namespaces/{ns}/configmaps?limit=abc"),
        None,
    )
    .await;
    assert_eq!(code_and_reason(&answer), (400, "BadRequest"), "{}", answer.body);
    assert_eq!(
        answer.body["message"],
        "strconv.ParseInt: parsing \"abc\": invalid syntax"
    );

    // A continue token is the storage's to read: unpadded URL-safe base64 of its JSON,
    // and a page's token continues where the page ended.
    config_map(&client, &ns, "listed-too").await;
    let first = send(
        &client,
        http::Method::GET,
        &format!("/api/v1/namespaces/{ns}/configmaps?limit=1"),
        None,
    )
    .await;
    let token = first.body["metadata"]["continue"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(!token.is_empty() && !token.contains(['=', '+', '/']), "{token}");
    let next = send(
        &client,
        http::Method::GET,
        &format!("/api/v1/namespaces/{ns}/configmaps?limit=1&continue={token}"),
        None,
    )
    .await;
    assert_eq!(next.body["items"][0]["metadata"]["name"], "listed-too", "{}", next.body);
    let bogus = send(
        &client,
        http::Method::GET,
        &format!("/api/v1/namespaces/{ns}/configmaps?limit=1&continue=bogus"),
        None,
    )
    .await;
    assert_eq!(code_and_reason(&bogus), (400, "BadRequest"), "{}", bogus.body);
    assert_eq!(
        bogus.body["message"],
        "invalid continue token: continue key is not valid: illegal base64 data at input byte 4"
    );
    env.stop().await;
}

/// A built-in list's items carry no kind or apiVersion (the typed list's items are
/// bare structs); a watch's objects do.
#[tokio::test]
async fn a_built_in_list_s_items_carry_no_type() {
    let env = start().await;
    let client = env.client();
    let ns = env.namespace().to_owned();
    config_map(&client, &ns, "typeless").await;
    let list = send(
        &client,
        http::Method::GET,
        &format!("/api/v1/namespaces/{ns}/configmaps"),
        None,
    )
    .await;
    let item = &list.body["items"][0];
    assert_eq!(item["metadata"]["name"], "typeless", "{}", list.body);
    assert!(item.get("kind").is_none() && item.get("apiVersion").is_none(), "{item}");
    assert_eq!(list.body["kind"], "ConfigMapList");
    env.stop().await;
}

/// The body of a delete is decoded into `DeleteOptions` as the delete handler decodes
/// it; what does not decode is a plain error (a 500) and nothing is deleted.
#[tokio::test]
async fn delete_options_that_do_not_decode_are_500s() {
    let env = start().await;
    let client = env.client();
    let path = config_map(&client, env.namespace(), "kept").await;
    for (body, message) in [
        ("{not json", "couldn't get version/kind; json parse error: "),
        (
            r#"{"kind":"Pod","apiVersion":"v1"}"#,
            "no kind \"Pod\" is registered for version \"v1\" in scheme \"",
        ),
    ] {
        let answer = send_text(&client, http::Method::DELETE, &path, "application/json", body).await;
        assert_eq!(code_and_reason(&answer), (500, ""), "{body}: {}", answer.body);
        let said = answer.body["message"].as_str().unwrap_or_default();
        assert!(said.starts_with(message), "{said}");
    }
    let read = send(&client, http::Method::GET, &path, None).await;
    assert_eq!(read.code, 200, "not deleted");
    env.stop().await;
}

/// A JSON body that names a field twice is the strict decoder's to report, beside the
/// fields the type lacks: under `fieldValidation=Strict` its 400 names the kind and
/// version; by default each is a warning and the last value is the one kept; under
/// Ignore nothing is said.
#[tokio::test]
async fn a_field_named_twice_is_the_strict_decoder_s_to_report() {
    let env = start().await;
    if server_minor(&env).await < 25 {
        eprintln!("skipped: field validation is 1.25's (1.19 took the last value and said nothing)");
        env.stop().await;
        return;
    }
    let client = env.client();
    let collection = format!("/api/v1/namespaces/{}/configmaps", env.namespace());
    let body = |name: &str| {
        format!(
            r#"{{"apiVersion":"v1","apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"{name}"}},"data":{{"a":"1","a":"2"}},"stray":1}}"#
        )
    };
    let strict = send_text(
        &client,
        http::Method::POST,
        &format!("{collection}?fieldValidation=Strict"),
        "application/json",
        &body("strict"),
    )
    .await;
    assert_eq!(code_and_reason(&strict), (400, "BadRequest"), "{}", strict.body);
    assert_eq!(
        strict.body["message"],
        "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict decoding error: duplicate field \"apiVersion\", duplicate field \"data.a\", unknown field \"stray\""
    );
    let warned = send_text(
        &client,
        http::Method::POST,
        &collection,
        "application/json",
        &body("warned"),
    )
    .await;
    assert_eq!(warned.code, 201, "{}", warned.body);
    assert_eq!(warned.body["data"]["a"], "2", "the last value is kept");
    let warnings: Vec<&str> = warned
        .headers
        .get_all(http::header::WARNING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    assert!(
        warnings.contains(&"299 - \"duplicate field \\\"apiVersion\\\"\""),
        "{warnings:?}"
    );
    let ignored = send_text(
        &client,
        http::Method::POST,
        &format!("{collection}?fieldValidation=Ignore"),
        "application/json",
        &body("ignored"),
    )
    .await;
    assert_eq!(ignored.code, 201, "{}", ignored.body);
    assert!(ignored.headers.get(http::header::WARNING).is_none());
    env.stop().await;
}

/// A body that is not JSON is refused in Go's words, found at the same byte: the
/// decoder's `couldn't get version/kind` quoting the body's start on a create, the
/// patch handler's own wording for each patch type.
#[tokio::test]
async fn a_body_that_is_not_json_is_refused_in_go_s_words() {
    let env = start().await;
    let client = env.client();
    let collection = format!("/api/v1/namespaces/{}/configmaps", env.namespace());
    let go = "invalid character 'n' looking for beginning of object key string";
    let create = send_text(
        &client,
        http::Method::POST,
        &collection,
        "application/json",
        "{not json",
    )
    .await;
    assert_eq!(code_and_reason(&create), (400, "BadRequest"), "{}", create.body);
    assert_eq!(
        create.body["message"],
        format!(
            "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: {go} ({{not json)"
        )
    );
    let empty = send_text(&client, http::Method::POST, &collection, "application/json", "").await;
    assert_eq!(
        empty.body["message"],
        "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: unexpected end of JSON input (<empty>)"
    );
    let path = config_map(&client, env.namespace(), "not-json").await;
    let strategic = patch(&client, &path, STRATEGIC, "{not json").await;
    assert_eq!(code_and_reason(&strategic), (400, "BadRequest"), "{}", strategic.body);
    assert_eq!(strategic.body["message"], go);
    if server_minor(&env).await >= 25 {
        // 1.19 did not read a merge patch before merging it.
        let merge = patch(&client, &path, MERGE, r#"{"a": tru}"#).await;
        assert_eq!(
            merge.body["message"],
            "error decoding patch: invalid character '}' in literal true (expecting 'e')"
        );
    }
    env.stop().await;
}

/// What a built-in object's create answers with holds Go's zero values as its encoder
/// writes them: a status held by value is `{}` or its non-omitempty fields at zero, and
/// a template's metadata has `creationTimestamp: null`, though the client sent neither.
#[tokio::test]
async fn zero_values_are_answered_as_go_writes_them() {
    let env = start().await;
    let client = env.client();
    let ns = env.namespace().to_owned();
    let template = json!({"metadata": {"labels": {"app": "zero"}},
        "spec": {"containers": [{"name": "app", "image": crate::common::IMAGE}]}});
    let cases = [
        (
            format!("/apis/apps/v1/namespaces/{ns}/deployments"),
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "zero"},
                "spec": {"selector": {"matchLabels": {"app": "zero"}}, "template": template}}),
            json!({}),
        ),
        (
            format!("/apis/apps/v1/namespaces/{ns}/replicasets"),
            json!({"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "zero"},
                "spec": {"replicas": 0, "selector": {"matchLabels": {"app": "zero"}}, "template": template}}),
            json!({"replicas": 0}),
        ),
        (
            format!("/apis/networking.k8s.io/v1/namespaces/{ns}/ingresses"),
            json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "zero"},
                "spec": {"defaultBackend": {"service": {"name": "zero", "port": {"number": 80}}}}}),
            json!({"loadBalancer": {}}),
        ),
    ];
    for (collection, body, status) in cases {
        let created = send(&client, http::Method::POST, &collection, Some(&body)).await;
        assert_eq!(created.code, 201, "{collection}: {}", created.body);
        assert_eq!(created.body["status"], status, "{collection}");
        if body["spec"].get("template").is_some() {
            assert_eq!(
                created.body["spec"]["template"]["metadata"]["creationTimestamp"],
                Value::Null,
                "{collection}"
            );
            assert!(
                created.body["spec"]["template"]["metadata"]
                    .as_object()
                    .is_some_and(|m| m.contains_key("creationTimestamp")),
                "{collection}: {}",
                created.body
            );
        }
    }
    if server_minor(&env).await < 21 {
        eprintln!("CronJobs skipped: batch/v1 serves them from 1.21");
        env.stop().await;
        return;
    }
    let cron_job = json!({"apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "zero"},
        "spec": {"schedule": "0 0 1 1 *", "jobTemplate": {"spec": {"template": {
            "spec": {"restartPolicy": "Never", "containers": [{"name": "app", "image": crate::common::IMAGE}]}}}}}});
    let created = send(
        &client,
        http::Method::POST,
        &format!("/apis/batch/v1/namespaces/{ns}/cronjobs"),
        Some(&cron_job),
    )
    .await;
    assert_eq!(created.code, 201, "{}", created.body);
    assert_eq!(
        created.body["spec"]["jobTemplate"]["metadata"],
        json!({"creationTimestamp": null})
    );
    assert_eq!(
        created.body["spec"]["jobTemplate"]["spec"]["template"]["metadata"],
        json!({"creationTimestamp": null})
    );
    assert_eq!(created.body["status"], json!({}));
    env.stop().await;
}

/// A field Go leaves out at its zero value (`omitempty` on a field held by value) is
/// not stored at it, though the client sent it.
#[tokio::test]
async fn fields_go_leaves_out_at_zero_are_not_stored() {
    let env = start().await;
    let client = env.client();
    let ns = env.namespace().to_owned();
    let template = json!({"metadata": {"labels": {"app": "zero"}},
        "spec": {"containers": [{"name": "app", "image": crate::common::IMAGE}]}});
    let deployment = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "omitted"},
        "spec": {"minReadySeconds": 0, "paused": false, "selector": {"matchLabels": {"app": "zero"}}, "template": template}});
    let created = send(
        &client,
        http::Method::POST,
        &format!("/apis/apps/v1/namespaces/{ns}/deployments"),
        Some(&deployment),
    )
    .await;
    assert_eq!(created.code, 201, "{}", created.body);
    for field in ["minReadySeconds", "paused"] {
        assert!(
            created.body["spec"].get(field).is_none(),
            "{field}: {}",
            created.body["spec"]
        );
    }
    let priority_class = format!("{ns}-zero");
    let created = send(
        &client,
        http::Method::POST,
        "/apis/scheduling.k8s.io/v1/priorityclasses",
        Some(&json!({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
            "metadata": {"name": priority_class}, "value": 5, "globalDefault": false})),
    )
    .await;
    assert_eq!(created.code, 201, "{}", created.body);
    send(
        &client,
        http::Method::DELETE,
        &format!("/apis/scheduling.k8s.io/v1/priorityclasses/{priority_class}"),
        None,
    )
    .await;
    assert!(created.body.get("globalDefault").is_none(), "{}", created.body);
    env.stop().await;
}

/// A null field of a built-in body is decoded as Go decodes it, as the field's zero
/// value: as good as absent (not stored), "" in a map of strings; and a field sent at
/// a zero Go leaves out is defaulted as if absent (a Service's `type: ""`).
#[tokio::test]
async fn nulls_and_zeros_are_read_as_go_reads_them() {
    let env = start().await;
    let client = env.client();
    let ns = env.namespace().to_owned();
    let created = send(
        &client,
        http::Method::POST,
        &format!("/api/v1/namespaces/{ns}/configmaps"),
        Some(&json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "nulls", "labels": {"a": null}, "annotations": null},
            "data": {"k": "v"}, "binaryData": null})),
    )
    .await;
    assert_eq!(created.code, 201, "{}", created.body);
    assert!(created.body.get("binaryData").is_none(), "{}", created.body);
    assert!(
        created.body["metadata"].get("annotations").is_none(),
        "{}",
        created.body
    );
    assert_eq!(created.body["metadata"]["labels"], json!({"a": ""}));
    let service = send(
        &client,
        http::Method::POST,
        &format!("/api/v1/namespaces/{ns}/services"),
        Some(
            &json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "zeros"},
            "spec": {"type": "", "sessionAffinity": "", "ports": [{"port": 80}]}}),
        ),
    )
    .await;
    assert_eq!(service.code, 201, "{}", service.body);
    assert_eq!(service.body["spec"]["type"], "ClusterIP");
    assert_eq!(service.body["spec"]["sessionAffinity"], "None");
    env.stop().await;
}

/// A body whose value does not fit its field's type is refused in Go's decoder's words:
/// the value's kind, the innermost struct and the field path from the root (no list
/// indices or map keys), and the Go type as `reflect` prints it (a named string type
/// by its package, a slice as `[]string`, a struct held by value by its type).
#[tokio::test]
async fn a_value_of_the_wrong_type_is_refused_in_go_s_words() {
    let env = start().await;
    let client = env.client();
    let ns = env.namespace().to_owned();
    let prefix = |kind: &str| format!("{kind} in version \"v1\" cannot be handled as a {kind}: ");
    let cases = [
        (
            format!("/apis/rbac.authorization.k8s.io/v1/namespaces/{ns}/roles"),
            json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": {"name": "typed"},
                "rules": [{"apiGroups": [""], "resources": "pods", "verbs": ["get"]}]}),
            "Role",
            "json: cannot unmarshal string into Go struct field PolicyRule.rules.resources of type []string",
        ),
        (
            format!("/api/v1/namespaces/{ns}/configmaps"),
            json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "typed", "labels": {"a": 1}}}),
            "ConfigMap",
            "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string",
        ),
        (
            format!("/api/v1/namespaces/{ns}/services"),
            json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "typed"},
                "spec": {"ports": [{"port": 80, "protocol": 6}]}}),
            "Service",
            "json: cannot unmarshal number into Go struct field ServicePort.spec.ports.protocol of type v1.Protocol",
        ),
        (
            format!("/apis/apps/v1/namespaces/{ns}/daemonsets"),
            json!({"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "typed"}, "status": "text"}),
            "DaemonSet",
            "json: cannot unmarshal string into Go struct field DaemonSet.status of type v1.DaemonSetStatus",
        ),
    ];
    // 1.19's decoder named only the last field (`ObjectMeta.labels`).
    let full_paths = server_minor(&env).await >= 25;
    for (collection, body, kind, go) in cases {
        let answer = send(&client, http::Method::POST, &collection, Some(&body)).await;
        assert_eq!(code_and_reason(&answer), (400, "BadRequest"), "{kind}: {}", answer.body);
        let message = answer.body["message"].as_str().unwrap_or_default();
        if full_paths {
            assert_eq!(message, format!("{}{go}", prefix(kind)));
        } else {
            assert!(message.starts_with(&prefix(kind)), "{message}");
        }
    }
    env.stop().await;
}

/// A struct held by value that is atomic (a binding's `roleRef`) is there in the Go
/// value of an empty object, so its creator owns it whole: managed fields compare Go
/// values, not the JSON sent.
#[tokio::test]
async fn managed_fields_compare_go_values() {
    let env = start().await;
    let client = env.client();
    let collection = format!(
        "/apis/rbac.authorization.k8s.io/v1/namespaces/{}/rolebindings?fieldManager=creator",
        env.namespace()
    );
    let body = json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
        "metadata": {"name": "owned", "labels": {"a": "b"}},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "view"},
        "subjects": [{"kind": "ServiceAccount", "name": "default", "namespace": env.namespace()}]});
    let created = send(&client, http::Method::POST, &collection, Some(&body)).await;
    assert_eq!(created.code, 201, "{}", created.body);
    let entry = &created.body["metadata"]["managedFields"][0];
    assert_eq!(entry["manager"], "creator");
    // 1.19's RoleRef was not yet marked atomic: its fields were owned one by one.
    let role_ref = if server_minor(&env).await >= 25 {
        json!({})
    } else {
        json!({"f:apiGroup": {}, "f:kind": {}, "f:name": {}})
    };
    assert_eq!(
        entry["fieldsV1"],
        json!({"f:metadata": {"f:labels": {".": {}, "f:a": {}}}, "f:roleRef": role_ref, "f:subjects": {}})
    );
    env.stop().await;
}

/// A server-side apply is refused by the layer that refuses it: its YAML decoder (a
/// body that is not a map), the field manager's version check (another group, version
/// or kind, printed as a GVK), and the handler's `checkName` of the object the apply
/// makes (another name; no name where nothing exists to take one from).
#[tokio::test]
async fn an_apply_is_refused_by_the_layer_that_refuses_it() {
    let env = start().await;
    let client = env.client();
    let ns = env.namespace().to_owned();
    let path = |name: &str| format!("/api/v1/namespaces/{ns}/configmaps/{name}?fieldManager=applier");
    let apply = |name: &str, body: &str| {
        let (client, path) = (client.clone(), path(name));
        let body = body.to_owned();
        async move {
            send_text(
                &client,
                http::Method::PATCH,
                &path,
                "application/apply-patch+yaml",
                &body,
            )
            .await
        }
    };
    let full_paths = server_minor(&env).await >= 25;
    let cases = [
        (
            "applied",
            r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"other"}}"#,
            "the name of the object (other) does not match the name on the URL (applied)",
        ),
        (
            "applied",
            r#"{"kind":"ConfigMap","metadata":{"name":"applied"}}"#,
            "invalid object type: /, Kind=ConfigMap",
        ),
        (
            "applied",
            r#"{"apiVersion":"v1","metadata":{"name":"applied"}}"#,
            "invalid object type: /v1, Kind=",
        ),
        (
            "applied",
            r#"{"apiVersion":"apps/v1","kind":"ConfigMap","metadata":{"name":"applied"}}"#,
            "invalid object type: apps/v1, Kind=ConfigMap",
        ),
        (
            "nameless",
            r#"{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"b"}}"#,
            "the name of the object (nameless based on URL) was undeterminable: name must be provided",
        ),
        (
            "applied",
            r#""text""#,
            "error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go value of type map[string]interface {}",
        ),
        (
            "applied",
            "a: [b\n",
            "error decoding YAML: error converting YAML to JSON: yaml: line 1: did not find expected ',' or ']'",
        ),
    ];
    if full_paths {
        for (name, body, message) in cases {
            let answer = apply(name, body).await;
            assert_eq!(code_and_reason(&answer), (400, "BadRequest"), "{body}: {}", answer.body);
            assert_eq!(answer.body["message"], message, "{body}");
        }
    } else {
        eprintln!("skipped: 1.19's field manager had no version check (an apply of another kind was a 500)");
    }
    // An object that exists lends the apply its name.
    let created = apply(
        "named",
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"named"}}"#,
    )
    .await;
    assert_eq!(created.code, 201, "{}", created.body);
    let nameless = apply("named", r#"{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"c"}}"#).await;
    assert_eq!(nameless.code, 200, "{}", nameless.body);
    assert_eq!(nameless.body["data"]["a"], "c");
    env.stop().await;
}

/// Strategies compare Go values: a patch that leaves a DaemonSet's template alone keeps
/// its template generation though the patched JSON drops the template's zero values,
/// and a view stored as another type (an events.k8s.io Event) keeps what it was sent.
#[tokio::test]
async fn strategies_compare_go_values() {
    let env = start().await;
    let client = env.client();
    let ns = env.namespace().to_owned();
    let collection = format!("/apis/apps/v1/namespaces/{ns}/daemonsets");
    let body = json!({"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "same"},
        "spec": {"selector": {"matchLabels": {"app": "same"}}, "template": {"metadata": {"labels": {"app": "same"}},
            "spec": {"containers": [{"name": "app", "image": crate::common::IMAGE}]}}}});
    let created = send(&client, http::Method::POST, &collection, Some(&body)).await;
    assert_eq!(created.code, 201, "{}", created.body);
    let patched = patch(
        &client,
        &format!("{collection}/same"),
        MERGE,
        r#"{"metadata":{"labels":{"patched":"yes"}}}"#,
    )
    .await;
    assert_eq!(patched.code, 200, "{}", patched.body);
    assert_eq!(
        patched.body["metadata"]["annotations"]["deprecated.daemonset.template.generation"],
        "1"
    );

    let event = json!({"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": {"name": "seen"},
        "eventTime": "2024-01-02T03:04:05.000000Z", "reportingController": "example.com/controller",
        "reportingInstance": "controller-1", "action": "Started", "reason": "Started", "type": "Normal",
        "regarding": {"apiVersion": "v1", "kind": "Pod", "name": "web", "namespace": ns}});
    let created = send(
        &client,
        http::Method::POST,
        &format!("/apis/events.k8s.io/v1/namespaces/{ns}/events"),
        Some(&event),
    )
    .await;
    assert_eq!(created.code, 201, "{}", created.body);
    assert_eq!(created.body["regarding"]["name"], "web", "{}", created.body);
    env.stop().await;
}
