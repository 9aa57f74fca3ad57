//! `ValidatingAdmissionPolicy` and its bindings (admissionregistration.k8s.io/v1), run
//! on every write they match as kube-apiserver's `ValidatingAdmissionPolicy` admission
//! plugin runs them (after the mutating webhooks, before the validating ones): the
//! policy's `matchConstraints` and the binding's `matchResources` (rules, exclusions,
//! namespace and object selectors), the parameters of `paramKind`/`paramRef`,
//! `matchConditions`, `variables`, then each validation, whose failures the binding's
//! `validationActions` turn into a 422 (`Deny`), a warning (`Warn`) or nothing the
//! client sees (`Audit`). Expressions run on the CEL engine of CRD rules
//! (`wheelhouse_envtest_schema::PolicyExpression`); a runtime error is decided by the
//! policy's `failurePolicy`.
//!
//! What the parameters and the namespace are is read under the server's lock
//! ([`collect`]); the expressions run after it is released ([`validate`]).

use std::sync::Arc;

use serde_json::{Value, json};
use wheelhouse_envtest_schema::{PolicyExpression, PolicyValue, Returns};
use wheelhouse_selector::LabelSelector;

use super::webhooks::{matching, review};
use super::{AdmissionAttributes, AdmissionError, Operation};
use crate::core::GroupResource;
use crate::resources::registry::Registry;
use crate::store::Store;

/// The longest message a `messageExpression` may give (`MaxEvaluatedMessageExpressionSizeBytes`).
const MAX_MESSAGE_BYTES: usize = 5 * 1024;

/// A binding with its policy and the parameters it names, read under the lock.
pub(crate) struct Bound {
    policy: Arc<Value>,
    binding: Arc<Value>,
    /// None without a `paramKind`; the parameter objects found; or why the binding
    /// could not be configured (`failed to configure binding: ...`).
    params: Result<Option<Vec<Arc<Value>>>, String>,
}

/// What the policies of one request need from the store.
#[derive(Default)]
pub(crate) struct Policies {
    bound: Vec<Bound>,
    /// The request's namespace, as `namespaceObject`.
    namespace_object: Option<Arc<Value>>,
}

impl Policies {
    pub fn is_empty(&self) -> bool {
        self.bound.is_empty()
    }
}

fn admission_resource(plural: &str) -> GroupResource {
    GroupResource {
        group: "admissionregistration.k8s.io".into(),
        resource: plural.into(),
    }
}

/// Reads the bindings, their policies and parameters, for a request in `namespace`.
pub(crate) fn collect(store: &Store, registry: &Registry, namespace: Option<&str>) -> Policies {
    let bindings = store.objects(&admission_resource("validatingadmissionpolicybindings"));
    if bindings.is_empty() {
        return Policies::default();
    }
    let mut bound = Vec::new();
    for binding in bindings.values().map(|b| store.value(b)) {
        let binding = &binding;
        let Some(policy_name) = binding["spec"]["policyName"].as_str() else {
            continue;
        };
        let Some(policy) = store.get(&admission_resource("validatingadmissionpolicies"), "", policy_name) else {
            continue;
        };
        let params = params_of(store, registry, &policy, binding, namespace);
        bound.push(Bound {
            policy,
            binding: binding.clone(),
            params,
        });
    }
    let namespace_object = namespace.filter(|ns| !ns.is_empty()).and_then(|ns| {
        store.get(
            &GroupResource {
                group: String::new(),
                resource: "namespaces".into(),
            },
            "",
            ns,
        )
    });
    Policies {
        bound,
        namespace_object,
    }
}

/// The parameter objects a binding's `paramRef` names (kube-apiserver's `CollectParams`).
fn params_of(
    store: &Store,
    registry: &Registry,
    policy: &Value,
    binding: &Value,
    namespace: Option<&str>,
) -> Result<Option<Vec<Arc<Value>>>, String> {
    let kind = &policy["spec"]["paramKind"];
    if !kind.is_object() {
        return Ok(None);
    }
    let api_version = kind["apiVersion"].as_str().unwrap_or_default();
    let kind_name = kind["kind"].as_str().unwrap_or_default();
    let Some(resource) = registry.by_kind(api_version, kind_name) else {
        return Err(format!(
            "failed to find resource referenced by paramKind: '{api_version}, Kind={kind_name}'"
        ));
    };
    let reference = &binding["spec"]["paramRef"];
    if !reference.is_object() {
        return Err(format!(
            "paramKind kind `{kind_name}` is defined on policy but paramRef is not provided"
        ));
    }
    let in_namespace = if resource.namespaced {
        match reference["namespace"].as_str().filter(|ns| !ns.is_empty()) {
            Some(namespace) => namespace.to_owned(),
            None => match namespace.filter(|ns| !ns.is_empty()) {
                Some(namespace) => namespace.to_owned(),
                None => {
                    return Err(
                        "cannot use namespaced paramRef in policy binding that matches cluster-scoped resources"
                            .to_owned(),
                    );
                }
            },
        }
    } else {
        String::new()
    };
    let group_resource = resource.group_resource();
    let found: Vec<Arc<Value>> = if let Some(name) = reference["name"].as_str().filter(|n| !n.is_empty()) {
        store.get(&group_resource, &in_namespace, name).into_iter().collect()
    } else {
        let selector = LabelSelector::from_structured(reference.get("selector")).map_err(|e| e.to_string())?;
        store
            .objects(&group_resource)
            .iter()
            .filter(|((ns, _), _)| !resource.namespaced || *ns == in_namespace)
            .filter(|(_, object)| selector.matches_with(|key| object.label(key)))
            .map(|(_, object)| store.value(object))
            .collect()
    };
    if found.is_empty() && reference["parameterNotFoundAction"] == "Deny" {
        return Err("no params found for policy binding with `Deny` parameterNotFoundAction".to_owned());
    }
    Ok(Some(found))
}

/// Whether a request falls under `constraints` (a policy's `matchConstraints` or a
/// binding's `matchResources`): its rules (all resources when a binding gives none),
/// none of its exclusions, and its selectors.
fn matches(
    constraints: &Value,
    binding: bool,
    attributes: &AdmissionAttributes<'_>,
    object: Option<&Value>,
) -> Result<bool, AdmissionError> {
    let named = |rules: &Value| {
        rules.as_array().into_iter().flatten().any(|rule| {
            matching::rule_matches(rule, attributes)
                && rule["resourceNames"]
                    .as_array()
                    .is_none_or(|names| names.is_empty() || names.iter().any(|n| n == attributes.name))
        })
    };
    let rules = &constraints["resourceRules"];
    let unconstrained = binding && rules.as_array().is_none_or(Vec::is_empty);
    if !unconstrained && !named(rules) {
        return Ok(false);
    }
    if named(&constraints["excludeResourceRules"]) {
        return Ok(false);
    }
    // The webhooks' matcher, with a rule that always holds: only the selectors count.
    let selectors = json!({
        "namespaceSelector": constraints["namespaceSelector"],
        "objectSelector": constraints["objectSelector"],
        "rules": [{"operations": ["*"], "apiGroups": ["*"], "apiVersions": ["*"], "resources": ["*", "*/*"]}],
    });
    matching::should_call(&selectors, attributes, object)
}

/// One validation's failure, or an error the failure policy turned into one.
struct Failure {
    message: String,
    /// The validation's `reason` (Invalid when unset).
    reason: &'static str,
}

/// Runs the policies bound to this request; the warnings of `Warn` bindings, or the
/// first denial.
pub(crate) fn validate(
    policies: &Policies,
    attributes: &AdmissionAttributes<'_>,
    object: Option<&Value>,
) -> Result<Vec<String>, AdmissionError> {
    let mut warnings = Vec::new();
    if policies.is_empty() {
        return Ok(warnings);
    }
    let request = PolicyValue::from_json(&Value::Object(review::request_fields(
        attributes,
        object,
        attributes.version,
    )));
    let object_value = PolicyValue::from_json(object.unwrap_or(&Value::Null));
    let old_value = PolicyValue::from_json(attributes.old_object.unwrap_or(&Value::Null));
    let namespace_value = PolicyValue::from_json(policies.namespace_object.as_deref().unwrap_or(&Value::Null));
    for bound in &policies.bound {
        let spec = &bound.policy["spec"];
        if !matches(&spec["matchConstraints"], false, attributes, object)? {
            continue;
        }
        let binding_spec = &bound.binding["spec"];
        if binding_spec["matchResources"].is_object()
            && !matches(&binding_spec["matchResources"], true, attributes, object)?
        {
            continue;
        }
        let fail = spec["failurePolicy"] != "Ignore";
        let params = match &bound.params {
            Ok(params) => params.clone(),
            Err(error) if fail => {
                let message = format!("failed to configure binding: {error}");
                return Err(denial(attributes, bound, "Invalid", &message));
            }
            Err(_) => continue,
        };
        let runs: Vec<Value> = match params {
            None => vec![Value::Null],
            Some(found) => found.iter().map(|p| p.as_ref().clone()).collect(),
        };
        let has_params = spec["paramKind"].is_object();
        let mut failures = Vec::new();
        for param in &runs {
            let param = PolicyValue::from_json(param);
            let base = [
                ("object", &object_value),
                ("oldObject", &old_value),
                ("request", &request),
                ("namespaceObject", &namespace_value),
                ("params", &param),
            ];
            failures.extend(run_policy(spec, has_params, &base, fail));
        }
        let actions: Vec<&str> = binding_spec["validationActions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        for failure in failures {
            if actions.contains(&"Warn") {
                warnings.push(format!(
                    "Validation failed for ValidatingAdmissionPolicy '{}' with binding '{}': {}",
                    name_of(&bound.policy),
                    name_of(&bound.binding),
                    failure.message
                ));
            }
            if actions.contains(&"Deny") {
                return Err(denial(attributes, bound, failure.reason, &failure.message));
            }
        }
    }
    Ok(warnings)
}

/// The match conditions, variables and validations of one policy, with one set of
/// parameters: the validations that failed (and errors, under `failurePolicy: Fail`).
fn run_policy(spec: &Value, has_params: bool, base: &[(&str, &PolicyValue)], fail: bool) -> Vec<Failure> {
    let names = crate::objects::policy_names(has_params);
    let error = |message: String| Failure {
        message,
        reason: "Invalid",
    };
    // Variables in order, each seeing those before it; one that fails is left out, so
    // an expression that reads it fails in turn.
    let mut variables: Vec<(String, PolicyValue)> = Vec::new();
    for variable in spec["variables"].as_array().into_iter().flatten() {
        let (Some(name), Some(source)) = (variable["name"].as_str(), variable["expression"].as_str()) else {
            continue;
        };
        let value = PolicyValue::map(variables.clone());
        let mut activation = base.to_vec();
        activation.push(("variables", &value));
        if let Ok(result) =
            PolicyExpression::compile(source, &names, Returns::Any).and_then(|e| e.evaluate(&activation))
        {
            variables.push((name.to_owned(), result));
        }
    }
    let variables = PolicyValue::map(variables);
    let mut activation = base.to_vec();
    activation.push(("variables", &variables));
    let run = |source: &str, returns: Returns| {
        PolicyExpression::compile(source, &names, returns).and_then(|e| e.evaluate(&activation))
    };
    for condition in spec["matchConditions"].as_array().into_iter().flatten() {
        let source = condition["expression"].as_str().unwrap_or_default();
        match run(source, Returns::Bool).map(|v| v.as_bool()) {
            Ok(Some(true)) => {}
            Ok(Some(false)) => return Vec::new(),
            Ok(None) | Err(_) if !fail => return Vec::new(),
            Ok(None) => {
                return vec![error(format!(
                    "expression '{source}' resulted in error: no such overload"
                ))];
            }
            Err(cause) => return vec![error(format!("expression '{source}' resulted in error: {cause}"))],
        }
    }
    let mut failures = Vec::new();
    for validation in spec["validations"].as_array().into_iter().flatten() {
        let source = validation["expression"].as_str().unwrap_or_default();
        match run(source, Returns::Bool).map(|v| v.as_bool()) {
            Ok(Some(true)) => {}
            Ok(Some(false)) => failures.push(Failure {
                message: message_of(validation, &run),
                reason: reason_of(validation),
            }),
            Ok(None) | Err(_) if !fail => {}
            Ok(None) => failures.push(error(format!(
                "expression '{source}' resulted in error: no such overload"
            ))),
            Err(cause) => failures.push(error(format!("expression '{source}' resulted in error: {cause}"))),
        }
    }
    failures
}

/// A failed validation's message: its `messageExpression`'s if that gives a usable
/// string, else its `message`, else `failed expression: <expression>`.
fn message_of(validation: &Value, run: &dyn Fn(&str, Returns) -> Result<PolicyValue, String>) -> String {
    let from_expression = validation["messageExpression"]
        .as_str()
        .filter(|source| !source.trim().is_empty())
        .and_then(|source| run(source, Returns::String).ok())
        .and_then(|value| value.as_str().map(|text| text.trim().to_owned()))
        .filter(|text| !text.is_empty() && text.len() <= MAX_MESSAGE_BYTES && !text.contains('\n'));
    if let Some(message) = from_expression {
        return message;
    }
    match validation["message"].as_str().map(str::trim).filter(|m| !m.is_empty()) {
        Some(message) => message.to_owned(),
        None => format!(
            "failed expression: {}",
            validation["expression"].as_str().unwrap_or_default().trim()
        ),
    }
}

/// A validation's `reason`, as kube-apiserver's status reasons.
fn reason_of(validation: &Value) -> &'static str {
    match validation["reason"].as_str() {
        Some("Unauthorized") => "Unauthorized",
        Some("Forbidden") => "Forbidden",
        Some("RequestEntityTooLarge") => "RequestEntityTooLarge",
        _ => "Invalid",
    }
}

/// The HTTP code of a status reason (`reasonToCode`).
fn code_of(reason: &str) -> u16 {
    match reason {
        "Unauthorized" => 401,
        "Forbidden" => 403,
        "RequestEntityTooLarge" => 413,
        _ => 422,
    }
}

fn name_of(object: &Value) -> &str {
    object["metadata"]["name"].as_str().unwrap_or_default()
}

/// The denial as kube-apiserver words it: `admission.NewForbidden` around the policy's
/// sentence, its reason and code those of the validation.
fn denial(attributes: &AdmissionAttributes<'_>, bound: &Bound, reason: &'static str, message: &str) -> AdmissionError {
    let sentence = format!(
        "ValidatingAdmissionPolicy '{}' with binding '{}' denied request: {message}",
        name_of(&bound.policy),
        name_of(&bound.binding)
    );
    let resource = if attributes.group.is_empty() {
        attributes.resource.to_owned()
    } else {
        format!("{}.{}", attributes.resource, attributes.group)
    };
    let name = if attributes.name.is_empty() && attributes.operation == Operation::Create {
        "Unknown"
    } else {
        attributes.name
    };
    AdmissionError::Refused {
        code: code_of(reason),
        reason,
        message: format!("{resource} \"{name}\" is forbidden: {sentence}"),
    }
}
