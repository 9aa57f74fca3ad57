//! Index lists of Indexed Jobs (`"1,3-5,7"`): `validateIndexesFormat`,
//! `parseIndexInterval` and `validateFailedIndexesNotOverlapCompleted`, with their
//! error texts, which kube puts in its messages.

use wheelhouse_envtest_schema::errors::go_quote;

/// Go's `strconv.Atoi`: an optional sign and decimal digits within `int64`.
fn atoi(text: &str) -> Option<i64> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// `parseIndexInterval`: `x` or `x-y`, below `completions`, increasing.
pub(super) fn parse_index_interval(interval: &str, completions: i64) -> Result<(i64, i64), String> {
    let limits: Vec<&str> = interval.split('-').collect();
    if limits.len() > 2 {
        return Err(format!(
            "the fragment {} violates the requirement that an index interval can have at most two parts separated by '-'",
            go_quote(interval)
        ));
    }
    let parse = |text: &str| -> Result<i64, String> {
        let value =
            atoi(text).ok_or_else(|| format!("cannot convert string to integer for index: {}", go_quote(text)))?;
        if value >= completions {
            return Err(format!("too large index: {}", go_quote(text)));
        }
        Ok(value)
    };
    let first = parse(limits[0])?;
    let Some(second) = limits.get(1) else {
        return Ok((first, first));
    };
    let last = parse(second)?;
    if first >= last {
        return Err(format!("non-increasing order, previous: {first}, current: {last}"));
    }
    Ok((first, last))
}

/// `validateIndexesFormat`: the number of indexes a list names, or why it is
/// malformed.
pub(super) fn validate_indexes_format(indexes: &str, completions: i64) -> Result<i64, String> {
    if indexes.is_empty() {
        return Ok(0);
    }
    let mut last: Option<i64> = None;
    let mut total: i64 = 0;
    for interval in indexes.split(',') {
        let (first, end) = parse_index_interval(interval, completions)?;
        if let Some(previous) = last
            && previous >= first
        {
            return Err(format!("non-increasing order, previous: {previous}, current: {first}"));
        }
        total = total.saturating_add(end - first + 1);
        last = Some(end);
    }
    Ok(total)
}

/// `validateFailedIndexesNotOverlapCompleted`: the first index both lists name.
pub(super) fn failed_overlaps_completed(completed: &str, failed: &str, completions: i64) -> Result<(), String> {
    if completed.is_empty() || failed.is_empty() {
        return Ok(());
    }
    let completed: Vec<&str> = completed.split(',').collect();
    let failed: Vec<&str> = failed.split(',').collect();
    let (mut completed_at, mut failed_at) = (0, 0);
    let mut c = parse_index_interval(completed[0], completions);
    let mut f = parse_index_interval(failed[0], completions);
    while completed_at < completed.len() && failed_at < failed.len() {
        match (&c, &f) {
            (Err(_), _) => {
                completed_at += 1;
                if let Some(next) = completed.get(completed_at) {
                    c = parse_index_interval(next, completions);
                }
            }
            (_, Err(_)) => {
                failed_at += 1;
                if let Some(next) = failed.get(failed_at) {
                    f = parse_index_interval(next, completions);
                }
            }
            (Ok((cx, cy)), Ok((fx, fy))) => {
                if cx <= fy && fx <= cy {
                    return Err(format!(
                        "failedIndexes and completedIndexes overlap at index: {}",
                        (*cx).max(*fx)
                    ));
                }
                if cx <= fx {
                    completed_at += 1;
                    if let Some(next) = completed.get(completed_at) {
                        c = parse_index_interval(next, completions);
                    }
                } else {
                    failed_at += 1;
                    if let Some(next) = failed.get(failed_at) {
                        f = parse_index_interval(next, completions);
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_lists_count_and_explain() {
        assert_eq!(validate_indexes_format("0,2-4", 5), Ok(4));
        assert_eq!(validate_indexes_format("", 0), Ok(0));
        assert_eq!(
            validate_indexes_format("3,1", 5),
            Err("non-increasing order, previous: 3, current: 1".to_owned())
        );
        assert_eq!(
            validate_indexes_format("9", 5),
            Err("too large index: \"9\"".to_owned())
        );
        assert_eq!(
            validate_indexes_format("a", 5),
            Err("cannot convert string to integer for index: \"a\"".to_owned())
        );
        assert!(
            validate_indexes_format("1-2-3", 5)
                .unwrap_err()
                .contains("at most two parts")
        );
        assert_eq!(
            failed_overlaps_completed("0-2", "2", 5),
            Err("failedIndexes and completedIndexes overlap at index: 2".to_owned())
        );
        assert_eq!(failed_overlaps_completed("0,x", "2", 5), Ok(()));
    }
}
