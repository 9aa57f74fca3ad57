//! What the end-to-end tests share: `phases` runs a phase scheduler on its own task and
//! records worker calls, `rbac` makes an operator's RBAC manifest from evidence,
//! `frozen` starts processes a test freezes with `SIGSTOP`. Each
//! test binary declares `mod support;` and uses its part.
#![allow(dead_code, reason = "each test binary uses its own part of the shared helpers")]

#[cfg(target_os = "linux")]
pub mod frozen;
pub mod phases;
pub mod rbac;
