//! `proxima serve` and `proxima migrate`: database start-up (DATABASE_URL or
//! the private cluster), migrations, key bootstrap, the worker and the HTTP
//! server, and graceful shutdown.

use std::sync::Arc;

use anyhow::{Context, Result};

use crate::config::{DbArgs, MigrateArgs, ServeArgs};
use crate::pg_embedded::EmbeddedPostgres;
use crate::store::Store;
use crate::worker::{self, JobRunner};

/// The database name used inside the private cluster.
pub const EMBEDDED_DB: &str = "proxima";

/// A database URL, plus the private cluster when we run one (dropping it
/// stops the cluster).
pub struct Database {
    pub url: String,
    pub embedded: Option<EmbeddedPostgres>,
}

/// `DATABASE_URL` if set; otherwise starts (or reuses) the private cluster
/// under `<data-dir>/pg` and makes sure its `proxima` database exists.
pub async fn open_database(db: &DbArgs) -> Result<Database> {
    if let Some(url) = &db.database_url {
        return Ok(Database {
            url: url.clone(),
            embedded: None,
        });
    }
    let dir = db.data_dir.join("pg");
    let dir_for_start = dir.clone();
    let pg = tokio::task::spawn_blocking(move || EmbeddedPostgres::start(&dir_for_start))
        .await
        .context("starting the private PostgreSQL")??;
    tracing::info!(
        data_dir = %pg.data_dir().display(),
        port = pg.port(),
        "no DATABASE_URL: running a private PostgreSQL cluster (set DATABASE_URL to use another)"
    );
    Store::create_database_if_missing(&pg.url("postgres"), EMBEDDED_DB).await?;
    Ok(Database {
        url: pg.url(EMBEDDED_DB),
        embedded: Some(pg),
    })
}

/// `proxima migrate`.
pub async fn migrate(args: MigrateArgs) -> Result<()> {
    crate::telemetry::init("text");
    let db = open_database(&args.db).await?;
    let store = Store::connect(&db.url, 2).await?;
    store.migrate().await?;
    tracing::info!("migrations applied");
    store.pool.close().await;
    drop(db);
    Ok(())
}

/// Makes `PROXIMA_BOOTSTRAP_KEY` exist for tenant `default`; with no keys at
/// all and no bootstrap key, creates one and prints it (once: the next start
/// finds a key). Returns the printed key, if any.
pub async fn bootstrap_keys(store: &Store, bootstrap: Option<&str>) -> Result<Option<String>> {
    if let Some(key) = bootstrap.filter(|k| !k.is_empty()) {
        store.ensure_key("default", key).await?;
        return Ok(None);
    }
    let created = store.create_first_key().await?;
    if let Some(key) = &created {
        // On stdout, apart from the log lines (stderr), framed so that it is
        // found at a glance in a scrolling terminal.
        print!("{}", first_key_banner(key));
    }
    Ok(created)
}

/// The block that shows the first API key, once.
pub fn first_key_banner(key: &str) -> String {
    let rule = "=".repeat(72);
    format!(
        "\n{rule}\n\
         Proxima created the first API key (tenant `default`). It is shown only\n\
         this once; keep it. Send it as `Authorization: Bearer <key>`:\n\
         \n    {key}\n\n\
         (Set PROXIMA_BOOTSTRAP_KEY to choose the key yourself; add more keys with\n\
         `proxima keys create --tenant NAME`.)\n\
         {rule}\n\n"
    )
}

/// `proxima serve` with the given job body.
pub async fn serve(args: ServeArgs, runner: Arc<dyn JobRunner>) -> Result<()> {
    crate::telemetry::init(&args.log_format);
    crate::fault::init()?;
    let db = open_database(&args.db).await?;
    let workers = args.workers();
    // Connections: the HTTP side, each running job's heartbeat/settle, and
    // the LISTEN connection.
    let store = Store::connect(&db.url, (workers as u32) * 2 + 10).await?;
    store.migrate().await?;
    bootstrap_keys(&store, args.bootstrap_key.as_deref()).await?;

    let wcfg = args.worker_config();
    let worker = worker::start(store.clone(), runner, wcfg);
    // On SIGTERM the worker stops claiming at once (not only after the HTTP
    // side has drained) and gets its grace period for running jobs.
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let stop_tx = std::sync::Arc::new(stop_tx);
    let signal_tx = stop_tx.clone();
    tokio::spawn(async move {
        shutdown_signal().await;
        let _ = signal_tx.send(true);
    });
    let mut worker_stop = stop_rx.clone();
    let worker_task = tokio::spawn(async move {
        let _ = worker_stop.wait_for(|v| *v).await;
        worker.shutdown().await;
    });

    let retention = args.retention_secs.map(|secs| {
        crate::retention::start(
            store.clone(),
            std::time::Duration::from_secs(secs),
            stop_rx.clone(),
        )
    });
    let state = crate::http::AppState::new(store.clone(), args.max_body, args.max_attempts)
        .with_limits(args.limits());
    let app = crate::http::router(state);
    let listener = tokio::net::TcpListener::bind(args.bind)
        .await
        .with_context(|| format!("binding {}", args.bind))?;
    tracing::info!(addr = %listener.local_addr()?, workers, "proxima listening");
    crate::http::connections::serve(listener, app, args.connection_limits(), stop_rx).await;
    let served: Result<()> = Ok(());
    tracing::info!("HTTP server stopped; waiting for the worker");
    let _ = stop_tx.send(true);
    if let Err(e) = worker_task.await {
        tracing::error!(error = %e, "the worker's shutdown ended abnormally");
    }
    if let Some(task) = retention {
        let _ = task.await;
    }
    served?;
    store.pool.close().await;
    drop(db);
    Ok(())
}

/// Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
    tracing::info!("shutdown requested");
}

/// `proxima keys create --tenant NAME`: prints the new key on the last line.
pub async fn keys_create(
    db: &DbArgs,
    tenant: &str,
    role: crate::api::access::KeyRole,
) -> Result<()> {
    if tenant.trim().is_empty() {
        anyhow::bail!("--tenant must not be empty");
    }
    let database = open_database(db).await?;
    let store = Store::connect(&database.url, 2).await?;
    store.migrate().await?;
    let key = store.create_key_with_role(tenant, role).await?;
    println!("created a {role} API key for tenant `{tenant}`:");
    println!("{key}");
    store.pool.close().await;
    drop(database);
    Ok(())
}

/// `proxima keys revoke KEY`.
pub async fn keys_revoke(db: &DbArgs, key: &str) -> Result<()> {
    let database = open_database(db).await?;
    let store = Store::connect(&database.url, 2).await?;
    store.migrate().await?;
    let n = store.revoke_key(key).await?;
    store.pool.close().await;
    drop(database);
    if n == 0 {
        anyhow::bail!("no active key matches");
    }
    println!("revoked {n} key(s)");
    Ok(())
}

#[cfg(test)]
mod banner_tests {
    use super::first_key_banner;

    #[test]
    fn the_first_key_stands_alone_on_its_line_inside_a_frame() {
        let banner = first_key_banner("pxk_0123abcd");
        let lines: Vec<&str> = banner.lines().collect();
        assert!(lines.iter().any(|l| l.trim() == "pxk_0123abcd"), "{banner}");
        let rules = lines
            .iter()
            .filter(|l| l.chars().all(|c| c == '=') && !l.is_empty());
        assert_eq!(rules.count(), 2, "framed above and below: {banner}");
        assert!(
            banner.starts_with('\n') && banner.ends_with("\n\n"),
            "blank lines around it"
        );
        assert!(!banner.contains('\u{1b}'), "no colour codes");
    }
}
