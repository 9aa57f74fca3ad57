//! The command-line options every kubebuilder operator has, as a clap struct to
//! `#[command(flatten)]`, and the one call that sets up logging from them.

use std::io::IsTerminal;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use tracing_subscriber::EnvFilter;

use crate::Error;

/// kubebuilder's flags, with its defaults.
///
#[doc = include_str!("flags.md")]
///
/// ```
/// use clap::Parser;
/// use wheelhouse_manager::ManagerArgs;
///
/// #[derive(Parser)]
/// struct Flags {
///     #[command(flatten)]
///     manager: ManagerArgs,
/// }
///
/// let flags = Flags::parse_from(["webapp-operator", "--leader-elect", "--metrics-bind-address", "0"]);
/// assert!(flags.manager.leader_elect);
/// assert_eq!(flags.manager.metrics_address().unwrap(), None); // 0 disables it
/// assert_eq!(flags.manager.health_probe_address().unwrap().unwrap().port(), 8081);
/// ```
#[derive(Debug, Clone, Args)]
#[expect(clippy::struct_excessive_bools, reason = "each is a command-line switch")]
// Without this, clap makes the doc comment above the `--help` text of every command
// that flattens these flags, in place of the operator's own description.
#[command(about = None, long_about = None)]
pub struct ManagerArgs {
    /// Elect a leader among replicas on a Lease, so only one runs the controllers.
    #[arg(long)]
    pub leader_elect: bool,
    /// The Lease's name (default: the operator's, set by its author).
    #[arg(long, value_name = "NAME")]
    pub leader_election_id: Option<String>,
    /// The Lease's namespace (default: the pod's namespace, or the kubeconfig's).
    #[arg(long, value_name = "NAMESPACE")]
    pub leader_election_namespace: Option<String>,
    /// Where /metrics is served: host:port or :port; 0 disables it.
    #[arg(long, default_value = ":8443", value_name = "ADDRESS")]
    pub metrics_bind_address: String,
    /// Serve /metrics over HTTPS, each request authenticated (`TokenReview`) and
    /// authorized (`SubjectAccessReview`, `get` on /metrics) by the API server; false
    /// serves plain HTTP to anyone who reaches the port.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, num_args = 0..=1, require_equals = true, default_missing_value = "true", value_name = "BOOL")]
    pub metrics_secure: bool,
    /// Where secure metrics find tls.crt and tls.key (reloaded when they rotate);
    /// without it, a self-signed certificate.
    #[arg(long, value_name = "DIR")]
    pub metrics_cert_path: Option<PathBuf>,
    /// Where /healthz and /readyz are served: host:port or :port; 0 disables them.
    #[arg(long, default_value = ":8081", value_name = "ADDRESS")]
    pub health_probe_bind_address: String,
    /// Serve the admission webhooks (off by default, as a cluster without the webhook
    /// configurations and certificates of `deploy/webhook.yaml` would never call
    /// them). Not the conversions: an operator whose CRD converts through `/convert`
    /// serves them whatever this says, since the API server sends every read in
    /// another version there.
    #[arg(long)]
    pub enable_webhooks: bool,
    /// The port the webhook server listens on.
    #[arg(long, default_value_t = 9443, value_name = "PORT")]
    pub webhook_port: u16,
    /// Where the webhook server finds tls.crt and tls.key.
    #[arg(long, value_name = "DIR", default_value = "/tmp/k8s-webhook-server/serving-certs")]
    pub cert_dir: PathBuf,
    /// Offer HTTP/2 on the HTTPS servers (webhooks, secure metrics) (off by default since HTTP/2's rapid-reset
    /// attack, CVE-2023-44487; HTTP/1.1 serves admission and scrapes as well).
    #[arg(long)]
    pub enable_http2: bool,
    /// Log level, or tracing filter directives (`info`, `debug`, `info,wheelhouse=debug`);
    /// `RUST_LOG`, when set, takes precedence. Unless the directives name `kube_client`,
    /// kube-client's line for every failed request is left out (`kube_client::client::builder=off`):
    /// while the API server refuses connections it is hundreds of ERROR lines a second, and
    /// the manager reports the failures itself, once a run and in a summary every 30 s.
    #[arg(long, default_value = "info", value_name = "LEVEL")]
    pub log_level: String,
    /// Log format: text for people, json for log pipelines.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

impl ManagerArgs {
    /// The metrics address, or None when disabled (`0`).
    pub fn metrics_address(&self) -> Result<Option<SocketAddr>, Error> {
        parse_bind_address("--metrics-bind-address", &self.metrics_bind_address)
    }

    /// The health-probe address, or None when disabled (`0`).
    pub fn health_probe_address(&self) -> Result<Option<SocketAddr>, Error> {
        parse_bind_address("--health-probe-bind-address", &self.health_probe_bind_address)
    }

    /// Sets up `tracing` from `--log-level` (or `RUST_LOG`) and `--log-format`, writing
    /// to standard error. Call once, first thing in `main`.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), wheelhouse_manager::Error> {
    /// use clap::Parser;
    /// # #[derive(Parser)] struct Flags { #[command(flatten)] manager: wheelhouse_manager::ManagerArgs }
    /// let flags = Flags::parse();
    /// flags.manager.init_logging()?;
    /// tracing::info!("starting");
    /// # Ok(())
    /// # }
    /// ```
    pub fn init_logging(&self) -> Result<(), Error> {
        let filter = self.log_filter()?;
        let builder = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_ansi(std::io::stderr().is_terminal())
            .with_writer(std::io::stderr);
        let installed = match self.log_format {
            LogFormat::Text => builder.try_init(),
            LogFormat::Json => builder.json().flatten_event(true).try_init(),
        };
        installed.map_err(|e| Error::Logging(e.to_string()))
    }

    /// The filter logging uses: `RUST_LOG` when set, else `--log-level`.
    pub fn log_filter(&self) -> Result<EnvFilter, Error> {
        match std::env::var("RUST_LOG") {
            Ok(directives) if !directives.is_empty() => {
                EnvFilter::try_new(&directives).map_err(|e| Error::Logging(format!("RUST_LOG={directives:?}: {e}")))
            }
            _ => EnvFilter::try_new(with_quiet_request_failures(&self.log_level))
                .map_err(|e| Error::Logging(format!("--log-level {:?}: {e}", self.log_level))),
        }
    }
}

/// `directives`, with kube-client's per-request failure lines left out unless they
/// name kube-client themselves.
fn with_quiet_request_failures(directives: &str) -> String {
    if directives.contains("kube_client") {
        directives.to_owned()
    } else {
        format!("{directives},kube_client::client::builder=off")
    }
}

/// Parses Go's listen-address forms: `host:port`, `:port` (every interface), `0`
/// (disabled).
pub(crate) fn parse_bind_address(flag: &'static str, value: &str) -> Result<Option<SocketAddr>, Error> {
    let invalid = |why: &str| Error::InvalidAddress {
        flag,
        value: value.to_owned(),
        why: why.to_owned(),
    };
    let value_trimmed = value.trim();
    if value_trimmed == "0" || value_trimmed.is_empty() {
        return Ok(None);
    }
    if let Some(port) = value_trimmed.strip_prefix(':') {
        let port: u16 = port
            .parse()
            .map_err(|_| invalid("the port is not a number from 0 to 65535"))?;
        return Ok(Some(SocketAddr::from((Ipv4Addr::UNSPECIFIED, port))));
    }
    if let Some((host, port)) = value_trimmed.rsplit_once(':')
        && host == "localhost"
    {
        let port: u16 = port
            .parse()
            .map_err(|_| invalid("the port is not a number from 0 to 65535"))?;
        return Ok(Some(SocketAddr::from((Ipv4Addr::LOCALHOST, port))));
    }
    value_trimmed
        .parse()
        .map(Some)
        .map_err(|_| invalid("not an IP address and port"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_operators_description_heads_its_help() {
        use clap::CommandFactory;

        #[derive(clap::Parser)]
        #[command(about = "The example operator")]
        struct Flags {
            #[command(flatten)]
            manager: ManagerArgs,
        }
        let help = Flags::command().render_long_help().to_string();
        assert!(help.starts_with("The example operator"), "{help}");
        assert!(!help.contains("kubebuilder's flags"), "{help}");
        assert!(help.contains("--leader-elect"), "{help}");
    }

    /// The rustdoc's table (`flags.md`) and the flags clap parses agree: every flag has
    /// a row, every row a flag, and each row's default is clap's.
    #[test]
    fn the_flags_table_is_the_flags() {
        use clap::Args as _;

        let mut command = ManagerArgs::augment_args(clap::Command::new("operator"));
        // Building settles the defaults clap fills in (`false` for a switch) and adds
        // `--help`, which is clap's, not ours.
        command.build();
        let parsed: Vec<(String, String)> = command
            .get_arguments()
            .filter(|arg| arg.get_id() != "help")
            .filter_map(|arg| {
                let long = arg.get_long()?;
                let defaults: Vec<String> = arg
                    .get_default_values()
                    .iter()
                    .map(|value| format!("`{}`", value.to_string_lossy()))
                    .collect();
                let default = if defaults.is_empty() {
                    "none".to_owned()
                } else {
                    defaults.join(", ")
                };
                Some((format!("`--{long}`"), default))
            })
            .collect();
        let table: Vec<(String, String)> = include_str!("flags.md")
            .lines()
            .filter(|line| line.starts_with("| `--"))
            .map(|line| {
                let cells: Vec<&str> = line.split('|').map(str::trim).collect();
                (cells[1].to_owned(), cells[2].to_owned())
            })
            .collect();
        assert!(!parsed.is_empty());
        for flag in &parsed {
            assert!(
                table.contains(flag),
                "{flag:?} is missing from flags.md, or its default differs"
            );
        }
        for row in &table {
            assert!(
                parsed.contains(row),
                "flags.md has {row:?}, which ManagerArgs does not parse"
            );
        }
        assert_eq!(parsed.len(), table.len());
    }

    #[test]
    fn webhooks_are_served_only_when_enabled() {
        use clap::Parser;

        #[derive(clap::Parser)]
        struct Flags {
            #[command(flatten)]
            manager: ManagerArgs,
        }
        assert!(!Flags::parse_from(["operator"]).manager.enable_webhooks);
        assert!(
            Flags::parse_from(["operator", "--enable-webhooks"])
                .manager
                .enable_webhooks
        );
    }

    #[test]
    fn go_style_addresses_parse() {
        let parse = |v| parse_bind_address("--metrics-bind-address", v);
        assert_eq!(parse("0").unwrap(), None);
        assert_eq!(parse(":8080").unwrap(), Some(SocketAddr::from(([0, 0, 0, 0], 8080))));
        assert_eq!(
            parse("127.0.0.1:9").unwrap(),
            Some(SocketAddr::from(([127, 0, 0, 1], 9)))
        );
        assert_eq!(
            parse("localhost:9").unwrap(),
            Some(SocketAddr::from(([127, 0, 0, 1], 9)))
        );
        assert_eq!(parse("[::1]:9").unwrap(), Some("[::1]:9".parse().unwrap()));
        let error = parse(":http").unwrap_err().to_string();
        assert!(
            error.contains("--metrics-bind-address") && error.contains(":http"),
            "{error}"
        );
        assert!(parse("example.com:80").is_err());
    }

    #[test]
    fn metrics_are_secure_unless_turned_off() {
        use clap::Parser;

        #[derive(clap::Parser)]
        struct Flags {
            #[command(flatten)]
            manager: ManagerArgs,
        }
        let defaults = Flags::parse_from(["operator"]).manager;
        assert!(defaults.metrics_secure);
        assert!(!defaults.enable_http2);
        assert_eq!(
            defaults.metrics_address().unwrap(),
            Some(SocketAddr::from(([0, 0, 0, 0], 8443)))
        );
        for (flag, secure) in [
            ("--metrics-secure=false", false),
            ("--metrics-secure", true),
            ("--metrics-secure=true", true),
        ] {
            let flags = Flags::parse_from(["operator", flag]).manager;
            assert_eq!(flags.metrics_secure, secure, "{flag}");
        }
        let flags = Flags::parse_from(["operator", "--metrics-cert-path", "/certs", "--enable-http2"]).manager;
        assert_eq!(flags.metrics_cert_path, Some(PathBuf::from("/certs")));
        assert!(flags.enable_http2);
    }

    #[test]
    fn kube_clients_line_per_failed_request_is_left_out_unless_asked_for() {
        assert_eq!(
            with_quiet_request_failures("info"),
            "info,kube_client::client::builder=off"
        );
        assert_eq!(
            with_quiet_request_failures("debug,kube_client=trace"),
            "debug,kube_client=trace"
        );
        assert!(EnvFilter::try_new(with_quiet_request_failures("info,wheelhouse=debug")).is_ok());
    }

    #[test]
    fn a_bad_log_level_is_refused_with_the_flag_named() {
        let args = ManagerArgs {
            leader_elect: false,
            leader_election_id: None,
            leader_election_namespace: None,
            metrics_bind_address: "0".into(),
            metrics_secure: true,
            metrics_cert_path: None,
            health_probe_bind_address: "0".into(),
            enable_webhooks: false,
            webhook_port: 9443,
            cert_dir: PathBuf::new(),
            enable_http2: false,
            log_level: "info,=[".into(),
            log_format: LogFormat::Text,
        };
        if std::env::var_os("RUST_LOG").is_none() {
            let error = args.log_filter().unwrap_err().to_string();
            assert!(error.contains("--log-level"), "{error}");
        }
    }
}
