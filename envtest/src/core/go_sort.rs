//! Go's `sort.SliceStable`, step for step: insertion sort in blocks of 20, then
//! `SymMerge`. Ported rather than replaced by Rust's stable sort because kube hands it
//! comparisons that are not a strict weak order (strategic merge patch's
//! `normalizeSliceOrder` says "less" for any pair it cannot place), and then the order
//! that comes out depends on the algorithm's exact steps.

/// Sorts `items` as Go's `sort.SliceStable(items, less)` does.
pub(crate) fn slice_stable<T>(items: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let n = items.len();
    let mut data = Data { items, less };
    let mut block = 20;
    let (mut a, mut b) = (0, block);
    while b <= n {
        data.insertion_sort(a, b);
        a = b;
        b += block;
    }
    data.insertion_sort(a, n);
    while block < n {
        let (mut a, mut b) = (0, 2 * block);
        while b <= n {
            data.sym_merge(a, a + block, b);
            a = b;
            b += 2 * block;
        }
        let m = a + block;
        if m < n {
            data.sym_merge(a, m, n);
        }
        block *= 2;
    }
}

struct Data<'a, T, L> {
    items: &'a mut [T],
    less: L,
}

// The names are Go's (`a`, `m`, `b`, `i`, `j`...), to read beside `sort/zsortfunc.go`.
#[expect(clippy::many_single_char_names, reason = "the names of the Go source it ports")]
impl<T, L: Fn(&T, &T) -> bool> Data<'_, T, L> {
    fn less(&self, i: usize, j: usize) -> bool {
        (self.less)(&self.items[i], &self.items[j])
    }

    fn insertion_sort(&mut self, a: usize, b: usize) {
        for i in a + 1..b {
            let mut j = i;
            while j > a && self.less(j, j - 1) {
                self.items.swap(j, j - 1);
                j -= 1;
            }
        }
    }

    /// `symMerge`: merges the sorted runs `a..m` and `m..b` (`a < m < b`).
    fn sym_merge(&mut self, a: usize, m: usize, b: usize) {
        if m - a == 1 {
            let (mut i, mut j) = (m, b);
            while i < j {
                let h = usize::midpoint(i, j);
                if self.less(h, a) {
                    i = h + 1;
                } else {
                    j = h;
                }
            }
            for k in a..i.saturating_sub(1) {
                self.items.swap(k, k + 1);
            }
            return;
        }
        if b - m == 1 {
            let (mut i, mut j) = (a, m);
            while i < j {
                let h = usize::midpoint(i, j);
                if self.less(m, h) {
                    j = h;
                } else {
                    i = h + 1;
                }
            }
            let mut k = m;
            while k > i {
                self.items.swap(k, k - 1);
                k -= 1;
            }
            return;
        }
        let mid = usize::midpoint(a, b);
        let n = mid + m;
        let (mut start, mut r) = if m > mid { (n - b, mid) } else { (a, m) };
        let p = n - 1;
        while start < r {
            let c = usize::midpoint(start, r);
            if self.less(p - c, c) {
                r = c;
            } else {
                start = c + 1;
            }
        }
        let end = n - start;
        if start < m && m < end {
            self.rotate(start, m, end);
        }
        if a < start && start < mid {
            self.sym_merge(a, start, mid);
        }
        if mid < end && end < b {
            self.sym_merge(mid, end, b);
        }
    }

    fn rotate(&mut self, a: usize, m: usize, b: usize) {
        let (mut i, mut j) = (m - a, b - m);
        while i != j {
            if i > j {
                self.swap_range(m - i, m, j);
                i -= j;
            } else {
                self.swap_range(m - i, m + j - i, i);
                j -= i;
            }
        }
        self.swap_range(m - i, m, i);
    }

    fn swap_range(&mut self, a: usize, b: usize, n: usize) {
        for i in 0..n {
            self.items.swap(a + i, b + i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::slice_stable;

    #[test]
    fn sorts_stably_across_blocks_and_merges() {
        let mut items: Vec<(usize, usize)> = (0..100).map(|i| (i * 37 % 11, i)).collect();
        slice_stable(&mut items, |a, b| a.0 < b.0);
        let mut expected = items.clone();
        expected.sort_by_key(|item| item.0);
        assert_eq!(items, expected);
    }

    #[test]
    fn a_comparison_that_always_says_less_reverses_as_insertion_sort_does() {
        // Go: sort.SliceStable([]int{1,2,3,4}, func(i, j int) bool { return true })
        // leaves [4 3 2 1]: each item moves in front of every one before it.
        let mut items = vec![1, 2, 3, 4];
        slice_stable(&mut items, |_, _| true);
        assert_eq!(items, [4, 3, 2, 1]);
    }
}
