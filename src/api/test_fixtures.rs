//! Fixtures shared by the spec modules' unit tests.

use proxima_core::schema::{ColumnSpec, CsvOptions, MissingPolicy, Role, Schema, ValueType};

/// A two-column schema: numeric QI `age`, numeric SA `salary`.
pub(crate) fn schema() -> Schema {
    let col = |name: &str, role| ColumnSpec {
        name: name.into(),
        role,
        value_type: Some(ValueType::Numeric),
        hierarchy: None,
    };
    Schema::new(
        "t".into(),
        CsvOptions::default(),
        MissingPolicy::Reject,
        vec![
            col("age", Role::QuasiIdentifier),
            col("salary", Role::Sensitive),
        ],
    )
    .unwrap()
}
