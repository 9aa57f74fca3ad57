//! The rule of admission webhook configurations that per-version webhooks trip over:
//! in `admissionregistration.k8s.io/v1`, the webhooks of one configuration have unique
//! names (`validateValidatingWebhookConfiguration` and its mutating twin in
//! `pkg/apis/admissionregistration/validation/validation.go`, `requireUniqueWebhookNames`).

use serde_json::Value;

use crate::core::ResourceType;

/// `webhooks[i].name: Duplicate value: "<name>"` for every webhook named as an earlier
/// one of the same configuration.
pub(super) fn violations(resource: &ResourceType, object: &Value) -> Vec<(String, &'static str, String)> {
    let configuration = matches!(
        resource.kind.as_str(),
        "ValidatingWebhookConfiguration" | "MutatingWebhookConfiguration"
    );
    if resource.custom || resource.group != "admissionregistration.k8s.io" || resource.version != "v1" || !configuration
    {
        return Vec::new();
    }
    let mut seen: Vec<&str> = Vec::new();
    let mut found = Vec::new();
    for (index, webhook) in object["webhooks"].as_array().into_iter().flatten().enumerate() {
        let name = webhook["name"].as_str().unwrap_or_default();
        if name.is_empty() {
            continue;
        }
        if seen.contains(&name) {
            found.push((
                format!("webhooks[{index}].name"),
                "FieldValueDuplicate",
                format!("Duplicate value: {}", Value::from(name)),
            ));
        } else {
            seen.push(name);
        }
    }
    found
}
