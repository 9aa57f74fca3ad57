//! What a Namespace keeps on each write, ported from the namespace strategies
//! (`pkg/registry/core/namespace/strategy.go`): `spec.finalizers` change only through
//! `/finalize`, the status only through `/status`.
//!
//! | kube | here |
//! |---|---|
//! | `namespaceStrategy.PrepareForCreate` | [`prepare_for_create`]: status `Active`; the `kubernetes` finalizer appended to those given unless there |
//! | `namespaceStrategy.PrepareForUpdate` | [`prepare_for_update`] (main endpoint): `spec.finalizers` and status as stored |
//! | `namespaceStatusStrategy.PrepareForUpdate` | [`prepare_for_update`] (`status`): the spec as stored, metadata and status as sent |
//! | `namespaceFinalizeStrategy.PrepareForUpdate` | [`prepare_for_update`] (`finalize`): the status as stored, metadata and spec as sent |
//! | `namespaceStrategy.Canonicalize` | `objects::label_namespace`: `kubernetes.io/metadata.name` is the name |
//!
//! Their validation (`ValidateNamespace`, `ValidateNamespaceUpdate`,
//! `ValidateNamespaceStatusUpdate`, `ValidateNamespaceFinalizeUpdate`) is the
//! validation crate's, called with the write's subresource.

use serde_json::{Value, json};

/// The finalizer every namespace starts with, removed by the namespace controller
/// once the namespace is empty.
const KUBERNETES_FINALIZER: &str = "kubernetes";

/// A new namespace: `Active`, with the `kubernetes` finalizer after those it was
/// given (kept as given, duplicates included), and labelled with its name.
pub(super) fn prepare_for_create(namespace: &mut Value) {
    namespace["status"] = json!({"phase": "Active"});
    let mut finalizers: Vec<Value> = namespace["spec"]["finalizers"].as_array().cloned().unwrap_or_default();
    if !finalizers.iter().any(|f| f == KUBERNETES_FINALIZER) {
        finalizers.push(json!(KUBERNETES_FINALIZER));
    }
    if !namespace["spec"].is_object() {
        namespace["spec"] = json!({});
    }
    namespace["spec"]["finalizers"] = json!(finalizers);
    crate::objects::label_namespace(namespace);
}

/// An update of namespace `old` through `subresource` (None: the main endpoint), as
/// the strategy of that endpoint prepares it: what the endpoint may not change is
/// taken from `old`.
pub(super) fn prepare_for_update(new: &mut Value, old: &Value, subresource: Option<&str>) {
    match subresource {
        None => {
            set_or_remove(&mut new["spec"], "finalizers", old["spec"].get("finalizers"));
            set_or_remove(new, "status", old.get("status"));
        }
        Some("status") => set_or_remove(new, "spec", old.get("spec")),
        Some("finalize") => set_or_remove(new, "status", old.get("status")),
        Some(_) => {}
    }
    // Go's `NamespaceSpec` is a struct: a namespace always has a spec, if empty.
    if !new["spec"].is_object() {
        new["spec"] = json!({});
    }
    crate::objects::label_namespace(new);
}

/// `object[field] = value`, or the field removed when there is no value.
fn set_or_remove(object: &mut Value, field: &str, value: Option<&Value>) {
    match value {
        Some(value) => object[field] = value.clone(),
        None => {
            if let Some(map) = object.as_object_mut() {
                map.remove(field);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finalizers_given_on_create_are_kept_and_kubernetes_appended() {
        let mut namespace =
            json!({"metadata": {"name": "n"}, "spec": {"finalizers": ["a.com/x"]}, "status": {"phase": "Terminating"}});
        prepare_for_create(&mut namespace);
        assert_eq!(namespace["spec"]["finalizers"], json!(["a.com/x", "kubernetes"]));
        assert_eq!(namespace["status"], json!({"phase": "Active"}));
        assert_eq!(namespace["metadata"]["labels"]["kubernetes.io/metadata.name"], "n");
        let mut duplicated =
            json!({"metadata": {"name": "n"}, "spec": {"finalizers": ["a.com/x", "kubernetes", "a.com/x"]}});
        prepare_for_create(&mut duplicated);
        assert_eq!(
            duplicated["spec"]["finalizers"],
            json!(["a.com/x", "kubernetes", "a.com/x"])
        );
    }

    #[test]
    fn only_finalize_changes_finalizers_and_only_status_the_status() {
        let old =
            json!({"metadata": {"name": "n"}, "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}});
        let sent = json!({"metadata": {"name": "n", "labels": {"l": "1"}}, "spec": {"finalizers": ["a.com/x"]}, "status": {"phase": "Terminating"}});
        let mut main = sent.clone();
        prepare_for_update(&mut main, &old, None);
        assert_eq!(
            (&main["spec"], &main["status"], &main["metadata"]["labels"]["l"]),
            (&old["spec"], &old["status"], &json!("1"))
        );
        let mut finalize = sent.clone();
        prepare_for_update(&mut finalize, &old, Some("finalize"));
        assert_eq!(
            (&finalize["spec"], &finalize["status"]),
            (&sent["spec"], &old["status"])
        );
        let mut status = sent.clone();
        prepare_for_update(&mut status, &old, Some("status"));
        assert_eq!((&status["spec"], &status["status"]), (&old["spec"], &sent["status"]));
        assert_eq!(
            status["metadata"]["labels"]["l"], "1",
            "the status strategy keeps metadata as sent"
        );
    }
}
