//! Go's `encoding/json` syntax check, for the rules that decode user bytes as JSON (a
//! docker config Secret's `.dockercfg` and `.dockerconfigjson`) and quote Go's error in
//! their message. Go names the first byte that cannot continue the value and what it was
//! reading (`invalid character 'o' in literal null (expecting 'u')`), which a Rust
//! parser's error does not say.
//!
//! The states are those of `scanner.go`; the messages are those the real 1.32 server
//! answers (its Go decodes v1 JSON through the v2 scanner): any cut input is
//! `unexpected end of JSON input`, every bad number byte is `in numeric literal`, a bad
//! escape is quoted whole (`` invalid escape sequence `\q` in string ``), and a byte
//! past ASCII prints as `'\x80'`.

/// Where in a value the scanner is, one step per byte (Go's `scanner.step` states).
#[derive(Clone, Copy)]
enum Step {
    BeginValue,
    BeginValueOrEmpty,
    BeginStringOrEmpty,
    BeginString,
    EndValue,
    EndTop,
    InString,
    InStringEsc,
    /// Inside `\u`, with this many hex digits read.
    InStringEscU(usize),
    Neg,
    One,
    Zero,
    Dot,
    Dot0,
    E,
    ESign,
    E0,
    /// A literal (`true`, `false`, `null`) with these bytes still to read.
    Literal(&'static [u8], &'static str),
}

/// What an open array or object waits for (Go's `parseState`).
#[derive(Clone, Copy, PartialEq)]
enum Parse {
    ObjectKey,
    ObjectValue,
    ArrayValue,
}

/// Go's `maxNestingDepth`.
const MAX_DEPTH: usize = 10_000;

/// `checkValid`: `None` when `bytes` are one JSON value, else Go's error message.
pub(super) fn syntax_error(bytes: &[u8]) -> Option<String> {
    let mut step = Step::BeginValue;
    let mut stack: Vec<Parse> = Vec::new();
    for (index, &c) in bytes.iter().enumerate() {
        match advance(step, &mut stack, c) {
            Ok(next) => step = next,
            Err(_) if matches!(step, Step::InStringEscU(_)) => {
                // The whole six-byte `\uXXXX` window is quoted, bad digit and all.
                let start = match step {
                    Step::InStringEscU(read) => index.saturating_sub(read + 2),
                    _ => index,
                };
                let window = bytes.get(start..bytes.len().min(start + 6)).unwrap_or_default();
                let escape = String::from_utf8_lossy(window);
                return Some(format!("invalid escape sequence `{escape}` in string"));
            }
            Err(message) => return Some(message),
        }
    }
    // `scanner.eof`: the input's end reads as one more space, which ends a number.
    match advance(step, &mut stack, b' ') {
        Ok(Step::EndTop) => None,
        _ => Some("unexpected end of JSON input".to_owned()),
    }
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

/// One byte through the state machine.
fn advance(step: Step, stack: &mut Vec<Parse>, c: u8) -> Result<Step, String> {
    let error = |context: &str| Err(format!("invalid character {} {context}", quote_char(c)));
    match step {
        Step::BeginValueOrEmpty if c == b']' => Ok(end_container(stack)),
        Step::BeginValueOrEmpty | Step::BeginValue if is_space(c) => Ok(step),
        Step::BeginValueOrEmpty | Step::BeginValue => match c {
            b'{' => push(stack, Parse::ObjectKey, Step::BeginStringOrEmpty),
            b'[' => push(stack, Parse::ArrayValue, Step::BeginValueOrEmpty),
            b'"' => Ok(Step::InString),
            b'-' => Ok(Step::Neg),
            b'0' => Ok(Step::Zero),
            b'1'..=b'9' => Ok(Step::One),
            b't' => Ok(Step::Literal(b"rue", "true")),
            b'f' => Ok(Step::Literal(b"alse", "false")),
            b'n' => Ok(Step::Literal(b"ull", "null")),
            _ => error("looking for beginning of value"),
        },
        Step::BeginStringOrEmpty if c == b'}' => {
            if let Some(top) = stack.last_mut() {
                *top = Parse::ObjectValue;
            }
            Ok(end_container(stack))
        }
        Step::BeginStringOrEmpty | Step::BeginString if is_space(c) => Ok(step),
        Step::BeginStringOrEmpty | Step::BeginString if c == b'"' => Ok(Step::InString),
        Step::BeginStringOrEmpty | Step::BeginString => error("looking for beginning of object key string"),
        Step::EndValue => end_value(stack, c),
        Step::EndTop if is_space(c) => Ok(Step::EndTop),
        Step::EndTop => error("after top-level value"),
        Step::InString => match c {
            b'"' => Ok(Step::EndValue),
            b'\\' => Ok(Step::InStringEsc),
            0..0x20 => error("in string"),
            _ => Ok(Step::InString),
        },
        Step::InStringEsc => match c {
            b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => Ok(Step::InString),
            b'u' => Ok(Step::InStringEscU(0)),
            _ => Err(format!("invalid escape sequence `\\{}` in string", char::from(c))),
        },
        Step::InStringEscU(read) if c.is_ascii_hexdigit() => Ok(if read < 3 {
            Step::InStringEscU(read + 1)
        } else {
            Step::InString
        }),
        // `syntax_error` quotes the escape, which this byte alone does not show.
        Step::InStringEscU(_) => Err(String::new()),
        Step::Neg => match c {
            b'0' => Ok(Step::Zero),
            b'1'..=b'9' => Ok(Step::One),
            _ => error("in numeric literal"),
        },
        Step::One if c.is_ascii_digit() => Ok(Step::One),
        Step::One | Step::Zero => match c {
            b'.' => Ok(Step::Dot),
            b'e' | b'E' => Ok(Step::E),
            _ => end_value(stack, c),
        },
        Step::Dot | Step::Dot0 if c.is_ascii_digit() => Ok(Step::Dot0),
        Step::Dot0 if c == b'e' || c == b'E' => Ok(Step::E),
        Step::Dot0 | Step::E0 if !c.is_ascii_digit() => end_value(stack, c),
        Step::E if c == b'+' || c == b'-' => Ok(Step::ESign),
        Step::E | Step::ESign if c.is_ascii_digit() => Ok(Step::E0),
        Step::Dot | Step::E | Step::ESign => error("in numeric literal"),
        Step::Dot0 | Step::E0 => Ok(step),
        Step::Literal(rest, word) => match rest.split_first() {
            Some((&expected, tail)) if c == expected => Ok(if tail.is_empty() {
                Step::EndValue
            } else {
                Step::Literal(tail, word)
            }),
            Some((&expected, _)) => error(&format!("in literal {word} (expecting {})", quote_char(expected))),
            None => end_value(stack, c),
        },
    }
}

fn push(stack: &mut Vec<Parse>, parse: Parse, next: Step) -> Result<Step, String> {
    if stack.len() >= MAX_DEPTH {
        return Err("exceeded max depth".to_owned());
    }
    stack.push(parse);
    Ok(next)
}

/// `stateEndValue`: what may follow a complete value.
fn end_value(stack: &mut Vec<Parse>, c: u8) -> Result<Step, String> {
    let Some(&top) = stack.last() else {
        return advance(Step::EndTop, stack, c);
    };
    if is_space(c) {
        return Ok(Step::EndValue);
    }
    let error = |context: &str| Err(format!("invalid character {} {context}", quote_char(c)));
    match (top, c) {
        (Parse::ObjectKey, b':') => {
            if let Some(top) = stack.last_mut() {
                *top = Parse::ObjectValue;
            }
            Ok(Step::BeginValue)
        }
        (Parse::ObjectKey, _) => error("after object key"),
        (Parse::ObjectValue, b',') => {
            if let Some(top) = stack.last_mut() {
                *top = Parse::ObjectKey;
            }
            Ok(Step::BeginString)
        }
        (Parse::ObjectValue, b'}') | (Parse::ArrayValue, b']') => Ok(end_container(stack)),
        (Parse::ObjectValue, _) => error("after object key:value pair"),
        (Parse::ArrayValue, b',') => Ok(Step::BeginValue),
        (Parse::ArrayValue, _) => error("after array element"),
    }
}

/// `popParseState`: the container is complete, a value of the one around it.
fn end_container(stack: &mut Vec<Parse>) -> Step {
    stack.pop();
    if stack.is_empty() { Step::EndTop } else { Step::EndValue }
}

/// `quoteChar`: the byte as a Go character literal (a byte past ASCII as `'\x80'`).
fn quote_char(c: u8) -> String {
    match c {
        b'\'' => "'\\''".to_owned(),
        b'"' => "'\"'".to_owned(),
        0x80.. => format!("'\\x{c:02x}'"),
        _ => {
            let quoted = crate::godump::quote(&char::from(c).to_string());
            format!("'{}'", &quoted[1..quoted.len() - 1])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::syntax_error;

    /// Messages as Go 1.22's `json.Unmarshal` gives them for each input.
    #[test]
    fn errors_read_as_gos_scanner_writes_them() {
        let cases: &[(&str, Option<&str>)] = &[
            ("{}", None),
            (" [1, -2.5e+3, \"a\\u00e9\", true, null] ", None),
            ("12", None),
            ("notjson", Some("invalid character 'o' in literal null (expecting 'u')")),
            ("x", Some("invalid character 'x' looking for beginning of value")),
            (
                "\u{c}{}",
                Some("invalid character '\\f' looking for beginning of value"),
            ),
            ("", Some("unexpected end of JSON input")),
            ("{\"a\"", Some("unexpected end of JSON input")),
            ("nul", Some("unexpected end of JSON input")),
            ("1.", Some("unexpected end of JSON input")),
            ("[[]", Some("unexpected end of JSON input")),
            ("{\"a\" 1}", Some("invalid character '1' after object key")),
            (
                "{\"a\":1 \"b\"}",
                Some("invalid character '\"' after object key:value pair"),
            ),
            ("[1 2]", Some("invalid character '2' after array element")),
            (
                "{1:2}",
                Some("invalid character '1' looking for beginning of object key string"),
            ),
            (
                "{'a':1}",
                Some("invalid character '\\'' looking for beginning of object key string"),
            ),
            ("{} x", Some("invalid character 'x' after top-level value")),
            ("01", Some("invalid character '1' after top-level value")),
            ("\"a\\q\"", Some("invalid escape sequence `\\q` in string")),
            ("\"\\u12g4\"", Some("invalid escape sequence `\\u12g4` in string")),
            ("\"a\nb\"", Some("invalid character '\\n' in string")),
            ("-x", Some("invalid character 'x' in numeric literal")),
            ("1.e", Some("invalid character 'e' in numeric literal")),
            ("1ex", Some("invalid character 'x' in numeric literal")),
        ];
        for (input, expected) in cases {
            assert_eq!(syntax_error(input.as_bytes()).as_deref(), *expected, "{input:?}");
        }
    }
}
