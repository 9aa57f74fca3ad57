//! The example operators, as a library the demos, the end-to-end tests and the
//! benchmarks share, so each is written once:
//!
//! - [`webapp`]: a `WebApp` custom resource that owns a Deployment and a Service, with
//!   its admission [`webhooks`](webapp::webhooks): the flagship, on a plain reconciler.
//! - [`autoroute`] and [`canary`]: operators on the phase scheduler.
//! - [`replicas`]: replicas of an operator electing a leader on one API server, with a
//!   record of when each did leader-only work.
//! - [`fault_proxy`]: a per-replica TCP proxy in front of the embedded server that
//!   holds, delays, stalls or drops traffic, for partition tests.
//! - [`fanout`]: a hub WebApp copied into every member of a fleet, status summed back.
//! - [`cronjob`]: the `CronJob` controller, and the walkthrough that turns it into a fleet
//!   controller.
//! - [`demo`]: what the phase-scheduler demos share.
//! - [`pods`]: realistic Pods from a seed (managedFields and all), for an operator's own
//!   tests and benchmarks at scale.
//!
//! The runnable demos are in `demos/`: `cargo run --example webapp` (also `autoroute`,
//! `canary`, `ha`) from the repository's root.

pub mod autoroute;
pub mod canary;
pub mod cronjob;
pub mod demo;
pub mod fanout;
pub mod fault_proxy;
pub mod pods;
pub mod replicas;
pub mod webapp;
pub mod widgets;
