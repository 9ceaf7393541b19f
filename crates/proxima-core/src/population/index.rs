//! A population table in the key space of a sample's release: every
//! population record becomes a point (numeric QIs by value, date QIs by
//! day, categorical QIs by the rank of its leaf in the *sample's*
//! hierarchy), equal points are merged into one cell with a count, and
//! the cells are indexed for box counts. A class's population count is the
//! sum over the cells its box covers: every record its labels cover,
//! whichever class the record would fall in (the attacker's view).
//!
//! A categorical value the sample's hierarchy does not know (a flat
//! hierarchy only knows the sample's own values) sits at a rank after the
//! last leaf, which only the root label — the box over every rank —
//! covers: `*` covers every value, any other label only its leaves.

use std::collections::HashSet;

use rayon::prelude::*;

use crate::attacker::{Axis, Dim, GroupBoxes};
use crate::error::{CoreError, CoreResult, ErrorKind, Field};
use crate::generalize::{
    generalize_column, parse_date_interval_label, parse_numeric_label, GeneralizedQi,
};
use crate::progress::{Progress, ROWS_PER_CHECKPOINT};
use crate::table::{QiValues, Table};

use super::kdtree::KdTree;

/// The key of a population value no label can cover (beyond every
/// finite interval an upload's labels can spell).
const UNCOVERED: f64 = f64::MAX;

/// A population table counted by cells of the sample's key space.
#[derive(Debug, Clone)]
pub struct PopulationIndex {
    /// Per sample QI: the rank just after the last leaf for a categorical
    /// key space (where values outside the sample's hierarchy sit), so that
    /// a box over every leaf is widened to cover them too.
    outside: Vec<Option<f64>>,
    tree: KdTree,
    rows: usize,
}

/// The key spaces of a job's release (`GroupBoxes::from_release`).
fn release_dims(sample: &Table) -> Vec<Dim> {
    sample
        .qis()
        .iter()
        .map(|c| match c.values {
            QiValues::Numeric(_) => Dim {
                axis: Axis::Value,
                discrete: false,
            },
            QiValues::Date(_) => Dim {
                axis: Axis::Value,
                discrete: true,
            },
            QiValues::Categorical { .. } => Dim {
                axis: Axis::Rank,
                discrete: true,
            },
        })
        .collect()
}

fn mismatch(field: &Field, message: String) -> CoreError {
    CoreError::new(ErrorKind::PopulationMismatch, message.clone()).with_error(field, message)
}

/// One population QI read into the sample's key space.
enum Source<'a> {
    Numbers(&'a [f64]),
    Days(&'a [i32]),
    /// Leaf codes of the population's hierarchy and each code's rank in
    /// the sample's.
    Ranks {
        codes: &'a [u32],
        rank_of: Vec<f64>,
    },
}

impl Source<'_> {
    fn key(&self, row: usize) -> f64 {
        match self {
            Source::Numbers(v) => v[row],
            Source::Days(v) => v[row] as f64,
            Source::Ranks { codes, rank_of } => rank_of[codes[row] as usize],
        }
    }
}

impl PopulationIndex {
    /// The population in the key space of a job's release of `sample`
    /// (the boxes of [`GroupBoxes::from_release`]). Errors
    /// (`population_mismatch` at `field`) when the population lacks one
    /// of the sample's QIs or holds it with another type.
    pub fn for_release(
        sample: &Table,
        population: &Table,
        field: impl Into<Field>,
        progress: Progress,
    ) -> CoreResult<PopulationIndex> {
        Self::build(
            sample,
            &release_dims(sample),
            population,
            &field.into(),
            progress,
        )
    }

    /// The population in the key space of `boxes` (read from `sample` by
    /// [`GroupBoxes::from_release`] or [`GroupBoxes::from_labels`]):
    /// interval labels of an uploaded table are matched against the
    /// population's numbers or dates.
    pub fn for_boxes(
        sample: &Table,
        boxes: &GroupBoxes,
        population: &Table,
        field: impl Into<Field>,
        progress: Progress,
    ) -> CoreResult<PopulationIndex> {
        Self::build(sample, &boxes.dims, population, &field.into(), progress)
    }

    fn build(
        sample: &Table,
        dims: &[Dim],
        population: &Table,
        field: &Field,
        progress: Progress,
    ) -> CoreResult<PopulationIndex> {
        let mut sources = Vec::with_capacity(dims.len());
        let mut outside = Vec::with_capacity(dims.len());
        for (column, dim) in sample.qis().iter().zip(dims) {
            let name = &column.name;
            let theirs = population
                .qis()
                .iter()
                .find(|c| &c.name == name)
                .ok_or_else(|| {
                    mismatch(
                        field,
                        format!("the population has no quasi-identifier '{name}'"),
                    )
                })?;
            let wrong = |want: &str| {
                mismatch(
                    field,
                    format!(
                        "the quasi-identifier '{name}' is {} in the population but the sample's \
                         needs {want}",
                        kind_of(&theirs.values)
                    ),
                )
            };
            let (source, out) = match (&column.values, dim.axis, &theirs.values) {
                (QiValues::Numeric(_), _, QiValues::Numeric(v)) => (Source::Numbers(v), None),
                (QiValues::Numeric(_), ..) => return Err(wrong("numbers")),
                (QiValues::Date(_), _, QiValues::Date(v)) => (Source::Days(v), None),
                (QiValues::Date(_), ..) => return Err(wrong("dates")),
                // Interval labels of an uploaded generalized table.
                (QiValues::Categorical { .. }, Axis::Labels, QiValues::Numeric(v))
                    if !dim.discrete =>
                {
                    (Source::Numbers(v), None)
                }
                (QiValues::Categorical { .. }, Axis::Labels, QiValues::Date(v)) if dim.discrete => {
                    (Source::Days(v), None)
                }
                // Both read as text: a population value that reads as a
                // number (a day) is that point; any other is covered by no
                // interval label.
                (
                    QiValues::Categorical { .. },
                    Axis::Labels,
                    QiValues::Categorical {
                        codes,
                        hierarchy: theirs,
                    },
                ) => {
                    let rank_of = theirs
                        .leaf_labels()
                        .iter()
                        .map(|l| {
                            let point = if dim.discrete {
                                parse_date_interval_label(l)
                                    .filter(|(lo, hi)| lo == hi)
                                    .map(|(lo, _)| lo as f64)
                            } else {
                                parse_numeric_label(l)
                                    .filter(|(lo, hi)| lo == hi)
                                    .map(|(lo, _)| lo)
                            };
                            point.unwrap_or(UNCOVERED)
                        })
                        .collect();
                    (Source::Ranks { codes, rank_of }, None)
                }
                (QiValues::Categorical { .. }, Axis::Labels, _) => {
                    return Err(wrong(if dim.discrete { "dates" } else { "numbers" }))
                }
                (
                    QiValues::Categorical { hierarchy, .. },
                    _,
                    QiValues::Categorical {
                        codes,
                        hierarchy: theirs,
                    },
                ) => {
                    let after = hierarchy.leaf_count() as f64;
                    let rank_of = theirs
                        .leaf_labels()
                        .iter()
                        .map(|l| {
                            hierarchy
                                .leaf_code(l)
                                .map_or(after, |c| hierarchy.leaf_rank(c) as f64)
                        })
                        .collect();
                    (Source::Ranks { codes, rank_of }, Some(after))
                }
                (QiValues::Categorical { .. }, ..) => return Err(wrong("categories")),
            };
            sources.push(source);
            outside.push(out);
        }
        let (points, weights) = cells(&sources, population.rows(), progress)?;
        let tree = KdTree::new(dims.len(), points, weights);
        Ok(PopulationIndex {
            outside,
            tree,
            rows: population.rows(),
        })
    }

    /// The population's records.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The distinct points (cells) of the population.
    pub fn cells(&self) -> usize {
        self.tree.points()
    }

    /// The population records inside a closed box of the sample's key
    /// space (one `[lo, hi]` per QI): a box over every leaf of a
    /// categorical QI also covers the values outside its hierarchy.
    pub fn count(&self, b: &[[f64; 2]]) -> u64 {
        self.count_up_to(b, u64::MAX)
    }

    /// [`PopulationIndex::count`], stopping once the total reaches `cap`
    /// (exact below it, some total ≥ `cap` otherwise).
    pub fn count_up_to(&self, b: &[[f64; 2]], cap: u64) -> u64 {
        let mut q: Vec<[f64; 2]> = b.to_vec();
        for (qd, out) in q.iter_mut().zip(&self.outside) {
            // (With a single leaf the leaf's own label spans every rank
            // too; it is not widened, which can only under-count.)
            if let Some(after) = *out {
                if after >= 2.0 && qd[0] <= 0.0 && qd[1] >= after - 1.0 {
                    qd[1] = after;
                }
            }
        }
        self.tree.count_up_to(&q, cap)
    }

    /// The population records the published labels of `rows` (one class
    /// of a release of `sample`: the tightest generalization of each QI)
    /// cover.
    pub fn count_rows(&self, sample: &Table, rows: &[u32]) -> u64 {
        self.count(&box_of_rows(sample, rows))
    }

    /// The population records at exactly one point of the key space.
    pub fn count_point(&self, point: &[f64]) -> u64 {
        let b: Vec<[f64; 2]> = point.iter().map(|&x| [x, x]).collect();
        self.tree.count(&b)
    }
}

/// The box the published labels of `rows` span in the release's key
/// space (as [`GroupBoxes::from_release`] reads a group).
pub fn box_of_rows(sample: &Table, rows: &[u32]) -> Vec<[f64; 2]> {
    sample
        .qis()
        .iter()
        .map(|c| match (generalize_column(&c.values, rows), &c.values) {
            (GeneralizedQi::Numeric { lo, hi }, _) => [lo, hi],
            (GeneralizedQi::Date { lo, hi }, _) => [lo as f64, hi as f64],
            (
                GeneralizedQi::Categorical { level, node },
                QiValues::Categorical { hierarchy, .. },
            ) => {
                let (first, last) = hierarchy.rank_range(level, node);
                [first as f64, last as f64]
            }
            (GeneralizedQi::Categorical { .. }, _) => unreachable!("categorical QI"),
        })
        .collect()
}

fn kind_of(v: &QiValues) -> &'static str {
    match v {
        QiValues::Numeric(_) => "numeric",
        QiValues::Date(_) => "a date",
        QiValues::Categorical { .. } => "categorical",
    }
}

/// The distinct points of the records (flattened) and how many records
/// each holds. Each axis's keys are coded densely; the codes of one record
/// form one mixed-radix number when the product of the axes' sizes fits in
/// 64 bits (real QI sets: adult's 8 QIs make 3·10⁸ combinations), sorted and counted in runs — else the
/// records are sorted by their codes.
fn cells(
    sources: &[Source<'_>],
    rows: usize,
    progress: Progress,
) -> CoreResult<(Vec<f64>, Vec<u64>)> {
    let dims = sources.len();
    // Per axis (the axes on the job's pool, crate::parallel): its distinct
    // keys (sorted) and each record's code.
    let per_axis: Vec<(Vec<f64>, Vec<u32>)> = sources
        .par_iter()
        .map(|s| -> CoreResult<(Vec<f64>, Vec<u32>)> {
            progress.report(0.0)?;
            let mut keys: Vec<f64> = match s {
                Source::Ranks { rank_of, .. } => rank_of.clone(),
                _ => {
                    // A hash set first: the distinct values are few.
                    let mut seen: HashSet<u64, foldhash::fast::RandomState> = HashSet::default();
                    for r in 0..rows {
                        seen.insert(s.key(r).to_bits());
                    }
                    seen.into_iter().map(f64::from_bits).collect()
                }
            };
            keys.sort_unstable_by(f64::total_cmp);
            keys.dedup_by(|a, b| a.total_cmp(b).is_eq());
            let code_of = |x: f64| keys.partition_point(|k| k.total_cmp(&x).is_lt()) as u32;
            let c: Vec<u32> = match s {
                Source::Ranks { codes, rank_of } => {
                    let by_leaf: Vec<u32> = rank_of.iter().map(|&x| code_of(x)).collect();
                    codes.iter().map(|&c| by_leaf[c as usize]).collect()
                }
                _ => (0..rows).map(|r| code_of(s.key(r))).collect(),
            };
            Ok((keys, c))
        })
        .collect::<CoreResult<_>>()?;
    let (distinct, codes): (Vec<Vec<f64>>, Vec<Vec<u32>>) = per_axis.into_iter().unzip();
    let radix: Option<Vec<u64>> = {
        let mut place = Vec::with_capacity(dims);
        let mut p: u64 = 1;
        let mut fits = true;
        for d in &distinct {
            place.push(p);
            match p.checked_mul(d.len().max(1) as u64) {
                Some(next) => p = next,
                None => fits = false,
            }
        }
        fits.then_some(place)
    };
    let mut points = Vec::new();
    let mut weights = Vec::new();
    let mut push = |code_at: &dyn Fn(usize) -> u32, weight: u64| {
        for (d, keys) in distinct.iter().enumerate() {
            points.push(keys[code_at(d) as usize]);
        }
        weights.push(weight);
    };
    match radix {
        Some(place) => {
            // Each record's key, block by block (in parallel), then sorted:
            // equal keys are one cell, in key order.
            let mut keys = vec![0u64; rows];
            keys.par_chunks_mut(ROWS_PER_CHECKPOINT)
                .enumerate()
                .try_for_each(|(b, block)| -> CoreResult<()> {
                    let start = b * ROWS_PER_CHECKPOINT;
                    progress.report(start as f64 / rows.max(1) as f64)?;
                    for (column, &p) in codes.iter().zip(&place) {
                        for (k, &c) in block.iter_mut().zip(&column[start..]) {
                            *k += c as u64 * p;
                        }
                    }
                    Ok(())
                })?;
            drop(codes);
            keys.par_sort_unstable();
            let mut cells: Vec<(u64, u64)> = Vec::new();
            for &key in &keys {
                match cells.last_mut() {
                    Some((last, w)) if *last == key => *w += 1,
                    _ => cells.push((key, 1)),
                }
            }
            drop(keys);
            let sizes: Vec<u64> = distinct.iter().map(|d| d.len().max(1) as u64).collect();
            for (key, w) in cells {
                push(&|d| ((key / place[d]) % sizes[d]) as u32, w);
            }
        }
        None => {
            let mut order: Vec<u32> = (0..rows as u32).collect();
            let codes = &codes;
            let tuple = |r: u32| (0..dims).map(move |d| codes[d][r as usize]);
            order.sort_unstable_by(|&a, &b| tuple(a).cmp(tuple(b)));
            let mut i = 0;
            while i < order.len() {
                let mut j = i + 1;
                while j < order.len() && tuple(order[j]).eq(tuple(order[i])) {
                    j += 1;
                }
                let r = order[i] as usize;
                push(&|d| codes[d][r], (j - i) as u64);
                i = j;
            }
        }
    }
    progress.report(1.0)?;
    Ok((points, weights))
}
