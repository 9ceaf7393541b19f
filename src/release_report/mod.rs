//! The release report (`GET /v1/jobs/{id}/report`): what a release
//! officer reads and signs before publication. `build` assembles the
//! content from the stored job, its dataset's table, the rebuilt release
//! and the job's audit; `html` renders it as a self-contained page.
//!
//! Nothing here defines a second version of a figure the service already
//! computes: the attacker's-view figures are the job audit's, the risk
//! measures are `proxima_core::risk`'s, utility is
//! `proxima_core::utility`'s, and the release hash is taken over the bytes
//! `crate::render::write_release` writes for `GET …/result`.

pub mod classes;
pub mod content;
pub mod html;
pub mod risk;
pub mod sa;
pub mod sign_off;
pub mod special;
pub mod utility;
pub mod verdict;
pub mod warnings;
pub mod words;

use proxima_core::error::CoreResult;
use proxima_core::generalize::{label, Release};
use proxima_core::run::Anonymized;
use proxima_core::{CoreError, Progress, Table};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::api::audit_report::AuditReportDto;
use crate::api::{FeasibilityRequestDto, JobRequestDto, ModelDto};
use crate::store::datasets::DatasetRow;
use crate::store::jobs::JobRow;
use content::*;

/// The most riskiest combinations and groups listed (internal report), and
/// the most groups whose SA distribution is charted.
pub const MAX_LISTED: usize = 10;

/// What a report is built from.
pub struct Input<'a> {
    pub job: &'a JobRow,
    pub dataset: &'a DatasetRow,
    /// The dataset's table as uploaded (after missing-value suppression).
    pub table: &'a Table,
    /// The rebuilt release and the job audit; None for a failed job.
    pub outcome: Option<(&'a Anonymized, &'a AuditReportDto)>,
    /// The dataset's population table in the key space of its releases,
    /// when its schema names one: journalist risk is then counted in it.
    pub population: Option<&'a proxima_core::population::PopulationIndex>,
    pub audience: Audience,
    /// Asked between the stages (and while the release is hashed): a
    /// report whose request was given up (timed out, client gone) stops at
    /// the next one with `cancelled` instead of computing on.
    pub progress: Progress<'a>,
    /// The tenant's release policy and where it comes from: the verdict's
    /// thresholds.
    pub policy: (
        crate::api::policy::ReleasePolicy,
        crate::api::policy::PolicySource,
    ),
    /// The job's approvals, oldest first.
    pub approvals: &'a [crate::api::approval::ApprovalDto],
}

/// Assembles the report (blocking: it hashes the release and measures risk
/// over every row).
pub fn build(input: &Input<'_>) -> CoreResult<ReleaseReport> {
    let Input {
        job,
        dataset,
        table,
        outcome,
        population: population_table,
        audience,
        progress,
        policy,
        approvals,
    } = *input;
    let checkpoint = || progress.report(0.0);
    checkpoint()?;
    // Resolved once against the rows uploaded (suppressed ones included):
    // a release that publishes fewer rows is a smaller sample of the same
    // N, so before and after share one population size.
    let population = dataset
        .population
        .map(|p| {
            p.to_population()
                .map(|p| p.map(|p| p.as_size(dataset.rows as usize)))
        })
        .transpose()?
        .flatten();
    let mut report = ReleaseReport {
        audience,
        // Decided below, once every figure is in.
        verdict: verdict::judge(&verdict::Facts::default(), &policy.0, policy.1),
        approvals: approvals.to_vec(),
        job: ReportJob {
            id: job.id.to_string(),
            status: job.status.as_str().to_owned(),
            created_at: job.created_at,
            finished_at: job.finished_at,
            request: replay_request(job)?,
        },
        dataset: dataset_section(dataset),
        release: None,
        failure: None,
        risk: RiskSection {
            // Filled below, once the classes are counted.
            before: RiskFigures::default(),
            after: None,
        },
        attacker_view: None,
        group_sizes: Vec::new(),
        sensitive: Vec::new(),
        utility: None,
        warnings: Vec::new(),
        riskiest: None,
        // Filled at the end.
        combinations: CombinationsSection {
            max_size: 0,
            dis_fraction: 0.0,
            scans: Vec::new(),
            skipped: None,
        },
    };
    let columns = table.qis().iter().map(|q| q.name.clone()).collect();
    let mut risky_after = Vec::new();
    let raw = match outcome {
        None => {
            let raw = classes::raw_classes(table);
            report.failure = Some(failure(job, table)?);
            report.warnings = warnings::warnings(table, None, &job.model, audience)?;
            raw
        }
        Some((anonymized, audit)) => {
            let kept = anonymized.table(table);
            let release = &anonymized.release;
            // Memory: the attacker's view (the audit's own), the raw classes
            // and the utility's workload indexes each hold arrays per row.
            // They run one after the other, each dropping its arrays as soon
            // as its figures are taken, so the peak is the largest of them,
            // not their sum. Time: the CSV hash (streamed: nothing per row)
            // runs beside the classes, then the two workloads (a thread per
            // q) take the cores.
            // On the job's pool (proxima_core::parallel), so a panic on
            // either side is redacted like the rest of the computation.
            let (hashed, counted) = rayon::join(
                || hash_csv(kept, release, progress),
                || -> CoreResult<_> {
                    let candidates = classes::candidate_sizes(kept, release)?;
                    checkpoint()?;
                    let after = risk::figures_after(&candidates, population)?;
                    let risky = risky_groups(kept, release, &candidates);
                    drop(candidates);
                    checkpoint()?;
                    Ok((after, risky, classes::raw_classes(table)))
                },
            );
            let (sha256, bytes) = hashed?;
            let (after, risky, raw) = counted?;
            checkpoint()?;
            let util = utility::utility(
                table,
                anonymized,
                dataset.suppressed_rows as u64,
                &job.model,
            )?;
            report.release = Some(ReleaseFacts {
                sha256,
                bytes,
                rows: release.partition().rows() as u64,
                groups: release.groups() as u64,
                columns: proxima_core::generalize::release_header(kept, false),
            });
            let mut after = after;
            if let Some(index) = population_table {
                let boxes = proxima_core::attacker::GroupBoxes::from_release(kept, release);
                let counts = proxima_core::population::class_counts(index, &boxes);
                risk::with_population_table(&mut after, release.partition(), &counts, index.rows());
            }
            report.risk.after = Some(after);
            let model_check = audit
                .checks
                .first()
                .cloned()
                .ok_or_else(|| CoreError::internal("a job audit without the model's check"))?;
            // The audit's worst groups of the model's check, in the
            // attacker's view (group ids are 1-based release ids).
            let worst: Vec<usize> = model_check
                .worst_groups
                .iter()
                .filter_map(|g| g.group_id.parse::<usize>().ok())
                .filter(|&g| g >= 1 && g <= release.groups())
                .map(|g| g - 1)
                .take(MAX_LISTED)
                .collect();
            let worst_rows: Vec<u32> = worst
                .iter()
                .flat_map(|&g| release.partition().groups[g].iter().copied())
                .collect();
            report.sensitive = sa::distributions(kept, &worst_rows, worst.len());
            report.attacker_view = Some(AttackerSection {
                checks: audit
                    .checks
                    .iter()
                    .map(|c| CheckVerdict {
                        kind: c.kind.clone(),
                        passed: c.passed,
                    })
                    .collect(),
                model_check,
            });
            report.group_sizes = audit.group_sizes.clone();
            report.utility = Some(util);
            checkpoint()?;
            report.warnings = warnings::warnings(table, Some(anonymized), &job.model, audience)?;
            risky_after = risky;
            raw
        }
    };
    report.risk.before = risk::figures_before(&raw, population)?;
    if let Some(index) = population_table {
        let (classes, counts) = proxima_core::population::raw_classes(table, index);
        risk::with_population_table(&mut report.risk.before, &classes, &counts, index.rows());
    }
    checkpoint()?;
    report.combinations = special::section(
        table,
        outcome.map(|(anonymized, _)| anonymized),
        population,
        audience,
        progress,
    )?;
    checkpoint()?;
    if audience == Audience::Internal {
        report.riskiest = Some(Riskiest {
            columns,
            before: risky_combinations(table, &raw),
            after: risky_after,
        });
    }
    report.verdict = verdict::judge(&report.verdict_facts(), &policy.0, policy.1);
    Ok(report)
}

/// The SHA-256 and length of the CSV `GET …/result` serves. `progress`
/// is asked at every 64 KiB written: a cancel ends the write.
fn hash_csv(table: &Table, release: &Release, progress: Progress) -> CoreResult<(String, u64)> {
    struct Hasher<'p> {
        sha: Sha256,
        bytes: u64,
        progress: Progress<'p>,
        cancelled: Option<CoreError>,
    }
    impl std::io::Write for Hasher<'_> {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            if let Err(e) = self.progress.report(0.0) {
                self.cancelled = Some(e);
                return Err(std::io::Error::other("cancelled"));
            }
            self.sha.update(b);
            self.bytes += b.len() as u64;
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let hasher = Hasher {
        sha: Sha256::new(),
        bytes: 0,
        progress,
        cancelled: None,
    };
    let mut out = std::io::BufWriter::with_capacity(1 << 16, hasher);
    let failed = |e: std::io::Error| CoreError::internal(format!("hashing the release: {e}"));
    let written =
        crate::render::write_release(crate::render::Format::Csv, &mut out, table, release, false)
            .map(|_| ());
    if let Some(e) = out.get_mut().cancelled.take() {
        return Err(e);
    }
    written.map_err(failed)?;
    let h = out.into_inner().map_err(|e| failed(e.into_error()))?;
    Ok((hex::encode(h.sha.finalize()), h.bytes))
}

/// The stored job as the body of `POST /v1/jobs` that replays it.
fn replay_request(job: &JobRow) -> CoreResult<JobRequestDto> {
    Ok(crate::api::JobParams::try_from(job)
        .map_err(|e| CoreError::internal(e.to_string()))?
        .to_request(job.dataset_id.to_string()))
}

fn dataset_section(d: &DatasetRow) -> ReportDataset {
    let columns: Vec<ReportColumn> = d
        .columns
        .iter()
        .map(|c| ReportColumn {
            name: c.name.clone(),
            role: c.role,
            value_type: c.r#type,
        })
        .collect();
    ReportDataset {
        id: d.id.to_string(),
        name: d.name.clone(),
        rows: d.rows as u64,
        suppressed_rows: d.suppressed_rows as u64,
        sha256: d.sha256.clone(),
        population: d.population,
        columns,
    }
}

/// A failed job: its error, and what the service would deliver for sure
/// for its model on this table (the feasibility answer, for the models
/// that have one).
fn failure(job: &JobRow, table: &Table) -> CoreResult<Failure> {
    let question = match &job.model {
        ModelDto::EpsilonM {
            epsilon,
            m,
            neighborhood,
        } => Some(FeasibilityRequestDto::EpsilonM {
            epsilon: Some(epsilon.clone()),
            // With the job's m: the least suppression any release needs.
            m: Some(m.clone()),
            neighborhood: *neighborhood,
        }),
        ModelDto::Dissimilarity { epsilon, .. } => Some(FeasibilityRequestDto::Dissimilarity {
            epsilon: epsilon.clone(),
            sensitive_metric: job.sensitive_metric.clone(),
        }),
        _ => None,
    };
    let deliverable = match question {
        None => None,
        Some(q) => q
            .to_question()
            .and_then(|q| crate::api::answer_feasibility(&q, table))
            .ok(),
    };
    let error = job.error.clone();
    Ok(Failure {
        code: error.as_ref().map(|e| e.code.clone()).unwrap_or_default(),
        message: error
            .as_ref()
            .map(|e| e.message.clone())
            .unwrap_or_default(),
        details: error.map(|e| e.details).unwrap_or(Value::Null),
        deliverable,
    })
}

/// The smallest classes of the uploaded table, with their QI values.
fn risky_combinations(table: &Table, raw: &classes::RawClasses) -> Vec<RiskyCombination> {
    let mut order: Vec<usize> = (0..raw.sizes.len()).collect();
    order.sort_by_key(|&c| (raw.sizes[c], raw.first[c]));
    order
        .into_iter()
        .take(MAX_LISTED)
        .map(|c| RiskyCombination {
            values: table
                .qis()
                .iter()
                .map(|q| {
                    table
                        .text(q.schema_index, raw.first[c] as usize)
                        .unwrap_or_default()
                        .to_string()
                })
                .collect(),
            class_size: raw.sizes[c] as u64,
        })
        .collect()
}

/// The groups whose rows have the fewest candidates, with their labels.
fn risky_groups(table: &Table, release: &Release, candidates: &[u32]) -> Vec<RiskyGroup> {
    let groups = &release.partition().groups;
    let fewest: Vec<u32> = groups
        .iter()
        .map(|rows| {
            rows.iter()
                .map(|&r| candidates[r as usize])
                .min()
                .unwrap_or(0)
        })
        .collect();
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.sort_by_key(|&g| (fewest[g], g));
    order
        .into_iter()
        .take(MAX_LISTED)
        .map(|g| RiskyGroup {
            group_id: (g + 1).to_string(),
            labels: table
                .qis()
                .iter()
                .zip(&release.generalized()[g])
                .map(|(q, gen)| label(&q.values, gen))
                .collect(),
            size: groups[g].len() as u64,
            candidates: fewest[g] as u64,
            prosecutor: if fewest[g] == 0 {
                0.0
            } else {
                1.0 / fewest[g] as f64
            },
        })
        .collect()
}
