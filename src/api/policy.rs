//! A tenant's release policy (`GET`/`PUT /v1/settings/release-policy`): the
//! thresholds the report's verdict applies (`crate::release_report::verdict`) and
//! whether publication needs an approval, and four eyes.
//!
//! The body is parsed once into [`ReleasePolicy`]: every field is
//! optional and takes its documented default when left out (a `PUT` says
//! the whole policy; there is no partial update to reason about), an
//! unknown field or a value out of range is a 422 naming its pointer.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

/// The thresholds and rules a tenant's releases are judged by.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = ReleasePolicy)]
pub struct ReleasePolicy {
    /// The largest prosecutor risk of a record of the release in the
    /// attacker's view (1 / its fewest candidates). Default 0.1 (k = 10);
    /// above it the release is not publishable.
    pub max_prosecutor_risk: f64,
    /// The largest share of published records that an insensitive column
    /// (published as is, not listed as a QI) leaves in groups of fewer than
    /// the model's k when an attacker knows it. Default 0.05; above it the
    /// release is not publishable.
    pub max_below_k_share: f64,
    /// The largest share of the population estimated unique after release
    /// (only judged when the dataset gives its `population`). Default 0.01;
    /// above it the release is not publishable.
    pub max_population_uniques_share: f64,
    /// The largest share of rows the model may leave out. Default 0.05;
    /// above it the release is publishable with conditions (say so beside
    /// the data).
    pub max_suppressed_share: f64,
    /// The largest median relative count-query error (a fraction: 0.5 is
    /// 50 %), over the report's workloads. Default 0.5; above it the release
    /// is publishable with conditions (counts from it are unreliable).
    pub max_median_query_error: f64,
    /// `GET …/result?purpose=publication` needs an approval. Default true.
    pub require_approval: bool,
    /// An approval's key must differ from the key that submitted the job.
    /// Default true.
    pub four_eyes: bool,
}

impl Default for ReleasePolicy {
    fn default() -> Self {
        ReleasePolicy {
            max_prosecutor_risk: 0.1,
            max_below_k_share: 0.05,
            max_population_uniques_share: 0.01,
            max_suppressed_share: 0.05,
            max_median_query_error: 0.5,
            require_approval: true,
            four_eyes: true,
        }
    }
}

/// The body of `PUT /v1/settings/release-policy`: every field optional (a
/// field left out takes its default, not its previous value); `source`
/// and `updated_at` may be sent back as served and are ignored. Parsed by
/// [`parse_policy`]; this type documents it and checks it in tests.
#[derive(Debug, Clone, Copy, PartialEq, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = ReleasePolicyRequest)]
pub struct ReleasePolicyRequest {
    #[schema(minimum = 0, maximum = 1)]
    pub max_prosecutor_risk: Option<f64>,
    #[schema(minimum = 0, maximum = 1)]
    pub max_below_k_share: Option<f64>,
    #[schema(minimum = 0, maximum = 1)]
    pub max_population_uniques_share: Option<f64>,
    #[schema(minimum = 0, maximum = 1)]
    pub max_suppressed_share: Option<f64>,
    #[schema(minimum = 0)]
    pub max_median_query_error: Option<f64>,
    pub require_approval: Option<bool>,
    pub four_eyes: Option<bool>,
    /// Ignored (read-only).
    pub source: Option<PolicySource>,
    /// Ignored (read-only).
    pub updated_at: Option<chrono::DateTime<chrono::Utc>>,
}

/// The policy as served, with where it comes from.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = ReleasePolicyResource)]
pub struct ReleasePolicyResource {
    #[serde(flatten)]
    pub policy: ReleasePolicy,
    /// `default` (the tenant never set one) or `tenant`.
    pub source: PolicySource,
    /// When the tenant last set it; null for the defaults.
    #[schema(required = true)]
    pub updated_at: Option<chrono::DateTime<chrono::Utc>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PolicySource {
    Default,
    Tenant,
}

/// A field error of a policy body: (JSON pointer, message).
pub type PolicyError = (String, String);

/// The share fields, each in [0, 1].
const SHARES: [&str; 4] = [
    "max_prosecutor_risk",
    "max_below_k_share",
    "max_population_uniques_share",
    "max_suppressed_share",
];

/// Parses a `PUT` body: every error found, each with its pointer.
pub fn parse_policy(body: &Value) -> Result<ReleasePolicy, Vec<PolicyError>> {
    let Some(obj) = body.as_object() else {
        return Err(vec![(
            String::new(),
            "the release policy must be a JSON object".into(),
        )]);
    };
    let mut p = ReleasePolicy::default();
    let mut errors = Vec::new();
    for (name, value) in obj {
        let pointer = format!("/{}", name.replace('~', "~0").replace('/', "~1"));
        let number = || value.as_f64().filter(|x| x.is_finite());
        let mut err = |m: String| errors.push((pointer.clone(), m));
        match name.as_str() {
            n if SHARES.contains(&n) => match number() {
                Some(x) if (0.0..=1.0).contains(&x) => match n {
                    "max_prosecutor_risk" if x == 0.0 => {
                        err("must be above 0 (no release has a prosecutor risk of 0)".into())
                    }
                    "max_prosecutor_risk" => p.max_prosecutor_risk = x,
                    "max_below_k_share" => p.max_below_k_share = x,
                    "max_population_uniques_share" => p.max_population_uniques_share = x,
                    _ => p.max_suppressed_share = x,
                },
                _ => err(format!("must be a number from 0 to 1, got {value}")),
            },
            "max_median_query_error" => match number() {
                Some(x) if x >= 0.0 => p.max_median_query_error = x,
                _ => err(format!(
                    "must be a number of at least 0 (a fraction: 0.5 is 50 %), got {value}"
                )),
            },
            "require_approval" | "four_eyes" => match value.as_bool() {
                Some(b) if name == "four_eyes" => p.four_eyes = b,
                Some(b) => p.require_approval = b,
                None => err(format!("must be true or false, got {value}")),
            },
            // Read-only fields of the served resource, sent back as read.
            "source" | "updated_at" => {}
            _ => err(format!(
                "unknown field; the policy's fields are {}, max_median_query_error, \
                 require_approval and four_eyes",
                SHARES.join(", ")
            )),
        }
    }
    if errors.is_empty() {
        Ok(p)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_empty_body_is_the_defaults_and_fields_override_them() {
        assert_eq!(parse_policy(&json!({})).unwrap(), ReleasePolicy::default());
        let p = parse_policy(&json!({"max_prosecutor_risk": 0.5, "four_eyes": false,
                                     "max_median_query_error": 2.5}))
        .unwrap();
        assert_eq!(p.max_prosecutor_risk, 0.5);
        assert!(!p.four_eyes);
        assert!(p.require_approval);
        assert_eq!(p.max_median_query_error, 2.5);
    }

    #[test]
    fn the_served_resource_round_trips() {
        let served = serde_json::to_value(ReleasePolicyResource {
            policy: ReleasePolicy::default(),
            source: PolicySource::Default,
            updated_at: None,
        })
        .unwrap();
        assert_eq!(served["source"], "default");
        assert_eq!(parse_policy(&served).unwrap(), ReleasePolicy::default());
    }

    #[test]
    fn every_bad_field_is_named_by_its_pointer() {
        let errors = parse_policy(&json!({
            "max_prosecutor_risk": 0, "max_below_k_share": 1.5, "max_suppressed_share": "x",
            "max_median_query_error": -1, "four_eyes": "yes", "colour/x": 1
        }))
        .unwrap_err();
        let pointers: Vec<&str> = errors.iter().map(|(p, _)| p.as_str()).collect();
        for p in [
            "/max_prosecutor_risk",
            "/max_below_k_share",
            "/max_suppressed_share",
            "/max_median_query_error",
            "/four_eyes",
            "/colour~1x",
        ] {
            assert!(pointers.contains(&p), "{p} in {pointers:?}");
        }
        assert_eq!(parse_policy(&json!([1])).unwrap_err()[0].0, "");
    }
}
