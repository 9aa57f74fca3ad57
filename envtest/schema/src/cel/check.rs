//! Type-checks a rule against the schema it sits on, as cel-go's checker does when
//! kube-apiserver compiles a CRD's rules (`Compile` in apiextensions-apiserver's
//! `pkg/apiserver/schema/cel/compilation.go`): unknown fields, undeclared names and
//! calls no overload accepts are compile errors in cel-go's words, and the rule must
//! give a bool. On the way it estimates the rule's worst-case cost from the schema's
//! size limits, as cel-go's `EstimateCost` does.

use cel::common::ast::SourceInfo;
use cel::common::ast::{ComprehensionExpr, EntryExpr, Expr, IdedExpr, LiteralValue};

use super::functions::{Mismatch, comparable_for_equality, resolve, scaled};
use super::types::{Decl, Ty};

/// One compile error: where, and cel-go's message.
#[derive(Debug, Clone)]
pub(crate) struct Issue {
    pub id: u64,
    pub message: String,
}

/// A checked expression: its type, its worst-case cost, and whether it reads `oldSelf`.
#[derive(Debug, Clone)]
pub(crate) struct Checked {
    pub decl: Decl,
    pub cost: u64,
    pub uses_old_self: bool,
}

/// A checked node.
struct Node {
    decl: Decl,
    cost: u64,
}

impl Node {
    fn new(decl: Decl, cost: u64) -> Self {
        Self { decl, cost }
    }
}

struct Checker {
    /// Variables in scope, innermost last.
    scope: Vec<(String, Decl)>,
    issues: Vec<Issue>,
    uses_old_self: bool,
}

/// Checks `expr` with `variables` (`self`, `oldSelf`) declared.
pub(crate) fn check(expr: &IdedExpr, variables: Vec<(String, Decl)>) -> Result<Checked, Vec<Issue>> {
    let mut checker = Checker {
        scope: variables,
        issues: Vec::new(),
        uses_old_self: false,
    };
    let node = checker.expr(expr);
    if checker.issues.is_empty() {
        Ok(Checked {
            decl: node.decl,
            cost: node.cost,
            uses_old_self: checker.uses_old_self,
        })
    } else {
        Err(checker.issues)
    }
}

/// The names of types, which are values in CEL (`type(x) == int`).
const TYPE_NAMES: [&str; 11] = [
    "int",
    "uint",
    "double",
    "string",
    "bool",
    "bytes",
    "list",
    "map",
    "null_type",
    "type",
    "dyn",
];

impl Checker {
    fn issue(&mut self, id: u64, message: String) -> Node {
        self.issues.push(Issue { id, message });
        Node::new(Decl::dyn_(), 1)
    }

    fn lookup(&mut self, name: &str) -> Option<Decl> {
        let position = self.scope.iter().rposition(|(n, _)| n == name)?;
        if name == "oldSelf" && position < 2 {
            self.uses_old_self = true;
        }
        Some(self.scope[position].1.clone())
    }

    fn expr(&mut self, expr: &IdedExpr) -> Node {
        match &expr.expr {
            Expr::Literal(literal) => Node::new(literal_type(literal), 0),
            Expr::Ident(name) => match self.lookup(name) {
                Some(decl) => Node::new(decl, 1),
                None if TYPE_NAMES.contains(&name.as_str()) => Node::new(Decl::new(Ty::Type), 1),
                None => self.issue(expr.id, format!("undeclared reference to '{name}' (in container '')")),
            },
            Expr::Select(select) => {
                let operand = self.expr(&select.operand);
                let cost = operand.cost + u64::from(!select.test);
                let field = self.field(expr.id, &operand.decl, &select.field);
                let decl = if select.test { Decl::new(Ty::Bool) } else { field };
                Node::new(decl, cost)
            }
            Expr::Call(call) => {
                // `sets.contains(a, b)`: a namespaced function, not a method of `sets`.
                if let Some(namespace) = call.target.as_deref().and_then(|t| self.namespace(t)) {
                    let args: Vec<Node> = call.args.iter().map(|a| self.expr(a)).collect();
                    return self.call(expr.id, &format!("{namespace}.{}", call.func_name), None, &args);
                }
                let target = call.target.as_ref().map(|t| self.expr(t));
                let args: Vec<Node> = call.args.iter().map(|a| self.expr(a)).collect();
                self.call(expr.id, &call.func_name, target.as_ref(), &args)
            }
            Expr::Comprehension(comprehension) => self.comprehension(expr.id, comprehension),
            Expr::List(list) => {
                let elements: Vec<Node> = list.elements.iter().map(|e| self.expr(e)).collect();
                let cost = 10 + elements.iter().map(|e| e.cost).sum::<u64>();
                let element = elements.first().map_or_else(Decl::dyn_, |e| e.decl.clone());
                let element = if elements.iter().all(|e| e.decl.ty == element.ty) {
                    element
                } else {
                    Decl::dyn_()
                };
                Node::new(Decl::list(element, elements.len() as u64), cost)
            }
            Expr::Map(map) => {
                let mut cost = 30;
                let mut key = Decl::dyn_();
                let mut value = Decl::dyn_();
                for entry in &map.entries {
                    if let EntryExpr::MapEntry(entry) = &entry.expr {
                        let k = self.expr(&entry.key);
                        let v = self.expr(&entry.value);
                        cost += k.cost + v.cost;
                        key = k.decl;
                        value = v.decl;
                    }
                }
                let size = map.entries.len() as u64;
                Node::new(Decl::sized(Ty::Map(Box::new(key), Box::new(value)), size), cost)
            }
            Expr::Struct(_) | Expr::Unspecified => Node::new(Decl::dyn_(), 40),
        }
    }

    /// The dotted name `expr` spells, when it names no variable: a function namespace.
    fn namespace(&self, expr: &IdedExpr) -> Option<String> {
        let name = match &expr.expr {
            Expr::Ident(name) => name.clone(),
            Expr::Select(select) if !select.test => format!("{}.{}", self.namespace(&select.operand)?, select.field),
            _ => return None,
        };
        let root = name.split('.').next().unwrap_or_default();
        let declared = self.scope.iter().any(|(n, _)| n == root);
        (!declared).then_some(name)
    }

    /// The type of `operand.field`.
    fn field(&mut self, id: u64, operand: &Decl, field: &str) -> Decl {
        match &operand.ty {
            Ty::Object(fields) => match fields.get(field) {
                Some(decl) => decl.clone(),
                None => self.issue(id, format!("undefined field '{field}'")).decl,
            },
            Ty::Map(_, value) => (**value).clone(),
            Ty::Dyn => Decl::dyn_(),
            other => {
                let message = format!("type '{other}' does not support field selection");
                self.issue(id, message).decl
            }
        }
    }

    fn call(&mut self, id: u64, name: &str, target: Option<&Node>, args: &[Node]) -> Node {
        let cost = target.map_or(0, |t| t.cost) + args.iter().map(|a| a.cost).sum::<u64>();
        let bool_decl = || Decl::new(Ty::Bool);
        match name {
            "_&&_" | "_||_" => {
                for arg in args {
                    if !matches!(arg.decl.ty, Ty::Bool | Ty::Dyn) {
                        return self.no_overload(id, name, None, args);
                    }
                }
                return Node::new(bool_decl(), cost);
            }
            "_?_:_" => {
                let branches = args.get(1).map_or(0, |a| a.cost).max(args.get(2).map_or(0, |a| a.cost));
                let cost = args.first().map_or(0, |a| a.cost) + branches;
                let decl = match (args.get(1), args.get(2)) {
                    (Some(a), Some(b)) if a.decl.ty == b.decl.ty => a.decl.clone(),
                    (Some(a), Some(b)) if matches!(b.decl.ty, Ty::Dyn | Ty::Null) => a.decl.clone(),
                    (Some(a), Some(b)) if matches!(a.decl.ty, Ty::Dyn | Ty::Null) => b.decl.clone(),
                    _ => Decl::dyn_(),
                };
                return Node::new(decl, cost);
            }
            "_==_" | "_!=_" => {
                if let [a, b] = args
                    && !comparable_for_equality(&a.decl.ty, &b.decl.ty)
                {
                    return self.no_overload(id, name, None, args);
                }
                let size = args.iter().map(|a| a.decl.max_elements).min().unwrap_or(0);
                let walk = match args.first().map(|a| &a.decl.ty) {
                    Some(Ty::String | Ty::Bytes) => scaled(size, 0.1),
                    Some(Ty::List(_) | Ty::Map(..) | Ty::Object(_)) => size,
                    _ => 0,
                };
                return Node::new(bool_decl(), cost + 1 + walk);
            }
            "_[_]" | "_[?_]" => return self.index(id, name, args, cost),
            "@in" => {
                let walk = args.get(1).map_or(0, |c| match c.decl.ty {
                    Ty::List(_) => c.decl.max_elements,
                    _ => 1,
                });
                if let Some(container) = args.get(1)
                    && !matches!(container.decl.ty, Ty::List(_) | Ty::Map(..) | Ty::Dyn)
                {
                    return self.no_overload(id, name, None, args);
                }
                return Node::new(bool_decl(), cost + 1 + walk);
            }
            "_?._" => {
                // `a.?b`: an optional of a value whose type the check leaves open.
                return Node::new(Decl::new(Ty::Optional(Box::new(Decl::dyn_()))), cost + 1);
            }
            _ => {}
        }
        let target_decl = target.map(|t| t.decl.clone());
        let arg_decls: Vec<Decl> = args.iter().map(|a| a.decl.clone()).collect();
        match resolve(name, target_decl.as_ref(), &arg_decls) {
            Ok((decl, call_cost)) => Node::new(decl, cost.saturating_add(call_cost)),
            Err(Mismatch::NoOverload) => self.no_overload(id, name, target, args),
            Err(Mismatch::Undeclared) => {
                self.issue(id, format!("undeclared reference to '{name}' (in container '')"))
            }
            Err(Mismatch::Unsupported) => self.issue(
                id,
                format!(
                    "undeclared reference to '{name}' (in container ''): the embedded API server of wheelhouse-envtest does not evaluate this Kubernetes CEL function"
                ),
            ),
        }
    }

    fn no_overload(&mut self, id: u64, name: &str, target: Option<&Node>, args: &[Node]) -> Node {
        let types: Vec<String> = args.iter().map(|a| a.decl.ty.to_string()).collect();
        let applied = match target {
            Some(target) => format!("{}.({})", target.decl.ty, types.join(", ")),
            None => format!("({})", types.join(", ")),
        };
        self.issue(
            id,
            format!("found no matching overload for '{name}' applied to '{applied}'"),
        )
    }

    fn index(&mut self, id: u64, name: &str, args: &[Node], cost: u64) -> Node {
        let [container, key] = args else {
            return Node::new(Decl::dyn_(), cost + 1);
        };
        let element = match (&container.decl.ty, &key.decl.ty) {
            (Ty::List(element), Ty::Int | Ty::Uint | Ty::Dyn) => (**element).clone(),
            (Ty::Map(_, value), _) => (**value).clone(),
            (Ty::Dyn, _) => Decl::dyn_(),
            _ => return self.no_overload(id, name, None, args),
        };
        let decl = if name == "_[?_]" {
            Decl::new(Ty::Optional(Box::new(element)))
        } else {
            element
        };
        Node::new(decl, cost + 1)
    }

    fn comprehension(&mut self, id: u64, comprehension: &ComprehensionExpr) -> Node {
        let range = self.expr(&comprehension.iter_range);
        let (first, second) = match &range.decl.ty {
            Ty::List(element) => (Decl::new(Ty::Int), (**element).clone()),
            Ty::Map(key, value) => ((**key).clone(), (**value).clone()),
            Ty::Dyn => (Decl::dyn_(), Decl::dyn_()),
            other => {
                let message = format!(
                    "expression of type '{other}' cannot be range of a comprehension (must be list, map, or dynamic)"
                );
                return self.issue(id, message);
            }
        };
        let iterated = if comprehension.iter_var2.is_some() {
            first.clone()
        } else if matches!(range.decl.ty, Ty::List(_)) {
            second.clone()
        } else {
            first.clone()
        };
        let accu_init = self.expr(&comprehension.accu_init);
        let depth = self.scope.len();
        self.scope.push((comprehension.iter_var.clone(), iterated));
        if let Some(second_var) = &comprehension.iter_var2 {
            self.scope.push((second_var.clone(), second));
        }
        self.scope
            .push((comprehension.accu_var.clone(), accu_init.decl.clone()));
        let condition = self.expr(&comprehension.loop_cond);
        let step = self.expr(&comprehension.loop_step);
        // An accumulator that starts as `[]` takes the step's element type (`map`, `filter`).
        let accumulator = match (&accu_init.decl.ty, &step.decl.ty) {
            (Ty::List(_), Ty::List(_)) => Decl::list(
                match &step.decl.ty {
                    Ty::List(element) => (**element).clone(),
                    _ => Decl::dyn_(),
                },
                range.decl.max_elements,
            ),
            _ => accu_init.decl.clone(),
        };
        if let Some(last) = self.scope.last_mut() {
            last.1 = accumulator;
        }
        let result = self.expr(&comprehension.result);
        self.scope.truncate(depth);
        let iterations = range.decl.max_elements;
        let cost = range
            .cost
            .saturating_add(accu_init.cost)
            .saturating_add(iterations.saturating_mul(condition.cost.saturating_add(step.cost)))
            .saturating_add(result.cost);
        Node::new(result.decl, cost)
    }
}

fn literal_type(literal: &LiteralValue) -> Decl {
    match literal {
        LiteralValue::Boolean(_) => Decl::new(Ty::Bool),
        LiteralValue::Bytes(bytes) => Decl::sized(Ty::Bytes, bytes.inner().len() as u64),
        LiteralValue::Double(_) => Decl::new(Ty::Double),
        LiteralValue::Int(_) => Decl::new(Ty::Int),
        LiteralValue::Null => Decl::new(Ty::Null),
        LiteralValue::String(text) => Decl::sized(Ty::String, text.inner().len() as u64),
        LiteralValue::UInt(_) => Decl::new(Ty::Uint),
    }
}

/// Compile errors as cel-go's `issues.String()` prints them:
/// `ERROR: <input>:1:6: undefined field 'foo'`, the source line, and a caret.
pub(crate) fn render(issues: &[Issue], source_info: &SourceInfo) -> String {
    let source = &source_info.source;
    issues
        .iter()
        .map(|issue| {
            let offset = source_info.offset_for(issue.id).map_or(0, |(start, _)| start as usize);
            let before = &source[..offset.min(source.len())];
            let line = before.matches('\n').count() + 1;
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            let column = before[line_start..].chars().count();
            let snippet = source.lines().nth(line - 1).unwrap_or_default();
            format!(
                "ERROR: <input>:{line}:{}: {}\n | {snippet}\n | {}^",
                column + 1,
                issue.message,
                ".".repeat(column)
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::library::ENV;
    use super::super::types::of_schema;
    use super::*;

    fn checked(rule: &str, schema: &serde_json::Value) -> Result<Checked, String> {
        let program = ENV.compile(rule).map_err(|e| e.to_string())?;
        let decl = of_schema(schema, false).unwrap();
        check(
            program.expression(),
            vec![("self".into(), decl.clone()), ("oldSelf".into(), decl)],
        )
        .map_err(|issues| render(&issues, program.source_info()))
    }

    fn schema() -> serde_json::Value {
        json!({"type": "object", "properties": {
            "replicas": {"type": "integer"}, "name": {"type": "string", "maxLength": 10},
            "tags": {"type": "array", "maxItems": 10, "items": {"type": "string", "maxLength": 10}},
            "open": {"type": "array", "items": {"type": "string"}},
        }})
    }

    #[test]
    fn unknown_fields_and_names_are_compile_errors() {
        let error = checked("self.replicass > 0", &schema()).unwrap_err();
        assert!(error.starts_with("ERROR: <input>:1:"), "{error}");
        assert!(error.contains("undefined field 'replicass'"), "{error}");
        assert!(error.contains("\n | self.replicass > 0\n | "), "{error}");
        let error = checked("size(selff) > 0", &schema()).unwrap_err();
        assert!(
            error.contains("undeclared reference to 'selff' (in container '')"),
            "{error}"
        );
        let error = checked("self.replicas == 'three'", &schema()).unwrap_err();
        assert!(
            error.contains("found no matching overload for '_==_' applied to '(int, string)'"),
            "{error}"
        );
        let error = checked("self.name.startsWith(1)", &schema()).unwrap_err();
        assert!(
            error.contains("found no matching overload for 'startsWith' applied to 'string.(int)'"),
            "{error}"
        );
    }

    #[test]
    fn well_typed_rules_check_and_know_about_old_self() {
        let ok = checked("self.tags.all(t, t.startsWith('a')) && self.replicas >= 0", &schema()).unwrap();
        assert_eq!(ok.decl.ty, Ty::Bool);
        assert!(!ok.uses_old_self);
        let transition = checked("self.replicas >= oldSelf.replicas", &schema()).unwrap();
        assert!(transition.uses_old_self);
        let shadowed = checked("self.tags.all(oldSelf, oldSelf != '')", &schema()).unwrap();
        assert!(!shadowed.uses_old_self);
        let two = checked("self.tags.all(i, t, i < 5 && t.startsWith('a'))", &schema()).unwrap();
        assert_eq!(two.decl.ty, Ty::Bool);
        let error = checked("self.tags.all(i, t, t > 1)", &schema()).unwrap_err();
        assert!(
            error.contains("found no matching overload for '_>_' applied to '(string, int)'"),
            "{error}"
        );
        assert_eq!(
            checked("self.tags.map(t, size(t))", &schema())
                .unwrap()
                .decl
                .ty
                .to_string(),
            "list(int)"
        );
    }

    #[test]
    fn costs_grow_with_unbounded_lists_and_strings() {
        let bounded = checked("self.tags.all(t, t.matches('^[a-z]+$'))", &schema()).unwrap();
        let unbounded = checked("self.open.all(t, t.matches('^[a-z]+$'))", &schema()).unwrap();
        assert!(bounded.cost < 1_000, "{}", bounded.cost);
        assert!(unbounded.cost > 100 * 10_000_000, "{}", unbounded.cost);
        let simple = checked("self.replicas >= 0", &schema()).unwrap();
        assert!(simple.cost <= 5, "{}", simple.cost);
    }
}
