//! `fieldpath.Set`: a set of field paths kept as a tree, and its `FieldsV1` JSON form
//! (`set.go`, `serialize.go`).
//!
//! Invariant: a path is in the set when its last step is a member of the node its other
//! steps lead to; a node's ancestors are members only when inserted themselves. Children
//! are never empty (the operations drop a child that loses its last member), so a set is
//! empty exactly when it has no members and no children.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::{Path, PathElement};

/// A set of field paths.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Set {
    members: BTreeSet<PathElement>,
    children: BTreeMap<PathElement, Set>,
}

impl Set {
    pub(crate) fn new() -> Set {
        Set::default()
    }

    /// Adds `path`; the empty path (the whole object) is never owned.
    pub(crate) fn insert(&mut self, path: &[PathElement]) {
        let Some((last, parents)) = path.split_last() else {
            return;
        };
        let mut node = self;
        for element in parents {
            node = node.children.entry(element.clone()).or_default();
        }
        node.members.insert(last.clone());
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.members.is_empty() && self.children.values().all(Set::is_empty)
    }

    /// `Has`: whether `path` itself is a member.
    pub(crate) fn has(&self, path: &[PathElement]) -> bool {
        let Some((last, parents)) = path.split_last() else {
            return false;
        };
        let mut node = self;
        for element in parents {
            match node.children.get(element) {
                Some(child) => node = child,
                None => return false,
            }
        }
        node.members.contains(last)
    }

    pub(crate) fn has_member(&self, element: &PathElement) -> bool {
        self.members.contains(element)
    }

    /// `WithPrefix`: the paths below `element`, without it.
    pub(crate) fn with_prefix(&self, element: &PathElement) -> Option<&Set> {
        self.children.get(element)
    }

    pub(crate) fn union(&self, other: &Set) -> Set {
        let mut out = self.clone();
        out.members.extend(other.members.iter().cloned());
        for (element, child) in &other.children {
            let merged = match out.children.get(element) {
                Some(mine) => mine.union(child),
                None => child.clone(),
            };
            out.children.insert(element.clone(), merged);
        }
        out
    }

    pub(crate) fn intersection(&self, other: &Set) -> Set {
        let members = self.members.intersection(&other.members).cloned().collect();
        let children = self
            .children
            .iter()
            .filter_map(|(element, child)| {
                let common = child.intersection(other.children.get(element)?);
                (!common.is_empty()).then(|| (element.clone(), common))
            })
            .collect();
        Set { members, children }
    }

    /// `Difference`: members of `self` not in `other`, node by node (a parent minus its
    /// child is still the parent; a child minus its parent is still the child).
    pub(crate) fn difference(&self, other: &Set) -> Set {
        let members = self.members.difference(&other.members).cloned().collect();
        let children = self
            .children
            .iter()
            .filter_map(|(element, child)| match other.children.get(element) {
                None => Some((element.clone(), child.clone())),
                Some(theirs) => {
                    let rest = child.difference(theirs);
                    (!rest.is_empty()).then(|| (element.clone(), rest))
                }
            })
            .collect();
        Set { members, children }
    }

    /// `RecursiveDifference`: also drops everything below a member of `other`.
    pub(crate) fn recursive_difference(&self, other: &Set) -> Set {
        let members = self.members.difference(&other.members).cloned().collect();
        let children = self
            .children
            .iter()
            .filter(|(element, _)| !other.members.contains(element))
            .filter_map(|(element, child)| match other.children.get(element) {
                None => Some((element.clone(), child.clone())),
                Some(theirs) => {
                    let rest = child.recursive_difference(theirs);
                    (!rest.is_empty()).then(|| (element.clone(), rest))
                }
            })
            .collect();
        Set { members, children }
    }

    /// Every path, in `Iterate`'s order: a node's members, then each child's paths in
    /// turn. Conflicts are listed in this order.
    pub(crate) fn paths(&self) -> Vec<Path> {
        let mut out = Vec::new();
        self.collect_paths(&mut Vec::new(), &mut out);
        out
    }

    fn collect_paths(&self, prefix: &mut Path, out: &mut Vec<Path>) {
        for member in &self.members {
            let mut path = prefix.clone();
            path.push(member.clone());
            out.push(path);
        }
        for (element, child) in &self.children {
            prefix.push(element.clone());
            child.collect_paths(prefix, out);
            prefix.pop();
        }
    }

    /// The members of this node and its children, for walkers that descend a set along
    /// a value.
    pub(crate) fn members(&self) -> impl Iterator<Item = &PathElement> {
        self.members.iter()
    }

    pub(crate) fn children(&self) -> impl Iterator<Item = (&PathElement, &Set)> {
        self.children.iter()
    }

    pub(crate) fn insert_member(&mut self, element: PathElement) {
        self.members.insert(element);
    }

    pub(crate) fn from_parts(members: BTreeSet<PathElement>, children: BTreeMap<PathElement, Set>) -> Set {
        Set { members, children }
    }

    /// `SetToFields`: the `FieldsV1` JSON object.
    pub(crate) fn to_fields_v1(&self) -> Value {
        Value::Object(self.fields_v1_node(false))
    }

    /// A node's `FieldsV1` object; `member` adds `"."` for a node that is itself owned.
    fn fields_v1_node(&self, member: bool) -> Map<String, Value> {
        let mut node = Map::new();
        if member && !(self.members.is_empty() && self.children.is_empty()) {
            node.insert(".".into(), Value::Object(Map::new()));
        }
        for element in &self.members {
            if !self.children.contains_key(element) {
                node.insert(element.serialize(), Value::Object(Map::new()));
            }
        }
        for (element, child) in &self.children {
            let owned = self.members.contains(element);
            node.insert(element.serialize(), Value::Object(child.fields_v1_node(owned)));
        }
        node
    }

    /// `FieldsToSet`: the set a `FieldsV1` object describes. Steps of an unknown kind are
    /// skipped with what lies below them; malformed ones are an error, as in `FromJSON`.
    pub(crate) fn from_fields_v1(fields: &Value) -> Result<Set, String> {
        let Value::Object(node) = fields else {
            return Err("FieldsV1 must be a JSON object".to_owned());
        };
        Ok(read_node(node)?.0.unwrap_or_default())
    }
}

/// `readIterV1`: a node's children, and whether the node is itself a member (it is when
/// it holds `"."` or nothing at all).
fn read_node(node: &Map<String, Value>) -> Result<(Option<Set>, bool), String> {
    let mut children: Option<Set> = None;
    let mut is_member = false;
    for (key, child) in node {
        if key == "." {
            is_member = true;
            continue;
        }
        let Some(element) = PathElement::parse(key).map_err(|e| format!("parsing key as path element: {e}"))? else {
            continue;
        };
        let Value::Object(child) = child else {
            return Err(format!("{key}: expected an object"));
        };
        let (grandchildren, child_is_member) = read_node(child)?;
        if child_is_member {
            children.get_or_insert_default().members.insert(element.clone());
        }
        if let Some(grandchildren) = grandchildren {
            let set = children.get_or_insert_default();
            let merged = match set.children.remove(&element) {
                Some(existing) => existing.union(&grandchildren),
                None => grandchildren,
            };
            set.children.insert(element, merged);
        }
    }
    if children.is_none() {
        is_member = true;
    }
    Ok((children, is_member))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::fields;
    use super::*;

    fn set(paths: &[&[&str]]) -> Set {
        let mut set = Set::new();
        for path in paths {
            set.insert(&fields(path));
        }
        set
    }

    #[test]
    fn operations_follow_structured_merge_diff() {
        let a = set(&[&["spec", "a"], &["spec", "b"], &["spec"]]);
        let b = set(&[&["spec", "b"], &["status"]]);
        assert_eq!(
            a.union(&b),
            set(&[&["spec", "a"], &["spec", "b"], &["spec"], &["status"]])
        );
        assert_eq!(a.intersection(&b), set(&[&["spec", "b"]]));
        assert_eq!(a.difference(&b), set(&[&["spec", "a"], &["spec"]]));
        assert_eq!(b.difference(&a), set(&[&["status"]]), "a child minus its parent stays");
        let spec_only = set(&[&["spec"]]);
        assert_eq!(a.recursive_difference(&spec_only), Set::new());
        assert!(a.has(&fields(&["spec", "a"])) && a.has(&fields(&["spec"])));
        assert!(!b.has(&fields(&["spec"])));
        assert!(a.difference(&a).is_empty());
    }

    #[test]
    fn paths_list_a_nodes_members_before_its_children() {
        let s = set(&[
            &["spec", "ports", "port"],
            &["spec", "selector"],
            &["metadata", "labels", "a"],
        ]);
        let printed: Vec<String> = s.paths().iter().map(|p| super::super::describe(p)).collect();
        assert_eq!(printed, [".metadata.labels.a", ".spec.selector", ".spec.ports.port"]);
    }

    #[test]
    fn fields_v1_round_trips_with_owned_inner_nodes() {
        let fields_v1 = json!({"f:metadata": {"f:labels": {".": {}, "f:a": {}}},
            "f:spec": {"f:ports": {"k:{\"name\":\"a\"}": {".": {}, "f:name": {}}}, "f:tags": {"v:\"x\"": {}}}});
        let parsed = Set::from_fields_v1(&fields_v1).expect("valid");
        assert!(parsed.has(&fields(&["metadata", "labels"])));
        assert!(parsed.has(&fields(&["metadata", "labels", "a"])));
        assert!(!parsed.has(&fields(&["metadata"])));
        assert_eq!(parsed.to_fields_v1(), fields_v1);
        assert_eq!(Set::from_fields_v1(&json!({"x:unknown": {"f:a": {}}})), Ok(Set::new()));
        assert!(Set::from_fields_v1(&json!({"k:{": {}})).is_err());
    }
}
