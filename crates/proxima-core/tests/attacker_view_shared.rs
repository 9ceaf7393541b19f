//! The attacker's view on the shared tables (regressions of the breaches found there): a
//! job either publishes a release in which the brute-force twin finds no
//! victim over the bound, or fails with `model_not_satisfied` — it never
//! succeeds while breaching. Skipped, with the reason printed, when
//! `../shared/data` is absent.

mod attacker_twin;
mod common;

use attacker_twin::checks::{breaches, evaluate, explain};
use attacker_twin::jobs::{dissimilarity, epsilon_m, spec, twin_checks};
use attacker_twin::published::AttackerView;
use proxima_core::attacker::{victim_figures, GroupBoxes};
use proxima_core::ingest::shared::SharedTable;
use proxima_core::metric::MetricSpec;
use proxima_core::params::{Algorithm, Neighborhood};
use proxima_core::run::{self, JobSpec};
use proxima_core::{ErrorKind, Progress, Table};
use proxima_test_support::shared::load_shared;
use rand::rngs::StdRng;
use rand::seq::index::sample;
use rand::SeedableRng;

fn load(which: SharedTable) -> Option<Table> {
    match load_shared(which) {
        None => {
            eprintln!(
                "skipped: ../shared/data is absent, so {} is not available",
                which.name()
            );
            None
        }
        Some(t) => Some(t.unwrap()),
    }
}

/// Runs the job; a published release must pass the twin for every victim
/// of `victims` (all rows when `None`).
fn publishes_only_safe_releases(
    name: &str,
    table: &Table,
    job: &JobSpec,
    victims: Option<Vec<usize>>,
) {
    let outcome = match run::run_job(table, job, Progress::none()) {
        Ok(outcome) => outcome,
        Err(e) => {
            assert_eq!(
                e.kind,
                ErrorKind::ModelNotSatisfied,
                "{name}: a refusal must be model_not_satisfied, got {e}"
            );
            eprintln!("{name}: refused clearly: {e}");
            return;
        }
    };
    let view = AttackerView::from_release(table, &outcome.anonymized.release);
    let victims = victims.unwrap_or_else(|| (0..table.rows()).collect());
    for check in twin_checks(table, job) {
        let figures = evaluate(&view, table, &check, victims.iter().copied());
        let bad = breaches(&check, &figures);
        let groups: Vec<usize> = figures.iter().map(|f| f.candidate_groups).collect();
        eprintln!(
            "{name}: {} groups; {} of {} victims over ({check:?}); candidate groups per victim max {}",
            outcome.anonymized.release.groups(),
            bad.len(),
            figures.len(),
            groups.iter().max().unwrap_or(&0)
        );
        if let Some(worst) = bad.first() {
            panic!(
                "{name}: the job succeeded but {} of {} victims breach in the attacker's view (worst {:.4}); {}",
                bad.len(),
                figures.len(),
                worst.figure,
                explain(&view, worst)
            );
        }
    }
}

#[test]

fn creditcard_epsilon_m_1000_4_is_safe_or_refused() {
    let Some(t) = load(SharedTable::CreditCard) else {
        return;
    };
    let job = spec(
        epsilon_m(1000.0, 4, Neighborhood::Absolute),
        Algorithm::EpsilonM,
        None,
    );
    publishes_only_safe_releases("creditcard em ε=1000 m=4", &t, &job, None);
}

#[test]

fn creditcard_xcolor_1000_085_4_is_safe_or_refused() {
    let Some(t) = load(SharedTable::CreditCard) else {
        return;
    };
    let job = spec(
        dissimilarity(1000.0, 0.85, 4),
        Algorithm::XColor,
        Some(MetricSpec::Absolute),
    );
    publishes_only_safe_releases("creditcard xcolor ε=1000 δ=0.85 k=4", &t, &job, None);
}

#[test]

fn adult_full_composite_xcolor_is_safe_or_refused() {
    let Some(t) = load(SharedTable::AdultFullComposite) else {
        return;
    };
    // The composite SA's default metric: equal-weight L1.
    let job = spec(dissimilarity(0.02, 0.7, 4), Algorithm::XColor, None);
    publishes_only_safe_releases("adult_full xcolor ε=0.02 δ=0.7 k=4", &t, &job, None);
}

#[test]

fn sal_500k_epsilon_m_is_safe_for_a_sample_of_victims() {
    let Some(t) = load(SharedTable::SalSynthetic) else {
        return;
    };
    let job = spec(
        epsilon_m(4500.0, 5, Neighborhood::Absolute),
        Algorithm::EpsilonM,
        None,
    );
    // The twin scans every group per victim: 3,000 victims bound its cost.
    let victims = sample(&mut StdRng::seed_from_u64(10), t.rows(), 3_000).into_vec();
    publishes_only_safe_releases("sal 500k em ε=4500 m=5", &t, &job, Some(victims));
}

/// The fast check and the twin judge the creditcard (ε,m) partition alike,
/// victim by victim (the partition as the partitioner made it, before the
/// job's self-audit, so it passes whether or not the release is safe).
#[test]
fn creditcard_fast_check_agrees_with_the_twin() {
    let Some(t) = load(SharedTable::CreditCard) else {
        return;
    };
    let job = spec(
        epsilon_m(1000.0, 4, Neighborhood::Absolute),
        Algorithm::EpsilonM,
        None,
    );
    let release = run::anonymize(&t, &job, Progress::none()).unwrap().release;
    let fast_check = run::job_audit_checks(&t, &job).unwrap().remove(0);
    let boxes = GroupBoxes::from_release(&t, &release);
    let fast = victim_figures(&t, release.partition(), &boxes, &fast_check).unwrap();
    let view = AttackerView::from_release(&t, &release);
    let check = twin_checks(&t, &job).remove(0);
    let twin = evaluate(&view, &t, &check, 0..t.rows());
    for (row, (f, w)) in fast.iter().zip(&twin).enumerate() {
        assert!(
            (f - w.figure).abs() <= 1e-9,
            "row {row}: fast {f}, twin {}",
            w.figure
        );
    }
    eprintln!(
        "creditcard em ε=1000 m=4: fast check and twin agree on {} victims ({} over)",
        twin.len(),
        twin.iter().filter(|f| !f.passed).count()
    );
}
