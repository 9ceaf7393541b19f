//! The queue timing flags are checked when the command line is parsed, and
//! an invalid fault specification stops `serve` before it starts.

use std::process::Command;

fn serve(args: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_proxima"));
    cmd.arg("serve").args(args).env_clear();
    cmd.env("PATH", std::env::var_os("PATH").unwrap_or_default());
    // Never reached: parsing fails first. An unroutable URL guards against
    // a serve that would start anyway.
    cmd.env("DATABASE_URL", "postgres://nobody@127.0.0.1:1/none");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_heartbeat_not_shorter_than_the_lease_is_refused_at_parse_time() {
    let (code, err) = serve(&["--lease-secs", "2", "--heartbeat-ms", "2000"], &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--heartbeat-ms"), "{err}");
    let (code, err) = serve(
        &[],
        &[
            ("PROXIMA_LEASE_SECS", "1"),
            ("PROXIMA_HEARTBEAT_MS", "5000"),
        ],
    );
    assert_eq!(code, 2, "{err}");
    let (code, err) = serve(&["--lease-secs", "0"], &[]);
    assert_eq!(code, 2, "{err}");
    let (code, err) = serve(&["--poll-ms", "soon"], &[]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn an_invalid_fault_specification_stops_serve() {
    if !crate::support::faults_available() {
        return;
    }
    let (code, err) = serve(&[], &[("PROXIMA_FAULT_INJECT", "reboot:now")]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("PROXIMA_FAULT_INJECT"), "{err}");
}
