//! The CEL environment of CRD validation rules: CEL's standard library and the
//! libraries kube-apiserver adds (`k8s.io/apiserver/pkg/cel/environment/base.go`):
//! cel-go's strings extension (`charAt`, `indexOf`, `lowerAscii`, `replace`, `split`,
//! `substring`, `trim`, `join`, ...) and lists extension (`slice`, `flatten`,
//! `distinct`, `sort`, ...), both from the `cel` crate, and Kubernetes' own lists
//! (`isSorted`, `sum`, `min`, `max`, `indexOf`, `lastIndexOf`: `pkg/cel/library/lists.go`),
//! regex (`find`, `findAll`: `regex.go`), URLs (`urls.go`), quantities
//! (`quantity.go`), IPs and CIDRs (`ip.go`, `cidr.go`) and sets (`sets.contains`, `sets.equivalent`, `sets.intersects`).

use std::cmp::Ordering;
use std::sync::{Arc, LazyLock};

use cel::common::functions::Function;
use cel::common::types::{DOUBLE_TYPE, DYN_TYPE, INT_TYPE, LIST_TYPE, STRING_TYPE, Type};
use cel::{Env, ExecutionError, Value, extensions};

use super::overload::{error, overload, type_name};
use super::quantity::{QUANTITY_TYPE, Quantity};
use super::urls::URL_TYPE;

/// The environment every rule is compiled and run in, built once.
pub(crate) static ENV: LazyLock<Arc<Env>> = LazyLock::new(|| Arc::new(build()));

fn build() -> Env {
    let mut env = Env::stdlib();
    let registered = register(&mut env);
    // The declarations are constants of this file; the unit tests exercise each one.
    if let Err(error) = registered {
        panic!("the Kubernetes CEL libraries could not be declared: {error}");
    }
    env
}

fn register(env: &mut Env) -> Result<(), cel::DeclarationError> {
    env.add_extension(extensions::strings)?;
    env.add_extension(extensions::lists)?;
    let member = |env: &mut Env, name: &str, target: Type, args: Vec<Type>, function: Function| {
        let id = format!("{name}_{}_{}", target.name(), args.len());
        env.add_member_overload(name, &id, target, args, function)
    };
    member(env, "isSorted", LIST_TYPE, vec![], overload!(is_sorted))?;
    member(env, "sum", LIST_TYPE, vec![], overload!(sum))?;
    member(env, "min", LIST_TYPE, vec![], overload!(min))?;
    member(env, "max", LIST_TYPE, vec![], overload!(max))?;
    member(env, "indexOf", LIST_TYPE, vec![DYN_TYPE], overload!(index_of))?;
    member(env, "lastIndexOf", LIST_TYPE, vec![DYN_TYPE], overload!(last_index_of))?;
    member(env, "find", STRING_TYPE, vec![STRING_TYPE], overload!(find))?;
    member(env, "findAll", STRING_TYPE, vec![STRING_TYPE], overload!(find_all))?;
    member(
        env,
        "findAll",
        STRING_TYPE,
        vec![STRING_TYPE, INT_TYPE],
        overload!(find_all),
    )?;
    env.add_overload(
        "sets.contains",
        "sets_contains",
        vec![LIST_TYPE, LIST_TYPE],
        overload!(sets_contains),
    )?;
    env.add_overload(
        "sets.equivalent",
        "sets_equivalent",
        vec![LIST_TYPE, LIST_TYPE],
        overload!(sets_equivalent),
    )?;
    env.add_overload(
        "sets.intersects",
        "sets_intersects",
        vec![LIST_TYPE, LIST_TYPE],
        overload!(sets_intersects),
    )?;
    super::urls::register(env)?;
    super::network::register(env)?;
    super::twovar::register(env)?;
    super::quantity::register(env)?;
    let _ = (DOUBLE_TYPE, URL_TYPE, QUANTITY_TYPE);
    Ok(())
}

fn list<'a>(function: &str, value: &'a Value) -> Result<&'a [Value], ExecutionError> {
    match value {
        Value::List(items) => Ok(items),
        other => Err(ExecutionError::no_such_overload(function, vec![type_name(other)])),
    }
}

/// CEL's ordering of two values of one comparable type.
fn compare(function: &str, a: &Value, b: &Value) -> Result<Ordering, ExecutionError> {
    if let (Some(a), Some(b)) = (Quantity::of(a), Quantity::of(b)) {
        return Ok(a.cmp(b));
    }
    let comparable = matches!(
        (a, b),
        (Value::Int(_), Value::Int(_))
            | (Value::UInt(_), Value::UInt(_))
            | (Value::Float(_), Value::Float(_))
            | (Value::String(_), Value::String(_))
            | (Value::Bool(_), Value::Bool(_))
            | (Value::Bytes(_), Value::Bytes(_))
            | (Value::Duration(_), Value::Duration(_))
            | (Value::Timestamp(_), Value::Timestamp(_))
    );
    if !comparable {
        return Err(ExecutionError::no_such_overload(
            function,
            vec![type_name(a), type_name(b)],
        ));
    }
    a.partial_cmp(b)
        .ok_or_else(|| ExecutionError::no_such_overload(function, vec![type_name(a), type_name(b)]))
}

/// `<list>.isSorted()`.
fn is_sorted(args: &[Value]) -> Result<Value, ExecutionError> {
    let items = list("isSorted", &args[0])?;
    for pair in items.windows(2) {
        if compare("isSorted", &pair[0], &pair[1])? == Ordering::Greater {
            return Ok(Value::Bool(false));
        }
    }
    Ok(Value::Bool(true))
}

/// `<list>.sum()`: 0 for an empty list.
fn sum(args: &[Value]) -> Result<Value, ExecutionError> {
    let items = list("sum", &args[0])?;
    let mut total = match items.first() {
        Some(Value::UInt(_)) => Value::UInt(0),
        Some(Value::Float(_)) => Value::Float(0.0),
        Some(Value::Duration(_)) => Value::Duration(chrono::Duration::zero()),
        _ => Value::Int(0),
    };
    for item in items {
        total = match (total, item) {
            (Value::Int(a), Value::Int(b)) => {
                Value::Int(a.checked_add(*b).ok_or_else(|| error("sum", "integer overflow"))?)
            }
            (Value::UInt(a), Value::UInt(b)) => Value::UInt(
                a.checked_add(*b)
                    .ok_or_else(|| error("sum", "unsigned integer overflow"))?,
            ),
            (Value::Float(a), Value::Float(b)) => Value::Float(a + b),
            (Value::Duration(a), Value::Duration(b)) => {
                Value::Duration(a.checked_add(b).ok_or_else(|| error("sum", "duration overflow"))?)
            }
            (_, item) => return Err(ExecutionError::no_such_overload("sum", vec![type_name(item)])),
        };
    }
    Ok(total)
}

fn extreme(function: &str, args: &[Value], wanted: Ordering) -> Result<Value, ExecutionError> {
    let items = list(function, &args[0])?;
    let mut best: Option<&Value> = None;
    for item in items {
        best = match best {
            Some(current) if compare(function, item, current)? != wanted => Some(current),
            _ => Some(item),
        };
    }
    best.cloned()
        .ok_or_else(|| error(function, format!("{function} called on empty list")))
}

/// `<list>.min()`.
fn min(args: &[Value]) -> Result<Value, ExecutionError> {
    extreme("min", args, Ordering::Less)
}

/// `<list>.max()`.
fn max(args: &[Value]) -> Result<Value, ExecutionError> {
    extreme("max", args, Ordering::Greater)
}

/// `<list>.indexOf(x)`: the first index of an equal element, or -1.
fn index_of(args: &[Value]) -> Result<Value, ExecutionError> {
    let items = list("indexOf", &args[0])?;
    let found = items.iter().position(|item| *item == args[1]);
    Ok(Value::Int(found.map_or(-1, |i| i64::try_from(i).unwrap_or(-1))))
}

/// `<list>.lastIndexOf(x)`: the last index of an equal element, or -1.
fn last_index_of(args: &[Value]) -> Result<Value, ExecutionError> {
    let items = list("lastIndexOf", &args[0])?;
    let found = items.iter().rposition(|item| *item == args[1]);
    Ok(Value::Int(found.map_or(-1, |i| i64::try_from(i).unwrap_or(-1))))
}

fn string_arg<'a>(function: &str, value: &'a Value) -> Result<&'a str, ExecutionError> {
    match value {
        Value::String(text) => Ok(text),
        other => Err(ExecutionError::no_such_overload(function, vec![type_name(other)])),
    }
}

fn compile_regex(pattern: &str) -> Result<regex::Regex, ExecutionError> {
    crate::keywords::pattern(pattern).map_err(|e| error("find", format!("Illegal regex: {e}")))
}

/// `<string>.find(regex)`: the first match, or "".
fn find(args: &[Value]) -> Result<Value, ExecutionError> {
    let text = string_arg("find", &args[0])?;
    let regex = compile_regex(string_arg("find", &args[1])?)?;
    Ok(Value::from(regex.find(text).map_or("", |m| m.as_str())))
}

/// `<string>.findAll(regex)` and `<string>.findAll(regex, limit)`.
fn find_all(args: &[Value]) -> Result<Value, ExecutionError> {
    let text = string_arg("findAll", &args[0])?;
    let regex = compile_regex(string_arg("findAll", &args[1])?)?;
    let limit = match args.get(2) {
        Some(Value::Int(n)) if *n >= 0 => usize::try_from(*n).unwrap_or(usize::MAX),
        _ => usize::MAX,
    };
    let found: Vec<Value> = regex
        .find_iter(text)
        .take(limit)
        .map(|m| Value::from(m.as_str()))
        .collect();
    Ok(Value::List(Arc::new(found)))
}

/// `sets.contains(a, b)`: every element of b is in a.
fn sets_contains(args: &[Value]) -> Result<Value, ExecutionError> {
    let (a, b) = (list("sets.contains", &args[0])?, list("sets.contains", &args[1])?);
    Ok(Value::Bool(b.iter().all(|item| a.contains(item))))
}

/// `sets.equivalent(a, b)`: each contains the other.
fn sets_equivalent(args: &[Value]) -> Result<Value, ExecutionError> {
    let (a, b) = (list("sets.equivalent", &args[0])?, list("sets.equivalent", &args[1])?);
    Ok(Value::Bool(
        b.iter().all(|item| a.contains(item)) && a.iter().all(|item| b.contains(item)),
    ))
}

/// `sets.intersects(a, b)`: they share an element.
fn sets_intersects(args: &[Value]) -> Result<Value, ExecutionError> {
    let (a, b) = (list("sets.intersects", &args[0])?, list("sets.intersects", &args[1])?);
    Ok(Value::Bool(b.iter().any(|item| a.contains(item))))
}

#[cfg(test)]
pub(crate) mod tests {
    use cel::Context;

    use super::*;

    /// Evaluates `source` with no variables.
    pub(crate) fn eval(source: &str) -> Result<Value, ExecutionError> {
        let program = ENV.compile(source).unwrap_or_else(|e| panic!("{source}: {e}"));
        let context = Context::with_env(ENV.clone());
        program.execute(&context)
    }

    fn yes(source: &str) {
        assert_eq!(eval(source), Ok(Value::Bool(true)), "{source}");
    }

    fn message(source: &str) -> String {
        match eval(source) {
            Err(ExecutionError::FunctionError { message, .. }) => message,
            other => panic!("{source}: {other:?}"),
        }
    }

    #[test]
    fn kubernetes_lists() {
        yes("[1, 2, 2, 5].isSorted() && ![2, 1].isSorted() && ['a', 'b'].isSorted() && [].isSorted()");
        yes("[1, 2, 3].sum() == 6 && [1.5, 2.0].sum() == 3.5 && [].sum() == 0");
        yes("[3, 1, 2].min() == 1 && [3, 1, 2].max() == 3 && ['b', 'a'].min() == 'a'");
        yes("[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2 && [1].indexOf(5) == -1");
        assert_eq!(message("[].min()"), "min called on empty list");
    }

    #[test]
    fn strings_extension() {
        yes("'hello'.charAt(1) == 'e' && 'hello'.indexOf('l') == 2 && 'hello'.lastIndexOf('l') == 3");
        yes("'HeLLo'.lowerAscii() == 'hello' && 'hello'.upperAscii() == 'HELLO'");
        yes("'a-b-c'.replace('-', '.') == 'a.b.c' && 'a,b'.split(',') == ['a', 'b']");
        yes("'hello'.substring(1, 3) == 'el' && '  x '.trim() == 'x' && ['a', 'b'].join('/') == 'a/b'");
    }

    #[test]
    fn regex_library() {
        yes("'abc 123 def 456'.find('[0-9]+') == '123' && 'abc'.find('[0-9]+') == ''");
        yes("'abc 123 def 456'.findAll('[0-9]+') == ['123', '456']");
        yes("'a1b2c3'.findAll('[0-9]', 2) == ['1', '2']");
        assert!(message("'a'.find('(')").starts_with("Illegal regex: "));
    }

    #[test]
    fn macros_and_sets() {
        yes("[1, 2, 3].all(x, x > 0) && [1, 2].exists(x, x == 2) && [1, 2, 1].exists_one(x, x == 2)");
        yes("[1, 2].map(x, x * 2) == [2, 4] && [1, 2, 3].filter(x, x > 1) == [2, 3]");
        yes("sets.contains([1, 2, 3], [1, 3]) && sets.equivalent([1, 2], [2, 1]) && sets.intersects([1], [1, 5])");
    }
}
