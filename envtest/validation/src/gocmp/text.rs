//! go-cmp's text tree (`report_text.go`): lines, wrappers and lists, laid out on one
//! line where they fit and expanded with tabs and aligned keys and comments where
//! they do not.

use std::fmt;

/// A `diffMode`: 0 (unknown), `' '` (identical), `'-'` (removed), `'+'` (inserted).
/// Go combines them with a bitwise or, and so does this.
pub(super) type Mode = u8;
pub(super) const UNKNOWN: Mode = 0;
pub(super) const IDENTICAL: Mode = b' ';
pub(super) const REMOVED: Mode = b'-';
pub(super) const INSERTED: Mode = b'+';

/// Beyond this many bytes a removed or inserted list is laid out over lines.
const MAX_COLUMN_LENGTH: usize = 80;

/// A `textNode`.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Text {
    Line(String),
    Wrap(Box<Wrap>),
    List(Vec<Record>),
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Wrap {
    pub(super) prefix: String,
    pub(super) value: Text,
    pub(super) suffix: String,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Record {
    pub(super) diff: Mode,
    pub(super) key: String,
    pub(super) value: Text,
    pub(super) elide_comma: bool,
    pub(super) comment: Option<Comment>,
}

/// A record's trailing comment.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Comment {
    Stats(DiffStats),
    Text(String),
}

impl fmt::Display for Comment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Comment::Stats(stats) => stats.fmt(f),
            Comment::Text(text) => f.write_str(text),
        }
    }
}

pub(super) fn nil() -> Text {
    Text::Line("nil".to_owned())
}

pub(super) fn ellipsis() -> Text {
    Text::Line("...".to_owned())
}

pub(super) fn wrap(prefix: &str, value: Text, suffix: &str) -> Text {
    Text::Wrap(Box::new(Wrap {
        prefix: prefix.to_owned(),
        value,
        suffix: suffix.to_owned(),
    }))
}

impl Record {
    pub(super) fn new(key: String, value: Text) -> Self {
        Record {
            diff: UNKNOWN,
            key,
            value,
            elide_comma: false,
            comment: None,
        }
    }

    pub(super) fn diff(diff: Mode, key: String, value: Text) -> Self {
        Record {
            diff,
            ..Record::new(key, value)
        }
    }
}

/// `textList.AppendEllipsis`.
pub(super) fn append_ellipsis(list: &mut Vec<Record>, stats: DiffStats) {
    let has_stats = !stats.is_zero();
    match list.last_mut() {
        Some(tail) if tail.value == ellipsis() => {
            if has_stats {
                tail.comment = Some(match tail.comment.take() {
                    Some(Comment::Stats(before)) => Comment::Stats(before.append(&stats)),
                    _ => Comment::Stats(stats),
                });
            }
        }
        _ => list.push(Record {
            elide_comma: true,
            comment: has_stats.then_some(Comment::Stats(stats)),
            ..Record::new(String::new(), ellipsis())
        }),
    }
}

impl Text {
    /// `Len`: the bytes the node takes on one line.
    pub(super) fn len(&self) -> usize {
        match self {
            Text::Line(line) => line.len(),
            Text::Wrap(wrap) => wrap.prefix.len() + wrap.value.len() + wrap.suffix.len(),
            Text::List(records) => {
                let mut n = 0;
                for (i, record) in records.iter().enumerate() {
                    n += record.key.len();
                    if !record.key.is_empty() {
                        n += 2;
                    }
                    n += record.value.len();
                    if i + 1 < records.len() {
                        n += 2;
                    }
                }
                n
            }
        }
    }

    /// `String` of the report's root: compacted, then expanded from no indent.
    pub(super) fn render(self) -> String {
        let mut compact = String::new();
        let node = self.compact(&mut compact, UNKNOWN);
        let mut out = String::new();
        indent(&mut out, UNKNOWN, 0);
        node.expand(&mut out, UNKNOWN, 0);
        out.push('\n');
        out
    }

    /// `formatCompactTo`: the node written on one line into `b`, and the node with
    /// every part that fits one line turned into a line.
    fn compact(self, b: &mut String, d: Mode) -> Text {
        let start = b.len();
        match self {
            Text::Line(line) => {
                b.push_str(&line);
                Text::Line(line)
            }
            Text::Wrap(mut wrap) => {
                b.push_str(&wrap.prefix);
                wrap.value = wrap.value.compact(b, d);
                b.push_str(&wrap.suffix);
                if matches!(wrap.value, Text::Line(_)) {
                    Text::Line(b[start..].to_owned())
                } else {
                    Text::Wrap(wrap)
                }
            }
            Text::List(mut records) => {
                let mut multi_line = false;
                let count = records.len();
                for (i, record) in records.iter_mut().enumerate() {
                    if record.diff == INSERTED || record.diff == REMOVED {
                        multi_line = true;
                    }
                    b.push_str(&record.key);
                    if !record.key.is_empty() {
                        b.push_str(": ");
                    }
                    let value = std::mem::replace(&mut record.value, Text::List(Vec::new()));
                    record.value = value.compact(b, d | record.diff);
                    if !matches!(record.value, Text::Line(_)) || record.comment.is_some() {
                        multi_line = true;
                    }
                    if i + 1 < count {
                        b.push_str(", ");
                    }
                }
                if (d == INSERTED || d == REMOVED) && b.len() - start > MAX_COLUMN_LENGTH {
                    multi_line = true;
                }
                if multi_line {
                    Text::List(records)
                } else {
                    Text::Line(b[start..].to_owned())
                }
            }
        }
    }

    /// `formatExpandedTo`.
    fn expand(&self, b: &mut String, d: Mode, n: usize) {
        match self {
            Text::Line(line) => b.push_str(line),
            Text::Wrap(wrap) => {
                b.push_str(&wrap.prefix);
                wrap.value.expand(b, d, n);
                b.push_str(&wrap.suffix);
            }
            Text::List(records) => expand_list(records, b, d, n),
        }
    }
}

fn expand_list(records: &[Record], b: &mut String, d: Mode, n: usize) {
    let is_line = |record: &Record| matches!(record.value, Text::Line(_));
    let line_runes = |record: &Record| match &record.value {
        Text::Line(line) => line.chars().count(),
        _ => 0,
    };
    let key_pads = align(
        records,
        |record| record.key.is_empty() || !is_line(record),
        |record| record.key.chars().count(),
    );
    let value_pads = align(
        records,
        |record| !is_line(record) || record.value == ellipsis() || record.comment.is_none(),
        line_runes,
    );
    let simple = records
        .iter()
        .all(|record| record.diff == UNKNOWN && record.key.is_empty() && is_line(record) && record.comment.is_none());
    // Go decides on the last record it looked at, stopping at the first that is not
    // simple: the same as all of them being simple, or the list being empty.
    if simple && !records.is_empty() {
        let mut batch = String::new();
        let emit = |b: &mut String, batch: &mut String| {
            if !batch.is_empty() {
                b.push('\n');
                indent(b, d, n + 1);
                b.push_str(batch.trim_end_matches(' '));
                batch.clear();
            }
        };
        for record in records {
            let Text::Line(line) = &record.value else { continue };
            if batch.len() + line.len() + 2 > MAX_COLUMN_LENGTH {
                emit(b, &mut batch);
            }
            batch.push_str(line);
            batch.push_str(", ");
        }
        emit(b, &mut batch);
        b.push('\n');
        indent(b, d, n);
        return;
    }
    for (i, record) in records.iter().enumerate() {
        b.push('\n');
        indent(b, d | record.diff, n + 1);
        if !record.key.is_empty() {
            b.push_str(&record.key);
            b.push_str(": ");
        }
        b.extend(std::iter::repeat_n(' ', key_pads[i]));
        record.value.expand(b, d | record.diff, n + 1);
        if !record.elide_comma {
            b.push(',');
        }
        b.extend(std::iter::repeat_n(' ', value_pads[i]));
        if let Some(comment) = &record.comment {
            b.push_str(" // ");
            b.push_str(&comment.to_string());
        }
    }
    b.push('\n');
    indent(b, d, n);
}

/// `alignLens`: the padding that lines up each run of records not skipped.
fn align(records: &[Record], skip: impl Fn(&Record) -> bool, len: impl Fn(&Record) -> usize) -> Vec<usize> {
    let mut pads = vec![0; records.len()];
    let (mut start, mut end, mut max) = (0, 0, 0);
    for (i, record) in records.iter().enumerate() {
        if skip(record) {
            for j in start..end.min(records.len()) {
                pads[j] = max - len(&records[j]);
            }
            (start, end, max) = (i + 1, i + 1, 0);
        } else {
            max = max.max(len(record));
            end = i + 1;
        }
    }
    for j in start..end.min(records.len()) {
        pads[j] = max - len(&records[j]);
    }
    pads
}

/// `appendIndent`: the diff marker and `n` tabs. A mode Go's switch does not name
/// (two modes or'ed together) gets no marker, as there.
fn indent(b: &mut String, d: Mode, n: usize) {
    match d {
        UNKNOWN | IDENTICAL => b.push_str("  "),
        REMOVED => b.push_str("- "),
        INSERTED => b.push_str("+ "),
        _ => {}
    }
    b.extend(std::iter::repeat_n('\t', n));
}

/// `diffStats`: what a group of records or a run of elided ones holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct DiffStats {
    pub(super) name: &'static str,
    pub(super) identical: usize,
    pub(super) removed: usize,
    pub(super) inserted: usize,
    pub(super) modified: usize,
}

impl DiffStats {
    pub(super) fn named(name: &'static str) -> Self {
        DiffStats {
            name,
            ..DiffStats::default()
        }
    }

    pub(super) fn is_zero(&self) -> bool {
        self.identical + self.removed + self.inserted + self.modified == 0
    }

    pub(super) fn num_diff(&self) -> usize {
        self.removed + self.inserted + self.modified
    }

    pub(super) fn append(&self, other: &DiffStats) -> DiffStats {
        DiffStats {
            name: self.name,
            identical: self.identical + other.identical,
            removed: self.removed + other.removed,
            inserted: self.inserted + other.inserted,
            modified: self.modified + other.modified,
        }
    }
}

impl fmt::Display for DiffStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counts = [
            (self.identical, "identical"),
            (self.removed, "removed"),
            (self.inserted, "inserted"),
            (self.modified, "modified"),
        ];
        let parts: Vec<String> = counts
            .iter()
            .filter(|(count, _)| *count > 0)
            .map(|(count, label)| format!("{count} {label}"))
            .collect();
        let sum: usize = counts.iter().map(|(count, _)| count).sum();
        let mut name = self.name.to_owned();
        if sum > 1 {
            name.push('s');
            if let Some(stem) = name.strip_suffix("ys") {
                name = format!("{stem}ies");
            }
        }
        match parts.len() {
            0 => Ok(()),
            1 | 2 => write!(f, "{} {name}", parts.join(" and ")),
            n => write!(f, "{}, and {} {name}", parts[..n - 1].join(", "), parts[n - 1]),
        }
    }
}
