//! The benchmark cases: the standard suite of `shared/BENCHMARKS.md` plus
//! the colouring comparison, the utility bar, the server-memory case, the
//! peer-comparison cases and a tiny self-contained case for tests.

use proxima_core::audit::AuditCheck;
use proxima_core::ingest::shared::SharedTable;
use proxima_core::metric::{LpNorm, MetricSpec};
use proxima_core::params::PopulationModel;
use proxima_core::params::{
    Algorithm, Dissimilarity, Epsilon, EpsilonM, Fraction, GroundDistance, LDiversity,
    LDiversityVariant, Neighborhood, PrivacyModel, SuppressionLimit, TCloseness, K, M,
};
use proxima_core::risk::suda::KeyScope;
use proxima_core::run::JobSpec;
use proxima_core::xcolor::{InitialColoring, XColorOptions};
use serde::Serialize;
use serde_json::{json, Value};

/// Which list a case belongs to. `proxima bench` without `--case` runs
/// every group but `Peer` and `Test`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Group {
    /// The table of shared/BENCHMARKS.md.
    Standard,
    /// XColor with the paper's degree-balanced initial colouring (Algorithm 1).
    Colouring,
    /// The XColor utility bar (ε=0.1, δ=0.8, k=10).
    Utility,
    /// Peak RSS of the server on a 600k-row job.
    Memory,
    /// Counterparts of the Python peers' runs (scripts/peers), and ARX
    /// beside us (`arx-*`).
    Peer,
    /// The offline scale: 5M generated rows, the whole offline pipeline
    /// (minutes in all; run them by name, `--case`).
    Scale,
    /// A tiny generated table, for the harness's own test.
    Test,
}

impl Group {
    pub fn in_default_suite(self) -> bool {
        !matches!(self, Group::Peer | Group::Test | Group::Scale)
    }
}

/// Where a case's table comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A shared table with its standard schema (`ingest::shared`).
    Shared(SharedTable),
    /// adult_full with every row holding a `?` in any column dropped before
    /// loading (30,162 rows), with the composite schema.
    AdultFullNoMissing,
    /// A small table generated in code (no shared data needed).
    Mini,
    /// The sal layout at another size: `sal_synthetic/generate.py ROWS
    /// SEED` (the shared generator, run once into the bench's cache).
    SalGenerated { rows: usize, seed: u64 },
}

impl Source {
    pub fn name(self) -> &'static str {
        match self {
            Source::Shared(t) => t.name(),
            Source::AdultFullNoMissing => "adult_full (rows with `?` dropped)",
            Source::Mini => "mini (generated)",
            Source::SalGenerated {
                rows: 5_000_000, ..
            } => "sal_synthetic generate.py 5000000 7",
            Source::SalGenerated {
                rows: 50_000_000, ..
            } => "sal_synthetic generate.py 50000000 7",
            Source::SalGenerated { .. } => "sal_synthetic generate.py (another size)",
        }
    }
}

/// What a case runs.
#[derive(Debug, Clone)]
pub enum Work {
    /// `run::run_job` in-process: partition, generalize, self-audit.
    Job(JobSpec),
    /// A Mondrian k-anonymity partition (untimed), then `audit::audit` with
    /// these checks (timed). The first check is the grouping's own model.
    Audit { k: K, checks: Vec<AuditCheck> },
    /// The job's release (untimed), then its audit checks judged in the
    /// attacker's view (`attacker::evaluate`, victims at their original
    /// points; timed, boxes included).
    AttackerView(JobSpec),
    /// SUDA2 over the table's columns of `scope` as uploaded: the key
    /// columns built and every MSU of up to `max_size` columns found and
    /// scored (timed, together).
    Suda { scope: KeyScope, max_size: u64 },
    /// A population model's job (k-map, δ-presence) against a population
    /// of `copies` × the table's rows built from it (untimed; see
    /// `runner::population_job`), then the population's index and
    /// `run::run_job_with` (timed).
    PopulationJob { spec: JobSpec, copies: usize },
    /// `proxima anonymize` as a whole process (the binary beside this
    /// tool): read the CSV, run the job, write the release (timed from
    /// spawn to exit; the CSV is decompressed into the cache first).
    Offline { model: Value },
    /// The table's stored form (`proxima::store::table_frames`, as an
    /// upload writes it; untimed) decoded as a job does after its SELECT:
    /// LZ4 frame by frame and `table_codec`'s decoder (timed).
    StoredLoad,
    /// ARX and `proxima anonymize` alternately, pair by pair, with our
    /// partition step in-process (`bench::arx`; skipped without ARX).
    Arx(super::peer::ArxTable),
    /// Over HTTP: upload → job → poll → download the CSV (timed).
    Http {
        model: Value,
        metric: Option<Value>,
        /// The same job in-process, for the parameter checks.
        spec: JobSpec,
    },
}

/// Figures BENCHMARKS.md states for a case, checked against what the core
/// computes (mismatches are reported, never adjusted).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Stated {
    /// Theorem 1's largest m for the case's ε.
    pub max_m: Option<usize>,
    /// Θ: the largest ε-neighbour count of any row.
    pub theta: Option<usize>,
    /// Inequality 4's bound (n/2)(1 − (1 − 1/k)δ).
    pub bound: Option<f64>,
    /// Rows after loading.
    pub rows: Option<usize>,
}

#[derive(Debug, Clone)]
pub struct Case {
    pub name: &'static str,
    pub group: Group,
    pub source: Source,
    pub work: Work,
    /// BENCHMARKS.md's target for the median, in seconds.
    pub target_seconds: Option<f64>,
    /// BENCHMARKS.md's target for the peak RSS (of the process the case
    /// measures: its own, the offline command's or the server's), MiB.
    pub target_rss_mib: Option<u64>,
    pub stated: Stated,
    /// What the case is, in one line (printed by `--list`).
    pub about: &'static str,
}

impl Case {
    /// The case with a target for its peak RSS.
    fn rss_at_most(self, mib: u64) -> Case {
        Case {
            target_rss_mib: Some(mib),
            ..self
        }
    }
}

fn k(v: u64) -> K {
    K::new(v, "/model/k").expect("a valid k")
}

fn eps(v: f64) -> Epsilon {
    Epsilon::new(v, "/model/epsilon").expect("a valid epsilon")
}

fn frac(v: f64) -> Fraction {
    Fraction::new(v, "fraction", "/model").expect("a valid fraction")
}

fn epsilon_m(e: f64, m: u64, neighborhood: Neighborhood) -> JobSpec {
    let params = EpsilonM::new(
        eps(e),
        M::new(m, "/model/m").expect("a valid m"),
        neighborhood,
        "/model/epsilon",
    )
    .expect("valid (epsilon, m) parameters");
    JobSpec {
        model: PrivacyModel::EpsilonM(params),
        algorithm: Algorithm::EpsilonM,
        metric: None,
        xcolor: XColorOptions::default(),
        suppression_limit: Default::default(),
    }
}

/// `spec` allowed to suppress up to `limit` of the rows.
fn suppressing(spec: JobSpec, limit: f64) -> JobSpec {
    JobSpec {
        suppression_limit: SuppressionLimit::new(limit, "/suppression_limit")
            .expect("a valid suppression limit"),
        ..spec
    }
}

/// XColor with the L1 metric over every SA column (on one numeric column:
/// |a − b| / range).
fn xcolor(e: f64, delta: f64, kk: u64, initial: InitialColoring) -> JobSpec {
    JobSpec {
        model: PrivacyModel::Dissimilarity(Dissimilarity {
            epsilon: eps(e),
            delta: frac(delta),
            k: k(kk),
        }),
        algorithm: Algorithm::XColor,
        metric: Some(MetricSpec::Lp {
            p: LpNorm::L1,
            weights: Vec::new(),
        }),
        xcolor: XColorOptions { initial },
        suppression_limit: Default::default(),
    }
}

fn mondrian(model: PrivacyModel) -> JobSpec {
    JobSpec {
        model,
        algorithm: Algorithm::Mondrian,
        metric: None,
        xcolor: XColorOptions::default(),
        suppression_limit: Default::default(),
    }
}

/// Every audit check kind, on adult_scaled_synthetic's SA hours-per-week.
fn all_audit_checks() -> Vec<AuditCheck> {
    vec![
        AuditCheck::KAnonymity { k: k(10) },
        AuditCheck::LDiversity {
            l: 2.0,
            variant: LDiversityVariant::Distinct,
        },
        AuditCheck::LDiversity {
            l: 2.0,
            variant: LDiversityVariant::Entropy,
        },
        AuditCheck::LDiversity {
            l: 2.0,
            variant: LDiversityVariant::Recursive { c: 3.0 },
        },
        AuditCheck::AlphaK {
            alpha: frac(0.5),
            k: k(10),
        },
        AuditCheck::TCloseness {
            t: frac(0.2),
            ground: GroundDistance::Ordered,
        },
        AuditCheck::EpsilonM(
            EpsilonM::new(
                eps(5.0),
                M::new(2, "/m").expect("m"),
                Neighborhood::Absolute,
                "/e",
            )
            .expect("params"),
        ),
        AuditCheck::Dissimilarity {
            params: Dissimilarity {
                epsilon: eps(0.02),
                delta: frac(0.5),
                k: k(10),
            },
            metric: Some(MetricSpec::Lp {
                p: LpNorm::L1,
                weights: Vec::new(),
            }),
        },
        AuditCheck::DeltaLDiversity { delta: 5.0, l: 2 },
    ]
}

/// The JSON model and metric of docs/api.md for an in-process spec of the
/// kinds the HTTP cases use.
fn http_work(spec: JobSpec) -> Work {
    let (model, metric) = match &spec.model {
        PrivacyModel::EpsilonM(p) => (
            json!({"kind": "epsilon_m", "epsilon": p.epsilon.get(), "m": p.m.get(),
            "neighborhood": match p.neighborhood {
                Neighborhood::Absolute => "absolute",
                Neighborhood::Relative => "relative",
            }}),
            None,
        ),
        PrivacyModel::Dissimilarity(p) => (
            json!({"kind": "dissimilarity", "epsilon": p.epsilon.get(),
                   "delta": p.delta.get(), "k": p.k.get()}),
            Some(json!({"kind": "lp", "p": 1})),
        ),
        PrivacyModel::KAnonymity(kk) => (json!({"kind": "k_anonymity", "k": kk.get()}), None),
        other => panic!("no HTTP case uses {}", other.kind_name()),
    };
    Work::Http {
        model,
        metric,
        spec,
    }
}

/// Every case, standard suite first, in the order the table prints them.
pub fn all() -> Vec<Case> {
    use Group::*;
    use InitialColoring::{DegreeBalanced as Alg1, QiAware};
    use SharedTable::{Adult, AdultScaledSynthetic, CreditCard, Cup, SalSynthetic};
    let sal = Source::Shared(SalSynthetic);
    let credit = Source::Shared(CreditCard);
    let full = Source::AdultFullNoMissing;
    let s600k = Source::Shared(AdultScaledSynthetic);
    let sal5m = Source::SalGenerated {
        rows: 5_000_000,
        seed: 7,
    };
    let sal20m = Source::SalGenerated {
        rows: 20_000_000,
        seed: 7,
    };
    let sal50m = Source::SalGenerated {
        rows: 50_000_000,
        seed: 7,
    };
    let abs = Neighborhood::Absolute;
    let case = |name, group, source, work, target, stated, about| Case {
        name,
        group,
        source,
        work,
        target_seconds: target,
        target_rss_mib: None,
        stated,
        about,
    };
    let max_m = |m| Stated {
        max_m: Some(m),
        ..Stated::default()
    };
    let theta = |t, b, rows| Stated {
        theta: Some(t),
        bound: Some(b),
        rows,
        ..Stated::default()
    };
    vec![
        case("em-sal", Standard, sal, Work::Job(epsilon_m(4500.0, 5, abs)), Some(0.5), max_m(7),
             "(ε,m) absolute ε=4500, m=5 on sal_synthetic 500k"),
        case("em-sal-rel", Standard, sal,
             Work::Job(epsilon_m(0.125, 5, Neighborhood::Relative)), Some(0.5), max_m(12),
             "(ε,m) relative ε=0.125, m=5 on sal_synthetic 500k"),
        case("em-credit", Standard, credit, Work::Job(epsilon_m(1000.0, 4, abs)), Some(0.05),
             max_m(6), "(ε,m) absolute ε=1000, m=4 on creditcard, SA BILL_AMT1"),
        case("em-cup", Standard, Source::Shared(Cup), Work::Job(epsilon_m(5.0, 8, abs)),
             Some(0.1), max_m(11), "(ε,m) absolute ε=5, m=8 on cup (ZIP numeric), SA RAMNTALL"),
        case("xc-credit", Standard, credit, Work::Job(xcolor(0.001, 0.5, 10, QiAware)),
             Some(1.0), theta(5984, 8250.0, None),
             "XColor ε=0.001, δ=0.5, k=10 on creditcard, lp"),
        case("xc-credit-hard", Standard, credit, Work::Job(xcolor(0.001, 0.8, 10, QiAware)),
             Some(2.0), theta(5984, 4200.0, None),
             "XColor ε=0.001, δ=0.8, k=10 on creditcard, lp (beyond Theorem 3)"),
        case("xc-adult", Standard, full, Work::Job(xcolor(0.02, 0.5, 10, QiAware)), Some(1.0),
             theta(6435, 8295.0, Some(30_162)),
             "XColor ε=0.02, δ=0.5, k=10 on adult_full without `?` rows, composite SA, L1"),
        case("xc-sal", Standard, sal, Work::Job(xcolor(0.01, 0.8, 10, QiAware)), Some(20.0),
             theta(29750, 70000.0, None), "XColor ε=0.01, δ=0.8, k=10 on sal_synthetic 500k, lp"),
        case("mo-adult", Standard, Source::Shared(Adult),
             Work::Job(mondrian(PrivacyModel::KAnonymity(k(10)))), Some(0.03), Stated::default(),
             "Mondrian k=10 on adult (8 QIs with hierarchies)"),
        case("mo-600k", Standard, s600k, Work::Job(mondrian(PrivacyModel::KAnonymity(k(10)))),
             Some(1.0), Stated::default(), "Mondrian k=10 on adult_scaled_synthetic 600k"),
        case("kmap-600k", Standard, s600k,
             Work::PopulationJob {
                 spec: mondrian(PrivacyModel::Population(PopulationModel::KMap { k: k(10) })),
                 copies: 5,
             },
             Some(5.0), Stated::default(),
             "Mondrian k-map k=10 on adult_scaled_synthetic 600k against a 3M-row population \
              (the table, and 4 copies with each QI drawn from another row)"),
        case("au-600k", Standard, s600k, Work::Audit { k: k(10), checks: all_audit_checks() },
             Some(1.0), Stated::default(),
             "every audit check kind on adult_scaled_synthetic 600k grouped by Mondrian k=10"),
        case("e2e-adult", Standard, full, http_work(xcolor(0.02, 0.5, 10, QiAware)), Some(3.0),
             Stated { rows: Some(30_162), ..Stated::default() },
             "HTTP: upload adult_full (`?` rows dropped), XColor job as xc-adult, poll, download CSV"),
        case("e2e-sal", Standard, sal, http_work(suppressing(epsilon_m(4500.0, 5, abs), 0.25)),
             Some(1.0), Stated { rows: Some(500_000), ..Stated::default() },
             "HTTP: upload sal_synthetic 500k, (ε,m) job as em-sal-s25 (m=5 needs suppression; \
              limit 0.25), poll, download CSV"),
        case("load-sal", Standard, sal, Work::StoredLoad, Some(0.05),
             Stated { rows: Some(500_000), ..Stated::default() },
             "the stored sal_synthetic 500k decoded as a job loads it: LZ4 + table_codec decode"),
        case("av-sal", Standard, sal,
             Work::AttackerView(suppressing(epsilon_m(4500.0, 5, abs), 0.25)), Some(0.5),
             Stated::default(),
             "the attacker's-view check alone on em-sal's release (m=5 needs suppression; limit 0.25)"),
        case("sd-adult", Standard, Source::Shared(Adult),
             Work::Suda { scope: KeyScope::QuasiIdentifiers, max_size: 4 }, Some(1.0),
             Stated::default(), "SUDA2: MSUs of up to 4 of adult's 8 QIs, SUDA and DIS-SUDA scores"),
        case("sd-600k", Standard, s600k,
             Work::Suda { scope: KeyScope::QuasiIdentifiers, max_size: 4 }, Some(20.0),
             Stated::default(), "SUDA2 as sd-adult on adult_scaled_synthetic 600k (8 QIs)"),
        // The paper's degree-balanced Algorithm 1 on the same cases.
        case("xc-credit/alg1", Colouring, credit, Work::Job(xcolor(0.001, 0.5, 10, Alg1)), None,
             theta(5984, 8250.0, None), "xc-credit with the paper's Algorithm 1 colouring"),
        case("xc-credit-hard/alg1", Colouring, credit, Work::Job(xcolor(0.001, 0.8, 10, Alg1)),
             None, theta(5984, 4200.0, None),
             "xc-credit-hard with the paper's Algorithm 1 colouring"),
        case("xc-adult/alg1", Colouring, full, Work::Job(xcolor(0.02, 0.5, 10, Alg1)), None,
             theta(6435, 8295.0, Some(30_162)), "xc-adult with the paper's Algorithm 1 colouring"),
        case("xc-sal/alg1", Colouring, sal, Work::Job(xcolor(0.01, 0.8, 10, Alg1)), None,
             theta(29750, 70000.0, None), "xc-sal with the paper's Algorithm 1 colouring"),
        // The attacker's view: the largest m sal delivers at
        // ε=4500 without suppression, and m=5 with suppression.
        case("em-sal-m3", Utility, sal, Work::Job(epsilon_m(4500.0, 3, abs)), Some(0.5),
             Stated::default(), "(ε,m) absolute ε=4500, m=3 on sal 500k: deliverable unsuppressed"),
        case("em-sal-s25", Utility, sal,
             Work::Job(suppressing(epsilon_m(4500.0, 5, abs), 0.25)), Some(0.5),
             Stated::default(), "em-sal with suppression_limit 0.25 (m=5 in the attacker's view)"),
        // Where only the whole table's thinning fits the limit: the
        // thinned table with headroom is cut (one group at GCP 1.0 before).
        case("em-cup-s03", Utility, Source::Shared(Cup),
             Work::Job(suppressing(epsilon_m(5.0, 8, abs), 0.03)), Some(1.0),
             Stated::default(), "em-cup with suppression_limit 0.03 (the thinned table with headroom)"),
        // The utility bar: XColor below 15 % query error at ε=0.1, δ=0.8, k=10.
        case("util-xc-adult", Utility, full, Work::Job(xcolor(0.1, 0.8, 10, QiAware)), None,
             Stated { rows: Some(30_162), ..Stated::default() },
             "XColor ε=0.1, δ=0.8, k=10 on adult_full composite SA, L1 (paper Fig. 5 setting)"),
        case("util-xc-adult/alg1", Utility, full, Work::Job(xcolor(0.1, 0.8, 10, Alg1)), None,
             Stated { rows: Some(30_162), ..Stated::default() },
             "util-xc-adult with the paper's Algorithm 1 colouring"),
        case("mem-600k", Memory, s600k, http_work(mondrian(PrivacyModel::KAnonymity(k(10)))),
             None, Stated::default(),
             "HTTP: upload adult_scaled_synthetic 600k, Mondrian k=10; server peak RSS < 1 GiB"),
        // Counterparts of the Python peers (scripts/peers/run.sh).
        case("mo-adult-l", Peer, Source::Shared(Adult),
             Work::Job(mondrian(PrivacyModel::LDiversity(
                 LDiversity::new(2.0, LDiversityVariant::Distinct, k(10), "/model")
                     .expect("valid l-diversity")))),
             None, Stated::default(), "Mondrian distinct 2-diversity, k=10 on adult (salary-class)"),
        case("mo-adult-t", Peer, Source::Shared(Adult),
             Work::Job(mondrian(PrivacyModel::TCloseness(TCloseness {
                 t: frac(0.2), k: k(10), ground: GroundDistance::Equal }))),
             None, Stated::default(), "Mondrian 0.2-closeness (equal distance), k=10 on adult"),
        case("au-600k-k", Peer, s600k,
             Work::Audit { k: k(10), checks: vec![AuditCheck::KAnonymity { k: k(10) }] },
             None, Stated::default(), "k-anonymity audit only, 600k grouped by Mondrian k=10"),
        case("au-600k-l", Peer, s600k,
             Work::Audit { k: k(10), checks: vec![
                 AuditCheck::KAnonymity { k: k(10) },
                 AuditCheck::LDiversity { l: 2.0, variant: LDiversityVariant::Distinct }] },
             None, Stated::default(), "k + distinct l-diversity audit, 600k (Mondrian k=10)"),
        case("au-600k-t", Peer, s600k,
             Work::Audit { k: k(10), checks: vec![
                 AuditCheck::KAnonymity { k: k(10) },
                 AuditCheck::TCloseness { t: frac(0.2), ground: GroundDistance::Ordered }] },
             None, Stated::default(), "k + t-closeness (ordered) audit, 600k (Mondrian k=10)"),
        // ARX beside us (../shared/peers/arx; skipped when ARX is not built).
        case("arx-600k", Peer, s600k, Work::Arx(super::peer::ArxTable::Adult600k), None,
             Stated::default(),
             "ARX and `proxima anonymize` alternately, k=10, no suppression, adult 600k \
              (side_by_side.py --case 600k)"),
        case("arx-adult", Peer, Source::Shared(Adult), Work::Arx(super::peer::ArxTable::Adult),
             None, Stated::default(),
             "ARX and `proxima anonymize` alternately, k=10, no suppression, adult \
              (side_by_side.py --case adult)"),
        // The whole offline pipeline, and 5M rows (run each with
        // --threads 1 and without to read the speed-up).
        case("pipe-600k", Scale, s600k,
             Work::Offline { model: json!({"kind": "k_anonymity", "k": 10}) }, Some(0.8),
             Stated::default(),
             "`proxima anonymize` whole process on adult_scaled_synthetic 600k, Mondrian k=10"),
        case("sd-adult-all", Scale, Source::Shared(Adult),
             Work::Suda { scope: KeyScope::QuasiIdentifiers, max_size: 8 }, None,
             Stated::default(), "SUDA2 over every size (8) of adult's 8 QIs, as sdcMicro searches"),
        case("sd-600k-pub", Scale, s600k,
             Work::Suda { scope: KeyScope::Published, max_size: 4 }, None,
             Stated::default(), "SUDA2, MSUs of up to 4 of the 15 published columns, 600k"),
        case("pipe-20m", Scale, sal20m,
             Work::Offline { model: json!({"kind": "k_anonymity", "k": 10}) }, None,
             Stated { rows: Some(20_000_000), ..Stated::default() },
             "`proxima anonymize` whole process on sal generate.py 20000000 7, Mondrian k=10; \
              its peak RSS ≤ 2 GiB")
            .rss_at_most(2048),
        case("mo-5m", Scale, sal5m, Work::Job(mondrian(PrivacyModel::KAnonymity(k(10)))), None,
             Stated::default(), "Mondrian k=10 on sal generate.py 5000000 7"),
        case("em-5m", Scale, sal5m, Work::Job(suppressing(epsilon_m(4500.0, 5, abs), 0.25)),
             None, Stated::default(),
             "(ε,m) ε=4500 m=5 (suppression limit 0.25, as em-sal-s25) on sal 5M"),
        case("xc-5m", Scale, sal5m, Work::Job(xcolor(0.01, 0.8, 10, QiAware)), None,
             Stated::default(), "XColor ε=0.01, δ=0.8, k=10 on sal 5M, lp"),
        case("e2e-5m", Scale, sal5m, http_work(suppressing(epsilon_m(4500.0, 5, abs), 0.25)),
             Some(20.0), Stated { rows: Some(5_000_000), ..Stated::default() },
             "HTTP: upload sal 5M, (ε,m) job as em-5m, poll, download CSV; server RSS ≤ 1 GiB")
            .rss_at_most(1024),
        // The 5M jobs of mo-5m and xc-5m through the service (run with
        // --threads 1 and without: the job's own time is in the notes).
        case("e2e-5m-mo", Scale, sal5m, http_work(mondrian(PrivacyModel::KAnonymity(k(10)))),
             None, Stated { rows: Some(5_000_000), ..Stated::default() },
             "HTTP: upload sal 5M, Mondrian k=10 job as mo-5m, poll, download CSV"),
        case("e2e-5m-xc", Scale, sal5m, http_work(xcolor(0.01, 0.8, 10, QiAware)),
             None, Stated { rows: Some(5_000_000), ..Stated::default() },
             "HTTP: upload sal 5M, XColor job as xc-5m, poll, download CSV"),
        case("e2e-50m", Scale, sal50m, http_work(mondrian(PrivacyModel::KAnonymity(k(10)))),
             None, Stated { rows: Some(50_000_000), ..Stated::default() },
             "HTTP: upload sal 50M (≈ 835 MB of CSV, under the 1 GiB --max-body), Mondrian k=10 \
              job, poll, download CSV; the server's peak RSS"),
        case("mini-em", Test, Source::Mini, Work::Job(epsilon_m(2000.0, 3, abs)), None,
             Stated { rows: Some(crate::bench::data::MINI_ROWS), ..Stated::default() },
             "(ε,m) on a generated 2,000-row table (the harness's own test)"),
        case("mini-offline", Test, Source::Mini,
             Work::Offline { model: json!({"kind": "k_anonymity", "k": 5}) }, None,
             Stated { rows: Some(crate::bench::data::MINI_ROWS), ..Stated::default() },
             "`proxima anonymize` as a whole process on the mini table (the harness's own test)"),
        case("mini-sd", Test, Source::Mini,
             Work::Suda { scope: KeyScope::Published, max_size: 4 }, None, Stated::default(),
             "SUDA2 over every published column of the mini table (the harness's own test)"),
        case("mini-av", Test, Source::Mini, Work::AttackerView(epsilon_m(2000.0, 3, abs)), None,
             Stated::default(),
             "the attacker's view of mini-em's release (the harness's own test)"),
        case("mini-kmap", Test, Source::Mini,
             Work::PopulationJob {
                 spec: mondrian(PrivacyModel::Population(PopulationModel::KMap { k: k(10) })),
                 copies: 3,
             },
             None, Stated::default(),
             "k-map k=10 on the mini table against 3 × its rows (the harness's own test)"),
    ]
}

/// The cases named (in the order given, duplicates dropped), or the default
/// suite when none is. Unknown names are an error listing the known ones.
pub fn select(names: &[String]) -> Result<Vec<Case>, String> {
    let all = all();
    if names.is_empty() {
        return Ok(all
            .into_iter()
            .filter(|c| c.group.in_default_suite())
            .collect());
    }
    let mut picked: Vec<Case> = Vec::new();
    for name in names {
        let Some(case) = all.iter().find(|c| c.name == name.as_str()) else {
            let known: Vec<&str> = all.iter().map(|c| c.name).collect();
            return Err(format!(
                "unknown case '{name}'; known cases: {}",
                known.join(", ")
            ));
        };
        if !picked.iter().any(|c| c.name == case.name) {
            picked.push(case.clone());
        }
    }
    Ok(picked)
}

#[cfg(test)]
mod tests {
    use super::*;

    const STANDARD: [&str; 18] = [
        "em-sal",
        "em-sal-rel",
        "em-credit",
        "em-cup",
        "xc-credit",
        "xc-credit-hard",
        "xc-adult",
        "xc-sal",
        "mo-adult",
        "mo-600k",
        "kmap-600k",
        "au-600k",
        "e2e-adult",
        "e2e-sal",
        "load-sal",
        "av-sal",
        "sd-adult",
        "sd-600k",
    ];

    #[test]
    fn the_standard_suite_is_complete_and_names_are_unique() {
        let all = all();
        let standard: Vec<&str> = all
            .iter()
            .filter(|c| c.group == Group::Standard)
            .map(|c| c.name)
            .collect();
        assert_eq!(standard, STANDARD);
        let mut names: Vec<&str> = all.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len(), "case names are unique");
        // Every standard case has its target.
        assert!(all
            .iter()
            .filter(|c| c.group == Group::Standard)
            .all(|c| c.target_seconds.is_some()));
    }

    #[test]
    fn no_names_selects_the_default_suite() {
        let picked = select(&[]).unwrap();
        let names: Vec<&str> = picked.iter().map(|c| c.name).collect();
        assert_eq!(&names[..18], STANDARD);
        assert!(names.contains(&"xc-adult/alg1"));
        assert!(names.contains(&"util-xc-adult"));
        assert!(names.contains(&"mem-600k"));
        assert!(
            !names.contains(&"mini-em"),
            "the test case is not in the suite"
        );
        assert!(
            !names.contains(&"au-600k-k"),
            "peer cases run from the peer script"
        );
    }

    #[test]
    fn names_select_in_order_without_duplicates() {
        let names = ["xc-sal", "em-credit", "xc-sal", "mini-em"].map(String::from);
        let picked = select(&names).unwrap();
        let got: Vec<&str> = picked.iter().map(|c| c.name).collect();
        assert_eq!(got, ["xc-sal", "em-credit", "mini-em"]);
    }

    #[test]
    fn an_unknown_name_is_an_error_listing_the_known_ones() {
        let err = select(&["em-nope".to_string()]).unwrap_err();
        assert!(err.contains("em-nope"), "{err}");
        assert!(err.contains("em-sal-rel"), "{err}");
    }

    #[test]
    fn colouring_cases_differ_from_their_twins_only_in_the_colouring() {
        let all = all();
        for c in all.iter().filter(|c| c.name.ends_with("/alg1")) {
            let twin_name = c.name.trim_end_matches("/alg1");
            let twin = all.iter().find(|t| t.name == twin_name).expect("a twin");
            let (Work::Job(a), Work::Job(b)) = (&c.work, &twin.work) else {
                panic!("{} runs a job", c.name);
            };
            assert_eq!(a.xcolor.initial, InitialColoring::DegreeBalanced);
            assert_eq!(b.xcolor.initial, InitialColoring::QiAware);
            assert_eq!(a.model, b.model);
            assert_eq!(a.metric, b.metric);
            assert_eq!(c.source, twin.source);
        }
    }
}
