//! `x-kubernetes-validations`: CEL rules on a CRD's schema, compiled when the CRD is
//! written and run on every write of its objects, as apiextensions-apiserver does in
//! `pkg/apiserver/schema/cel/compilation.go` (compile: type check, bool result,
//! messageExpression, fieldPath) and `pkg/apiserver/schema/cel/validation.go` (run:
//! `self`, `oldSelf` on updates, transition rules skipped on create, `optionalOldSelf`,
//! `message`/`messageExpression`, `reason`, `fieldPath`, ratcheting of unchanged
//! values). Rules are evaluated by the `cel` crate in an environment with the
//! Kubernetes libraries (`library.rs`).

mod check;
mod functions;
mod library;
mod network;
mod overload;
pub(crate) mod policy;
pub(crate) mod quantity;
mod twovar;
mod types;
mod urls;
mod values;

use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use cel::objects::OptionalValue;
use cel::{Context, ExecutionError, Program};
use parking_lot::Mutex;
use serde_json::Value;

use crate::errors::{BadValue, ErrorType, FieldError, NIL_PATH, child, subscript};
pub(crate) use types::MAX_REQUEST_BYTES;

/// The most a rule may cost by the static estimate (`StaticEstimatedCostLimit`).
pub(crate) const RULE_COST_LIMIT: u64 = 10_000_000;
/// The most all the rules of one schema may cost (`StaticEstimatedCRDCostLimit`).
pub(crate) const SCHEMA_COST_LIMIT: u64 = 100_000_000;
/// The longest message a messageExpression may give (`MaxEvaluatedMessageExpressionSizeBytes`).
const MAX_MESSAGE_BYTES: usize = 5 * 1024;

/// One entry of `x-kubernetes-validations`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rule<'a> {
    /// The CEL expression (`rule`).
    pub expression: &'a str,
    pub message: &'a str,
    pub message_expression: &'a str,
    pub reason: Option<&'a str>,
    pub field_path: &'a str,
    pub optional_old_self: Option<bool>,
}

impl<'a> Rule<'a> {
    pub fn of(rule: &'a Value) -> Self {
        let text = |key: &str| rule[key].as_str().unwrap_or_default();
        Self {
            expression: text("rule"),
            message: text("message"),
            message_expression: text("messageExpression"),
            reason: rule["reason"].as_str(),
            field_path: text("fieldPath"),
            optional_old_self: rule["optionalOldSelf"].as_bool(),
        }
    }

    /// `ruleErrorString`: the message, else the rule.
    fn error_string(&self) -> &str {
        if self.message.is_empty() {
            self.expression.trim()
        } else {
            self.message.trim()
        }
    }
}

/// The rules on a schema node.
pub(crate) fn rules_of(schema: &Value) -> impl Iterator<Item = Rule<'_>> {
    schema["x-kubernetes-validations"]
        .as_array()
        .into_iter()
        .flatten()
        .map(Rule::of)
}

/// A rule as compiled when its CRD is written.
#[derive(Debug)]
pub(crate) struct Compiled {
    pub uses_old_self: bool,
    /// The static worst-case cost of one evaluation.
    pub cost: u64,
    /// The messageExpression's cost, or why it does not compile.
    pub message: Option<Result<u64, String>>,
}

/// `compileRule`: the rule type-checked against the schema node it sits on
/// (`resource` at the root and on embedded resources). Err is kube-apiserver's
/// detail (`compilation failed: ERROR: <input>:...`).
pub(crate) fn compile(schema: &Value, resource: bool, rule: &Rule<'_>) -> Result<Compiled, String> {
    let Some(self_type) = types::of_schema(schema, resource) else {
        return Err("failed to convert to declType for CEL validation rules".to_owned());
    };
    let old_type = if rule.optional_old_self == Some(true) {
        types::Decl::new(types::Ty::Optional(Box::new(self_type.clone())))
    } else {
        self_type.clone()
    };
    let variables = || {
        vec![
            ("self".to_owned(), self_type.clone()),
            ("oldSelf".to_owned(), old_type.clone()),
        ]
    };
    let program = library::ENV
        .compile(rule.expression)
        .map_err(|e| format!("compilation failed: {}", parse_errors(&e)))?;
    let checked = check::check(program.expression(), variables())
        .map_err(|issues| format!("compilation failed: {}", check::render(&issues, program.source_info())))?;
    if !matches!(checked.decl.ty, types::Ty::Bool | types::Ty::Dyn) {
        return Err("cel expression must evaluate to a bool".to_owned());
    }
    let message = (!rule.message_expression.trim().is_empty()).then(|| {
        let program = library::ENV
            .compile(rule.message_expression)
            .map_err(|e| format!("messageExpression compilation failed: {}", parse_errors(&e)))?;
        let checked = check::check(program.expression(), variables()).map_err(|issues| {
            format!(
                "messageExpression compilation failed: {}",
                check::render(&issues, program.source_info())
            )
        })?;
        if !matches!(checked.decl.ty, types::Ty::String | types::Ty::Dyn) {
            return Err("messageExpression must evaluate to a string".to_owned());
        }
        Ok(checked.cost)
    });
    Ok(Compiled {
        uses_old_self: checked.uses_old_self,
        cost: checked.cost,
        message,
    })
}

/// Parse errors in cel-go's layout (` | ` before the source line and the caret).
fn parse_errors(errors: &cel::ParseErrors) -> String {
    errors.to_string().replace("\n| ", "\n | ")
}

/// How many times a rule on a node may run in one object: the product of the sizes of
/// the lists and maps above it (`MaxCardinality` of the CEL schema context).
pub(crate) fn cardinality_of_items(schema: &Value) -> u64 {
    let element =
        |s: &Value| types::of_schema(s, s["x-kubernetes-embedded-resource"] == true).map_or(1, |d| d.min_size);
    if let Some(max) = schema["maxItems"].as_u64() {
        return max;
    }
    (MAX_REQUEST_BYTES - 2) / (element(&schema["items"]) + 1)
}

/// Like [`cardinality_of_items`], for the values of a map.
pub(crate) fn cardinality_of_values(schema: &Value) -> u64 {
    if let Some(max) = schema["maxProperties"].as_u64() {
        return max;
    }
    let additional = &schema["additionalProperties"];
    let size =
        types::of_schema(additional, additional["x-kubernetes-embedded-resource"] == true).map_or(1, |d| d.min_size);
    (MAX_REQUEST_BYTES - 2) / (size + 6)
}

/// `ValidFieldPath`: a rule's `fieldPath` (`.spec.a`, `.m['key.x']`) as a field path
/// under `schema`, or why it is not one.
pub(crate) fn field_path(path: &str, schema: &Value) -> Result<String, String> {
    let mut normalized = String::new();
    let mut schema = schema;
    let mut rest = path;
    let step = |name: String, schema: &mut &Value, normalized: &mut String| -> Result<(), String> {
        if let Some(property) = schema["properties"].get(&name) {
            *normalized = child(normalized, &name);
            *schema = property;
            Ok(())
        } else if schema["properties"].is_object() {
            Err("does not refer to a valid field".to_owned())
        } else if let Some(additional) = schema.get("additionalProperties").filter(|s| s.is_object()) {
            *normalized = subscript(normalized, name);
            *schema = additional;
            Ok(())
        } else {
            Err("does not refer to a valid field".to_owned())
        }
    };
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[', ']']).unwrap_or(after.len());
            if end == 0 {
                return Err("unexpected end of JSON path".to_owned());
            }
            step(after[..end].to_owned(), &mut schema, &mut normalized)?;
            rest = &after[end..];
        } else if let Some(after) = rest.strip_prefix('[') {
            let Some(quoted) = after.strip_prefix('\'') else {
                return Err(format!("expected single quoted string but got {after}"));
            };
            let mut name = String::new();
            let mut chars = quoted.char_indices();
            let mut end = None;
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => match chars.next() {
                        Some((_, '\'')) => name.push('\''),
                        Some((_, '\\')) => name.push('\\'),
                        Some((_, 'n')) => name.push('\n'),
                        Some((_, 't')) => name.push('\t'),
                        Some((_, other)) => {
                            return Err(format!("invalid string literal: invalid escape char \\{other}"));
                        }
                        None => return Err("unexpected end of JSON path".to_owned()),
                    },
                    '\'' => {
                        end = Some(i);
                        break;
                    }
                    c => name.push(c),
                }
            }
            let Some(end) = end else {
                return Err("unexpected end of JSON path".to_owned());
            };
            let Some(after) = quoted[end + 1..].strip_prefix(']') else {
                return Err("unexpected end of JSON path".to_owned());
            };
            step(name, &mut schema, &mut normalized)?;
            rest = after;
        } else {
            let token = rest.split(['.', '[']).next().unwrap_or(rest);
            return Err(format!("expected [ or . but got: {token}"));
        }
    }
    Ok(normalized)
}

/// Parsed rules, shared by every evaluation: parsing is most of a rule's cost.
static PROGRAMS: LazyLock<Mutex<HashMap<String, Arc<Parsed>>>> = LazyLock::new(|| Mutex::new(HashMap::new()));

struct Parsed {
    program: Program,
    uses_old_self: bool,
}

fn parsed(source: &str) -> Result<Arc<Parsed>, String> {
    let mut programs = PROGRAMS.lock();
    if let Some(found) = programs.get(source) {
        return Ok(found.clone());
    }
    if programs.len() > 4096 {
        programs.clear();
    }
    let program = library::ENV.compile(source).map_err(|e| parse_errors(&e))?;
    let uses_old_self = references_old_self(program.expression(), &mut Vec::new());
    let parsed = Arc::new(Parsed { program, uses_old_self });
    programs.insert(source.to_owned(), parsed.clone());
    Ok(parsed)
}

/// Whether an expression reads the `oldSelf` variable (not a variable of a macro that
/// shadows it).
fn references_old_self(expr: &cel::IdedExpr, shadowing: &mut Vec<String>) -> bool {
    use cel::common::ast::{EntryExpr, Expr};
    match &expr.expr {
        Expr::Ident(name) => name == "oldSelf" && !shadowing.iter().any(|s| s == "oldSelf"),
        Expr::Select(select) => references_old_self(&select.operand, shadowing),
        Expr::Call(call) => {
            call.target.as_ref().is_some_and(|t| references_old_self(t, shadowing))
                || call.args.iter().any(|a| references_old_self(a, shadowing))
        }
        Expr::List(list) => list.elements.iter().any(|e| references_old_self(e, shadowing)),
        Expr::Map(map) => map.entries.iter().any(|entry| match &entry.expr {
            EntryExpr::MapEntry(e) => {
                references_old_self(&e.key, shadowing) || references_old_self(&e.value, shadowing)
            }
            EntryExpr::StructField(f) => references_old_self(&f.value, shadowing),
        }),
        Expr::Struct(s) => s.entries.iter().any(|entry| match &entry.expr {
            EntryExpr::MapEntry(e) => references_old_self(&e.value, shadowing),
            EntryExpr::StructField(f) => references_old_self(&f.value, shadowing),
        }),
        Expr::Comprehension(c) => {
            if references_old_self(&c.iter_range, shadowing) || references_old_self(&c.accu_init, shadowing) {
                return true;
            }
            let depth = shadowing.len();
            shadowing.push(c.iter_var.clone());
            shadowing.extend(c.iter_var2.clone());
            shadowing.push(c.accu_var.clone());
            let found = [&c.loop_cond, &c.loop_step, &c.result]
                .into_iter()
                .any(|e| references_old_self(e, shadowing));
            shadowing.truncate(depth);
            found
        }
        Expr::Literal(_) | Expr::Unspecified => false,
    }
}

/// What a run of the rules collects, and how it runs them.
struct Findings {
    errors: Vec<FieldError>,
    /// Whether an unchanged value that fails a rule passes (`cel.WithRatcheting`).
    ratchet: bool,
}

/// Runs the rules of `schema` on `object` (and `old`, on updates), from the root;
/// `ratchet` lets an unchanged value that fails a (non-transition) rule pass, as
/// kube-apiserver 1.32's main strategy asks and its status strategy does not.
pub(crate) fn validate(schema: &Value, object: &Value, old: Option<&Value>, ratchet: bool) -> Vec<FieldError> {
    let mut findings = Findings {
        errors: Vec::new(),
        ratchet,
    };
    node(schema, object, old, NIL_PATH, true, &mut findings);
    findings.errors
}

/// `Validator.validate`: this node's rules (and those in its allOf), then its children.
fn node(schema: &Value, value: &Value, old: Option<&Value>, path: &str, resource: bool, findings: &mut Findings) {
    if value.is_null() {
        return;
    }
    let old = old.filter(|o| !o.is_null());
    let mut rules: Vec<Rule<'_>> = rules_of(schema).collect();
    for part in schema["allOf"].as_array().into_iter().flatten() {
        rules.extend(rules_of(part));
    }
    if !rules.is_empty() {
        let self_value = values::to_cel(value, schema, resource);
        let old_value = old.map(|o| values::to_cel(o, schema, resource));
        for rule in &rules {
            run(
                schema,
                value,
                &self_value,
                old_value.as_ref(),
                old,
                path,
                rule,
                findings,
            );
        }
    }
    match value {
        Value::Object(map) => {
            let old_map = old.and_then(Value::as_object);
            if let Some(additional) = schema.get("additionalProperties").filter(|s| s.is_object()) {
                let embedded = additional["x-kubernetes-embedded-resource"] == true;
                for (key, child_value) in map {
                    let child_old = old_map.and_then(|m| m.get(key));
                    node(
                        additional,
                        child_value,
                        child_old,
                        &subscript(path, key),
                        embedded,
                        findings,
                    );
                }
            }
            if let Some(properties) = schema["properties"].as_object() {
                for (key, child_value) in map {
                    if let Some(property) = properties.get(key) {
                        let embedded = property["x-kubernetes-embedded-resource"] == true;
                        let child_old = old_map.and_then(|m| m.get(key));
                        node(property, child_value, child_old, &child(path, key), embedded, findings);
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items").filter(|s| s.is_object()) {
                let embedded = item_schema["x-kubernetes-embedded-resource"] == true;
                let old_items = old.and_then(|o| crate::listtype::correlatable_items(schema, o));
                for (index, item) in items.iter().enumerate() {
                    let item_old = old_items.as_ref().and_then(|list| list.get(item));
                    node(item_schema, item, item_old, &subscript(path, index), embedded, findings);
                }
            }
        }
        _ => {}
    }
}

/// The schema type kube-apiserver shows as the value of a rule's runtime errors.
fn type_value(schema: &Value) -> BadValue {
    BadValue::from(schema["type"].as_str().unwrap_or_default())
}

/// One rule on one value.
#[expect(
    clippy::too_many_arguments,
    reason = "the activation of a rule, as kube-apiserver builds it"
)]
fn run(
    schema: &Value,
    value: &Value,
    self_value: &cel::Value,
    old_value: Option<&cel::Value>,
    old: Option<&Value>,
    path: &str,
    rule: &Rule<'_>,
    findings: &mut Findings,
) {
    if rule.expression.trim().is_empty() {
        return;
    }
    let parsed = match parsed(rule.expression) {
        Ok(parsed) => parsed,
        Err(error) => {
            let detail = format!("rule compile error: compilation failed: {error}");
            findings
                .errors
                .push(FieldError::invalid(path, type_value(schema), detail));
            return;
        }
    };
    let optional = rule.optional_old_self == Some(true);
    if parsed.uses_old_self && old_value.is_none() && !optional {
        return;
    }
    let mut context = Context::with_env(library::ENV.clone());
    context.add_variable_from_value("self", self_value.clone());
    let plain_old = old_value.cloned();
    if optional {
        let optional_old = match &plain_old {
            Some(old) => OptionalValue::of(old.clone()),
            None => OptionalValue::none(),
        };
        context.add_variable_from_value("oldSelf", cel::Value::Opaque(Arc::new(optional_old)));
    } else if let Some(old) = &plain_old {
        context.add_variable_from_value("oldSelf", old.clone());
    }
    let outcome = parsed.program.execute(&context);
    let rule_text = rule.error_string();
    let failed = match outcome {
        Ok(cel::Value::Bool(true)) => return,
        Ok(cel::Value::Bool(false)) => true,
        Ok(other) => {
            let detail = format!(
                "'no such overload': call arguments did not match a supported operator, function or macro signature for rule: {rule_text} (the rule gave {})",
                overload::type_name(&other)
            );
            findings
                .errors
                .push(FieldError::invalid(path, type_value(schema), detail));
            false
        }
        Err(error) => {
            findings.errors.push(FieldError::invalid(
                path,
                type_value(schema),
                runtime_error(&error, rule_text),
            ));
            false
        }
    };
    if !failed {
        return;
    }
    // An unchanged value keeps passing, as before the rule existed (ratcheting);
    // transition rules are never ratcheted.
    if findings.ratchet && !parsed.uses_old_self && old == Some(value) {
        return;
    }
    let error_path = match field_path(rule.field_path, schema) {
        Ok(normalized) if !rule.field_path.is_empty() => child(path, &normalized),
        _ => path.to_owned(),
    };
    if optional {
        // messageExpression sees the plain activation, oldSelf unset on create.
        context = Context::with_env(library::ENV.clone());
        context.add_variable_from_value("self", self_value.clone());
        if let Some(old) = plain_old {
            context.add_variable_from_value("oldSelf", old);
        }
    }
    let detail = message(rule, &context).unwrap_or_else(|| {
        if rule.message.is_empty() {
            format!("failed rule: {}", rule.expression.trim())
        } else {
            rule.message.trim().to_owned()
        }
    });
    // kube-apiserver 1.32's `fieldErrorForReason(currentFldPath, sts.Type, ...)`: the
    // value shown is the schema's type, whatever the value found.
    let bad_value = type_value(schema);
    let error = match rule.reason {
        Some("FieldValueForbidden") => FieldError::forbidden(error_path, detail),
        Some("FieldValueRequired") => FieldError::required(error_path, detail),
        Some("FieldValueDuplicate") => FieldError::new(error_path, ErrorType::Duplicate, bad_value, ""),
        _ => FieldError::invalid(error_path, bad_value, detail),
    };
    findings.errors.push(error);
}

/// `evalMessageExpression`: the message it gives, if it gives a usable one.
fn message(rule: &Rule<'_>, context: &Context<'_, '_>) -> Option<String> {
    if rule.message_expression.trim().is_empty() {
        return None;
    }
    let parsed = parsed(rule.message_expression).ok()?;
    let cel::Value::String(text) = parsed.program.execute(context).ok()? else {
        return None;
    };
    let trimmed = text.trim();
    let usable = !trimmed.is_empty() && trimmed.len() <= MAX_MESSAGE_BYTES && !trimmed.contains('\n');
    usable.then(|| trimmed.to_owned())
}

/// A runtime error as kube-apiserver reports it, in cel-go's words.
fn runtime_error(error: &ExecutionError, rule: &str) -> String {
    let cause = match error {
        ExecutionError::NoSuchOverload(_) | ExecutionError::UnsupportedBinaryOperator(..) => {
            return format!(
                "'no such overload': call arguments did not match a supported operator, function or macro signature for rule: {rule}"
            );
        }
        ExecutionError::NoSuchKey(key) => format!("no such key: {key}"),
        ExecutionError::DivisionByZero(_) => "division by zero".to_owned(),
        ExecutionError::RemainderByZero(_) => "modulus by zero".to_owned(),
        ExecutionError::Overflow(..) => "integer overflow".to_owned(),
        ExecutionError::IndexOutOfBounds(cel::Value::Int(index)) => format!("index out of bounds: {index}"),
        ExecutionError::FunctionError { message, .. } => message.clone(),
        other => other.to_string(),
    };
    format!("{cause} evaluating rule: {rule}")
}

#[cfg(test)]
mod tests;
