//! [`Outage`]: the log of a run of failures of one activity that retries on its own
//! (a watch, an elector's attempts): one line when the run starts, a summary every
//! [`SUMMARY_EVERY`] while it lasts, one line when it ends. An API server that refuses
//! connections fails every request at once; each retry logging its error made hundreds
//! of lines a second, which hid everything else and cost the disk.

use std::fmt::Display;
use std::time::{Duration, Instant};

use parking_lot::Mutex;

/// How often a run of failures is summed up while it lasts.
pub const SUMMARY_EVERY: Duration = Duration::from_secs(30);

/// One activity's run of failures, logged on each change of state and summed up
/// periodically in between. Cheap; share it behind an `Arc` or own it.
///
/// ```
/// use wheelhouse_cache::Outage;
///
/// let watch = Outage::new("watch of configmaps");
/// assert!(watch.failed(&"connection refused"), "the first failure of a run is logged");
/// assert!(!watch.failed(&"connection refused"), "the next ones are counted");
/// assert_eq!(watch.failures(), 2);
/// assert!(watch.succeeded(), "the end of the run is logged");
/// assert!(!watch.succeeded(), "a success outside a run is not");
/// ```
#[derive(Debug)]
pub struct Outage {
    what: String,
    run: Mutex<Option<Run>>,
}

#[derive(Debug)]
struct Run {
    since: Instant,
    failures: u64,
    /// Failures since the last line, and when that was.
    unreported: u64,
    reported: Instant,
}

impl Outage {
    /// The log of `what` (named in every line, as the `activity` field).
    pub fn new(what: impl Into<String>) -> Self {
        Self {
            what: what.into(),
            run: Mutex::new(None),
        }
    }

    /// Records a failure: a WARN line when it starts a run, a summary when
    /// [`SUMMARY_EVERY`] passed since the last line, nothing otherwise. True when it
    /// logged.
    pub fn failed(&self, error: &dyn Display) -> bool {
        let now = Instant::now();
        let mut run = self.run.lock();
        let Some(current) = run.as_mut() else {
            *run = Some(Run {
                since: now,
                failures: 1,
                unreported: 0,
                reported: now,
            });
            tracing::warn!(activity = %self.what, %error, "failing; retrying quietly (a summary every 30 s, a line when it succeeds again)");
            return true;
        };
        current.failures += 1;
        current.unreported += 1;
        if now.duration_since(current.reported) < SUMMARY_EVERY {
            return false;
        }
        tracing::warn!(
            activity = %self.what,
            %error,
            failing_for = ?now.duration_since(current.since),
            failures = current.failures,
            since_last_line = current.unreported,
            "still failing"
        );
        current.unreported = 0;
        current.reported = now;
        true
    }

    /// Records a success: an INFO line when it ends a run. True when it logged.
    pub fn succeeded(&self) -> bool {
        let Some(run) = self.run.lock().take() else {
            return false;
        };
        tracing::info!(
            activity = %self.what,
            failed_for = ?run.since.elapsed(),
            failures = run.failures,
            "succeeding again"
        );
        true
    }

    /// The failures of the current run (0 outside one).
    pub fn failures(&self) -> u64 {
        self.run.lock().as_ref().map_or(0, |run| run.failures)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_run_logs_its_start_a_summary_per_period_and_its_end() {
        let outage = Outage::new("test");
        let logged = (0..1000).filter(|_| outage.failed(&"refused")).count();
        assert_eq!(logged, 1, "a thousand failures in a moment are one line");
        // As if the period passed since the last line.
        if let Some(run) = outage.run.lock().as_mut() {
            run.reported = run.reported.checked_sub(SUMMARY_EVERY).expect("up for 30 s");
        }
        assert!(outage.failed(&"refused"), "a summary once the period passed");
        assert!(!outage.failed(&"refused"));
        assert_eq!(outage.failures(), 1002);
        assert!(outage.succeeded());
        assert_eq!(outage.failures(), 0);
        assert!(outage.failed(&"refused"), "a new run starts with a line");
    }
}
