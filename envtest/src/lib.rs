//! wheelhouse-envtest: a Kubernetes API server that runs inside your test process, and
//! the same test environment over an existing cluster.

mod actions;
mod admission;
mod builtin;
mod catalogue;
mod controllers;
mod core;
mod deletion;
mod discovery;
mod env;
mod http;
mod names;
mod options;
mod patch;
mod plugins;
#[cfg(feature = "kubectl")]
mod protobuf;
mod rbac;
mod read;
mod registry;
mod request;
mod rules;
mod scale;
mod schema;
mod server;
mod state;
mod store;
#[cfg(feature = "kubectl")]
mod tables;
mod wait;
#[cfg(feature = "workloads")]
mod workloads;
mod write;

pub use crate::core::{ResponseBody, Verb};
pub use crate::env::{Error, TestEnv, use_existing_cluster};
pub use crate::options::ServerOptions;
#[cfg(feature = "workloads")]
pub use crate::options::{BEHAVIOUR_ANNOTATION, ImageRule, PodBehaviour, WorkloadSimulation};
pub use crate::rbac::Rbac;
pub use crate::state::{ApiServer, FaultCounts, InjectedFailure, LeaseWitness, RequestRecord, WitnessedWrite};
pub use crate::wait::{DEFAULT_TIMEOUT, eventually, eventually_within};
/// Label and field selectors, as the server parses them.
pub use wheelhouse_selector as selector;
