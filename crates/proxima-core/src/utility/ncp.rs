//! Information-loss measures of a generalization.
//!
//! The normalized certainty penalty of one QI over one group:
//! * numeric and date QIs: (hi − lo) / (max − min of the table), 0 when the
//!   table has a single value;
//! * categorical QIs: (leaves under the ancestor − 1) / (leaves − 1), 0 for a
//!   one-leaf hierarchy.
//!
//! GCP is its average over every published row and every QI (each row pays
//! its group's penalty), in [0, 1]. loss(G) is the XColor paper's measure
//! (xcolor.txt §V.B, after its refs 17, 28 and 29): Σ_i |G.A_i| / |A_i|,
//! the length of the group's generalized value over the domain length,
//! summed over the QIs and not weighted by group size. With lengths measured
//! as above this is Σ_i NCP_i(G). (The (ε,m) paper's §6 variant counts the
//! integers covered, so a single value costs 1/|A_i| there instead of 0.)

use crate::generalize::{GeneralizedQi, Release};
use crate::table::{QiValues, Table};

/// The table-wide extent of every QI, the denominators of the penalties.
#[derive(Debug, Clone, PartialEq)]
pub struct QiExtents {
    /// Numeric/date: max − min over the table; categorical: leaves − 1.
    spans: Vec<f64>,
}

impl QiExtents {
    pub fn new(table: &Table) -> QiExtents {
        let spans = table
            .qis()
            .iter()
            .map(|c| match &c.values {
                QiValues::Numeric(v) => span(v.iter().copied()),
                QiValues::Date(v) => span(v.iter().map(|&d| d as f64)),
                QiValues::Categorical { hierarchy, .. } => hierarchy.leaf_count() as f64 - 1.0,
            })
            .collect();
        QiExtents { spans }
    }
}

fn span(values: impl Iterator<Item = f64>) -> f64 {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    if hi > lo {
        hi - lo
    } else {
        0.0
    }
}

/// NCP of one generalized QI (`qi` indexes `Table::qis()`), in [0, 1].
pub fn qi_ncp(table: &Table, extents: &QiExtents, qi: usize, g: &GeneralizedQi) -> f64 {
    let span = extents.spans[qi];
    if span <= 0.0 {
        return 0.0;
    }
    let width = match (g, &table.qis()[qi].values) {
        (GeneralizedQi::Numeric { lo, hi }, _) => hi - lo,
        (GeneralizedQi::Date { lo, hi }, _) => (*hi as f64) - (*lo as f64),
        (GeneralizedQi::Categorical { level, node }, QiValues::Categorical { hierarchy, .. }) => {
            hierarchy.leaves_under(*level, *node) as f64 - 1.0
        }
        (GeneralizedQi::Categorical { .. }, _) => {
            unreachable!("a categorical generalization of a non-categorical column")
        }
    };
    width / span
}

/// loss(G) of group `group` (xcolor.txt §V.B): Σ over QIs of the NCP.
pub fn group_loss(table: &Table, extents: &QiExtents, release: &Release, group: usize) -> f64 {
    release.generalized()[group]
        .iter()
        .enumerate()
        .map(|(d, g)| qi_ncp(table, extents, d, g))
        .sum()
}

/// Per QI (in `Table::qis()` order): the NCP averaged over published rows.
pub fn attribute_ncp(table: &Table, release: &Release) -> Vec<f64> {
    let extents = QiExtents::new(table);
    let dims = table.qis().len();
    let rows = release.partition().rows();
    let mut sums = vec![0.0; dims];
    for (group, gen) in release.partition().groups.iter().zip(release.generalized()) {
        for (d, g) in gen.iter().enumerate() {
            sums[d] += group.len() as f64 * qi_ncp(table, &extents, d, g);
        }
    }
    if rows > 0 {
        sums.iter_mut().for_each(|s| *s /= rows as f64);
    }
    sums
}

/// Global certainty penalty: the NCP averaged over published rows and QIs.
pub fn gcp(table: &Table, release: &Release) -> f64 {
    let per = attribute_ncp(table, release);
    if per.is_empty() {
        0.0
    } else {
        per.iter().sum::<f64>() / per.len() as f64
    }
}

/// Discernibility: Σ |G|² (each row is charged the size of its group).
pub fn discernibility(release: &Release) -> u64 {
    release
        .partition()
        .groups
        .iter()
        .map(|g| (g.len() as u64).pow(2))
        .sum()
}

/// The utility figures of a release.
#[derive(Debug, Clone, PartialEq)]
pub struct UtilityMetrics {
    pub gcp: f64,
    /// `(QI name, NCP averaged over rows)` in `Table::qis()` order.
    pub attribute_ncp: Vec<(String, f64)>,
    /// Mean over groups of loss(G), xcolor.txt §V.B.
    pub mean_group_loss: f64,
    pub discernibility: u64,
    pub average_group_size: f64,
    /// Average group size / k (1 is the ideal), when a k applies.
    pub normalized_average_group_size: Option<f64>,
}

/// All the figures above; `k` is the model's k when it has one.
pub fn metrics(table: &Table, release: &Release, k: Option<usize>) -> UtilityMetrics {
    let extents = QiExtents::new(table);
    let ncp = attribute_ncp(table, release);
    let groups = release.groups();
    let rows = release.partition().rows();
    let mean_group_loss = if groups == 0 {
        0.0
    } else {
        (0..groups)
            .map(|g| group_loss(table, &extents, release, g))
            .sum::<f64>()
            / groups as f64
    };
    let average_group_size = if groups == 0 {
        0.0
    } else {
        rows as f64 / groups as f64
    };
    UtilityMetrics {
        gcp: if ncp.is_empty() {
            0.0
        } else {
            ncp.iter().sum::<f64>() / ncp.len() as f64
        },
        attribute_ncp: table
            .qis()
            .iter()
            .map(|c| c.name.clone())
            .zip(ncp)
            .collect(),
        mean_group_loss,
        discernibility: discernibility(release),
        average_group_size,
        normalized_average_group_size: k.filter(|&k| k > 0).map(|k| average_group_size / k as f64),
    }
}

#[cfg(test)]
mod tests;
