//! CRD schemas enforced as kube-apiserver enforces them: each keyword family refuses
//! what the real server refuses, with its 422 (`Kind.group "name" is invalid: ...`)
//! and causes whose field, reason and message match. CEL rules are in `schema_cel.rs`.
//!
//! kube-apiserver's wording moved over the releases; where a server older than the
//! current one words a cause differently, the test expects that server's words,
//! decided from `/version`.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, Patch, PatchParams, PostParams};
use serde_json::{Value, json};

use crate::common::{api_error, start};
use crate::schema_common::{SchemaType, Wording, cause, skip_before, sorted};

#[tokio::test]
async fn numbers_keep_their_bounds() {
    let env = start().await;
    let spec = json!({"type": "object", "properties": {
        "replicas": {"type": "integer", "minimum": 1, "maximum": 10},
        "ratio": {"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 1, "exclusiveMaximum": true},
        "step": {"type": "integer", "multipleOf": 5},
        "port": {"type": "integer", "format": "int32"},
    }});
    let schema = SchemaType::with_spec(&env, "Bounded", &spec);
    let api = schema.install(&env).await;
    let wording = Wording::of(&env).await;
    let causes = schema
        .refused(&api, "a", &json!({"spec": {"replicas": 0, "ratio": 1, "step": 7}}))
        .await;
    assert_eq!(
        causes,
        sorted(vec![
            wording.bound("spec.replicas", "0", "1", "be greater than or equal to 1"),
            wording.bound("spec.ratio", "1", "1", "be less than 1"),
            wording.bound("spec.step", "7", "5", "be a multiple of 5"),
        ])
    );
    let causes = schema
        .refused(&api, "b", &json!({"spec": {"replicas": 11, "ratio": 0}}))
        .await;
    assert_eq!(
        causes,
        sorted(vec![
            wording.bound("spec.replicas", "11", "10", "be less than or equal to 10"),
            wording.bound("spec.ratio", "0", "0", "be greater than 0"),
        ])
    );
    api.create(
        &PostParams::default(),
        &schema.object(
            "ok",
            &json!({"spec": {"replicas": 10, "ratio": 0.5, "step": 15, "port": 8080}}),
        ),
    )
    .await
    .expect("values within bounds are accepted");
    schema.remove(&env).await;
}

/// kube-apiserver strips the formats it does not list (`StripUnsupportedFormatsPostProcess`,
/// string formats only in 1.19, 1.32 and the later per-version list): an `int32`
/// field stores 2^32.
#[tokio::test]
async fn integer_formats_do_not_bound_the_range() {
    let env = start().await;
    let spec = json!({"type": "object", "properties": {"port": {"type": "integer", "format": "int32"}}});
    let schema = SchemaType::with_spec(&env, "Ranged", &spec);
    let api = schema.install(&env).await;
    let stored = api
        .create(
            &PostParams::default(),
            &schema.object("a", &json!({"spec": {"port": 4_294_967_296_i64}})),
        )
        .await
        .expect("2^32 is stored in an int32 field");
    assert_eq!(stored.data["spec"]["port"], 4_294_967_296_i64);
    schema.remove(&env).await;
}

#[tokio::test]
async fn strings_keep_their_length_pattern_and_format() {
    let env = start().await;
    let spec = json!({"type": "object", "properties": {
        "name": {"type": "string", "minLength": 3, "maxLength": 8, "pattern": "^[a-z]+$"},
        "short": {"type": "string", "minLength": 3},
        "when": {"type": "string", "format": "date-time"},
        "data": {"type": "string", "format": "byte"},
        "id": {"type": "string", "format": "uuid"},
    }});
    let schema = SchemaType::with_spec(&env, "Texts", &spec);
    let api = schema.install(&env).await;
    let wording = Wording::of(&env).await;
    let causes = schema
        .refused(
            &api,
            "a",
            &json!({"spec": {"name": "much-too-long", "short": "ab", "when": "tomorrow", "data": "not base64!", "id": "42"}}),
        )
        .await;
    assert_eq!(
        causes,
        sorted(vec![
            wording.too_long("spec.name", "much-too-long", 8),
            wording.too_short("spec.short", "ab", 3),
            wording.type_invalid(
                "spec.when",
                "Invalid value: \"tomorrow\": spec.when in body must be of type date-time: \"tomorrow\""
            ),
            wording.type_invalid(
                "spec.data",
                "Invalid value: \"not base64!\": spec.data in body must be of type byte: \"not base64!\""
            ),
            wording.type_invalid(
                "spec.id",
                "Invalid value: \"42\": spec.id in body must be of type uuid: \"42\""
            ),
        ])
    );
    let causes = schema.refused(&api, "b", &json!({"spec": {"name": "ABC"}})).await;
    assert_eq!(causes, vec![wording.mismatch("spec.name", "ABC", "^[a-z]+$")]);
    let good = json!({"spec": {"name": "abc", "when": "2024-05-01T10:00:00Z", "data": "aGVsbG8=", "id": "123e4567-e89b-12d3-a456-426614174000"}});
    api.create(&PostParams::default(), &schema.object("ok", &good))
        .await
        .expect("valid strings are accepted");
    schema.remove(&env).await;
}

#[tokio::test]
async fn lists_and_maps_keep_their_sizes() {
    let env = start().await;
    let spec = json!({"type": "object", "properties": {
        "tags": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string"}},
        "labels": {"type": "object", "minProperties": 1, "maxProperties": 2, "additionalProperties": {"type": "string"}},
    }});
    let schema = SchemaType::with_spec(&env, "Sized", &spec);
    let api = schema.install(&env).await;
    let wording = Wording::of(&env).await;
    let causes = schema
        .refused(
            &api,
            "a",
            &json!({"spec": {"tags": ["a", "b", "c"], "labels": {"a": "1", "b": "2", "c": "3"}}}),
        )
        .await;
    assert_eq!(
        causes,
        sorted(vec![
            wording.too_many("spec.tags", 3, 2, "items"),
            wording.too_many("spec.labels", 3, 2, "properties"),
        ])
    );
    let causes = schema
        .refused(&api, "b", &json!({"spec": {"tags": [], "labels": {}}}))
        .await;
    assert_eq!(
        causes,
        sorted(vec![
            wording.too_few_items("spec.tags", 0, 1),
            wording.bound("spec.labels", "0", "1", "have at least 1 properties"),
        ])
    );
    schema.remove(&env).await;
}

#[tokio::test]
async fn list_types_refuse_duplicates() {
    let env = start().await;
    let spec = json!({"type": "object", "properties": {
        "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
        "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
            "items": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "port": {"type": "integer"}}}},
    }});
    let schema = SchemaType::with_spec(&env, "Listed", &spec);
    let api = schema.install(&env).await;
    let body = json!({"spec": {"tags": ["a", "b", "a"], "ports": [{"name": "http", "port": 80}, {"name": "http", "port": 8080}]}});
    let causes = schema.refused(&api, "a", &body).await;
    let wording = Wording::of(&env).await;
    let duplicate_port = format!("Duplicate value: {}", wording.map("{\"name\":\"http\"}"));
    assert_eq!(
        causes,
        sorted(vec![
            cause("spec.tags[2]", "FieldValueDuplicate", "Duplicate value: \"a\""),
            cause("spec.ports[1]", "FieldValueDuplicate", &duplicate_port),
        ])
    );
    schema.remove(&env).await;
}

#[tokio::test]
async fn enums_required_fields_and_types() {
    let env = start().await;
    let spec = json!({"type": "object", "required": ["image"], "properties": {
        "image": {"type": "string"},
        "mode": {"type": "string", "enum": ["fast", "safe"]},
        "level": {"type": "integer", "enum": [1, 2]},
        "replicas": {"type": "integer"},
        "count": {"type": "integer", "format": "int32", "minimum": 1},
        "size": {"x-kubernetes-int-or-string": true},
        "note": {"type": "string", "nullable": true},
    }});
    let schema = SchemaType::with_spec(&env, "Typed", &spec);
    let api = schema.install(&env).await;
    let wording = Wording::of(&env).await;
    let causes = schema
        .refused(
            &api,
            "a",
            &json!({"spec": {"mode": "slow", "level": 3, "replicas": "three", "count": 1.5, "size": true}}),
        )
        .await;
    assert_eq!(
        causes,
        sorted(vec![
            cause("spec.image", "FieldValueRequired", "Required value"),
            cause(
                "spec.mode",
                "FieldValueNotSupported",
                "Unsupported value: \"slow\": supported values: \"fast\", \"safe\""
            ),
            cause(
                "spec.level",
                "FieldValueNotSupported",
                "Unsupported value: 3: supported values: \"1\", \"2\""
            ),
            wording.type_invalid(
                "spec.replicas",
                "Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\""
            ),
            // A float where an integer belongs is the type's error alone: the number
            // checks never judge the type or format.
            wording.type_invalid(
                "spec.count",
                "Invalid value: \"number\": spec.count in body must be of type integer: \"number\""
            ),
            wording.type_invalid(
                "spec.size",
                "Invalid value: \"boolean\": spec.size in body must be of type integer,string: \"boolean\""
            ),
        ])
    );
    let good = json!({"spec": {"image": "nginx", "mode": "safe", "level": 2, "size": "10%", "note": null}});
    let created = api
        .create(&PostParams::default(), &schema.object("ok", &good))
        .await
        .expect("valid values are accepted");
    assert_eq!(
        created.data["spec"]["note"],
        Value::Null,
        "a nullable field keeps its null"
    );
    schema.remove(&env).await;
}

#[tokio::test]
async fn combinators_allof_anyof_oneof_not() {
    let env = start().await;
    let spec = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string"}},
        "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
        "oneOf": [{"required": ["b"]}, {"required": ["c"]}],
        "not": {"required": ["c"]},
        "allOf": [{"properties": {"a": {"maxLength": 2}}}]});
    let schema = SchemaType::with_spec(&env, "Combined", &spec);
    let api = schema.install(&env).await;
    let causes = schema
        .refused(&api, "a", &json!({"spec": {"a": "long", "b": "x", "c": "y"}}))
        .await;
    let wording = Wording::of(&env).await;
    let nil = wording.nil_path();
    let expected = vec![
        cause(
            nil,
            "FieldValueInvalid",
            "Invalid value: \"\": \"spec\" must validate one and only one schema (oneOf). Found 2 valid alternatives",
        ),
        cause(
            nil,
            "FieldValueInvalid",
            "Invalid value: \"\": \"spec\" must not validate the schema (not)",
        ),
        cause(
            nil,
            "FieldValueInvalid",
            "Invalid value: \"\": \"spec\" must validate all the schemas (allOf). None validated",
        ),
        wording.too_long("spec.a", "long", 2),
    ];
    assert_eq!(causes, sorted(expected));
    let causes = schema.refused(&api, "b", &json!({"spec": {"c": "y"}})).await;
    assert!(
        causes.contains(&cause(
            nil,
            "FieldValueInvalid",
            "Invalid value: \"\": \"spec\" must validate at least one schema (anyOf)"
        )),
        "{causes:?}"
    );
    api.create(
        &PostParams::default(),
        &schema.object("ok", &json!({"spec": {"a": "x", "b": "y"}})),
    )
    .await
    .expect("an object meeting every combinator is accepted");
    schema.remove(&env).await;
}

#[tokio::test]
async fn embedded_resources_defaults_and_pruning() {
    let env = start().await;
    let spec = json!({"type": "object", "properties": {
        "replicas": {"type": "integer", "default": 1},
        "template": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true},
        "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
    }});
    let schema = SchemaType::with_spec(&env, "Embedding", &spec);
    let api = schema.install(&env).await;
    let causes = schema
        .refused(&api, "a", &json!({"spec": {"template": {"kind": "Pod"}}}))
        .await;
    assert_eq!(
        causes,
        vec![Wording::of(&env).await.embedded_required("spec.template.apiVersion")]
    );
    let body = json!({"spec": {"template": {"apiVersion": "v1", "kind": "Pod", "spec": {"x": 1}}, "extra": {"kept": true}, "stray": 1}, "junk": 2});
    let created = api
        .create(&PostParams::default(), &schema.object("ok", &body))
        .await
        .expect("a complete embedded resource is accepted");
    assert_eq!(created.data["spec"]["replicas"], 1, "the default is applied");
    assert_eq!(
        created.data["spec"]["template"]["spec"]["x"], 1,
        "preserved fields stay"
    );
    assert_eq!(created.data["spec"]["extra"]["kept"], true);
    assert!(
        created.data["spec"].get("stray").is_none() && created.data.get("junk").is_none(),
        "unknown fields are pruned"
    );
    schema.remove(&env).await;
}

#[tokio::test]
async fn the_status_subresource_validates_the_status_schema() {
    let env = start().await;
    let schema_json = json!({"type": "object", "properties": {
        "spec": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
        "status": {"type": "object", "properties": {"ready": {"type": "integer", "minimum": 0}}},
    }});
    let schema = SchemaType::new(&env, "Reporting", &schema_json);
    let api = schema.install(&env).await;
    api.create(&PostParams::default(), &schema.object("a", &json!({"spec": {}})))
        .await
        .expect("create");
    let patch = Patch::Merge(json!({"status": {"ready": -1}}));
    let status = api_error(api.patch_status("a", &PatchParams::default(), &patch).await);
    assert_eq!(
        schema.causes(&status, "a"),
        vec![Wording::of(&env).await.status_minimum("ready", "-1", "0")]
    );
    api.patch_status(
        "a",
        &PatchParams::default(),
        &Patch::Merge(json!({"status": {"ready": 2}})),
    )
    .await
    .expect("a valid status is accepted");
    schema.remove(&env).await;
}

#[tokio::test]
async fn updates_keep_unchanged_invalid_values_since_ratcheting() {
    let env = start().await;
    if skip_before(&env, 30, "CRD validation ratcheting (on by default)").await {
        return;
    }
    let loose = json!({"type": "object", "properties": {"replicas": {"type": "integer"}, "note": {"type": "string"}}});
    let schema = SchemaType::with_spec(&env, "Ratcheted", &loose);
    let api = schema.install(&env).await;
    api.create(
        &PostParams::default(),
        &schema.object("a", &json!({"spec": {"replicas": 50}})),
    )
    .await
    .expect("create under the loose schema");
    let tight = json!({"type": "object", "properties": {"replicas": {"type": "integer", "maximum": 10}, "note": {"type": "string"}}});
    let tightened = SchemaType::with_spec(&env, "Ratcheted", &tight);
    tightened.install(&env).await;
    api.patch(
        "a",
        &PatchParams::default(),
        &Patch::Merge(json!({"spec": {"note": "unrelated"}})),
    )
    .await
    .expect("an update leaving the invalid value as it was passes");
    let status = api_error(
        api.patch(
            "a",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"replicas": 40}})),
        )
        .await,
    );
    assert_eq!(
        schema.causes(&status, "a"),
        vec![cause(
            "spec.replicas",
            "FieldValueInvalid",
            "Invalid value: 40: spec.replicas in body should be less than or equal to 10"
        )]
    );
    schema.remove(&env).await;
}

#[tokio::test]
async fn schemas_the_apiextensions_server_refuses() {
    let env = start().await;
    let crds: Api<CustomResourceDefinition> = Api::all(env.client());
    let spec = json!({"type": "object", "properties": {
        "tags": {"type": "array", "uniqueItems": true, "items": {"type": "string"}},
        "name": {"type": "string", "pattern": "+"},
    }});
    let schema = SchemaType::with_spec(&env, "Refused", &spec);
    let status = api_error(crds.create(&PostParams::default(), &schema.crd).await);
    assert_eq!((status.code, status.reason.as_str()), (422, "Invalid"), "{status:?}");
    let name = schema.crd.metadata.name.clone().unwrap_or_default();
    assert!(
        status.message.starts_with(&format!(
            "CustomResourceDefinition.apiextensions.k8s.io \"{name}\" is invalid: "
        )),
        "{}",
        status.message
    );
    // One version: the apiextensions server checks its schema as `spec.validation`.
    let root = "spec.validation.openAPIV3Schema.properties[spec]";
    let causes: Vec<(String, String)> = status
        .details
        .expect("details")
        .causes
        .into_iter()
        .map(|c| (c.field, c.message))
        .collect();
    assert!(
        causes.contains(&(
            format!("{root}.properties[tags].uniqueItems"),
            "Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic".to_owned()
        )),
        "{causes:?}"
    );
    assert!(
        causes
            .iter()
            .any(|(field, message)| *field == format!("{root}.properties[name].pattern")
                && message.starts_with("Invalid value: \"+\": must be a valid regular expression, but isn't: ")),
        "{causes:?}"
    );
}

/// A custom resource's metadata is checked as a built-in object's is (the custom
/// resource strategy's `ValidateObjectMetaAccessor`, DNS-subdomain names), in the same
/// 422 as its schema's causes, on a create and on an update.
#[tokio::test]
async fn custom_resources_have_their_metadata_validated_with_their_schema() {
    let env = start().await;
    let spec = json!({"type": "object", "properties": {"replicas": {"type": "integer", "minimum": 1}}});
    let schema = SchemaType::with_spec(&env, "Labelled", &spec);
    let api = schema.install(&env).await;
    let bad_label = json!({"metadata": {"name": "a", "labels": {"-bad": "x"}}, "spec": {"replicas": 0}});
    let causes = schema.refused(&api, "a", &bad_label).await;
    let fields: Vec<(&str, &str)> = causes.iter().map(|(f, r, _)| (f.as_str(), r.as_str())).collect();
    assert_eq!(
        fields,
        [
            ("metadata.labels", "FieldValueInvalid"),
            ("spec.replicas", "FieldValueInvalid")
        ],
        "{causes:?}"
    );
    assert!(
        causes[0]
            .2
            .starts_with("Invalid value: \"-bad\": name part must consist of alphanumeric characters"),
        "{causes:?}"
    );
    api.create(
        &PostParams::default(),
        &schema.object("a", &json!({"spec": {"replicas": 1}})),
    )
    .await
    .expect("a valid one is created");
    let annotation = json!({"metadata": {"annotations": {"a b": "x"}}});
    let status = api_error(
        api.patch("a", &PatchParams::default(), &Patch::Merge(&annotation))
            .await,
    );
    let causes = schema.causes(&status, "a");
    // kube-apiserver lists this cause more than once on an update (each metadata check
    // it runs finds it); the embedded server lists it once.
    let fields: std::collections::BTreeSet<&str> = causes.iter().map(|(f, _, _)| f.as_str()).collect();
    assert_eq!(
        fields,
        std::collections::BTreeSet::from(["metadata.annotations"]),
        "{causes:?}"
    );
    schema.remove(&env).await;
    env.stop().await;
}

/// The object a server-side apply makes is defaulted by the field manager but not
/// pruned as a decoded body is: a `null` the configuration sets where the schema allows
/// none is refused (a body's would be dropped), a defaulted field's `null` takes its
/// default, a nullable one stays.
#[tokio::test]
async fn an_apply_keeps_its_nulls_for_validation() {
    let env = start().await;
    if skip_before(&env, 22, "server-side apply of custom resources with these messages").await {
        return;
    }
    let spec = json!({"type": "object", "properties": {
        "shape": {"type": "object", "properties": {"a": {"type": "string"}}},
        "plain": {"type": "string"},
        "defaulted": {"type": "string", "default": "x"},
        "nullable": {"type": "string", "nullable": true}
    }});
    let schema = SchemaType::with_spec(&env, "Applied", &spec);
    let api = schema.install(&env).await;
    let apply = PatchParams::apply("conformance");
    let config =
        |name: &str, spec: Value| serde_json::to_value(schema.object(name, &json!({"spec": spec}))).expect("JSON");
    let refused = api
        .patch(
            "refused",
            &apply,
            &Patch::Apply(config("refused", json!({"shape": null, "plain": null}))),
        )
        .await;
    assert_eq!(
        schema.causes(&api_error(refused), "refused"),
        sorted(vec![
            cause(
                "spec.plain",
                "FieldValueTypeInvalid",
                "Invalid value: \"null\": spec.plain in body must be of type string: \"null\""
            ),
            cause(
                "spec.shape",
                "FieldValueTypeInvalid",
                "Invalid value: \"null\": spec.shape in body must be of type object: \"null\""
            ),
        ])
    );
    let kept = api
        .patch(
            "kept",
            &apply,
            &Patch::Apply(config("kept", json!({"defaulted": null, "nullable": null}))),
        )
        .await
        .expect("a defaulted and a nullable null are taken");
    let kept = serde_json::to_value(kept).expect("JSON");
    assert_eq!(kept["spec"], json!({"defaulted": "x", "nullable": null}));
    // A body's nulls are dropped as it decodes, where an apply's are refused.
    let created = api
        .create(
            &PostParams::default(),
            &schema.object("created", &json!({"spec": {"shape": null, "plain": null}})),
        )
        .await
        .expect("a body's disallowed nulls are pruned");
    assert_eq!(
        serde_json::to_value(created).expect("JSON")["spec"],
        json!({"defaulted": "x"})
    );
    schema.remove(&env).await;
    env.stop().await;
}
