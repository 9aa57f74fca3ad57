//! Where a Canary's success rate comes from: a Prometheus server (an instant `PromQL`
//! query over HTTP) or, for a demonstration without a cluster, a `ConfigMap` that holds
//! the rate by Canary name. Both are one input of the Evaluating worker,
//! [`SuccessRate`]: the `ConfigMap` is watched (editing it re-runs the Canaries that name
//! it), Prometheus is polled (read afresh on each of the worker's analysis intervals).

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::ResourceExt;
use serde_json::Value;
use wheelhouse::controller::Error;
use wheelhouse::controller::phase::{InputSource, Inputs, Watches};

use super::{Canary, canary_ingress_name};

/// Why a Prometheus query gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum PrometheusError {
    /// The address or the query does not make a URL.
    #[error("invalid Prometheus URL {url:?}: {reason}")]
    Url {
        /// The URL as built.
        url: String,
        /// Why it is invalid.
        reason: String,
    },
    /// The server could not be reached.
    #[error("Prometheus at {url} could not be reached: {reason}")]
    Unreachable {
        /// The URL asked.
        url: String,
        /// The transport's error.
        reason: String,
    },
    /// The server answered with an error.
    #[error("Prometheus answered {status} to {url}: {message}")]
    Refused {
        /// The URL asked.
        url: String,
        /// The HTTP status.
        status: u16,
        /// Prometheus' `errorType: error`, or the body.
        message: String,
    },
    /// The answer is not the query API's JSON.
    #[error("Prometheus answered something that is not a query result: {0}")]
    Unexpected(String),
}

/// A Prometheus HTTP API client (plain HTTP: inside a cluster, Prometheus usually
/// listens without TLS; put a proxy in front of an HTTPS one).
#[derive(Clone, Debug)]
pub struct Prometheus {
    client: Client<HttpConnector, Empty<Bytes>>,
}

impl Default for Prometheus {
    fn default() -> Self {
        Self::new()
    }
}

impl Prometheus {
    /// A client with its own connection pool.
    pub fn new() -> Self {
        Self {
            client: Client::builder(TokioExecutor::new()).build_http(),
        }
    }

    /// The value of the instant query `promql` at `base` (`http://prometheus:9090`):
    /// None when the result is empty or not a number (no traffic yet).
    pub async fn query(&self, base: &str, promql: &str) -> Result<Option<f64>, PrometheusError> {
        let query: String = form_urlencoded::Serializer::new(String::new())
            .append_pair("query", promql)
            .finish();
        let url = format!("{}/api/v1/query?{query}", base.trim_end_matches('/'));
        let uri: hyper::Uri = url
            .parse()
            .map_err(|e: hyper::http::uri::InvalidUri| PrometheusError::Url {
                url: url.clone(),
                reason: e.to_string(),
            })?;
        let unreachable = |reason: String| PrometheusError::Unreachable {
            url: url.clone(),
            reason,
        };
        let response = self.client.get(uri).await.map_err(|e| unreachable(e.to_string()))?;
        let status = response.status();
        let body = response
            .into_body()
            .collect()
            .await
            .map_err(|e| unreachable(e.to_string()))?
            .to_bytes();
        if !status.is_success() {
            let message = serde_json::from_slice::<Value>(&body)
                .ok()
                .and_then(|v| v.get("error").and_then(Value::as_str).map(str::to_owned))
                .unwrap_or_else(|| String::from_utf8_lossy(&body).into_owned());
            return Err(PrometheusError::Refused {
                url,
                status: status.as_u16(),
                message,
            });
        }
        parse_response(&body)
    }
}

/// The value of an instant query's answer: the first sample of a vector, or a scalar;
/// None for an empty vector or a value that is not a finite number (`NaN` when a rate
/// divides zero by zero).
pub fn parse_response(body: &[u8]) -> Result<Option<f64>, PrometheusError> {
    let answer: Value = serde_json::from_slice(body).map_err(|e| PrometheusError::Unexpected(e.to_string()))?;
    if answer.get("status").and_then(Value::as_str) != Some("success") {
        return Err(PrometheusError::Unexpected(answer.to_string()));
    }
    let data = &answer["data"];
    let sample = match data.get("resultType").and_then(Value::as_str) {
        Some("vector") => data["result"].get(0).map(|first| &first["value"]),
        Some("scalar") => Some(&data["result"]),
        other => return Err(PrometheusError::Unexpected(format!("a result of type {other:?}"))),
    };
    let Some(sample) = sample else {
        return Ok(None);
    };
    let value = sample
        .get(1)
        .and_then(Value::as_str)
        .ok_or_else(|| PrometheusError::Unexpected(format!("a sample {sample} without a value")))?;
    let value: f64 = value
        .parse()
        .map_err(|_| PrometheusError::Unexpected(format!("a value {value:?} that is not a number")))?;
    Ok(value.is_finite().then_some(value))
}

/// The Prometheus client and default address inputs use (`--prometheus-url`), given to
/// the scheduler with `provide`.
#[derive(Clone, Debug, Default)]
pub struct PrometheusDefaults {
    /// Used when a Canary's spec names no URL.
    pub url: Option<String>,
    /// The client.
    pub client: Prometheus,
}

/// The default query: the share of the canary Ingress' requests (as ingress-nginx
/// counts them) that did not fail with a 5xx, in percent, over `{interval}`.
pub const DEFAULT_QUERY: &str = r#"sum(rate(nginx_ingress_controller_requests{namespace="{namespace}",ingress="{ingress}",status!~"5.."}[{interval}])) / sum(rate(nginx_ingress_controller_requests{namespace="{namespace}",ingress="{ingress}"}[{interval}])) * 100"#;

/// The canary's success rate in percent, None while there is no data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SuccessRate(pub Option<f64>);

impl Inputs<Canary> for SuccessRate {
    fn watch(watches: &mut Watches<Canary>) {
        watches.related(|canary: &Canary, config: &ConfigMap| {
            canary.spec.metrics.config_map.as_ref().map(|c| c.name.as_str()) == config.metadata.name.as_deref()
        });
    }

    async fn read(canary: &Canary, source: &InputSource) -> Result<Self, Error> {
        let metrics = &canary.spec.metrics;
        if let Some(config) = &metrics.config_map {
            let stored = source
                .store::<ConfigMap>()
                .get(canary.namespace().as_deref(), &config.name);
            let rate = stored
                .as_ref()
                .and_then(|c| c.data.as_ref()?.get(&canary.name_any()).cloned())
                .and_then(|v| v.trim().parse::<f64>().ok());
            return Ok(Self(rate));
        }
        let Some(prometheus) = &metrics.prometheus else {
            return Err(Error::terminal(
                "spec.metrics names no source: set prometheus or configMap",
            ));
        };
        let defaults = source.get::<PrometheusDefaults>().cloned().unwrap_or_default();
        let url = prometheus.url.clone().or(defaults.url).ok_or_else(|| {
            Error::terminal(
                "no Prometheus address: set spec.metrics.prometheus.url, or run the operator with --prometheus-url",
            )
        })?;
        let query = prometheus
            .query
            .as_deref()
            .unwrap_or(DEFAULT_QUERY)
            .replace("{namespace}", &canary.namespace().unwrap_or_default())
            .replace("{ingress}", &canary_ingress_name(canary))
            .replace("{interval}", &canary.spec.analysis_period);
        Ok(Self(defaults.client.query(&url, &query).await?))
    }
}
