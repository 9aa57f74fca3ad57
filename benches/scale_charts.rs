//! The scale bench's cost curves as SVG charts: per-object cost against the number of
//! objects, log-log, one line per implementation (ours drawn thicker, beside each
//! anchor), one chart per quantity.
//!
//! It draws whatever series a [`Curves`](crate::Curves) recorded: a series goes to the
//! chart of the first [`CHARTS`] prefix its name starts with (its legend is the rest of
//! the name), and a series no prefix claims gets a chart of its own, so a series added
//! to the bench is drawn without a change here. Charts go to the directory
//! `SCALE_BENCH_CHARTS` names (`benches/charts` to refresh the committed ones), else
//! to `scale-charts` under the target directory; each written file is printed as
//! `chart <path>`. A chart that cannot be drawn is reported and skipped: the figures
//! are in the lines already printed.

use std::path::{Path, PathBuf};

use plotters::prelude::*;

/// One chart: the series whose names start with `prefix`.
struct Chart {
    prefix: &'static str,
    file: &'static str,
    title: &'static str,
    unit: &'static str,
}

/// The charts, most specific prefix first.
const CHARTS: &[Chart] = &[
    Chart {
        prefix: "cache-bytes-",
        file: "cache-bytes",
        title: "Informer: bytes held per Pod",
        unit: "bytes per Pod",
    },
    Chart {
        prefix: "cache-sync-",
        file: "cache-sync",
        title: "Informer: time to sync, per Pod",
        unit: "µs per Pod",
    },
    Chart {
        prefix: "envtest-memory",
        file: "envtest-memory",
        title: "Embedded server: bytes held per stored Pod",
        unit: "bytes per Pod",
    },
    Chart {
        prefix: "envtest-list",
        file: "envtest-list",
        title: "Embedded server: paginated list, per Pod",
        unit: "µs per Pod",
    },
    Chart {
        prefix: "envtest-watch",
        file: "envtest-watch",
        title: "Embedded server: streaming-list watch, per Pod",
        unit: "µs per Pod",
    },
    Chart {
        prefix: "workqueue-W1-",
        file: "workqueue-w1",
        title: "Workqueue W1 (dedup churn, 4 adds per key): time per add",
        unit: "ns per add",
    },
    Chart {
        prefix: "workqueue-W2-",
        file: "workqueue-w2",
        title: "Workqueue W2 (unique keys): time per add",
        unit: "ns per add",
    },
    Chart {
        prefix: "reconcile-server-write-after-",
        file: "reconcile-server-write",
        title: "Server write after a cold start",
        unit: "µs per write",
    },
    Chart {
        prefix: "reconcile-",
        file: "reconcile",
        title: "Reconcile cold start until every WebApp is Ready",
        unit: "µs per WebApp",
    },
];

/// A series as drawn: its legend and its points (objects, cost per object).
type Line<'a> = (&'a str, &'a [(usize, f64)]);

/// Draws every chart `series` has points for.
pub fn draw(series: &[(String, Vec<(usize, f64)>)]) {
    let directory = std::env::var_os("SCALE_BENCH_CHARTS").map_or_else(
        || Path::new(env!("CARGO_TARGET_TMPDIR")).join("scale-charts"),
        PathBuf::from,
    );
    if let Err(error) = std::fs::create_dir_all(&directory) {
        println!("charts skipped: {}: {error}", directory.display());
        return;
    }
    let mut unclaimed: Vec<&(String, Vec<(usize, f64)>)> = series.iter().collect();
    let mut charts: Vec<(String, String, String, Vec<Line<'_>>)> = Vec::new();
    for chart in CHARTS {
        let (claimed, rest): (Vec<_>, Vec<_>) = unclaimed
            .into_iter()
            .partition(|(name, _)| name.starts_with(chart.prefix));
        unclaimed = rest;
        if !claimed.is_empty() {
            let lines = claimed
                .into_iter()
                .map(|(name, points)| (legend(name, chart.prefix), points.as_slice()))
                .collect();
            charts.push((
                chart.file.to_owned(),
                chart.title.to_owned(),
                chart.unit.to_owned(),
                lines,
            ));
        }
    }
    for (name, points) in unclaimed {
        charts.push((
            name.clone(),
            name.clone(),
            "per object".to_owned(),
            vec![(name.as_str(), points.as_slice())],
        ));
    }
    for (file, title, unit, lines) in charts {
        let path = directory.join(format!("{file}.svg"));
        match plot(&path, &title, &unit, &lines) {
            Ok(()) => println!("chart {}", path.display()),
            Err(error) => println!("chart {} skipped: {error}", path.display()),
        }
    }
}

/// The legend of series `name` on the chart of `prefix`: the implementation.
fn legend<'a>(name: &'a str, prefix: &str) -> &'a str {
    match name.strip_prefix(prefix) {
        Some(rest) if !rest.is_empty() => rest,
        _ => name,
    }
}

/// One log-log chart of `lines` into `path`.
fn plot(path: &Path, title: &str, unit: &str, lines: &[Line<'_>]) -> Result<(), String> {
    let points = || {
        lines
            .iter()
            .flat_map(|(_, points)| points.iter())
            .filter(|(_, y)| *y > 0.0)
    };
    let bounds = |values: Vec<f64>| {
        let low = values.iter().copied().fold(f64::INFINITY, f64::min);
        let high = values.iter().copied().fold(0.0, f64::max);
        (low / 1.5, high * 1.5)
    };
    let (x_low, x_high) = bounds(points().map(|(x, _)| crate::support::as_f64(*x)).collect());
    let (y_low, y_high) = bounds(points().map(|(_, y)| *y).collect());
    if !x_low.is_finite() || !y_low.is_finite() {
        return Err("no positive figures".to_owned());
    }
    let root = SVGBackend::new(path, (900, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(75)
        .build_cartesian_2d((x_low..x_high).log_scale(), (y_low..y_high).log_scale())
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("objects (N), log scale")
        .y_desc(format!("{unit}, log scale"))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(|e| e.to_string())?;
    for (index, (name, points)) in lines.iter().enumerate() {
        let color = Palette99::pick(index).to_rgba();
        let width = if name.starts_with("wheelhouse") { 3 } else { 1 };
        let style = color.stroke_width(width);
        let points: Vec<(f64, f64)> = points
            .iter()
            .filter(|(_, y)| *y > 0.0)
            .map(|(x, y)| (crate::support::as_f64(*x), *y))
            .collect();
        chart
            .draw_series(LineSeries::new(points.clone(), style))
            .map_err(|e| e.to_string())?
            .label(*name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        chart
            .draw_series(points.into_iter().map(|point| Circle::new(point, 3, color.filled())))
            .map_err(|e| e.to_string())?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}
