//! CEL expressions of admission policies (`ValidatingAdmissionPolicy`: validations,
//! `messageExpression`s, `matchConditions`, `variables`), compiled and run by the same
//! engine and Kubernetes libraries as CRD rules. kube-apiserver compiles them with
//! `object`, `oldObject`, `params` and `authorizer` dynamic (a policy is not bound to
//! one schema), `request` and `namespaceObject` typed as `BuildRequestType` and
//! `BuildNamespaceType` build them, and `variables`, when a policy has some, as the
//! composition environment types it: an object whose fields are the variables compiled
//! so far, each of the type its expression gives (`convertCelTypeToDeclType`). So a
//! compile error is a syntax error, an undeclared name, a field the request, the
//! namespace or the variables lack, or a result of the wrong type.

use std::collections::BTreeMap;
use std::sync::Arc;

use cel::{Context, Program};
use serde_json::Value;

use super::types::{Decl, Ty};
use super::{check, library, parse_errors, types, values};

/// What an expression must give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Returns {
    /// A validation or a match condition.
    Bool,
    /// A `messageExpression`.
    String,
    /// A variable: anything.
    Any,
}

/// A compiled policy expression.
#[derive(Clone)]
pub struct PolicyExpression {
    program: Arc<Program>,
}

impl std::fmt::Debug for PolicyExpression {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PolicyExpression").finish_non_exhaustive()
    }
}

/// A value an expression sees or gives: an object's JSON, or what a variable gave.
#[derive(Debug, Clone)]
pub struct PolicyValue(cel::Value);

impl PolicyValue {
    /// A JSON value (an object, a request) as CEL sees it without a schema.
    pub fn from_json(value: &Value) -> Self {
        Self(values::raw(value))
    }

    /// A map from names to values, as the `variables` of a policy.
    pub fn map(entries: Vec<(String, Self)>) -> Self {
        Self(cel::Value::from(
            entries
                .into_iter()
                .map(|(name, value)| (name, value.0))
                .collect::<std::collections::HashMap<_, _>>(),
        ))
    }

    /// The value, if it is a bool.
    pub fn as_bool(&self) -> Option<bool> {
        match self.0 {
            cel::Value::Bool(flag) => Some(flag),
            _ => None,
        }
    }

    /// The value, if it is a string.
    pub fn as_str(&self) -> Option<&str> {
        match &self.0 {
            cel::Value::String(text) => Some(text.as_str()),
            _ => None,
        }
    }
}

/// The type a policy variable's expression gives, which its later uses are checked
/// against (`variables.name`).
#[derive(Debug, Clone)]
pub struct PolicyType(Decl);

impl PolicyType {
    /// A variable whose expression did not compile: dynamic, as kube types it.
    pub fn dynamic() -> Self {
        Self(Decl::dyn_())
    }
}

impl PolicyExpression {
    /// Compiles `source` with `names` declared, checking it can give what `returns`
    /// asks; `variables` (where `names` has it) is dynamic. Err is kube-apiserver's
    /// detail (`compilation failed: ERROR: ...`).
    pub fn compile(source: &str, names: &[&str], returns: Returns) -> Result<Self, String> {
        Self::compile_typed(source, names, None, returns).map(|(expression, _)| expression)
    }

    /// Compiles `source` as [`PolicyExpression::compile`] does, with `variables`
    /// declared and typed by the variables compiled before when given (a policy's
    /// composition environment); also gives the type of the expression's result.
    pub fn compile_typed(
        source: &str,
        names: &[&str],
        variables: Option<&[(String, PolicyType)]>,
        returns: Returns,
    ) -> Result<(Self, PolicyType), String> {
        let program = library::ENV
            .compile(source)
            .map_err(|e| format!("compilation failed: {}", parse_errors(&e)))?;
        let mut declared: Vec<(String, Decl)> = names
            .iter()
            .map(|name| {
                let decl = match *name {
                    "request" => request_type(),
                    "namespaceObject" => namespace_type(),
                    _ => Decl::dyn_(),
                };
                ((*name).to_owned(), decl)
            })
            .collect();
        if let Some(variables) = variables {
            let fields = variables
                .iter()
                .map(|(name, ty)| (name.as_str(), ty.0.clone()))
                .collect();
            declared.retain(|(name, _)| name != "variables");
            declared.push(("variables".to_owned(), object(fields)));
        }
        let checked = check::check(program.expression(), declared)
            .map_err(|issues| format!("compilation failed: {}", check::render(&issues, program.source_info())))?;
        let fits = match returns {
            Returns::Bool => matches!(checked.decl.ty, Ty::Bool | Ty::Dyn),
            Returns::String => matches!(checked.decl.ty, Ty::String | Ty::Dyn),
            Returns::Any => true,
        };
        if !fits {
            let wanted = if returns == Returns::Bool { "bool" } else { "string" };
            return Err(format!("must evaluate to {wanted}"));
        }
        let result = PolicyType(declared_type(&checked.decl));
        Ok((
            Self {
                program: Arc::new(program),
            },
            result,
        ))
    }

    /// Runs the expression with `activation` bound; Err is cel-go's runtime error.
    pub fn evaluate(&self, activation: &[(&str, &PolicyValue)]) -> Result<PolicyValue, String> {
        let mut context = Context::with_env(library::ENV.clone());
        for (name, value) in activation {
            context.add_variable_from_value(*name, value.0.clone());
        }
        self.program
            .execute(&context)
            .map(PolicyValue)
            .map_err(|error| match error {
                cel::ExecutionError::NoSuchKey(key) => format!("no such key: {key}"),
                cel::ExecutionError::NoSuchOverload(_) => "no such overload".to_owned(),
                other => other.to_string(),
            })
    }
}

/// `convertCelTypeToDeclType`: what a variable's checked type becomes in the
/// `variables` object: scalars and lists and maps of them keep their type, the rest
/// (objects, optionals, library types) is dynamic.
fn declared_type(decl: &Decl) -> Decl {
    let ty = match &decl.ty {
        Ty::Bool
        | Ty::Bytes
        | Ty::Double
        | Ty::Duration
        | Ty::Int
        | Ty::Null
        | Ty::String
        | Ty::Timestamp
        | Ty::Uint => decl.ty.clone(),
        Ty::List(element) => Ty::List(Box::new(declared_type(element))),
        Ty::Map(key, value) => Ty::Map(Box::new(declared_type(key)), Box::new(declared_type(value))),
        _ => return Decl::dyn_(),
    };
    Decl::sized(ty, types::MAX_REQUEST_BYTES)
}

fn object(fields: Vec<(&str, Decl)>) -> Decl {
    let fields: BTreeMap<String, Decl> = fields.into_iter().map(|(name, decl)| (name.to_owned(), decl)).collect();
    Decl::new(Ty::Object(Arc::new(fields)))
}

fn scalar(ty: Ty) -> Decl {
    Decl::sized(ty, types::MAX_REQUEST_BYTES)
}

fn strings() -> Decl {
    Decl::list(scalar(Ty::String), types::MAX_REQUEST_BYTES)
}

fn string_map(value: Decl) -> Decl {
    Decl::sized(
        Ty::Map(Box::new(scalar(Ty::String)), Box::new(value)),
        types::MAX_REQUEST_BYTES,
    )
}

/// `BuildRequestType`: the admission request without its objects and uid.
fn request_type() -> Decl {
    let gvk = || {
        object(vec![
            ("group", scalar(Ty::String)),
            ("version", scalar(Ty::String)),
            ("kind", scalar(Ty::String)),
        ])
    };
    let gvr = || {
        object(vec![
            ("group", scalar(Ty::String)),
            ("version", scalar(Ty::String)),
            ("resource", scalar(Ty::String)),
        ])
    };
    let user_info = object(vec![
        ("username", scalar(Ty::String)),
        ("uid", scalar(Ty::String)),
        ("groups", strings()),
        ("extra", string_map(strings())),
    ]);
    object(vec![
        ("kind", gvk()),
        ("resource", gvr()),
        ("subResource", scalar(Ty::String)),
        ("requestKind", gvk()),
        ("requestResource", gvr()),
        ("requestSubResource", scalar(Ty::String)),
        ("name", scalar(Ty::String)),
        ("namespace", scalar(Ty::String)),
        ("operation", scalar(Ty::String)),
        ("userInfo", user_info),
        ("dryRun", scalar(Ty::Bool)),
        ("options", Decl::dyn_()),
    ])
}

/// `BuildNamespaceType`: a namespace without its managed fields and owners (and with
/// kube's `UID`, capitalised).
fn namespace_type() -> Decl {
    let condition = object(vec![
        ("status", scalar(Ty::String)),
        ("type", scalar(Ty::String)),
        ("lastTransitionTime", scalar(Ty::Timestamp)),
        ("message", scalar(Ty::String)),
        ("reason", scalar(Ty::String)),
    ]);
    let metadata = object(vec![
        ("name", scalar(Ty::String)),
        ("generateName", scalar(Ty::String)),
        ("namespace", scalar(Ty::String)),
        ("labels", string_map(scalar(Ty::String))),
        ("annotations", string_map(scalar(Ty::String))),
        ("UID", scalar(Ty::String)),
        ("creationTimestamp", scalar(Ty::Timestamp)),
        ("deletionGracePeriodSeconds", scalar(Ty::Int)),
        ("deletionTimestamp", scalar(Ty::Timestamp)),
        ("generation", scalar(Ty::Int)),
        ("resourceVersion", scalar(Ty::String)),
        ("finalizers", strings()),
    ]);
    object(vec![
        ("metadata", metadata),
        ("spec", object(vec![("finalizers", strings())])),
        (
            "status",
            object(vec![
                ("conditions", Decl::list(condition, types::MAX_REQUEST_BYTES)),
                ("phase", scalar(Ty::String)),
            ]),
        ),
    ])
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const NAMES: [&str; 3] = ["object", "params", "variables"];

    #[test]
    fn compiles_and_runs_over_json() {
        let rule = PolicyExpression::compile("object.spec.replicas <= params.max", &NAMES, Returns::Bool).unwrap();
        let object = PolicyValue::from_json(&json!({"spec": {"replicas": 3}}));
        let params = PolicyValue::from_json(&json!({"max": 2}));
        let result = rule.evaluate(&[("object", &object), ("params", &params)]).unwrap();
        assert_eq!(result.as_bool(), Some(false));
    }

    #[test]
    fn variables_are_a_map() {
        let rule = PolicyExpression::compile("variables.name == 'a'", &NAMES, Returns::Bool).unwrap();
        let variables = PolicyValue::map(vec![("name".into(), PolicyValue::from_json(&json!("a")))]);
        assert_eq!(
            rule.evaluate(&[("variables", &variables)]).unwrap().as_bool(),
            Some(true)
        );
    }

    #[test]
    fn compile_errors_are_kube_apiservers() {
        let error = PolicyExpression::compile("object.x ==", &NAMES, Returns::Bool).unwrap_err();
        assert!(error.starts_with("compilation failed: ERROR: <input>:1:"), "{error}");
        let error = PolicyExpression::compile("objekt.x", &NAMES, Returns::Bool).unwrap_err();
        assert!(error.contains("undeclared reference to 'objekt'"), "{error}");
        assert!(PolicyExpression::compile("1 + 1", &NAMES, Returns::Bool).is_err());
        assert!(PolicyExpression::compile("'a' + 'b'", &NAMES, Returns::String).is_ok());
    }

    #[test]
    fn runtime_errors_are_reported() {
        let rule = PolicyExpression::compile("object.missing == 1", &NAMES, Returns::Bool).unwrap();
        let object = PolicyValue::from_json(&json!({}));
        let error = rule.evaluate(&[("object", &object)]).unwrap_err();
        assert!(error.contains("no such key: missing"), "{error}");
    }
}
