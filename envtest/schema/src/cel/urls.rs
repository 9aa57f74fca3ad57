//! URLs in CEL (`url('https://example.com:80/a?x=1').getHost()`, `isURL`, `getScheme`,
//! `getHostname`, `getPort`, `getEscapedPath`, `getQuery`), as kube-apiserver's
//! `k8s.io/apiserver/pkg/cel/library/urls.go` offers them: an absolute URL or an
//! absolute path, as Go's `url.ParseRequestURI` accepts it.

use std::collections::HashMap;
use std::sync::Arc;

use cel::common::types::{STRING_TYPE, Type};
use cel::objects::Opaque;
use cel::{Env, ExecutionError, Value};

use super::overload::{error, overload, type_name};

/// The CEL type name of a URL.
pub(crate) const URL_TYPE: &str = "kubernetes.URL";

/// A parsed URL: its parts as Go's `url.URL` holds them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Url {
    scheme: String,
    host: String,
    path: String,
    query: String,
}

impl Opaque for Url {
    fn runtime_type_name(&self) -> &str {
        URL_TYPE
    }
}

impl Url {
    /// `url.ParseRequestURI` then `url.Parse`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let quoted = crate::errors::go_quote(text);
        let invalid = |why: &str| format!("parse {quoted}: {why}");
        if text.is_empty() {
            return Err(invalid("empty url"));
        }
        if text.chars().any(char::is_control) {
            return Err(invalid("net/url: invalid control character in URL"));
        }
        let without_fragment = text.split_once('#').map_or(text, |(before, _)| before);
        let (rest, query) = without_fragment
            .split_once('?')
            .map_or((without_fragment, ""), |(r, q)| (r, q));
        if rest.starts_with('/') {
            return Ok(Self {
                scheme: String::new(),
                host: String::new(),
                path: rest.to_owned(),
                query: query.to_owned(),
            });
        }
        let Some((scheme, rest)) = rest.split_once(':') else {
            return Err(invalid("invalid URI for request"));
        };
        let mut chars = scheme.chars();
        let valid_scheme = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
        if !valid_scheme {
            return Err(invalid("missing protocol scheme"));
        }
        let (host, path) = match rest.strip_prefix("//") {
            Some(authority) => {
                let end = authority.find('/').unwrap_or(authority.len());
                let host = &authority[..end];
                let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
                (host.to_owned(), authority[end..].to_owned())
            }
            None if rest.starts_with('/') => (String::new(), rest.to_owned()),
            None => return Err(invalid("invalid URI for request")),
        };
        if host.contains(' ') {
            return Err(invalid(&format!("invalid character {:?} in host name", " ")));
        }
        Ok(Self {
            scheme: scheme.to_owned(),
            host,
            path,
            query: query.to_owned(),
        })
    }

    /// `url.Hostname()`: the host without its port and IPv6 brackets.
    fn hostname(&self) -> &str {
        if let Some(inner) = self.host.strip_prefix('[') {
            return inner.split(']').next().unwrap_or_default();
        }
        self.host.rsplit_once(':').map_or(&self.host, |(h, _)| h)
    }

    /// `url.Port()`.
    fn port(&self) -> &str {
        let after_brackets = self.host.rsplit(']').next().unwrap_or(&self.host);
        after_brackets.rsplit_once(':').map_or("", |(_, p)| p)
    }

    /// `url.Query()`: each key's values, percent-decoded.
    fn query_map(&self) -> HashMap<String, Vec<String>> {
        let mut map: HashMap<String, Vec<String>> = HashMap::new();
        for (key, value) in form_urlencoded::parse(self.query.as_bytes()) {
            map.entry(key.into_owned()).or_default().push(value.into_owned());
        }
        map
    }
}

fn receiver<'a>(function: &str, args: &'a [Value]) -> Result<&'a Url, ExecutionError> {
    match &args[0] {
        Value::Opaque(opaque) => opaque.downcast_ref::<Url>(),
        _ => None,
    }
    .ok_or_else(|| ExecutionError::no_such_overload(function, vec![type_name(&args[0])]))
}

fn url(args: &[Value]) -> Result<Value, ExecutionError> {
    let Value::String(text) = &args[0] else {
        return Err(ExecutionError::no_such_overload("url", vec![type_name(&args[0])]));
    };
    Url::parse(text)
        .map(|url| Value::Opaque(Arc::new(url)))
        .map_err(|e| error("url", format!("URL parse error during conversion from string: {e}")))
}

#[expect(
    clippy::unnecessary_wraps,
    reason = "every overload has the signature `overload!` wraps"
)]
fn is_url(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::Bool(
        matches!(&args[0], Value::String(text) if Url::parse(text).is_ok()),
    ))
}

fn get_scheme(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::from(receiver("getScheme", args)?.scheme.as_str()))
}

fn get_host(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::from(receiver("getHost", args)?.host.as_str()))
}

fn get_hostname(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::from(receiver("getHostname", args)?.hostname()))
}

fn get_port(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::from(receiver("getPort", args)?.port()))
}

fn get_escaped_path(args: &[Value]) -> Result<Value, ExecutionError> {
    Ok(Value::from(receiver("getEscapedPath", args)?.path.as_str()))
}

fn get_query(args: &[Value]) -> Result<Value, ExecutionError> {
    let map: HashMap<String, Value> = receiver("getQuery", args)?
        .query_map()
        .into_iter()
        .map(|(k, v)| (k, Value::List(Arc::new(v.into_iter().map(Value::from).collect()))))
        .collect();
    Ok(Value::from(map))
}

/// Declares `url`, `isURL` and the URL methods.
pub(super) fn register(env: &mut Env) -> Result<(), cel::DeclarationError> {
    env.add_overload("url", "string_to_url", vec![STRING_TYPE], overload!(url))?;
    env.add_overload("isURL", "is_url_string", vec![STRING_TYPE], overload!(is_url))?;
    let methods: [(&str, cel::common::functions::Function); 6] = [
        ("getScheme", overload!(get_scheme)),
        ("getHost", overload!(get_host)),
        ("getHostname", overload!(get_hostname)),
        ("getPort", overload!(get_port)),
        ("getEscapedPath", overload!(get_escaped_path)),
        ("getQuery", overload!(get_query)),
    ];
    for (name, function) in methods {
        let id = format!("url_{name}");
        env.add_member_overload(name, &id, Type::new_opaque_type(URL_TYPE), vec![], function)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::library::tests::eval;
    use super::*;

    #[test]
    fn urls_split_as_go_splits_them() {
        let yes = |source: &str| assert_eq!(eval(source), Ok(Value::Bool(true)), "{source}");
        yes("url('https://user@example.com:8443/a%20b?x=1&x=2&y=3#frag').getScheme() == 'https'");
        yes("url('https://example.com:8443/a').getHost() == 'example.com:8443'");
        yes("url('https://example.com:8443/a').getHostname() == 'example.com'");
        yes("url('https://[::1]:80/').getHostname() == '::1' && url('https://[::1]:80/').getPort() == '80'");
        yes("url('https://example.com/a%20b').getEscapedPath() == '/a%20b'");
        yes("url('https://example.com/?x=1&x=2').getQuery() == {'x': ['1', '2']}");
        yes("url('/just/a/path').getHost() == '' && isURL('https://x.io') && !isURL('not a url')");
        assert!(eval("url('example.com')").is_err());
    }
}
