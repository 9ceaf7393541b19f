//! `proxima-tools bench` end to end on its generated test case (no shared data
//! needed): the case runs in its own child process and the JSON has the
//! documented shape with computed figures. No timing assertions.

use serde_json::Value;

use crate::support::{server_binary, tools, Scratch};

#[test]
fn bench_runs_the_mini_case_and_writes_the_json_document() {
    let s = Scratch::new();
    let out = s.path("bench.json");
    let run = tools(&[
        "bench",
        "--case",
        "mini-em",
        "--runs",
        "2",
        "--warmup",
        "0",
        "--json",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    // The table is printed on stdout, one row for the case.
    let table = String::from_utf8(run.stdout).unwrap();
    assert!(table.contains("| case | rows | median |"), "{table}");
    assert!(table.contains("| mini-em | 2000 |"), "{table}");

    let doc: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert!(doc["generated_at"].is_string());
    assert!(doc["command"].as_str().unwrap().contains("bench"));
    assert!(doc["machine"]["cores"].as_u64().unwrap() >= 1);
    let cases = doc["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 1);
    let c = &cases[0];
    assert_eq!(c["case"], "mini-em");
    assert_eq!(c["group"], "test");
    assert_eq!(c["rows"], 2000);
    assert_eq!(c["runs"], 2);
    assert_eq!(c["seconds"].as_array().unwrap().len(), 2);
    for key in [
        "median_s",
        "min_s",
        "max_s",
        "gcp",
        "query_error_q2",
        "query_error_q2_median",
    ] {
        assert!(c[key].as_f64().is_some(), "{key}: {c}");
    }
    assert!(c["min_s"].as_f64() <= c["median_s"].as_f64());
    assert!(c["median_s"].as_f64() <= c["max_s"].as_f64());
    // Measured in the case's own process.
    assert!(c["peak_rss_bytes"].as_u64().is_some_and(|b| b > 0), "{c}");
    assert!(c["rss_scope"].as_str().unwrap().contains("case process"));
    assert!(c["groups"].as_u64().unwrap() > 1);
    assert!(c["min_group_size"].as_u64().unwrap() >= 3);
    // Only two QIs: q = 3 does not apply, and a note says so.
    assert!(c["query_error_q3"].is_null());
    assert!(c["query_error_q3_median"].is_null());
    // "Model satisfied" is the audit's verdict on the release: the
    // (ε,m) check and k-anonymity are both reported and both passed.
    let checks = c["checks"].as_array().unwrap();
    assert_eq!(checks[0]["kind"], "epsilon_m");
    assert_eq!(checks[1]["kind"], "k_anonymity");
    let both = checks[0]["passed"] == true && checks[1]["passed"] == true;
    assert_eq!(c["model_satisfied"], both);
    assert_eq!(c["passed"], true);
    assert!(c["error"].is_null());
}

#[test]
fn bench_rejects_an_unknown_case_naming_the_known_ones() {
    let run = tools(&["bench", "--case", "no-such-case", "--runs", "1"]);
    assert_eq!(run.code, 2, "stderr: {}", run.stderr);
    assert!(run.stderr.contains("no-such-case"), "{}", run.stderr);
    assert!(run.stderr.contains("em-sal"), "{}", run.stderr);
}

#[test]
fn bench_names_the_missing_server_binary_before_running_an_http_case() {
    let run = tools(&[
        "bench",
        "--case",
        "e2e-sal",
        "--server-binary",
        "/nonexistent/proxima",
    ]);
    assert_eq!(run.code, 2, "stderr: {}", run.stderr);
    assert!(
        run.stderr
            .contains("no proxima server binary at /nonexistent/proxima"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("--server-binary"), "{}", run.stderr);
}

/// An offline case times `proxima anonymize` as a process: each run's wall
/// time, the child's own peak RSS (wait4) and the figures of its summary.
#[test]
fn bench_times_the_cli_as_a_whole_process() {
    let s = Scratch::new();
    let out = s.path("bench.json");
    let server = server_binary();
    let run = tools(&[
        "bench",
        "--case",
        "mini-offline",
        "--runs",
        "2",
        "--warmup",
        "0",
        "--threads",
        "2",
        "--server-binary",
        server.to_str().unwrap(),
        "--json",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let doc: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let c = &doc["cases"][0];
    assert_eq!(c["case"], "mini-offline");
    assert_eq!(c["threads"], 2);
    assert_eq!(c["seconds"].as_array().unwrap().len(), 2);
    assert!(
        c["peak_rss_bytes"].as_u64().is_some_and(|b| b > 1 << 20),
        "{c}"
    );
    assert!(c["rss_scope"]
        .as_str()
        .unwrap()
        .contains("proxima anonymize"));
    assert_eq!(c["rows"], 2000);
    assert!(c["groups"].as_u64().unwrap() > 1);
    assert!(c["min_group_size"].as_u64().unwrap() >= 5);
    assert_eq!(c["attacker_over_bound"], 0);
    assert_eq!(c["passed"], true, "{c}");
}

/// Without ARX built, an ARX peer case is skipped with the reason, the run
/// still succeeds and the JSON says why (no java, no shared data needed).
#[test]
fn an_arx_case_without_arx_is_skipped_with_the_reason() {
    let s = Scratch::new();
    let out = s.path("bench.json");
    let missing = s.path("no-arx/classpath.txt");
    let run = tools(&[
        "bench",
        "--case",
        "arx-adult",
        "--runs",
        "1",
        "--warmup",
        "0",
        "--arx",
        missing.to_str().unwrap(),
        "--json",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert!(
        run.stderr.contains("arx-adult: skipped: ARX is not built"),
        "{}",
        run.stderr
    );
    let table = String::from_utf8(run.stdout).unwrap();
    assert!(table.contains("| skipped |"), "{table}");
    assert!(table.contains("build.sh"), "{table}");
    let doc: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let c = &doc["cases"][0];
    assert_eq!(c["case"], "arx-adult");
    assert_eq!(c["group"], "peer");
    let reason = c["skipped"].as_str().unwrap();
    assert!(reason.contains(missing.to_str().unwrap()), "{reason}");
    assert_eq!(c["passed"], true);
    assert!(c["error"].is_null());
    assert!(c["seconds"].as_array().unwrap().is_empty());
    assert!(c.get("peer").is_none(), "{c}");
}

/// The ARX ratios: each pair's ARX / Proxima figures, then the median of
/// each over the pairs (not the ratio of the medians).
#[test]
fn arx_ratios_are_medians_of_each_pairs_ratios() {
    use proxima_tools::bench::peer::{median_ratios, PeerPair};
    let pair = |arx_whole, arx_warm, arx_anon, px_whole, px_part| PeerPair {
        arx_whole_s: arx_whole,
        arx_warm_total_s: arx_warm,
        arx_warm_anonymize_s: arx_anon,
        proxima_whole_s: px_whole,
        proxima_partition_s: px_part,
        load1: Some(2.0),
    };
    let one = pair(4.0, 2.0, 1.0, 1.0, 0.5);
    let r = one.ratios();
    assert_eq!((r.whole, r.warm, r.anonymize), (4.0, 2.0, 2.0));
    let pairs = [
        one,
        pair(6.0, 3.0, 0.6, 2.0, 0.2),  // 3.0, 1.5, 3.0
        pair(10.0, 1.0, 0.5, 1.0, 1.0), // 10.0, 1.0, 0.5
    ];
    let m = median_ratios(&pairs).unwrap();
    assert_eq!((m.whole, m.warm, m.anonymize), (4.0, 1.5, 2.0));
    // Two pairs: the mean of the two middle ratios.
    let m = median_ratios(&pairs[..2]).unwrap();
    assert_eq!((m.whole, m.warm, m.anonymize), (3.5, 1.75, 2.5));
    assert!(median_ratios(&[]).is_none());
}
