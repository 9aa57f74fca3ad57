//! The validation of the `node.k8s.io` API group's kinds
//! (`pkg/apis/node/validation`): `RuntimeClasses`, whose handler names a runtime
//! configuration of the nodes and may not change.

use serde_json::Value;

use crate::common::fields::immutable_string;
use crate::common::go_syntax::{GoStruct, pointer, raw, string};
use crate::common::labels::validate_labels;
use crate::common::names::{name_is_dns_label, name_is_dns_subdomain};
use crate::common::pods::validate_tolerations;
use crate::common::read::{is_set, items, text};
use crate::common::resources::validate_limits;
use crate::field::{ErrorList, Path};
use crate::meta::{validate_object_meta, validate_object_meta_update};
use crate::{Kind, Write};

/// The errors in `object`, a `node.k8s.io` kind written as `write` says.
pub(crate) fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    if kind.kind != "RuntimeClass" {
        return ErrorList::new();
    }
    let mut errors = validate_runtime_class(object);
    if let Some(old) = write.old() {
        errors.extend(validate_object_meta_update(
            &object["metadata"],
            &old["metadata"],
            &Path::new("metadata"),
        ));
        errors.extend(immutable_string(
            &object["handler"],
            &old["handler"],
            &Path::new("handler"),
        ));
    }
    errors
}

/// `ValidateRuntimeClass`.
fn validate_runtime_class(object: &Value) -> ErrorList {
    let mut errors = validate_object_meta(
        &object["metadata"],
        false,
        name_is_dns_subdomain,
        &Path::new("metadata"),
    );
    let handler = text(&object["handler"]);
    for message in name_is_dns_label(handler, false) {
        errors.push(Path::new("handler").invalid(handler, &message));
    }
    let overhead = &object["overhead"];
    if is_set(overhead) {
        // `validateOverhead`: the fixed overhead as a container's limits.
        errors.extend(validate_limits(&overhead["podFixed"], &Path::new("overhead")));
    }
    let scheduling = &object["scheduling"];
    if is_set(scheduling) {
        let path = Path::new("scheduling");
        errors.extend(validate_labels(
            &scheduling["nodeSelector"],
            &path.child("nodeSelector"),
        ));
        // `validateTolerations`: core's rules (under a doubled field name, as kube
        // writes it), then no toleration twice.
        let tolerations = items(&scheduling["tolerations"]);
        let tolerations_path = path.child("tolerations");
        errors.extend(validate_tolerations(
            tolerations,
            &tolerations_path.child("tolerations"),
        ));
        let mut seen = Vec::new();
        for (index, toleration) in tolerations.iter().enumerate() {
            let key = ["key", "operator", "value", "effect"].map(|field| text(&toleration[field]).to_owned());
            if seen.contains(&key) {
                let shown = GoStruct::new("core.Toleration")
                    .field("Key", string(&toleration["key"]))
                    .field("Operator", string(&toleration["operator"]))
                    .field("Value", string(&toleration["value"]))
                    .field("Effect", string(&toleration["effect"]))
                    .field("TolerationSeconds", pointer("int64", &toleration["tolerationSeconds"]))
                    .end();
                errors.push(tolerations_path.index(index).duplicate(raw(shown)));
            } else {
                seen.push(key);
            }
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::Write;
    use crate::testing::errors;

    #[test]
    fn runtime_classes() {
        let class = json!({"metadata": {"name": "r"}, "handler": "runc", "scheduling": {"tolerations": [
            {"key": "k", "operator": "Exists"}, {"key": "k", "operator": "Exists"}]}});
        assert_eq!(
            errors("node.k8s.io", "v1", "RuntimeClass", &class, Write::Create),
            [
                "scheduling.tolerations[1]: Duplicate value: core.Toleration{Key:\"k\", Operator:\"Exists\", Value:\"\", Effect:\"\", TolerationSeconds:(*int64)(nil)}"
            ]
        );
        let changed = json!({"metadata": {"name": "r"}, "handler": "crun"});
        assert_eq!(
            errors(
                "node.k8s.io",
                "v1",
                "RuntimeClass",
                &changed,
                Write::Update { old: &class }
            ),
            ["handler: Invalid value: \"crun\": field is immutable"]
        );
    }
}
