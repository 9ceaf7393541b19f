//! The ARX peer cases (`arx-600k`, `arx-adult`): ARX and Proxima side by
//! side on the same table, alternating in one run, as
//! `../shared/peers/arx/side_by_side.py` does (ported here so the figures
//! land in the bench's table and JSON beside the other cases, and so our
//! partition step can be timed in-process beside ARX's anonymize step,
//! which the script cannot).
//!
//! ARX is the build of `../shared/peers/arx/build.sh` (its `classpath.txt`:
//! `--arx`, `$PROXIMA_ARX_CLASSPATH`, default `/tmp/arx/classpath.txt`).
//! When it is not there, or `java` does not run, the case is skipped with
//! the reason (not a failure).
//!
//! Each pair runs, in this order:
//! 1. ARX's `ArxRun` driver as a fresh JVM doing 5 repetitions (load the
//!    CSV and hierarchies, `ARXAnonymizer.anonymize`, write the output);
//!    the first is cold, the median of the last 4 is "warm";
//! 2. `proxima anonymize` as a whole process (read, job, write);
//! 3. our partition (`run::place`, Mondrian) in this process on the table
//!    loaded once before the pairs: 1 warm-up and 4 timed, the median.
//!
//! Both sides apply k-anonymity k = 10 with no suppression and the same
//! categorical hierarchies; age is a QI on both, through ARX's age
//! hierarchy for ARX and as a numeric column for Proxima (Mondrian cuts it
//! at data values).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use proxima_core::params::{Algorithm, PrivacyModel, K};
use proxima_core::run::JobSpec;
use proxima_core::xcolor::XColorOptions;
use serde_json::{json, Value};

use super::cases::Case;
use super::data::data_dir;
use super::offline::{run_once, Inputs};
pub use super::peer::ArxTable;
use super::peer::{median_ratios, PeerFigures, PeerPair};
use super::results::CaseResult;
use super::runner::{blank, Plan};
use super::stats::Stats;

/// Where `build.sh` leaves its class path when given no DEST.
pub const DEFAULT_CLASSPATH: &str = "/tmp/arx/classpath.txt";

/// Repetitions of the ARX driver per JVM (the first cold, the rest warm),
/// and of our partition per pair after one warm-up.
const ARX_REPS: usize = 5;
const PARTITION_RUNS: usize = 4;

/// `--arx`: the file build.sh writes (`DEST/classpath.txt`) or its DEST
/// folder; the default when not given.
pub fn classpath_file(arx: Option<&Path>) -> PathBuf {
    match arx {
        Some(p) if p.is_dir() => p.join("classpath.txt"),
        Some(p) => p.to_path_buf(),
        None => PathBuf::from(DEFAULT_CLASSPATH),
    }
}

/// ARX's class path, or why the case cannot run here (the skip reason).
pub fn locate(arx: Option<&Path>) -> std::result::Result<String, String> {
    let file = classpath_file(arx);
    let how = "build it with ../shared/peers/arx/build.sh GIT_DIR [DEST] (docs/benchmarks.md \
               §\"ARX beside us\") and point --arx or PROXIMA_ARX_CLASSPATH at DEST/classpath.txt";
    let text = std::fs::read_to_string(&file)
        .map_err(|e| format!("ARX is not built: no {} ({e}); {how}", file.display()))?;
    let classpath = text.trim().to_string();
    if classpath.is_empty() {
        return Err(format!(
            "ARX is not built: {} is empty; {how}",
            file.display()
        ));
    }
    match Command::new("java")
        .arg("-version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
    {
        Ok(s) if s.success() => Ok(classpath),
        Ok(s) => Err(format!("`java -version` failed ({s}); ARX needs a JRE")),
        Err(e) => Err(format!("no `java` to run ARX ({e}); ARX needs a JRE")),
    }
}

/// The summary line of an ArxRun process and its last repetition.
#[derive(Debug, Clone, PartialEq)]
pub struct ArxReport {
    pub warm_total_s: f64,
    pub warm_anonymize_s: f64,
    pub rows: Option<u64>,
    pub suppressed: Option<u64>,
    pub transformation: Option<String>,
}

/// Reads ArxRun's stdout: one JSON line per repetition, then the summary.
pub fn parse_arx_output(stdout: &str) -> Result<ArxReport> {
    let lines: Vec<Value> = stdout
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(serde_json::from_str)
        .collect::<std::result::Result<_, _>>()
        .context("ArxRun printed a line that is not JSON")?;
    let summary = lines
        .iter()
        .rev()
        .find(|v| v["summary"] == true)
        .ok_or_else(|| anyhow!("no summary line from ArxRun"))?;
    let last = lines.iter().rev().find(|v| v.get("rep").is_some());
    let ms = |key: &str| {
        summary[key]
            .as_f64()
            .filter(|v| v.is_finite())
            .map(|v| v / 1e3)
            .ok_or_else(|| anyhow!("ArxRun's summary has no {key} (fewer than 2 repetitions?)"))
    };
    Ok(ArxReport {
        warm_total_s: ms("warm_median_total_ms")?,
        warm_anonymize_s: ms("warm_median_anonymize_ms")?,
        rows: last.and_then(|v| v["rows"].as_u64()),
        suppressed: last.and_then(|v| v["suppressed"].as_u64()),
        transformation: last.and_then(|v| v["transformation"].as_str().map(str::to_string)),
    })
}

fn load1() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// The files both sides read.
struct Setup {
    data: PathBuf,
    schema: PathBuf,
    /// `(column, hierarchy file)` for every QI (ARX's side).
    qis: Vec<(String, PathBuf)>,
}

/// The shared folder (the data folder's parent): `peers/arx/` and
/// `examples/` beside `data/`.
fn shared_root(data: &Path) -> Result<PathBuf> {
    data.parent()
        .map(Path::to_path_buf)
        .ok_or_else(|| anyhow!("the shared data folder {} has no parent", data.display()))
}

fn setup(table: ArxTable) -> Result<Setup> {
    let data = data_dir()?;
    let root = shared_root(data.dir())?;
    let (csv, schema) = match table {
        ArxTable::Adult600k => {
            // ARX reads plain CSV: decompress once into the bench's cache.
            let cache = std::env::var_os("PROXIMA_BENCH_CACHE")
                .map(PathBuf::from)
                .unwrap_or_else(|| std::env::temp_dir().join("proxima-bench-cache"));
            std::fs::create_dir_all(&cache)?;
            let csv = cache.join("adult_full_synthetic_600k.csv");
            if !csv.is_file() {
                let part = csv.with_extension("csv.part");
                let mut from =
                    data.open("adult_scaled_synthetic/adult_full_synthetic_600k.csv.gz")?;
                std::io::copy(&mut from, &mut std::fs::File::create(&part)?)?;
                std::fs::rename(&part, &csv)?;
            }
            (csv, root.join("peers/arx/adult_full_600k.schema.json"))
        }
        ArxTable::Adult => (
            data.path("adult/adult.csv"),
            root.join("examples/adult.schema.json"),
        ),
    };
    if !schema.is_file() {
        bail!("no schema at {}", schema.display());
    }
    let qis = table
        .qis()
        .iter()
        .map(|c| (c.to_string(), data.path(&table.hierarchy(c))))
        .collect();
    Ok(Setup {
        data: csv,
        schema,
        qis,
    })
}

fn arx_command(classpath: &str, setup: &Setup, out: &Path) -> Command {
    let mut cmd = Command::new("java");
    cmd.arg("-cp")
        .arg(classpath)
        .arg("ArxRun")
        .arg("--data")
        .arg(&setup.data)
        .args(["--sa", "salary-class", "--k", "10", "--supp", "0", "--reps"])
        .arg(ARX_REPS.to_string())
        .arg("--out")
        .arg(out);
    for (column, file) in &setup.qis {
        cmd.arg("--qi").arg(format!("{column}={}", file.display()));
    }
    cmd.stdin(Stdio::null());
    cmd
}

/// Runs an ARX case: skipped (with the reason) when ARX is not built here.
pub fn run_arx(
    case: &Case,
    table: ArxTable,
    plan: Plan,
    arx: Option<&Path>,
    server_binary: Option<&Path>,
    threads: proxima_core::parallel::Threads,
) -> CaseResult {
    let mut r = blank(case, plan);
    let classpath = match locate(arx) {
        Ok(cp) => cp,
        Err(reason) => {
            r.skipped = Some(reason);
            r.settle();
            return r;
        }
    };
    if let Err(e) = pairs(
        case,
        table,
        plan,
        &classpath,
        server_binary,
        threads,
        &mut r,
    ) {
        r.error = Some(format!("{e:#}"));
    }
    r.settle();
    r
}

fn pairs(
    case: &Case,
    table: ArxTable,
    plan: Plan,
    classpath: &str,
    server_binary: Option<&Path>,
    threads: proxima_core::parallel::Threads,
    r: &mut CaseResult,
) -> Result<()> {
    let exe = super::server_binary(server_binary)?;
    let setup = setup(table)?;
    let dir = std::env::temp_dir().join(format!("proxima-bench-arx-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let hierarchies: Vec<(String, PathBuf)> = setup
        .qis
        .iter()
        .filter(|(c, _)| c != "age")
        .cloned()
        .collect();
    let inputs = Inputs::existing(
        dir.clone(),
        setup.data.clone(),
        setup.schema.clone(),
        hierarchies.clone(),
    );
    // Our partition's table, loaded once (untimed) as the CLI loads it.
    let args: Vec<proxima::offline::HierarchyArg> = hierarchies
        .iter()
        .map(|(column, path)| proxima::offline::HierarchyArg {
            column: column.clone(),
            path: path.clone(),
        })
        .collect();
    let schema = proxima::offline::load_schema(&setup.schema.display().to_string(), &args)
        .map_err(|e| anyhow!("the schema: {e:?}"))?;
    let loaded = proxima_core::ingest::load_table(
        std::sync::Arc::new(schema),
        std::io::BufReader::with_capacity(1 << 16, std::fs::File::open(&setup.data)?),
    )
    .map_err(|e| anyhow!("loading {}: {e}", setup.data.display()))?;
    r.rows = Some(loaded.rows());
    let spec = JobSpec {
        model: PrivacyModel::KAnonymity(K::new(10, "/model/k").expect("a valid k")),
        algorithm: Algorithm::Mondrian,
        metric: None,
        xcolor: XColorOptions::default(),
        suppression_limit: Default::default(),
    };
    let model = json!({"kind": "k_anonymity", "k": 10});
    let arx_out = dir.join("arx.csv");
    let mut timed = Vec::new();
    let mut proxima_seconds = Vec::new();
    let mut peak = 0u64;
    for i in 0..plan.warmup + plan.runs {
        let start = Instant::now();
        let out = arx_command(classpath, &setup, &arx_out)
            .output()
            .context("spawning java")?;
        let arx_whole_s = start.elapsed().as_secs_f64();
        let stdout = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            // The last 2,000 characters (a char boundary, whatever the text).
            let skip = err.chars().count().saturating_sub(2000);
            let tail: String = err.chars().skip(skip).collect();
            bail!("ARX failed ({}): {tail}", out.status);
        }
        let arx = parse_arx_output(&stdout)?;
        let px = run_once(&exe, &inputs, &model, threads.get())?;
        peak = peak.max(px.peak_rss_bytes.unwrap_or(0));
        let mut partition = Vec::with_capacity(PARTITION_RUNS);
        for run in 0..1 + PARTITION_RUNS {
            let t = Instant::now();
            let placed = proxima_core::parallel::with_threads(threads, || {
                proxima_core::run::place(&loaded, &spec, proxima_core::Progress::none())
            })
            .map_err(|e| anyhow!("our partition: {e}"))?;
            let dt = t.elapsed().as_secs_f64();
            drop(placed);
            if run > 0 {
                partition.push(dt);
            }
        }
        let pair = PeerPair {
            arx_whole_s,
            arx_warm_total_s: arx.warm_total_s,
            arx_warm_anonymize_s: arx.warm_anonymize_s,
            proxima_whole_s: px.seconds,
            proxima_partition_s: Stats::of(&partition).expect("timed runs").median,
            load1: load1(),
        };
        let warm = i < plan.warmup;
        eprintln!(
            "proxima-tools bench: {} pair {i}{}: ARX whole {:.2} s, warm total {:.0} ms, warm \
             anonymize {:.0} ms | Proxima whole {:.3} s, partition {:.1} ms | load1 {}",
            case.name,
            if warm { " (warm-up)" } else { "" },
            pair.arx_whole_s,
            pair.arx_warm_total_s * 1e3,
            pair.arx_warm_anonymize_s * 1e3,
            pair.proxima_whole_s,
            pair.proxima_partition_s * 1e3,
            pair.load1.map_or("-".to_string(), |l| format!("{l:.2}")),
        );
        if warm {
            continue;
        }
        proxima_seconds.push(px.seconds);
        if i + 1 == plan.warmup + plan.runs {
            let s = &px.summary;
            let count = |k: &str| s[k].as_u64().map(|v| v as usize);
            r.groups = count("groups");
            r.min_group_size = count("min_group_size");
            r.gcp = s["information_loss"].as_f64();
            r.suppressed_by_model = count("suppressed_by_model");
            let over = s["attacker_view"]["over_bound"].as_u64();
            r.attacker_over_bound = over.map(|v| v as usize);
            r.attacker_worst = s["attacker_view"]["worst"].as_f64();
            r.model_satisfied = Some(over == Some(0));
            r.notes.push(format!(
                "ARX's last repetition: {} rows, {} suppressed, transformation {}",
                arx.rows.map_or("-".into(), |v| v.to_string()),
                arx.suppressed.map_or("-".into(), |v| v.to_string()),
                arx.transformation.as_deref().unwrap_or("-"),
            ));
        }
        timed.push(pair);
    }
    let _ = std::fs::remove_file(&arx_out);
    r.peak_rss_bytes = Some(peak);
    r.rss_scope = Some("the `proxima anonymize` process (largest run)".to_string());
    if let Some(s) = Stats::of(&proxima_seconds) {
        (r.median_s, r.min_s, r.max_s) = (Some(s.median), Some(s.min), Some(s.max));
    }
    r.seconds = proxima_seconds;
    let ratios = median_ratios(&timed);
    if let Some(m) = ratios {
        r.notes.push(format!(
            "ratios ARX / Proxima (> 1: Proxima faster), medians over {} pairs: whole process \
             {:.2}, ARX warm pipeline / our whole process {:.2}, ARX anonymize / our partition \
             {:.2}",
            timed.len(),
            m.whole,
            m.warm,
            m.anonymize
        ));
    }
    r.peer = Some(PeerFigures {
        peer: "ARX (ArxRun, ../shared/peers/arx)".to_string(),
        pairs: timed,
        ratios,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arx_output_gives_the_warm_medians_in_seconds() {
        let out = "noise\n\
            {\"rep\":0,\"load_ms\":1.0,\"anonymize_ms\":900.0,\"rows\":30162,\"suppressed\":0,\"transformation\":\"[1, 2]\"}\n\
            {\"summary\":true,\"first_anonymize_ms\":900.0,\"warm_median_anonymize_ms\":250.0,\
             \"first_total_ms\":1500.0,\"warm_median_total_ms\":600.0}\n";
        let r = parse_arx_output(out).unwrap();
        assert_eq!(r.warm_total_s, 0.6);
        assert_eq!(r.warm_anonymize_s, 0.25);
        assert_eq!(r.rows, Some(30162));
        assert_eq!(r.suppressed, Some(0));
        assert_eq!(r.transformation.as_deref(), Some("[1, 2]"));
        // One repetition: no warm median (ArxRun prints NaN).
        let one = "{\"summary\":true,\"warm_median_anonymize_ms\":NaN}";
        assert!(parse_arx_output(one).is_err());
        assert!(parse_arx_output("no json").is_err());
    }

    #[test]
    fn the_classpath_file_is_the_flag_its_folder_or_the_default() {
        assert_eq!(classpath_file(None), PathBuf::from(DEFAULT_CLASSPATH));
        let dir = std::env::temp_dir();
        assert_eq!(classpath_file(Some(&dir)), dir.join("classpath.txt"));
        let f = Path::new("/nonexistent/cp.txt");
        assert_eq!(classpath_file(Some(f)), f.to_path_buf());
    }
}
