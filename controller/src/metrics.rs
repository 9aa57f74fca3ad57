//! controller-runtime's controller metrics, with its names and labels.

use prometheus::{
    Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts, Registry,
};

/// The metric families of every controller; register once per registry.
///
/// ```
/// let registry = prometheus::Registry::new();
/// let metrics = wheelhouse_controller::ControllerMetrics::register(&registry).unwrap();
/// # let _ = metrics;
/// ```
#[derive(Clone, Debug)]
pub struct ControllerMetrics {
    total: IntCounterVec,
    errors: IntCounterVec,
    terminal_errors: IntCounterVec,
    time: HistogramVec,
    panics: IntCounterVec,
    active_workers: IntGaugeVec,
    max_concurrent: IntGaugeVec,
}

impl ControllerMetrics {
    /// Registers `controller_runtime_reconcile_total{controller,result}`,
    /// `controller_runtime_reconcile_errors_total`,
    /// `controller_runtime_terminal_reconcile_errors_total`,
    /// `controller_runtime_reconcile_time_seconds`,
    /// `controller_runtime_reconcile_panics_total`, `controller_runtime_active_workers`
    /// and `controller_runtime_max_concurrent_reconciles`, each labelled `controller`.
    pub fn register(registry: &Registry) -> prometheus::Result<Self> {
        let counter = |name: &str, help: &str, labels: &[&str]| IntCounterVec::new(Opts::new(name, help), labels);
        let gauge = |name: &str, help: &str| IntGaugeVec::new(Opts::new(name, help), &["controller"]);
        let buckets = vec![
            0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25,
            1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0,
            60.0,
        ];
        let metrics = Self {
            total: counter(
                "controller_runtime_reconcile_total",
                "Total number of reconciliations per controller",
                &["controller", "result"],
            )?,
            errors: counter(
                "controller_runtime_reconcile_errors_total",
                "Total number of reconciliation errors per controller",
                &["controller"],
            )?,
            terminal_errors: counter(
                "controller_runtime_terminal_reconcile_errors_total",
                "Total number of terminal reconciliation errors per controller",
                &["controller"],
            )?,
            time: HistogramVec::new(
                HistogramOpts::new(
                    "controller_runtime_reconcile_time_seconds",
                    "Length of time per reconciliation per controller",
                )
                .buckets(buckets),
                &["controller"],
            )?,
            panics: counter(
                "controller_runtime_reconcile_panics_total",
                "Total number of reconciliation panics per controller",
                &["controller"],
            )?,
            active_workers: gauge(
                "controller_runtime_active_workers",
                "Number of currently used workers per controller",
            )?,
            max_concurrent: gauge(
                "controller_runtime_max_concurrent_reconciles",
                "Maximum number of concurrent reconciles per controller",
            )?,
        };
        registry.register(Box::new(metrics.total.clone()))?;
        registry.register(Box::new(metrics.errors.clone()))?;
        registry.register(Box::new(metrics.terminal_errors.clone()))?;
        registry.register(Box::new(metrics.time.clone()))?;
        registry.register(Box::new(metrics.panics.clone()))?;
        registry.register(Box::new(metrics.active_workers.clone()))?;
        registry.register(Box::new(metrics.max_concurrent.clone()))?;
        Ok(metrics)
    }

    pub(crate) fn for_controller(&self, controller: &str) -> Series {
        let result = |r: &str| self.total.with_label_values(&[controller, r]);
        Series {
            success: result("success"),
            error: result("error"),
            requeue: result("requeue"),
            requeue_after: result("requeue_after"),
            errors: self.errors.with_label_values(&[controller]),
            terminal_errors: self.terminal_errors.with_label_values(&[controller]),
            time: self.time.with_label_values(&[controller]),
            panics: self.panics.with_label_values(&[controller]),
            active_workers: self.active_workers.with_label_values(&[controller]),
            max_concurrent: self.max_concurrent.with_label_values(&[controller]),
        }
    }
}

/// One controller's series, resolved once.
#[derive(Clone, Debug)]
pub(crate) struct Series {
    pub success: IntCounter,
    pub error: IntCounter,
    /// `Action::requeue()`, controller-runtime's `Requeue: true`.
    pub requeue: IntCounter,
    pub requeue_after: IntCounter,
    pub errors: IntCounter,
    pub terminal_errors: IntCounter,
    pub time: Histogram,
    pub panics: IntCounter,
    pub active_workers: IntGauge,
    pub max_concurrent: IntGauge,
}
