//! The columnar in-memory table the algorithms work on.
//!
//! Rows are indexed `0..n` (as `u32` in partitions). Quasi-identifiers are
//! stored typed (numeric as f64, categorical as hierarchy leaf codes, dates
//! as days since 1970-01-01); the sensitive attribute's columns likewise.
//! The original cell text of every published column is kept so the release
//! can print SA and insensitive values exactly as uploaded. Rows suppressed
//! for missing values are not in the table; `suppressed_rows` counts them.

use std::sync::Arc;

use crate::error::{CoreError, CoreResult};
use crate::hierarchy::Hierarchy;
use crate::progress::{Progress, ROWS_PER_CHECKPOINT};
use crate::schema::{Role, Schema};

/// The text of one column, stored as one buffer plus end offsets (far
/// smaller than a `Vec<String>` for 600k-row tables).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TextColumn {
    buf: String,
    ends: Vec<u32>,
}

impl TextColumn {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn with_capacity(rows: usize, bytes: usize) -> Self {
        TextColumn {
            buf: String::with_capacity(bytes),
            ends: Vec::with_capacity(rows),
        }
    }
    /// Room for `rows` more cells of `bytes` more text in all.
    pub fn reserve(&mut self, rows: usize, bytes: usize) {
        self.buf.reserve(bytes);
        self.ends.reserve(rows);
    }
    /// Appends a cell. Errors when the column's text exceeds 4 GiB.
    pub fn push(&mut self, cell: &str) -> CoreResult<()> {
        self.buf.push_str(cell);
        let end = u32::try_from(self.buf.len())
            .map_err(|_| CoreError::internal("a column's text exceeds 4 GiB"))?;
        self.ends.push(end);
        Ok(())
    }
    /// The buffer and the end offset of each cell (the stored form,
    /// `table_codec`).
    pub fn parts(&self) -> (&str, &[u32]) {
        (&self.buf, &self.ends)
    }
    /// A column from [`parts`](Self::parts): the offsets must not decrease,
    /// the last must be the buffer's length and each must fall on a
    /// character boundary.
    pub fn from_parts(buf: String, ends: Vec<u32>) -> CoreResult<Self> {
        let mut prev = 0usize;
        for &e in &ends {
            let e = e as usize;
            if e < prev || e > buf.len() || !buf.is_char_boundary(e) {
                return Err(CoreError::internal("text offsets out of order"));
            }
            prev = e;
        }
        if prev != buf.len() {
            return Err(CoreError::internal("text offsets do not cover the text"));
        }
        Ok(TextColumn { buf, ends })
    }
    /// Appends `more`'s cells (a later block of the same column). Errors
    /// when the column's text exceeds 4 GiB.
    pub fn append(&mut self, more: TextColumn) -> CoreResult<()> {
        if self.ends.is_empty() {
            *self = more;
            return Ok(());
        }
        if u32::try_from(self.buf.len() + more.buf.len()).is_err() {
            return Err(CoreError::internal("a column's text exceeds 4 GiB"));
        }
        let base = self.buf.len() as u32;
        self.buf.push_str(&more.buf);
        self.ends.extend(more.ends.iter().map(|&e| base + e));
        Ok(())
    }
    /// The columns one after the other, in one allocation each for the
    /// text and the offsets (appending them one by one would copy the
    /// text again each time the buffer grows). Each part is freed once
    /// copied. Errors when the text exceeds 4 GiB.
    pub fn concat(parts: Vec<TextColumn>) -> CoreResult<TextColumn> {
        let bytes: usize = parts.iter().map(|p| p.buf.len()).sum();
        let rows: usize = parts.iter().map(|p| p.ends.len()).sum();
        if u32::try_from(bytes).is_err() {
            return Err(CoreError::internal("a column's text exceeds 4 GiB"));
        }
        let mut whole = TextColumn::with_capacity(rows, bytes);
        for part in parts {
            let base = whole.buf.len() as u32;
            whole.buf.push_str(&part.buf);
            whole.ends.extend(part.ends.iter().map(|&e| base + e));
        }
        Ok(whole)
    }
    /// A column from parts the caller has checked as
    /// [`from_parts`](Self::from_parts) would (the stored form's decoder
    /// checks each block as it copies it).
    pub(crate) fn from_checked_parts(buf: String, ends: Vec<u32>) -> Self {
        debug_assert_eq!(ends.last().map_or(0, |&e| e as usize), buf.len());
        TextColumn { buf, ends }
    }
    pub fn get(&self, row: usize) -> &str {
        &self.buf[self.start(row)..self.ends[row] as usize]
    }
    /// A hint to start fetching the offsets of `row`'s cell (see
    /// [`crate::prefetch`]).
    #[inline]
    pub(crate) fn prefetch_offsets(&self, row: usize) {
        crate::prefetch::line(self.ends[row.saturating_sub(1)..].as_ptr().cast());
    }
    /// A hint to start fetching the text of `row`'s cell (reads its
    /// offset: best a little after [`Self::prefetch_offsets`]).
    #[inline]
    pub(crate) fn prefetch_text(&self, row: usize) {
        crate::prefetch::line(self.buf.as_bytes()[self.start(row)..].as_ptr());
    }
    /// The bytes of the cells of `rows` together.
    pub fn bytes_of(&self, rows: std::ops::Range<usize>) -> usize {
        self.start(rows.end) - self.start(rows.start)
    }
    /// Where `row`'s cell starts in the buffer (the end of the one before).
    #[inline]
    fn start(&self, row: usize) -> usize {
        match row {
            0 => 0,
            _ => self.ends[row - 1] as usize,
        }
    }
    pub fn len(&self) -> usize {
        self.ends.len()
    }
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum QiValues {
    Numeric(Vec<f64>),
    /// Leaf codes of the hierarchy (a flat one when the schema has none).
    Categorical {
        codes: Vec<u32>,
        hierarchy: Arc<Hierarchy>,
    },
    /// Days since 1970-01-01.
    Date(Vec<i32>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct QiColumn {
    pub name: String,
    /// Position of the column in the schema (and the CSV).
    pub schema_index: usize,
    pub values: QiValues,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SaValues {
    Numeric(Vec<f64>),
    Categorical {
        codes: Vec<u32>,
        hierarchy: Arc<Hierarchy>,
        /// False when the hierarchy was synthesized (flat) because the schema
        /// gave none: the `hierarchical` metric then makes no sense.
        has_hierarchy: bool,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct SaColumn {
    pub name: String,
    pub schema_index: usize,
    pub values: SaValues,
}

impl SaColumn {
    /// The numeric values, when the column is numeric.
    pub fn numeric(&self) -> Option<&[f64]> {
        match &self.values {
            SaValues::Numeric(v) => Some(v),
            SaValues::Categorical { .. } => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    schema: Arc<Schema>,
    n: usize,
    qis: Vec<QiColumn>,
    sensitive: Vec<SaColumn>,
    text: Vec<Option<TextColumn>>,
    /// The QIs' text was dropped ([`Table::without_qi_text`]): asking for
    /// it is a bug, not an identifier's `None`.
    qi_text_dropped: bool,
    source_line: Vec<u32>,
    suppressed_rows: usize,
}

fn qi_len(v: &QiValues) -> usize {
    match v {
        QiValues::Numeric(x) => x.len(),
        QiValues::Categorical { codes, .. } => codes.len(),
        QiValues::Date(x) => x.len(),
    }
}

fn sa_len(v: &SaValues) -> usize {
    match v {
        SaValues::Numeric(x) => x.len(),
        SaValues::Categorical { codes, .. } => codes.len(),
    }
}

impl Table {
    /// Assembles a table; checks that every column has `source_line.len()`
    /// rows and that `text` has one entry per schema column (identifiers
    /// `None`, every published column `Some`).
    pub fn new(
        schema: Arc<Schema>,
        qis: Vec<QiColumn>,
        sensitive: Vec<SaColumn>,
        text: Vec<Option<TextColumn>>,
        source_line: Vec<u32>,
        suppressed_rows: usize,
    ) -> CoreResult<Table> {
        Table::build(
            schema,
            qis,
            sensitive,
            text,
            source_line,
            suppressed_rows,
            false,
        )
    }

    /// [`Table::new`], or with `qi_text_dropped` for columns loaded without
    /// the QIs' text (the table [`Table::without_qi_text`] would give:
    /// the QIs' text must then be absent).
    pub(crate) fn build(
        schema: Arc<Schema>,
        qis: Vec<QiColumn>,
        sensitive: Vec<SaColumn>,
        text: Vec<Option<TextColumn>>,
        source_line: Vec<u32>,
        suppressed_rows: usize,
        qi_text_dropped: bool,
    ) -> CoreResult<Table> {
        let n = source_line.len();
        if u32::try_from(n).is_err() {
            return Err(CoreError::internal("more than 2^32 rows"));
        }
        if qis.iter().any(|c| qi_len(&c.values) != n)
            || sensitive.iter().any(|c| sa_len(&c.values) != n)
        {
            return Err(CoreError::internal("table columns differ in length"));
        }
        if text.len() != schema.columns().len() {
            return Err(CoreError::internal("text columns do not match the schema"));
        }
        for (i, t) in text.iter().enumerate() {
            match t {
                Some(t) if t.len() != n => {
                    return Err(CoreError::internal("a text column differs in length"))
                }
                None if schema.is_published(i)
                    && !(qi_text_dropped && schema.columns()[i].role == Role::QuasiIdentifier) =>
                {
                    return Err(CoreError::internal("a published column has no text"))
                }
                Some(_) if qi_text_dropped && schema.columns()[i].role == Role::QuasiIdentifier => {
                    return Err(CoreError::internal(
                        "a QI's text was kept in a table without it",
                    ))
                }
                _ => {}
            }
        }
        Ok(Table {
            schema,
            n,
            qis,
            sensitive,
            text,
            qi_text_dropped,
            source_line,
            suppressed_rows,
        })
    }

    /// A table built directly from typed columns, for tests and benchmarks
    /// (the `testing` feature, not the product's API):
    /// the schema is synthesized (QIs first, then the SA columns), the text
    /// of each cell is its formatted value and source lines are 1..=n.
    #[cfg(any(test, feature = "testing"))]
    pub fn from_columns(qis: Vec<(String, QiValues)>, sensitive: Vec<(String, SaValues)>) -> Table {
        use crate::schema::{ColumnSpec, CsvOptions, MissingPolicy, Role, ValueType};
        let n = qis
            .first()
            .map(|(_, v)| qi_len(v))
            .or_else(|| sensitive.first().map(|(_, v)| sa_len(v)))
            .unwrap_or(0);
        let mut specs = Vec::new();
        let mut text = Vec::new();
        let mut qi_cols = Vec::new();
        let mut sa_cols = Vec::new();
        for (name, values) in qis {
            let mut t = TextColumn::new();
            let (vt, h) = match &values {
                QiValues::Numeric(v) => {
                    v.iter().for_each(|x| t.push(&format_number(*x)).unwrap());
                    (ValueType::Numeric, None)
                }
                QiValues::Categorical { codes, hierarchy } => {
                    codes
                        .iter()
                        .for_each(|c| t.push(hierarchy.leaf_label(*c)).unwrap());
                    (ValueType::Categorical, Some(hierarchy.clone()))
                }
                QiValues::Date(v) => {
                    v.iter().for_each(|d| t.push(&format_date(*d)).unwrap());
                    (ValueType::Date, None)
                }
            };
            specs.push(ColumnSpec {
                name: name.clone(),
                role: Role::QuasiIdentifier,
                value_type: Some(vt),
                hierarchy: h,
            });
            text.push(Some(t));
            qi_cols.push(QiColumn {
                name,
                schema_index: specs.len() - 1,
                values,
            });
        }
        for (name, values) in sensitive {
            let mut t = TextColumn::new();
            let (vt, h) = match &values {
                SaValues::Numeric(v) => {
                    v.iter().for_each(|x| t.push(&format_number(*x)).unwrap());
                    (ValueType::Numeric, None)
                }
                SaValues::Categorical {
                    codes,
                    hierarchy,
                    has_hierarchy,
                } => {
                    codes
                        .iter()
                        .for_each(|c| t.push(hierarchy.leaf_label(*c)).unwrap());
                    (
                        ValueType::Categorical,
                        has_hierarchy.then(|| hierarchy.clone()),
                    )
                }
            };
            specs.push(ColumnSpec {
                name: name.clone(),
                role: Role::Sensitive,
                value_type: Some(vt),
                hierarchy: h,
            });
            text.push(Some(t));
            sa_cols.push(SaColumn {
                name,
                schema_index: specs.len() - 1,
                values,
            });
        }
        let schema = Schema::new(
            "synthetic".into(),
            CsvOptions::default(),
            MissingPolicy::Reject,
            specs,
        )
        .expect("from_columns needs at least one QI and distinct names");
        Table::new(
            Arc::new(schema),
            qi_cols,
            sa_cols,
            text,
            (1..=n as u32).collect(),
            0,
        )
        .expect("from_columns needs equal-length columns")
    }

    pub fn schema(&self) -> &Arc<Schema> {
        &self.schema
    }
    /// Number of rows (after suppression).
    pub fn rows(&self) -> usize {
        self.n
    }
    pub fn qis(&self) -> &[QiColumn] {
        &self.qis
    }
    pub fn sensitive(&self) -> &[SaColumn] {
        &self.sensitive
    }
    /// The uploaded text of a published cell (`None` for identifiers).
    pub fn text(&self, schema_index: usize, row: usize) -> Option<&str> {
        self.text_column(schema_index).map(|t| t.get(row))
    }
    /// The uploaded text of a published column (`None` for identifiers).
    ///
    /// Panics for a QI of a table [`without_qi_text`](Self::without_qi_text):
    /// a caller that reads it must be given the whole table.
    pub fn text_column(&self, schema_index: usize) -> Option<&TextColumn> {
        let text = self.text[schema_index].as_ref();
        assert!(
            text.is_some() || !self.qi_text_dropped || !self.schema.is_published(schema_index),
            "the text of QI column {schema_index} was dropped from this table"
        );
        text
    }
    /// The table without the text of its QIs, for a caller that only
    /// partitions, judges and writes the release (which prints the QIs'
    /// labels, never their cells): the text is 4 bytes per row and column
    /// plus the cells' length, a sixth of a numeric table's memory.
    pub fn without_qi_text(mut self) -> Table {
        for q in &self.qis {
            self.text[q.schema_index] = None;
        }
        self.qi_text_dropped = true;
        self
    }
    /// The 1-based data line of each row in the upload (header excluded).
    pub fn source_lines(&self) -> &[u32] {
        &self.source_line
    }
    pub fn suppressed_rows(&self) -> usize {
        self.suppressed_rows
    }
    /// The table without the rows whose `keep` flag is false (the rows a job
    /// suppressed to satisfy its model): same schema, the kept rows in
    /// order, their source lines kept (so `row_id` still names the upload's
    /// line). Missing-value suppression is carried over unchanged.
    pub fn retain_rows(&self, keep: &[bool]) -> Table {
        self.retain_rows_checked(keep, Progress::none())
            .expect("never cancelled without a callback")
    }

    /// [`Table::retain_rows`] with a checkpoint every
    /// [`ROWS_PER_CHECKPOINT`] rows of each column's pass (the fraction of
    /// the columns done): `Cancelled` when `progress` says stop.
    pub fn retain_rows_checked(&self, keep: &[bool], progress: Progress) -> CoreResult<Table> {
        debug_assert_eq!(keep.len(), self.n);
        // A column's kept values, block by block on the pool's threads,
        // each block written to its own stretch of the column (`kept`: the
        // kept rows per block): the column one pass would give. Each block
        // is a checkpoint at the column's start (blocks run in no order, so
        // the fraction reported stays where the column began).
        fn pick<T: Copy + Send + Sync>(
            v: &[T],
            (keep, kept): (&[bool], &[usize]),
            column: Progress<'_>,
        ) -> CoreResult<Vec<T>> {
            use rayon::prelude::*;
            let Some(&first) = v.first() else {
                return Ok(Vec::new());
            };
            let mut out = vec![first; kept.iter().sum()];
            let mut stretches = Vec::with_capacity(kept.len());
            let mut rest = out.as_mut_slice();
            for &k in kept {
                let (stretch, after) = rest.split_at_mut(k);
                stretches.push(stretch);
                rest = after;
            }
            v.par_chunks(ROWS_PER_CHECKPOINT)
                .zip(keep.par_chunks(ROWS_PER_CHECKPOINT))
                .zip(stretches)
                .try_for_each(|((v, keep), stretch)| {
                    column.report(0.0)?;
                    let picked = v.iter().zip(keep).filter(|(_, &k)| k).map(|(&x, _)| x);
                    stretch.iter_mut().zip(picked).for_each(|(o, x)| *o = x);
                    Ok(())
                })?;
            Ok(out)
        }
        let kept: Vec<usize> = keep
            .chunks(ROWS_PER_CHECKPOINT)
            .map(|block| block.iter().filter(|&&k| k).count())
            .collect();
        let by_block = (keep, kept.as_slice());
        // One pass per column (text included) and the source lines.
        let passes =
            (self.qis.len() + self.sensitive.len() + self.text.iter().flatten().count() + 1) as f64;
        let n = self.n.max(1) as f64;
        let mut pass = 0usize;
        let mut next_column = || {
            pass += 1;
            progress.sub((pass - 1) as f64 / passes, pass as f64 / passes)
        };
        let mut qis = Vec::with_capacity(self.qis.len());
        for c in &self.qis {
            qis.push(QiColumn {
                name: c.name.clone(),
                schema_index: c.schema_index,
                values: match &c.values {
                    QiValues::Numeric(v) => QiValues::Numeric(pick(v, by_block, next_column())?),
                    QiValues::Date(v) => QiValues::Date(pick(v, by_block, next_column())?),
                    QiValues::Categorical { codes, hierarchy } => QiValues::Categorical {
                        codes: pick(codes, by_block, next_column())?,
                        hierarchy: hierarchy.clone(),
                    },
                },
            });
        }
        let mut sensitive = Vec::with_capacity(self.sensitive.len());
        for c in &self.sensitive {
            sensitive.push(SaColumn {
                name: c.name.clone(),
                schema_index: c.schema_index,
                values: match &c.values {
                    SaValues::Numeric(v) => SaValues::Numeric(pick(v, by_block, next_column())?),
                    SaValues::Categorical {
                        codes,
                        hierarchy,
                        has_hierarchy,
                    } => SaValues::Categorical {
                        codes: pick(codes, by_block, next_column())?,
                        hierarchy: hierarchy.clone(),
                        has_hierarchy: *has_hierarchy,
                    },
                },
            });
        }
        let mut text = Vec::with_capacity(self.text.len());
        for t in &self.text {
            text.push(match t {
                None => None,
                Some(t) => {
                    let column = next_column();
                    let mut out = TextColumn::new();
                    for (b, block) in keep.chunks(ROWS_PER_CHECKPOINT).enumerate() {
                        let start = b * ROWS_PER_CHECKPOINT;
                        column.report(start as f64 / n)?;
                        for (i, _) in block.iter().enumerate().filter(|(_, &k)| k) {
                            // Only shrinks: the 4 GiB bound cannot be hit.
                            let _ = out.push(t.get(start + i));
                        }
                    }
                    Some(out)
                }
            });
        }
        let source_line = pick(&self.source_line, by_block, next_column())?;
        Ok(Table {
            schema: self.schema.clone(),
            n: source_line.len(),
            qis,
            sensitive,
            text,
            qi_text_dropped: self.qi_text_dropped,
            source_line,
            suppressed_rows: self.suppressed_rows,
        })
    }

    /// The single numeric SA column's values, when the SA is exactly one
    /// numeric column (what (ε,m) needs).
    pub fn single_numeric_sa(&self) -> Option<&[f64]> {
        match self.sensitive.as_slice() {
            [only] => only.numeric(),
            _ => None,
        }
    }
}

/// Formats a number the way users wrote it in the common cases: integers
/// without a fractional part (`17`, not `17.0`), others in the shortest
/// form that round-trips.
pub fn format_number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// Days since 1970-01-01 → `YYYY-MM-DD` (proleptic Gregorian).
pub fn format_date(days: i32) -> String {
    let (y, m, d) = civil_from_days(days as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// `YYYY-MM-DD` → days since 1970-01-01; `None` when not a valid date.
pub fn parse_date(s: &str) -> Option<i32> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let y: i64 = s[0..4].parse().ok()?;
    let m: u32 = s[5..7].parse().ok()?;
    let d: u32 = s[8..10].parse().ok()?;
    if !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
        return None;
    }
    i32::try_from(days_from_civil(y, m, d)).ok()
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if is_leap(y) => 29,
        _ => 28,
    }
}

// Howard Hinnant's civil-date algorithms.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719468;
    let era = if z >= 0 { z } else { z - 146096 } / 146097;
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip() {
        assert_eq!(parse_date("1970-01-01"), Some(0));
        assert_eq!(
            parse_date("2000-02-29").map(format_date).unwrap(),
            "2000-02-29"
        );
        assert_eq!(parse_date("1900-02-29"), None);
        assert_eq!(parse_date("2024-13-01"), None);
        assert_eq!(parse_date("24-01-01"), None);
        for d in [-800_000, -1, 0, 59, 365, 20_000, 2_000_000] {
            assert_eq!(parse_date(&format_date(d)), Some(d));
        }
    }

    #[test]
    fn numbers_format_like_input() {
        assert_eq!(format_number(17.0), "17");
        assert_eq!(format_number(-3.0), "-3");
        assert_eq!(format_number(2.5), "2.5");
    }

    #[test]
    fn from_columns_builds_text_and_lines() {
        let t = Table::from_columns(
            vec![("age".into(), QiValues::Numeric(vec![30.0, 41.5]))],
            vec![("salary".into(), SaValues::Numeric(vec![1000.0, 2000.0]))],
        );
        assert_eq!(t.rows(), 2);
        assert_eq!(t.text(0, 1), Some("41.5"));
        assert_eq!(t.text(1, 0), Some("1000"));
        assert_eq!(t.source_lines(), &[1, 2]);
        assert_eq!(t.single_numeric_sa(), Some(&[1000.0, 2000.0][..]));
        let kept = t.retain_rows(&[false, true]);
        assert_eq!(kept.rows(), 1);
        assert_eq!(kept.text(0, 0), Some("41.5"));
        assert_eq!(kept.source_lines(), &[2]);
        assert_eq!(kept.single_numeric_sa(), Some(&[2000.0][..]));
        let mut c = TextColumn::new();
        c.push("").unwrap();
        c.push("ab").unwrap();
        assert_eq!((c.get(0), c.get(1)), ("", "ab"));
    }

    #[test]
    fn the_kept_rows_are_the_same_table_on_any_number_of_threads() {
        // Several checkpoint blocks, kept rows thinning out unevenly, a
        // block keeping nothing and the last block short.
        let n = 3 * ROWS_PER_CHECKPOINT + 123;
        let keep: Vec<bool> = (0..n)
            .map(|r| match r / ROWS_PER_CHECKPOINT {
                1 => false,
                b => (r * 7919 + b) % (b + 2) != 0,
            })
            .collect();
        let t = Table::from_columns(
            vec![(
                "q".into(),
                QiValues::Numeric((0..n).map(|r| r as f64).collect()),
            )],
            vec![(
                "s".into(),
                SaValues::Numeric((0..n).map(|r| (r % 97) as f64).collect()),
            )],
        );
        let expected: Vec<f64> = (0..n).filter(|&r| keep[r]).map(|r| r as f64).collect();
        for threads in [1, 3] {
            let threads = crate::parallel::Threads::new(threads, "/t").unwrap();
            let kept = crate::parallel::with_threads(threads, || t.retain_rows(&keep));
            assert_eq!(kept.rows(), expected.len());
            let QiValues::Numeric(q) = &kept.qis()[0].values else {
                panic!("a numeric QI");
            };
            assert_eq!(q, &expected);
            let sa: Vec<f64> = expected.iter().map(|&r| (r as usize % 97) as f64).collect();
            assert_eq!(kept.single_numeric_sa(), Some(sa.as_slice()));
            let lines: Vec<u32> = expected.iter().map(|&r| r as u32 + 1).collect();
            assert_eq!(kept.source_lines(), lines.as_slice());
        }
    }
}
