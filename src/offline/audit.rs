//! `proxima audit`: schema + data + checks → an AuditReport on stdout.

use std::sync::Arc;

use proxima_core::audit::{group_by_column, group_by_published_qis, AuditCheck};
use proxima_core::Progress;
use proxima_core::{CoreError, ErrorKind, Schema, Table};

use super::error::OfflineError;
use super::input::json_arg;
use super::load::{load_schema, load_table};
use super::output::write_output;
use super::{AuditArgs, ViewArg};
use crate::api::{audit_checks, checks_from_json, AuditReportDto, GroupsDto};
use proxima_core::attacker::{evaluate, GroupBoxes, Victims};

/// Validated checks and grouping on a loaded table.
pub struct PreparedAudit {
    pub table: Table,
    pub checks: Vec<AuditCheck>,
    pub groups: GroupsDto,
}

/// The grouping: by a column the schema describes, or by identical QIs.
pub fn groups_of(groups_by: Option<&str>, schema: &Schema) -> Result<GroupsDto, CoreError> {
    let Some(column) = groups_by else {
        return Ok(GroupsDto::QuasiIdentifiers {});
    };
    if schema.column(column).is_none() {
        return Err(CoreError::new(
            ErrorKind::UnknownColumn,
            format!("the groups column '{column}' is not in the schema"),
        )
        .with_error("/groups/column", "no such column in the schema"));
    }
    Ok(GroupsDto::Column {
        column: column.to_string(),
    })
}

pub fn prepare(args: &AuditArgs) -> Result<PreparedAudit, OfflineError> {
    let schema = load_schema(&args.input.schema, &args.input.hierarchies)?;
    let dtos = checks_from_json(&json_arg(&args.checks)?)?;
    let checks = audit_checks(&dtos, &schema)?;
    let groups = groups_of(args.groups_by.as_deref(), &schema)?;
    let table = load_table(Arc::new(schema), &args.input)?;
    Ok(PreparedAudit {
        table,
        checks,
        groups,
    })
}

/// Runs the audit and prints the `AuditReport` on stdout. A report whose
/// checks fail is still a successful run (exit 0), as the API answers 200:
/// `passed` says the verdict.
pub fn audit(args: &AuditArgs) -> Result<(), OfflineError> {
    let PreparedAudit {
        table,
        checks,
        groups,
    } = prepare(args)?;
    let (partition, ids) = match &groups {
        GroupsDto::QuasiIdentifiers {} => group_by_published_qis(&table),
        GroupsDto::Column { column } => {
            let (index, _) = table
                .schema()
                .column(column)
                .ok_or_else(|| CoreError::internal("the groups column left the schema"))?;
            group_by_column(&table, index)?
        }
    };
    let report =
        proxima_core::audit::audit(&table, &partition, Some(&ids), &checks, Progress::none())?;
    let dto = match args.view {
        ViewArg::Groups => AuditReportDto::from(&report),
        // The original values are unknown: every row may sit anywhere in
        // its group's box (the API's `"view": "attacker"` on a dataset).
        ViewArg::Attacker => {
            let boxes = GroupBoxes::from_labels(&table, &partition)?;
            let view = evaluate(
                &table,
                &partition,
                &boxes,
                Victims::AnyPointOfItsBox,
                &checks,
                Some(&ids),
                Progress::none(),
            )?;
            AuditReportDto::from_view(&report, &view, Some(&ids))
        }
    };
    write_output(None, |w| {
        serde_json::to_writer_pretty(&mut *w, &dto).map_err(std::io::Error::other)?;
        w.write_all(b"\n")
    })
}
