//! The stored form gives back the table the loader built, for every kind of
//! column, and refuses damaged bytes without panicking.

use std::sync::Arc;

use super::{decode, encode};
use crate::ingest::{load_table, parse_hierarchy_csv};
use crate::schema::{ColumnSpec, CsvOptions, MissingPolicy, Role, Schema, ValueType};
use crate::table::Table;

fn col(name: &str, role: Role, t: Option<ValueType>) -> ColumnSpec {
    ColumnSpec {
        name: name.into(),
        role,
        value_type: t,
        hierarchy: None,
    }
}

fn with_hierarchy(c: ColumnSpec, csv: &[u8]) -> ColumnSpec {
    let h = parse_hierarchy_csv(csv, &c.name).unwrap();
    ColumnSpec {
        hierarchy: Some(Arc::new(h)),
        ..c
    }
}

/// Every kind of column: an identifier, numeric / categorical with and
/// without a hierarchy / date QIs, a numeric and two categorical SAs (one
/// with a hierarchy, one flat) and an insensitive note; missing values
/// suppress rows.
fn schema() -> Arc<Schema> {
    Arc::new(
        Schema::new(
            "t".into(),
            CsvOptions {
                delimiter: b',',
                missing: vec!["?".into()],
                allow_line_breaks: false,
            },
            MissingPolicy::Suppress,
            vec![
                col("id", Role::Identifier, None),
                col("age", Role::QuasiIdentifier, Some(ValueType::Numeric)),
                with_hierarchy(
                    col("edu", Role::QuasiIdentifier, Some(ValueType::Categorical)),
                    b"BSc;Higher;*\nMSc;Higher;*\nHS;Secondary;*\n",
                ),
                col("city", Role::QuasiIdentifier, Some(ValueType::Categorical)),
                col("born", Role::QuasiIdentifier, Some(ValueType::Date)),
                col("salary", Role::Sensitive, Some(ValueType::Numeric)),
                with_hierarchy(
                    col("disease", Role::Sensitive, Some(ValueType::Categorical)),
                    b"flu;respiratory;*\ncold;respiratory;*\nulcer;digestive;*\n",
                ),
                col("job", Role::Sensitive, Some(ValueType::Categorical)),
                col("note", Role::Insensitive, None),
            ],
        )
        .unwrap(),
    )
}

const CSV: &str = "id,age,edu,city,born,salary,disease,job,note
1,34,BSc,Zürich,1990-01-02,5200.5,flu,nurse,première
2,45,MSc,Genève,1979-12-31,7100,cold,doctor,
3,?,HS,Bern,2001-06-30,3000,ulcer,clerk,missing age
4,29,HS,Zürich,1995-03-04,-12.25,flu,nurse,\"a, quoted note\"
5,61,MSc,Basel,1963-07-08,9000,ulcer,judge,✓
";

fn loaded() -> Table {
    load_table(schema(), CSV.as_bytes()).unwrap()
}

fn stored(t: &Table) -> Vec<u8> {
    let mut out = Vec::new();
    encode(t, &mut out);
    out
}

#[test]
fn every_column_kind_round_trips() {
    let t = loaded();
    assert_eq!(t.suppressed_rows(), 1, "the row with a missing age");
    let back = decode(schema(), &stored(&t)).unwrap();
    assert_eq!(back, t);
    // Spot checks that equality covers what a release prints.
    assert_eq!(back.text(8, 3), Some("✓"));
    assert_eq!(back.source_lines(), &[1, 2, 4, 5]);
}

#[test]
fn a_decoded_table_encodes_to_the_same_bytes() {
    let bytes = stored(&loaded());
    assert_eq!(stored(&decode(schema(), &bytes).unwrap()), bytes);
}

#[test]
fn every_truncation_is_refused() {
    let bytes = stored(&loaded());
    for len in 0..bytes.len() {
        let e = decode(schema(), &bytes[..len]).unwrap_err();
        assert!(e.message.contains("corrupt"), "{len}: {}", e.message);
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(decode(schema(), &longer).is_err());
}

#[test]
fn damaged_bytes_never_panic() {
    let bytes = stored(&loaded());
    for i in 0..bytes.len() {
        for v in [0u8, 1, 3, 0x7f, 0xff] {
            let mut b = bytes.clone();
            b[i] = v;
            // Either refused or a table the schema accepts (e.g. a changed
            // number); never a panic.
            if let Ok(t) = decode(schema(), &b) {
                assert_eq!(t.rows(), 4);
            }
        }
    }
}

#[test]
fn another_schema_is_refused() {
    let bytes = stored(&loaded());
    let mut columns = schema().columns().to_vec();
    columns.pop();
    let fewer = Schema::new(
        "t".into(),
        CsvOptions::default(),
        MissingPolicy::Suppress,
        columns,
    )
    .unwrap();
    assert!(decode(Arc::new(fewer), &bytes).is_err());
    // Same columns, but a QI that is now insensitive: its index no longer
    // names a QI.
    let mut columns = schema().columns().to_vec();
    columns[1] = col("age", Role::Insensitive, None);
    let moved = Schema::new(
        "t".into(),
        CsvOptions::default(),
        MissingPolicy::Suppress,
        columns,
    )
    .unwrap();
    assert!(decode(Arc::new(moved), &bytes).is_err());
}

#[test]
fn integral_columns_are_varints_and_fractional_ones_exact() {
    // Integers (and large ones up to 2^53) as varints; a fraction, -0 or a
    // huge value keeps the column in f64, exactly.
    for values in [
        vec![
            0.0,
            1.0,
            -1.0,
            9_007_199_254_740_992.0,
            -9_007_199_254_740_992.0,
        ],
        vec![0.5, 1.0, 2.0],
        vec![-0.0, 1.0, 2.0],
        vec![1e300, 1.0, 2.0],
    ] {
        let t = Table::from_columns(
            vec![("x".into(), crate::table::QiValues::Numeric(values.clone()))],
            vec![("s".into(), crate::table::SaValues::Numeric(values.clone()))],
        );
        let back = decode(t.schema().clone(), &stored(&t)).unwrap();
        assert_eq!(back, t);
        let crate::table::QiValues::Numeric(got) = &back.qis()[0].values else {
            panic!("numeric");
        };
        // Bit for bit, so -0 stays -0.
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(got), bits(&values));
    }
}
