//! Groupings of an uploaded table for audits: by identical published QI
//! text (the attacker's view of a generalized table) or by a column.

use std::collections::HashMap;

use crate::error::{CoreError, CoreResult, Field};
use crate::partition::Partition;
use crate::table::Table;

/// Groups rows by their QI cells' text, as published: rows whose every QI
/// reads the same form one group. Ids are "1".."G" in order of first
/// appearance; rows keep table order inside a group.
pub fn group_by_published_qis(table: &Table) -> (Partition, Vec<String>) {
    let columns: Vec<usize> = table.qis().iter().map(|c| c.schema_index).collect();
    let mut index: HashMap<Vec<&str>, u32> = HashMap::new();
    let mut groups: Vec<Vec<u32>> = Vec::new();
    for row in 0..table.rows() {
        // QIs are published, so their text is always kept.
        let key: Vec<&str> = columns
            .iter()
            .map(|&c| table.text(c, row).unwrap_or_default())
            .collect();
        let next = groups.len() as u32;
        let g = *index.entry(key).or_insert(next);
        if g == next {
            groups.push(Vec::new());
        }
        groups[g as usize].push(row as u32);
    }
    let ids = (1..=groups.len()).map(|g| g.to_string()).collect();
    (Partition::new(groups), ids)
}

/// Groups rows by the text of one column (`schema_index` in the schema);
/// the group ids are the column's values, in order of first appearance.
/// Errors (`invalid_parameters` at `/groups/column`) when the column does
/// not exist or is an identifier, whose values are never kept.
pub fn group_by_column(table: &Table, schema_index: usize) -> CoreResult<(Partition, Vec<String>)> {
    let Some(spec) = table.schema().columns().get(schema_index) else {
        return Err(CoreError::invalid_parameters(
            Field::Groups("column"),
            format!("the table has no column number {schema_index}"),
        ));
    };
    if !table.schema().is_published(schema_index) {
        return Err(CoreError::invalid_parameters(
            Field::Groups("column"),
            format!(
                "'{}' is an identifier column, whose values are not kept; group by a published column",
                spec.name
            ),
        ));
    }
    let mut index: HashMap<&str, u32> = HashMap::new();
    let mut groups: Vec<Vec<u32>> = Vec::new();
    let mut ids = Vec::new();
    for row in 0..table.rows() {
        let value = table.text(schema_index, row).unwrap_or_default();
        let next = groups.len() as u32;
        let g = *index.entry(value).or_insert(next);
        if g == next {
            groups.push(Vec::new());
            ids.push(value.to_string());
        }
        groups[g as usize].push(row as u32);
    }
    Ok((Partition::new(groups), ids))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{QiValues, SaValues};

    #[test]
    fn groups_follow_text_and_first_appearance() {
        let t = Table::from_columns(
            vec![
                ("a".into(), QiValues::Numeric(vec![1.0, 2.0, 1.0, 1.0])),
                ("b".into(), QiValues::Numeric(vec![5.0, 5.0, 5.0, 6.0])),
            ],
            vec![("s".into(), SaValues::Numeric(vec![10.0, 20.0, 10.0, 30.0]))],
        );
        let (p, ids) = group_by_published_qis(&t);
        assert_eq!(p.groups, vec![vec![0, 2], vec![1], vec![3]]);
        assert_eq!(ids, vec!["1", "2", "3"]);
        let (p, ids) = group_by_column(&t, 2).unwrap();
        assert_eq!(p.groups, vec![vec![0, 2], vec![1], vec![3]]);
        assert_eq!(ids, vec!["10", "20", "30"]);
        assert!(group_by_column(&t, 9).is_err());
    }
}
