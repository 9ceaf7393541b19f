//! Words for what a person reads: the plain name and one-line meaning of
//! every figure the audit, the model checks and the failure diagnostics
//! carry, and their JSON values as text — so that no page shows raw JSON
//! (`{"max_risk":0.5,…}`) where a sentence or a table reads better.
//!
//! Pure functions over `serde_json::Value` and keys; the pages that use
//! them (the release report, the sweep report) decide the layout.

use serde_json::Value;

use crate::html::svg::number;

/// The model a check or a job names, in words.
pub fn model_name(kind: &str) -> String {
    match kind {
        "k_anonymity" => "k-anonymity".into(),
        "l_diversity" => "l-diversity".into(),
        "alpha_k" => "(α,k)-anonymity".into(),
        "epsilon_m" => "(ε,m)-anonymity".into(),
        "dissimilarity" => "(ε,δ)^k-dissimilarity (XColor)".into(),
        "delta_l_diversity" => "(δ,l)-diversity".into(),
        "t_closeness" => "t-closeness".into(),
        other => other.replace('_', " "),
    }
}

/// A parameter or figure key, in words (its Greek letter where the papers
/// use one).
pub fn key_name(key: &str) -> String {
    match key {
        "epsilon" => "ε".into(),
        "delta" => "δ".into(),
        "alpha" => "α".into(),
        "max_risk" => "highest risk of a victim".into(),
        "vulnerability" => "share of victims over the bound".into(),
        "max_breach_probability" => "highest breach probability".into(),
        "achieved_m" => "m reached".into(),
        "max_emd" => "largest distance to the table's distribution (EMD)".into(),
        "min_size" => "smallest candidate set".into(),
        "max_frequency" => "highest SA frequency in a group".into(),
        "max_k" => "largest k the table reaches".into(),
        "max_l" => "largest l the table reaches".into(),
        "max_m" => "largest m".into(),
        "maxsize" => "maxsize(T)".into(),
        "max_epsilon" => "largest ε".into(),
        "max_epsilon_exclusive" => "every ε below".into(),
        "max_delta" => "largest δ".into(),
        "max_degree" => "most neighbours of one SA value (Θ)".into(),
        "suppression_limit" => "suppression allowed".into(),
        "rows_needing_suppression" => "rows that would have to be left out".into(),
        "share_needing_suppression" => "share that would have to be left out".into(),
        "rows_for_least_loss" => "rows left out by the finest release".into(),
        "sensitive_metric" => "SA distance".into(),
        "ground_distance" => "ground distance".into(),
        other => other.replace('_', " "),
    }
}

/// What a figure says, in one line with what good looks like; `None` for a
/// parameter (its name is enough).
pub fn key_meaning(key: &str) -> Option<&'static str> {
    Some(match key {
        "max_risk" => {
            "the highest probability, over every victim, that the attacker \
             infers an SA value close to the victim's (within ε); at most δ passes"
        }
        "vulnerability" => "the share of victims whose risk is over δ; 0 passes",
        "max_breach_probability" => {
            "the highest probability that the attacker places a victim's SA value \
             within ε of the truth; at most 1/m passes"
        }
        "achieved_m" => "the largest m the release satisfies; at least the asked m passes",
        "max_emd" => {
            "how far the SA distribution of a candidate set is from the whole \
             table's (0 = the same); at most t passes"
        }
        "min_size" => "the fewest rows an attacker can narrow a victim down to; at least k passes",
        "l" => {
            "the fewest well-represented SA values among a victim's candidates; at least l passes"
        }
        "max_frequency" => "the largest share one SA value has in a group; at most α passes",
        "max_k" | "max_l" => "the whole table as one group reaches it: ask for at most this",
        "share_needing_suppression" => "the same as a share of the rows (1 = all of them)",
        "rows_for_least_loss" => {
            "rows the release with the least information loss leaves out; a \
             suppression_limit of this share publishes it instead of a coarser one"
        }
        "suppression_limit" => "the share of rows the job allowed to be left out",
        "rows_needing_suppression" => {
            "rows the job would have to leave out; a suppression_limit at least this \
             share lets it succeed"
        }
        _ => return None,
    })
}

/// A JSON value as text: numbers rounded for reading, strings as they are,
/// lists joined, objects as `name = value` pairs, null as a dash.
pub fn value_text(v: &Value) -> String {
    match v {
        Value::Null => "–".into(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.into(),
        Value::Number(n) => n
            .as_i64()
            .map(|i| i.to_string())
            .or_else(|| n.as_f64().map(number))
            .unwrap_or_else(|| n.to_string()),
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(value_text).collect::<Vec<_>>().join(", "),
        Value::Object(map) => in_reading_order(map)
            .into_iter()
            .map(|(k, v)| match v {
                Value::Object(_) | Value::Array(_) => {
                    format!("{} ({})", key_name(k), value_text(v))
                }
                _ => format!("{} = {}", key_name(k), value_text(v)),
            })
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// A model's parameters in the order the papers write them ((ε, m),
/// (ε, δ)^k, …), the rest after them by name.
fn in_reading_order(map: &serde_json::Map<String, Value>) -> Vec<(&String, &Value)> {
    const FIRST: [&str; 8] = ["epsilon", "m", "delta", "k", "l", "t", "alpha", "c"];
    let rank = |k: &str| FIRST.iter().position(|f| *f == k).unwrap_or(FIRST.len());
    let mut entries: Vec<(&String, &Value)> = map.iter().collect();
    entries.sort_by(|a, b| rank(a.0).cmp(&rank(b.0)).then(a.0.cmp(b.0)));
    entries
}

/// The entries of a JSON object as (name, value, meaning) rows; anything
/// else is one row named `value`.
pub fn facts(v: &Value) -> Vec<(String, String, Option<&'static str>)> {
    match v {
        Value::Object(map) => in_reading_order(map)
            .into_iter()
            .map(|(k, v)| (key_name(k), value_text(v), key_meaning(k)))
            .collect(),
        Value::Null => Vec::new(),
        other => vec![("value".into(), value_text(other), None)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn figures_read_as_words_not_json() {
        let v = json!({"max_risk": 0.5, "vulnerability": 0.0});
        let text = value_text(&v);
        assert_eq!(
            text,
            "highest risk of a victim = 0.5, share of victims over the bound = 0"
        );
        for raw in ['{', '}', '"', ':'] {
            assert!(!text.contains(raw), "{text}");
        }
        let rows = facts(&v);
        assert_eq!(rows.len(), 2);
        assert!(rows.iter().all(|(_, _, meaning)| meaning.is_some()));
    }

    #[test]
    fn parameters_use_the_papers_letters() {
        let v = json!({"epsilon": 0.02, "delta": 0.5, "k": 10});
        assert_eq!(value_text(&v), "ε = 0.02, δ = 0.5, k = 10");
        assert_eq!(
            value_text(&json!({"sensitive_metric": {"kind": "numeric"}})),
            "SA distance (kind = numeric)"
        );
        assert_eq!(
            model_name("dissimilarity"),
            "(ε,δ)^k-dissimilarity (XColor)"
        );
        assert_eq!(value_text(&Value::Null), "–");
    }
}
