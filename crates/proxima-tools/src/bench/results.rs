//! A case's result, the printed table and the JSON document.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

/// One audit check of a case's release and whether it passed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckOutcome {
    pub kind: String,
    pub passed: bool,
}

/// A figure BENCHMARKS.md states beside what the core computed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StatedFigure {
    pub figure: String,
    pub stated: f64,
    pub computed: f64,
    pub matches: bool,
}

/// Everything measured for one case (one JSON object per case).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CaseResult {
    pub case: String,
    pub group: String,
    pub about: String,
    pub data: String,
    pub rows: Option<usize>,
    pub warmup: usize,
    pub runs: usize,
    /// Each timed run, in seconds.
    pub seconds: Vec<f64>,
    pub median_s: Option<f64>,
    pub min_s: Option<f64>,
    pub max_s: Option<f64>,
    pub target_s: Option<f64>,
    pub meets_target: Option<bool>,
    pub peak_rss_bytes: Option<u64>,
    /// The case's target for `peak_rss_bytes`, MiB, and whether it was met.
    #[serde(default)]
    pub target_rss_mib: Option<u64>,
    #[serde(default)]
    pub meets_rss_target: Option<bool>,
    /// Threads per job the case ran with (`--threads`).
    #[serde(default)]
    pub threads: Option<usize>,
    /// Whose peak `peak_rss_bytes` is (the case's own process, or the server).
    pub rss_scope: Option<String>,
    pub groups: Option<usize>,
    pub min_group_size: Option<usize>,
    pub gcp: Option<f64>,
    /// Mean relative error of 1,000 count queries, s = 0.1, q = 2 / 3 QIs
    /// and the SA (docs/benchmarks.md §"Query error workload").
    pub query_error_q2: Option<f64>,
    pub query_error_q3: Option<f64>,
    /// The median beside each mean: a few queries on rare values can
    /// dominate the mean.
    #[serde(default)]
    pub query_error_q2_median: Option<f64>,
    #[serde(default)]
    pub query_error_q3_median: Option<f64>,
    /// The release passed its own model's check (and k-anonymity), as the
    /// core's audit of it says; `None` when nothing was released for
    /// another reason (see `error`).
    pub model_satisfied: Option<bool>,
    /// Rows the job left out to satisfy its model in the attacker's view.
    pub suppressed_by_model: Option<usize>,
    /// The model's check in the attacker's view: victims over the bound
    /// and the worst victim's figure.
    pub attacker_over_bound: Option<usize>,
    pub attacker_worst: Option<f64>,
    /// Why the case did not run here (a peer that is not installed); a
    /// skipped case is not a failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
    /// A peer case's pairs and ratios (ARX beside us).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peer: Option<super::peer::PeerFigures>,
    /// No error and the model satisfied, or skipped.
    pub passed: bool,
    pub error: Option<String>,
    pub checks: Vec<CheckOutcome>,
    pub stated: Vec<StatedFigure>,
    pub notes: Vec<String>,
}

impl CaseResult {
    /// Sets `passed` from `error` and `model_satisfied`.
    pub fn settle(&mut self) {
        self.passed =
            self.error.is_none() && (self.skipped.is_some() || self.model_satisfied == Some(true));
        if let (Some(m), Some(t)) = (self.median_s, self.target_s) {
            self.meets_target = Some(m <= t);
        }
        if let (Some(peak), Some(t)) = (self.peak_rss_bytes, self.target_rss_mib) {
            self.meets_rss_target = Some(peak <= t << 20);
        }
    }
}

/// The JSON document `--json` writes.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Document {
    pub generated_at: String,
    pub command: String,
    pub commit: Option<String>,
    pub machine: Machine,
    pub cases: Vec<CaseResult>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Machine {
    pub cpu: Option<String>,
    pub cores: usize,
    pub memory_bytes: Option<u64>,
    pub load_average: Option<String>,
}

impl Machine {
    pub fn here() -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu = cpuinfo
            .lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split(':').nth(1))
            .map(|s| s.trim().to_string());
        let memory_bytes = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|m| {
                m.lines()
                    .find(|l| l.starts_with("MemTotal:"))
                    .and_then(|l| l.split_whitespace().nth(1))
                    .and_then(|v| v.parse::<u64>().ok())
            })
            .map(|kb| kb * 1024);
        let load_average = std::fs::read_to_string("/proc/loadavg")
            .ok()
            .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "));
        Machine {
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            memory_bytes,
            load_average,
        }
    }
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or("-".to_string(), |x| format!("{x:.digits$}"))
}

fn pct(v: Option<f64>) -> String {
    v.map_or("-".to_string(), |x| format!("{:.1}%", x * 100.0))
}

/// "median / mean" as percentages, "-" when there is no figure: the
/// median first, as everywhere a query error is shown (a few queries on
/// rare values dominate the mean).
fn median_mean(mean: Option<f64>, median: Option<f64>) -> String {
    match (mean, median) {
        (None, None) => "-".to_string(),
        (mean, median) => format!("{} / {}", pct(median), pct(mean)),
    }
}

fn mib(v: Option<u64>) -> String {
    v.map_or("-".to_string(), |b| {
        format!("{:.0} MiB", b as f64 / (1024.0 * 1024.0))
    })
}

fn int(v: Option<usize>) -> String {
    v.map_or("-".to_string(), |x| x.to_string())
}

/// Seconds with three significant decimals for short times.
fn secs(v: Option<f64>) -> String {
    match v {
        None => "-".to_string(),
        Some(x) if x < 0.1 => format!("{:.1} ms", x * 1000.0),
        Some(x) => format!("{x:.3} s"),
    }
}

/// The results as a Markdown table (the format BENCHMARKS.md keeps),
/// followed by one line per failure, mismatch or note.
pub fn table(results: &[CaseResult]) -> String {
    let mut out = String::new();
    out.push_str(
        "| case | rows | median | min | max | target | peak RSS | groups | min size | suppressed | GCP | QE q=2 median / mean | QE q=3 median / mean | attacker's view (over / worst) | satisfied |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for r in results {
        let target = match (r.target_s, r.meets_target) {
            (Some(t), Some(true)) => format!("≤ {} ✓", secs(Some(t))),
            (Some(t), Some(false)) => format!("≤ {} ✗", secs(Some(t))),
            (Some(t), None) => format!("≤ {}", secs(Some(t))),
            (None, _) => "-".to_string(),
        };
        let rss = match (r.target_rss_mib, r.meets_rss_target) {
            (Some(t), Some(true)) => format!("{} (≤ {t} ✓)", mib(r.peak_rss_bytes)),
            (Some(t), Some(false)) => format!("{} (≤ {t} ✗)", mib(r.peak_rss_bytes)),
            (Some(t), None) => format!("{} (≤ {t})", mib(r.peak_rss_bytes)),
            (None, _) => mib(r.peak_rss_bytes),
        };
        let satisfied = match (r.model_satisfied, &r.error) {
            _ if r.skipped.is_some() => "skipped".to_string(),
            (Some(true), None) => "yes".to_string(),
            (Some(false), _) => "**no**".to_string(),
            (_, Some(_)) => "**error**".to_string(),
            (None, None) => "-".to_string(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.case,
            int(r.rows),
            secs(r.median_s),
            secs(r.min_s),
            secs(r.max_s),
            target,
            rss,
            int(r.groups),
            int(r.min_group_size),
            int(r.suppressed_by_model),
            opt(r.gcp, 4),
            median_mean(r.query_error_q2, r.query_error_q2_median),
            median_mean(r.query_error_q3, r.query_error_q3_median),
            match (r.attacker_over_bound, r.attacker_worst) {
                (Some(o), Some(w)) => format!("{o} / {w:.3}"),
                _ => "-".to_string(),
            },
            satisfied,
        );
    }
    let mut notes = String::new();
    for r in results {
        if let Some(reason) = &r.skipped {
            let _ = writeln!(notes, "* {}: skipped: {reason}", r.case);
        }
        if let Some(e) = &r.error {
            let _ = writeln!(notes, "* {}: FAILED: {e}", r.case);
        }
        for s in r.stated.iter().filter(|s| !s.matches) {
            let _ = writeln!(
                notes,
                "* {}: {} stated {} but the core computes {}",
                r.case, s.figure, s.stated, s.computed
            );
        }
        for n in &r.notes {
            let _ = writeln!(notes, "* {}: {n}", r.case);
        }
    }
    if !notes.is_empty() {
        out.push('\n');
        out.push_str(&notes);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settle_passes_only_a_satisfied_case_without_error() {
        let mut r = CaseResult {
            model_satisfied: Some(true),
            median_s: Some(0.2),
            target_s: Some(0.5),
            ..CaseResult::default()
        };
        r.settle();
        assert!(r.passed);
        assert_eq!(r.meets_target, Some(true));
        r.model_satisfied = Some(false);
        r.settle();
        assert!(!r.passed);
        r.model_satisfied = Some(true);
        r.error = Some("boom".into());
        r.settle();
        assert!(!r.passed);
        r.error = None;
        r.model_satisfied = None;
        r.settle();
        assert!(!r.passed, "unknown is not a pass");
    }

    #[test]
    fn the_peak_rss_is_judged_against_its_target_in_mib() {
        let mut r = CaseResult {
            peak_rss_bytes: Some(1024 << 20),
            target_rss_mib: Some(1024),
            ..CaseResult::default()
        };
        r.settle();
        assert_eq!(r.meets_rss_target, Some(true));
        assert!(table(&[r.clone()]).contains("| 1024 MiB (≤ 1024 ✓) |"));
        r.peak_rss_bytes = Some((1024 << 20) + 1);
        r.settle();
        assert_eq!(r.meets_rss_target, Some(false));
        assert!(table(&[r]).contains("(≤ 1024 ✗)"));
    }

    #[test]
    fn the_table_has_a_row_per_case_and_lists_mismatches() {
        let r = CaseResult {
            case: "em-x".into(),
            rows: Some(10),
            median_s: Some(0.0123),
            model_satisfied: Some(true),
            stated: vec![StatedFigure {
                figure: "max_m".into(),
                stated: 7.0,
                computed: 6.0,
                matches: false,
            }],
            ..CaseResult::default()
        };
        let t = table(&[r]);
        assert!(t.contains("| em-x | 10 | 12.3 ms |"), "{t}");
        // No query error: one dash per column, not "- / -".
        assert!(t.contains("| - | - | - | yes |"), "{t}");
        assert!(
            t.contains("em-x: max_m stated 7 but the core computes 6"),
            "{t}"
        );
    }

    #[test]
    fn query_errors_show_the_median_first_and_the_mean_beside() {
        let r = CaseResult {
            case: "xc-x".into(),
            query_error_q2: Some(2.7),
            query_error_q2_median: Some(0.0318),
            query_error_q3: Some(0.0359),
            query_error_q3_median: Some(0.0106),
            ..CaseResult::default()
        };
        let t = table(&[r]);
        assert!(
            t.contains("QE q=2 median / mean | QE q=3 median / mean"),
            "{t}"
        );
        assert!(t.contains("| 3.2% / 270.0% | 1.1% / 3.6% |"), "{t}");
    }
}
