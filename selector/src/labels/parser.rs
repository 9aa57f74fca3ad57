//! `labels.Parse`'s lexer and recursive-descent parser, token for token, so a selector
//! kube refuses is refused here with the same message, and one it takes is read the
//! same way (`x in (foo,,baz),y,z notin ()` included).
//!
//! ```text
//! <selector-syntax>         ::= <requirement> | <requirement> "," <selector-syntax>
//! <requirement>             ::= [!] KEY [ <set-based-restriction> | <exact-match-restriction> ]
//! <set-based-restriction>   ::= "" | <inclusion-exclusion> <value-set>
//! <inclusion-exclusion>     ::= <inclusion> | <exclusion>
//! <value-set>               ::= "(" <values> ")"
//! <values>                  ::= VALUE | VALUE "," <values>
//! <exact-match-restriction> ::= ["="|"=="|"!="|">"|"<"] VALUE
//! ```

use std::collections::BTreeSet;

use super::{Operator, Requirement};
use crate::SelectorError;
use crate::validation::{go_quote, is_qualified_name};

/// `Token`: what the lexer recognizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    Error,
    EndOfString,
    ClosedPar,
    Comma,
    DoesNotExist,
    DoubleEquals,
    Equals,
    GreaterThan,
    Identifier,
    In,
    LessThan,
    NotEquals,
    NotIn,
    OpenPar,
}

/// `string2token`: the literals that are tokens of their own.
fn keyword(literal: &[u8]) -> Option<Token> {
    Some(match literal {
        b")" => Token::ClosedPar,
        b"," => Token::Comma,
        b"!" => Token::DoesNotExist,
        b"==" => Token::DoubleEquals,
        b"=" => Token::Equals,
        b">" => Token::GreaterThan,
        b"in" => Token::In,
        b"<" => Token::LessThan,
        b"!=" => Token::NotEquals,
        b"notin" => Token::NotIn,
        b"(" => Token::OpenPar,
        _ => return None,
    })
}

/// `binaryOperators`, as the parser's error lists them.
const BINARY_OPERATORS: &str = "in, notin, =, ==, !=, gt, lt";

fn is_whitespace(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\n')
}

fn is_special_symbol(byte: u8) -> bool {
    matches!(byte, b'=' | b'!' | b'(' | b')' | b',' | b'>' | b'<')
}

/// `Lexer`: bytes in, tokens and their literals out. A NUL byte reads as the end does
/// (Go's `read` returns 0 for both).
struct Lexer<'a> {
    text: &'a [u8],
    position: usize,
}

impl Lexer<'_> {
    fn read(&mut self) -> u8 {
        match self.text.get(self.position) {
            Some(&byte) => {
                self.position += 1;
                byte
            }
            None => 0,
        }
    }

    fn unread(&mut self) {
        self.position -= 1;
    }

    /// `scanIDOrKeyword`: up to the next special symbol or blank.
    fn scan_identifier_or_keyword(&mut self) -> (Token, String) {
        let mut buffer = Vec::new();
        loop {
            let byte = self.read();
            if byte == 0 {
                break;
            }
            if is_special_symbol(byte) || is_whitespace(byte) {
                self.unread();
                break;
            }
            buffer.push(byte);
        }
        let literal = String::from_utf8_lossy(&buffer).into_owned();
        (keyword(&buffer).unwrap_or(Token::Identifier), literal)
    }

    /// `scanSpecialSymbol`: the longest run of special symbols that is an operator.
    fn scan_special_symbol(&mut self) -> (Token, String) {
        let mut last: Option<(Token, String)> = None;
        let mut buffer = Vec::new();
        loop {
            let byte = self.read();
            if byte == 0 {
                break;
            }
            if !is_special_symbol(byte) {
                self.unread();
                break;
            }
            buffer.push(byte);
            if let Some(token) = keyword(&buffer) {
                last = Some((token, String::from_utf8_lossy(&buffer).into_owned()));
            } else if last.is_some() {
                self.unread();
                break;
            }
        }
        last.unwrap_or_else(|| {
            (
                Token::Error,
                format!("error expected: keyword found '{}'", String::from_utf8_lossy(&buffer)),
            )
        })
    }

    /// `Lex`: the next token, blanks skipped.
    fn lex(&mut self) -> (Token, String) {
        let mut byte = self.read();
        while is_whitespace(byte) {
            byte = self.read();
        }
        if byte == 0 {
            return (Token::EndOfString, String::new());
        }
        self.unread();
        if is_special_symbol(byte) {
            self.scan_special_symbol()
        } else {
            self.scan_identifier_or_keyword()
        }
    }
}

/// `ParserContext`: `in` and `notin` are operators after a key, identifiers where a
/// value is expected (`value in (in)`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    KeyAndOperator,
    Values,
}

/// `Parser`: the scanned tokens and where it is among them.
struct Parser {
    items: Vec<(Token, String)>,
    position: usize,
}

impl Parser {
    fn in_context(token: Token, context: Context) -> Token {
        match token {
            Token::In | Token::NotIn if context == Context::Values => Token::Identifier,
            other => other,
        }
    }

    /// The current token, not consumed (the last one, end of string, repeats).
    fn lookahead(&self, context: Context) -> (Token, String) {
        let (token, literal) = self.items[self.position.min(self.items.len() - 1)].clone();
        (Self::in_context(token, context), literal)
    }

    fn consume(&mut self, context: Context) -> (Token, String) {
        let item = self.lookahead(context);
        self.position += 1;
        item
    }

    /// `parse`: requirements separated by commas, to the end of the string.
    fn parse(&mut self) -> Result<Vec<Requirement>, SelectorError> {
        let mut requirements = Vec::new();
        loop {
            let (token, literal) = self.lookahead(Context::Values);
            match token {
                Token::Identifier | Token::DoesNotExist => {
                    let requirement = self
                        .parse_requirement()
                        .map_err(|error| SelectorError(format!("unable to parse requirement: {}", error.0)))?;
                    requirements.push(requirement);
                    let (token, literal) = self.consume(Context::Values);
                    match token {
                        Token::EndOfString => return Ok(requirements),
                        Token::Comma => {
                            let (next, literal) = self.lookahead(Context::Values);
                            if next != Token::Identifier && next != Token::DoesNotExist {
                                return Err(error(format!("found '{literal}', expected: identifier after ','")));
                            }
                        }
                        _ => return Err(error(format!("found '{literal}', expected: ',' or 'end of string'"))),
                    }
                }
                Token::EndOfString => return Ok(requirements),
                _ => {
                    return Err(error(format!(
                        "found '{literal}', expected: !, identifier, or 'end of string'"
                    )));
                }
            }
        }
    }

    /// `parseRequirement`.
    fn parse_requirement(&mut self) -> Result<Requirement, SelectorError> {
        let (key, operator) = self.parse_key_and_infer_operator()?;
        if let Some(operator @ (Operator::Exists | Operator::DoesNotExist)) = operator {
            return Requirement::new(&key, operator, Vec::new());
        }
        let operator = self.parse_operator()?;
        let values = match operator {
            Operator::In | Operator::NotIn => self.parse_values()?,
            _ => self.parse_exact_value()?,
        };
        Requirement::new(&key, operator, values.into_iter().collect())
    }

    /// `parseKeyAndInferOperator`: `!key`, or a key alone (exists), or a key followed by
    /// an operator (None here).
    fn parse_key_and_infer_operator(&mut self) -> Result<(String, Option<Operator>), SelectorError> {
        let mut operator = None;
        let (mut token, mut literal) = self.consume(Context::Values);
        if token == Token::DoesNotExist {
            operator = Some(Operator::DoesNotExist);
            (token, literal) = self.consume(Context::Values);
        }
        if token != Token::Identifier {
            return Err(error(format!("found '{literal}', expected: identifier")));
        }
        let key_errors = is_qualified_name(&literal);
        if !key_errors.is_empty() {
            // `validateLabelKey` with the parser's nil path.
            return Err(error(format!(
                "<nil>: Invalid value: {}: {}",
                go_quote(&literal),
                key_errors.join("; ")
            )));
        }
        let (next, _) = self.lookahead(Context::Values);
        if matches!(next, Token::EndOfString | Token::Comma) && operator.is_none() {
            operator = Some(Operator::Exists);
        }
        Ok((literal, operator))
    }

    /// `parseOperator`.
    fn parse_operator(&mut self) -> Result<Operator, SelectorError> {
        let (token, literal) = self.consume(Context::KeyAndOperator);
        Ok(match token {
            Token::In => Operator::In,
            Token::Equals => Operator::Equals,
            Token::DoubleEquals => Operator::DoubleEquals,
            Token::GreaterThan => Operator::GreaterThan,
            Token::LessThan => Operator::LessThan,
            Token::NotIn => Operator::NotIn,
            Token::NotEquals => Operator::NotEquals,
            _ => return Err(error(format!("found '{literal}', expected: {BINARY_OPERATORS}"))),
        })
    }

    /// `parseValues`: `(a,b)`, `()` (one empty value) and the comma forms in between.
    fn parse_values(&mut self) -> Result<BTreeSet<String>, SelectorError> {
        let (token, literal) = self.consume(Context::Values);
        if token != Token::OpenPar {
            return Err(error(format!("found '{literal}' expected: '('")));
        }
        let (token, literal) = self.lookahead(Context::Values);
        match token {
            Token::Identifier | Token::Comma => {
                let values = self.parse_identifiers_list()?;
                let (token, _) = self.consume(Context::Values);
                if token != Token::ClosedPar {
                    return Err(error(format!("found '{literal}', expected: ')'")));
                }
                Ok(values)
            }
            Token::ClosedPar => {
                self.consume(Context::Values);
                Ok(BTreeSet::from([String::new()]))
            }
            _ => Err(error(format!("found '{literal}', expected: ',', ')' or identifier"))),
        }
    }

    /// `parseIdentifiersList`: possibly empty identifiers separated by commas.
    fn parse_identifiers_list(&mut self) -> Result<BTreeSet<String>, SelectorError> {
        let mut values = BTreeSet::new();
        loop {
            let (token, literal) = self.consume(Context::Values);
            match token {
                Token::Identifier => {
                    values.insert(literal);
                    let (next, literal) = self.lookahead(Context::Values);
                    match next {
                        Token::Comma => {}
                        Token::ClosedPar => return Ok(values),
                        _ => return Err(error(format!("found '{literal}', expected: ',' or ')'"))),
                    }
                }
                Token::Comma => {
                    if values.is_empty() {
                        values.insert(String::new());
                    }
                    let (next, _) = self.lookahead(Context::Values);
                    if next == Token::ClosedPar {
                        values.insert(String::new());
                        return Ok(values);
                    }
                    if next == Token::Comma {
                        self.consume(Context::Values);
                        values.insert(String::new());
                    }
                }
                _ => return Err(error(format!("found '{literal}', expected: ',', or identifier"))),
            }
        }
    }

    /// `parseExactValue`: the one value after `=`, `==`, `!=`, `>` or `<` (empty at
    /// the end or before a comma).
    fn parse_exact_value(&mut self) -> Result<BTreeSet<String>, SelectorError> {
        let (token, _) = self.lookahead(Context::Values);
        if matches!(token, Token::EndOfString | Token::Comma) {
            return Ok(BTreeSet::from([String::new()]));
        }
        let (token, literal) = self.consume(Context::Values);
        if token == Token::Identifier {
            return Ok(BTreeSet::from([literal]));
        }
        Err(error(format!("found '{literal}', expected: identifier")))
    }
}

fn error(message: String) -> SelectorError {
    SelectorError(message)
}

/// Parses `text` into its requirements, in the order written.
pub(super) fn parse(text: &str) -> Result<Vec<Requirement>, SelectorError> {
    let mut lexer = Lexer {
        text: text.as_bytes(),
        position: 0,
    };
    let mut items = Vec::new();
    loop {
        let item = lexer.lex();
        let end = item.0 == Token::EndOfString;
        items.push(item);
        if end {
            break;
        }
    }
    Parser { items, position: 0 }.parse()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<(Token, String)> {
        let mut lexer = Lexer {
            text: text.as_bytes(),
            position: 0,
        };
        let mut out = Vec::new();
        loop {
            let item = lexer.lex();
            let end = item.0 == Token::EndOfString;
            out.push(item);
            if end {
                return out;
            }
        }
    }

    #[test]
    fn the_lexer_takes_the_longest_operator() {
        use Token::*;
        let kinds: Vec<Token> = tokens("a!=b,c==d,!e,f in (g),h notin(i)")
            .into_iter()
            .map(|t| t.0)
            .collect();
        assert_eq!(
            kinds,
            vec![
                Identifier,
                NotEquals,
                Identifier,
                Comma,
                Identifier,
                DoubleEquals,
                Identifier,
                Comma,
                DoesNotExist,
                Identifier,
                Comma,
                Identifier,
                In,
                OpenPar,
                Identifier,
                ClosedPar,
                Comma,
                Identifier,
                NotIn,
                OpenPar,
                Identifier,
                ClosedPar,
                EndOfString
            ]
        );
        assert_eq!(tokens("=<")[0], (Token::Equals, "=".into()));
        assert_eq!(tokens("=<")[1], (Token::LessThan, "<".into()));
        // Go's `read` returns 0 for a NUL as at the end: it ends an identifier, and
        // where a token starts it ends the input.
        assert_eq!(tokens("a\0b").len(), 3);
        assert_eq!(tokens("\0b").len(), 1);
    }
}
