//! Go's `encoding/base64` `StdEncoding.Decode`, which `encoding/json` uses for a
//! `[]byte` field: padding required, `\r` and `\n` skipped anywhere, trailing bits
//! that are not zero accepted (the encoding is not strict), and a failure reported as
//! `CorruptInputError`, the offset of the byte where reading failed
//! (`illegal base64 data at input byte 4`). Ported from `decodeQuantum`; the fast
//! paths of `Decode` only skip ahead over valid input, so they change no answer.

/// The bytes `text` encodes, or the offset Go's `CorruptInputError` names.
pub(crate) fn decode(text: &[u8]) -> Result<Vec<u8>, usize> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut at = 0;
    while at < text.len() {
        at = quantum(text, at, &mut out)?;
    }
    Ok(out)
}

/// Go's wording of a failure at `offset`.
pub(crate) fn error(offset: usize) -> String {
    format!("illegal base64 data at input byte {offset}")
}

/// A symbol's six bits, None for a byte outside the alphabet.
fn sextet(byte: u8) -> Option<u8> {
    match byte {
        b'A'..=b'Z' => Some(byte - b'A'),
        b'a'..=b'z' => Some(byte - b'a' + 26),
        b'0'..=b'9' => Some(byte - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

fn newline(byte: u8) -> bool {
    byte == b'\n' || byte == b'\r'
}

/// `decodeQuantum`: reads up to four symbols from `at`, appends what they encode, and
/// returns where reading stopped.
fn quantum(text: &[u8], mut at: usize, out: &mut Vec<u8>) -> Result<usize, usize> {
    let mut symbols = [0_u8; 4];
    let mut length = 4;
    let mut trailing: Option<usize> = None;
    let mut j = 0;
    while j < 4 {
        if at == text.len() {
            if j == 0 {
                return Ok(at);
            }
            // The padding character is required: a quantum may not end early.
            return Err(at - j);
        }
        let byte = text[at];
        at += 1;
        if let Some(bits) = sextet(byte) {
            symbols[j] = bits;
            j += 1;
            continue;
        }
        if newline(byte) {
            continue;
        }
        if byte != b'=' {
            return Err(at - 1);
        }
        match j {
            0 | 1 => return Err(at - 1),
            2 => {
                while at < text.len() && newline(text[at]) {
                    at += 1;
                }
                if at == text.len() {
                    return Err(text.len());
                }
                if text[at] != b'=' {
                    return Err(at - 1);
                }
                at += 1;
            }
            _ => {}
        }
        while at < text.len() && newline(text[at]) {
            at += 1;
        }
        if at < text.len() {
            trailing = Some(at);
        }
        length = j;
        break;
    }
    let value = symbols
        .iter()
        .fold(0_u32, |value, &bits| (value << 6) | u32::from(bits));
    let bytes = value.to_be_bytes();
    out.extend_from_slice(&bytes[1..length]);
    match trailing {
        Some(offset) => Err(offset),
        None => Ok(at),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_as_go_does() {
        assert_eq!(decode(b"aGVsbG8="), Ok(b"hello".to_vec()));
        assert_eq!(decode(b"aGVs\nbG8="), Ok(b"hello".to_vec()));
        assert_eq!(decode(b""), Ok(Vec::new()));
        // Not strict: the last symbol's unused bits may be set.
        assert_eq!(decode(b"YR=="), Ok(b"a".to_vec()));
        assert_eq!(decode(b"x"), Err(0));
        assert_eq!(decode(b"aGVsbG8"), Err(4));
        assert_eq!(decode(b"aGV*"), Err(3));
        assert_eq!(decode(b"a==="), Err(1));
        assert_eq!(decode(b"aG="), Err(3));
        assert_eq!(decode(b"aG=x"), Err(2));
        assert_eq!(decode(b"aGU=aGU="), Err(4));
    }
}
