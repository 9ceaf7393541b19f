//! `POST /v1/datasets`: the multipart upload (`schema`, `data`,
//! `hierarchy:<column>` parts). The data part is streamed to an unnamed
//! temporary file (no name in the file system, so nothing is left behind
//! even when the process is killed mid-upload) while it is hashed and
//! counted (no whole-body buffering), validated
//! once by the core (schema, hierarchies, types, missing values,
//! undescribed columns) block by block — each block of rows encoded in the
//! stored table form and spooled to another unnamed file as soon as it is
//! parsed, so the upload's memory is a block's, whatever the table's
//! length — then stored compressed and chunked with its metadata in one
//! transaction: a rejected upload stores nothing.

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use axum::extract::multipart::MultipartError;
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use super::auth::Tenant;
use super::datasets::dataset_dto;
use super::error::{ApiError, PROBLEM_JSON};
use super::limits::MAX_SCHEMA_BYTES;
use super::path_docs::{Internal, Unauthorized, UploadForm};
use super::AppState;
use crate::spec::dataset::DatasetDto;
use crate::spec::dataset::{columns_of, parse_schema, DatasetColumnDto};
use crate::store::blob::Chunked;
use crate::store::datasets::NewDataset;
use crate::store::table_frames::write_stored;
use proxima_core::ingest::{BlockLimits, StatsBuilder};

/// The uploaded parts, the data spooled to disk.
struct Parts {
    schema: Option<Vec<u8>>,
    data: Option<Spooled>,
    hierarchies: Vec<(String, Vec<u8>)>,
}

struct Spooled {
    file: std::fs::File,
    size: u64,
    sha256: String,
}

fn multipart_error(e: MultipartError, limit: usize) -> ApiError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::payload_too_large(limit)
    } else {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "malformed_multipart",
            format!("the multipart body could not be read: {}", e.body_text()),
        )
    }
}

/// Awaits the next piece of the body, or refuses the upload when the client
/// sends nothing for `idle` (it would otherwise hold its slot until the
/// whole upload timeout).
async fn stalled<T>(
    idle: std::time::Duration,
    next: impl std::future::Future<Output = T>,
) -> Result<T, ApiError> {
    tokio::time::timeout(idle, next).await.map_err(|_| {
        let secs = idle.as_secs_f64();
        ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "upload_timeout",
            format!("the upload sent nothing for {secs} s; it was ended"),
        )
        .with_details(serde_json::json!({"idle_limit_secs": secs}))
    })
}

/// A part over its own limit (the body as a whole may be far larger).
fn part_too_large(part: &str, limit: usize) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "payload_too_large",
        format!("the {part:?} part exceeds its limit of {limit} bytes"),
    )
    .with_details(serde_json::json!({"part": part, "limit_bytes": limit}))
}

/// Reads a small part into memory, refusing it as soon as it passes `cap`
/// (never the whole part first).
async fn read_capped(
    field: &mut axum::extract::multipart::Field<'_>,
    name: &str,
    cap: usize,
    body_limit: usize,
    idle: std::time::Duration,
) -> Result<Vec<u8>, ApiError> {
    let mut buf = Vec::new();
    while let Some(chunk) = stalled(idle, field.chunk())
        .await?
        .map_err(|e| multipart_error(e, body_limit))?
    {
        if buf.len() + chunk.len() > cap {
            return Err(part_too_large(name, cap));
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(buf)
}

async fn receive(
    mut multipart: Multipart,
    limit: usize,
    limits: &super::limits::Limits,
) -> Result<Parts, ApiError> {
    let mut parts = Parts {
        schema: None,
        data: None,
        hierarchies: Vec::new(),
    };
    let idle = limits.upload_idle_timeout;
    while let Some(mut field) = stalled(idle, multipart.next_field())
        .await?
        .map_err(|e| multipart_error(e, limit))?
    {
        let name = field.name().unwrap_or("").to_string();
        if name == "data" {
            if parts.data.is_some() {
                return Err(duplicate("data"));
            }
            let mut file = tempfile::tempfile().map_err(|e| {
                ApiError::internal(anyhow::Error::new(e).context("spooling an upload"))
            })?;
            let mut hasher = Sha256::new();
            let mut size = 0u64;
            while let Some(chunk) = stalled(idle, field.chunk())
                .await?
                .map_err(|e| multipart_error(e, limit))?
            {
                hasher.update(&chunk);
                size += chunk.len() as u64;
                file.write_all(&chunk).map_err(|e| {
                    ApiError::internal(anyhow::Error::new(e).context("spooling an upload"))
                })?;
            }
            file.flush().map_err(|e| {
                ApiError::internal(anyhow::Error::new(e).context("spooling an upload"))
            })?;
            parts.data = Some(Spooled {
                file,
                size,
                sha256: hex::encode(hasher.finalize()),
            });
        } else if name == "schema" {
            if parts.schema.is_some() {
                return Err(duplicate("schema"));
            }
            let bytes = read_capped(&mut field, &name, MAX_SCHEMA_BYTES, limit, idle).await?;
            parts.schema = Some(bytes);
        } else if let Some(column) = name.strip_prefix("hierarchy:") {
            if parts.hierarchies.iter().any(|(c, _)| c == column) {
                return Err(duplicate(&name));
            }
            let column = column.to_string();
            let bytes =
                read_capped(&mut field, &name, limits.max_hierarchy_bytes, limit, idle).await?;
            parts.hierarchies.push((column, bytes));
        } else {
            return Err(ApiError::invalid_parameters(
                &format!("/parts/{name}"),
                format!(
                    "unexpected part {name:?}: the parts are `schema`, `data` and `hierarchy:<column>`"
                ),
            ));
        }
    }
    Ok(parts)
}

fn duplicate(name: &str) -> ApiError {
    ApiError::invalid_parameters(
        &format!("/parts/{name}"),
        format!("the part {name:?} is given twice"),
    )
}

/// What validation learned about an upload.
struct Validated {
    name: String,
    schema: serde_json::Value,
    rows: usize,
    suppressed_rows: usize,
    columns: Vec<DatasetColumnDto>,
    population: Option<crate::spec::PopulationDto>,
    /// The parsed schema, for the comparison with a population table.
    parsed: proxima_core::Schema,
    /// The loaded table in its stored form (`store::table_frames`),
    /// spooled: jobs decode it instead of parsing the CSV again.
    table: Chunked,
}

fn spooling(e: std::io::Error) -> ApiError {
    ApiError::internal(anyhow::Error::new(e).context("spooling the stored table"))
}

/// A sample's population table must be one of the tenant's datasets that
/// can hold it (`spec::population`): 422 `invalid_schema` when there is no
/// such dataset, `population_mismatch` naming every column that does not
/// fit.
async fn check_population_table(
    state: &AppState,
    tenant: &str,
    id: Uuid,
    sample: &Validated,
) -> Result<(), ApiError> {
    let Some(population) = state.store.get_dataset(tenant, id).await? else {
        return Err(ApiError::from_core(
            proxima_core::CoreError::new(
                proxima_core::ErrorKind::InvalidSchema,
                format!("the population table {id} is not one of this tenant's datasets"),
            )
            .with_error("/population/dataset_id", "no such dataset"),
        ));
    };
    let hierarchies = state.store.dataset_hierarchies(tenant, id).await?;
    let schema_json =
        serde_json::to_vec(&population.schema).map_err(|e| ApiError::internal(e.into()))?;
    // The population's stored schema parsed again: an error here is ours.
    let (_, schema) = parse_schema(&schema_json, &hierarchies)
        .map_err(|e| ApiError::internal(anyhow::Error::new(e).context("a stored schema")))?;
    crate::spec::population::check_population(
        &crate::spec::population::Side {
            schema: &sample.parsed,
            columns: &sample.columns,
            rows: sample.rows as u64,
        },
        &crate::spec::population::Side {
            schema: &schema,
            columns: &population.columns,
            rows: population.rows as u64,
        },
    )?;
    Ok(())
}

/// Validates the CSV block by block (`proxima_core::ingest::load_blocks`)
/// and writes each block's stored form to a temporary file as soon as it
/// is parsed: what is held is one block, the categorical dictionaries and
/// the statistics' distinct values, never the table.
fn validate(
    schema_bytes: &[u8],
    hierarchies: &[(String, Vec<u8>)],
    data: &std::fs::File,
    max_columns: usize,
    blocks: &BlockLimits,
) -> Result<Validated, ApiError> {
    let (dto, schema) = parse_schema(schema_bytes, hierarchies)?;
    // Every CSV column must be described, so this bounds the header too.
    if dto.columns.len() > max_columns {
        return Err(ApiError::invalid_parameters(
            "/columns",
            format!(
                "the schema describes {} columns; at most {max_columns} are accepted \
                 (--max-columns)",
                dto.columns.len()
            ),
        )
        .with_details(
            serde_json::json!({"max_columns": max_columns, "columns": dto.columns.len()}),
        ));
    }
    let file = rewound(data)
        .map_err(|e| ApiError::internal(anyhow::Error::new(e).context("rereading an upload")))?;
    let spool = tempfile::tempfile().map_err(spooling)?;
    let mut stats = StatsBuilder::new(&schema);
    let (loaded, spool) = write_stored(
        &schema,
        std::io::BufReader::with_capacity(1 << 16, file),
        blocks,
        std::io::BufWriter::with_capacity(1 << 20, spool),
        |block| stats.add(block),
    )?;
    let rows = loaded.rows + loaded.suppressed;
    if let Some(p) = dto.population {
        p.check_rows(rows)?;
    }
    let spool = spool.into_inner().map_err(|e| spooling(e.into_error()))?;
    Ok(Validated {
        name: dto.name.clone(),
        schema: serde_json::to_value(&dto).map_err(|e| ApiError::internal(e.into()))?,
        rows,
        suppressed_rows: loaded.suppressed,
        columns: columns_of(stats.finish(&schema)),
        population: dto.population,
        parsed: schema,
        table: Chunked::from_file(spool).map_err(spooling)?,
    })
}

/// Validates the upload while a second thread compresses the CSV for
/// storage: two independent reads of the spooled file, so the compression
/// costs no time of its own. A refused upload stops the compression.
fn validate_and_compress(
    schema_bytes: &[u8],
    hierarchies: &[(String, Vec<u8>)],
    data: &std::fs::File,
    max_columns: usize,
    blocks: &BlockLimits,
) -> Result<(Validated, Chunked), ApiError> {
    let compressing = |e: std::io::Error| {
        ApiError::internal(anyhow::Error::new(e).context("compressing an upload"))
    };
    // Its own offset: a cloned handle would share the validator's.
    let csv = AtAnOffset { file: data, at: 0 };
    let refused = AtomicBool::new(false);
    std::thread::scope(|s| {
        let compressed = s.spawn(|| {
            Chunked::spool_from_reader(Stoppable {
                inner: std::io::BufReader::with_capacity(1 << 20, csv),
                stop: &refused,
            })
        });
        let validated = validate(schema_bytes, hierarchies, data, max_columns, blocks);
        if validated.is_err() {
            refused.store(true, Ordering::Relaxed);
        }
        let compressed = compressed
            .join()
            .map_err(|_| ApiError::internal(anyhow::anyhow!("compressing an upload panicked")));
        let validated = validated?;
        Ok((validated, compressed?.map_err(compressing)?))
    })
}

/// A reader of a file by positional reads, with its own offset.
struct AtAnOffset<'a> {
    file: &'a std::fs::File,
    at: u64,
}

impl Read for AtAnOffset<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use std::os::unix::fs::FileExt;
        let n = self.file.read_at(buf, self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}

/// A reader that ends with an error once `stop` is set.
struct Stoppable<'a, R> {
    inner: R,
    stop: &'a AtomicBool,
}

impl<R: Read> Read for Stoppable<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(std::io::Error::other("the upload was refused"));
        }
        self.inner.read(buf)
    }
}

/// A second handle on a spooled file, at its start.
fn rewound(file: &std::fs::File) -> std::io::Result<std::fs::File> {
    use std::io::{Seek, SeekFrom};
    let mut f = file.try_clone()?;
    f.seek(SeekFrom::Start(0))?;
    Ok(f)
}

#[utoipa::path(
    post,
    path = "/v1/datasets",
    operation_id = "upload_dataset",
    tag = "datasets",
    summary = "Upload a table",
    security(("bearer" = [])),
    request_body(content = UploadForm, content_type = "multipart/form-data", description = "Parts `schema` (JSON), `data` (CSV with a header row) and optionally `hierarchy:<column>` (ARX-format CSV, delimiter `;`, no header) per categorical column"),
    responses(
        (status = 201, description = "Stored", body = DatasetDto,
            headers(("Location" = String, description = "/v1/datasets/{id}"))),
        (status = 400, description = "Unreadable multipart body, schema JSON or CSV (`malformed_multipart`, `malformed_json`, `malformed_csv`)", body = crate::spec::ProblemDto, content_type = PROBLEM_JSON),
        Unauthorized,
        (status = 413, description = "Body over the configured limit, a `schema` part over 1 MiB, a hierarchy part over its limit or a gzip data part that decompresses past its limit (`payload_too_large`); a CSV cell or record over its limit (`record_too_large`, naming the line)", body = crate::spec::ProblemDto, content_type = PROBLEM_JSON),
        (status = 415, description = "Not `multipart/form-data` (`unsupported_media_type`)", body = crate::spec::ProblemDto, content_type = PROBLEM_JSON),
        (status = 408, description = "The upload took longer than the upload timeout, or sent nothing for the idle timeout (`upload_timeout`)", body = crate::spec::ProblemDto, content_type = PROBLEM_JSON),
        (status = 422, description = "The table does not match its schema, or `population` does not fit it (`invalid_schema`, `invalid_hierarchy`, `unknown_column`, `undescribed_column`, `missing_values`, `invalid_parameters`)", body = crate::spec::ProblemDto, content_type = PROBLEM_JSON),
        Internal,
        (status = 429, description = "This tenant has as many uploads in progress as its limit (`too_many_uploads`); retry after `Retry-After` seconds", body = crate::spec::ProblemDto, content_type = PROBLEM_JSON,
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
        (status = 503, description = "As many uploads as configured are in progress (`too_many_uploads`); retry after `Retry-After` seconds", body = crate::spec::ProblemDto, content_type = PROBLEM_JSON,
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
    )
)]
pub async fn upload(
    State(state): State<AppState>,
    Extension(tenant): Extension<Tenant>,
    req: Request,
) -> Result<Response, ApiError> {
    // Held until the answer; refused before any of the body is read.
    let _permit = state.limits.tenant_upload_permit(&tenant.0)?;
    let is_multipart = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.to_ascii_lowercase().starts_with("multipart/form-data"));
    if !is_multipart {
        return Err(ApiError::unsupported_media_type("multipart/form-data"));
    }
    let multipart = Multipart::from_request(req, &state).await.map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "malformed_multipart",
            e.body_text(),
        )
    })?;
    let started = std::time::Instant::now();
    let parts = receive(multipart, state.max_body, &state.limits).await?;
    let received = started.elapsed();
    let schema_bytes = parts.schema.ok_or_else(|| {
        ApiError::invalid_parameters("/parts/schema", "the `schema` part is missing")
    })?;
    let data = parts
        .data
        .ok_or_else(|| ApiError::invalid_parameters("/parts/data", "the `data` part is missing"))?;
    let hierarchies = parts.hierarchies;

    let spooled = data
        .file
        .try_clone()
        .map_err(|e| ApiError::internal(anyhow::Error::new(e).context("rereading an upload")))?;
    let max_columns = state.limits.max_columns;
    let max_inflated = state.limits.max_decompressed_bytes;
    let blocks = state.limits.upload_blocks.clone();
    let validating = std::time::Instant::now();
    let (validated, stored_data, hierarchies) =
        crate::telemetry::spawn_blocking_redacted(move || {
            let gzip = super::gzip::is_gzip(&spooled).map_err(|e| {
                ApiError::internal(anyhow::Error::new(e).context("rereading an upload"))
            })?;
            let spooled = if gzip {
                super::gzip::inflate(&spooled, max_inflated)?
            } else {
                spooled
            };
            let (v, data) =
                validate_and_compress(&schema_bytes, &hierarchies, &spooled, max_columns, &blocks)?;
            let hierarchies: Vec<(String, Chunked)> = hierarchies
                .iter()
                .map(|(column, bytes)| (column.clone(), Chunked::from_bytes(bytes)))
                .collect();
            Ok::<_, ApiError>((v, data, hierarchies))
        })
        .await
        .map_err(|e| ApiError::join(e, "validating an upload"))??;

    if let Some(id) = validated
        .population
        .and_then(crate::spec::PopulationDto::dataset_id)
    {
        check_population_table(&state, &tenant.0, id, &validated).await?;
    }
    let new = NewDataset {
        id: Uuid::new_v4(),
        tenant: tenant.0.clone(),
        name: validated.name,
        schema: validated.schema,
        rows: validated.rows as i64,
        suppressed_rows: validated.suppressed_rows as i64,
        size_bytes: data.size as i64,
        sha256: data.sha256.clone(),
        columns: validated.columns,
        population: validated.population,
    };
    // One transaction: the metadata row and every chunk, or nothing.
    let storing = std::time::Instant::now();
    let mut tx = state.store.begin_dataset(&new).await?;
    tx.add_data(&stored_data).await?;
    tx.add_table(&validated.table).await?;
    for (column, file) in &hierarchies {
        tx.add_hierarchy(column, file).await?;
    }
    let row = tx.commit().await?;
    tracing::info!(
        dataset_id = %row.id,
        rows = row.rows,
        bytes = row.size_bytes,
        received_ms = received.as_secs_f64() * 1e3,
        validated_ms = (storing - validating).as_secs_f64() * 1e3,
        stored_ms = storing.elapsed().as_secs_f64() * 1e3,
        "dataset stored"
    );
    drop(data);
    let mut res = (StatusCode::CREATED, Json(dataset_dto(&row))).into_response();
    if let Ok(loc) = HeaderValue::from_str(&format!("/v1/datasets/{}", row.id)) {
        res.headers_mut().insert(header::LOCATION, loc);
    }
    Ok(res)
}
