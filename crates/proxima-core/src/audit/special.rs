//! The `special_uniques` check: SUDA2 over the published table
//! ([`crate::risk::suda`]), reported as records rather than groups.
//!
//! It passes when no record has a minimal sample unique of up to
//! `max_size` columns. `violating_rows` counts the records with one,
//! `violating_groups` the groups holding them, `worst_groups` the groups
//! of the highest-scoring records (value: the group's highest SUDA score)
//! and `worst_records` the highest-scoring records with the columns of
//! their smallest MSU — column names only, never values.

use crate::error::{CoreResult, Detail};
use crate::partition::Partition;
use crate::progress::Progress;
use crate::risk::suda::{self, DisFraction, KeyScope, MaxSize, PublishedQis};
use crate::table::Table;

use super::summary::{check_report, Figures, Worse};
use super::{CheckReport, RecordFigures, WorstRecord, MAX_WORST_GROUPS};

#[allow(clippy::too_many_arguments)]
pub(crate) fn special_uniques(
    max_size: MaxSize,
    scope: KeyScope,
    dis_fraction: DisFraction,
    table: &Table,
    qis: PublishedQis,
    partition: &Partition,
    ids: Option<&[String]>,
    progress: Progress,
) -> CoreResult<CheckReport> {
    let keys = suda::key_columns(table, scope, qis)?;
    let s = suda::suda(&keys, max_size, dis_fraction, progress)?;
    let group_of = partition.group_of_rows(table.rows());
    let mut values = vec![0.0f64; partition.len()];
    let mut failed = vec![false; partition.len()];
    for (r, &score) in s.scores.iter().enumerate() {
        let g = group_of[r] as usize;
        values[g] = values[g].max(score);
        failed[g] |= s.msus[r] > 0;
    }
    let params = vec![
        ("max_size".to_string(), Detail::from(max_size.get())),
        ("columns".to_string(), Detail::from(scope.name())),
        ("dis_fraction".to_string(), Detail::from(dis_fraction.get())),
    ];
    let value = vec![
        (
            "records_with_msu".to_string(),
            Detail::from(s.records_with_msu()),
        ),
        ("max_suda_score".to_string(), Detail::from(s.max_score())),
        ("dis_suda".to_string(), Detail::from(s.max_dis())),
        ("dis_suda_mean".to_string(), Detail::from(s.mean_dis())),
        ("sample_uniques".to_string(), Detail::from(s.sample_uniques)),
        ("columns_scanned".to_string(), Detail::from(s.columns.len())),
        ("max_size_searched".to_string(), Detail::from(s.max_size)),
    ];
    let figures = Figures {
        values,
        failed,
        violating_rows: s.records_with_msu(),
    };
    let mut report = check_report(
        "special_uniques",
        params,
        value,
        figures,
        Worse::Higher,
        partition,
        ids,
    );
    let worst = s
        .worst(MAX_WORST_GROUPS)
        .into_iter()
        .map(|r| WorstRecord {
            row: r,
            line: table.source_lines()[r],
            score: s.scores[r],
            dis_suda: s.dis[r],
            msus: s.msus[r] as usize,
            columns: s.smallest_names(r).into_iter().map(String::from).collect(),
        })
        .collect();
    report.records = Some(RecordFigures {
        worst,
        msus_by_size: s.msus_by_size.clone(),
        column_contributions: s
            .columns
            .iter()
            .cloned()
            .zip(s.contributions.iter().copied())
            .collect(),
    });
    Ok(report)
}
