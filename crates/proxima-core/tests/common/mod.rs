//! Brute-force privacy measures straight from the papers' definitions,
//! sharing no code with `proxima_core::privacy` or the audit: the property
//! tests compare the fast paths against these.
#![allow(dead_code)]

use proxima_core::Hierarchy;

/// Distinct values with their counts, ascending by value.
pub fn value_counts(values: &[f64]) -> Vec<(f64, usize)> {
    let mut v = values.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let mut out: Vec<(f64, usize)> = Vec::new();
    for x in v {
        match out.last_mut() {
            Some((y, c)) if *y == x => *c += 1,
            _ => out.push((x, 1)),
        }
    }
    out
}

pub fn distinct(values: &[f64]) -> usize {
    value_counts(values).len()
}

pub fn entropy(values: &[f64]) -> f64 {
    let n = values.len() as f64;
    value_counts(values)
        .iter()
        .map(|&(_, c)| -(c as f64 / n) * (c as f64 / n).ln())
        .sum()
}

/// Recursive (c,l): r1 < c (r_l + … + r_m) over decreasing counts.
pub fn recursive_ok(values: &[f64], c: f64, l: usize) -> bool {
    let mut r: Vec<usize> = value_counts(values).iter().map(|x| x.1).collect();
    r.sort_by(|a, b| b.cmp(a));
    r.len() >= l && (r[0] as f64) < c * r[l - 1..].iter().sum::<usize>() as f64
}

pub fn max_frequency(values: &[f64]) -> f64 {
    let n = values.len() as f64;
    value_counts(values).iter().map(|x| x.1).max().unwrap() as f64 / n
}

/// Dense P and Q over the table's distinct values (ascending).
fn p_q(group: &[f64], table: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let domain = value_counts(table);
    let q = domain
        .iter()
        .map(|&(_, c)| c as f64 / table.len() as f64)
        .collect();
    let p = domain
        .iter()
        .map(|&(v, _)| group.iter().filter(|&&x| x == v).count() as f64 / group.len() as f64)
        .collect();
    (p, q)
}

/// The t-closeness paper's ordered-distance EMD.
pub fn emd_ordered(group: &[f64], table: &[f64]) -> f64 {
    let (p, q) = p_q(group, table);
    let m = p.len();
    if m < 2 {
        return 0.0;
    }
    let mut cum = 0.0;
    let mut sum = 0.0;
    for i in 0..m {
        cum += p[i] - q[i];
        sum += cum.abs();
    }
    sum / (m - 1) as f64
}

/// Equal ground distance: ½ Σ |p − q|.
pub fn emd_equal(group: &[f64], table: &[f64]) -> f64 {
    let (p, q) = p_q(group, table);
    0.5 * p.iter().zip(&q).map(|(a, b)| (a - b).abs()).sum::<f64>()
}

/// Hierarchical ground distance, the paper's bottom-up formula evaluated
/// densely over every node of the hierarchy.
pub fn emd_hierarchical(group: &[u32], table: &[u32], h: &Hierarchy) -> f64 {
    let height = h.height();
    let leaves = h.leaf_count();
    let mut extra: Vec<f64> = (0..leaves as u32)
        .map(|leaf| {
            group.iter().filter(|&&x| x == leaf).count() as f64 / group.len() as f64
                - table.iter().filter(|&&x| x == leaf).count() as f64 / table.len() as f64
        })
        .collect();
    let mut total = 0.0;
    for level in 1..=height {
        let nodes = h.node_count(level);
        let mut next = vec![0.0; nodes];
        for (node, slot) in next.iter_mut().enumerate() {
            let (mut pos, mut neg) = (0.0, 0.0);
            for &child in h.children(level, node as u32) {
                let e = extra[child as usize];
                if e > 0.0 {
                    pos += e;
                } else {
                    neg -= e;
                }
                *slot += e;
            }
            total += level as f64 / height as f64 * f64::min(pos, neg);
        }
        extra = next;
    }
    total
}

/// Pbrh of every value of a group: share of the group inside I(x).
pub fn pbrh(group: &[f64], eps: f64, relative: bool) -> Vec<f64> {
    group
        .iter()
        .map(|&x| {
            let inside = group
                .iter()
                .filter(|&&y| {
                    if relative {
                        x * (1.0 - eps) <= y && y <= x * (1.0 + eps)
                    } else {
                        (x - y).abs() <= eps
                    }
                })
                .count();
            inside as f64 / group.len() as f64
        })
        .collect()
}

/// XColor's risk(G, ε) with a pairwise neighbour test.
pub fn risk(size: usize, neighbour: impl Fn(usize, usize) -> bool) -> f64 {
    if size == 1 {
        return 1.0;
    }
    (0..size)
        .map(|i| (0..size).filter(|&j| j != i && neighbour(i, j)).count())
        .max()
        .unwrap() as f64
        / (size - 1) as f64
}

/// (δ,l): |E| / max over v of the number of δ-similar values.
pub fn delta_l(group: &[f64], delta: f64) -> f64 {
    let worst = group
        .iter()
        .map(|&v| {
            group
                .iter()
                .filter(|&&w| (v - delta) <= (w + delta) && (w - delta) <= (v + delta))
                .count()
        })
        .max()
        .unwrap();
    group.len() as f64 / worst as f64
}
