//! The allowable-group predicate of each privacy model Mondrian takes, with
//! the feasibility check on the whole table (a cut can only shrink groups,
//! so a model the whole table misses is out of reach).

use crate::error::{CoreError, CoreResult, ErrorKind, Field};
use crate::params::{LDiversityVariant, PrivacyModel};
use crate::privacy::{self, EmdReference, SaCodes};
use crate::table::Table;

/// A group predicate built from a privacy model.
#[derive(Debug, Clone)]
pub enum Constraint {
    /// |G| ≥ k.
    KAnonymity { k: usize },
    /// |G| ≥ k and the group is l-diverse under the variant.
    LDiversity {
        k: usize,
        l: f64,
        variant: LDiversityVariant,
        sa: SaCodes,
    },
    /// |G| ≥ k and EMD(group, table) ≤ t.
    TCloseness {
        k: usize,
        t: f64,
        sa: SaCodes,
        reference: EmdReference,
    },
}

impl Constraint {
    /// The predicate for `model`, after checking the whole table meets it.
    pub fn for_model(table: &Table, model: &PrivacyModel) -> CoreResult<Constraint> {
        let n = table.rows();
        let check_k = |k: usize| -> CoreResult<usize> {
            if k > n {
                let message = format!("k = {k} exceeds the {n} rows");
                return Err(
                    CoreError::new(ErrorKind::InfeasibleParameters, message.clone())
                        .with_error(Field::ModelParam("k"), message)
                        .with_detail("max_k", n),
                );
            }
            Ok(k)
        };
        match model {
            PrivacyModel::KAnonymity(k) => Ok(Constraint::KAnonymity {
                k: check_k(k.get())?,
            }),
            PrivacyModel::LDiversity(ld) => {
                let k = check_k(ld.k.get())?;
                let sa = SaCodes::new(table, Field::Model)?;
                check_l(&sa, ld.l, ld.variant)?;
                Ok(Constraint::LDiversity {
                    k,
                    l: ld.l,
                    variant: ld.variant,
                    sa,
                })
            }
            PrivacyModel::TCloseness(tc) => {
                let k = check_k(tc.k.get())?;
                let sa = SaCodes::new(table, Field::Model)?;
                // The whole table is at EMD 0 from itself: any t ≥ 0 is
                // reachable, only k can be infeasible.
                let reference =
                    EmdReference::new(&sa, tc.ground, Field::ModelParam("ground_distance"))?;
                Ok(Constraint::TCloseness {
                    k,
                    t: tc.t.get(),
                    sa,
                    reference,
                })
            }
            other => Err(CoreError::invalid_parameters(
                Field::Algorithm,
                format!(
                    "mondrian takes k_anonymity, l_diversity or t_closeness, not '{}'",
                    other.kind_name()
                ),
            )),
        }
    }

    /// The smallest group the constraint allows (its k).
    pub fn min_size(&self) -> usize {
        match self {
            Constraint::KAnonymity { k }
            | Constraint::LDiversity { k, .. }
            | Constraint::TCloseness { k, .. } => *k,
        }
    }

    /// Whether [`allows`](Self::allows) reads only the group's size.
    pub fn sizes_only(&self) -> bool {
        matches!(self, Constraint::KAnonymity { .. })
    }

    /// Whether `rows` may be a group.
    pub fn allows(&self, rows: &[u32]) -> bool {
        match self {
            Constraint::KAnonymity { k } => rows.len() >= *k,
            Constraint::LDiversity { k, l, variant, sa } => {
                rows.len() >= *k && privacy::is_l_diverse(&sa.group_counts(rows), *l, *variant)
            }
            Constraint::TCloseness {
                k,
                t,
                sa,
                reference,
            } => rows.len() >= *k && reference.emd(&sa.group_counts(rows)) <= *t,
        }
    }
}

/// Infeasible unless the whole table is l-diverse; names the largest l it
/// reaches (`max_l`).
fn check_l(sa: &SaCodes, l: f64, variant: LDiversityVariant) -> CoreResult<()> {
    let whole = sa.whole_table();
    if privacy::is_l_diverse(&whole, l, variant) {
        return Ok(());
    }
    let name = sa.name();
    let err = |field: Field, message: String| {
        CoreError::new(ErrorKind::InfeasibleParameters, message.clone()).with_error(field, message)
    };
    Err(match variant {
        LDiversityVariant::Distinct => {
            let d = privacy::distinct(&whole);
            err(
                Field::ModelParam("l"),
                format!("the whole table has only {d} distinct values of {name}, so l ≤ {d}"),
            )
            .with_detail("max_l", d)
        }
        LDiversityVariant::Entropy => {
            let h = privacy::entropy(&whole);
            let max_l = h.exp();
            err(
                Field::ModelParam("l"),
                format!(
                    "the entropy of {name} over the whole table is {h:.4}, so entropy l ≤ {max_l:.4}"
                ),
            )
            .with_detail("max_l", max_l)
        }
        LDiversityVariant::Recursive { c } => {
            let max_l = privacy::max_recursive_l(&whole, c);
            if max_l == 0 {
                let top = whole.entries().iter().map(|e| e.1).max().unwrap_or(0);
                err(
                    Field::ModelParam("c"),
                    format!(
                        "with c = {c} not even l = 1 holds: the most frequent value of {name} has {top} of the {} rows; raise c",
                        whole.total()
                    ),
                )
                .with_detail("max_l", 0usize)
            } else {
                err(
                    Field::ModelParam("l"),
                    format!(
                        "with c = {c} the whole table is recursive (c,l)-diverse on {name} only up to l = {max_l}"
                    ),
                )
                .with_detail("max_l", max_l)
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Detail;
    use crate::params::{Dissimilarity, Epsilon, Fraction, LDiversity, K};
    use crate::table::{QiValues, SaValues};

    fn table(sa: Vec<f64>) -> Table {
        let n = sa.len();
        Table::from_columns(
            vec![(
                "a".into(),
                QiValues::Numeric((0..n).map(|i| i as f64).collect()),
            )],
            vec![("s".into(), SaValues::Numeric(sa))],
        )
    }

    fn model_l(l: f64, variant: LDiversityVariant) -> PrivacyModel {
        let k = K::new(1, Field::ModelParam("k")).unwrap();
        PrivacyModel::LDiversity(LDiversity::new(l, variant, k, "/model").unwrap())
    }

    #[test]
    fn infeasible_models_name_the_reachable_value() {
        let t = table(vec![1.0, 1.0, 1.0, 2.0]);
        let k = K::new(5, "/model/k").unwrap();
        let err = Constraint::for_model(&t, &PrivacyModel::KAnonymity(k)).unwrap_err();
        assert_eq!(err.kind, ErrorKind::InfeasibleParameters);
        assert_eq!(err.message, "k = 5 exceeds the 4 rows");
        assert_eq!(err.detail("max_k"), Some(&Detail::Int(4)));

        let err =
            Constraint::for_model(&t, &model_l(3.0, LDiversityVariant::Distinct)).unwrap_err();
        assert_eq!(
            err.message,
            "the whole table has only 2 distinct values of s, so l ≤ 2"
        );
        assert_eq!(err.detail("max_l"), Some(&Detail::Int(2)));

        let err = Constraint::for_model(&t, &model_l(2.0, LDiversityVariant::Entropy)).unwrap_err();
        let h = -(0.75f64 * 0.75f64.ln() + 0.25 * 0.25f64.ln());
        assert_eq!(err.detail("max_l"), Some(&Detail::Num(h.exp())));

        // r = (3, 1): l = 2 needs 3 < c·1.
        let rec = |c| model_l(2.0, LDiversityVariant::Recursive { c });
        assert!(Constraint::for_model(&t, &rec(3.5)).is_ok());
        let err = Constraint::for_model(&t, &rec(2.0)).unwrap_err();
        assert_eq!(err.detail("max_l"), Some(&Detail::Int(1)));
        let err = Constraint::for_model(&t, &rec(0.5)).unwrap_err();
        assert_eq!(err.detail("max_l"), Some(&Detail::Int(0)));
        assert_eq!(err.errors[0].field, Field::ModelParam("c"));
    }

    #[test]
    fn other_models_are_refused_at_algorithm() {
        let t = table(vec![1.0, 2.0]);
        let d = Dissimilarity {
            epsilon: Epsilon::new(0.1, "/e").unwrap(),
            delta: Fraction::new(0.5, "delta", "/d").unwrap(),
            k: K::new(2, "/k").unwrap(),
        };
        let err = Constraint::for_model(&t, &PrivacyModel::Dissimilarity(d)).unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidParameters);
        assert_eq!(err.errors[0].field, Field::Algorithm);
    }
}
