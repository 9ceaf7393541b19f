//! `sensitive_metric` (docs/api.md §Jobs) → [`MetricSpec`].

use std::collections::BTreeMap;

use proxima_core::error::CoreResult;
use proxima_core::metric::{LpNorm, MetricSpec};
use proxima_core::CoreError;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = Metric)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum MetricDto {
    // Empty struct variants, not unit variants: serde ignores extra fields
    // on unit variants of a tagged enum even with deny_unknown_fields.
    Absolute {},
    Relative {},
    Equal {},
    Hierarchical {},
    Lp {
        /// 1, 2 or `"inf"`; default 1.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(schema_with = super::doc_schemas::lp_p)]
        p: Option<Value>,
        /// Weight per sensitive column; default equal weights.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        weights: BTreeMap<String, f64>,
    },
    Variational {},
}

impl MetricDto {
    /// Converts; `at` is the metric's pointer (`/sensitive_metric`,
    /// `/checks/3/sensitive_metric`). Weights are checked against the
    /// table's SA columns by the core (`SensitiveSpace::new`).
    pub fn to_spec(&self, at: &str) -> CoreResult<MetricSpec> {
        Ok(match self {
            MetricDto::Absolute {} => MetricSpec::Absolute,
            MetricDto::Relative {} => MetricSpec::Relative,
            MetricDto::Equal {} => MetricSpec::Equal,
            MetricDto::Hierarchical {} => MetricSpec::Hierarchical,
            MetricDto::Variational {} => MetricSpec::Variational,
            MetricDto::Lp { p, weights } => MetricSpec::Lp {
                p: lp_norm(p.as_ref(), &format!("{at}/p"))?,
                weights: weights.iter().map(|(k, v)| (k.clone(), *v)).collect(),
            },
        })
    }

    /// The DTO of a core metric (for echoing a job's resolved metric).
    pub fn from_spec(spec: &MetricSpec) -> MetricDto {
        match spec {
            MetricSpec::Absolute => MetricDto::Absolute {},
            MetricSpec::Relative => MetricDto::Relative {},
            MetricSpec::Equal => MetricDto::Equal {},
            MetricSpec::Hierarchical => MetricDto::Hierarchical {},
            MetricSpec::Variational => MetricDto::Variational {},
            MetricSpec::Lp { p, weights } => MetricDto::Lp {
                p: Some(match p {
                    LpNorm::L1 => Value::from(1),
                    LpNorm::L2 => Value::from(2),
                    LpNorm::LInf => Value::from("inf"),
                }),
                weights: weights.iter().cloned().collect(),
            },
        }
    }
}

fn lp_norm(p: Option<&Value>, pointer: &str) -> CoreResult<LpNorm> {
    let Some(p) = p else {
        return Ok(LpNorm::L1);
    };
    match p {
        Value::Number(n) if n.as_f64() == Some(1.0) => Ok(LpNorm::L1),
        Value::Number(n) if n.as_f64() == Some(2.0) => Ok(LpNorm::L2),
        Value::String(s) if s == "inf" => Ok(LpNorm::LInf),
        other => Err(CoreError::invalid_parameters(
            pointer,
            format!("p must be 1, 2 or \"inf\", got {other}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::FieldPointer;
    use proxima_core::ErrorKind;

    fn parse(json: &str) -> CoreResult<MetricDto> {
        super::super::json::from_json(
            json.as_bytes(),
            "the metric",
            "/sensitive_metric",
            ErrorKind::InvalidParameters,
        )
    }

    #[test]
    fn kinds_convert() {
        for (json, spec) in [
            (r#"{"kind": "absolute"}"#, MetricSpec::Absolute),
            (r#"{"kind": "relative"}"#, MetricSpec::Relative),
            (r#"{"kind": "equal"}"#, MetricSpec::Equal),
            (r#"{"kind": "hierarchical"}"#, MetricSpec::Hierarchical),
            (r#"{"kind": "variational"}"#, MetricSpec::Variational),
        ] {
            assert_eq!(parse(json).unwrap().to_spec("/m").unwrap(), spec);
        }
    }

    #[test]
    fn lp_defaults_to_p1_and_equal_weights() {
        let spec = parse(r#"{"kind": "lp"}"#).unwrap().to_spec("/m").unwrap();
        assert_eq!(
            spec,
            MetricSpec::Lp {
                p: LpNorm::L1,
                weights: vec![]
            }
        );
    }

    #[test]
    fn lp_p_and_weights_convert() {
        let dto = parse(r#"{"kind": "lp", "p": "inf", "weights": {"b": 0.4, "a": 0.6}}"#).unwrap();
        let MetricSpec::Lp { p, mut weights } = dto.to_spec("/m").unwrap() else {
            panic!("not lp");
        };
        assert_eq!(p, LpNorm::LInf);
        weights.sort_by(|x, y| x.0.cmp(&y.0));
        assert_eq!(weights, vec![("a".into(), 0.6), ("b".into(), 0.4)]);
        let two = parse(r#"{"kind": "lp", "p": 2}"#).unwrap();
        assert!(matches!(
            two.to_spec("/m").unwrap(),
            MetricSpec::Lp { p: LpNorm::L2, .. }
        ));
        // Round trip through the echo form.
        assert_eq!(
            MetricDto::from_spec(&dto.to_spec("/m").unwrap()).to_spec("/m"),
            dto.to_spec("/m")
        );
    }

    #[test]
    fn bad_p_is_reported_at_its_pointer() {
        for p in ["3", r#""infinity""#, "1.5"] {
            let dto = parse(&format!(r#"{{"kind": "lp", "p": {p}}}"#)).unwrap();
            let e = dto.to_spec("/sensitive_metric").unwrap_err();
            assert_eq!(e.kind, ErrorKind::InvalidParameters);
            assert_eq!(e.errors[0].pointer(), "/sensitive_metric/p");
            assert!(e.message.contains("1, 2 or \"inf\""), "{}", e.message);
        }
    }

    #[test]
    fn unknown_kinds_and_fields_are_rejected() {
        let e = parse(r#"{"kind": "cosine"}"#).unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/sensitive_metric/kind");
        let e = parse(r#"{"kind": "lp", "wieghts": {}}"#).unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/sensitive_metric/wieghts");
    }
}

#[cfg(test)]
mod unit_variant_tests {
    use super::*;
    use crate::api::FieldPointer;
    use proxima_core::ErrorKind;

    #[test]
    fn parameters_on_a_parameterless_metric_are_rejected() {
        let e = super::super::json::from_json::<MetricDto>(
            br#"{"kind": "absolute", "p": 1}"#,
            "the metric",
            "/sensitive_metric",
            ErrorKind::InvalidParameters,
        )
        .unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidParameters);
        assert_eq!(e.errors[0].pointer(), "/sensitive_metric/p");
    }
}
