//! The prometheus metrics carry client-go's names and labels and count what happens.

use std::time::Duration;

use prometheus::Registry;
use prometheus::proto::MetricFamily;
use wheelhouse_workqueue::{PrometheusMetrics, WorkQueue};

const NAMES: [&str; 7] = [
    "workqueue_adds_total",
    "workqueue_depth",
    "workqueue_longest_running_processor_seconds",
    "workqueue_queue_duration_seconds",
    "workqueue_retries_total",
    "workqueue_unfinished_work_seconds",
    "workqueue_work_duration_seconds",
];

/// A family is gathered only while it has at least one series.
fn family<'a>(families: &'a [MetricFamily], name: &str) -> Option<&'a MetricFamily> {
    families.iter().find(|f| f.name() == name)
}

/// The value of `name` for the queue called `queue`; histograms give their sample count.
fn value(registry: &Registry, name: &str, queue: &str) -> Option<f64> {
    let families = registry.gather();
    let metric = family(&families, name)?.get_metric().iter().find(|m| {
        let labels: Vec<_> = m.get_label().iter().map(|l| (l.name(), l.value())).collect();
        labels == [("controller", queue), ("name", queue)]
    })?;
    #[expect(clippy::cast_precision_loss, reason = "test counts are small")]
    let sample_count = metric.get_histogram().get_sample_count() as f64;
    Some(
        if name.ends_with("_seconds") && !name.contains("unfinished") && !name.contains("longest") {
            sample_count
        } else if name.ends_with("_total") {
            metric.get_counter().get_value()
        } else {
            metric.get_gauge().get_value()
        },
    )
}

#[tokio::test]
async fn queue_events_are_counted_under_client_go_names() {
    let registry = Registry::new();
    let metrics = PrometheusMetrics::register(&registry).unwrap();
    let queue = WorkQueue::builder().name("webapp").metrics(&metrics).build();

    queue.add("a");
    queue.add("a"); // a duplicate is not an add
    queue.add("b");
    assert_eq!(value(&registry, "workqueue_adds_total", "webapp"), Some(2.0));
    assert_eq!(value(&registry, "workqueue_depth", "webapp"), Some(2.0));

    let key = queue.get().await.unwrap();
    assert_eq!(value(&registry, "workqueue_depth", "webapp"), Some(1.0));
    assert_eq!(
        value(&registry, "workqueue_queue_duration_seconds", "webapp"),
        Some(1.0)
    );
    tokio::time::sleep(Duration::from_millis(20)).await;
    let unfinished = value(&registry, "workqueue_unfinished_work_seconds", "webapp").unwrap();
    let longest = value(&registry, "workqueue_longest_running_processor_seconds", "webapp").unwrap();
    assert!(
        unfinished >= 0.02 && longest >= 0.02,
        "unfinished {unfinished}, longest {longest}"
    );

    queue.done(&key);
    assert_eq!(value(&registry, "workqueue_work_duration_seconds", "webapp"), Some(1.0));
    assert_eq!(
        value(&registry, "workqueue_unfinished_work_seconds", "webapp"),
        Some(0.0)
    );

    queue.add_rate_limited("c");
    queue.add_after("d", Duration::from_secs(1));
    assert_eq!(value(&registry, "workqueue_retries_total", "webapp"), Some(2.0));

    let families = registry.gather();
    for name in NAMES {
        let metric = &family(&families, name)
            .unwrap_or_else(|| panic!("{name} is missing"))
            .get_metric()[0];
        let labels: Vec<_> = metric
            .get_label()
            .iter()
            .map(prometheus::proto::LabelPair::name)
            .collect();
        assert_eq!(labels, ["controller", "name"], "{name}");
    }
}

#[tokio::test]
async fn a_dropped_queue_leaves_no_series_behind() {
    let registry = Registry::new();
    let metrics = PrometheusMetrics::register(&registry).unwrap();
    let first = WorkQueue::builder().name("twice").metrics(&metrics).build();
    let second = WorkQueue::builder().name("twice").metrics(&metrics).build();
    first.add(1);
    second.add(1);
    assert_eq!(
        value(&registry, "workqueue_adds_total", "twice"),
        Some(2.0),
        "same name, same series"
    );
    drop(first);
    assert!(
        value(&registry, "workqueue_depth", "twice").is_some(),
        "still in use by the second"
    );
    drop(second);
    assert_eq!(value(&registry, "workqueue_adds_total", "twice"), None);
    assert_eq!(value(&registry, "workqueue_unfinished_work_seconds", "twice"), None);
}

#[test]
fn registering_twice_in_one_registry_is_an_error() {
    let registry = Registry::new();
    PrometheusMetrics::register(&registry).unwrap();
    assert!(PrometheusMetrics::register(&registry).is_err());
}
