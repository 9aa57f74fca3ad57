//! The conformance suite: the behaviour of kube-apiserver that the
//! embedded server keeps, asserted through `TestEnv::start()`, so that
//! `USE_EXISTING_CLUSTER=true cargo test -p wheelhouse-envtest --test conformance`
//! runs the same assertions against a real cluster.
//!
//! Tests that need kube-controller-manager skip unless `env.runs_controllers()`; tests
//! of what only the embedded server can do (fault injection, deployment simulation,
//! webhooks on 127.0.0.1) skip on an existing cluster. Each says so when it skips.

mod admission;
mod admission_limits;
mod admission_quota;
mod aggregation;
mod apply_builtin;
mod apply_lists;
mod autoscalers;
mod busy_test;
mod catalogue;
mod common;
mod conversion;
mod conversion_common;
mod crd_versions;
mod crud;
mod decoding;
mod definitions;
mod delete;
mod deletion;
mod differential;
mod discovery;
mod ephemeral;
mod error_classes;
mod events;
mod eviction;
mod faults;
mod flow_control;
mod list;
mod messages;
mod metadata_rules;
mod namespaces;
mod openapi;
mod openapi_cache;
mod openapi_v2;
mod operator_objects;
mod ownership;
mod patch;
mod plugins;
mod policies;
mod protobuf;
mod put;
mod raw;
mod resources;
mod reviews;
mod scale;
mod schema;
mod schema_cel;
mod schema_common;
mod selectors;
mod served;
mod services;
mod shard;
mod simulation;
mod strategies;
mod tables;
mod tokens;
mod validation_cluster;
mod validation_core;
mod validation_groups;
mod validation_pods;
mod validation_workloads;
mod versions;
mod warnings;
mod watch;
mod write_options;
