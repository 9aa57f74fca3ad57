//! Container image references, read by the distribution project's grammar
//! (`reference.Parse` of distribution/reference, with go-digest's `digest.Parse` for
//! what follows `@`), in one pass over the text: no regular expression, so a
//! megabytes-long reference costs microseconds and cannot stall the webhook.
//!
//! ```text
//! reference   := name [ ":" tag ] [ "@" digest ]
//! name        := [ domain "/" ] path            (at most 255 characters)
//! domain      := host [ ":" port ]              host: DNS labels, or "[" IPv6 "]"
//! path        := component [ "/" component ]*
//! component   := [a-z0-9]+ ( separator [a-z0-9]+ )*     separator: "." "_" "__" "-"+
//! tag         := [A-Za-z0-9_] [A-Za-z0-9_.-]{0,127}
//! digest      := "sha256:" 64 | "sha384:" 96 | "sha512:" 128 lower-case hex digits
//! ```

/// A reference that parsed: the parts the validator's messages use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageReference<'a> {
    /// Everything before the tag and digest: `[domain/]path`.
    pub name: &'a str,
    /// The tag after `:`, if any.
    pub tag: Option<&'a str>,
    /// The digest after `@`, if any (`sha256:...`).
    pub digest: Option<&'a str>,
}

/// Why a text is not an image reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReferenceError {
    /// Nothing to name an image by.
    Empty,
    /// The name is longer than 255 characters.
    NameTooLong,
    /// The name is not `[domain/]path` (upper case, a stray separator, a character
    /// outside the grammar).
    InvalidName,
    /// The tag is not 1 to 128 of `A-Za-z0-9_.-`, starting with neither `.` nor `-`.
    InvalidTag,
    /// The digest's algorithm is not sha256, sha384 or sha512.
    UnsupportedDigest,
    /// The digest's hex is not of its algorithm's length in lower-case hex digits.
    InvalidDigest,
}

impl std::fmt::Display for ReferenceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Empty => "empty",
            Self::NameTooLong => "the repository name is longer than 255 characters",
            Self::InvalidName => "invalid repository name",
            Self::InvalidTag => "invalid tag",
            Self::UnsupportedDigest => "unsupported digest algorithm",
            Self::InvalidDigest => "invalid digest: the hex must be lower case and of the algorithm's length",
        })
    }
}

/// The longest name the distribution grammar allows.
const NAME_TOTAL_LENGTH_MAX: usize = 255;
/// The longest tag.
const TAG_LENGTH_MAX: usize = 128;

/// Parses `text` as an image reference, in time linear in its length.
pub fn parse(text: &str) -> Result<ImageReference<'_>, ReferenceError> {
    if text.is_empty() {
        return Err(ReferenceError::Empty);
    }
    // Neither a name nor a tag holds '@', so the first one starts the digest.
    let (named, digest) = match text.split_once('@') {
        Some((named, digest)) => (named, Some(digest)),
        None => (text, None),
    };
    // A ':' after the last '/' starts the tag; one before it is a registry's port.
    let (name, tag) = match named.rfind(':') {
        Some(colon) if !named[colon..].contains('/') => (&named[..colon], Some(&named[colon + 1..])),
        _ => (named, None),
    };
    check_name(name)?;
    if let Some(tag) = tag {
        check_tag(tag)?;
    }
    if let Some(digest) = digest {
        check_digest(digest)?;
    }
    Ok(ImageReference { name, tag, digest })
}

fn check_name(name: &str) -> Result<(), ReferenceError> {
    if name.is_empty() {
        return Err(ReferenceError::InvalidName);
    }
    if name.len() > NAME_TOTAL_LENGTH_MAX {
        return Err(ReferenceError::NameTooLong);
    }
    // Either every component is a path component, or the first is a domain
    // followed by at least one path component.
    let (first, rest) = match name.split_once('/') {
        Some((first, rest)) => (first, Some(rest)),
        None => (name, None),
    };
    let rest_ok = rest.is_none_or(|rest| rest.split('/').all(is_path_component));
    let first_ok = is_path_component(first) || (rest.is_some() && is_domain(first));
    if first_ok && rest_ok {
        Ok(())
    } else {
        Err(ReferenceError::InvalidName)
    }
}

/// `[a-z0-9]+ ( ("." | "_" | "__" | "-"+) [a-z0-9]+ )*`.
fn is_path_component(component: &str) -> bool {
    let bytes = component.as_bytes();
    let mut index = 0;
    loop {
        let run = bytes[index..]
            .iter()
            .take_while(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            .count();
        if run == 0 {
            return false;
        }
        index += run;
        let Some(&separator) = bytes.get(index) else {
            return true;
        };
        let length = match separator {
            b'_' if bytes.get(index + 1) == Some(&b'_') => 2,
            b'.' | b'_' => 1,
            b'-' => bytes[index..].iter().take_while(|&&b| b == b'-').count(),
            _ => return false,
        };
        index += length;
    }
}

/// `host [":" digits]`, the host DNS labels (letters, digits and inner hyphens,
/// joined by dots) or a bracketed IPv6 address.
fn is_domain(domain: &str) -> bool {
    let (host, port) = if let Some(bracketed) = domain.strip_prefix('[') {
        let Some((address, after)) = bracketed.split_once(']') else {
            return false;
        };
        if address.is_empty() || !address.bytes().all(|b| b.is_ascii_hexdigit() || b == b':') {
            return false;
        }
        match after {
            "" => return true,
            port => match port.strip_prefix(':') {
                Some(port) => ("ipv6", Some(port)),
                None => return false,
            },
        }
    } else {
        match domain.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (domain, None),
        }
    };
    let port_ok = port.is_none_or(|port| !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()));
    let label_ok = |label: &str| {
        let bytes = label.as_bytes();
        !bytes.is_empty()
            && bytes.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'-')
            && bytes.first() != Some(&b'-')
            && bytes.last() != Some(&b'-')
    };
    port_ok && host.split('.').all(label_ok)
}

fn check_tag(tag: &str) -> Result<(), ReferenceError> {
    let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    let bytes = tag.as_bytes();
    let ok = !bytes.is_empty()
        && bytes.len() <= TAG_LENGTH_MAX
        && word(&bytes[0])
        && bytes[1..].iter().all(|b| word(b) || *b == b'.' || *b == b'-');
    if ok { Ok(()) } else { Err(ReferenceError::InvalidTag) }
}

/// go-digest's `Parse`: a registered algorithm and exactly its length of lower-case
/// hex (the distribution grammar's own `[[:xdigit:]]{32,}` is looser; the digest
/// parser decides).
fn check_digest(digest: &str) -> Result<(), ReferenceError> {
    let Some((algorithm, hex)) = digest.split_once(':') else {
        return Err(ReferenceError::InvalidDigest);
    };
    let length = match algorithm {
        "sha256" => 64,
        "sha384" => 96,
        "sha512" => 128,
        _ => return Err(ReferenceError::UnsupportedDigest),
    };
    let lower_hex = |b: &u8| b.is_ascii_digit() || (b'a'..=b'f').contains(b);
    if hex.len() == length && hex.as_bytes().iter().all(lower_hex) {
        Ok(())
    } else {
        Err(ReferenceError::InvalidDigest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_by_the_distribution_grammar() {
        let sha = "0123456789abcdef".repeat(4);
        for fine in [
            "nginx".to_owned(),
            "nginx:1.27".to_owned(),
            "library/nginx:latest".to_owned(),
            "registry.local:5000/team/nginx".to_owned(),
            "Registry.Local:5000/team/app_1.x/web-app__2:v1.2_rc-3".to_owned(),
            "[::1]:5000/app:1".to_owned(),
            "[fe80::1]/app".to_owned(),
            "a---b/c".to_owned(),
            format!("nginx@sha256:{sha}"),
            format!("ghcr.io/team/app:2.1@sha256:{sha}"),
            format!("app@sha384:{}", "ab".repeat(48)),
            format!("app@sha512:{}", "ab".repeat(64)),
            format!("app:{}", "t".repeat(128)),
            "a".repeat(255),
        ] {
            assert!(parse(&fine).is_ok(), "{fine}: {:?}", parse(&fine));
        }
        let cases = [
            (String::new(), ReferenceError::Empty),
            ("NGINX:1.27".to_owned(), ReferenceError::InvalidName),
            ("Nginx".to_owned(), ReferenceError::InvalidName),
            ("nginx:1.27 ".to_owned(), ReferenceError::InvalidTag),
            ("nginx:1.27\u{200b}".to_owned(), ReferenceError::InvalidTag),
            ("nginx:".to_owned(), ReferenceError::InvalidTag),
            ("nginx:-1".to_owned(), ReferenceError::InvalidTag),
            (format!("app:{}", "t".repeat(129)), ReferenceError::InvalidTag),
            ("a..b".to_owned(), ReferenceError::InvalidName),
            ("a___b".to_owned(), ReferenceError::InvalidName),
            ("a/".to_owned(), ReferenceError::InvalidName),
            ("/a".to_owned(), ReferenceError::InvalidName),
            ("a//b".to_owned(), ReferenceError::InvalidName),
            ("-a/b".to_owned(), ReferenceError::InvalidName),
            ("UPPER".to_owned(), ReferenceError::InvalidName),
            ("host:port/app".to_owned(), ReferenceError::InvalidName),
            ("[::1/app".to_owned(), ReferenceError::InvalidName),
            ("a".repeat(256), ReferenceError::NameTooLong),
            ("nginx@".to_owned(), ReferenceError::InvalidDigest),
            ("@".to_owned(), ReferenceError::InvalidName),
            ("nginx@latest".to_owned(), ReferenceError::InvalidDigest),
            ("nginx@sha256:0123abcd".to_owned(), ReferenceError::InvalidDigest),
            (format!("nginx@md5:{sha}"), ReferenceError::UnsupportedDigest),
            (
                format!("nginx@sha256:{}", sha.to_uppercase()),
                ReferenceError::InvalidDigest,
            ),
            (
                format!("nginx@sha256:{sha}@sha256:{sha}"),
                ReferenceError::InvalidDigest,
            ),
            (format!("nginx@sha512:{sha}"), ReferenceError::InvalidDigest),
        ];
        for (text, expected) in cases {
            assert_eq!(parse(&text), Err(expected), "{text}");
        }
    }

    #[test]
    fn the_parts_are_split_where_the_grammar_splits_them() {
        let sha = "ab".repeat(32);
        let text = format!("registry:5000/team/app:2.1@sha256:{sha}");
        let parsed = parse(&text).unwrap();
        assert_eq!(parsed.name, "registry:5000/team/app");
        assert_eq!(parsed.tag, Some("2.1"));
        assert_eq!(parsed.digest, Some(format!("sha256:{sha}").as_str()));
        assert_eq!(parse("registry:5000/app").unwrap().tag, None);
    }

    #[test]
    fn a_reference_of_megabytes_is_read_in_one_pass() {
        // Long in every part the grammar repeats: path components, separators, hex.
        let components = "a-b.c/".repeat(7 * 1024 * 1024 / 6);
        assert_eq!(parse(&components), Err(ReferenceError::NameTooLong));
        let tag = format!("nginx:{}", "1".repeat(7 * 1024 * 1024));
        assert_eq!(parse(&tag), Err(ReferenceError::InvalidTag));
        let digest = format!("nginx@sha256:{}", "a".repeat(7 * 1024 * 1024));
        assert_eq!(parse(&digest), Err(ReferenceError::InvalidDigest));
    }
}
