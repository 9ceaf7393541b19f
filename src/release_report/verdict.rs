//! The verdict that opens every release report: `publishable`,
//! `publishable_with_conditions` or `not_publishable`, with its reasons,
//! each pointing at the report's section that supports it.
//!
//! [`judge`] is a pure function of typed [`Facts`] (taken from the report
//! by `ReleaseReport::verdict_facts`) and the tenant's [`ReleasePolicy`]. Every fact the
//! report measures becomes one reason — the ones that pass too, so the
//! officer sees what was checked, not only what failed. A reason's
//! [`Effect`] decides: one `blocking` reason makes the release not
//! publishable; otherwise one `condition` makes it publishable with
//! conditions (to be met or stated beside the data).
//!
//! Disclosure risk blocks; utility and the warnings that do not put a
//! record at risk by themselves are conditions: a release that is safe but
//! coarse may still be worth publishing with its caveats said.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::policy::{PolicySource, ReleasePolicy};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    Publishable,
    PublishableWithConditions,
    NotPublishable,
}

impl Decision {
    /// In words, as the pages print it.
    pub fn words(self) -> &'static str {
        match self {
            Decision::Publishable => "publishable",
            Decision::PublishableWithConditions => "publishable with conditions",
            Decision::NotPublishable => "not publishable",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Publishable => "publishable",
            Decision::PublishableWithConditions => "publishable_with_conditions",
            Decision::NotPublishable => "not_publishable",
        }
    }
}

/// What a reason does to the decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// Checked and within the policy.
    Ok,
    /// Publishable only with this met or said beside the data.
    Condition,
    /// Not publishable while this stands.
    Blocking,
}

/// What a reason is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = VerdictReasonKind)]
pub enum ReasonKind {
    /// The job failed: there is no release.
    JobFailed,
    /// The job's model, judged in the attacker's view.
    Model,
    /// The highest prosecutor risk after release.
    ProsecutorRisk,
    /// The share of the population estimated unique after release.
    PopulationUniques,
    /// An insensitive column that acts as a quasi-identifier.
    FineGrainedColumn,
    /// An insensitive column that gives the sensitive attribute away.
    SaAssociation,
    /// A QI left almost ungeneralized.
    UngeneralizedQi,
    /// Suppression concentrated in one QI value.
    SuppressionConcentrated,
    /// Rows the model left out.
    SuppressedRows,
    /// The median count-query error.
    QueryError,
}

/// One reason of the verdict.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = VerdictReason)]
pub struct Reason {
    pub kind: ReasonKind,
    pub effect: Effect,
    /// One sentence for a non-specialist.
    pub message: String,
    /// The report section that supports it (an HTML anchor of the page,
    /// e.g. `#attacker-view`, `#warning-2`).
    pub anchor: String,
    /// The measured figure, when there is one.
    #[schema(required = true)]
    pub value: Option<f64>,
    /// The policy's threshold it was held against, when there is one.
    #[schema(required = true)]
    pub threshold: Option<f64>,
}

/// The verdict, its reasons and the policy it applied.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[schema(as = Verdict)]
pub struct Verdict {
    pub decision: Decision,
    /// Blocking reasons first, then conditions, then what passed.
    pub reasons: Vec<Reason>,
    pub policy: ReleasePolicy,
    /// `default` or `tenant` (set with `PUT /v1/settings/release-policy`).
    pub policy_source: PolicySource,
}

/// A computed warning of the report, typed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WarningFact {
    pub kind: ReasonKind,
    pub column: String,
    /// Its 1-based place among the report's warnings (`#warning-N`).
    pub number: usize,
    pub message: String,
    /// Fine-grained columns: the share of published records the column
    /// leaves below the model's k.
    pub below_k_share: Option<f64>,
}

/// Everything the verdict is decided on. Serialized for a sweep point's
/// job (`job_results.verdict_facts`), so that the point is judged under the
/// tenant's policy as it stands when the sweep is read, without rebuilding
/// the report.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Facts {
    /// The failed job's error code; None when it succeeded.
    pub failed: Option<String>,
    /// The model's check in the attacker's view: its kind and whether it
    /// passed; None without a release.
    pub model: Option<(String, bool)>,
    pub prosecutor_max: Option<f64>,
    pub population_uniques_share: Option<f64>,
    pub warnings: Vec<WarningFact>,
    pub suppressed_share: Option<f64>,
    /// The largest median relative error over the workloads, with its q.
    pub median_query_error: Option<(u64, f64)>,
}

/// The anchor of a report's `n`-th warning (1-based).
pub fn warning_anchor(n: usize) -> String {
    format!("warning-{n}")
}

pub(super) fn warning_kind(kind: &str) -> ReasonKind {
    match kind {
        "fine_grained_column" => ReasonKind::FineGrainedColumn,
        "sa_association" => ReasonKind::SaAssociation,
        "ungeneralized_qi" => ReasonKind::UngeneralizedQi,
        _ => ReasonKind::SuppressionConcentrated,
    }
}

/// A share as a percentage the way the report writes them: one decimal
/// (two below 0.1 %), no trailing `.0`.
fn pct(x: f64) -> String {
    let p = 100.0 * x;
    let s = if p != 0.0 && p.abs() < 0.1 {
        format!("{p:.2}")
    } else {
        format!("{p:.1}")
    };
    format!("{}%", s.strip_suffix(".0").unwrap_or(&s))
}

/// Decides. `source` says where `policy` came from.
pub fn judge(facts: &Facts, policy: &ReleasePolicy, source: PolicySource) -> Verdict {
    let mut reasons = Vec::new();
    let mut add = |kind, effect, message: String, anchor: &str, value, threshold| {
        reasons.push(Reason {
            kind,
            effect,
            message,
            anchor: format!("#{anchor}"),
            value,
            threshold,
        })
    };
    if let Some(code) = &facts.failed {
        add(
            ReasonKind::JobFailed,
            Effect::Blocking,
            format!("The job failed ({code}): there is no release to publish."),
            "failure",
            None,
            None,
        );
    }
    if let Some((kind, passed)) = &facts.model {
        let (effect, message) = if *passed {
            (
                Effect::Ok,
                format!(
                    "The model ({kind}) holds for every record as an attacker reads the \
                     release (every group whose labels cover the record counts)."
                ),
            )
        } else {
            (
                Effect::Blocking,
                format!(
                    "The model ({kind}) does not hold for some records as an attacker reads \
                     the release."
                ),
            )
        };
        add(
            ReasonKind::Model,
            effect,
            message,
            "attacker-view",
            None,
            None,
        );
    }
    if let Some(risk) = facts.prosecutor_max {
        let max = policy.max_prosecutor_risk;
        let (effect, verb) = if risk > max {
            (Effect::Blocking, "above")
        } else {
            (Effect::Ok, "within")
        };
        add(
            ReasonKind::ProsecutorRisk,
            effect,
            format!(
                "An attacker who knows a person is in the table singles out their record \
                 with probability at most {} ({verb} the policy's {}).",
                pct(risk),
                pct(max)
            ),
            "risk",
            Some(risk),
            Some(max),
        );
    }
    if let Some(share) = facts.population_uniques_share {
        let max = policy.max_population_uniques_share;
        let (effect, verb) = if share > max {
            (Effect::Blocking, "above")
        } else {
            (Effect::Ok, "within")
        };
        add(
            ReasonKind::PopulationUniques,
            effect,
            format!(
                "An estimated {} of the population is unique on the published \
                 quasi-identifiers ({verb} the policy's {}).",
                pct(share),
                pct(max)
            ),
            "risk",
            Some(share),
            Some(max),
        );
    }
    for w in &facts.warnings {
        let anchor = warning_anchor(w.number);
        let (effect, message, value, threshold) = match w.kind {
            ReasonKind::FineGrainedColumn => {
                let max = policy.max_below_k_share;
                match w.below_k_share {
                    Some(share) if share > max => (
                        Effect::Blocking,
                        format!(
                            "'{}' is published as is but acts as a quasi-identifier: an \
                             attacker who knows it leaves {} of the records in groups smaller \
                             than k (the policy allows {}). Declare it a quasi-identifier or \
                             leave it out.",
                            w.column,
                            pct(share),
                            pct(max)
                        ),
                        Some(share),
                        Some(max),
                    ),
                    share => (
                        Effect::Condition,
                        format!(
                            "'{}' is published as is and makes some records unique to an \
                             attacker who knows it{}. Confirm that it is not known to \
                             outsiders, or generalize it.",
                            w.column,
                            share.map_or(String::new(), |s| format!(
                                " ({} of the records fall below k, within the policy's {})",
                                pct(s),
                                pct(max)
                            )),
                        ),
                        share,
                        Some(max),
                    ),
                }
            }
            ReasonKind::SaAssociation => (
                Effect::Condition,
                format!(
                    "'{}' is published as is and gives much of the sensitive attribute away. \
                     Confirm that this is acceptable, or coarsen or drop it.",
                    w.column
                ),
                None,
                None,
            ),
            ReasonKind::UngeneralizedQi => (
                Effect::Condition,
                format!(
                    "The quasi-identifier '{}' is published almost as uploaded. Confirm that \
                     this is intended.",
                    w.column
                ),
                None,
                None,
            ),
            _ => (
                Effect::Condition,
                format!(
                    "The rows left out come mostly from one value of '{}': counts for it are \
                     biased. Say so beside the data.",
                    w.column
                ),
                None,
                None,
            ),
        };
        add(w.kind, effect, message, &anchor, value, threshold);
    }
    if let Some(share) = facts.suppressed_share {
        let max = policy.max_suppressed_share;
        let (effect, message) = if share > max {
            (
                Effect::Condition,
                format!(
                    "The model left out {} of the rows (the policy allows {} without \
                     comment): say so beside the data, since every count from it is short.",
                    pct(share),
                    pct(max)
                ),
            )
        } else {
            (
                Effect::Ok,
                format!(
                    "The model left out {} of the rows (within the policy's {}).",
                    pct(share),
                    pct(max)
                ),
            )
        };
        add(
            ReasonKind::SuppressedRows,
            effect,
            message,
            "utility",
            Some(share),
            Some(max),
        );
    }
    if let Some((q, median)) = facts.median_query_error {
        let max = policy.max_median_query_error;
        let (effect, message) = if median > max {
            (
                Effect::Condition,
                format!(
                    "Counts over {q} quasi-identifiers are off by {} or more for half of the \
                     test queries (the policy allows {}): say that such counts are unreliable.",
                    pct(median),
                    pct(max)
                ),
            )
        } else {
            (
                Effect::Ok,
                format!(
                    "Counts over up to {q} quasi-identifiers are off by at most {} for half \
                     of the test queries (within the policy's {}).",
                    pct(median),
                    pct(max)
                ),
            )
        };
        add(
            ReasonKind::QueryError,
            effect,
            message,
            "utility",
            Some(median),
            Some(max),
        );
    }
    // Stable: within one effect, the report's order.
    reasons.sort_by_key(|r| std::cmp::Reverse(r.effect));
    let decision = match reasons.first().map(|r| r.effect) {
        Some(Effect::Blocking) => Decision::NotPublishable,
        Some(Effect::Condition) => Decision::PublishableWithConditions,
        // Nothing measured at all cannot be called publishable.
        None => Decision::NotPublishable,
        Some(Effect::Ok) => Decision::Publishable,
    };
    Verdict {
        decision,
        reasons,
        policy: *policy,
        policy_source: source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A clean release: model holds, every figure within the defaults.
    fn clean() -> Facts {
        Facts {
            failed: None,
            model: Some(("k_anonymity".into(), true)),
            prosecutor_max: Some(0.05),
            population_uniques_share: None,
            warnings: Vec::new(),
            suppressed_share: Some(0.0),
            median_query_error: Some((3, 0.2)),
        }
    }

    fn warning(kind: ReasonKind, below_k: Option<f64>) -> WarningFact {
        WarningFact {
            kind,
            column: "occupation".into(),
            number: 1,
            message: String::new(),
            below_k_share: below_k,
        }
    }

    fn decide(f: &Facts) -> Verdict {
        judge(f, &ReleasePolicy::default(), PolicySource::Default)
    }

    fn effect_of(v: &Verdict, kind: ReasonKind) -> Effect {
        v.reasons.iter().find(|r| r.kind == kind).unwrap().effect
    }

    #[test]
    fn a_clean_release_is_publishable_and_lists_what_was_checked() {
        let v = decide(&clean());
        assert_eq!(v.decision, Decision::Publishable);
        let kinds: Vec<_> = v.reasons.iter().map(|r| r.kind).collect();
        assert_eq!(
            kinds,
            [
                ReasonKind::Model,
                ReasonKind::ProsecutorRisk,
                ReasonKind::SuppressedRows,
                ReasonKind::QueryError
            ]
        );
        assert!(v.reasons.iter().all(|r| r.effect == Effect::Ok));
        assert_eq!(v.reasons[0].anchor, "#attacker-view");
        assert_eq!(v.policy_source, PolicySource::Default);
    }

    #[test]
    fn a_failed_job_is_not_publishable() {
        let f = Facts {
            failed: Some("model_not_satisfied".into()),
            ..Facts::default()
        };
        let v = decide(&f);
        assert_eq!(v.decision, Decision::NotPublishable);
        assert_eq!(v.reasons[0].kind, ReasonKind::JobFailed);
        assert_eq!(v.reasons[0].anchor, "#failure");
    }

    #[test]
    fn nothing_measured_is_not_publishable() {
        assert_eq!(decide(&Facts::default()).decision, Decision::NotPublishable);
    }

    #[test]
    fn a_model_failing_in_the_attackers_view_blocks() {
        let mut f = clean();
        f.model = Some(("epsilon_m".into(), false));
        let v = decide(&f);
        assert_eq!(v.decision, Decision::NotPublishable);
        assert_eq!(effect_of(&v, ReasonKind::Model), Effect::Blocking);
    }

    #[test]
    fn prosecutor_risk_above_the_policy_blocks_and_at_it_passes() {
        let mut f = clean();
        f.prosecutor_max = Some(0.5);
        let v = decide(&f);
        assert_eq!(v.decision, Decision::NotPublishable);
        let r = &v.reasons[0];
        assert_eq!(
            (r.kind, r.value, r.threshold),
            (ReasonKind::ProsecutorRisk, Some(0.5), Some(0.1))
        );
        assert_eq!(r.anchor, "#risk");
        f.prosecutor_max = Some(0.1);
        assert_eq!(decide(&f).decision, Decision::Publishable);
        // A tenant's looser policy lets the 0.5 through.
        f.prosecutor_max = Some(0.5);
        let loose = ReleasePolicy {
            max_prosecutor_risk: 0.5,
            ..ReleasePolicy::default()
        };
        let v = judge(&f, &loose, PolicySource::Tenant);
        assert_eq!(v.decision, Decision::Publishable);
        assert_eq!(v.policy, loose);
    }

    #[test]
    fn population_uniques_above_the_policy_block() {
        let mut f = clean();
        f.population_uniques_share = Some(0.001);
        assert_eq!(
            effect_of(&decide(&f), ReasonKind::PopulationUniques),
            Effect::Ok
        );
        f.population_uniques_share = Some(0.2);
        let v = decide(&f);
        assert_eq!(v.decision, Decision::NotPublishable);
        assert_eq!(
            effect_of(&v, ReasonKind::PopulationUniques),
            Effect::Blocking
        );
    }

    #[test]
    fn a_column_acting_as_a_qi_blocks_above_the_below_k_share_and_is_a_condition_under_it() {
        let mut f = clean();
        f.warnings = vec![warning(ReasonKind::FineGrainedColumn, Some(0.424))];
        let v = decide(&f);
        assert_eq!(v.decision, Decision::NotPublishable);
        let r = &v.reasons[0];
        assert_eq!(r.kind, ReasonKind::FineGrainedColumn);
        assert_eq!(r.anchor, "#warning-1");
        assert!(r.message.contains("42.4%"), "{}", r.message);
        assert!(r.message.contains("allows 5%"), "{}", r.message);
        f.warnings = vec![warning(ReasonKind::FineGrainedColumn, Some(0.01))];
        assert_eq!(decide(&f).decision, Decision::PublishableWithConditions);
        f.warnings = vec![warning(ReasonKind::FineGrainedColumn, None)];
        assert_eq!(decide(&f).decision, Decision::PublishableWithConditions);
    }

    #[test]
    fn the_other_warnings_are_conditions() {
        for kind in [
            ReasonKind::SaAssociation,
            ReasonKind::UngeneralizedQi,
            ReasonKind::SuppressionConcentrated,
        ] {
            let mut f = clean();
            f.warnings = vec![warning(kind, None)];
            let v = decide(&f);
            assert_eq!(v.decision, Decision::PublishableWithConditions, "{kind:?}");
            assert_eq!(v.reasons[0].kind, kind);
            assert_eq!(v.reasons[0].effect, Effect::Condition);
        }
    }

    #[test]
    fn utility_beyond_the_policy_is_a_condition() {
        let mut f = clean();
        f.median_query_error = Some((2, 0.9));
        let v = decide(&f);
        assert_eq!(v.decision, Decision::PublishableWithConditions);
        assert_eq!(effect_of(&v, ReasonKind::QueryError), Effect::Condition);
        let mut f = clean();
        f.suppressed_share = Some(0.2);
        let v = decide(&f);
        assert_eq!(v.decision, Decision::PublishableWithConditions);
        assert_eq!(effect_of(&v, ReasonKind::SuppressedRows), Effect::Condition);
        assert_eq!(v.reasons[0].anchor, "#utility");
    }

    #[test]
    fn blocking_reasons_come_first_then_conditions() {
        let mut f = clean();
        f.median_query_error = Some((2, 0.9));
        f.prosecutor_max = Some(0.9);
        let v = decide(&f);
        let effects: Vec<_> = v.reasons.iter().map(|r| r.effect).collect();
        let mut sorted = effects.clone();
        sorted.sort_by_key(|e| std::cmp::Reverse(*e));
        assert_eq!(effects, sorted);
        assert_eq!(effects[0], Effect::Blocking);
        assert_eq!(effects[1], Effect::Condition);
    }

    #[test]
    fn decisions_have_their_contract_names() {
        for (d, s) in [
            (Decision::Publishable, "publishable"),
            (
                Decision::PublishableWithConditions,
                "publishable_with_conditions",
            ),
            (Decision::NotPublishable, "not_publishable"),
        ] {
            assert_eq!(d.as_str(), s);
            assert_eq!(serde_json::to_value(d).unwrap(), s);
        }
    }
}
