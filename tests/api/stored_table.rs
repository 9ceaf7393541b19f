//! An upload stores its table as loaded (proxima_core::table_codec); jobs,
//! audits and downloads decode it instead of parsing the CSV again, and
//! datasets stored before that still work from their CSV.

use proxima::spec::dataset::{load_stored, DatasetFiles};
use serde_json::{json, Value};
use uuid::Uuid;

use crate::report::{
    app_with_worker, finished_job, form, small_schema, upload, upload_adult, SMALL_CSV,
};
use crate::support::*;

#[tokio::test]
async fn the_stored_adult_table_is_the_table_its_csv_gives() {
    let Some(shared) = shared_dir() else { return };
    let app = TestApp::with(Options {
        max_body: 64 << 20,
        ..Options::default()
    })
    .await;
    let d = upload_adult(&app, &shared).await;
    let id: Uuid = d["id"].as_str().unwrap().parse().unwrap();
    let row = app.store.get_dataset("t1", id).await.unwrap().unwrap();
    let files = app.store.dataset_files("t1", id).await.unwrap();
    assert!(files.table.is_some(), "the upload stored its table");
    assert!(
        files.data.is_empty(),
        "the CSV is not read when the table is there"
    );
    let stored = load_stored(&row.schema, &files).unwrap();
    let csv = std::fs::read(shared.join("data/adult_full/adult_full.csv")).unwrap();
    let parsed = load_stored(
        &row.schema,
        &DatasetFiles {
            table: None,
            data: csv,
            hierarchies: files.hierarchies.clone(),
        },
    )
    .unwrap();
    assert!(stored.suppressed_rows() > 0, "adult_full has `?` rows");
    assert_eq!(stored, parsed);
}

#[tokio::test]
async fn a_dataset_stored_without_its_table_gives_the_same_release() {
    let app = app_with_worker().await;
    let res = upload(&app, form(&small_schema(None), SMALL_CSV)).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let ds: Value = res.json().await.unwrap();
    let request = json!({"dataset_id": ds["id"], "model": {"kind": "k_anonymity", "k": 2}});
    let release = |job: String| {
        let app = &app;
        async move {
            let res = app.get(&format!("/v1/jobs/{job}/result?format=csv")).await;
            assert_eq!(res.status(), 200);
            res.text().await.unwrap()
        }
    };
    let from_table = release(finished_job(&app, request.clone()).await).await;

    // As a dataset uploaded before tables were stored: only its CSV.
    let removed =
        sqlx::query("DELETE FROM dataset_chunks WHERE dataset_id = $1 AND part = 'table'")
            .bind(ds["id"].as_str().unwrap().parse::<Uuid>().unwrap())
            .execute(&app.store.pool)
            .await
            .unwrap();
    assert!(removed.rows_affected() >= 1);
    let from_csv = release(finished_job(&app, request).await).await;
    assert_eq!(from_table, from_csv);
    assert!(from_csv.lines().count() > 1, "{from_csv}");
}
