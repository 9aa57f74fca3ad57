//! wheelhouse-webhook: admission webhooks for operators, as controller-runtime serves
//! them, safe against bad input by construction.
//!
//! - [`WebhookServer`]: HTTPS (hyper, rustls; TLS 1.2 and 1.3; HTTP/1.1) as a manager
//!   [`Runnable`](wheelhouse_manager::Runnable) that every replica runs, with bounded
//!   connections, request size and time, and a graceful stop.
//! - [`Validator`] and [`Defaulter`]: typed webhooks of one resource type, served at
//!   controller-runtime's paths (`/validate-<group>-<version>-<kind>`, `/mutate-...`);
//!   [`Handler`] for kube's raw `AdmissionRequest` when typed is not enough.
//! - [`Denied`] and [`FieldError`]: refusals worded as kube-apiserver's own validation.
//! - [`Certificates`]: the serving certificate from `--cert-dir`, reloaded when
//!   cert-manager renews it, or self-signed for local runs and tests.
//! - [`Configurations`]: the webhook configurations for what is registered.
//! - [`WebhookMetrics`]: controller-runtime's webhook metric names.
//!
//! ```no_run
//! # async fn example(client: kube::Client) -> Result<(), Box<dyn std::error::Error>> {
//! use k8s_openapi::api::apps::v1::Deployment;
//! use wheelhouse_webhook::{Defaulter, Denied, Request, WebhookOptions, WebhookServer};
//!
//! struct OneReplica;
//!
//! impl Defaulter<Deployment> for OneReplica {
//!     async fn default(&self, deployment: &mut Deployment, _: &Request) -> Result<(), Denied> {
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

mod certs;
mod denial;
mod dispatch;
mod error;
mod handler;
mod manifests;
mod metrics;
mod patch;
mod reload;
mod review;
mod serve;
mod server;
mod typed;

pub use crate::certs::{CA_FILE, CERT_FILE, Certificates, KEY_FILE};
pub use crate::denial::{Denied, FieldError, FieldErrorKind, Warnings};
pub use crate::error::Error;
pub use crate::handler::Handler;
pub use crate::manifests::{ClientConfig, ConfigurationOptions, Configurations, yaml};
pub use crate::metrics::WebhookMetrics;
pub use crate::review::{ADMISSION_V1, Request};
pub use crate::server::{WebhookOptions, WebhookServer};
pub use crate::typed::{Defaulter, Object, Registration, Validator, WebhookKind, mutate_path, validate_path};
/// kube's admission types, which [`Handler`]s take and return.
pub use kube::core::admission::{AdmissionRequest, AdmissionResponse, Operation};
