//! A small generated upload (schema document, CSV, hierarchy files) that
//! is valid for every model: fuzzing seeds, the job fuzz target's tables
//! and the load test's default dataset.

/// An upload's parts: the schema document, the CSV, and hierarchy files by
/// column.
pub type Upload = (Vec<u8>, Vec<u8>, Vec<(String, Vec<u8>)>);

/// A schema document and CSV of `rows` rows:
/// numeric QIs age and zip, a categorical QI `sex` with an inline
/// hierarchy, and an SA that is numeric (`salary`) or categorical with a
/// hierarchy (`disease`, given as an ARX file).
pub fn people(rows: usize, categorical_sa: bool) -> Upload {
    let (sa, sa_type) = if categorical_sa {
        ("disease", "categorical")
    } else {
        ("salary", "numeric")
    };
    // Compact JSON with its keys in order (what serde_json writes).
    let schema = format!(
        concat!(
            r#"{{"columns":[{{"name":"id","role":"identifier"}},"#,
            r#"{{"name":"age","role":"quasi_identifier","type":"numeric"}},"#,
            r#"{{"name":"zip","role":"quasi_identifier","type":"numeric"}},"#,
            r#"{{"hierarchy":[["M","*"],["F","*"]],"name":"sex","role":"quasi_identifier","type":"categorical"}},"#,
            r#"{{"name":"{sa}","role":"sensitive","type":"{sa_type}"}},"#,
            r#"{{"name":"note","role":"insensitive"}}],"#,
            r#""csv":{{"delimiter":",","missing":["","?"]}},"name":"people","on_missing":"suppress"}}"#
        ),
        sa = sa,
        sa_type = sa_type
    );
    const DISEASES: [&str; 6] = ["flu", "cold", "gastritis", "ulcer", "asthma", "bronchitis"];
    let mut csv = format!("id,age,zip,sex,{sa},note\n");
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
    (schema.into_bytes(), csv.into_bytes(), hierarchies)
}
