//! Test harness: one PostgreSQL per test-binary run (DATABASE_URL when set,
//! else a private cluster started like `proxima serve` does), a fresh
//! database per test, and the app served in-process on 127.0.0.1:0.

use std::sync::Arc;
use std::time::Duration;

use proxima::http::limits::Limits;
use proxima::http::{router, AppState};
use proxima::store::blob::Chunked;
use proxima::store::datasets::{DatasetRow, NewDataset};
use proxima::store::Store;
use proxima::worker::{self, JobRunner, WorkerConfig, WorkerHandle};
use serde_json::{json, Value};
use uuid::Uuid;

pub use proxima_testdata::shared_dir;

pub use proxima_test_support::db::fresh_database;

/// A migrated store on a fresh database.
pub async fn fresh_store() -> Store {
    let store = Store::connect(&fresh_database().await, 10).await.unwrap();
    store.migrate().await.unwrap();
    store
}

/// A running app.
pub struct TestApp {
    pub base: String,
    pub store: Store,
    pub client: reqwest::Client,
    /// A key of tenant `t1`.
    pub key: String,
    pub worker: Option<WorkerHandle>,
    /// The app's limits (shares its upload permits).
    pub limits: Limits,
}

pub struct Options {
    pub max_body: usize,
    pub migrate: bool,
    pub runner: Option<Arc<dyn JobRunner>>,
    pub limits: Limits,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_body: 1 << 20,
            migrate: true,
            runner: None,
            limits: Limits::default(),
        }
    }
}

/// Short queue timings so tests run fast.
pub fn test_worker_config(workers: usize) -> WorkerConfig {
    let mut c = WorkerConfig::new(workers);
    c.lease = Duration::from_secs(5);
    c.heartbeat = Duration::from_millis(100);
    c.poll = Duration::from_millis(200);
    c.grace = Duration::from_secs(2);
    c.retry_base = Duration::from_millis(50);
    c
}

impl TestApp {
    pub async fn start() -> TestApp {
        Self::with(Options::default()).await
    }

    pub async fn with(options: Options) -> TestApp {
        let store = Store::connect(&fresh_database().await, 10).await.unwrap();
        let mut key = String::new();
        if options.migrate {
            store.migrate().await.unwrap();
            key = store.create_key("t1").await.unwrap();
        }
        let limits = options.limits.clone();
        let state = AppState::new(store.clone(), options.max_body, 3).with_limits(options.limits);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            axum::serve(listener, router(state)).await.unwrap();
        });
        let worker = options
            .runner
            .map(|r| worker::start(store.clone(), r, test_worker_config(2)));
        TestApp {
            base: format!("http://{addr}"),
            store,
            client: reqwest::Client::new(),
            key,
            worker,
            limits,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .bearer_auth(&self.key)
            .send()
            .await
            .unwrap()
    }

    pub async fn post_json(&self, path: &str, body: &Value) -> reqwest::Response {
        self.client
            .post(self.url(path))
            .bearer_auth(&self.key)
            .json(body)
            .send()
            .await
            .unwrap()
    }

    /// Creates a small dataset directly in the store (for `tenant`).
    pub async fn dataset(&self, tenant: &str) -> DatasetRow {
        insert_dataset(&self.store, tenant, "people").await
    }

    /// Polls a job until `done(status)` or 20 s.
    pub async fn wait_job(&self, id: &str, done: impl Fn(&str) -> bool) -> Value {
        wait_job_row(&self.store, id, done).await
    }
}

/// Polls the store (tenant-free) until the job's status satisfies `done`.
pub async fn wait_job_row(store: &Store, id: &str, done: impl Fn(&str) -> bool) -> Value {
    let id: Uuid = id.parse().unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let row: (String, String, i32, f64, Option<Value>) = sqlx::query_as(
            "SELECT tenant, status, attempts, progress, error FROM jobs WHERE id = $1",
        )
        .bind(id)
        .fetch_one(&store.pool)
        .await
        .unwrap();
        if done(&row.1) {
            return json!({"status": row.1, "attempts": row.2, "progress": row.3,
                          "error": row.4, "tenant": row.0});
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "job {id} stuck in {}",
            row.1
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub const PEOPLE_CSV: &str = "age,zip,salary\n30,1000,50\n40,2000,60\n50,3000,70\n";

/// The schema of [`PEOPLE_CSV`] (`zip`'s hierarchy comes as a file).
/// The parameters of a k = 2 Mondrian job, as the service stores them.
pub fn k2_mondrian() -> proxima::api::JobParams {
    proxima::api::JobParams {
        model: serde_json::from_value(json!({"kind": "k_anonymity", "k": 2})).unwrap(),
        algorithm: proxima::api::AlgorithmDto::Mondrian,
        sensitive_metric: None,
        xcolor: None,
        suppression_limit: Default::default(),
    }
}

/// A job summary from a fake runner: `rows` rows in one group;
/// `elapsed_ms` carries `marker`, so a test can tell which attempt wrote it.
pub fn fake_summary(rows: usize, marker: u64) -> proxima::api::JobSummaryDto {
    proxima::api::JobSummaryDto {
        rows: rows as u64,
        published_rows: rows as u64,
        suppressed_rows: 0,
        groups: 1,
        min_group_size: rows as u64,
        information_loss: 0.0,
        elapsed_ms: marker,
        suppressed_by_model: 0,
        attacker_view: None,
        query_error: None,
        query_error_median: None,
    }
}

/// The k of a job's k-anonymity model (fake runners branch on it).
pub fn k_of(input: &proxima::worker::JobInput) -> Option<u64> {
    match &input.params.model {
        proxima::api::ModelDto::KAnonymity { k } => k.as_u64(),
        _ => None,
    }
}

pub fn people_schema(name: &str) -> Value {
    json!({"name": name, "columns": [
        {"name": "age", "role": "quasi_identifier", "type": "numeric"},
        {"name": "zip", "role": "quasi_identifier", "type": "categorical"},
        {"name": "salary", "role": "sensitive", "type": "numeric"}
    ]})
}

pub async fn insert_dataset(store: &Store, tenant: &str, name: &str) -> DatasetRow {
    let new = NewDataset {
        id: Uuid::new_v4(),
        tenant: tenant.to_string(),
        name: name.to_string(),
        schema: people_schema(name),
        rows: 3,
        suppressed_rows: 0,
        size_bytes: PEOPLE_CSV.len() as i64,
        sha256: "0".repeat(64),
        columns: Vec::new(),
        population: None,
    };
    let mut tx = store.begin_dataset(&new).await.unwrap();
    tx.add_data(&Chunked::from_bytes(PEOPLE_CSV.as_bytes()))
        .await
        .unwrap();
    tx.add_hierarchy("zip", &Chunked::from_bytes(b"1000;*\n2000;*\n3000;*\n"))
        .await
        .unwrap();
    tx.commit().await.unwrap()
}

/// Asserts a problem+json response with `status` and `code`; returns it.
pub async fn expect_problem(res: reqwest::Response, status: u16, code: &str) -> Value {
    assert_eq!(res.status().as_u16(), status, "status");
    let ct = res
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let body: Value = res.json().await.unwrap();
    assert_eq!(ct, "application/problem+json", "{body}");
    assert_eq!(body["code"], code, "{body}");
    assert_eq!(body["status"], status, "{body}");
    assert_eq!(body["type"], format!("/problems/{code}"), "{body}");
    body
}

pub fn model_body(dataset_id: Uuid) -> Value {
    json!({"dataset_id": dataset_id, "model": {"kind": "k_anonymity", "k": 2}})
}
