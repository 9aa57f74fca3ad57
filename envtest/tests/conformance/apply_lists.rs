//! Server-side apply of lists and maps by their types, as structured-merge-diff merges
//! them in kube-apiserver: items of a map list (`x-kubernetes-list-type: map`) and of a
//! set are owned one by one, so two managers keep their own items, a manager that stops
//! applying an item releases only what it owned, a same-key change conflicts on the
//! field, and a forced apply takes the field without dropping the other items; atomic
//! lists and maps are one field. Here on custom resources, whose types come from their
//! CRD schema; `apply_builtin` has built-in types.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ManagedFieldsEntry;
use kube::api::{Api, DynamicObject, Patch, PatchParams};
use serde_json::{Value, json};
use wheelhouse_envtest::TestEnv;

use crate::common::{api_error, start};
use crate::schema_common::{SchemaType, server_minor, skip_before};

/// The schema of the tests' custom resource: a list of each type, maps of each type,
/// nested map lists and an embedded resource.
fn gadget_spec() -> Value {
    json!({"type": "object", "properties": {
        "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
            "items": {"type": "object", "required": ["name"], "properties": {
                "name": {"type": "string"}, "port": {"type": "integer"}, "protocol": {"type": "string", "default": "TCP"}}}},
        "endpoints": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["port", "protocol"],
            "items": {"type": "object", "required": ["port"], "properties": {
                "port": {"type": "integer"}, "protocol": {"type": "string", "default": "TCP"}, "note": {"type": "string"}}}},
        "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
        "args": {"type": "array", "items": {"type": "string"}},
        "selector": {"type": "object", "x-kubernetes-map-type": "atomic", "additionalProperties": {"type": "string"}},
        "labels": {"type": "object", "x-kubernetes-map-type": "granular", "additionalProperties": {"type": "string"}},
        "groups": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
            "items": {"type": "object", "required": ["name"], "properties": {
                "name": {"type": "string"},
                "members": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["id"],
                    "items": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}, "role": {"type": "string"}}}}}}},
        "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
        "template": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true}
    }})
}

/// A custom resource type with [`gadget_spec`], installed.
async fn gadgets(env: &TestEnv) -> (SchemaType, Api<DynamicObject>) {
    let gadget = SchemaType::with_spec(env, "Gadget", &gadget_spec());
    let api = gadget.install(env).await;
    (gadget, api)
}

/// `manager` applies a Gadget `name` with `spec`.
async fn apply(
    gadget: &SchemaType,
    api: &Api<DynamicObject>,
    name: &str,
    manager: &str,
    spec: Value,
    force: bool,
) -> Result<DynamicObject, kube::Error> {
    let mut params = PatchParams::apply(manager);
    params.force = force;
    let body = serde_json::to_value(gadget.object(name, &json!({"spec": spec}))).expect("JSON");
    api.patch(name, &params, &Patch::Apply(&body)).await
}

/// The `fieldsV1` of `manager`'s `operation` entry; null when it has none.
pub(crate) fn owned(entries: Option<&Vec<ManagedFieldsEntry>>, manager: &str, operation: &str) -> Value {
    entries
        .into_iter()
        .flatten()
        .find(|e| e.manager.as_deref() == Some(manager) && e.operation.as_deref() == Some(operation))
        .and_then(|e| e.fields_v1.as_ref())
        .map_or(Value::Null, |fields| fields.0.clone())
}

fn applied_by(object: &DynamicObject, manager: &str) -> Value {
    owned(object.metadata.managed_fields.as_ref(), manager, "Apply")
}

/// The (reason, message, field) of each cause of a conflict, in the server's order.
fn causes(status: &kube::core::Status) -> Vec<(String, String, String)> {
    status
        .details
        .as_ref()
        .map(|details| {
            details
                .causes
                .iter()
                .map(|c| (c.reason.clone(), c.message.clone(), c.field.clone()))
                .collect()
        })
        .unwrap_or_default()
}

fn conflict_cause(manager: &str, field: &str) -> (String, String, String) {
    (
        "FieldManagerConflict".to_owned(),
        format!("conflict with \"{manager}\""),
        field.to_owned(),
    )
}

/// Two managers applying different items of a map list each keep and own their item;
/// the first then applying without the list releases only its own.
#[tokio::test]
async fn two_managers_own_their_own_items_of_a_map_list() {
    let env = start().await;
    let (gadget, api) = gadgets(&env).await;
    apply(
        &gadget,
        &api,
        "g",
        "m1",
        json!({"ports": [{"name": "a", "port": 1}]}),
        false,
    )
    .await
    .unwrap();
    let both = apply(
        &gadget,
        &api,
        "g",
        "m2",
        json!({"ports": [{"name": "b", "port": 2}]}),
        false,
    )
    .await
    .expect("another item is no conflict");
    assert_eq!(
        both.data["spec"]["ports"],
        json!([{"name": "a", "port": 1, "protocol": "TCP"}, {"name": "b", "port": 2, "protocol": "TCP"}])
    );
    let item = |name: &str| json!({"f:spec": {"f:ports": {format!("k:{{\"name\":\"{name}\"}}"): {".": {}, "f:name": {}, "f:port": {}}}}});
    assert_eq!(applied_by(&both, "m1"), item("a"));
    assert_eq!(applied_by(&both, "m2"), item("b"));

    let released = apply(&gadget, &api, "g", "m1", json!({"tags": ["x"]}), false)
        .await
        .unwrap();
    assert_eq!(
        released.data["spec"]["ports"],
        json!([{"name": "b", "port": 2, "protocol": "TCP"}])
    );
    assert_eq!(
        applied_by(&released, "m1"),
        json!({"f:spec": {"f:tags": {"v:\"x\"": {}}}})
    );
    assert_eq!(applied_by(&released, "m2"), item("b"));
    gadget.remove(&env).await;
    env.stop().await;
}

/// Changing another manager's field of an item conflicts on that field alone, in
/// kube's words; forcing takes the field and leaves the other items and the rest of the
/// item to their owner. An item every applier stopped applying is removed.
#[tokio::test]
async fn a_same_key_conflicts_and_force_keeps_the_other_items() {
    let env = start().await;
    let (gadget, api) = gadgets(&env).await;
    let ports = json!({"ports": [{"name": "a", "port": 1}, {"name": "c", "port": 3}]});
    apply(&gadget, &api, "g", "m1", ports, false).await.unwrap();
    let clash = json!({"ports": [{"name": "a", "port": 5}]});
    let status = api_error(apply(&gadget, &api, "g", "m2", clash.clone(), false).await);
    assert_eq!((status.code, status.reason.as_str()), (409, "Conflict"));
    assert_eq!(
        status.message,
        "Apply failed with 1 conflict: conflict with \"m1\": .spec.ports[name=\"a\"].port"
    );
    assert_eq!(causes(&status), [conflict_cause("m1", ".spec.ports[name=\"a\"].port")]);

    let forced = apply(&gadget, &api, "g", "m2", clash, true).await.expect("forced");
    assert_eq!(
        forced.data["spec"]["ports"],
        json!([{"name": "a", "port": 5, "protocol": "TCP"}, {"name": "c", "port": 3, "protocol": "TCP"}])
    );
    assert_eq!(
        applied_by(&forced, "m1"),
        json!({"f:spec": {"f:ports": {
            "k:{\"name\":\"a\"}": {".": {}, "f:name": {}},
            "k:{\"name\":\"c\"}": {".": {}, "f:name": {}, "f:port": {}}}}})
    );
    assert_eq!(
        applied_by(&forced, "m2"),
        json!({"f:spec": {"f:ports": {"k:{\"name\":\"a\"}": {".": {}, "f:name": {}, "f:port": {}}}}})
    );

    // m1 lets go of both items: c goes, a stays with m2.
    if skip_before(&env, 20, "releasing some items of a list (1.19 leaves the list null)").await {
        gadget.remove(&env).await;
        return env.stop().await;
    }
    let m1_done = apply(&gadget, &api, "g", "m1", json!({}), false).await.unwrap();
    assert_eq!(
        m1_done.data["spec"]["ports"],
        json!([{"name": "a", "port": 5, "protocol": "TCP"}])
    );
    let m2_done = apply(&gadget, &api, "g", "m2", json!({"tags": ["t"]}), false)
        .await
        .unwrap();
    assert_eq!(m2_done.data["spec"], json!({"tags": ["t"]}));
    gadget.remove(&env).await;
    env.stop().await;
}

/// Set items are shared by value, items of a list keyed by two fields are told apart by
/// both, atomic lists conflict as a whole, and granular map keys belong to whoever set
/// them.
#[tokio::test]
async fn sets_defaulted_keys_atomic_lists_and_granular_maps() {
    let env = start().await;
    let (gadget, api) = gadgets(&env).await;
    let first = json!({"tags": ["x"], "args": ["1"], "labels": {"k1": "v"},
        "endpoints": [{"port": 80, "protocol": "TCP"}, {"port": 80, "protocol": "UDP", "note": "dns"}]});
    let one = apply(&gadget, &api, "g", "m1", first, false).await.unwrap();
    assert_eq!(
        applied_by(&one, "m1"),
        json!({"f:spec": {"f:args": {}, "f:labels": {"f:k1": {}},
            "f:endpoints": {
                "k:{\"port\":80,\"protocol\":\"TCP\"}": {".": {}, "f:port": {}, "f:protocol": {}},
                "k:{\"port\":80,\"protocol\":\"UDP\"}": {".": {}, "f:note": {}, "f:port": {}, "f:protocol": {}}},
            "f:tags": {"v:\"x\"": {}}}})
    );
    let two = apply(
        &gadget,
        &api,
        "g",
        "m2",
        json!({"tags": ["y", "x"], "labels": {"k2": "v"}, "endpoints": [{"port": 80, "protocol": "TCP", "note": "web"}]}),
        false,
    )
    .await
    .expect("shared set items, new map keys and new item fields are no conflict");
    // A new item goes before the shared one it precedes (1.19 appended it).
    let tags = if server_minor(&env).await < 20 {
        json!(["x", "y"])
    } else {
        json!(["y", "x"])
    };
    assert_eq!(two.data["spec"]["tags"], tags);
    assert_eq!(two.data["spec"]["labels"], json!({"k1": "v", "k2": "v"}));
    assert_eq!(
        two.data["spec"]["endpoints"],
        json!([{"port": 80, "protocol": "TCP", "note": "web"}, {"port": 80, "protocol": "UDP", "note": "dns"}])
    );
    let status = api_error(apply(&gadget, &api, "g", "m2", json!({"args": ["2"]}), false).await);
    assert_eq!(causes(&status), [conflict_cause("m1", ".spec.args")]);
    let dropped = apply(&gadget, &api, "g", "m1", json!({}), false).await.unwrap();
    assert_eq!(dropped.data["spec"]["tags"], tags, "m2 still applies x");
    assert_eq!(dropped.data["spec"]["labels"], json!({"k2": "v"}));
    assert!(dropped.data["spec"].get("args").is_none());
    gadget.remove(&env).await;
    env.stop().await;
}

/// An item that omits a key field with a default is named by the default, so it is the
/// item that has the default spelled out.
#[tokio::test]
async fn a_missing_key_takes_its_default() {
    let env = start().await;
    if skip_before(
        &env,
        20,
        "list map keys that take their default (1.19 refuses the item)",
    )
    .await
    {
        return env.stop().await;
    }
    let (gadget, api) = gadgets(&env).await;
    let one = apply(&gadget, &api, "g", "m1", json!({"endpoints": [{"port": 80}]}), false)
        .await
        .unwrap();
    assert_eq!(
        applied_by(&one, "m1"),
        json!({"f:spec": {"f:endpoints": {"k:{\"port\":80,\"protocol\":\"TCP\"}": {".": {}, "f:port": {}}}}})
    );
    let two = apply(
        &gadget,
        &api,
        "g",
        "m2",
        json!({"endpoints": [{"port": 80, "protocol": "TCP", "note": "n"}]}),
        false,
    )
    .await
    .expect("the same item, a new field");
    assert_eq!(
        two.data["spec"]["endpoints"],
        json!([{"port": 80, "protocol": "TCP", "note": "n"}])
    );
    gadget.remove(&env).await;
    env.stop().await;
}

/// An atomic map (`x-kubernetes-map-type: atomic`) is one field.
#[tokio::test]
async fn an_atomic_map_is_one_field() {
    let env = start().await;
    if skip_before(
        &env,
        20,
        "x-kubernetes-map-type in server-side apply (1.19 merges such maps key by key)",
    )
    .await
    {
        return env.stop().await;
    }
    let (gadget, api) = gadgets(&env).await;
    let one = apply(&gadget, &api, "g", "m1", json!({"selector": {"a": "1"}}), false)
        .await
        .unwrap();
    assert_eq!(applied_by(&one, "m1"), json!({"f:spec": {"f:selector": {}}}));
    let status = api_error(apply(&gadget, &api, "g", "m2", json!({"selector": {"b": "2"}}), false).await);
    assert_eq!(
        status.message,
        "Apply failed with 1 conflict: conflict with \"m1\": .spec.selector"
    );
    let forced = apply(&gadget, &api, "g", "m2", json!({"selector": {"b": "2"}}), true)
        .await
        .unwrap();
    assert_eq!(forced.data["spec"]["selector"], json!({"b": "2"}), "replaced whole");
    assert_eq!(applied_by(&forced, "m1"), Value::Null, "m1 owned nothing else");
    gadget.remove(&env).await;
    env.stop().await;
}

/// Map lists inside map lists are keyed at each level; a conflict names the path
/// through both keys; unknown fields kept by `x-kubernetes-preserve-unknown-fields` and
/// an embedded resource's metadata merge field by field.
#[tokio::test]
async fn nested_map_lists_preserved_fields_and_embedded_resources() {
    let env = start().await;
    let (gadget, api) = gadgets(&env).await;
    let first = json!({
        "groups": [{"name": "g", "members": [{"id": 1, "role": "r"}, {"id": 2}]}],
        "free": {"x": {"y": 1}},
        "template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "labels": {"a": "b"}}, "spec": {"z": 1}}
    });
    let one = apply(&gadget, &api, "g", "m1", first, false).await.unwrap();
    // 1.19 owns a map below preserved unknown fields whole.
    let free = if server_minor(&env).await < 20 {
        json!({"f:x": {}})
    } else {
        json!({"f:x": {".": {}, "f:y": {}}})
    };
    assert_eq!(
        applied_by(&one, "m1"),
        json!({"f:spec": {
            "f:free": free,
            "f:groups": {"k:{\"name\":\"g\"}": {".": {}, "f:members": {
                "k:{\"id\":1}": {".": {}, "f:id": {}, "f:role": {}},
                "k:{\"id\":2}": {".": {}, "f:id": {}}}, "f:name": {}}},
            "f:template": {"f:apiVersion": {}, "f:kind": {}, "f:metadata": {"f:labels": {"f:a": {}}, "f:name": {}},
                "f:spec": {".": {}, "f:z": {}}}}})
    );
    let mut second = json!({"groups": [{"name": "g", "members": [{"id": 3}]}],
        "template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": {"c": "d"}}}});
    let typed_unknown_fields = server_minor(&env).await >= 20;
    if typed_unknown_fields {
        second["free"] = json!({"x": {"w": 2}});
    }
    let two = apply(&gadget, &api, "g", "m2", second, false)
        .await
        .expect("new members and keys");
    assert_eq!(
        two.data["spec"]["groups"],
        json!([{"name": "g", "members": [{"id": 1, "role": "r"}, {"id": 2}, {"id": 3}]}])
    );
    if typed_unknown_fields {
        assert_eq!(two.data["spec"]["free"], json!({"x": {"y": 1, "w": 2}}));
    }
    assert_eq!(
        two.data["spec"]["template"]["metadata"]["labels"],
        json!({"a": "b", "c": "d"})
    );
    let clash = json!({"groups": [{"name": "g", "members": [{"id": 1, "role": "other"}]}]});
    let status = api_error(apply(&gadget, &api, "g", "m3", clash, false).await);
    assert_eq!(
        causes(&status),
        [conflict_cause("m1", ".spec.groups[name=\"g\"].members[id=1].role")]
    );
    gadget.remove(&env).await;
    env.stop().await;
}

/// A write that is not an apply owns what it changed (operation `Update`, named with
/// its API version in conflicts), and takes it from the applier.
#[tokio::test]
async fn an_update_owns_what_it_changed_in_a_list_item() {
    let env = start().await;
    let (gadget, api) = gadgets(&env).await;
    apply(
        &gadget,
        &api,
        "g",
        "m1",
        json!({"ports": [{"name": "a", "port": 1}, {"name": "b", "port": 2}]}),
        false,
    )
    .await
    .unwrap();
    let current = api.get("g").await.unwrap();
    let mut edited = current.data["spec"].clone();
    edited["ports"][0]["port"] = json!(10);
    let patched = api
        .patch(
            "g",
            &PatchParams {
                field_manager: Some("editor".into()),
                ..PatchParams::default()
            },
            &Patch::Merge(json!({"spec": {"ports": edited["ports"]}})),
        )
        .await
        .unwrap();
    assert_eq!(
        owned(patched.metadata.managed_fields.as_ref(), "editor", "Update"),
        json!({"f:spec": {"f:ports": {"k:{\"name\":\"a\"}": {"f:port": {}}}}})
    );
    assert_eq!(
        applied_by(&patched, "m1"),
        json!({"f:spec": {"f:ports": {
            "k:{\"name\":\"a\"}": {".": {}, "f:name": {}},
            "k:{\"name\":\"b\"}": {".": {}, "f:name": {}, "f:port": {}}}}})
    );
    let status = api_error(
        apply(
            &gadget,
            &api,
            "g",
            "m1",
            json!({"ports": [{"name": "a", "port": 1}, {"name": "b", "port": 2}]}),
            false,
        )
        .await,
    );
    let version = gadget.resource.api_version.clone();
    assert_eq!(
        status.message,
        format!("Apply failed with 1 conflict: conflict with \"editor\" using {version}: .spec.ports[name=\"a\"].port")
    );
    gadget.remove(&env).await;
    env.stop().await;
}
