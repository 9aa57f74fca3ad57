//! go-cmp's default reporter (`report_compare.go`, `report_reflect.go`,
//! `report_slices.go`): the value tree turned into text, with the verbosity limits
//! that elide deep or long values and the context records kept around each
//! difference.

use std::fmt::Write as _;

use super::compare::{Edit, Key, Node, Similarity, difference};
use super::text::{
    self, Comment, DiffStats, IDENTICAL, INSERTED, Mode, REMOVED, Record, Text, UNKNOWN, append_ellipsis, ellipsis,
    wrap,
};
use super::types::{Kind, Stringer, Ty};
use super::value::Val;

/// Equal records kept on each side of a difference.
const CONTEXT_RECORDS: usize = 2;
const MAX_VERBOSITY_PRESET: usize = 6;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TypeMode {
    Emit,
    Elide,
    Auto,
}

/// The kind of a node's parent, as far as the reporter asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Parent {
    None,
    Struct,
    Slice,
    Map,
    Ptr,
}

/// `formatOptions`.
#[derive(Debug, Clone, Copy)]
struct Options {
    diff_mode: Mode,
    type_mode: TypeMode,
    avoid_stringer: bool,
    verbosity_level: i32,
    limit_verbosity: bool,
}

/// The report of a tree that holds a difference.
pub(super) fn report(root: &Node<'_>) -> String {
    let options = Options {
        diff_mode: UNKNOWN,
        type_mode: TypeMode::Emit,
        avoid_stringer: false,
        verbosity_level: 0,
        limit_verbosity: false,
    };
    options
        .format_diff(root, Parent::None)
        .unwrap_or_else(text::nil)
        .render()
}

fn parent_of(ty: &Ty) -> Parent {
    match ty.kind {
        Kind::Struct(_) => Parent::Struct,
        Kind::Slice(_) => Parent::Slice,
        Kind::Map(..) => Parent::Map,
        Kind::Ptr(_) => Parent::Ptr,
        _ => Parent::None,
    }
}

impl Options {
    fn with_diff_mode(mut self, mode: Mode) -> Self {
        self.diff_mode = mode;
        self
    }

    fn with_type_mode(mut self, mode: TypeMode) -> Self {
        self.type_mode = mode;
        self
    }

    fn with_verbosity(mut self, level: i32) -> Self {
        self.verbosity_level = level;
        self.limit_verbosity = true;
        self
    }

    fn verbosity(self) -> u32 {
        u32::try_from(self.verbosity_level.clamp(0, 16)).unwrap_or_default()
    }

    /// `verbosityPreset`: a wider view for values that printed alike.
    fn preset(mut self, i: usize) -> Self {
        self.verbosity_level = i32::try_from(self.verbosity()).unwrap_or_default() + 2 * i32::try_from(i).unwrap_or(8);
        if i > 0 {
            self.avoid_stringer = true;
        }
        self
    }

    /// `FormatDiff`: `None` for a missing value shown alone (Go's nil node).
    fn format_diff(self, v: &Node<'_>, parent: Parent) -> Option<Text> {
        let opts = if self.diff_mode == IDENTICAL {
            self.with_verbosity(1)
        } else if self.verbosity() < 3 {
            self.with_verbosity(3)
        } else {
            self
        };
        if opts.can_format_diff_slice(v) {
            return Some(opts.format_diff_slice(v));
        }
        if v.max_depth == 0 {
            match opts.diff_mode {
                UNKNOWN | IDENTICAL => {
                    if v.num_diff == 0 {
                        let before = opts.format_value(v.x, v.ty, parent);
                        let after = opts.format_value(v.y, v.ty, parent);
                        return match (before, after) {
                            (Some(x), Some(y)) => Some(if x.len() < y.len() { x } else { y }),
                            (x, y) => y.or(x),
                        };
                    }
                    let elide = opts.with_type_mode(TypeMode::Elide);
                    let mut before = elide.format_value(v.x, v.ty, parent);
                    let mut after = elide.format_value(v.y, v.ty, parent);
                    let mut i = 0;
                    while i <= MAX_VERBOSITY_PRESET
                        && let (Some(x), Some(y)) = (&before, &after)
                        && x == y
                    {
                        let wider = opts.preset(i).with_type_mode(TypeMode::Elide);
                        before = wider.format_value(v.x, v.ty, parent);
                        after = wider.format_value(v.y, v.ty, parent);
                        i += 1;
                    }
                    let mut list = Vec::new();
                    if let Some(x) = before {
                        list.push(Record::diff(REMOVED, String::new(), x));
                    }
                    if let Some(y) = after {
                        list.push(Record::diff(INSERTED, String::new(), y));
                    }
                    return Some(opts.with_type_mode(TypeMode::Emit).format_type(v.ty, Text::List(list)));
                }
                REMOVED => return opts.format_value(v.x, v.ty, parent),
                _ => return opts.format_value(v.y, v.ty, parent),
            }
        }
        Some(match &v.ty.kind {
            Kind::Struct(_) | Kind::Slice(_) | Kind::Map(..) => {
                let out = opts.format_diff_list(&v.records, v.ty);
                opts.format_type(v.ty, out)
            }
            Kind::Ptr(_) => {
                let out = v
                    .value
                    .as_deref()
                    .and_then(|child| opts.format_diff(child, Parent::Ptr))
                    .unwrap_or_else(text::nil);
                wrap("&", out, "")
            }
            _ => text::nil(),
        })
    }

    /// `formatDiffList`: a struct's fields, a slice's elements or a map's entries,
    /// with runs of equal ones elided around the differences.
    #[expect(clippy::too_many_lines, reason = "one Go function, ported whole in its order")]
    fn format_diff_list(mut self, records: &[(Key<'_>, Node<'_>)], ty: &Ty) -> Text {
        let parent = parent_of(ty);
        let name = match parent {
            Parent::Struct => {
                self = self.with_type_mode(TypeMode::Auto);
                "field"
            }
            Parent::Map => {
                self = self.with_type_mode(TypeMode::Elide);
                "entry"
            }
            _ => {
                self = self.with_type_mode(TypeMode::Elide);
                "element"
            }
        };
        let key = |key: &Key<'_>| match key {
            Key::Field(name) => (*name).to_owned(),
            Key::Index => String::new(),
            Key::Map(value) => map_key(value, map_key_type(ty)),
        };
        let mut max_len = None;
        if self.limit_verbosity {
            max_len = Some(if self.diff_mode == IDENTICAL {
                ((1usize << self.verbosity()) >> 1) << 2
            } else {
                (1usize << self.verbosity()) << 1
            });
            self.verbosity_level -= 1;
        }
        if self.diff_mode != UNKNOWN {
            let mut list = Vec::new();
            let mut deferred_ellipsis = false;
            for (k, node) in records {
                if Some(list.len()) == max_len {
                    deferred_ellipsis = true;
                    break;
                }
                if parent == Parent::Struct {
                    let zero = |value: Option<&Val>| value.is_none_or(Val::is_zero);
                    let is_zero = match self.diff_mode {
                        IDENTICAL => zero(node.x) || zero(node.y),
                        REMOVED => zero(node.x),
                        _ => zero(node.y),
                    };
                    if is_zero {
                        continue;
                    }
                }
                if let Some(out) = self.format_diff(node, parent) {
                    list.push(Record::new(key(k), out));
                }
            }
            if deferred_ellipsis {
                append_ellipsis(&mut list, DiffStats::default());
            }
            return wrap("{", Text::List(list), "}");
        }

        let mut num_diffs = 0;
        let mut list = Vec::new();
        let groups = coalesce_adjacent_records(name, records);
        let mut max_group = DiffStats::named(name);
        let mut rest = records;
        let group_count = groups.len();
        for (i, mut group) in groups.into_iter().enumerate() {
            if max_len.is_some_and(|max| num_diffs >= max) {
                max_group = max_group.append(&group);
                continue;
            }
            if group.num_diff() == 0 {
                let num_equal = group.identical;
                let (lo, mut hi) = context(num_equal, CONTEXT_RECORDS, i == 0, i + 1 == group_count);
                if num_equal - (lo + hi) == 1 {
                    hi += 1;
                }
                let identical = self.with_diff_mode(IDENTICAL);
                for (k, node) in &rest[..lo] {
                    let out = identical.format_diff(node, parent).unwrap_or_else(text::nil);
                    list.push(Record::new(key(k), out));
                }
                if num_equal > lo + hi {
                    group.identical -= lo + hi;
                    append_ellipsis(&mut list, group);
                }
                for (k, node) in &rest[num_equal - hi..num_equal] {
                    let out = identical.format_diff(node, parent).unwrap_or_else(text::nil);
                    list.push(Record::new(key(k), out));
                }
                rest = &rest[num_equal..];
                continue;
            }
            let count = group.num_diff();
            for (k, node) in &rest[..count] {
                if self.can_format_diff_slice(node) {
                    list.push(Record::new(key(k), self.format_diff_slice(node)));
                } else if node.num_children == node.max_depth {
                    let removed = self.with_diff_mode(REMOVED);
                    let inserted = self.with_diff_mode(INSERTED);
                    let mut before = removed.format_diff(node, parent);
                    let mut after = inserted.format_diff(node, parent);
                    let mut i = 0;
                    while i <= MAX_VERBOSITY_PRESET
                        && let (Some(x), Some(y)) = (&before, &after)
                        && x == y
                    {
                        let wider = self.preset(i);
                        before = wider.with_diff_mode(REMOVED).format_diff(node, parent);
                        after = wider.with_diff_mode(INSERTED).format_diff(node, parent);
                        i += 1;
                    }
                    if let Some(x) = before {
                        list.push(Record::diff(REMOVED, key(k), x));
                    }
                    if let Some(y) = after {
                        list.push(Record::diff(INSERTED, key(k), y));
                    }
                } else {
                    let out = self.format_diff(node, parent).unwrap_or_else(text::nil);
                    list.push(Record::new(key(k), out));
                }
            }
            rest = &rest[count..];
            num_diffs += count;
        }
        if !max_group.is_zero() {
            append_ellipsis(&mut list, max_group);
        }
        wrap("{", Text::List(list), "}")
    }

    /// `FormatType`: the value's type printed before it where the mode asks.
    fn format_type(self, ty: &Ty, s: Text) -> Text {
        match self.type_mode {
            TypeMode::Auto => {
                if !matches!(ty.kind, Kind::Struct(_) | Kind::Slice(_) | Kind::Map(..))
                    || s == text::nil()
                    || self.diff_mode == IDENTICAL
                {
                    return s;
                }
            }
            TypeMode::Elide => return s,
            TypeMode::Emit => {}
        }
        let mut name = ty.type_string();
        if !ty.is_named() && matches!(ty.kind, Kind::Ptr(_)) {
            name = format!("({name})");
        }
        wrap(&name, wrap_parens(s), "")
    }

    /// `FormatValue`: one value printed whole, within the verbosity limits.
    fn format_value(mut self, v: Option<&Val>, ty: &Ty, _parent: Parent) -> Option<Text> {
        let v = v?;
        if !self.avoid_stringer
            && let Some(stringer) = ty.stringer
            && !v.is_nil()
        {
            return Some(self.format_string("s", &stringed(stringer, v)));
        }
        let mut skip_type = false;
        let out = match (&ty.kind, v) {
            (Kind::Bool, Val::Bool(value)) => Text::Line(value.to_string()),
            (Kind::Int, Val::Int(value)) => Text::Line(value.to_string()),
            (Kind::String, Val::Str(value)) => self.format_string("", value),
            (Kind::Struct(fields), Val::Struct(values)) => {
                let mut max_len = fields.len();
                if self.limit_verbosity {
                    max_len = ((1usize << self.verbosity()) >> 1) << 2;
                    self.verbosity_level -= 1;
                }
                let mut list = Vec::new();
                for (field, value) in fields.iter().zip(values) {
                    if value.is_zero() {
                        continue;
                    }
                    if list.len() == max_len {
                        append_ellipsis(&mut list, DiffStats::default());
                        break;
                    }
                    let s = self
                        .with_type_mode(TypeMode::Auto)
                        .format_value(Some(value), field.ty, Parent::Struct)
                        .unwrap_or_else(text::nil);
                    list.push(Record::new(field.name.to_owned(), s));
                }
                wrap("{", Text::List(list), "}")
            }
            (Kind::Slice(elem), Val::Slice(items)) => {
                let mut max_len = items.len();
                if self.limit_verbosity {
                    max_len = ((1usize << self.verbosity()) >> 1) << 2;
                    self.verbosity_level -= 1;
                }
                let mut list = Vec::new();
                for item in items {
                    if list.len() == max_len {
                        append_ellipsis(&mut list, DiffStats::default());
                        break;
                    }
                    let s = self
                        .with_type_mode(TypeMode::Elide)
                        .format_value(Some(item), elem, Parent::Slice)
                        .unwrap_or_else(text::nil);
                    list.push(Record::new(String::new(), s));
                }
                wrap("{", Text::List(list), "}")
            }
            (Kind::Map(key_ty, value_ty), Val::Map(entries)) => {
                let mut max_len = entries.len();
                if self.limit_verbosity {
                    max_len = ((1usize << self.verbosity()) >> 1) << 2;
                    self.verbosity_level -= 1;
                }
                let mut list = Vec::new();
                for (key, value) in entries {
                    if list.len() == max_len {
                        append_ellipsis(&mut list, DiffStats::default());
                        break;
                    }
                    let s = self
                        .with_type_mode(TypeMode::Elide)
                        .format_value(Some(value), value_ty, Parent::Map)
                        .unwrap_or_else(text::nil);
                    list.push(Record::new(map_key(key, key_ty), s));
                }
                wrap("{", Text::List(list), "}")
            }
            (Kind::Ptr(elem), Val::Ptr(inner)) => {
                if !ty.is_named() {
                    skip_type = true;
                }
                let out = self
                    .format_value(Some(inner), elem, Parent::Ptr)
                    .unwrap_or_else(text::nil);
                wrap("&", out, "")
            }
            _ => text::nil(),
        };
        Some(if skip_type { out } else { self.format_type(ty, out) })
    }

    /// `formatString`: quoted, cut at the verbosity's length, or as a triple-quoted
    /// block of lines in a removed or inserted value.
    fn format_string(self, prefix: &str, s: &str) -> Text {
        let (mut max_len, mut max_lines) = (s.len(), s.matches('\n').count() + 1);
        if self.limit_verbosity {
            max_len = (1usize << self.verbosity()) << 5;
            max_lines = (1usize << self.verbosity()) << 2;
        }
        let lines: Vec<&str> = s.strip_suffix('\n').unwrap_or(s).split('\n').collect();
        let mut triple = lines.len() >= 4 && (self.diff_mode == REMOVED || self.diff_mode == INSERTED);
        let mut trimmed = Vec::new();
        for line in &lines {
            if !triple {
                break;
            }
            let line = line.strip_suffix('\r').unwrap_or(line);
            let line = line.strip_prefix('\r').unwrap_or(line);
            triple = !line.strip_prefix(prefix).unwrap_or(line).starts_with("\"\"\"")
                && !line.starts_with("...")
                && line.chars().all(|c| is_print(c) || c == '\t')
                && line.len() <= max_len;
            trimmed.push(line);
        }
        if triple {
            let mut list = vec![Record {
                elide_comma: true,
                ..Record::diff(self.diff_mode, String::new(), Text::Line(format!("{prefix}\"\"\"")))
            }];
            for (i, line) in trimmed.iter().enumerate() {
                let elided = trimmed.len() - i;
                if i + 1 == max_lines && elided > 1 {
                    list.push(Record {
                        elide_comma: true,
                        comment: Some(Comment::Text(format!("{elided} elided lines"))),
                        ..Record::diff(self.diff_mode, String::new(), ellipsis())
                    });
                    break;
                }
                list.push(Record {
                    elide_comma: true,
                    ..Record::diff(self.diff_mode, String::new(), Text::Line((*line).to_owned()))
                });
            }
            list.push(Record {
                elide_comma: true,
                ..Record::diff(self.diff_mode, String::new(), Text::Line(format!("{prefix}\"\"\"")))
            });
            return wrap("(", Text::List(list), ")");
        }
        if s.len() > max_len + 3 {
            let cut = floor_boundary(s, max_len);
            return Text::Line(format!("{prefix}{}...", format_string(&s[..cut])));
        }
        Text::Line(format!("{prefix}{}", format_string(s)))
    }

    /// `CanFormatDiffSlice`: whether a differing string or slice of numbers is
    /// shown as an edit of its parts.
    fn can_format_diff_slice(self, v: &Node<'_>) -> bool {
        if self.diff_mode != UNKNOWN || v.num_diff == 0 || v.num_compared > 1 {
            return false;
        }
        let (Some(x), Some(y)) = (v.x, v.y) else { return false };
        if v.num_compared == 1 && v.ty.is_named() {
            return false;
        }
        let (nx, ny) = match (&v.ty.kind, x, y) {
            (Kind::String, Val::Str(x), Val::Str(y)) => (x.len(), y.len()),
            (Kind::Slice(elem), Val::Slice(x), Val::Slice(y)) if matches!(elem.kind, Kind::Int | Kind::Bool) => {
                if x.is_empty() || y.is_empty() {
                    return false;
                }
                if v.num_diff > v.num_same {
                    return true;
                }
                (x.len(), y.len())
            }
            _ => return false,
        };
        nx >= 32 && ny >= 32
    }

    /// `FormatDiffSlice`.
    fn format_diff_slice(self, v: &Node<'_>) -> Text {
        let mut opts = self;
        match (&v.ty.kind, v.x, v.y) {
            (Kind::String, Some(Val::Str(sx)), Some(Val::Str(sy))) => {
                let (total, valid, lines, max_line) = text_stats(&format!("{sx}{sy}"));
                let pure = valid == total;
                let mostly_text = float(valid) > (0.90 * float(total)).floor();
                let mut pure_lined = pure && lines >= 4 && max_line <= 1024;
                let (ssx, ssy): (Vec<&str>, Vec<&str>) = (sx.split('\n').collect(), sy.split('\n').collect());
                if pure_lined {
                    let by_lines = difference(ssx.len(), ssy.len(), |ix, iy| Similarity::of(ssx[ix] == ssy[iy]));
                    let (bx, by) = (sx.as_bytes(), sy.as_bytes());
                    let by_bytes = difference(bx.len(), by.len(), |ix, iy| Similarity::of(bx[ix] == by[iy]));
                    let efficiency = |edits: &[Edit]| {
                        float(edits.iter().filter(|edit| **edit != Edit::Identity).count()) / float(edits.len())
                    };
                    let quoted = float(format_quote(&format!("{sx}{sy}")).len());
                    let expansion = quoted / float(sx.len() + sy.len());
                    pure_lined = efficiency(&by_lines) < 4.0 * efficiency(&by_bytes) || expansion > 1.1;
                }
                if pure_lined {
                    let atoms_x: Vec<Atom<'_>> = ssx.iter().map(|line| Atom::Line(line)).collect();
                    let atoms_y: Vec<Atom<'_>> = ssy.iter().map(|line| Atom::Line(line)).collect();
                    let list = opts.format_diff_atoms(&atoms_x, &atoms_y, 1, "line", Style::Text);
                    if let Some(out) = triple_quoted(&list) {
                        return if v.ty.name == "string" {
                            out
                        } else {
                            opts.format_type(v.ty, out)
                        };
                    }
                    let out = wrap("{", Text::List(list), "}");
                    let out = wrap("strings.Join(", out, ", \"\\n\")");
                    return if v.ty.name == "string" {
                        out
                    } else {
                        opts.format_type(v.ty, out)
                    };
                }
                let (atoms_x, atoms_y): (Vec<Atom<'_>>, Vec<Atom<'_>>) = (
                    sx.bytes().map(Atom::Byte).collect(),
                    sy.bytes().map(Atom::Byte).collect(),
                );
                if mostly_text {
                    let list = opts.format_diff_atoms(&atoms_x, &atoms_y, 64, "byte", Style::Text);
                    let out = wrap("{", Text::List(list), "}");
                    let out = wrap("strings.Join(", out, ", \"\")");
                    return if v.ty.name == "string" {
                        out
                    } else {
                        opts.format_type(v.ty, out)
                    };
                }
                let list = opts.format_diff_atoms(&atoms_x, &atoms_y, 16, "byte", Style::Binary);
                opts = opts.with_type_mode(TypeMode::Emit);
                opts.format_type(v.ty, wrap("{", Text::List(list), "}"))
            }
            (Kind::Slice(elem), Some(Val::Slice(xs)), Some(Val::Slice(ys))) => {
                let atom = |value: &Val| match value {
                    Val::Bool(value) => Atom::Bool(*value),
                    Val::Int(value) => Atom::Int(*value),
                    _ => Atom::Int(0),
                };
                let (atoms_x, atoms_y): (Vec<Atom<'_>>, Vec<Atom<'_>>) =
                    (xs.iter().map(atom).collect(), ys.iter().map(atom).collect());
                let (chunk, name) = match (&elem.kind, elem.name) {
                    (Kind::Bool, _) => (16, "bool"),
                    (_, "byte" | "uint8") => (16, "uint8"),
                    (_, "int32") => (8, "int32"),
                    (_, "int") => (8, "int"),
                    _ => (8, "int64"),
                };
                let list = opts.format_diff_atoms(&atoms_x, &atoms_y, chunk, name, Style::Text);
                opts.format_type(v.ty, wrap("{", Text::List(list), "}"))
            }
            _ => text::nil(),
        }
    }

    /// `formatDiffSlice`: the edit script of two sequences, in chunks.
    fn format_diff_atoms(
        mut self,
        vx: &[Atom<'_>],
        vy: &[Atom<'_>],
        chunk: usize,
        name: &'static str,
        style: Style,
    ) -> Vec<Record> {
        let eq = |ix: usize, iy: usize| vx[ix] == vy[iy];
        let edits = difference(vx.len(), vy.len(), |ix, iy| Similarity::of(eq(ix, iy)));
        let mut list = Vec::new();
        let append_chunks = |list: &mut Vec<Record>, values: &[Atom<'_>], mode: Mode| {
            for part in values.chunks(chunk) {
                list.push(atom_record(part, mode, style));
            }
            values.len()
        };
        let mut max_len = None;
        if self.limit_verbosity {
            max_len = Some((1usize << self.verbosity()) << 2);
            self.verbosity_level -= 1;
        }
        let groups = coalesce_adjacent_edits(name, &edits);
        let groups = coalesce_intervening_identical(groups, chunk / 4);
        let groups = cleanup_surrounding_identical(groups, &eq);
        let mut max_group = DiffStats::named(name);
        let (mut rx, mut ry) = (vx, vy);
        let mut num_diffs = 0;
        let group_count = groups.len();
        for (i, mut group) in groups.into_iter().enumerate() {
            if max_len.is_some_and(|max| num_diffs >= max) {
                max_group = max_group.append(&group);
                continue;
            }
            if group.num_diff() == 0 {
                let num_equal = group.identical;
                let (lo, mut hi) = context(num_equal, chunk * CONTEXT_RECORDS, i == 0, i + 1 == group_count);
                if num_equal - (lo + hi) <= chunk {
                    hi = num_equal - lo;
                }
                append_chunks(&mut list, &rx[..lo], IDENTICAL);
                if num_equal > lo + hi {
                    group.identical -= lo + hi;
                    append_ellipsis(&mut list, group);
                }
                append_chunks(&mut list, &rx[num_equal - hi..num_equal], IDENTICAL);
                rx = &rx[num_equal..];
                ry = &ry[num_equal..];
                continue;
            }
            let before = list.len();
            let nx = append_chunks(
                &mut list,
                &rx[..group.identical + group.removed + group.modified],
                REMOVED,
            );
            rx = &rx[nx..];
            let ny = append_chunks(
                &mut list,
                &ry[..group.identical + group.inserted + group.modified],
                INSERTED,
            );
            ry = &ry[ny..];
            num_diffs += list.len() - before;
        }
        if !max_group.is_zero() {
            append_ellipsis(&mut list, max_group);
        }
        list
    }
}

/// One part of a sequence `formatDiffSlice` edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Atom<'a> {
    Byte(u8),
    Int(i64),
    Bool(bool),
    Line(&'a str),
}

/// How `formatDiffSlice` prints a chunk of bytes: as text, or as hex with the
/// printable ASCII beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Text,
    Binary,
}

fn atom_record(part: &[Atom<'_>], mode: Mode, style: Style) -> Record {
    if style == Style::Binary {
        let bytes: Vec<u8> = part
            .iter()
            .filter_map(|atom| match atom {
                Atom::Byte(byte) => Some(*byte),
                _ => None,
            })
            .collect();
        let hex: Vec<String> = bytes.iter().map(|byte| format!("0x{byte:02x}")).collect();
        let ascii: String = bytes
            .iter()
            .map(|&byte| {
                if (b' '..=b'~').contains(&byte) {
                    char::from(byte)
                } else {
                    '.'
                }
            })
            .collect();
        let marker = if mode == UNKNOWN { '\0' } else { char::from(mode) };
        return Record {
            comment: Some(Comment::Text(format!("{marker}|{ascii}|"))),
            ..Record::diff(mode, String::new(), Text::Line(hex.join(", ")))
        };
    }
    let line = match part.first() {
        Some(Atom::Line(line)) => format_string(line),
        Some(Atom::Byte(_)) => {
            let bytes: Vec<u8> = part
                .iter()
                .filter_map(|atom| match atom {
                    Atom::Byte(byte) => Some(*byte),
                    _ => None,
                })
                .collect();
            format_string(&String::from_utf8_lossy(&bytes))
        }
        _ => part
            .iter()
            .map(|atom| match atom {
                Atom::Int(value) => value.to_string(),
                Atom::Bool(value) => value.to_string(),
                _ => String::new(),
            })
            .collect::<Vec<_>>()
            .join(", "),
    };
    Record::diff(mode, String::new(), Text::Line(line))
}

/// The triple-quoted form of a lined string's edit, when every line allows it.
fn triple_quoted(list: &[Record]) -> Option<Text> {
    let mut out = vec![Record {
        elide_comma: true,
        ..Record::new(String::new(), Text::Line("\"\"\"".to_owned()))
    }];
    let mut removed_lines = std::collections::HashSet::new();
    let mut inserted_lines = std::collections::HashSet::new();
    for record in list {
        let mut record = record.clone();
        if record.value != ellipsis() {
            let Text::Line(quoted) = &record.value else { return None };
            let line = go_unquote(quoted);
            let line = line.strip_suffix('\r').unwrap_or(&line);
            let line = line.strip_prefix('\r').unwrap_or(line).to_owned();
            let norm: String = line.chars().filter(|c| !c.is_whitespace()).collect();
            let mut ok = !line.starts_with("\"\"\"")
                && !line.starts_with("...")
                && line.chars().all(|c| is_print(c) || c == '\t');
            match record.diff {
                REMOVED => {
                    ok = ok && !inserted_lines.contains(&norm);
                    removed_lines.insert(norm);
                }
                INSERTED => {
                    ok = ok && !removed_lines.contains(&norm);
                    inserted_lines.insert(norm);
                }
                _ => {}
            }
            if !ok {
                return None;
            }
            record.value = Text::Line(line);
            record.elide_comma = true;
        }
        if record.diff != REMOVED && record.diff != INSERTED {
            removed_lines.clear();
            inserted_lines.clear();
        }
        out.push(record);
    }
    if let Some(last) = out.last()
        && last.diff == IDENTICAL
        && last.value == Text::Line(String::new())
    {
        out.pop();
    }
    out.push(Record {
        elide_comma: true,
        ..Record::new(String::new(), Text::Line("\"\"\"".to_owned()))
    });
    Some(wrap("(", Text::List(out), ")"))
}

/// Undoes `formatString` on a line (quoted or raw).
fn go_unquote(quoted: &str) -> String {
    if let Some(raw) = quoted.strip_prefix('`').and_then(|rest| rest.strip_suffix('`')) {
        return raw.to_owned();
    }
    serde_json::from_str::<String>(quoted).unwrap_or_else(|_| quoted.trim_matches('"').to_owned())
}

fn text_stats(s: &str) -> (usize, usize, usize, usize) {
    let (mut total, mut valid, mut lines, mut last, mut max_line) = (0, 0, 0, 0, 0);
    for (i, c) in s.char_indices() {
        total += 1;
        if (is_print(c) || c.is_whitespace()) && c != char::REPLACEMENT_CHARACTER {
            valid += 1;
        }
        if c == '\n' {
            max_line = max_line.max(i - last);
            last = i + 1;
            lines += 1;
        }
    }
    (total, valid, lines, max_line)
}

/// How many of a run of `num_equal` equal records are shown before the run's
/// ellipsis and after it: up to `window` on each side that has a difference beside
/// it (none before the first group, none after the last).
fn context(num_equal: usize, window: usize, first: bool, last: bool) -> (usize, usize) {
    let lo = if first { 0 } else { window.min(num_equal) };
    let hi = if last { 0 } else { window.min(num_equal - lo) };
    (lo, hi)
}

fn coalesce_adjacent_records(name: &'static str, records: &[(Key<'_>, Node<'_>)]) -> Vec<DiffStats> {
    let mut groups: Vec<DiffStats> = Vec::new();
    let mut previous = 0;
    for (_, node) in records {
        let case = if node.num_diff == 0 { 1 } else { 2 };
        if previous != case {
            groups.push(DiffStats::named(name));
            previous = case;
        }
        let Some(last) = groups.last_mut() else { continue };
        match (node.num_diff, node.x, node.y) {
            (0, _, _) => last.identical += 1,
            (_, _, None) => last.removed += 1,
            (_, None, _) => last.inserted += 1,
            _ => last.modified += 1,
        }
    }
    groups
}

fn coalesce_adjacent_edits(name: &'static str, edits: &[Edit]) -> Vec<DiffStats> {
    let mut groups: Vec<DiffStats> = Vec::new();
    let mut previous = None;
    for edit in edits {
        let equal = *edit == Edit::Identity;
        if previous != Some(equal) {
            groups.push(DiffStats::named(name));
            previous = Some(equal);
        }
        let Some(last) = groups.last_mut() else { continue };
        match edit {
            Edit::Identity => last.identical += 1,
            Edit::UniqueX => last.removed += 1,
            Edit::UniqueY => last.inserted += 1,
            Edit::Modified => last.modified += 1,
        }
    }
    groups
}

fn coalesce_intervening_identical(original: Vec<DiffStats>, window: usize) -> Vec<DiffStats> {
    let mut groups: Vec<DiffStats> = Vec::new();
    for group in original {
        let n = groups.len();
        if n >= 2 && group.num_diff() > 0 {
            let (previous, current) = (&groups[n - 2], &groups[n - 1]);
            let removes = previous.removed > 0 || group.removed > 0;
            let inserts = previous.inserted > 0 || group.inserted > 0;
            if removes && inserts && current.identical <= window {
                let merged = previous.append(current).append(&group);
                groups.truncate(n - 1);
                groups[n - 2] = merged;
                continue;
            }
        }
        groups.push(group);
    }
    groups
}

fn cleanup_surrounding_identical(mut groups: Vec<DiffStats>, eq: &impl Fn(usize, usize) -> bool) -> Vec<DiffStats> {
    let (mut ix, mut iy) = (0, 0);
    let (mut prepend, mut append) = (None, None);
    let count = groups.len();
    for i in 0..count {
        let group = groups[i].clone();
        if group.num_diff() == 0 {
            ix += group.identical;
            iy += group.identical;
            continue;
        }
        let mut nx = group.identical + group.removed + group.modified;
        let mut ny = group.identical + group.inserted + group.modified;
        let mut leading = 0;
        while leading < nx && leading < ny && eq(ix + leading, iy + leading) {
            leading += 1;
        }
        let mut trailing = 0;
        while trailing < nx && trailing < ny && eq(ix + nx - 1 - trailing, iy + ny - 1 - trailing) {
            trailing += 1;
        }
        let identical = leading + trailing;
        if identical > 0 {
            if leading > 0 {
                if i >= 1 {
                    groups[i - 1].identical += leading;
                } else {
                    prepend = Some(leading);
                }
                ix += leading;
                iy += leading;
            }
            if trailing > 0 {
                if i + 1 < count {
                    groups[i + 1].identical += trailing;
                } else {
                    append = Some(trailing);
                }
            }
            nx -= identical;
            ny -= identical;
            groups[i] = DiffStats {
                removed: nx,
                inserted: ny,
                ..DiffStats::named(group.name)
            };
        }
        ix += nx;
        iy += ny;
    }
    // Go adds these in deferred calls: the trailing group first, then the leading.
    if let Some(trailing) = append {
        let name = groups.last().map_or("", |group| group.name);
        groups.push(DiffStats {
            identical: trailing,
            ..DiffStats::named(name)
        });
    }
    if let Some(leading) = prepend {
        let name = groups.first().map_or("", |group| group.name);
        groups.insert(
            0,
            DiffStats {
                identical: leading,
                ..DiffStats::named(name)
            },
        );
    }
    groups
}

/// A count as Go's `float64(n)` makes it (exact below 2^53, as counts of a
/// request's bytes are).
#[expect(clippy::cast_precision_loss, reason = "Go's float64 conversion")]
fn float(count: usize) -> f64 {
    count as f64
}

/// `wrapParens`.
fn wrap_parens(s: Text) -> Text {
    if let Text::Wrap(inner) = &s {
        let parens = inner.prefix.starts_with('(') && inner.suffix.ends_with(')');
        let braces = inner.prefix.starts_with('{') && inner.suffix.ends_with('}');
        if parens || braces {
            return s;
        }
    }
    wrap("(", s, ")")
}

/// The key type of a map type (for its keys' `String` methods).
fn map_key_type(ty: &Ty) -> &Ty {
    match &ty.kind {
        Kind::Map(key, _) => key,
        _ => ty,
    }
}

/// `formatMapKey`.
fn map_key(key: &Val, ty: &Ty) -> String {
    let options = Options {
        diff_mode: IDENTICAL,
        type_mode: TypeMode::Elide,
        avoid_stringer: false,
        verbosity_level: i32::try_from(MAX_VERBOSITY_PRESET).unwrap_or(6),
        limit_verbosity: true,
    };
    let mut out = String::new();
    if let Some(text) = options.format_value(Some(key), ty, Parent::Map) {
        text.write_flat(&mut out);
    }
    out.trim().to_owned()
}

/// What a type's `String` method returns for `v`.
fn stringed(stringer: Stringer, v: &Val) -> String {
    match (stringer, v) {
        (Stringer::Identity, Val::Str(text)) => text.clone(),
        (Stringer::Decimal, Val::Struct(fields)) => match fields.first() {
            Some(Val::Ptr(inner)) => match inner.as_ref() {
                Val::Struct(parts) => match parts.first() {
                    Some(Val::Str(text)) => text.clone(),
                    _ => String::new(),
                },
                _ => String::new(),
            },
            _ => String::new(),
        },
        (Stringer::LabelSelector, Val::Ptr(inner)) => label_selector_string(inner),
        (Stringer::Quantity, Val::Ptr(inner)) => match inner.as_ref() {
            Val::Struct(fields) => match fields.get(4) {
                Some(Val::Str(text)) => text.clone(),
                _ => String::new(),
            },
            _ => String::new(),
        },
        _ => String::new(),
    }
}

/// gogo-protobuf's generated `(*LabelSelector).String`.
fn label_selector_string(selector: &Val) -> String {
    let Val::Struct(fields) = selector else {
        return String::new();
    };
    let mut labels = "map[string]string{".to_owned();
    if let Some(Val::Map(entries)) = fields.first() {
        for (key, value) in entries {
            if let (Val::Str(key), Val::Str(value)) = (key, value) {
                let _ = write!(labels, "{key}: {value},");
            }
        }
    }
    labels.push('}');
    let mut expressions = "[]LabelSelectorRequirement{".to_owned();
    if let Some(Val::Slice(items)) = fields.get(1) {
        for item in items {
            let Val::Struct(parts) = item else { continue };
            let text = |index: usize| match parts.get(index) {
                Some(Val::Str(text)) => text.clone(),
                _ => String::new(),
            };
            let values = match parts.get(2) {
                Some(Val::Slice(values)) => values
                    .iter()
                    .map(|value| match value {
                        Val::Str(text) => text.clone(),
                        _ => String::new(),
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
                _ => String::new(),
            };
            let _ = write!(
                expressions,
                "LabelSelectorRequirement{{Key:{},Operator:{},Values:[{values}],}},",
                text(0),
                text(1)
            );
        }
    }
    expressions.push('}');
    format!("&LabelSelector{{MatchLabels:{labels},MatchExpressions:{expressions},}}")
}

/// The cmp package's `formatString`: Go's `strconv.Quote`, or a raw string literal
/// where quoting would escape something a raw string can hold.
fn format_string(s: &str) -> String {
    let quoted = format_quote(s);
    if quoted.len() == s.len() + 2 {
        return quoted;
    }
    if !s.chars().any(|c| c == '`' || c == '\n' || !(is_print(c) || c == '\t')) {
        return format!("`{s}`");
    }
    quoted
}

fn format_quote(s: &str) -> String {
    wheelhouse_envtest_schema::errors::go_quote(s)
}

/// Go's `unicode.IsPrint`, near enough: graphic characters and the ASCII space.
fn is_print(c: char) -> bool {
    c == ' ' || !(c.is_control() || c.is_whitespace() || ('\u{200b}'..='\u{200f}').contains(&c) || c == '\u{feff}')
}

fn floor_boundary(s: &str, at: usize) -> usize {
    (0..=at.min(s.len()))
        .rev()
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(0)
}

impl Text {
    /// The node on one line (a map key, always a line, as `String` prints it).
    fn write_flat(&self, b: &mut String) {
        match self {
            Text::Line(line) => b.push_str(line),
            Text::Wrap(wrap) => {
                b.push_str(&wrap.prefix);
                wrap.value.write_flat(b);
                b.push_str(&wrap.suffix);
            }
            Text::List(records) => {
                for (i, record) in records.iter().enumerate() {
                    b.push_str(&record.key);
                    if !record.key.is_empty() {
                        b.push_str(": ");
                    }
                    record.value.write_flat(b);
                    if i + 1 < records.len() {
                        b.push_str(", ");
                    }
                }
            }
        }
    }
}
