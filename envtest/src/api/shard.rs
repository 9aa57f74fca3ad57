//! Server-side sharded list and watch (KEP-5866, Kubernetes 1.36 alpha, feature gate
//! `ShardedListAndWatch`): the `shardSelector` parameter of list, watch and
//! deletecollection, parsed and matched as kube-apiserver does.
//!
//! A selector is `shardRange(<field>, '<start>', '<end>')`, or several joined with
//! `||`. The field (`object.metadata.uid` or `object.metadata.namespace`, the same in
//! every range) is hashed with 64-bit FNV-1a over its UTF-8 bytes (`""` for the
//! namespace of a cluster-scoped object); an object matches when the hash lies in
//! `[start, end)` of any range. Bounds are `0x` and exactly 16 lower-case hex digits,
//! or `0x10000000000000000` (2^64) for the top of the space; start must be below end.
//! The rules and messages follow `k8s.io/apiserver/pkg/sharding/parser.go` and
//! `k8s.io/apimachinery/pkg/sharding/{selector,hash,accessor}.go`.

use serde_json::{Value, json};

use crate::core::ApiError;
use crate::options::ServerOptions;
use crate::request::Target;

/// The first Kubernetes minor version (of major 1) that knows the parameter.
const FIRST_MINOR: u32 = 36;

/// cel-go's default limit on the size of an expression, which bounds the number of
/// ranges a selector can name (fewer than 1,700).
const MAX_CODE_POINTS: usize = 100_000;

/// cel-go's default limit on nesting, here the depth of parentheses.
const MAX_DEPTH: usize = 250;

/// The exclusive top of the hash space.
const TOP: u128 = 1 << 64;

/// The selector a request asks for, when the server honours the parameter: None when
/// it is absent or empty, or when the served version or the gate leave it ignored (as
/// an older kube-apiserver ignores a parameter it does not know).
pub(crate) fn requested(options: &ServerOptions, target: &Target) -> Result<Option<ShardSelector>, ApiError> {
    if !honoured(
        options.sharded_list_and_watch,
        crate::resources::catalogue::kubernetes_version(),
    ) {
        return Ok(None);
    }
    let Some(text) = target.param("shardSelector") else {
        return Ok(None);
    };
    ShardSelector::parse(text)
        .map(Some)
        .map_err(|message| ApiError::bad_request(format!("invalid shard selector: {message}")))
}

/// Whether a server of `version` with the gate set so honours `shardSelector`.
fn honoured(gate: bool, (major, minor): (u32, u32)) -> bool {
    gate && (major, minor) >= (1, FIRST_MINOR)
}

/// 64-bit FNV-1a of `value`'s bytes, as Go's `hash/fnv.New64a` computes it.
pub(crate) fn fnv1a64(value: &str) -> u64 {
    use std::hash::Hasher as _;
    // `write`, not `write_str`: the latter appends a terminator byte.
    let mut hasher = fnv::FnvHasher::default();
    hasher.write(value.as_bytes());
    hasher.finish()
}

/// The metadata field a selector hashes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Uid,
    Namespace,
}

impl Field {
    fn path(self) -> &'static str {
        match self {
            Self::Uid => "object.metadata.uid",
            Self::Namespace => "object.metadata.namespace",
        }
    }
}

/// A parsed `shardSelector`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ShardSelector {
    field: Field,
    /// `[start, end)` ranges, sorted, disjoint and not adjacent (merged at parse time),
    /// so a match is one binary search however many ranges were named.
    ranges: Vec<(u128, u128)>,
    /// The selector as the request sent it, echoed in `metadata.shardInfo`.
    text: String,
}

impl ShardSelector {
    /// Parses a selector; the error is the message kube-apiserver gives after
    /// "invalid shard selector: ".
    pub(crate) fn parse(text: &str) -> Result<Self, String> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err("empty shard selector is not allowed; omit the parameter for unfiltered lists".into());
        }
        let size = trimmed.chars().count();
        if size > MAX_CODE_POINTS {
            return Err(format!(
                "CEL parse error: expression code point size exceeds limit: size: {size}, limit {MAX_CODE_POINTS}"
            ));
        }
        let ranges = Parser::new(trimmed).parse()?;
        let field = ranges[0].field;
        if let Some(other) = ranges.iter().find(|r| r.field != field) {
            return Err(format!(
                "all shard ranges must use the same field, got {:?} and {:?}",
                field.path(),
                other.field.path()
            ));
        }
        Ok(Self {
            field,
            ranges: merged(ranges.iter().map(|r| (r.start, r.end)).collect()),
            text: text.to_owned(),
        })
    }

    /// Whether `object`'s field hashes into one of the ranges.
    pub(crate) fn matches(&self, object: &Value) -> bool {
        let value = match self.field {
            Field::Uid => &object["metadata"]["uid"],
            Field::Namespace => &object["metadata"]["namespace"],
        };
        let hash = u128::from(fnv1a64(value.as_str().unwrap_or_default()));
        let index = self.ranges.partition_point(|&(_, end)| end <= hash);
        self.ranges.get(index).is_some_and(|&(start, _)| start <= hash)
    }

    /// `metadata.shardInfo` of a list served through this selector.
    pub(crate) fn info(&self) -> Value {
        json!({"selector": self.text})
    }
}

/// Sorts ranges and joins those that overlap or touch.
fn merged(mut ranges: Vec<(u128, u128)>) -> Vec<(u128, u128)> {
    ranges.sort_unstable();
    let mut out: Vec<(u128, u128)> = Vec::with_capacity(ranges.len());
    for (start, end) in ranges {
        match out.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => out.push((start, end)),
        }
    }
    out
}

/// One `shardRange(...)` term.
struct Range {
    field: Field,
    start: u128,
    end: u128,
}

/// A token of the CEL subset a selector is written in.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    Str(String),
    /// A numeric literal, by its CEL type (`int64`, `uint64`, `double`).
    Number(&'static str),
    Open,
    Close,
    Comma,
    Dot,
    Or,
    And,
    Other(char),
    End,
}

/// A recursive-descent parser of `term ('||' term)*`, where a term is a
/// `shardRange(...)` call or a parenthesised selector: the expressions kube-apiserver's
/// AST walk accepts (it parses full CEL, then refuses anything else).
struct Parser<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    depth: usize,
    peeked: Option<(usize, Token)>,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            chars: text.char_indices().peekable(),
            depth: 0,
            peeked: None,
        }
    }

    fn parse(mut self) -> Result<Vec<Range>, String> {
        let ranges = self.or()?;
        match self.next()? {
            (_, Token::End) => Ok(ranges),
            (at, token) => Err(unexpected(at, &token)),
        }
    }

    fn or(&mut self) -> Result<Vec<Range>, String> {
        let mut ranges = self.term()?;
        loop {
            match self.peek()? {
                Token::Or => {
                    self.next()?;
                    ranges.extend(self.term()?);
                }
                Token::And => {
                    return Err("unsupported function \"_&&_\"; only shardRange() and || are allowed".into());
                }
                _ => return Ok(ranges),
            }
        }
    }

    fn term(&mut self) -> Result<Vec<Range>, String> {
        match self.next()? {
            (_, Token::Open) => {
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return Err(format!(
                        "CEL parse error: expression recursion limit exceeded: {MAX_DEPTH}"
                    ));
                }
                let ranges = self.or()?;
                self.expect_close()?;
                self.depth -= 1;
                Ok(ranges)
            }
            (_, Token::Ident(name)) => {
                if self.peek()? != &Token::Open {
                    let kind = if self.peek()? == &Token::Dot {
                        "SelectKind"
                    } else {
                        "IdentKind"
                    };
                    return Err(format!(
                        "unexpected expression kind {kind}; expected shardRange() call or || operator"
                    ));
                }
                if name != "shardRange" {
                    return Err(format!(
                        "unsupported function {name:?}; only shardRange() and || are allowed"
                    ));
                }
                self.next()?;
                self.shard_range().map(|range| vec![range])
            }
            (_, Token::Str(_) | Token::Number(_)) => {
                Err("unexpected expression kind LiteralKind; expected shardRange() call or || operator".into())
            }
            (at, token) => Err(unexpected(at, &token)),
        }
    }

    /// The arguments of `shardRange(`, through its `)`.
    fn shard_range(&mut self) -> Result<Range, String> {
        let mut arguments = Vec::new();
        if self.peek()? == &Token::Close {
            self.next()?;
        } else {
            loop {
                arguments.push(self.argument()?);
                match self.next()? {
                    (_, Token::Comma) => {}
                    (_, Token::Close) => break,
                    (at, token) => return Err(unexpected(at, &token)),
                }
            }
        }
        let [field, start, end] = <[Argument; 3]>::try_from(arguments)
            .map_err(|arguments| format!("shardRange() requires exactly 3 arguments, got {}", arguments.len()))?;
        let field = match field {
            Argument::Path(path) if path == Field::Uid.path() => Field::Uid,
            Argument::Path(path) if path == Field::Namespace.path() => Field::Namespace,
            Argument::Path(path) => {
                return Err(format!(
                    "unsupported field path {path:?}; supported: object.metadata.uid, object.metadata.namespace"
                ));
            }
            Argument::Str(_) | Argument::Number(_) => {
                return Err(
                    "shardRange() first argument: expected field path (e.g. object.metadata.uid), got expression kind LiteralKind"
                        .into(),
                );
            }
        };
        let (start_text, start) = hex_bound(start, "hexStart")?;
        let (end_text, end) = hex_bound(end, "hexEnd")?;
        if start >= end {
            return Err(format!(
                "shard range start {start_text} must be less than end {end_text}"
            ));
        }
        Ok(Range { field, start, end })
    }

    fn argument(&mut self) -> Result<Argument, String> {
        match self.next()? {
            (_, Token::Str(value)) => Ok(Argument::Str(value)),
            (_, Token::Number(kind)) => Ok(Argument::Number(kind)),
            (_, Token::Ident(first)) => {
                let mut path = first;
                while self.peek()? == &Token::Dot {
                    self.next()?;
                    match self.next()? {
                        (_, Token::Ident(name)) => {
                            path.push('.');
                            path.push_str(&name);
                        }
                        (at, token) => return Err(unexpected(at, &token)),
                    }
                }
                Ok(Argument::Path(path))
            }
            (at, token) => Err(unexpected(at, &token)),
        }
    }

    fn expect_close(&mut self) -> Result<(), String> {
        match self.next()? {
            (_, Token::Close) => Ok(()),
            (at, token) => Err(unexpected(at, &token)),
        }
    }

    fn peek(&mut self) -> Result<&Token, String> {
        if self.peeked.is_none() {
            self.peeked = Some(self.lex()?);
        }
        Ok(self.peeked.as_ref().map_or(&Token::End, |(_, token)| token))
    }

    fn next(&mut self) -> Result<(usize, Token), String> {
        match self.peeked.take() {
            Some(peeked) => Ok(peeked),
            None => self.lex(),
        }
    }

    fn lex(&mut self) -> Result<(usize, Token), String> {
        while self.chars.next_if(|(_, c)| c.is_ascii_whitespace()).is_some() {}
        let Some((at, c)) = self.chars.next() else {
            return Ok((usize::MAX, Token::End));
        };
        let token = match c {
            '(' => Token::Open,
            ')' => Token::Close,
            ',' => Token::Comma,
            '.' => Token::Dot,
            '|' if self.chars.next_if(|&(_, c)| c == '|').is_some() => Token::Or,
            '&' if self.chars.next_if(|&(_, c)| c == '&').is_some() => Token::And,
            '\'' | '"' => Token::Str(self.string(at, c)?),
            c if c == '_' || c.is_ascii_alphabetic() => {
                let mut name = c.to_string();
                while let Some((_, c)) = self.chars.next_if(|&(_, c)| c == '_' || c.is_ascii_alphanumeric()) {
                    name.push(c);
                }
                Token::Ident(name)
            }
            c if c.is_ascii_digit() => {
                let mut kind = "int64";
                while let Some((_, c)) = self.chars.next_if(|&(_, c)| c.is_ascii_alphanumeric() || c == '.') {
                    if c == '.' {
                        kind = "double";
                    } else if c == 'u' || c == 'U' {
                        kind = "uint64";
                    }
                }
                Token::Number(kind)
            }
            c => Token::Other(c),
        };
        Ok((at, token))
    }

    /// A quoted string's value, after its opening `quote` at `at`. Bounds are plain
    /// hex, so escapes (which CEL would decode) are refused rather than decoded.
    fn string(&mut self, at: usize, quote: char) -> Result<String, String> {
        let mut value = String::new();
        loop {
            match self.chars.next() {
                Some((_, c)) if c == quote => return Ok(value),
                Some((escape, '\\')) => {
                    return Err(format!(
                        "CEL parse error: escape sequences are not supported in a shard bound (at {escape})"
                    ));
                }
                Some((_, c)) => value.push(c),
                None => return Err(format!("CEL parse error: unterminated string starting at {at}")),
            }
        }
    }
}

/// An argument of `shardRange()`.
enum Argument {
    Path(String),
    Str(String),
    Number(&'static str),
}

fn unexpected(at: usize, token: &Token) -> String {
    let what = match token {
        Token::End => return "CEL parse error: unexpected end of input".into(),
        Token::Ident(name) => name.clone(),
        Token::Str(value) => format!("'{value}'"),
        Token::Number(kind) => format!("{kind} literal"),
        Token::Open => "(".into(),
        Token::Close => ")".into(),
        Token::Comma => ",".into(),
        Token::Dot => ".".into(),
        Token::Or => "||".into(),
        Token::And => "&&".into(),
        Token::Other(c) => c.to_string(),
    };
    format!("CEL parse error: syntax error at position {at}: unexpected {what:?}")
}

/// A bound's text and value, checked as kube's `extractHexLiteral` checks it (and in
/// its order, so the same input gets the same message).
fn hex_bound(argument: Argument, name: &str) -> Result<(String, u128), String> {
    let text = match argument {
        Argument::Str(text) => text,
        Argument::Number(kind) => return Err(format!("{name} must be a string literal, got {kind}")),
        Argument::Path(path) => {
            let kind = if path.contains('.') { "SelectKind" } else { "IdentKind" };
            return Err(format!(
                "{name} must be a string literal (e.g. '0xff'), got expression kind {kind}"
            ));
        }
    };
    let Some(hex) = text.strip_prefix("0x") else {
        return Err(format!("{name} must have '0x' prefix, got {text:?}"));
    };
    if hex.is_empty() {
        return Err(format!("{name}: hex value is required after '0x'"));
    }
    let digits = hex.chars().count();
    if digits > 17 {
        return Err(format!("{name}: hex value too long ({digits} chars, max 17): {hex:?}"));
    }
    if let Some(bad) = hex.chars().find(|c| !matches!(c, '0'..='9' | 'a'..='f')) {
        return Err(format!(
            "{name}: invalid hex character {:?} in {text:?}",
            bad.to_string()
        ));
    }
    if digits == 17 {
        if text != "0x10000000000000000" {
            return Err(format!(
                "{name}: 17-digit hex value must be '0x10000000000000000' (2^64), got {text:?}"
            ));
        }
        return Ok((text, TOP));
    }
    if digits != 16 {
        let padded = format!("0x{}{hex}", "0".repeat(16 - digits));
        return Err(format!(
            "{name} must be a 0x-prefixed 16-digit hex value, got {text:?} (did you mean {padded:?}?)"
        ));
    }
    let value = u64::from_str_radix(hex, 16).map_err(|e| format!("{name}: {e}"))?;
    Ok((text, u128::from(value)))
}

#[cfg(test)]
mod tests;
