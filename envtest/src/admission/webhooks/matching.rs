//! Which webhooks a request reaches: `rules`, `namespaceSelector` and `objectSelector`,
//! with the semantics of kube-apiserver's `predicates/rules`, `namespace` and `object`
//! matchers.

use serde_json::{Map, Value};

use super::{AdmissionAttributes, AdmissionError, Operation};
use wheelhouse_selector::LabelSelector;

/// Kinds whose admission never calls webhooks (`IsExemptAdmissionConfigurationResource`).
const EXEMPT_KINDS: [&str; 6] = [
    "ValidatingWebhookConfiguration",
    "MutatingWebhookConfiguration",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
    "MutatingAdmissionPolicy",
    "MutatingAdmissionPolicyBinding",
];

pub(in crate::admission) fn is_exempt(attributes: &AdmissionAttributes<'_>) -> bool {
    attributes.group == "admissionregistration.k8s.io" && EXEMPT_KINDS.contains(&attributes.kind)
}

/// Whether the webhook `spec` wants this request; `object` is the object as the previous
/// mutating webhooks left it. A selector that does not parse refuses the request, but
/// only once the rules match: a broken webhook must not affect requests it never sees.
pub(in crate::admission) fn should_call(
    spec: &Value,
    attributes: &AdmissionAttributes<'_>,
    object: Option<&Value>,
) -> Result<bool, AdmissionError> {
    let namespace = namespace_selector_matches(spec, attributes, object);
    if matches!(namespace, Ok(false)) {
        return Ok(false);
    }
    let labels = object_selector_matches(spec, attributes, object);
    if matches!(labels, Ok(false)) {
        return Ok(false);
    }
    let mut rules = spec.get("rules").and_then(Value::as_array).into_iter().flatten();
    if !rules.any(|rule| rule_matches(rule, attributes)) {
        return Ok(false);
    }
    Ok(namespace? && labels?)
}

/// The version at which the webhook `spec` wants this request: the request's own when
/// its rules match it, else (`matchPolicy: Equivalent`, the v1 default) the first other
/// served version of the resource a rule names, rules in order; None when it does not.
pub(super) fn version_to_call<'a>(
    spec: &Value,
    attributes: &AdmissionAttributes<'a>,
    object: Option<&Value>,
) -> Result<Option<&'a str>, AdmissionError> {
    if should_call(spec, attributes, object)? {
        return Ok(Some(attributes.version));
    }
    if spec.get("matchPolicy").and_then(Value::as_str).unwrap_or("Equivalent") != "Equivalent" {
        return Ok(None);
    }
    for rule in spec.get("rules").and_then(Value::as_array).into_iter().flatten() {
        for version in attributes.equivalent_versions {
            if version == attributes.version {
                continue;
            }
            let equivalent = AdmissionAttributes {
                version: version.as_str(),
                ..*attributes
            };
            if rule_matches(rule, &equivalent) {
                return Ok(should_call(spec, &equivalent, object)?.then_some(version.as_str()));
            }
        }
    }
    Ok(None)
}

fn parse_selector(spec: &Value, field: &str) -> Result<LabelSelector, AdmissionError> {
    LabelSelector::from_structured(spec.get(field)).map_err(AdmissionError::internal)
}

fn is_namespace(attributes: &AdmissionAttributes<'_>) -> bool {
    attributes.group.is_empty() && attributes.resource == "namespaces"
}

fn labels_of(object: Option<&Value>) -> Option<&Value> {
    object.and_then(|object| object.pointer("/metadata/labels"))
}

fn namespace_selector_matches(
    spec: &Value,
    attributes: &AdmissionAttributes<'_>,
    object: Option<&Value>,
) -> Result<bool, AdmissionError> {
    let namespace = attributes.namespace.filter(|ns| !ns.is_empty());
    // Cluster-scoped objects other than namespaces are never exempted by the selector.
    if namespace.is_none() && !is_namespace(attributes) {
        return Ok(true);
    }
    let selector = parse_selector(spec, "namespaceSelector")?;
    if selector.is_empty() {
        return Ok(true);
    }
    // A namespace being created or updated is judged by its new labels, which the
    // server does not hold yet; otherwise by the stored namespace's.
    let writes_namespace = is_namespace(attributes)
        && attributes.subresource.is_none_or(str::is_empty)
        && matches!(attributes.operation, Operation::Create | Operation::Update);
    if writes_namespace {
        return Ok(selector.matches(labels_of(object)));
    }
    let stored = attributes.namespace_labels.map(|labels| {
        Value::Object(
            labels
                .iter()
                .map(|(key, value)| (key.clone(), Value::from(value.as_str())))
                .collect::<Map<_, _>>(),
        )
    });
    let labels = match &stored {
        Some(labels) => Some(labels),
        None if is_namespace(attributes) => labels_of(attributes.old_object),
        None => None,
    };
    Ok(selector.matches(labels))
}

/// Matches when the object or the old object carries matching labels; a request with
/// neither (no object at all) never matches a non-empty selector.
fn object_selector_matches(
    spec: &Value,
    attributes: &AdmissionAttributes<'_>,
    object: Option<&Value>,
) -> Result<bool, AdmissionError> {
    let selector = parse_selector(spec, "objectSelector")?;
    if selector.is_empty() {
        return Ok(true);
    }
    let matches = |object: Option<&Value>| object.is_some() && selector.matches(labels_of(object));
    Ok(matches(object) || matches(attributes.old_object))
}

pub(in crate::admission) fn rule_matches(rule: &Value, attributes: &AdmissionAttributes<'_>) -> bool {
    let strings = |field: &str| {
        rule.get(field)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
    };
    let exact_or_wildcard = |field: &str, requested: &str| strings(field).any(|item| item == "*" || item == requested);
    let namespaced = !is_namespace(attributes) && attributes.namespace.is_some_and(|ns| !ns.is_empty());
    let scope = match rule.get("scope").and_then(Value::as_str) {
        None | Some("*") => true,
        Some("Namespaced") => namespaced,
        Some("Cluster") => !namespaced,
        Some(_) => false,
    };
    let subresource = attributes.subresource.unwrap_or_default();
    // `pods` matches only the resource, `pods/status` one subresource, `pods/*` the
    // resource and all its subresources, `*` every resource, `*/*` everything.
    let resource = strings("resources").any(|item| {
        let (resource, sub) = item.split_once('/').unwrap_or((item, ""));
        (resource == "*" || resource == attributes.resource) && (sub == "*" || sub == subresource)
    });
    scope
        && exact_or_wildcard("operations", attributes.operation.as_str())
        && exact_or_wildcard("apiGroups", attributes.group)
        && exact_or_wildcard("apiVersions", attributes.version)
        && resource
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::json;

    use super::*;

    fn attributes<'a>(
        resource: &'a str,
        subresource: Option<&'a str>,
        namespace: Option<&'a str>,
    ) -> AdmissionAttributes<'a> {
        AdmissionAttributes {
            operation: Operation::Update,
            group: "apps",
            version: "v1",
            kind: "Deployment",
            resource,
            subresource,
            namespace,
            name: "web",
            object: None,
            old_object: None,
            namespace_labels: None,
            dry_run: false,
            options: None,
            equivalent_versions: &[],
            converter: None,
        }
    }

    fn rule(resources: &[&str], scope: &str) -> Value {
        json!({"operations": ["*"], "apiGroups": ["apps"], "apiVersions": ["*"], "resources": resources, "scope": scope})
    }

    #[test]
    fn resource_forms_and_subresources() {
        let main = attributes("deployments", None, Some("default"));
        let status = attributes("deployments", Some("status"), Some("default"));
        let cases: [(&[&str], bool, bool); 6] = [
            (&["deployments"], true, false),
            (&["deployments/status"], false, true),
            (&["deployments/*"], true, true),
            (&["*"], true, false),
            (&["*/*"], true, true),
            (&["*/scale"], false, false),
        ];
        for (resources, on_main, on_status) in cases {
            assert_eq!(
                rule_matches(&rule(resources, "*"), &main),
                on_main,
                "{resources:?} on deployments"
            );
            assert_eq!(
                rule_matches(&rule(resources, "*"), &status),
                on_status,
                "{resources:?} on deployments/status"
            );
        }
    }

    #[test]
    fn operations_groups_versions_and_scope() {
        let namespaced = attributes("deployments", None, Some("default"));
        let cluster = attributes("deployments", None, None);
        assert!(rule_matches(&rule(&["deployments"], "Namespaced"), &namespaced));
        assert!(!rule_matches(&rule(&["deployments"], "Namespaced"), &cluster));
        assert!(rule_matches(&rule(&["deployments"], "Cluster"), &cluster));
        assert!(!rule_matches(&rule(&["deployments"], "Cluster"), &namespaced));
        let create_only =
            json!({"operations": ["CREATE"], "apiGroups": ["*"], "apiVersions": ["v1"], "resources": ["*"]});
        assert!(!rule_matches(&create_only, &namespaced));
        let other_group =
            json!({"operations": ["UPDATE"], "apiGroups": [""], "apiVersions": ["*"], "resources": ["*"]});
        assert!(!rule_matches(&other_group, &namespaced));
        let other_version =
            json!({"operations": ["UPDATE"], "apiGroups": ["*"], "apiVersions": ["v2"], "resources": ["*"]});
        assert!(!rule_matches(&other_version, &namespaced));
    }

    #[test]
    fn a_namespace_is_cluster_scoped_and_selected_by_its_own_labels() {
        let namespace = json!({"metadata": {"name": "team-a", "labels": {"env": "test"}}});
        let mut attributes = attributes("namespaces", None, None);
        attributes.group = "";
        attributes.kind = "Namespace";
        attributes.object = Some(&namespace);
        let spec = json!({
            "namespaceSelector": {"matchLabels": {"env": "test"}},
            "rules": [{"operations": ["*"], "apiGroups": [""], "apiVersions": ["*"], "resources": ["namespaces"], "scope": "Cluster"}],
        });
        assert!(should_call(&spec, &attributes, attributes.object).unwrap());
        let relabelled = json!({"metadata": {"name": "team-a", "labels": {"env": "prod"}}});
        assert!(!should_call(&spec, &attributes, Some(&relabelled)).unwrap());
        // Deleting a namespace reads the labels it has now.
        let stored = BTreeMap::from([("env".to_owned(), "test".to_owned())]);
        attributes.operation = Operation::Delete;
        attributes.object = None;
        attributes.namespace_labels = Some(&stored);
        assert!(should_call(&spec, &attributes, None).unwrap());
    }

    #[test]
    fn webhook_configurations_are_exempt() {
        let mut attributes = attributes("validatingwebhookconfigurations", None, None);
        attributes.group = "admissionregistration.k8s.io";
        attributes.kind = "ValidatingWebhookConfiguration";
        assert!(is_exempt(&attributes));
        attributes.kind = "Deployment";
        assert!(!is_exempt(&attributes));
    }

    #[test]
    fn an_invalid_selector_refuses_the_request() {
        let mut spec = json!({"objectSelector": {"matchExpressions": [{"key": "a", "operator": "Near"}]}, "rules": []});
        let attributes = attributes("deployments", None, Some("default"));
        assert!(
            !should_call(&spec, &attributes, None).unwrap(),
            "no rule matches, so the selector is not read"
        );
        spec["rules"] = json!([rule(&["*"], "*")]);
        let error = should_call(&spec, &attributes, None).unwrap_err();
        assert_eq!(error.code(), 500);
        assert!(error.to_string().starts_with("Internal error occurred: "), "{error}");
    }
}
