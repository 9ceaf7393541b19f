//! Orthogonal range counting over weighted points: a k-d tree whose nodes
//! keep their bounding box and their total weight, so a query box that
//! contains a node takes its total at once and one that misses it skips
//! it. A release's class boxes are small and mostly disjoint, so a query
//! touches O(log cells + the cells on its boundary).

/// The most points a leaf holds.
const LEAF_POINTS: usize = 8;

#[derive(Debug, Clone, Copy)]
struct Node {
    /// The node's points are `order[start..end]`.
    start: u32,
    end: u32,
    /// The children's node ids; `u32::MAX` for a leaf.
    left: u32,
    right: u32,
    total: u64,
}

/// Weighted points in `dims` dimensions, indexed for box counts.
#[derive(Debug, Clone)]
pub(crate) struct KdTree {
    dims: usize,
    /// `points[i * dims + d]`, in the tree's order.
    points: Vec<f64>,
    weights: Vec<u64>,
    nodes: Vec<Node>,
    /// `bounds[node * dims + d]`: the node's points' extent on axis d.
    bounds: Vec<[f64; 2]>,
}

impl KdTree {
    /// `points` flattened (`dims` keys per point), one weight per point.
    pub fn new(dims: usize, points: Vec<f64>, weights: Vec<u64>) -> KdTree {
        let n = weights.len();
        debug_assert_eq!(points.len(), n * dims);
        let mut order: Vec<u32> = (0..n as u32).collect();
        let mut nodes: Vec<Node> = Vec::with_capacity(2 * n / LEAF_POINTS + 1);
        let mut bounds: Vec<[f64; 2]> = Vec::new();
        let at = |i: u32, d: usize| points[i as usize * dims + d];
        // Nodes are pushed before their children; children are filled in
        // when they are built (an explicit stack, no recursion depth).
        let push = |nodes: &mut Vec<Node>, bounds: &mut Vec<[f64; 2]>, order: &[u32], s, e| {
            let mut b = vec![[f64::INFINITY, f64::NEG_INFINITY]; dims];
            let mut total = 0u64;
            for &i in &order[s..e] {
                for (d, bd) in b.iter_mut().enumerate() {
                    let x = at(i, d);
                    bd[0] = bd[0].min(x);
                    bd[1] = bd[1].max(x);
                }
                total += weights[i as usize];
            }
            bounds.extend(b);
            nodes.push(Node {
                start: s as u32,
                end: e as u32,
                left: u32::MAX,
                right: u32::MAX,
                total,
            });
            nodes.len() - 1
        };
        if n > 0 {
            push(&mut nodes, &mut bounds, &order, 0, n);
        }
        let mut stack = if n > 0 { vec![0usize] } else { Vec::new() };
        while let Some(id) = stack.pop() {
            let Node { start, end, .. } = nodes[id];
            let (s, e) = (start as usize, end as usize);
            if e - s <= LEAF_POINTS {
                continue;
            }
            // The widest axis relative to the whole set's extent on it (axes
            // have unrelated units: years, leaf ranks, days); a node whose
            // points are all equal stays a leaf.
            let (axis, width) = (0..dims)
                .map(|d| {
                    let [lo, hi] = bounds[id * dims + d];
                    let [rlo, rhi] = bounds[d];
                    let extent = rhi - rlo;
                    (
                        d,
                        if extent > 0.0 {
                            (hi - lo) / extent
                        } else {
                            0.0
                        },
                    )
                })
                .fold((0, 0.0), |best, c| if c.1 > best.1 { c } else { best });
            if width <= 0.0 {
                continue;
            }
            let mid = s + (e - s) / 2;
            order[s..e]
                .select_nth_unstable_by(mid - s, |&a, &b| at(a, axis).total_cmp(&at(b, axis)));
            let l = push(&mut nodes, &mut bounds, &order, s, mid);
            let r = push(&mut nodes, &mut bounds, &order, mid, e);
            nodes[id].left = l as u32;
            nodes[id].right = r as u32;
            stack.push(l);
            stack.push(r);
        }
        // Store the points in the tree's order, so leaves scan contiguously.
        let mut sorted = Vec::with_capacity(points.len());
        let mut w = Vec::with_capacity(n);
        for &i in &order {
            sorted.extend_from_slice(&points[i as usize * dims..(i as usize + 1) * dims]);
            w.push(weights[i as usize]);
        }
        KdTree {
            dims,
            points: sorted,
            weights: w,
            nodes,
            bounds,
        }
    }

    /// The total weight of every point inside the closed box `query`
    /// (`[lo, hi]` per axis).
    pub fn count(&self, query: &[[f64; 2]]) -> u64 {
        self.count_up_to(query, u64::MAX)
    }

    /// [`KdTree::count`], stopping as soon as the total reaches `cap`: the
    /// exact count when it is below `cap`, else some total ≥ `cap` (a
    /// predicate that only asks "at least k?" needs no more).
    pub fn count_up_to(&self, query: &[[f64; 2]], cap: u64) -> u64 {
        debug_assert_eq!(query.len(), self.dims);
        if self.nodes.is_empty() {
            return 0;
        }
        let dims = self.dims;
        let mut total = 0u64;
        let mut stack = vec![0usize];
        while let Some(id) = stack.pop() {
            let node = self.nodes[id];
            let b = &self.bounds[id * dims..(id + 1) * dims];
            let mut inside = true;
            let mut meets = true;
            for (q, nb) in query.iter().zip(b) {
                if nb[1] < q[0] || nb[0] > q[1] {
                    meets = false;
                    break;
                }
                if nb[0] < q[0] || nb[1] > q[1] {
                    inside = false;
                }
            }
            if !meets {
                continue;
            }
            if inside {
                total += node.total;
                if total >= cap {
                    return total;
                }
            } else if node.left == u32::MAX {
                for i in node.start as usize..node.end as usize {
                    let p = &self.points[i * dims..(i + 1) * dims];
                    if p.iter().zip(query).all(|(&x, q)| q[0] <= x && x <= q[1]) {
                        total += self.weights[i];
                    }
                }
                if total >= cap {
                    return total;
                }
            } else {
                stack.push(node.left as usize);
                stack.push(node.right as usize);
            }
        }
        total
    }

    /// The total weight of every point.
    #[cfg(test)]
    pub fn total(&self) -> u64 {
        self.nodes.first().map_or(0, |n| n.total)
    }

    /// The number of distinct points.
    pub fn points(&self) -> usize {
        self.weights.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn counts_agree_with_a_scan(
            pts in proptest::collection::vec((0u8..6, 0u8..6, 1u64..4), 0..120),
            q in (0u8..6, 0u8..6, 0u8..6, 0u8..6),
        ) {
            let mut flat = Vec::new();
            let mut w = Vec::new();
            for &(a, b, c) in &pts {
                flat.push(a as f64);
                flat.push(b as f64);
                w.push(c);
            }
            let tree = KdTree::new(2, flat, w);
            let (a0, a1) = (q.0.min(q.1) as f64, q.0.max(q.1) as f64);
            let (b0, b1) = (q.2.min(q.3) as f64, q.2.max(q.3) as f64);
            let expected: u64 = pts
                .iter()
                .filter(|p| a0 <= p.0 as f64 && p.0 as f64 <= a1 && b0 <= p.1 as f64 && p.1 as f64 <= b1)
                .map(|p| p.2)
                .sum();
            prop_assert_eq!(tree.count(&[[a0, a1], [b0, b1]]), expected);
            for cap in [1, 3, 10] {
                let capped = tree.count_up_to(&[[a0, a1], [b0, b1]], cap);
                if expected < cap {
                    prop_assert_eq!(capped, expected);
                } else {
                    prop_assert!(capped >= cap && capped <= expected);
                }
            }
            prop_assert_eq!(tree.total(), pts.iter().map(|p| p.2).sum::<u64>());
        }
    }
}
