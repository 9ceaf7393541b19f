//! A small generated upload (schema document, CSV, hierarchy files) that
//! is valid for every model: fuzzing seeds, the job fuzz target's tables
//! and the load test's default dataset.

use serde_json::json;

/// An upload's parts: the schema document, the CSV, and hierarchy files by
/// column.
pub type Upload = (Vec<u8>, Vec<u8>, Vec<(String, Vec<u8>)>);

/// A schema document and CSV of `rows` rows:
/// numeric QIs age and zip, a categorical QI `sex` with an inline
/// hierarchy, and an SA that is numeric (`salary`) or categorical with a
/// hierarchy (`disease`, given as an ARX file).
pub fn people(rows: usize, categorical_sa: bool) -> Upload {
    let sa = if categorical_sa {
        json!({"name": "disease", "role": "sensitive", "type": "categorical"})
    } else {
        json!({"name": "salary", "role": "sensitive", "type": "numeric"})
    };
    let schema = json!({
        "name": "people",
        "csv": {"delimiter": ",", "missing": ["", "?"]},
        "on_missing": "suppress",
        "columns": [
            {"name": "id", "role": "identifier"},
            {"name": "age", "role": "quasi_identifier", "type": "numeric"},
            {"name": "zip", "role": "quasi_identifier", "type": "numeric"},
            {"name": "sex", "role": "quasi_identifier", "type": "categorical",
             "hierarchy": [["M", "*"], ["F", "*"]]},
            sa,
            {"name": "note", "role": "insensitive"}
        ]
    });
    const DISEASES: [&str; 6] = ["flu", "cold", "gastritis", "ulcer", "asthma", "bronchitis"];
    let mut csv = format!(
        "id,age,zip,sex,{},note\n",
        if categorical_sa { "disease" } else { "salary" }
    );
    for i in 0..rows {
        let sa = if categorical_sa {
            DISEASES[(i * 5 + i / 7) % DISEASES.len()].to_string()
        } else {
            format!("{}", 1000 + (i * 37 % 97) * 250)
        };
        csv.push_str(&format!(
            "{i},{},{},{},{sa},\"n {i}, ok\"\n",
            20 + (i * 7) % 50,
            1000 + (i * 13) % 29,
            if i % 3 == 0 { "F" } else { "M" }
        ));
    }
    let hierarchies = if categorical_sa {
        let mut h = String::new();
        for (j, d) in DISEASES.iter().enumerate() {
            let group = if j < 2 {
                "respiratory-infection"
            } else if j < 4 {
                "stomach"
            } else {
                "lung"
            };
            h.push_str(&format!("{d};{group};*\n"));
        }
        vec![("disease".to_string(), h.into_bytes())]
    } else {
        Vec::new()
    };
    (
        serde_json::to_vec(&schema).expect("a JSON value serializes"),
        csv.into_bytes(),
        hierarchies,
    )
}
