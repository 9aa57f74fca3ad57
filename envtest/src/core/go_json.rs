//! What Go's `encoding/json` says of a body that is not JSON, so a client reads the
//! same complaint here as from kube-apiserver: its scanner's `invalid character 'n'
//! looking for beginning of object key string`, `unexpected end of JSON input`, and
//! the rest of its wording, found at the same byte.

use std::fmt::Write as _;

/// Decodes a JSON body; when it is not JSON, the error is Go's wording of why (see
/// [`syntax_error`]; a body Go would read but this decoder will not, such as one nested
/// too deep, keeps the decoder's own complaint).
pub(crate) fn decode(data: &[u8]) -> Result<serde_json::Value, String> {
    serde_json::from_slice(data).map_err(|error| syntax_error(data).unwrap_or_else(|| error.to_string()))
}

/// `summarizeData`: what kube-apiserver quotes of a body it cannot read, its first 30
/// bytes (then ` ...`), as text when it starts as an object, else in hex; `<empty>`.
pub(crate) fn summarize_data(data: &[u8]) -> String {
    const MAX: usize = 30;
    let shown = &data[..data.len().min(MAX)];
    let more = if data.len() > MAX { " ..." } else { "" };
    match data.first() {
        None => "<empty>".to_owned(),
        Some(b'{') => format!("{}{more}", String::from_utf8_lossy(shown)),
        Some(_) => {
            let hex = shown.iter().fold(String::new(), |mut hex, b| {
                let _ = write!(hex, "{b:02x}");
                hex
            });
            format!("{hex}{more}")
        }
    }
}

/// What Go's `encoding/json` calls a JSON value's type in `cannot unmarshal X into ...`.
pub(crate) fn go_json_type(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::Bool(_) => "bool",
        serde_json::Value::Null => "null",
    }
}

/// `strconv.ParseUint(text, 10, 64)`, failing in Go's words (`strconv.ParseUint:
/// parsing "abc": invalid syntax`), as kube-apiserver reports a resourceVersion that is
/// not a number.
pub(crate) fn parse_uint(text: &str) -> Result<u64, String> {
    text.parse::<u64>().map_err(|_| {
        let why = if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
            "value out of range"
        } else {
            "invalid syntax"
        };
        format!(
            "strconv.ParseUint: parsing {}: {why}",
            wheelhouse_envtest_schema::errors::go_quote(text)
        )
    })
}

/// The error Go's `json.Unmarshal` reports for `data`, or `None` when it is valid JSON.
pub(crate) fn syntax_error(data: &[u8]) -> Option<String> {
    let mut scanner = Scanner { data, at: 0 };
    match scanner.document() {
        Ok(()) => None,
        Err(Stop::End) => Some("unexpected end of JSON input".to_owned()),
        Err(Stop::Invalid(byte, context)) => Some(format!("invalid character {} {context}", quote_char(byte))),
    }
}

/// Why the scan stopped: the input ended inside a value, or a byte does not belong.
enum Stop {
    End,
    Invalid(u8, &'static str),
}

struct Scanner<'a> {
    data: &'a [u8],
    at: usize,
}

impl Scanner<'_> {
    fn document(&mut self) -> Result<(), Stop> {
        self.value()?;
        self.skip_space();
        match self.peek() {
            None => Ok(()),
            Some(byte) => Err(Stop::Invalid(byte, "after top-level value")),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.data.get(self.at).copied()
    }

    /// The next byte, which must exist.
    fn next(&mut self) -> Result<u8, Stop> {
        let byte = self.peek().ok_or(Stop::End)?;
        self.at += 1;
        Ok(byte)
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.at += 1;
        }
    }

    fn value(&mut self) -> Result<(), Stop> {
        self.skip_space();
        match self.next()? {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => self.string(),
            b'-' => self.number(b'-'),
            digit @ b'0'..=b'9' => self.number(digit),
            b't' => self.literal(b"rue", "in literal true (expecting '"),
            b'f' => self.literal(b"alse", "in literal false (expecting '"),
            b'n' => self.literal(b"ull", "in literal null (expecting '"),
            other => Err(Stop::Invalid(other, "looking for beginning of value")),
        }
    }

    fn object(&mut self) -> Result<(), Stop> {
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(());
        }
        loop {
            self.skip_space();
            match self.next()? {
                b'"' => self.string()?,
                other => return Err(Stop::Invalid(other, "looking for beginning of object key string")),
            }
            self.skip_space();
            match self.next()? {
                b':' => {}
                other => return Err(Stop::Invalid(other, "after object key")),
            }
            self.value()?;
            self.skip_space();
            match self.next()? {
                b',' => {}
                b'}' => return Ok(()),
                other => return Err(Stop::Invalid(other, "after object key:value pair")),
            }
        }
    }

    fn array(&mut self) -> Result<(), Stop> {
        self.skip_space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(());
        }
        loop {
            self.value()?;
            self.skip_space();
            match self.next()? {
                b',' => {}
                b']' => return Ok(()),
                other => return Err(Stop::Invalid(other, "after array element")),
            }
        }
    }

    /// The rest of a string, its opening quote read.
    fn string(&mut self) -> Result<(), Stop> {
        loop {
            match self.next()? {
                b'"' => return Ok(()),
                b'\\' => match self.next()? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {}
                    b'u' => {
                        for _ in 0..4 {
                            let byte = self.next()?;
                            if !byte.is_ascii_hexdigit() {
                                return Err(Stop::Invalid(byte, "in \\u hexadecimal character escape"));
                            }
                        }
                    }
                    other => return Err(Stop::Invalid(other, "in string escape code")),
                },
                control if control < 0x20 => return Err(Stop::Invalid(control, "in string literal")),
                _ => {}
            }
        }
    }

    /// The rest of a number, its first byte read; the byte after it is the caller's.
    fn number(&mut self, first: u8) -> Result<(), Stop> {
        let first = if first == b'-' {
            match self.next()? {
                digit @ b'0'..=b'9' => digit,
                other => return Err(Stop::Invalid(other, "in numeric literal")),
            }
        } else {
            first
        };
        if first != b'0' {
            self.digits();
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            match self.next()? {
                b'0'..=b'9' => self.digits(),
                other => return Err(Stop::Invalid(other, "after decimal point in numeric literal")),
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            let mut byte = self.next()?;
            if matches!(byte, b'+' | b'-') {
                byte = self.next()?;
            }
            if !byte.is_ascii_digit() {
                return Err(Stop::Invalid(byte, "in exponent of numeric literal"));
            }
            self.digits();
        }
        Ok(())
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
    }

    /// The rest of `true`, `false` or `null`; `context` is the error's wording up to
    /// the byte expected.
    fn literal(&mut self, rest: &[u8], context: &'static str) -> Result<(), Stop> {
        for &expected in rest {
            let byte = self.next()?;
            if byte != expected {
                return Err(Stop::Invalid(byte, literal_context(context, expected)));
            }
        }
        Ok(())
    }
}

/// `in literal true (expecting 'r')` and its kin, as static strings.
fn literal_context(context: &str, expected: u8) -> &'static str {
    const ALL: &[(&str, u8, &str)] = &[
        ("in literal true (expecting '", b'r', "in literal true (expecting 'r')"),
        ("in literal true (expecting '", b'u', "in literal true (expecting 'u')"),
        ("in literal true (expecting '", b'e', "in literal true (expecting 'e')"),
        (
            "in literal false (expecting '",
            b'a',
            "in literal false (expecting 'a')",
        ),
        (
            "in literal false (expecting '",
            b'l',
            "in literal false (expecting 'l')",
        ),
        (
            "in literal false (expecting '",
            b's',
            "in literal false (expecting 's')",
        ),
        (
            "in literal false (expecting '",
            b'e',
            "in literal false (expecting 'e')",
        ),
        ("in literal null (expecting '", b'u', "in literal null (expecting 'u')"),
        ("in literal null (expecting '", b'l', "in literal null (expecting 'l')"),
    ];
    ALL.iter()
        .find(|(prefix, byte, _)| *prefix == context && *byte == expected)
        .map_or("in literal", |(_, _, full)| full)
}

/// Go's `quoteChar`: a byte in single quotes, escaped as `strconv.Quote` escapes it.
fn quote_char(byte: u8) -> String {
    match byte {
        b'\'' => "'\\''".to_owned(),
        b'"' => "'\"'".to_owned(),
        _ => {
            // Go converts the byte to a rune: bytes past ASCII are Latin-1 characters.
            let quoted = wheelhouse_envtest_schema::errors::go_quote(&char::from(byte).to_string());
            format!("'{}'", &quoted[1..quoted.len() - 1])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::syntax_error;

    #[test]
    fn errors_are_worded_as_go_words_them() {
        for (input, expected) in [
            (
                "{not json",
                Some("invalid character 'n' looking for beginning of object key string"),
            ),
            ("", Some("unexpected end of JSON input")),
            ("{\"a\":", Some("unexpected end of JSON input")),
            ("{\"a\" 1}", Some("invalid character '1' after object key")),
            (
                "{\"a\":1 \"b\"}",
                Some("invalid character '\"' after object key:value pair"),
            ),
            ("[1 2]", Some("invalid character '2' after array element")),
            ("[1,]", Some("invalid character ']' looking for beginning of value")),
            ("tru", Some("unexpected end of JSON input")),
            ("trve", Some("invalid character 'v' in literal true (expecting 'u')")),
            ("nul1", Some("invalid character '1' in literal null (expecting 'l')")),
            ("-x", Some("invalid character 'x' in numeric literal")),
            (
                "1.x",
                Some("invalid character 'x' after decimal point in numeric literal"),
            ),
            ("1ex", Some("invalid character 'x' in exponent of numeric literal")),
            ("\"a\\x\"", Some("invalid character 'x' in string escape code")),
            (
                "\"\\u12g4\"",
                Some("invalid character 'g' in \\u hexadecimal character escape"),
            ),
            ("\"a\nb\"", Some("invalid character '\\n' in string literal")),
            ("{} x", Some("invalid character 'x' after top-level value")),
            ("'a'", Some("invalid character '\\'' looking for beginning of value")),
            ("01", Some("invalid character '1' after top-level value")),
            (" {\"a\": [1, 2.5e-3, true, null, \"\\u00e9\"]} ", None),
        ] {
            assert_eq!(syntax_error(input.as_bytes()).as_deref(), expected, "{input:?}");
        }
    }
}
