//! CEL expressions of admission policies (`ValidatingAdmissionPolicy`: validations,
//! `messageExpression`s, `matchConditions`, `variables`), compiled and run by the same
//! engine and Kubernetes libraries as CRD rules. kube-apiserver compiles them with
//! `object`, `oldObject`, `request`, `params`, `namespaceObject`, `authorizer` and
//! `variables` declared, their types dynamic (a policy is not bound to one schema), so
//! a compile error is a syntax error, an undeclared name or a result of the wrong type.

use std::sync::Arc;

use cel::{Context, Program};
use serde_json::Value;

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

impl PolicyExpression {
    /// Compiles `source` with `names` declared (dynamic), checking it can give what
    /// `returns` asks. Err is kube-apiserver's detail (`compilation failed: ERROR: ...`).
    pub fn compile(source: &str, names: &[&str], returns: Returns) -> Result<Self, String> {
        let program = library::ENV
            .compile(source)
            .map_err(|e| format!("compilation failed: {}", parse_errors(&e)))?;
        let variables = names
            .iter()
            .map(|name| ((*name).to_owned(), types::Decl::dyn_()))
            .collect();
        let checked = check::check(program.expression(), variables)
            .map_err(|issues| format!("compilation failed: {}", check::render(&issues, program.source_info())))?;
        let fits = match returns {
            Returns::Bool => matches!(checked.decl.ty, types::Ty::Bool | types::Ty::Dyn),
            Returns::String => matches!(checked.decl.ty, types::Ty::String | types::Ty::Dyn),
            Returns::Any => true,
        };
        if !fits {
            let wanted = if returns == Returns::Bool { "bool" } else { "string" };
            return Err(format!("must evaluate to {wanted}"));
        }
        Ok(Self {
            program: Arc::new(program),
        })
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
