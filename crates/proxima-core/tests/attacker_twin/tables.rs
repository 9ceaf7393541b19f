//! Random small tables for the attacker's-view property tests: numeric
//! (decimals and negatives, with ties), categorical with a two-level
//! hierarchy, categorical flat and date QIs; a numeric, categorical
//! (hierarchy or flat) or composite (numeric + categorical) SA.

use std::sync::Arc;

use proptest::prelude::*;
use proxima_core::table::{QiValues, SaValues, Table};
use proxima_core::Hierarchy;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QiKind {
    Numeric,
    Hierarchy,
    Flat,
    Date,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaKind {
    Numeric,
    Hierarchy,
    Flat,
    /// A numeric column and a categorical column with a hierarchy.
    Composite,
}

/// A table as raw draws; [`TableCase::build`] maps them into each kind's
/// domain. Kept raw so a failing case prints compactly.
#[derive(Debug, Clone)]
pub struct TableCase {
    pub qis: Vec<(QiKind, Vec<u32>)>,
    pub sa: SaKind,
    pub sa_raw: Vec<(u32, u32)>,
}

/// `*` → h0, h1, h2 → four leaves each (l0 … l11). Three children under
/// the root and four under each h make both kinds of risky cut possible:
/// one side printing `*`, which covers the other side's leaves, and both
/// sides printing the same h.
pub fn tree() -> Arc<Hierarchy> {
    let paths: Vec<Vec<String>> = (0..12)
        .map(|i| vec![format!("l{i}"), format!("h{}", i / 4), "*".to_string()])
        .collect();
    Arc::new(Hierarchy::from_paths(&paths).unwrap())
}

pub fn flat() -> Arc<Hierarchy> {
    Arc::new(Hierarchy::flat(["x", "y", "z", "w"]))
}

impl TableCase {
    pub fn rows(&self) -> usize {
        self.sa_raw.len()
    }

    pub fn build(&self) -> Table {
        let (tree, flat) = (tree(), flat());
        let qis = self
            .qis
            .iter()
            .enumerate()
            .map(|(i, (kind, raw))| {
                let values = match kind {
                    // Halves from −4 to 7.5: decimals, negatives and ties.
                    QiKind::Numeric => QiValues::Numeric(
                        raw.iter().map(|&r| (r % 24) as f64 * 0.5 - 4.0).collect(),
                    ),
                    QiKind::Hierarchy => QiValues::Categorical {
                        codes: raw.iter().map(|&r| r % 12).collect(),
                        hierarchy: tree.clone(),
                    },
                    QiKind::Flat => QiValues::Categorical {
                        codes: raw.iter().map(|&r| r % 4).collect(),
                        hierarchy: flat.clone(),
                    },
                    // Days around 2022-01-08 … 2022-02-16.
                    QiKind::Date => {
                        QiValues::Date(raw.iter().map(|&r| 19_000 + (r % 40) as i32).collect())
                    }
                };
                (format!("q{i}"), values)
            })
            .collect();
        let numeric = || {
            SaValues::Numeric(
                self.sa_raw
                    .iter()
                    .map(|&(a, _)| 1.0 + (a % 40) as f64)
                    .collect(),
            )
        };
        let categorical = |h: &Arc<Hierarchy>, has_hierarchy: bool| SaValues::Categorical {
            codes: self
                .sa_raw
                .iter()
                .map(|&(_, b)| b % h.leaf_count() as u32)
                .collect(),
            hierarchy: h.clone(),
            has_hierarchy,
        };
        let sa = match self.sa {
            SaKind::Numeric => vec![("s".to_string(), numeric())],
            SaKind::Hierarchy => vec![("s".to_string(), categorical(&tree, true))],
            SaKind::Flat => vec![("s".to_string(), categorical(&flat, false))],
            SaKind::Composite => vec![
                ("s".to_string(), numeric()),
                ("t".to_string(), categorical(&tree, true)),
            ],
        };
        Table::from_columns(qis, sa)
    }

    /// The same rows in the order `perm` (a permutation of `0..rows`).
    pub fn permuted(&self, perm: &[usize]) -> TableCase {
        TableCase {
            qis: self
                .qis
                .iter()
                .map(|(k, raw)| (*k, perm.iter().map(|&i| raw[i]).collect()))
                .collect(),
            sa: self.sa,
            sa_raw: perm.iter().map(|&i| self.sa_raw[i]).collect(),
        }
    }
}

pub fn qi_kind() -> impl Strategy<Value = QiKind> {
    prop_oneof![
        Just(QiKind::Numeric),
        Just(QiKind::Hierarchy),
        Just(QiKind::Flat),
        Just(QiKind::Date),
    ]
}

/// Tables of `rows` rows, 1–3 QIs of any kind, an SA of one of `sa`.
pub fn table_case(
    sa: Vec<SaKind>,
    rows: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = TableCase> {
    (rows, prop::sample::select(sa), 1usize..=3).prop_flat_map(|(n, sa, d)| {
        (
            prop::collection::vec((qi_kind(), prop::collection::vec(0u32..1000, n)), d),
            prop::collection::vec((0u32..1000, 0u32..1000), n),
        )
            .prop_map(move |(qis, sa_raw)| TableCase { qis, sa, sa_raw })
    })
}

/// A table case with a permutation of its rows.
pub fn with_permutation(
    cases: impl Strategy<Value = TableCase>,
) -> impl Strategy<Value = (TableCase, Vec<usize>)> {
    cases.prop_flat_map(|case| {
        let n = case.rows();
        (
            Just(case),
            Just((0..n).collect::<Vec<usize>>()).prop_shuffle(),
        )
    })
}
