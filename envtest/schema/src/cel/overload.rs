//! What every library of the CEL environment is built with: a Rust function turned
//! into an overload of the `cel` crate (`overload!`), and the errors an overload raises,
//! as cel-go raises them (`error`, and `type_name` for no-such-overload errors). Its
//! own module so that `library` and each extension (`urls`, `network`, `quantity`,
//! `twovar`) import it, rather than `library` and the extensions importing each other.

use cel::{ExecutionError, Value};

/// Turns `fn(&[Value]) -> Result<Value, ExecutionError>` into an overload of the `cel`
/// crate: arguments and result cross as `Value`s.
macro_rules! overload {
    ($function:path) => {{
        fn wrapper<'b, 'v>(
            args: Vec<::cel::common::value::CowVal<'b, 'v>>,
        ) -> Result<::cel::common::value::CowVal<'b, 'v>, ::cel::ExecutionError> {
            let values = args
                .iter()
                .map(|arg| ::cel::Value::try_from(arg.as_ref()))
                .collect::<Result<Vec<::cel::Value>, ::cel::ExecutionError>>()?;
            let result = $function(&values)?;
            Ok(::cel::common::value::CowVal::Owned(
                Box::<dyn ::cel::common::value::Val>::try_from(result)?,
            ))
        }
        wrapper as ::cel::common::functions::Function
    }};
}
pub(super) use overload;

/// An error as cel-go's `types.NewErr` raises it: the message is what the 422 shows.
pub(crate) fn error(function: &str, message: impl Into<String>) -> ExecutionError {
    ExecutionError::function_error(function, message.into())
}

/// CEL's name of a value's type, for overload errors.
pub(crate) fn type_name(value: &Value) -> String {
    match value {
        Value::Opaque(opaque) => opaque.runtime_type_name().to_owned(),
        other => other.type_of().to_string(),
    }
}
