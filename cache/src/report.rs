//! Errors a reader can act on: every cause in an error's chain, and the URL of a
//! request that got no answer from the API server.
//!
//! kube's transport errors say only `client error (Connect)`: whether the name did not
//! resolve, the port refused, the connection timed out or TLS failed is in their
//! `source()` chain, which `Display` leaves out, and the address is nowhere (kube's
//! `Client` does not expose it). [`error_chain`] writes the whole chain;
//! [`name_request_urls`] makes a client whose failed requests carry their method and
//! URL ([`RequestError`]).

use std::error::Error as StdError;
use std::fmt;
use std::sync::Arc;
use std::task::{Context, Poll};

use futures::future::BoxFuture;
use http::{Method, Request, Response, Uri};
use kube::Client;
use kube::client::Body;

/// An error of any kind, as kube's client and tower services pass them.
pub type BoxError = Box<dyn StdError + Send + Sync>;

/// Causes deeper than this are not written (a chain is never this long; a cycle would be).
const MAX_CAUSES: usize = 32;

/// An error and every cause in its `source()` chain, written `outer: cause: root
/// cause`; see [`error_chain`].
#[derive(Clone, Copy)]
pub struct ErrorChain<'a>(&'a (dyn StdError + 'static));

/// Displays `error` followed by each of its causes, separated by `: `.
///
/// A cause whose text is already in what was written is skipped: many errors embed
/// their source's message in their own (thiserror's `{0}`), and the line should read
/// each cause once.
///
/// ```
/// use wheelhouse_cache::error_chain;
///
/// #[derive(Debug, thiserror::Error)]
/// #[error("client error (Connect)")]
/// struct Connect(#[source] std::io::Error);
///
/// let refused = Connect(std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "Connection refused"));
/// assert_eq!(refused.to_string(), "client error (Connect)");
/// assert_eq!(error_chain(&refused).to_string(), "client error (Connect): Connection refused");
/// ```
pub fn error_chain<'a>(error: &'a (dyn StdError + 'static)) -> ErrorChain<'a> {
    ErrorChain(error)
}

impl fmt::Display for ErrorChain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = describe(self.0);
        let mut cause = self.0.source();
        for _ in 0..MAX_CAUSES {
            let Some(error) = cause else { break };
            let message = describe(error);
            if !message.is_empty() && !text.contains(&message) {
                text.push_str(": ");
                text.push_str(&message);
            }
            cause = error.source();
        }
        f.write_str(&text)
    }
}

/// One error's message; a timeout says so (a connect timeout's own text is only
/// `deadline has elapsed`).
fn describe(error: &(dyn StdError + 'static)) -> String {
    let message = error.to_string();
    match error.downcast_ref::<std::io::Error>() {
        Some(io) if io.kind() == std::io::ErrorKind::TimedOut && !message.contains("timed out") => {
            format!("timed out ({message})")
        }
        _ => message,
    }
}

impl fmt::Debug for ErrorChain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A request that got no answer from the API server (the connection, TLS, or the
/// transport failed), with its method and URL, and the cause chain in its message:
/// `GET https://10.0.0.1:443/api/v1/namespaces/default/pods: client error (Connect):
/// tcp connect error: Connection refused (os error 111)`.
///
/// A client from [`name_request_urls`] returns it inside `kube::Error::Service`;
/// [`RequestError::of`] finds it there.
#[derive(Debug)]
pub struct RequestError {
    method: Method,
    url: String,
    source: BoxError,
}

impl RequestError {
    /// The request's method.
    pub fn method(&self) -> &Method {
        &self.method
    }

    /// The request's URL: absolute when the client knew the API server's URL, else
    /// the path and query.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The request error inside a client error, if that is why the request failed.
    pub fn of(error: &kube::Error) -> Option<&Self> {
        match error {
            kube::Error::Service(source) => source.downcast_ref::<Self>(),
            _ => None,
        }
    }
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.method, self.url, error_chain(self.source.as_ref()))
    }
}

impl StdError for RequestError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        Some(self.source.as_ref())
    }
}

/// `client`, its failed requests naming their method and URL: a request that got no
/// answer fails with `kube::Error::Service` holding a [`RequestError`], whose message
/// is the method, the URL and the whole cause chain. Answers, error statuses
/// included (`kube::Error::Api`), pass unchanged.
///
/// kube's `Client` does not tell its API server's URL, so give it as `cluster_url`
/// (the `cluster_url` of the `kube::Config` the client was made from); without it,
/// the URL is the request's path and query. A client made by this function and
/// wrapped again keeps the first URL.
///
/// ```no_run
/// # async fn example() -> Result<(), Box<dyn std::error::Error>> {
/// let config = kube::Config::infer().await?;
/// let cluster_url = config.cluster_url.clone();
/// let client = wheelhouse_cache::name_request_urls(kube::Client::try_from(config)?, Some(&cluster_url));
/// # let _ = client; Ok(())
/// # }
/// ```
pub fn name_request_urls(client: Client, cluster_url: Option<&Uri>) -> Client {
    let namespace = client.default_namespace().to_owned();
    let base = cluster_url.map(|url| Arc::from(url.to_string().trim_end_matches('/')));
    Client::new(NamingUrls { inner: client, base }, namespace)
}

/// The tower service under a client from [`name_request_urls`].
#[derive(Clone)]
struct NamingUrls {
    inner: Client,
    /// The API server's URL without a trailing slash, when known.
    base: Option<Arc<str>>,
}

/// The URL of a request for `target`: as it is if absolute, else joined to `base`.
fn url_of(base: Option<&str>, target: &Uri) -> String {
    if target.scheme().is_some() {
        return target.to_string();
    }
    let path = target.path_and_query().map_or("/", |path| path.as_str());
    match base {
        Some(base) => format!("{base}{path}"),
        None => path.to_owned(),
    }
}

impl tower_service::Service<Request<Body>> for NamingUrls {
    type Response = Response<Body>;
    type Error = BoxError;
    type Future = BoxFuture<'static, Result<Response<Body>, BoxError>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Body>) -> Self::Future {
        // The URL is written out only for a request that failed: a `Uri` clone shares
        // its bytes, so a request that succeeds pays no allocation here.
        let method = request.method().clone();
        let target = request.uri().clone();
        let base = self.base.clone();
        let client = self.inner.clone();
        Box::pin(async move {
            client.send(request).await.map_err(|error| -> BoxError {
                let source: BoxError = match error {
                    kube::Error::Service(source) if source.is::<RequestError>() => return source,
                    kube::Error::Service(source) => source,
                    kube::Error::HyperError(source) => Box::new(source),
                    // kube takes its own error back out of the box unchanged.
                    other => return Box::new(other),
                };
                Box::new(RequestError {
                    method,
                    url: url_of(base.as_deref(), &target),
                    source,
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("failed to perform initial object list: {0}")]
    struct Embeds(#[source] Box<Outer>);

    #[derive(Debug, thiserror::Error)]
    #[error("client error (Connect)")]
    struct Outer(#[source] Middle);

    #[derive(Debug, thiserror::Error)]
    #[error("tcp connect error")]
    struct Middle(#[source] std::io::Error);

    fn refused() -> Outer {
        Outer(Middle(std::io::Error::new(
            std::io::ErrorKind::ConnectionRefused,
            "Connection refused (os error 111)",
        )))
    }

    #[test]
    fn every_cause_is_written_once() {
        assert_eq!(
            error_chain(&refused()).to_string(),
            "client error (Connect): tcp connect error: Connection refused (os error 111)"
        );
        let embedded = Embeds(Box::new(refused()));
        assert_eq!(
            error_chain(&embedded).to_string(),
            "failed to perform initial object list: client error (Connect): tcp connect error: Connection refused (os error 111)"
        );
    }

    #[test]
    fn a_timeout_says_so() {
        let elapsed = Middle(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            "deadline has elapsed",
        ));
        assert_eq!(
            error_chain(&elapsed).to_string(),
            "tcp connect error: timed out (deadline has elapsed)"
        );
    }

    #[test]
    fn a_request_error_says_method_url_and_causes() {
        let error = RequestError {
            method: Method::GET,
            url: "https://10.0.0.1:443/api/v1/pods".into(),
            source: Box::new(refused()),
        };
        let wrapped = kube::Error::Service(Box::new(error));
        let text = wrapped.to_string();
        assert!(
            text.contains(
                "GET https://10.0.0.1:443/api/v1/pods: client error (Connect): tcp connect error: Connection refused"
            ),
            "{text}"
        );
        assert_eq!(error_chain(&wrapped).to_string(), text, "nothing repeated");
        assert_eq!(
            RequestError::of(&wrapped).map(RequestError::url),
            Some("https://10.0.0.1:443/api/v1/pods")
        );
    }

    #[test]
    fn urls_join_the_cluster_url_and_the_path() {
        let base = Some("https://10.0.0.1:443/prefix");
        let target: Uri = "/api/v1/namespaces/default/pods?watch=true".parse().unwrap();
        assert_eq!(
            url_of(base, &target),
            "https://10.0.0.1:443/prefix/api/v1/namespaces/default/pods?watch=true"
        );
        let absolute: Uri = "http://127.0.0.1:1/api".parse().unwrap();
        assert_eq!(url_of(base, &absolute), "http://127.0.0.1:1/api");
        assert_eq!(url_of(None, &target), "/api/v1/namespaces/default/pods?watch=true");
    }
}
