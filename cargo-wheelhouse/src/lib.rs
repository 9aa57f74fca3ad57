//! cargo-wheelhouse: the scaffold of wheelhouse operators, as kubebuilder's and
//! Autopilot's start a project.
//!
//! - [`init`]: a crate whose `main()` composes a `Manager` with kubebuilder's flags,
//!   the module lists later generators add to, `deploy/` (RBAC, the Deployment,
//!   `Dockerfile.prebuilt`; the CRDs and webhook registrations are written from the
//!   code by the project's `tests/deploy.rs`), `.ci/run` and a README. With
//!   [`Init::fleet`], a fleet controller's: its reconcilers run in every member whose
//!   kubeconfig Secret is in the home cluster, and `deploy/` also gets the home
//!   cluster's RBAC and the members'.
//! - [`create_api`]: a kind (or a new version of one) with `CustomResource`, its
//!   reconciler with a finalizer and status conditions, and a `TestEnv` test.
//! - [`create_webhook`]: a typed defaulter and validator with unit tests, and end to
//!   end through the API server; or hub-and-spoke conversions with a round-trip
//!   property test, served whatever `--enable-webhooks` says.
//! - [`create_phases`]: a kind on the phase scheduler, one stateless worker per phase
//!   (Autopilot's shape), and a test that walks it through them.
//!
//! **Running a generator again never overwrites what the user changed**: `PROJECT`
//! (kubebuilder's file of that name) records the project's kinds and a checksum of every
//! file as generated; a file whose content no longer matches is kept as it is
//! ([`files`]), and files the user owns from the start gain lines only, at
//! `// +wheelhouse:scaffold:` markers, once.

mod api;
pub mod files;
mod init;
mod names;
pub mod project;
mod rbac;
mod render;
mod webhook;

use std::path::PathBuf;

pub use crate::api::{CreateApi, CreatePhases, create_api, create_phases};
pub use crate::init::{Init, init};
pub use crate::webhook::{CreateWebhook, create_webhook};

/// Why a generator stopped; nothing it reports is half-written, as each checks its
/// input before it writes.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A flag's value is not what Kubernetes or cargo accept.
    #[error("{0}")]
    Invalid(String),
    /// The project does not allow it yet (a webhook of a kind that does not exist...).
    #[error("{0}")]
    Refused(String),
    /// `PROJECT` cannot be read or written.
    #[error("PROJECT: {0}")]
    Project(String),
    /// A file cannot be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}
