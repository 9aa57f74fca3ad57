//! The text kube-apiserver's printers make of times, label selectors and lists:
//! `duration.HumanDuration` (`k8s.io/apimachinery/pkg/util/duration`), the printers'
//! `translateTimestampSince`, `labels.FormatLabels` and `metav1.FormatLabelSelector`.

use serde_json::Value;

/// An object's age, or any timestamp's: `translateTimestampSince` (`<unknown>` when unset).
pub(super) fn since(timestamp: &Value) -> String {
    match timestamp.as_str().and_then(|t| t.parse::<jiff::Timestamp>().ok()) {
        Some(at) => human_duration(jiff::Timestamp::now().duration_since(at).as_secs()),
        None => "<unknown>".to_owned(),
    }
}

/// Seconds between two timestamps, when both are set.
pub(super) fn seconds_between(from: &Value, to: &Value) -> Option<i64> {
    let parse = |t: &Value| t.as_str().and_then(|t| t.parse::<jiff::Timestamp>().ok());
    Some(parse(to)?.duration_since(parse(from)?).as_secs())
}

/// `duration.HumanDuration`: `45s`, `5m3s`, `17m`, `3h10m`, `20h`, `3d4h`, `400d`, `2y5d`.
pub(super) fn human_duration(seconds: i64) -> String {
    // Go allows two seconds of clock skew before calling a time invalid.
    if seconds < -1 {
        return "<invalid>".to_owned();
    }
    if seconds < 0 {
        return "0s".to_owned();
    }
    if seconds < 60 * 2 {
        return format!("{seconds}s");
    }
    let minutes = seconds / 60;
    if minutes < 10 {
        let s = seconds % 60;
        return if s == 0 {
            format!("{minutes}m")
        } else {
            format!("{minutes}m{s}s")
        };
    }
    if minutes < 60 * 3 {
        return format!("{minutes}m");
    }
    let hours = minutes / 60;
    if hours < 8 {
        let m = minutes % 60;
        return if m == 0 {
            format!("{hours}h")
        } else {
            format!("{hours}h{m}m")
        };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    if hours < 24 * 8 {
        let h = hours % 24;
        return if h == 0 {
            format!("{}d", hours / 24)
        } else {
            format!("{}d{h}h", hours / 24)
        };
    }
    if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    }
    if hours < 24 * 365 * 8 {
        let days = (hours / 24) % 365;
        return if days == 0 {
            format!("{}y", hours / 24 / 365)
        } else {
            format!("{}y{days}d", hours / 24 / 365)
        };
    }
    format!("{}y", hours / 24 / 365)
}

/// `labels.FormatLabels`: `a=b,c=d` sorted by key, `<none>` when empty.
pub(super) fn format_labels(labels: &Value) -> String {
    let text = labels
        .as_object()
        .map(|labels| {
            let mut pairs: Vec<String> = labels
                .iter()
                .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
                .collect();
            pairs.sort();
            pairs.join(",")
        })
        .unwrap_or_default();
    if text.is_empty() { "<none>".to_owned() } else { text }
}

pub(super) use crate::core::label_selector_string as selector_string;

/// `metav1.FormatLabelSelector`: the selector's text, `<none>` when it selects by nothing.
pub(super) fn format_label_selector(selector: &Value) -> String {
    let text = selector_string(selector);
    if text.is_empty() { "<none>".to_owned() } else { text }
}

/// The strings of a JSON array's items at `field`, joined with `separator`.
pub(super) fn join_field(items: &Value, field: &str, separator: &str) -> String {
    items
        .as_array()
        .into_iter()
        .flatten()
        .map(|item| item[field].as_str().unwrap_or_default())
        .collect::<Vec<_>>()
        .join(separator)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn human_durations_as_go_writes_them() {
        for (seconds, text) in [
            (-5, "<invalid>"),
            (-1, "0s"),
            (0, "0s"),
            (119, "119s"),
            (120, "2m"),
            (303, "5m3s"),
            (600, "10m"),
            (10_799, "179m"),
            (10_800, "3h"),
            (11_400, "3h10m"),
            (72_000, "20h"),
            (187_200, "2d4h"),
            (172_800, "2d"),
            (691_200, "8d"),
            (63_072_000, "2y"),
            (63_936_000, "2y10d"),
            (315_360_000, "10y"),
        ] {
            assert_eq!(human_duration(seconds), text, "{seconds}");
        }
    }

    #[test]
    fn selectors_as_go_writes_them() {
        let selector = json!({"matchLabels": {"b": "2", "a": "1"}, "matchExpressions": [
            {"key": "c", "operator": "In", "values": ["y", "x"]},
            {"key": "d", "operator": "DoesNotExist"},
            {"key": "e", "operator": "Exists"},
            {"key": "f", "operator": "NotIn", "values": ["z"]},
        ]});
        assert_eq!(format_label_selector(&selector), "a=1,b=2,c in (x,y),!d,e,f notin (z)");
        assert_eq!(format_label_selector(&json!({})), "<none>");
        assert_eq!(selector_string(&json!({})), "");
        assert_eq!(format_labels(&json!({"z": "1", "a": "2"})), "a=2,z=1");
        assert_eq!(format_labels(&Value::Null), "<none>");
    }
}
