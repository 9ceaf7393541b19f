//! `POST /v1/datasets`: the multipart upload (`schema`, `data`,
//! `hierarchy:<column>` parts). The data part is streamed to an unnamed
//! temporary file (no name in the file system, so nothing is left behind
//! even when the process is killed mid-upload) while it is hashed and
//! counted (no whole-body buffering), decompressed when it came as gzip,
//! then handed to the ingest use case (`app::ingest`: validated once, block
//! by block, and stored in one transaction).

use std::io::Write;

use axum::extract::multipart::MultipartError;
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use sha2::{Digest, Sha256};

use super::auth::Tenant;
use super::datasets::dataset_dto;
use super::error::{ApiError, PROBLEM_JSON};
use super::limits::MAX_SCHEMA_BYTES;
use super::path_docs::{Internal, Unauthorized, UploadForm};
use super::AppState;
use crate::api::dataset::DatasetDto;
use crate::app::ingest::{self, IngestError, Received, Upload};

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

/// An ingest's failure as a problem: the core's errors through the one
/// mapping, the column cap as the flag's own 422.
impl From<IngestError> for ApiError {
    fn from(e: IngestError) -> Self {
        match e {
            IngestError::Refused(e) => ApiError::from_core(e),
            IngestError::TooManyColumns {
                columns,
                max_columns,
            } => ApiError::invalid_parameters(
                "/columns",
                format!(
                    "the schema describes {columns} columns; at most {max_columns} are accepted \
                     (--max-columns)"
                ),
            )
            .with_details(serde_json::json!({"max_columns": max_columns, "columns": columns})),
            IngestError::Internal(e) => ApiError::internal(e),
        }
    }
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
        (status = 400, description = "Unreadable multipart body, schema JSON or CSV (`malformed_multipart`, `malformed_json`, `malformed_csv`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        Unauthorized,
        (status = 413, description = "Body over the configured limit, a `schema` part over 1 MiB, a hierarchy part over its limit or a gzip data part that decompresses past its limit (`payload_too_large`); a CSV cell or record over its limit (`record_too_large`, naming the line)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        (status = 415, description = "Not `multipart/form-data` (`unsupported_media_type`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        (status = 408, description = "The upload took longer than the upload timeout, or sent nothing for the idle timeout (`upload_timeout`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        (status = 422, description = "The table does not match its schema, or `population` does not fit it (`invalid_schema`, `invalid_hierarchy`, `unknown_column`, `undescribed_column`, `missing_values`, `invalid_parameters`)", body = crate::api::ProblemDto, content_type = PROBLEM_JSON),
        Internal,
        (status = 429, description = "This tenant has as many uploads in progress as its limit (`too_many_uploads`); retry after `Retry-After` seconds", body = crate::api::ProblemDto, content_type = PROBLEM_JSON,
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
        (status = 503, description = "As many uploads as configured are in progress (`too_many_uploads`); retry after `Retry-After` seconds", body = crate::api::ProblemDto, content_type = PROBLEM_JSON,
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
    let received_in = started.elapsed();
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
    let validated = crate::telemetry::spawn_blocking_redacted(move || {
        let gzip = super::gzip::is_gzip(&spooled).map_err(|e| {
            ApiError::internal(anyhow::Error::new(e).context("rereading an upload"))
        })?;
        let spooled = if gzip {
            super::gzip::inflate(&spooled, max_inflated)?
        } else {
            spooled
        };
        let upload = Upload {
            schema: &schema_bytes,
            data: &spooled,
            hierarchies: &hierarchies,
        };
        Ok::<_, ApiError>(ingest::validate(&upload, max_columns, &blocks)?)
    })
    .await
    .map_err(|e| ApiError::join(e, "validating an upload"))??;

    ingest::check_population_table(&state.store, &tenant.0, &validated).await?;
    let storing = std::time::Instant::now();
    let received = Received {
        size_bytes: data.size,
        sha256: data.sha256.clone(),
    };
    let row = ingest::store(&state.store, &tenant.0, validated, &received).await?;
    tracing::info!(
        dataset_id = %row.id,
        rows = row.rows,
        bytes = row.size_bytes,
        received_ms = received_in.as_secs_f64() * 1e3,
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
