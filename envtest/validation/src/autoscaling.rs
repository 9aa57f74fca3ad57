//! The validation of the `autoscaling` API group's kinds (`pkg/apis/autoscaling/validation`).

use serde_json::Value;

use crate::field::ErrorList;
use crate::{Kind, Write};

/// The errors in `object`, a `autoscaling` kind written as `write` says.
pub(crate) fn validate(kind: &Kind, object: &Value, write: Write) -> ErrorList {
    let _ = (kind, object, write);
    ErrorList::new()
}

/// `ValidateScale`: a `Scale` written through a built-in resource's `/scale`
/// subresource (its metadata as any object's, and no negative replicas). Custom
/// resources' scales are checked by their CRD's scale paths instead.
pub fn validate_scale(scale: &Value) -> ErrorList {
    let mut errors = crate::meta::validate_object_meta(
        &scale["metadata"],
        true,
        crate::meta::name_is_dns_subdomain,
        &crate::field::Path::new("metadata"),
    );
    let replicas = scale["spec"]["replicas"].as_i64().unwrap_or(0);
    if replicas < 0 {
        errors.push(
            crate::field::Path::new("spec")
                .child("replicas")
                .invalid(&serde_json::json!(replicas), "must be greater than or equal to 0"),
        );
    }
    errors
}

#[cfg(test)]
mod scale_tests {
    use serde_json::json;

    use super::validate_scale;

    #[test]
    fn negative_replicas_are_refused_as_validate_scale_refuses_them() {
        assert!(
            validate_scale(&json!({"metadata": {"name": "web", "namespace": "n"}, "spec": {"replicas": 0}})).is_empty()
        );
        let errors = validate_scale(&json!({"metadata": {"name": "web", "namespace": "n"}, "spec": {"replicas": -1}}));
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].field, "spec.replicas");
        assert_eq!(
            errors[0].body(),
            "Invalid value: -1: must be greater than or equal to 0"
        );
    }
}
