//! Apply of a custom resource's lists and maps by their types: map lists, sets, atomic
//! lists and maps, defaulted keys, and kubectl's client-side annotation.

use serde_json::{Value, json};

use super::*;

fn widget(spec: &Value) -> Value {
    json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": spec})
}

fn apply_widget(live: Option<&Value>, spec: &Value, manager: &str, force: bool) -> Result<Value, PatchError> {
    apply(live, &widget(spec), force, &widget_writer(manager))
}

#[test]
fn two_appliers_own_their_own_items_of_a_map_list() {
    let one = apply_widget(None, &json!({"ports": [{"name": "a", "port": 1}]}), "m1", false).expect("created");
    let both =
        apply_widget(Some(&one), &json!({"ports": [{"name": "b", "port": 2}]}), "m2", false).expect("no conflict");
    assert_eq!(
        both["spec"]["ports"],
        json!([{"name": "a", "port": 1}, {"name": "b", "port": 2}])
    );
    let item = |name: &str| format!("/f:spec/f:ports/k:{{\"name\":\"{name}\"}}");
    assert!(owns(&both, "m1", "Apply", &format!("{}/f:port", item("a"))));
    assert!(owns(&both, "m2", "Apply", &format!("{}/f:port", item("b"))));
    assert!(!owns(&both, "m1", "Apply", &item("b")));

    // Dropping the list releases only the items m1 owned.
    let released = apply_widget(Some(&both), &json!({"tags": ["x"]}), "m1", false).expect("applied");
    assert_eq!(released["spec"]["ports"], json!([{"name": "b", "port": 2}]));
    assert!(owns(&released, "m2", "Apply", &item("b")));
}

#[test]
fn the_same_key_with_another_value_conflicts_and_force_keeps_the_other_items() {
    let one = apply_widget(
        None,
        &json!({"ports": [{"name": "a", "port": 1}, {"name": "c", "port": 3}]}),
        "m1",
        false,
    )
    .expect("created");
    let clash = apply_widget(Some(&one), &json!({"ports": [{"name": "a", "port": 5}]}), "m2", false);
    assert_eq!(conflicts(clash), [conflict("\"m1\"", ".spec.ports[name=\"a\"].port")]);
    let forced = apply_widget(Some(&one), &json!({"ports": [{"name": "a", "port": 5}]}), "m2", true).expect("forced");
    assert_eq!(
        forced["spec"]["ports"],
        json!([{"name": "a", "port": 5}, {"name": "c", "port": 3}])
    );
    assert!(
        owns(&forced, "m1", "Apply", "/f:spec/f:ports/k:{\"name\":\"a\"}"),
        "m1 keeps the item"
    );
    assert!(!owns(
        &forced,
        "m1",
        "Apply",
        "/f:spec/f:ports/k:{\"name\":\"a\"}/f:port"
    ));
    assert!(owns(
        &forced,
        "m2",
        "Apply",
        "/f:spec/f:ports/k:{\"name\":\"a\"}/f:port"
    ));
}

#[test]
fn an_item_both_managers_apply_stays_until_both_stop() {
    let one = apply_widget(None, &json!({"ports": [{"name": "a", "port": 1}]}), "m1", false).expect("created");
    let shared =
        apply_widget(Some(&one), &json!({"ports": [{"name": "a", "port": 1}]}), "m2", false).expect("same value");
    let m1_gone = apply_widget(Some(&shared), &json!({}), "m1", false).expect("applied");
    assert_eq!(m1_gone["spec"]["ports"], json!([{"name": "a", "port": 1}]));
    let both_gone = apply_widget(Some(&m1_gone), &json!({}), "m2", false).expect("applied");
    assert!(
        both_gone.get("spec").is_none_or(|spec| spec.get("ports").is_none()),
        "{both_gone}"
    );
}

#[test]
fn sets_merge_by_value_and_atomic_maps_and_lists_are_one_field() {
    let one = apply_widget(
        None,
        &json!({"tags": ["x"], "selector": {"a": "1"}, "items": [{"name": "i"}]}),
        "m1",
        false,
    )
    .expect("created");
    assert_eq!(
        entry(&one, "m1", "Apply").expect("an entry")["fieldsV1"],
        json!({"f:spec": {"f:items": {}, "f:selector": {}, "f:tags": {"v:\"x\"": {}}}})
    );
    let two = apply_widget(Some(&one), &json!({"tags": ["y", "x"]}), "m2", false).expect("a set item is shared");
    assert_eq!(two["spec"]["tags"], json!(["y", "x"]));
    assert_eq!(
        conflicts(apply_widget(Some(&two), &json!({"selector": {"b": "2"}}), "m2", false)),
        [conflict("\"m1\"", ".spec.selector")]
    );
    assert_eq!(
        conflicts(apply_widget(
            Some(&two),
            &json!({"items": [{"name": "j"}]}),
            "m2",
            false
        )),
        [conflict("\"m1\"", ".spec.items")]
    );
}

#[test]
fn conflicts_list_a_nodes_fields_before_its_children_grouped_by_manager() {
    let one = apply_widget(
        None,
        &json!({"ports": [{"name": "a", "port": 1}], "selector": {"a": "1"}}),
        "m1",
        false,
    )
    .expect("created");
    let result = apply_widget(
        Some(&one),
        &json!({"ports": [{"name": "a", "port": 5}], "selector": {"s": "2"}}),
        "m2",
        false,
    );
    let Err(error) = result else { panic!("a conflict") };
    assert_eq!(
        error.to_string(),
        "Apply failed with 2 conflicts: conflicts with \"m1\":\n- .spec.selector\n- .spec.ports[name=\"a\"].port"
    );
}

#[test]
fn a_missing_key_takes_its_default_and_duplicates_are_refused() {
    let one = apply_widget(None, &json!({"ports": [{"name": "a"}]}), "m1", false).expect("created");
    assert!(owns(&one, "m1", "Apply", "/f:spec/f:ports/k:{\"name\":\"a\"}/f:name"));
    let duplicated = apply_widget(None, &json!({"ports": [{"name": "a"}, {"name": "a"}]}), "m1", false);
    assert!(
        matches!(&duplicated, Err(PatchError::Internal(message)) if message.ends_with(".spec.ports: duplicate entries for key [name=\"a\"]")),
        "{duplicated:?}"
    );
}

#[test]
fn kubectl_takes_over_fields_its_client_side_annotation_set() {
    let annotated = |replicas: u32| {
        let mut object = config(replicas, "nginx:1");
        let last_applied = serde_json::to_string(&config(replicas, "nginx:1")).expect("JSON");
        object["metadata"]["annotations"] = json!({LAST_APPLIED: last_applied});
        object
    };
    let mut live = annotated(1);
    record_update(None, &mut live, &deployment_writer("kubectl-client-side-apply", NOW));
    let applied = apply_as(Some(&live), &config(2, "nginx:1"), "kubectl", false).expect("no conflict");
    assert_eq!(applied["spec"]["replicas"], 2);
    let annotation = applied["metadata"]["annotations"][LAST_APPLIED]
        .as_str()
        .expect("kept current");
    assert!(
        annotation.ends_with('\n') && annotation.contains("\"replicas\":2"),
        "{annotation}"
    );
    assert!(
        matches!(
            apply_as(Some(&live), &config(2, "nginx:1"), "other", false),
            Err(PatchError::Conflict(_))
        ),
        "only kubectl is forgiven"
    );
}
