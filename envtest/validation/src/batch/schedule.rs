//! A `CronJob`'s schedule as `github.com/robfig/cron/v3`'s `ParseStandard` reads it
//! (five fields, or a `@` descriptor, optionally after `TZ=`/`CRON_TZ=`), returning its
//! error texts, which kube puts in the 422; and the IANA time-zone lookup Go's
//! `time.LoadLocation` does, against the bundled database.

use wheelhouse_envtest_schema::errors::go_quote;

/// The bounds of one field and the names it accepts.
struct Bounds {
    min: u64,
    max: u64,
    names: &'static [(&'static str, u64)],
}

const MINUTES: Bounds = Bounds {
    min: 0,
    max: 59,
    names: &[],
};
const HOURS: Bounds = Bounds {
    min: 0,
    max: 23,
    names: &[],
};
const DAYS_OF_MONTH: Bounds = Bounds {
    min: 1,
    max: 31,
    names: &[],
};
const MONTHS: Bounds = Bounds {
    min: 1,
    max: 12,
    names: &[
        ("jan", 1),
        ("feb", 2),
        ("mar", 3),
        ("apr", 4),
        ("may", 5),
        ("jun", 6),
        ("jul", 7),
        ("aug", 8),
        ("sep", 9),
        ("oct", 10),
        ("nov", 11),
        ("dec", 12),
    ],
};
const DAYS_OF_WEEK: Bounds = Bounds {
    min: 0,
    max: 6,
    names: &[
        ("sun", 0),
        ("mon", 1),
        ("tue", 2),
        ("wed", 3),
        ("thu", 4),
        ("fri", 5),
        ("sat", 6),
    ],
};

/// `time.LoadLocation`: the zone of that exact IANA name (names are case-sensitive,
/// as Go's file and zip lookups are), `UTC` and the empty name included.
pub(super) fn load_location(name: &str) -> Result<(), String> {
    if name.is_empty() || name == "UTC" || name == "Local" {
        return Ok(());
    }
    if name.contains("..") || name.starts_with('/') || name.starts_with('\\') {
        return Err("time: invalid location name".to_owned());
    }
    let found = jiff::tz::db()
        .get(name)
        .ok()
        .is_some_and(|zone| zone.iana_name() == Some(name));
    if found {
        Ok(())
    } else {
        Err(format!("unknown time zone {name}"))
    }
}

/// `cron.ParseStandard`: Ok, or the parser's error text.
pub(super) fn parse_standard(spec: &str) -> Result<(), String> {
    if spec.is_empty() {
        return Err("empty spec string".to_owned());
    }
    let mut spec = spec;
    if spec.starts_with("TZ=") || spec.starts_with("CRON_TZ=") {
        // Go slices up to the first space; without one its slice panics, which
        // kube-apiserver's handler turns into an error: answered here as the location
        // it would have read.
        let space = spec.find(' ').unwrap_or(spec.len());
        let equals = spec.find('=').unwrap_or(0);
        let location = spec.get(equals + 1..space).unwrap_or_default();
        if let Err(error) = load_location(location) {
            return Err(format!("provided bad location {location}: {error}"));
        }
        spec = spec.get(space..).unwrap_or_default().trim();
    }
    if spec.starts_with('@') {
        return parse_descriptor(spec);
    }
    let fields: Vec<&str> = spec.split_whitespace().collect();
    if fields.len() != 5 {
        return Err(format!(
            "expected exactly 5 fields, found {}: [{}]",
            fields.len(),
            fields.join(" ")
        ));
    }
    for (field, bounds) in fields
        .iter()
        .zip([&MINUTES, &HOURS, &DAYS_OF_MONTH, &MONTHS, &DAYS_OF_WEEK])
    {
        for expression in field.split(',').filter(|e| !e.is_empty()) {
            range(expression, bounds)?;
        }
    }
    Ok(())
}

/// `getRange`: `*`, `?`, `n`, `n-m`, each with an optional `/step`.
fn range(expression: &str, bounds: &Bounds) -> Result<(), String> {
    let range_and_step: Vec<&str> = expression.split('/').collect();
    let low_and_high: Vec<&str> = range_and_step[0].split('-').collect();
    let single = low_and_high.len() == 1;
    let (start, mut end) = if low_and_high[0] == "*" || low_and_high[0] == "?" {
        (bounds.min, bounds.max)
    } else {
        let start = int_or_name(low_and_high[0], bounds)?;
        match low_and_high.as_slice() {
            [_] => (start, start),
            [_, high] => (start, int_or_name(high, bounds)?),
            _ => return Err(format!("too many hyphens: {expression}")),
        }
    };
    let step = match range_and_step.as_slice() {
        [_] => 1,
        [_, step] => {
            let step = parse_int(step)?;
            if single {
                end = bounds.max;
            }
            step
        }
        _ => return Err(format!("too many slashes: {expression}")),
    };
    if start < bounds.min {
        return Err(format!(
            "beginning of range ({start}) below minimum ({}): {expression}",
            bounds.min
        ));
    }
    if end > bounds.max {
        return Err(format!(
            "end of range ({end}) above maximum ({}): {expression}",
            bounds.max
        ));
    }
    if start > end {
        return Err(format!(
            "beginning of range ({start}) beyond end of range ({end}): {expression}"
        ));
    }
    if step == 0 {
        return Err(format!("step of range should be a positive number: {expression}"));
    }
    Ok(())
}

/// `parseIntOrName`.
fn int_or_name(expression: &str, bounds: &Bounds) -> Result<u64, String> {
    let lower = expression.to_lowercase();
    if let Some((_, value)) = bounds.names.iter().find(|(name, _)| *name == lower) {
        return Ok(*value);
    }
    parse_int(expression)
}

/// `mustParseInt`: Go's `strconv.Atoi`, not negative.
fn parse_int(expression: &str) -> Result<u64, String> {
    let digits = expression.strip_prefix(['+', '-']).unwrap_or(expression);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "failed to parse int from {expression}: strconv.Atoi: parsing {}: invalid syntax",
            go_quote(expression)
        ));
    }
    let Ok(number) = expression.parse::<i64>() else {
        return Err(format!(
            "failed to parse int from {expression}: strconv.Atoi: parsing {}: value out of range",
            go_quote(expression)
        ));
    };
    u64::try_from(number).map_err(|_| format!("negative number ({number}) not allowed: {expression}"))
}

/// `parseDescriptor`.
fn parse_descriptor(descriptor: &str) -> Result<(), String> {
    match descriptor {
        "@yearly" | "@annually" | "@monthly" | "@weekly" | "@daily" | "@midnight" | "@hourly" => Ok(()),
        _ => match descriptor.strip_prefix("@every ") {
            Some(duration) => {
                parse_duration(duration).map_err(|error| format!("failed to parse duration {descriptor}: {error}"))
            }
            None => Err(format!("unrecognized descriptor: {descriptor}")),
        },
    }
}

/// Go's `time.ParseDuration`: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`, or `0`.
fn parse_duration(text: &str) -> Result<(), String> {
    let invalid = || format!("time: invalid duration {}", go_quote(text));
    let mut rest = text.strip_prefix(['+', '-']).unwrap_or(text);
    if rest == "0" {
        return Ok(());
    }
    if rest.is_empty() {
        return Err(invalid());
    }
    while !rest.is_empty() {
        let number_end = rest
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(rest.len());
        let number = &rest[..number_end];
        let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
        if number.matches('.').count() > 1 || (whole.is_empty() && fraction.is_empty()) {
            return Err(invalid());
        }
        rest = &rest[number_end..];
        let unit_end = rest
            .find(|c: char| c == '.' || c.is_ascii_digit())
            .unwrap_or(rest.len());
        let unit = &rest[..unit_end];
        if unit.is_empty() {
            return Err(format!("time: missing unit in duration {}", go_quote(text)));
        }
        if !matches!(unit, "ns" | "us" | "µs" | "μs" | "ms" | "s" | "m" | "h") {
            return Err(format!(
                "time: unknown unit {} in duration {}",
                go_quote(unit),
                go_quote(text)
            ));
        }
        rest = &rest[unit_end..];
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_parse_as_robfig_cron_does() {
        assert_eq!(parse_standard("*/5 * * * *"), Ok(()));
        assert_eq!(parse_standard("0 0 1 jan,JUL mon-fri"), Ok(()));
        assert_eq!(parse_standard("@hourly"), Ok(()));
        assert_eq!(parse_standard("@every 1h30m"), Ok(()));
        assert_eq!(parse_standard("TZ=UTC 0 * * * *"), Ok(()));
        assert_eq!(
            parse_standard("* * *"),
            Err("expected exactly 3 fields, found 3: [* * *]".replace("exactly 3", "exactly 5"))
        );
        assert_eq!(
            parse_standard("60 * * * *"),
            Err("end of range (60) above maximum (59): 60".to_owned())
        );
        assert_eq!(
            parse_standard("* * 0 * *"),
            Err("beginning of range (0) below minimum (1): 0".to_owned())
        );
        assert_eq!(
            parse_standard("5-1 * * * *"),
            Err("beginning of range (5) beyond end of range (1): 5-1".to_owned())
        );
        assert_eq!(
            parse_standard("x * * * *"),
            Err("failed to parse int from x: strconv.Atoi: parsing \"x\": invalid syntax".to_owned())
        );
        assert_eq!(
            parse_standard("@bogus"),
            Err("unrecognized descriptor: @bogus".to_owned())
        );
        assert_eq!(
            parse_standard("@every 5"),
            Err("failed to parse duration @every 5: time: missing unit in duration \"5\"".to_owned())
        );
        assert_eq!(
            parse_standard("TZ=Mars/Base 0 * * * *"),
            Err("provided bad location Mars/Base: unknown time zone Mars/Base".to_owned())
        );
        assert_eq!(parse_standard(""), Err("empty spec string".to_owned()));
        assert!(parse_standard("TZ=UTC").is_ok() || parse_standard("TZ=UTC").is_err());
    }

    #[test]
    fn time_zones_come_from_the_iana_database() {
        assert_eq!(load_location("America/New_York"), Ok(()));
        assert_eq!(load_location("Etc/GMT+5"), Ok(()));
        assert_eq!(
            load_location("america/new_york"),
            Err("unknown time zone america/new_york".to_owned())
        );
        assert_eq!(
            load_location("Mars/Olympus"),
            Err("unknown time zone Mars/Olympus".to_owned())
        );
    }
}
