//! The sensitive attribute's distribution over the published table beside
//! that over the riskiest groups' rows (attribute disclosure: a group whose
//! SA distribution is far from the table's tells an attacker more).

use proxima_core::table::{format_number, SaValues};
use proxima_core::Table;

use super::content::SaDistribution;

/// Numeric columns: equal-width buckets over the table's range.
const BUCKETS: usize = 10;
/// Categorical columns: the most frequent values shown; the rest is `other`.
const TOP_VALUES: usize = 9;

/// One distribution per SA column. `riskiest_rows` are rows of `table`.
pub fn distributions(
    table: &Table,
    riskiest_rows: &[u32],
    riskiest_groups: usize,
) -> Vec<SaDistribution> {
    table
        .sensitive()
        .iter()
        .map(|col| {
            let (categories, bucket_of): (Vec<String>, Box<dyn Fn(usize) -> usize + '_>) =
                match &col.values {
                    SaValues::Numeric(v) => numeric(v),
                    SaValues::Categorical {
                        codes, hierarchy, ..
                    } => {
                        let mut counts = vec![0usize; hierarchy.leaf_count()];
                        codes.iter().for_each(|&c| counts[c as usize] += 1);
                        let mut order: Vec<usize> = (0..counts.len()).collect();
                        order.sort_by(|&a, &b| counts[b].cmp(&counts[a]).then(a.cmp(&b)));
                        let shown = if order.len() > TOP_VALUES + 1 {
                            TOP_VALUES
                        } else {
                            order.len()
                        };
                        let mut slot = vec![shown; counts.len()];
                        let mut labels = Vec::with_capacity(shown + 1);
                        for (i, &leaf) in order.iter().take(shown).enumerate() {
                            slot[leaf] = i;
                            labels.push(hierarchy.leaf_label(leaf as u32).to_string());
                        }
                        if shown < order.len() {
                            labels.push("other".to_string());
                        }
                        (labels, Box::new(move |r: usize| slot[codes[r] as usize]))
                    }
                };
            let shares = |rows: &mut dyn Iterator<Item = usize>| {
                let mut counts = vec![0u64; categories.len()];
                let mut total = 0u64;
                for r in rows {
                    counts[bucket_of(r)] += 1;
                    total += 1;
                }
                counts
                    .iter()
                    .map(|&c| {
                        if total == 0 {
                            0.0
                        } else {
                            c as f64 / total as f64
                        }
                    })
                    .collect::<Vec<f64>>()
            };
            let table_shares = shares(&mut (0..table.rows()));
            let risky_shares = shares(&mut riskiest_rows.iter().map(|&r| r as usize));
            SaDistribution {
                column: col.name.clone(),
                categories,
                table: table_shares,
                riskiest: risky_shares,
                riskiest_groups: riskiest_groups as u64,
                riskiest_rows: riskiest_rows.len() as u64,
            }
        })
        .collect()
}

type Bucketing<'a> = (Vec<String>, Box<dyn Fn(usize) -> usize + 'a>);

fn numeric(v: &[f64]) -> Bucketing<'_> {
    let (lo, hi) = v
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    if v.is_empty() || hi <= lo {
        let label = if v.is_empty() {
            "-".to_string()
        } else {
            format_number(lo)
        };
        return (vec![label], Box::new(|_| 0));
    }
    let width = (hi - lo) / BUCKETS as f64;
    let labels = (0..BUCKETS)
        .map(|i| {
            let a = lo + width * i as f64;
            let b = if i + 1 == BUCKETS {
                hi
            } else {
                lo + width * (i + 1) as f64
            };
            format!("[{}-{}]", short(a), short(b))
        })
        .collect();
    (
        labels,
        Box::new(move |r| (((v[r] - lo) / width) as usize).min(BUCKETS - 1)),
    )
}

/// A bucket edge with at most three significant decimals.
fn short(x: f64) -> String {
    format_number((x * 1000.0).round() / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proxima_core::table::QiValues;

    #[test]
    fn numeric_shares_over_the_table_and_the_risky_rows() {
        let t = Table::from_columns(
            vec![("q".into(), QiValues::Numeric(vec![0.0; 4]))],
            vec![("s".into(), SaValues::Numeric(vec![0.0, 10.0, 10.0, 5.0]))],
        );
        let d = &distributions(&t, &[1, 2], 1)[0];
        assert_eq!(d.categories.len(), 10);
        assert_eq!(d.categories[0], "[0-1]");
        assert_eq!(d.table[0], 0.25);
        assert_eq!(d.table[5], 0.25);
        assert_eq!(d.table[9], 0.5);
        assert_eq!(d.riskiest[9], 1.0);
        assert_eq!(d.riskiest_rows, 2);
    }
}
