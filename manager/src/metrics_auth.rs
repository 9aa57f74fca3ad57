//! Who may read `/metrics` over HTTPS: the bearer token authenticated by a `TokenReview`,
//! the user it names authorized by a `SubjectAccessReview` for `get` on the non-resource
//! URL `/metrics`, both asked of the API server, as controller-runtime's
//! `filters.WithAuthenticationAndAuthorization` (kubebuilder's default) does.
//!
//! Answers are cached briefly, with controller-runtime's lifetimes (a token's review for
//! a minute, an allow for five, a deny for thirty seconds), so a Prometheus scraping
//! every few seconds costs the API server two requests a few times an hour, and a
//! revoked binding is honoured within minutes. Failed calls are never cached.

use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;
use std::time::Duration;

use parking_lot::Mutex;
use serde_json::{Value, json};
use tokio::time::Instant;

const AUTHENTICATED_TTL: Duration = Duration::from_mins(1);
const ALLOWED_TTL: Duration = Duration::from_mins(5);
const DENIED_TTL: Duration = Duration::from_secs(30);
/// Entries each cache holds at most: a scrape's few identities fit many times over,
/// and a flood of made-up tokens cannot grow the process.
const CACHE_CAPACITY: usize = 1024;

/// What a request to `/metrics` gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Serve it.
    Allowed,
    /// 401: no bearer token, or the API server does not know it.
    Unauthenticated,
    /// 403: the user may not `get` the path.
    Forbidden { user: String },
    /// 500: a review could not be made.
    Failed(String),
}

/// The user a token names, as a `TokenReview` returned it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct User {
    name: String,
    uid: Option<String>,
    groups: Vec<String>,
    extra: BTreeMap<String, Vec<String>>,
}

/// Authenticates and authorizes scrapes against the API server, with caches.
pub(crate) struct MetricsAuth {
    client: kube::Client,
    /// By token: the user it names, or None when the API server refused it.
    authenticated: Mutex<TtlCache<String, Option<User>>>,
    /// By user, verb and path: whether the API server allowed it.
    authorized: Mutex<TtlCache<(User, String, String), bool>>,
}

impl MetricsAuth {
    /// Reviews are creates that every replica sends, leader or not: `client` must not
    /// be fenced.
    pub fn new(client: kube::Client) -> Self {
        Self {
            client,
            authenticated: Mutex::new(TtlCache::new(CACHE_CAPACITY)),
            authorized: Mutex::new(TtlCache::new(CACHE_CAPACITY)),
        }
    }

    /// Decides on one request from its `Authorization` header, method and path.
    pub async fn decide(&self, authorization: Option<&str>, method: &str, path: &str) -> Decision {
        let Some(token) = authorization.and_then(bearer_token) else {
            return Decision::Unauthenticated;
        };
        let user = match self.authenticate(token).await {
            Ok(Some(user)) => user,
            Ok(None) => return Decision::Unauthenticated,
            Err(error) => return Decision::Failed(format!("Authentication failed: {error}")),
        };
        // As kube-apiserver does for non-resource URLs: the method, lower-cased.
        let verb = method.to_ascii_lowercase();
        match self.authorize(&user, &verb, path).await {
            Ok(true) => Decision::Allowed,
            Ok(false) => Decision::Forbidden { user: user.name },
            Err(error) => Decision::Failed(format!("Authorization for user {} failed: {error}", user.name)),
        }
    }

    async fn authenticate(&self, token: &str) -> Result<Option<User>, kube::Error> {
        if let Some(known) = self.authenticated.lock().get(token) {
            return Ok(known);
        }
        let review = json!({
            "apiVersion": "authentication.k8s.io/v1",
            "kind": "TokenReview",
            "spec": {"token": token},
        });
        let answer = create(&self.client, "/apis/authentication.k8s.io/v1/tokenreviews", &review).await?;
        let status = &answer["status"];
        let user = (status["authenticated"] == true).then(|| user_of(&status["user"]));
        self.authenticated
            .lock()
            .insert(token.to_owned(), user.clone(), AUTHENTICATED_TTL);
        Ok(user)
    }

    async fn authorize(&self, user: &User, verb: &str, path: &str) -> Result<bool, kube::Error> {
        let key = (user.clone(), verb.to_owned(), path.to_owned());
        if let Some(allowed) = self.authorized.lock().get(&key) {
            return Ok(allowed);
        }
        let mut spec = json!({
            "user": user.name,
            "groups": user.groups,
            "nonResourceAttributes": {"path": path, "verb": verb},
        });
        if let Some(uid) = &user.uid {
            spec["uid"] = json!(uid);
        }
        if !user.extra.is_empty() {
            spec["extra"] = json!(user.extra);
        }
        let review = json!({
            "apiVersion": "authorization.k8s.io/v1",
            "kind": "SubjectAccessReview",
            "spec": spec,
        });
        let answer = create(
            &self.client,
            "/apis/authorization.k8s.io/v1/subjectaccessreviews",
            &review,
        )
        .await?;
        let allowed = answer["status"]["allowed"] == true;
        let ttl = if allowed { ALLOWED_TTL } else { DENIED_TTL };
        self.authorized.lock().insert(key, allowed, ttl);
        Ok(allowed)
    }
}

/// Creates a review and returns the API server's answer. Reviews are written as JSON,
/// not k8s-openapi's types, whose fields differ between the Kubernetes versions a user
/// may select.
async fn create(client: &kube::Client, path: &str, review: &Value) -> Result<Value, kube::Error> {
    let body = serde_json::to_vec(review).map_err(kube::Error::SerdeError)?;
    let request = http::Request::post(path)
        .header(http::header::CONTENT_TYPE, "application/json")
        .body(body)
        .map_err(|error| kube::Error::BuildRequest(kube::core::request::Error::BuildRequest(error)))?;
    client.request::<Value>(request).await
}

/// The user of a `TokenReview`'s `status.user`.
fn user_of(user: &Value) -> User {
    let strings = |value: &Value| -> Vec<String> {
        value
            .as_array()
            .map(|values| values.iter().filter_map(Value::as_str).map(str::to_owned).collect())
            .unwrap_or_default()
    };
    User {
        name: user["username"].as_str().unwrap_or_default().to_owned(),
        uid: user["uid"].as_str().filter(|uid| !uid.is_empty()).map(str::to_owned),
        groups: strings(&user["groups"]),
        extra: user["extra"]
            .as_object()
            .map(|extra| {
                extra
                    .iter()
                    .map(|(key, values)| (key.clone(), strings(values)))
                    .collect()
            })
            .unwrap_or_default(),
    }
}

/// The token of an `Authorization: Bearer <token>` header (the scheme is
/// case-insensitive, as in kube-apiserver).
fn bearer_token(header: &str) -> Option<&str> {
    let (scheme, token) = header.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// A map whose entries expire, holding at most `capacity`: when full, expired entries
/// go first, then the one closest to expiring.
struct TtlCache<K, V> {
    entries: HashMap<K, (Instant, V)>,
    capacity: usize,
}

impl<K: Eq + Hash + Clone, V: Clone> TtlCache<K, V> {
    fn new(capacity: usize) -> Self {
        Self {
            entries: HashMap::new(),
            capacity,
        }
    }

    fn get<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: std::borrow::Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        let (expires, value) = self.entries.get(key)?;
        if *expires > Instant::now() {
            return Some(value.clone());
        }
        self.entries.remove(key);
        None
    }

    fn insert(&mut self, key: K, value: V, ttl: Duration) {
        let now = Instant::now();
        if self.entries.len() >= self.capacity && !self.entries.contains_key(&key) {
            self.entries.retain(|_, (expires, _)| *expires > now);
            if self.entries.len() >= self.capacity
                && let Some(soonest) = self
                    .entries
                    .iter()
                    .min_by_key(|(_, (expires, _))| *expires)
                    .map(|(key, _)| key.clone())
            {
                self.entries.remove(&soonest);
            }
        }
        self.entries.insert(key, (now + ttl, value));
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearer_tokens_are_read_as_kube_apiserver_reads_them() {
        assert_eq!(bearer_token("Bearer abc"), Some("abc"));
        assert_eq!(bearer_token("bearer  abc "), Some("abc"));
        assert_eq!(bearer_token("Basic abc"), None);
        assert_eq!(bearer_token("Bearer "), None);
        assert_eq!(bearer_token("Bearer"), None);
    }

    #[tokio::test(start_paused = true)]
    async fn cached_answers_expire_and_the_cache_stays_bounded() {
        let mut cache = TtlCache::new(3);
        cache.insert("a".to_owned(), 1, Duration::from_secs(10));
        cache.insert("b".to_owned(), 2, Duration::from_secs(30));
        assert_eq!(cache.get("a"), Some(1));
        tokio::time::advance(Duration::from_secs(11)).await;
        assert_eq!(cache.get("a"), None, "expired");
        assert_eq!(cache.get("b"), Some(2));
        cache.insert("c".to_owned(), 3, Duration::from_secs(5));
        cache.insert("d".to_owned(), 4, Duration::from_mins(1));
        cache.insert("e".to_owned(), 5, Duration::from_mins(1));
        assert_eq!(cache.len(), 3, "never more than its capacity");
        assert_eq!(cache.get("c"), None, "the entry closest to expiring made room");
        assert_eq!(
            (cache.get("b"), cache.get("d"), cache.get("e")),
            (Some(2), Some(4), Some(5))
        );
    }
}
