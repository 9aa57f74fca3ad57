//! `x-kubernetes-validations`: CEL rules in CRD schemas, enforced as kube-apiserver
//! enforces them (`self`, `oldSelf` transition rules, `messageExpression`, `fieldPath`,
//! `reason`, `optionalOldSelf`, ratcheting, the Kubernetes CEL libraries), and CRDs
//! whose rules do not compile or cost too much refused. Servers older than the
//! feature skip, naming the version (rules arrived in 1.25).

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, Patch, PatchParams, PostParams};
use serde_json::{Value, json};
use wheelhouse_envtest::TestEnv;

use crate::common::{api_error, start};
use crate::schema_common::{SchemaType, cause, server_minor, skip_before, sorted};

/// A failed rule on an object or list: its value is omitted since 1.35, shown as the
/// schema type before.
async fn on_object(env: &TestEnv, field: &str, detail: &str) -> (String, String, String) {
    let message = if server_minor(env).await >= 35 {
        format!("Invalid value: {detail}")
    } else {
        format!("Invalid value: \"object\": {detail}")
    };
    cause(field, "FieldValueInvalid", &message)
}

/// A failed rule on a scalar: since 1.35 the value found, before the schema type
/// (`fieldErrorForReason` was given `sts.Type`).
async fn on_scalar(
    env: &TestEnv,
    field: &str,
    value: &str,
    schema_type: &str,
    detail: &str,
) -> (String, String, String) {
    let shown = if server_minor(env).await >= 35 {
        value
    } else {
        schema_type
    };
    cause(
        field,
        "FieldValueInvalid",
        &format!("Invalid value: \"{shown}\": {detail}"),
    )
}

fn replicas_spec(rules: &Value) -> Value {
    json!({"type": "object", "properties": {
        "replicas": {"type": "integer"}, "minReplicas": {"type": "integer"},
        "mode": {"type": "string", "x-kubernetes-validations": [{"rule": "self == oldSelf", "message": "mode is immutable"}]},
        "name": {"type": "string", "x-kubernetes-validations": [{"rule": "self.startsWith('web-')", "message": "names start with web-"}]},
        "items": {"type": "array", "maxItems": 10, "items": {"type": "object", "properties": {"port": {"type": "integer"}},
            "x-kubernetes-validations": [{"rule": "self.port > 0", "message": "ports are positive"}]}},
    }, "x-kubernetes-validations": rules})
}

#[tokio::test]
async fn rules_check_self_at_every_level() {
    let env = start().await;
    if skip_before(&env, 25, "CEL validation rules (x-kubernetes-validations)").await {
        return;
    }
    let rules = json!([{"rule": "self.minReplicas <= self.replicas", "message": "replicas must be at least minReplicas"},
        {"rule": "self.replicas < 100"}]);
    let mut schema_json = json!({"type": "object", "properties": {"spec": replicas_spec(&rules)}});
    schema_json["x-kubernetes-validations"] =
        json!([{"rule": "self.metadata.name.size() <= 10", "message": "short names only"}]);
    let schema = SchemaType::new(&env, "Ruled", &schema_json);
    let api = schema.install(&env).await;
    let body =
        json!({"spec": {"replicas": 100, "minReplicas": 101, "name": "db", "items": [{"port": 80}, {"port": 0}]}});
    let causes = schema.refused(&api, "much-too-long-a-name", &body).await;
    let nil = if server_minor(&env).await >= 20 { "<nil>" } else { "" };
    assert_eq!(
        causes,
        sorted(vec![
            on_object(&env, nil, "short names only").await,
            on_object(&env, "spec", "replicas must be at least minReplicas").await,
            on_object(&env, "spec", "failed rule: self.replicas < 100").await,
            on_scalar(&env, "spec.name", "db", "string", "names start with web-").await,
            on_object(&env, "spec.items[1]", "ports are positive").await,
        ])
    );
    let good = json!({"spec": {"replicas": 3, "minReplicas": 1, "name": "web-a", "items": [{"port": 80}]}});
    api.create(&PostParams::default(), &schema.object("good", &good))
        .await
        .expect("an object every rule accepts is created");
    schema.remove(&env).await;
}

#[tokio::test]
async fn transition_rules_compare_with_old_self_on_updates() {
    let env = start().await;
    if skip_before(&env, 25, "CEL transition rules (oldSelf)").await {
        return;
    }
    let schema = SchemaType::with_spec(&env, "Transitioned", &replicas_spec(&json!([])));
    let api = schema.install(&env).await;
    api.create(
        &PostParams::default(),
        &schema.object("a", &json!({"spec": {"mode": "fast"}})),
    )
    .await
    .expect("transition rules do not run on create");
    let patch = Patch::Merge(json!({"spec": {"mode": "safe"}}));
    let status = api_error(api.patch("a", &PatchParams::default(), &patch).await);
    assert_eq!(
        schema.causes(&status, "a"),
        vec![on_scalar(&env, "spec.mode", "safe", "string", "mode is immutable").await]
    );
    api.patch(
        "a",
        &PatchParams::default(),
        &Patch::Merge(json!({"spec": {"replicas": 2}})),
    )
    .await
    .expect("an update keeping the mode passes");
    schema.remove(&env).await;
}

#[tokio::test]
async fn message_expressions_write_the_message() {
    let env = start().await;
    if skip_before(&env, 27, "messageExpression in CEL rules").await {
        return;
    }
    // A message of bounded size: 1.32 estimates `string(int)` as unbounded and refuses
    // a CRD whose messageExpression concatenates it (cost over budget more than 100x).
    let spec = json!({"type": "object", "properties": {
        "replicas": {"type": "integer"}, "name": {"type": "string", "maxLength": 20}},
        "x-kubernetes-validations": [{"rule": "self.replicas <= 5", "messageExpression": "self.name + ' has more than 5 replicas'"}]});
    let schema = SchemaType::with_spec(&env, "Messaged", &spec);
    let api = schema.install(&env).await;
    let causes = schema
        .refused(&api, "a", &json!({"spec": {"replicas": 7, "name": "web"}}))
        .await;
    assert_eq!(
        causes,
        vec![on_object(&env, "spec", "web has more than 5 replicas").await]
    );
    schema.remove(&env).await;
}

#[tokio::test]
async fn field_paths_and_reasons_place_and_type_the_error() {
    let env = start().await;
    if skip_before(&env, 30, "fieldPath and reason in CEL rules").await {
        return;
    }
    let rules = json!([
        {"rule": "self.replicas >= self.minReplicas", "message": "below minReplicas", "fieldPath": ".replicas", "reason": "FieldValueForbidden"},
        {"rule": "has(self.name)", "message": "a name is needed", "fieldPath": ".name", "reason": "FieldValueRequired"},
    ]);
    let schema = SchemaType::with_spec(&env, "Reasoned", &replicas_spec(&rules));
    let api = schema.install(&env).await;
    let causes = schema
        .refused(&api, "a", &json!({"spec": {"replicas": 1, "minReplicas": 2}}))
        .await;
    assert_eq!(
        causes,
        sorted(vec![
            cause("spec.replicas", "FieldValueForbidden", "Forbidden: below minReplicas"),
            cause("spec.name", "FieldValueRequired", "Required value: a name is needed"),
        ])
    );
    schema.remove(&env).await;
}

#[tokio::test]
async fn optional_old_self_rules_run_on_create_too() {
    let env = start().await;
    if skip_before(&env, 30, "optionalOldSelf in CEL rules").await {
        return;
    }
    let rules = json!([{"rule": "oldSelf.hasValue() || self.replicas == 1", "optionalOldSelf": true,
        "message": "new objects start with one replica"}]);
    let schema = SchemaType::with_spec(&env, "Optional", &replicas_spec(&rules));
    let api = schema.install(&env).await;
    let causes = schema.refused(&api, "a", &json!({"spec": {"replicas": 3}})).await;
    assert_eq!(
        causes,
        vec![on_object(&env, "spec", "new objects start with one replica").await]
    );
    api.create(
        &PostParams::default(),
        &schema.object("a", &json!({"spec": {"replicas": 1}})),
    )
    .await
    .expect("create with one replica");
    api.patch(
        "a",
        &PatchParams::default(),
        &Patch::Merge(json!({"spec": {"replicas": 3}})),
    )
    .await
    .expect("updates have an old self");
    schema.remove(&env).await;
}

#[tokio::test]
async fn rules_ratchet_unchanged_values() {
    let env = start().await;
    if skip_before(
        &env,
        30,
        "ratcheting of CEL rules (CRDValidationRatcheting on by default)",
    )
    .await
    {
        return;
    }
    let loose = SchemaType::with_spec(&env, "RatchetedRule", &replicas_spec(&json!([])));
    let api = loose.install(&env).await;
    api.create(
        &PostParams::default(),
        &loose.object("a", &json!({"spec": {"replicas": 50}, "status": {"x": 1}})),
    )
    .await
    .expect("create under the loose schema");
    let rules = json!([{"rule": "self.replicas <= 10", "message": "at most 10 replicas"}]);
    let tight_spec = json!({"type": "object", "properties": {"spec": replicas_spec(&rules),
        "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}});
    SchemaType::new(&env, "RatchetedRule", &tight_spec).install(&env).await;
    let status_update = api
        .patch_status("a", &PatchParams::default(), &Patch::Merge(json!({"status": {"x": 2}})))
        .await;
    // 1.32's status strategy runs the rules without the ratcheting option (its main
    // strategy passes it); later sources pass it on /status too.
    if server_minor(&env).await < 33 {
        assert_eq!(
            loose.causes(&api_error(status_update), "a"),
            vec![on_object(&env, "spec", "at most 10 replicas").await]
        );
    } else {
        status_update.expect("a status update leaves the spec as it was");
    }
    let status = api_error(
        api.patch(
            "a",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"replicas": 40}})),
        )
        .await,
    );
    assert_eq!(
        loose.causes(&status, "a"),
        vec![on_object(&env, "spec", "at most 10 replicas").await]
    );
    loose.remove(&env).await;
}

#[tokio::test]
async fn the_kubernetes_cel_libraries_are_there() {
    let env = start().await;
    if skip_before(
        &env,
        30,
        "the Kubernetes CEL libraries (quantity 1.28, sets and strings v2 1.29, ip and cidr 1.30)",
    )
    .await
    {
        return;
    }
    let spec = json!({"type": "object", "properties": {
        "ports": {"type": "array", "maxItems": 8, "items": {"type": "integer"}},
        "name": {"type": "string", "maxLength": 64},
        "endpoint": {"type": "string", "maxLength": 256},
        "memory": {"type": "string", "maxLength": 16},
        "address": {"type": "string", "maxLength": 45},
        "tags": {"type": "array", "maxItems": 8, "items": {"type": "string", "maxLength": 16}},
    }, "x-kubernetes-validations": [
        {"rule": "self.ports.isSorted() && self.ports.sum() < 100000 && self.ports.min() > 0", "message": "lists"},
        {"rule": "self.name.lowerAscii() == self.name && self.name.split('-').size() <= 3 && self.name.indexOf('x') == -1", "message": "strings"},
        {"rule": "self.name.find('[0-9]+') != '' && self.name.findAll('[a-z]+').size() >= 1", "message": "regex"},
        {"rule": "url(self.endpoint).getScheme() == 'https' && url(self.endpoint).getHostname().endsWith('.example.com')", "message": "url"},
        {"rule": "quantity(self.memory).compareTo(quantity('1Gi')) <= 0 && isQuantity(self.memory)", "message": "quantity"},
        {"rule": "isIP(self.address) && cidr('10.0.0.0/8').containsIP(self.address) && ip(self.address).family() == 4", "message": "ip and cidr"},
        {"rule": "sets.contains(['a', 'b', 'c'], self.tags) && self.tags.all(t, t.size() == 1) && self.tags.exists_one(t, t == 'a')", "message": "sets and macros"},
    ]});
    let schema = SchemaType::with_spec(&env, "Library", &spec);
    let api = schema.install(&env).await;
    let good = json!({"spec": {"ports": [80, 443], "name": "web-1", "endpoint": "https://api.example.com:8443/v1",
        "memory": "512Mi", "address": "10.1.2.3", "tags": ["a", "b"]}});
    api.create(&PostParams::default(), &schema.object("good", &good))
        .await
        .expect("an object every library rule accepts is created");
    let bad = json!({"spec": {"ports": [443, 80], "name": "Web-x", "endpoint": "http://api.example.org/",
        "memory": "2Gi", "address": "192.168.0.1", "tags": ["a", "a", "z"]}});
    let causes = schema.refused(&api, "bad", &bad).await;
    let mut expected = Vec::new();
    for message in [
        "lists",
        "strings",
        "regex",
        "url",
        "quantity",
        "ip and cidr",
        "sets and macros",
    ] {
        expected.push(on_object(&env, "spec", message).await);
    }
    assert_eq!(causes, sorted(expected));
    schema.remove(&env).await;
}

#[tokio::test]
async fn two_variable_comprehensions_see_index_and_value() {
    let env = start().await;
    // 1.32 refuses the rules at compile time (`undeclared reference to 'all'`): its
    // CEL environment has no two-variable comprehensions.
    if skip_before(&env, 33, "two-variable comprehensions in CEL rules").await {
        return;
    }
    let spec = json!({"type": "object", "properties": {
        "steps": {"type": "array", "maxItems": 8, "items": {"type": "integer"},
            "x-kubernetes-validations": [{"rule": "self.all(i, v, i == 0 || v > self[i - 1])", "message": "steps increase"}]},
        "weights": {"type": "object", "maxProperties": 8, "additionalProperties": {"type": "integer"},
            "x-kubernetes-validations": [{"rule": "self.transformMap(k, v, v * 2).all(k, v, v <= 100)", "message": "weights are at most 50"}]},
    }});
    let schema = SchemaType::with_spec(&env, "TwoVars", &spec);
    let api = schema.install(&env).await;
    let good = json!({"spec": {"steps": [1, 2, 5], "weights": {"a": 50}}});
    api.create(&PostParams::default(), &schema.object("good", &good))
        .await
        .expect("an object both rules accept is created");
    let causes = schema
        .refused(
            &api,
            "bad",
            &json!({"spec": {"steps": [1, 3, 2], "weights": {"a": 51}}}),
        )
        .await;
    assert_eq!(
        causes,
        sorted(vec![
            on_object(&env, "spec.steps", "steps increase").await,
            on_object(&env, "spec.weights", "weights are at most 50").await,
        ])
    );
    schema.remove(&env).await;
}

#[tokio::test]
async fn rules_on_status_run_on_the_status_subresource() {
    let env = start().await;
    if skip_before(&env, 25, "CEL validation rules (x-kubernetes-validations)").await {
        return;
    }
    let schema_json = json!({"type": "object", "properties": {
        "spec": {"type": "object", "properties": {"replicas": {"type": "integer"}}},
        "status": {"type": "object", "properties": {"ready": {"type": "integer"}},
            "x-kubernetes-validations": [{"rule": "self.ready >= 0", "message": "ready is never negative"}]},
    }});
    let schema = SchemaType::new(&env, "StatusRuled", &schema_json);
    let api = schema.install(&env).await;
    api.create(
        &PostParams::default(),
        &schema.object("a", &json!({"spec": {"replicas": 1}})),
    )
    .await
    .expect("create");
    let patch = Patch::Merge(json!({"status": {"ready": -1}}));
    let status = api_error(api.patch_status("a", &PatchParams::default(), &patch).await);
    assert_eq!(
        schema.causes(&status, "a"),
        vec![on_object(&env, "status", "ready is never negative").await]
    );
    schema.remove(&env).await;
}

/// Creates the CRD and returns the 422's causes (field, message).
async fn crd_refused(env: &TestEnv, schema: &SchemaType) -> Vec<(String, String)> {
    let crds: Api<CustomResourceDefinition> = Api::all(env.client());
    let status = api_error(crds.create(&PostParams::default(), &schema.crd).await);
    assert_eq!((status.code, status.reason.as_str()), (422, "Invalid"), "{status:?}");
    let name = schema.crd.metadata.name.clone().unwrap_or_default();
    let prefix = format!("CustomResourceDefinition.apiextensions.k8s.io \"{name}\" is invalid: ");
    assert!(status.message.starts_with(&prefix), "{}", status.message);
    status
        .details
        .expect("details")
        .causes
        .into_iter()
        .map(|c| (c.field, c.message))
        .collect()
}

#[tokio::test]
async fn crds_whose_rules_do_not_compile_are_refused() {
    let env = start().await;
    if skip_before(&env, 25, "CEL validation rules (x-kubernetes-validations)").await {
        return;
    }
    let rules =
        json!([{"rule": "self.replicass > 0"}, {"rule": "self.replicas"}, {"rule": "self.replicas == 'three'"}]);
    let schema = SchemaType::with_spec(&env, "Uncompiled", &replicas_spec(&rules));
    let causes = crd_refused(&env, &schema).await;
    let rule =
        |i: usize| format!("spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[{i}].rule");
    let detail_of = |i: usize| {
        causes.iter().find(|(field, _)| *field == rule(i)).map_or_else(
            || panic!("no cause for {} in {causes:?}", rule(i)),
            |(_, message)| message.clone(),
        )
    };
    let undefined = detail_of(0);
    assert!(undefined.starts_with("Invalid value: "), "{undefined}");
    assert!(
        undefined.contains(": compilation failed: ERROR: <input>:1:")
            && undefined.contains("undefined field 'replicass'"),
        "{undefined}"
    );
    assert!(
        detail_of(1).ends_with(": cel expression must evaluate to a bool"),
        "{}",
        detail_of(1)
    );
    assert!(
        detail_of(2).contains("found no matching overload for '_==_' applied to '(int, string)'"),
        "{}",
        detail_of(2)
    );
}

#[tokio::test]
async fn crds_whose_rules_cost_too_much_are_refused() {
    let env = start().await;
    if skip_before(&env, 25, "CEL validation rules (x-kubernetes-validations)").await {
        return;
    }
    let spec = json!({"type": "object", "properties": {"names": {"type": "array", "items": {"type": "string"},
        "x-kubernetes-validations": [{"rule": "self.all(a, self.all(b, a == b || !a.matches(b)))"}]}}});
    let schema = SchemaType::with_spec(&env, "Costly", &spec);
    let causes = crd_refused(&env, &schema).await;
    let field = "spec.validation.openAPIV3Schema.properties[spec].properties[names].x-kubernetes-validations[0].rule";
    assert!(
        causes.iter().any(|(f, message)| f == field
            && message.starts_with("Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)")),
        "{causes:?}"
    );
}
