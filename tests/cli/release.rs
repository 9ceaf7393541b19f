//! Reading a release back and checking its guarantees independently of
//! the core.

use std::collections::HashSet;
use std::path::Path;

use serde_json::Value;

/// A parsed release: header and rows (the CSV writer never quotes these
/// tables' cells, so a split is enough).
pub struct Release {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Release {
    pub fn from_csv(text: &str) -> Release {
        let mut lines = text.split("\r\n").filter(|l| !l.is_empty());
        let header = lines
            .next()
            .unwrap()
            .split(',')
            .map(str::to_string)
            .collect();
        let rows = lines
            .map(|l| l.split(',').map(str::to_string).collect())
            .collect();
        Release { header, rows }
    }

    pub fn from_json(v: &Value) -> Release {
        let strings = |a: &Value| -> Vec<String> {
            a.as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect()
        };
        Release {
            header: strings(&v["columns"]),
            rows: v["rows"].as_array().unwrap().iter().map(strings).collect(),
        }
    }

    pub fn col(&self, name: &str) -> usize {
        self.header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no column {name} in {:?}", self.header))
    }

    /// Row indices by group id; asserts rows come grouped (each group's rows
    /// contiguous).
    pub fn groups(&self) -> Vec<Vec<usize>> {
        let g = self.col("group_id");
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut seen = HashSet::new();
        let mut current: Option<&str> = None;
        for (i, r) in self.rows.iter().enumerate() {
            if current != Some(r[g].as_str()) {
                assert!(
                    seen.insert(r[g].clone()),
                    "group {} is not contiguous",
                    r[g]
                );
                groups.push(Vec::new());
                current = Some(r[g].as_str());
            }
            groups.last_mut().unwrap().push(i);
        }
        groups
    }
}

/// Absolute (ε,m)-anonymity: in every group, every row's closed
/// ε-neighbourhood holds at most |G|/m rows (itself included).
pub fn assert_epsilon_m(release: &Release, sa: &str, epsilon: f64, m: usize) {
    let s = release.col(sa);
    for g in release.groups() {
        let mut v: Vec<f64> = g
            .iter()
            .map(|&i| release.rows[i][s].parse().unwrap())
            .collect();
        v.sort_by(f64::total_cmp);
        let (mut lo, mut hi) = (0, 0);
        for x in &v {
            while v[lo] < x - epsilon {
                lo += 1;
            }
            while hi < v.len() && v[hi] <= x + epsilon {
                hi += 1;
            }
            let neighbours = hi - lo;
            assert!(
                neighbours * m <= v.len(),
                "a group of {} has a row with {neighbours} neighbours (m = {m})",
                v.len()
            );
        }
    }
}

/// Every QI cell is the same within a group and covers the row's original
/// value: `[lo-hi]` with lo ≤ x ≤ hi, or x itself.
pub fn assert_generalizes(release: &Release, original: &Original, qis: &[&str]) {
    let row_id = release.col("row_id");
    for g in release.groups() {
        for qi in qis {
            let c = release.col(qi);
            let cell = &release.rows[g[0]][c];
            for &i in &g {
                let r = &release.rows[i];
                assert_eq!(&r[c], cell, "{qi} differs inside a group");
                let line: usize = r[row_id].parse().unwrap();
                let x: f64 = original.value(line, qi).parse().unwrap();
                assert!(covers(cell, x), "{qi}: {cell} does not cover {x}");
            }
        }
    }
}

pub fn covers(cell: &str, x: f64) -> bool {
    if let Some(inner) = cell.strip_prefix('[').and_then(|c| c.strip_suffix(']')) {
        // `[lo-hi]`; lo may be negative, so split at the '-' after lo.
        let at = inner[1..].find('-').map(|i| i + 1).expect("an interval");
        let lo: f64 = inner[..at].parse().unwrap();
        let hi: f64 = inner[at + 1..].parse().unwrap();
        lo <= x && x <= hi
    } else {
        cell.parse::<f64>().unwrap() == x
    }
}

/// The input table, by 1-based data line.
pub struct Original {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Original {
    pub fn read(path: &Path, delimiter: char) -> Original {
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines = text.lines();
        let header = lines
            .next()
            .unwrap()
            .split(delimiter)
            .map(str::to_string)
            .collect();
        let rows = lines
            .filter(|l| !l.is_empty())
            .map(|l| l.split(delimiter).map(str::to_string).collect())
            .collect();
        Original { header, rows }
    }

    pub fn value(&self, line: usize, column: &str) -> &str {
        let c = self.header.iter().position(|h| h == column).unwrap();
        &self.rows[line - 1][c]
    }
}

/// The schema of a release for auditing it: group_id and row_id are not
/// published attributes, generalized QIs are categorical labels.
pub fn release_schema(header: &[String], qis: &[&str], sa: &str) -> String {
    let columns: Vec<Value> = header
        .iter()
        .map(|h| {
            if qis.contains(&h.as_str()) {
                serde_json::json!({"name": h, "role": "quasi_identifier", "type": "categorical"})
            } else if h == sa {
                serde_json::json!({"name": h, "role": "sensitive", "type": "numeric"})
            } else if h == "row_id" {
                serde_json::json!({"name": h, "role": "identifier"})
            } else {
                serde_json::json!({"name": h, "role": "insensitive"})
            }
        })
        .collect();
    serde_json::json!({"name": "release", "columns": columns}).to_string()
}
