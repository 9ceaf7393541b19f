//! Postgres storage: the only place SQL lives (docs/design.md §2). One file per table
//! family; every query that touches a tenant's data is scoped by tenant.

pub mod api_keys;
pub mod approvals;
pub mod blob;
mod columns;
pub mod datasets;
pub mod fairness;
pub mod jobs;
pub mod policy;
pub mod queue;
pub mod results;
pub mod retention;
pub mod sweeps;
pub mod table_frames;

use std::time::Duration;

use anyhow::{Context, Result};
use sqlx::migrate::Migrator;
use sqlx::postgres::{PgPool, PgPoolOptions};

/// The migrations in `migrations/`, embedded in the binary.
pub static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

/// The channel `NOTIFY`d when a job becomes claimable.
pub const JOBS_CHANNEL: &str = "proxima_jobs";

/// The channel `NOTIFY`d, with the job's id, when a running job is asked
/// to cancel: the worker running it stops at its next checkpoint instead
/// of at its next heartbeat (which still carries the cancel when a
/// notification is lost).
pub const CANCELS_CHANNEL: &str = "proxima_cancels";

/// The channel `NOTIFY`d, with the job's id, when a running job is deleted
/// with its dataset: the worker running it stops and writes nothing, at
/// once rather than when its next heartbeat finds the lease gone.
pub const GONE_CHANNEL: &str = "proxima_jobs_gone";

/// `NOTIFY channel` with a job's id as payload, on `conn`: heard when its
/// transaction commits, or at once outside one.
pub(crate) async fn notify<'c>(
    conn: impl sqlx::PgExecutor<'c>,
    channel: &str,
    id: uuid::Uuid,
) -> sqlx::Result<()> {
    sqlx::query!("SELECT pg_notify($1, $2)", channel, id.to_string())
        .execute(conn)
        .await?;
    Ok(())
}

/// A handle to the database (cheap to clone).
#[derive(Clone, Debug)]
pub struct Store {
    pub pool: PgPool,
}

impl Store {
    /// Connects with a pool of `max_connections`.
    pub async fn connect(url: &str, max_connections: u32) -> Result<Store> {
        let pool = PgPoolOptions::new()
            .max_connections(max_connections)
            .acquire_timeout(Duration::from_secs(10))
            .connect(url)
            .await
            .context("connecting to PostgreSQL")?;
        Ok(Store { pool })
    }

    /// Applies the pending migrations.
    /// `CREATE DATABASE name` on the server of `admin_url` unless it exists
    /// (`name` is ours — the embedded cluster's database — not user input).
    pub async fn create_database_if_missing(admin_url: &str, name: &str) -> Result<()> {
        let admin = Store::connect(admin_url, 1).await?;
        // EXISTS is never NULL.
        let exists = sqlx::query_scalar!(
            r#"SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1) AS "exists!""#,
            name
        )
        .fetch_one(&admin.pool)
        .await?;
        if !exists {
            // Not checked at compile time: the statement names the database
            // (an identifier, which cannot be a bind parameter).
            let sql = format!("CREATE DATABASE \"{}\"", name.replace('"', ""));
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .execute(&admin.pool)
                .await?;
        }
        admin.pool.close().await;
        Ok(())
    }

    /// A connection that hears the `NOTIFY` sent when a job is queued
    /// ([`JOBS_CHANNEL`]), a running one is asked to cancel
    /// ([`CANCELS_CHANNEL`]) or is deleted ([`GONE_CHANNEL`]):
    /// [`JobWakeups::next`] returns at each one.
    pub async fn job_wakeups(&self) -> Result<JobWakeups> {
        let mut listener = sqlx::postgres::PgListener::connect_with(&self.pool).await?;
        listener
            .listen_all([JOBS_CHANNEL, CANCELS_CHANNEL, GONE_CHANNEL])
            .await?;
        Ok(JobWakeups(listener))
    }

    pub async fn migrate(&self) -> Result<()> {
        MIGRATOR
            .run(&self.pool)
            .await
            .context("applying database migrations")?;
        Ok(())
    }

    /// Ready = the database answers and every embedded migration is applied.
    pub async fn ready(&self) -> Result<bool> {
        let applied = sqlx::query_scalar!(
            "SELECT version FROM _sqlx_migrations WHERE success ORDER BY version"
        )
        .fetch_all(&self.pool)
        .await
        .context("reading the applied migrations")?;
        Ok(MIGRATOR
            .iter()
            .filter(|m| m.migration_type.is_up_migration())
            .all(|m| applied.contains(&m.version)))
    }
}

/// An opaque list cursor: the `(created_at, id)` of the last item served,
/// as `<microseconds>.<uuid>`. Lists are ordered newest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    pub created_at: chrono::DateTime<chrono::Utc>,
    pub id: uuid::Uuid,
}

impl Cursor {
    pub fn encode(&self) -> String {
        format!("{}.{}", self.created_at.timestamp_micros(), self.id)
    }

    pub fn decode(s: &str) -> Option<Cursor> {
        let (micros, id) = s.split_once('.')?;
        let created_at = chrono::DateTime::from_timestamp_micros(micros.parse().ok()?)?;
        Some(Cursor {
            created_at,
            id: id.parse().ok()?,
        })
    }
}

/// One page of a list, newest first.
#[derive(Debug, Clone)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub next_cursor: Option<Cursor>,
}

/// See [`Store::job_wakeups`].
pub struct JobWakeups(sqlx::postgres::PgListener);

/// What a notification says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wakeup {
    /// A job may be claimable.
    Claimable,
    /// The running job with this id was asked to cancel.
    Cancel(uuid::Uuid),
    /// The running job with this id was deleted (with its dataset).
    Gone(uuid::Uuid),
}

impl JobWakeups {
    /// Waits for the next notification; an error means the connection was
    /// lost (ask for new wakeups).
    pub async fn next(&mut self) -> Result<Wakeup> {
        let n = self.0.recv().await?;
        Ok(wakeup(n.channel(), n.payload()))
    }
}

/// A notification read: a cancel or a deletion names its job; anything
/// else (a queued job, or a payload that does not parse) only wakes the
/// claim loop, which is always harmless.
fn wakeup(channel: &str, payload: &str) -> Wakeup {
    match (channel, payload.parse()) {
        (CANCELS_CHANNEL, Ok(id)) => Wakeup::Cancel(id),
        (GONE_CHANNEL, Ok(id)) => Wakeup::Gone(id),
        _ => Wakeup::Claimable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_round_trips_and_rejects_garbage() {
        let c = Cursor {
            created_at: chrono::DateTime::from_timestamp_micros(1_700_000_000_123_456).unwrap(),
            id: uuid::Uuid::new_v4(),
        };
        assert_eq!(Cursor::decode(&c.encode()), Some(c));
        assert_eq!(Cursor::decode("nonsense"), None);
        assert_eq!(Cursor::decode("12.not-a-uuid"), None);
    }

    #[test]
    fn a_cancel_or_deletion_notification_names_its_job_and_others_only_wake() {
        let id = uuid::Uuid::new_v4();
        assert_eq!(wakeup(CANCELS_CHANNEL, &id.to_string()), Wakeup::Cancel(id));
        assert_eq!(wakeup(GONE_CHANNEL, &id.to_string()), Wakeup::Gone(id));
        assert_eq!(wakeup(JOBS_CHANNEL, &id.to_string()), Wakeup::Claimable);
        assert_eq!(wakeup(CANCELS_CHANNEL, "garbage"), Wakeup::Claimable);
        assert_eq!(wakeup(GONE_CHANNEL, ""), Wakeup::Claimable);
    }
}
