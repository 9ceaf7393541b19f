//! `POST /v1/datasets/{id}/feasibility` (docs/api.md §Feasibility): the request,
//! its conversion into the core's `FeasibilityRequest`, and the response
//! DTO of the core's answer.

use proxima_core::epsilon_m;
use proxima_core::error::CoreResult;
use proxima_core::params::{EpsilonM, M};
use proxima_core::run::{feasibility_with_progress, FeasibilityAnswer, FeasibilityRequest};
use proxima_core::xcolor::{deliverable_max_delta, USEFUL_K};
use proxima_core::{CoreError, ErrorKind, Field, Table};
use serde::{Deserialize, Serialize};
use serde_json::Number;
use utoipa::ToSchema;

use super::metric::MetricDto;
use super::model::{epsilon_param, NeighborhoodDto};
use super::number::integer;
use super::problem::FieldPointer;

/// `POST /v1/datasets/{id}/feasibility` (docs/api.md §Feasibility).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = FeasibilityRequest)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum FeasibilityRequestDto {
    /// `epsilon` (→ max m, Theorem 1), `m` (→ sup ε, Theorem 2), or both
    /// (→ max m for ε, and the minimum suppression any release at (ε, m)
    /// needs).
    EpsilonM {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Option<f64>)]
        epsilon: Option<Number>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schema(value_type = Option<u64>, minimum = 1)]
        m: Option<Number>,
        #[serde(default)]
        neighborhood: NeighborhoodDto,
    },
    Dissimilarity {
        #[schema(value_type = f64)]
        epsilon: Number,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sensitive_metric: Option<MetricDto>,
    },
}

impl FeasibilityRequestDto {
    pub fn from_json(bytes: &[u8]) -> CoreResult<FeasibilityRequestDto> {
        super::json::from_json(bytes, "the request", "", ErrorKind::InvalidParameters)
    }

    pub fn to_question(&self) -> CoreResult<Question> {
        match self {
            FeasibilityRequestDto::EpsilonM {
                epsilon,
                m,
                neighborhood,
            } => {
                let m = m
                    .as_ref()
                    .map(|m| M::new(integer(m, "m", "/m")?, "/m"))
                    .transpose()?;
                match (epsilon, m) {
                    (Some(e), m) => {
                        let epsilon = epsilon_param(e, "/epsilon")?;
                        // Reuse EpsilonM's relative-ε check (m = 1 when not given).
                        let any_m = m.map_or_else(|| M::new(1, "/m"), Ok)?;
                        EpsilonM::new(epsilon, any_m, (*neighborhood).into(), "/epsilon")?;
                        Ok(Question {
                            request: FeasibilityRequest::MaxM {
                                epsilon,
                                neighborhood: (*neighborhood).into(),
                            },
                            suppression_m: m,
                        })
                    }
                    (None, Some(m)) => Ok(FeasibilityRequest::MaxEpsilon {
                        m,
                        neighborhood: (*neighborhood).into(),
                    }
                    .into()),
                    (None, None) => Err(CoreError::invalid_parameters(
                        "/epsilon",
                        "give epsilon (to learn the largest m), m (to learn the largest epsilon) or \
                         both (to learn also the least share of rows any release must leave out)",
                    )),
                }
            }
            FeasibilityRequestDto::Dissimilarity {
                epsilon,
                sensitive_metric,
            } => Ok(FeasibilityRequest::Dissimilarity {
                epsilon: epsilon_param(epsilon, "/epsilon")?,
                metric: sensitive_metric
                    .as_ref()
                    .map(|m| m.to_spec("/sensitive_metric"))
                    .transpose()?,
            }
            .into()),
        }
    }
}

/// A parsed question: the core's, and the m of an (ε, m) question that
/// gave both (its minimum suppression is asked too).
#[derive(Debug, Clone)]
pub struct Question {
    pub request: FeasibilityRequest,
    pub suppression_m: Option<M>,
}

impl From<FeasibilityRequest> for Question {
    fn from(request: FeasibilityRequest) -> Question {
        Question {
            request,
            suppression_m: None,
        }
    }
}

/// The answer (docs/api.md §Feasibility): one of three shapes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = FeasibilityAnswer)]
#[serde(untagged)]
pub enum FeasibilityResponseDto {
    /// Theorem 1: the largest m for ε, and maxsize(T) — a per-group upper
    /// bound — and the m the service delivers for sure.
    #[schema(title = "MaxMFeasibility")]
    MaxM {
        max_m: u64,
        maxsize: u64,
        /// Always `per_group_upper_bound`: `max_m` holds for partitions
        /// judged group by group, not in the attacker's view.
        bound: BoundDto,
        deliverable: DeliverableMDto,
        /// Only when the question gave m too: a **lower bound** on the
        /// rows every release satisfying (ε, m) must leave out, whatever
        /// the engine. 0 when m ≤ `max_m`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        minimum_suppression: Option<MinimumSuppressionDto>,
    },
    /// Theorem 2: every ε strictly below this reaches m (a per-group upper
    /// bound). `null` when ε is unbounded (m = 1 with absolute
    /// neighbourhoods).
    #[schema(title = "MaxEpsilonFeasibility")]
    MaxEpsilon {
        /// Always present (null or a number), so the three shapes are told
        /// apart by their required fields.
        #[schema(required = true)]
        max_epsilon_exclusive: Option<f64>,
        bound: BoundDto,
        /// `null` when no ε delivers m for sure (a value repeats more than
        /// n/m times).
        #[schema(required = true)]
        deliverable: Option<DeliverableEpsilonDto>,
    },
    /// Inequality 4 of XColor: Θ and the (k, δ) pairs Theorem 3 guarantees
    /// per group, and the δ the service delivers for sure.
    #[schema(title = "DissimilarityFeasibility")]
    Dissimilarity {
        max_degree: u64,
        rows: u64,
        /// What the theorem guarantees for partitions judged group by
        /// group: an upper bound in the attacker's view.
        guaranteed: Vec<GuaranteedPairDto>,
        bound: BoundDto,
        /// What the service delivers for sure on this table, in the
        /// attacker's view, without suppression.
        deliverable: Vec<DeliverablePairDto>,
    },
}

/// What the theorems' figures are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = FeasibilityBound)]
pub enum BoundDto {
    /// They bound partitions judged group by group; in the attacker's view
    /// (docs/design.md §4) a job between `deliverable` and this figure may succeed
    /// or fail with `model_not_satisfied`.
    PerGroupUpperBound,
}

/// The m the service delivers for sure on this table, without suppression:
/// the whole table is a valid group in the attacker's view, so a job at
/// any m up to this one succeeds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = DeliverableM)]
pub struct DeliverableMDto {
    pub max_m: u64,
    /// The suppression this figure assumes: 0.
    pub suppression_limit: f64,
}

/// The largest ε the service delivers for sure for this m, without
/// suppression (to bisection precision, never above a working value).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = DeliverableEpsilon)]
pub struct DeliverableEpsilonDto {
    /// `null` when unbounded (m = 1).
    #[schema(required = true)]
    pub max_epsilon: Option<f64>,
    pub suppression_limit: f64,
}

/// A lower bound on the suppression any release satisfying (ε, m) needs
/// (docs/api.md §Feasibility): in every group, an SA window whose ends are
/// neighbours holds at most 1/m of the group's rows, hence at most 1/m of
/// the published rows; no subset of the table larger than
/// `max_published_rows` meets that. The suppression a job actually needs
/// may be larger (the engine's, not the data's); never smaller.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = MinimumSuppression)]
pub struct MinimumSuppressionDto {
    pub m: u64,
    /// At least this share of the rows is left out by any release at
    /// (ε, m) (0 to 1).
    pub share: f64,
    /// At least this many rows are left out.
    pub rows: u64,
    /// No release at (ε, m) publishes more rows.
    pub max_published_rows: u64,
    /// Always `lower_bound`.
    pub bound: LowerBoundDto,
}

/// What `minimum_suppression` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = MinimumSuppressionBound)]
pub enum LowerBoundDto {
    /// Every release satisfying the model, judged group by group (and so
    /// every release Proxima publishes for it, whose boxes are disjoint),
    /// leaves out at least this much.
    LowerBound,
}

/// A (k, δ) pair Theorem 3 of XColor guarantees for a partition judged
/// group by group: every group of at least k rows can have at most
/// `max_delta` of its rows' SA neighbourhoods shared — an upper bound in
/// the attacker's view, not a promise about a job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = GuaranteedPair)]
pub struct GuaranteedPairDto {
    pub k: u64,
    pub max_delta: f64,
}

/// A (k, δ) pair the service delivers for sure on this table: a job with
/// this k and any δ up to `max_delta` (no suppression) succeeds in the
/// attacker's view — the whole table is a valid group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[schema(as = DeliverablePair)]
pub struct DeliverablePairDto {
    pub k: u64,
    pub max_delta: f64,
}

/// Answers a request on a table (`proxima_core::run::feasibility`), with
/// what the service delivers for sure beside the theorems' bounds.
pub fn answer(question: &Question, table: &Table) -> CoreResult<FeasibilityResponseDto> {
    answer_with_progress(question, table, proxima_core::Progress::none())
}

/// [`answer`], cancellable at the core's checkpoints (the dissimilarity
/// question's degree index is quadratic on wide numeric SAs). Errors point
/// into the feasibility request's own body (see [`own_pointers`]).
pub fn answer_with_progress(
    question: &Question,
    table: &Table,
    progress: proxima_core::Progress<'_>,
) -> CoreResult<FeasibilityResponseDto> {
    answer_in_core_terms(question, table, progress).map_err(own_pointers)
}

/// The core speaks of a job's body, where the model sits under `/model`;
/// the feasibility request is the model itself, flat (`{"kind":
/// "epsilon_m", "epsilon": …}`). `/model/epsilon` becomes `/epsilon`, and
/// `/model` (the model as a whole: e.g. it needs a numeric SA) becomes
/// `/kind`, the field that chose it.
fn own_pointers(mut e: CoreError) -> CoreError {
    for f in &mut e.errors {
        let pointer = f.pointer();
        if pointer == "/model" {
            f.field = Field::Pointer("/kind".into());
        } else if let Some(rest) = pointer.strip_prefix("/model/") {
            f.field = Field::Pointer(format!("/{rest}"));
        }
    }
    e
}

fn answer_in_core_terms(
    question: &Question,
    table: &Table,
    progress: proxima_core::Progress<'_>,
) -> CoreResult<FeasibilityResponseDto> {
    let request = &question.request;
    let bound = BoundDto::PerGroupUpperBound;
    Ok(match feasibility_with_progress(table, request, progress)? {
        FeasibilityAnswer::MaxM(reach) => {
            let FeasibilityRequest::MaxM {
                epsilon,
                neighborhood,
            } = request
            else {
                return Err(CoreError::internal("a max_m answer to another question"));
            };
            let sa = single_sa(table)?;
            let minimum_suppression = question
                .suppression_m
                .map(|m| -> CoreResult<_> {
                    let b = epsilon_m::minimum_suppression(sa, *epsilon, m, *neighborhood)?;
                    Ok(MinimumSuppressionDto {
                        m: m.get() as u64,
                        share: b.share(),
                        rows: b.suppressed_rows() as u64,
                        max_published_rows: b.max_published as u64,
                        bound: LowerBoundDto::LowerBound,
                    })
                })
                .transpose()?;
            FeasibilityResponseDto::MaxM {
                max_m: reach.max_m as u64,
                maxsize: reach.maxsize as u64,
                bound,
                deliverable: DeliverableMDto {
                    max_m: epsilon_m::deliverable_max_m(sa, *epsilon, *neighborhood)? as u64,
                    suppression_limit: 0.0,
                },
                minimum_suppression,
            }
        }
        FeasibilityAnswer::MaxEpsilon(sup) => {
            let FeasibilityRequest::MaxEpsilon { m, neighborhood } = request else {
                return Err(CoreError::internal(
                    "a max_epsilon answer to another question",
                ));
            };
            let sa = single_sa(table)?;
            let delivered = epsilon_m::deliverable_max_epsilon(sa, *m, *neighborhood)?;
            FeasibilityResponseDto::MaxEpsilon {
                max_epsilon_exclusive: sup.is_finite().then_some(sup),
                bound,
                deliverable: delivered.map(|e| DeliverableEpsilonDto {
                    max_epsilon: e.is_finite().then_some(e),
                    suppression_limit: 0.0,
                }),
            }
        }
        FeasibilityAnswer::Dissimilarity(f) => {
            let delivered = deliverable_max_delta(f.max_degree, f.rows);
            FeasibilityResponseDto::Dissimilarity {
                max_degree: f.max_degree as u64,
                rows: f.rows as u64,
                deliverable: USEFUL_K
                    .iter()
                    .filter(|&&k| k <= f.rows)
                    .filter_map(|&k| {
                        delivered.map(|max_delta| DeliverablePairDto {
                            k: k as u64,
                            max_delta,
                        })
                    })
                    .collect(),
                guaranteed: f
                    .guaranteed
                    .iter()
                    .map(|p| GuaranteedPairDto {
                        k: p.k as u64,
                        max_delta: p.max_delta,
                    })
                    .collect(),
                bound,
            }
        }
    })
}

/// The single numeric SA an (ε,m) question needs (`feasibility` has
/// already refused the others).
fn single_sa(table: &Table) -> CoreResult<&[f64]> {
    table
        .single_numeric_sa()
        .ok_or_else(|| CoreError::internal("(ε,m) feasibility without a numeric SA"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proxima_core::params::Neighborhood;
    use proxima_core::table::{QiValues, SaValues};
    use serde_json::json;

    fn table(sa: Vec<f64>) -> Table {
        let n = sa.len();
        Table::from_columns(
            vec![(
                "q".into(),
                QiValues::Numeric((0..n).map(|i| i as f64).collect()),
            )],
            vec![("s".into(), SaValues::Numeric(sa))],
        )
    }

    #[test]
    fn feasibility_questions() {
        let q = FeasibilityRequestDto::from_json(br#"{"kind": "epsilon_m", "epsilon": 4500}"#)
            .unwrap()
            .to_question()
            .unwrap();
        assert!(
            matches!(q.request, FeasibilityRequest::MaxM { epsilon, neighborhood: Neighborhood::Absolute } if epsilon.get() == 4500.0)
        );
        assert!(q.suppression_m.is_none());
        let q = FeasibilityRequestDto::from_json(
            br#"{"kind": "epsilon_m", "m": 5, "neighborhood": "relative"}"#,
        )
        .unwrap()
        .to_question()
        .unwrap();
        assert!(
            matches!(q.request, FeasibilityRequest::MaxEpsilon { m, neighborhood: Neighborhood::Relative } if m.get() == 5)
        );
        // Both: Theorem 1 for ε, and the minimum suppression at (ε, m).
        let q = FeasibilityRequestDto::from_json(br#"{"kind": "epsilon_m", "epsilon": 1, "m": 5}"#)
            .unwrap()
            .to_question()
            .unwrap();
        assert!(matches!(q.request, FeasibilityRequest::MaxM { .. }));
        assert_eq!(q.suppression_m.map(|m| m.get()), Some(5));
        let e = FeasibilityRequestDto::from_json(br#"{"kind": "epsilon_m"}"#)
            .unwrap()
            .to_question()
            .unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/epsilon");
        let e = FeasibilityRequestDto::from_json(br#"{"kind": "epsilon_m", "epsilon": 1, "m": 0}"#)
            .unwrap()
            .to_question()
            .unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/m");
        let e = FeasibilityRequestDto::from_json(
            br#"{"kind": "epsilon_m", "epsilon": 2, "neighborhood": "relative"}"#,
        )
        .unwrap()
        .to_question()
        .unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/epsilon");
        let q = FeasibilityRequestDto::from_json(br#"{"kind": "dissimilarity", "epsilon": 0.1}"#)
            .unwrap()
            .to_question()
            .unwrap();
        assert!(matches!(
            q.request,
            FeasibilityRequest::Dissimilarity { metric: None, .. }
        ));
    }

    #[test]
    fn answers_have_the_api_shapes() {
        // 1000, 1100, …, 1900.
        let t = table((0..10).map(|i| 1000.0 + 100.0 * i as f64).collect());
        let ask = |json: &str| {
            let q = FeasibilityRequestDto::from_json(json.as_bytes())
                .unwrap()
                .to_question()
                .unwrap();
            serde_json::to_value(answer(&q, &t).unwrap()).unwrap()
        };
        let max_m = ask(r#"{"kind": "epsilon_m", "epsilon": 100}"#);
        // Values 100 apart: the largest covering set (Fig. 1, width ε)
        // holds two of them, so m ≤ ⌊10 / 2⌋.
        // In the attacker's view the whole table must pass: each inner
        // value has 3 values in [x − 100, x + 100], so m ≤ ⌊10 / 3⌋ for sure.
        assert_eq!(
            max_m,
            json!({"max_m": 5, "maxsize": 2, "bound": "per_group_upper_bound",
                   "deliverable": {"max_m": 3, "suppression_limit": 0.0}})
        );
        // Both ε and m: the lower bound beside. m = 5 ≤ max_m: nothing is
        // forced out. m = 6: p ≤ 10 published rows allow ⌊p/6⌋ ≤ 1 per
        // window of width 100, i.e. values more than 100 apart: at most 5
        // (1000, 1200, …, 1800) < 6, so no release publishes anything.
        let both = ask(r#"{"kind": "epsilon_m", "epsilon": 100, "m": 5}"#);
        assert_eq!(
            both["minimum_suppression"],
            json!({"m": 5, "share": 0.0, "rows": 0, "max_published_rows": 10,
                   "bound": "lower_bound"})
        );
        assert_eq!(both["max_m"], 5);
        let beyond = ask(r#"{"kind": "epsilon_m", "epsilon": 100, "m": 6}"#);
        assert_eq!(
            beyond["minimum_suppression"],
            json!({"m": 6, "share": 1.0, "rows": 10, "max_published_rows": 0,
                   "bound": "lower_bound"})
        );
        let unbounded = ask(r#"{"kind": "epsilon_m", "m": 1}"#);
        assert_eq!(
            unbounded,
            json!({"max_epsilon_exclusive": null, "bound": "per_group_upper_bound",
                   "deliverable": {"max_epsilon": null, "suppression_limit": 0.0}})
        );
        let sup = ask(r#"{"kind": "epsilon_m", "m": 5}"#);
        assert!(
            sup["max_epsilon_exclusive"].as_f64().unwrap() > 0.0,
            "{sup}"
        );
        // m = 5 allows 2 values per neighbourhood: any ε below 100.
        let delivered = sup["deliverable"]["max_epsilon"].as_f64().unwrap();
        assert!((99.99..100.0).contains(&delivered), "{sup}");
        let d = ask(r#"{"kind": "dissimilarity", "epsilon": 150}"#);
        assert_eq!(d["rows"], 10);
        // Each inner value has 2 neighbours within 150 (itself excluded).
        assert_eq!(d["max_degree"], 2);
        assert!(d["guaranteed"].is_array());
        // The whole table allows ⌊(1−δ)·9⌋ ≥ 2 neighbours for δ ≤ 7/9.
        let delta = d["deliverable"][0]["max_delta"].as_f64().unwrap();
        assert!((delta - 7.0 / 9.0).abs() < 1e-9, "{d}");
        assert_eq!(d["deliverable"][0]["k"], 2);
    }

    #[test]
    fn epsilon_m_feasibility_needs_a_numeric_sa() {
        let t = Table::from_columns(
            vec![("q".into(), QiValues::Numeric(vec![1.0, 2.0]))],
            vec![(
                "s".into(),
                SaValues::Categorical {
                    codes: vec![0, 1],
                    hierarchy: std::sync::Arc::new(proxima_core::Hierarchy::flat(["a", "b"])),
                    has_hierarchy: false,
                },
            )],
        );
        let q = FeasibilityRequestDto::from_json(br#"{"kind": "epsilon_m", "epsilon": 1}"#)
            .unwrap()
            .to_question()
            .unwrap();
        let e = answer(&q, &t).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidParameters);
        // The request has no `/model`: the error points at its own field.
        assert!(!e.errors.is_empty());
        for f in &e.errors {
            assert!(!f.pointer().starts_with("/model"), "{}", f.pointer());
        }
        assert_eq!(e.errors[0].pointer(), "/kind");
    }

    #[test]
    fn core_pointers_become_the_requests_own() {
        let e = own_pointers(
            CoreError::invalid_parameters("/model/epsilon", "too wide")
                .with_error("/model", "needs a numeric SA")
                .with_error("/sensitive_metric", "bad"),
        );
        let pointers: Vec<String> = e.errors.iter().map(|f| f.pointer()).collect();
        assert_eq!(pointers, ["/epsilon", "/kind", "/sensitive_metric"]);
    }
}
