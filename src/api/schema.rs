//! The schema document of `POST /v1/datasets` (docs/api.md §Datasets) and its
//! conversion into the core's validated [`Schema`].

use std::collections::HashMap;
use std::sync::Arc;

use proxima_core::error::CoreResult;
use proxima_core::ingest::{hierarchy_from_inline, parse_hierarchy_csv};
use proxima_core::risk::Population;
use proxima_core::schema::{ColumnSpec, CsvOptions, MissingPolicy, Role, ValueType};
use proxima_core::{CoreError, ErrorKind, Field, Schema};

use super::problem::FieldPointer;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = DatasetSchema)]
#[serde(deny_unknown_fields)]
pub struct SchemaDto {
    pub name: String,
    #[serde(default)]
    pub csv: CsvDto,
    #[serde(default)]
    pub on_missing: OnMissingDto,
    pub columns: Vec<ColumnDto>,
    /// What the table is a sample of, for the population risk models of
    /// the release report (`GET /v1/jobs/{id}/report`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub population: Option<PopulationDto>,
}

/// The population a table was sampled from: its size (at least the
/// table's rows), the sampling fraction (in (0, 1]), or an uploaded
/// population table of the same tenant holding the sample's QI columns
/// (for k-map, δ-presence and population-based journalist risk).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = Population)]
#[serde(rename_all = "snake_case", try_from = "PopulationFields")]
pub enum PopulationDto {
    /// Individuals in the population: at least 1 and at least the
    /// dataset's rows.
    #[schema(title = "PopulationSize")]
    Size(u64),
    /// The table's rows / the population's size, in (0, 1].
    #[schema(title = "PopulationSamplingFraction")]
    SamplingFraction(f64),
    /// The id of the population table (a dataset of the same tenant with
    /// the sample's quasi-identifiers, of the same types and hierarchies,
    /// and at least as many rows). A dataset named so cannot be deleted
    /// while the sample exists (409 `population_in_use`).
    #[schema(title = "PopulationDataset")]
    DatasetId(uuid::Uuid),
}

/// The population object as written, before exactly one of its fields is
/// required (serde's own enum reading calls two keys a syntax error).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PopulationFields {
    size: Option<u64>,
    sampling_fraction: Option<f64>,
    dataset_id: Option<uuid::Uuid>,
}

impl TryFrom<PopulationFields> for PopulationDto {
    type Error = &'static str;

    fn try_from(f: PopulationFields) -> Result<Self, Self::Error> {
        match (f.size, f.sampling_fraction, f.dataset_id) {
            (Some(n), None, None) => Ok(PopulationDto::Size(n)),
            (None, Some(x), None) => Ok(PopulationDto::SamplingFraction(x)),
            (None, None, Some(id)) => Ok(PopulationDto::DatasetId(id)),
            _ => Err("give exactly one of `size`, `sampling_fraction` and `dataset_id`"),
        }
    }
}

impl PopulationDto {
    /// The core's population for the uniqueness estimators
    /// (`proxima_core::risk::Population`, which checks a size of at least 1
    /// and a fraction in (0, 1]: `invalid_schema` at `/population/…`);
    /// `None` for a population table, whose size is its rows
    /// ([`PopulationDto::estimators_with`]).
    pub fn to_population(self) -> CoreResult<Option<Population>> {
        match self {
            PopulationDto::Size(n) => Population::size(n).map(Some),
            PopulationDto::SamplingFraction(f) => Population::sampling_fraction(f).map(Some),
            PopulationDto::DatasetId(_) => Ok(None),
        }
    }

    /// The estimators' population, a population table counting as its
    /// size (`table_rows`, when known).
    pub fn estimators_with(self, table_rows: Option<u64>) -> CoreResult<Option<Population>> {
        match (self, table_rows) {
            (PopulationDto::DatasetId(_), Some(n)) => Population::size(n).map(Some),
            _ => self.to_population(),
        }
    }

    /// The population table's id, when the population is one.
    pub fn dataset_id(self) -> Option<uuid::Uuid> {
        match self {
            PopulationDto::DatasetId(id) => Some(id),
            _ => None,
        }
    }

    /// A sample cannot be larger than its population: the size must be at
    /// least the table's data rows (`rows`, suppressed ones included). (A
    /// population table's rows are checked at upload against the table.)
    pub fn check_rows(self, rows: usize) -> CoreResult<()> {
        match self.to_population()? {
            Some(p) => p.check_rows(rows),
            None => Ok(()),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = CsvOptions)]
#[serde(deny_unknown_fields)]
pub struct CsvDto {
    /// One ASCII character; default `,`.
    #[serde(default = "default_delimiter")]
    pub delimiter: String,
    /// Cell values that mean "missing"; default `[""]`.
    #[serde(default = "default_missing")]
    pub missing: Vec<String>,
    /// Accept line breaks inside quoted cells, in every column; default
    /// `false` (such a cell, in any column, is `malformed_csv`: it almost
    /// always means a stray quote merged rows — identifiers included —
    /// into one cell).
    #[serde(default)]
    pub allow_line_breaks: bool,
}

fn default_delimiter() -> String {
    ",".to_string()
}

fn default_missing() -> Vec<String> {
    vec![String::new()]
}

impl Default for CsvDto {
    fn default() -> Self {
        CsvDto {
            delimiter: default_delimiter(),
            missing: default_missing(),
            allow_line_breaks: false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, ToSchema)]
#[schema(as = OnMissing)]
#[serde(rename_all = "snake_case")]
pub enum OnMissingDto {
    #[default]
    Reject,
    Suppress,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = Role)]
#[serde(rename_all = "snake_case")]
pub enum RoleDto {
    Identifier,
    QuasiIdentifier,
    Sensitive,
    Insensitive,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ColumnType)]
#[serde(rename_all = "snake_case")]
pub enum TypeDto {
    Numeric,
    Categorical,
    Date,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = SchemaColumn)]
#[serde(deny_unknown_fields)]
pub struct ColumnDto {
    pub name: String,
    pub role: RoleDto,
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub value_type: Option<TypeDto>,
    /// Inline hierarchy: one path per leaf, `[leaf, level1, …, root]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hierarchy: Option<Vec<Vec<String>>>,
}

/// A hierarchy supplied as an ARX-format CSV file, by column name: the
/// `hierarchy:<column>` multipart part, or the CLI's `--hierarchy col=file`.
#[derive(Debug, Clone, Copy)]
pub struct HierarchyFile<'a> {
    pub column: &'a str,
    pub bytes: &'a [u8],
}

/// The JSON pointer used for errors about a hierarchy file (the one the
/// core's hierarchy parser uses too): `/hierarchies/<column>`.
pub fn hierarchy_file_pointer(column: &str) -> String {
    format!("/hierarchies/{}", super::json::escape(column))
}

impl From<RoleDto> for Role {
    fn from(r: RoleDto) -> Role {
        match r {
            RoleDto::Identifier => Role::Identifier,
            RoleDto::QuasiIdentifier => Role::QuasiIdentifier,
            RoleDto::Sensitive => Role::Sensitive,
            RoleDto::Insensitive => Role::Insensitive,
        }
    }
}

impl From<Role> for RoleDto {
    fn from(r: Role) -> RoleDto {
        match r {
            Role::Identifier => RoleDto::Identifier,
            Role::QuasiIdentifier => RoleDto::QuasiIdentifier,
            Role::Sensitive => RoleDto::Sensitive,
            Role::Insensitive => RoleDto::Insensitive,
        }
    }
}

impl From<TypeDto> for ValueType {
    fn from(t: TypeDto) -> ValueType {
        match t {
            TypeDto::Numeric => ValueType::Numeric,
            TypeDto::Categorical => ValueType::Categorical,
            TypeDto::Date => ValueType::Date,
        }
    }
}

impl From<ValueType> for TypeDto {
    fn from(t: ValueType) -> TypeDto {
        match t {
            ValueType::Numeric => TypeDto::Numeric,
            ValueType::Categorical => TypeDto::Categorical,
            ValueType::Date => TypeDto::Date,
        }
    }
}

impl CsvDto {
    fn to_options(&self) -> CoreResult<CsvOptions> {
        let delimiter = match self.delimiter.as_bytes() {
            [b] if b.is_ascii() => *b,
            _ => {
                return Err(CoreError::invalid_schema(
                    "/csv/delimiter",
                    format!(
                        "the delimiter must be exactly one ASCII character, got {:?}",
                        self.delimiter
                    ),
                ))
            }
        };
        Ok(CsvOptions {
            delimiter,
            missing: self.missing.clone(),
            allow_line_breaks: self.allow_line_breaks,
        })
    }
}

impl SchemaDto {
    /// Parses a schema document (errors: `malformed_json`, or
    /// `invalid_schema` with a pointer into the document).
    pub fn from_json(bytes: &[u8]) -> CoreResult<SchemaDto> {
        super::json::from_json(bytes, "the schema", "", ErrorKind::InvalidSchema)
    }

    /// Builds the validated schema. `files` are the hierarchies supplied as
    /// ARX CSV files by column name; a column gets its hierarchy inline or
    /// from a file, not both.
    pub fn to_schema(&self, files: &[HierarchyFile<'_>]) -> CoreResult<Schema> {
        let csv = self.csv.to_options()?;
        if let Some(p) = self.population {
            p.to_population()?;
        }
        let mut by_column: HashMap<&str, &HierarchyFile<'_>> = HashMap::new();
        for f in files {
            let at = hierarchy_file_pointer(f.column);
            let Some((i, col)) = self
                .columns
                .iter()
                .enumerate()
                .find(|(_, c)| c.name == f.column)
            else {
                return Err(CoreError::new(
                    ErrorKind::UnknownColumn,
                    format!(
                        "a hierarchy is given for column '{}', which the schema does not describe",
                        f.column
                    ),
                )
                .with_error(at, "no such column in the schema"));
            };
            if col.value_type != Some(TypeDto::Categorical) {
                return Err(CoreError::invalid_schema(
                    at,
                    format!(
                        "a hierarchy is given for column '{}', which is not categorical (columns/{i} has type {})",
                        f.column,
                        col.value_type.map_or("none", |t| ValueType::from(t).name())
                    ),
                ));
            }
            if col.hierarchy.is_some() {
                return Err(CoreError::invalid_schema(
                    at,
                    format!(
                        "column '{}' has an inline hierarchy and a hierarchy file; give one of them",
                        f.column
                    ),
                ));
            }
            if by_column.insert(f.column, f).is_some() {
                return Err(CoreError::invalid_schema(
                    at,
                    format!("two hierarchy files are given for column '{}'", f.column),
                ));
            }
        }

        let mut columns = Vec::with_capacity(self.columns.len());
        for (i, c) in self.columns.iter().enumerate() {
            let value_type = c.value_type.map(ValueType::from);
            let hierarchy = match (&c.hierarchy, by_column.get(c.name.as_str())) {
                (Some(paths), _) => {
                    if value_type != Some(ValueType::Categorical) {
                        return Err(CoreError::invalid_schema(
                            format!("/columns/{i}/hierarchy"),
                            format!("column '{}' has a hierarchy but is not categorical", c.name),
                        ));
                    }
                    let h = hierarchy_from_inline(paths.clone(), &c.name).map_err(|e| {
                        relocate(
                            e,
                            &hierarchy_file_pointer(&c.name),
                            &format!("/columns/{i}/hierarchy"),
                        )
                    })?;
                    Some(Arc::new(h))
                }
                (None, Some(file)) => {
                    let h = parse_hierarchy_csv(file.bytes, &c.name).map_err(|e| {
                        let at = hierarchy_file_pointer(&c.name);
                        relocate(e, &at, &at)
                    })?;
                    Some(Arc::new(h))
                }
                (None, None) => None,
            };
            columns.push(ColumnSpec {
                name: c.name.clone(),
                role: c.role.into(),
                value_type,
                hierarchy,
            });
        }
        let on_missing = match self.on_missing {
            OnMissingDto::Reject => MissingPolicy::Reject,
            OnMissingDto::Suppress => MissingPolicy::Suppress,
        };
        Schema::new(self.name.clone(), csv, on_missing, columns)
    }
}

/// Points a hierarchy error at where the hierarchy came from: the core
/// reports it under `/hierarchies/<column>`, which is right for a file but
/// not for an inline hierarchy (`/columns/<i>/hierarchy`). An error without
/// field errors gets one.
fn relocate(mut e: CoreError, from: &str, to: &str) -> CoreError {
    for f in &mut e.errors {
        let pointer = f.pointer();
        match pointer.strip_prefix(from) {
            Some(rest) if rest.is_empty() || rest.starts_with('/') => {
                f.field = Field::Pointer(format!("{to}{rest}"));
            }
            _ => {}
        }
    }
    if e.errors.is_empty() {
        let message = e.message.clone();
        e = e.with_error(to, message);
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> SchemaDto {
        SchemaDto::from_json(json.as_bytes()).unwrap()
    }

    const BASIC: &str = r#"{"name": "t", "columns": [
        {"name": "age", "role": "quasi_identifier", "type": "numeric"},
        {"name": "sex", "role": "quasi_identifier", "type": "categorical"},
        {"name": "salary", "role": "sensitive", "type": "numeric"},
        {"name": "id", "role": "identifier"}]}"#;

    #[test]
    fn defaults_apply() {
        let dto = parse(BASIC);
        assert_eq!(dto.csv, CsvDto::default());
        assert_eq!(dto.on_missing, OnMissingDto::Reject);
        let s = dto.to_schema(&[]).unwrap();
        assert_eq!(s.csv().delimiter, b',');
        assert_eq!(s.csv().missing, vec![String::new()]);
        assert_eq!(s.on_missing(), MissingPolicy::Reject);
        assert_eq!(s.columns()[3].value_type, None);
        assert_eq!(s.columns()[1].role, Role::QuasiIdentifier);
    }

    #[test]
    fn csv_options_and_policy_convert() {
        let dto = parse(
            r#"{"name": "t", "csv": {"delimiter": ";", "missing": ["", "?"]},
                "on_missing": "suppress",
                "columns": [{"name": "a", "role": "quasi_identifier", "type": "date"}]}"#,
        );
        let s = dto.to_schema(&[]).unwrap();
        assert_eq!(s.csv().delimiter, b';');
        assert_eq!(s.csv().missing, vec!["".to_string(), "?".to_string()]);
        assert_eq!(s.on_missing(), MissingPolicy::Suppress);
    }

    #[test]
    fn bad_delimiter_is_invalid_schema() {
        for d in [r#""""#, r#"";;""#, r#""é""#] {
            let dto = parse(&format!(
                r#"{{"name": "t", "csv": {{"delimiter": {d}}},
                    "columns": [{{"name": "a", "role": "quasi_identifier", "type": "numeric"}}]}}"#
            ));
            let e = dto.to_schema(&[]).unwrap_err();
            assert_eq!(e.kind, ErrorKind::InvalidSchema);
            assert_eq!(e.errors[0].pointer(), "/csv/delimiter");
            assert!(e.message.contains("one ASCII character"), "{}", e.message);
        }
    }

    #[test]
    fn shape_errors_point_into_the_document() {
        let e = SchemaDto::from_json(
            br#"{"name": "t", "columns": [
                {"name": "a", "role": "quasi_identifier", "type": "numeric"},
                {"name": "b", "role": "quasi_identifier", "type": "text"}]}"#,
        )
        .unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidSchema);
        assert_eq!(e.errors[0].pointer(), "/columns/1/type");
        assert!(
            e.message.contains("unknown variant `text`"),
            "{}",
            e.message
        );

        let typo =
            SchemaDto::from_json(br#"{"name": "t", "on_mising": "suppress", "columns": []}"#)
                .unwrap_err();
        assert_eq!(typo.errors[0].pointer(), "/on_mising");

        let role = SchemaDto::from_json(
            br#"{"name": "t", "columns": [{"name": "a", "role": "qi", "type": "numeric"}]}"#,
        )
        .unwrap_err();
        assert_eq!(role.errors[0].pointer(), "/columns/0/role");

        let syntax = SchemaDto::from_json(b"{\"name\": ").unwrap_err();
        assert_eq!(syntax.kind, ErrorKind::MalformedJson);
    }

    #[test]
    fn core_validation_errors_keep_their_pointer() {
        let dto = parse(
            r#"{"name": "t", "columns": [
                {"name": "a", "role": "quasi_identifier", "type": "numeric"},
                {"name": "s", "role": "sensitive"}]}"#,
        );
        let e = dto.to_schema(&[]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidSchema);
        assert_eq!(e.errors[0].pointer(), "/columns/1/type");
    }

    #[test]
    fn inline_hierarchy_is_built() {
        let dto = parse(
            r#"{"name": "t", "columns": [
                {"name": "sex", "role": "quasi_identifier", "type": "categorical",
                 "hierarchy": [["Male", "*"], ["Female", "*"]]}]}"#,
        );
        let s = dto.to_schema(&[]).unwrap();
        let h = s.columns()[0].hierarchy.as_ref().unwrap();
        assert_eq!(h.leaf_count(), 2);
        assert_eq!(h.height(), 1);
    }

    #[test]
    fn inline_hierarchy_on_a_numeric_column_is_rejected() {
        let dto = parse(
            r#"{"name": "t", "columns": [
                {"name": "age", "role": "quasi_identifier", "type": "numeric",
                 "hierarchy": [["1", "*"]]}]}"#,
        );
        let e = dto.to_schema(&[]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidSchema);
        assert_eq!(e.errors[0].pointer(), "/columns/0/hierarchy");
    }

    #[test]
    fn broken_inline_hierarchy_is_invalid_hierarchy_at_the_column() {
        let dto = parse(
            r#"{"name": "t", "columns": [
                {"name": "sex", "role": "quasi_identifier", "type": "categorical",
                 "hierarchy": [["Male", "*"], ["Female", "x", "*"]]}]}"#,
        );
        let e = dto.to_schema(&[]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidHierarchy);
        assert!(e
            .errors
            .iter()
            .any(|f| f.pointer().starts_with("/columns/0/hierarchy")));
    }

    #[test]
    fn hierarchy_files_are_matched_by_column() {
        let dto = parse(BASIC);
        let file = b"Male;*\nFemale;*\n";
        let s = dto
            .to_schema(&[HierarchyFile {
                column: "sex",
                bytes: file,
            }])
            .unwrap();
        assert_eq!(s.columns()[1].hierarchy.as_ref().unwrap().leaf_count(), 2);

        let unknown = dto
            .to_schema(&[HierarchyFile {
                column: "zip",
                bytes: file,
            }])
            .unwrap_err();
        assert_eq!(unknown.kind, ErrorKind::UnknownColumn);
        assert_eq!(unknown.errors[0].pointer(), "/hierarchies/zip");
        assert!(unknown.message.contains("'zip'"));

        let numeric = dto
            .to_schema(&[HierarchyFile {
                column: "age",
                bytes: file,
            }])
            .unwrap_err();
        assert_eq!(numeric.kind, ErrorKind::InvalidSchema);
        assert!(
            numeric.message.contains("not categorical"),
            "{}",
            numeric.message
        );

        let twice = dto
            .to_schema(&[
                HierarchyFile {
                    column: "sex",
                    bytes: file,
                },
                HierarchyFile {
                    column: "sex",
                    bytes: file,
                },
            ])
            .unwrap_err();
        assert_eq!(twice.kind, ErrorKind::InvalidSchema);
    }

    #[test]
    fn inline_and_file_hierarchy_together_are_rejected() {
        let dto = parse(
            r#"{"name": "t", "columns": [
                {"name": "sex", "role": "quasi_identifier", "type": "categorical",
                 "hierarchy": [["Male", "*"], ["Female", "*"]]}]}"#,
        );
        let e = dto
            .to_schema(&[HierarchyFile {
                column: "sex",
                bytes: b"Male;*\nFemale;*\n",
            }])
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidSchema);
        assert!(e.message.contains("inline hierarchy and a hierarchy file"));
    }

    #[test]
    fn shared_example_schemas_parse() {
        let Some(shared) = proxima_testdata::shared_dir() else {
            return;
        };
        let entries = std::fs::read_dir(shared.join("examples")).unwrap();
        let mut seen = 0;
        for entry in entries {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                let bytes = std::fs::read(&path).unwrap();
                let dto = SchemaDto::from_json(&bytes)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                dto.to_schema(&[])
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                seen += 1;
            }
        }
        assert!(seen >= 4, "expected the four example schemas, saw {seen}");
    }
}
