//! [`WebhookMetrics`]: controller-runtime's webhook metric families, and the handles
//! each webhook keeps so that a request touches no label table.

use std::time::Duration;

use prometheus::{
    Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts, Registry,
};

/// The metric families of webhook servers, named as controller-runtime names them:
/// `controller_runtime_webhook_requests_total{webhook,code}`,
/// `controller_runtime_webhook_latency_seconds{webhook}`,
/// `controller_runtime_webhook_requests_in_flight{webhook}` and
/// `controller_runtime_webhook_panics_total`. The `webhook` label is the path; `code`
/// the HTTP status of the answer (a denial is a 200 whose review says no). Requests to
/// paths no webhook serves are not counted, so a scanner cannot grow the label set.
///
/// Registered once per registry; under a [`Manager`](wheelhouse_manager::Manager)
/// every webhook server shares them through `Manager::shared_metrics`.
#[derive(Clone, Debug)]
pub struct WebhookMetrics {
    requests: IntCounterVec,
    latency: HistogramVec,
    in_flight: IntGaugeVec,
    panics: IntCounter,
}

impl WebhookMetrics {
    /// Registers the families in `registry`.
    pub fn register(registry: &Registry) -> prometheus::Result<Self> {
        let requests = IntCounterVec::new(
            Opts::new(
                "controller_runtime_webhook_requests_total",
                "Total number of admission requests by HTTP status code.",
            ),
            &["webhook", "code"],
        )?;
        let latency = HistogramVec::new(
            HistogramOpts::new(
                "controller_runtime_webhook_latency_seconds",
                "Histogram of the latency of processing admission requests",
            ),
            &["webhook"],
        )?;
        let in_flight = IntGaugeVec::new(
            Opts::new(
                "controller_runtime_webhook_requests_in_flight",
                "Current number of admission requests being served.",
            ),
            &["webhook"],
        )?;
        let panics = IntCounter::new(
            "controller_runtime_webhook_panics_total",
            "Total number of webhook panics",
        )?;
        registry.register(Box::new(requests.clone()))?;
        registry.register(Box::new(latency.clone()))?;
        registry.register(Box::new(in_flight.clone()))?;
        registry.register(Box::new(panics.clone()))?;
        Ok(Self {
            requests,
            latency,
            in_flight,
            panics,
        })
    }

    /// The handles of the webhook at `path`.
    pub(crate) fn for_webhook(&self, path: &str) -> RouteMetrics {
        RouteMetrics {
            path: path.to_owned(),
            requests: self.requests.clone(),
            ok: self.requests.with_label_values(&[path, "200"]),
            latency: self.latency.with_label_values(&[path]),
            in_flight: self.in_flight.with_label_values(&[path]),
            panics: self.panics.clone(),
        }
    }
}

/// One webhook's metrics; the common answer (200) has its counter ready.
#[derive(Clone, Debug)]
pub(crate) struct RouteMetrics {
    path: String,
    requests: IntCounterVec,
    ok: IntCounter,
    latency: Histogram,
    in_flight: IntGauge,
    panics: IntCounter,
}

impl RouteMetrics {
    /// Counts a request as in flight until the guard drops.
    pub fn in_flight(&self) -> InFlight {
        self.in_flight.inc();
        InFlight(self.in_flight.clone())
    }

    pub fn answered(&self, code: u16, took: Duration) {
        if code == 200 {
            self.ok.inc();
        } else {
            self.requests
                .with_label_values(&[self.path.as_str(), code.to_string().as_str()])
                .inc();
        }
        self.latency.observe(took.as_secs_f64());
    }

    pub fn panicked(&self) {
        self.panics.inc();
    }
}

/// Decrements the in-flight gauge when the request ends, however it ends.
pub(crate) struct InFlight(IntGauge);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.dec();
    }
}
