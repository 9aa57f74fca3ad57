//! Strategic merge patch for built-in types: lists with a merge key (containers by
//! name, ports by containerPort, ...) are merged item by item instead of replaced.
//!
//! Follows apimachinery's `strategicpatch`: maps merge recursively and `null` deletes a
//! field; the directives `$patch`, `$retainKeys`, `$deleteFromPrimitiveList/<field>` and
//! `$setElementOrder/<field>` steer the merge and never reach the result.

use serde_json::{Map, Value};

use wheelhouse_envtest_schema::errors::go_plain;

use super::PatchError;
use super::merge_keys::{ListStrategy, list_merge_key};

const PATCH: &str = "$patch";
const RETAIN_KEYS: &str = "$retainKeys";
const DELETE_FROM_PRIMITIVE_LIST: &str = "$deleteFromPrimitiveList/";
const SET_ELEMENT_ORDER: &str = "$setElementOrder/";

/// Applies the strategic merge patch `patch` to `original`, an object of `kind` in API
/// group `group` (`""` for core).
pub(crate) fn strategic_merge(original: &Value, patch: &Value, group: &str, kind: &str) -> Result<Value, PatchError> {
    let Value::Object(patch) = patch else {
        return Err(PatchError::BadRequest(
            "a strategic merge patch must be a JSON object".into(),
        ));
    };
    let original = match original {
        Value::Object(map) => map.clone(),
        _ => Map::new(),
    };
    let merged = Merger { group, kind }.merge_map(original, patch, &mut Vec::new())?;
    Ok(Value::Object(merged.unwrap_or_default()))
}

/// The object's type, which picks the merge key of each list. The methods' `location` is
/// the field path from the object root with list items left out, as the table wants it.
struct Merger<'a> {
    group: &'a str,
    kind: &'a str,
}

impl Merger<'_> {
    fn strategy(&self, location: &[&str]) -> ListStrategy {
        list_merge_key(self.group, self.kind, location)
    }

    /// Merges `patch` into the map `original` at `location`; `None` means `$patch: delete`
    /// removed the map.
    fn merge_map<'p>(
        &self,
        original: Map<String, Value>,
        patch: &'p Map<String, Value>,
        location: &mut Vec<&'p str>,
    ) -> Result<Option<Map<String, Value>>, PatchError> {
        match patch.get(PATCH) {
            None => {}
            Some(Value::String(directive)) if directive == "delete" => return Ok(None),
            // The patch is the new map; merging it into nothing still drops the nulls and
            // directives it carries.
            Some(Value::String(directive)) if directive == "replace" => {
                return self.merge_fields(Map::new(), patch, location).map(Some);
            }
            // `handleDirectiveInMergeMap`: only replace and delete mean something in a map
            // (`merge` too is `ErrBadPatchType`), and the error is a plain one: a 500.
            Some(other) => return Err(bad_patch_type(other, patch)),
        }
        self.merge_fields(original, patch, location).map(Some)
    }

    /// The body of `merge_map` once its `$patch` directive is handled.
    fn merge_fields<'p>(
        &self,
        original: Map<String, Value>,
        patch: &'p Map<String, Value>,
        location: &mut Vec<&'p str>,
    ) -> Result<Map<String, Value>, PatchError> {
        let mut result = original;
        for (key, value) in patch {
            if let Some(field) = key.strip_prefix(DELETE_FROM_PRIMITIVE_LIST) {
                let Value::Array(doomed) = value else {
                    return Err(PatchError::BadRequest(format!("{key} must be a list")));
                };
                if let Some(Value::Array(items)) = result.get_mut(field) {
                    // `mergeSlice` checks the deletion list against the list first: a list
                    // of objects is not a list of primitives.
                    element_types_agree(items, doomed)?;
                    items.retain(|item| !doomed.contains(item));
                }
            }
        }
        for (key, value) in patch {
            if is_directive(key) {
                continue;
            }
            if value.is_null() {
                result.remove(key);
                continue;
            }
            location.push(key);
            let merged = self.merge_value(result.remove(key), value, location);
            location.pop();
            if let Some(merged) = merged? {
                result.insert(key.clone(), merged);
            }
        }
        if let Some(retained) = patch.get(RETAIN_KEYS) {
            let Value::Array(retained) = retained else {
                return Err(PatchError::BadRequest(format!(
                    "{RETAIN_KEYS} must be a list of field names"
                )));
            };
            result.retain(|key, _| retained.iter().any(|name| name.as_str() == Some(key)));
        }
        for (key, order) in patch {
            if let Some(field) = key.strip_prefix(SET_ELEMENT_ORDER) {
                let Value::Array(order) = order else {
                    return Err(PatchError::BadRequest(format!("{key} must be a list")));
                };
                if let Some(Value::Array(items)) = result.get_mut(field) {
                    location.push(field);
                    let strategy = self.strategy(location);
                    location.pop();
                    reorder(items, order, strategy);
                }
            }
        }
        Ok(result)
    }

    /// Merges one patch value into the original one, if any; `None` removes the field.
    fn merge_value<'p>(
        &self,
        original: Option<Value>,
        patch: &'p Value,
        location: &mut Vec<&'p str>,
    ) -> Result<Option<Value>, PatchError> {
        match patch {
            Value::Object(patch) => {
                let original = match original {
                    Some(Value::Object(map)) => map,
                    _ => Map::new(),
                };
                Ok(self.merge_map(original, patch, location)?.map(Value::Object))
            }
            Value::Array(items) => {
                let original = match original {
                    Some(Value::Array(items)) => items,
                    _ => Vec::new(),
                };
                self.merge_list(original, items, location)
                    .map(|list| Some(Value::Array(list)))
            }
            scalar => Ok(Some(scalar.clone())),
        }
    }

    fn merge_list<'p>(
        &self,
        original: Vec<Value>,
        patch: &'p [Value],
        location: &mut Vec<&'p str>,
    ) -> Result<Vec<Value>, PatchError> {
        let strategy = self.strategy(location);
        // `{"$patch": "replace"}` among the items: the other items are the whole list.
        let replace = patch.iter().any(|item| directive_of(item) == Some("replace"));
        match strategy {
            ListStrategy::Map { patch_key, .. } if !replace => {
                self.merge_keyed_list(original, patch, patch_key, location)
            }
            ListStrategy::Set if !replace => {
                let mut result = original;
                for item in patch.iter().filter(|item| directive_of(item).is_none()) {
                    if !result.contains(item) {
                        result.push(self.fresh(item, location)?);
                    }
                }
                Ok(result)
            }
            _ => {
                let mut result = Vec::with_capacity(patch.len());
                for item in patch {
                    if directive_of(item).is_some() {
                        continue;
                    }
                    result.push(self.fresh(item, location)?);
                }
                Ok(result)
            }
        }
    }

    fn merge_keyed_list<'p>(
        &self,
        original: Vec<Value>,
        patch: &'p [Value],
        patch_key: &str,
        location: &mut Vec<&'p str>,
    ) -> Result<Vec<Value>, PatchError> {
        // `mergeSlice`: the items of both lists must be of one type, and not lists.
        element_types_agree(&original, patch)?;
        let mut result = original;
        for item in patch {
            let Value::Object(item) = item else {
                // Primitives under a merge key merge as a set, as `mergeSlice` does.
                if !result.contains(item) {
                    result.push(item.clone());
                }
                continue;
            };
            // `mergeSliceWithSpecialElements`, then `mergeSliceWithoutSpecialElements`:
            // every item names its merge key, a deletion included.
            let no_merge_key = || {
                PatchError::Internal(format!(
                    "map: {} does not contain declared merge key: {patch_key}",
                    go_plain(&Value::Object(item.clone()))
                ))
            };
            match item.get(PATCH) {
                None => {}
                Some(Value::String(directive)) if directive == "delete" => {}
                Some(Value::String(directive)) if directive == "merge" => {
                    return Err(PatchError::Internal(
                        "merging lists cannot yet be specified in the patch".into(),
                    ));
                }
                Some(other) => return Err(bad_patch_type(other, item)),
            }
            let Some(key) = item.get(patch_key) else {
                return Err(no_merge_key());
            };
            let same_key = |existing: &Value| existing.get(patch_key) == Some(key);
            if directive_of_map(item) == Some("delete") {
                result.retain(|existing| !same_key(existing));
                continue;
            }
            match result.iter().position(same_key) {
                Some(index) => {
                    let existing = match result[index].take() {
                        Value::Object(map) => map,
                        _ => Map::new(),
                    };
                    match self.merge_map(existing, item, location)? {
                        Some(merged) => result[index] = Value::Object(merged),
                        None => {
                            result.remove(index);
                        }
                    }
                }
                None => {
                    if let Some(merged) = self.merge_map(Map::new(), item, location)? {
                        result.push(Value::Object(merged));
                    }
                }
            }
        }
        Ok(result)
    }

    /// A patch value with no original to merge into, stripped of nulls and directives.
    fn fresh<'p>(&self, value: &'p Value, location: &mut Vec<&'p str>) -> Result<Value, PatchError> {
        Ok(self.merge_value(None, value, location)?.unwrap_or(Value::Null))
    }
}

/// `mergepatch.ErrBadPatchType`: a `$patch` directive the merge does not know, with
/// the map that carries it as Go prints it.
fn bad_patch_type(directive: &Value, map: &Map<String, Value>) -> PatchError {
    PatchError::Internal(format!(
        "unknown patch type: {} in map: {}",
        go_plain(directive),
        go_plain(&Value::Object(map.clone()))
    ))
}

/// `sliceElementType`: the items of the original list and of the patch's are all of
/// one JSON type (objects, strings, numbers...), and not lists; otherwise the merge
/// fails as the real server's does (a 500 quoting both lists, or `ErrNoListOfLists`).
fn element_types_agree(original: &[Value], patch: &[Value]) -> Result<(), PatchError> {
    fn type_of(value: &Value) -> u8 {
        match value {
            Value::Null => 0,
            Value::Bool(_) => 1,
            // Go decodes whole numbers as int64 and others as float64: two types.
            Value::Number(number) if number.is_f64() => 2,
            Value::Number(_) => 3,
            Value::String(_) => 4,
            Value::Array(_) => 5,
            Value::Object(_) => 6,
        }
    }
    let mut first = None;
    // A null item has no type (`reflect.TypeOf(nil)`): it neither sets nor breaks it.
    for item in original.iter().chain(patch).filter(|item| !item.is_null()) {
        let kind = type_of(item);
        match first {
            None if kind == 5 => {
                return Err(PatchError::Rejected("lists of lists are not supported".into()));
            }
            None => first = Some(kind),
            Some(seen) if seen != kind => {
                let lists = Value::Array(vec![Value::Array(original.to_vec()), Value::Array(patch.to_vec())]);
                return Err(PatchError::Internal(format!(
                    "list element types are not identical: {}",
                    go_plain(&lists)
                )));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

fn is_directive(key: &str) -> bool {
    key == PATCH
        || key == RETAIN_KEYS
        || key.starts_with(DELETE_FROM_PRIMITIVE_LIST)
        || key.starts_with(SET_ELEMENT_ORDER)
}

fn directive_of(item: &Value) -> Option<&str> {
    item.as_object().and_then(directive_of_map)
}

fn directive_of_map(item: &Map<String, Value>) -> Option<&str> {
    item.get(PATCH).and_then(Value::as_str)
}

/// Puts the items `order` names in that order, in the slots such items already hold, so
/// items the order leaves out keep their places.
fn reorder(items: &mut [Value], order: &[Value], strategy: ListStrategy) {
    let rank = |item: &Value| match strategy {
        ListStrategy::Map { patch_key, .. } => {
            let key = item.get(patch_key)?;
            order.iter().position(|named| named.get(patch_key) == Some(key))
        }
        _ => order.iter().position(|named| named == item),
    };
    let slots: Vec<usize> = (0..items.len()).filter(|&i| rank(&items[i]).is_some()).collect();
    let mut ranked: Vec<(usize, Value)> = slots
        .iter()
        .filter_map(|&i| Some((rank(&items[i])?, items[i].clone())))
        .collect();
    ranked.sort_by_key(|(rank, _)| *rank);
    for (slot, (_, item)) in slots.into_iter().zip(ranked) {
        items[slot] = item;
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn deployment(containers: &Value) -> Value {
        json!({
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "web", "finalizers": ["a"]},
            "spec": {"replicas": 1, "template": {"spec": {"containers": containers}}}
        })
    }

    fn patch_deployment(original: &Value, patch: &Value) -> Value {
        strategic_merge(original, patch, "apps", "Deployment").expect("the patch applies")
    }

    fn containers(object: &Value) -> &Value {
        &object["spec"]["template"]["spec"]["containers"]
    }

    fn assert_no_directives(value: &Value) {
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    assert!(!key.starts_with('$'), "directive {key} left in the result");
                    assert_no_directives(child);
                }
            }
            Value::Array(items) => items.iter().for_each(assert_no_directives),
            _ => {}
        }
    }

    #[test]
    fn changing_one_container_image_keeps_the_other_container() {
        let original = deployment(&json!([
            {"name": "app", "image": "app:1", "args": ["--a"]},
            {"name": "sidecar", "image": "proxy:1"}
        ]));
        let patch = json!({"spec": {"template": {"spec": {"containers": [{"name": "app", "image": "app:2"}]}}}});
        let patched = patch_deployment(&original, &patch);
        assert_eq!(
            containers(&patched),
            &json!([
                {"name": "app", "image": "app:2", "args": ["--a"]},
                {"name": "sidecar", "image": "proxy:1"}
            ])
        );
        assert_eq!(patched["spec"]["replicas"], 1);
    }

    #[test]
    fn a_container_with_a_new_name_is_appended() {
        let original = deployment(&json!([{"name": "app", "image": "app:1"}]));
        let patch = json!({"spec": {"template": {"spec": {"containers": [{"name": "log", "image": "log:1"}]}}}});
        let patched = patch_deployment(&original, &patch);
        let names: Vec<_> = containers(&patched)
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| &c["name"])
            .collect();
        assert_eq!(names, ["app", "log"]);
    }

    #[test]
    fn env_merges_by_name_and_ports_by_container_port() {
        let original = json!({"spec": {"containers": [{
            "name": "app",
            "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
            "ports": [{"containerPort": 80, "name": "http"}, {"containerPort": 443, "name": "https"}]
        }]}});
        let patch = json!({"spec": {"containers": [{
            "name": "app",
            "env": [{"name": "B", "value": "3"}, {"name": "C", "value": "4"}],
            "ports": [{"containerPort": 80, "name": "web"}]
        }]}});
        let patched = strategic_merge(&original, &patch, "", "Pod").expect("the patch applies");
        let app = &patched["spec"]["containers"][0];
        assert_eq!(
            app["env"],
            json!([{"name": "A", "value": "1"}, {"name": "B", "value": "3"}, {"name": "C", "value": "4"}])
        );
        assert_eq!(
            app["ports"],
            json!([{"containerPort": 80, "name": "web"}, {"containerPort": 443, "name": "https"}])
        );
    }

    #[test]
    fn service_ports_merge_by_port() {
        let original = json!({"spec": {"ports": [{"port": 80, "targetPort": 8080}, {"port": 443}]}});
        let patch = json!({"spec": {"ports": [{"port": 80, "targetPort": 9090}]}});
        let patched = strategic_merge(&original, &patch, "", "Service").expect("the patch applies");
        assert_eq!(
            patched["spec"]["ports"],
            json!([{"port": 80, "targetPort": 9090}, {"port": 443}])
        );
    }

    #[test]
    fn lists_without_a_merge_key_are_replaced() {
        let original =
            json!({"spec": {"tolerations": [{"key": "a"}], "containers": [{"name": "app", "args": ["x", "y"]}]}});
        let patch = json!({"spec": {"tolerations": [{"key": "b"}], "containers": [{"name": "app", "args": ["z"]}]}});
        let patched = strategic_merge(&original, &patch, "", "Pod").expect("the patch applies");
        assert_eq!(patched["spec"]["tolerations"], json!([{"key": "b"}]));
        assert_eq!(patched["spec"]["containers"][0]["args"], json!(["z"]));
    }

    #[test]
    fn custom_resource_lists_are_replaced() {
        let original = json!({"spec": {"containers": [{"name": "a"}, {"name": "b"}]}});
        let patch = json!({"spec": {"containers": [{"name": "a", "image": "x"}]}});
        let patched = strategic_merge(&original, &patch, "example.com", "Widget").expect("the patch applies");
        assert_eq!(patched["spec"]["containers"], json!([{"name": "a", "image": "x"}]));
    }

    #[test]
    fn patch_delete_in_a_list_item_removes_that_item() {
        let original = deployment(&json!([{"name": "app"}, {"name": "sidecar"}]));
        let patch = json!({"spec": {"template": {"spec": {"containers": [{"name": "sidecar", "$patch": "delete"}]}}}});
        let patched = patch_deployment(&original, &patch);
        assert_eq!(containers(&patched), &json!([{"name": "app"}]));
        assert_no_directives(&patched);
    }

    #[test]
    fn patch_delete_in_a_map_removes_the_map() {
        let original = json!({"spec": {"template": {"spec": {"securityContext": {"runAsUser": 1}, "containers": []}}}});
        let patch = json!({"spec": {"template": {"spec": {"securityContext": {"$patch": "delete"}}}}});
        let patched = patch_deployment(&original, &patch);
        assert!(patched["spec"]["template"]["spec"].get("securityContext").is_none());
        assert!(patched["spec"]["template"]["spec"].get("containers").is_some());
    }

    #[test]
    fn patch_replace_replaces_a_map_and_a_list() {
        let mut original = deployment(&json!([{"name": "app", "image": "a"}, {"name": "sidecar"}]));
        original["spec"]["strategy"] = json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}});
        let patch = json!({"spec": {
            "strategy": {"$patch": "replace", "type": "Recreate"},
            "template": {"spec": {"containers": [{"$patch": "replace"}, {"name": "only", "image": "o"}]}}
        }});
        let patched = patch_deployment(&original, &patch);
        assert_eq!(patched["spec"]["strategy"], json!({"type": "Recreate"}));
        assert_eq!(containers(&patched), &json!([{"name": "only", "image": "o"}]));
        assert_no_directives(&patched);
    }

    #[test]
    fn null_deletes_a_field_and_is_dropped_from_new_maps() {
        let original = json!({"metadata": {"labels": {"a": "1", "b": "2"}}, "spec": {"replicas": 3}});
        let patch = json!({"metadata": {"labels": {"a": null}, "annotations": {"x": null, "y": "1"}}});
        let patched = patch_deployment(&original, &patch);
        assert_eq!(patched["metadata"]["labels"], json!({"b": "2"}));
        assert_eq!(patched["metadata"]["annotations"], json!({"y": "1"}));
        let patched = patch_deployment(&original, &json!({"spec": null}));
        assert!(patched.get("spec").is_none());
    }

    #[test]
    fn finalizers_are_unioned() {
        let original = deployment(&json!([]));
        let patched = patch_deployment(&original, &json!({"metadata": {"finalizers": ["b", "a"]}}));
        assert_eq!(patched["metadata"]["finalizers"], json!(["a", "b"]));
    }

    #[test]
    fn delete_from_primitive_list_removes_values() {
        let mut original = deployment(&json!([]));
        original["metadata"]["finalizers"] = json!(["a", "b", "c"]);
        let patch = json!({"metadata": {"$deleteFromPrimitiveList/finalizers": ["a", "c"], "finalizers": ["d"]}});
        let patched = patch_deployment(&original, &patch);
        assert_eq!(patched["metadata"]["finalizers"], json!(["b", "d"]));
        assert_no_directives(&patched);
    }

    #[test]
    fn set_element_order_orders_the_merged_list() {
        let original = deployment(&json!([{"name": "a"}, {"name": "b"}, {"name": "c"}]));
        let patch = json!({"spec": {"template": {"spec": {
            "$setElementOrder/containers": [{"name": "c"}, {"name": "a"}, {"name": "b"}],
            "containers": [{"name": "a", "image": "x"}]
        }}}});
        let patched = patch_deployment(&original, &patch);
        assert_eq!(
            containers(&patched),
            &json!([{"name": "c"}, {"name": "a", "image": "x"}, {"name": "b"}])
        );
        assert_no_directives(&patched);
    }

    #[test]
    fn retain_keys_drops_the_other_fields() {
        let original = json!({"spec": {"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}}}});
        let patch = json!({"spec": {"strategy": {"$retainKeys": ["type"], "type": "Recreate"}}});
        let patched = patch_deployment(&original, &patch);
        assert_eq!(patched["spec"]["strategy"], json!({"type": "Recreate"}));
        assert_no_directives(&patched);
    }

    #[test]
    fn directives_in_new_fields_never_reach_the_result() {
        let original = json!({"spec": {}});
        let patch = json!({"spec": {"template": {"spec": {
            "containers": [{"name": "a", "env": [{"name": "X"}]}, {"name": "b", "$patch": "delete"}],
            "volumes": [{"name": "v", "$retainKeys": ["name"]}],
            "$setElementOrder/containers": [{"name": "a"}]
        }}}});
        let patched = patch_deployment(&original, &patch);
        assert_eq!(containers(&patched), &json!([{"name": "a", "env": [{"name": "X"}]}]));
        assert_no_directives(&patched);
    }

    #[test]
    fn a_keyed_item_without_its_key_is_the_merge_s_plain_error() {
        let original = deployment(&json!([{"name": "app"}]));
        for item in [json!({"image": "x"}), json!({"$patch": "delete"})] {
            let patch = json!({"spec": {"template": {"spec": {"containers": [item]}}}});
            let error = strategic_merge(&original, &patch, "apps", "Deployment").expect_err("no merge key");
            let PatchError::Internal(message) = error else {
                panic!("a 500, as kube-apiserver answers: {error:?}");
            };
            assert!(message.starts_with("map: map[") && message.ends_with("does not contain declared merge key: name"));
        }
        let patch = json!({"spec": {"template": {"spec": {"containers": [{"name": "app", "$patch": "merge"}]}}}});
        assert_eq!(
            strategic_merge(&original, &patch, "apps", "Deployment"),
            Err(PatchError::Internal(
                "merging lists cannot yet be specified in the patch".into()
            ))
        );
    }

    #[test]
    fn unknown_patch_types_and_mixed_lists_are_the_merge_s_plain_errors() {
        let original = json!({});
        assert!(matches!(
            strategic_merge(&original, &json!([1]), "", "Pod"),
            Err(PatchError::BadRequest(_))
        ));
        for directive in ["shuffle", "merge"] {
            let patch = json!({"spec": {"$patch": directive}});
            assert_eq!(
                strategic_merge(&original, &patch, "", "Pod"),
                Err(PatchError::Internal(format!(
                    "unknown patch type: {directive} in map: map[$patch:{directive}]"
                )))
            );
        }
        let original = deployment(&json!([{"name": "app", "image": "a"}]));
        let patch = json!({"spec": {"template": {"spec": {"$deleteFromPrimitiveList/containers": ["x"]}}}});
        assert_eq!(
            strategic_merge(&original, &patch, "apps", "Deployment"),
            Err(PatchError::Internal(
                "list element types are not identical: [[map[image:a name:app]] [x]]".into()
            ))
        );
    }

    #[test]
    fn conditions_merge_by_type() {
        let original = json!({"status": {"conditions": [{"type": "Ready", "status": "False"}, {"type": "Scheduled", "status": "True"}]}});
        let patch = json!({"status": {"conditions": [{"type": "Ready", "status": "True"}]}});
        let patched = strategic_merge(&original, &patch, "", "Pod").expect("the patch applies");
        assert_eq!(
            patched["status"]["conditions"],
            json!([{"type": "Ready", "status": "True"}, {"type": "Scheduled", "status": "True"}])
        );
    }
}
