//! Two tenants on one server (fairness and isolation): tenant A floods
//! the service — jobs until its quota refuses more, stalled uploads until
//! its share is full — while tenant B uploads a table, runs a small job and
//! reads its jobs. B is never refused, and its job is served while A's
//! backlog is still queued (the claim order is fair across tenants).

use std::time::Duration;

use serde_json::Value;

use crate::support::*;

/// A key for tenant `b`, made with `proxima keys create`.
fn key_for_b(database_url: &str) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_proxima"))
        .args(["keys", "create", "--tenant", "b"])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("DATABASE_URL", database_url)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    stdout.lines().last().unwrap().trim().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_tenants_flood_does_not_starve_another() {
    if !faults_available() {
        return;
    }
    let _serial = serial().await;
    let scratch = Scratch::new();
    let url = fresh_database().await;
    // Every job takes 500 ms; two workers; A may hold 12 jobs and 2 uploads.
    let serve = Serve::new(&url)
        .faults("job-delay-ms:500")
        .env("PROXIMA_MAX_ACTIVE_JOBS_PER_TENANT", "12")
        .env("PROXIMA_MAX_UPLOADS_PER_TENANT", "2");
    let p = Proxima::start(&scratch, "tenants", &serve).await;
    let b_key = key_for_b(&url);
    let api = p.api();
    let client = reqwest::Client::new();

    // A: a backlog of jobs up to its quota, then a refusal.
    let a_ds = api.upload(&grid_schema("a"), &grid_csv(200)).await;
    for _ in 0..12 {
        api.submit(&k_job(&a_ds)).await;
    }
    let refused = client
        .post(api.url("/v1/jobs"))
        .bearer_auth(KEY)
        .json(&k_job(&a_ds))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 429);
    // A: two uploads that stall (its share), and a third refused.
    let _s1 = partial_upload(&p.base, &grid_schema("s1"), &grid_csv(1000), 0.5).await;
    let _s2 = partial_upload(&p.base, &grid_schema("s2"), &grid_csv(1000), 0.5).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let third = reqwest::multipart::Form::new()
        .part(
            "schema",
            reqwest::multipart::Part::bytes(serde_json::to_vec(&grid_schema("s3")).unwrap()),
        )
        .part("data", reqwest::multipart::Part::bytes(grid_csv(10)));
    let res = client
        .post(api.url("/v1/datasets"))
        .bearer_auth(KEY)
        .multipart(third)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 429);

    // B: an upload, a job, reads — none refused.
    let form = reqwest::multipart::Form::new()
        .part(
            "schema",
            reqwest::multipart::Part::bytes(serde_json::to_vec(&grid_schema("b")).unwrap()),
        )
        .part("data", reqwest::multipart::Part::bytes(grid_csv(100)));
    let res = client
        .post(api.url("/v1/datasets"))
        .bearer_auth(&b_key)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let b_ds: Value = res.json().await.unwrap();
    let res = client
        .post(api.url("/v1/jobs"))
        .bearer_auth(&b_key)
        .json(&k_job(&b_ds))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 202);
    let b_job: Value = res.json().await.unwrap();
    let b_id = b_job["id"].as_str().unwrap();
    let db = Db::connect(&url).await;
    db.wait_status(b_id, "succeeded", Duration::from_secs(60))
        .await;
    // B's job jumped A's backlog: A jobs queued before it started after it
    // (first come, first served would run all twelve first).
    let a_after_b: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM jobs WHERE tenant = 'default' AND (started_at IS NULL
           OR started_at > (SELECT started_at FROM jobs WHERE id = $1::uuid))",
    )
    .bind(b_id)
    .fetch_one(&db.store.pool)
    .await
    .unwrap();
    eprintln!("{a_after_b} of a's 12 earlier jobs started after b's");
    assert!(
        a_after_b >= 3,
        "only {a_after_b} of a's earlier jobs started after b's"
    );
    let res = client
        .get(api.url("/v1/jobs"))
        .bearer_auth(&b_key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert!(p.alive());
}
