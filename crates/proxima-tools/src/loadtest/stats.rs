//! What a load test records: every request's latency by endpoint (exact
//! percentiles over all samples, no bucketing) and the responses by status.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Serialize;

/// Latency samples of one endpoint, in microseconds.
#[derive(Debug, Default, Clone)]
pub struct Samples {
    micros: Vec<u64>,
    statuses: BTreeMap<String, u64>,
}

/// Percentiles of one endpoint, in milliseconds.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Summary {
    pub endpoint: String,
    pub requests: u64,
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    /// Responses by status code (`"200"`), plus `"error"` for requests
    /// that got no response (connection refused or reset, timeout).
    pub statuses: BTreeMap<String, u64>,
}

impl Samples {
    pub fn record(&mut self, latency: Duration, status: Option<u16>) {
        self.micros.push(latency.as_micros() as u64);
        let key = status.map_or_else(|| "error".to_string(), |s| s.to_string());
        *self.statuses.entry(key).or_default() += 1;
    }

    pub fn merge(&mut self, other: Samples) {
        self.micros.extend(other.micros);
        for (k, v) in other.statuses {
            *self.statuses.entry(k).or_default() += v;
        }
    }

    pub fn summary(&self, endpoint: &str) -> Summary {
        let mut sorted = self.micros.clone();
        sorted.sort_unstable();
        let ms = |q: f64| percentile(&sorted, q) as f64 / 1000.0;
        Summary {
            endpoint: endpoint.to_string(),
            requests: sorted.len() as u64,
            p50_ms: ms(0.50),
            p90_ms: ms(0.90),
            p99_ms: ms(0.99),
            max_ms: ms(1.0),
            statuses: self.statuses.clone(),
        }
    }
}

/// The nearest-rank percentile of sorted samples (0 when there are none):
/// the smallest sample with at least `q` of all samples at or below it.
pub fn percentile(sorted: &[u64], q: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

impl Summary {
    /// Responses with a 5xx status.
    pub fn server_errors(&self) -> u64 {
        self.statuses
            .iter()
            .filter(|(k, _)| k.starts_with('5'))
            .map(|(_, v)| v)
            .sum()
    }

    /// Requests that got no response.
    pub fn transport_errors(&self) -> u64 {
        self.statuses.get("error").copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let s: Vec<u64> = (1..=100).collect();
        assert_eq!(percentile(&s, 0.5), 50);
        assert_eq!(percentile(&s, 0.99), 99);
        assert_eq!(percentile(&s, 1.0), 100);
        assert_eq!(percentile(&[7], 0.5), 7);
        assert_eq!(percentile(&[], 0.5), 0);
        assert_eq!(percentile(&[1, 2, 3], 0.0), 1);
    }

    #[test]
    fn summaries_count_statuses_and_errors() {
        let mut a = Samples::default();
        a.record(Duration::from_millis(2), Some(200));
        a.record(Duration::from_millis(4), Some(503));
        let mut b = Samples::default();
        b.record(Duration::from_millis(6), None);
        a.merge(b);
        let s = a.summary("GET /x");
        assert_eq!(s.requests, 3);
        assert_eq!(s.p50_ms, 4.0);
        assert_eq!(s.max_ms, 6.0);
        assert_eq!(s.server_errors(), 1);
        assert_eq!(s.transport_errors(), 1);
        assert_eq!(s.statuses["200"], 1);
    }
}
