//! Peak resident set size from `/proc/<pid>/status` (Linux).
//!
//! `VmHWM` is a process's peak RSS since it started; it cannot be reset, so
//! each case runs in its own child process (see `runner`) and reports its
//! own figure, and the HTTP cases read the spawned server's.

/// `VmHWM` of `pid` (or `"self"`) in bytes; `None` off Linux or when the
/// process is gone.
pub fn peak_rss(pid: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    parse_vm_hwm(&status)
}

/// This process's peak RSS in bytes.
pub fn own_peak_rss() -> Option<u64> {
    peak_rss("self")
}

/// The `VmHWM:` line of a status file, in bytes.
pub fn parse_vm_hwm(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let mut parts = line["VmHWM:".len()..].split_whitespace();
    let value: u64 = parts.next()?.parse().ok()?;
    let unit = parts.next().unwrap_or("kB");
    let factor = match unit {
        "kB" => 1024,
        "mB" | "MB" => 1024 * 1024,
        "B" => 1,
        _ => return None,
    };
    Some(value * factor)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_vm_hwm_line() {
        let status = "Name:\tproxima\nVmPeak:\t  2000 kB\nVmHWM:\t   1536 kB\nVmRSS:\t 1000 kB\n";
        assert_eq!(parse_vm_hwm(status), Some(1536 * 1024));
        assert_eq!(parse_vm_hwm("Name:\tx\n"), None);
    }

    #[test]
    fn own_peak_is_known_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(own_peak_rss().is_some_and(|b| b > 0));
        }
    }
}
