//! An upload stores its table as loaded (proxima_core::table_codec); jobs,
//! audits and downloads decode it instead of parsing the CSV again, and
//! datasets stored before that still work from their CSV.

use proxima::app::tables::load_stored;
use proxima::store::datasets::DatasetFiles;
use serde_json::{json, Value};
use uuid::Uuid;

use crate::release_report::{
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
        sqlx::query("DELETE FROM dataset_chunks WHERE dataset_id = $1 AND part = 'table-v2'")
            .bind(ds["id"].as_str().unwrap().parse::<Uuid>().unwrap())
            .execute(&app.store.pool)
            .await
            .unwrap();
    assert!(removed.rows_affected() >= 1);
    let from_csv = release(finished_job(&app, request).await).await;
    assert_eq!(from_table, from_csv);
    assert!(from_csv.lines().count() > 1, "{from_csv}");
}

/// 2,500 rows under a schema with a flat categorical QI whose new values
/// keep appearing, a missing value to suppress and an insensitive note.
fn long_upload() -> (Value, String) {
    let schema = json!({"name": "long", "on_missing": "suppress", "csv": {"missing": ["?"]},
        "columns": [
        {"name": "id", "role": "identifier"},
        {"name": "age", "role": "quasi_identifier", "type": "numeric"},
        {"name": "town", "role": "quasi_identifier", "type": "categorical"},
        {"name": "pay", "role": "sensitive", "type": "numeric"},
        {"name": "note", "role": "insensitive"}
    ]});
    let mut csv = String::from("id,age,town,pay,note\n");
    for i in 0..2500 {
        let age = if i == 1234 {
            "?".to_string()
        } else {
            (i % 90).to_string()
        };
        csv.push_str(&format!("{i},{age},t{},{}.5,n{}\n", i / 7, i * 3, i % 11));
    }
    (schema, csv)
}

#[tokio::test]
async fn an_upload_holds_one_block_of_its_table_at_a_time() {
    use proxima::http::limits::Limits;
    use proxima_core::ingest::{BlockLimits, BlockTally};
    let tally = BlockTally::new();
    let mut limits = Limits::default();
    limits.upload_blocks = BlockLimits {
        rows: 100,
        bytes: usize::MAX,
        tally: Some(tally.clone()),
        ..BlockLimits::default()
    };
    let app = TestApp::with(Options {
        limits,
        ..Options::default()
    })
    .await;
    let (schema, csv) = long_upload();
    let res = upload(
        &app,
        reqwest::multipart::Form::new()
            .part(
                "schema",
                reqwest::multipart::Part::bytes(serde_json::to_vec(&schema).unwrap()),
            )
            .part(
                "data",
                reqwest::multipart::Part::bytes(csv.clone().into_bytes()),
            ),
    )
    .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let d: Value = res.json().await.unwrap();
    // 2,499 rows kept in blocks of 100, each dropped before the next: the
    // upload never held more than one, however long the table.
    assert_eq!(tally.made(), 25);
    assert_eq!(tally.peak(), 1);
    assert_eq!(tally.live(), 0);
    assert_eq!(
        (d["rows"].as_u64(), d["suppressed_rows"].as_u64()),
        (Some(2500), Some(1))
    );

    // What was stored block by block is the table the whole CSV gives, and
    // the statistics gathered block by block are the whole table's.
    let id: Uuid = d["id"].as_str().unwrap().parse().unwrap();
    let row = app.store.get_dataset("t1", id).await.unwrap().unwrap();
    let files = app.store.dataset_files("t1", id).await.unwrap();
    let stored = load_stored(&row.schema, &files).unwrap();
    let parsed = load_stored(
        &row.schema,
        &DatasetFiles {
            table: None,
            data: csv.into_bytes(),
            hierarchies: Vec::new(),
        },
    )
    .unwrap();
    assert_eq!(stored, parsed);
    let whole = proxima::api::dataset::columns_of(proxima_core::ingest::column_stats(&parsed));
    assert_eq!(row.columns, whole);
    let town = row.columns.iter().find(|c| c.name == "town").unwrap();
    assert_eq!(town.distinct, 2500 / 7 + 1);
}

#[tokio::test]
async fn a_refused_upload_after_some_blocks_stores_nothing() {
    use proxima::http::limits::Limits;
    use proxima_core::ingest::{BlockLimits, BlockTally};
    let tally = BlockTally::new();
    let mut limits = Limits::default();
    limits.upload_blocks = BlockLimits {
        rows: 100,
        bytes: usize::MAX,
        tally: Some(tally.clone()),
        ..BlockLimits::default()
    };
    let app = TestApp::with(Options {
        limits,
        ..Options::default()
    })
    .await;
    let (schema, mut csv) = long_upload();
    csv.push_str("2500,old,t1,1,n\n");
    let res = upload(
        &app,
        reqwest::multipart::Form::new()
            .part(
                "schema",
                reqwest::multipart::Part::bytes(serde_json::to_vec(&schema).unwrap()),
            )
            .part("data", reqwest::multipart::Part::bytes(csv.into_bytes())),
    )
    .await;
    assert_eq!(res.status(), 400);
    let problem: Value = res.json().await.unwrap();
    assert_eq!(
        problem["errors"][0]["pointer"], "/data/line/2501/age",
        "{problem}"
    );
    assert_eq!(tally.made(), 24, "blocks went out before the bad last line");
    let (datasets, chunks): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM datasets), (SELECT count(*) FROM dataset_chunks)",
    )
    .fetch_one(&app.store.pool)
    .await
    .unwrap();
    assert_eq!((datasets, chunks), (0, 0));
}
