//! Run-anywhere PostgreSQL (docs/design.md §5): when no `DATABASE_URL` is given, the
//! service (and the test harness) runs a private cluster from the machine's
//! PostgreSQL binaries: `initdb` once, then `pg_ctl start` on a free local
//! port with the unix socket inside the data directory, and `pg_ctl stop` on
//! shutdown.
//!
//! `initdb` and `postgres` refuse to run as root. When the process runs as
//! root (this machine and CI do), the cluster's commands run as an
//! unprivileged account (`postgres`, else `nobody`) through `runuser`, and
//! the data directory is handed to that account.

use std::ffi::CString;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use anyhow::{anyhow, bail, Context, Result};

/// The message given when no PostgreSQL binaries can be found.
pub const NO_BINARIES: &str =
    "no PostgreSQL binaries found (looked on PATH, in `pg_config --bindir` \
and /usr/lib/postgresql/*/bin). Install them (Debian/Ubuntu: `apt-get install postgresql`; \
macOS: `brew install postgresql`) or point DATABASE_URL at an existing PostgreSQL server.";

/// The account a cluster's processes run as when we are root.
#[derive(Debug, Clone)]
struct RunAs {
    name: String,
    uid: u32,
    gid: u32,
}

/// A private cluster started by this process. Dropping it stops the server
/// when this process started it.
#[derive(Debug)]
pub struct EmbeddedPostgres {
    bindir: PathBuf,
    data_dir: PathBuf,
    port: u16,
    run_as: Option<RunAs>,
    /// False when we found the cluster already running (another process's):
    /// then we neither stop it nor own its lifetime.
    owned: bool,
}

impl EmbeddedPostgres {
    /// Initializes (if needed) and starts a cluster in `data_dir`. A cluster
    /// already running there (a live `postmaster.pid`) is reused as is.
    pub fn start(data_dir: &Path) -> Result<EmbeddedPostgres> {
        let bindir = find_bindir().ok_or_else(|| anyhow!(NO_BINARIES))?;
        check_dev_null()?;
        std::fs::create_dir_all(data_dir)
            .with_context(|| format!("creating the data directory {}", data_dir.display()))?;
        let data_dir = data_dir
            .canonicalize()
            .with_context(|| format!("resolving {}", data_dir.display()))?;
        let run_as = if is_root() {
            Some(unprivileged_account()?)
        } else {
            None
        };
        let mut pg = EmbeddedPostgres {
            bindir,
            data_dir,
            port: 0,
            run_as,
            owned: false,
        };
        if let Some(user) = &pg.run_as {
            check_traversable(&pg.data_dir, user)?;
            chown_recursive(&pg.data_dir, user.uid, user.gid)?;
        }
        if !pg.data_dir.join("PG_VERSION").exists() {
            pg.initdb()?;
        }
        if let Some(port) = pg.running_port() {
            pg.port = port;
            return Ok(pg);
        }
        pg.port = free_port()?;
        pg.pg_ctl_start()?;
        pg.owned = true;
        Ok(pg)
    }

    /// The directory holding the cluster.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Whether this process started the server (and will stop it).
    pub fn owned(&self) -> bool {
        self.owned
    }

    /// A connection URL for `database` as the superuser `postgres`.
    pub fn url(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{}", self.port, database)
    }

    /// Starts again, on the same port, a cluster this handle stopped with
    /// [`EmbeddedPostgres::stop`] (a database restart, for fault tests).
    /// Does nothing when it is running.
    pub fn start_again(&mut self) -> Result<()> {
        if self.owned {
            return Ok(());
        }
        if self.port == 0 {
            bail!("this cluster was never started by this process");
        }
        self.pg_ctl_start()?;
        self.owned = true;
        Ok(())
    }

    /// Stops the server if this process started it. Idempotent.
    pub fn stop(&mut self) -> Result<()> {
        if !self.owned {
            return Ok(());
        }
        self.owned = false;
        let out = self.run(
            "pg_ctl",
            &[
                "stop",
                "-D",
                &self.data_dir.to_string_lossy(),
                "-m",
                "fast",
                "-w",
                "-t",
                "60",
            ],
        )?;
        if !out.status.success() {
            bail!("pg_ctl stop failed: {}", output_text(&out));
        }
        Ok(())
    }

    fn initdb(&self) -> Result<()> {
        let out = self.run(
            "initdb",
            &[
                "-D",
                &self.data_dir.to_string_lossy(),
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync",
            ],
        )?;
        if !out.status.success() {
            bail!("initdb failed: {}", output_text(&out));
        }
        Ok(())
    }

    fn pg_ctl_start(&self) -> Result<()> {
        let dir = self.data_dir.to_string_lossy().into_owned();
        // The unix socket lives in the data directory so clusters never
        // collide in /var/run; a path longer than the socket limit (107
        // bytes) disables it, since we connect over TCP anyway.
        let socket_dir = if dir.len() + 20 < 100 {
            dir.clone()
        } else {
            String::new()
        };
        // 300 connections: the API tests give each test its own pool, and
        // CI machines may run many tests at once.
        let options = format!(
            "-c listen_addresses=127.0.0.1 -p {} -c unix_socket_directories='{}' \
             -c fsync=on -c max_connections=300",
            self.port, socket_dir
        );
        let log = self.data_dir.join("server.log");
        let out = self.run(
            "pg_ctl",
            &[
                "start",
                "-D",
                &dir,
                "-l",
                &log.to_string_lossy(),
                "-o",
                &options,
                "-w",
                "-t",
                "60",
            ],
        )?;
        if !out.status.success() {
            let tail = std::fs::read_to_string(&log)
                .map(|s| {
                    s.lines()
                        .rev()
                        .take(10)
                        .collect::<Vec<_>>()
                        .into_iter()
                        .rev()
                        .collect::<Vec<_>>()
                        .join("\n")
                })
                .unwrap_or_default();
            bail!("pg_ctl start failed: {}\n{}", output_text(&out), tail);
        }
        Ok(())
    }

    /// The port of a server already running on this data directory, read
    /// from `postmaster.pid` (line 4) when `pg_ctl status` says it is alive.
    fn running_port(&self) -> Option<u16> {
        let pid_file = self.data_dir.join("postmaster.pid");
        let text = std::fs::read_to_string(pid_file).ok()?;
        let status = self
            .run(
                "pg_ctl",
                &["status", "-D", &self.data_dir.to_string_lossy()],
            )
            .ok()?;
        if !status.status.success() {
            return None;
        }
        text.lines().nth(3)?.trim().parse().ok()
    }

    /// Runs one of the cluster's binaries, as the unprivileged account when
    /// we are root.
    fn run(&self, program: &str, args: &[&str]) -> Result<Output> {
        let path = self.bindir.join(program);
        let mut cmd = match &self.run_as {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.arg("-u").arg(&user.name).arg("--").arg(&path);
                c
            }
            None => Command::new(&path),
        };
        cmd.args(args);
        // The binaries write next to the data directory; run them from it so
        // an unreadable current directory (root's home) cannot bother them.
        cmd.current_dir(&self.data_dir);
        cmd.stdin(std::process::Stdio::null());
        cmd.output()
            .with_context(|| format!("running {}", path.display()))
    }
}

impl Drop for EmbeddedPostgres {
    fn drop(&mut self) {
        if let Err(e) = self.stop() {
            eprintln!("proxima: stopping the private PostgreSQL failed: {e:#}");
        }
    }
}

/// Finds a directory holding `initdb`, `pg_ctl` and `postgres`: `PATH`,
/// then `pg_config --bindir`, then the newest `/usr/lib/postgresql/*/bin`.
pub fn find_bindir() -> Option<PathBuf> {
    let has_all = |d: &Path| {
        ["initdb", "pg_ctl", "postgres"]
            .iter()
            .all(|b| d.join(b).is_file())
    };
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            if dir.join("initdb").is_file() {
                // Follow symlinks (/usr/local/bin/initdb → …/15/bin/initdb) so
                // the three binaries come from one installation.
                if let Ok(real) = dir.join("initdb").canonicalize() {
                    if let Some(parent) = real.parent() {
                        candidates.push(parent.to_path_buf());
                    }
                }
                candidates.push(dir);
            }
        }
    }
    if let Ok(out) = Command::new("pg_config").arg("--bindir").output() {
        if out.status.success() {
            let s = String::from_utf8_lossy(&out.stdout).trim().to_string();
            if !s.is_empty() {
                candidates.push(PathBuf::from(s));
            }
        }
    }
    if let Ok(entries) = std::fs::read_dir("/usr/lib/postgresql") {
        let mut versions: Vec<(u32, PathBuf)> = entries
            .flatten()
            .filter_map(|e| {
                let v = e.file_name().to_string_lossy().parse::<u32>().ok()?;
                Some((v, e.path().join("bin")))
            })
            .collect();
        versions.sort_by_key(|v| std::cmp::Reverse(v.0));
        candidates.extend(versions.into_iter().map(|(_, p)| p));
    }
    candidates.into_iter().find(|d| has_all(d))
}

/// initdb's scripts write to /dev/null as the cluster's account; when
/// something has replaced the device by a root-owned file, initdb fails
/// with an obscure message, so say what is wrong instead.
fn check_dev_null() -> Result<()> {
    use std::os::unix::fs::FileTypeExt;
    match std::fs::metadata("/dev/null") {
        Ok(m) if m.file_type().is_char_device() => Ok(()),
        _ => bail!(
            "/dev/null is not a character device on this machine (something replaced it \
             with a file), and PostgreSQL's initdb needs it; restore it as root with \
             `rm /dev/null && mknod -m 666 /dev/null c 1 3`, or set DATABASE_URL"
        ),
    }
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// `postgres` if the account exists, else `nobody`.
fn unprivileged_account() -> Result<RunAs> {
    for name in ["postgres", "nobody"] {
        if let Some(user) = lookup_user(name) {
            return Ok(user);
        }
    }
    bail!(
        "running as root, and neither a `postgres` nor a `nobody` account exists to run \
         PostgreSQL as (initdb refuses root); create one (useradd postgres) or set DATABASE_URL"
    )
}

fn lookup_user(name: &str) -> Option<RunAs> {
    let cname = CString::new(name).ok()?;
    // SAFETY: getpwnam returns a pointer to static storage or null; we copy
    // the two ids out before any other call could overwrite it.
    unsafe {
        let pw = libc::getpwnam(cname.as_ptr());
        if pw.is_null() {
            return None;
        }
        Some(RunAs {
            name: name.to_string(),
            uid: (*pw).pw_uid,
            gid: (*pw).pw_gid,
        })
    }
}

/// The server runs as `user` and must reach its data directory: every
/// ancestor needs the execute bit for others (we do not change modes of
/// directories we do not own).
fn check_traversable(dir: &Path, user: &RunAs) -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    for ancestor in dir.ancestors().skip(1) {
        let meta = match std::fs::metadata(ancestor) {
            Ok(m) => m,
            Err(_) => continue,
        };
        let others_x = meta.mode() & 0o001 != 0;
        let owner_x = meta.uid() == user.uid && meta.mode() & 0o100 != 0;
        let group_x = meta.gid() == user.gid && meta.mode() & 0o010 != 0;
        if !(others_x || owner_x || group_x) {
            bail!(
                "PostgreSQL runs as `{}` (initdb refuses root) but cannot enter {}; \
                 choose a data directory under a world-traversable path (e.g. /var/tmp) \
                 with PROXIMA_DATA_DIR, or set DATABASE_URL",
                user.name,
                ancestor.display()
            );
        }
    }
    Ok(())
}

fn chown_recursive(path: &Path, uid: u32, gid: u32) -> Result<()> {
    std::os::unix::fs::chown(path, Some(uid), Some(gid))
        .with_context(|| format!("chown {}", path.display()))?;
    let meta = std::fs::symlink_metadata(path)?;
    if meta.is_dir() {
        for entry in std::fs::read_dir(path)? {
            chown_recursive(&entry?.path(), uid, gid)?;
        }
    }
    Ok(())
}

/// A port free right now on 127.0.0.1 (the kernel picks it).
fn free_port() -> Result<u16> {
    let listener = TcpListener::bind("127.0.0.1:0").context("finding a free port")?;
    Ok(listener.local_addr()?.port())
}

fn output_text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
    .trim()
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_binaries_on_this_machine_or_explains() {
        match find_bindir() {
            Some(dir) => {
                assert!(dir.join("pg_ctl").is_file(), "{}", dir.display());
                assert!(dir.join("postgres").is_file(), "{}", dir.display());
            }
            None => eprintln!("no PostgreSQL binaries here: {NO_BINARIES}"),
        }
    }

    #[test]
    fn starts_and_stops_a_private_cluster() {
        if find_bindir().is_none() {
            eprintln!("skipped: {NO_BINARIES}");
            return;
        }
        let base = tempfile::Builder::new()
            .prefix("proxima-pg-")
            .tempdir_in("/tmp")
            .unwrap();
        // tempfile makes 0700 directories; the server may run as another
        // account (we are root here) and must be able to enter it.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(base.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let dir = base.path().join("pg");
        let mut pg = EmbeddedPostgres::start(&dir).unwrap();
        assert!(pg.owned());
        assert!(dir.join("PG_VERSION").exists());
        // The server accepts TCP connections on its port.
        std::net::TcpStream::connect(("127.0.0.1", pg.port())).unwrap();
        // A second start on the same directory reuses the running server.
        let again = EmbeddedPostgres::start(&dir).unwrap();
        assert_eq!(again.port(), pg.port());
        assert!(!again.owned());
        drop(again);
        pg.stop().unwrap();
        assert!(std::net::TcpStream::connect(("127.0.0.1", pg.port())).is_err());
        // Restart after a stop: initdb is skipped, the data survives.
        let mut pg2 = EmbeddedPostgres::start(&dir).unwrap();
        assert!(pg2.owned());
        pg2.stop().unwrap();
    }
}
