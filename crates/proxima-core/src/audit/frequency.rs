//! Checks on group sizes and SA value frequencies: k-anonymity,
//! l-diversity, (α,k)-anonymity and t-closeness.

use crate::error::{CoreResult, Detail, Field};
use crate::params::{Fraction, GroundDistance, LDiversityVariant, K};
use crate::partition::Partition;
use crate::privacy::{self, EmdReference, SaCodes};
use crate::ticker::Ticker;

use super::summary::{check_report, rows_of_failed, Figures, Worse};
use super::CheckReport;

fn d(key: &str, value: impl Into<Detail>) -> (String, Detail) {
    (key.to_string(), value.into())
}

pub(crate) fn variant_name(v: LDiversityVariant) -> &'static str {
    match v {
        LDiversityVariant::Distinct => "distinct",
        LDiversityVariant::Entropy => "entropy",
        LDiversityVariant::Recursive { .. } => "recursive",
    }
}

pub(crate) fn ground_name(g: GroundDistance) -> &'static str {
    match g {
        GroundDistance::Ordered => "ordered",
        GroundDistance::Equal => "equal",
        GroundDistance::Hierarchical => "hierarchical",
    }
}

/// Every group has ≥ k rows; value `min_size`.
pub(crate) fn k_anonymity(k: K, partition: &Partition, ids: Option<&[String]>) -> CheckReport {
    let values: Vec<f64> = partition.groups.iter().map(|g| g.len() as f64).collect();
    let failed: Vec<bool> = partition.groups.iter().map(|g| g.len() < k.get()).collect();
    let violating_rows = rows_of_failed(partition, &failed);
    check_report(
        "k_anonymity",
        vec![d("k", k.get())],
        vec![d("min_size", partition.min_group_size())],
        Figures {
            values,
            failed,
            violating_rows,
        },
        Worse::Lower,
        partition,
        ids,
    )
}

/// Every group is l-diverse; value `l`, the smallest l a group achieves.
pub(crate) fn l_diversity(
    l: f64,
    variant: LDiversityVariant,
    sa: &SaCodes,
    partition: &Partition,
    ids: Option<&[String]>,
    ticker: &mut Ticker,
) -> CoreResult<CheckReport> {
    let mut values = Vec::with_capacity(partition.len());
    let mut failed = Vec::with_capacity(partition.len());
    for g in &partition.groups {
        ticker.tick(g.len() * 4)?;
        let counts = sa.group_counts(g);
        values.push(privacy::achieved_l(&counts, variant));
        failed.push(!privacy::is_l_diverse(&counts, l, variant));
    }
    let min_l = values.iter().copied().fold(f64::INFINITY, f64::min);
    let min_l = if min_l.is_finite() { min_l } else { 0.0 };
    let mut params = vec![d("l", l), d("variant", variant_name(variant))];
    if let LDiversityVariant::Recursive { c } = variant {
        params.push(d("c", c));
    }
    let value = match variant {
        LDiversityVariant::Entropy => vec![d("l", min_l)],
        _ => vec![d("l", min_l as usize)],
    };
    let violating_rows = rows_of_failed(partition, &failed);
    Ok(check_report(
        "l_diversity",
        params,
        value,
        Figures {
            values,
            failed,
            violating_rows,
        },
        Worse::Lower,
        partition,
        ids,
    ))
}

/// (α,k)-anonymity: |G| ≥ k and no SA value above α of its group; value
/// `max_frequency`.
pub(crate) fn alpha_k(
    alpha: Fraction,
    k: K,
    sa: &SaCodes,
    partition: &Partition,
    ids: Option<&[String]>,
    ticker: &mut Ticker,
) -> CoreResult<CheckReport> {
    let values: Vec<f64> = partition
        .groups
        .iter()
        .map(|g| {
            ticker.tick(g.len() * 4)?;
            Ok(privacy::max_frequency(&sa.group_counts(g)))
        })
        .collect::<CoreResult<_>>()?;
    let failed: Vec<bool> = partition
        .groups
        .iter()
        .zip(&values)
        .map(|(g, &f)| g.len() < k.get() || f > alpha.get())
        .collect();
    let max = values.iter().copied().fold(0.0, f64::max);
    let violating_rows = rows_of_failed(partition, &failed);
    Ok(check_report(
        "alpha_k",
        vec![d("alpha", alpha.get()), d("k", k.get())],
        vec![d("max_frequency", max)],
        Figures {
            values,
            failed,
            violating_rows,
        },
        Worse::Higher,
        partition,
        ids,
    ))
}

/// t-closeness: EMD(group, table) ≤ t; value `max_emd`.
pub(crate) fn t_closeness(
    t: Fraction,
    ground: GroundDistance,
    sa: &SaCodes,
    field: &Field,
    partition: &Partition,
    ids: Option<&[String]>,
    ticker: &mut Ticker,
) -> CoreResult<CheckReport> {
    let reference = EmdReference::new(sa, ground, field.param("ground_distance"))?;
    let values: Vec<f64> = partition
        .groups
        .iter()
        .map(|g| {
            ticker.tick(g.len() * 4)?;
            Ok(reference.emd(&sa.group_counts(g)))
        })
        .collect::<CoreResult<_>>()?;
    let failed: Vec<bool> = values.iter().map(|&e| e > t.get()).collect();
    let max = values.iter().copied().fold(0.0, f64::max);
    let violating_rows = rows_of_failed(partition, &failed);
    Ok(check_report(
        "t_closeness",
        vec![d("t", t.get()), d("ground_distance", ground_name(ground))],
        vec![d("max_emd", max)],
        Figures {
            values,
            failed,
            violating_rows,
        },
        Worse::Higher,
        partition,
        ids,
    ))
}
