//! Log capture: the service's JSON subscriber (telemetry::subscriber) is
//! installed as this test binary's global subscriber writing into a buffer,
//! so it sees every thread (HTTP tasks, the worker, blocking job bodies).
//! An upload with distinctive cell values, a refused upload naming one of
//! them, a refused job, a job that runs, one that fails at run time and one
//! whose body panics with a cell value in its message must leave no cell
//! value in the logs — at debug level for our crate and tower-http,
//! stricter than the deployed default. The service's redacting panic hook
//! is installed too, as `proxima serve` installs it.

use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

use proxima::worker::core_runner::CoreRunner;
use proxima::worker::{JobError, JobInput, JobOutput, JobRunner};
use reqwest::multipart::{Form, Part};
use serde_json::{json, Value};
use tracing_subscriber::EnvFilter;

use crate::support::*;

#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The process-wide capture (installed once; other tests' logs land in it
/// too, which only widens what is checked).
fn capture() -> &'static Buffer {
    static CAPTURE: OnceLock<Buffer> = OnceLock::new();
    CAPTURE.get_or_init(|| {
        let buf = Buffer::default();
        let writer = buf.clone();
        let filter = EnvFilter::new("info,proxima=debug,tower_http=debug");
        let sub = proxima::telemetry::subscriber("json", filter, move || writer.clone());
        tracing::subscriber::set_global_default(sub)
            .expect("no other global subscriber in the API tests");
        proxima::telemetry::install_panic_hook();
        buf
    })
}

fn captured() -> String {
    String::from_utf8_lossy(&capture().0.lock().unwrap()).into_owned()
}

const SECRETS: &[&str] = &[
    "ZZSECRET-Alice-4711",
    "ZZSECRET-Bob-4712",
    "ZZSECRET-Carol-4713",
    "ZZSECRET-Springfield",
    "ZZSECRET-Shelbyville",
    "ZZSECRET-Flu",
    "ZZSECRET-Gout",
    "ZZSECRET-Age",
];

fn schema(sensitive: &str, sa_type: &str) -> Value {
    json!({"name": "patients", "columns": [
        {"name": "name", "role": "identifier", "type": "categorical"},
        {"name": "age", "role": "quasi_identifier", "type": "numeric"},
        {"name": "city", "role": "quasi_identifier", "type": "categorical"},
        {"name": sensitive, "role": "sensitive", "type": sa_type}
    ]})
}

const CSV: &str = "name,age,city,diagnosis\n\
ZZSECRET-Alice-4711,31,ZZSECRET-Springfield,ZZSECRET-Flu\n\
ZZSECRET-Bob-4712,35,ZZSECRET-Springfield,ZZSECRET-Gout\n\
ZZSECRET-Carol-4713,52,ZZSECRET-Shelbyville,ZZSECRET-Flu\n\
ZZSECRET-Dan-4714,58,ZZSECRET-Shelbyville,ZZSECRET-Gout\n";

/// Every salary the same: with ε = 5 every pair is a neighbour, beyond
/// XColor's bound, so a dissimilarity job fails at run time
/// (model_not_satisfied) after the worker loaded and partitioned the table.
const PAYROLL_CSV: &str = "name,age,city,salary\n\
ZZSECRET-Alice-4711,31,ZZSECRET-Springfield,50\n\
ZZSECRET-Bob-4712,35,ZZSECRET-Springfield,50\n\
ZZSECRET-Carol-4713,52,ZZSECRET-Shelbyville,50\n\
ZZSECRET-Dan-4714,58,ZZSECRET-Shelbyville,50\n";

/// A job body that panics quoting a cell of the table, as a buggy algorithm
/// formatting an unexpected value might.
struct PanickingRunner;

impl JobRunner for PanickingRunner {
    fn run(
        &self,
        input: JobInput,
        _progress: &(dyn Fn(f64) -> bool + Sync),
    ) -> Result<JobOutput, JobError> {
        // The stored table as a job loads it; the first row's city.
        let table = proxima::app::tables::load_stored(&input.dataset.schema, &input.files)
            .expect("the stored table loads");
        let cell = table.text(2, 0).expect("city is published").to_string();
        assert!(cell.starts_with("ZZSECRET-"), "{cell}");
        panic!("unexpected cell value {cell:?}");
    }
}

async fn upload(app: &TestApp, schema: Value, csv: &str, request_id: &str) -> reqwest::Response {
    let form = Form::new()
        .part(
            "schema",
            Part::bytes(serde_json::to_vec(&schema).unwrap())
                .mime_str("application/json")
                .unwrap(),
        )
        .part("data", Part::bytes(csv.as_bytes().to_vec()));
    app.client
        .post(app.url("/v1/datasets"))
        .bearer_auth(&app.key)
        .header("x-request-id", request_id)
        .multipart(form)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn no_cell_value_reaches_the_logs() {
    capture();
    let app = TestApp::with(Options {
        runner: Some(Arc::new(CoreRunner)),
        ..Options::default()
    })
    .await;
    let tag = uuid::Uuid::new_v4().simple().to_string();

    // A refused upload: the user is told the offending value (that is the
    // one value they need to fix their file), the logs are not.
    let bad = CSV.replace(",58,", ",ZZSECRET-Age,");
    let res = upload(
        &app,
        schema("diagnosis", "categorical"),
        &bad,
        &format!("logs-bad-{tag}"),
    )
    .await;
    let p = expect_problem(res, 400, "malformed_csv").await;
    assert_eq!(p["details"]["value"], "ZZSECRET-Age", "{p}");

    // A good upload, a job refused before queueing, and a job that runs
    // through the worker over these values.
    let res = upload(
        &app,
        schema("diagnosis", "categorical"),
        CSV,
        &format!("logs-good-{tag}"),
    )
    .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let ds: Value = res.json().await.unwrap();
    let res = app
        .post_json(
            "/v1/jobs",
            &json!({"dataset_id": ds["id"], "model": {"kind": "k_anonymity", "k": 100}}),
        )
        .await;
    expect_problem(res, 422, "infeasible_parameters").await;
    let res = app
        .post_json(
            "/v1/jobs",
            &json!({"dataset_id": ds["id"], "model": {"kind": "k_anonymity", "k": 2}}),
        )
        .await;
    assert_eq!(res.status(), 202);
    let job: Value = res.json().await.unwrap();
    let job_id = job["id"].as_str().unwrap().to_string();
    let done = app
        .wait_job(&job_id, |s| !matches!(s, "queued" | "running"))
        .await;
    assert_eq!(done["status"], "succeeded", "{done}");
    // The release does hold cell values (the quasi-identifiers generalized,
    // the diagnosis as is): they went through the service, yet not the logs.
    let release = app
        .get(&format!("/v1/jobs/{job_id}/result"))
        .await
        .text()
        .await
        .unwrap();
    assert!(release.contains("ZZSECRET-Flu"), "{release}");

    // A job that fails while running.
    let res = upload(
        &app,
        schema("salary", "numeric"),
        PAYROLL_CSV,
        &format!("logs-payroll-{tag}"),
    )
    .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let payroll: Value = res.json().await.unwrap();
    let model = json!({"kind": "dissimilarity", "epsilon": 5, "delta": 0.5, "k": 2});
    let res = app
        .post_json(
            "/v1/jobs",
            &json!({"dataset_id": payroll["id"], "model": model}),
        )
        .await;
    assert_eq!(res.status(), 202, "{}", res.text().await.unwrap());
    let failing: Value = res.json().await.unwrap();
    let failing_id = failing["id"].as_str().unwrap().to_string();
    let failed = app
        .wait_job(&failing_id, |s| !matches!(s, "queued" | "running"))
        .await;
    assert_eq!(failed["status"], "failed", "{failed}");
    assert_eq!(failed["error"]["code"], "model_not_satisfied", "{failed}");

    // A job whose body panics with a cell value in the message: it fails
    // with `internal` and a generic message; the logs get the panic's
    // location and fingerprint only.
    let panicky = TestApp::with(Options {
        runner: Some(Arc::new(PanickingRunner)),
        ..Options::default()
    })
    .await;
    let res = upload(
        &panicky,
        schema("diagnosis", "categorical"),
        CSV,
        &format!("logs-panic-{tag}"),
    )
    .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let ds: Value = res.json().await.unwrap();
    let res = panicky
        .post_json(
            "/v1/jobs",
            &json!({"dataset_id": ds["id"], "model": {"kind": "k_anonymity", "k": 2}}),
        )
        .await;
    assert_eq!(res.status(), 202, "{}", res.text().await.unwrap());
    let panicking: Value = res.json().await.unwrap();
    let panicking_id = panicking["id"].as_str().unwrap().to_string();
    let panicked = panicky
        .wait_job(&panicking_id, |s| !matches!(s, "queued" | "running"))
        .await;
    assert_eq!(panicked["status"], "failed", "{panicked}");
    assert_eq!(panicked["error"]["code"], "internal", "{panicked}");
    let shown = panicky
        .get(&format!("/v1/jobs/{panicking_id}"))
        .await
        .text()
        .await
        .unwrap();
    assert!(!shown.contains("ZZSECRET"), "{shown}");
    assert!(
        !shown.contains("logs.rs"),
        "no internals in Job.error: {shown}"
    );

    // The worker logs "job settled" after the row is written: wait for it.
    let mut logs = captured();
    for _ in 0..100 {
        if logs.contains(&job_id) && logs.contains(&failing_id) && logs.contains(&panicking_id) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        logs = captured();
    }
    // The capture really saw this app: both uploads' request spans (their
    // response events carry the request id) and the worker's job events.
    for needle in [
        format!("logs-bad-{tag}"),
        format!("logs-good-{tag}"),
        format!("logs-payroll-{tag}"),
        job_id.clone(),
        failing_id.clone(),
        panicking_id.clone(),
    ] {
        assert!(logs.contains(&needle), "the capture missed {needle}");
    }
    // The panic was logged, redacted: where it happened and a fingerprint.
    let panic_line = logs
        .lines()
        .find(|l| l.contains("message withheld") && l.contains("tests/api/logs.rs"))
        .expect("the hook logged the panic's location and fingerprint");
    assert!(panic_line.contains("\"level\":\"ERROR\""), "{panic_line}");
    let job_line = logs
        .lines()
        .find(|l| l.contains(&panicking_id) && l.contains("panicked (message withheld"))
        .expect("the worker logged the job's failure, redacted");
    assert!(!job_line.contains("unexpected cell"), "{job_line}");
    // Every line is a JSON object.
    for line in logs.lines() {
        serde_json::from_str::<Value>(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    }
    for secret in SECRETS {
        let hit = logs.lines().find(|l| l.contains(secret));
        assert!(hit.is_none(), "cell value {secret} logged: {hit:?}");
    }
    assert!(!logs.contains("ZZSECRET"));
}
