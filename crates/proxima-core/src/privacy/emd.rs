//! Earth Mover's Distance between a group's SA distribution P and the
//! table's Q (t-closeness, Li, Li & Venkatasubramanian, §4.2), for the three
//! ground distances of the paper:
//!
//! * ordered — the m distinct values on a line, neighbours 1/(m−1) apart:
//!   EMD = (1/(m−1)) Σᵢ |Σ_{j≤i} (pⱼ − qⱼ)|;
//! * equal — every two distinct values at distance 1: EMD = ½ Σ |pᵢ − qᵢ|;
//! * hierarchical — distance = level of the lowest common ancestor / height
//!   H: with extra(N) = P(N) − Q(N) over the leaves under N,
//!   pos_extra(N) / neg_extra(N) the sums of the positive / |negative|
//!   extras of N's children, cost(N) = level(N)/H · min(pos, neg) and
//!   EMD = Σ over internal nodes of cost(N).
//!
//! A table with one distinct value has EMD 0 for every group (no division
//! by m − 1 = 0). Every measure works from the group's sparse counts.

use crate::error::{CoreError, CoreResult, Field};
use crate::params::GroundDistance;

use super::counts::CodeDomain;
use super::{GroupCounts, SaCodes};

/// The table distribution Q, preprocessed for one ground distance.
#[derive(Debug, Clone)]
pub struct EmdReference {
    ground: GroundDistance,
    /// q[code] = table share of the code.
    q: Vec<f64>,
    /// ordered: cum_q[i] = Q(i) = Σ_{j≤i} q_j (non-decreasing).
    cum_q: Vec<f64>,
    /// ordered: pre[i] = Σ_{j<i} Q(j).
    pre: Vec<f64>,
    hier: Option<HierRef>,
}

#[derive(Debug, Clone)]
struct HierRef {
    height: usize,
    /// leaf code of each SA code.
    leaf_of_code: Vec<u32>,
    /// parent[level][node] for level < height.
    parent: Vec<Vec<u32>>,
    /// q_node[level][node] = table share under the node.
    q_node: Vec<Vec<f64>>,
}

impl EmdReference {
    /// Preprocesses the table distribution. `field` names the request's
    /// ground-distance field: `hierarchical` needs a categorical SA with a
    /// hierarchy.
    pub fn new(
        sa: &SaCodes,
        ground: GroundDistance,
        field: impl Into<Field>,
    ) -> CoreResult<EmdReference> {
        let n = sa.rows().max(1) as f64;
        let q: Vec<f64> = sa.table_counts().iter().map(|&c| c as f64 / n).collect();
        let mut cum_q = Vec::new();
        let mut pre = Vec::new();
        let mut hier = None;
        match ground {
            GroundDistance::Ordered => {
                let mut acc = 0u64;
                cum_q = sa
                    .table_counts()
                    .iter()
                    .map(|&c| {
                        acc += c;
                        acc as f64 / n
                    })
                    .collect();
                pre = Vec::with_capacity(cum_q.len() + 1);
                let mut s = 0.0;
                pre.push(0.0);
                for &x in &cum_q {
                    s += x;
                    pre.push(s);
                }
            }
            GroundDistance::Equal => {}
            GroundDistance::Hierarchical => {
                let CodeDomain::Categorical {
                    leaves,
                    hierarchy,
                    has_hierarchy: true,
                } = &sa.domain
                else {
                    return Err(CoreError::invalid_parameters(
                        field,
                        format!(
                            "the hierarchical ground distance needs a categorical sensitive column with a hierarchy; '{}' has none",
                            sa.name()
                        ),
                    ));
                };
                let height = hierarchy.height();
                let mut q_node: Vec<Vec<f64>> = (0..=height)
                    .map(|l| vec![0.0; hierarchy.node_count(l)])
                    .collect();
                for (code, &leaf) in leaves.iter().enumerate() {
                    for (level, row) in q_node.iter_mut().enumerate() {
                        row[hierarchy.ancestor(leaf, level) as usize] += q[code];
                    }
                }
                let parent = (0..height)
                    .map(|l| {
                        (0..hierarchy.node_count(l) as u32)
                            .map(|node| hierarchy.parent(l, node))
                            .collect()
                    })
                    .collect();
                hier = Some(HierRef {
                    height,
                    leaf_of_code: leaves.clone(),
                    parent,
                    q_node,
                });
            }
        }
        Ok(EmdReference {
            ground,
            q,
            cum_q,
            pre,
            hier,
        })
    }

    pub fn ground(&self) -> GroundDistance {
        self.ground
    }

    /// EMD between the group's distribution and the table's.
    pub fn emd(&self, g: &GroupCounts) -> f64 {
        if g.total() == 0 {
            return 0.0;
        }
        match self.ground {
            GroundDistance::Ordered => self.ordered(g),
            GroundDistance::Equal => self.equal(g),
            GroundDistance::Hierarchical => self.hierarchical(g),
        }
    }

    /// Σᵢ |P(i) − Q(i)| / (m − 1). P is a step function changing only at
    /// the group's codes; on each constant stretch [a, b) the sum of
    /// |P − Q(i)| splits where the non-decreasing Q crosses P, and both
    /// parts come from prefix sums of Q: O(d log m) for d group values.
    fn ordered(&self, g: &GroupCounts) -> f64 {
        let m = self.cum_q.len();
        if m <= 1 {
            return 0.0;
        }
        let n = g.total() as f64;
        let mut total = 0.0;
        let mut acc = 0u64;
        let mut start = 0usize;
        let mut level = 0.0f64;
        let stretch = |a: usize, b: usize, p: f64, total: &mut f64| {
            if a >= b {
                return;
            }
            let s = a + self.cum_q[a..b].partition_point(|&x| x < p);
            let below = p * (s - a) as f64 - (self.pre[s] - self.pre[a]);
            let above = (self.pre[b] - self.pre[s]) - p * (b - s) as f64;
            *total += below + above;
        };
        for &(code, c) in g.entries() {
            stretch(start, code as usize, level, &mut total);
            acc += c;
            level = acc as f64 / n;
            start = code as usize;
        }
        stretch(start, m, level, &mut total);
        (total / (m - 1) as f64).max(0.0)
    }

    /// ½ Σ |pᵢ − qᵢ|: codes outside the group contribute their qᵢ, whose
    /// sum is 1 − Σ_{group codes} qᵢ.
    fn equal(&self, g: &GroupCounts) -> f64 {
        let n = g.total() as f64;
        let mut inside = 0.0;
        let mut q_inside = 0.0;
        for &(code, c) in g.entries() {
            let q = self.q[code as usize];
            inside += (c as f64 / n - q).abs();
            q_inside += q;
        }
        0.5 * (inside + (1.0 - q_inside).max(0.0))
    }

    /// The bottom-up formula over the nodes above the group's values only:
    /// a child without group rows has extra = −q(child), so a node's
    /// neg_extra is its untouched children's q plus its touched children's
    /// negative extras.
    fn hierarchical(&self, g: &GroupCounts) -> f64 {
        let h = self.hier.as_ref().expect("built for hierarchical");
        if h.height == 0 {
            return 0.0;
        }
        let n = g.total() as f64;
        // (node, p, q) of the touched nodes at the current level.
        let mut nodes: Vec<(u32, f64, f64)> = g
            .entries()
            .iter()
            .map(|&(code, c)| {
                let leaf = h.leaf_of_code[code as usize];
                (leaf, c as f64 / n, h.q_node[0][leaf as usize])
            })
            .collect();
        let mut total = 0.0;
        for level in 1..=h.height {
            let up: Vec<(u32, f64, f64)> = nodes
                .iter()
                .map(|&(node, p, q)| (h.parent[level - 1][node as usize], p, q))
                .collect();
            // Children keep their own (p, q) until grouped by parent.
            let mut order: Vec<usize> = (0..up.len()).collect();
            order.sort_by_key(|&i| up[i].0);
            let mut next: Vec<(u32, f64, f64)> = Vec::new();
            let weight = level as f64 / h.height as f64;
            let mut i = 0;
            while i < order.len() {
                let parent = up[order[i]].0;
                let (mut pos, mut neg, mut p_sum, mut q_touched) = (0.0, 0.0, 0.0, 0.0);
                while i < order.len() && up[order[i]].0 == parent {
                    let (_, p, q) = up[order[i]];
                    let extra = p - q;
                    if extra > 0.0 {
                        pos += extra;
                    } else {
                        neg -= extra;
                    }
                    p_sum += p;
                    q_touched += q;
                    i += 1;
                }
                let q_parent = h.q_node[level][parent as usize];
                neg += (q_parent - q_touched).max(0.0);
                total += weight * pos.min(neg);
                next.push((parent, p_sum, q_parent));
            }
            nodes = next;
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hierarchy::Hierarchy;
    use crate::table::{QiValues, SaValues, Table};
    use std::sync::Arc;

    fn salaries() -> (Table, SaCodes) {
        // The t-closeness paper's example: salaries 3k … 11k, one each.
        let s: Vec<f64> = (3..=11).map(|k| k as f64 * 1000.0).collect();
        let t = Table::from_columns(
            vec![(
                "zip".into(),
                QiValues::Numeric((0..9).map(f64::from).collect()),
            )],
            vec![("salary".into(), SaValues::Numeric(s))],
        );
        let sa = SaCodes::new(&t, "/model").unwrap();
        (t, sa)
    }

    #[test]
    fn ordered_emd_matches_the_paper() {
        let (_, sa) = salaries();
        let r = EmdReference::new(&sa, GroundDistance::Ordered, "/g").unwrap();
        // {3k,4k,5k} = rows 0,1,2; {6k,8k,11k} = rows 3,5,8.
        assert!((r.emd(&sa.group_counts(&[0, 1, 2])) - 0.375).abs() < 1e-12);
        assert!((r.emd(&sa.group_counts(&[3, 5, 8])) - 1.0 / 6.0).abs() < 1e-12);
        assert!(r.emd(&sa.whole_table()).abs() < 1e-12);
        let e = EmdReference::new(&sa, GroundDistance::Equal, "/g").unwrap();
        // ½(3·|1/3−1/9| + 6·1/9) = ½(2/3 + 2/3) = 2/3.
        assert!((e.emd(&sa.group_counts(&[0, 1, 2])) - 2.0 / 3.0).abs() < 1e-12);
        assert!(EmdReference::new(&sa, GroundDistance::Hierarchical, "/g").is_err());
    }

    #[test]
    fn one_distinct_value_has_emd_zero() {
        let t = Table::from_columns(
            vec![("a".into(), QiValues::Numeric(vec![1.0, 2.0, 3.0]))],
            vec![("s".into(), SaValues::Numeric(vec![7.0; 3]))],
        );
        let sa = SaCodes::new(&t, "/m").unwrap();
        for ground in [GroundDistance::Ordered, GroundDistance::Equal] {
            let r = EmdReference::new(&sa, ground, "/g").unwrap();
            assert_eq!(r.emd(&sa.group_counts(&[1])), 0.0);
        }
    }

    #[test]
    fn hierarchical_emd_by_hand() {
        // root ─ A{a1,a2}, B{b1,b2}; height 2. Table uniform over 4 leaves.
        let paths: Vec<Vec<String>> = [
            ["a1", "A", "*"],
            ["a2", "A", "*"],
            ["b1", "B", "*"],
            ["b2", "B", "*"],
        ]
        .iter()
        .map(|p| p.iter().map(|s| s.to_string()).collect())
        .collect();
        let h = Arc::new(Hierarchy::from_paths(&paths).unwrap());
        let codes: Vec<u32> = ["a1", "a2", "b1", "b2"]
            .iter()
            .map(|l| h.leaf_code(l).unwrap())
            .collect();
        let t = Table::from_columns(
            vec![("q".into(), QiValues::Numeric(vec![0.0, 1.0, 2.0, 3.0]))],
            vec![(
                "d".into(),
                SaValues::Categorical {
                    codes,
                    hierarchy: h.clone(),
                    has_hierarchy: true,
                },
            )],
        );
        let sa = SaCodes::new(&t, "/m").unwrap();
        let r = EmdReference::new(&sa, GroundDistance::Hierarchical, "/g").unwrap();
        // {a1, a2}: mass ½ moves from B to A across the root: ½ · 2/2 = 0.5.
        assert!((r.emd(&sa.group_counts(&[0, 1])) - 0.5).abs() < 1e-12);
        // {a1}: ¼ moves a2→a1 inside A (cost ½·¼) and ½ from B (cost 1·½).
        assert!((r.emd(&sa.group_counts(&[0])) - (0.125 + 0.5)).abs() < 1e-12);
        // {a1, b1}: within A and within B, ¼ each at level 1: 2·(½·¼).
        assert!((r.emd(&sa.group_counts(&[0, 2])) - 0.25).abs() < 1e-12);
    }
}
