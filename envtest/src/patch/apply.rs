//! Server-side apply and managed fields: who owns which field of an object.
//!
//! Follows structured-merge-diff as kube-apiserver runs it. An apply makes the applied
//! fields the manager's (operation `Apply`), fails on fields another manager owns with a
//! different value unless forced, and removes fields the manager applied last time but
//! no longer does and nobody else owns. Any other write (`record_update`) takes the fields
//! it changed from everyone else (operation `Update`). Both drop ownership of fields that
//! are gone from the object.

use serde_json::{Map, Value};

use super::configuration::{merge, prune};
use super::fieldset::{self, FieldSet, Schema, is_tracked};
use super::managed::{self, APPLY, Entry, UPDATE};
use super::{Conflict, PatchError};
use wheelhouse_envtest_schema::errors::go_quote;

/// Applies `applied` (the manager's whole intent) to `live` (None when the object does
/// not exist yet) as field manager `manager`; returns the new object with its
/// `metadata.managedFields` updated. `now` is the RFC 3339 time to
/// record; `group` and `kind` choose the list merge keys of built-in types.
pub(crate) fn apply(
    live: Option<&Value>,
    applied: &Value,
    manager: &str,
    force: bool,
    now: &str,
    group: &str,
    kind: &str,
) -> Result<Value, PatchError> {
    if !applied.is_object() {
        return Err(PatchError::BadRequest(
            "an apply configuration must be a JSON object".into(),
        ));
    }
    if applied
        .pointer("/metadata/managedFields")
        .is_some_and(|fields| !fields.is_null())
    {
        return Err(PatchError::BadRequest("metadata.managedFields must be nil".into()));
    }
    let schema = Schema { group, kind };
    let mut applied_set = fieldset::leaves(applied, schema).map_err(PatchError::BadRequest)?;
    applied_set.retain(is_tracked);

    let mut live = live.cloned().unwrap_or_else(|| Value::Object(Map::new()));
    let mut entries = managed::read(managed::take(&mut live).as_ref());
    let mut merged = merge(&live, applied, schema, &mut Vec::new());

    let own = entries.iter().position(|entry| entry.is(manager, APPLY, None));
    let previous = own.map(|index| entries[index].fields.clone()).unwrap_or_default();
    let mut owned: FieldSet = entries
        .iter()
        .enumerate()
        .filter(|(index, _)| Some(*index) != own)
        .flat_map(|(_, entry)| entry.fields.iter().cloned())
        .collect();
    owned.extend(applied_set.iter().cloned());
    prune(&mut merged, &previous, &owned, schema);

    let mut changed = fieldset::changed(&live, &merged, schema);
    changed.retain(is_tracked);
    let mut conflicts = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        // The manager's own `Update` entry hands its fields over without a conflict.
        if Some(index) == own || entry.manager == manager {
            continue;
        }
        let shown = shown_manager(entry);
        conflicts.extend(entry.fields.intersection(&changed).map(|path| Conflict {
            manager: entry.manager.clone(),
            shown: shown.clone(),
            field: fieldset::describe(path),
        }));
    }
    if !conflicts.is_empty() && !force {
        return Err(PatchError::Conflict(conflicts));
    }
    for (index, entry) in entries.iter_mut().enumerate() {
        if Some(index) != own {
            entry.fields.retain(|path| !changed.contains(path));
        }
    }

    let api_version = api_version(applied, &live);
    let object_changed = merged != live;
    match own {
        Some(index) => {
            let entry = &mut entries[index];
            if object_changed || entry.fields != applied_set {
                entry.time = Some(now.to_owned());
            }
            entry.fields = applied_set;
            entry.api_version = api_version;
        }
        None => entries.push(Entry {
            manager: manager.to_owned(),
            operation: APPLY.to_owned(),
            api_version,
            time: Some(now.to_owned()),
            subresource: None,
            fields: applied_set,
        }),
    }
    forget_missing(&mut entries, &merged, schema);
    managed::write(&mut merged, &entries);
    Ok(merged)
}

/// Records a non-apply write (create, update, patch) by `manager`: the fields that it
/// set or changed between `old` and `new` become owned by it (operation `Update`).
pub(crate) fn record_update(
    old: Option<&Value>,
    new: &mut Value,
    manager: &str,
    now: &str,
    subresource: Option<&str>,
    group: &str,
    kind: &str,
) {
    let schema = Schema { group, kind };
    let mut old = old.cloned().unwrap_or_else(|| Value::Object(Map::new()));
    let old_fields = managed::take(&mut old);
    let new_fields = managed::take(new);
    // A writer that sends managed fields other than the stored ones replaces them, as on
    // the real server; most send back what they read, or nothing (a merge patch).
    let base = match new_fields {
        Some(fields) if Some(&fields) != old_fields.as_ref() => Some(fields),
        _ => old_fields,
    };
    let mut entries = managed::read(base.as_ref());

    let mut changed = fieldset::changed(&old, new, schema);
    changed.retain(is_tracked);
    let own = entries.iter().position(|entry| entry.is(manager, UPDATE, subresource));
    for (index, entry) in entries.iter_mut().enumerate() {
        if Some(index) != own {
            entry.fields.retain(|path| !changed.contains(path));
        }
    }
    let api_version = api_version(new, &old);
    match own {
        Some(index) => {
            let entry = &mut entries[index];
            let before = entry.fields.len();
            entry.fields.extend(changed);
            if entry.fields.len() != before {
                entry.time = Some(now.to_owned());
                entry.api_version = api_version;
            }
        }
        None if !changed.is_empty() => entries.push(Entry {
            manager: manager.to_owned(),
            operation: UPDATE.to_owned(),
            api_version,
            time: Some(now.to_owned()),
            subresource: subresource.map(str::to_owned),
            fields: changed,
        }),
        None => {}
    }
    forget_missing(&mut entries, new, schema);
    managed::write(new, &entries);
}

/// `printManager`: how a conflict names a manager (its time is not part of it).
fn shown_manager(entry: &Entry) -> String {
    let mut shown = go_quote(&entry.manager);
    if let Some(subresource) = entry.subresource.as_deref().filter(|s| !s.is_empty()) {
        shown = format!("{shown} with subresource {}", go_quote(subresource));
    }
    if entry.operation == UPDATE {
        shown = format!("{shown} using {}", entry.api_version);
    }
    shown
}

fn api_version(object: &Value, fallback: &Value) -> String {
    object
        .get("apiVersion")
        .or_else(|| fallback.get("apiVersion"))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

/// Nobody owns a field that is not there.
fn forget_missing(entries: &mut [Entry], object: &Value, schema: Schema<'_>) {
    for entry in entries {
        entry
            .fields
            .retain(|path| fieldset::locate(object, path, schema).is_some());
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

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

    fn apply_as(live: Option<&Value>, applied: &Value, manager: &str, force: bool) -> Result<Value, PatchError> {
        apply(live, applied, manager, force, NOW, "apps", "Deployment")
    }

    /// `applied` by "ci" over `live`, at the later time.
    fn reapply_later(live: &Value, applied: &Value) -> Value {
        apply(Some(live), applied, "ci", false, LATER, "apps", "Deployment").expect("applied")
    }

    fn update_as(old: &Value, new: &mut Value, manager: &str, now: &str) {
        record_update(Some(old), new, manager, now, None, "apps", "Deployment");
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

    fn conflicts(result: Result<Value, PatchError>) -> Vec<Conflict> {
        match result {
            Err(PatchError::Conflict(conflicts)) => conflicts,
            other => panic!("expected a conflict, got {other:?}"),
        }
    }

    const REPLICAS: &str = "/f:spec/f:replicas";

    #[test]
    fn apply_creates_the_object_with_an_apply_entry() {
        let created = apply_as(None, &config(1, "nginx:1"), "ci", false).expect("created");
        assert_eq!(without_managed_fields(&created), config(1, "nginx:1"));
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
        assert_eq!(without_managed_fields(&second), config(1, "nginx:1"));
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
        assert_eq!(
            conflicts(result),
            [Conflict {
                manager: "ci".into(),
                shown: "\"ci\"".into(),
                field: ".spec.replicas".into()
            }]
        );
    }

    #[test]
    fn force_takes_ownership() {
        let live = apply_as(None, &config(1, "nginx:1"), "ci", false).expect("created");
        let scale = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": 2}});
        let forced = apply_as(Some(&live), &scale, "autoscaler", true).expect("forced");
        assert_eq!(forced["spec"]["replicas"], 2);
        assert!(owns(&forced, "autoscaler", "Apply", REPLICAS));
        assert!(!owns(&forced, "ci", "Apply", REPLICAS));
        assert!(owns(&forced, "ci", "Apply", "/f:spec/f:selector"));

        let back = apply_as(Some(&forced), &config(1, "nginx:1"), "ci", false);
        assert_eq!(
            conflicts(back),
            [Conflict {
                manager: "autoscaler".into(),
                shown: "\"autoscaler\"".into(),
                field: ".spec.replicas".into()
            }]
        );
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
            [Conflict {
                manager: "kubectl-edit".into(),
                shown: "\"kubectl-edit\" using apps/v1".into(),
                field: ".spec.template.spec.containers[name=\"nginx\"].image".into()
            }]
        );
        let unchanged = apply_as(Some(&edited), &config(1, "nginx:2"), "ci", false).expect("same value");
        assert!(owns(&unchanged, "ci", "Apply", image) && owns(&unchanged, "kubectl-edit", "Update", image));
    }

    #[test]
    fn fields_only_others_own_are_kept_by_an_apply() {
        let live = apply_as(None, &config(1, "nginx:1"), "ci", false).expect("created");
        let mut with_status = live.clone();
        with_status["status"] = json!({"readyReplicas": 1});
        record_update(
            Some(&live),
            &mut with_status,
            "controller",
            NOW,
            Some("status"),
            "apps",
            "Deployment",
        );
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
    fn custom_resource_lists_are_atomic() {
        let widget = |items: Value| json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": {"items": items}});
        let live = apply(
            None,
            &widget(json!([{"name": "a"}, {"name": "b"}])),
            "ci",
            false,
            NOW,
            "example.com",
            "Widget",
        )
        .expect("created");
        let fields = &entry(&live, "ci", "Apply").expect("an entry")["fieldsV1"];
        assert_eq!(fields["f:spec"], json!({"f:items": {}}));
        let replaced = apply(
            Some(&live),
            &widget(json!([{"name": "c"}])),
            "ci",
            false,
            NOW,
            "example.com",
            "Widget",
        )
        .expect("applied");
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
        let mut without_key = config(1, "nginx:1");
        without_key["spec"]["template"]["spec"]["containers"] = json!([{"image": "x"}]);
        assert!(matches!(
            apply_as(None, &without_key, "ci", false),
            Err(PatchError::BadRequest(_))
        ));
        assert!(matches!(
            apply_as(None, &json!("x"), "ci", false),
            Err(PatchError::BadRequest(_))
        ));
    }

    #[test]
    fn apply_keeps_unowned_live_fields() {
        let mut live = config(1, "nginx:1");
        live["spec"]["paused"] = json!(false);
        live["metadata"]["uid"] = json!("1234");
        let applied = apply_as(Some(&live), &config(4, "nginx:1"), "ci", false).expect("applied");
        assert_eq!(applied["spec"]["paused"], false);
        assert_eq!(applied["metadata"]["uid"], "1234");
        assert_eq!(applied["spec"]["replicas"], 4);
        assert!(!owns(&applied, "ci", "Apply", "/f:metadata/f:uid"));
    }

    #[test]
    fn record_update_on_create_owns_every_field_but_identity() {
        let mut created = config(1, "nginx:1");
        record_update(None, &mut created, "kubectl-create", NOW, None, "apps", "Deployment");
        let fields = &entry(&created, "kubectl-create", "Update").expect("an Update entry")["fieldsV1"];
        assert!(fields.pointer("/f:spec/f:replicas").is_some());
        assert!(fields.pointer("/f:metadata/f:labels/f:app").is_some());
        assert!(fields.pointer("/f:metadata/f:name").is_none());
        assert!(fields.get("f:apiVersion").is_none() && fields.get("f:kind").is_none());
    }

    #[test]
    fn record_update_merges_into_one_entry_and_moves_the_time_only_on_change() {
        let mut live = config(1, "nginx:1");
        record_update(None, &mut live, "ctl", NOW, None, "apps", "Deployment");
        let mut same = live.clone();
        same["spec"]["replicas"] = json!(2);
        update_as(&live, &mut same, "ctl", LATER);
        assert_eq!(
            entry(&same, "ctl", "Update").expect("an entry")["time"],
            NOW,
            "replicas was already ctl's"
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
}
