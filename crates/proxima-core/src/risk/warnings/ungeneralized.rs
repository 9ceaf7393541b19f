//! Warning: a QI left almost ungeneralized while the model generalized
//! others.
//!
//! A QI is what an attacker may know. If the release publishes one nearly
//! exactly (its NCP, the width of the published interval or subtree over
//! the column's extent averaged over records, is near 0; see
//! [`crate::utility`]) while it generalized another QI broadly, the
//! groups were bought with the other QIs: an attacker who knows the
//! precise QI narrows a target down with nearly full precision on it, and
//! a partitioner that cuts along the widest spread (Mondrian) tends to do
//! this to a column with a small range or few values. The officer should
//! check that the column really is as harmless as the model treated it.
//!
//! The rule: the QI's NCP ≤ [`UNGENERALIZED_NCP`] while another QI's NCP ≥
//! [`GENERALIZED_ELSEWHERE_NCP`]. The figures add the share of records
//! that show their exact value of the QI.

use crate::generalize::Release;
use crate::table::{QiValues, Table};
use crate::utility::ncp::{attribute_ncp, qi_ncp, QiExtents};

/// "Almost ungeneralized": intervals averaging at most 5% of the column's
/// range (e.g. under 4 years of an age range 17–90), or subtrees holding at
/// most 5% of a hierarchy's leaves.
pub const UNGENERALIZED_NCP: f64 = 0.05;

/// "The model needed generalization elsewhere": some other QI at NCP ≥ 0.2
/// (four times the threshold above), so the contrast is the model's doing
/// rather than a release that barely generalized anything.
pub const GENERALIZED_ELSEWHERE_NCP: f64 = 0.2;

/// One QI's generalization beside the most generalized other QI.
#[derive(Debug, Clone, PartialEq)]
pub struct UngeneralizedQi {
    pub qi: String,
    /// NCP averaged over published records, in [0, 1].
    pub ncp: f64,
    /// Share of published records whose value of this QI is exact.
    pub exact_share: f64,
    /// The most generalized other QI and its NCP (`None` with one QI).
    pub most_generalized_other: Option<(String, f64)>,
    /// False when every published record has the same value (nothing to
    /// generalize, nothing to give away): never warns.
    pub varies: bool,
}

impl UngeneralizedQi {
    pub fn fires(&self) -> bool {
        self.varies
            && self.ncp <= UNGENERALIZED_NCP
            && self
                .most_generalized_other
                .as_ref()
                .is_some_and(|(_, o)| *o >= GENERALIZED_ELSEWHERE_NCP)
    }

    pub fn message(&self) -> String {
        let other = self
            .most_generalized_other
            .as_ref()
            .map(|(name, ncp)| format!(" while '{name}' was generalized to {:.0}%", 100.0 * ncp))
            .unwrap_or_default();
        format!(
            "The QI '{}' is published almost as is (information loss {:.1}%{other}); {:.0}% of the records show its exact value. \
             An attacker who knows it keeps nearly its full precision.",
            self.qi,
            100.0 * self.ncp,
            100.0 * self.exact_share,
        )
    }
}

/// Every QI of the release (in `Table::qis()` order) with its figures.
pub fn ungeneralized_qis(table: &Table, release: &Release) -> Vec<UngeneralizedQi> {
    let ncp = attribute_ncp(table, release);
    let extents = QiExtents::new(table);
    let rows = release.partition().rows();
    let names: Vec<&str> = table.qis().iter().map(|c| c.name.as_str()).collect();
    (0..names.len())
        .map(|d| {
            let exact: usize = release
                .partition()
                .groups
                .iter()
                .zip(release.generalized())
                .filter(|(_, g)| qi_ncp(table, &extents, d, &g[d]) == 0.0)
                .map(|(rows, _)| rows.len())
                .sum();
            let other = (0..names.len())
                .filter(|&o| o != d)
                .max_by(|&a, &b| ncp[a].total_cmp(&ncp[b]))
                .map(|o| (names[o].to_string(), ncp[o]));
            UngeneralizedQi {
                qi: names[d].to_string(),
                ncp: ncp[d],
                exact_share: if rows > 0 {
                    exact as f64 / rows as f64
                } else {
                    0.0
                },
                most_generalized_other: other,
                varies: varies(&table.qis()[d].values),
            }
        })
        .collect()
}

fn varies(values: &QiValues) -> bool {
    match values {
        QiValues::Numeric(v) => v.iter().any(|x| *x != v[0]),
        QiValues::Date(v) => v.iter().any(|x| *x != v[0]),
        QiValues::Categorical { codes, .. } => codes.iter().any(|x| *x != codes[0]),
    }
}
