//! Audits of a partition against privacy checks (docs/api.md §Audits).
//!
//! The request and report types live here; the checks themselves are in
//! submodules. A report is computed over any partition: a job's result, or an
//! uploaded table grouped by identical published QI values or by a column.

pub(crate) mod frequency;
mod grouping;
pub(crate) mod proximity;
mod special;
pub(crate) mod summary;

use std::borrow::Cow;

use crate::error::{CoreError, CoreResult, Detail, Field};
use crate::metric::{MetricSpec, SensitiveSpace};
use crate::params::{Dissimilarity, EpsilonM, Fraction, GroundDistance, LDiversityVariant, K};
use crate::partition::Partition;
use crate::privacy::SaCodes;
use crate::progress::Progress;
use crate::risk::suda::{DisFraction, KeyScope, MaxSize, PublishedQis};
use crate::risk::ProsecutorRisk;
use crate::table::Table;

pub use grouping::{group_by_column, group_by_published_qis};

/// One check of an audit request.
#[derive(Debug, Clone, PartialEq)]
pub enum AuditCheck {
    KAnonymity {
        k: K,
    },
    LDiversity {
        l: f64,
        variant: LDiversityVariant,
    },
    /// (α,k)-anonymity: every group has ≥ k rows and no SA value has a
    /// relative frequency above α in its group.
    AlphaK {
        alpha: Fraction,
        k: K,
    },
    EpsilonM(EpsilonM),
    /// (ε,δ)^k-dissimilarity under a metric (default: the SA's default).
    Dissimilarity {
        params: Dissimilarity,
        metric: Option<MetricSpec>,
    },
    /// (δ,l)-diversity: values are similar when their δ-intervals overlap.
    DeltaLDiversity {
        delta: f64,
        l: usize,
    },
    TCloseness {
        t: Fraction,
        ground: GroundDistance,
    },
    /// SUDA2's minimal sample uniques of up to `max_size` columns over
    /// the published QIs or every published column ([`crate::risk::suda`]).
    /// A table-wide scan of what is published, not a figure per victim:
    /// the attacker's view reports it as the groups' view does.
    SpecialUniques {
        max_size: MaxSize,
        columns: KeyScope,
        dis_fraction: DisFraction,
    },
}

impl AuditCheck {
    /// Whether the check reads the SA's dense codes ([`SaCodes`]).
    pub fn needs_sa_codes(&self) -> bool {
        matches!(
            self,
            AuditCheck::LDiversity { .. }
                | AuditCheck::AlphaK { .. }
                | AuditCheck::TCloseness { .. }
        )
    }

    pub fn kind_name(&self) -> &'static str {
        match self {
            AuditCheck::KAnonymity { .. } => "k_anonymity",
            AuditCheck::LDiversity { .. } => "l_diversity",
            AuditCheck::AlphaK { .. } => "alpha_k",
            AuditCheck::EpsilonM(_) => "epsilon_m",
            AuditCheck::Dissimilarity { .. } => "dissimilarity",
            AuditCheck::DeltaLDiversity { .. } => "delta_l_diversity",
            AuditCheck::TCloseness { .. } => "t_closeness",
            AuditCheck::SpecialUniques { .. } => "special_uniques",
        }
    }

    /// Whether the attacker's view judges the check victim by victim
    /// (every check but the table-wide scans).
    pub fn judged_per_victim(&self) -> bool {
        !matches!(self, AuditCheck::SpecialUniques { .. })
    }
}

/// A record named in a report (`special_uniques`): never its values.
#[derive(Debug, Clone, PartialEq)]
pub struct WorstRecord {
    /// 0-based row of the audited table.
    pub row: usize,
    /// Its 1-based data line in the upload (a release's `row_id`).
    pub line: u32,
    pub score: f64,
    pub dis_suda: f64,
    /// How many MSUs it has.
    pub msus: usize,
    /// The columns of its smallest MSU.
    pub columns: Vec<String>,
}

/// A group named in a report: its id (1-based group index as text, or the
/// grouping column's value) with its size and the check's figure for it.
#[derive(Debug, Clone, PartialEq)]
pub struct WorstGroup {
    pub group_id: String,
    pub size: usize,
    pub value: f64,
}

/// The result of one check.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckReport {
    pub kind: &'static str,
    /// The check's parameters as requested (for the report's `params`).
    pub params: Vec<(String, Detail)>,
    pub passed: bool,
    /// The check's natural figures (docs/api.md): `min_size`; `l`;
    /// `max_breach_probability` + `achieved_m`; `max_risk` + `vulnerability`;
    /// `max_emd`; …
    pub value: Vec<(String, Detail)>,
    pub violating_groups: usize,
    pub violating_rows: usize,
    /// At most [`MAX_WORST_GROUPS`], worst first.
    pub worst_groups: Vec<WorstGroup>,
    /// Checks that judge records (`special_uniques`); `None` for the
    /// others.
    pub records: Option<RecordFigures>,
}

/// The record-level figures of a check that judges records.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordFigures {
    /// At most [`MAX_WORST_GROUPS`], worst first.
    pub worst: Vec<WorstRecord>,
    /// MSUs of each size (index k − 1 for size k).
    pub msus_by_size: Vec<usize>,
    /// Each column scanned with its share of the total SUDA score in
    /// percent (the shares add up to more than 100: an MSU counts for each
    /// of its columns).
    pub column_contributions: Vec<(String, f64)>,
}

/// A group-size histogram bucket, in Google DLP's shape.
#[derive(Debug, Clone, PartialEq)]
pub struct SizeBucket {
    pub min_size: usize,
    pub max_size: usize,
    pub groups: usize,
    pub rows: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AuditReport {
    pub rows: usize,
    pub groups: usize,
    /// True when every check passed.
    pub passed: bool,
    pub checks: Vec<CheckReport>,
    pub risk: ProsecutorRisk,
    pub group_sizes: Vec<SizeBucket>,
}

/// The most groups a check lists in `worst_groups`.
pub const MAX_WORST_GROUPS: usize = 20;

/// Audits `partition` of `table` against `checks` (docs/api.md §Audits).
///
/// `group_ids` names the groups in the report (default: 1-based index).
/// Errors: `invalid_parameters` at `/checks/{i}…` when check i does not fit
/// the table (an SA-based check without exactly one SA column, a numeric-only
/// check on a categorical SA, a metric that does not fit); `internal` when
/// the partition does not cover the table or the ids do not match it.
/// Every check runs in O(n log n) overall (no pairwise scans except for
/// composite/distribution metrics, inside each group).
pub fn audit(
    table: &Table,
    partition: &Partition,
    group_ids: Option<&[String]>,
    checks: &[AuditCheck],
    progress: Progress,
) -> CoreResult<AuditReport> {
    audit_published(
        table,
        partition,
        group_ids,
        checks,
        PublishedQis::AsStored,
        None,
        progress,
    )
}

/// The SA's dense codes that `checks` read ([`AuditCheck::needs_sa_codes`]),
/// built once for a caller that runs several evaluations of the same
/// checks on the same table (the audit and the attacker's view of a job):
/// `None` when no check reads them; the error of the first check that
/// does (a table without exactly one SA column) otherwise.
pub fn sa_codes_for(
    table: &Table,
    checks: &[AuditCheck],
    progress: Progress,
) -> CoreResult<Option<SaCodes>> {
    match checks.iter().position(AuditCheck::needs_sa_codes) {
        Some(i) => SaCodes::new_checked(table, Field::Check(i), progress).map(Some),
        None => Ok(None),
    }
}

/// [`audit`] with the QIs read as `qis` says they are published — the
/// release's labels for a job's release, the values as stored for an
/// uploaded table — by the checks that read published values
/// (`special_uniques`); the others judge the partition as [`audit`] does.
/// `known_sa`: the SA's codes when the caller built them
/// ([`sa_codes_for`], shared with the attacker's view of the same checks);
/// `None` to have them built here by the first check that needs them.
pub fn audit_published(
    table: &Table,
    partition: &Partition,
    group_ids: Option<&[String]>,
    checks: &[AuditCheck],
    qis: PublishedQis,
    known_sa: Option<&SaCodes>,
    progress: Progress,
) -> CoreResult<AuditReport> {
    progress.report(0.0)?;
    partition.check_covers(table.rows())?;
    if let Some(ids) = group_ids {
        if ids.len() != partition.len() {
            return Err(CoreError::internal(format!(
                "{} group ids for {} groups",
                ids.len(),
                partition.len()
            )));
        }
    }
    let steps = checks.len() as f64 + 1.0;
    let mut sa: Option<Cow<'_, SaCodes>> = known_sa.map(Cow::Borrowed);
    let mut reports = Vec::with_capacity(checks.len());
    for (i, check) in checks.iter().enumerate() {
        progress.report(i as f64 / steps)?;
        // Inside a check: a checkpoint every few milliseconds of work (the
        // proximity checks' cost grows with the square of a group's size
        // for composite SAs).
        let mut ticker =
            crate::ticker::Ticker::new(progress.sub(i as f64 / steps, (i + 1) as f64 / steps));
        let field = Field::Check(i);
        if check.needs_sa_codes() && sa.is_none() {
            // Built once, by the first check that needs the SA's codes.
            // A pass over every row: checkpoints by blocks, at the check's
            // start (its own work reports from there).
            let at_start = progress.sub(i as f64 / steps, i as f64 / steps);
            sa = Some(Cow::Owned(SaCodes::new_checked(table, &field, at_start)?));
        }
        let sa_codes = || {
            sa.as_deref()
                .ok_or_else(|| CoreError::internal("SA codes not built"))
        };
        let report = match check {
            AuditCheck::KAnonymity { k } => frequency::k_anonymity(*k, partition, group_ids),
            AuditCheck::LDiversity { l, variant } => {
                // The same domain checks as a job's l-diversity model (l ≥ 1,
                // integral for distinct/recursive, c > 0).
                let any_k = K::new(1, &field)?;
                crate::params::LDiversity::new(*l, *variant, any_k, &field)?;
                frequency::l_diversity(
                    *l,
                    *variant,
                    sa_codes()?,
                    partition,
                    group_ids,
                    &mut ticker,
                )?
            }
            AuditCheck::AlphaK { alpha, k } => {
                frequency::alpha_k(*alpha, *k, sa_codes()?, partition, group_ids, &mut ticker)?
            }
            AuditCheck::TCloseness { t, ground } => frequency::t_closeness(
                *t,
                *ground,
                sa_codes()?,
                &field,
                partition,
                group_ids,
                &mut ticker,
            )?,
            AuditCheck::EpsilonM(params) => {
                proximity::epsilon_m(*params, table, &field, partition, group_ids, &mut ticker)?
            }
            AuditCheck::Dissimilarity { params, metric } => {
                let space = dissimilarity_space(table, metric.as_ref(), &field)?;
                proximity::dissimilarity(*params, &space, partition, group_ids, &mut ticker)?
            }
            AuditCheck::DeltaLDiversity { delta, l } => proximity::delta_l_diversity(
                *delta,
                *l,
                table,
                &field,
                partition,
                group_ids,
                &mut ticker,
            )?,
            AuditCheck::SpecialUniques {
                max_size,
                columns,
                dis_fraction,
            } => special::special_uniques(
                *max_size,
                *columns,
                *dis_fraction,
                table,
                qis,
                partition,
                group_ids,
                progress.sub(i as f64 / steps, (i + 1) as f64 / steps),
            )?,
        };
        reports.push(report);
    }
    let report = AuditReport {
        rows: partition.rows(),
        groups: partition.len(),
        passed: reports.iter().all(|r| r.passed),
        checks: reports,
        risk: summary::prosecutor(partition),
        group_sizes: summary::size_buckets(partition),
    };
    progress.report(1.0)?;
    Ok(report)
}

/// The SA space a dissimilarity check measures in: its metric, or the SA's
/// default; errors re-rooted under the check's `field`.
pub(crate) fn dissimilarity_space(
    table: &Table,
    metric: Option<&MetricSpec>,
    field: &Field,
) -> CoreResult<SensitiveSpace> {
    match metric {
        Some(spec) => SensitiveSpace::new(table, spec),
        None => MetricSpec::default_for(table).and_then(|spec| SensitiveSpace::new(table, &spec)),
    }
    .map_err(|e| under(field, e))
}

/// Re-roots an error's fields under the check that caused it (the
/// metric's weights → that check's metric's weights).
fn under(field: &Field, mut e: CoreError) -> CoreError {
    for f in &mut e.errors {
        let inner = std::mem::replace(&mut f.field, Field::Data);
        f.field = Field::Within(Box::new(field.clone()), Box::new(inner));
    }
    e
}

#[cfg(test)]
mod shared_sa_tests {
    use super::*;
    use crate::table::{QiValues, SaValues};

    fn l2() -> AuditCheck {
        AuditCheck::LDiversity {
            l: 2.0,
            variant: LDiversityVariant::Distinct,
        }
    }

    /// The codes a job builds once for its audit and its view: none when
    /// no check reads them, the first reader's error, and the same report
    /// as codes built by the audit itself.
    #[test]
    fn sa_codes_are_built_for_the_first_check_that_reads_them() {
        let k = AuditCheck::KAnonymity {
            k: K::new(2, "/k").unwrap(),
        };
        let qi = || vec![("a".into(), QiValues::Numeric(vec![1.0, 1.0, 2.0, 2.0]))];
        let one = Table::from_columns(
            qi(),
            vec![("s".into(), SaValues::Numeric(vec![1.0, 2.0, 1.0, 1.0]))],
        );
        let two = Table::from_columns(
            qi(),
            vec![
                ("x".into(), SaValues::Numeric(vec![1.0; 4])),
                ("y".into(), SaValues::Numeric(vec![1.0; 4])),
            ],
        );
        assert!(
            sa_codes_for(&one, std::slice::from_ref(&k), Progress::none())
                .unwrap()
                .is_none()
        );
        let err = sa_codes_for(&two, &[k.clone(), l2()], Progress::none()).unwrap_err();
        assert_eq!(err.errors[0].field, Field::Check(1));
        let checks = [k, l2()];
        let sa = sa_codes_for(&one, &checks, Progress::none()).unwrap();
        assert!(sa.is_some());
        let partition = Partition::new(vec![vec![0, 1], vec![2, 3]]);
        let shared = audit_published(
            &one,
            &partition,
            None,
            &checks,
            PublishedQis::AsStored,
            sa.as_ref(),
            Progress::none(),
        )
        .unwrap();
        let own = audit(&one, &partition, None, &checks, Progress::none()).unwrap();
        assert_eq!(shared, own);
        assert!(!own.checks[1].passed, "the second group has one SA value");
    }
}
