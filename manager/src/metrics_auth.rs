//! Who may read `/metrics` over HTTPS: the bearer token authenticated by a `TokenReview`,
//! the user it names authorized by a `SubjectAccessReview` for `get` on the non-resource
//! URL `/metrics`, both asked of the API server, as controller-runtime's
//! `filters.WithAuthenticationAndAuthorization` (kubebuilder's default) does.
//!
//! Answers are cached briefly, with controller-runtime's lifetimes (a token's review for
//! a minute, an allow for five, a deny for thirty seconds), so a Prometheus scraping
//! every few seconds costs the API server two requests a few times an hour, and a
//! revoked binding is honoured within minutes.
//!
//! Against scrapes with made-up tokens: tokens are kept by an HMAC of them under a key
//! of this process (a flood of long tokens holds 32 bytes each, and the cache holds no
//! credential); a token the API server refused, or whose review failed, is cached
//! apart from the users it named (for a minute, and ten seconds), so a flood of
//! refusals never pushes a real scraper's review out; and at most four reviews are in
//! flight at once, so garbage tokens cost the API server four requests at a time and
//! the client at most four connections more, however many scrapes arrive.

use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;
use std::time::Duration;

use parking_lot::Mutex;
use ring::hmac;
use serde_json::{Value, json};
use tokio::sync::Semaphore;
use tokio::time::Instant;

const AUTHENTICATED_TTL: Duration = Duration::from_mins(1);
const ALLOWED_TTL: Duration = Duration::from_mins(5);
const DENIED_TTL: Duration = Duration::from_secs(30);
/// How long a review that failed (the API server unreachable, or erring) stands for
/// its token: long enough that one token sent again and again costs one review, short
/// enough that a scraper is served soon after the API server recovers.
const FAILED_TTL: Duration = Duration::from_secs(10);
/// Entries each cache holds at most: a scrape's few identities fit many times over,
/// and a flood of made-up tokens cannot grow the process.
const CACHE_CAPACITY: usize = 1024;
/// Reviews sent to the API server at once; more scrapes wait for one of them.
const REVIEWS_IN_FLIGHT: usize = 4;
/// How long a scrape waits for a review to send.
const REVIEW_WAIT: Duration = Duration::from_secs(10);

/// A token as the caches know it: its HMAC under the process's key.
type TokenKey = [u8; 32];

/// Why a token names no user.
#[derive(Debug, Clone)]
enum Refused {
    /// The API server does not know it.
    Unauthenticated,
    /// Its review failed; the message says why.
    Failed(String),
}

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
    /// Keys tokens for the caches; made at random for the process.
    token_key: hmac::Key,
    /// By token: the user the API server said it names.
    authenticated: Mutex<TtlCache<TokenKey, User>>,
    /// By token: why it names no user. Apart from the users, so that refusals (which
    /// anyone can make up) never push a user out.
    refused: Mutex<TtlCache<TokenKey, Refused>>,
    /// By user, verb and path: whether the API server allowed it.
    authorized: Mutex<TtlCache<(User, String, String), bool>>,
    /// Reviews in flight.
    reviews: Semaphore,
}

impl MetricsAuth {
    /// Reviews are creates that every replica sends, leader or not: `client` must not
    /// be fenced.
    pub fn new(client: kube::Client) -> Self {
        Self {
            client,
            token_key: hmac::Key::new(hmac::HMAC_SHA256, &rand::random::<[u8; 32]>()),
            authenticated: Mutex::new(TtlCache::new(CACHE_CAPACITY)),
            refused: Mutex::new(TtlCache::new(CACHE_CAPACITY)),
            authorized: Mutex::new(TtlCache::new(CACHE_CAPACITY)),
            reviews: Semaphore::new(REVIEWS_IN_FLIGHT),
        }
    }

    /// Decides on one request from its `Authorization` header, method and path.
    pub async fn decide(&self, authorization: Option<&str>, method: &str, path: &str) -> Decision {
        let Some(token) = authorization.and_then(bearer_token) else {
            return Decision::Unauthenticated;
        };
        let user = match self.authenticate(token).await {
            Ok(user) => user,
            Err(Refused::Unauthenticated) => return Decision::Unauthenticated,
            Err(Refused::Failed(why)) => return Decision::Failed(format!("Authentication failed: {why}")),
        };
        // As kube-apiserver does for non-resource URLs: the method, lower-cased.
        let verb = method.to_ascii_lowercase();
        match self.authorize(&user, &verb, path).await {
            Ok(true) => Decision::Allowed,
            Ok(false) => Decision::Forbidden { user: user.name },
            Err(error) => Decision::Failed(format!("Authorization for user {} failed: {error}", user.name)),
        }
    }

    /// The user `token` names, from the caches or a `TokenReview`.
    async fn authenticate(&self, token: &str) -> Result<User, Refused> {
        let mut key = TokenKey::default();
        key.copy_from_slice(hmac::sign(&self.token_key, token.as_bytes()).as_ref());
        let cached = || {
            if let Some(user) = self.authenticated.lock().get(&key) {
                return Some(Ok(user));
            }
            self.refused.lock().get(&key).map(Err)
        };
        if let Some(known) = cached() {
            return known;
        }
        let _review = tokio::time::timeout(REVIEW_WAIT, self.reviews.acquire())
            .await
            .map_err(|_| {
                Refused::Failed(format!(
                    "{REVIEWS_IN_FLIGHT} token reviews were in flight for {REVIEW_WAIT:?}"
                ))
            })?
            .map_err(|_| Refused::Failed("the token reviews were closed".to_owned()))?;
        // The same token may have been reviewed while this scrape waited.
        if let Some(known) = cached() {
            return known;
        }
        let review = json!({
            "apiVersion": "authentication.k8s.io/v1",
            "kind": "TokenReview",
            "spec": {"token": token},
        });
        match create(&self.client, "/apis/authentication.k8s.io/v1/tokenreviews", &review).await {
            Ok(answer) if answer["status"]["authenticated"] == true => {
                let user = user_of(&answer["status"]["user"]);
                self.authenticated.lock().insert(key, user.clone(), AUTHENTICATED_TTL);
                Ok(user)
            }
            Ok(_) => {
                self.refused
                    .lock()
                    .insert(key, Refused::Unauthenticated, AUTHENTICATED_TTL);
                Err(Refused::Unauthenticated)
            }
            Err(error) => {
                let failed = Refused::Failed(error.to_string());
                self.refused.lock().insert(key, failed.clone(), FAILED_TTL);
                Err(failed)
            }
        }
    }

    async fn authorize(&self, user: &User, verb: &str, path: &str) -> Result<bool, kube::Error> {
        let key = (user.clone(), verb.to_owned(), path.to_owned());
        if let Some(allowed) = self.authorized.lock().get(&key) {
            return Ok(allowed);
        }
        let _review = self.reviews.acquire().await;
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
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use bytes::Bytes;
    use http_body_util::{BodyExt as _, Collected, Full};

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

    /// A fake API server answering `TokenReview`s with `status` (an HTTP status; 200
    /// answers that the token named `token-of-alice` is Alice's and others nobody's),
    /// each answer after `delay`; it counts reviews, and the most in flight at once.
    fn fake_api(status: u16, delay: Duration) -> (kube::Client, Arc<Counts>) {
        let counts = Arc::new(Counts::default());
        let counted = counts.clone();
        let service = tower::service_fn(move |request: http::Request<kube::client::Body>| {
            let counts = counted.clone();
            async move {
                let in_flight = counts.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                counts.most_in_flight.fetch_max(in_flight, Ordering::SeqCst);
                counts.reviews.fetch_add(1, Ordering::SeqCst);
                let body = request
                    .into_body()
                    .collect()
                    .await
                    .map(Collected::to_bytes)
                    .unwrap_or_default();
                let review: Value = serde_json::from_slice(&body).unwrap_or_default();
                tokio::time::sleep(delay).await;
                counts.in_flight.fetch_sub(1, Ordering::SeqCst);
                let authenticated = review["spec"]["token"] == "token-of-alice";
                let answer = json!({"status": {"authenticated": authenticated, "user": {"username": "alice"}}});
                http::Response::builder()
                    .status(status)
                    .header("content-type", "application/json")
                    .body(Full::new(Bytes::from(answer.to_string())))
                    .map_err(|error| Box::new(error) as Box<dyn std::error::Error + Send + Sync>)
            }
        });
        (kube::Client::new(service, "default"), counts)
    }

    #[derive(Default)]
    struct Counts {
        reviews: AtomicUsize,
        in_flight: AtomicUsize,
        most_in_flight: AtomicUsize,
    }

    #[tokio::test(start_paused = true)]
    async fn a_token_whose_review_fails_is_reviewed_again_only_after_a_while() {
        let (client, counts) = fake_api(500, Duration::ZERO);
        let auth = MetricsAuth::new(client);
        for _ in 0..50 {
            assert!(matches!(auth.authenticate("garbage").await, Err(Refused::Failed(_))));
        }
        assert_eq!(counts.reviews.load(Ordering::SeqCst), 1, "one review for one token");
        tokio::time::advance(FAILED_TTL).await;
        assert!(auth.authenticate("garbage").await.is_err());
        assert_eq!(counts.reviews.load(Ordering::SeqCst), 2);
    }

    #[tokio::test(start_paused = true)]
    async fn made_up_tokens_cost_few_reviews_at_once_and_never_push_a_user_out() {
        let (client, counts) = fake_api(200, Duration::from_millis(5));
        let auth = Arc::new(MetricsAuth::new(client));
        assert_eq!(auth.authenticate("token-of-alice").await.unwrap().name, "alice");
        let flood: Vec<_> = (0..CACHE_CAPACITY * 2)
            .map(|i| {
                let auth = auth.clone();
                tokio::spawn(async move { auth.authenticate(&format!("made-up-{i}")).await })
            })
            .collect();
        for attempt in flood {
            assert!(matches!(attempt.await.unwrap(), Err(Refused::Unauthenticated)));
        }
        assert_eq!(counts.most_in_flight.load(Ordering::SeqCst), REVIEWS_IN_FLIGHT);
        let reviews = counts.reviews.load(Ordering::SeqCst);
        assert_eq!(auth.authenticate("token-of-alice").await.unwrap().name, "alice");
        assert_eq!(
            counts.reviews.load(Ordering::SeqCst),
            reviews,
            "Alice's review is still cached"
        );
        assert!(auth.refused.lock().len() <= CACHE_CAPACITY);
    }
}
