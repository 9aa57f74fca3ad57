//! Server-side apply and update ownership, on objects built in memory, with the types
//! the server serves: built-in ones from their `OpenAPI` schemas and extensions, and a
//! custom resource's from its schema.

use serde_json::json;

use super::*;
use crate::patch::type_schema::{Schema, convert, named};

const NOW: &str = "2024-01-01T00:00:00Z";
const LATER: &str = "2024-01-02T00:00:00Z";

fn config(replicas: u32, image: &str) -> Value {
    json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default", "labels": {"app": "web"}},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "nginx", "image": image}]}
            }
        }
    })
}

/// A built-in type as the server types it (the catalogue's schema with extensions).
fn builtin(group: &str, kind: &str) -> Option<&'static crate::core::Builtin> {
    crate::resources::catalogue::builtins()
        .iter()
        .find(|b| b.group == group && b.kind == kind)
}

fn builtin_type(group: &str, kind: &str) -> Arc<ObjectType> {
    let builtin = builtin(group, kind).expect("a built-in type");
    let definitions = crate::resources::openapi::builtin_type(builtin);
    let (root, definitions) = definitions.as_ref();
    Arc::new(ObjectType {
        schema: Arc::new(Schema::layered(convert(definitions, false), None)),
        root: named(root),
    })
}

/// The custom resource `Widget` of the tests: its lists and maps of each kind.
fn widget_type() -> Arc<ObjectType> {
    let meta = Arc::new(Schema::layered(
        convert(crate::resources::openapi::object_meta_definitions(), false),
        None,
    ));
    let definitions = serde_json::from_value(json!({"Widget": {"type": "object", "properties": {
        "apiVersion": {"type": "string"}, "kind": {"type": "string"},
        "metadata": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"},
        "spec": {"type": "object", "properties": {
            "items": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}},
            "ports": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
                "items": {"type": "object", "properties": {"name": {"type": "string"}, "port": {"type": "integer"},
                    "protocol": {"type": "string", "default": "TCP"}}}},
            "tags": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
            "selector": {"type": "object", "x-kubernetes-map-type": "atomic", "additionalProperties": {"type": "string"}},
            "size": {"type": "object", "additionalProperties": {"type": "integer"}},
            "a": {"type": "integer"}, "b": {"type": "integer"}
        }},
        "status": {"type": "object", "properties": {"phase": {"type": "string"}}}
    }}}))
    .expect("definitions");
    Arc::new(ObjectType {
        schema: Arc::new(Schema::layered(convert(&definitions, false), Some(meta))),
        root: named("Widget"),
    })
}

/// `manager` writing a Deployment at `now` through the main endpoint.
fn deployment_writer<'a>(manager: &'a str, now: &'a str) -> Writer<'a> {
    Writer {
        manager,
        now,
        subresource: None,
        api_version: "apps/v1".into(),
        kind: "Deployment",
        object_type: builtin_type("apps", "Deployment"),
        custom: false,
        built_in: builtin("apps", "Deployment"),
        reset: &["status"],
    }
}

/// `manager` writing a Widget at `now`.
fn widget_writer(manager: &str) -> Writer<'_> {
    Writer {
        manager,
        now: NOW,
        subresource: None,
        api_version: "example.com/v1".into(),
        kind: "Widget",
        object_type: widget_type(),
        custom: true,
        built_in: None,
        reset: &[],
    }
}

fn apply_as(live: Option<&Value>, applied: &Value, manager: &str, force: bool) -> Result<Value, PatchError> {
    apply(live, applied, force, &deployment_writer(manager, NOW))
}

/// `applied` by "ci" over `live`, at the later time.
fn reapply_later(live: &Value, applied: &Value) -> Value {
    apply(Some(live), applied, false, &deployment_writer("ci", LATER)).expect("applied")
}

fn update_as(old: &Value, new: &mut Value, manager: &str, now: &str) {
    record_update(Some(old), new, &deployment_writer(manager, now));
}

fn entry<'v>(object: &'v Value, manager: &str, operation: &str) -> Option<&'v Value> {
    object["metadata"]["managedFields"]
        .as_array()?
        .iter()
        .find(|entry| entry["manager"] == manager && entry["operation"] == operation)
}

fn owns(object: &Value, manager: &str, operation: &str, pointer: &str) -> bool {
    entry(object, manager, operation)
        .and_then(|entry| entry["fieldsV1"].pointer(pointer))
        .is_some()
}

fn without_managed_fields(object: &Value) -> Value {
    let mut object = object.clone();
    managed::take(&mut object);
    object
}

/// A Deployment as an apply leaves it: as Go writes it (`"status": {}`, a container's
/// `"resources": {}`, a template's `"creationTimestamp": null`).
fn as_go(deployment: &Value) -> Value {
    let mut deployment = deployment.clone();
    crate::resources::go_encoding::encode_builtin(builtin("apps", "Deployment").expect("a built-in"), &mut deployment);
    deployment
}

/// The conflicts of a refused apply: (manager as shown, field).
fn conflicts(result: Result<Value, PatchError>) -> Vec<(String, String)> {
    match result {
        Err(PatchError::Conflict(conflicts)) => conflicts.into_iter().map(|c| (c.shown, c.field)).collect(),
        other => panic!("expected a conflict, got {other:?}"),
    }
}

fn conflict(shown: &str, field: &str) -> (String, String) {
    (shown.to_owned(), field.to_owned())
}

const REPLICAS: &str = "/f:spec/f:replicas";

#[test]
fn apply_creates_the_object_with_an_apply_entry() {
    let created = apply_as(None, &config(1, "nginx:1"), "ci", false).expect("created");
    assert_eq!(without_managed_fields(&created), as_go(&config(1, "nginx:1")));
    let entry = entry(&created, "ci", "Apply").expect("an Apply entry");
    assert_eq!(entry["apiVersion"], "apps/v1");
    assert_eq!(entry["time"], NOW);
    assert_eq!(entry["fieldsType"], "FieldsV1");
    assert!(entry.get("subresource").is_none());
}

#[test]
fn managed_fields_of_a_deployment_have_the_real_shape() {
    let mut applied = config(1, "nginx:1");
    applied["spec"]["template"]["spec"]["containers"][0]["ports"] = json!([{"containerPort": 80}]);
    let created = apply_as(None, &applied, "ci", false).expect("created");
    let container = json!({
        ".": {}, "f:image": {}, "f:name": {},
        "f:ports": {"k:{\"containerPort\":80,\"protocol\":\"TCP\"}": {".": {}, "f:containerPort": {}}}
    });
    assert_eq!(
        entry(&created, "ci", "Apply").expect("an Apply entry")["fieldsV1"],
        json!({
            "f:metadata": {"f:labels": {"f:app": {}}},
            "f:spec": {
                "f:replicas": {},
                "f:selector": {},
                "f:template": {
                    "f:metadata": {"f:labels": {"f:app": {}}},
                    "f:spec": {"f:containers": {"k:{\"name\":\"nginx\"}": container}}
                }
            }
        })
    );
}

#[test]
fn reapplying_without_a_field_removes_it() {
    let mut first = config(1, "nginx:1");
    first["metadata"]["labels"]["tier"] = json!("front");
    first["spec"]["template"]["spec"]["containers"]
        .as_array_mut()
        .expect("a list")
        .push(json!({"name": "sidecar", "image": "proxy:1"}));
    let live = apply_as(None, &first, "ci", false).expect("created");
    let second = apply_as(Some(&live), &config(1, "nginx:1"), "ci", false).expect("applied");
    assert_eq!(without_managed_fields(&second), as_go(&config(1, "nginx:1")));
    assert!(!owns(&second, "ci", "Apply", "/f:metadata/f:labels/f:tier"));
}

#[test]
fn a_dropped_field_another_manager_also_owns_stays() {
    let live = apply_as(None, &config(3, "nginx:1"), "ci", false).expect("created");
    let shared = apply_as(
        Some(&live),
        &json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web"}, "spec": {"replicas": 3}}),
        "autoscaler",
        false,
    )
    .expect("the same value is no conflict");
    assert!(owns(&shared, "ci", "Apply", REPLICAS) && owns(&shared, "autoscaler", "Apply", REPLICAS));

    let mut without_replicas = config(3, "nginx:1");
    without_replicas["spec"]
        .as_object_mut()
        .expect("a map")
        .remove("replicas");
    let reapplied = apply_as(Some(&shared), &without_replicas, "ci", false).expect("applied");
    assert_eq!(reapplied["spec"]["replicas"], 3);
    assert!(!owns(&reapplied, "ci", "Apply", REPLICAS));
    assert!(owns(&reapplied, "autoscaler", "Apply", REPLICAS));
}

#[test]
fn changing_a_field_another_manager_owns_conflicts() {
    let live = apply_as(None, &config(1, "nginx:1"), "ci", false).expect("created");
    let result = apply_as(
        Some(&live),
        &json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web"}, "spec": {"replicas": 2}}),
        "autoscaler",
        false,
    );
    assert_eq!(conflicts(result), [conflict("\"ci\"", ".spec.replicas")]);
}

#[test]
fn force_takes_ownership() {
    let live = apply_as(None, &config(1, "nginx:1"), "ci", false).expect("created");
    let scale =
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": 2}});
    let forced = apply_as(Some(&live), &scale, "autoscaler", true).expect("forced");
    assert_eq!(forced["spec"]["replicas"], 2);
    assert!(owns(&forced, "autoscaler", "Apply", REPLICAS));
    assert!(!owns(&forced, "ci", "Apply", REPLICAS));
    assert!(owns(&forced, "ci", "Apply", "/f:spec/f:selector"));

    let back = apply_as(Some(&forced), &config(1, "nginx:1"), "ci", false);
    assert_eq!(conflicts(back), [conflict("\"autoscaler\"", ".spec.replicas")]);
}

#[test]
fn an_update_then_an_apply_by_another_manager_conflicts_on_the_updated_fields() {
    let live = apply_as(None, &config(1, "nginx:1"), "ci", false).expect("created");
    let mut edited = live.clone();
    edited["spec"]["template"]["spec"]["containers"][0]["image"] = json!("nginx:2");
    update_as(&live, &mut edited, "kubectl-edit", NOW);
    let image = "/f:spec/f:template/f:spec/f:containers/k:{\"name\":\"nginx\"}/f:image";
    assert!(owns(&edited, "kubectl-edit", "Update", image));
    assert!(!owns(&edited, "ci", "Apply", image));

    let result = apply_as(Some(&edited), &config(1, "nginx:1"), "ci", false);
    assert_eq!(
        conflicts(result),
        [conflict(
            "\"kubectl-edit\" using apps/v1",
            ".spec.template.spec.containers[name=\"nginx\"].image"
        )]
    );
    let unchanged = apply_as(Some(&edited), &config(1, "nginx:2"), "ci", false).expect("same value");
    assert!(owns(&unchanged, "ci", "Apply", image) && owns(&unchanged, "kubectl-edit", "Update", image));
}

#[test]
fn fields_only_others_own_are_kept_by_an_apply() {
    let live = apply_as(None, &config(1, "nginx:1"), "ci", false).expect("created");
    let mut with_status = live.clone();
    with_status["status"] = json!({"readyReplicas": 1});
    let status_writer = Writer {
        subresource: Some("status"),
        reset: &["spec"],
        ..deployment_writer("controller", NOW)
    };
    record_update(Some(&live), &mut with_status, &status_writer);
    let status_entry = entry(&with_status, "controller", "Update").expect("an Update entry");
    assert_eq!(status_entry["subresource"], "status");

    let reapplied = apply_as(Some(&with_status), &config(1, "nginx:1"), "ci", false).expect("applied");
    assert_eq!(reapplied["status"]["readyReplicas"], 1);
    assert!(owns(&reapplied, "controller", "Update", "/f:status/f:readyReplicas"));
}

#[test]
fn an_unchanged_reapply_keeps_the_time() {
    let live = apply_as(None, &config(1, "nginx:1"), "ci", false).expect("created");
    let again = reapply_later(&live, &config(1, "nginx:1"));
    assert_eq!(entry(&again, "ci", "Apply").expect("an entry")["time"], NOW);
    let changed = reapply_later(&live, &config(2, "nginx:1"));
    assert_eq!(entry(&changed, "ci", "Apply").expect("an entry")["time"], LATER);
}

#[test]
fn finalizers_are_a_set_shared_between_managers() {
    let with = |finalizers: Value| json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "finalizers": finalizers}});
    let live = apply_as(None, &with(json!(["a"])), "one", false).expect("created");
    let both = apply_as(Some(&live), &with(json!(["b"])), "two", false).expect("applied");
    assert_eq!(both["metadata"]["finalizers"], json!(["a", "b"]));
    let dropped = apply_as(Some(&both), &with(json!([])), "one", false).expect("applied");
    assert_eq!(dropped["metadata"]["finalizers"], json!(["b"]));
    assert!(
        entry(&dropped, "one", "Apply").is_none(),
        "an entry that owns nothing is dropped"
    );
}

#[test]
fn custom_resource_lists_without_a_list_type_are_atomic() {
    let widget = |items: Value| json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": {"items": items}});
    let writer = widget_writer("ci");
    let live = apply(None, &widget(json!([{"name": "a"}, {"name": "b"}])), false, &writer).expect("created");
    let fields = &entry(&live, "ci", "Apply").expect("an entry")["fieldsV1"];
    assert_eq!(fields["f:spec"], json!({"f:items": {}}));
    let replaced = apply(Some(&live), &widget(json!([{"name": "c"}])), false, &writer).expect("applied");
    assert_eq!(replaced["spec"]["items"], json!([{"name": "c"}]));
}

#[test]
fn malformed_configurations_are_bad_requests() {
    let mut with_managed_fields = config(1, "nginx:1");
    with_managed_fields["metadata"]["managedFields"] = json!([{"manager": "x"}]);
    assert!(matches!(
        apply_as(None, &with_managed_fields, "ci", false),
        Err(PatchError::BadRequest(_))
    ));
    let mut unknown = config(1, "nginx:1");
    unknown["spec"]["replica"] = json!(1);
    match apply_as(None, &unknown, "ci", false) {
        Err(PatchError::Internal(message)) => assert_eq!(
            message,
            "failed to create typed patch object (default/web; apps/v1, Kind=Deployment): .spec.replica: field not declared in schema"
        ),
        other => panic!("expected a typed-object failure, got {other:?}"),
    }
    assert!(matches!(
        apply_as(None, &json!("x"), "ci", false),
        Err(PatchError::BadRequest(_))
    ));
}

#[test]
fn fields_an_object_had_before_its_first_apply_are_owned_by_before_first_apply() {
    let mut live = config(1, "nginx:1");
    live["spec"]["paused"] = json!(true);
    live["metadata"]["uid"] = json!("1234");
    assert_eq!(
        conflicts(apply_as(Some(&live), &config(4, "nginx:1"), "ci", false)),
        [conflict("\"before-first-apply\" using apps/v1", ".spec.replicas")]
    );
    let applied = apply_as(Some(&live), &config(4, "nginx:1"), "ci", true).expect("forced");
    assert_eq!(applied["spec"]["paused"], true);
    assert_eq!(applied["metadata"]["uid"], "1234");
    assert_eq!(applied["spec"]["replicas"], 4);
    assert!(owns(&applied, "before-first-apply", "Update", "/f:spec/f:paused"));
    assert!(!owns(&applied, "before-first-apply", "Update", REPLICAS));
    assert!(!owns(&applied, "ci", "Apply", "/f:metadata/f:uid"));
}

#[test]
fn record_update_on_create_owns_every_field_but_identity() {
    let mut created = config(1, "nginx:1");
    record_update(None, &mut created, &deployment_writer("kubectl-create", NOW));
    let fields = &entry(&created, "kubectl-create", "Update").expect("an Update entry")["fieldsV1"];
    assert!(fields.pointer("/f:spec/f:replicas").is_some());
    assert!(fields.pointer("/f:metadata/f:labels/f:app").is_some());
    assert!(fields.pointer("/f:metadata/f:name").is_none());
    assert!(fields.get("f:apiVersion").is_none() && fields.get("f:kind").is_none());
}

#[test]
fn record_update_merges_into_one_entry_and_moves_the_time_only_on_change() {
    let mut live = config(1, "nginx:1");
    record_update(None, &mut live, &deployment_writer("ctl", NOW));
    let mut same = live.clone();
    same["spec"]["replicas"] = json!(2);
    update_as(&live, &mut same, "ctl", NOW);
    let mut unchanged = same.clone();
    update_as(&same, &mut unchanged, "ctl", LATER);
    assert_eq!(
        entry(&unchanged, "ctl", "Update").expect("an entry")["time"],
        NOW,
        "a write that changes nothing keeps the time"
    );

    let mut more = same.clone();
    more["spec"]["paused"] = json!(true);
    update_as(&same, &mut more, "ctl", LATER);
    let entries = more["metadata"]["managedFields"].as_array().expect("a list");
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0]["time"], LATER);
    assert!(owns(&more, "ctl", "Update", "/f:spec/f:paused"));
}

#[test]
fn record_update_takes_changed_fields_and_forgets_removed_ones() {
    let live = apply_as(None, &config(1, "nginx:1"), "ci", false).expect("created");
    let mut edited = live.clone();
    edited["spec"]["replicas"] = json!(5);
    edited["metadata"]["labels"]
        .as_object_mut()
        .expect("a map")
        .remove("app");
    update_as(&live, &mut edited, "kubectl-edit", NOW);
    assert!(!owns(&edited, "ci", "Apply", REPLICAS));
    assert!(owns(&edited, "kubectl-edit", "Update", REPLICAS));
    assert!(!owns(&edited, "ci", "Apply", "/f:metadata/f:labels/f:app"));
    assert!(owns(&edited, "ci", "Apply", "/f:spec/f:selector"));
}

#[test]
fn the_same_name_applying_and_updating_is_two_owners_that_conflict() {
    let mut created = config(1, "nginx:1");
    record_update(None, &mut created, &deployment_writer("ci", NOW));
    let result = apply_as(Some(&created), &config(2, "nginx:1"), "ci", false);
    assert_eq!(conflicts(result), [conflict("\"ci\" using apps/v1", ".spec.replicas")]);
    let forced = apply_as(Some(&created), &config(2, "nginx:1"), "ci", true).expect("forced");
    assert!(owns(&forced, "ci", "Apply", REPLICAS) && !owns(&forced, "ci", "Update", REPLICAS));
    assert!(
        owns(&forced, "ci", "Update", "/f:spec/f:selector"),
        "the Update entry keeps the rest"
    );
}

#[test]
fn an_update_owns_the_maps_it_adds_so_its_entry_outlives_its_leaves() {
    let writer = |manager| Writer {
        api_version: "v1".into(),
        kind: "ConfigMap",
        object_type: builtin_type("", "ConfigMap"),
        built_in: builtin("", "ConfigMap"),
        reset: &[],
        ..deployment_writer(manager, NOW)
    };
    let mut created = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "labels": {"a": "b"}}, "data": {"a": "1"}});
    record_update(None, &mut created, &writer("first"));
    assert_eq!(
        entry(&created, "first", "Update").expect("an entry")["fieldsV1"],
        json!({"f:data": {".": {}, "f:a": {}}, "f:metadata": {"f:labels": {".": {}, "f:a": {}}}})
    );
    let mut edited = created.clone();
    edited["data"]["a"] = json!("2");
    edited["metadata"]["labels"]["a"] = json!("c");
    record_update(Some(&created), &mut edited, &writer("second"));
    assert_eq!(
        entry(&edited, "first", "Update").expect("kept")["fieldsV1"],
        json!({"f:data": {}, "f:metadata": {"f:labels": {}}})
    );
    assert_eq!(
        entry(&edited, "second", "Update").expect("an entry")["fieldsV1"],
        json!({"f:data": {"f:a": {}}, "f:metadata": {"f:labels": {"f:a": {}}}})
    );
}

#[test]
fn a_custom_resource_update_owns_every_map_it_adds_and_not_its_structs_in_built_ins() {
    let writer = widget_writer("ctl");
    let mut widget = json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": {"size": {"cpu": 1}}});
    record_update(None, &mut widget, &writer);
    assert_eq!(
        entry(&widget, "ctl", "Update").expect("an entry")["fieldsV1"],
        json!({"f:spec": {".": {}, "f:size": {".": {}, "f:cpu": {}}}})
    );
    let mut deployment = config(1, "nginx:1");
    record_update(None, &mut deployment, &deployment_writer("ctl", NOW));
    let fields = &entry(&deployment, "ctl", "Update").expect("an entry")["fieldsV1"];
    assert!(
        fields["f:spec"].get(".").is_none(),
        "a Deployment's spec is a struct in Go's zero value"
    );
    assert!(fields.pointer("/f:metadata/f:labels/.").is_some());
    assert!(fields.pointer("/f:spec/f:template/f:spec/f:containers/.").is_none());
}

#[test]
fn a_status_apply_ignores_the_spec_it_carries_and_names_its_subresource() {
    let live = apply_as(None, &config(1, "nginx:1"), "ci", false).expect("created");
    let status_writer = Writer {
        subresource: Some("status"),
        reset: &["spec"],
        ..deployment_writer("controller", NOW)
    };
    let mut status = config(5, "nginx:9");
    status["status"] = json!({"readyReplicas": 1});
    let applied = apply(Some(&live), &status, false, &status_writer).expect("no conflict on the spec");
    let entry = entry(&applied, "controller", "Apply").expect("an Apply entry");
    assert_eq!(entry["subresource"], "status");
    assert_eq!(entry["fieldsV1"]["f:status"], json!({"f:readyReplicas": {}}));
    assert!(entry["fieldsV1"].get("f:spec").is_none());
    assert!(owns(&applied, "ci", "Apply", REPLICAS), "the spec stays ci's");
}

#[test]
fn a_scale_update_names_its_subresource_in_the_entry_and_in_conflicts() {
    let live = apply_as(None, &config(1, "nginx:1"), "ci", false).expect("created");
    let mut scaled = live.clone();
    scaled["spec"]["replicas"] = json!(3);
    let scale_writer = Writer {
        subresource: Some("scale"),
        reset: &[],
        ..deployment_writer("autoscaler", NOW)
    };
    record_update(Some(&live), &mut scaled, &scale_writer);
    let entry = entry(&scaled, "autoscaler", "Update").expect("an entry");
    assert_eq!(entry["subresource"], "scale");
    assert!(
        entry.get("time").is_none(),
        "kube's scale handler keeps the object's times"
    );
    assert_eq!(entry["fieldsV1"], json!({"f:spec": {"f:replicas": {}}}));
    assert_eq!(
        conflicts(apply_as(Some(&scaled), &config(1, "nginx:1"), "ci", false)),
        [conflict(
            "\"autoscaler\" with subresource \"scale\" using apps/v1",
            ".spec.replicas"
        )]
    );
}

#[test]
fn updates_in_two_api_versions_are_two_entries() {
    let writer = widget_writer("ctl");
    let mut v1 = json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": {"a": 1}});
    record_update(None, &mut v1, &writer);
    let mut v2 = v1.clone();
    v2["apiVersion"] = json!("example.com/v2");
    v2["spec"]["b"] = json!(2);
    let writer_v2 = Writer {
        api_version: "example.com/v2".into(),
        ..widget_writer("ctl")
    };
    record_update(Some(&v1), &mut v2, &writer_v2);
    let versions: Vec<&str> = v2["metadata"]["managedFields"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|e| e["apiVersion"].as_str())
        .collect();
    assert_eq!(versions, ["example.com/v1", "example.com/v2"]);
}

#[test]
fn a_built_in_update_owns_the_optional_structs_it_adds_even_empty_ones() {
    let mut deployment = config(1, "nginx:1");
    deployment["spec"]["strategy"] = json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}});
    deployment["spec"]["template"]["spec"]["volumes"] = json!([{"name": "scratch", "emptyDir": {}}]);
    record_update(None, &mut deployment, &deployment_writer("ctl", NOW));
    let fields = &entry(&deployment, "ctl", "Update").expect("an entry")["fieldsV1"];
    assert_eq!(
        fields["f:spec"]["f:strategy"],
        json!({"f:rollingUpdate": {".": {}, "f:maxSurge": {}}, "f:type": {}})
    );
    assert_eq!(
        fields["f:spec"]["f:template"]["f:spec"]["f:volumes"],
        json!({".": {}, "k:{\"name\":\"scratch\"}": {".": {}, "f:emptyDir": {}, "f:name": {}}})
    );
}

mod lists;
