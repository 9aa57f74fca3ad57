//! The controllers a cluster runs beside its API server and that tests rely on.

use crate::server::ApiServer;

/// Starts the controllers the options ask for, on the current tokio runtime.
pub(crate) fn start(server: &ApiServer) {
    let _ = server;
}
