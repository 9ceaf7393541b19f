//! kill -9 mid-job: a server is killed while a dataset uploads, while its
//! job is queued, while it runs, and while its result is being stored; a
//! restarted server picks the job up (after the lease expires when the job
//! was claimed) and completes it; `attempts` counts the crash, exactly one
//! result exists, and the download equals a clean run's release.

use std::time::{Duration, Instant};

use crate::support::*;

#[derive(Debug, Clone, Copy)]
enum Stage {
    Upload,
    Queued,
    Running,
    Storing,
}

const STAGES: [Stage; 4] = [Stage::Upload, Stage::Queued, Stage::Running, Stage::Storing];

fn cycles() -> usize {
    std::env::var("PROXIMA_FAULT_CYCLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12)
        .max(4)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_at_every_stage_and_a_restarted_server_finishes_the_job() {
    if !faults_available() {
        return;
    }
    let _serial = serial().await;
    let scratch = Scratch::new();
    let url = fresh_database().await;
    let csv = grid_csv(3000);

    // The clean run: the release every crashed job must reproduce.
    let clean = Proxima::start(&scratch, "clean", &Serve::new(&url)).await;
    let api = clean.api();
    let db = Db::connect(&url).await;
    let dataset = api.upload(&grid_schema("grid"), &csv).await;
    let job = api.submit(&k_job(&dataset)).await;
    let id = job["id"].as_str().unwrap().to_string();
    let done = api.wait_done(&id, Duration::from_secs(60)).await;
    assert_eq!(done["status"], "succeeded", "{done}");
    assert_eq!(done["attempts"], 1);
    let expected = api.result_csv(&id).await;
    assert!(expected.lines().count() > 3000, "{expected:.200}");
    drop(clean);

    let n = cycles();
    let mut jobs_made = 1;
    for cycle in 0..n {
        let stage = STAGES[cycle % STAGES.len()];
        let started = Instant::now();
        let victim_serve = match stage {
            Stage::Upload => Serve::new(&url),
            Stage::Queued => Serve::new(&url).faults("claim-delay-ms:600000"),
            Stage::Running => Serve::new(&url).faults("job-delay-ms:600000"),
            Stage::Storing => Serve::new(&url).faults("result-commit-delay-ms:600000"),
        };
        let mut victim = Proxima::start(&scratch, &format!("victim-{cycle}"), &victim_serve).await;
        let vapi = victim.api();
        let mut upload_name = None;
        // Bring the victim to its kill point.
        let job_id = match stage {
            Stage::Upload => {
                let name = format!("grid-upload-{cycle}");
                let stream = partial_upload(&victim.base, &grid_schema(&name), &csv, 0.5).await;
                // Let the server spool part of the body.
                tokio::time::sleep(Duration::from_millis(300)).await;
                victim.kill9();
                drop(stream);
                // The spool file had no name: nothing outlives the process.
                assert!(
                    files_in(&victim.tmp).is_empty(),
                    "{:?}",
                    files_in(&victim.tmp)
                );
                upload_name = Some(name);
                None
            }
            Stage::Queued => {
                let job = vapi.submit(&k_job(&dataset)).await;
                let id = job["id"].as_str().unwrap().to_string();
                assert_eq!(db.job(&id).await.0, "queued");
                victim.kill9();
                Some(id)
            }
            Stage::Running => {
                let job = vapi.submit(&k_job(&dataset)).await;
                let id = job["id"].as_str().unwrap().to_string();
                db.wait_status(&id, "running", Duration::from_secs(30))
                    .await;
                // Let it heartbeat at least once.
                tokio::time::sleep(Duration::from_millis(300)).await;
                victim.kill9();
                Some(id)
            }
            Stage::Storing => {
                let job = vapi.submit(&k_job(&dataset)).await;
                let id = job["id"].as_str().unwrap().to_string();
                victim
                    .wait_log("delaying the result commit", Duration::from_secs(60))
                    .await;
                victim.kill9();
                Some(id)
            }
        };
        let killed_at = Instant::now();

        // What the crash left: never a result, never a half-stored dataset.
        if let Some(id) = &job_id {
            assert_eq!(db.results(id).await, 0, "cycle {cycle} {stage:?}");
            let (status, attempts, _) = db.job(id).await;
            let expect = match stage {
                Stage::Queued => ("queued", 0),
                _ => ("running", 1),
            };
            assert_eq!(
                (status.as_str(), attempts),
                expect,
                "cycle {cycle} {stage:?}"
            );
        }

        // The restarted server finishes the work.
        let rescuer =
            Proxima::start(&scratch, &format!("rescuer-{cycle}"), &Serve::new(&url)).await;
        let rapi = rescuer.api();
        let (id, ds_id) = match &job_id {
            Some(id) => (id.clone(), dataset["id"].clone()),
            None => {
                let name = upload_name.clone().unwrap();
                let left: i64 = sqlx::query_scalar("SELECT count(*) FROM datasets WHERE name = $1")
                    .bind(&name)
                    .fetch_one(&db.store.pool)
                    .await
                    .unwrap();
                assert_eq!(left, 0, "the killed upload left a dataset row");
                let ds = rapi.upload(&grid_schema(&name), &csv).await;
                let job = rapi.submit(&k_job(&ds)).await;
                (job["id"].as_str().unwrap().to_string(), ds["id"].clone())
            }
        };
        jobs_made += 1;
        let done = rapi.wait_done(&id, Duration::from_secs(60)).await;
        assert_eq!(
            done["status"], "succeeded",
            "cycle {cycle} {stage:?}: {done}"
        );
        assert_eq!(done["dataset_id"], ds_id);
        let attempts = done["attempts"].as_i64().unwrap();
        let expected_attempts = match stage {
            // Never claimed before the crash: the rescue is the first attempt.
            Stage::Upload | Stage::Queued => 1,
            // The crashed attempt counts.
            Stage::Running | Stage::Storing => 2,
        };
        assert_eq!(attempts, expected_attempts, "cycle {cycle} {stage:?}");
        assert_eq!(db.results(&id).await, 1, "cycle {cycle} {stage:?}");
        assert_eq!(
            rapi.result_csv(&id).await,
            expected,
            "cycle {cycle} {stage:?}"
        );
        assert_eq!(db.running_without_lease().await, 0);
        eprintln!(
            "cycle {cycle:2} {stage:?}: attempts {attempts}, recovered {:.1} s after the kill \
             ({:.1} s in all)",
            killed_at.elapsed().as_secs_f64(),
            started.elapsed().as_secs_f64()
        );
        drop(rescuer);
    }

    // Nothing was run twice or stored twice, and no dataset was half-stored.
    assert_eq!(db.scalar("SELECT count(*) FROM jobs").await, jobs_made);
    assert_eq!(
        db.scalar("SELECT count(*) FROM jobs WHERE status = 'succeeded'")
            .await,
        jobs_made
    );
    assert_eq!(
        db.scalar("SELECT count(*) FROM job_results").await,
        jobs_made
    );
    let uploads = 1
        + (0..n)
            .filter(|c| matches!(STAGES[c % 4], Stage::Upload))
            .count();
    assert_eq!(
        db.scalar("SELECT count(*) FROM datasets").await,
        uploads as i64
    );
    assert_eq!(
        db.scalar(
            "SELECT count(*) FROM dataset_chunks c
              WHERE NOT EXISTS (SELECT 1 FROM datasets d WHERE d.id = c.dataset_id)"
        )
        .await,
        0
    );
}
