//! PEM blocks as Go's `encoding/pem.Decode` finds them: the first well-formed block
//! after any leading text, its type, whether it has headers, its bytes, and where it
//! ends (to read the next one from).

use base64::Engine;

/// One decoded block.
pub(crate) struct Block {
    /// The type of `-----BEGIN <type>-----`.
    pub(crate) kind: String,
    /// Whether `Key: value` headers follow the BEGIN line.
    pub(crate) has_headers: bool,
    /// The decoded body.
    pub(crate) bytes: Vec<u8>,
    /// The offset just past the END line in the input.
    pub(crate) end: usize,
}

/// The first block in `data`, skipping text before it and malformed blocks.
pub(crate) fn decode(data: &[u8]) -> Option<Block> {
    let text = std::str::from_utf8(data).ok().or_else(|| {
        // PEM is ASCII: read the longest valid UTF-8 prefix.
        std::str::from_utf8(&data[..std::str::from_utf8(data).err()?.valid_up_to()]).ok()
    })?;
    let mut search = 0;
    loop {
        let begin = find_begin(text, search)?;
        let after = begin + "-----BEGIN ".len();
        let line_end = text[after..].find('\n').map_or(text.len(), |i| after + i);
        let type_line = text[after..line_end].trim_end_matches('\r');
        search = after;
        let Some(kind) = type_line.strip_suffix("-----") else {
            continue;
        };
        let body_start = (line_end + 1).min(text.len());
        let end_marker = format!("-----END {kind}-----");
        let Some(end_at) = text[body_start..].find(&end_marker).map(|i| body_start + i) else {
            continue;
        };
        let body = &text[body_start..end_at];
        let mut lines = body.lines().peekable();
        let mut has_headers = false;
        while let Some(line) = lines.peek() {
            if line.contains(':') {
                has_headers = true;
                lines.next();
            } else {
                break;
            }
        }
        let encoded: String = lines.flat_map(str::chars).filter(|c| !c.is_whitespace()).collect();
        let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(encoded) else {
            continue;
        };
        let end = end_at + end_marker.len();
        return Some(Block {
            kind: kind.to_owned(),
            has_headers,
            bytes,
            end,
        });
    }
}

/// Where the next `-----BEGIN ` at the start of the input or of a line is.
fn find_begin(text: &str, from: usize) -> Option<usize> {
    let mut at = from;
    loop {
        let found = at + text.get(at..)?.find("-----BEGIN ")?;
        if found == 0 || text.as_bytes()[found - 1] == b'\n' {
            return Some(found);
        }
        at = found + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_found_after_text_and_read_in_turn() {
        let data =
            b"junk\n-----BEGIN A-----\nAQID\n-----END A-----\n-----BEGIN B-----\nk: v\n\nBA==\n-----END B-----\n";
        let first = decode(data).unwrap();
        assert_eq!(
            (first.kind.as_str(), first.bytes.as_slice(), first.has_headers),
            ("A", &[1, 2, 3][..], false)
        );
        let second = decode(&data[first.end..]).unwrap();
        assert_eq!((second.kind.as_str(), second.has_headers), ("B", true));
        assert!(decode(b"no pem here").is_none());
    }
}
