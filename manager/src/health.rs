//! Named health checks behind `/healthz` and `/readyz`, answered as kube-apiserver's
//! and controller-runtime's `healthz` package answer (`[+]name ok`, `[-]name failed:
//! reason`, `?verbose`, `?exclude=name`, `/healthz/<name>`).

use std::fmt::Write as _;
use std::sync::Arc;

use parking_lot::RwLock;

/// A check: `Ok` when healthy, else why not.
pub type Check = Arc<dyn Fn() -> Result<(), String> + Send + Sync>;

/// The checks of one endpoint, in the order they were added.
#[derive(Default, Clone)]
pub(crate) struct Checks {
    checks: Arc<RwLock<Vec<(String, Check, Weight)>>>,
}

/// Whether a failing check fails its endpoint.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Weight {
    /// A failure fails the endpoint.
    Counts,
    /// A failure is listed (`[+]name degraded: reason`) but the endpoint still passes:
    /// something to see in `?verbose`, not a reason to take the replica out (one
    /// unreachable member of a fleet).
    Notice,
}

/// What an endpoint answers.
pub(crate) struct Answer {
    pub healthy: bool,
    pub body: String,
}

impl Checks {
    pub(crate) fn add(&self, name: impl Into<String>, check: Check) {
        self.insert(name.into(), check, Weight::Counts);
    }

    /// Adds a check whose failure is reported but never fails the endpoint.
    pub(crate) fn add_notice(&self, name: impl Into<String>, check: Check) {
        self.insert(name.into(), check, Weight::Notice);
    }

    fn insert(&self, name: String, check: Check, weight: Weight) {
        let mut checks = self.checks.write();
        checks.retain(|(existing, _, _)| *existing != name);
        checks.push((name, check, weight));
    }

    /// Runs every check (or only `only`), skipping `excluded`. The body lists each
    /// check when `verbose` or when one failed, as Kubernetes' healthz does.
    pub(crate) fn answer(
        &self,
        endpoint: &str,
        only: Option<&str>,
        verbose: bool,
        excluded: &[&str],
    ) -> Option<Answer> {
        let checks = self.checks.read();
        if let Some(name) = only {
            let (_, check, weight) = checks.iter().find(|(n, _, _)| n == name)?;
            return Some(match check() {
                Ok(()) => Answer {
                    healthy: true,
                    body: "ok".into(),
                },
                Err(why) if *weight == Weight::Notice => Answer {
                    healthy: true,
                    body: format!("degraded: {why}\n"),
                },
                Err(why) => Answer {
                    healthy: false,
                    body: format!("internal server error: {why}\n"),
                },
            });
        }
        let mut lines = String::new();
        let mut healthy = true;
        for (name, check, weight) in checks.iter() {
            if excluded.contains(&name.as_str()) {
                let _ = writeln!(lines, "[+]{name} excluded: ok");
                continue;
            }
            match check() {
                Ok(()) => {
                    let _ = writeln!(lines, "[+]{name} ok");
                }
                Err(why) if *weight == Weight::Notice => {
                    let _ = writeln!(lines, "[+]{name} degraded: {why}");
                }
                Err(why) => {
                    healthy = false;
                    let _ = writeln!(lines, "[-]{name} failed: {why}");
                }
            }
        }
        let body = match (healthy, verbose) {
            (true, false) => "ok".to_owned(),
            (true, true) => format!("{lines}{endpoint} check passed\n"),
            (false, _) => format!("{lines}{endpoint} check failed\n"),
        };
        Some(Answer { healthy, body })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checks() -> Checks {
        let checks = Checks::default();
        checks.add("ping", Arc::new(|| Ok(())));
        checks.add("informers", Arc::new(|| Err("2 informers not synced".into())));
        checks
    }

    #[test]
    fn a_failing_check_is_named_with_its_reason() {
        let answer = checks().answer("readyz", None, false, &[]).expect("an answer");
        assert!(!answer.healthy);
        assert_eq!(
            answer.body,
            "[+]ping ok\n[-]informers failed: 2 informers not synced\nreadyz check failed\n"
        );
    }

    #[test]
    fn excluded_checks_do_not_fail_the_endpoint() {
        let answer = checks()
            .answer("readyz", None, true, &["informers"])
            .expect("an answer");
        assert!(answer.healthy);
        assert_eq!(
            answer.body,
            "[+]ping ok\n[+]informers excluded: ok\nreadyz check passed\n"
        );
        let quiet = checks()
            .answer("readyz", None, false, &["informers"])
            .expect("an answer");
        assert_eq!(quiet.body, "ok");
    }

    #[test]
    fn one_check_can_be_asked_for_by_name() {
        let checks = checks();
        assert!(
            checks
                .answer("healthz", Some("ping"), false, &[])
                .expect("ping")
                .healthy
        );
        assert!(
            !checks
                .answer("healthz", Some("informers"), false, &[])
                .expect("informers")
                .healthy
        );
        assert!(checks.answer("healthz", Some("nope"), false, &[]).is_none());
    }

    #[test]
    fn a_failing_notice_is_listed_without_failing_the_endpoint() {
        let checks = Checks::default();
        checks.add("ping", Arc::new(|| Ok(())));
        checks.add_notice(
            "fleet-webapp",
            Arc::new(|| Err("1 of 3 clusters unreachable: eu-2".into())),
        );
        let answer = checks.answer("readyz", None, true, &[]).expect("an answer");
        assert!(answer.healthy);
        assert_eq!(
            answer.body,
            "[+]ping ok\n[+]fleet-webapp degraded: 1 of 3 clusters unreachable: eu-2\nreadyz check passed\n"
        );
        assert_eq!(checks.answer("readyz", None, false, &[]).expect("an answer").body, "ok");
        let one = checks
            .answer("readyz", Some("fleet-webapp"), false, &[])
            .expect("by name");
        assert!(one.healthy);
        assert_eq!(one.body, "degraded: 1 of 3 clusters unreachable: eu-2\n");
    }

    #[test]
    fn adding_a_check_again_replaces_it() {
        let checks = checks();
        checks.add("informers", Arc::new(|| Ok(())));
        assert!(checks.answer("readyz", None, false, &[]).expect("an answer").healthy);
    }
}
