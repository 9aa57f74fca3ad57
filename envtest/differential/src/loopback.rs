//! Safety: the fuzzer writes thousands of invalid objects, webhook configurations and
//! quotas, so it talks only to servers on this machine's loopback addresses
//! (127.0.0.0/8 and `::1`), whatever a kubeconfig says; and it connects to them directly
//! (a proxy from the kubeconfig or the environment is dropped), so nothing leaves the host.

use std::net::{IpAddr, ToSocketAddrs};

/// Why a server is refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NotLoopback {
    /// The server's address is not on a loopback network.
    #[error("{0} is not a loopback address (only 127.0.0.0/8 and [::1] are allowed)")]
    Address(String),
    /// The URL names no host.
    #[error("the server URL {0} names no host")]
    NoHost(String),
}

/// Accepts `url` only if its host is a loopback IP literal, or `localhost` whose every
/// address is loopback.
pub fn check(url: &http::Uri) -> Result<(), NotLoopback> {
    let host = url.host().ok_or_else(|| NotLoopback::NoHost(url.to_string()))?;
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = bare.parse::<IpAddr>() {
        return if ip.is_loopback() {
            Ok(())
        } else {
            Err(NotLoopback::Address(host.to_owned()))
        };
    }
    if bare.eq_ignore_ascii_case("localhost") {
        // Resolved here, as the client will resolve it: every address must be loopback.
        let resolved: Vec<IpAddr> = (bare, 443)
            .to_socket_addrs()
            .map(|addresses| addresses.map(|a| a.ip()).collect())
            .unwrap_or_default();
        if !resolved.is_empty() && resolved.iter().all(IpAddr::is_loopback) {
            return Ok(());
        }
    }
    Err(NotLoopback::Address(host.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uri(text: &str) -> http::Uri {
        text.parse().expect("a URI")
    }

    #[test]
    fn loopback_servers_are_accepted() {
        for url in [
            "https://127.0.0.1:6443",
            "http://127.8.9.10",
            "https://[::1]:6443",
            "http://localhost:8080",
        ] {
            assert_eq!(check(&uri(url)), Ok(()), "{url}");
        }
    }

    #[test]
    fn anything_else_is_refused() {
        for url in [
            "https://10.0.0.1:6443",
            "https://[::2]:6443",
            "https://kubernetes.default.svc",
            "https://128.0.0.1",
            "https://127.0.0.1.example.com",
            "https://0.0.0.0:6443",
        ] {
            assert!(check(&uri(url)).is_err(), "{url}");
        }
    }
}
