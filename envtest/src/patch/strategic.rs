//! Strategic merge patch for built-in types: lists with a merge key (containers by
//! name, ports by containerPort, ...) are merged item by item instead of replaced.
//!
//! A port of apimachinery's `strategicpatch` as `StrategicMergeMapPatch` runs it on
//! the server (`MergeParallelList` and `IgnoreUnmatchedNulls` both on), function by
//! function, so that what a patch does at the edges (a value the object lacks, a
//! directive in a new value, a list the patch reorders) and the errors it meets are
//! kube-apiserver's:
//!
//! | kube function | here |
//! |---|---|
//! | `mergeMap`, `handleDirectiveInMergeMap` | [`Merger::merge_map`], [`handle_directive_in_merge_map`] |
//! | `applyRetainKeysDirective` | [`apply_retain_keys_directive`] |
//! | `mergePatchIntoOriginal` (`$setElementOrder`) | [`Merger::merge_patch_into_original`] |
//! | `validatePatchWithSetOrderList`, `mergeKeyValueEqual` | [`validate_patch_with_set_order_list`], [`merge_key_value_equal`] |
//! | `preprocessDeletionListForMerging`, `extractKey` | in `merge_map`, [`extract_key`] |
//! | `mergeSliceHandler`, `mergeSlice` | [`Merger::merge_slice`] |
//! | `mergeSliceWithSpecialElements`, `deleteMatchingEntries` | [`merge_slice_with_special_elements`] |
//! | `mergeSliceWithoutSpecialElements`, `findMapInSliceBasedOnKeyValue` | [`Merger::merge_slice_without_special_elements`], [`Positions`] |
//! | `deleteFromSlice`, `deduplicateScalars` | [`delete_from_slice`], [`deduplicate_scalars`] |
//! | `partitionPrimitivesByPresentInList`, `partitionMapsByPresentInList` | [`partition_primitives`], [`partition_maps`] |
//! | `normalizeElementOrder`, `normalizeSliceOrder`, `mergeSortedSlice`, `index` | [`normalize_element_order`], [`normalize_slice_order`], [`merge_sorted_slice`], [`Positions`] |
//! | `extractToDeleteItems`, `validateMergeKeyInLists` | [`extract_to_delete_items`], [`validate_merge_key_in_lists`] |
//! | `removeDirectives`, `discardNullValuesFromPatch` | [`remove_directives`], [`discard_nulls`] |
//! | `sliceElementType` | [`slice_element_type`] |
//! | `interpretStrategicMergePatchError` (the handler) | [`PatchError`] kinds: the format errors are 400s, lists of lists 422s, the rest 500s |
//!
//! The original is the stored object's JSON, where kube merges into the Go object's
//! `ToUnstructured` form, which also writes the empty structs Go holds by value
//! (`resources: {}`): a patch map inside such an empty struct is taken as sent here
//! where kube would merge it (and meet a directive's error there).
//!
//! Not ported: the lookup of a field in the Go struct (a directive naming a field the
//! type lacks fails there with "unable to find api field"; here the list merges as a
//! list without a strategy; only a `runtime.RawExtension`'s fields fail so), the panic Go's `==` raises on a merge key whose value is an
//! object or a list, and the order Go's map iteration gives the fields of a patch (here
//! they are merged in key order, which only decides which of two errors comes first).
//! Where Go scans a list for every item (lookups by merge key, deduplication), the
//! same results come from tables built once, so that a long list a client sends
//! costs time in proportion to its length, not its square.

use serde_json::{Map, Value};

use wheelhouse_envtest_schema::errors::go_plain;

use super::PatchError;
use super::merge_keys::{ListStrategy, list_merge_key};
use crate::core::go_slice_stable;

const DIRECTIVE_MARKER: &str = "$patch";
const RETAIN_KEYS: &str = "$retainKeys";
const DELETE_FROM_PRIMITIVE_LIST: &str = "$deleteFromPrimitiveList";
const SET_ELEMENT_ORDER: &str = "$setElementOrder";

const BAD_PRIMITIVE_LIST: &str = "invalid patch format of primitive list";
const BAD_RETAIN_KEYS: &str = "invalid patch format of retainKeys";
const BAD_SET_ELEMENT_ORDER: &str = "invalid patch format of setElementOrder list";
const NO_LIST_OF_LISTS: &str = "lists of lists are not supported";

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
    let merged = Merger { group, kind }.merge_map(original, patch.clone(), &mut Vec::new())?;
    Ok(Value::Object(merged))
}

/// The JSON type of a value as `reflect.TypeOf` tells Go's decoded values apart: whole
/// numbers are `int64` and others `float64` (the patch handler keeps integers), and a
/// `null` has no type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GoType {
    Nil,
    Bool,
    Float,
    Int,
    String,
    Slice,
    Map,
}

fn go_type(value: &Value) -> GoType {
    match value {
        Value::Null => GoType::Nil,
        Value::Bool(_) => GoType::Bool,
        Value::Number(number) if number.is_f64() => GoType::Float,
        Value::Number(_) => GoType::Int,
        Value::String(_) => GoType::String,
        Value::Array(_) => GoType::Slice,
        Value::Object(_) => GoType::Map,
    }
}

/// How `reflect.TypeOf(v)` prints in `mergepatch.ErrBadArgType`'s message.
fn go_type_name(value: &Value) -> &'static str {
    match go_type(value) {
        GoType::Nil => "%!s(<nil>)",
        GoType::Bool => "bool",
        GoType::Float => "float64",
        GoType::Int => "int64",
        GoType::String => "string",
        GoType::Slice => SLICE,
        GoType::Map => MAP,
    }
}

/// `mergepatch.ErrBadArgType`: a plain error, so a 500.
fn bad_arg_type(expected: &str, actual: &Value) -> PatchError {
    PatchError::Internal(format!(
        "expected a {expected}, but received a {}",
        go_type_name(actual)
    ))
}

const SLICE: &str = "[]interface {}";
const MAP: &str = "map[string]interface {}";

/// `mergepatch.ErrNoMergeKey`.
fn no_merge_key(map: &Map<String, Value>, key: &str) -> PatchError {
    PatchError::Internal(format!(
        "map: {} does not contain declared merge key: {key}",
        go_plain(&Value::Object(map.clone()))
    ))
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

/// The object's type, which picks the merge key of each list. The methods' `location` is
/// the field path from the object root with list items left out, as the table wants it.
struct Merger<'a> {
    group: &'a str,
    kind: &'a str,
}

impl Merger<'_> {
    /// Whether `location` is a `runtime.RawExtension` of the type (a controller
    /// revision's `data`), whose fields the merge cannot look up.
    fn in_raw_extension(&self, location: &[String]) -> bool {
        self.group == "apps" && self.kind == "ControllerRevision" && location == ["data"]
    }

    fn strategy(&self, location: &[String]) -> ListStrategy {
        let path: Vec<&str> = location.iter().map(String::as_str).collect();
        list_merge_key(self.group, self.kind, &path)
    }

    /// `mergeMap`: merges `patch` into the map `original` at `location`.
    fn merge_map(
        &self,
        mut original: Map<String, Value>,
        mut patch: Map<String, Value>,
        location: &mut Vec<String>,
    ) -> Result<Map<String, Value>, PatchError> {
        if let Some(directive) = patch.get(DIRECTIVE_MARKER) {
            let directive = directive.clone();
            return handle_directive_in_merge_map(&directive, patch);
        }
        apply_retain_keys_directive(&mut original, &mut patch)?;
        self.merge_patch_into_original(&mut original, &mut patch, location)?;
        for (key, patch_value) in patch {
            // `preprocessDeletionListForMerging`: `$deleteFromPrimitiveList/<field>` is
            // merged into `<field>` as a list of values to delete.
            let (key, is_delete_list) = if key.starts_with(DELETE_FROM_PRIMITIVE_LIST) {
                (extract_key(&key, DELETE_FROM_PRIMITIVE_LIST)?, true)
            } else {
                (key, false)
            };
            if patch_value.is_null() {
                original.remove(&key);
                continue;
            }
            let existing = original.remove(&key);
            let existing = match existing {
                Some(existing) if go_type(&existing) == go_type(&patch_value) => existing,
                // Not in the original, or of another type: the patch's value, without its
                // nulls and the maps that carry a `$patch` directive.
                other => {
                    if is_delete_list {
                        if let Some(existing) = other {
                            original.insert(key, existing);
                        }
                    } else if let Some(value) = remove_directives(discard_nulls(patch_value)) {
                        original.insert(key, value);
                    }
                    continue;
                }
            };
            // `LookupPatchMetadataForStruct` of a field of an opaque value: a map or a
            // list in both, inside a `runtime.RawExtension`, has no struct to look in.
            if matches!(existing, Value::Object(_) | Value::Array(_)) && self.in_raw_extension(location) {
                return Err(PatchError::Internal(format!(
                    "unable to find api field in struct RawExtension for the json field \"{key}\""
                )));
            }
            location.push(key.clone());
            let merged = match (existing, patch_value) {
                (Value::Object(existing), Value::Object(patch_value)) => {
                    Ok(Some(Value::Object(self.merge_map(existing, patch_value, location)?)))
                }
                (Value::Array(existing), Value::Array(patch_value)) => {
                    // `mergeSliceHandler`: lists without a merge strategy are replaced
                    // by the patch's list as it is; deletion lists merge regardless.
                    let strategy = self.strategy(location);
                    if strategy == ListStrategy::Atomic && !is_delete_list {
                        Ok(Some(Value::Array(patch_value)))
                    } else {
                        self.merge_slice(existing, patch_value, strategy, is_delete_list, location)
                            .map(|merged| Some(Value::Array(merged)))
                    }
                }
                (_, scalar) => Ok(remove_directives(scalar)),
            };
            location.pop();
            if let Some(merged) = merged? {
                original.insert(key, merged);
            }
        }
        Ok(original)
    }

    /// `mergePatchIntoOriginal`: each `$setElementOrder/<field>` merges `<field>` (if
    /// the patch has it) and then orders the result: the order the directive gives
    /// first, then the patch's, then the live list's.
    fn merge_patch_into_original(
        &self,
        original: &mut Map<String, Value>,
        patch: &mut Map<String, Value>,
        location: &mut Vec<String>,
    ) -> Result<(), PatchError> {
        let directives: Vec<String> = patch
            .keys()
            .filter(|key| key.starts_with(SET_ELEMENT_ORDER))
            .cloned()
            .collect();
        for directive in directives {
            let Some(order) = patch.remove(&directive) else {
                continue;
            };
            let Value::Array(order) = order else {
                return Err(bad_arg_type(SLICE, &order));
            };
            let field = extract_key(&directive, SET_ELEMENT_ORDER)?;
            let original_list = match original.get(&field) {
                Some(Value::Array(items)) => Some(items.clone()),
                Some(other) => return Err(bad_arg_type(SLICE, other)),
                None => None,
            };
            let patch_list = match patch.get(&field) {
                Some(Value::Array(items)) => Some(items.clone()),
                Some(other) => return Err(bad_arg_type(SLICE, other)),
                None => None,
            };
            location.push(field.clone());
            let strategy = self.strategy(location);
            let merge_key = merge_key_of(strategy);
            validate_patch_with_set_order_list(patch_list.as_deref().unwrap_or_default(), &order, merge_key)?;
            let merged = match (&original_list, patch_list) {
                (Some(original_list), None) => original_list.clone(),
                (None, Some(patch_list)) => match remove_directives(Value::Array(patch_list)) {
                    Some(Value::Array(items)) => items,
                    _ => Vec::new(),
                },
                (Some(original_list), Some(patch_list)) => {
                    if strategy == ListStrategy::Atomic {
                        patch_list
                    } else {
                        self.merge_slice(original_list.clone(), patch_list, strategy, false, location)?
                    }
                }
                (None, None) => {
                    location.pop();
                    continue;
                }
            };
            location.pop();
            let (patch_items, server_only) = if merge_key.is_empty() {
                partition_primitives(merged, &order)
            } else {
                partition_maps(merged, &order, merge_key)?
            };
            let original_items = original_list.unwrap_or_default();
            let patch_items_of_field = match patch.get(&field) {
                Some(Value::Array(items)) => items.as_slice(),
                _ => &[],
            };
            let kind = slice_element_type(&[&original_items, patch_items_of_field])?;
            let both = normalize_element_order(patch_items, server_only, &order, &original_items, merge_key, kind)?;
            original.insert(field.clone(), Value::Array(both));
            patch.remove(&field);
        }
        Ok(())
    }

    /// `mergeSlice`: a list with a merge strategy (or a deletion list), merged and then
    /// ordered: the patch's items in the patch's order, the live list's others among them.
    fn merge_slice(
        &self,
        original: Vec<Value>,
        patch: Vec<Value>,
        strategy: ListStrategy,
        is_delete_list: bool,
        location: &mut Vec<String>,
    ) -> Result<Vec<Value>, PatchError> {
        if original.is_empty() && patch.is_empty() {
            return Ok(original);
        }
        let kind = slice_element_type(&[&original, &patch])?;
        let merge_key = merge_key_of(strategy);
        let (original, patch, merged) = if kind == GoType::Map {
            if merge_key.is_empty() {
                // `schema.Name()`: the kind of the list's Go item type.
                let item_kind = if strategy == ListStrategy::Set {
                    "string"
                } else {
                    "struct"
                };
                return Err(PatchError::Internal(format!(
                    "cannot merge lists without merge key for {item_kind}"
                )));
            }
            let (original, patch) = merge_slice_with_special_elements(original, patch, merge_key)?;
            let merged = self.merge_slice_without_special_elements(original.clone(), &patch, merge_key, location)?;
            (original, patch, merged)
        } else {
            if is_delete_list {
                return Ok(delete_from_slice(original, &patch));
            }
            let mut both = original.clone();
            both.extend(patch.iter().cloned());
            (original, patch, deduplicate_scalars(both))
        };
        let (patch_items, server_only) = if merge_key.is_empty() {
            partition_primitives(merged, &patch)
        } else {
            partition_maps(merged, &patch, merge_key)?
        };
        normalize_element_order(patch_items, server_only, &patch, &original, merge_key, kind)
    }

    /// `mergeSliceWithoutSpecialElements`: each patch item merges into the live item
    /// with its merge key, or is appended as it is.
    fn merge_slice_without_special_elements(
        &self,
        mut original: Vec<Value>,
        patch: &[Value],
        merge_key: &str,
        location: &mut Vec<String>,
    ) -> Result<Vec<Value>, PatchError> {
        // `findMapInSliceBasedOnKeyValue` of each patch item, from a table of the live
        // items (all maps here) kept up to date as items are appended.
        let mut positions = Positions::of(&original, Some(merge_key));
        for item in patch {
            let Value::Object(map) = item else {
                return Err(bad_arg_type(MAP, item));
            };
            if !map.contains_key(merge_key) {
                return Err(no_merge_key(map, merge_key));
            }
            if let Some(index) = positions.index(item) {
                let existing = match std::mem::take(&mut original[index]) {
                    Value::Object(existing) => existing,
                    _ => Map::new(),
                };
                original[index] = Value::Object(self.merge_map(existing, map.clone(), location)?);
            } else {
                positions.insert(item, original.len());
                original.push(item.clone());
            }
        }
        Ok(original)
    }
}

fn merge_key_of(strategy: ListStrategy) -> &'static str {
    match strategy {
        ListStrategy::Map { patch_key, .. } => patch_key,
        _ => "",
    }
}

/// `handleDirectiveInMergeMap`: `replace` makes the patch (without the directive, its
/// nulls and nested directives left as they are) the map; `delete` leaves an empty map.
fn handle_directive_in_merge_map(
    directive: &Value,
    mut patch: Map<String, Value>,
) -> Result<Map<String, Value>, PatchError> {
    match directive.as_str() {
        Some("replace") => {
            patch.remove(DIRECTIVE_MARKER);
            Ok(patch)
        }
        Some("delete") => Ok(Map::new()),
        _ => Err(bad_patch_type(directive, &patch)),
    }
}

/// `applyRetainKeysDirective`: the fields of the live map that `$retainKeys` does not
/// list are dropped; every field the patch sets must be listed.
fn apply_retain_keys_directive(
    original: &mut Map<String, Value>,
    patch: &mut Map<String, Value>,
) -> Result<(), PatchError> {
    let Some(retained) = patch.remove(RETAIN_KEYS) else {
        return Ok(());
    };
    let Value::Array(retained) = retained else {
        return Err(PatchError::BadRequest(BAD_RETAIN_KEYS.into()));
    };
    let listed = |key: &str| retained.iter().any(|name| name.as_str() == Some(key));
    for (key, value) in patch.iter() {
        if value.is_null() || key.starts_with(DELETE_FROM_PRIMITIVE_LIST) || key.starts_with(SET_ELEMENT_ORDER) {
            continue;
        }
        if !listed(key) {
            return Err(PatchError::BadRequest(BAD_RETAIN_KEYS.into()));
        }
    }
    original.retain(|key, _| listed(key));
    Ok(())
}

/// `extractKey`: the field a `<prefix>/<field>` directive names.
fn extract_key(key: &str, prefix: &str) -> Result<String, PatchError> {
    match key.split_once('/') {
        Some((head, field)) if head == prefix => Ok(field.to_owned()),
        _ => Err(PatchError::BadRequest(
            if prefix == DELETE_FROM_PRIMITIVE_LIST {
                BAD_PRIMITIVE_LIST
            } else {
                BAD_SET_ELEMENT_ORDER
            }
            .into(),
        )),
    }
}

/// `validatePatchWithSetOrderList`: the patch's items (deletions aside) come in the
/// order `$setElementOrder` gives them, and it names each of them.
fn validate_patch_with_set_order_list(patch: &[Value], order: &[Value], merge_key: &str) -> Result<(), PatchError> {
    if order.is_empty() || patch.is_empty() {
        return Ok(());
    }
    let kept = if merge_key.is_empty() {
        patch.to_vec()
    } else {
        extract_to_delete_items(patch.to_vec())?.0
    };
    let (mut at_patch, mut at_order) = (0, 0);
    while at_patch < kept.len() && at_order < order.len() {
        if kept[at_patch]
            .as_object()
            .is_some_and(|item| item.contains_key(DIRECTIVE_MARKER))
        {
            at_patch += 1;
            continue;
        }
        if merge_key_value_equal(&kept[at_patch], &order[at_order], merge_key)? {
            at_patch += 1;
        }
        at_order += 1;
    }
    if at_patch < kept.len() && at_order >= order.len() {
        return Err(PatchError::Internal(format!(
            "The order in patch list:\n{}\n doesn't match {SET_ELEMENT_ORDER} list:\n{}\n",
            go_plain(&Value::Array(patch.to_vec())),
            go_plain(&Value::Array(order.to_vec()))
        )));
    }
    Ok(())
}

/// `mergeKeyValueEqual`.
fn merge_key_value_equal(left: &Value, right: &Value, merge_key: &str) -> Result<bool, PatchError> {
    if merge_key.is_empty() {
        return Ok(left == right);
    }
    let Value::Object(left) = left else {
        return Err(bad_arg_type(MAP, left));
    };
    let Value::Object(right) = right else {
        return Err(bad_arg_type(MAP, right));
    };
    let left_key = left.get(merge_key).ok_or_else(|| no_merge_key(left, merge_key))?;
    let right_key = right.get(merge_key).ok_or_else(|| no_merge_key(right, merge_key))?;
    Ok(left_key == right_key)
}

/// `mergeSliceWithSpecialElements`: items with `$patch: delete` remove the live items
/// with their key, `$patch: replace` makes the other items the whole list.
fn merge_slice_with_special_elements(
    mut original: Vec<Value>,
    patch: Vec<Value>,
    merge_key: &str,
) -> Result<(Vec<Value>, Vec<Value>), PatchError> {
    let mut plain = Vec::new();
    let mut replace = false;
    // `deleteMatchingEntries` of each deletion: every live item with its key goes,
    // whichever deletion names it, so they are gathered and applied once.
    let mut doomed = std::collections::HashSet::new();
    for item in patch {
        let Value::Object(map) = &item else {
            return Err(bad_arg_type(MAP, &item));
        };
        let Some(directive) = map.get(DIRECTIVE_MARKER) else {
            plain.push(item);
            continue;
        };
        match directive.as_str() {
            Some("delete") => {
                if !map.contains_key(merge_key) {
                    return Err(no_merge_key(map, merge_key));
                }
                doomed.insert(identity(&item, Some(merge_key)));
            }
            Some("replace") => replace = true,
            Some("merge") => {
                return Err(PatchError::Internal(
                    "merging lists cannot yet be specified in the patch".into(),
                ));
            }
            _ => return Err(bad_patch_type(directive, map)),
        }
    }
    if replace {
        return Ok((plain, Vec::new()));
    }
    original.retain(|item| !doomed.contains(&identity(item, Some(merge_key))));
    Ok((original, plain))
}

/// `deleteFromSlice`: the live values without the ones listed.
fn delete_from_slice(current: Vec<Value>, doomed: &[Value]) -> Vec<Value> {
    let doomed = Positions::of(doomed, None);
    current
        .into_iter()
        .filter(|value| doomed.index(value).is_none())
        .collect()
}

/// `deduplicateScalars`, whose way of dropping a repeat (the last value takes its
/// place) decides the order the later sort starts from.
fn deduplicate_scalars(mut values: Vec<Value>) -> Vec<Value> {
    // Go's loop compares each value with every later one, and on a repeat moves the
    // last value into its place (checking that place again). The same moves, found
    // through each value's places instead of by scanning: the next repeat of
    // `values[i]` is the smallest place after `i` that holds it.
    let mut places: std::collections::HashMap<String, std::collections::BTreeSet<usize>> =
        std::collections::HashMap::new();
    for (index, value) in values.iter().enumerate() {
        places.entry(identity(value, None)).or_default().insert(index);
    }
    let mut i = 0;
    while i + 1 < values.len() {
        let key = identity(&values[i], None);
        while let Some(j) = places.get(&key).and_then(|p| p.range(i + 1..).next().copied()) {
            let last = values.len() - 1;
            places.entry(key.clone()).or_default().remove(&j);
            if j != last {
                let moved = identity(&values[last], None);
                let moved_places = places.entry(moved).or_default();
                moved_places.remove(&last);
                moved_places.insert(j);
                values[j] = values[last].clone();
            }
            values.truncate(last);
        }
        i += 1;
    }
    values
}

/// `partitionPrimitivesByPresentInList`: the values `by` holds, and the others.
fn partition_primitives(values: Vec<Value>, by: &[Value]) -> (Vec<Value>, Vec<Value>) {
    let by = Positions::of(by, None);
    values.into_iter().partition(|value| by.index(value).is_some())
}

/// `partitionMapsByPresentInList`: the items whose merge key an item of `by` has, and
/// the others; every item must have its key.
fn partition_maps(items: Vec<Value>, by: &[Value], merge_key: &str) -> Result<(Vec<Value>, Vec<Value>), PatchError> {
    let by = Positions::of(by, Some(merge_key));
    let (mut present, mut absent) = (Vec::new(), Vec::new());
    for item in items {
        let Value::Object(map) = &item else {
            return Err(bad_arg_type(MAP, &item));
        };
        if !map.contains_key(merge_key) {
            return Err(no_merge_key(map, merge_key));
        }
        if by.index(&item).is_some() {
            present.push(item);
        } else {
            absent.push(item);
        }
    }
    Ok((present, absent))
}

/// `normalizeElementOrder`: the patch's items in `patch_order`, the live list's others
/// in `server_order`, then the two merged by the live order where both are placed.
fn normalize_element_order(
    patch: Vec<Value>,
    server_only: Vec<Value>,
    patch_order: &[Value],
    server_order: &[Value],
    merge_key: &str,
    kind: GoType,
) -> Result<Vec<Value>, PatchError> {
    let patch = normalize_slice_order(patch, patch_order, merge_key, kind)?;
    let server_only = normalize_slice_order(server_only, server_order, merge_key, kind)?;
    Ok(merge_sorted_slice(server_only, patch, server_order, merge_key, kind))
}

/// `normalizeSliceOrder`: sorts by the place in `order` (Go's stable sort with kube's
/// comparison, which calls any pair it cannot place "less"); deletions go last.
fn normalize_slice_order(
    mut items: Vec<Value>,
    order: &[Value],
    merge_key: &str,
    kind: GoType,
) -> Result<Vec<Value>, PatchError> {
    let mut doomed = Vec::new();
    if kind == GoType::Map {
        validate_merge_key_in_lists(merge_key, &[&items, order])?;
        (items, doomed) = extract_to_delete_items(items)?;
    }
    let order = Positions::of(order, (kind == GoType::Map).then_some(merge_key));
    go_slice_stable(&mut items, |a, b| match (order.index(a), order.index(b)) {
        (Some(a), Some(b)) => a < b,
        _ => true,
    });
    items.extend(doomed);
    Ok(items)
}

/// `mergeSortedSlice`: inserts each of `left` into `right` before the first item of
/// `right` it comes before in `server_order`.
fn merge_sorted_slice(
    left: Vec<Value>,
    right: Vec<Value>,
    server_order: &[Value],
    merge_key: &str,
    kind: GoType,
) -> Vec<Value> {
    let server_order = Positions::of(server_order, (kind == GoType::Map).then_some(merge_key));
    let less = |l: &Value, r: &Value| match (server_order.index(l), server_order.index(r)) {
        (Some(l), Some(r)) => l < r,
        _ => false,
    };
    let mut merged = Vec::with_capacity(left.len() + right.len());
    let mut left = left.into_iter().peekable();
    let mut right = right.into_iter().peekable();
    loop {
        let take_left = match (left.peek(), right.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(l), Some(r)) => less(l, r),
        };
        let next = if take_left { left.next() } else { right.next() };
        merged.extend(next);
    }
    merged
}

/// `index`: where an item sits in a list, by merge key for maps (an item without the
/// key, or not a map, counts as Go's nil), by value otherwise; the first place a key
/// holds, looked up in a table built once, so that sorting a long list a client sent
/// does not search it for every comparison.
struct Positions<'k> {
    first: std::collections::HashMap<String, usize>,
    /// The merge key of a list of maps; None for a list of values.
    merge_key: Option<&'k str>,
}

impl<'k> Positions<'k> {
    fn of(items: &[Value], merge_key: Option<&'k str>) -> Self {
        let mut positions = Self {
            first: std::collections::HashMap::with_capacity(items.len()),
            merge_key,
        };
        for (index, item) in items.iter().enumerate() {
            let key = positions.key(item);
            positions.first.entry(key).or_insert(index);
        }
        positions
    }

    fn key(&self, item: &Value) -> String {
        identity(item, self.merge_key)
    }

    fn index(&self, item: &Value) -> Option<usize> {
        self.first.get(&self.key(item)).copied()
    }

    /// Records `item` at `index` unless its key has a place already.
    fn insert(&mut self, item: &Value, index: usize) {
        let key = self.key(item);
        self.first.entry(key).or_insert(index);
    }
}

/// An item's identity as Go's `==` compares what `index` and the merges compare: for
/// maps (`merge_key` given) their merge key's value, nil when it is missing; else the
/// value itself; as JSON text (whole numbers and others differ, as int64 and float64
/// do).
fn identity(item: &Value, merge_key: Option<&str>) -> String {
    let compared = match merge_key {
        Some(key) => item.as_object().and_then(|map| map.get(key)),
        None => Some(item),
    };
    compared.map_or_else(|| "nil".to_owned(), |value| format!("v{value}"))
}

/// `extractToDeleteItems`: the items to keep and those marked `$patch: delete`.
fn extract_to_delete_items(items: Vec<Value>) -> Result<(Vec<Value>, Vec<Value>), PatchError> {
    let (mut kept, mut doomed) = (Vec::new(), Vec::new());
    for item in items {
        let Value::Object(map) = &item else {
            return Err(bad_arg_type(MAP, &item));
        };
        if map.get(DIRECTIVE_MARKER).and_then(Value::as_str) == Some("delete") {
            doomed.push(item);
        } else {
            kept.push(item);
        }
    }
    Ok((kept, doomed))
}

/// `validateMergeKeyInLists`: every item of every list is a map with the merge key.
fn validate_merge_key_in_lists(merge_key: &str, lists: &[&[Value]]) -> Result<(), PatchError> {
    for item in lists.iter().flat_map(|list| list.iter()) {
        let Value::Object(map) = item else {
            return Err(bad_arg_type(MAP, item));
        };
        if !map.contains_key(merge_key) {
            return Err(no_merge_key(map, merge_key));
        }
    }
    Ok(())
}

/// `removeDirectives`: the value without the maps that carry `$patch` (None when the
/// value itself is one); other directives stay, for the decoder to find unknown.
fn remove_directives(value: Value) -> Option<Value> {
    match value {
        Value::Object(map) => {
            if map.contains_key(DIRECTIVE_MARKER) {
                return None;
            }
            Some(Value::Object(
                map.into_iter()
                    .filter_map(|(key, child)| Some((key, remove_directives(child)?)))
                    .collect(),
            ))
        }
        Value::Array(items) => Some(Value::Array(items.into_iter().filter_map(remove_directives).collect())),
        other => Some(other),
    }
}

/// `discardNullValuesFromPatch`: drops the fields set to `null` at every depth (null
/// list items stay).
fn discard_nulls(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(_, child)| !child.is_null())
                .map(|(key, child)| (key, discard_nulls(child)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(discard_nulls).collect()),
        other => other,
    }
}

/// `sliceElementType`: the one type of the lists' items, which must not be lists.
fn slice_element_type(lists: &[&[Value]]) -> Result<GoType, PatchError> {
    let mut first = None;
    for item in lists.iter().flat_map(|list| list.iter()) {
        let kind = go_type(item);
        match first {
            // Go reads the kind of a first `null` item and panics; a null that comes
            // first has no type here, and the next item's decides.
            None if kind == GoType::Nil => {}
            None if kind == GoType::Slice => return Err(PatchError::Rejected(NO_LIST_OF_LISTS.into())),
            None => first = Some(kind),
            Some(seen) if seen != kind => {
                let lists = Value::Array(lists.iter().map(|list| Value::Array(list.to_vec())).collect());
                return Err(PatchError::Internal(format!(
                    "list element types are not identical: {}",
                    go_plain(&lists)
                )));
            }
            Some(_) => {}
        }
    }
    first.ok_or_else(|| PatchError::Internal("no elements in any of the given slices".into()))
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
    fn a_container_with_a_new_name_comes_before_the_live_ones() {
        // Without `$setElementOrder`, kube puts the patch's items first (1.32 does).
        let original = deployment(&json!([{"name": "app", "image": "app:1"}]));
        let patch = json!({"spec": {"template": {"spec": {"containers": [{"name": "log", "image": "log:1"}]}}}});
        let patched = patch_deployment(&original, &patch);
        let names: Vec<_> = containers(&patched)
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| &c["name"])
            .collect();
        assert_eq!(names, ["log", "app"]);
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
    fn patch_delete_in_a_map_empties_it() {
        // `handleDirectiveInMergeMap` returns an empty map, which 1.32 stores as `{}`.
        let original = json!({"spec": {"template": {"spec": {"securityContext": {"runAsUser": 1}, "containers": []}}}});
        let patch = json!({"spec": {"template": {"spec": {"securityContext": {"$patch": "delete"}}}}});
        let patched = patch_deployment(&original, &patch);
        assert_eq!(patched["spec"]["template"]["spec"]["securityContext"], json!({}));
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
    fn finalizers_are_unioned_in_the_patch_s_order_among_the_live_ones() {
        let original = deployment(&json!([]));
        let patched = patch_deployment(&original, &json!({"metadata": {"finalizers": ["b", "a"]}}));
        assert_eq!(patched["metadata"]["finalizers"], json!(["b", "a"]));
        // As 1.32 orders them: c is new, so it leads; d is live only and comes before b.
        let mut original = deployment(&json!([]));
        original["metadata"]["finalizers"] = json!(["d", "b"]);
        let patched = patch_deployment(&original, &json!({"metadata": {"finalizers": ["c", "b"]}}));
        assert_eq!(patched["metadata"]["finalizers"], json!(["c", "d", "b"]));
    }

    #[test]
    fn delete_from_primitive_list_removes_values() {
        let mut original = deployment(&json!([]));
        original["metadata"]["finalizers"] = json!(["a", "b", "c"]);
        let patch = json!({"metadata": {"$deleteFromPrimitiveList/finalizers": ["a", "c"], "finalizers": ["d"]}});
        let patched = patch_deployment(&original, &patch);
        assert_eq!(patched["metadata"]["finalizers"], json!(["d", "b"]));
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
    fn a_new_field_drops_its_patch_directives_and_keeps_the_others() {
        // `removeDirectives`: maps with `$patch` go; `$retainKeys` and `$setElementOrder`
        // stay for the decoder, which warns of them as unknown fields (as 1.32 does).
        let original = json!({"spec": {}});
        let patch = json!({"spec": {"template": {"spec": {
            "containers": [{"name": "a", "env": [{"name": "X"}]}, {"name": "b", "$patch": "delete"}],
            "volumes": [{"name": "v", "$retainKeys": ["name"]}],
            "$setElementOrder/containers": [{"name": "a"}]
        }}}});
        let patched = patch_deployment(&original, &patch);
        let spec = &patched["spec"]["template"]["spec"];
        assert_eq!(spec["containers"], json!([{"name": "a", "env": [{"name": "X"}]}]));
        assert_eq!(spec["volumes"], json!([{"name": "v", "$retainKeys": ["name"]}]));
        assert_eq!(spec["$setElementOrder/containers"], json!([{"name": "a"}]));
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
        let original = json!({"spec": {}});
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
    fn a_long_list_takes_the_patch_s_order() {
        // Every value of the live list, sent in the reverse order: the merged list
        // follows the patch (each comparison of the sort looks its items up in a table).
        let live: Vec<Value> = (0..3000).map(|i| json!(format!("example.com/f{i}"))).collect();
        let mut sent = live.clone();
        sent.reverse();
        let mut original = deployment(&json!([]));
        original["metadata"]["finalizers"] = Value::Array(live);
        let patched = patch_deployment(&original, &json!({"metadata": {"finalizers": sent.clone()}}));
        assert_eq!(patched["metadata"]["finalizers"], Value::Array(sent));
    }

    /// Go's `deduplicateScalars` as written, to compare the table-driven one with.
    fn go_deduplicate(mut s: Vec<Value>) -> Vec<Value> {
        let mut length = s.len();
        let mut i = 0;
        while i + 1 < length {
            let mut j = i + 1;
            while j < length {
                if s[i] == s[j] {
                    s[j] = s[length - 1].clone();
                    s.truncate(length - 1);
                    length -= 1;
                } else {
                    j += 1;
                }
            }
            i += 1;
        }
        s
    }

    #[test]
    fn deduplication_moves_values_as_go_s_loop_does() {
        let mut seed: u64 = 7;
        for round in 0..200 {
            let values: Vec<Value> = (0..(round % 40))
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    json!(format!("v{}", (seed >> 33) % 7))
                })
                .collect();
            assert_eq!(
                deduplicate_scalars(values.clone()),
                go_deduplicate(values.clone()),
                "{values:?}"
            );
        }
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
