//! Two-variable comprehensions, which kube-apiserver offers since 1.32 (cel-go's
//! `ext.TwoVarComprehensions`): `all(i, v, p)`, `exists(i, v, p)`, `existsOne(i, v, p)`,
//! `transformList(i, v, [filter,] e)` and `transformMap(k, v, [filter,] e)`, where `i`
//! is a list's index or a map's key and `v` the value there.
//!
//! The `cel` crate evaluates one-variable comprehensions only, so each macro expands
//! into one over the indices (or keys) of its target, bound once, with `v` written as
//! `target[i]`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use cel::common::ast::{CallExpr, ComprehensionExpr, Expr, IdedExpr, ListExpr, LiteralValue, MapExpr, operators};
use cel::common::types::{LIST_TYPE, MAP_TYPE};
use cel::parser::{Macro, MacroExprHelper, ParseError};
use cel::{Env, ExecutionError, Value};

use super::overload::{overload, type_name};

/// The indices of a list, or the keys of a map: what the first variable ranges over.
pub(crate) const KEYS: &str = "@twoVarKeys";
/// A map with one more entry: what `transformMap` accumulates with.
pub(crate) const INSERT: &str = "@twoVarInsert";

/// A fresh name for the bound target, so nested comprehensions do not shadow it.
fn target_name() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!("@twoVarTarget{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

/// Declares the macros and the functions their expansions call.
pub(super) fn register(env: &mut Env) -> Result<(), cel::DeclarationError> {
    env.add_overload(KEYS, "two_var_keys_list", vec![LIST_TYPE], overload!(keys))?;
    env.add_overload(KEYS, "two_var_keys_map", vec![MAP_TYPE], overload!(keys))?;
    env.add_overload(
        INSERT,
        "two_var_insert",
        vec![MAP_TYPE, cel::common::types::DYN_TYPE, cel::common::types::DYN_TYPE],
        overload!(insert),
    )?;
    for (name, kind) in [
        ("all", Kind::All),
        ("exists", Kind::Exists),
        ("existsOne", Kind::ExistsOne),
        ("exists_one", Kind::ExistsOne),
        ("transformList", Kind::TransformList),
        ("transformMap", Kind::TransformMap),
    ] {
        env.add_macro(Macro::receiver(name, 3, move |helper, target, args| {
            expand(kind, helper, target, args).map(Some)
        }))?;
        if matches!(kind, Kind::TransformList | Kind::TransformMap) {
            env.add_macro(Macro::receiver(name, 4, move |helper, target, args| {
                expand(kind, helper, target, args).map(Some)
            }))?;
        }
    }
    Ok(())
}

fn keys(args: &[Value]) -> Result<Value, ExecutionError> {
    match &args[0] {
        Value::List(items) => Ok(Value::List(Arc::new(
            (0..items.len())
                .map(|i| Value::Int(i64::try_from(i).unwrap_or(i64::MAX)))
                .collect(),
        ))),
        Value::Map(map) => Ok(Value::List(Arc::new(map.map.keys().map(Value::from).collect()))),
        other => Err(ExecutionError::no_such_overload(KEYS, vec![type_name(other)])),
    }
}

fn insert(args: &[Value]) -> Result<Value, ExecutionError> {
    let Value::Map(map) = &args[0] else {
        return Err(ExecutionError::no_such_overload(INSERT, vec![type_name(&args[0])]));
    };
    let mut entries = (*map.map).clone();
    let key = args[1]
        .clone()
        .try_into()
        .map_err(|_| ExecutionError::unsupported_key_type(args[1].clone()))?;
    entries.insert(key, args[2].clone());
    Ok(Value::Map(cel::objects::Map { map: Arc::new(entries) }))
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    All,
    Exists,
    ExistsOne,
    TransformList,
    TransformMap,
}

fn ident(helper: &mut MacroExprHelper<'_>, name: &str) -> IdedExpr {
    helper.next_expr(Expr::Ident(name.to_owned()))
}

fn call(helper: &mut MacroExprHelper<'_>, name: &str, args: Vec<IdedExpr>) -> IdedExpr {
    helper.next_expr(Expr::Call(CallExpr {
        func_name: name.to_owned(),
        target: None,
        args,
    }))
}

fn literal(helper: &mut MacroExprHelper<'_>, value: LiteralValue) -> IdedExpr {
    helper.next_expr(Expr::Literal(value))
}

fn variable(helper: &MacroExprHelper<'_>, expr: &IdedExpr) -> Result<String, ParseError> {
    match &expr.expr {
        Expr::Ident(name) => Ok(name.clone()),
        _ => Err(helper.new_error(expr.id, "argument must be a simple name")),
    }
}

fn expand(
    kind: Kind,
    helper: &mut MacroExprHelper<'_>,
    target: &mut Option<IdedExpr>,
    args: &mut Vec<IdedExpr>,
) -> Result<IdedExpr, ParseError> {
    let Some(target) = target.take() else {
        return Err(helper.new_error(0, "a two-variable comprehension needs a target"));
    };
    let first = variable(helper, &args[0])?;
    let second = variable(helper, &args[1])?;
    if first == second {
        return Err(helper.new_error(args[1].id, "duplicate variable name"));
    }
    let bound = target_name();
    let value_of = |helper: &mut MacroExprHelper<'_>| {
        let container = ident(helper, &bound);
        let index = ident(helper, &first);
        call(helper, operators::INDEX, vec![container, index])
    };
    let mut rest: Vec<IdedExpr> = args.drain(2..).collect();
    for expr in &mut rest {
        substitute(expr, &second, &mut |h| value_of(h), helper);
    }
    let accu = "@result".to_owned();
    let (init, condition, step, result) = parts(kind, helper, &first, &accu, rest);
    let bound_ref = ident(helper, &bound);
    let range = call(helper, KEYS, vec![bound_ref]);
    let loop_over = helper.next_expr(Expr::Comprehension(Box::new(ComprehensionExpr {
        iter_range: range,
        iter_var: first,
        iter_var2: None,
        accu_var: accu,
        accu_init: init,
        loop_cond: condition,
        loop_step: step,
        result,
    })));
    // Binds the target once, as `cel.bind` would: a loop over nothing whose
    // accumulator is the target.
    let nothing = helper.next_expr(Expr::List(ListExpr::new(Vec::new())));
    let never = literal(helper, LiteralValue::Boolean(false.into()));
    let same = ident(helper, &bound);
    Ok(helper.next_expr(Expr::Comprehension(Box::new(ComprehensionExpr {
        iter_range: nothing,
        iter_var: "#unused".to_owned(),
        iter_var2: None,
        accu_var: bound,
        accu_init: target,
        loop_cond: never,
        loop_step: same,
        result: loop_over,
    }))))
}

/// The accumulator's start, the loop's condition and step, and the result of `kind`,
/// over `rest` (the predicate, or the filter and the transform).
fn parts(
    kind: Kind,
    helper: &mut MacroExprHelper<'_>,
    first: &str,
    accu: &str,
    mut rest: Vec<IdedExpr>,
) -> (IdedExpr, IdedExpr, IdedExpr, IdedExpr) {
    match kind {
        Kind::All | Kind::Exists => {
            let all = matches!(kind, Kind::All);
            let init = literal(helper, LiteralValue::Boolean(all.into()));
            let accu_ref = ident(helper, accu);
            let going = if all {
                accu_ref
            } else {
                call(helper, operators::LOGICAL_NOT, vec![accu_ref])
            };
            let condition = call(helper, operators::NOT_STRICTLY_FALSE, vec![going]);
            let accu_ref = ident(helper, accu);
            let joined = if all {
                operators::LOGICAL_AND
            } else {
                operators::LOGICAL_OR
            };
            let step = call(helper, joined, vec![accu_ref, rest.remove(0)]);
            (init, condition, step, ident(helper, accu))
        }
        Kind::ExistsOne => {
            let init = literal(helper, LiteralValue::Int(0.into()));
            let condition = literal(helper, LiteralValue::Boolean(true.into()));
            let plus_one = {
                let accu_ref = ident(helper, accu);
                let one = literal(helper, LiteralValue::Int(1.into()));
                call(helper, operators::ADD, vec![accu_ref, one])
            };
            let unchanged = ident(helper, accu);
            let step = call(
                helper,
                operators::CONDITIONAL,
                vec![rest.remove(0), plus_one, unchanged],
            );
            let accu_ref = ident(helper, accu);
            let one = literal(helper, LiteralValue::Int(1.into()));
            let result = call(helper, operators::EQUALS, vec![accu_ref, one]);
            (init, condition, step, result)
        }
        Kind::TransformList | Kind::TransformMap => {
            let list = matches!(kind, Kind::TransformList);
            let init = if list {
                helper.next_expr(Expr::List(ListExpr::new(Vec::new())))
            } else {
                helper.next_expr(Expr::Map(MapExpr::default()))
            };
            let condition = literal(helper, LiteralValue::Boolean(true.into()));
            let transformed = rest.pop().unwrap_or_default();
            let accu_ref = ident(helper, accu);
            let grown = if list {
                let single = helper.next_expr(Expr::List(ListExpr::new(vec![transformed])));
                call(helper, operators::ADD, vec![accu_ref, single])
            } else {
                let key = ident(helper, first);
                call(helper, INSERT, vec![accu_ref, key, transformed])
            };
            let step = match rest.pop() {
                Some(filter) => {
                    let unchanged = ident(helper, accu);
                    call(helper, operators::CONDITIONAL, vec![filter, grown, unchanged])
                }
                None => grown,
            };
            (init, condition, step, ident(helper, accu))
        }
    }
}

/// Replaces the variable `name` in `expr` by what `replacement` builds, except where
/// an inner comprehension declares a variable of that name.
fn substitute(
    expr: &mut IdedExpr,
    name: &str,
    replacement: &mut dyn FnMut(&mut MacroExprHelper<'_>) -> IdedExpr,
    helper: &mut MacroExprHelper<'_>,
) {
    match &mut expr.expr {
        Expr::Ident(found) if found == name => *expr = replacement(helper),
        Expr::Select(select) => substitute(&mut select.operand, name, replacement, helper),
        Expr::Call(call) => {
            if let Some(target) = call.target.as_deref_mut() {
                substitute(target, name, replacement, helper);
            }
            for arg in &mut call.args {
                substitute(arg, name, replacement, helper);
            }
        }
        Expr::List(list) => {
            for element in &mut list.elements {
                substitute(element, name, replacement, helper);
            }
        }
        Expr::Map(map) => {
            for entry in &mut map.entries {
                if let cel::common::ast::EntryExpr::MapEntry(entry) = &mut entry.expr {
                    substitute(&mut entry.key, name, replacement, helper);
                    substitute(&mut entry.value, name, replacement, helper);
                }
            }
        }
        Expr::Comprehension(comprehension) => {
            substitute(&mut comprehension.iter_range, name, replacement, helper);
            substitute(&mut comprehension.accu_init, name, replacement, helper);
            let shadowed = comprehension.iter_var == name
                || comprehension.accu_var == name
                || comprehension.iter_var2.as_deref() == Some(name);
            if !shadowed {
                substitute(&mut comprehension.loop_cond, name, replacement, helper);
                substitute(&mut comprehension.loop_step, name, replacement, helper);
                substitute(&mut comprehension.result, name, replacement, helper);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::library::tests::eval;
    use super::*;

    #[test]
    fn two_variable_comprehensions_see_index_and_value() {
        let yes = |source: &str| assert_eq!(eval(source), Ok(Value::Bool(true)), "{source}");
        yes("[10, 20, 30].all(i, v, v == (i + 1) * 10)");
        yes("!['a', 'b'].all(i, v, i == 0)");
        yes("{'a': 1, 'b': 2}.exists(k, v, k == 'b' && v == 2) && !{'a': 1}.exists(k, v, v == 5)");
        yes("[1, 2, 2].existsOne(i, v, v == 1) && ![1, 2, 2].exists_one(i, v, v == 2)");
        yes("[1, 2, 3].transformList(i, v, v * i) == [0, 2, 6]");
        yes("[1, 2, 3].transformList(i, v, v > 1, v) == [2, 3]");
        yes("{'a': 1, 'b': 2}.transformMap(k, v, v * 10) == {'a': 10, 'b': 20}");
        yes("{'a': 1, 'b': 2}.transformMap(k, v, k == 'a', v) == {'a': 1}");
        yes("[[1, 2], [3]].all(i, row, row.all(j, v, v > i))");
        yes("[1, 2].all(i, v, [5].all(v, v == 5))");
        yes("[1, 2].all(x, x > 0) && [1, 2].exists(x, x == 2)");
    }
}
