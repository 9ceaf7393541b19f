//! A bounding-volume hierarchy over the group boxes: which boxes overlap a
//! box, which contain a point, in O(log G + answers) on typical releases
//! instead of a scan of every group.
//!
//! Built top-down: a node's items are split at the median of their box
//! centres along the axis where the centres spread most (relative to the
//! axis's extent), until a node holds at most [`LEAF_ITEMS`] boxes. Identical
//! boxes (the (ε,m) partitioner's buckets) end up in one subtree, and every
//! query that touches one of them touches all of them, as it must.

use super::boxes::GroupBoxes;

/// The most boxes a leaf holds.
const LEAF_ITEMS: usize = 8;

#[derive(Debug, Clone, Copy)]
struct Node {
    /// The node's groups are `items[start..end]`.
    start: u32,
    end: u32,
    /// The children's node ids; `u32::MAX` for a leaf.
    left: u32,
    right: u32,
}

pub(crate) struct Bvh {
    dims: usize,
    nodes: Vec<Node>,
    /// `bounds[node * dims + d]`: the node's bounding interval on QI d.
    bounds: Vec<[f64; 2]>,
    items: Vec<u32>,
    /// `item_boxes[i * dims + d]`: the box of group `items[i]` on QI d, so
    /// a leaf's boxes are read side by side rather than from wherever
    /// their groups sit.
    item_boxes: Vec<[f64; 2]>,
}

/// The deepest tree: nodes split at the median, so depth is at most
/// log2 of the groups (under 32 for any u32 count); a traversal's stack
/// holds at most one node per level plus one.
const MAX_STACK: usize = 64;

impl Bvh {
    pub fn new(boxes: &GroupBoxes) -> Bvh {
        let dims = boxes.dimensions();
        let groups = boxes.groups();
        let mut bvh = Bvh {
            dims,
            nodes: Vec::with_capacity(2 * groups / LEAF_ITEMS + 1),
            bounds: Vec::new(),
            items: (0..groups as u32).collect(),
            item_boxes: Vec::new(),
        };
        if groups == 0 {
            return bvh;
        }
        let centre = |g: u32, d: usize| {
            let [lo, hi] = boxes.of(g as usize)[d];
            lo * 0.5 + hi * 0.5
        };
        bvh.push_node(boxes, 0, groups);
        let mut stack = vec![0usize];
        while let Some(id) = stack.pop() {
            let Node { start, end, .. } = bvh.nodes[id];
            let (start, end) = (start as usize, end as usize);
            if end - start <= LEAF_ITEMS {
                continue;
            }
            // The axis where the centres spread most, relative to the
            // node's extent on it (axes have unrelated units).
            let items = &mut bvh.items[start..end];
            let mut best = (0usize, -1.0f64);
            for d in 0..dims {
                let (lo, hi) =
                    items
                        .iter()
                        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &g| {
                            let c = centre(g, d);
                            (lo.min(c), hi.max(c))
                        });
                let [nlo, nhi] = bvh.bounds[id * dims + d];
                let extent = nhi - nlo;
                let spread = if extent > 0.0 {
                    (hi - lo) / extent
                } else {
                    0.0
                };
                if spread > best.1 {
                    best = (d, spread);
                }
            }
            let axis = best.0;
            let mid = items.len() / 2;
            items.select_nth_unstable_by(mid, |&a, &b| {
                centre(a, axis).total_cmp(&centre(b, axis)).then(a.cmp(&b))
            });
            let left = bvh.push_node(boxes, start, start + mid);
            let right = bvh.push_node(boxes, start + mid, end);
            bvh.nodes[id].left = left as u32;
            bvh.nodes[id].right = right as u32;
            stack.push(left);
            stack.push(right);
        }
        bvh.item_boxes = bvh
            .items
            .iter()
            .flat_map(|&g| boxes.of(g as usize).iter().copied())
            .collect();
        bvh
    }

    /// Adds a node over `items[start..end]` with its bounding box.
    fn push_node(&mut self, boxes: &GroupBoxes, start: usize, end: usize) -> usize {
        let id = self.nodes.len();
        self.nodes.push(Node {
            start: start as u32,
            end: end as u32,
            left: u32::MAX,
            right: u32::MAX,
        });
        let base = self.bounds.len();
        self.bounds.extend(std::iter::repeat_n(
            [f64::INFINITY, f64::NEG_INFINITY],
            self.dims,
        ));
        for &g in &self.items[start..end] {
            for (d, &[lo, hi]) in boxes.of(g as usize).iter().enumerate() {
                let b = &mut self.bounds[base + d];
                b[0] = b[0].min(lo);
                b[1] = b[1].max(hi);
            }
        }
        id
    }

    /// Calls `f` for every group whose box passes `hit` (given the box),
    /// descending only into nodes whose bounds pass `hit`. `hit` must be
    /// monotone: a box that passes has a bounding box that passes.
    fn visit(&self, hit: impl Fn(&[[f64; 2]]) -> bool, mut f: impl FnMut(u32)) {
        if self.nodes.is_empty() {
            return;
        }
        let dims = self.dims;
        let mut stack = [0u32; MAX_STACK];
        let mut depth = 1;
        while depth > 0 {
            depth -= 1;
            let id = stack[depth] as usize;
            if !hit(&self.bounds[id * dims..(id + 1) * dims]) {
                continue;
            }
            let n = self.nodes[id];
            if n.left == u32::MAX {
                for i in n.start as usize..n.end as usize {
                    if hit(&self.item_boxes[i * dims..(i + 1) * dims]) {
                        f(self.items[i]);
                    }
                }
            } else {
                stack[depth] = n.right;
                stack[depth + 1] = n.left;
                depth += 2;
            }
        }
    }

    /// Every group whose box meets `query` (closed intervals on every QI),
    /// in no particular order.
    pub fn overlapping(&self, query: &[[f64; 2]], out: &mut Vec<u32>) {
        self.visit(
            |b| {
                b.iter()
                    .zip(query)
                    .all(|(b, q)| b[0] <= q[1] && q[0] <= b[1])
            },
            |g| out.push(g),
        );
    }

    /// Every group whose box contains `point` (closed), in no particular
    /// order.
    pub fn containing(&self, point: &[f64], out: &mut Vec<u32>) {
        self.visit(
            |b| b.iter().zip(point).all(|(b, &x)| b[0] <= x && x <= b[1]),
            |g| out.push(g),
        );
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};

    use super::super::boxes::{Axis, Dim};
    use super::*;

    /// Random boxes on 3 axes, many of them identical (as buckets publish),
    /// against a scan of every box.
    #[test]
    fn queries_match_a_scan_of_every_box() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let dims = vec![
            Dim {
                axis: Axis::Value,
                discrete: false,
            };
            3
        ];
        let mut bounds = Vec::new();
        for g in 0..500 {
            for _ in 0..3 {
                if g % 5 == 4 {
                    // Every fifth box repeats the previous one.
                    let prev: [f64; 2] = bounds[bounds.len() - 3];
                    bounds.push(prev);
                    continue;
                }
                let lo: f64 = rng.gen_range(0.0..100.0);
                bounds.push([lo, lo + rng.gen_range(0.0..20.0)]);
            }
        }
        let boxes = GroupBoxes { bounds, dims };
        let bvh = Bvh::new(&boxes);
        let scan = |hit: &dyn Fn(&[[f64; 2]]) -> bool| -> Vec<u32> {
            (0..boxes.groups() as u32)
                .filter(|&g| hit(boxes.of(g as usize)))
                .collect()
        };
        let mut out = Vec::new();
        for _ in 0..200 {
            let lo: [f64; 3] = [0, 1, 2].map(|_| rng.gen_range(-10.0..110.0));
            let query: Vec<[f64; 2]> = lo
                .iter()
                .map(|&l| [l, l + rng.gen_range(0.0..15.0)])
                .collect();
            out.clear();
            bvh.overlapping(&query, &mut out);
            out.sort_unstable();
            let expected = scan(&|b| {
                b.iter()
                    .zip(&query)
                    .all(|(b, q)| b[0] <= q[1] && q[0] <= b[1])
            });
            assert_eq!(out, expected);
            out.clear();
            bvh.containing(&lo, &mut out);
            out.sort_unstable();
            let expected = scan(&|b| b.iter().zip(&lo).all(|(b, &x)| b[0] <= x && x <= b[1]));
            assert_eq!(out, expected);
        }
        // A box's own corner is in it: closed bounds.
        let corner: Vec<f64> = boxes.of(42).iter().map(|b| b[1]).collect();
        out.clear();
        bvh.containing(&corner, &mut out);
        assert!(out.contains(&42));
    }
}
