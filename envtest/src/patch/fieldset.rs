//! Field sets: the paths of an object's fields that a manager owns, how they are read off
//! objects, and their `FieldsV1` wire form (`f:<field>`, `k:<key json>`, `v:<value json>`
//! and `.` for a node that is itself owned).

use std::collections::BTreeSet;
use std::fmt;
use std::ops::Bound;

use serde_json::{Map, Value};

use super::merge_keys::{ListStrategy, is_atomic_map, list_merge_key};
use super::zero_values::absent_from_zero_value;

/// One step of a field path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum PathElement {
    /// A field of a map.
    Field(String),
    /// An item of an associative list, by the JSON object of its key fields. The JSON is
    /// canonical (keys sorted, compact) so that equal keys compare equal.
    Key(String),
    /// An item of a set list, by its canonical JSON.
    Value(String),
}

impl fmt::Display for PathElement {
    /// The `FieldsV1` form, which sorts as the real server orders it: `f:` < `k:` < `v:`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathElement::Field(name) => write!(f, "f:{name}"),
            PathElement::Key(key) => write!(f, "k:{key}"),
            PathElement::Value(value) => write!(f, "v:{value}"),
        }
    }
}

pub(crate) type Path = Vec<PathElement>;

/// A set of owned paths. A path in the set owns that node; its ancestors are owned only if
/// they are in the set too. Sorted order keeps a node's descendants right after it.
pub(crate) type FieldSet = BTreeSet<Path>;

/// The object's type, which decides how each list is keyed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Schema<'a> {
    pub group: &'a str,
    pub kind: &'a str,
}

impl Schema<'_> {
    fn list(self, path: &[PathElement]) -> ListStrategy {
        list_merge_key(self.group, self.kind, &field_names(path))
    }

    /// Whether the map at `path` is replaced as a whole rather than merged.
    pub(crate) fn atomic_map(self, path: &[PathElement]) -> bool {
        is_atomic_map(self.group, self.kind, &field_names(path))
    }

    /// The path element naming `item` of the list at `list_path`, or `None` when the list
    /// is atomic or the item lacks a key field.
    pub(crate) fn item_element(self, list_path: &[PathElement], item: &Value) -> Option<PathElement> {
        item_element(item, self.list(list_path)).ok().flatten()
    }
}

fn field_names(path: &[PathElement]) -> Vec<&str> {
    path.iter()
        .filter_map(|element| match element {
            PathElement::Field(name) => Some(name.as_str()),
            _ => None,
        })
        .collect()
}

/// The identity of a list item: `Ok(None)` in an atomic list, `Err(field)` when an item
/// of an associative list lacks key field `field` and it has no default.
fn item_element(item: &Value, strategy: ListStrategy) -> Result<Option<PathElement>, &'static str> {
    match strategy {
        ListStrategy::Atomic => Ok(None),
        ListStrategy::Set => Ok(Some(PathElement::Value(item.to_string()))),
        ListStrategy::Map { keys, .. } => {
            let mut key = Map::new();
            for field in keys {
                let value = match (item.get(field.name), field.default) {
                    (Some(value), _) if !value.is_null() => value.clone(),
                    (_, Some(default)) => Value::String(default.into()),
                    _ => return Err(field.name),
                };
                key.insert(field.name.into(), value);
            }
            Ok(Some(PathElement::Key(Value::Object(key).to_string())))
        }
    }
}

/// The fields `value` sets, as apply takes ownership of them: every scalar, atomic list
/// or map, and list item. Nulls and empty maps set nothing. Fails, as the real server
/// does, when an item of an associative list lacks a key field.
pub(crate) fn leaves(value: &Value, schema: Schema<'_>) -> Result<FieldSet, String> {
    let mut walker = Walker {
        schema,
        strict: true,
        nodes: AddedNodes::Leaves,
        out: FieldSet::new(),
    };
    walker.walk(value, &mut Vec::new())?;
    Ok(walker.out)
}

/// Which maps and lists a comparison lists when it finds them added, besides what they
/// hold. structured-merge-diff lists every node the old object lacked; an update is
/// compared with an empty object for a custom resource, but with Go's zero value of the
/// type for a built-in one, which already has its non-pointer structs and its slices
/// without `omitempty`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AddedNodes {
    /// None: only leaves and list items, what an apply's conflicts are computed on.
    Leaves,
    /// Every added map and list: an update of a custom resource.
    All,
    /// An update of a built-in object: what its Go type's zero value lacks
    /// ([`absent_from_zero_value`]).
    BuiltIn,
}

/// The paths a write from `old` to `new` sets or changes, in the same terms as [`leaves`],
/// plus the maps and lists it added as `nodes` says; what an update takes ownership of.
/// Removed fields are not listed.
pub(crate) fn changed(old: &Value, new: &Value, schema: Schema<'_>, nodes: AddedNodes) -> FieldSet {
    let mut walker = Walker {
        schema,
        strict: false,
        nodes,
        out: FieldSet::new(),
    };
    walker.compare(Some(old), new, &mut Vec::new());
    walker.out
}

struct Walker<'a> {
    schema: Schema<'a>,
    /// Whether a keyed item without its key is an error; otherwise its list is atomic.
    strict: bool,
    nodes: AddedNodes,
    out: FieldSet,
}

impl Walker<'_> {
    /// Whether the map or list at `path`, new in the object, is itself owned.
    fn owns_added_node(&self, path: &Path, list: bool, empty: bool) -> bool {
        let Some(PathElement::Field(name)) = path.last() else {
            return false;
        };
        match self.nodes {
            AddedNodes::Leaves => false,
            AddedNodes::All => true,
            AddedNodes::BuiltIn => absent_from_zero_value(name, list, empty),
        }
    }

    fn walk(&mut self, value: &Value, path: &mut Path) -> Result<(), String> {
        match value {
            Value::Null => {}
            Value::Object(map) if !self.schema.atomic_map(path) => {
                if self.owns_added_node(path, false, map.is_empty()) {
                    self.out.insert(path.clone());
                }
                for (name, child) in map {
                    path.push(PathElement::Field(name.clone()));
                    let walked = self.walk(child, path);
                    path.pop();
                    walked?;
                }
            }
            Value::Array(items) => {
                let strategy = self.schema.list(path);
                match items
                    .iter()
                    .map(|item| item_element(item, strategy))
                    .collect::<Result<Vec<_>, _>>()
                {
                    Ok(elements) if strategy != ListStrategy::Atomic => {
                        if self.owns_added_node(path, true, items.is_empty()) {
                            self.out.insert(path.clone());
                        }
                        for (item, element) in items.iter().zip(elements.into_iter().flatten()) {
                            path.push(element);
                            self.out.insert(path.clone());
                            let walked = if matches!(strategy, ListStrategy::Map { .. }) {
                                self.walk(item, path)
                            } else {
                                Ok(())
                            };
                            path.pop();
                            walked?;
                        }
                    }
                    Err(missing) if self.strict => {
                        return Err(format!(
                            "associative list with keys has an element that omits key field \"{missing}\" at {}",
                            describe(path)
                        ));
                    }
                    _ => {
                        self.out.insert(path.clone());
                    }
                }
            }
            _ => {
                self.out.insert(path.clone());
            }
        }
        Ok(())
    }

    fn compare(&mut self, old: Option<&Value>, new: &Value, path: &mut Path) {
        match (old.filter(|old| !old.is_null()), new) {
            (_, Value::Null) => {}
            (None, new) => {
                // Lenient walks cannot fail.
                let _ = self.walk(new, path);
            }
            (Some(Value::Object(old)), Value::Object(new)) if !self.schema.atomic_map(path) => {
                for (name, child) in new {
                    path.push(PathElement::Field(name.clone()));
                    self.compare(old.get(name), child, path);
                    path.pop();
                }
            }
            (Some(Value::Array(old)), Value::Array(new)) => self.compare_lists(old, new, path),
            (Some(old), new) => {
                if old != new {
                    self.out.insert(path.clone());
                }
            }
        }
    }

    fn compare_lists(&mut self, old: &[Value], new: &[Value], path: &mut Path) {
        let strategy = self.schema.list(path);
        let elements = |items: &[Value]| {
            items
                .iter()
                .map(|item| item_element(item, strategy))
                .collect::<Result<Option<Vec<_>>, _>>()
        };
        let keyed = strategy != ListStrategy::Atomic;
        let (true, Ok(Some(old_elements)), Ok(Some(new_elements))) = (keyed, elements(old), elements(new)) else {
            if old != new {
                self.out.insert(path.clone());
            }
            return;
        };
        for (item, element) in new.iter().zip(new_elements) {
            let previous = old_elements
                .iter()
                .position(|old| *old == element)
                .map(|index| &old[index]);
            path.push(element);
            match previous {
                None => {
                    self.out.insert(path.clone());
                    if matches!(strategy, ListStrategy::Map { .. }) {
                        let _ = self.walk(item, path);
                    }
                }
                Some(previous) => {
                    if matches!(strategy, ListStrategy::Map { .. }) {
                        self.compare(Some(previous), item, path);
                    }
                }
            }
            path.pop();
        }
    }
}

/// Metadata the server sets or that identifies the object, which nobody owns.
const UNTRACKED_METADATA: [&str; 9] = [
    "name",
    "namespace",
    "creationTimestamp",
    "selfLink",
    "uid",
    "clusterName",
    "generation",
    "managedFields",
    "resourceVersion",
];

/// Whether managed fields record ownership of `path`; as the real server, everything
/// but `apiVersion`, `kind` and identifying or server-set metadata.
pub(crate) fn is_tracked(path: &Path) -> bool {
    match path.as_slice() {
        [PathElement::Field(field)] => !matches!(field.as_str(), "apiVersion" | "kind" | "metadata"),
        [PathElement::Field(metadata), PathElement::Field(field), ..] if metadata == "metadata" => {
            !UNTRACKED_METADATA.contains(&field.as_str())
        }
        _ => true,
    }
}

/// Whether some path in `set` lies strictly below `path`.
pub(crate) fn has_descendant(set: &FieldSet, path: &Path) -> bool {
    set.range::<Path, _>((Bound::Excluded(path), Bound::Unbounded))
        .next()
        .is_some_and(|next| next.starts_with(path))
}

/// The value at `path` in `object`, if it is set.
pub(crate) fn locate<'v>(object: &'v Value, path: &[PathElement], schema: Schema<'_>) -> Option<&'v Value> {
    let mut current = object;
    for (depth, element) in path.iter().enumerate() {
        current = match (element, current) {
            (PathElement::Field(name), Value::Object(map)) => map.get(name).filter(|value| !value.is_null())?,
            (PathElement::Key(_) | PathElement::Value(_), Value::Array(items)) => items
                .iter()
                .find(|item| schema.item_element(&path[..depth], item).as_ref() == Some(element))?,
            _ => return None,
        };
    }
    Some(current)
}

fn locate_mut<'v>(object: &'v mut Value, path: &[PathElement], schema: Schema<'_>) -> Option<&'v mut Value> {
    let mut current = object;
    for (depth, element) in path.iter().enumerate() {
        current = match (element, current) {
            (PathElement::Field(name), Value::Object(map)) => map.get_mut(name)?,
            (PathElement::Key(_) | PathElement::Value(_), Value::Array(items)) => items
                .iter_mut()
                .find(|item| schema.item_element(&path[..depth], item).as_ref() == Some(element))?,
            _ => return None,
        };
    }
    Some(current)
}

/// Removes the field or list item at `path` from `object`; false if it was not there.
pub(crate) fn remove(object: &mut Value, path: &[PathElement], schema: Schema<'_>) -> bool {
    let Some((last, parent_path)) = path.split_last() else {
        return false;
    };
    match (last, locate_mut(object, parent_path, schema)) {
        (PathElement::Field(name), Some(Value::Object(map))) => map.remove(name).is_some(),
        (element, Some(Value::Array(items))) => {
            let before = items.len();
            items.retain(|item| schema.item_element(parent_path, item).as_ref() != Some(element));
            items.len() != before
        }
        _ => false,
    }
}

/// The `FieldsV1` JSON of `set`.
pub(crate) fn to_fields_v1(set: &FieldSet) -> Value {
    let paths: Vec<&[PathElement]> = set.iter().map(Vec::as_slice).collect();
    Value::Object(fields_v1_node(&paths, 0))
}

/// The node for `paths`, which share their first `depth` elements and are sorted.
fn fields_v1_node(paths: &[&[PathElement]], depth: usize) -> Map<String, Value> {
    let mut node = Map::new();
    let deeper: Vec<&[PathElement]> = paths.iter().copied().filter(|path| path.len() > depth).collect();
    if depth > 0 && deeper.len() < paths.len() && !deeper.is_empty() {
        node.insert(".".into(), Value::Object(Map::new()));
    }
    let mut start = 0;
    while start < deeper.len() {
        let element = &deeper[start][depth];
        let end = start
            + deeper[start..]
                .iter()
                .take_while(|path| &path[depth] == element)
                .count();
        node.insert(
            element.to_string(),
            Value::Object(fields_v1_node(&deeper[start..end], depth + 1)),
        );
        start = end;
    }
    node
}

/// The set a `FieldsV1` JSON describes; elements it cannot read (such as `i:` indices)
/// are skipped with what lies below them.
pub(crate) fn from_fields_v1(fields: &Value) -> FieldSet {
    let mut set = FieldSet::new();
    if let Value::Object(node) = fields {
        read_fields_v1_node(node, &mut Vec::new(), &mut set);
    }
    set
}

fn read_fields_v1_node(node: &Map<String, Value>, path: &mut Path, set: &mut FieldSet) {
    if !path.is_empty() && (node.is_empty() || node.contains_key(".")) {
        set.insert(path.clone());
    }
    for (key, child) in node {
        if let (Some(element), Value::Object(child)) = (parse_element(key), child) {
            path.push(element);
            read_fields_v1_node(child, path, set);
            path.pop();
        }
    }
}

fn parse_element(key: &str) -> Option<PathElement> {
    if let Some(name) = key.strip_prefix("f:") {
        Some(PathElement::Field(name.into()))
    } else if let Some(json) = key.strip_prefix("k:") {
        let key: Map<String, Value> = serde_json::from_str(json).ok()?;
        Some(PathElement::Key(Value::Object(key).to_string()))
    } else if let Some(json) = key.strip_prefix("v:") {
        let value: Value = serde_json::from_str(json).ok()?;
        Some(PathElement::Value(value.to_string()))
    } else {
        None
    }
}

/// `path` as the real server prints it in conflicts: `.spec.containers[name="nginx"].image`.
pub(crate) fn describe(path: &[PathElement]) -> String {
    path.iter().map(describe_element).collect()
}

fn describe_element(element: &PathElement) -> String {
    match element {
        PathElement::Field(name) => format!(".{name}"),
        PathElement::Key(json) => {
            let fields = serde_json::from_str::<Map<String, Value>>(json).unwrap_or_default();
            let fields: Vec<String> = fields.iter().map(|(name, value)| format!("{name}={value}")).collect();
            format!("[{}]", fields.join(","))
        }
        PathElement::Value(json) => format!("[={json}]"),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const POD: Schema<'static> = Schema { group: "", kind: "Pod" };

    fn field(name: &str) -> PathElement {
        PathElement::Field(name.into())
    }

    #[test]
    fn leaves_key_containers_and_ports_with_defaulted_protocol() {
        let pod = json!({"spec": {"containers": [{"name": "app", "ports": [{"containerPort": 80}]}]}});
        let set = leaves(&pod, POD).expect("keys present");
        let printed: Vec<String> = set.iter().map(|path| describe(path)).collect();
        assert_eq!(
            printed,
            [
                ".spec.containers[name=\"app\"]",
                ".spec.containers[name=\"app\"].name",
                ".spec.containers[name=\"app\"].ports[containerPort=80,protocol=\"TCP\"]",
                ".spec.containers[name=\"app\"].ports[containerPort=80,protocol=\"TCP\"].containerPort",
            ]
        );
    }

    #[test]
    fn leaves_reject_a_keyed_item_without_its_key() {
        let pod = json!({"spec": {"containers": [{"image": "x"}]}});
        let error = leaves(&pod, POD).expect_err("no name");
        assert!(error.contains("omits key field \"name\""), "{error}");
    }

    #[test]
    fn changed_lists_only_set_or_modified_paths() {
        let old = json!({"spec": {"containers": [{"name": "a", "image": "1"}], "nodeName": "n"}});
        let new = json!({"spec": {"containers": [{"name": "a", "image": "2"}, {"name": "b"}]}});
        let printed: Vec<String> = changed(&old, &new, POD, AddedNodes::BuiltIn)
            .iter()
            .map(|path| describe(path))
            .collect();
        assert_eq!(
            printed,
            [
                ".spec.containers[name=\"a\"].image",
                ".spec.containers[name=\"b\"]",
                ".spec.containers[name=\"b\"].name"
            ]
        );
    }

    #[test]
    fn fields_v1_round_trips_and_marks_owned_inner_nodes() {
        let pod = json!({"metadata": {"finalizers": ["x"]}, "spec": {"containers": [{"name": "app", "image": "i"}]}});
        let set = leaves(&pod, POD).expect("keys present");
        let fields = to_fields_v1(&set);
        assert_eq!(
            fields,
            json!({
                "f:metadata": {"f:finalizers": {"v:\"x\"": {}}},
                "f:spec": {"f:containers": {"k:{\"name\":\"app\"}": {".": {}, "f:image": {}, "f:name": {}}}}
            })
        );
        assert_eq!(from_fields_v1(&fields), set);
    }

    #[test]
    fn locate_and_remove_find_items_by_key() {
        let mut pod = json!({"spec": {"containers": [{"name": "a"}, {"name": "b", "image": "x"}]}});
        let item = vec![
            field("spec"),
            field("containers"),
            PathElement::Key(r#"{"name":"b"}"#.into()),
        ];
        let mut image = item.clone();
        image.push(field("image"));
        assert_eq!(locate(&pod, &image, POD), Some(&json!("x")));
        assert!(remove(&mut pod, &item, POD));
        assert_eq!(pod, json!({"spec": {"containers": [{"name": "a"}]}}));
        assert!(!remove(&mut pod, &item, POD));
    }

    #[test]
    fn identifying_metadata_is_untracked() {
        assert!(!is_tracked(&vec![field("metadata"), field("name")]));
        assert!(!is_tracked(&vec![field("apiVersion")]));
        assert!(is_tracked(&vec![field("metadata"), field("labels"), field("app")]));
    }
}
