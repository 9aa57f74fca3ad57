//! The controller's behaviour, asserted through `TestEnv::start()`, so that
//! `USE_EXISTING_CLUSTER=true cargo test -p wheelhouse-controller --test controller`
//! runs the same assertions against a real cluster.
//!
//! Every controller here is scoped to its test's namespace. Waits are bounded; where a
//! test must show that something did *not* happen, it waits for a later event that
//! the controller handles strictly after it (a marker object), not for wall-clock time.

mod catch_up;
mod common;
mod context;
mod fencing;
mod fleet;
mod helpers;
mod outcomes;
mod phases;
mod scheduling;
mod sources;
