//! The informer tests, through `TestEnv::start()`, so that
//! `USE_EXISTING_CLUSTER=true cargo test -p wheelhouse-cache --test informers` runs the
//! same assertions against a real cluster. What only the embedded server can do (fault
//! injection, request counts) is skipped there, each time with a note on stderr.

mod common;
mod events;
mod kinds;
mod metrics;
mod restart;
mod sharing;
mod slow;
mod store;
mod sync;
mod transform;
mod window;
