//! "Records at risk through combinations of columns": SUDA2's minimal
//! sample uniques (`proxima_core::risk::suda`, the `special_uniques` audit
//! check's measure) over the uploaded table's QIs, and over the release as
//! published — its QIs through the groups' labels, then every published
//! column. A release is scanned as the downloaded CSV reads: two records
//! whose groups print the same label share that value.
//!
//! The external report lists the scans' figures and the columns involved
//! (each column's share of the SUDA score); only the internal report names
//! records, with the values their smallest MSU publishes.

use proxima_core::error::CoreResult;
use proxima_core::generalize::label;
use proxima_core::risk::suda::{
    self, DisFraction, KeyScope, MaxSize, PublishedQis, Suda, DEFAULT_MAX_SIZE,
};
use proxima_core::risk::Population;
use proxima_core::run::Anonymized;
use proxima_core::{Progress, Table};

use super::content::{Audience, CombinationScan, CombinationsSection, RecordAtRisk};
use super::MAX_LISTED;
use crate::api::audit_report::ColumnContributionDto;

/// The most rows the report scans: the search's time grows with the rows
/// times the column subsets (release build, 2 cores: 44 ms over adult's 8
/// QIs, 0.6 s over 600k rows' 8 QIs, 11 s over their 15 published columns),
/// and the report must stay quick. Larger tables are left to the
/// `special_uniques` audit check, and the section says so.
pub const MAX_REPORT_ROWS: usize = 100_000;

/// The section: the upload's QIs, then (with a release) the release's QIs
/// and every column it publishes. DIS-SUDA's sampling fraction is the
/// dataset's (rows over its population) when it declares a population,
/// else sdcMicro's default.
pub fn section(
    table: &Table,
    outcome: Option<&Anonymized>,
    population: Option<Population>,
    audience: Audience,
    progress: Progress,
) -> CoreResult<CombinationsSection> {
    section_within(
        table,
        outcome,
        population,
        audience,
        progress,
        MAX_REPORT_ROWS,
    )
}

/// [`section`] scanning tables of at most `max_rows` rows.
fn section_within(
    table: &Table,
    outcome: Option<&Anonymized>,
    population: Option<Population>,
    audience: Audience,
    progress: Progress,
    max_rows: usize,
) -> CoreResult<CombinationsSection> {
    let max_size = MaxSize::default();
    let dis_fraction = match population {
        Some(p) => DisFraction::new(p.sampling_fraction_for(table.rows()), "/population")?,
        None => DisFraction::default(),
    };
    if table.rows() > max_rows {
        return Ok(CombinationsSection {
            max_size: DEFAULT_MAX_SIZE as u64,
            dis_fraction: dis_fraction.get(),
            scans: Vec::new(),
            skipped: Some(format!(
                "{} rows, over the report's {max_rows}; audit the release \
                 with the special_uniques check (POST /v1/audits)",
                table.rows()
            )),
        });
    }
    let mut scans = Vec::new();
    let mut scan = |table: &Table, name: &str, scope: KeyScope, qis: PublishedQis| {
        progress.report(0.0)?;
        let keys = suda::key_columns(table, scope, qis)?;
        let s = suda::suda(&keys, max_size, dis_fraction, progress)?;
        let worst = (audience == Audience::Internal).then(|| worst(table, qis, &s));
        scans.push(figures(name, scope, &s, worst));
        Ok::<_, proxima_core::CoreError>(())
    };
    scan(
        table,
        "upload",
        KeyScope::QuasiIdentifiers,
        PublishedQis::AsStored,
    )?;
    if let Some(anonymized) = outcome {
        let kept = anonymized.table(table);
        let release = PublishedQis::Release(&anonymized.release);
        scan(kept, "release", KeyScope::QuasiIdentifiers, release)?;
        scan(kept, "release", KeyScope::Published, release)?;
    }
    Ok(CombinationsSection {
        max_size: DEFAULT_MAX_SIZE as u64,
        dis_fraction: dis_fraction.get(),
        scans,
        skipped: None,
    })
}

fn figures(
    table: &str,
    scope: KeyScope,
    s: &Suda,
    worst: Option<Vec<RecordAtRisk>>,
) -> CombinationScan {
    let mut involved: Vec<ColumnContributionDto> = s
        .columns
        .iter()
        .zip(&s.contributions)
        .filter(|(_, &p)| p > 0.0)
        .map(|(c, &p)| ColumnContributionDto {
            column: c.clone(),
            percent: p,
        })
        .collect();
    involved.sort_by(|a, b| b.percent.total_cmp(&a.percent));
    CombinationScan {
        table: table.to_string(),
        columns: scope.name().to_string(),
        columns_scanned: s.columns.len() as u64,
        records: s.scores.len() as u64,
        records_with_msu: s.records_with_msu() as u64,
        sample_uniques: s.sample_uniques as u64,
        max_suda_score: s.max_score(),
        dis_suda: s.max_dis(),
        dis_suda_mean: s.mean_dis(),
        msus_by_size: s.msus_by_size.iter().map(|&n| n as u64).collect(),
        columns_involved: involved,
        worst,
    }
}

/// The highest-scoring records with the values their smallest MSU
/// publishes (internal report only).
fn worst(table: &Table, qis: PublishedQis, s: &Suda) -> Vec<RecordAtRisk> {
    let group_of = match qis {
        PublishedQis::Release(release) => Some(release.partition().group_of_rows(table.rows())),
        PublishedQis::AsStored => None,
    };
    s.worst(MAX_LISTED)
        .into_iter()
        .map(|r| {
            let columns = s.smallest_names(r);
            let values = columns
                .iter()
                .map(|name| published_value(table, qis, group_of.as_deref(), name, r))
                .collect();
            RecordAtRisk {
                record: table.source_lines()[r] as u64,
                score: s.scores[r],
                dis_suda: s.dis[r],
                columns: columns.into_iter().map(String::from).collect(),
                values,
            }
        })
        .collect()
}

/// Row `r`'s value of column `name` as published: a release's QI is its
/// group's label, anything else the cell as uploaded.
fn published_value(
    table: &Table,
    qis: PublishedQis,
    group_of: Option<&[u32]>,
    name: &str,
    r: usize,
) -> String {
    let Some((index, _)) = table.schema().column(name) else {
        return String::new();
    };
    if let (PublishedQis::Release(release), Some(group_of)) = (qis, group_of) {
        if let Some(d) = table.qis().iter().position(|q| q.schema_index == index) {
            let g = group_of[r] as usize;
            return label(&table.qis()[d].values, &release.generalized()[g][d]);
        }
    }
    table.text(index, r).unwrap_or_default().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proxima_core::table::QiValues;

    fn table() -> Table {
        // Row 3 is alone on (a, b); row 2 alone on a = 9.
        Table::from_columns(
            vec![
                (
                    "a".into(),
                    QiValues::Numeric(vec![1.0, 1.0, 9.0, 2.0, 2.0, 1.0]),
                ),
                (
                    "b".into(),
                    QiValues::Numeric(vec![5.0, 5.0, 5.0, 5.0, 6.0, 6.0]),
                ),
            ],
            vec![],
        )
    }

    #[test]
    fn internal_lists_records_and_values_external_only_figures() {
        let t = table();
        let internal =
            section_within(&t, None, None, Audience::Internal, Progress::none(), 10).unwrap();
        assert_eq!(internal.skipped, None);
        let scan = &internal.scans[0];
        assert_eq!(
            (scan.table.as_str(), scan.columns.as_str()),
            ("upload", "quasi_identifiers")
        );
        assert_eq!(scan.records_with_msu, 4);
        let worst = scan.worst.as_ref().unwrap();
        // Row 2 (line 3) has the 1-MSU a = 9: the highest score.
        assert_eq!(worst[0].record, 3);
        assert_eq!(worst[0].columns, ["a"]);
        assert_eq!(worst[0].values, ["9"]);
        let external =
            section_within(&t, None, None, Audience::External, Progress::none(), 10).unwrap();
        assert!(external.scans[0].worst.is_none());
        assert_eq!(external.scans[0].records_with_msu, 4);
        // A declared population sets DIS-SUDA's sampling fraction.
        let half = section_within(
            &t,
            None,
            Some(Population::Size(12)),
            Audience::External,
            Progress::none(),
            10,
        )
        .unwrap();
        assert_eq!(half.dis_fraction, 0.5);
    }

    #[test]
    fn a_table_over_the_limit_is_not_scanned_and_says_why() {
        let s = section_within(
            &table(),
            None,
            None,
            Audience::Internal,
            Progress::none(),
            5,
        )
        .unwrap();
        assert!(s.scans.is_empty());
        assert!(s.skipped.unwrap().contains("6 rows, over the report's 5"));
    }
}
