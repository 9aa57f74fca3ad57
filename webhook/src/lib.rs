//! wheelhouse-webhook: admission and CRD conversion webhooks for operators, as
//! controller-runtime serves them, safe against bad input by construction.
//!
//! - [`WebhookServer`]: HTTPS (hyper, rustls; TLS 1.2 and 1.3; HTTP/1.1, and HTTP/2
//!   when asked) as a manager [`Runnable`](wheelhouse_manager::Runnable) that every
//!   replica runs, held up under hostile traffic by the limits [`WebhookOptions`]
//!   lists (connections, time, bytes in flight, nesting, decision threads), with a
//!   graceful stop.
//! - [`Validator`] and [`Defaulter`]: typed webhooks of one resource type, served at
//!   controller-runtime's paths (`/validate-<group>-<version>-<kind>`, `/mutate-...`);
//!   [`Handler`] for kube's raw `AdmissionRequest` when typed is not enough.
//! - [`conversion`]: CRD conversion, hub and spoke over `From` impls
//!   (`Conversion::hub::<v1::WebApp>().spoke::<v1alpha1::WebApp>()`), served at
//!   `/convert` on the same server, with the multi-version CRD and its
//!   `spec.conversion` generated.
//! - [`Denied`] and [`FieldError`]: refusals worded as kube-apiserver's own validation
//!   (field errors are a 422 `Invalid`, as `apierrors.NewInvalid`).
//! - [`Request::create`], [`Request::update`], [`Request::delete`]: the request
//!   kube-apiserver would send, for calling a validator or defaulter in a plain test.
//! - [`Certificates`]: the serving certificate from `--cert-dir`, reloaded when
//!   cert-manager renews it, or self-signed for local runs and tests.
//! - [`Configurations`]: the webhook configurations for what is registered.
//! - [`crd`] and [`bound_integers`]: CRDs whose integer fields carry their Rust
//!   type's range, so the API server refuses a value the operator could not decode.
//! - [`WebhookMetrics`]: controller-runtime's webhook metric names.
//! - `envtest::serve` (feature `envtest`): a server's webhooks and conversions registered
//!   with a test environment in one line.
//!
//! ## Behaviour
//!
//! - **Defaulters** (`Defaulter<K>::apply_defaults(&mut K)`) answer with the RFC 6902 patch from
//!   the object as sent to the object as defaulted, or none when nothing changed. The
//!   changes are taken from the typed object before and after `apply_defaults` and laid over the
//!   request's JSON, so fields `K` does not model (a newer API version's, say) are never
//!   dropped. `Handler` takes kube's raw `AdmissionRequest` when typed is not enough;
//!   `Request::dry_run` tells a webhook whether it may have side effects.
//! - **Bad input** is answered, never fatal and never allowed: unknown path 404, not a
//!   JSON POST 405/415, not an `AdmissionReview` or nested too deep 400, a body over
//!   7 MiB 413, a body too slow 408, no room among the bytes in flight 429; an object
//!   that does not decode as `K`, a request for another kind or resource, an object
//!   whose own kind is another, and a panicking webhook (counted) are denied. A
//!   decision slower than the request's time (10 s, or kube-apiserver's shorter
//!   `timeout`) is answered 504 at the deadline, so kube-apiserver applies the
//!   configuration's `failurePolicy`.
//! - **Hostile traffic**: accepting never stops (and backs off, never spins, when it
//!   fails); past the connection bounds the longest-*silent* connection is closed
//!   (idle, handshake-stalling, slowloris headers, and bodies that stopped arriving),
//!   so no such client, not even from kube-apiserver's own address, can starve its
//!   connections. Request bytes are counted as they arrive and until the answer is
//!   written, small bodies on a share of their own; an answer never echoes a large
//!   value (a `uid` longer than a UUID is a 400, field errors cut long values, and
//!   refusals are at most 4 KiB). The connection handling is the manager's
//!   [serving layer](wheelhouse_manager::serve). See [`WebhookOptions`].
//! - **Which denial a client sees**: kube-apiserver calls every validating webhook a
//!   write matches at once and answers with the first refusal that arrives. A CRD's
//!   validators on two versions (each `matchPolicy: Equivalent`) are both called for
//!   every write, so on a real server either message may come back, by timing; the
//!   embedded server answers the first in configuration order, always. Validate on the
//!   stored version alone (it sees every version's writes, converted), or assert only
//!   what both messages share.
//! - **Objects being deleted** can always lose their finalizers: they are not
//!   defaulted (see [`Defaulter`]), and metadata-only updates are not validated
//!   (see [`Validator`]).
//! - **Certificates**: `tls.crt`/`tls.key` from `--cert-dir`, re-read every 10 s (on a
//!   blocking thread, with a timeout) and swapped for new connections when cert-manager
//!   renews them (polling sees the kubelet's atomic symlink swap of a mounted Secret,
//!   which a file watch misses; a half-written pair is never served). While the files
//!   cannot be read or loaded, the old certificate keeps serving and the readiness
//!   check `webhook-certificate-<port>` fails. No TLS session resumption, so every new connection sees the
//!   current certificate. `Certificates::self_signed(names)` makes a CA and a serving
//!   certificate for local runs and tests, with the CA bundle for `caBundle`.
//! - **Configurations**: `server.configurations(&options)` generates the
//!   `MutatingWebhookConfiguration` and `ValidatingWebhookConfiguration` of the registered
//!   webhooks (`sideEffects: None`, `admissionReviewVersions: [v1]`, `failurePolicy: Fail`,
//!   `matchPolicy: Equivalent`, a Service or URL client, `caBundle` when known, namespace
//!   and object selectors; each named per version as kubebuilder names it,
//!   `vwebapp-v1.kb.io`), and `Configurations::apply` registers them. `deploy/webhook.yaml` is generated from the
//!   WebApp's (with cert-manager's Issuer and Certificate; a test keeps it equal).
//! - **Metrics** under controller-runtime's names:
//!   `controller_runtime_webhook_requests_total{webhook,code}`,
//!   `controller_runtime_webhook_latency_seconds{webhook}`,
//!   `controller_runtime_webhook_requests_in_flight{webhook}`,
//!   `controller_runtime_webhook_panics_total`; a tracing span per request with the uid,
//!   kind, operation and whether it was allowed.
//!
//! To test a webhook, `server.handle(request)` answers an HTTP request in process; end to
//! end, `envtest::serve(&env, server)` (feature `envtest`, for `[dev-dependencies]`)
//! serves it for a test environment's API server, the embedded one or a real one, which
//! calls it over HTTPS as kube-apiserver does, and removes it all when the environment
//! stops.
//! `tests/webhook_fuzz.rs` sends arbitrary bytes and review-shaped JSON for a bounded time
//! and checks every allowed answer against an oracle written apart from the validator.
//!
//! ```no_run
//! # async fn example(client: kube::Client) -> Result<(), Box<dyn std::error::Error>> {
//! use k8s_openapi::api::apps::v1::Deployment;
//! use wheelhouse_webhook::{Defaulter, Denied, Request, WebhookOptions, WebhookServer};
//!
//! struct OneReplica;
//!
//! impl Defaulter<Deployment> for OneReplica {
//!     async fn apply_defaults(&self, deployment: &mut Deployment, _: &Request) -> Result<(), Denied> {
//!         deployment.spec.replicas.get_or_insert(1);
//!         Ok(())
//!     }
//! }
//!
//! let server = WebhookServer::new(WebhookOptions::default()).defaulter::<Deployment>(OneReplica);
//! let manager = wheelhouse_manager::Manager::builder(client).build()?;
//! manager.add(server)?;
//! manager.run().await?;
//! # Ok(())
//! # }
//! ```

pub mod conversion;
mod denial;
mod dispatch;
#[cfg(feature = "envtest")]
pub mod envtest;
mod error;
mod handler;
mod integers;
mod limits;
mod manifests;
mod metrics;
mod patch;
mod reach;
mod registration;
mod request;
mod review;
mod server;
mod typed;

pub use crate::denial::{Denied, FieldError, FieldErrorKind, Warnings};
pub use crate::error::Error;
pub use crate::handler::Handler;
pub use crate::integers::{bound_integers, crd};
pub use crate::manifests::{Configurations, yaml};
pub use crate::metrics::WebhookMetrics;
pub use crate::reach::{ClientConfig, ConfigurationOptions};
pub use crate::registration::{Object, Registration, WebhookKind, mutate_path, validate_path};
pub use crate::request::Request;
pub use crate::review::ADMISSION_V1;
pub use crate::server::{WebhookOptions, WebhookServer};
pub use crate::typed::{Defaulter, Validator};
/// kube's admission types, which [`Handler`]s take and return.
pub use kube::core::admission::{AdmissionRequest, AdmissionResponse, Operation};
pub use wheelhouse_manager::serve::MinDataRate;
pub use wheelhouse_manager::{CA_FILE, CERT_FILE, CertificateError, Certificates, KEY_FILE};
