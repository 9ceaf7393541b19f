//! An upload whose connection is cut mid-body (a raw TCP socket writes part
//! of the multipart body, then closes) stores nothing — no dataset row, no
//! chunks, no temporary file — and the next upload works.

use std::time::{Duration, Instant};

use crate::support::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_upload_leaves_nothing_and_the_next_one_works() {
    let _serial = serial().await;
    let scratch = Scratch::new();
    let url = fresh_database().await;
    let p = Proxima::start(&scratch, "uploads", &Serve::new(&url)).await;
    let api = p.api();
    let db = Db::connect(&url).await;
    let csv = grid_csv(100_000);

    for fraction in [0.0, 0.3, 0.9] {
        let stream = partial_upload(&p.base, &grid_schema("cut"), &csv, fraction).await;
        // The server spools what came (to an unnamed file: nothing shows in
        // its TMPDIR even now); then the client goes away.
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(files_in(&p.tmp).is_empty(), "{:?}", files_in(&p.tmp));
        drop(stream);
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let left = files_in(&p.tmp);
            if left.is_empty() {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "temporary files left after a cut upload: {left:?}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(db.scalar("SELECT count(*) FROM datasets").await, 0);
        assert_eq!(db.scalar("SELECT count(*) FROM dataset_chunks").await, 0);
    }
    assert!(p.alive());

    let ds = api.upload(&grid_schema("whole"), &csv).await;
    assert_eq!(ds["rows"], 100_000);
    assert_eq!(db.scalar("SELECT count(*) FROM datasets").await, 1);
    assert!(files_in(&p.tmp).is_empty(), "{:?}", files_in(&p.tmp));
    let id = api.submit_id(&k_job(&ds)).await;
    let done = api.wait_done(&id, Duration::from_secs(120)).await;
    assert_eq!(done["status"], "succeeded", "{done}");
}
