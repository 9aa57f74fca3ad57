//! go-cmp's comparison (`compare.go`) with its default reporter's value tree
//! (`report_value.go`): each node counts the equal and unequal leaves below it, and
//! slices are aligned by `internal/diff`'s edit script.

use super::types::{Kind, Ty};
use super::value::{Val, quantities_equal};

/// A `valueNode`: one compared pair of values.
#[derive(Debug)]
pub(super) struct Node<'a> {
    pub(super) ty: &'static Ty,
    /// The two values; `None` is an invalid `reflect.Value` (a missing slice element
    /// or map entry).
    pub(super) x: Option<&'a Val>,
    pub(super) y: Option<&'a Val>,
    pub(super) num_same: usize,
    pub(super) num_diff: usize,
    /// Leaves compared by an `Equal` method.
    pub(super) num_compared: usize,
    pub(super) num_children: usize,
    pub(super) max_depth: usize,
    /// Struct fields, slice elements or map entries.
    pub(super) records: Vec<(Key<'a>, Node<'a>)>,
    /// What a pointer points to.
    pub(super) value: Option<Box<Node<'a>>>,
}

/// A record's key.
#[derive(Debug, Clone, Copy)]
pub(super) enum Key<'a> {
    Field(&'static str),
    Index,
    Map(&'a Val),
}

impl<'a> Node<'a> {
    fn new(ty: &'static Ty, x: Option<&'a Val>, y: Option<&'a Val>) -> Self {
        Node {
            ty,
            x,
            y,
            num_same: 0,
            num_diff: 0,
            num_compared: 0,
            num_children: 0,
            max_depth: 0,
            records: Vec::new(),
            value: None,
        }
    }

    fn report(&mut self, equal: bool) {
        if equal {
            self.num_same += 1;
        } else {
            self.num_diff += 1;
        }
    }

    /// `PopStep`: a child's counts added to its parent's.
    fn absorb(&mut self, child: &Node<'a>) {
        self.num_same += child.num_same;
        self.num_diff += child.num_diff;
        self.num_compared += child.num_compared;
        self.num_children += child.num_children + 1;
        self.max_depth = self.max_depth.max(child.max_depth + 1);
    }

    fn push(&mut self, key: Key<'a>, child: Node<'a>) {
        self.absorb(&child);
        self.records.push((key, child));
    }
}

/// `compareAny`: the tree of `x` against `y`, both of type `ty`.
pub(super) fn compare<'a>(ty: &'static Ty, x: Option<&'a Val>, y: Option<&'a Val>) -> Node<'a> {
    let mut node = Node::new(ty, x, y);
    // The validator option: a missing element or entry differs from anything.
    let (Some(vx), Some(vy)) = (x, y) else {
        node.report(x.is_some() == y.is_some());
        return node;
    };
    if ty.equal {
        node.report(quantities_equal(vx, vy));
        node.num_compared = 1;
        return node;
    }
    match (&ty.kind, vx, vy) {
        (Kind::Struct(fields), Val::Struct(xs), Val::Struct(ys)) => {
            for ((field, fx), fy) in fields.iter().zip(xs).zip(ys) {
                node.push(Key::Field(field.name), compare(field.ty, Some(fx), Some(fy)));
            }
        }
        (Kind::Slice(elem), Val::Slice(xs), Val::Slice(ys)) => {
            let edits = difference(xs.len(), ys.len(), |ix, iy| {
                let child = compare(elem, Some(&xs[ix]), Some(&ys[iy]));
                Similarity {
                    same: child.num_same,
                    diff: child.num_diff,
                }
            });
            let (mut ix, mut iy) = (0, 0);
            for edit in edits {
                let (ex, ey) = match edit {
                    Edit::UniqueX => (xs.get(ix), None),
                    Edit::UniqueY => (None, ys.get(iy)),
                    Edit::Identity | Edit::Modified => (xs.get(ix), ys.get(iy)),
                };
                ix += usize::from(ex.is_some());
                iy += usize::from(ey.is_some());
                node.push(Key::Index, compare(elem, ex, ey));
            }
        }
        (Kind::Map(_, value), Val::Map(xs), Val::Map(ys)) => {
            let mut keys: Vec<&Val> = xs.iter().chain(ys).map(|(key, _)| key).collect();
            keys.sort_by(|a, b| a.key_order(b));
            keys.dedup_by(|a, b| a == b);
            for key in keys {
                node.push(Key::Map(key), compare(value, vx.entry(key), vy.entry(key)));
            }
        }
        (Kind::Ptr(elem), Val::Ptr(px), Val::Ptr(py)) => {
            let child = compare(elem, Some(px), Some(py));
            node.absorb(&child);
            node.value = Some(Box::new(child));
        }
        // Scalars, and a nil pointer, slice or map against anything: a leaf.
        _ => node.report(vx == vy),
    }
    node
}

/// `diff.Result`: how alike two elements are.
#[derive(Debug, Clone, Copy)]
pub(super) struct Similarity {
    pub(super) same: usize,
    pub(super) diff: usize,
}

impl Similarity {
    pub(super) fn of(equal: bool) -> Self {
        if equal {
            Similarity { same: 1, diff: 0 }
        } else {
            Similarity { same: 0, diff: 2 }
        }
    }

    fn equal(self) -> bool {
        self.diff == 0
    }

    fn similar(self) -> bool {
        self.same + 1 >= self.diff
    }
}

/// One step of an edit script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Edit {
    Identity,
    UniqueX,
    UniqueY,
    Modified,
}

#[derive(Debug, Clone, Copy)]
struct Point {
    x: isize,
    y: isize,
}

struct EditPath {
    forward: bool,
    point: Point,
    edits: Vec<Edit>,
}

impl EditPath {
    fn append(&mut self, edit: Edit) {
        self.edits.push(edit);
        let step = if self.forward { 1 } else { -1 };
        match edit {
            Edit::Identity | Edit::Modified => {
                self.point.x += step;
                self.point.y += step;
            }
            Edit::UniqueX => self.point.x += step,
            Edit::UniqueY => self.point.y += step,
        }
    }

    /// `path.connect`: a greedy walk from this path's end to `dst`.
    fn connect(&mut self, dst: Point, f: &mut impl FnMut(usize, usize) -> Similarity) {
        if self.forward {
            while dst.x > self.point.x && dst.y > self.point.y {
                let r = f(index(self.point.x), index(self.point.y));
                self.append(if r.equal() {
                    Edit::Identity
                } else if r.similar() {
                    Edit::Modified
                } else if dst.x - self.point.x >= dst.y - self.point.y {
                    Edit::UniqueX
                } else {
                    Edit::UniqueY
                });
            }
            while dst.x > self.point.x {
                self.append(Edit::UniqueX);
            }
            while dst.y > self.point.y {
                self.append(Edit::UniqueY);
            }
        } else {
            while self.point.x > dst.x && self.point.y > dst.y {
                let r = f(index(self.point.x - 1), index(self.point.y - 1));
                self.append(if r.equal() {
                    Edit::Identity
                } else if r.similar() {
                    Edit::Modified
                } else if self.point.y - dst.y >= self.point.x - dst.x {
                    Edit::UniqueY
                } else {
                    Edit::UniqueX
                });
            }
            while self.point.x > dst.x {
                self.append(Edit::UniqueX);
            }
            while self.point.y > dst.y {
                self.append(Edit::UniqueY);
            }
        }
    }
}

fn index(at: isize) -> usize {
    usize::try_from(at).unwrap_or_default()
}

/// `diff.Difference`: an edit script from `nx` elements to `ny`, searching from
/// both ends in turn with a linear budget. Go starts from either end at random, once
/// per process; this starts forward, which is also what its spacing tells: a process
/// that indents with plain spaces (not non-breaking ones) drew the same bit.
pub(super) fn difference(nx: usize, ny: usize, mut f: impl FnMut(usize, usize) -> Similarity) -> Vec<Edit> {
    let (nx, ny) = (
        isize::try_from(nx).unwrap_or(isize::MAX),
        isize::try_from(ny).unwrap_or(isize::MAX),
    );
    let mut fwd = EditPath {
        forward: true,
        point: Point { x: 0, y: 0 },
        edits: Vec::new(),
    };
    let mut rev = EditPath {
        forward: false,
        point: Point { x: nx, y: ny },
        edits: Vec::new(),
    };
    let mut fwd_frontier = fwd.point;
    let mut rev_frontier = rev.point;
    let mut budget = 4 * (nx + ny);
    let mut forward = true;
    loop {
        if fwd_frontier.x >= rev_frontier.x || fwd_frontier.y >= rev_frontier.y || budget == 0 {
            break;
        }
        let (mut stop1, mut stop2, mut i) = (false, false, 0);
        while !(stop1 && stop2) && budget > 0 {
            let z = zigzag(i);
            i += 1;
            if forward {
                let p = Point {
                    x: fwd_frontier.x + z,
                    y: fwd_frontier.y - z,
                };
                if p.x >= rev.point.x || p.y < fwd.point.y {
                    stop1 = true;
                } else if p.y >= rev.point.y || p.x < fwd.point.x {
                    stop2 = true;
                } else if f(index(p.x), index(p.y)).equal() {
                    fwd.connect(p, &mut f);
                    fwd.append(Edit::Identity);
                    while fwd.point.x < rev.point.x
                        && fwd.point.y < rev.point.y
                        && f(index(fwd.point.x), index(fwd.point.y)).equal()
                    {
                        fwd.append(Edit::Identity);
                    }
                    fwd_frontier = fwd.point;
                    (stop1, stop2) = (true, true);
                } else {
                    budget -= 1;
                }
            } else {
                let p = Point {
                    x: rev_frontier.x - z,
                    y: rev_frontier.y + z,
                };
                if fwd.point.x >= p.x || rev.point.y < p.y {
                    stop1 = true;
                } else if fwd.point.y >= p.y || rev.point.x < p.x {
                    stop2 = true;
                } else if f(index(p.x - 1), index(p.y - 1)).equal() {
                    rev.connect(p, &mut f);
                    rev.append(Edit::Identity);
                    while fwd.point.x < rev.point.x
                        && fwd.point.y < rev.point.y
                        && f(index(rev.point.x - 1), index(rev.point.y - 1)).equal()
                    {
                        rev.append(Edit::Identity);
                    }
                    rev_frontier = rev.point;
                    (stop1, stop2) = (true, true);
                } else {
                    budget -= 1;
                }
            }
        }
        if forward {
            if rev.point.x - fwd_frontier.x >= rev.point.y - fwd_frontier.y {
                fwd_frontier.x += 1;
            } else {
                fwd_frontier.y += 1;
            }
        } else if rev_frontier.x - fwd.point.x >= rev_frontier.y - fwd.point.y {
            rev_frontier.x -= 1;
        } else {
            rev_frontier.y -= 1;
        }
        forward = !forward;
    }
    fwd.connect(rev.point, &mut f);
    let mut edits = fwd.edits;
    edits.extend(rev.edits.into_iter().rev());
    edits
}

/// `zigzag`: 0, -1, +1, -2, +2, ...
fn zigzag(i: isize) -> isize {
    let x = if i & 1 != 0 { !i } else { i };
    x >> 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(x: &str, y: &str) -> String {
        let (x, y): (Vec<char>, Vec<char>) = (x.chars().collect(), y.chars().collect());
        difference(x.len(), y.len(), |ix, iy| Similarity::of(x[ix] == y[iy]))
            .into_iter()
            .map(|edit| match edit {
                Edit::Identity => '.',
                Edit::UniqueX => 'X',
                Edit::UniqueY => 'Y',
                Edit::Modified => 'M',
            })
            .collect()
    }

    #[test]
    fn edit_scripts_are_go_cmps_forward_first_search() {
        // Cases from go-cmp's own diff tests, whose forward-first answers these are.
        assert_eq!(script("", ""), "");
        assert_eq!(script("a", "a"), ".");
        assert_eq!(script("", "a"), "Y");
        assert_eq!(script("a", ""), "X");
        assert_eq!(script("abc", "abc"), "...");
    }
}
