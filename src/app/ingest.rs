//! Ingesting a dataset: the received parts (a schema document, the CSV
//! spooled to a file, hierarchy files) validated once by the core (schema,
//! hierarchies, types, missing values, undescribed columns) block by block
//! — each block of rows encoded in the stored table form and spooled to an
//! unnamed file as soon as it is parsed, so an upload's memory is a
//! block's, whatever the table's length — while a second thread compresses
//! the CSV, then stored compressed and chunked with its metadata in one
//! transaction: a refused upload stores nothing. How the parts arrive (a
//! multipart body, its limits and timeouts, gzip) is the HTTP adapter's.

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};

use proxima_core::ingest::{BlockLimits, StatsBuilder};
use proxima_core::CoreError;
use uuid::Uuid;

use crate::api::dataset::{columns_of, parse_schema, DatasetColumnDto};
use crate::api::PopulationDto;
use crate::store::blob::Chunked;
use crate::store::datasets::{DatasetRow, NewDataset};
use crate::store::table_frames::write_stored;
use crate::store::Store;

/// Why an upload was not stored.
#[derive(Debug)]
pub enum IngestError {
    /// The upload does not hold together (schema, hierarchies, data,
    /// population): the core's error, with pointers into the upload.
    Refused(CoreError),
    /// The schema describes more columns than this server accepts.
    TooManyColumns { columns: usize, max_columns: usize },
    /// Ours: the spool files, a thread, the database.
    Internal(anyhow::Error),
}

impl From<CoreError> for IngestError {
    fn from(e: CoreError) -> Self {
        IngestError::Refused(e)
    }
}

impl From<anyhow::Error> for IngestError {
    fn from(e: anyhow::Error) -> Self {
        IngestError::Internal(e)
    }
}

fn io_error(what: &'static str) -> impl Fn(std::io::Error) -> IngestError {
    move |e| IngestError::Internal(anyhow::Error::new(e).context(what))
}

/// An upload's parts as received.
pub struct Upload<'a> {
    pub schema: &'a [u8],
    /// The CSV, spooled (and decompressed when it came gzip-compressed).
    pub data: &'a std::fs::File,
    /// `(column, file bytes)` per hierarchy part.
    pub hierarchies: &'a [(String, Vec<u8>)],
}

/// What validation learned about an upload, with its parts ready to store.
pub struct Validated {
    pub name: String,
    pub schema: serde_json::Value,
    pub rows: usize,
    pub suppressed_rows: usize,
    pub columns: Vec<DatasetColumnDto>,
    pub population: Option<PopulationDto>,
    /// The parsed schema, for the comparison with a population table.
    parsed: proxima_core::Schema,
    /// The loaded table in its stored form (`store::table_frames`),
    /// spooled: jobs decode it instead of parsing the CSV again.
    table: Chunked,
    /// The CSV, compressed for storage.
    data: Chunked,
    /// The hierarchy parts, compressed for storage.
    hierarchies: Vec<(String, Chunked)>,
}

/// The uploaded CSV's own figures (of the bytes as sent).
pub struct Received {
    pub size_bytes: u64,
    pub sha256: String,
}

/// Validates an upload while a second thread compresses the CSV for
/// storage: two independent reads of the spooled file, so the compression
/// costs no time of its own. A refused upload stops the compression.
/// Blocking: run it off the async threads.
pub fn validate(
    upload: &Upload<'_>,
    max_columns: usize,
    blocks: &BlockLimits,
) -> Result<Validated, IngestError> {
    // Its own offset: a cloned handle would share the validator's.
    let csv = AtAnOffset {
        file: upload.data,
        at: 0,
    };
    let refused = AtomicBool::new(false);
    let (table, data) = std::thread::scope(|s| {
        let compressed = s.spawn(|| {
            Chunked::spool_from_reader(Stoppable {
                inner: std::io::BufReader::with_capacity(1 << 20, csv),
                stop: &refused,
            })
        });
        let validated = validate_table(upload, max_columns, blocks);
        if validated.is_err() {
            refused.store(true, Ordering::Relaxed);
        }
        let compressed = compressed
            .join()
            .map_err(|_| IngestError::Internal(anyhow::anyhow!("compressing an upload panicked")));
        let validated = validated?;
        Ok::<_, IngestError>((
            validated,
            compressed?.map_err(io_error("compressing an upload"))?,
        ))
    })?;
    let TableChecked {
        name,
        schema,
        rows,
        suppressed_rows,
        columns,
        population,
        parsed,
        table,
    } = table;
    Ok(Validated {
        name,
        schema,
        rows,
        suppressed_rows,
        columns,
        population,
        parsed,
        table,
        data,
        hierarchies: upload
            .hierarchies
            .iter()
            .map(|(column, bytes)| (column.clone(), Chunked::from_bytes(bytes)))
            .collect(),
    })
}

/// What [`validate_table`] learned: a [`Validated`] but for the CSV's
/// compression, which runs beside it.
struct TableChecked {
    name: String,
    schema: serde_json::Value,
    rows: usize,
    suppressed_rows: usize,
    columns: Vec<DatasetColumnDto>,
    population: Option<PopulationDto>,
    parsed: proxima_core::Schema,
    table: Chunked,
}

/// Validates the CSV block by block (`proxima_core::ingest::load_blocks`)
/// and writes each block's stored form to a temporary file as soon as it
/// is parsed: what is held is one block, the categorical dictionaries and
/// the statistics' distinct values, never the table.
fn validate_table(
    upload: &Upload<'_>,
    max_columns: usize,
    blocks: &BlockLimits,
) -> Result<TableChecked, IngestError> {
    let spooling = io_error("spooling the stored table");
    let (dto, schema) = parse_schema(upload.schema, upload.hierarchies)?;
    // Every CSV column must be described, so this bounds the header too.
    if dto.columns.len() > max_columns {
        return Err(IngestError::TooManyColumns {
            columns: dto.columns.len(),
            max_columns,
        });
    }
    let file = rewound(upload.data).map_err(io_error("rereading an upload"))?;
    let spool = tempfile::tempfile().map_err(&spooling)?;
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
    Ok(TableChecked {
        name: dto.name.clone(),
        schema: serde_json::to_value(&dto).map_err(|e| IngestError::Internal(e.into()))?,
        rows,
        suppressed_rows: loaded.suppressed,
        columns: columns_of(stats.finish(&schema)),
        population: dto.population,
        parsed: schema,
        table: Chunked::from_file(spool).map_err(&spooling)?,
    })
}

/// A sample's population table must be one of the tenant's datasets that
/// can hold it (`api::population`): refused (`invalid_schema`) when there
/// is no such dataset, `population_mismatch` naming every column that does
/// not fit. A dataset naming no population table passes.
pub async fn check_population_table(
    store: &Store,
    tenant: &str,
    sample: &Validated,
) -> Result<(), IngestError> {
    let Some(id) = sample.population.and_then(PopulationDto::dataset_id) else {
        return Ok(());
    };
    let Some(population) = store.get_dataset(tenant, id).await? else {
        return Err(IngestError::Refused(
            proxima_core::CoreError::new(
                proxima_core::ErrorKind::InvalidSchema,
                format!("the population table {id} is not one of this tenant's datasets"),
            )
            .with_error("/population/dataset_id", "no such dataset"),
        ));
    };
    let hierarchies = store.dataset_hierarchies(tenant, id).await?;
    let schema_json =
        serde_json::to_vec(&population.schema).map_err(|e| IngestError::Internal(e.into()))?;
    // The population's stored schema parsed again: an error here is ours.
    let (_, schema) = parse_schema(&schema_json, &hierarchies)
        .map_err(|e| IngestError::Internal(anyhow::Error::new(e).context("a stored schema")))?;
    crate::api::population::check_population(
        &crate::api::population::Side {
            schema: &sample.parsed,
            columns: &sample.columns,
            rows: sample.rows as u64,
        },
        &crate::api::population::Side {
            schema: &schema,
            columns: &population.columns,
            rows: population.rows as u64,
        },
    )?;
    Ok(())
}

/// Stores a validated upload as a new dataset of `tenant`: the metadata row
/// and every chunk in one transaction, or nothing.
pub async fn store(
    store: &Store,
    tenant: &str,
    validated: Validated,
    received: &Received,
) -> Result<DatasetRow, IngestError> {
    let new = NewDataset {
        id: Uuid::new_v4(),
        tenant: tenant.to_string(),
        name: validated.name,
        schema: validated.schema,
        rows: validated.rows as i64,
        suppressed_rows: validated.suppressed_rows as i64,
        size_bytes: received.size_bytes as i64,
        sha256: received.sha256.clone(),
        columns: validated.columns,
        population: validated.population,
    };
    let mut tx = store.begin_dataset(&new).await?;
    tx.add_data(&validated.data).await?;
    tx.add_table(&validated.table).await?;
    for (column, file) in &validated.hierarchies {
        tx.add_hierarchy(column, file).await?;
    }
    Ok(tx.commit().await?)
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
