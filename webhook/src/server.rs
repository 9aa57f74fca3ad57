//! [`WebhookServer`]: the webhooks of one process, served over HTTPS as a
//! [`Runnable`] that every replica runs; and [`WebhookOptions`], where and how.

use std::fmt::{self, Debug};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bytes::Bytes;
use futures::future::BoxFuture;
use http_body_util::Full;
use hyper::body::Body;
use parking_lot::Mutex;
use tokio_rustls::TlsAcceptor;
use wheelhouse_manager::serve::{BudgetHealth, MinDataRate, ServeLimits, Tls, serve};
use wheelhouse_manager::{
    BoxError, CertHealth, CertWatcher, Certificates, Manager, ManagerArgs, Runnable, ServingCertificate, Stop,
    tls_server_config,
};

use crate::Error;
use crate::conversion::{CONVERT_PATH, Conversion, Conversions};
use crate::dispatch::{Dispatcher, RequestLimits, Route};
use crate::handler::{Handler, Raw};
use crate::metrics::WebhookMetrics;
use crate::registration::{Object, Registration};
use crate::typed::{Defaulter, Defaulting, Validating, Validator};

/// Where the server listens, where its certificate comes from, and the limits every
/// connection and request is held to. `Default` is kubebuilder's place (port 9443 on
/// every interface, certificates in `/tmp/k8s-webhook-server/serving-certs`) with
/// limits that keep kube-apiserver's reviews answered while hostile clients hold
/// connections, send slowly, or send large and deep bodies.
///
/// | limit | default | past it |
/// |---|---|---|
/// | `max_connections` | 1024 | the longest-silent connection is closed to make room; refused only when every one has a request read whole |
/// | `max_connections_per_peer` | 256 | the same, among that peer's connections |
/// | `handshake_timeout` | 5 s | the connection is closed |
/// | `header_read_timeout` | 10 s from the request's first byte | the connection is closed |
/// | `max_header_bytes` | 16 KiB | 431 (HTTP/2: the stream is reset) |
/// | `min_body_rate` | 4 KiB a second, judged over each 2 s (or the rest of the body) | 408, and the connection is closed |
/// | `idle_timeout` | 30 s from the last answer | the connection is closed |
/// | `max_body_bytes` | 7 MiB | 413 |
/// | `max_in_flight_bytes` | 32 MiB across all requests, headers and bodies counted as bytes arrive and until the answer is written; bodies under 64 KiB have an eighth as much again of their own | the slowest body of a client over its fair share gives way (408 to it); with none slow, the request waits up to `in_flight_wait` (2 s), then 429; with no room for longer than `request_timeout`, `/readyz` fails |
/// | `max_nesting_depth` | 100 | 400 |
/// | `request_timeout` | 10 s, or kube-apiserver's shorter `timeout` | 408 for a body not read; 504 for a decision not made |
/// | `decision_threads` | the cores less one (at least one), and as many again for bodies of 1 MiB or more | decisions wait for a thread within their deadline |
/// | `inline_decision_bytes` | 64 KiB | smaller bodies are decided on the I/O worker, within the same deadline |
/// | `http2` | off | with it, 100 concurrent streams a connection and the rapid-reset bounds |
///
/// A connection is *silent* while no request on it has been read whole: idle,
/// still sending a header, or waiting for body bytes. Silent connections are the ones
/// closed to make room, longest-silent first, so fresh connections from
/// kube-apiserver's address win over that address's silent ones. Bytes in flight are
/// shared fairly: a request that finds no room takes it from a slow body (one
/// arriving for 200 ms and silent for as long, or under 1 MiB a second) of an address
/// holding more than its share, or of a connection holding more than its share of its
/// address, never waiting behind it; so slow clients, even from kube-apiserver's own
/// address, cannot make its reviews wait. The connection handling is the manager's
/// [serving layer](wheelhouse_manager::serve), shared with the metrics and health
/// servers.
///
/// Decisions (decoding the review, the webhook itself, the patch, the answer) on
/// bodies of `inline_decision_bytes` or more run on the `decision_threads`, never on
/// the runtime's I/O workers, so a large decision delays neither other connections
/// nor the manager's probes, and the deadline is kept even when a decision is
/// CPU-bound: the answer is a 504 at the deadline, and kube-apiserver applies the
/// webhook's `failurePolicy` as if no answer had come. Smaller bodies (every ordinary
/// object) are decided where they were read, which keeps throughput at the bare
/// server's; their deadline holds at every await. A webhook whose own code is
/// CPU-heavy whatever the object's size sets `inline_decision_bytes: 0`. A defaulter's patch is made from the raw JSON, one level at a time where
/// the object changed, so a mutate's extra memory is the body, the typed object and
/// its two encodings (`benches/README.md` has the measured factor).
#[derive(Debug, Clone)]
pub struct WebhookOptions {
    /// The address to listen on (default: every interface).
    pub host: IpAddr,
    /// The port (default 9443; 0 picks a free one, see [`WebhookServer::local_addr`]).
    pub port: u16,
    /// The directory holding `tls.crt` and `tls.key`, watched for renewals.
    pub cert_dir: PathBuf,
    /// Certificates held in memory, served instead of `cert_dir`'s (and never
    /// reloaded): [`Certificates::self_signed`] for local runs and tests.
    pub certificates: Option<Certificates>,
    /// How often `cert_dir` is checked for a renewed certificate (default 10 s).
    pub cert_poll_interval: Duration,
    /// Bodies larger than this are refused with 413 (default 7 MiB, as
    /// controller-runtime; kube-apiserver's own limit on objects is 3 MiB, and a review
    /// of an update carries two).
    pub max_body_bytes: usize,
    /// Request bytes held in memory at once across every connection (default
    /// 32 MiB; never less than `max_body_bytes`). A body is counted as its bytes
    /// arrive (not from its declared length) until its answer is written. Bodies
    /// under 64 KiB draw on a share of their own, an eighth of this, so they never
    /// wait behind large ones.
    pub max_in_flight_bytes: usize,
    /// How long a request waits for room in `max_in_flight_bytes` before it is
    /// answered 429 (default 2 s).
    pub in_flight_wait: Duration,
    /// How deep objects and arrays may nest in a body (default 100; no Kubernetes
    /// object comes near it).
    pub max_nesting_depth: usize,
    /// How long reading a request and deciding on it may take (default 10 s, the
    /// longest kube-apiserver waits by default); shortened to the `timeout`
    /// kube-apiserver puts in the URL when that is less.
    pub request_timeout: Duration,
    /// Threads that decide on requests (default: the available cores less one, at
    /// least one, so that one core is left to the I/O workers and probes). Bodies of
    /// 1 MiB or more have as many threads again of their own, so that a queue of
    /// maximal bodies cannot hold up the reviews of ordinary objects.
    pub decision_threads: usize,
    /// Bodies smaller than this (default 64 KiB, some hundred microseconds of
    /// decoding) are decided on the I/O worker that read them, where two thread
    /// handoffs would cost more than the decision; 0 sends every decision to the
    /// threads, for webhooks whose own code is CPU-heavy.
    pub inline_decision_bytes: usize,
    /// Connections held open at once (default 1024). Past it the longest-silent one
    /// is closed; accepting never waits.
    pub max_connections: usize,
    /// Connections held open at once from one IP address (default 256), with the
    /// same rule among that address's connections.
    pub max_connections_per_peer: usize,
    /// A connection that has sent no byte of a new request for this long after its
    /// last answer is closed (default 30 s).
    pub idle_timeout: Duration,
    /// A request header must arrive whole within this of its first byte (default
    /// 10 s); a slower one closes the connection.
    pub header_read_timeout: Duration,
    /// The longest request header, request line and fields together (default 16 KiB;
    /// kube-apiserver's are well under 1 KiB): longer is answered 431.
    pub max_header_bytes: usize,
    /// The slowest a body may arrive (default 4 KiB a second, judged over each period
    /// of 2 s, or the rest of a body of declared length): a body short of it is
    /// answered 408 and its connection closed, so a client that sends most of a body
    /// and then a byte now and then holds its bytes for one period, not until
    /// `request_timeout`.
    pub min_body_rate: MinDataRate,
    /// How long a TLS handshake may take (default 5 s).
    pub handshake_timeout: Duration,
    /// Offer HTTP/2 (default off: `--enable-http2`).
    pub http2: bool,
    /// Streams one HTTP/2 connection may have open at once (default 100).
    pub http2_max_concurrent_streams: u32,
}

impl Default for WebhookOptions {
    fn default() -> Self {
        Self {
            host: IpAddr::V4(Ipv4Addr::UNSPECIFIED),
            port: 9443,
            cert_dir: PathBuf::from("/tmp/k8s-webhook-server/serving-certs"),
            certificates: None,
            cert_poll_interval: Duration::from_secs(10),
            max_body_bytes: 7 * 1024 * 1024,
            max_in_flight_bytes: 32 * 1024 * 1024,
            in_flight_wait: Duration::from_secs(2),
            max_nesting_depth: 100,
            request_timeout: Duration::from_secs(10),
            decision_threads: default_decision_threads(),
            inline_decision_bytes: 64 * 1024,
            max_connections: 1024,
            max_connections_per_peer: 256,
            idle_timeout: Duration::from_secs(30),
            header_read_timeout: Duration::from_secs(10),
            max_header_bytes: ServeLimits::webhook().max_header_bytes,
            min_body_rate: ServeLimits::webhook().min_body_rate,
            handshake_timeout: Duration::from_secs(5),
            http2: false,
            http2_max_concurrent_streams: 100,
        }
    }
}

fn default_decision_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |cores| cores.get().saturating_sub(1).max(1))
}

impl WebhookOptions {
    /// The defaults with `--webhook-port`, `--cert-dir` and `--enable-http2` applied.
    pub fn from_args(args: &ManagerArgs) -> Self {
        Self {
            port: args.webhook_port,
            cert_dir: args.cert_dir.clone(),
            http2: args.enable_http2,
            ..Self::default()
        }
    }
}

/// An HTTPS server for admission webhooks, built like a sentence and run by a
/// [`Manager`] on every replica (it needs no leader election: kube-apiserver may call
/// any replica behind the Service).
///
/// ```no_run
/// # async fn example(manager: wheelhouse_manager::Manager, args: wheelhouse_manager::ManagerArgs) -> Result<(), Box<dyn std::error::Error>> {
/// use k8s_openapi::api::core::v1::ConfigMap;
/// use wheelhouse_webhook::{Denied, Request, Validator, Warnings, WebhookServer};
///
/// struct SmallMaps;
///
/// impl Validator<ConfigMap> for SmallMaps {
///     async fn validate_create(&self, map: &ConfigMap, _: &Request) -> Result<Warnings, Denied> {
///         match map.data.as_ref().map_or(0, |d| d.len()) {
///             0..=100 => Ok(Vec::new()),
///             n => Err(Denied::new(format!("{n} keys; split the ConfigMap into maps of at most 100"))),
///         }
///     }
///     async fn validate_update(&self, _: &ConfigMap, new: &ConfigMap, r: &Request) -> Result<Warnings, Denied> {
///         self.validate_create(new, r).await
///     }
/// }
///
/// manager.add(WebhookServer::from_args(&args).validator::<ConfigMap>(SmallMaps))?; // /validate--v1-configmap
/// manager.run().await?;
/// # Ok(())
/// # }
/// ```
pub struct WebhookServer {
    options: WebhookOptions,
    routes: Vec<(String, Arc<dyn Route>)>,
    /// The CRD conversions, all served at [`CONVERT_PATH`].
    conversions: Conversions,
    /// Registration mistakes, reported by [`bind`](Self::bind) rather than panicking
    /// in the builder.
    problems: Vec<Error>,
    metrics: Option<WebhookMetrics>,
    bound: Mutex<Option<Bound>>,
    local_addr: Option<SocketAddr>,
    /// True while connections are accepted: the readiness check.
    serving: Arc<AtomicBool>,
    /// Whether the certificate watcher's last check read a usable pair.
    cert_health: Option<CertHealth>,
    /// Whether requests find room among the bytes in flight, for `/readyz`.
    budget_health: BudgetHealth,
}

/// A listening socket and the certificate it serves, from `bind` until `start`.
struct Bound {
    listener: std::net::TcpListener,
    serving: Arc<ServingCertificate>,
    watcher: Option<CertWatcher>,
}

impl Debug for WebhookServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WebhookServer")
            .field("paths", &self.paths())
            .field("local_addr", &self.local_addr)
            .finish_non_exhaustive()
    }
}

impl WebhookServer {
    /// A server with no webhooks yet.
    pub fn new(options: WebhookOptions) -> Self {
        Self {
            options,
            routes: Vec::new(),
            conversions: Conversions::default(),
            problems: Vec::new(),
            metrics: None,
            bound: Mutex::new(None),
            local_addr: None,
            serving: Arc::new(AtomicBool::new(false)),
            cert_health: None,
            budget_health: BudgetHealth::default(),
        }
    }

    /// A server on `--webhook-port` with the certificate of `--cert-dir`.
    pub fn from_args(args: &ManagerArgs) -> Self {
        Self::new(WebhookOptions::from_args(args))
    }

    /// Serves `validator` at [`validate_path::<K>()`](crate::validate_path).
    #[must_use]
    pub fn validator<K: Object>(self, validator: impl Validator<K>) -> Self {
        let route = Validating::new(validator);
        let path = route_path(&route);
        self.route(path, Arc::new(route))
    }

    /// Serves `defaulter` at [`mutate_path::<K>()`](crate::mutate_path).
    #[must_use]
    pub fn defaulter<K: Object>(self, defaulter: impl Defaulter<K>) -> Self {
        let route = Defaulting::new(defaulter);
        let path = route_path(&route);
        self.route(path, Arc::new(route))
    }

    /// Serves a raw handler at `path` (left out of the generated configurations).
    #[must_use]
    pub fn handler(mut self, path: impl Into<String>, handler: impl Handler) -> Self {
        let path = path.into();
        if !path.starts_with('/') {
            self.problems.push(Error::InvalidPath { path });
            return self;
        }
        self.route(path, Arc::new(Raw(handler)))
    }

    /// Serves `conversion`'s versions at [`CONVERT_PATH`] (`/convert`), with every
    /// other conversion this server has: kube-apiserver's `ConversionReview`s are
    /// dispatched on their objects' group and kind. See the
    /// [`conversion`](crate::conversion) module.
    ///
    /// ```
    /// # use wheelhouse_webhook::conversion::Conversion;
    /// # use wheelhouse_webhook::{WebhookOptions, WebhookServer};
    /// # fn example<V1, V1alpha1>(server: WebhookServer) -> WebhookServer
    /// # where V1: wheelhouse_webhook::Object + kube::CustomResourceExt + From<V1alpha1>,
    /// #       V1alpha1: wheelhouse_webhook::Object + kube::CustomResourceExt + From<V1> {
    /// server.conversion(Conversion::hub::<V1>().spoke::<V1alpha1>())
    /// # }
    /// ```
    #[must_use]
    pub fn conversion<H: Object>(mut self, conversion: Conversion<H>) -> Self {
        if self.conversions.is_empty() && self.routes.iter().any(|(path, _)| path == CONVERT_PATH) {
            self.problems.push(Error::DuplicatePath {
                path: CONVERT_PATH.to_owned(),
            });
            return self;
        }
        let (group, kind) = (conversion.group().to_owned(), conversion.kind().to_owned());
        if !self.conversions.add(Arc::new(conversion)) {
            self.problems.push(Error::DuplicateConversion { group, kind });
        }
        self
    }

    fn route(mut self, path: String, route: Arc<dyn Route>) -> Self {
        let taken_by_conversions = path == CONVERT_PATH && !self.conversions.is_empty();
        if taken_by_conversions || self.routes.iter().any(|(registered, _)| *registered == path) {
            self.problems.push(Error::DuplicatePath { path });
        } else {
            self.routes.push((path, route));
        }
        self
    }

    /// Records into `metrics` (by default: the manager's, from [`Runnable::register`];
    /// none without a manager).
    #[must_use]
    pub fn metrics(mut self, metrics: WebhookMetrics) -> Self {
        self.metrics = Some(metrics);
        self
    }

    /// The paths served: the webhooks' in registration order, then [`CONVERT_PATH`]
    /// when a conversion is registered.
    pub fn paths(&self) -> Vec<&str> {
        let conversion = (!self.conversions.is_empty()).then_some(CONVERT_PATH);
        self.routes
            .iter()
            .map(|(path, _)| path.as_str())
            .chain(conversion)
            .collect()
    }

    /// The options, for a helper that serves the server somewhere else (the test
    /// helper's loopback port and self-signed certificate).
    #[cfg(feature = "envtest")]
    pub(crate) fn options_mut(&mut self) -> &mut WebhookOptions {
        &mut self.options
    }

    /// The registered conversions, for generating their CRDs.
    #[cfg(feature = "envtest")]
    pub(crate) fn conversions(&self) -> &Conversions {
        &self.conversions
    }

    /// The typed webhooks, for generating their configurations.
    pub fn registrations(&self) -> impl Iterator<Item = &Registration> {
        self.routes.iter().filter_map(|(_, route)| route.registration())
    }

    /// True while the server accepts connections (from its start until its stop).
    pub fn is_serving(&self) -> bool {
        self.serving.load(Ordering::Acquire)
    }

    /// Where the server listens, once bound.
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.local_addr
    }

    /// Binds the port and loads the certificate now, so that a port in use or a
    /// missing certificate fails at start-up with a clear error (the manager calls
    /// it from [`Runnable::register`]). Returns the bound address; calling it again
    /// returns the same.
    pub fn bind(&mut self) -> Result<SocketAddr, Error> {
        if let Some(address) = self.local_addr {
            return Ok(address);
        }
        if !self.problems.is_empty() {
            return Err(self.problems.remove(0));
        }
        let address = SocketAddr::new(self.options.host, self.options.port);
        let bound = self.bind_at(address)?;
        let local = bound
            .listener
            .local_addr()
            .map_err(|source| Error::Bind { address, source })?;
        self.cert_health = bound.watcher.as_ref().map(CertWatcher::health);
        *self.bound.lock() = Some(bound);
        self.local_addr = Some(local);
        Ok(local)
    }

    fn bind_at(&self, address: SocketAddr) -> Result<Bound, Error> {
        let (serving, watcher) = if let Some(certificates) = &self.options.certificates {
            (ServingCertificate::new(certificates.certified_key()?), None)
        } else {
            let watcher = CertWatcher::load(&self.options.cert_dir)?;
            (watcher.serving(), Some(watcher))
        };
        let listener = std::net::TcpListener::bind(address).map_err(|source| Error::Bind { address, source })?;
        listener
            .set_nonblocking(true)
            .map_err(|source| Error::Bind { address, source })?;
        Ok(Bound {
            listener,
            serving,
            watcher,
        })
    }

    /// Answers one HTTP request as the server answers it, without a socket or TLS:
    /// for testing webhooks, and fuzzing them, in process (it builds the request
    /// pipeline at each call, which the server does once).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use http_body_util::{BodyExt, Full};
    /// use wheelhouse_webhook::{WebhookOptions, WebhookServer};
    ///
    /// let server = WebhookServer::new(WebhookOptions::default());
    /// let request = http::Request::post("/validate-apps-v1-deployment")
    ///     .header("content-type", "application/json")
    ///     .body(Full::new(bytes::Bytes::from_static(b"{}")))
    ///     .unwrap();
    /// let answer = server.handle(request).await;
    /// assert_eq!(answer.status(), 404);
    /// # }
    /// ```
    pub async fn handle<B>(&self, request: http::Request<B>) -> http::Response<Full<Bytes>>
    where
        B: Body<Data = Bytes> + Send,
        B::Error: Into<BoxError>,
    {
        let answer = self.dispatcher().serve(request).await;
        answer.map(|body| Full::new(body.into_bytes()))
    }

    /// The request pipeline over this server's webhooks.
    pub(crate) fn dispatcher(&self) -> Dispatcher {
        let options = &self.options;
        Dispatcher::new(
            &self.routes,
            &self.conversions,
            self.metrics.as_ref(),
            RequestLimits {
                max_body_bytes: options.max_body_bytes,
                request_timeout: options.request_timeout,
                max_nesting_depth: options.max_nesting_depth,
                max_in_flight_bytes: options.max_in_flight_bytes,
                in_flight_wait: options.in_flight_wait,
                decision_threads: options.decision_threads,
                inline_decision_bytes: options.inline_decision_bytes,
            },
            self.budget_health.clone(),
        )
    }

    async fn run(&self, stop: Stop) -> Result<(), Error> {
        let taken = self.bound.lock().take();
        let address = self
            .local_addr
            .unwrap_or_else(|| SocketAddr::new(self.options.host, self.options.port));
        // Started again after a stop, or never bound: listen where it listened.
        let bound = if let Some(bound) = taken {
            bound
        } else {
            self.bind_at(address)?
        };
        let listener =
            tokio::net::TcpListener::from_std(bound.listener).map_err(|source| Error::Bind { address, source })?;
        let options = &self.options;
        let acceptor = TlsAcceptor::from(Arc::new(tls_server_config(bound.serving, options.http2)?));
        let limits = ServeLimits {
            max_connections: options.max_connections,
            max_connections_per_peer: options.max_connections_per_peer,
            handshake_timeout: options.handshake_timeout,
            header_read_timeout: options.header_read_timeout,
            max_header_bytes: options.max_header_bytes,
            min_body_rate: options.min_body_rate,
            idle_timeout: options.idle_timeout,
            http2_max_concurrent_streams: options.http2_max_concurrent_streams,
            cert_poll_interval: options.cert_poll_interval,
        };
        tracing::info!(address = ?listener.local_addr().ok(), paths = ?self.paths(), "serving webhooks");
        self.serving.store(true, Ordering::Release);
        let tls = Tls {
            acceptor,
            watcher: bound.watcher,
        };
        serve(
            "webhook",
            listener,
            Some(tls),
            Arc::new(self.dispatcher()),
            limits,
            stop.requested(),
        )
        .await;
        self.serving.store(false, Ordering::Release);
        Ok(())
    }
}

fn route_path(route: &dyn Route) -> String {
    route.registration().map(|r| r.path.clone()).unwrap_or_default()
}

impl Runnable for WebhookServer {
    fn name(&self) -> &'static str {
        "webhook-server"
    }

    /// Every replica serves: kube-apiserver calls whichever the Service picks.
    fn needs_leader_election(&self) -> bool {
        false
    }

    /// Shares the manager's webhook metric families, binds the port (so that
    /// `Manager::add` reports a port in use or a missing certificate) and adds the
    /// readiness check `webhook-server-<port>`: a replica whose server does not accept
    /// connections is taken out of the webhook Service; and `webhook-budget-<port>`,
    /// failing while requests have found no room among the bytes in flight for longer
    /// than `request_timeout` (every byte held by requests being decided or answered,
    /// so reviews sent to this replica could only time out). With certificates from
    /// `cert_dir` it adds `webhook-certificate-<port>` too, failing while the files
    /// cannot be read (or their read hangs) or do not load.
    fn register(&mut self, manager: &Manager) -> Result<(), BoxError> {
        if self.metrics.is_none() {
            self.metrics = Some(manager.shared_metrics(WebhookMetrics::register)?);
        }
        let address = self.bind()?;
        let serving = self.serving.clone();
        manager.add_readyz_check(format!("webhook-server-{}", address.port()), move || {
            if serving.load(Ordering::Acquire) {
                Ok(())
            } else {
                Err("the webhook server does not accept connections".to_owned())
            }
        });
        let (budget, review) = (self.budget_health.clone(), self.options.request_timeout);
        manager.add_readyz_check(format!("webhook-budget-{}", address.port()), move || {
            budget.check(review)
        });
        if let Some(health) = self.cert_health.clone() {
            // A certificate that cannot be read or loaded (or whose read hangs) is
            // not swapped in; the one before keeps serving, and the replica is not
            // ready until the files are right.
            manager.add_readyz_check(format!("webhook-certificate-{}", address.port()), move || {
                health.check()
            });
        }
        Ok(())
    }

    fn start(&self, stop: Stop) -> BoxFuture<'_, Result<(), BoxError>> {
        Box::pin(async move { self.run(stop).await.map_err(BoxError::from) })
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Parser)]
    struct Flags {
        #[command(flatten)]
        manager: ManagerArgs,
    }

    #[test]
    fn the_port_and_the_certificates_come_from_kubebuilders_flags() {
        let defaults = WebhookOptions::from_args(&Flags::parse_from(["operator"]).manager);
        assert_eq!(defaults.port, 9443);
        assert_eq!(
            defaults.cert_dir,
            PathBuf::from("/tmp/k8s-webhook-server/serving-certs")
        );
        assert!(!defaults.http2, "HTTP/2 is asked for, never on by default");
        let flags = Flags::parse_from([
            "operator",
            "--webhook-port",
            "10250",
            "--cert-dir",
            "/certs",
            "--enable-http2",
        ]);
        let server = WebhookServer::from_args(&flags.manager);
        assert!(server.options.http2);
        assert_eq!(server.options.port, 10250);
        assert_eq!(server.options.cert_dir, PathBuf::from("/certs"));
        assert!(!server.needs_leader_election());
    }
}
