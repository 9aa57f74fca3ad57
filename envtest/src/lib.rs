//! wheelhouse-envtest: a Kubernetes API server that runs inside your test process, and
//! the same test environment over an existing cluster.

mod actions;
mod admission;
mod catalogue;
mod controllers;
mod defaults;
mod deletion;
mod discovery;
mod env;
mod http;
mod names;
mod openapi;
mod patch;
mod plugins;
mod protobuf;
mod rbac;
mod read;
mod registry;
mod request;
mod rules;
mod scale;
mod schema;
mod server;
mod shard;
mod status;
mod store;
mod tables;
mod validation;
mod wait;
mod witness;
mod workloads;
mod write;

pub use crate::env::{Error, TestEnv, use_existing_cluster};
pub use crate::rbac::Rbac;
pub use crate::request::Verb;
pub use crate::server::{ApiServer, FaultCounts, InjectedFailure, RequestRecord, ResponseBody, ServerOptions};
pub use crate::wait::{DEFAULT_TIMEOUT, eventually, eventually_within};
pub use crate::witness::{LeaseWitness, WitnessedWrite};
pub use crate::workloads::{BEHAVIOUR_ANNOTATION, ImageRule, PodBehaviour, WorkloadSimulation};
/// Label and field selectors, as the server parses them.
pub use wheelhouse_selector as selector;
