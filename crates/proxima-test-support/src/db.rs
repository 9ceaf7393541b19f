//! The test binaries' PostgreSQL (`tests/api`, `tests/faults` and
//! `crates/proxima-tools/tests/tools`): DATABASE_URL when set, else one private cluster per
//! test-binary run started like `proxima serve` does, and a fresh database
//! per test.

use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use proxima::pg_embedded::EmbeddedPostgres;
use sqlx::Connection;
use uuid::Uuid;

/// The admin URL of the run's PostgreSQL (database `postgres`).
fn admin_url() -> &'static str {
    static URL: OnceLock<String> = OnceLock::new();
    URL.get_or_init(|| {
        if let Ok(url) = std::env::var("DATABASE_URL") {
            if !url.is_empty() {
                return url;
            }
        }
        start_private_cluster()
    })
}

/// The private cluster lives until the process exits (stopped by `atexit`,
/// since statics are never dropped).
static CLUSTER: Mutex<Option<(EmbeddedPostgres, PathBuf)>> = Mutex::new(None);

extern "C" fn stop_cluster() {
    if let Ok(mut guard) = CLUSTER.lock() {
        if let Some((mut pg, dir)) = guard.take() {
            let _ = pg.stop();
            drop(pg);
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

fn start_private_cluster() -> String {
    use std::os::unix::fs::PermissionsExt;
    let base = std::env::temp_dir().join(format!("proxima-test-pg-{}", std::process::id()));
    std::fs::create_dir_all(&base).unwrap();
    // The server may run as an unprivileged account (we may be root).
    std::fs::set_permissions(&base, std::fs::Permissions::from_mode(0o755)).unwrap();
    let pg = EmbeddedPostgres::start(&base.join("pg")).unwrap_or_else(|e| {
        panic!("these tests need PostgreSQL: {e:#}");
    });
    let url = pg.url("postgres");
    *CLUSTER.lock().unwrap() = Some((pg, base));
    // SAFETY: registering a plain extern "C" fn with no captured state.
    unsafe {
        libc::atexit(stop_cluster);
    }
    url
}

/// A URL for `database` on the run's server.
fn url_for(database: &str) -> String {
    let admin = admin_url();
    let (base, _) = admin.rsplit_once('/').expect("a URL with a database path");
    let base = base.to_string();
    let query = admin
        .split_once('?')
        .map(|(_, q)| format!("?{q}"))
        .unwrap_or_default();
    format!("{base}/{database}{query}")
}

/// Creates an empty database of its own for one test.
pub async fn fresh_database() -> String {
    let name = format!("test_{}", Uuid::new_v4().simple());
    let mut admin = sqlx::PgConnection::connect(admin_url()).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut admin)
        .await
        .unwrap();
    admin.close().await.unwrap();
    url_for(&name)
}
