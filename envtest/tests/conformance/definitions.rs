//! CRD definitions the apiextensions server refuses, and what it shows of a CRD's
//! scale: a default that breaks its own schema, `properties` beside
//! `additionalProperties`, map-list keys an item may lack, more than one storage
//! version, names that are not DNS labels; and a Scale without a selector when the
//! CRD names no `labelSelectorPath`.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, PostParams};
use kube::core::Status;
use serde_json::{Value, json};
use wheelhouse_envtest::TestEnv;

use crate::common::{api_error, from_json, start};
use crate::raw::send;
use crate::schema_common::{SchemaType, server_minor};

/// The root every single-version schema's causes start from.
const ROOT: &str = "spec.validation.openAPIV3Schema";

/// A CRD of the test's own whose `spec` has `spec_schema`, changed by `edit`.
fn definition(
    env: &TestEnv,
    kind: &str,
    spec_schema: &Value,
    edit: impl FnOnce(&mut Value),
) -> CustomResourceDefinition {
    let schema = SchemaType::with_spec(env, kind, spec_schema);
    let mut crd = serde_json::to_value(&schema.crd).expect("a CRD encodes");
    edit(&mut crd);
    from_json(crd)
}

/// Creates `crd`, which the server must refuse, and returns its causes.
async fn refused(env: &TestEnv, crd: &CustomResourceDefinition) -> (Status, Vec<(String, String, String)>) {
    let crds: Api<CustomResourceDefinition> = Api::all(env.client());
    let status = api_error(crds.create(&PostParams::default(), crd).await);
    assert_eq!((status.code, status.reason.as_str()), (422, "Invalid"), "{status:?}");
    let name = crd.metadata.name.clone().unwrap_or_default();
    let prefix = format!("CustomResourceDefinition.apiextensions.k8s.io \"{name}\" is invalid: ");
    assert!(status.message.starts_with(&prefix), "{}", status.message);
    let causes = status
        .details
        .as_ref()
        .expect("a 422 has details")
        .causes
        .iter()
        .map(|c| (c.field.clone(), c.reason.clone(), c.message.clone()))
        .collect();
    (status, causes)
}

fn one(field: &str, reason: &str, message: &str) -> Vec<(String, String, String)> {
    vec![(field.to_owned(), reason.to_owned(), message.to_owned())]
}

#[tokio::test]
async fn a_default_must_satisfy_its_own_schema() {
    let env = start().await;
    let minor = server_minor(&env).await;
    let spec = json!({"type": "object", "properties": {"replicas": {"type": "integer", "minimum": 1, "default": 0}}});
    let (_, causes) = refused(&env, &definition(&env, "Floor", &spec, |_| {})).await;
    // 1.19 showed a bound's limit where later releases show the value.
    let shown = i32::from(minor < 20);
    let field = format!("{ROOT}.properties[spec].properties[replicas].default");
    assert_eq!(
        causes,
        one(
            &field,
            "FieldValueInvalid",
            &format!("Invalid value: {shown}:  in body should be greater than or equal to 1")
        )
    );

    let spec = json!({"type": "object", "properties": {"size": {"type": "integer", "default": "x"}}});
    let (_, causes) = refused(&env, &definition(&env, "Typed", &spec, |_| {})).await;
    let reason = if minor < 24 {
        "FieldValueInvalid"
    } else {
        "FieldValueTypeInvalid"
    };
    let field = format!("{ROOT}.properties[spec].properties[size].default");
    assert_eq!(
        causes,
        one(
            &field,
            reason,
            "Invalid value: \"string\":  in body must be of type integer: \"string\""
        )
    );

    let spec = json!({"type": "object", "properties": {"mode": {"type": "string", "enum": ["a", "b"], "default": "c"},
        "name": {"type": "string", "pattern": "^[a-z]+$", "default": "A"}}});
    let (_, mut causes) = refused(&env, &definition(&env, "Picked", &spec, |_| {})).await;
    causes.sort();
    let shown = if minor < 20 { "" } else { "A" };
    assert_eq!(
        causes,
        vec![
            (
                format!("{ROOT}.properties[spec].properties[mode].default"),
                "FieldValueNotSupported".to_owned(),
                "Unsupported value: \"c\": supported values: \"a\", \"b\"".to_owned()
            ),
            (
                format!("{ROOT}.properties[spec].properties[name].default"),
                "FieldValueInvalid".to_owned(),
                format!("Invalid value: \"{shown}\":  in body should match '^[a-z]+$'")
            ),
        ]
    );
    env.stop().await;
}

/// Every version needs an `openAPIV3Schema`, whether the versions share one (an empty
/// `schema` shared by all is no schema) or not.
#[tokio::test]
async fn every_version_needs_its_schema() {
    let env = start().await;
    let spec = json!({"type": "object"});
    let shared_empty = definition(&env, "Bare", &spec, |crd| {
        crd["spec"]["versions"][0]["schema"] = json!({});
    });
    let (_, causes) = refused(&env, &shared_empty).await;
    assert_eq!(
        causes,
        one(
            "spec.versions[0].schema.openAPIV3Schema",
            "FieldValueRequired",
            "Required value: schemas are required"
        )
    );
    let one_missing = definition(&env, "Half", &spec, |crd| {
        let mut second = crd["spec"]["versions"][0].clone();
        second["name"] = json!("v2");
        second["storage"] = json!(false);
        second["schema"] = json!({});
        crd["spec"]["versions"].as_array_mut().unwrap().push(second);
    });
    let (_, causes) = refused(&env, &one_missing).await;
    assert_eq!(
        causes,
        one(
            "spec.versions[1].schema.openAPIV3Schema",
            "FieldValueRequired",
            "Required value: schemas are required"
        )
    );
    env.stop().await;
}

/// A CRD may serve none of its versions (a version's `served` left out is false);
/// an empty `$ref` is a `$ref` all the same.
#[tokio::test]
async fn a_crd_serving_nothing_is_valid_and_an_empty_ref_is_not() {
    let env = start().await;
    let spec = json!({"type": "object"});
    let unserved = definition(&env, "Unserved", &spec, |crd| {
        if let Some(version) = crd["spec"]["versions"][0].as_object_mut() {
            version.remove("served");
        }
    });
    let crds: Api<CustomResourceDefinition> = Api::all(env.client());
    let created = crds
        .create(&PostParams::default(), &unserved)
        .await
        .expect("a CRD serving nothing");
    let name = created.metadata.name.clone().unwrap_or_default();
    crate::common::delete_quietly(&crds, &name).await;
    let referenced = definition(&env, "Referenced", &json!({"type": "object", "$ref": ""}), |_| {});
    let (_, causes) = refused(&env, &referenced).await;
    assert!(
        causes.contains(&(
            format!("{ROOT}.properties[spec].$ref"),
            "FieldValueForbidden".to_owned(),
            "Forbidden: $ref is not supported".to_owned()
        )),
        "{causes:?}"
    );
    env.stop().await;
}

#[tokio::test]
async fn a_default_with_fields_its_schema_prunes_is_refused() {
    let env = start().await;
    let spec = json!({"type": "object", "properties": {"limits": {"type": "object",
        "properties": {"cpu": {"type": "string"}}, "default": {"cpu": "1", "gpu": "1"}}}});
    let (_, causes) = refused(&env, &definition(&env, "Pruned", &spec, |_| {})).await;
    let field = format!("{ROOT}.properties[spec].properties[limits].default");
    assert_eq!(causes.len(), 1, "{causes:?}");
    assert_eq!(
        (causes[0].0.as_str(), causes[0].1.as_str()),
        (field.as_str(), "FieldValueInvalid")
    );
    assert!(causes[0].2.ends_with(": must not have unknown fields"), "{causes:?}");
    env.stop().await;
}

#[tokio::test]
async fn properties_and_additional_properties_exclude_each_other() {
    let env = start().await;
    let spec =
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "string"}});
    let (_, causes) = refused(&env, &definition(&env, "Both", &spec, |_| {})).await;
    assert_eq!(
        causes,
        one(
            &format!("{ROOT}.properties[spec].additionalProperties"),
            "FieldValueForbidden",
            "Forbidden: additionalProperties and properties are mutual exclusive"
        )
    );
    env.stop().await;
}

#[tokio::test]
async fn map_list_keys_must_be_required_or_defaulted() {
    let env = start().await;
    let spec = json!({"type": "object", "properties": {"ports": {"type": "array",
        "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name", "protocol"],
        "items": {"type": "object", "required": ["name"], "properties": {
            "name": {"type": "string"}, "protocol": {"type": "string"}}}}}});
    let (_, causes) = refused(&env, &definition(&env, "Keyed", &spec, |_| {})).await;
    assert_eq!(
        causes,
        one(
            &format!("{ROOT}.properties[spec].properties[ports].items.properties[protocol].default"),
            "FieldValueRequired",
            "Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"
        )
    );
    env.stop().await;
}

#[tokio::test]
async fn exactly_one_version_is_the_storage_version() {
    let env = start().await;
    let spec = json!({"type": "object"});
    for storage in [true, false] {
        let crd = definition(&env, "Stored", &spec, |crd| {
            let mut second = crd["spec"]["versions"][0].clone();
            second["name"] = json!("v2");
            second["storage"] = json!(storage);
            crd["spec"]["versions"][0]["storage"] = json!(storage);
            crd["spec"]["versions"].as_array_mut().expect("versions").push(second);
        });
        let (_, causes) = refused(&env, &crd).await;
        assert_eq!(causes.len(), 2, "{causes:?}");
        let (field, reason, message) = &causes[0];
        assert_eq!(
            (field.as_str(), reason.as_str()),
            ("spec.versions", "FieldValueInvalid")
        );
        // The value is Go's print of the internal versions, which differs by release.
        assert!(message.starts_with("Invalid value: "), "{message}");
        assert!(
            message.ends_with(": must have exactly one version marked as storage version"),
            "{message}"
        );
        // The server records the first storage version as stored; the other is not.
        let (field, reason, message) = &causes[1];
        assert_eq!(
            (field.as_str(), reason.as_str()),
            ("status.storedVersions", "FieldValueInvalid")
        );
        let expected = if storage {
            ": must have the storage version v2"
        } else {
            ": must have at least one stored version"
        };
        assert!(message.ends_with(expected), "{message}");
    }
    env.stop().await;
}

#[tokio::test]
async fn crd_names_follow_kubes_naming_rules() {
    let env = start().await;
    let minor = server_minor(&env).await;
    let crd = definition(&env, "Named", &json!({"type": "object"}), |crd| {
        crd["spec"]["versions"][0]["name"] = json!("V1");
        crd["spec"]["names"]["shortNames"] = json!(["n_1"]);
    });
    let (_, mut causes) = refused(&env, &crd).await;
    causes.sort();
    let rule = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
    assert_eq!(
        causes,
        vec![
            (
                "spec.names.shortNames[0]".to_owned(),
                "FieldValueInvalid".to_owned(),
                format!("Invalid value: \"n_1\": {rule}")
            ),
            (
                "spec.version".to_owned(),
                "FieldValueInvalid".to_owned(),
                format!("Invalid value: \"V1\": {rule}")
            ),
            (
                "spec.versions[0].name".to_owned(),
                "FieldValueInvalid".to_owned(),
                format!("Invalid value: \"V1\": {rule}")
            ),
        ]
    );
    let crd = definition(&env, "Misnamed", &json!({"type": "object"}), |crd| {
        crd["metadata"]["name"] = json!("Wrong_Name");
    });
    let (_, causes) = refused(&env, &crd).await;
    let subdomain = if minor < 20 {
        "a DNS-1123 subdomain"
    } else {
        "a lowercase RFC 1123 subdomain"
    };
    assert_eq!(
        causes,
        vec![
            (
                "metadata.name".to_owned(),
                "FieldValueInvalid".to_owned(),
                format!(
                    "Invalid value: \"Wrong_Name\": {subdomain} must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
                )
            ),
            (
                "metadata.name".to_owned(),
                "FieldValueInvalid".to_owned(),
                "Invalid value: \"Wrong_Name\": must be spec.names.plural+\".\"+spec.group".to_owned()
            ),
        ]
    );
    env.stop().await;
}

#[tokio::test]
async fn a_scale_without_a_selector_path_has_no_selector() {
    let env = start().await;
    let spec = json!({"type": "object", "properties": {"replicas": {"type": "integer"}}});
    let status =
        json!({"type": "object", "properties": {"replicas": {"type": "integer"}, "selector": {"type": "string"}}});
    let schema = json!({"type": "object", "properties": {"spec": spec, "status": status}});
    for (kind, selector_path) in [("Plain", None), ("Selected", Some(".status.selector"))] {
        let mut typed = SchemaType::new(&env, kind, &schema);
        let mut scale = json!({"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"});
        if let Some(path) = selector_path {
            scale["labelSelectorPath"] = json!(path);
        }
        let mut crd = serde_json::to_value(&typed.crd).expect("a CRD encodes");
        crd["spec"]["versions"][0]["subresources"]["scale"] = scale;
        typed.crd = from_json(crd);
        let api = typed.install(&env).await;
        api.create(
            &PostParams::default(),
            &typed.object("a", &json!({"spec": {"replicas": 2}})),
        )
        .await
        .expect("created");
        let path = format!(
            "/apis/{}/v1/namespaces/{}/{}/a/scale",
            typed.resource.group,
            env.namespace(),
            typed.resource.plural
        );
        let answer = send(&env.client(), http::Method::GET, &path, None).await;
        assert_eq!(answer.code, 200, "{:?}", answer.body);
        assert_eq!(answer.body["spec"], json!({"replicas": 2}));
        if selector_path.is_none() {
            assert_eq!(answer.body["status"], json!({"replicas": 0}), "no selector field");
        } else {
            let body = json!({"status": {"replicas": 2, "selector": "app=a"}});
            let request = http::Request::builder()
                .method(http::Method::PATCH)
                .uri(path.replace("/scale", "/status"))
                .header(http::header::CONTENT_TYPE, "application/merge-patch+json")
                .body(kube::client::Body::from(serde_json::to_vec(&body).expect("JSON")))
                .expect("a request");
            assert_eq!(crate::raw::send_request(&env.client(), request).await.code, 200);
            let answer = send(&env.client(), http::Method::GET, &path, None).await;
            assert_eq!(answer.body["status"], json!({"replicas": 2, "selector": "app=a"}));
        }
        typed.remove(&env).await;
    }
    env.stop().await;
}

/// With `/status` served, a root schema may set only the fields that keep their
/// meaning once `properties.status` becomes the status's own schema: the first other
/// field refuses the CRD, quoting the schema as Go prints it.
#[tokio::test]
async fn a_root_schema_serving_status_sets_only_the_allowed_fields() {
    let env = start().await;
    let spec = json!({"type": "object"});
    let crd = definition(&env, "Rooted", &spec, |crd| {
        crd["spec"]["versions"][0]["subresources"] = json!({"status": {}});
        crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["oneOf"] = json!([{}]);
    });
    let (_, causes) = refused(&env, &crd).await;
    assert_eq!(causes.len(), 1, "{causes:?}");
    let (field, reason, message) = &causes[0];
    assert_eq!((field.as_str(), reason.as_str()), (ROOT, "FieldValueInvalid"));
    assert!(
        message.starts_with(
            "Invalid value: apiextensions.JSONSchemaProps{ID:\"\", Schema:\"\", Ref:(*string)(nil), Description:\"\", Type:\"object\","
        ),
        "{message}"
    );
    assert!(
        message.contains("OneOf:[]apiextensions.JSONSchemaProps{apiextensions.JSONSchemaProps{ID:\"\""),
        "{message}"
    );
    assert!(
        message.ends_with("fields are allowed at the root of the schema if the status subresource is enabled"),
        "{message}"
    );

    let crd = definition(&env, "Listed", &spec, |crd| {
        crd["spec"]["versions"][0]["subresources"] = json!({"status": {}});
        crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["type"] = json!("array");
        crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["items"] = json!({"type": "string"});
    });
    let crds: Api<CustomResourceDefinition> = Api::all(env.client());
    let status = api_error(crds.create(&PostParams::default(), &crd).await);
    assert_eq!(status.code, 422, "{status:?}");
    assert!(
        status.message.contains(&format!(
            "{ROOT}.type: Invalid value: \"array\": only \"object\" is allowed as the type at the root of the schema if the status subresource is enabled"
        )),
        "{}",
        status.message
    );
    env.stop().await;
}
